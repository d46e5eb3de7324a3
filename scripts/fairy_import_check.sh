#!/usr/bin/env bash
# Development check of `chimera import` against Fairy-Stockfish: converts every section of an
# ini file (default: the shared reference variants.ini), then plays random games in each
# converted variant comparing Chimera with pyffish loaded with the same file
# (tests/differential.rs with CHIMERA_DIFF_INI). Prints the import report and the comparison.
#
#   bash scripts/fairy_import_check.sh [file.ini] [section,section...]
#
# Environment: CHIMERA_DIFF_PLAYOUTS, CHIMERA_DIFF_PLIES, CHIMERA_DIFF_JOBS as for the
# differential test; OUT (default /tmp/chimera-import) for the converted files.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh >/dev/null
INI="$(realpath "${1:-../shared/reference/fairy-stockfish-variants.ini}")"
ONLY="${2:-}"
OUT="${OUT:-/tmp/chimera-import}"
rm -rf "$OUT"
cargo build --locked --quiet --bin chimera
"$CARGO_TARGET_DIR/debug/chimera" import "$INI" --out "$OUT" | tee "$OUT.log"
specs=$(sed -nE 's/^converted \[([^]]+)\] -> ([^ ]*\.ron).*$/\2=\1/p' "$OUT.log" | while IFS= read -r spec; do
    name="${spec##*=}"
    if [[ -z "$ONLY" || ",$ONLY," == *",$name,"* ]]; then printf '%s,' "$spec"; fi
done)
[[ -n "$specs" ]] || { echo "nothing converted to compare"; exit 1; }
CHIMERA_DIFF_INI="$INI" CHIMERA_DIFF_VARIANTS="${specs%,}" CHIMERA_DIFF_REPORT="${CHIMERA_DIFF_REPORT:-$OUT.report.jsonl}" \
    cargo test --locked --quiet --test suite -- differential::random_playouts_agree_with_fairy_stockfish --exact --nocapture
