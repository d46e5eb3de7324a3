#!/usr/bin/env bash
# Fuzzing at development scale: tests/fuzz.rs with a million inputs per target (FEN, Betza,
# variant files, PGN, UCI/SAN moves, preset lists), in release. A failing input is printed
# with its target, seed and case number.
# Usage: bash scripts/fuzz.sh [cases] [seed] [test name start, after fuzz::]
#   e.g. bash scripts/fuzz.sh 1000000 7 fen
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/chimera-target}"
export CHIMERA_FUZZ_CASES="${1:-1000000}"
export CHIMERA_FUZZ_SEED="${2:-$(date +%s)}"
echo "fuzz: $CHIMERA_FUZZ_CASES inputs a target, seed $CHIMERA_FUZZ_SEED"
cargo test --release --no-default-features --locked --test suite "fuzz::${3:-}" -- --nocapture
