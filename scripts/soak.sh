#!/usr/bin/env bash
# The soak at development scale: tests/soak.rs with 10,000 random games a catalogue variant
# (random presets, scopes and durations), each to its end (at most 2,000 plies), in release.
# Usage: bash scripts/soak.sh [games] [seed] [variant]
#   e.g. bash scripts/soak.sh 10000 3 crazyhouse
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/chimera-target}"
export CHIMERA_SOAK_GAMES="${1:-10000}"
export CHIMERA_SOAK_SEED="${2:-$(date +%s)}"
export CHIMERA_SOAK_PLIES=2000
[ -n "${3:-}" ] && export CHIMERA_SOAK_VARIANT="$3"
echo "soak: $CHIMERA_SOAK_GAMES games a variant, seed $CHIMERA_SOAK_SEED"
cargo test --release --no-default-features --locked --test suite soak:: -- --nocapture
