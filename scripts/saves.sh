#!/usr/bin/env bash
# Saves at development scale: tests/saves.rs with many games a catalogue variant, each saved
# at a random ply with random presets and seats, resumed and taken back to the start, and the
# writer killed with SIGKILL many times during saves.
# Usage: bash scripts/saves.sh [games] [kills] [seed]
#   e.g. bash scripts/saves.sh 1000 2000 3
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/chimera-target}"
export CHIMERA_SAVE_GAMES="${1:-1000}"
export CHIMERA_SAVE_KILLS="${2:-1000}"
export CHIMERA_SAVE_SEED="${3:-$(date +%s)}"
echo "saves: $CHIMERA_SAVE_GAMES games a variant, $CHIMERA_SAVE_KILLS kills, seed $CHIMERA_SAVE_SEED"
cargo test --release --no-default-features --locked --test suite saves:: -- --nocapture
