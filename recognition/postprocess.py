"""From classified boxes to tiles in reading order: the numpy-facing names of recognition.reading,
where the layout into rows, the duplicate boxes and the hand are decided (once, for the server
and the phone)."""
from __future__ import annotations

import numpy as np

from recognition import reading
from recognition.reading import Detection, Layout, dominant_orientation, layout


def drop_duplicates(boxes: np.ndarray, scores: np.ndarray, iou: float = 0.45, contain: float = 0.8) -> np.ndarray:
    """Indices to keep after removing boxes that mostly repeat a better one (recognition.reading)."""
    return np.array(reading.drop_duplicates(np.asarray(boxes, np.float64).tolist(),
                                            np.asarray(scores, np.float64).tolist(), iou, contain), np.int64)


__all__ = ["Detection", "Layout", "dominant_orientation", "drop_duplicates", "layout"]
