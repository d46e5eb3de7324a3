#!/usr/bin/env bash
# Installs what building and testing Chimera needs on Debian/Ubuntu: ALSA headers and
# pkg-config for the audio engine, Mesa's Vulkan drivers for machines without a GPU driver,
# the rustfmt and clippy toolchain components, and a Python virtual environment with pyffish
# (Fairy-Stockfish's rules) for the differential tests and python-chess for the UCI client
# test. Safe to run again; it installs only what is missing and says nothing when everything
# is there.
set -euo pipefail
packages=(libasound2-dev pkg-config libvulkan1 mesa-vulkan-drivers python3 python3-venv)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  "${as_root[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found; install Rust from rustup first" >&2
  exit 1
fi
if command -v rustup >/dev/null 2>&1; then
  rustup component add rustfmt clippy >/dev/null 2>&1 || true
fi
# Build artifacts live outside the clone so that repeated runs reuse them.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/chimera-target}"
# pyffish for tests/differential.rs, in a virtual environment (Debian's pip refuses to install
# into the system Python). The version is pinned: the test's known gaps are stated against it.
CHIMERA_VENV="${CHIMERA_VENV:-$HOME/.cache/chimera-venv}"
pyffish_version=0.0.90
if ! "$CHIMERA_VENV/bin/python" -c "import importlib.metadata as m, pyffish; assert m.version('pyffish') == '$pyffish_version'" >/dev/null 2>&1; then
  if ! "$CHIMERA_VENV/bin/python" -m pip --version >/dev/null 2>&1; then
    python3 -m venv --clear "$CHIMERA_VENV"
  fi
  "$CHIMERA_VENV/bin/python" -m pip install --quiet --disable-pip-version-check "pyffish==$pyffish_version"
fi
# python-chess, a real UCI client, for the analysis test in tests/ai.rs (MultiPV through its
# engine module).
python_chess_version=1.11.2
if ! "$CHIMERA_VENV/bin/python" -c "import importlib.metadata as m; assert m.version('chess') == '$python_chess_version'" >/dev/null 2>&1; then
  "$CHIMERA_VENV/bin/python" -m pip install --quiet --disable-pip-version-check "chess==$python_chess_version"
fi
export CHIMERA_PYTHON="${CHIMERA_PYTHON:-$CHIMERA_VENV/bin/python}"
