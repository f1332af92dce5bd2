"""Stage the photos recognition gets wrong on other sets, with this project's own drawing code.

    python -m training.hard_cases [OUT]     (default tests/data/hard_cases)

Each case is a phone-sized JPEG and its expected tiles in a labels.json of the dev-photos format
(per photo: "kind", the multiset of face-up "tiles", "back"), so `python -m training.evaluate
tests/data/hard_cases` scores it like any labelled folder, and tests/test_recognition_hard_cases.py
checks each case. The cases (issue 19):

- standing_low: a hand standing on felt, seen from a low angle: each face's upper third is blank
  (the engraving sits low on a tall face) and the tiles' tops show; an upright haku set apart;
- far_row: a row of seven tiles photographed from across the table (tiles about 20 px wide in a
  1008 px photo); far_row_photo: the same row in a photo of twice the size, as a phone takes it
  (the recogniser works on a 1008 px copy, where the tiles are 19 px wide);
- closeup_two: a close-up of two tiles filling the photo;
- keyboard_hand: a hand row lying on a laptop's keyboard; keyboard_alone: the keyboard, no tile;
- pinzu_row: 4p, 6p, 8p and 9p side by side (tiles split into their groups of pips);
- clutter_row: a hand row among dice, playing cards and printed text;
- standing_tall: tall tiles standing close to a low camera, the upper half of each face blank
  (the blank part read as haku, the tile lost);
- crops_row: a hand row of another set's faces (the real photographed faces of tile-crops, a
  Chinese-style set with other artwork);
- brush_row: manzu and winds written in a brush hand (AR PL UKai, `fonts-arphic-ukai`), a font
  kept out of training (training.artwork): 四 against 西, calligraphic numerals;
- standing_scattered: small tiles standing on their own, a tile or two apart, on a speckled
  stone counter, with a blank haku among them and a kitchen's cupboard and kettle further off;
- pile_blank: a loose pile of tiles lying face up at odd angles, two of them blank haku (a blank
  face gives the detector little to see);
- print_line: one line of large digits on a score sheet, no tile (a row of boxes read unsurely,
  as a hand of an unfamiliar set is, but half read as no tile);
- aslant_row: a hand lying in a row photographed with the phone turned 30 degrees to it (the
  detector learned tiles level or upright, within a few degrees);
- across_row, side_seat_row, far_honours_side: hands as a player at another seat photographs
  them: upside down from across the table (6p against 9p, manzu numerals the other way up), and
  turned a quarter from a seat beside it, the row running down the photo (near, and far honours);
  side_seat_far: such a hand seen sitting, the row running away from the camera in perspective;
- called_dark_backs: a winning hand with a pon (its called tile sideways) and a concealed kan (two
  tiles face down) from a set with black backs: two 9s side by side are boxed a third time across
  their edge; lamp_kan: the same hand under a lamp's reflection, the black backs grey like a
  blank face;
- dominoes_alone, cards_alone, calculator_alone: more of the clutter the issue names, no tile:
  dominoes face up (white faces with black dots, a blank half as plain as a haku), number cards
  (rows of marks on white), a desk calculator (square keys with digits) beside a score sheet;
  dominoes_hand: a hand row among dominoes and cards.

Not the training renderer (training.render): the tiles here are drawn as flat quads warped in
perspective with their own faces, bodies, tables and clutter, so the suite is not the training
distribution seen again. Faces come from ../shared (FluffyStuff artwork, CC0; tile-crops, MIT).
Deterministic: the same seed gives the same bytes.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
from collections import Counter

import cv2
import numpy as np
from PIL import Image

from training.distractors import DIE_PIPS

SHARED = os.environ.get("TENBOU_SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "shared"))
OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "hard_cases")
W, H = 1008, 756  # the recogniser's working size: fixtures stay small and lose nothing
FACE_W, FACE_H = 150, 200

_FLUFFY = {**{f"{n}m": f"Man{n}" for n in range(1, 10)}, **{f"{n}p": f"Pin{n}" for n in range(1, 10)},
           **{f"{n}s": f"Sou{n}" for n in range(1, 10)}, "1z": "Ton", "2z": "Nan", "3z": "Shaa", "4z": "Pei",
           "5z": "Haku", "6z": "Hatsu", "7z": "Chun", "0m": "Man5-Dora", "0p": "Pin5-Dora", "0s": "Sou5-Dora"}
IVORY = (238, 234, 222)


def _glyph(code: str) -> np.ndarray:
    """FluffyStuff's Regular artwork for `code` as RGBA float (FACE_H, FACE_W, 4)."""
    im = Image.open(os.path.join(SHARED, "tiles", "Export", "Regular", f"{_FLUFFY[code]}.png")).convert("RGBA")
    return np.asarray(im.resize((FACE_W, FACE_H), Image.Resampling.LANCZOS), np.float32) / 255.0


def face(code: str, blank_top: float = 0.0, ground: tuple[int, int, int] = IVORY) -> np.ndarray:
    """A tile's face, RGB uint8 (h, FACE_W, 3): the artwork on an ivory ground; with `blank_top`
    the face is that much taller and the artwork sits in its lower part, as on sets whose faces
    are engraved low on a tall tile."""
    g = _glyph(code)
    top = int(round(FACE_H * blank_top / (1 - blank_top))) if blank_top else 0
    out = np.empty((FACE_H + top, FACE_W, 3), np.float32)
    out[:] = np.array(ground, np.float32) / 255.0
    a = g[..., 3:4]
    out[top:] = out[top:] * (1 - a) + g[..., :3] * a
    return (out * 255).astype(np.uint8)


BRUSH_FONT = "/usr/share/fonts/truetype/arphic/ukai.ttc"
_NUMERALS = "一二三四五六七八九"
_WIND_CHARS = {"1z": "東", "2z": "南", "3z": "西", "4z": "北"}


# other hands no training stage sets tiles in (training.artwork.FONT_FILES): a Ming (Song) face
# with thin strokes and a plain sans; the Debian packages fonts-arphic-uming and fonts-wqy-zenhei
MING_FONT = "/usr/share/fonts/truetype/arphic/uming.ttc"
SANS_FONT = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"
_DRAGON_CHARS = {"6z": ("發", (20, 120, 50)), "7z": ("中", (190, 30, 35))}


def _brush_text(text: str, box: tuple[int, int, int, int], font: str = BRUSH_FONT) -> np.ndarray:
    """Coverage (FACE_H, FACE_W) float of `text` in `font` (the brush font), fitted into `box`."""
    from PIL import ImageFont

    m = ImageFont.truetype(font, 160).getmask(text, mode="L")
    a = np.asarray(m, np.uint8).reshape(m.size[1], m.size[0])
    ys, xs = np.nonzero(a > 20)
    a = a[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    x0, y0, x1, y1 = box
    s = min((x1 - x0) / a.shape[1], (y1 - y0) / a.shape[0])
    w, h = max(1, int(a.shape[1] * s)), max(1, int(a.shape[0] * s))
    out = np.zeros((FACE_H, FACE_W), np.float32)
    ox, oy = (x0 + x1 - w) // 2, (y0 + y1 - h) // 2
    out[oy:oy + h, ox:ox + w] = cv2.resize(a, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    return out


def brush_face(code: str, font: str = BRUSH_FONT, numeral: tuple[int, int, int] = (25, 35, 90)) -> np.ndarray:
    """A manzu (numeral in dark blue, or `numeral`, over a red 萬), wind or dragon (green 發, red
    中) tile set in `font` (the brush font), RGB uint8."""
    out = np.empty((FACE_H, FACE_W, 3), np.float32)
    out[:] = np.array(IVORY, np.float32)
    if code[1] == "m":
        layers = [(_brush_text(_NUMERALS[int(code[0]) - 1], (22, 14, 128, 84), font), numeral),
                  (_brush_text("萬", (18, 92, 132, 188), font), (190, 30, 35))]
    elif code in _DRAGON_CHARS:
        char, colour = _DRAGON_CHARS[code]
        layers = [(_brush_text(char, (16, 26, 134, 174), font), colour)]
    else:
        layers = [(_brush_text(_WIND_CHARS[code], (16, 26, 134, 174), font), (20, 20, 25))]
    for a, colour in layers:
        out = out * (1 - a[..., None]) + np.array(colour, np.float32) * a[..., None]
    return out.astype(np.uint8)


def crop_faces() -> dict[str, list[np.ndarray]]:
    """The photographed faces of tile-crops (another set), RGB uint8 at FACE_W x FACE_H."""
    root = os.path.join(SHARED, "data", "tile-crops")
    out: dict[str, list[np.ndarray]] = {}
    with open(os.path.join(root, "labels.csv"), newline="") as f:
        for row in csv.DictReader(f):
            im = Image.open(os.path.join(root, "images", row["image"])).convert("RGB")
            out.setdefault(row["tile"], []).append(np.asarray(im.resize((FACE_W, FACE_H), Image.Resampling.LANCZOS)))
    return out


def warp(img: np.ndarray, src: np.ndarray, quad: np.ndarray) -> None:
    """Draw `src` (RGB uint8) into `img` in place, its corners going to `quad` (4, 2): tl, tr, br, bl."""
    h, w = src.shape[:2]
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), np.float32(quad))
    layer = cv2.warpPerspective(src, m, (img.shape[1], img.shape[0]), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, (img.shape[1], img.shape[0]), flags=cv2.INTER_LINEAR)
    a = (mask.astype(np.float32) / 255.0)[..., None]
    img[:] = (img * (1 - a) + layer * a).astype(np.uint8)


def poly(img: np.ndarray, pts: np.ndarray, colour: tuple[int, int, int]) -> None:
    cv2.fillConvexPoly(img, np.int32(np.round(pts)), colour, cv2.LINE_AA)


def table(rng: np.random.Generator, colour: tuple[int, int, int], grain: float = 8.0,
          size: tuple[int, int] = (W, H)) -> np.ndarray:
    """Felt or cloth (`size` (w, h), the working size by default): a colour, low-frequency shading
    and fine noise."""
    w, h = size
    base = np.array(colour, np.float32)
    shade = cv2.resize(rng.normal(0, 1, (6, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img = base[None, None, :] * (1 + 0.06 * shade[..., None]) + rng.normal(0, grain, (h, w, 3))
    return np.clip(cv2.GaussianBlur(img, (3, 3), 0), 0, 255).astype(np.uint8)


def lying_tile(img: np.ndarray, tex: np.ndarray, x: float, y: float, w: float, h: float,
               back: tuple[int, int, int], lean: float = 0.0, depth: float = 0.25) -> tuple[float, float, float, float]:
    """A tile lying face up seen from above and a little in front: its face (w x h, the top edge
    shifted by `lean` x w for perspective) and its front side in the back colour below.
    Returns the face's box."""
    d = h * depth
    poly(img, np.array([[x, y + h], [x + w, y + h], [x + w, y + h + d], [x, y + h + d]]), back)
    poly(img, np.array([[x, y + h - 2], [x + w, y + h - 2], [x + w, y + h + d * 0.35], [x, y + h + d * 0.35]]), IVORY)
    quad = np.array([[x + lean * w, y], [x + w + lean * w, y], [x + w, y + h], [x, y + h]])
    warp(img, tex, quad)
    cv2.polylines(img, [np.int32(quad)], True, (170, 165, 150), 1, cv2.LINE_AA)
    return (float(quad[:, 0].min()), y, float(quad[:, 0].max()), y + h)


def standing_tile(img: np.ndarray, tex: np.ndarray, x: float, y: float, w: float, h: float,
                  back: tuple[int, int, int], top: float = 0.18) -> None:
    """A tile standing upright seen from a low angle: its face (w x h) and, above it, a thin
    sliver of its top (ivory then back colour, `top` x w deep)."""
    t = w * top
    poly(img, np.array([[x + 2, y - t], [x + w - 2, y - t], [x + w, y], [x, y]]), back)
    poly(img, np.array([[x + 1, y - t * 0.45], [x + w - 1, y - t * 0.45], [x + w, y], [x, y]]), (225, 222, 210))
    warp(img, tex, np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]))
    cv2.line(img, (int(x), int(y)), (int(x), int(y + h)), (150, 145, 130), 1, cv2.LINE_AA)


def keyboard(img: np.ndarray, x0: int, y0: int, x1: int, y1: int, rng: np.random.Generator) -> None:
    """A laptop keyboard: a dark deck with rows of light-grey or black keys carrying letters."""
    dark = rng.random() < 0.5
    poly(img, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), (45, 45, 50) if dark else (190, 192, 196))
    keys = ["1234567890-=", "QWERTYUIOP[]", "ASDFGHJKL;'", "ZXCVBNM,./"]
    rows = len(keys) + 1
    kh = (y1 - y0) / rows
    for r, letters in enumerate(keys + [" "]):
        n = len(letters) if letters != " " else 1
        kw = (x1 - x0 - 20) / 13.0
        off = x0 + 10 + r * kw * 0.3
        for k in range(n):
            wk = kw * (6 if letters == " " else 1)
            kx = off + k * kw + (kw * 3 if letters == " " else 0)
            ky = y0 + r * kh
            poly(img, np.array([[kx + 3, ky + 3], [kx + wk - 3, ky + 3], [kx + wk - 3, ky + kh - 3], [kx + 3, ky + kh - 3]]),
                 (25, 25, 28) if dark else (245, 245, 245))
            if letters != " ":
                cv2.putText(img, letters[k], (int(kx + kw * 0.3), int(ky + kh * 0.6)), cv2.FONT_HERSHEY_SIMPLEX,
                            kh / 55.0, (230, 230, 230) if dark else (40, 40, 40), max(1, int(kh / 25)), cv2.LINE_AA)


# A die face's pips on a unit square (-1..1), for dice and dominoes alike (0: a domino's blank half):
# where the pips lie is a die's, whoever draws it, so the training's drawn clutter keeps the one table
PIPS = DIE_PIPS


def die(img: np.ndarray, cx: float, cy: float, s: float, n: int) -> None:
    poly(img, np.array([[cx - s, cy - s], [cx + s, cy - s], [cx + s, cy + s], [cx - s, cy + s]]), (246, 244, 238))
    for ox, oy in PIPS[n]:
        cv2.circle(img, (int(cx + ox * s * 0.55), int(cy + oy * s * 0.55)), max(2, int(s * 0.18)),
                   (200, 30, 40) if n == 1 else (20, 20, 20), -1, cv2.LINE_AA)


def card(img: np.ndarray, x: float, y: float, w: float, h: float, rank: str, red: bool) -> None:
    poly(img, np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]), (250, 250, 248))
    col = (200, 20, 30) if red else (15, 15, 15)
    cv2.putText(img, rank, (int(x + w * 0.08), int(y + h * 0.2)), cv2.FONT_HERSHEY_SIMPLEX, h / 160, col, 2, cv2.LINE_AA)
    cv2.circle(img, (int(x + w / 2), int(y + h / 2)), int(w * 0.18), col, -1, cv2.LINE_AA)


def printed_text(img: np.ndarray, x: float, y: float, lines: int, rng: np.random.Generator) -> None:
    """A sheet of printed text (a score sheet, a receipt)."""
    poly(img, np.array([[x, y], [x + 330, y], [x + 330, y + 30 + lines * 26], [x, y + 30 + lines * 26]]), (244, 242, 236))
    words = ["EAST", "ROUND", "1000", "8000", "RIICHI", "TSUMO", "DEALER", "2600", "TOTAL", "3900", "HONBA"]
    for k in range(lines):
        text = " ".join(words[int(i)] for i in rng.integers(0, len(words), 3))
        cv2.putText(img, text, (int(x + 12), int(y + 30 + k * 26)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (30, 30, 30), 1, cv2.LINE_AA)


def _row(img: np.ndarray, codes: list[str], x: float, y: float, w: float, h: float, back: tuple[int, int, int],
         faces: dict[str, list[np.ndarray]] | None = None, rng: np.random.Generator | None = None,
         lean: float = 0.03) -> None:
    for k, code in enumerate(codes):
        if faces is not None and rng is not None:
            tex = faces[code][int(rng.integers(0, len(faces[code])))]
        else:
            tex = face(code)
        lying_tile(img, tex, x + k * (w + 1), y, w, h, back, lean)


HAND = ["1m", "2m", "3m", "4p", "0p", "6p", "7s", "8s", "9s", "2z", "2z", "6z", "6z", "6z"]


def standing_low(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    img = table(rng, (35, 95, 60))
    codes = ["2m", "3m", "4m", "5p", "6p", "7p", "3s", "4s", "5s", "1z", "1z", "7z", "7z"]
    w, h = 58.0, 58.0 * 1.55
    x0, y0 = 40.0, 330.0
    for k, code in enumerate(codes):
        standing_tile(img, face(code, blank_top=0.33), x0 + k * (w + 1), y0, w, h, (220, 150, 30))
    standing_tile(img, face("5z", blank_top=0.33), x0 + 13 * (w + 1) + 40, y0, w, h, (220, 150, 30))  # haku apart
    return img, codes + ["5z"]


def standing_tall(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """Tall tiles standing close to a low camera: each face twice as high as wide, its upper
    half blank, the tops showing deep."""
    img = table(rng, (35, 95, 60))
    codes = ["4p", "6p", "8p", "9p", "2m", "5z", "1z", "6z", "7s", "2s"]
    w = 70.0
    for k, code in enumerate(codes):
        standing_tile(img, face(code, blank_top=0.5), 80 + k * (w + 1), 250, w, w * 2.1, (220, 150, 30), top=0.35)
    return img, codes


def far_row(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    img = table(rng, (30, 70, 120))
    codes = ["1m", "9m", "1p", "9p", "1s", "9s", "7z"]
    _row(img, codes, 420, 300, 19, 25, (40, 120, 60))
    return img, codes


def far_row_photo(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """far_row as a phone keeps it: the photo at twice the working size, so the tiles are 38 px
    wide in the photo and 19 px in the copy the recogniser works on."""
    img = table(rng, (30, 70, 120), grain=4.0, size=(2 * W, 2 * H))
    codes = ["1m", "9m", "1p", "9p", "1s", "9s", "7z"]
    _row(img, codes, 840, 600, 38, 50, (40, 120, 60))
    return img, codes


def far_honours_photo(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """Twelve honours lying close together in three rows (kans on a corner of the table, as a
    dev photo shows them), far from the camera: 30 px wide in a photo of twice the working size,
    15 px in the copy. At 512 px the detector sees the block as two or three tile-sized blobs."""
    img = table(rng, (35, 95, 60), grain=4.0, size=(2 * W, 2 * H))
    rows = [["6z"] * 4, ["7z"] * 4, ["1z", "2z", "3z", "4z"]]
    w, h = 30.0, 40.0
    for i, codes in enumerate(rows):
        _row(img, codes, 900, 650 + i * (h * 1.25 + 2), w, h, (220, 150, 30))
    return img, [c for codes in rows for c in codes]


def closeup_two(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    img = table(rng, (120, 45, 40))
    codes = ["3s", "0m"]
    _row(img, codes, 150, 90, 330, 440, (40, 90, 170), lean=0.0)
    return img, codes


def keyboard_hand(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    img = table(rng, (150, 150, 155), grain=4)
    keyboard(img, 40, 60, 970, 520, rng)
    _row(img, HAND, 130, 560, 50, 67, (230, 160, 30))
    return img, list(HAND)


def keyboard_alone(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    img = table(rng, (110, 100, 90), grain=4)
    keyboard(img, 20, 120, 990, 660, rng)
    return img, []


def pinzu_row(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    img = table(rng, (30, 100, 70))
    codes = ["4p", "4p", "6p", "6p", "8p", "8p", "9p", "9p", "4p", "6p", "8p", "9p"]
    _row(img, codes, 70, 300, 66, 88, (230, 160, 30))
    return img, codes


def clutter_row(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    img = table(rng, (40, 90, 55))
    _row(img, HAND, 150, 420, 48, 64, (40, 110, 180))
    die(img, 120, 150, 24, 5)
    die(img, 190, 170, 24, 2)
    card(img, 330, 80, 110, 160, "K", True)
    card(img, 460, 100, 110, 160, "7", False)
    printed_text(img, 620, 60, 8, rng)
    die(img, 880, 640, 26, 4)
    return img, list(HAND)


def crops_row(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    img = table(rng, (60, 60, 110))
    codes = ["2m", "3m", "4m", "6p", "7p", "8p", "1s", "2s", "3s", "4z", "4z", "5z", "5z", "5z"]
    _row(img, codes, 100, 300, 54, 72, (30, 130, 70), crop_faces(), rng)
    return img, codes


def brush_row(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    img = table(rng, (95, 70, 50), grain=10)
    codes = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "3z", "3z", "3z", "4z", "4z"]
    faces = {c: [brush_face(c)] for c in set(codes)}
    _row(img, codes, 100, 320, 54, 72, (200, 140, 40), faces, rng)
    return img, codes


def _font_row(rng: np.random.Generator, font: str, codes: list[str], felt: tuple[int, int, int],
              numeral: tuple[int, int, int], w: float) -> tuple[np.ndarray, list[str]]:
    """A hand lying in a row whose manzu and honours are set in `font`, pinzu and souzu the usual
    artwork: a set drawn by a hand no training saw."""
    img = table(rng, felt)
    faces = {c: [brush_face(c, font, numeral) if c[1] in "mz" else face(c)] for c in set(codes)}
    _row(img, codes, 60, 300, w, w * 1.33, (200, 140, 40), faces, rng)
    return img, codes


def ming_row(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """Manzu and honours in a Ming face with thin strokes (AR PL UMing), black numerals."""
    return _font_row(rng, MING_FONT, ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1z", "2z", "7z", "7z", "5p"],
                     (35, 95, 60), (20, 20, 25), 56.0)


def sans_row(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """Manzu and honours in a plain sans (WenQuanYi Zen Hei), dark blue numerals."""
    return _font_row(rng, SANS_FONT, ["2m", "3m", "4m", "4m", "6m", "7m", "8m", "9m", "3z", "4z", "6z", "6z", "6z", "3s"],
                     (30, 60, 120), (25, 35, 90), 52.0)


def standing_apart(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """A standing hand seen lower and nearer than standing_low, on blue felt, the winning haku
    set apart on its line by most of a tile's width: an upright haku is blank like a tile's
    side, and read alone it is half taken for no tile."""
    img = table(rng, (30, 60, 120))
    codes = ["1m", "1m", "5m", "6m", "7m", "2p", "3p", "4p", "6s", "7s", "8s", "4z", "4z"]
    w, h = 52.0, 52.0 * 1.6
    x0, y0 = 60.0, 300.0
    for k, code in enumerate(codes):
        standing_tile(img, face(code, blank_top=0.28), x0 + k * (w + 1), y0, w, h, (60, 150, 80))
    standing_tile(img, face("5z", blank_top=0.28), x0 + 13 * (w + 1) + 0.8 * w, y0, w, h, (60, 150, 80))
    return img, codes + ["5z"]


def stone(rng: np.random.Generator) -> np.ndarray:
    """A granite counter: grey-beige mottled with irregular dark and light grains a few pixels
    across (blurred noise cut at two levels), not crisp dots."""
    img = table(rng, (150, 140, 125), grain=6).astype(np.float32)
    for scale, level, tone in ((3, 1.1, (55, 45, 45)), (5, 1.3, (70, 55, 60)), (3, 1.4, (215, 210, 200))):
        noise = cv2.resize(rng.normal(0, 1, (H // scale, W // scale)).astype(np.float32), (W, H),
                           interpolation=cv2.INTER_LINEAR)
        mask = np.clip((noise - level) * 2.0, 0, 1)[..., None]
        img = img * (1 - mask) + np.array(tone, np.float32) * mask
    return np.clip(cv2.GaussianBlur(img, (3, 3), 0), 0, 255).astype(np.uint8)


def standing_scattered(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """Tiles standing on their own on a kitchen counter (the dev photos' hardest scene): about
    40 px wide, a tile or two apart, one of them a blank haku; a cupboard and a kettle stand at
    the back of the counter."""
    img = stone(rng)
    poly(img, np.array([[0, 0], [W, 0], [W, 150], [0, 150]]), (60, 42, 30))  # the cupboards behind
    for x in (60, 330, 600):
        cv2.rectangle(img, (x, 20), (x + 230, 130), (80, 58, 42), 3)
        cv2.circle(img, (x + 115, 75), 6, (200, 200, 190), -1)
    poly(img, np.array([[820, 60], [920, 60], [940, 200], [800, 200]]), (190, 190, 195))  # a kettle
    codes = ["1p", "8m", "4z", "6z", "3s", "0m", "5z", "9p"]
    spots = [(250, 380), (380, 360), (520, 390), (660, 370), (300, 500), (450, 520), (600, 510), (740, 480)]
    _stand_about(img, codes, spots, 40.0, (15, 10), rng)
    return img, codes


def _stand_about(img: np.ndarray, codes: list[str], spots: list[tuple[int, int]], w: float,
                 jitter: tuple[float, float], rng: np.random.Generator) -> None:
    """Tiles `codes` standing on their own near `spots`, each moved up to `jitter` (x, y) at random,
    `w` wide (1.3 times as high), seen from a low angle with the top of each showing."""
    for code, (x, y) in zip(codes, spots):
        standing_tile(img, face(code, blank_top=0.15), x + float(rng.uniform(-jitter[0], jitter[0])),
                      y + float(rng.uniform(-jitter[1], jitter[1])), w, w * 1.3, (225, 170, 40), top=0.45)


def haku_apart_stone(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """Tiles standing on a granite counter seen from further off (about 32 px wide), and a blank
    haku standing on its own a few tiles' width to the left of them (the dev photos' missed haku:
    a white face and nothing on it, alone on a busy stone)."""
    img = stone(rng)
    poly(img, np.array([[0, 0], [W, 0], [W, 120], [0, 120]]), (60, 42, 30))  # the cupboards behind
    codes = ["8s", "1p", "0m", "6p", "4z", "6m", "8m", "6z"]
    spots = [(430, 400), (500, 330), (560, 335), (520, 395), (640, 340), (610, 420), (700, 400), (800, 380)]
    w = 32.0
    _stand_about(img, codes, spots, w, (8, 6), rng)
    standing_tile(img, face("5z"), 250 + float(rng.uniform(-8, 8)), 350, w, w * 1.3, (225, 170, 40), top=0.45)
    return img, codes + ["5z"]


def pile_blank(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """A loose pile of tiles face up, each at its own small angle and touching its neighbours,
    two of them blank haku."""
    img = table(rng, (120, 130, 140), grain=6)
    codes = ["2p", "5z", "7s", "1m", "4p", "3z", "8s", "5z", "6m", "9p", "2s", "7z"]
    w, h = 56.0, 74.0
    for k, code in enumerate(codes):
        r, c = divmod(k, 4)
        x = 290 + c * (w + 6) + (r % 2) * 26 + float(rng.uniform(-6, 6))
        y = 200 + r * (h + 14) + float(rng.uniform(-6, 6))
        lying_tile(img, face(code), x, y, w, h, (225, 170, 40), lean=float(rng.uniform(-0.12, 0.12)))
    return img, codes


def print_line(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """A score sheet on the table with one line of large digits written across it: no tile."""
    img = table(rng, (60, 90, 60), grain=4)
    poly(img, np.array([[40, 250], [980, 250], [980, 420], [40, 420]]), (244, 242, 236))
    cv2.putText(img, "1 2 3 4 5 6 7 8 9", (60, 370), cv2.FONT_HERSHEY_SIMPLEX, 2.6, (30, 30, 30), 6, cv2.LINE_AA)
    return img, []


def aslant_row(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """A hand lying in a row on felt, the photo taken with the phone turned 30 degrees to it."""
    big = table(rng, (40, 90, 120), size=(W * 3 // 2, H * 3 // 2))
    w, h = 50.0, 67.0
    codes = ["1m", "2m", "3m", "5m", "6m", "7m", "2p", "3p", "4p", "7s", "8s", "9s", "1z", "1z"]
    x0, y0 = (big.shape[1] - len(codes) * (w + 1)) / 2, (big.shape[0] - h) / 2
    _row(big, codes, x0, y0, w, h, (230, 160, 30))
    m = cv2.getRotationMatrix2D((big.shape[1] / 2, big.shape[0] / 2), 30.0, 1.0)
    m[:, 2] -= ((big.shape[1] - W) / 2, (big.shape[0] - H) / 2)  # the middle of the turned table
    return cv2.warpAffine(big, m, (W, H), flags=cv2.INTER_LINEAR), codes


def _seen_from(img: np.ndarray, turns: int) -> np.ndarray:
    """`img` turned `turns` quarters anticlockwise, as a player at another seat photographs the
    hand: half round from across the table, a quarter from a seat beside it."""
    return np.ascontiguousarray(np.rot90(img, turns))


def across_row(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """A winning hand laid face up, photographed by the player across the table: every tile
    upside down (6p and 9p, 6s and 9s, manzu numerals read the other way up)."""
    img = table(rng, (35, 95, 60))
    codes = ["2m", "3m", "4m", "6p", "6p", "7p", "8p", "9p", "6s", "7s", "8s", "9m", "9m", "9m"]
    _row(img, codes, 95, 320, 56, 56 * 1.33, (220, 150, 30))
    return _seen_from(img, 2), codes


def side_seat_row(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """A winning hand laid face up, photographed from a seat beside it: the row runs down the
    photo and every tile's top points left."""
    img = table(rng, (30, 60, 120), size=(H, W))
    codes = ["1m", "1m", "1m", "5m", "6m", "7m", "2p", "3p", "4p", "4s", "5s", "6s", "3z", "3z"]
    _row(img, codes, 20, 180, 50, 50 * 1.33, (200, 140, 40))
    return _seen_from(img, 1), codes


def far_honours_side(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """far_honours_photo seen from the other seat beside it: the twelve far honours turned a
    quarter, tops pointing right, their rows now columns (at 512 px the detector sees the block
    as one blob)."""
    img, codes = far_honours_photo(rng)
    return _seen_from(img, 3), codes


def side_seat_far(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """A hand photographed from the other seat beside it, sitting: tops pointing right, the row
    running away from the camera, its far tiles smaller and shorter (the far end 16% narrower on
    each side and 10% lower)."""
    img = table(rng, (40, 90, 120), size=(H, W))
    codes = ["2m", "3m", "4m", "6p", "7p", "8p", "9p", "9p", "9p", "1s", "2s", "3s", "7z", "7z"]
    _row(img, codes, 20, 300, 50, 50 * 1.33, (220, 150, 30))
    img = _seen_from(img, 3)
    h, w = img.shape[:2]
    near = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    far = np.float32([[w * 0.16, h * 0.1], [w * 0.84, h * 0.1], [w, h], [0, h]])
    fill = tuple(int(v) for v in np.median(img.reshape(-1, 3), 0))
    return cv2.warpPerspective(img, cv2.getPerspectiveTransform(near, far), (w, h), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=fill), codes


def face_down(back: tuple[int, int, int], rng: np.random.Generator) -> np.ndarray:
    """A tile's back as its face: the back colour, a little grain (FACE_H, FACE_W, 3)."""
    f = np.empty((FACE_H, FACE_W, 3), np.float32)
    f[:] = back
    return np.clip(f + rng.normal(0, 3, f.shape), 0, 255).astype(np.uint8)


def _called_hand(img: np.ndarray, rng: np.random.Generator, back: tuple[int, int, int], x: float, y: float,
                 w: float) -> list[str]:
    """A winning hand as it lies at the end of a hand: eight tiles in a row, then a pon of 中 with
    the tile called from across the table laid sideways, then a concealed kan of 9s with its two
    outer tiles face down. Returns the face-up tiles."""
    h = w * 1.33
    closed = ["2m", "3m", "4m", "6p", "7p", "8p", "5s", "5s"]
    for code in closed:
        lying_tile(img, face(code), x, y, w, h, back)
        x += w + 1
    x += 0.6 * w
    for k in range(3):
        if k == 1:  # sideways: its top to the left, lying lower in the row, as long as a tile is high
            lying_tile(img, np.ascontiguousarray(np.rot90(face("7z"))), x, y + h - w, h, w, back)
            x += h + 1
        else:
            lying_tile(img, face("7z"), x, y, w, h, back)
            x += w + 1
    x += 0.6 * w
    for k in range(4):
        lying_tile(img, face_down(back, rng) if k in (0, 3) else face("9s"), x, y, w, h, back)
        x += w + 1
    return closed + ["7z"] * 3 + ["9s"] * 2


def called_dark_backs(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """A hand with a pon (one tile sideways) and a concealed kan (two tiles face down) from a set
    whose backs are black, on green felt: a back is a dark face, not a blank one."""
    img = table(rng, (35, 95, 60))
    return img, _called_hand(img, rng, (35, 35, 40), 30.0, 330.0, 50.0)


def lamp_kan(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """called_dark_backs' hand under a ceiling lamp whose reflection lies over its called tiles: a
    soft spot of light laid over tiles and felt (at its middle 0.55 of the light is the lamp's), so
    the glossy black backs of the kan look grey, as a blank face does."""
    img = table(rng, (35, 95, 60))
    codes = _called_hand(img, rng, (35, 35, 40), 30.0, 330.0, 50.0)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    spot = 0.55 * np.exp(-((xx - 700) ** 2 + (yy - 360) ** 2) / (2 * 190.0 ** 2))[..., None]
    lit = img.astype(np.float32) * (1 - spot) + np.array([250, 248, 240], np.float32) * spot
    return np.clip(lit, 0, 255).astype(np.uint8), codes


def _turned_quad(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    """The corners tl, tr, br, bl of a w x h rectangle centred on (cx, cy), turned `angle` degrees."""
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return corners @ np.array([[c, s], [-s, c]]) + np.array([cx, cy])


def domino(img: np.ndarray, cx: float, cy: float, w: float, angle: float, a: int, b: int,
           body: tuple[int, int, int] = (246, 243, 232)) -> None:
    """A domino lying face up: two square halves (w x w each) split by a line, `a` and `b` black
    pips, a darker edge below it: from above, a tile-sized white face with dots, as a pinzu is."""
    tex = np.zeros((200, 100, 3), np.uint8)
    tex[:] = body
    cv2.line(tex, (10, 100), (90, 100), (40, 40, 40), 3, cv2.LINE_AA)
    for half, n in ((0, a), (1, b)):
        for ox, oy in PIPS[n]:
            cv2.circle(tex, (int(50 + ox * 26), int(50 + half * 100 + oy * 26)), 9, (20, 20, 20), -1, cv2.LINE_AA)
    edge = _turned_quad(cx, cy + w * 0.12, w, 2 * w, angle)
    poly(img, edge, tuple(int(v * 0.72) for v in body))
    warp(img, tex, _turned_quad(cx, cy, w, 2 * w, angle))


def number_card(img: np.ndarray, cx: float, cy: float, w: float, angle: float, rank: int, red: bool) -> None:
    """A playing card of `rank` (2-10) lying face up: its pips in two or three columns, as the
    suits lay them out, and its rank in two corners: rows of dots on a white rectangle."""
    tw, th = 250, 350
    tex = np.full((th, tw, 3), 250, np.uint8)
    col = (200, 25, 35) if red else (20, 20, 20)
    cols = {2: [0, 0], 3: [0, 0, 0], 4: [-1, -1, 1, 1], 5: [-1, -1, 0, 1, 1], 6: [-1, -1, -1, 1, 1, 1],
            7: [-1, -1, -1, 0, 1, 1, 1], 8: [-1, -1, -1, -1, 1, 1, 1, 1], 9: [-1, -1, -1, -1, 0, 1, 1, 1, 1],
            10: [-1, -1, -1, -1, 0, 0, 1, 1, 1, 1]}[rank]
    in_col, seen = Counter(cols), Counter[int]()
    for c in cols:
        k, seen[c] = seen[c], seen[c] + 1
        x = tw / 2 + c * 62
        y = 70 + (th - 140) * (k + 0.5) / in_col[c]
        if red:  # a diamond
            poly(tex, np.array([[x, y - 22], [x + 16, y], [x, y + 22], [x - 16, y]]), col)
        else:  # a club: three lobes and a stem
            for ox, oy in ((0, -9), (-10, 5), (10, 5)):
                cv2.circle(tex, (int(x + ox), int(y + oy)), 10, col, -1, cv2.LINE_AA)
            poly(tex, np.array([[x - 3, y], [x + 3, y], [x + 7, y + 20], [x - 7, y + 20]]), col)
    for (x, y, flip) in ((14, 48, False), (tw - 14, th - 48, True)):
        label = str(rank)
        size, _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 1.3, 3)
        cv2.putText(tex, label, (int(x - (size[0] if flip else 0)), int(y + (size[1] if flip else 0))),
                    cv2.FONT_HERSHEY_SIMPLEX, 1.3, col, 3, cv2.LINE_AA)
    warp(img, tex, _turned_quad(cx, cy, w, w * th / tw, angle))


def calculator(img: np.ndarray, x0: float, y0: float, w: float) -> None:
    """A desk calculator seen from above: a dark body, a grey display with a number, and a grid of
    light keys each carrying a digit or a sign: small square faces with black strokes."""
    h = w * 1.5
    poly(img, np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]]), (52, 54, 58))
    poly(img, np.array([[x0 + w * 0.08, y0 + h * 0.06], [x0 + w * 0.92, y0 + h * 0.06],
                        [x0 + w * 0.92, y0 + h * 0.2], [x0 + w * 0.08, y0 + h * 0.2]]), (168, 178, 160))
    cv2.putText(img, "2600", (int(x0 + w * 0.35), int(y0 + h * 0.17)), cv2.FONT_HERSHEY_SIMPLEX, w / 200,
                (35, 40, 35), max(1, int(w / 120)), cv2.LINE_AA)
    keys = [["C", "M", "%", "/"], ["7", "8", "9", "x"], ["4", "5", "6", "-"], ["1", "2", "3", "+"], ["0", ".", "=", "="]]
    kw, kh = w * 0.84 / 4, h * 0.72 / 5
    for r, row in enumerate(keys):
        for c, label in enumerate(row):
            kx, ky = x0 + w * 0.08 + c * kw, y0 + h * 0.25 + r * kh
            light = label.isdigit() or label == "."
            poly(img, np.array([[kx + 4, ky + 4], [kx + kw - 4, ky + 4], [kx + kw - 4, ky + kh - 4], [kx + 4, ky + kh - 4]]),
                 (236, 234, 228) if light else (120, 124, 132))
            cv2.putText(img, label, (int(kx + kw * 0.32), int(ky + kh * 0.68)), cv2.FONT_HERSHEY_SIMPLEX, kw / 60,
                        (25, 25, 25) if light else (245, 245, 245), max(1, int(kw / 22)), cv2.LINE_AA)


def dominoes_alone(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """Nine dominoes lying face up on a wooden table, each at its own angle, about as large as a
    tile seen from above: white faces with black dots (a 4-4 half looks like a 4p). No tile."""
    img = table(rng, (150, 105, 65), grain=5)
    spots = [(150, 180), (300, 150), (470, 210), (640, 160), (820, 230), (200, 470), (400, 520), (610, 480), (820, 540)]
    for cx, cy in spots:
        domino(img, cx + rng.uniform(-20, 20), cy + rng.uniform(-20, 20), 56, float(rng.uniform(-40, 40)),
               int(rng.integers(0, 7)), int(rng.integers(0, 7)))
    return img, []


def cards_alone(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """Seven number cards (2 to 10) dealt face up on green felt, a little apart and turned: rows of
    diamonds or clubs on white, as pinzu and souzu are rows of marks on ivory. No tile."""
    img = table(rng, (35, 95, 60))
    for k, (cx, cy) in enumerate([(140, 220), (330, 200), (520, 240), (720, 210), (240, 540), (470, 560), (720, 530)]):
        number_card(img, cx, cy, 120, float(rng.uniform(-15, 15)), int(rng.integers(2, 11)), bool(k % 2))
    return img, []


def calculator_alone(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """A desk calculator beside a score sheet on a wooden table, as a scorer keeps them: square
    keys with digits on them. No tile."""
    img = table(rng, (140, 100, 70), grain=5)
    calculator(img, 120, 90, 360)
    printed_text(img, 560, 160, 10, rng)
    return img, []


def dominoes_hand(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """A hand row lying on a wooden table among dominoes and two number cards: the hand's tiles
    and nothing else."""
    img = table(rng, (150, 105, 65), grain=5)
    _row(img, HAND, 150, 330, 48, 64, (230, 160, 30))
    for cx, cy in [(130, 130), (300, 120), (480, 150), (180, 600), (420, 620), (660, 590), (880, 640)]:
        domino(img, cx + rng.uniform(-15, 15), cy + rng.uniform(-15, 15), 48, float(rng.uniform(-40, 40)),
               int(rng.integers(0, 7)), int(rng.integers(0, 7)))
    number_card(img, 700, 140, 100, 8.0, 8, False)
    number_card(img, 860, 150, 100, -10.0, 6, True)
    return img, list(HAND)



def crop_filling(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """One photographed tile of another set (tile-crops) filling most of the photo's height: at the
    detector's scale its pip groups look like tiles of their own."""
    img = table(rng, (40, 110, 60))
    h = 0.7 * H
    w = 0.75 * h
    _row(img, ["9p"], (W - w) / 2, (H - 1.25 * h) / 2, w, h, (30, 130, 70), crop_faces(), rng, lean=0.0)
    return img, ["9p"]


def crops_closeup_two(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """Two photographed tiles of another set side by side, filling the photo's width."""
    img = table(rng, (40, 110, 60))
    codes = ["6p", "9p"]
    w = 0.45 * W
    h = w * 4 / 3
    _row(img, codes, (W - 2 * w) / 2, (H - 1.25 * h) / 2, w, h, (30, 130, 70), crop_faces(), rng, lean=0.0)
    return img, codes

def blue_inked(face: np.ndarray) -> bool:
    """Whether a photographed face (RGB uint8) is inked in blue: its dark pixels (luma under 150)
    bluer than red by 40 or more, by their medians."""
    px = face.reshape(-1, 3).astype(np.float32)
    ink = px[px @ np.float32([0.299, 0.587, 0.114]) < 150]
    return len(ink) > 0 and float(np.median(ink[:, 2]) - np.median(ink[:, 0])) >= 40


def crop_blue_pips(rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """One photographed 8p of another set, inked in blue (tile-crops), its face cut close with no
    tile body round it, 60% of a portrait photo's height on red felt. At the detector's scale its
    pips are boxed as tiles, and the light's colour judged on them (blue ink, not ivory) looks blue:
    the frame corrected for it read the face whole as 1p or nothing. In the light judged on the face
    found whole, it is an 8p (Settings.whole_light)."""
    root = os.path.join(SHARED, "data", "tile-crops")
    with open(os.path.join(root, "labels.csv"), newline="") as f:
        names = [row["image"] for row in csv.DictReader(f) if row["tile"] == "8p"]
    faces = [np.asarray(Image.open(os.path.join(root, "images", n)).convert("RGB")) for n in names]
    faces = [face for face in faces if blue_inked(face)]
    face = faces[int(rng.integers(len(faces)))]
    img = table(rng, (120, 45, 40), size=(H, W))
    h = 0.6 * W
    w = h * face.shape[1] / face.shape[0]
    tile = cv2.resize(face, (round(w), round(h)), interpolation=cv2.INTER_CUBIC)
    x0, y0 = round((H - w) / 2), round((W - h) / 2)
    img[y0:y0 + tile.shape[0], x0:x0 + tile.shape[1]] = tile
    return img, ["8p"]


CASES = {
    "standing_low": ("standing", standing_low),
    "far_row": ("far_row", far_row),
    "closeup_two": ("closeup", closeup_two),
    "keyboard_hand": ("clutter", keyboard_hand),
    "keyboard_alone": ("clutter", keyboard_alone),
    "pinzu_row": ("hand_row", pinzu_row),
    "clutter_row": ("clutter", clutter_row),
    "crops_row": ("hand_row", crops_row),
    "standing_tall": ("standing", standing_tall),
    "standing_apart": ("standing", standing_apart),
    "brush_row": ("hand_row", brush_row),
    "standing_scattered": ("scattered", standing_scattered),
    "pile_blank": ("scattered", pile_blank),
    "print_line": ("clutter", print_line),
    "far_row_photo": ("far_row", far_row_photo),
    "far_honours_photo": ("far_block", far_honours_photo),
    "ming_row": ("hand_row", ming_row),
    "sans_row": ("hand_row", sans_row),
    "aslant_row": ("hand_row", aslant_row),
    "haku_apart_stone": ("scattered", haku_apart_stone),
    "across_row": ("hand_row", across_row),
    "side_seat_row": ("hand_row", side_seat_row),
    "far_honours_side": ("far_block", far_honours_side),
    "side_seat_far": ("hand_row", side_seat_far),
    "called_dark_backs": ("hand_row", called_dark_backs),
    "lamp_kan": ("hand_row", lamp_kan),
    "dominoes_alone": ("clutter", dominoes_alone),
    "cards_alone": ("clutter", cards_alone),
    "calculator_alone": ("clutter", calculator_alone),
    "dominoes_hand": ("clutter", dominoes_hand),
    "crop_filling": ("closeup", crop_filling),
    "crops_closeup_two": ("closeup", crops_closeup_two),
    "crop_blue_pips": ("closeup", crop_blue_pips),
    # new cases go last: each case's seed is its place here
}


BACKS = {"called_dark_backs": 2, "lamp_kan": 2}  # face-down tiles per case (none elsewhere)


def save_photo(out: str, name: str, img: np.ndarray) -> None:
    """`img` (RGB uint8) as the JPEG `name` in the folder `out`, as a phone would send it."""
    ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(img[..., ::-1]), [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    with open(os.path.join(out, name), "wb") as f:
        f.write(buf.tobytes())


def save_labels(out: str, labels: dict) -> None:
    """The labels.json that training.evaluate reads for a folder of staged photos."""
    with open(os.path.join(out, "labels.json"), "w") as f:
        json.dump(labels, f, indent=1, sort_keys=True)
        f.write("\n")


def build(out: str = OUT, seed: int = 19) -> dict:
    os.makedirs(out, exist_ok=True)
    labels = {}
    for k, (name, (kind, make)) in enumerate(CASES.items()):
        img, codes = make(np.random.default_rng(seed * 100 + k))
        save_photo(out, f"{name}.jpg", img)
        labels[f"{name}.jpg"] = {"kind": kind, "tiles": codes, "back": BACKS.get(name, 0)}
    save_labels(out, labels)
    return labels


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", default=OUT)
    ap.add_argument("--seed", type=int, default=19)
    args = ap.parse_args(argv)
    build(args.out, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
