#!/usr/bin/env python3
"""Drives `chimera uci` through python-chess's engine module, as an analysis GUI would.

For each position given (`variant:FEN`, with `chess` or `crazyhouse` as the variant), calls
`engine.analyse(board, limit, multipv=N)` and prints one JSON object a position: the variant,
the FEN, and the lines python-chess parsed, each with its multipv number, depth, score (from
the side to move, as python-chess reports it: `cp N`, `mate N`) and principal variation in
UCI. Every move of every line is checked to be legal in python-chess's own board; a line
that python-chess cannot replay is reported on stderr and makes the exit status 1.

Usage: uci_client_analyse.py --engine "path/to/chimera uci" [--multipv 3] [--depth 8]
       variant:FEN ...
Exit status 0 when every position was analysed; the test reading the output judges the lines.
"""

import argparse
import json
import shlex
import sys

import chess
import chess.engine
import chess.variant


def board_for(variant, fen):
    if variant == "chess":
        return chess.Board(fen)
    if variant == "crazyhouse":
        return chess.variant.CrazyhouseBoard(fen)
    raise SystemExit(f"unknown variant {variant!r} (chess or crazyhouse)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--multipv", type=int, default=3)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("positions", nargs="+")
    args = ap.parse_args()

    engine = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine), timeout=60)
    failed = False
    try:
        for spec in args.positions:
            variant, _, fen = spec.partition(":")
            board = board_for(variant, fen)
            # python-chess sets UCI_Variant itself for a variant board when the engine offers
            # the option; it sends the position as a FEN and `go depth N`.
            infos = engine.analyse(board, chess.engine.Limit(depth=args.depth), multipv=args.multipv)
            lines = []
            for info in infos:
                pv = info.get("pv", [])
                replay = board.copy()
                for move in pv:
                    if move not in replay.legal_moves:
                        print(f"{variant} {fen}: line {info.get('multipv')} plays {move.uci()}, illegal after {replay.fen()}", file=sys.stderr)
                        failed = True
                        break
                    replay.push(move)
                score = info.get("score")
                pov = score.pov(board.turn) if score is not None else None
                lines.append(
                    {
                        "multipv": info.get("multipv"),
                        "depth": info.get("depth"),
                        "score": None if pov is None else (f"mate {pov.mate()}" if pov.is_mate() else f"cp {pov.score()}"),
                        "pv": [m.uci() for m in pv],
                    }
                )
            print(json.dumps({"variant": variant, "fen": fen, "lines": lines}), flush=True)
    finally:
        engine.quit()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
