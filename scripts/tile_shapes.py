"""Extract the glyph outlines the tile images need into scripts/tile_glyphs.json, so that
scripts/make_tiles.py draws characters, winds and dragons as shapes and no font is needed on the
phone. Run it only to change the glyphs; its output is committed.

    .venv/bin/python -m pip install -r requirements-tiles.txt
    .venv/bin/python scripts/tile_shapes.py && .venv/bin/python scripts/make_tiles.py

The outlines come from Noto Serif CJK JP Bold (kanji; SIL Open Font License 1.1) and DejaVu Sans
Bold (the small corner index; the Bitstream Vera/DejaVu licence), from Debian's fonts-noto-cjk and
fonts-dejavu-core. Only the shapes are kept, in units of 1/1000 em, y pointing down, origin on the
baseline at the glyph's left edge.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTCollection, TTFont

HERE = Path(__file__).resolve().parent
OUT = HERE / "tile_glyphs.json"
CJK = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")
LATIN = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
KANJI = "一二三四五六七八九萬東南西北發"
INDEX = "123456789ESWNFC"


def cjk_font() -> TTFont:
    for font in TTCollection(str(CJK)).fonts:
        if any("JP" in rec.toUnicode() for rec in font["name"].names if rec.nameID in (1, 4)):
            return font
    raise SystemExit(f"no JP face in {CJK}")


def outline(font: TTFont, ch: str) -> dict:
    name = font.getBestCmap()[ord(ch)]
    scale = 1000 / font["head"].unitsPerEm
    glyphs = font.getGlyphSet()
    pen = SVGPathPen(glyphs, ntos=lambda v: str(round(v)))
    glyphs[name].draw(TransformPen(pen, (scale, 0, 0, -scale, 0, 0)))
    return {"advance": round(font["hmtx"][name][0] * scale), "d": pen.getCommands()}


def main() -> int:
    cjk, latin = cjk_font(), TTFont(str(LATIN))
    glyphs = {"kanji": {ch: outline(cjk, ch) for ch in KANJI}, "index": {ch: outline(latin, ch) for ch in INDEX}}
    OUT.write_text(json.dumps(glyphs, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(HERE.parent)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
