"""Tile face textures for the synthetic scenes, built from ../shared at training time only.

Three sources of faces, all as RGB float32 arrays in [0, 1] at a working size of 150x200 (w x h):
- FluffyStuff artwork (CC0), Regular glyphs on an ivory face and Black glyphs on a dark face;
- real photos of a Chinese-style set (tile-crops, MIT), which cover 34 classes but no red fives.

Ink is recoloured per scene (a real set has one colour scheme): red ink stays red, the other ink
becomes black, navy, dark green... so the classifier learns shapes and "is it red", not one
artist's palette. Red fives are drawn from the *5-Dora artwork and also made from any normal five
by turning all of its ink red, which is what red fives look like in most Japanese sets.
"""
from __future__ import annotations

import csv
import os
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

from training.labels import TILE_CODES

SHARED = os.environ.get("TENBOU_SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "shared"))
TEX_W, TEX_H = 150, 200

_FLUFFY_NAMES = {
    **{f"{n}m": f"Man{n}" for n in range(1, 10)},
    **{f"{n}p": f"Pin{n}" for n in range(1, 10)},
    **{f"{n}s": f"Sou{n}" for n in range(1, 10)},
    "1z": "Ton", "2z": "Nan", "3z": "Shaa", "4z": "Pei", "5z": "Haku", "6z": "Hatsu", "7z": "Chun",
    "0m": "Man5-Dora", "0p": "Pin5-Dora", "0s": "Sou5-Dora",
}


@dataclass(frozen=True)
class Glyph:
    """Ink on a transparent face: rgb (h, w, 3) float, alpha (h, w) float, and its ink kind map."""

    rgb: np.ndarray
    alpha: np.ndarray
    kind: np.ndarray  # 0 = white detail, 1 = red ink, 2 = other ink


def _ink_kinds(rgb: np.ndarray) -> np.ndarray:
    hsv = cv2.cvtColor((rgb * 255).astype(np.uint8), cv2.COLOR_RGB2HSV).astype(np.int32)
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    kind = np.full(rgb.shape[:2], 2, np.uint8)
    kind[((h <= 12) | (h >= 160)) & (s >= 70) & (v >= 60)] = 1
    kind[(s < 45) & (v > 170)] = 0
    return kind


def _load_fluffy(style: str) -> dict[str, Glyph]:
    out = {}
    for code, name in _FLUFFY_NAMES.items():
        im = Image.open(os.path.join(SHARED, "tiles", "Export", style, f"{name}.png")).convert("RGBA")
        a = np.asarray(im.resize((TEX_W, TEX_H), Image.Resampling.LANCZOS), np.float32) / 255.0
        rgb = a[..., :3].copy()
        out[code] = Glyph(rgb, a[..., 3].copy(), _ink_kinds(rgb))
    return out


def _load_crops() -> dict[str, list[np.ndarray]]:
    root = os.path.join(SHARED, "data", "tile-crops")
    out: dict[str, list[np.ndarray]] = {c: [] for c in TILE_CODES}
    with open(os.path.join(root, "labels.csv"), newline="") as f:
        for row in csv.DictReader(f):
            im = Image.open(os.path.join(root, "images", row["image"])).convert("RGB")
            a = np.asarray(im.resize((TEX_W, TEX_H), Image.Resampling.LANCZOS), np.float32) / 255.0
            out[row["tile"]].append(a)
    return out


def _crop_glyph(face: np.ndarray) -> Glyph:
    """Split a photographed face into its ivory ground and ink (alpha from the distance to ground)."""
    ground = np.median(face.reshape(-1, 3), axis=0)
    lum = face.mean(axis=2)
    g = float(ground.mean())
    hsv = cv2.cvtColor((face * 255).astype(np.uint8), cv2.COLOR_RGB2HSV).astype(np.float32)
    sat = hsv[..., 1] / 255.0
    ink = np.clip(np.maximum((g - lum) / 0.35, (sat - 0.18) / 0.3), 0.0, 1.0)
    kind = _ink_kinds(face)
    kind[ink < 0.2] = 0
    return Glyph(face.copy(), ink.astype(np.float32), kind)


class TextureBank:
    """All face sources, loaded once per process. `wide` adds `training.artwork` (tiles set in
    several CJK fonts, procedural pins and sticks, Unicode line art), drawn for ART_SHARE of the
    light faces (`art_sources`: only those of training.artwork.SOURCES; a tile none of them draws
    keeps the usual faces); without it the draws are exactly those of the earlier stages."""

    def __init__(self, wide: bool = False, art_sources: tuple[str, ...] | None = None) -> None:
        self.regular = _load_fluffy("Regular")
        self.black = _load_fluffy("Black")
        crops = _load_crops()
        self.crops = {c: [_crop_glyph(f) for f in fs] for c, fs in crops.items()}
        self.art = None
        if wide:
            from training.artwork import ArtworkBank

            self.art = ArtworkBank() if art_sources is None else ArtworkBank(sources=art_sources)

    def has_crops(self, code: str) -> bool:
        return bool(self.crops.get(code))


@dataclass(frozen=True)
class InkScheme:
    """One set's colours: ivory face, non-red ink, red ink, back."""

    face: np.ndarray
    ink: np.ndarray | None  # None keeps the source's own colours
    red: np.ndarray
    back: np.ndarray
    back_layer: float  # share of the thickness that is back-coloured
    dark_face: bool


_INKS = [(0.08, 0.08, 0.08), (0.12, 0.1, 0.1), (0.05, 0.1, 0.3), (0.05, 0.25, 0.12),
         (0.1, 0.15, 0.45), (0.15, 0.15, 0.2)]
_BACKS = [(0.95, 0.75, 0.1), (0.92, 0.68, 0.05), (0.98, 0.82, 0.2),  # yellows
          (0.1, 0.45, 0.2), (0.15, 0.55, 0.35), (0.1, 0.3, 0.6), (0.2, 0.5, 0.8),
          (0.9, 0.45, 0.1), (0.85, 0.35, 0.45), (0.6, 0.2, 0.2), (0.12, 0.12, 0.14), (0.45, 0.3, 0.6)]


def random_scheme(rng: np.random.Generator) -> InkScheme:
    face = np.array([0.95, 0.945, 0.91]) * rng.uniform(0.9, 1.03) + rng.uniform(-0.012, 0.012, 3)
    face[2] -= rng.uniform(0, 0.08)  # ivory leans yellow
    face[1] -= rng.uniform(0, 0.02)
    ink = None if rng.random() < 0.3 else np.array(_INKS[rng.integers(len(_INKS))]) * rng.uniform(0.7, 1.3)
    red = np.array([0.75, 0.1, 0.12]) + rng.uniform(-0.12, 0.12, 3) * np.array([1, 0.5, 0.5])
    back = np.array(_BACKS[rng.integers(len(_BACKS))]) if rng.random() < 0.9 else rng.uniform(0.05, 0.95, 3)
    back = np.clip(back + rng.uniform(-0.06, 0.06, 3), 0, 1)
    return InkScheme(np.clip(face, 0, 1), ink, np.clip(red, 0, 1), back,
                     float(rng.uniform(0.3, 0.55)), bool(rng.random() < 0.06))


def _rounded_mask(w: int, h: int, r: float) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    ri = max(1, int(r))
    cv2.rectangle(m, (ri, 0), (w - 1 - ri, h - 1), 255, -1)
    cv2.rectangle(m, (0, ri), (w - 1, h - 1 - ri), 255, -1)
    for cx, cy in ((ri, ri), (w - 1 - ri, ri), (ri, h - 1 - ri), (w - 1 - ri, h - 1 - ri)):
        cv2.circle(m, (cx, cy), ri, 255, -1, lineType=cv2.LINE_AA)
    return m.astype(np.float32) / 255.0


_MASK = _rounded_mask(TEX_W, TEX_H, 14)


def _bevel(w: int, h: int, depth: float) -> np.ndarray:
    """Darkening towards the rim: the rounded edge of a real tile catches less light."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.minimum.reduce([xx, yy, w - 1 - xx, h - 1 - yy])
    return 1.0 - depth * np.exp(-d / 6.0)


_BEVEL = _bevel(TEX_W, TEX_H, 0.18)


def _recolour(glyph: Glyph, scheme: InkScheme, all_red: bool, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    rgb = glyph.rgb
    kind = glyph.kind
    out = rgb.copy()
    lum = rgb.mean(axis=2, keepdims=True)
    if scheme.ink is not None and not scheme.dark_face:
        shade = np.clip(lum / max(float(lum[kind == 2].mean()) if (kind == 2).any() else 0.3, 1e-3), 0.5, 1.5)
        out = np.where((kind == 2)[..., None], np.clip(scheme.ink * shade, 0, 1), out)
    if (kind == 1).any():
        rshade = np.clip(lum / max(float(lum[kind == 1].mean()), 1e-3), 0.6, 1.4)
        out = np.where((kind == 1)[..., None], np.clip(scheme.red * rshade, 0, 1), out)
    if all_red:
        ink = kind >= 1
        out = np.where(ink[..., None], scheme.red * rng.uniform(0.85, 1.1), out)
    out = np.where((kind == 0)[..., None], scheme.face if not scheme.dark_face else out, out)
    return out, glyph.alpha


def _thicken(alpha: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    r = rng.random()
    if r < 0.2:
        return cv2.dilate(alpha, np.ones((3, 3), np.uint8))
    if r < 0.35:
        return cv2.erode(alpha, np.ones((2, 2), np.uint8))
    return alpha


ART_SHARE = 0.45


def face_texture(bank: TextureBank, code: str, scheme: InkScheme, rng: np.random.Generator) -> np.ndarray:
    """RGBA float32 (TEX_H, TEX_W, 4) face for tile `code` (mpsz, 0 = red five)."""
    is_red = code[0] == "0"
    base = code if not is_red else "5" + code[1]
    src = rng.random()
    if scheme.dark_face:
        ground = np.clip(scheme.back * 0.25 + 0.05, 0, 1) if rng.random() < 0.5 else np.full(3, 0.12)
        glyph = bank.black[code]
        rgb, alpha = glyph.rgb, glyph.alpha
        if is_red and rng.random() < 0.5:
            rgb, alpha = _recolour(bank.black[base], scheme, True, rng)
    elif bank.art is not None and rng.random() < ART_SHARE and bank.art.has(base):
        ground = scheme.face
        rgb, alpha = _recolour(bank.art.pick(base, rng), scheme, is_red, rng)
    elif src < 0.32 and bank.has_crops(base):
        ground = scheme.face
        glyph = bank.crops[base][rng.integers(len(bank.crops[base]))]
        rgb, alpha = _recolour(glyph, scheme, is_red, rng)
    else:
        ground = scheme.face
        glyph = bank.regular[base if (is_red and rng.random() < 0.5) else code]
        rgb, alpha = _recolour(glyph, scheme, is_red, rng)
    alpha = _thicken(alpha, rng)
    # Glyph placement varies a little between sets.
    s = rng.uniform(0.86, 1.02)
    dx, dy = rng.uniform(-0.03, 0.03) * TEX_W, rng.uniform(-0.03, 0.03) * TEX_H
    m = np.array([[s, 0, (1 - s) * TEX_W / 2 + dx], [0, s, (1 - s) * TEX_H / 2 + dy]], np.float32)
    rgb = cv2.warpAffine(rgb.astype(np.float32), m, (TEX_W, TEX_H), borderMode=cv2.BORDER_REPLICATE)
    alpha = cv2.warpAffine(alpha.astype(np.float32), m, (TEX_W, TEX_H))
    face = ground[None, None, :] * (1 - alpha[..., None]) + rgb * alpha[..., None]
    face = face * _BEVEL[..., None]
    return np.dstack([np.clip(face, 0, 1), _MASK]).astype(np.float32)


def back_texture(scheme: InkScheme, rng: np.random.Generator) -> np.ndarray:
    yy = np.linspace(0, 1, TEX_H, dtype=np.float32)[:, None, None]
    g = 1.0 + rng.uniform(-0.06, 0.06) * (yy - 0.5)
    rgb = np.clip(scheme.back[None, None, :] * g * _BEVEL[..., None], 0, 1)
    rgb = np.broadcast_to(rgb, (TEX_H, TEX_W, 3))
    return np.dstack([rgb, _MASK]).astype(np.float32)


def side_texture(scheme: InkScheme, length_px: int, depth_px: int) -> np.ndarray:
    """A side of the tile: columns run from the face edge (ivory) to the back edge (back colour)."""
    t = np.zeros((length_px, depth_px, 4), np.float32)
    split = int(round(depth_px * (1 - scheme.back_layer)))
    face_col = scheme.face * 0.97 if not scheme.dark_face else np.full(3, 0.15)
    t[:, :split, :3] = face_col
    t[:, split:, :3] = scheme.back
    t[:, max(split - 1, 0):split + 1, :3] *= 0.85
    t[..., 3] = 1.0
    t[0, :, 3] = t[-1, :, 3] = 0.5
    return t
