#!/usr/bin/env python3
"""Draws Chimera's piece images from the chess symbols of Noto Sans Symbols 2 (SIL Open Font
License 1.1): assets/pieces/<name>-w.png and -b.png, 128x128 RGBA. Compound pieces (knight +
queen, rook or bishop) are one piece: the knight wearing the other's crown, battlements or mitre.

White pieces are the white glyph's outline on a white fill; black pieces are a dark fill with
the black glyph's inner lines drawn light. Xiangqi pieces are red or black ink on a cream disc.

Shogi pieces are wooden pentagons pointing at the enemy with the piece's letter (promoted ones
in red); Dobutsu's animals are coloured tiles with the animal's initial. Their letters are
DejaVu Sans Bold (Debian: fonts-dejavu-core).

Needs Pillow and the fonts (Debian: fonts-noto-core). Run from the repository root:
    python3 scripts/make_pieces.py
"""

import os
import sys

from PIL import Image, ImageChops, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf"
SIZE = 128
OUT = "assets/pieces"

# name: (white glyph, black glyph, style)
PIECES = {
    "king": (0x2654, 0x265A, "chess"),
    "queen": (0x2655, 0x265B, "chess"),
    "rook": (0x2656, 0x265C, "chess"),
    "bishop": (0x2657, 0x265D, "chess"),
    "knight": (0x2658, 0x265E, "chess"),
    "pawn": (0x2659, 0x265F, "chess"),
    "turned-king": (0x1FA1E, 0x1FA24, "chess"),
    "turned-queen": (0x1FA1F, 0x1FA25, "chess"),
    "turned-rook": (0x1FA20, 0x1FA26, "chess"),
    "turned-bishop": (0x1FA21, 0x1FA27, "chess"),
    "turned-knight": (0x1FA22, 0x1FA28, "chess"),
    "turned-pawn": (0x1FA23, 0x1FA29, "chess"),
    "knight-45": (0x1FA06, 0x1FA07, "chess"),
    "knight-90": (0x1FA0D, 0x1FA13, "chess"),
    "king-90": (0x1FA09, 0x1FA0F, "chess"),
    "queen-90": (0x1FA0A, 0x1FA10, "chess"),
    "rook-90": (0x1FA0B, 0x1FA11, "chess"),
    "bishop-90": (0x1FA0C, 0x1FA12, "chess"),
    "equihopper": (0x1FA48, 0x1FA49, "chess"),
    "xq-general": (0x1FA60, 0x1FA67, "xiangqi"),
    "xq-advisor": (0x1FA61, 0x1FA68, "xiangqi"),
    "xq-elephant": (0x1FA62, 0x1FA69, "xiangqi"),
    "xq-horse": (0x1FA63, 0x1FA6A, "xiangqi"),
    "xq-chariot": (0x1FA64, 0x1FA6B, "xiangqi"),
    "xq-cannon": (0x1FA65, 0x1FA6C, "xiangqi"),
    "xq-soldier": (0x1FA66, 0x1FA6D, "xiangqi"),
}

WHITE_FILL = (250, 250, 250, 255)
WHITE_INK = (20, 20, 20, 255)
BLACK_FILL = (38, 36, 33, 255)
BLACK_LINES = (200, 200, 200, 255)
CREAM = (243, 227, 195, 255)
RED = (178, 34, 34, 255)
XQ_BLACK = (25, 25, 25, 255)


def glyph_mask(font, cp):
    """The glyph as an 8-bit coverage mask, centred on the canvas."""
    ch = chr(cp)
    left, top, right, bottom = font.getbbox(ch)
    mask = Image.new("L", (SIZE, SIZE), 0)
    x = (SIZE - (right - left)) / 2 - left
    y = (SIZE - (bottom - top)) / 2 - top
    ImageDraw.Draw(mask).text((x, y), ch, font=font, fill=255)
    return mask


def inside(outline):
    """Everything the outline encloses (and the outline itself): the complement of what a flood
    fill from the corner reaches."""
    work = outline.point(lambda v: 255 if v > 96 else 0)
    ImageDraw.floodfill(work, (0, 0), 128)
    return work.point(lambda v: 0 if v == 128 else 255)


def paint(colour, mask):
    layer = Image.new("RGBA", (SIZE, SIZE), colour)
    layer.putalpha(mask)
    return layer


def chess_pair(font, white_cp, black_cp):
    return painted(glyph_mask(font, white_cp), glyph_mask(font, black_cp))


def xiangqi_pair(font, red_cp, black_cp):
    red_glyph = glyph_mask(font, red_cp)
    black_glyph = glyph_mask(font, black_cp)
    disc = inside(red_glyph)
    red = Image.alpha_composite(paint(CREAM, disc), paint(RED, red_glyph))
    black = Image.alpha_composite(paint(CREAM, inside(black_glyph)), paint(XQ_BLACK, black_glyph))
    return red, black


# Compound pieces: one piece, the knight wearing the top of the other (the queen's crown, the
# rook's battlements, the bishop's mitre), drawn in the same style. (Unicode's knight-queen,
# knight-rook and knight-bishop glyphs read as plain knights at board size.) name: (white glyph,
# black glyph, how much of its height the top is, the top's scale).
COMPOUNDS = {
    "knight-queen": (0x2655, 0x265B, 0.40, 0.78),
    "knight-rook": (0x2656, 0x265C, 0.30, 0.74),
    "knight-bishop": (0x2657, 0x265D, 0.50, 0.66),
}


def painted(outline, solid):
    """White and black pieces from a glyph's outline and solid masks: white is the outline on
    a white fill; black is a dark body whose inner lines (holes in the black glyph) are light."""
    fill = inside(outline)
    white = Image.alpha_composite(paint(WHITE_FILL, fill), paint(WHITE_INK, outline))
    lines = ImageChops.subtract(fill, solid)
    lines = ImageChops.multiply(lines, fill)
    black = Image.alpha_composite(paint(BLACK_FILL, fill), paint(BLACK_LINES, lines))
    black = Image.alpha_composite(black, paint(BLACK_FILL, ImageChops.subtract(outline, solid)))
    return white, black


def rows(mask):
    """The first and last rows with ink, and the columns of ink in the first few rows."""
    box = mask.getbbox()
    top = box[1]
    head = mask.crop((0, top, SIZE, top + 6)).getbbox()
    return top, box[3], head[0], head[2]


def scaled(mask, scale, dx, dy):
    """`mask` scaled about the canvas's top-left corner, then moved by (dx, dy)."""
    small = mask.resize((int(SIZE * scale), int(SIZE * scale)), Image.LANCZOS)
    out = Image.new("L", (SIZE, SIZE), 0)
    out.paste(small, (int(dx), int(dy)))
    return out


def compound(font, knight_cps, top_cps, part, scale):
    """The knight, a little smaller, with the other piece's top set on its head."""
    k_outline, k_solid = (glyph_mask(font, cp) for cp in knight_cps)
    t_outline, t_solid = (glyph_mask(font, cp) for cp in top_cps)
    # The knight, shrunk to leave room above its head, standing on the same ground.
    k_scale = 0.82
    _, k_bottom, _, _ = rows(k_outline)
    dx = (SIZE - SIZE * k_scale) / 2 + SIZE * 0.03
    dy = k_bottom - k_bottom * k_scale
    k_outline, k_solid = (scaled(m, k_scale, dx, dy) for m in (k_outline, k_solid))
    # The top of the other piece, closed with a line where it is cut.
    t_top, t_bottom, _, _ = rows(t_outline)
    cut = int(t_top + (t_bottom - t_top) * part)
    keep = Image.new("L", (SIZE, SIZE), 0)
    ImageDraw.Draw(keep).rectangle((0, 0, SIZE, cut), fill=255)
    t_fill = ImageChops.multiply(inside(t_outline), keep)
    box = t_fill.getbbox()
    t_outline = ImageChops.multiply(t_outline, keep)
    ImageDraw.Draw(t_outline).line((box[0], cut, box[2] - 1, cut), fill=255, width=3)
    t_solid = ImageChops.lighter(ImageChops.multiply(t_solid, keep), t_outline)
    # Set on the head: centred over the top of the knight's head, its cut edge a little below
    # the head's top so that it sits on it.
    head_top, _, head_left, head_right = rows(k_outline)
    width = (box[2] - box[0]) * scale
    centre = (head_left + head_right) / 2 + SIZE * 0.02
    tx = centre - width / 2 - box[0] * scale
    ty = head_top + SIZE * 0.10 - cut * scale
    t_outline, t_solid = (scaled(m, scale, tx, ty) for m in (t_outline, t_solid))
    knight = painted(k_outline, k_solid)
    top = painted(t_outline, t_solid)
    return tuple(Image.alpha_composite(knight[i], top[i]) for i in range(2))


def clear(image):
    """Fully transparent pixels black, so the images also look right where they are blended
    as premultiplied alpha (egui)."""
    r, g, b, a = image.split()
    black = Image.new("L", image.size, 0)
    keep = a.point(lambda v: 255 if v > 0 else 0)
    return Image.merge("RGBA", tuple(Image.composite(c, black, keep) for c in (r, g, b)) + (a,))


LETTER_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

# name: (letter, promoted); each also gets a "-promoted" image when the piece promotes.
SHOGI = {
    "sh-pawn": ("P", True),
    "sh-lance": ("L", True),
    "sh-knight": ("N", True),
    "sh-silver": ("S", True),
    "sh-gold": ("G", False),
    "sh-bishop": ("B", True),
    "sh-rook": ("R", True),
    "sh-horse": ("H", False),
    "sh-dragon": ("D", False),
    "sh-king": ("K", False),
}

# name: (letter, tile colour, promotes)
DOBUTSU = {
    "do-chick": ("C", (250, 214, 90), True),
    "do-hen": ("H", (245, 160, 90), False),
    "do-elephant": ("E", (190, 160, 225), False),
    "do-giraffe": ("G", (160, 210, 120), False),
    "do-lion": ("L", (235, 110, 90), False),
}


def tile(shape, fill, letter, ink, font, size_scale=1.0):
    """A tile of `shape` (polygon points in 0..1) with `letter` in its middle, pointing up."""
    big = SIZE * 4
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    points = [(x * big, y * big) for x, y in shape]
    draw.polygon(points, fill=fill, outline=(60, 40, 20, 255), width=big // 40)
    f = font.font_variant(size=int(big * 0.42 * size_scale))
    left, top, right, bottom = f.getbbox(letter)
    x = (big - (right - left)) / 2 - left
    y = big * 0.58 - (bottom - top) / 2 - top
    draw.text((x, y), letter, font=f, fill=ink)
    return image.resize((SIZE, SIZE), Image.LANCZOS)


PENTAGON = [(0.5, 0.06), (0.8, 0.2), (0.88, 0.94), (0.12, 0.94), (0.2, 0.2)]
ROUNDED = [(0.14, 0.1), (0.86, 0.1), (0.94, 0.18), (0.94, 0.86), (0.86, 0.94), (0.14, 0.94), (0.06, 0.86), (0.06, 0.18)]


def shogi_pieces(font):
    """White's pieces point up, black's down: the same tile turned around."""
    out = {}
    wood = (236, 200, 140, 255)
    for name, (letter, promotes) in SHOGI.items():
        for suffix, ink in [("", (25, 20, 15, 255))] + ([("-promoted", (200, 30, 30, 255))] if promotes else []):
            white = tile(PENTAGON, wood, letter, ink, font)
            out[name + suffix] = (white, white.rotate(180))
    for name, (letter, colour, promotes) in DOBUTSU.items():
        for suffix, ink in [("", (25, 20, 15, 255))] + ([("-promoted", (200, 30, 30, 255))] if promotes else []):
            white = tile(ROUNDED, colour + (255,), letter, ink, font, 1.2)
            out[name + suffix] = (white, white.rotate(180))
    return out


def main():
    if not os.path.exists(FONT):
        sys.exit(f"missing {FONT} (apt-get install fonts-noto-core)")
    font = ImageFont.truetype(FONT, 104)
    os.makedirs(OUT, exist_ok=True)
    drawn = {}
    for name, (w, b, style) in PIECES.items():
        drawn[name] = (chess_pair if style == "chess" else xiangqi_pair)(font, w, b)
    for name, (white, black, part, scale) in COMPOUNDS.items():
        drawn[name] = compound(font, (0x2658, 0x265E), (white, black), part, scale)
    drawn.update(shogi_pieces(ImageFont.truetype(LETTER_FONT, 64)))
    for name, (white, black) in drawn.items():
        clear(white).save(os.path.join(OUT, f"{name}-w.png"), optimize=True)
        clear(black).save(os.path.join(OUT, f"{name}-b.png"), optimize=True)
    print(f"{len(drawn) * 2} images in {OUT}")


if __name__ == "__main__":
    main()
