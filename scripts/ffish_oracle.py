#!/usr/bin/env python3
"""Fairy-Stockfish oracle for tests/differential.rs: answers questions about positions with pyffish.

Speaks JSON lines on stdin/stdout, one request per line and one answer per line, in order:

  {"op": "hello"}
      -> {"version": [0, 0, 90], "variants": [...]}
  {"op": "config", "ini": "<variant ini text>"}
      -> {"variants": [...]}                         (pyffish.load_variant_config)
  {"op": "position", "variant": "chess", "fen": "<start FEN>", "moves": ["e2e4", ...], "chess960": false}
      -> {"fen": "<FEN after the moves>", "legal": [...],
          "immediate": [bool, value], "optional": [bool, value], "insufficient": [bool, bool],
          "immediate_fen": bool, "optional_fen": bool,
          and when there is no legal move: "check": bool, "result": value}
      The two *_fen answers ask again from the FEN alone, without the moves: an end that
      holds there needs no history (a move rule, a variant's own end); one that does not
      came from the game's history (a repetition). Asked only when the game ends or may be
      ended; null otherwise, and when pyffish refuses its own FEN even with the castling and
      gating field emptied (see askable).
  {"op": "san", "variant": "chess", "fen": "<start FEN>", "moves": [...], "chess960": false, "san": ["e7e5", ...]}
      -> {"san": {"e7e5": "e5", ...}}                (each move's SAN after the moves)

Values are Fairy-Stockfish's, from the side to move's point of view: positive wins,
negative loses, zero draws. Any failure answers {"error": "..."} and the oracle goes on.
Every pyffish call sets a position up from scratch (about 1.5 ms), so it makes few.
"""

import json
import sys

try:
    import pyffish as sf
except ImportError as exc:  # The test shows this and tells the user to run scripts/setup.sh.
    print(json.dumps({"error": f"cannot import pyffish ({exc}); run scripts/setup.sh"}), flush=True)
    sys.exit(2)

KNOWN = set(sf.variants())


def checked(req):
    """The request's variant, FEN, moves and Chess960 flag, refused early where pyffish would crash."""
    v, fen, moves, c960 = req["variant"], req["fen"], req.get("moves", []), bool(req.get("chess960", False))
    if v not in KNOWN:
        raise ValueError(f"Fairy-Stockfish has no variant '{v}'")
    code = sf.validate_fen(fen, v, c960)
    if code != sf.FEN_OK:
        raise ValueError(f"Fairy-Stockfish rejects the FEN '{fen}' for {v} (code {code})")
    return v, fen, moves, c960


def askable(fen, v, c960):
    """The FEN to ask about the game's end from the position alone: pyffish's own FEN, or where
    pyffish refuses what it wrote (S-House's and Seirawan's gating rights after the king moved),
    the same with an empty castling and gating field, on which no end asked about depends (a
    move rule, a variant's own end); None if that is refused too."""
    if sf.validate_fen(fen, v, c960) == sf.FEN_OK:
        return fen
    fields = fen.split(" ")
    if len(fields) > 2:
        fields[2] = "-"
        plain = " ".join(fields)
        if sf.validate_fen(plain, v, c960) == sf.FEN_OK:
            return plain
    return None


def position(req):
    v, start, moves, c960 = checked(req)
    legal = sf.legal_moves(v, start, moves, c960)
    out = {
        "fen": sf.get_fen(v, start, moves, c960),
        "legal": legal,
        "immediate": list(sf.is_immediate_game_end(v, start, moves, c960)),
        "optional": list(sf.is_optional_game_end(v, start, moves, c960)),
        "insufficient": list(sf.has_insufficient_material(v, start, moves, c960)),
    }
    fen = askable(out["fen"], v, c960)
    if (out["immediate"][0] or out["optional"][0]) and fen is not None:
        out["immediate_fen"] = sf.is_immediate_game_end(v, fen, [], c960)[0]
        out["optional_fen"] = sf.is_optional_game_end(v, fen, [], c960)[0]
    else:
        out["immediate_fen"] = out["optional_fen"] = None
    if not legal:
        out["check"] = sf.gives_check(v, start, moves, c960)
        out["result"] = sf.game_result(v, start, moves, c960)
    return out


def san(req):
    # From the start and the moves rather than from get_fen's FEN, which pyffish's own
    # validate_fen may refuse (Seirawan's gating rights after the king moved).
    v, start, moves, c960 = checked(req)
    return {"san": {m: sf.get_san_moves(v, start, moves + [m], c960, sf.NOTATION_SAN)[-1] for m in req["san"]}}


def answer(req):
    op = req.get("op")
    if op == "position":
        return position(req)
    if op == "san":
        return san(req)
    if op == "hello":
        return {"version": list(sf.version()), "variants": sf.variants()}
    if op == "config":
        sf.load_variant_config(req["ini"])
        KNOWN.update(sf.variants())
        return {"variants": sf.variants()}
    raise ValueError(f"unknown op {op!r}")


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            out = answer(json.loads(line))
        except Exception as exc:  # noqa: BLE001 - every failure becomes an answer, never a dead pipe.
            out = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
