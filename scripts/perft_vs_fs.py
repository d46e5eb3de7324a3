"""Perft speed of `chimera perft` against Fairy-Stockfish's `go perft`, row by row.

The rows are the perft benchmark's (`benches/common/rows.rs`). Both are measured as whole
processes in the same run, each the best of a few runs:
- Chimera: the time of `chimera perft --variant V --fen F --depth D` less that of the same
  command at depth 1 (start-up and the variant's set-up);
- Fairy-Stockfish: from `go perft D` sent (after `UCI_Variant` and `position`, answered by
  `isready`) to its `Nodes searched` line.
Prints a table (nodes, M nodes/s each, the ratio) and the median ratio; with `--rows`, the
`fairy_stockfish` figures to store in `rows.rs`.

    python scripts/perft_vs_fs.py --chimera target/release/chimera \
        --fs ~/.cache/fairy-stockfish-0.0.90/fairy-stockfish [--runs 3] [--only horde,janggi]
"""

import argparse
import re
import statistics
import subprocess
import time
from pathlib import Path

ROWS_RS = Path(__file__).resolve().parent.parent / "benches" / "common" / "rows.rs"


def read_rows():
    text = ROWS_RS.read_text()
    consts = dict(re.findall(r'pub const (\w+): &str = "([^"]*)";', text))
    rows = []
    for m in re.finditer(
        r'Row \{ variant: "([^"]+)", name: "([^"]+)", fen: ("[^"]*"|\w+), depth: (\d+), nodes: ([\d_]+), fairy_stockfish: ([\d.]+) \}', text
    ):
        variant, name, fen, depth, nodes, _ = m.groups()
        fen = fen.strip('"') if fen.startswith('"') else consts[fen]
        rows.append((variant, name, fen, int(depth), int(nodes.replace("_", ""))))
    return rows


def time_chimera(binary, variant, fen, depth):
    args = [binary, "perft", "--variant", variant, "--depth", str(depth)]
    if fen != "startpos":
        args += ["--fen", fen]
    t = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    elapsed = time.perf_counter() - t
    nodes = int(re.search(r"Nodes searched: (\d+)", out).group(1))
    return elapsed, nodes


class Fs:
    def __init__(self, binary):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("Fairy-Stockfish exited")
            if line.startswith(prefix):
                return line

    def perft(self, variant, fen, depth):
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("position startpos" if fen == "startpos" else f"position fen {fen}")
        self.send("isready")
        self.wait("readyok")
        t = time.perf_counter()
        self.send(f"go perft {depth}")
        line = self.wait("Nodes searched")
        elapsed = time.perf_counter() - t
        return elapsed, int(line.split(":")[1])

    def close(self):
        self.send("quit")
        self.p.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chimera", required=True)
    ap.add_argument("--fs", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", help="comma-separated variants")
    ap.add_argument("--rows", action="store_true", help="print the figures for rows.rs")
    a = ap.parse_args()
    rows = read_rows()
    if a.only:
        rows = [r for r in rows if r[0] in a.only.split(",")]
    fs = Fs(a.fs)
    ratios = []
    print(f"{'variant':<12} {'position':<9} {'depth':>5} {'nodes':>11} {'Chimera':>9} {'FS':>9} {'ratio':>6}")
    figures = []
    for variant, name, fen, depth, nodes in rows:
        base = min(time_chimera(a.chimera, variant, fen, 1)[0] for _ in range(a.runs))
        runs = [time_chimera(a.chimera, variant, fen, depth) for _ in range(a.runs)]
        assert all(n == nodes for _, n in runs), f"{variant}: Chimera counted {runs[0][1]}, expected {nodes}"
        ours = max(min(t for t, _ in runs) - base, 1e-6)
        theirs_runs = [fs.perft(variant, fen, depth) for _ in range(a.runs)]
        assert all(n == nodes for _, n in theirs_runs), f"{variant}: Fairy-Stockfish counted {theirs_runs[0][1]}, expected {nodes}"
        theirs = min(t for t, _ in theirs_runs)
        ratio = theirs / ours
        ratios.append(ratio)
        figures.append((variant, nodes / theirs / 1e6))
        print(f"{variant:<12} {name:<9} {depth:>5} {nodes:>11} {nodes / ours / 1e6:>9.2f} {nodes / theirs / 1e6:>9.2f} {ratio:>6.2f}", flush=True)
    fs.close()
    print(f"median ratio {statistics.median(ratios):.2f}, lowest {min(ratios):.2f}")
    if a.rows:
        for variant, mnps in figures:
            print(f"{variant}: fairy_stockfish: {mnps:.1f}")


if __name__ == "__main__":
    main()
