#!/usr/bin/env bash
# Idle cost of the game window: starts it under Xvfb (or on $DISPLAY when set), lets it settle,
# then measures the CPU time it uses over a quiet period and prints it as a share of one core.
#
#   bash scripts/idle_cpu.sh [SECONDS] [-- game options...]
#
# Needs Xvfb (package xvfb) when no display is set. Uses the release build if it exists,
# otherwise the debug build.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-10}"
shift || true
[ "${1:-}" = "--" ] && shift
target="${CARGO_TARGET_DIR:-$HOME/.cache/chimera-target}"
bin="$target/release/chimera"
# A build with the window links the sound library (the display libraries are loaded at run time).
[ -x "$bin" ] && "$bin" list presets >/dev/null 2>&1 && ldd "$bin" | grep -q libasound || bin="$target/debug/chimera"
if [ -z "${DISPLAY:-}" ]; then
  Xvfb :97 -screen 0 1280x900x24 >/dev/null 2>&1 &
  xvfb=$!
  trap 'kill $xvfb 2>/dev/null || true' EXIT
  export DISPLAY=:97
  sleep 1
fi
"$bin" "$@" >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; [ -n "${xvfb:-}" ] && kill $xvfb 2>/dev/null || true' EXIT
sleep 6   # window up, first frames drawn, start-up work done
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
before=$(ticks)
sleep "$secs"
after=$(ticks)
awk -v b="$before" -v a="$after" -v hz="$hz" -v s="$secs" \
  'BEGIN { cpu = (a - b) / hz; printf "idle: %.2f CPU seconds in %d s = %.1f %% of a core (%s)\n", cpu, s, 100 * cpu / s, "'"$bin"'" }'
