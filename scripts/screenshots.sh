#!/usr/bin/env bash
# Renders the start position of every built-in variant under Xvfb and software Vulkan and saves
# a screenshot of each: bash scripts/screenshots.sh [out-dir] [chimera-binary]
# Exits non-zero if any variant fails to render.
set -uo pipefail
out=${1:-/tmp/chimera-shots}
bin=${2:-${CARGO_TARGET_DIR:-$HOME/.cache/chimera-target}/debug/chimera}
mkdir -p "$out"
if [ -z "${DISPLAY:-}" ]; then
  Xvfb :97 -screen 0 1280x1024x24 >/dev/null 2>&1 &
  xvfb=$!
  export DISPLAY=:97
  sleep 1
fi
failed=0
for id in $("$bin" list variants); do
  if timeout 120 "$bin" --variant "$id" --screenshot "$out/$id.png" >"$out/$id.log" 2>&1 && [ -s "$out/$id.png" ]; then
    echo "ok   $id"
  else
    echo "FAIL $id (see $out/$id.log)"
    failed=1
  fi
done
[ -n "${xvfb:-}" ] && kill "$xvfb"
exit $failed
