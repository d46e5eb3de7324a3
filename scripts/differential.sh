#!/usr/bin/env bash
# Differential testing against Fairy-Stockfish at scale: many seeded random playouts in every
# catalogue variant (release build), compared at every ply with pyffish; prints how many
# playouts, positions and moves were compared and the disagreements by kind.
#
#   bash scripts/differential.sh [PLAYOUTS_PER_VARIANT]     (default 25, about 1,000 playouts)
#
# A fresh seed each run (printed, so a run replays with CHIMERA_DIFF_SEED); the other knobs are
# the CHIMERA_DIFF_* variables described at the top of tests/differential.rs. Every
# disagreement, known gaps included, is written as JSON lines to the report file named at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
export CHIMERA_DIFF_PLAYOUTS="${1:-${CHIMERA_DIFF_PLAYOUTS:-25}}"
export CHIMERA_DIFF_PLIES="${CHIMERA_DIFF_PLIES:-20-200}"
export CHIMERA_DIFF_SEED="${CHIMERA_DIFF_SEED:-$(date +%s)}"
export CHIMERA_DIFF_REPORT="${CHIMERA_DIFF_REPORT:-$CARGO_TARGET_DIR/differential-report.jsonl}"
log="$CARGO_TARGET_DIR/differential.log"
echo "differential: seed $CHIMERA_DIFF_SEED, $CHIMERA_DIFF_PLAYOUTS playouts per variant of $CHIMERA_DIFF_PLIES plies"
cargo build --release --locked --no-default-features --tests --quiet
status=0
cargo test --release --locked --no-default-features --test suite differential:: -- --nocapture >"$log" 2>&1 || status=$?
grep '^differential' "$log" || true
if [ "$status" -ne 0 ]; then
  echo "differential: FAILED (exit $status); the first new disagreements:" >&2
  sed -n '/disagreements with Fairy-Stockfish that are not known gaps/,/^$/p' "$log" | head -60 >&2
  grep -m5 -E 'panicked|error' "$log" >&2 || true
  echo "differential: full log in $log" >&2
fi
exit "$status"
