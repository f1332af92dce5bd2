"""OpenCV preprocessing: resize with a recorded transform, and square crops around boxes.

Every function takes and returns numpy arrays (RGB uint8 images, float boxes), so each can be
tested without a model. Transforms are recorded so boxes map back to the original image.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

CROP_SIZE = 64  # classifier input, pixels
CROP_CONTEXT = 1.2  # crop side = CROP_CONTEXT x the longer side of the box


@dataclass(frozen=True)
class Resize:
    """An aspect-preserving resize to a network input padded to a multiple of `stride`.

    `scale` maps input pixels to network pixels; `size` is the network input (w, h)."""

    scale: float
    size: tuple[int, int]
    content: tuple[int, int]  # (w, h) of the resized image inside the padded input

    def to_source(self, boxes: np.ndarray) -> np.ndarray:
        """Boxes (n, 4) in network pixels -> boxes in the resized function's input pixels."""
        return np.asarray(boxes, np.float32) / self.scale


def fitted(w: int, h: int, long_side: int) -> tuple[int, int]:
    """The size a w x h image is scaled to by `fit_resize` (its longer side `long_side`, never up)."""
    scale = min(1.0, long_side / max(h, w))
    return max(1, round(w * scale)), max(1, round(h * scale))


def fit_resize(image: np.ndarray, long_side: int, stride: int = 32) -> tuple[np.ndarray, Resize]:
    """Scale `image` so its longer side is `long_side` (never up), pad right/bottom with grey to a
    multiple of `stride`. Area interpolation when shrinking, so small tiles keep their outline."""
    h, w = image.shape[:2]
    cw, ch = fitted(w, h, long_side)
    if (cw, ch) != (w, h):
        resized = cv2.resize(image, (cw, ch), interpolation=cv2.INTER_AREA)
    else:
        resized = image
    pw, ph = -(-cw // stride) * stride, -(-ch // stride) * stride
    if (pw, ph) != (cw, ch):
        resized = cv2.copyMakeBorder(resized, 0, ph - ch, 0, pw - cw, cv2.BORDER_CONSTANT, value=(114, 114, 114))
    return resized, Resize(scale=cw / w, size=(pw, ph), content=(cw, ch))


def shrink_factor(s: float) -> int:
    """The whole factor a crop's region is averaged down by before a bilinear resample at scale `s`
    (< 0.5): the one that leaves the bilinear step nearest 2/3 (between 0.5 and 1). A whole factor,
    because OpenCV's area filter is ten times faster on whole blocks than on fractions of pixels."""
    return max(2, math.floor(1 / (1.5 * s) + 0.5))


def square_crops(image: np.ndarray, boxes: np.ndarray, size: int = CROP_SIZE,
                 context: float = CROP_CONTEXT) -> np.ndarray:
    """(n, size, size, 3) uint8: for each box a square centred on it, side = context x its longer
    side, resampled to size x size. Outside the image is filled by replicating the border."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    out = np.empty((len(boxes), size, size, 3), np.uint8)
    # in double precision, as the phone (static/js/photo/frame-tensors.js) computes: the region's
    # edges are whole pixels cut from sums that float32 would round the other way
    for i, (x1, y1, x2, y2) in enumerate(boxes.tolist()):
        side = max(x2 - x1, y2 - y1, 1.0) * context
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        s = size / side
        m = np.array([[s, 0, size / 2 - s * cx], [0, s, size / 2 - s * cy]], np.float32)
        source = image
        if s < 0.5:  # bilinear alone would skip pixels: the region is first averaged f x f
            f = shrink_factor(s)
            reach = side / 2 + 3 * f  # the crop's square, and pixels round it for the bilinear filter
            x0, y0 = int(max(cx - reach, 0)), int(max(cy - reach, 0))
            x3, y3 = int(min(cx + reach, image.shape[1])), int(min(cy + reach, image.shape[0]))
            x3, y3 = x0 + (x3 - x0) // f * f, y0 + (y3 - y0) // f * f  # whole blocks: OpenCV's fast path
            if x3 > x0 and y3 > y0:
                source = cv2.resize(image[y0:y3, x0:x3], ((x3 - x0) // f, (y3 - y0) // f),
                                    interpolation=cv2.INTER_AREA)
                # pixel X of the shrunk region is centred on pixel x0 + f X + (f - 1) / 2 of the image
                m = np.array([[s * f, 0, size / 2 - s * (cx - x0 - (f - 1) / 2)],
                              [0, s * f, size / 2 - s * (cy - y0 - (f - 1) / 2)]], np.float32)
        out[i] = cv2.warpAffine(source, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def to_nchw(batch: np.ndarray) -> np.ndarray:
    """uint8 NHWC RGB -> float32 NCHW in [0, 1] (the networks normalise inside). Scaled in place:
    the same float32 products, without a second array."""
    out = batch.transpose(0, 3, 1, 2).astype(np.float32, order="C")  # always a copy of its own
    out *= 1.0 / 255.0
    return out
