"""Box helpers the training data builders share (numpy only)."""
from __future__ import annotations

import numpy as np


def jitter_box(box, rng: np.random.Generator, amount: float = 0.06) -> list[float]:
    """A box moved and resized at random (normal, `amount` of its size), as a detector's box
    misses a tile a little: classifier crops are cut from such boxes."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx = (x1 + x2) / 2 + rng.normal(0, amount) * w
    cy = (y1 + y2) / 2 + rng.normal(0, amount) * h
    s = np.exp(rng.normal(0, amount * 1.2))
    w, h = w * s * np.exp(rng.normal(0, amount / 2)), h * s * np.exp(rng.normal(0, amount / 2))
    return [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]
