#!/usr/bin/env python3
"""Plays a match between two UCI engines in one Chimera variant, judged by pyffish.

Every move an engine sends is checked against pyffish's legal moves (Fairy-Stockfish's
rules); pyffish also decides when a game is over. An engine that plays an illegal move,
crashes, stops answering or oversteps its clock loses that game, and the report says why.

Run it with the Python of the virtual environment that has pyffish (`scripts/setup.sh`
makes it):

    PY=~/.cache/chimera-venv/bin/python
    CHIMERA="$HOME/.cache/chimera-target/release/chimera uci"

    # Chimera against Fairy-Stockfish at Skill Level 0, 20 games of crazyhouse at 100 ms a move.
    $PY scripts/uci_match.py --engine1 "$CHIMERA" --name1 chimera \\
        --engine2 /usr/games/fairy-stockfish --name2 fs0 --opt2 "Skill Level=0" \\
        --variant crazyhouse --games 20 --movetime 100 --openings 4 --seed 7

    # Fairy-Stockfish strong against weak, 10+0.1 s clocks, two games at a time, with a PGN.
    $PY scripts/uci_match.py --engine1 /usr/games/fairy-stockfish --opt1 "Skill Level=20" \\
        --engine2 /usr/games/fairy-stockfish --opt2 "Skill Level=-10" \\
        --variant xiangqi --games 8 --tc 10+0.1 --jobs 2 --pgn /tmp/xiangqi.pgn

Options, in short (see --help):
  --engine1/--engine2 CMD   command lines, split as a shell would (no shell runs them)
  --name1/--name2           names for the report (default: the engines' `id name`)
  --opt1/--opt2 Name=Value  sent as `setoption name Name value Value` (repeatable)
  --variant ID              a Chimera catalogue id (presets/*.ron); chess960 is sent as
                            UCI_Variant chess plus UCI_Chess960 true
  --fen FEN                 the start position (sent with `position fen`); default startpos,
                            except chess960, where each opening pair starts from a seeded
                            random Chess960 array
  --movetime MS | --nodes N | --depth N | --tc BASE+INC (seconds)
  --games N, --openings K (K seeded random plies; each opening is played twice, colours
  swapped), --seed, --max-plies (then a draw is adjudicated), --jobs, --pgn FILE,
  --ffish-ini FILE (a variants.ini for pyffish, for variants it lacks, e.g. Orda)

Game ends, all by pyffish: the variant's own ends (`is_immediate_game_end`), no legal move
(`game_result`: mate, stalemate or the variant's rule), claimable ends taken at once
(`is_optional_game_end`: repetition, the move-count rules), both sides without mating
material (`has_insufficient_material`), and --max-plies. pyffish's values are from the side
to move's point of view: positive means the side to move wins.

The protocol the engines must speak: `uci` ... `uciok`; `setoption`; `isready` ...
`readyok`; `ucinewgame`; `position startpos moves ...` or `position fen <FEN> moves ...`
(moves in Fairy-Stockfish's UCI: `e7e8q`, drops `P@e4`, Chess960 castling king-takes-rook,
a pass as the king to its own square); `go ...` answered by `bestmove <move>`; `stop`;
`quit`. `bestmove (none)` (or `0000`) with legal moves on the board loses as an illegal
move; `bestmove pass` is read as the pass move where pyffish has one.

The summary gives W/D/L from engine 1's point of view, its score, the Elo difference with a
95% confidence interval (logistic model; normal approximation from the per-game score
variance; an all-won or all-lost match gets an exact one-sided bound instead), and the
losses by illegal move, timeout and crash. Exit code 0 when the match was played (whatever
its result), 1 on a setup error (engine will not start, no `uciok`, variant not offered,
bad options), 130 when interrupted.

Only the Python standard library and pyffish are used.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import datetime
import math
import multiprocessing
import os
import queue
import random
import shlex
import signal
import subprocess
import sys
import threading
import time

try:
    import pyffish as sf
except ImportError as exc:  # pragma: no cover - depends on the environment
    sys.exit(f"cannot import pyffish ({exc}); run scripts/setup.sh and use ~/.cache/chimera-venv/bin/python")

GRACE_MS = 100
NO_MOVE = ("(none)", "0000")


# ---------------------------------------------------------------------------------------
# Variants


class SetupError(Exception):
    """A problem that stops the match before it starts (exit code 1)."""


def fs_variant(variant_id: str) -> tuple[str, bool]:
    """Fairy-Stockfish's variant name and Chess960 flag for a Chimera catalogue id."""
    if variant_id == "chess960":
        return "chess", True
    return variant_id, False


def load_ffish_ini(path: str | None) -> None:
    """Loads a Fairy-Stockfish variants.ini into pyffish (for variants it does not know)."""
    if not path:
        return
    try:
        with open(path, encoding="utf-8") as f:
            sf.load_variant_config(f.read())
    except OSError as exc:
        raise SetupError(f"cannot read --ffish-ini {path}: {exc}") from exc


def random_chess960_fen(rng: random.Random) -> str:
    """A uniformly random Chess960 start position, castling rights written as X-FEN KQkq."""
    rank: list[str | None] = [None] * 8
    rank[rng.randrange(0, 8, 2)] = "B"
    rank[rng.randrange(1, 8, 2)] = "B"
    for piece in ("Q", "N", "N"):
        free = [i for i, p in enumerate(rank) if p is None]
        rank[free[rng.randrange(len(free))]] = piece
    free = [i for i, p in enumerate(rank) if p is None]
    for i, piece in zip(free, "RKR"):
        rank[i] = piece
    white = "".join(p or "?" for p in rank)
    return f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1"


def check_fen(variant: str, fen: str, chess960: bool) -> None:
    code = sf.validate_fen(fen, variant, chess960)
    if code != sf.FEN_OK:
        raise SetupError(f"pyffish rejects the FEN '{fen}' for {variant} (code {code})")


def turn_after(start_fen: str, plies: int) -> int:
    """0 for white (the first player), 1 for black, after `plies` moves from `start_fen`.

    Every catalogue variant alternates turns (a Janggi pass is a move), so parity is enough.
    """
    first = 0 if start_fen.split()[1].lower() == "w" else 1
    return (first + plies) % 2


def normalize_move(move: str, legal: list[str]) -> str:
    """The engine's move in pyffish's notation: `pass` becomes the king-to-its-square pass."""
    if move in legal:
        return move
    if move in ("pass", "@@@@"):
        passes = [m for m in legal if len(m) >= 4 and "@" not in m and split_squares(m)[0] == split_squares(m)[1]]
        if len(passes) == 1:
            return passes[0]
    return move


def split_squares(move: str) -> tuple[str, str]:
    """The two squares of a UCI move (`a10a9` -> ('a10', 'a9')); drops give ('', square)."""
    if "@" in move:
        return "", move.split("@", 1)[1]
    i = 1
    while i < len(move) and move[i].isdigit():
        i += 1
    j = i + 1
    while j < len(move) and move[j].isdigit():
        j += 1
    return move[:i], move[i:j]


@dataclasses.dataclass
class End:
    """A game's end as pyffish sees it."""

    result: str  # "1-0", "0-1" or "1/2-1/2"
    reason: str


def result_from_value(value: int, mover: int) -> str:
    """A PGN result from a pyffish value (side to move's view) and the side to move."""
    if value == 0:
        return "1/2-1/2"
    mover_wins = value > 0
    white_wins = mover_wins == (mover == 0)
    return "1-0" if white_wins else "0-1"


def repetition_count(variant: str, fen: str, moves: list[str], chess960: bool) -> int:
    """How often the current position (board, turn, hands, rights) has occurred; for reports."""

    def key(n: int) -> str:
        parts = sf.get_fen(variant, fen, moves[:n], chess960).split()
        return " ".join(parts[:4])  # board (with hands), turn, castling, en passant

    now = key(len(moves))
    return sum(1 for n in range(len(moves) % 2, len(moves) + 1, 2) if key(n) == now)


def judge(variant: str, fen: str, moves: list[str], chess960: bool, material: bool = True) -> tuple[End | None, list[str]]:
    """Whether the game is over after `moves`, and else the legal moves (pyffish's).

    `material`: also end the game as a draw when neither side has mating material.
    """
    mover = turn_after(fen, len(moves))
    ended, value = sf.is_immediate_game_end(variant, fen, moves, chess960)
    if ended:
        return End(result_from_value(value, mover), "variant rule ends the game"), []
    legal = sf.legal_moves(variant, fen, moves, chess960)
    if not legal:
        value = sf.game_result(variant, fen, moves, chess960)
        check = sf.gives_check(variant, fen, moves, chess960)
        what = "checkmate" if check else ("stalemate" if value == 0 else "no legal move")
        return End(result_from_value(value, mover), what), []
    ended, value = sf.is_optional_game_end(variant, fen, moves, chess960)
    if ended:
        reps = repetition_count(variant, fen, moves, chess960)
        if reps >= 2:
            why = f"repetition ({reps} times)" + ("" if value == 0 else ", decided by the variant's repetition rule")
        else:
            why = "move-count rule (e.g. 50 moves)"
        return End(result_from_value(value, mover), f"claimed: {why}"), legal
    if material:
        white, black = sf.has_insufficient_material(variant, fen, moves, chess960)
        if white and black:
            return End("1/2-1/2", "insufficient material"), legal
    return None, legal


# ---------------------------------------------------------------------------------------
# Engines


class EngineError(Exception):
    kind = "crash"


class EngineCrashed(EngineError):
    kind = "crash"


class EngineTimeout(EngineError):
    kind = "timeout"


def parse_option(line: str) -> tuple[str, dict]:
    """`option name Skill Level type spin default 20 min -20 max 20` -> ('Skill Level', {...})."""
    tokens = line.split()[1:]
    fields: dict = {"var": []}
    key, words = None, []

    def flush():
        if key == "var":
            fields["var"].append(" ".join(words))
        elif key:
            fields[key] = " ".join(words)

    for t in tokens:
        # A name ends only at `type`; other fields end at any keyword.
        if (key == "name" and t == "type") or (key != "name" and t in ("name", "type", "default", "min", "max", "var")):
            flush()
            key, words = t, []
        else:
            words.append(t)
    flush()
    return fields.get("name", ""), fields


class Engine:
    """A UCI engine process, its output read by a thread into a queue.

    `trace(name, direction, line)` (optional) sees every line sent (`>`) and read (`<`).
    """

    def __init__(self, cmd: list[str], name: str, trace=None):
        self.cmd = cmd
        self.name = name
        self.trace = trace
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue = queue.Queue()
        self.stderr_tail: collections.deque = collections.deque(maxlen=12)
        self.options: dict[str, dict] = {}
        self.id_name: str | None = None

    # Process ------------------------------------------------------------------------

    def start(self) -> None:
        try:
            self.proc = subprocess.Popen(
                self.cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
                errors="replace",
                start_new_session=True,  # Its own process group: killed as a whole, spared the terminal's Ctrl-C.
            )
        except OSError as exc:
            raise SetupError(f"{self.name}: cannot start {shlex.join(self.cmd)}: {exc}") from exc
        self.lines = queue.Queue()
        self.stderr_tail.clear()
        proc, lines, tail = self.proc, self.lines, self.stderr_tail

        def read_stdout():
            try:
                for line in proc.stdout:
                    lines.put(line.rstrip("\r\n"))
            except (OSError, ValueError):
                pass
            lines.put(None)

        def read_stderr():
            try:
                for line in proc.stderr:
                    tail.append(line.rstrip("\r\n"))
            except (OSError, ValueError):
                pass

        threading.Thread(target=read_stdout, daemon=True).start()
        threading.Thread(target=read_stderr, daemon=True).start()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def exit_description(self) -> str:
        code = None
        if self.proc is not None:
            try:
                code = self.proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                pass
        if code is None:
            text = "closed its output"
        elif code < 0:
            try:
                text = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                text = f"killed by signal {-code}"
        else:
            text = f"exited with code {code}"
        time.sleep(0.05)  # Let the stderr thread catch the last words.
        if self.stderr_tail:
            text += "; stderr: " + " | ".join(list(self.stderr_tail)[-4:])
        return text

    def close(self) -> None:
        """Asks the engine to quit, then kills its process group."""
        proc = self.proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                proc.stdin.write("quit\n")
                proc.stdin.flush()
            except (OSError, ValueError):
                pass
            try:
                proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # Also any children a wrapper left behind.
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            pass
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        self.proc = None

    # Lines --------------------------------------------------------------------------

    def send(self, line: str) -> None:
        if self.trace:
            self.trace(self.name, ">", line)
        if self.proc is None:
            raise EngineCrashed(f"{self.name} is not running")
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError) as exc:
            raise EngineCrashed(f"{self.name} stopped reading its input ({exc}); {self.exit_description()}") from exc

    def readline(self, deadline: float) -> str:
        """The next line, or EngineTimeout at `deadline` (time.monotonic), EngineCrashed at EOF."""
        remaining = deadline - time.monotonic()
        try:
            line = self.lines.get(timeout=max(remaining, 0.0)) if remaining > 0 else self.lines.get_nowait()
        except queue.Empty:
            raise EngineTimeout(f"{self.name} did not answer in time") from None
        if line is None:
            self.lines.put(None)  # Later reads see the end too.
            raise EngineCrashed(f"{self.name} {self.exit_description()}")
        if self.trace:
            self.trace(self.name, "<", line)
        return line

    def wait_for(self, first_word: str, timeout: float) -> list[str]:
        """Reads up to and including the first line starting with `first_word`; all lines read."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            line = self.readline(deadline)
            seen.append(line)
            if line.split(maxsplit=1)[:1] == [first_word]:
                return seen

    def drain(self) -> list[str]:
        """Whatever the engine has written and nobody read yet."""
        out = []
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return out
            if line is None:
                self.lines.put(None)
                return out
            out.append(line)

    # UCI ----------------------------------------------------------------------------

    def handshake(self, timeout: float = 10.0) -> None:
        """`uci` ... `uciok`, reading `id name` and the options."""
        self.send("uci")
        self.options = {}
        for line in self.wait_for("uciok", timeout):
            if line.startswith("id name "):
                self.id_name = line[len("id name ") :].strip()
            elif line.startswith("option "):
                name, fields = parse_option(line)
                if name:
                    self.options[name.lower()] = fields

    def set_option(self, name: str, value: str) -> None:
        self.send(f"setoption name {name} value {value}")

    def ready(self, timeout: float = 10.0) -> list[str]:
        """`isready` ... `readyok`; the lines read on the way (stale output included)."""
        self.send("isready")
        return self.wait_for("readyok", timeout)

    def go(self, position: str, go: str, timeout: float) -> tuple[str, float, list[str]]:
        """Sends the position and `go`; the best move, the milliseconds it took, and the lines read."""
        self.send(position)
        self.send(go)
        start = time.monotonic()
        seen = self.wait_for("bestmove", timeout)
        elapsed = (time.monotonic() - start) * 1000.0
        words = seen[-1].split()
        return (words[1] if len(words) > 1 else "(none)"), elapsed, seen


def position_command(start_fen: str | None, moves: list[str]) -> str:
    base = "position startpos" if start_fen is None else f"position fen {start_fen}"
    return base + (" moves " + " ".join(moves) if moves else "")


def configure(engine: Engine, fs_name: str, chess960: bool, options: list[tuple[str, str]], *, strict: bool = True) -> list[str]:
    """Sets the variant, Chess960 mode and the user's options; the warnings.

    With `strict`, a variant the engine does not offer raises SetupError.
    """
    warnings = []
    variant_opt = engine.options.get("uci_variant")
    if variant_opt is None:
        if fs_name != "chess" and strict:
            raise SetupError(f"{engine.name} has no UCI_Variant option, so it cannot play {fs_name}")
    else:
        offered = variant_opt.get("var") or []
        if variant_opt.get("type") == "combo" and offered and fs_name not in offered:
            msg = f"{engine.name} does not offer UCI_Variant {fs_name} (it offers: {' '.join(offered)})"
            if strict:
                raise SetupError(msg)
            warnings.append(msg)
        engine.set_option("UCI_Variant", fs_name)
    if chess960:
        if "uci_chess960" not in engine.options:
            msg = f"{engine.name} has no UCI_Chess960 option"
            if strict:
                raise SetupError(msg)
            warnings.append(msg)
        engine.set_option("UCI_Chess960", "true")
    elif "uci_chess960" in engine.options:
        engine.set_option("UCI_Chess960", "false")
    for name, value in options:
        if name.lower() not in engine.options:
            warnings.append(f"{engine.name} does not list an option '{name}' (sent anyway)")
        engine.set_option(name, value)
    return warnings


# ---------------------------------------------------------------------------------------
# Match


@dataclasses.dataclass
class Player:
    cmd: list[str]
    name: str
    options: list[tuple[str, str]]


@dataclasses.dataclass
class Settings:
    variant_id: str
    fs_name: str
    chess960: bool
    limit: tuple[str, float]  # ("movetime", ms), ("nodes", n), ("depth", n) or ("tc", base ms)
    inc_ms: float
    max_plies: int
    hang_timeout: float | None
    send_fen: bool  # `position fen` rather than `position startpos`


@dataclasses.dataclass
class Game:
    index: int  # 0-based
    engine1_white: bool
    start_fen: str
    opening: list[str]
    moves: list[str] = dataclasses.field(default_factory=list)
    result: str = "*"
    reason: str = ""
    loss_kind: str | None = None  # "illegal" | "timeout" | "crash", for the loser
    loser: int | None = None  # 0 (engine 1) or 1 (engine 2) when lost by a fault

    def score1(self) -> float:
        """Engine 1's points."""
        if self.result == "1/2-1/2":
            return 0.5
        white_won = self.result == "1-0"
        return 1.0 if white_won == self.engine1_white else 0.0


def make_openings(settings: Settings, start_fen: str | None, pairs: int, plies: int, seed: int) -> list[tuple[str, list[str]]]:
    """For each pair of games, its start FEN and `plies` random moves (seeded), none ending the game."""
    out = []
    for pair in range(pairs):
        for attempt in range(200):
            rng = random.Random(f"{seed}/{settings.variant_id}/{pair}/{attempt}")
            if start_fen is not None:
                fen = start_fen
            elif settings.chess960:
                fen = random_chess960_fen(rng)
            else:
                fen = sf.start_fen(settings.fs_name)
            moves: list[str] = []
            ok = True
            for _ in range(plies):
                end, legal = judge(settings.fs_name, fen, moves, settings.chess960)
                if end or not legal:
                    ok = False
                    break
                moves.append(rng.choice(sorted(legal)))
            if ok and judge(settings.fs_name, fen, moves, settings.chess960)[0] is None:
                out.append((fen, moves))
                break
        else:
            raise SetupError(f"no {plies}-ply opening that does not end the game found for pair {pair + 1}")
    return out


class Seat:
    """One player's engine for a run of games, restarted after a crash or hang."""

    def __init__(self, player: Player, settings: Settings, trace):
        self.player = player
        self.settings = settings
        self.engine = Engine(player.cmd, player.name, trace)
        self.dirty = False  # A game ended while it may still be thinking.

    def open(self) -> list[str]:
        self.engine.start()
        try:
            self.engine.handshake(30.0)
        except EngineError as exc:
            raise SetupError(f"{self.player.name}: no uciok after `uci` ({exc})") from exc
        try:
            warnings = configure(self.engine, self.settings.fs_name, self.settings.chess960, self.player.options)
            self.engine.ready()
        except EngineError as exc:
            raise SetupError(f"{self.player.name}: no readyok after the options ({exc})") from exc
        return warnings

    def restart(self) -> None:
        self.engine.close()
        self.open()
        self.dirty = False

    def new_game(self) -> None:
        """Ready for a new game; restarts a dead or hung engine. Raises EngineError if it will not do."""
        if not self.engine.alive():
            self.restart()
        if self.dirty:
            try:
                self.engine.send("stop")
                self.engine.ready(5.0)  # Discards a late bestmove.
                self.dirty = False
            except EngineError:
                self.restart()
        self.engine.send("ucinewgame")
        try:
            self.engine.ready(10.0)
        except EngineTimeout:
            self.restart()
            self.engine.send("ucinewgame")
            self.engine.ready(10.0)

    def close(self) -> None:
        self.engine.close()


def go_command(settings: Settings, clocks: list[float]) -> str:
    kind, value = settings.limit
    if kind == "tc":
        inc = int(settings.inc_ms)
        return f"go wtime {max(1, int(clocks[0]))} btime {max(1, int(clocks[1]))} winc {inc} binc {inc}"
    if kind == "own":
        return "go"
    return f"go {kind} {int(value)}"


def play_game(seats: list[Seat], game: Game, settings: Settings) -> Game:
    """Plays one game between seats[0] (engine 1) and seats[1] (engine 2)."""
    names = [s.player.name for s in seats]
    by_colour = [0, 1] if game.engine1_white else [1, 0]  # colour -> seat

    def forfeit(seat: int, kind: str, why: str) -> Game:
        game.loser, game.loss_kind = seat, kind
        loser_colour = by_colour.index(seat)
        game.result = "0-1" if loser_colour == 0 else "1-0"
        game.reason = f"{names[seat]} {why}"
        return game

    failed = []
    for i, seat in enumerate(seats):
        try:
            seat.new_game()
        except (EngineError, SetupError) as exc:
            seat.dirty = True
            failed.append((i, exc))
    if len(failed) == 2:
        game.result, game.reason = "1/2-1/2", f"both engines failed before the game ({failed[0][1]}; {failed[1][1]})"
        return game
    if failed:
        i, exc = failed[0]
        return forfeit(i, getattr(exc, "kind", "crash"), f"failed before the game: {exc}")

    kind, value = settings.limit
    clocks = [value, value] if kind == "tc" else [0.0, 0.0]
    fen_arg = game.start_fen if settings.send_fen else None
    game.moves = list(game.opening)
    while True:
        end, legal = judge(settings.fs_name, game.start_fen, game.moves, settings.chess960)
        if end:
            game.result, game.reason = end.result, end.reason
            return game
        if len(game.moves) >= settings.max_plies:
            game.result, game.reason = "1/2-1/2", f"adjudicated a draw at {settings.max_plies} plies"
            return game
        colour = turn_after(game.start_fen, len(game.moves))
        seat_i = by_colour[colour]
        seat = seats[seat_i]
        if kind == "tc":
            timeout = max(clocks[colour], 0.0) / 1000.0 + GRACE_MS / 1000.0
        else:
            timeout = settings.hang_timeout
        try:
            move, elapsed, _ = seat.engine.go(position_command(fen_arg, game.moves), go_command(settings, clocks), timeout)
        except EngineTimeout:
            seat.dirty = True
            try:
                seat.engine.send("stop")
            except EngineError:
                pass
            if kind == "tc":
                return forfeit(seat_i, "timeout", f"lost on time (no move with {max(clocks[colour], 0):.0f} ms left + {GRACE_MS} ms grace)")
            return forfeit(seat_i, "timeout", f"sent no bestmove within {timeout:.1f} s")
        except EngineCrashed as exc:
            seat.dirty = True
            return forfeit(seat_i, "crash", f"crashed: {exc}")
        if kind == "tc":
            clocks[colour] -= elapsed
            if clocks[colour] < -GRACE_MS:
                return forfeit(seat_i, "timeout", f"lost on time ({-clocks[colour]:.0f} ms over)")
            clocks[colour] = max(clocks[colour], 0.0) + settings.inc_ms
        played = normalize_move(move, legal)
        if played not in legal:
            if move in NO_MOVE:
                why = f"sent bestmove {move} with {len(legal)} legal moves"
            else:
                why = f"played the illegal move {move}"
            fen_now = sf.get_fen(settings.fs_name, game.start_fen, game.moves, settings.chess960)
            return forfeit(seat_i, "illegal", f"{why} (ply {len(game.moves) + 1}, at {fen_now})")
        game.moves.append(played)


def run_games(players: list[Player], settings: Settings, games: list[Game], emit, trace) -> None:
    """Plays `games` one after another with one engine process per player; emit(game) after each."""
    seats = [Seat(p, settings, trace) for p in players]
    try:
        for seat in seats:
            for w in seat.open():
                print(f"warning: {w}", file=sys.stderr)
        for game in games:
            emit(play_game(seats, game, settings))
    finally:
        for seat in seats:
            try:
                seat.close()
            except BaseException:  # noqa: BLE001 - close the other one regardless.
                pass


def exit_on_sigterm() -> None:
    """SIGTERM exits through the `finally` blocks (which close the engines); a second one is ignored."""

    def handler(*_):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        sys.exit(143)

    signal.signal(signal.SIGTERM, handler)


def worker_main(players, settings, games, results) -> None:
    """A --jobs worker process: plays its games, reporting on the `results` queue.

    Ctrl-C is left to the main process, which ends the workers with SIGTERM.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_on_sigterm()
    try:
        run_games(players, settings, games, lambda g: results.put(("game", g)), None)
        results.put(("done", None))
    except SetupError as exc:
        results.put(("error", str(exc)))
    except KeyboardInterrupt:
        results.put(("error", "interrupted"))


# ---------------------------------------------------------------------------------------
# Statistics and reports


def elo(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def fmt_elo(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x + 0.0:+.1f}" if abs(x) >= 0.05 else "+0.0"


def summary_stats(scores: list[float]) -> dict:
    """Score, Elo and its 95% interval, and the likelihood of superiority, from engine 1's per-game points."""
    n = len(scores)
    wins = sum(1 for s in scores if s == 1.0)
    losses = sum(1 for s in scores if s == 0.0)
    draws = n - wins - losses
    out = {"n": n, "w": wins, "d": draws, "l": losses}
    if n == 0:
        return out
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / n
    se = math.sqrt(var / n)
    out.update(score=mean, elo=elo(mean))
    if mean in (0.0, 1.0):
        # Every game won (or lost): no finite estimate. An exact one-sided 95% bound on the
        # score treats each game as a win-or-loss trial: p^n = 0.05.
        bound = 0.05 ** (1.0 / n)
        out["note"] = "every game " + ("won" if mean == 1.0 else "lost")
        out["ci"] = (elo(bound), math.inf) if mean == 1.0 else (-math.inf, elo(1.0 - bound))
    else:
        out["ci"] = (elo(max(0.0, mean - 1.96 * se)), elo(min(1.0, mean + 1.96 * se)))
    if wins + losses:
        out["los"] = 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))
    return out


def game_line(game: Game, players: list[Player], total: int) -> str:
    white, black = (players[0].name, players[1].name) if game.engine1_white else (players[1].name, players[0].name)
    plies = len(game.moves)
    width = len(str(total))
    return f"game {game.index + 1:>{width}}/{total}  {white} - {black}  {game.result:<7}  {plies:>3} plies  {game.reason}"


def pgn_text(game: Game, players: list[Player], settings: Settings, event: str) -> str:
    white, black = (players[0].name, players[1].name) if game.engine1_white else (players[1].name, players[0].name)
    headers = [
        ("Event", event),
        ("Site", "?"),
        ("Date", datetime.date.today().strftime("%Y.%m.%d")),
        ("Round", str(game.index + 1)),
        ("White", white),
        ("Black", black),
        ("Result", game.result),
        ("Variant", "Chess960" if settings.chess960 else settings.fs_name),
    ]
    if settings.chess960 or game.start_fen != sf.start_fen(settings.fs_name):
        headers += [("FEN", game.start_fen), ("SetUp", "1")]
    termination = {"illegal": "rules infraction", "timeout": "time forfeit", "crash": "abandoned"}.get(game.loss_kind or "", "normal")
    if game.reason.startswith("adjudicated") or game.reason == "insufficient material":
        termination = "adjudication"
    headers += [("Termination", termination), ("PlyCount", str(len(game.moves)))]
    try:
        sans = sf.get_san_moves(settings.fs_name, game.start_fen, game.moves, settings.chess960)
    except Exception:  # noqa: BLE001 - PGN is a by-product: fall back to UCI.
        sans = list(game.moves)
    first = turn_after(game.start_fen, 0)
    words = []
    for i, san in enumerate(sans):
        colour = (first + i) % 2
        number = (i + first) // 2 + 1
        if colour == 0:
            words.append(f"{number}.")
        elif i == 0:
            words.append(f"{number}...")
        words.append(san)
    comment = game.reason.replace("{", "(").replace("}", ")")
    words += ["{" + comment + "}", game.result]
    lines, line = [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > 79:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    head = "\n".join(f'[{k} "{v.replace(chr(34), chr(39))}"]' for k, v in headers)
    return head + "\n\n" + "\n".join(lines) + "\n\n"


def print_summary(games: list[Game], players: list[Player], settings: Settings, limit_text: str) -> None:
    stats = summary_stats([g.score1() for g in games])
    p1, p2 = players[0].name, players[1].name
    print()
    print(f"match: {p1} vs {p2}, {settings.variant_id} ({limit_text}), {stats['n']} games")
    if not stats["n"]:
        return
    print(f"{p1}: +{stats['w']} ={stats['d']} -{stats['l']}  score {100.0 * stats['score']:.1f}% ({stats['w'] + stats['d'] / 2:g}/{stats['n']})")
    lo, hi = stats["ci"]
    line = f"Elo difference ({p1} - {p2}): {fmt_elo(stats['elo'])}, 95% CI [{fmt_elo(lo)}, {fmt_elo(hi)}]"
    if "note" in stats:
        line += f" ({stats['note']}: exact one-sided bound)"
    print(line)
    if "los" in stats:
        print(f"likelihood of superiority of {p1}: {100.0 * stats['los']:.1f}%")
    for kind, label in (("illegal", "illegal move"), ("timeout", "timeout"), ("crash", "crash")):
        counts = [sum(1 for g in games if g.loss_kind == kind and g.loser == i) for i in (0, 1)]
        print(f"losses by {label:<12} {p1}: {counts[0]}  {p2}: {counts[1]}")


# ---------------------------------------------------------------------------------------
# Command line


def parse_opt(text: str) -> tuple[str, str]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected Name=Value, got '{text}'")
    name, value = text.split("=", 1)
    return name.strip(), value.strip()


def parse_tc(text: str) -> tuple[float, float]:
    base, _, inc = text.partition("+")
    try:
        b, i = float(base), float(inc or 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected BASE+INC in seconds, like 10+0.1, got '{text}'") from None
    if b <= 0 or i < 0:
        raise argparse.ArgumentTypeError(f"bad time control '{text}'")
    return b, i


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog="See the module docstring for examples.")
    p.add_argument("--engine1", required=True, help="engine 1's command line (shell-split)")
    p.add_argument("--engine2", required=True, help="engine 2's command line (shell-split)")
    p.add_argument("--name1", help="engine 1's name (default: its `id name`)")
    p.add_argument("--name2", help="engine 2's name (default: its `id name`)")
    p.add_argument("--opt1", action="append", type=parse_opt, default=[], metavar="NAME=VALUE", help="a UCI option for engine 1")
    p.add_argument("--opt2", action="append", type=parse_opt, default=[], metavar="NAME=VALUE", help="a UCI option for engine 2")
    p.add_argument("--variant", default="chess", help="Chimera catalogue id (default chess)")
    p.add_argument("--fen", help="start position (sent with `position fen`)")
    limit = p.add_mutually_exclusive_group(required=True)
    limit.add_argument("--movetime", type=int, metavar="MS", help="milliseconds per move")
    limit.add_argument("--nodes", type=int, metavar="N", help="nodes per move")
    limit.add_argument("--depth", type=int, metavar="N", help="depth per move")
    limit.add_argument("--tc", type=parse_tc, metavar="BASE+INC", help="clocks: base and increment in seconds, e.g. 10+0.1")
    limit.add_argument(
        "--own-time",
        action="store_true",
        help="send a bare `go`: each engine thinks for its own time per move (Chimera's level times, scaled by its `Level Time Percent` option)",
    )
    p.add_argument("--games", type=int, default=2, help="number of games (default 2)")
    p.add_argument("--openings", type=int, default=0, metavar="K", help="random plies from the start; each opening is played twice with colours swapped (default 0)")
    p.add_argument("--seed", type=int, default=1, help="seed for openings and Chess960 starts (default 1)")
    p.add_argument("--max-plies", type=int, default=400, help="adjudicate a draw after this many plies (default 400)")
    p.add_argument("--timeout", type=float, metavar="S", help="seconds to wait for a bestmove without --tc (default: movetime + 10 s, else 60 s)")
    p.add_argument("--jobs", type=int, default=1, help="games in parallel, each worker with its own engine processes (default 1)")
    p.add_argument("--pgn", metavar="FILE", help="write the games as PGN (SAN from pyffish)")
    p.add_argument("--ffish-ini", metavar="FILE", help="a Fairy-Stockfish variants.ini to load into pyffish first")
    p.add_argument("--debug", action="store_true", help="print every line sent and received on stderr")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    exit_on_sigterm()
    if args.games < 1 or args.jobs < 1 or args.openings < 0 or args.max_plies < 1:
        parser.error("--games, --jobs and --max-plies must be positive, --openings not negative")
    trace = (lambda name, d, line: print(f"{d} {name}: {line}", file=sys.stderr, flush=True)) if args.debug else None

    try:
        load_ffish_ini(args.ffish_ini)
        fs_name, chess960 = fs_variant(args.variant)
        if fs_name not in sf.variants():
            raise SetupError(f"pyffish does not know the variant '{fs_name}' (use --ffish-ini to define it)")
        if args.fen:
            check_fen(fs_name, args.fen, chess960)
        if args.tc:
            limit, inc_ms, limit_text = ("tc", args.tc[0] * 1000.0), args.tc[1] * 1000.0, f"tc {args.tc[0]:g}+{args.tc[1]:g}"
        elif args.movetime is not None:
            limit, inc_ms, limit_text = ("movetime", args.movetime), 0.0, f"movetime {args.movetime} ms"
        elif args.nodes is not None:
            limit, inc_ms, limit_text = ("nodes", args.nodes), 0.0, f"nodes {args.nodes}"
        elif args.own_time:
            limit, inc_ms, limit_text = ("own", 0), 0.0, "each engine's own time per move"
        else:
            limit, inc_ms, limit_text = ("depth", args.depth), 0.0, f"depth {args.depth}"
        hang = args.timeout
        if hang is None:
            hang = args.movetime / 1000.0 + 10.0 if args.movetime is not None else 60.0
        settings = Settings(
            variant_id=args.variant,
            fs_name=fs_name,
            chess960=chess960,
            limit=limit,
            inc_ms=inc_ms,
            max_plies=args.max_plies,
            hang_timeout=hang,
            send_fen=bool(args.fen) or chess960,
        )
        cmds = []
        for i, text in ((1, args.engine1), (2, args.engine2)):
            try:
                cmd = shlex.split(text)
            except ValueError as exc:
                raise SetupError(f"--engine{i}: {exc}") from exc
            if not cmd:
                raise SetupError(f"--engine{i} is empty")
            cmds.append(cmd)

        # Names: the user's, else each engine's `id name`, found by a setup run that also
        # checks the engines start and offer the variant before any game is played.
        players = [Player(cmds[0], args.name1 or "engine1", args.opt1), Player(cmds[1], args.name2 or "engine2", args.opt2)]
        probe = [Seat(p, settings, trace) for p in players]
        try:
            for seat in probe:
                for w in seat.open():
                    print(f"warning: {w}", file=sys.stderr)
        finally:
            for seat in probe:
                seat.close()
        for i, (seat, given) in enumerate(zip(probe, (args.name1, args.name2))):
            if not given and seat.engine.id_name:
                players[i].name = seat.engine.id_name
        if players[0].name == players[1].name:
            players[0].name += " (1)"
            players[1].name += " (2)"

        pairs = (args.games + 1) // 2
        openings = make_openings(settings, args.fen, pairs, args.openings, args.seed)
    except SetupError as exc:
        print(f"uci_match: setup error: {exc}", file=sys.stderr)
        return 1

    games = [Game(index=g, engine1_white=g % 2 == 0, start_fen=openings[g // 2][0], opening=openings[g // 2][1]) for g in range(args.games)]
    print(f"match: {players[0].name} vs {players[1].name}, {args.variant} ({limit_text}), {args.games} games, "
          f"openings {args.openings} plies, seed {args.seed}", flush=True)

    done: list[Game] = []

    def emit(game: Game) -> None:
        done.append(game)
        w = sum(1 for g in done if g.score1() == 1.0)
        l = sum(1 for g in done if g.score1() == 0.0)
        d = len(done) - w - l
        print(f"{game_line(game, players, args.games)}  [{players[0].name} +{w} ={d} -{l}]", flush=True)

    try:
        if args.jobs == 1:
            run_games(players, settings, games, emit, trace)
        else:
            jobs = min(args.jobs, len(games))
            results: multiprocessing.Queue = multiprocessing.Queue()
            workers = [
                multiprocessing.Process(target=worker_main, args=(players, settings, games[j::jobs], results), daemon=False)
                for j in range(jobs)
            ]
            for w in workers:
                w.start()
            try:
                running = jobs
                while running:
                    try:
                        what, payload = results.get(timeout=1.0)
                    except queue.Empty:
                        if not any(w.is_alive() for w in workers):
                            raise SetupError("every worker process ended without reporting") from None
                        continue
                    if what == "game":
                        emit(payload)
                    elif what == "done":
                        running -= 1
                    else:
                        raise SetupError(f"a worker failed: {payload}")
            finally:
                for w in workers:
                    if w.is_alive():
                        w.terminate()
                for w in workers:
                    w.join(timeout=5.0)
    except SetupError as exc:
        print(f"uci_match: setup error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("uci_match: interrupted", file=sys.stderr)
        return 130

    done.sort(key=lambda g: g.index)
    print_summary(done, players, settings, limit_text)
    if args.pgn:
        event = f"uci_match {players[0].name} vs {players[1].name}"
        try:
            with open(args.pgn, "w", encoding="utf-8") as f:
                for g in done:
                    f.write(pgn_text(g, players, settings, event))
        except OSError as exc:
            print(f"uci_match: cannot write {args.pgn}: {exc}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
