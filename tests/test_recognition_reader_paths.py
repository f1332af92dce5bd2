"""The reader's pairwise loops run for every pair of boxes, several times a photo and on every
camera frame (under Pyodide), so they are written for speed: no builtin calls in their inner
loops, pairs skipped whose answer is known. Each is checked here against its plain definition, on
random boxes that overlap, touch, nest and lie apart (degenerate ones too), to the same numbers."""
from __future__ import annotations

import math
import random

import pytest

from recognition import reading, scales


def _boxes(rng: random.Random, n: int) -> list[tuple[float, float, float, float, float]]:
    out = []
    for _ in range(n):
        x, y = rng.choice([rng.uniform(0, 300), float(rng.randrange(0, 300, 20))]), rng.uniform(0, 300)
        w, h = rng.choice([rng.uniform(0, 60), 20.0, 0.0]), rng.choice([rng.uniform(5, 80), 28.0])
        out.append((x, y, x + w, y + h, rng.random()))
    return out


def _gap(a, b):
    return math.hypot(max(a[0] - b[2], b[0] - a[2], 0.0), max(a[1] - b[3], b[1] - a[3], 0.0))


def _iou(a, b):
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / max((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter, 1e-6)


def _nms(boxes, scores, threshold):
    keep: list[int] = []
    for j in sorted(range(len(scores)), key=lambda i: -scores[i]):
        if all(_iou(boxes[i], boxes[j]) <= threshold for i in keep):
            keep.append(j)
    return keep


def _tile_size(boxes, rule=scales.DEFAULT_RULE):
    sized = [(scales.side(b), max(b[4], 1e-3)) for b in boxes if scales.side(b) > 0]
    if not sized:
        return None
    best, members = None, []
    for s, _ in sized:
        group = [(t, w) for t, w in sized if abs(math.log(t / s)) <= math.log(rule.cluster)]
        if best is None or (sum(w for _, w in group), s) > best:
            best, members = (sum(w for _, w in group), s), group
    return scales._weighted_median([t for t, _ in members], [w for _, w in members])


def _clusters(n, joined):
    groups: list[set[int]] = [{i} for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if joined(i, j):
                gi = next(g for g in groups if i in g)
                gj = next(g for g in groups if j in g)
                if gi is not gj:
                    gi |= gj
                    groups.remove(gj)
    return sorted((sorted(g) for g in groups), key=lambda g: g[0])


@pytest.mark.parametrize("seed", range(12))
def test_the_fast_pairwise_paths_give_the_plain_definitions_numbers(seed):
    rng = random.Random(seed)
    boxes = _boxes(rng, rng.randrange(2, 60))
    scores = [b[4] for b in boxes]
    for a in boxes:
        for b in boxes:
            assert scales._gap(a, b) == _gap(a, b)
            assert reading.iou(a, b) == _iou(a, b)
    assert reading.nms(boxes, scores, 0.5) == _nms(boxes, scores, 0.5)
    assert scales.tile_size(boxes) == _tile_size(boxes)
    # sizes on the band's edges, where the logarithm decides
    edge = [(0.0, 0.0, 20.0, 20.0, 1.0), (0.0, 0.0, 20.0 * scales.DEFAULT_RULE.cluster, 20.0, 1.0),
            (0.0, 0.0, 20.0 * scales.DEFAULT_RULE.cluster ** 2, 20.0, 0.5)]
    assert scales.tile_size(edge) == _tile_size(edge)
    near = rng.uniform(5, 40)
    assert scales.clusters(len(boxes), lambda i, j: scales._gap(boxes[i], boxes[j]) < near) == _clusters(
        len(boxes), lambda i, j: _gap(boxes[i], boxes[j]) < near)
    kept = list(range(len(boxes)))
    size = scales.tile_size(boxes)
    if size is not None and len(kept) > 3:
        far = [c for c in kept if min(_gap(boxes[c], boxes[k]) for k in kept if k != c) > 5.0 * size]
        assert scales.far_apart(boxes, kept) == far
    for contain, same in ((0.8, None), (0.8, 0.5), (0.0, 0.5), (0.8, 0.0)):
        codes = [rng.choice("ab") for _ in boxes]
        assert reading.drop_duplicates(boxes, scores, 0.45, contain, codes, same) == _drop_duplicates(
            boxes, scores, 0.45, contain, codes, same)


def _drop_duplicates(boxes, scores, threshold, contain, codes, same_contain):
    keep: list[int] = []
    for j in sorted(range(len(scores)), key=lambda i: -scores[i]):
        b = boxes[j]
        area = max((b[2] - b[0]) * (b[3] - b[1]), 1e-6)
        if not any(_iou(boxes[i], b) > threshold
                   or _inter(boxes[i], b) / area > contain
                   or (same_contain is not None and codes[i] == codes[j]
                       and _inter(boxes[i], b) / min(area, max((boxes[i][2] - boxes[i][0]) * (boxes[i][3] - boxes[i][1]), 1e-6))
                       >= same_contain)
                   for i in keep):
            keep.append(j)
    return keep


def _inter(a, b):
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def test_the_first_of_equal_readings_is_the_tile_read():
    assert reading._as_tile([0.2, 0.4, 0.4, 0.9], 3) == (1, pytest.approx(0.4))  # "no tile" (3) left out
    assert reading._as_tile([0.3, 0.3, 0.3, 0.1], 1) == (0, pytest.approx(0.3 / 0.7))
