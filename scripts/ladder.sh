#!/usr/bin/env bash
# The level ladder: each level of `chimera uci` against the next one up, N games per pair in a
# variant, every level thinking for its own time per move scaled by a percentage (10 = 1/10).
# Usage: [JOBS=n] bash scripts/ladder.sh [variant] [games] [time-percent] [engine] (JOBS: games in parallel)
set -euo pipefail
cd "$(dirname "$0")/.."
variant="${1:-chess}"
games="${2:-40}"
percent="${3:-10}"
engine="${4:-${CARGO_TARGET_DIR:-$HOME/.cache/chimera-target}/release/chimera}"
py="${CHIMERA_PYTHON:-$HOME/.cache/chimera-venv/bin/python}"
for low in 1 2 3 4 5 6 7; do
  high=$((low + 1))
  "$py" scripts/uci_match.py --engine1 "$engine uci" --name1 "level$high" --opt1 "Skill Level=$high" --opt1 "Level Time Percent=$percent" \
    --engine2 "$engine uci" --name2 "level$low" --opt2 "Skill Level=$low" --opt2 "Level Time Percent=$percent" \
    --variant "$variant" --games "$games" --openings 4 --seed "$low" --own-time --max-plies 300 --jobs "${JOBS:-1}" | tail -7 | head -3
done
