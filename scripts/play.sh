#!/usr/bin/env bash
# Builds Chimera in release mode and opens the game window. Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
cargo run --locked --release -- "$@"
