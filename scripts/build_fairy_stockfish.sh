#!/usr/bin/env bash
# Builds a Fairy-Stockfish UCI engine, the sparring partner of the strength measurements
# (issue «Analysis»), from the source in pyffish's source package at the version
# `scripts/setup.sh` pins: its `src/` compiled without the Python and JavaScript bindings
# (`pyffish.cpp`, `ffishjs.cpp`), with large boards, every variant, precomputed magics and no
# embedded network. Source and binary stay under ~/.cache (Fairy-Stockfish is GPL; neither goes
# into this repository). Prints the binary's path; builds only when it is missing.
#
#   bash scripts/build_fairy_stockfish.sh   # → ~/.cache/fairy-stockfish-0.0.90/fairy-stockfish
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^pyffish_version=//p' scripts/setup.sh)
dir="$HOME/.cache/fairy-stockfish-$version"
bin="$dir/fairy-stockfish"
if [ -x "$bin" ]; then
  echo "$bin"
  exit 0
fi
py="${CHIMERA_PYTHON:-$HOME/.cache/chimera-venv/bin/python}"
mkdir -p "$dir"
if [ ! -d "$dir/pyffish-$version/src" ]; then
  "$py" -m pip download --quiet --disable-pip-version-check --no-binary :all: --no-deps -d "$dir" "pyffish==$version" >&2
  tar -xzf "$dir/pyffish-$version.tar.gz" -C "$dir"
fi
src="$dir/pyffish-$version/src"
sources=$(cd "$src" && find . -name '*.cpp' ! -name pyffish.cpp ! -name ffishjs.cpp | sort)
jobs=$(nproc 2>/dev/null || echo 2)
objs=()
pids=()
mkdir -p "$dir/obj"
for f in $sources; do
  o="$dir/obj/$(echo "${f#./}" | tr '/' '_' | sed 's/\.cpp$/.o/')"
  objs+=("$o")
  [ -f "$o" ] && continue
  # Compiled a few at a time.
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 0.2; done
  g++ -std=c++17 -O3 -DNDEBUG -DIS_64BIT -DUSE_POPCNT -msse4.2 -mpopcnt -DLARGEBOARDS -DALLVARS -DPRECOMPUTED_MAGICS \
    -DNNUE_EMBEDDING_OFF -pthread -c "$src/$f" -o "$o.tmp" && mv "$o.tmp" "$o" &
  pids+=("$!")
done
failed=0
for p in "${pids[@]}"; do
  wait "$p" || failed=1
done
if [ "$failed" -ne 0 ]; then
  echo "build_fairy_stockfish: a source file did not compile (x86-64 with SSE 4.2 and POPCNT is assumed)" >&2
  exit 1
fi
g++ -O3 -pthread "${objs[@]}" -o "$bin.tmp"
mv "$bin.tmp" "$bin"
echo "$bin"
