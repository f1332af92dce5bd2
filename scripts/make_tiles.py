#!/usr/bin/env python3
"""Draw Tenbou's tile images: static/tiles/<code>.svg for the 34 tiles, the red fives and the back,
and the app icons static/icons/*.png. Run it after changing the drawing; its output is committed.

    .venv/bin/python scripts/make_tiles.py            # write the files
    .venv/bin/python scripts/make_tiles.py --check    # exit 1 if the committed files differ

Every mark is a shape, so a tile looks the same on a phone without any CJK font: circles and bamboo
are drawn here, and the kanji of characters and honours (and the small Latin index in the corner)
are glyph outlines kept in scripts/tile_glyphs.json (made by scripts/tile_shapes.py from free fonts).
"""
from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TILES = ROOT / "static" / "tiles"
ICONS = ROOT / "static" / "icons"

W, H = 60, 80                      # tile face in SVG units (3:4 like a real tile)
FACE, EDGE = "#fbf7ea", "#b9b09a"
INK, RED, GREEN, BLUE = "#1d2433", "#d0161e", "#137a3a", "#1f4fa8"
GLYPHS = json.loads((Path(__file__).resolve().parent / "tile_glyphs.json").read_text(encoding="utf-8"))
KANJI_NUMERALS = "一二三四五六七八九"
WINDS = {"1z": ("東", "E"), "2z": ("南", "S"), "3z": ("西", "W"), "4z": ("北", "N")}


def frame(body: str, title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img">'
        f"<title>{title}</title>"
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="7" fill="{FACE}" stroke="{EDGE}" stroke-width="2"/>'
        f"{body}</svg>\n"
    )


def circle(x: float, y: float, r: float, colour: str) -> str:
    """One pin: a ring with a dotted inner ring and a centre, like the printed circles."""
    return (
        f'<circle cx="{x}" cy="{y}" r="{r}" fill="{FACE}" stroke="{colour}" stroke-width="{r * 0.28:.2f}"/>'
        f'<circle cx="{x}" cy="{y}" r="{r * 0.5:.2f}" fill="none" stroke="{colour}" stroke-width="{r * 0.14:.2f}" '
        f'stroke-dasharray="{r * 0.25:.2f} {r * 0.16:.2f}"/>'
        f'<circle cx="{x}" cy="{y}" r="{r * 0.2:.2f}" fill="{colour}"/>'
    )


def stick(x: float, y: float, colour: str, length: float = 20, width: float = 6.4, angle: float = 0) -> str:
    """One bamboo stick centred on (x, y): a rounded bar with three joints."""
    top = y - length / 2
    joints = "".join(
        f'<rect x="{x - width / 2 - 0.4:.2f}" y="{top + f * length - 0.9:.2f}" width="{width + 0.8:.2f}" '
        f'height="1.8" rx="0.9" fill="{colour}"/>'
        for f in (0.08, 0.5, 0.92)
    )
    body = (
        f'<rect x="{x - width / 2:.2f}" y="{top:.2f}" width="{width}" height="{length}" rx="{width / 2:.2f}" '
        f'fill="{colour}" fill-opacity="0.18" stroke="{colour}" stroke-width="1.5"/>'
        f'<line x1="{x}" y1="{top + 2.5:.2f}" x2="{x}" y2="{top + length - 2.5:.2f}" stroke="{colour}" stroke-width="1"/>'
        f"{joints}"
    )
    if angle:
        return f'<g transform="rotate({angle} {x} {y})">{body}</g>'
    return body


def pinzu(n: int, red: bool) -> str:
    cols = {"b": BLUE, "g": GREEN, "r": RED}
    layouts = {  # (x, y, r, colour) in a 60x80 face
        1: [(30, 40, 19, "r")],
        2: [(30, 22, 11, "g"), (30, 58, 11, "b")],
        3: [(15, 18, 9, "b"), (30, 40, 9, "r"), (45, 62, 9, "g")],
        4: [(17, 23, 10, "b"), (43, 23, 10, "g"), (17, 57, 10, "g"), (43, 57, 10, "b")],
        5: [(16, 20, 9, "b"), (44, 20, 9, "g"), (30, 40, 9, "r"), (16, 60, 9, "g"), (44, 60, 9, "b")],
        6: [(18, 16, 8, "g"), (42, 16, 8, "g"), (18, 44, 8, "r"), (42, 44, 8, "r"), (18, 64, 8, "r"), (42, 64, 8, "r")],
        7: [(14, 13, 6.5, "g"), (30, 21, 6.5, "g"), (46, 29, 6.5, "g"),
            (19, 50, 7, "r"), (41, 50, 7, "r"), (19, 67, 7, "r"), (41, 67, 7, "r")],
        8: [(19, y, 7, "b") for y in (13, 31, 49, 67)] + [(41, y, 7, "b") for y in (13, 31, 49, 67)],
        9: [(x, y, 7.5, c) for y, c in ((17, "b"), (40, "r"), (63, "g")) for x in (14, 30, 46)],
    }
    return "".join(circle(x, y, r, RED if red else cols[c]) for x, y, r, c in layouts[n])


def souzu(n: int, red: bool) -> str:
    g, r, b = (RED, RED, RED) if red else (GREEN, RED, BLUE)
    if n == 1:  # the one of bamboo: a tall decorated stick with a crest, not a bird
        return (
            stick(30, 44, g, length=50, width=11)
            + f'<circle cx="30" cy="17" r="7" fill="{r}"/><circle cx="30" cy="17" r="3" fill="{FACE}"/>'
        )
    layouts = {
        2: [(30, 22, "g"), (30, 58, "b")],
        3: [(30, 22, "g"), (18, 58, "b"), (42, 58, "b")],
        4: [(18, 22, "g"), (42, 22, "b"), (18, 58, "b"), (42, 58, "g")],
        5: [(14, 22, "g"), (46, 22, "b"), (30, 40, "r"), (14, 58, "b"), (46, 58, "g")],
        6: [(x, y, "g") for y in (22, 58) for x in (14, 30, 46)],
        7: [(30, 14, "r")] + [(x, y, "g") for y in (40, 66) for x in (14, 30, 46)],
        9: [(x, y, "r" if x == 30 else "g") for y in (15, 40, 65) for x in (14, 30, 46)],
    }
    if n == 8:  # two rows: the outer sticks upright, the inner pairs leaning into an M and a W
        out = []
        for y, lean in ((22, 1), (58, -1)):
            out += [stick(8, y, g), stick(52, y, g),
                    stick(23, y, g, angle=18 * lean), stick(37, y, g, angle=-18 * lean)]
        return "".join(out)
    length = 17 if n in (7, 9) else 20
    return "".join(stick(x, y, {"g": g, "r": r, "b": b}[c], length=length) for x, y, c in layouts[n])


def text(x: float, y: float, glyph: str, size: float, colour: str, kind: str = "kanji") -> str:
    """A glyph drawn as its outline, centred on x with its baseline at y (like text-anchor="middle")."""
    g = GLYPHS[kind][glyph]
    k = size / 1000
    left = x - g["advance"] * k / 2
    return f'<path transform="translate({left:.2f} {y}) scale({k:g})" fill="{colour}" d="{g["d"]}"/>'


def index(label: str, colour: str = INK) -> str:
    """A small Latin index in the top-left corner, readable without CJK fonts."""
    return text(9, 13, label, 9, colour, "index")


def manzu(n: int, red: bool) -> str:
    top = RED if red else INK
    return index(str(n), RED if red else INK) + text(32, 36, KANJI_NUMERALS[n - 1], 27, top) + text(30, 71, "萬", 30, RED)


def honour(code: str) -> str:
    if code in WINDS:
        glyph, letter = WINDS[code]
        return index(letter) + text(30, 57, glyph, 40, INK)
    if code == "5z":  # haku: a blank tile with a blue frame
        return f'<rect x="12" y="15" width="36" height="50" rx="3" fill="none" stroke="{BLUE}" stroke-width="3.5"/>'
    if code == "6z":
        return index("F", GREEN) + text(30, 57, "發", 40, GREEN)
    # chun: drawn as shapes (a box crossed by a stroke), with the glyph's red
    return (
        index("C", RED)
        + f'<rect x="13" y="28" width="34" height="22" rx="2" fill="none" stroke="{RED}" stroke-width="6"/>'
        + f'<rect x="27" y="12" width="6" height="58" rx="2" fill="{RED}"/>'
    )


def back() -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img"><title>face-down tile</title>'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="7" fill="#e0a526" stroke="#9c6f10" stroke-width="2"/>'
        f'<rect x="8" y="8" width="{W - 16}" height="{H - 16}" rx="4" fill="none" stroke="#fff3c9" stroke-width="1.5" opacity=".6"/>'
        "</svg>\n"
    )


NAMES = {"m": "characters (man)", "p": "circles (pin)", "s": "bamboo (sou)"}
HONOUR_NAMES = {"1z": "east wind", "2z": "south wind", "3z": "west wind", "4z": "north wind",
                "5z": "white dragon (haku)", "6z": "green dragon (hatsu)", "7z": "red dragon (chun)"}


def tiles() -> dict[str, str]:
    """Every tile image by file name."""
    out = {}
    for suit, draw in (("m", manzu), ("p", pinzu), ("s", souzu)):
        for n in range(1, 10):
            out[f"{n}{suit}.svg"] = frame(draw(n, False), f"{n} of {NAMES[suit]}")
        out[f"0{suit}.svg"] = frame(draw(5, True), f"red 5 of {NAMES[suit]}")
    for code, name in HONOUR_NAMES.items():
        out[f"{code}.svg"] = frame(honour(code), name)
    out["back.svg"] = back()
    return out


def icon_png(size: int, maskable: bool) -> bytes:
    """The app icon: a red-five circles tile on the app's green; maskable ones keep the safe zone."""
    from PIL import Image, ImageDraw

    scale = 4  # draw large, then downsample for smooth edges
    s = size * scale
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if maskable:
        d.rectangle([0, 0, s, s], fill="#17513a")
        tile_h = s * 0.56
    else:
        d.rounded_rectangle([0, 0, s - 1, s - 1], radius=s * 0.18, fill="#17513a")
        tile_h = s * 0.74
    tile_w = tile_h * 0.75
    x0, y0 = (s - tile_w) / 2, (s - tile_h) / 2
    d.rounded_rectangle([x0, y0, x0 + tile_w, y0 + tile_h], radius=tile_w * 0.12, fill=FACE, outline=EDGE,
                        width=max(2, int(s * 0.01)))
    r = tile_w * 0.34
    cx, cy = s / 2, s / 2
    for rr, fill in ((r, RED), (r * 0.72, FACE), (r * 0.5, RED), (r * 0.22, FACE)):
        d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=fill)
    img = img.resize((size, size), Image.LANCZOS)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def outputs() -> dict[Path, bytes]:
    files = {TILES / name: svg.encode() for name, svg in tiles().items()}
    files[ICONS / "icon-192.png"] = icon_png(192, False)
    files[ICONS / "icon-512.png"] = icon_png(512, False)
    files[ICONS / "maskable-512.png"] = icon_png(512, True)
    files[ICONS / "icon.svg"] = frame(pinzu(5, True), "Tenbou").encode()
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare with the committed files")
    args = parser.parse_args(argv)
    stale = []
    for path, data in outputs().items():
        current = path.read_bytes() if path.exists() else None
        if args.check:
            # PNGs depend on Pillow's encoder version; only the SVGs must match byte for byte.
            if current is None or (path.suffix == ".svg" and current != data):
                stale.append(path)
        elif current != data:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    if stale:
        print("out of date: " + ", ".join(str(p.relative_to(ROOT)) for p in stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
