#!/usr/bin/env bash
# The long checks: the randomised tests CI runs at a small budget, run bigger with fresh seeds
# (release build, engine only), one after the other, then a summary.
#
#   bash scripts/long-checks.sh [SCALE]        (default 28: about 45 minutes on 2 cores)
#
# Measured on 2 cores at the default scale (2026-11-30, an idle machine): differential 1676 s,
# fuzz 40 s, soak 408 s, saves 57 s, 36 minutes in all, plus the release build (seconds when
# it is made already, about 10 minutes into an empty target directory). The time grows with
# the scale: at 12, the differential took 722 s.
#
# SCALE multiplies CI's budgets:
#   differential  2×SCALE random playouts per variant (40-60 plies) and 4×SCALE long ones
#                 (150-250 plies), against pyffish, with the SAN of the move played and of one
#                 other move in every position (CI: the move played);
#   fuzz          2000×SCALE inputs per parser (5×SCALE CI's: fuzzing is cheap);
#   soak          2×SCALE random games per variant with random presets, to 200 plies;
#   saves         2×SCALE games per variant saved and resumed, 40×SCALE writers killed.
# Every check gets a seed derived from one base seed (printed; CHIMERA_LONG_SEED=N replays the
# whole run). A check that fails prints its first lines of failure and its log; the run goes on
# and ends non-zero. Logs go to $CARGO_TARGET_DIR/long-checks/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
scale="${1:-28}"
[[ "$scale" =~ ^[1-9][0-9]*$ ]] || { echo "long-checks: SCALE must be a positive whole number, not '$scale'" >&2; exit 2; }
base="${CHIMERA_LONG_SEED:-$(date +%s)}"
logs="$CARGO_TARGET_DIR/long-checks"
mkdir -p "$logs"
echo "long-checks: scale $scale, base seed $base (replay: CHIMERA_LONG_SEED=$base bash scripts/long-checks.sh $scale)"
cargo build --release --no-default-features --locked --tests --quiet

summary=()
failed=0
# check NAME FILTER [VAR=VALUE...]: runs the suite's tests under FILTER with the variables.
check() {
    local name="$1" filter="$2"
    shift 2
    local log="$logs/$name.log" start status=0
    start=$(date +%s)
    env "$@" cargo test --release --no-default-features --locked --test suite "$filter" -- --nocapture >"$log" 2>&1 || status=$?
    local took=$(( $(date +%s) - start ))
    local what
    what=$(grep -E "$CHECK_FACTS" "$log" | head -n 8 | tr '\n' ';' | sed 's/;$//' || true)
    if [ "$status" -eq 0 ]; then
        summary+=("$(printf '%-13s ok      %5ds  %s' "$name" "$took" "$what")")
    else
        failed=1
        summary+=("$(printf '%-13s FAILED  %5ds  %s (log: %s)' "$name" "$took" "$what" "$log")")
        echo "long-checks: $name FAILED; the first lines of its failure:" >&2
        grep -m 12 -E 'panicked|not known gaps|^\[|seed|FAILED' "$log" >&2 || true
    fi
}

CHECK_FACTS='differential: [0-9]+ playouts|differential: disagreements'
check differential differential::random_playouts \
    CHIMERA_DIFF_SEED="$base" CHIMERA_DIFF_SAN=2 CHIMERA_DIFF_PLAYOUTS=$((2 * scale)) CHIMERA_DIFF_LONG=$((4 * scale))
CHECK_FACTS='fuzz [a-z_ -]+: [0-9]+ inputs'
check fuzz fuzz:: CHIMERA_FUZZ_SEED=$((base + 1)) CHIMERA_FUZZ_CASES=$((2000 * scale))
CHECK_FACTS='soak: [0-9]+ variants'
check soak soak:: CHIMERA_SOAK_SEED=$((base + 2)) CHIMERA_SOAK_GAMES=$((2 * scale))
CHECK_FACTS='saves: [0-9]+ variants|writers killed'
check saves saves:: CHIMERA_SAVE_SEED=$((base + 3)) CHIMERA_SAVE_KILL_SEED=$((base + 4)) CHIMERA_SAVE_GAMES=$((2 * scale)) \
    CHIMERA_SAVE_KILLS=$((40 * scale))

echo
echo "long-checks: scale $scale, base seed $base"
printf '%s\n' "${summary[@]}"
exit "$failed"
