"""Copy-paste augmentation: new detector and classifier training images composed from the real
labelled tiles (cut out of the train scenes of training.datasets' split) on synthetic tables.

    python -m training.copy_paste --out training/work/copy_paste --images 2000 [--seed S] [--workers 2] DIR [DIR ...]

The real photos show few scales and few tables; pasting their tiles at new sizes (a row across
the table, a close-up), angles and backgrounds teaches the detector and classifier the real tile
faces at scales and on surfaces they never saw. Image i is drawn from numpy's Generator seeded
with (seed, i), so the output does not depend on the number of workers.

Layouts: a hand row (5-14 tiles, sometimes one set apart or one turned a quarter as a called
tile), a close-up (1-3 tiles filling 40-90% of the image) or a pile (5-20 tiles at random
positions and angles, barely overlapping); then the whole composition is turned and warped by a
mild perspective. Backgrounds from training.backgrounds (sometimes a keyboard), clutter from
training.distractors where it touches no tile.

Output, in the formats of training.real_data (the trainers' `--real FOLDER`):
    det_images.npy  uint8 (N, 512, 512, 3)
    det_boxes.json  per image [[x1, y1, x2, y2, flag]]: 1 a pasted tile, 0 "ignore" (tiny, or cut
                    by the border)
    cls_crops.npy   uint8 (M, 64, 64, 3)  two jittered crops per tile wholly inside, and "none"
                    crops of background and clutter far from every tile
    cls_meta.npy    int16 (M, 3)          class, orientation (-1 unknown), half-turn flag
    stats.json      counts

Orientation: the source photos are stretch-resized exports that mix upright, sideways and
upside-down tiles, so a cut-out's own orientation is unknown (`Cutout.orient` -1) and so is the
pasted tile's, as in training.real_data. A cut-out whose orientation is known (0-3) gets the
orientation it has after the rotations applied here.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import time
from dataclasses import dataclass

import cv2
import numpy as np

from recognition.preprocess import CROP_CONTEXT, CROP_SIZE, square_crops
from training import distractors
from training.backgrounds import random_texture
from training.boxes import jitter_box
from training.datasets import LabelledPhoto, load_real
from training.labels import BACK, CLASS_INDEX, NONE

SIZE = 512
SEED = 20261127
MIN_SOURCE = 8  # cut-outs with a side under this many pixels are too coarse to paste
MIN_BOX = 4.0  # a pasted tile smaller than this (either side) is "ignore"
INSIDE = 0.75  # share of a tile's box that must lie in the image for it to be a positive


@dataclass
class Cutout:
    code: str  # mpsz code or BACK
    image: np.ndarray  # uint8 RGB, as labelled (the box's pixels)
    orient: int = -1  # where its top points in `image` (0 up .. 3 left), -1 unknown
    source: str = ""  # the photo it was cut from

    @property
    def cls(self) -> int:
        return CLASS_INDEX[self.code]


def train_photos(folders: list[str], label_fixes: bool = False) -> list[LabelledPhoto]:
    """The photos to cut tiles from: the train scenes only (validation scenes stay unseen), with
    boxes whose codes are trusted for the classifier; the project's label fixes only if asked
    (training.datasets.LABEL_FIXES: train.sh asks, as the shipped classifier was trained)."""
    photos = load_real(folders, split="train", label_fixes=label_fixes)
    return [p for p in photos if p.boxes and p.classify]


def load_cutouts(photos: list[LabelledPhoto]) -> list[Cutout]:
    """Every labelled box of `photos`, cut out. Each photo is read once and then dropped."""
    out = []
    for ph in photos:
        bgr = cv2.imread(ph.path, cv2.IMREAD_COLOR)
        if bgr is None:
            continue
        img = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        h, w = img.shape[:2]
        for code, (x1, y1, x2, y2) in ph.boxes or []:
            if code not in CLASS_INDEX or code == NONE:
                continue
            xa, ya = max(0, int(round(x1))), max(0, int(round(y1)))
            xb, yb = min(w, int(round(x2))), min(h, int(round(y2)))
            if xb - xa < MIN_SOURCE or yb - ya < MIN_SOURCE:
                continue
            out.append(Cutout(code, np.ascontiguousarray(img[ya:yb, xa:xb]), -1, ph.name))
    return out


# --- geometry -------------------------------------------------------------------------------

def _rot(deg: float) -> np.ndarray:
    a = np.deg2rad(deg)
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)


def _shift(x: float, y: float) -> np.ndarray:
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], np.float64)


def _scale(sx: float, sy: float) -> np.ndarray:
    return np.diag([sx, sy, 1.0])


def _apply(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.c_[pts, np.ones(len(pts))] @ m.T
    return p[:, :2] / p[:, 2:3]


@dataclass
class Placed:
    cut: Cutout
    w: float  # size of the tile in layout units, before its own rotation
    h: float
    cx: float  # centre in layout units
    cy: float
    angle: float  # its own rotation (degrees, clockwise on screen: image y points down)

    def matrix(self) -> np.ndarray:
        """Source pixels -> layout: centre, scale to (w, h), rotate, move."""
        sh, sw = self.cut.image.shape[:2]
        return (_shift(self.cx, self.cy) @ _rot(self.angle) @ _scale(self.w / sw, self.h / sh)
                @ _shift(-sw / 2, -sh / 2))

    def corners(self) -> np.ndarray:
        hw, hh = self.w / 2, self.h / 2
        pts = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
        return _apply(_shift(self.cx, self.cy) @ _rot(self.angle), pts)


def _aspect(cut: Cutout, rng: np.random.Generator) -> float:
    """Width/height to paste a cut-out at: its own, pulled halfway (in log) towards a tile's
    (0.75 upright, 1.33 sideways), since the exports stretched the photos."""
    sh, sw = cut.image.shape[:2]
    a = sw / sh
    target = 0.75 if a < 1 else 1.33
    return float(np.exp(0.5 * np.log(a) + 0.5 * np.log(target) + rng.normal(0, 0.03)))


def _pick(cuts: list[Cutout], rng: np.random.Generator, pool: np.ndarray | None = None) -> Cutout:
    if pool is not None and len(pool):
        return cuts[int(pool[int(rng.integers(0, len(pool)))])]
    return cuts[int(rng.integers(0, len(cuts)))]


def _row(cuts: list[Cutout], rng: np.random.Generator, n: int, tile_h: float,
         pool: np.ndarray | None = None) -> list[Placed]:
    """n tiles side by side along x, bottoms aligned, centred on (0, 0)."""
    gap_unit = min(1.0, tile_h / 40)
    touching = rng.random() < 0.4
    apart = int(rng.integers(0, n)) if n >= 4 and rng.random() < 0.3 else -1
    called = int(rng.integers(0, n)) if n >= 4 and rng.random() < 0.3 else -1
    placed, x = [], 0.0
    for k in range(n):
        cut = _pick(cuts, rng, pool)
        a = _aspect(cut, rng)
        portrait = a < 1
        # tile face size, upright: height tile_h, width tile_h * face aspect
        face_w = tile_h * (a if portrait else 1 / a)
        ang = 0.0 if portrait else 90.0  # a sideways cut-out is stood up
        if k == called:
            ang += 90.0
        if rng.random() < 0.5:
            ang += 180.0  # the cut-out's own orientation is unknown anyway
        across = tile_h if k == called else face_w  # extent along the row
        tall = face_w if k == called else tile_h
        if k:
            x += 0 if touching else float(rng.integers(1, 4)) * gap_unit
            if k == apart:
                x += face_w * rng.uniform(0.3, 1.0)
        w, h = (face_w, tile_h) if portrait else (tile_h, face_w)
        # Placed.w/h are the source's axes: rotated by `ang`, they become across x tall
        placed.append(Placed(cut, w, h, x + across / 2, -tall / 2, ang + rng.normal(0, 0.7)))
        x += across
    for p in placed:  # centre the row
        p.cx -= x / 2
        p.cy += tile_h / 2
    return placed


def _pile(cuts: list[Cutout], rng: np.random.Generator) -> list[Placed]:
    n = int(rng.integers(5, 21))
    tile_w = float(np.exp(rng.uniform(np.log(12), np.log(min(70, 300 / np.sqrt(n))))))
    occupied = np.zeros((SIZE, SIZE), np.uint8)
    placed: list[Placed] = []
    margin = SIZE * 0.08
    for _ in range(n):
        cut = _pick(cuts, rng)
        a = _aspect(cut, rng)
        face_w = tile_w * float(np.exp(rng.normal(0, 0.06)))
        face_h = face_w / (a if a < 1 else 1 / a)
        base = 0.0 if a < 1 else 90.0
        for _try in range(30):
            if rng.random() < 0.5:
                ang = base + 90.0 * int(rng.integers(0, 4)) + rng.normal(0, 4)
            else:
                ang = float(rng.uniform(0, 360))
            w, h = (face_w, face_h) if base == 0 else (face_h, face_w)
            cand = Placed(cut, w, h, float(rng.uniform(margin, SIZE - margin)), float(rng.uniform(margin, SIZE - margin)), ang)
            mask = np.zeros_like(occupied)
            cv2.fillConvexPoly(mask, np.round(cand.corners()).astype(np.int32), 1)
            area = max(int(mask.sum()), 1)
            if int((mask & occupied).sum()) <= 0.08 * area:
                occupied |= mask
                placed.append(cand)
                break
    for p in placed:  # layout centred on (0, 0)
        p.cx -= SIZE / 2
        p.cy -= SIZE / 2
    return placed


def _layout(cuts: list[Cutout], rng: np.random.Generator, big: np.ndarray) -> tuple[str, list[Placed], float]:
    """A layout centred on (0, 0) in output pixels (before the global warp), and the angle to
    turn it by."""
    r = rng.random()
    if r < 0.5:
        n = int(rng.integers(5, 15))
        face_w_max = SIZE * 0.92 / n
        face_w = float(np.exp(rng.uniform(np.log(12), np.log(max(13.0, face_w_max)))))
        tiles = _row(cuts, rng, n, face_w / 0.75)
        kind = "row"
    elif r < 0.75:
        n = int(rng.integers(1, 4))
        extent = SIZE * rng.uniform(0.4, 0.9)  # the longer side of the group
        tile_h = min(extent, extent / (n * 0.75))
        tiles = _row(cuts, rng, n, tile_h, big)
        kind = "closeup"
    else:
        tiles = _pile(cuts, rng)
        kind = "pile"
    q = rng.random()
    if kind == "pile" or q < 0.25:
        angle = float(rng.uniform(0, 360))
    elif q < 0.5:
        angle = 90.0 * int(rng.integers(0, 4)) + rng.normal(0, 6)
    else:
        angle = float(rng.normal(0, 8))
    return kind, tiles, angle


def _global(tiles: list[Placed], angle: float, rng: np.random.Generator) -> np.ndarray:
    """Layout -> image: turn by `angle`, move to a random place where the tiles fit if they can,
    and warp by a mild perspective."""
    turn = _rot(angle)
    pts = np.concatenate([_apply(turn, t.corners()) for t in tiles])
    lo, hi = pts.min(0), pts.max(0)
    ext = hi - lo
    pos = []
    for d in range(2):
        free = SIZE - ext[d]
        if free > 0:
            pos.append(rng.uniform(0, free) - lo[d])
        else:  # larger than the image: some tiles leave it
            pos.append(SIZE / 2 - (lo[d] + hi[d]) / 2 + rng.uniform(-0.3, 0.3) * (-free))
    m = _shift(pos[0], pos[1]) @ turn
    src = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], np.float32)
    amount = SIZE * rng.uniform(0.0, 0.07)
    dst = (src + rng.uniform(-amount, amount, (4, 2))).astype(np.float32)
    persp = cv2.getPerspectiveTransform(src, dst)
    return persp @ m


# --- rendering ------------------------------------------------------------------------------

def _paste(canvas: np.ndarray, tile: np.ndarray, m: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Warp `tile` (uint8 RGB) by the homography `m` (tile pixels -> canvas) into `canvas` (float
    RGB, in place), with light and white-balance jitter and a faint shadow. Returns its corners
    in the canvas."""
    sh, sw = tile.shape[:2]
    corners = _apply(m, np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float64))
    sides = np.linalg.norm(np.roll(corners, -1, 0) - corners, axis=1)
    shrink = min(sides[0] / sw, sides[2] / sw, sides[1] / sh, sides[3] / sh)
    if shrink < 0.6:  # warpPerspective has no area filter: shrink the source first
        k = max(shrink * 1.4, 2.0 / min(sw, sh))
        nw, nh = max(2, int(round(sw * k))), max(2, int(round(sh * k)))
        tile = cv2.resize(tile, (nw, nh), interpolation=cv2.INTER_AREA)
        m = m @ _scale(sw / nw, sh / nh)
        sh, sw = nh, nw
    x0, y0 = np.floor(corners.min(0)).astype(int) - 2
    x1, y1 = np.ceil(corners.max(0)).astype(int) + 2
    H, W = canvas.shape[:2]
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if xb <= xa or yb <= ya:
        return corners
    local = _shift(-xa, -ya) @ m
    size = (int(xb - xa), int(yb - ya))
    src = tile.astype(np.float32)
    gain = rng.uniform(0.82, 1.12) * rng.uniform(0.94, 1.06, 3)
    src = src * gain.astype(np.float32)
    warped = cv2.warpPerspective(src, local, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    alpha = cv2.warpPerspective(np.ones((sh, sw), np.float32), local, size, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    region = canvas[ya:yb, xa:xb]
    if rng.random() < 0.6:  # a soft shadow, offset down-right
        off = max(1, int(round(min(sides) * 0.06)))
        sm = np.zeros_like(alpha)
        sm[off:, off:] = alpha[:-off, :-off] if off < min(alpha.shape) else 0
        sm = cv2.GaussianBlur(sm, (0, 0), max(0.5, off * 0.8))
        region *= (1 - 0.35 * sm)[..., None]
    a = alpha[..., None]
    region[:] = region * (1 - a) + warped * a
    return corners


def _box_of(corners: np.ndarray) -> tuple[list[float], int] | None:
    """Clipped axis-aligned box of a tile's corners and its flag; None when wholly outside."""
    x1, y1 = corners.min(0)
    x2, y2 = corners.max(0)
    cx1, cy1, cx2, cy2 = max(x1, 0.0), max(y1, 0.0), min(x2, float(SIZE)), min(y2, float(SIZE))
    if cx2 - cx1 < 1 or cy2 - cy1 < 1:
        return None
    inside = (cx2 - cx1) * (cy2 - cy1) / max((x2 - x1) * (y2 - y1), 1e-6)
    ok = inside >= INSIDE and cx2 - cx1 >= MIN_BOX and cy2 - cy1 >= MIN_BOX
    return [float(cx1), float(cy1), float(cx2), float(cy2)], int(ok)


def _clutter(img: np.ndarray, boxes: np.ndarray, rng: np.random.Generator, count: int, s0: float) -> list[np.ndarray]:
    """Up to `count` distractors drawn into `img` (in place) where they touch no box; returns the
    corner points of those drawn."""
    drawn = []
    grown = boxes.copy()
    if len(grown):
        pad = 0.15 * s0
        grown[:, :2] -= pad
        grown[:, 2:] += pad
    for _ in range(count):
        kind = distractors.KINDS_WIDE[int(rng.integers(0, len(distractors.KINDS_WIDE)))]
        s = s0 * float(np.exp(rng.uniform(-0.3, 0.4)))
        trial = np.zeros_like(img)
        pts = distractors.draw(trial, kind, float(rng.uniform(0, SIZE)), float(rng.uniform(0, SIZE)), s, rng)
        mask = np.asarray(trial.any(axis=2), bool)
        hit = False
        for x1, y1, x2, y2 in grown:
            xa, ya = int(np.clip(np.floor(x1), 0, SIZE)), int(np.clip(np.floor(y1), 0, SIZE))
            xb, yb = int(np.clip(np.ceil(x2), 0, SIZE)), int(np.clip(np.ceil(y2), 0, SIZE))
            if mask[ya:yb, xa:xb].any():
                hit = True
                break
        if hit or not mask.any():
            continue
        img[mask] = trial[mask]
        drawn.append(np.asarray(pts, np.float32).reshape(-1, 2))
    return drawn


def _far(box: list[float], boxes: np.ndarray, margin: float = 0.15) -> bool:
    """The square crop of `box` (as square_crops takes it), grown by `margin` of its side,
    overlaps none of `boxes`."""
    if len(boxes) == 0:
        return True
    x1, y1, x2, y2 = box
    half = max(x2 - x1, y2 - y1) * CROP_CONTEXT * (0.5 + margin)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    return not bool(((boxes[:, 0] < cx + half) & (boxes[:, 2] > cx - half)
                     & (boxes[:, 1] < cy + half) & (boxes[:, 3] > cy - half)).any())


def _photometric(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.2))
    if rng.random() < 0.3:
        noise = rng.normal(0, rng.uniform(2, 7), img.shape).astype(np.float32)
        img = np.clip(img.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 90))])
        dec = cv2.imdecode(enc, cv2.IMREAD_UNCHANGED) if ok else None
        if dec is not None:
            img = dec
    return img


_CUTS: list[Cutout] = []
_BIG = np.zeros(0, np.int64)
OPTIONS = {"seed": SEED}


def set_cutouts(cuts: list[Cutout]) -> None:
    """Set the cut-outs the workers compose from (before forking). Close-ups draw on the largest
    quarter, so they are enlarged least."""
    global _CUTS, _BIG
    _CUTS = cuts
    areas = np.array([c.image.shape[0] * c.image.shape[1] for c in cuts], np.float64)
    _BIG = np.nonzero(areas >= np.quantile(areas, 0.75))[0] if len(cuts) else np.zeros(0, np.int64)


def make_image(idx: int, seed: int | None = None):
    """Image `idx`: (idx, image (SIZE, SIZE, 3) uint8, det rows, crops, meta, stats)."""
    seed = int(OPTIONS["seed"]) if seed is None else seed
    rng = np.random.default_rng([seed, idx])
    cuts = _CUTS
    kind, tiles, angle = _layout(cuts, rng, _BIG)
    glob = _global(tiles, angle, rng)

    bg = random_texture(rng, wide=True)
    canvas = cv2.resize(bg, (SIZE, SIZE), interpolation=cv2.INTER_AREA if bg.shape[0] > SIZE else cv2.INTER_LINEAR)
    canvas = np.ascontiguousarray(canvas * (255.0 * rng.uniform(0.55, 1.05)), dtype=np.float32)
    light = rng.uniform(0.85, 1.1) * rng.uniform(0.93, 1.07, 3)  # the whole photo's light
    rows: list[list[float]] = []
    tiles_out: list[tuple[list[float], int, Cutout, float]] = []
    for t in tiles:
        m = glob @ t.matrix()
        corners = _paste(canvas, t.cut.image, m, rng)
        res = _box_of(corners)
        if res is None:
            continue
        box, flag = res
        rows.append(box + [flag])
        # where the tile's top points: the direction of its source's "up" edge after the warp
        top = (corners[0] + corners[1]) / 2 - corners.mean(0)
        up_angle = float(np.degrees(np.arctan2(top[0], -top[1])))  # 0 up, 90 right (clockwise)
        tiles_out.append((box, flag, t.cut, up_angle))
    img = np.clip(canvas * light.astype(np.float32), 0, 255).astype(np.uint8)

    boxes = np.array([r[:4] for r in rows], np.float32).reshape(-1, 4)
    sizes = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]) if len(boxes) else np.array([40.0])
    s0 = float(np.median(sizes))
    clutter = _clutter(img, boxes, rng, int(rng.integers(0, 4)), max(s0, 20.0))
    img = np.ascontiguousarray(_photometric(img, rng))

    crop_boxes, meta = [], []
    stats = {"tiles": 0, "ignore": 0, "tile_crops": 0, "none_crops": 0, kind: 1}
    for box, flag, cut, up_angle in tiles_out:
        stats["tiles" if flag else "ignore"] += 1
        x1, y1, x2, y2 = box
        whole = flag and x1 > 0 and y1 > 0 and x2 < SIZE and y2 < SIZE
        if not whole:
            continue
        orient = -1
        if cut.orient >= 0:
            orient = (cut.orient + int(np.round(up_angle / 90.0))) % 4
        for _ in range(2):
            crop_boxes.append(jitter_box(box, rng))
            meta.append((cut.cls, orient, 1 if cut.code == BACK else 0))
            stats["tile_crops"] += 1
    # "none": clutter and bare table, well away from every tile
    centres = [p.mean(0) for p in clutter] + [rng.uniform(0, SIZE, 2) for _ in range(3)]
    for c in centres:
        s = s0 * rng.uniform(0.7, 1.4)
        b = [float(c[0]) - s * 0.38, float(c[1]) - s / 2, float(c[0]) + s * 0.38, float(c[1]) + s / 2]
        if _far(b, boxes):
            crop_boxes.append(b)
            meta.append((CLASS_INDEX[NONE], -1, 0))
            stats["none_crops"] += 1
    if crop_boxes:
        crops = square_crops(img, np.array(crop_boxes, np.float32))
    else:
        crops = np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8)
    det_rows = [[round(v, 2) for v in r[:4]] + [int(r[4])] for r in rows]
    return idx, img, det_rows, crops, np.array(meta, np.int16).reshape(-1, 3), stats


def build(cuts: list[Cutout], out: str, images: int, seed: int = SEED, workers: int = 1) -> dict:
    """Compose `images` images from `cuts` into `out` (the formats of training.real_data)."""
    if not cuts:
        raise ValueError("no cut-outs to paste")
    os.makedirs(out, exist_ok=True)
    set_cutouts(cuts)
    OPTIONS["seed"] = seed
    n = images
    det = np.lib.format.open_memmap(os.path.join(out, "det_images.npy"), "w+", np.uint8, (n, SIZE, SIZE, 3))
    det_boxes: list = [None] * n
    crop_parts: list = [None] * n
    meta_parts: list = [None] * n
    stats: dict = {"images": n, "cutouts": len(cuts), "seed": seed, "tiles": 0, "ignore": 0, "tile_crops": 0,
                   "none_crops": 0, "row": 0, "closeup": 0, "pile": 0}
    t0 = time.time()

    def take(res) -> None:
        idx, img, rows, crops, meta, st = res
        det[idx] = img
        det_boxes[idx] = rows
        crop_parts[idx] = crops
        meta_parts[idx] = meta
        for k, v in st.items():
            stats[k] += v

    if workers > 1:
        with mp.get_context("fork").Pool(workers) as pool:
            for k, res in enumerate(pool.imap_unordered(make_image, range(n), chunksize=8)):
                take(res)
                if k % 200 == 0:
                    print(f"{k}/{n} images, {time.time() - t0:.0f} s", flush=True)
    else:
        for k in range(n):
            take(make_image(k))
            if k % 200 == 0:
                print(f"{k}/{n} images, {time.time() - t0:.0f} s", flush=True)
    det.flush()
    with open(os.path.join(out, "det_boxes.json"), "w") as f:
        json.dump(det_boxes, f)
    np.save(os.path.join(out, "cls_crops.npy"),
            np.concatenate(crop_parts) if n else np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8))
    np.save(os.path.join(out, "cls_meta.npy"), np.concatenate(meta_parts) if n else np.zeros((0, 3), np.int16))
    stats["seconds"] = round(time.time() - t0, 1)
    with open(os.path.join(out, "stats.json"), "w") as f:
        json.dump(stats, f, indent=1)
    return stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", help="labelled real-photo folders (labels.jsonl); only their train scenes are used")
    ap.add_argument("--out", default="training/work/copy_paste")
    ap.add_argument("--images", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=SEED, help="image i is drawn from (seed, i)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--label-fixes", action="store_true",
                    help="apply training/label_fixes.json (train.sh does, as the shipped classifier was trained)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    t0 = time.time()
    photos = train_photos(args.folders, args.label_fixes)
    cuts = load_cutouts(photos)
    print(f"{len(cuts)} cut-outs from {len(photos)} train photos, {time.time() - t0:.0f} s", flush=True)
    print(json.dumps(build(cuts, args.out, args.images, args.seed, args.workers)))


if __name__ == "__main__":
    main()
