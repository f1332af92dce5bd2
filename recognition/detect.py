"""Decoding the detector's output map into boxes (numpy only, testable without a model).

The detector outputs, at a quarter of the input resolution, five channels: a centre heat-map
logit, the box size as log(pixels / 4) and the centre's offset inside its cell.
"""
from __future__ import annotations

import cv2
import numpy as np

STRIDE = 4


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def decode(out: np.ndarray, threshold: float = 0.3, max_boxes: int = 150, stride: int = STRIDE) -> np.ndarray:
    """(5, gh, gw) map -> (n, 5) float32 rows [x1, y1, x2, y2, score] in input pixels, best first,
    after non-maximum suppression."""
    heat = _sigmoid(out[0].astype(np.float32))
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    ys, xs = np.nonzero(peaks)
    if len(ys) == 0:
        return np.zeros((0, 5), np.float32)
    scores = heat[ys, xs]
    order = np.argsort(-scores, kind="stable")[:max_boxes]
    ys, xs, scores = ys[order], xs[order], scores[order]
    w = np.exp(np.clip(out[1, ys, xs], -3, 6)) * stride
    h = np.exp(np.clip(out[2, ys, xs], -3, 6)) * stride
    cx = (xs + out[3, ys, xs]) * stride
    cy = (ys + out[4, ys, xs]) * stride
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, scores], 1).astype(np.float32)
    return boxes[nms(boxes[:, :4], boxes[:, 4], 0.5)]


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise IoU of boxes (n, 4) and (m, 4)."""
    ix = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter = ix * iy
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-6)


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices of the boxes kept by greedy non-maximum suppression, best score first."""
    order = np.argsort(-scores, kind="stable")
    if len(order) == 0:
        return order
    ious = iou_matrix(boxes[order], boxes[order])
    keep = []
    suppressed = np.zeros(len(order), bool)
    for i in range(len(order)):
        if suppressed[i]:
            continue
        keep.append(order[i])
        suppressed |= ious[i] > iou
    return np.array(keep, np.int64)
