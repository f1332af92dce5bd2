"""From classified boxes to tiles in reading order: rows, touching groups, sideways tiles.

Everything here works on plain numbers (boxes, probability vectors), so it is tested with
hand-made inputs. Orientation: 0 = the top of the tile points up in the image, 1 = right,
2 = down, 3 = left (the classifier's second head).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from recognition.detect import iou_matrix


@dataclass(frozen=True)
class Detection:
    """One tile as read: box in original-photo pixels, code ("0m", "back"...), confidence, the
    classifier's other readings, where the top of the tile points, and layout flags."""

    box: tuple[float, float, float, float]
    tile: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...] = ()
    orientation: int = 0
    orientation_confidence: float = 1.0
    sideways: bool = False
    score: float = 1.0  # the detector's

    @property
    def face_down(self) -> bool:
        return self.tile == "back"

    @property
    def center(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return (x1 + x2) / 2, (y1 + y2) / 2

    def to_json(self) -> dict:
        return {
            "tile": self.tile,
            "box": [round(v, 1) for v in self.box],
            "confidence": round(self.confidence, 4),
            "sideways": self.sideways,
            "face_down": self.face_down,
            "alternatives": [{"tile": t, "confidence": round(p, 4)} for t, p in self.alternatives],
        }


@dataclass(frozen=True)
class Layout:
    """Tiles in reading order and the rows (indices into `tiles`) they form; `up` is the
    orientation most tiles share (the direction the row is read in follows from it)."""

    tiles: tuple[Detection, ...]
    rows: tuple[tuple[int, ...], ...]
    up: int = 0
    lines: tuple[tuple[int, ...], ...] = field(default=())  # rows that share a line, as row indices


def dominant_orientation(orient_probs: np.ndarray, weights: np.ndarray | None = None) -> int:
    """The orientation most tiles share. Sideways tiles count against each other, so a pon with
    one turned tile still reads as upright."""
    if len(orient_probs) == 0:
        return 0
    p = np.asarray(orient_probs, np.float64)
    w = np.ones(len(p)) if weights is None else np.asarray(weights, np.float64)
    votes = (p * w[:, None]).sum(0)
    return int(np.argmax(votes))


def _rotate_points(xy: np.ndarray, up: int) -> np.ndarray:
    """Coordinates in a frame where the tiles' top points up: (along the row, across the row)."""
    x, y = xy[:, 0], xy[:, 1]
    if up == 0:
        return np.stack([x, y], 1)
    if up == 1:  # tops point right: read top to bottom, "down the row" is towards -x
        return np.stack([y, -x], 1)
    if up == 2:
        return np.stack([-x, -y], 1)
    return np.stack([-y, x], 1)


def _extents(boxes: np.ndarray, up: int) -> tuple[np.ndarray, np.ndarray]:
    """(along, across) sizes of boxes in the rotated frame."""
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    return (w, h) if up in (0, 2) else (h, w)


def drop_duplicates(boxes: np.ndarray, scores: np.ndarray, iou: float = 0.45, contain: float = 0.8) -> np.ndarray:
    """Indices to keep after removing boxes that mostly repeat a better one (a box that sits
    inside another for `contain` of its area, or overlaps it by `iou`)."""
    n = len(boxes)
    if n == 0:
        return np.zeros(0, np.int64)
    order = np.argsort(-scores, kind="stable")
    b = boxes[order]
    ious = iou_matrix(b, b)
    ix = np.clip(np.minimum(b[:, None, 2], b[None, :, 2]) - np.maximum(b[:, None, 0], b[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(b[:, None, 3], b[None, :, 3]) - np.maximum(b[:, None, 1], b[None, :, 1]), 0, None)
    area = np.maximum((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]), 1e-6)
    inside = ix * iy / area[None, :]  # share of box j inside box i
    keep: list[int] = []
    for j in range(n):
        if any(ious[i, j] > iou or inside[i, j] > contain for i in keep):
            continue
        keep.append(j)
    return order[np.array(keep, np.int64)]


def layout(dets: list[Detection], orient_probs: np.ndarray, gap: float = 0.3, across: float = 0.45) -> Layout:
    """Order tiles into rows. Two tiles join one row when they sit side by side (the gap between
    them under `gap` x the tile width) on one line (their centres across the row closer than
    `across` x the tile height). Rows are read top to bottom, each left to right, in the frame
    where the tiles stand upright; sideways tiles are those turned a quarter from that."""
    n = len(dets)
    if n == 0:
        return Layout((), (), 0, ())
    orient_probs = np.asarray(orient_probs, np.float64).reshape(n, 4)
    boxes = np.array([d.box for d in dets], np.float64)
    faces = np.array([d.tile != "back" for d in dets])
    up = dominant_orientation(orient_probs[faces] if faces.any() else orient_probs)
    centres = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], 1)
    rc = _rotate_points(centres, up)
    along, acr = _extents(boxes, up)
    # a tile's height across the row: the short side for sideways tiles
    unit_w = float(np.median(np.minimum(along, acr)))
    unit_h = float(np.median(np.maximum(along, acr)))

    # sideways: turned a quarter from the row's "up"; face-down tiles go by their shape
    side_prob = orient_probs[:, (up + 1) % 4] + orient_probs[:, (up + 3) % 4]
    sideways = np.where(faces, side_prob > 0.5, along > acr * 1.15)

    # link neighbours
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            d_along = abs(rc[i, 0] - rc[j, 0]) - (along[i] + along[j]) / 2
            d_across = abs(rc[i, 1] - rc[j, 1])
            # boxes may overlap a little (the detector's sizes are approximate), but two tiles
            # side by side have centres apart along the row
            apart = abs(rc[i, 0] - rc[j, 0]) > 0.3 * unit_w
            if d_along < gap * unit_w and apart and d_across < across * unit_h:
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    segs = [sorted(g, key=lambda k: rc[k, 0]) for g in groups.values()]
    # lines: segments whose mean across-position agree, read top to bottom
    seg_y = [float(np.mean(rc[s, 1])) for s in segs]
    seg_x = [float(rc[s[0], 0]) for s in segs]
    order = sorted(range(len(segs)), key=lambda k: seg_y[k])
    lines: list[list[int]] = []
    for k in order:
        if lines and abs(seg_y[k] - np.mean([seg_y[m] for m in lines[-1]])) < 0.6 * unit_h:
            lines[-1].append(k)
        else:
            lines.append([k])
    seg_order: list[int] = []
    line_rows: list[tuple[int, ...]] = []
    for line in lines:
        line.sort(key=lambda k: seg_x[k])
        line_rows.append(tuple(range(len(seg_order), len(seg_order) + len(line))))
        seg_order.extend(line)
    tiles: list[Detection] = []
    rows: list[tuple[int, ...]] = []
    for k in seg_order:
        row = []
        for i in segs[k]:
            d = dets[i]
            tiles.append(Detection(d.box, d.tile, d.confidence, d.alternatives, d.orientation,
                                   d.orientation_confidence, bool(sideways[i]), d.score))
            row.append(len(tiles) - 1)
        rows.append(tuple(row))
    return Layout(tuple(tiles), tuple(rows), up, tuple(line_rows))
