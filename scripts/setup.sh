#!/usr/bin/env bash
# Installs what building Chimera needs on Debian/Ubuntu: ALSA headers and pkg-config for the
# audio engine, Mesa's Vulkan drivers for machines without a GPU driver, and the rustfmt and
# clippy toolchain components. Safe to run again; it installs only what is missing.
set -euo pipefail
packages=(libasound2-dev pkg-config libvulkan1 mesa-vulkan-drivers)
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
