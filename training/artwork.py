"""More ways of drawing each tile, for training only: sets differ in their artwork, and a model
that saw one artist reads another set's 四 as 西 or its 9s as 6s (issue 19).

Three free sources, all drawn here at run time (nothing is copied into the project):
- **fonts**: manzu (a number kanji over 萬) and honours (東南西北, 發, 中) set in the CJK fonts a
  Debian machine has (`fonts-ipafont-mincho`, `fonts-ipafont-gothic`, `fonts-aoyagi-kouzan-t`,
  `fonts-noto-cjk`), each a different hand: mincho, gothic, calligraphy, serif, sans; haku blank
  or with a framed border. `fonts-arphic-ukai` (a brush kai hand) is held out: the hard-case
  suite's brush_row is set in it. The **hands** source sets them in fourteen more fonts
  (MORE_FONT_FILES: mincho, gothic, kai, Ming, fangsong, rounded, textbook, handwritten and brush
  hands), none of the Arphic or WenQuanYi hands the held-out rows are set in;
- **procedural pinzu and souzu**: circles and bamboo sticks at the usual places for each number,
  with the usual red ones, in several styles (rings, flowers, solid discs; plain or jointed
  sticks), sizes and spacings; 1s as a drawn bird or one large stick;
- **the Mahjong Tiles block of Unicode** as drawn by Symbola (`fonts-symbola`), line art.

Each glyph is a `textures.Glyph` (ink on a transparent face with its ink kinds), recoloured per
scene like the other sources. A font that is missing is skipped; `available_fonts()` says which
were found, and `ArtworkBank` fails if none is.
"""
from __future__ import annotations

import os

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from training.textures import TEX_H, TEX_W, Glyph

# AR PL UKai (fonts-arphic-ukai, a brush kai hand) is kept out of training on purpose: the
# hard-case suite's brush_row is set in it, so that case measures artwork nothing was trained on.
HELD_OUT_FONT = ("/usr/share/fonts/truetype/arphic/ukai.ttc", 0)
FONT_FILES = (
    ("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf", 0),
    ("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf", 0),
    ("/usr/share/fonts/truetype/aoyagi-kouzan-t/AoyagiKouzanT.ttf", 0),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 0),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", 0),
)
# the "styled" source also sets tiles in the lighter weights of the Noto families
STYLED_EXTRA_FONTS = (
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 0),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 0),
)
STYLED_VARIANTS = 4  # drawings per tile and font
MOTIF_VARIANTS = 12  # drawings per pinzu of the "motifs" source, two per motif on average
# the "hands" source: manzu and honours in fourteen more fonts (Debian packages in
# scripts/system-packages.txt), none an Arphic or WenQuanYi font, whose hands the held-out rows
# of training.font_rows and the hard-case suite are set in: Hanazono and Ume mincho, Ume gothic,
# the cwTeX Kai, Ming, bold Hei and Fangsong, Motoya Cedar and rounded Maruberi, the textbook
# hands of Klee One and LXGW WenKai, the Seto handwriting, and two Kouzan brush hands
MORE_FONT_FILES = (
    ("/usr/share/fonts/truetype/hanazono/HanaMinA.ttf", 0),
    ("/usr/share/fonts/truetype/horai-umefont/ume-tmo3.ttf", 0),
    ("/usr/share/fonts/truetype/horai-umefont/ume-tgo4.ttf", 0),
    ("/usr/share/fonts/truetype/cwtex/cwkai.ttf", 0),
    ("/usr/share/fonts/truetype/cwtex/cwming.ttf", 0),
    ("/usr/share/fonts/truetype/cwtex/cwheib.ttf", 0),
    ("/usr/share/fonts/truetype/cwtex/cwfs.ttf", 0),
    ("/usr/share/fonts/truetype/motoya-l-cedar/MTLc3m.ttf", 0),
    ("/usr/share/fonts/truetype/motoya-l-maruberi/MTLmr3m.ttf", 0),
    ("/usr/share/fonts/truetype/klee/KleeOne-SemiBold.ttf", 0),
    ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Bold.ttf", 0),
    ("/usr/share/fonts/truetype/seto/setofont.ttf", 0),
    ("/usr/share/fonts/truetype/kouzan-mouhitsu/kouzan-mouhitsu.ttf", 0),
    ("/usr/share/fonts/truetype/kouzan-mouhitsu/kouzan-mouhitsu-gyosho.ttf", 0),
)
# the "extra_hands" source: manzu and honours in eleven fonts more again, none an Arphic or WenQuanYi
# font either: the Taiwanese TW-Sung (a Ming hand, the kind the held-out rows read worst) and TW-Kai,
# the Aoyagi Soseki cursive brush, the antique Dejima mincho, the kiloji longhand, VL Gothic, M+ 1
# at its heaviest and a light weight, the Konatu gothic (whose kanji Komatuna shares), and the
# hanja of the Korean UnBatang (a thin Myeongjo) and UnGungseo (a brush hand)
EXTRA_HAND_FONT_FILES = (
    ("/usr/share/fonts/truetype/cns11643/TW-Sung-98_1.ttf", 0),
    ("/usr/share/fonts/truetype/cns11643/TW-Kai-98_1.ttf", 0),
    ("/usr/share/fonts/truetype/aoyagi-soseki/aoyagi-soseki.ttf", 0),
    ("/usr/share/fonts/truetype/dejima-mincho/dejima-mincho-r227.ttf", 0),
    ("/usr/share/fonts/truetype/kiloji/kiloji_b.ttf", 0),
    ("/usr/share/fonts/truetype/vlgothic/VL-Gothic-Regular.ttf", 0),
    ("/usr/share/fonts/opentype/mplus/Mplus1-Black.otf", 0),
    ("/usr/share/fonts/opentype/mplus/Mplus1-Light.otf", 0),
    ("/usr/share/fonts/truetype/konatu/Konatu.ttf", 0),
    ("/usr/share/fonts/truetype/unfonts-core/UnBatang.ttf", 0),
    ("/usr/share/fonts/truetype/unfonts-core/UnGungseo.ttf", 0),
)
SYMBOLA = "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"

NUMERALS = "一二三四五六七八九"
WINDS = {"1z": "東", "2z": "南", "3z": "西", "4z": "北"}
# Unicode Mahjong Tiles: winds, dragons (red, green, white), then man, sou, pin 1-9
_UNICODE = {"1z": 0x1F000, "2z": 0x1F001, "3z": 0x1F002, "4z": 0x1F003, "7z": 0x1F004, "6z": 0x1F005, "5z": 0x1F006,
            **{f"{n}m": 0x1F006 + n for n in range(1, 10)}, **{f"{n}s": 0x1F00F + n for n in range(1, 10)},
            **{f"{n}p": 0x1F018 + n for n in range(1, 10)}}

# pip and stick centres in a unit face (x, y in 0-1), and which are red in most Japanese sets
_PIN = {
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.27, 0.22), (0.5, 0.5), (0.73, 0.78)],
    4: [(0.3, 0.28), (0.7, 0.28), (0.3, 0.72), (0.7, 0.72)],
    5: [(0.28, 0.22), (0.72, 0.22), (0.5, 0.5), (0.28, 0.78), (0.72, 0.78)],
    6: [(0.3, 0.17), (0.7, 0.17), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    7: [(0.24, 0.13), (0.5, 0.22), (0.76, 0.31), (0.3, 0.58), (0.7, 0.58), (0.3, 0.84), (0.7, 0.84)],
    8: [(0.3, 0.13), (0.7, 0.13), (0.3, 0.38), (0.7, 0.38), (0.3, 0.62), (0.7, 0.62), (0.3, 0.87), (0.7, 0.87)],
    9: [(x, y) for y in (0.18, 0.5, 0.82) for x in (0.22, 0.5, 0.78)],
}
_PIN_RED = {5: {2}, 6: {2, 3, 4, 5}, 7: {3, 4, 5, 6}, 9: {3, 4, 5}}
_SOU = {
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.5, 0.27), (0.3, 0.73), (0.7, 0.73)],
    4: [(0.3, 0.27), (0.7, 0.27), (0.3, 0.73), (0.7, 0.73)],
    5: [(0.24, 0.27), (0.76, 0.27), (0.5, 0.5), (0.24, 0.73), (0.76, 0.73)],
    6: [(x, y) for y in (0.27, 0.73) for x in (0.22, 0.5, 0.78)],
    7: [(0.5, 0.14)] + [(x, y) for y in (0.47, 0.82) for x in (0.22, 0.5, 0.78)],
    8: [(x, y) for y in (0.27, 0.73) for x in (0.16, 0.39, 0.61, 0.84)],
    9: [(x, y) for y in (0.18, 0.5, 0.82) for x in (0.22, 0.5, 0.78)],
}
_SOU_RED = {5: {2}, 7: {0}, 9: {1, 4, 7}}
_GREENS = [(30, 110, 60), (20, 90, 40), (40, 130, 90)]
_BLUES = [(30, 60, 140), (20, 40, 100), (40, 90, 160)]
_RED = (200, 30, 40)


def available_fonts() -> list[tuple[str, int]]:
    return [(p, i) for p, i in FONT_FILES if os.path.exists(p)]


class _Canvas:
    """Ink drawn at 2x the texture size: colour, coverage and ink kind (0 white detail, 1 red,
    2 other)."""

    def __init__(self) -> None:
        self.w, self.h = TEX_W * 2, TEX_H * 2
        self.rgb = np.zeros((self.h, self.w, 3), np.float32)
        self.alpha = np.zeros((self.h, self.w), np.float32)
        self.kind = np.zeros((self.h, self.w), np.uint8)

    def add(self, mask: np.ndarray, colour: tuple[int, int, int], kind: int) -> None:
        # only within the box of the mask's ink: outside it nothing changes (x * 1 + 0 is x), and
        # a pip or a stroke covers a few per cent of the canvas (the bank is drawn in every
        # build_data run; the whole canvas each time took 7 of its 18 s)
        x, y, w, h = cv2.boundingRect((mask > 0).astype(np.uint8))
        if w == 0:
            return
        box = (slice(y, y + h), slice(x, x + w))
        a = mask[box].astype(np.float32) / 255.0 if mask.dtype == np.uint8 else mask[box]
        self.rgb[box] = self.rgb[box] * (1 - a[..., None]) + np.array(colour, np.float32)[None, None] / 255.0 * a[..., None]
        self.alpha[box] = np.maximum(self.alpha[box], a)
        self.kind[box][a > 0.5] = kind

    def blank(self) -> np.ndarray:
        return np.zeros((self.h, self.w), np.uint8)

    def glyph(self) -> Glyph:
        rgb = cv2.resize(self.rgb, (TEX_W, TEX_H), interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(self.alpha, (TEX_W, TEX_H), interpolation=cv2.INTER_AREA)
        kind = cv2.resize(self.kind, (TEX_W, TEX_H), interpolation=cv2.INTER_NEAREST)
        return Glyph(np.clip(rgb, 0, 1), np.clip(alpha, 0, 1), kind)


def _mask(text: str, font: tuple[str, int]) -> np.ndarray:
    m = ImageFont.truetype(font[0], 200, index=font[1]).getmask(text, mode="L")
    return np.asarray(m, np.uint8).reshape(m.size[1], m.size[0])


def _rendered(text: str, font: tuple[str, int]) -> np.ndarray | None:
    """`text` as the font draws it, or None where the font has no such character (it would draw
    its "missing" box, the same as for a private-use code point)."""
    src = _mask(text, font)
    missing = _mask("\U0010fffd", font)
    if not (src > 20).any() or (src.shape == missing.shape and np.array_equal(src, missing)):
        return None
    return src


def _text_mask(canvas: _Canvas, text: str, font: tuple[str, int], box: tuple[float, float, float, float],
               aspect: float = 1.0) -> np.ndarray:
    """`text` in `font`, scaled to fill `box` (x0, y0, x1, y1 in 0-1 of the face), keeping its shape
    but for `aspect`, its width's factor against its height."""
    src = _rendered(text, font)
    if src is None:  # the font lacks this character: the first font that has it draws it
        for other in available_fonts():
            src = _rendered(text, other)
            if src is not None:
                break
        else:
            return canvas.blank()
    ys, xs = np.nonzero(src > 20)
    if len(xs) == 0:
        return canvas.blank()
    src = src[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    x0, y0, x1, y1 = box[0] * canvas.w, box[1] * canvas.h, box[2] * canvas.w, box[3] * canvas.h
    s = min((x1 - x0) / (src.shape[1] * aspect), (y1 - y0) / src.shape[0])
    w, h = max(1, int(src.shape[1] * aspect * s)), max(1, int(src.shape[0] * s))
    out = canvas.blank()
    ox, oy = int((x0 + x1 - w) / 2), int((y0 + y1 - h) / 2)
    out[oy:oy + h, ox:ox + w] = cv2.resize(src, (w, h), interpolation=cv2.INTER_AREA)
    return out


def font_glyph(code: str, font: tuple[str, int], rng: np.random.Generator) -> Glyph:
    """A manzu or honour tile set in `font`."""
    c = _Canvas()
    dark = (int(rng.integers(0, 40)), int(rng.integers(0, 40)), int(rng.integers(0, 60)))
    n, suit = int(code[0]), code[1]
    if suit == "m":
        split = float(rng.uniform(0.42, 0.5))
        c.add(_text_mask(c, NUMERALS[n - 1], font, (0.14, 0.06, 0.86, split)), dark, 2)
        man = "萬" if rng.random() < 0.8 else "万"
        c.add(_text_mask(c, man, font, (0.12, split + 0.03, 0.88, 0.95)), _RED, 1)
    elif code in WINDS:
        c.add(_text_mask(c, WINDS[code], font, (0.1, 0.12, 0.9, 0.88)), dark if rng.random() < 0.7 else _BLUES[0], 2)
    elif code == "7z":
        c.add(_text_mask(c, "中", font, (0.1, 0.1, 0.9, 0.9)), _RED, 1)
    elif code == "6z":
        c.add(_text_mask(c, "發" if rng.random() < 0.85 else "发", font, (0.1, 0.1, 0.9, 0.9)),
              _GREENS[int(rng.integers(len(_GREENS)))], 2)
    elif code == "5z":
        if rng.random() < 0.5:  # a framed haku; otherwise a blank face
            m = c.blank()
            inset = float(rng.uniform(0.1, 0.2))
            t = max(3, int(rng.uniform(0.025, 0.06) * c.w))
            cv2.rectangle(m, (int(inset * c.w), int(inset * c.h * 0.8)), (int((1 - inset) * c.w), int((1 - inset * 0.8) * c.h)),
                          255, t, cv2.LINE_AA)
            c.add(m, _BLUES[int(rng.integers(len(_BLUES)))], 2)
    else:
        raise ValueError(f"no font glyph for {code}")
    return c.glyph()


def _restyle(mask: np.ndarray, weight: int, shear: float) -> np.ndarray:
    """`mask` with its strokes thickened (weight > 0) or thinned (< 0) by `weight` px of the 2x
    canvas, a thinning that would take away most of the ink left out, then slanted by `shear`."""
    if weight:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(weight) + 1, 2 * abs(weight) + 1))
        styled = cv2.dilate(mask, k) if weight > 0 else cv2.erode(mask, k)
        if weight > 0 or styled.sum() > 0.6 * mask.sum():
            mask = styled
    if shear:
        h, w = mask.shape
        m = np.array([[1, shear, -shear * h / 2], [0, 1, 0]], np.float32)
        mask = cv2.warpAffine(mask, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=0)
    return mask


def styled_glyph(code: str, font: tuple[str, int], rng: np.random.Generator) -> Glyph:
    """A manzu or honour tile set in `font` as another set might draw it: stroke weight, slant,
    the numeral's size and place, the characters' proportions and margins all drawn at random (a
    model taught five fixed drawings read other fonts' thin or small numerals badly: training.font_rows)."""
    c = _Canvas()
    weight, shear = int(rng.integers(-2, 5)), float(rng.uniform(-0.12, 0.12))
    aspect = float(np.exp(rng.uniform(-0.25, 0.25)))
    dark = (int(rng.integers(0, 40)), int(rng.integers(0, 40)), int(rng.integers(0, 60)))

    def ink(text: str, box: tuple[float, float, float, float], colour: tuple[int, int, int], kind: int) -> None:
        c.add(_restyle(_text_mask(c, text, font, box, aspect), weight, shear), colour, kind)

    n, suit = int(code[0]), code[1]
    if suit == "m":
        top, split, half = float(rng.uniform(0.04, 0.12)), float(rng.uniform(0.34, 0.52)), float(rng.uniform(0.2, 0.38))
        ink(NUMERALS[n - 1], (0.5 - half, top, 0.5 + half, split), dark if rng.random() < 0.85 else _BLUES[0], 2)
        side = float(rng.uniform(0.06, 0.2))
        ink("萬" if rng.random() < 0.8 else "万", (side, split + float(rng.uniform(0.01, 0.05)), 1 - side,
                                                  float(rng.uniform(0.86, 0.96))), _RED, 1)
        return c.glyph()
    x0, x1 = float(rng.uniform(0.06, 0.24)), 1 - float(rng.uniform(0.06, 0.24))
    y0, y1 = float(rng.uniform(0.06, 0.24)), 1 - float(rng.uniform(0.06, 0.24))
    if code in WINDS:
        ink(WINDS[code], (x0, y0, x1, y1), dark if rng.random() < 0.7 else _BLUES[int(rng.integers(len(_BLUES)))], 2)
    elif code == "7z":
        ink("中", (x0, y0, x1, y1), _RED, 1)
    elif code == "6z":
        ink("發" if rng.random() < 0.85 else "发", (x0, y0, x1, y1), _GREENS[int(rng.integers(len(_GREENS)))], 2)
    else:
        raise ValueError(f"no styled glyph for {code}")
    return c.glyph()


def _pip(c: _Canvas, x: float, y: float, r: float, colour: tuple[int, int, int], kind: int, style: int) -> None:
    cx, cy, rr = int(x * c.w), int(y * c.h), max(3, int(r * c.w))
    m = c.blank()
    cv2.circle(m, (cx, cy), rr, 255, -1, cv2.LINE_AA)
    c.add(m, colour, kind)
    hole = c.blank()
    if style == 0:  # ring with a dot: the usual Japanese pin
        cv2.circle(hole, (cx, cy), int(rr * 0.72), 255, -1, cv2.LINE_AA)
        c.add(hole, (255, 255, 255), 0)
        dot = c.blank()
        cv2.circle(dot, (cx, cy), max(2, int(rr * 0.35)), 255, -1, cv2.LINE_AA)
        c.add(dot, colour, kind)
    elif style == 1:  # concentric rings
        for k, f in enumerate((0.8, 0.6, 0.4)):
            ring = c.blank()
            cv2.circle(ring, (cx, cy), max(2, int(rr * f)), 255, -1, cv2.LINE_AA)
            c.add(ring, (255, 255, 255) if k % 2 == 0 else colour, 0 if k % 2 == 0 else kind)
    elif style == 2:  # a flower: petals left white
        for a in range(0, 360, 45):
            p = c.blank()
            px, py = cx + int(np.cos(np.deg2rad(a)) * rr * 0.55), cy + int(np.sin(np.deg2rad(a)) * rr * 0.55)
            cv2.circle(p, (px, py), max(1, int(rr * 0.2)), 255, -1, cv2.LINE_AA)
            c.add(p, (255, 255, 255), 0)
    # style 3: a solid disc


def pin_glyph(n: int, rng: np.random.Generator) -> Glyph:
    c = _Canvas()
    style = int(rng.integers(0, 4))
    blue = _BLUES[int(rng.integers(len(_BLUES)))]
    green = _GREENS[int(rng.integers(len(_GREENS)))]
    if n == 1:
        r = float(rng.uniform(0.36, 0.44))
        for k, f in enumerate((1.0, 0.8, 0.62, 0.45, 0.28)):
            m = c.blank()
            cv2.circle(m, (c.w // 2, c.h // 2), int(r * c.w * f), 255, -1, cv2.LINE_AA)
            col, kind = [(green, 2), ((255, 255, 255), 0), (blue, 2), ((255, 255, 255), 0), (_RED, 1)][k]
            c.add(m, col, kind)
        return c.glyph()
    spots = _PIN[n]
    span = {2: 0.2, 3: 0.16, 4: 0.17, 5: 0.15, 6: 0.14, 7: 0.12, 8: 0.12, 9: 0.12}[n]
    r = span * float(rng.uniform(0.85, 1.05))
    shrink = float(rng.uniform(0.9, 1.0))
    for i, (x, y) in enumerate(spots):
        red = i in _PIN_RED.get(n, set())
        if n == 6 or n == 7:
            col = _RED if red else green
        elif n == 2 or n == 4 or n == 8:
            col = blue if (i % 2 == 0) == (rng.random() < 0.5) else green
        else:
            col = _RED if red else blue
        _pip(c, 0.5 + (x - 0.5) * shrink, 0.5 + (y - 0.5) * shrink, r, col, 1 if col == _RED else 2, style)
    return c.glyph()


MOTIFS = ("coin", "polygon", "hollow", "rosette", "petals", "square")


def _motif(c: _Canvas, x: float, y: float, r: float, colour: tuple[int, int, int], kind: int, motif: str,
           turn: float, weight: float) -> None:
    """One pip of another set's drawing (the "motifs" source): a coin with a square hole, a filled
    polygon with a light ring, a hollow ring, a rosette of dots, coloured petals round a dot, or a
    rounded square. No rays and no spokes: those are the suns and wheels of the held-out pin rows
    (training.pin_rows), kept out so that they still measure what was never drawn. `weight` scales
    the light details (hole, ring, gaps); `turn` (0-90 degrees) turns the hole, the polygon (six
    sides under 45, eight from it), the rosette's dots, the petals and the square."""
    cx, cy, rr = x * c.w, y * c.h, max(4.0, r * c.w)
    m = c.blank()

    def poly(sides: int, radius: float, start: float) -> np.ndarray:
        a = np.deg2rad(start + np.arange(sides) * 360.0 / sides)
        return np.stack([cx + np.cos(a) * radius, cy + np.sin(a) * radius], 1).round().astype(np.int32)

    def light(mask: np.ndarray) -> None:
        c.add(mask, (255, 255, 255), 0)

    if motif == "coin":
        cv2.circle(m, (int(cx), int(cy)), int(rr), 255, -1, cv2.LINE_AA)
        c.add(m, colour, kind)
        hole = c.blank()
        cv2.fillPoly(hole, [poly(4, rr * 0.38 * weight, 45 + turn)], 255, cv2.LINE_AA)
        light(hole)
        if weight > 0.9:  # a rim inside the edge
            rim = c.blank()
            cv2.circle(rim, (int(cx), int(cy)), int(rr * 0.8), 255, max(1, int(rr * 0.08)), cv2.LINE_AA)
            light(rim)
    elif motif == "polygon":
        sides = 6 if turn < 45 else 8
        cv2.fillPoly(m, [poly(sides, rr, turn)], 255, cv2.LINE_AA)
        c.add(m, colour, kind)
        ring = c.blank()
        cv2.circle(ring, (int(cx), int(cy)), int(rr * 0.55), 255, max(1, int(rr * 0.14 * weight)), cv2.LINE_AA)
        light(ring)
    elif motif == "hollow":
        cv2.circle(m, (int(cx), int(cy)), int(rr * 0.85), 255, max(2, int(rr * 0.3 * weight)), cv2.LINE_AA)
        c.add(m, colour, kind)
    elif motif == "rosette":
        for k in range(7):
            px, py = (cx, cy) if k == 0 else (cx + np.cos(np.deg2rad(60 * k + turn)) * rr * 0.65,
                                               cy + np.sin(np.deg2rad(60 * k + turn)) * rr * 0.65)
            cv2.circle(m, (int(px), int(py)), max(2, int(rr * 0.3)), 255, -1, cv2.LINE_AA)
        c.add(m, colour, kind)
    elif motif == "petals":
        for k in range(5):
            a = np.deg2rad(72 * k + turn)
            cv2.ellipse(m, (int(cx + np.cos(a) * rr * 0.5), int(cy + np.sin(a) * rr * 0.5)),
                        (max(2, int(rr * 0.45)), max(2, int(rr * 0.28))), float(np.rad2deg(a)), 0, 360, 255, -1,
                        cv2.LINE_AA)
        c.add(m, colour, kind)
        dot = c.blank()
        cv2.circle(dot, (int(cx), int(cy)), max(2, int(rr * 0.22)), 255, -1, cv2.LINE_AA)
        c.add(dot, _RED if kind != 1 else (30, 30, 30), 1 if kind != 1 else 2)
    else:  # a rounded square
        cv2.fillPoly(m, [poly(4, rr * 0.95, 45 + turn * 0.2)], 255, cv2.LINE_AA)
        m = cv2.dilate(m, np.ones((3, 3), np.uint8))
        c.add(m, colour, kind)
        inner = c.blank()
        cv2.fillPoly(inner, [poly(4, rr * 0.45 * weight, 45 + turn * 0.2)], 255, cv2.LINE_AA)
        light(inner)


def motif_pin_glyph(n: int, rng: np.random.Generator, motif: str | None = None) -> Glyph:
    """Pinzu n with every pip one motif of MOTIFS (`motif`, or one at random), in one ink or two
    (the usual layout, red where sets put it): circles of sets no other source draws, so that the
    count and the layout of the pips decide the tile, not the look of one pip."""
    c = _Canvas()
    picked = MOTIFS[int(rng.integers(len(MOTIFS)))]
    motif = motif or picked
    turn, weight = float(rng.uniform(0, 90)), float(rng.uniform(0.75, 1.15))
    inks = [_BLUES[int(rng.integers(len(_BLUES)))], _GREENS[int(rng.integers(len(_GREENS)))], (30, 30, 35)]
    one = inks[int(rng.integers(3))] if rng.random() < 0.5 else None  # one ink for every pip
    if n == 1:
        r = float(rng.uniform(0.3, 0.4))
        if rng.random() < 0.5:  # a ring round the motif
            ring = c.blank()
            cv2.circle(ring, (c.w // 2, c.h // 2), int(r * c.w * 1.12), 255, max(2, int(r * c.w * 0.07)), cv2.LINE_AA)
            c.add(ring, one or inks[1], 2)
        _motif(c, 0.5, 0.5, r, one or inks[0], 2, motif, turn, weight)
        if rng.random() < 0.6:
            dot = c.blank()
            cv2.circle(dot, (c.w // 2, c.h // 2), int(r * c.w * 0.22), 255, -1, cv2.LINE_AA)
            c.add(dot, _RED, 1)
        return c.glyph()
    span = {2: 0.19, 3: 0.15, 4: 0.16, 5: 0.14, 6: 0.13, 7: 0.115, 8: 0.115, 9: 0.115}[n]
    r = span * float(rng.uniform(0.85, 1.05))
    shrink = float(rng.uniform(0.9, 1.0))
    for i, (x, y) in enumerate(_PIN[n]):
        red = i in _PIN_RED.get(n, set()) and rng.random() < 0.9
        col = _RED if red else (one or inks[i % 2])
        _motif(c, 0.5 + (x - 0.5) * shrink, 0.5 + (y - 0.5) * shrink, r, col, 1 if red else 2, motif, turn, weight)
    return c.glyph()


def _stick(c: _Canvas, x: float, y: float, length: float, width: float, angle: float, colour: tuple[int, int, int],
           kind: int, joints: bool) -> None:
    m = c.blank()
    dx, dy = np.sin(np.deg2rad(angle)) * length / 2 * c.h, np.cos(np.deg2rad(angle)) * length / 2 * c.h
    p0 = (int(x * c.w - dx), int(y * c.h - dy))
    p1 = (int(x * c.w + dx), int(y * c.h + dy))
    cv2.line(m, p0, p1, 255, max(3, int(width * c.w)), cv2.LINE_AA)
    c.add(m, colour, kind)
    if joints:
        j = c.blank()
        for t in (-0.35, 0.0, 0.35):
            jx, jy = int(x * c.w + 2 * dx * t), int(y * c.h + 2 * dy * t)
            cv2.line(j, (int(jx - width * c.w * 0.5), jy), (int(jx + width * c.w * 0.5), jy), 255, max(1, int(width * c.w * 0.18)),
                     cv2.LINE_AA)
        c.add(j, (255, 255, 255), 0)


def sou_glyph(n: int, rng: np.random.Generator) -> Glyph:
    c = _Canvas()
    green = _GREENS[int(rng.integers(len(_GREENS)))]
    joints = bool(rng.random() < 0.6)
    if n == 1:
        if rng.random() < 0.6:  # a bird: body, head, a fan of tail feathers
            body, head, tail = c.blank(), c.blank(), c.blank()
            cv2.ellipse(body, (int(0.5 * c.w), int(0.55 * c.h)), (int(0.22 * c.w), int(0.14 * c.h)), -30, 0, 360, 255, -1,
                        cv2.LINE_AA)
            cv2.circle(head, (int(0.66 * c.w), int(0.3 * c.h)), int(0.1 * c.w), 255, -1, cv2.LINE_AA)
            for a in (-60, -40, -20):
                ex = int(0.5 * c.w + np.cos(np.deg2rad(a + 180)) * 0.35 * c.w)
                ey = int(0.6 * c.h - np.sin(np.deg2rad(a + 180)) * 0.3 * c.h)
                cv2.line(tail, (int(0.45 * c.w), int(0.6 * c.h)), (ex, ey), 255, max(4, int(0.05 * c.w)), cv2.LINE_AA)
            c.add(body, green, 2)
            c.add(tail, _BLUES[int(rng.integers(len(_BLUES)))], 2)
            c.add(head, _RED, 1)
        else:  # one large stick
            _stick(c, 0.5, 0.5, 0.78, 0.2, 0.0, green, 2, True)
        return c.glyph()
    spots = _SOU[n]
    rows = 3 if n in (7, 9) else 2
    length = {2: 0.36, 3: 0.36}.get(n, 0.34 if rows == 2 else 0.24) * float(rng.uniform(0.9, 1.05))
    width = {8: 0.09}.get(n, 0.12 if n < 6 else 0.1) * float(rng.uniform(0.85, 1.1))
    for i, (x, y) in enumerate(spots):
        red = i in _SOU_RED.get(n, set())
        angle = 0.0
        if n == 8:  # the M and W of the 8s
            angle = 18.0 if i % 2 == 0 else -18.0
            if i >= 4:
                angle = -angle
        _stick(c, x, y, length, width, angle, _RED if red else green, 1 if red else 2, joints)
    return c.glyph()


def bar_glyph(n: int, rng: np.random.Generator) -> Glyph:
    """Souzu 2-9 as broad solid bars, no joints: bamboo as many sets draw it, and nothing like the
    thin dashed lines of print that the jointed sticks resemble."""
    c = _Canvas()
    green = _GREENS[int(rng.integers(len(_GREENS)))]
    blue = _BLUES[int(rng.integers(len(_BLUES)))]
    ink = green if rng.random() < 0.7 else blue
    rows = 3 if n in (7, 9) else 2
    length = {2: 0.36, 3: 0.36}.get(n, 0.34 if rows == 2 else 0.24) * float(rng.uniform(0.9, 1.05))
    width = {8: 0.13}.get(n, 0.19 if n < 6 else 0.16) * float(rng.uniform(0.9, 1.1))
    length -= width * c.w / c.h  # the round caps: a bar no longer than a stick, its neighbours apart
    for i, (x, y) in enumerate(_SOU[n]):
        red = i in _SOU_RED.get(n, set())
        angle = 0.0
        if n == 8:
            angle = (18.0 if i % 2 == 0 else -18.0) * (-1 if i >= 4 else 1)
        _stick(c, x, y, length, width, angle, _RED if red else ink, 1 if red else 2, False)
    return c.glyph()


def unicode_glyph(code: str, rng: np.random.Generator) -> Glyph | None:
    """The Unicode tile as Symbola draws it, its own outline cut away; None without the font."""
    if not os.path.exists(SYMBOLA) or code not in _UNICODE:
        return None
    f = ImageFont.truetype(SYMBOLA, 400)
    img = Image.new("L", (500, 500), 0)
    ImageDraw.Draw(img).text((20, 20), chr(_UNICODE[code]), font=f, fill=255)
    a = np.asarray(img, np.uint8)
    ys, xs = np.nonzero(a > 20)
    a = a[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h, w = a.shape
    inner = a[int(h * 0.07):int(h * 0.93), int(w * 0.08):int(w * 0.92)]  # the drawn tile's own border goes
    c = _Canvas()
    m = cv2.resize(inner, (c.w, c.h), interpolation=cv2.INTER_AREA)
    red = code in ("7z",) or (code[1] == "m" and rng.random() < 0.5)
    if code[1] == "m" and red:  # red 萬 under a dark numeral
        top = m.copy()
        top[int(c.h * 0.5):] = 0
        bottom = m - top
        c.add(top, (20, 20, 20), 2)
        c.add(bottom, _RED, 1)
    else:
        c.add(m, _RED if red else (20, 20, 20), 1 if red else 2)
    return c.glyph()


SOURCES = ("fonts", "haku", "pins", "sticks", "unicode", "styled", "bars", "hands", "extra_hands", "motifs")
DEFAULT_SOURCES = SOURCES[:5]  # what the artwork stage (stage 3) drew


class ArtworkBank:
    """Glyph variants per tile code (no red fives: those are made by turning a five's ink red),
    from the `sources` named (of SOURCES: fonts for manzu and honours but haku, haku's blank and
    framed faces, procedural pins, procedural sticks, Unicode line art; styled: manzu and honours
    in the fonts and Noto's lighter weights, each drawn STYLED_VARIANTS times with its weight,
    slant and proportions at random; bars: souzu 2-9 as broad solid bars; hands: manzu and honours
    in MORE_FONT_FILES; extra_hands: the same in EXTRA_HAND_FONT_FILES; motifs: pinzu whose pips are
    coins, polygons, hollow rings, rosettes, petals or rounded squares (motif_pin_glyph); none of these in
    DEFAULT_SOURCES). A code no chosen source draws has no variant (`has` is False)."""

    def __init__(self, seed: int = 19, sources: tuple[str, ...] = DEFAULT_SOURCES) -> None:
        unknown = set(sources) - set(SOURCES)
        if unknown:
            raise ValueError(f"unknown artwork sources {sorted(unknown)}; choose from {SOURCES}")
        rng = np.random.default_rng(seed)
        fonts = available_fonts()
        if not fonts:
            raise RuntimeError("no CJK font found: install fonts-ipafont-mincho fonts-arphic-ukai ... (training/README.md)")
        # every variant is drawn, whichever sources are kept, so a source's glyphs do not depend
        # on which others are chosen
        drawn: dict[str, list[tuple[str, Glyph]]] = {}
        for n in range(1, 10):
            drawn[f"{n}m"] = [("fonts", font_glyph(f"{n}m", f, rng)) for f in fonts]
            drawn[f"{n}p"] = [("pins", pin_glyph(n, rng)) for _ in range(6)]
            drawn[f"{n}s"] = [("sticks", sou_glyph(n, rng)) for _ in range(6)]
        for n in range(1, 8):
            code = f"{n}z"
            # haku is blank or a frame in every set: its font drawings are a source of their own
            drawn[code] = [("haku" if code == "5z" else "fonts", font_glyph(code, f, rng)) for f in fonts]
        for code in list(drawn):
            g = unicode_glyph(code, rng)
            if g is not None:
                drawn[code].append(("unicode", g))
        if "styled" in sources:  # its own generator, drawn last: the other sources' glyphs are the same
            styled_rng = np.random.default_rng(seed + 1)
            fonts_styled = fonts + [f for f in STYLED_EXTRA_FONTS if os.path.exists(f[0])]
            for code in [f"{n}m" for n in range(1, 10)] + ["1z", "2z", "3z", "4z", "6z", "7z"]:
                drawn[code] += [("styled", styled_glyph(code, f, styled_rng))
                                for f in fonts_styled for _ in range(STYLED_VARIANTS)]
        if "bars" in sources:  # its own generator, drawn last: the other sources' glyphs are the same
            bars_rng = np.random.default_rng(seed + 2)
            for n in range(2, 10):
                drawn[f"{n}s"] += [("bars", bar_glyph(n, bars_rng)) for _ in range(6)]
        if "motifs" in sources:  # its own generator, drawn last: the other sources' glyphs are the same
            motifs_rng = np.random.default_rng(seed + 5)
            for n in range(1, 10):
                drawn[f"{n}p"] += [("motifs", motif_pin_glyph(n, motifs_rng)) for _ in range(MOTIF_VARIANTS)]
        # each its own generator, drawn last: the other sources' glyphs are the same
        for source, files, offset, where in (
                ("hands", MORE_FONT_FILES, 3, "scripts/system-packages.txt"),
                ("extra_hands", EXTRA_HAND_FONT_FILES, 4, 'models/HISTORY.md, "Eleven more hands again"')):
            if source not in sources:
                continue
            hands_rng = np.random.default_rng(seed + offset)
            missing = [p for p, _ in files if not os.path.exists(p)]
            if missing:  # a stage trained on fewer hands would differ silently from the recipe
                raise RuntimeError(f"the {source} source needs {missing}: install the fonts of {where}")
            for code in [f"{n}m" for n in range(1, 10)] + ["1z", "2z", "3z", "4z", "6z", "7z"]:
                drawn[code] += [(source, font_glyph(code, f, hands_rng)) for f in files]
        self.glyphs: dict[str, list[Glyph]] = {
            code: [g for source, g in variants if source in sources] for code, variants in drawn.items()}

    def has(self, code: str) -> bool:
        return bool(self.glyphs.get(code))

    def pick(self, code: str, rng: np.random.Generator) -> Glyph:
        options = self.glyphs[code]
        return options[int(rng.integers(len(options)))]
