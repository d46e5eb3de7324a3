# Shared by the scripts that drive the game window under Xvfb (editor-e2e.sh, editor-novice.sh,
# editor-pictures.sh):
# source it, then `start_game DISPLAY WAIT` builds the game (or takes $CHIMERA_BIN), starts a
# 1240x880 Xvfb on :DISPLAY with the game in it, its data and settings in a fresh directory
# ($data, removed on exit), waits WAIT seconds for the window and gives it the keyboard. Sets
# $bin, $data and $shots (the first argument of the script, or a new directory).
# `restart_game WAIT` quits the game and starts it again on the same data.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
shots="${1:-$(mktemp -d)}"
mkdir -p "$shots"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/chimera-target}"

start_game() {
    [ -n "${CHIMERA_BIN:-}" ] || cargo build --locked >/dev/null 2>&1
    bin="${CHIMERA_BIN:-$CARGO_TARGET_DIR/debug/chimera}"
    data=$(mktemp -d)
    export XDG_DATA_HOME="$data" XDG_CONFIG_HOME="$data"
    Xvfb ":$1" -screen 0 1240x880x24 >/dev/null 2>&1 &
    xvfb=$!
    export DISPLAY=":$1"
    sleep 1
    trap 'kill $game $xvfb 2>/dev/null || true; rm -rf "$data"' EXIT
    run_game "$2"
}

run_game() {
    "$bin" >/dev/null 2>&1 &
    game=$!
    sleep "$1"
    xdotool windowfocus "$(xdotool search --name Chimera | head -1)"
}

restart_game() {
    kill "$game"
    wait "$game" 2>/dev/null || true
    run_game "$1"
}
