#!/usr/bin/env python3
"""Average centipawn loss of Chimera's levels, in the opening and later (issue «Analysis»).

For each level asked for, the level plays itself (`scripts/uci_match.py`, `--openings 2`:
two seeded random plies first, each opening played with colours swapped), then every game is
reviewed by `chimera review --json` at a fixed node count (the reference search), and each
level move's centipawn loss is split into the opening (the 10 plies after the random ones)
and the rest. Prints one line a level and, with --json, the figures as JSON.

    PY=~/.cache/chimera-venv/bin/python
    $PY scripts/level_acpl.py --engine target/release/chimera --levels 1,2,3 --games 40 [--jobs 2]

The goal the issue sets for levels 1-3: the opening loss at most half the later loss.
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RANDOM_PLIES = 2
OPENING = 10


def split_pgn(text):
    """The games of a PGN file, each as its own text."""
    games, current = [], []
    for line in text.splitlines():
        if line.startswith("[Event ") and current:
            games.append("\n".join(current) + "\n")
            current = []
        current.append(line)
    if any(l.strip() and not l.startswith("[") for l in current):
        games.append("\n".join(current) + "\n")
    return games


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True, help="the chimera binary")
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--levels", default="1,2,3")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--nodes", type=int, default=100000, help="nodes a position for the reference search")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=1, help="games played and reviewed in parallel")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    results = {}
    for level in [int(l) for l in args.levels.split(",")]:
        with tempfile.TemporaryDirectory() as tmp:
            pgn = os.path.join(tmp, "games.pgn")
            subprocess.run(
                [sys.executable, os.path.join(HERE, "uci_match.py"),
                 "--engine1", f"{args.engine} uci", "--name1", f"level{level}", "--opt1", f"Skill Level={level}",
                 "--engine2", f"{args.engine} uci", "--name2", f"level{level}b", "--opt2", f"Skill Level={level}",
                 "--variant", args.variant, "--games", str(args.games), "--openings", str(RANDOM_PLIES),
                 "--seed", str(args.seed), "--own-time", "--max-plies", "200", "--jobs", str(args.jobs), "--pgn", pgn],
                check=True, stdout=subprocess.DEVNULL)
            losses = {"opening": [], "later": []}
            with open(pgn) as f:
                games = split_pgn(f.read())
            def review(i, game):
                path = os.path.join(tmp, f"g{i}.pgn")
                with open(path, "w") as f:
                    f.write(game)
                out = subprocess.run([args.engine, "review", path, "--nodes", str(args.nodes), "--json"],
                                     check=True, capture_output=True, text=True).stdout
                return json.loads(out)
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                reviews = list(pool.map(review, range(len(games)), games))
            for review in reviews:
                for m in review["moves"]:
                    ply = m["ply"]
                    if ply < RANDOM_PLIES:
                        continue
                    part = "opening" if ply < RANDOM_PLIES + OPENING else "later"
                    losses[part].append(m["cp_loss"])
            mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
            results[level] = {
                "games": len(games),
                "opening_acpl": mean(losses["opening"]),
                "later_acpl": mean(losses["later"]),
                "opening_moves": len(losses["opening"]),
                "later_moves": len(losses["later"]),
            }
            r = results[level]
            ratio = r["opening_acpl"] / r["later_acpl"] if r["later_acpl"] else float("nan")
            print(f"level {level}: {r['games']} games; opening {r['opening_acpl']:.0f} cp ({r['opening_moves']} moves), "
                  f"later {r['later_acpl']:.0f} cp ({r['later_moves']} moves); opening/later {ratio:.2f}", flush=True)
    if args.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
