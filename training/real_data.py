"""Training arrays from real labelled photos (the train scenes of training.datasets' split).

    python -m training.real_data --out training/work/real DIR [DIR ...]

Writes, in the formats of training.build_data (so the trainers take both):
    det_images.npy  uint8 (N, 512, 512, 3)  each photo resized to the detector's working size
    det_boxes.json  per image [[x1, y1, x2, y2, flag]]: 1 a labelled tile, 0 "ignore"
    cls_crops.npy   uint8 (M, 64, 64, 3)    crops of labelled tiles (jittered), and
                                            background far from every tile ("none")
    cls_meta.npy    int16 (M, 3)            class, orientation (-1: unknown), half-turn flag

Real labels are incomplete in two ways, and neither may teach the detector that a tile is
background:
- tiles that are no riichi tile (flowers, seasons; `non_mpsz_boxes`) are "ignore";
- photos labelled for detection only (`"use": "detection"`) box only the hand row, and even the
  complete folder misses some tiles. Every place where the current models (the teacher) find a
  tile that no label covers is "ignore" when the teacher reads it as a tile, so only what the
  teacher itself takes for background stays background.
Classifier crops come from completely labelled photos and from players' confirmed corrections
(`"source": "contribution"`); other `"use": "detection"` photos are for detection only, as their
SOURCE.md says.
"""
from __future__ import annotations

import argparse
import json
import os

import cv2
import numpy as np

from recognition.preprocess import CROP_SIZE, square_crops
from training.boxes import jitter_box
from training.datasets import LabelledPhoto, load_real
from training.labels import BACK, CLASS_INDEX, NONE

DET_SIZE = 512
SEED = 20261123


def _iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    from recognition.detect import iou_matrix

    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)), np.float32)
    return iou_matrix(np.asarray(a, np.float32), np.asarray(b, np.float32))


def _centre_inside(boxes: np.ndarray, regions: np.ndarray, grow: float = 0.0) -> np.ndarray:
    if len(boxes) == 0 or len(regions) == 0:
        return np.zeros(len(boxes), bool)
    cx = (boxes[:, 0] + boxes[:, 2]) / 2
    cy = (boxes[:, 1] + boxes[:, 3]) / 2
    gw = (regions[:, 2] - regions[:, 0]) * grow
    gh = (regions[:, 3] - regions[:, 1]) * grow
    inside = ((cx[:, None] >= regions[None, :, 0] - gw) & (cx[:, None] <= regions[None, :, 2] + gw)
              & (cy[:, None] >= regions[None, :, 1] - gh) & (cy[:, None] <= regions[None, :, 3] + gh))
    return inside.any(1)


def build(photos: list[LabelledPhoto], out: str, crops_per_tile: int = 3, teacher: str | None = None) -> dict:
    """`teacher`: a folder with detector.onnx and classifier.onnx (the models trained on synthetic
    scenes), or None for no teacher (then unlabelled tiles would be taught as background)."""
    os.makedirs(out, exist_ok=True)
    rec = None
    if teacher:
        from recognition.pipeline import Recognizer

        rec = Recognizer.from_directory(teacher, threads=1)
    rng = np.random.default_rng(SEED)
    n = len(photos)
    det = np.lib.format.open_memmap(os.path.join(out, "det_images.npy"), "w+", np.uint8, (n, DET_SIZE, DET_SIZE, 3))
    det_boxes, crops, metas = [], [], []
    stats = {"photos": n, "positives": 0, "ignore_flowers": 0, "ignore_teacher": 0, "none_crops": 0, "tile_crops": 0}
    reject = None
    for i, ph in enumerate(photos):
        bgr = cv2.imread(ph.path, cv2.IMREAD_COLOR)
        img = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        h, w = img.shape[:2]
        sx, sy = DET_SIZE / w, DET_SIZE / h
        det[i] = cv2.resize(img, (DET_SIZE, DET_SIZE), interpolation=cv2.INTER_AREA)
        labelled = np.array([b for _, b in ph.boxes or []], np.float32).reshape(-1, 4)
        flowers = np.array(ph.ignore, np.float32).reshape(-1, 4)
        rows = [[x1 * sx, y1 * sy, x2 * sx, y2 * sy, 1] for x1, y1, x2, y2 in labelled]
        rows += [[x1 * sx, y1 * sy, x2 * sx, y2 * sy, 0] for x1, y1, x2, y2 in flowers]
        stats["positives"] += len(labelled)
        stats["ignore_flowers"] += len(flowers)
        if rec is not None:
            boxes = rec.detect(img)
            if len(boxes):
                probs, _ = rec.classify(img, boxes)
                if reject is None:
                    reject = rec.labels.index(rec.reject_label)
                known = np.concatenate([labelled, flowers]) if len(flowers) else labelled
                covered = (_iou(boxes[:, :4], known).max(1) > 0.3 if len(known) else np.zeros(len(boxes), bool))
                covered |= _centre_inside(boxes[:, :4], known)
                tile_like = probs[:, reject] < 0.5
                for k in np.nonzero(~covered)[0]:
                    x1, y1, x2, y2 = boxes[k, :4]
                    if tile_like[k]:  # maybe an unlabelled tile: neither tile nor background
                        rows.append([x1 * sx, y1 * sy, x2 * sx, y2 * sy, 0])
                        stats["ignore_teacher"] += 1
        det_boxes.append(rows)
        if ph.classify:  # classifier crops: labelled tiles
            bx, mt = [], []
            for code, box in ph.boxes or []:
                cls = CLASS_INDEX[BACK if code == "back" else code]
                for _ in range(crops_per_tile):
                    bx.append(jitter_box(box, rng))
                    mt.append((cls, -1, 0))
            # background crops well away from every tile (labelled or found by the teacher)
            sizes = (labelled[:, 2:] - labelled[:, :2]).max(1) if len(labelled) else np.array([60.0])
            s_med = float(np.median(sizes))
            for _ in range(4):
                s = s_med * rng.uniform(0.7, 1.4)
                cx, cy = rng.uniform(0, w), rng.uniform(0, h)
                b = np.array([[cx - s * 0.38, cy - s / 2, cx + s * 0.38, cy + s / 2]], np.float32)
                near = np.concatenate([labelled, flowers]) if len(flowers) else labelled
                if len(near) and (_iou(b, near).max() > 0.02 or _centre_inside(b, near, 0.6)[0]):
                    continue
                if rec is not None and len(boxes) and _iou(b, boxes[:, :4]).max() > 0.02:
                    continue
                bx.append(b[0].tolist())
                mt.append((CLASS_INDEX[NONE], -1, 0))
                stats["none_crops"] += 1
            if bx:
                crops.append(square_crops(img, np.array(bx, np.float32)))
                metas.append(np.array(mt, np.int16))
                stats["tile_crops"] += len(bx)
        if i % 100 == 0:
            print(f"{i}/{n} photos", flush=True)
    det.flush()
    with open(os.path.join(out, "det_boxes.json"), "w") as f:
        json.dump([[[round(float(v), 2) for v in r] for r in rows] for rows in det_boxes], f)
    np.save(os.path.join(out, "cls_crops.npy"), np.concatenate(crops) if crops else np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8))
    np.save(os.path.join(out, "cls_meta.npy"), np.concatenate(metas) if metas else np.zeros((0, 3), np.int16))
    with open(os.path.join(out, "stats.json"), "w") as f:
        json.dump(stats, f, indent=1)
    return stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--out", default="training/work/real")
    ap.add_argument("--split", default="train", choices=("train", "all"))
    ap.add_argument("--teacher", default="models", help="folder of the teacher's ONNX models ('' for none)")
    ap.add_argument("--label-fixes", action="store_true",
                    help="apply training/label_fixes.json (train.sh does, as the shipped classifier was trained)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    # photos stretched by their export stay in: they still teach where tiles are
    photos = load_real(args.folders, args.split, keep_stretched=True, label_fixes=args.label_fixes)
    print(json.dumps(build(photos, args.out, teacher=args.teacher or None)))


if __name__ == "__main__":
    main()
