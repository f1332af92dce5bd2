"""The detector's output map as numpy arrays, for training and evaluation code: the decoding itself
is recognition.reading's (the one reader, run on the server and on the phone)."""
from __future__ import annotations

import numpy as np

from recognition import reading

STRIDE = reading.STRIDE


def decode(out: np.ndarray, threshold: float = 0.3, max_boxes: int = 150, stride: int = STRIDE) -> np.ndarray:
    """(5, gh, gw) map -> (n, 5) float32 rows [x1, y1, x2, y2, score] in input pixels, best first,
    after non-maximum suppression (recognition.reading.decode)."""
    _, gh, gw = out.shape
    boxes = reading.decode(np.asarray(out, np.float32).ravel().tolist(), gh, gw, threshold, max_boxes, stride)
    return np.array(boxes, np.float32).reshape(-1, 5)


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
    return np.array(reading.nms(np.asarray(boxes, np.float64).tolist(), np.asarray(scores, np.float64).tolist(), iou),
                    np.int64)
