#!/usr/bin/env bash
# The variant editor driven as a player drives it (issue 13): under Xvfb, real mouse and key
# events (xdotool) start the game, press "New variant…" on the start screen (a copy of chess)
# and build Capablanca chess with grasshoppers and exploding rooks without typing Betza, RON or
# FEN: ten files; the archbishop and the chancellor from the piece library; Capablanca's start
# copied; castling switched off and on (its squares for ten files); A and C added to the
# promotion choices; exploding rooks; a new piece, letter G, named grasshopper, painted in the
# move painter (all eight directions, riding, hopping to land just beyond: gQ) and placed on b3
# and i3 (mirrored to b6 and i6; a3/a6 would check the kings at the start); renamed and saved;
# found on the start screen among my variants and played (the window's title names it); then
# test-played from the editor, a move each. The saved file must pass `chimera check`, its
# perft(3) must equal that of the same definition written by hand, and it must reopen in the
# editor. The model test
# `editor::tests::the_e2e_edit_sequence_from_a_new_variant` replays the same edits in CI.
#
#   bash scripts/editor-e2e.sh [screenshot-dir]
#
# Needs xvfb, xdotool and imagemagick. Coordinates are the editor's at 1240x880 as it was laid
# out before issue 33 (the variant's preview beside every section moved the forms): they are to
# be measured again, and until then the script stops part of the way. The model test above
# replays the edits in CI; scripts/editor-novice.sh drives the new layout.
source "$(dirname "$0")/xvfb-game.sh"
start_game 95 5
# The window sleeps between events: the pointer arrives first, then the press.
click() { xdotool mousemove "$1" "$2"; sleep 0.25; xdotool click "${3:-1}"; sleep 0.5; }
select_all() { click "$1" "$2"; xdotool keydown ctrl; sleep 0.15; xdotool key a; sleep 0.15; xdotool keyup ctrl; sleep 0.15; }
typed() { xdotool type "$1"; sleep 0.4; }
shot() { import -window root "$shots/$1.png"; }
click 464 688                                  # start screen: New variant…
click 29 50                                    # Board
select_all 61 80; typed 10; xdotool key Return # files: 10
click 199 80                                   # Apply
shot board
click 81 50                                    # Pieces
click 147 230                                  # From the library…
click 618 80; typed archbishop                 # search
shot library
click 295 107                                  # Add
click 147 255                                  # From the library… (one piece further down)
click 618 80; typed chancellor
click 295 107                                  # Add
click 153 50                                   # Start position
click 554 113                                  # Copy the start of…
click 549 138                                  # Capablanca Chess
click 224 50                                   # Rules
click 15 80; click 15 80                       # castling off, and on: i/c and h/d on ten files
click 342 194; click 376 194                   # promotion to A and C too
click 631 293                                  # Exploding rooks
shot rules
click 81 50                                    # Pieces
click 45 280                                   # Add a piece
select_all 430 80; typed G                     # its letter
select_all 563 80; typed grasshopper           # its name
click 566 187                                  # symmetry: all eight
# The painter's grid is 19 x 19 on a ten-file board (as far as the board reaches), the piece
# at its centre (490, 409), 22 points a square.
click 512 387                                  # a diagonal step: all eight steps now
click 512 409 3                                # pick an orthogonal step (right-click)
click 597 631                                  # hop, land beyond (g): the orthogonals ride and hop
click 512 387 3                                # pick a diagonal step
click 597 631                                  # the same for the diagonals
shot pieces
click 153 50                                   # Start position
click 876 86                                   # palette: white's G
click 15 113                                   # mirror for black
click 71 356                                   # b3 (and b6)
click 365 356                                  # i3 (and i6)
shot start
select_all 255 18; typed "Capablanca with grasshoppers"
click 270 50                                   # RON
shot ron
click 680 18                                   # Save
file="$data/chimera/variants/capablanca-with-grasshoppers.ron"
[ -f "$file" ] || { echo "editor-e2e: nothing saved at $file"; exit 1; }
# Found under my variants: the editor closed, the start screen finds it and plays it.
click 954 18                                   # Close: back to the game (chess)
window=$(xdotool search --name Chimera | head -1)
before=$(xdotool getwindowname "$window")
click 949 189                                  # New game…
click 192 201; typed "with grasshoppers"       # search
click 150 223                                  # the one variant found
shot mine
click 349 681                                  # Play
sleep 1
after=$(xdotool getwindowname "$window")
echo "window: '$before', then '$after'"
[[ "$after" == *"Capablanca with grasshoppers"* && "$before" != *grasshoppers* ]] || { echo "editor-e2e: my variant is not found and played"; exit 1; }
click 1122 183                                 # Back to the editor
click 517 18                                   # Test-play
sleep 1
click 492 650; click 492 480                   # f2-f4 (on this 10-file board)
click 407 227; click 407 397                   # e7-e5
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
