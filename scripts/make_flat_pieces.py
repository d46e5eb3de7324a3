#!/usr/bin/env python3
"""Draws Chimera's second piece set, "Flat": the six standard pieces and the three knight
compounds (knight + queen, rook, bishop) as flat silhouettes with a dark outline, white or dark
fill and a few inner lines. Drawn from scratch here with Pillow's polygons and ellipses (no font
or outside artwork), so the images are the project's own, MIT OR Apache-2.0 like the code.

Writes assets/pieces/flat-<name>-w.png and -b.png, 128x128 RGBA, drawn at 512x512 and scaled
down. Needs Pillow (Debian: python3-pil). Run from the repository root:
    python3 scripts/make_flat_pieces.py
"""

import os

from PIL import Image, ImageChops, ImageDraw, ImageFilter

BIG = 512
SIZE = 128
OUT = "assets/pieces"

INK = (24, 22, 20, 255)
WHITE_FILL = (248, 246, 240, 255)
BLACK_FILL = (52, 48, 44, 255)
BLACK_LINES = (190, 184, 174, 255)
OUTLINE = 15  # pixels at 512 (odd: a filter size)


def canvas():
    return Image.new("L", (BIG, BIG), 0)


def base(d):
    """The plinth every piece stands on."""
    d.rounded_rectangle((120, 402, 392, 452), radius=14, fill=255)
    d.rounded_rectangle((150, 376, 362, 410), radius=10, fill=255)


def pawn():
    m = canvas()
    d = ImageDraw.Draw(m)
    base(d)
    d.polygon([(206, 250), (306, 250), (348, 382), (164, 382)], fill=255)
    d.ellipse((176, 232, 336, 270), fill=255)
    d.ellipse((196, 112, 316, 232), fill=255)
    return m, [((176, 251, 336, 251), 1), ((150, 393, 362, 393), 1)], []


def rook():
    m = canvas()
    d = ImageDraw.Draw(m)
    base(d)
    d.polygon([(180, 170), (332, 170), (346, 382), (166, 382)], fill=255)
    d.rectangle((150, 150, 362, 190), fill=255)
    # Battlements: three merlons.
    for x0, x1 in ((150, 204), (229, 283), (308, 362)):
        d.rectangle((x0, 92, x1, 160), fill=255)
    return m, [((166, 190, 346, 190), 1), ((170, 350, 342, 350), 1), ((150, 393, 362, 393), 1)], []


def bishop():
    m = canvas()
    d = ImageDraw.Draw(m)
    base(d)
    d.polygon([(222, 330), (290, 330), (336, 382), (176, 382)], fill=255)
    d.ellipse((186, 300, 326, 344), fill=255)
    # The mitre: an egg, pointed at the top, with a ball.
    d.ellipse((178, 140, 334, 318), fill=255)
    d.polygon([(190, 200), (256, 92), (322, 200)], fill=255)
    d.ellipse((234, 58, 278, 102), fill=255)
    lines = [((186, 322, 326, 322), 1), ((150, 393, 362, 393), 1)]
    # The slit, cut through the mitre.
    cuts = [((226, 176, 290, 240), 16)]
    return m, lines, cuts


def crown_points(top):
    """A queen's crown: five points with balls, the middle one highest."""
    xs = (130, 193, 256, 319, 382)
    ys = (top + 40, top + 15, top, top + 15, top + 40)
    return list(zip(xs, ys))


def queen():
    m = canvas()
    d = ImageDraw.Draw(m)
    base(d)
    d.polygon([(206, 320), (306, 320), (348, 382), (164, 382)], fill=255)
    d.ellipse((170, 296, 342, 340), fill=255)
    points = crown_points(92)
    outline = [(178, 312)]
    valleys = (168, 226, 286, 344)
    for i, p in enumerate(points):
        outline.append(p)
        if i < len(valleys):
            outline.append((valleys[i], 214))
    outline.append((334, 312))
    d.polygon(outline, fill=255)
    for x, y in points:
        d.ellipse((x - 20, y - 20, x + 20, y + 20), fill=255)
    return m, [((176, 296, 336, 296), 1), ((150, 393, 362, 393), 1)], []


def king():
    m = canvas()
    d = ImageDraw.Draw(m)
    base(d)
    d.polygon([(206, 320), (306, 320), (348, 382), (164, 382)], fill=255)
    d.ellipse((170, 296, 342, 340), fill=255)
    # The crown: a rounded cap on a band.
    d.chord((146, 150, 366, 330), 180, 360, fill=255)
    d.polygon([(146, 240), (366, 240), (336, 316), (176, 316)], fill=255)
    # The cross.
    d.rectangle((242, 42, 270, 170), fill=255)
    d.rectangle((212, 78, 300, 104), fill=255)
    return m, [((172, 296, 340, 296), 1), ((150, 393, 362, 393), 1), ((156, 244, 356, 244), 1)], []


# The horse's head, facing left, from its neck at the plinth to the ears.
HORSE = [
    (338, 384), (356, 300), (356, 230), (340, 168), (308, 122), (300, 70), (276, 104),
    (262, 72), (240, 112), (196, 136), (156, 178), (116, 232), (108, 268), (128, 292),
    (162, 296), (196, 280), (232, 262), (206, 318), (172, 384),
]


def horse(d, scale=1.0, dx=0.0, dy=0.0):
    d.polygon([(x * scale + dx, y * scale + dy) for x, y in HORSE], fill=255)


def horse_lines(scale=1.0, dx=0.0, dy=0.0):
    """The eye, the nostril and the mane's edge."""
    t = lambda x, y: (x * scale + dx, y * scale + dy)  # noqa: E731
    eye = (*t(200, 166), *t(222, 180))
    mane = (*t(330, 170), *t(342, 250), *t(336, 330))
    return [(eye, 0), ((*t(128, 262), *t(140, 268)), 1), (mane, 1)]


def knight():
    m = canvas()
    d = ImageDraw.Draw(m)
    base(d)
    horse(d)
    return m, horse_lines() + [((150, 393, 362, 393), 1)], []


def knight_queen():
    """The amazon: a crowned horse."""
    m = canvas()
    d = ImageDraw.Draw(m)
    base(d)
    s, dx, dy = 0.84, 44, 64
    horse(d, s, dx, dy)
    points = [(196, 70), (240, 48), (284, 48), (328, 70)]
    d.polygon([(206, 150), (196, 70), (218, 120), (240, 48), (262, 120), (284, 48), (306, 120), (328, 70), (318, 150)], fill=255)
    for x, y in points:
        d.ellipse((x - 17, y - 17, x + 17, y + 17), fill=255)
    return m, horse_lines(s, dx, dy) + [((208, 142, 316, 142), 1), ((150, 393, 362, 393), 1)], []


def knight_rook():
    """The chancellor: a horse rising from a tower."""
    m = canvas()
    d = ImageDraw.Draw(m)
    base(d)
    s, dx, dy = 0.80, 50, 8
    horse(d, s, dx, dy)
    d.polygon([(170, 282), (342, 282), (352, 382), (160, 382)], fill=255)
    for x0, x1 in ((150, 204), (229, 283), (308, 362)):
        d.rectangle((x0, 244, x1, 300), fill=255)
    d.rectangle((150, 282, 362, 306), fill=255)
    lines = horse_lines(s, dx, dy) + [((160, 306, 352, 306), 1), ((150, 393, 362, 393), 1)]
    return m, lines, []


def knight_bishop():
    """The archbishop: a horse in a mitre."""
    m = canvas()
    d = ImageDraw.Draw(m)
    base(d)
    s, dx, dy = 0.84, 44, 64
    horse(d, s, dx, dy)
    d.ellipse((206, 78, 330, 196), fill=255)
    d.polygon([(212, 124), (268, 36), (324, 124)], fill=255)
    d.ellipse((250, 8, 286, 44), fill=255)
    lines = horse_lines(s, dx, dy) + [((150, 393, 362, 393), 1)]
    return m, lines, [((246, 100, 292, 150), 12)]


PIECES = {
    "king": king,
    "queen": queen,
    "rook": rook,
    "bishop": bishop,
    "knight": knight,
    "pawn": pawn,
    "knight-queen": knight_queen,
    "knight-rook": knight_rook,
    "knight-bishop": knight_bishop,
}


def layer(colour, mask):
    out = Image.new("RGBA", (BIG, BIG), colour)
    out.putalpha(mask)
    return out


def draw(shape, dark):
    silhouette, lines, cuts = shape()
    # Cuts go through the body (the bishop's slit): they show the outline colour.
    outer = silhouette.filter(ImageFilter.MaxFilter(OUTLINE))
    inner = silhouette.filter(ImageFilter.MinFilter(OUTLINE))
    ink = layer(INK, outer)
    fill = layer(BLACK_FILL if dark else WHITE_FILL, inner)
    image = Image.alpha_composite(ink, fill)
    d = ImageDraw.Draw(image)
    line_colour = BLACK_LINES if dark else INK
    for coords, kind in lines:
        if kind == 0:
            d.ellipse(coords, fill=line_colour)
        elif len(coords) == 4:
            d.line(coords, fill=line_colour, width=10)
        else:
            d.line(coords, fill=line_colour, width=10, joint="curve")
    for (x0, y0, x1, y1), width in cuts:
        d.line((x0, y0, x1, y1), fill=INK, width=width * 2)
    # Lines stay inside the piece.
    alpha = image.getchannel("A")
    image.putalpha(ImageChops.multiply(alpha, outer))
    return image.resize((SIZE, SIZE), Image.LANCZOS)


def clear(image):
    """Fully transparent pixels black (premultiplied-alpha blending, as egui does)."""
    r, g, b, a = image.split()
    black = Image.new("L", image.size, 0)
    keep = a.point(lambda v: 255 if v > 0 else 0)
    return Image.merge("RGBA", tuple(Image.composite(c, black, keep) for c in (r, g, b)) + (a,))


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, shape in PIECES.items():
        clear(draw(shape, False)).save(os.path.join(OUT, f"flat-{name}-w.png"), optimize=True)
        clear(draw(shape, True)).save(os.path.join(OUT, f"flat-{name}-b.png"), optimize=True)
    print(f"{len(PIECES) * 2} images in {OUT}")


if __name__ == "__main__":
    main()
