#!/usr/bin/env bash
# The custom-picture round trip of issue 33, under Xvfb with real mouse and key events
# (xdotool): a new variant, "Picture chess", gets a new piece whose pictures are imported
# through the picture picker and the in-game file browser (an SVG for White, a PNG for Black,
# their paths typed in the browser's File field); the piece is put on the start board for both
# sides; the variant is saved (the pictures are written beside it), closed, found on the start
# screen and played; the game is saved; the game is quit, the picture files deleted, the game
# started again and the unfinished game resumed: its pieces still wear their pictures. The
# pictures are in colours no other piece has (magenta, cyan), so the board's screenshots are
# checked by counting their pixels. The model test
# `editor::tests::a_piece_gets_its_own_pictures_and_a_save_keeps_them` covers the same in CI.
#
#   bash scripts/editor-pictures.sh [screenshot-dir]
#
# Needs xvfb, xdotool and imagemagick. Coordinates are the window's on a 1240x880 screen.
source "$(dirname "$0")/xvfb-game.sh"
art=$(mktemp -d)
cat > "$art/dragon.svg" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <path d="M20 88 L80 88 L72 70 Q86 52 74 30 L84 14 L62 22 Q44 10 30 26 Q40 32 36 40 L22 44 L30 54 Q44 52 46 60 Q30 70 20 88 Z"
        fill="#d020d0" stroke="#200020" stroke-width="4" stroke-linejoin="round"/>
  <circle cx="52" cy="30" r="4" fill="#ffffff"/>
  <text x="50" y="80" font-size="20">D</text>
</svg>
SVG
convert -size 128x128 xc:none -fill '#20c8c8' -stroke '#002828' -strokewidth 6 -draw 'circle 64,64 64,14' "$art/dragon-black.png"
start_game 93 6
began=$(date +%s.%N)
# The window sleeps between events: the pointer arrives first, then the press, then a nudge.
click() { xdotool mousemove "$1" "$2"; sleep 0.3; xdotool click 1; sleep 0.6; xdotool mousemove $(($1 + 1)) "$2"; sleep 0.3; }
typed() { xdotool type --delay 40 "$1"; sleep 0.4; }
enter() { xdotool key Return; sleep 0.8; }
shot() { import -window root "$shots/$1.png"; }
# Pixels of a colour (within 6 %) in a screenshot.
count() { convert "$shots/$1.png" -fuzz 6% -fill black +opaque "$2" -fill white -opaque "$2" -format '%[fx:round(mean*w*h)]' info:; }
magenta='#d020d0' cyan='#20c8c8'
click 437 707                                  # start screen: New variant…
typed "Picture chess"
click 81 71                                    # Pieces
click 45 431                                   # Add a piece (piece A, picked)
click 680 101                                  # its Picture… button: the picture picker
shot picker
click 693 203                                  # for White…: the file browser
click 536 596; typed "$art/dragon.svg"; enter  # its File field, the SVG's path
click 775 203                                  # for Black…
click 536 596; typed "$art/dragon-black.png"; enter
xdotool mousemove 600 760; sleep 0.5
shot imported
click 393 683                                  # Done
click 153 71                                   # Start position
click 724 107; click 224 410                   # White's piece A (the palette) on e3
click 762 107; click 224 266                   # Black's on e6
shot start-board
click 810 18                                   # Save
file="$data/chimera/variants/picture-chess.ron"
images="$data/chimera/variants/picture-chess-images"
[ -f "$file" ] || { echo "editor-pictures: nothing saved at $file"; exit 1; }
cmp "$images/dragon.svg" "$art/dragon.svg" && cmp "$images/dragon-black.png" "$art/dragon-black.png" \
    || { echo "editor-pictures: the pictures are not saved beside the variant"; exit 1; }
grep -q 'white: "picture-chess-images/dragon.svg"' "$file" || { echo "editor-pictures: the file does not name the pictures"; exit 1; }
"$bin" check "$file"
click 1084 18                                  # Close: the start screen, Picture chess picked
sleep 1
shot found
click 806 709                                  # Play
sleep 1
shot playing
click 489 550; click 394 550                   # White: the piece from e3 to d3
click 584 170; click 584 360                   # Black: f7-f5
click 927 665; click 1090 686                  # the panel's Game section: Save game
games=("$data"/chimera/games/*.pgn)
[ -f "${games[0]}" ] || { echo "editor-pictures: no game saved"; exit 1; }
grep -q 'ChimeraSave "3"' "${games[0]}" && grep -q 'dragon-black.png' "${games[0]}" \
    || { echo "editor-pictures: the saved game does not carry the pictures"; exit 1; }
# Quit; the pictures go; start again and resume.
rm -r "$images" "$art"
restart_game 6
shot restarted
click 76 151                                   # Resume: the unfinished game
sleep 1
shot resumed
ended=$(date +%s.%N)
for s in playing resumed; do
    m=$(count "$s" "$magenta") c=$(count "$s" "$cyan")
    echo "$s: $m magenta and $c cyan pixels"
    [ "$m" -gt 1000 ] && [ "$c" -gt 1000 ] || { echo "editor-pictures: the pieces' own pictures are not on the board ($s)"; exit 1; }
done
printf 'editor-pictures: passed in %.0f s; screenshots in %s\n' "$(echo "$ended - $began" | bc)" "$shots"
