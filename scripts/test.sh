#!/usr/bin/env bash
# Runs every test: the rules engine, perft suites, notation, and the game crate with its
# `gui` feature. Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
cargo test --locked "$@"
