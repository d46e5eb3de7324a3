#!/usr/bin/env python3
"""Perft counted by pyffish (Fairy-Stockfish's rules), for test data that Fairy-Stockfish's own
tests/perft.sh has no rows for.

Two modes, each writing a TAB-separated table whose header names this script and the pyffish
version:

    pyffish_perft.py [--depth N] VARIANT...
        Each variant's start position, depths 1 to N (default 3): rows of variant, depth,
        nodes and "startpos", the columns of tests/data/fairy-stockfish.tsv.
        (tests/data/pyffish-perft.tsv)

    pyffish_perft.py --starts FILE [--depth N] VARIANT
        Start positions dealt by Chimera (lines "label<TAB>FEN" in FILE, for a variant that
        shuffles its start): each must pass pyffish's validate_fen; rows of label, FEN and
        perft 1 to N. (tests/data/caparandom-starts.tsv)

Run it with the virtual environment's Python (scripts/setup.sh makes it), e.g.
    ~/.cache/chimera-venv/bin/python scripts/pyffish_perft.py --depth 3 gardner > out.tsv

Counting: perft(1) is len(legal_moves); a position where the game has ended by a rule (not
by a lack of moves) still counts its moves, as Fairy-Stockfish's own perft does.
"""
import argparse
import importlib.metadata
import sys

import pyffish as sf


def perft(variant, fen, moves, depth):
    legal = sf.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in legal)


def pyffish_version():
    try:
        return importlib.metadata.version("pyffish")
    except importlib.metadata.PackageNotFoundError:
        return ".".join(map(str, sf.version()))


def start_rows(variants, depth, out):
    out.write(f"# Perft from the start position counted by pyffish {pyffish_version()} (Fairy-Stockfish's rules),\n")
    out.write(f"# written by scripts/pyffish_perft.py --depth {depth} for variants that Fairy-Stockfish's\n")
    out.write("# tests/perft.sh has no start-position row for. Columns (TAB-separated): variant, depth, nodes, position.\n")
    for v in variants:
        fen = sf.start_fen(v)
        for d in range(1, depth + 1):
            n = perft(v, fen, [], d)
            out.write(f"{v}\t{d}\t{n}\tstartpos\n")
            out.flush()
            print(v, d, n, file=sys.stderr)


def dealt_rows(variant, path, depth, out):
    out.write(f"# Starts of {variant} dealt by Chimera (seeded; see tests/variants.rs), each accepted by the\n")
    out.write(f"# validate_fen of pyffish {pyffish_version()} (Fairy-Stockfish's rules), with its perft 1-{depth};\n")
    out.write(f"# written by scripts/pyffish_perft.py --starts FILE --depth {depth} {variant}.\n")
    out.write(f"# Columns (TAB-separated): seed, FEN, {', '.join(f'perft {d}' for d in range(1, depth + 1))}.\n")
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            label, fen = line.rstrip("\n").split("\t")[:2]
            code = sf.validate_fen(fen, variant)
            if code != 1:
                sys.exit(f"{label}: pyffish's validate_fen refuses {fen} (code {code})")
            counts = [str(perft(variant, fen, [], d)) for d in range(1, depth + 1)]
            out.write("\t".join([label, fen] + counts) + "\n")
            out.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--starts", help="a file of 'label<TAB>FEN' lines to check and count (one variant)")
    ap.add_argument("variants", nargs="+")
    a = ap.parse_args()
    if a.starts:
        if len(a.variants) != 1:
            ap.error("--starts takes exactly one variant")
        dealt_rows(a.variants[0], a.starts, a.depth, sys.stdout)
    else:
        start_rows(a.variants, a.depth, sys.stdout)


if __name__ == "__main__":
    main()
