#!/usr/bin/env bash
# The desktop figures of issue 15, with the release build under Xvfb (or on $DISPLAY): the idle
# window's CPU over 10 s, then frame times (median and 99th percentile) quiet and during
# explosions on the standard board, and the same on the largest built-in board (Grand, 10x10).
#
#   bash scripts/desktop_bench.sh [frames]
#
# Needs Xvfb (package xvfb) when no display is set.
set -euo pipefail
cd "$(dirname "$0")/.."
frames="${1:-300}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/chimera-target}"
cargo build --release --locked >/dev/null
bin="$CARGO_TARGET_DIR/release/chimera"
if [ -z "${DISPLAY:-}" ]; then
  Xvfb :96 -screen 0 1240x880x24 >/dev/null 2>&1 &
  xvfb=$!
  trap 'kill $xvfb 2>/dev/null || true' EXIT
  export DISPLAY=:96
  sleep 1
fi
data=$(mktemp -d)
export XDG_DATA_HOME="$data" XDG_CONFIG_HOME="$data"
bash scripts/idle_cpu.sh 10 -- --variant chess
# A running clock: the computer (white) moves at once, then black's clock runs.
bash scripts/idle_cpu.sh 10 -- --variant chess --clock 5+3 --computer white --level 1
for variant in atomic grand; do
  echo "frames, $variant:"
  "$bin" --variant "$variant" --bench-frames "$frames" 2>/dev/null | sed 's/^/  /'
done
rm -rf "$data"
