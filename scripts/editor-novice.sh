#!/usr/bin/env bash
# The novice task of issue 33, driven as a chess player who does not know Betza would: under
# Xvfb, real mouse events (xdotool) build "Dragon chess" from the start screen, where the queen
# moves as a knight or as a king and a king that reaches the centre wins. Nothing is typed but
# the variant's name: no Betza, region name or FEN. The controls used are the general ones: the
# queen is picked in the piece list, given a knight's moves with "Like a…" and a king's added
# to them, King of the Hill is picked from the ready-made ways to win; the variant is
# test-played against the computer (a move each), saved, the editor closed (back to the start
# screen, where the variant saved is picked) and the variant started. The script counts the
# clicks and keystrokes and the wall time, checks the saved file (`chimera check`, the queen's
# moves, the hill) and that the window plays it. The model test
# `editor::tests::the_novice_builds_dragon_chess` replays the same edits in CI.
#
#   bash scripts/editor-novice.sh [screenshot-dir]
#
# Needs xvfb, xdotool and imagemagick. Coordinates are the window's on a 1240x880 screen (the
# window takes 1224x816 of it).
source "$(dirname "$0")/xvfb-game.sh"
start_game 94 6
clicks=0
keys=0
began=$(date +%s.%N)
# The window sleeps between events: the pointer arrives first, then the press.
click() { xdotool mousemove "$1" "$2"; sleep 0.3; xdotool click 1; sleep 0.6; clicks=$((clicks + 1)); }
typed() { xdotool type --delay 60 "$1"; sleep 0.4; keys=$((keys + ${#1})); }
shot() { import -window root "$shots/$1.png"; }
shot start
click 437 707                                  # start screen: New variant… (its name field has the keyboard)
typed "Dragon chess"                           # the name: the only typing
click 120 328                                  # Pieces: the queen (its name)
click 500 236                                  # Like a… knight: its moves in place of the queen's
click 721 236                                  # add to its moves
click 349 236                                  # Like a… king, added: a knight or a king
shot painter
click 224 71                                   # Rules
click 570 119                                  # King of the Hill (the four centre squares)
shot rules
click 668 18                                   # who test-plays
click 640 65                                   # the computer plays black
click 518 18                                   # Test-play
sleep 1
click 489 645; click 489 455                   # e2-e4 (the board's squares are 95 points)
sleep 4                                        # the computer's reply
shot test-play
click 1105 635                                 # Back to the editor
click 810 18                                   # Save
file="$data/chimera/variants/dragon-chess.ron"
[ -f "$file" ] || { echo "editor-novice: nothing saved at $file"; exit 1; }
click 1084 18                                  # Close: back to the start screen, Dragon chess picked
sleep 1
shot found
window=$(xdotool search --name Chimera | head -1)
before=$(xdotool getwindowname "$window")
click 806 709                                  # Play
click 354 458                                  # the test game in progress: put it away and go on
sleep 1
click 489 645; click 489 455                   # e2-e4 in the new game (saved as an unfinished game)
sleep 4
after=$(xdotool getwindowname "$window")
ended=$(date +%s.%N)
shot playing
echo "window: '$before', then '$after'"
[[ "$after" == *"Dragon chess"* ]] || { echo "editor-novice: Dragon chess is not found and played"; exit 1; }
"$bin" check "$file"
# Two unfinished games: the test game put away, and the new one, of the file saved.
games=("$data"/chimera/autosaves/*.pgn)
[ "${#games[@]}" = 2 ] || { echo "editor-novice: ${#games[@]} games saved, not the test game and a new one"; exit 1; }
head -12 "${games[1]}"
grep -q 'dragon-chess.ron' "${games[1]}" || { echo "editor-novice: the new game is not of the file saved"; exit 1; }
grep -A2 "letter: 'Q'" "$file" | grep -Eq 'betza: "(KN|NK)"' || { echo "editor-novice: the queen does not move as a knight or a king"; exit 1; }
grep -q "RegionReached" "$file" || { echo "editor-novice: no King of the Hill"; exit 1; }
printf 'editor-novice: passed in %.0f s with %d clicks and %d keystrokes (the name); screenshots in %s\n' \
    "$(echo "$ended - $began" | bc)" "$clicks" "$keys" "$shots"
