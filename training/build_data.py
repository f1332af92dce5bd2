"""Render the synthetic training set: detector images with boxes, and classifier crops.

    python -m training.build_data --scenes 6000 --out training/work/data [--workers 2]

Scene i is drawn from numpy's Generator seeded with (SEED, i), so the data do not depend on the
number of workers or on the order they finish in. Output (all under --out):
    det_images.npy  uint8 (N, 512, 384, 3)   detector inputs (landscape scenes turned a quarter)
    det_boxes.json  per image: [[x1, y1, x2, y2, positive(1) / ignore(0)], ...]
    cls_crops.npy   uint8 (M, 64, 64, 3)     classifier crops, made by recognition.preprocess
    cls_meta.npy    int16 (M, 3)             class index, orientation (-1 unknown), orientation
                                             known only up to a half turn (1 for backs)
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import time

import cv2
import numpy as np

from recognition.preprocess import CROP_SIZE, square_crops
from training import backgrounds
from training.boxes import jitter_box
from training.labels import BACK, CLASS_INDEX, NONE
from training.render import random_scene, render

SEED = 20261122
DET_W, DET_H = 384, 512
RENDER_SHORT, RENDER_LONG = 768, 1024

_bank = None
# set by main() before the workers fork: the scene seed, the artwork stage's wider sources, and
# the share of tiles that also give a crop of part of their face (class none)
OPTIONS = {"seed": SEED, "wide": False, "fragments": 0.0, "keyboards": 0.12, "art_sources": None}


def _get_bank():
    global _bank
    if _bank is None:
        from training.textures import TextureBank

        sources = OPTIONS["art_sources"]
        _bank = TextureBank(wide=bool(OPTIONS["wide"]), art_sources=tuple(sources) if sources else None)
    return _bank


def fragment_box(quad: np.ndarray, rng: np.random.Generator) -> list[float]:
    """The box of part of a tile's face (quad: TL, TR, BR, BL as seen glyph-up): its upper or
    lower 30-55% (one group of a pinzu's pips, a manzu's numeral). A detector that boxes such a
    part must hear "not a tile" from the classifier. (Left or right halves are not used: their
    square crop holds the whole tile, barely off centre. Blank parts, and haku, are not used
    either (`_inked`): a blank ivory face is haku, a tile.)"""
    tl, tr, br, bl = (np.asarray(p, np.float64) for p in quad)
    t = rng.uniform(0.3, 0.55)
    if rng.random() < 0.5:
        part = [tl, tr, tr + (br - tr) * t, tl + (bl - tl) * t]
    else:
        part = [bl + (tl - bl) * t, br + (tr - br) * t, br, bl]
    pts = np.array(part)
    x1, y1 = pts.min(0)
    x2, y2 = pts.max(0)
    return [float(x1), float(y1), float(x2), float(y2)]


def _iou(a, b):
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    ua = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / max(ua, 1e-6)


def _inked(img: np.ndarray, box: list[float]) -> bool:
    """Does the part of the image in `box` carry ink (not one flat colour)?"""
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    patch = img[max(y1, 0):max(y2, 0), max(x1, 0):max(x2, 0)]
    return patch.size > 0 and float(cv2.cvtColor(patch, cv2.COLOR_RGB2GRAY).std()) > 18.0


def make_sample(idx: int):
    backgrounds.KEYBOARD_SHARE = float(OPTIONS["keyboards"])
    rng = np.random.default_rng([int(OPTIONS["seed"]), idx])
    portrait = rng.random() < 0.6
    size = (RENDER_SHORT, RENDER_LONG) if portrait else (RENDER_LONG, RENDER_SHORT)
    scene = random_scene(rng, size)
    img, labels = render(scene, _get_bank(), rng)

    # classifier crops, from the full-resolution render as at run time
    boxes, meta = [], []
    positives = [lab for lab in labels if lab.status == "positive"]
    for lab in labels:
        if lab.status == "positive":
            orient = int(np.round(lab.up_angle / 90.0)) % 4
            for _ in range(2):
                boxes.append(jitter_box(lab.box, rng, 0.06))
                meta.append((CLASS_INDEX[lab.code], orient, 1 if lab.code == BACK else 0))
            if OPTIONS["fragments"] and lab.code not in (BACK, "5z") and rng.random() < float(OPTIONS["fragments"]):
                part = fragment_box(lab.quad, rng)
                if _inked(img, part):  # a blank part looks like haku, which is a tile
                    boxes.append(part)
                    meta.append((CLASS_INDEX[NONE], -1, 0))
        elif lab.status == "negative" and lab.box[2] - lab.box[0] > 4 and lab.visible > 0.5:
            boxes.append(jitter_box(lab.box, rng, 0.06))  # a tile on its edge, or seen edge-on
            meta.append((CLASS_INDEX[NONE], -1, 0))
    w, h = size
    for _ in range(3):  # background
        s = rng.uniform(25, 160)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        b = [cx - s * 0.38, cy - s / 2, cx + s * 0.38, cy + s / 2]
        if all(_iou(b, lab.box) < 0.1 for lab in labels):
            boxes.append(b)
            meta.append((CLASS_INDEX[NONE], -1, 0))
    if len(positives) >= 2 and rng.random() < 0.5:  # straddling two neighbours
        a, b = rng.choice(len(positives), 2, replace=False)
        pa, pb = positives[a].box, positives[b].box
        ca = np.array([(pa[0] + pa[2]) / 2, (pa[1] + pa[3]) / 2])
        cb = np.array([(pb[0] + pb[2]) / 2, (pb[1] + pb[3]) / 2])
        wa, ha = pa[2] - pa[0], pa[3] - pa[1]
        if np.linalg.norm(ca - cb) < 1.6 * max(wa, ha):
            c = (ca + cb) / 2
            bb = [c[0] - wa / 2, c[1] - ha / 2, c[0] + wa / 2, c[1] + ha / 2]
            if all(_iou(bb, p.box) < 0.35 for p in positives):
                boxes.append(bb)
                meta.append((CLASS_INDEX[NONE], -1, 0))
    crops = square_crops(img, np.array(boxes, np.float32)) if boxes else np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8)

    # detector image at half scale, always portrait
    det = cv2.resize(img, (size[0] // 2, size[1] // 2), interpolation=cv2.INTER_AREA)
    det_boxes = []
    for lab in labels:
        if lab.status == "negative":
            continue
        x1, y1, x2, y2 = (v / 2 for v in lab.box)
        if x2 - x1 < 1 or y2 - y1 < 1:
            continue
        det_boxes.append([x1, y1, x2, y2, 1 if lab.status == "positive" else 0])
    if not portrait:  # turn a quarter clockwise: (x, y) -> (H - 1 - y, x) with H the old height
        old_h = det.shape[0]
        det = cv2.rotate(det, cv2.ROTATE_90_CLOCKWISE)
        det_boxes = [[old_h - y2, x1, old_h - y1, x2, p] for x1, y1, x2, y2, p in det_boxes]
    return idx, det, det_boxes, crops, np.array(meta, np.int16).reshape(-1, 3)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", type=int, default=6000)
    ap.add_argument("--out", default="training/work/data")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=SEED, help="scene i is drawn from (seed, i)")
    ap.add_argument("--wide", action="store_true",
                    help="the artwork stage: faces also from training.artwork, tables that are keyboards")
    ap.add_argument("--fragments", type=float, default=0.0,
                    help="share of face-up tiles that also give a crop of part of their face, as class none")
    ap.add_argument("--keyboards", type=float, default=0.12, help="with --wide: share of tables that are keyboards")
    ap.add_argument("--art-sources", default=None,
                    help="with --wide: the training.artwork sources drawn, comma-separated (default: "
                         "fonts,haku,pins,sticks,unicode; also: styled, bars); a tile no chosen source draws keeps "
                         "the usual artwork")
    args = ap.parse_args()
    OPTIONS.update(seed=args.seed, wide=args.wide, fragments=args.fragments, keyboards=args.keyboards,
                   art_sources=args.art_sources.split(",") if args.art_sources else None)
    os.makedirs(args.out, exist_ok=True)
    cv2.setNumThreads(1)
    n = args.scenes
    det_images = np.lib.format.open_memmap(os.path.join(args.out, "det_images.npy"), "w+", np.uint8, (n, DET_H, DET_W, 3))
    det_boxes: list = [None] * n
    crops_parts: list = [None] * n
    meta_parts: list = [None] * n
    t0 = time.time()
    _get_bank()  # drawn once here (about 10 s), and the forked workers share it, rather than each drawing its own
    # chunks of up to 8 scenes, at least four per worker: a small run's scenes shared evenly
    chunk = max(1, min(8, n // (4 * args.workers)))
    with mp.get_context("fork").Pool(args.workers) as pool:
        for k, (idx, det, boxes, crops, meta) in enumerate(pool.imap_unordered(make_sample, range(n), chunksize=chunk)):
            det_images[idx] = det
            det_boxes[idx] = boxes
            crops_parts[idx] = crops
            meta_parts[idx] = meta
            if k % 200 == 0:
                print(f"{k}/{n} scenes, {time.time() - t0:.0f} s", flush=True)
    det_images.flush()
    with open(os.path.join(args.out, "det_boxes.json"), "w") as f:
        json.dump(det_boxes, f)
    np.save(os.path.join(args.out, "cls_crops.npy"), np.concatenate(crops_parts))
    np.save(os.path.join(args.out, "cls_meta.npy"), np.concatenate(meta_parts))
    print(f"done: {n} scenes, {sum(len(m) for m in meta_parts)} crops, {time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
