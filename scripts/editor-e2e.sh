#!/usr/bin/env bash
# The variant editor driven as a player drives it (issue 13): under Xvfb, real mouse and key
# events (xdotool) start the game, press "New variant…" on the start screen (a copy of chess)
# and build Capablanca chess with grasshoppers and exploding rooks without typing Betza, RON or
# FEN: ten files; the archbishop and the chancellor from the piece library; Capablanca's start
# copied; castling switched off and on (its squares for ten files); A and C added to the
# promotion choices; exploding rooks; a new piece, letter G, named grasshopper, painted in the
# move painter (a diagonal step painted beside its orthogonal one, both made to jump over a
# piece landing just beyond it: gQ) and placed on b3 and i3 (mirrored to b6 and i6; a3/a6
# would check the kings at the start); renamed and saved; found on the start screen (where
# Close goes, the variant saved picked) and played (the window's title names it); then
# test-played from the editor, a move each. The saved file must pass `chimera check`, its
# perft(3) must equal that of the same definition written by hand, and it must reopen in the
# editor. The model test
# `editor::tests::the_e2e_edit_sequence_from_a_new_variant` replays the same edits in CI.
#
#   bash scripts/editor-e2e.sh [screenshot-dir]
#
# Needs xvfb, xdotool and imagemagick. Coordinates are the window's on a 1240x880 screen (the
# window takes 1224x816 of it), measured on the editor's layout of issue 33 (the variant's
# preview beside every section).
source "$(dirname "$0")/xvfb-game.sh"
start_game 95 6
# The window sleeps between events: the pointer arrives first, then the press, then a nudge so
# that what the click changed is drawn.
click() { xdotool mousemove "$1" "$2"; sleep 0.3; xdotool click 1; sleep 0.6; xdotool mousemove $(($1 + 1)) "$2"; sleep 0.3; }
typed() { xdotool type --delay 50 "$1"; sleep 0.5; }
# Empties the text field at x y (its text to the end, then back): Ctrl+A reaches egui as an 'a'
# from xdotool here.
emptied() { click "$1" "$2"; xdotool key End; for _ in $(seq 1 "$3"); do xdotool key BackSpace; done; sleep 0.3; }
shot() { import -window root "$shots/$1.png"; }
click 437 707                                  # start screen: New variant…
click 29 71                                    # Board
emptied 75 101 3; typed 10; xdotool key Return # files: 10
click 199 101                                  # Apply
shot board
click 81 71                                    # Pieces
click 147 431                                  # From the library…
click 618 101; typed archbishop                # search
shot library
click 295 128                                  # Add
click 147 478                                  # From the library… (one piece further down)
click 618 101; typed chancellor
click 295 128                                  # Add
click 153 71                                   # Start position
click 553 167                                  # Copy the start of…
click 549 192                                  # Capablanca Chess
click 224 71                                   # Rules
click 15 101; click 15 101                     # castling off, and on: i/c and h/d on ten files
click 342 215; click 376 215                   # promotion to A and C too
click 449 419                                  # Exploding rooks
shot rules
click 81 71                                    # Pieces
click 45 525                                   # Add a piece (piece D, one step orthogonally)
click 432 101; typed G                         # its letter: the last letter typed
emptied 620 101 12; typed grasshopper          # its name
# The painter's grid: the piece at its centre (445, 440), 17.4 points a square; a click paints
# a move and its turns (the symmetry the piece's moves have: every turn alike).
click 462 423                                  # a diagonal step: the four diagonals too
click 462 440                                  # pick an orthogonal step
click 625 403                                  # it jumps over a piece, landing just beyond it
click 462 423                                  # pick a diagonal step
click 625 403                                  # the same: gQ
shot pieces
click 153 71                                   # Start position
click 23 140                                   # palette: white's G (its second row)
click 15 167                                   # mirror for black
click 71 411                                   # b3 (and b6)
click 365 411                                  # i3 (and i6)
shot start
emptied 370 18 20; typed "Capablanca with grasshoppers"
click 329 71                                   # RON
shot ron
click 810 18                                   # Save
file="$data/chimera/variants/capablanca-with-grasshoppers.ron"
[ -f "$file" ] || { echo "editor-e2e: nothing saved at $file"; exit 1; }
# Found under my variants: Close goes back to the start screen, with the variant saved picked.
window=$(xdotool search --name Chimera | head -1)
before=$(xdotool getwindowname "$window")
click 1084 18                                  # Close
sleep 1
shot mine
click 806 709                                  # Play
sleep 1
after=$(xdotool getwindowname "$window")
echo "window: '$before', then '$after'"
[[ "$after" == *"Capablanca with grasshoppers"* && "$before" != *grasshoppers* ]] || { echo "editor-e2e: my variant is not found and played"; exit 1; }
click 1105 635                                 # Back to the editor
click 518 18                                   # Test-play
sleep 1
click 484 616; click 484 450                   # f2-f4 (on this 10-file board, 83 points a square)
click 400 199; click 400 366                   # e7-e5
shot play
grep -q 'betza: "gQ"' "$file" || { echo "editor-e2e: the grasshopper is not gQ"; exit 1; }
grep -q '1g6g1/10/10/1G6G1' "$file" || { echo "editor-e2e: the grasshoppers are not on b3, i3, b6, i6"; exit 1; }
grep -q 'explosive-rook' "$file" || { echo "editor-e2e: exploding rooks are not on"; exit 1; }
grep -q "king: ('i', 'c')" "$file" || { echo "editor-e2e: the king does not castle to i and c"; exit 1; }
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
