#!/usr/bin/env bash
# The variant editor driven as a player drives it (issue 13): under Xvfb, real mouse and key
# events (xdotool) open the editor on a copy of Capablanca chess, add a piece, name it
# grasshopper with the letter G, paint its moves in the move painter (all eight directions,
# riding, hopping to land just beyond: gQ) without typing Betza, place it for both sides on
# b3 and i3 (mirrored to b6 and i6; a3/a6 would check the kings at the start), switch on
# exploding rooks, save, and test-play a move. Then the saved file must pass `chimera check`
# and its perft(3) must equal that of the same definition written by hand.
#
#   bash scripts/editor-e2e.sh [screenshot-dir]
#
# Needs xvfb, xdotool and imagemagick. Coordinates are the editor's at 1240x880.
set -euo pipefail
cd "$(dirname "$0")/.."
shots="${1:-$(mktemp -d)}"
mkdir -p "$shots"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/chimera-target}"
cargo build --locked >/dev/null 2>&1
bin="$CARGO_TARGET_DIR/debug/chimera"
data=$(mktemp -d)
export XDG_DATA_HOME="$data" XDG_CONFIG_HOME="$data"
Xvfb :95 -screen 0 1240x880x24 >/dev/null 2>&1 &
xvfb=$!
export DISPLAY=:95
sleep 1
"$bin" --editor capablanca >/dev/null 2>&1 &
game=$!
trap 'kill $game $xvfb 2>/dev/null || true; rm -rf "$data"' EXIT
sleep 5
xdotool windowfocus "$(xdotool search --name Chimera | head -1)"
click() { xdotool mousemove "$1" "$2" click "${3:-1}"; sleep 0.4; }
select_all() { click "$1" "$2"; xdotool keydown ctrl; sleep 0.15; xdotool key a; sleep 0.15; xdotool keyup ctrl; sleep 0.15; }
shot() { import -window root "$shots/$1.png"; }
click 45 248                                   # Add a piece
select_all 325 80; xdotool type G; sleep 0.3   # its letter
select_all 457 80; xdotool type grasshopper; sleep 0.3
click 556 145                                  # symmetry: all eight
click 465 292                                  # a diagonal step: all four diagonals
click 465 322 3                                # pick an orthogonal step (right-click)
click 584 499                                  # hop, land beyond (g): the orthogonals ride and hop
click 465 292 3                                # pick a diagonal step
click 584 499                                  # the same for the diagonals
shot pieces
click 153 50                                   # Start position
click 435 80                                   # palette: G
click 526 80                                   # mirror for black
click 71 323                                   # b3 (and b6)
click 365 323                                  # i3 (and i6)
shot start
click 224 50                                   # Rules
click 15 161                                   # Exploding rooks
shot rules
select_all 255 18; xdotool type "Capablanca with grasshoppers"; sleep 0.3
click 270 50                                   # RON
shot ron
click 572 18                                   # Save
file="$data/chimera/variants/capablanca-with-grasshoppers.ron"
[ -f "$file" ] || { echo "editor-e2e: nothing saved at $file"; exit 1; }
click 517 18                                   # Test-play
sleep 1
click 501 650; click 501 480                   # f2-f4 (on this 10-file board)
shot play
grep -q 'betza: "gQ"' "$file" || { echo "editor-e2e: the grasshopper is not gQ"; exit 1; }
grep -q '1g6g1/10/10/1G6G1' "$file" || { echo "editor-e2e: the grasshoppers are not on b3, i3, b6, i6"; exit 1; }
grep -q 'explosive-rook' "$file" || { echo "editor-e2e: exploding rooks are not on"; exit 1; }
"$bin" check "$file"
saved=$("$bin" perft --variant "$file" --fen startpos --depth 3 | awk '/Nodes/ {print $3}')
# The same definition by hand: Capablanca, the grasshopper, its start, exploding rooks.
hand="$data/by-hand.ron"
cat > "$hand" <<'RON'
(
    id: "by-hand",
    extends: "capablanca",
    pieces: [(letter: 'G', name: "grasshopper", betza: "gQ")],
    start: "rnabqkbcnr/pppppppppp/1g6g1/10/10/1G6G1/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
    presets: [(id: "explosive-rook")],
)
RON
by_hand=$("$bin" perft --variant "$hand" --fen startpos --depth 3 | awk '/Nodes/ {print $3}')
echo "perft(3): saved $saved, by hand $by_hand"
# Reopened: the editor opens the saved file.
"$bin" --editor "$file" --screenshot "$shots/reopened.png" >/dev/null 2>&1 || { echo "editor-e2e: the saved file does not reopen"; exit 1; }
[ "$saved" = "$by_hand" ] || { echo "editor-e2e: perft differs"; exit 1; }
echo "editor-e2e: passed; screenshots in $shots"
