#!/usr/bin/env python3
"""CI check of a UCI engine (Chimera's `chimera uci`): self-play in every catalogue variant.

One engine process plays itself, a few short games per variant, and every move is checked:

1. Bad input first. The engine gets a handful of malformed lines (`position fen garbage`,
   `setoption name UCI_Variant value nosuchvariant`, `go depth x`, `position startpos moves
   e2e5`, ...), each followed by `isready`, and must answer `readyok` every time. Then a
   sanity search in chess (`position startpos moves e2e4`, `go nodes 100`) must give a
   legal reply. Lines the engine does not understand should get an `info string ...`
   explanation; a missing one is only a note.
2. Then, for every variant (all `presets/*.ron`, or those given with --variants):
   `setoption name UCI_Variant value <Fairy-Stockfish name>` (chess960: `chess` plus
   `UCI_Chess960 true`; the other variants send `UCI_Chess960 false`), and --games games,
   each after `ucinewgame` + `isready`, each to its end or --max-plies, every move from
   `position ... moves ...` + `go nodes 2000` (--go). Game 2's first move is a seeded random
   legal move, so the games differ (game 1's too with --random-first). Chess960 games start from seeded random Chess960
   arrays (`position fen`), the others from `position startpos`.
   - Variants pyffish knows (Fairy-Stockfish's rules): every bestmove must be one of
     pyffish's legal moves, and the game stops at pyffish's end (the variant's own ends, no
     legal move, claimable repetition / move-count ends). At an end that is not a claim the
     engine is asked once more and should answer `bestmove (none)`; a move there is a note.
     `bestmove (none)` while pyffish has legal moves is a problem.
   - Variants pyffish does not know (Orda, unless --ffish-ini defines it): only that a
     bestmove arrives; `bestmove (none)` ends the game, and is a problem at the first ply.

Problems (any makes the exit code 1): no `uciok` or `readyok`, a crash (the engine is
restarted and the check goes on), no bestmove within --move-timeout seconds (default 20),
an illegal move, a variant the engine does not offer, a `bestmove (none)` too early.
Notes are printed but do not fail the check. Fairy-Stockfish and pyffish differ where the
variant's rules differ, so a disagreement found here may be a rules question rather than a
search bug: the problem line gives the position to look at.

Usage (with the Python of the virtual environment that has pyffish; scripts/setup.sh):

    PY=~/.cache/chimera-venv/bin/python
    $PY scripts/uci_selfplay.py --engine "$HOME/.cache/chimera-target/release/chimera uci"
    $PY scripts/uci_selfplay.py --engine "$HOME/.cache/chimera-target/release/chimera uci" \\
        --variants chess,xiangqi,shogi --games 2 --go "nodes 5000" --max-plies 120 --seed 3
    # Fairy-Stockfish as the engine, on variants it knows (a test of the script itself):
    $PY scripts/uci_selfplay.py --engine /usr/games/fairy-stockfish --variants chess,crazyhouse,janggi

Options: --engine CMD (shell-split), --variants a,b,c, --games N (2), --max-plies N (80),
--go "nodes 2000", --move-timeout S (20), --seed N, --presets DIR (default: the repository's
presets/), --ffish-ini FILE (a variants.ini for pyffish, e.g. to define Orda), --debug
(print the UCI traffic on stderr).

Only the Python standard library and pyffish are used (and scripts/uci_match.py, next to it).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # No scripts/__pycache__ in the working tree.

from uci_match import (  # noqa: E402 - after the path is set.
    NO_MOVE,
    Engine,
    EngineCrashed,
    EngineError,
    EngineTimeout,
    SetupError,
    exit_on_sigterm,
    fs_variant,
    judge,
    load_ffish_ini,
    normalize_move,
    position_command,
    random_chess960_fen,
    sf,
)

BAD_INPUT = [
    "position fen garbage",
    "setoption name UCI_Variant value nosuchvariant",
    "go depth x",
    "position startpos moves e2e5",
    "position startpos moves e2e4 zz9",
    "setoption name NoSuchOption value 1",
    "position",
    "frobnicate",
]


@dataclasses.dataclass
class Row:
    variant: str
    games: int = 0
    plies: int = 0
    results: list[str] = dataclasses.field(default_factory=list)
    problems: list[str] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)


class Checker:
    """The one engine process under test, restarted after a crash."""

    def __init__(self, cmd: list[str], timeout: float, trace):
        self.engine = Engine(cmd, "engine", trace)
        self.timeout = timeout
        self.restarts = 0

    def open(self) -> None:
        self.engine.start()
        try:
            self.engine.handshake(self.timeout)
        except EngineError as exc:
            raise SetupError(f"no uciok after `uci`: {exc}") from exc
        if self.engine.id_name:
            self.engine.name = self.engine.id_name

    def restart(self) -> None:
        self.restarts += 1
        self.engine.close()
        self.open()

    def resync(self) -> None:
        """After a timeout: stop the search and wait until the engine is ready again, else restart."""
        try:
            self.engine.send("stop")
            self.engine.ready(5.0)
        except EngineError:
            self.restart()

    def close(self) -> None:
        self.engine.close()

    def variant_offered(self, fs_name: str) -> str | None:
        """Why the engine cannot play the variant, or None."""
        opt = self.engine.options.get("uci_variant")
        if opt is None:
            return None if fs_name == "chess" else "the engine has no UCI_Variant option"
        offered = opt.get("var") or []
        if opt.get("type") == "combo" and offered and fs_name not in offered:
            return f"the engine does not offer UCI_Variant {fs_name}"
        return None

    def set_variant(self, fs_name: str, chess960: bool) -> None:
        if "uci_variant" in self.engine.options:
            self.engine.send(f"setoption name UCI_Variant value {fs_name}")
        if chess960 or "uci_chess960" in self.engine.options:
            self.engine.send(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")


def check_bad_input(checker: Checker, row: Row) -> None:
    """Malformed lines, each followed by `isready`; then a sanity search in chess."""
    eng = checker.engine
    for line in BAD_INPUT:
        try:
            eng.send(line)
            seen = eng.ready(checker.timeout)
        except EngineTimeout:
            row.problems.append(f"no readyok after `{line}`")
            checker.resync()
            continue
        except EngineCrashed as exc:
            row.problems.append(f"crash after `{line}`: {exc}")
            checker.restart()
            continue
        if line.startswith("go"):
            # It may have started a search on that; stop it and wait for its bestmove.
            try:
                eng.send("stop")
                seen += eng.ready(checker.timeout)
            except EngineError as exc:
                row.problems.append(f"after `{line}` and `stop`: {exc}")
                checker.restart()
                continue
        if not any(s.startswith("info string") for s in seen):
            row.notes.append(f"no `info string` after `{line}`")
    # The engine should still work: a legal reply to 1. e4 in chess.
    try:
        checker.set_variant("chess", False)
        eng.send("ucinewgame")
        eng.ready(checker.timeout)
        start = sf.start_fen("chess")
        move, _, _ = eng.go(position_command(None, ["e2e4"]), "go nodes 100", checker.timeout)
        legal = sf.legal_moves("chess", start, ["e2e4"], False)
        if move not in legal:
            row.problems.append(f"after the bad input, `go nodes 100` after 1. e4 in chess answered {move}, not a legal move")
    except EngineTimeout:
        row.problems.append("after the bad input, no bestmove to `go nodes 100` after 1. e4 in chess")
        checker.resync()
    except EngineCrashed as exc:
        row.problems.append(f"after the bad input, crash on `go nodes 100` after 1. e4 in chess: {exc}")
        checker.restart()


def play_known(checker: Checker, row: Row, fs_name: str, chess960: bool, start_fen: str, send_fen: bool,
               first_move: str | None, args, moves: list[str]) -> str:
    """A game judged by pyffish, played into `moves`; its result ("1-0", "0-1", "1/2", "*" or "!")."""
    eng = checker.engine
    fen_arg = start_fen if send_fen else None
    while True:
        end, legal = judge(fs_name, start_fen, moves, chess960, material=False)
        if end:
            row.plies += len(moves)
            if not end.reason.startswith("claimed"):
                # Does the engine know the game is over? It should answer `bestmove (none)`.
                try:
                    move, _, _ = eng.go(position_command(fen_arg, moves), f"go {args.go}", args.move_timeout)
                    if move not in NO_MOVE:
                        row.notes.append(
                            f"pyffish ends the game ({end.reason}, {end.result}) after {len(moves)} plies but the engine plays {move}"
                            f" (at {sf.get_fen(fs_name, start_fen, moves, chess960)})"
                        )
                except EngineTimeout:
                    row.problems.append(f"no bestmove within {args.move_timeout:g} s at the final position ({end.reason})")
                    checker.resync()
                except EngineCrashed as exc:
                    row.problems.append(f"crash at the final position ({end.reason}): {exc}")
                    checker.restart()
            return {"1/2-1/2": "1/2"}.get(end.result, end.result)
        if len(moves) >= args.max_plies:
            row.plies += len(moves)
            return "*"
        if not moves and first_move is not None:
            moves.append(first_move)
            continue
        fen_now = lambda: sf.get_fen(fs_name, start_fen, moves, chess960)  # noqa: E731
        move = ask_move(checker, row, fen_arg, moves, args, lambda: f"at {fen_now()}")
        if move is None:
            return "!"
        played = normalize_move(move, legal)
        if played not in legal:
            if move in NO_MOVE:
                row.problems.append(f"bestmove {move} at ply {len(moves) + 1}, but pyffish has {len(legal)} legal moves (at {fen_now()})")
            else:
                row.problems.append(f"illegal move {move} at ply {len(moves) + 1} (at {fen_now()}; moves: {' '.join(moves) or '-'})")
            row.plies += len(moves)
            return "!"
        moves.append(played)


def ask_move(checker: Checker, row: Row, fen_arg, moves: list[str], args, where) -> str | None:
    """The engine's bestmove after `moves`, or None after recording a timeout or a crash (and
    resyncing or restarting the engine); `where()` describes the position for the problem line."""
    try:
        move, _, _ = checker.engine.go(position_command(fen_arg, moves), f"go {args.go}", args.move_timeout)
        return move
    except EngineTimeout:
        row.problems.append(f"no bestmove within {args.move_timeout:g} s at ply {len(moves) + 1} ({where()})")
        row.plies += len(moves)
        checker.resync()
    except EngineCrashed as exc:
        row.problems.append(f"crash at ply {len(moves) + 1} ({where()}): {exc}")
        row.plies += len(moves)
        checker.restart()
    return None


def play_unknown(checker: Checker, row: Row, args) -> str:
    """A game pyffish cannot judge: only that bestmoves arrive and `(none)` comes late."""
    moves: list[str] = []
    while len(moves) < args.max_plies:
        move = ask_move(checker, row, None, moves, args, lambda: f"moves: {' '.join(moves) or '-'}")
        if move is None:
            return "!"
        if move in NO_MOVE:
            row.plies += len(moves)
            if not moves:
                row.problems.append(f"bestmove {move} in the start position")
                return "!"
            return "end"
        moves.append(move)
    row.plies += len(moves)
    return "*"


def check_variant(checker: Checker, variant_id: str, args, known: set[str]) -> Row:
    row = Row(variant_id)
    fs_name, chess960 = fs_variant(variant_id)
    why_not = checker.variant_offered(fs_name)
    if why_not:
        row.problems.append(why_not)
        return row
    judged = fs_name in known
    if not judged:
        row.notes.append(f"pyffish does not know '{fs_name}': only liveness is checked")
    rng = random.Random(f"{args.seed}/{variant_id}")
    first_moves: set[str] = set()  # The games so far began with these; a later game picks another.
    for g in range(args.games):
        try:
            checker.set_variant(fs_name, chess960)
            checker.engine.send("ucinewgame")
            checker.engine.ready(args.move_timeout)
        except EngineTimeout:
            row.problems.append(f"game {g + 1}: no readyok after ucinewgame")
            checker.resync()
            continue
        except EngineCrashed as exc:
            row.problems.append(f"game {g + 1}: crash at ucinewgame: {exc}")
            checker.restart()
            continue
        row.games += 1
        if judged:
            start = random_chess960_fen(rng) if chess960 else sf.start_fen(fs_name)
            first = None
            if g > 0 or args.random_first:
                legal = sorted(sf.legal_moves(fs_name, start, [], chess960))
                fresh = [m for m in legal if m not in first_moves] or legal
                first = rng.choice(fresh)
            moves: list[str] = []
            row.results.append(play_known(checker, row, fs_name, chess960, start, chess960, first, args, moves))
            if moves:
                first_moves.add(moves[0])
        else:
            row.results.append(play_unknown(checker, row, args))
    return row


def catalogue(presets: str) -> list[str]:
    try:
        return sorted(f[:-4] for f in os.listdir(presets) if f.endswith(".ron"))
    except OSError as exc:
        raise SetupError(f"cannot list the catalogue in {presets}: {exc}") from exc


def print_table(rows: list[Row]) -> None:
    headers = ("variant", "games", "plies", "result", "problems")
    table = [(r.variant, str(r.games), str(r.plies), " ".join(r.results) or "-", str(len(r.problems)) if r.problems else "ok") for r in rows]
    widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(headers)]
    print()
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths)))
    print("  ".join("-" * w for w in widths))
    for t in table:
        print("  ".join(c.ljust(w) for c, w in zip(t, widths)))
    problems = [(r.variant, p) for r in rows for p in r.problems]
    notes = [(r.variant, n) for r in rows for n in r.notes]
    if problems:
        print("\nproblems:")
        for v, p in problems:
            print(f"  {v}: {p}")
    if notes:
        print("\nnotes:")
        for v, n in notes:
            print(f"  {v}: {n}")


def build_parser() -> argparse.ArgumentParser:
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog="See the module docstring for details.")
    p.add_argument("--engine", required=True, help="the engine's command line (shell-split)")
    p.add_argument("--variants", help="comma-separated catalogue ids (default: every presets/*.ron)")
    p.add_argument("--games", type=int, default=2, help="games per variant (default 2)")
    p.add_argument("--max-plies", type=int, default=80, help="plies per game at most (default 80)")
    p.add_argument("--go", default="nodes 2000", help='the `go` arguments (default "nodes 2000")')
    p.add_argument("--move-timeout", type=float, default=20.0, metavar="S", help="seconds to wait for each answer (default 20)")
    p.add_argument("--seed", type=int, default=1, help="seed for game 2's first move and Chess960 starts (default 1)")
    p.add_argument("--random-first", action="store_true", help="game 1 also starts with a seeded random move")
    p.add_argument("--presets", default=os.path.join(here, "..", "presets"), help="the catalogue directory")
    p.add_argument("--ffish-ini", metavar="FILE", help="a Fairy-Stockfish variants.ini to load into pyffish first")
    p.add_argument("--debug", action="store_true", help="print every line sent and received on stderr")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    exit_on_sigterm()
    if args.games < 1 or args.max_plies < 1 or args.move_timeout <= 0:
        parser.error("--games, --max-plies and --move-timeout must be positive")
    trace = (lambda name, d, line: print(f"{d} {line}", file=sys.stderr, flush=True)) if args.debug else None
    try:
        load_ffish_ini(args.ffish_ini)
        ids = catalogue(args.presets)
        if args.variants:
            wanted = [v.strip() for v in args.variants.split(",") if v.strip()]
            unknown = [v for v in wanted if v not in ids]
            if unknown:
                raise SetupError(f"not in the catalogue ({args.presets}): {', '.join(unknown)}")
            ids = wanted
        cmd = shlex.split(args.engine)
        if not cmd:
            raise SetupError("--engine is empty")
    except (SetupError, ValueError) as exc:
        print(f"uci_selfplay: setup error: {exc}", file=sys.stderr)
        return 1
    known = set(sf.variants())

    checker = Checker(cmd, args.move_timeout, trace)
    rows: list[Row] = []
    try:
        try:
            checker.open()
        except SetupError as exc:
            print(f"uci_selfplay: {exc}", file=sys.stderr)
            return 1
        print(f"uci_selfplay: {checker.engine.name}, {len(ids)} variants, {args.games} games each, "
              f"go {args.go}, max {args.max_plies} plies, seed {args.seed}", flush=True)
        bad = Row("(bad input)")
        rows.append(bad)
        try:
            check_bad_input(checker, bad)
        except SetupError as exc:  # A restart that failed: nothing more can be checked.
            bad.problems.append(f"the engine could not be restarted: {exc}")
            ids = []
        print(f"{bad.variant:<14} {'ok' if not bad.problems else 'PROBLEMS: ' + '; '.join(bad.problems)}", flush=True)
        for v in ids:
            try:
                row = check_variant(checker, v, args, known)
            except SetupError as exc:  # A restart that failed: the engine is gone for good.
                for rest in ids[ids.index(v):]:
                    row = Row(rest)
                    row.problems.append(f"not checked: the engine could not be restarted ({exc})")
                    rows.append(row)
                break
            rows.append(row)
            status = "ok" if not row.problems else "PROBLEMS: " + "; ".join(row.problems)
            print(f"{v:<14} {' '.join(row.results) or '-':<12} {row.plies:>4} plies  {status}", flush=True)
    except KeyboardInterrupt:
        print("uci_selfplay: interrupted", file=sys.stderr)
        return 130
    finally:
        checker.close()
    print_table(rows)
    if checker.restarts:
        print(f"\nthe engine was restarted {checker.restarts} time(s)")
    failed = sum(len(r.problems) for r in rows)
    print(f"\n{'FAIL' if failed else 'OK'}: {failed} problem(s) in {len(rows)} checks")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
