"""A photo of a table with no tiles on it gives no tiles: felt, a wooden edge, a notebook, a
phone, point sticks, dice, a mug and a hand. The scenes are drawn here with their own code (not the
training's distractor drawing), at a phone photo's size, and sent as JPEG like an upload."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from recognition.pipeline import get_recognizer


def _table_photo(seed: int) -> bytes:
    rng = np.random.default_rng(1000 + seed)
    h, w = 1512, 2016
    felt = np.array([(40, 110, 60), (30, 60, 120), (120, 40, 40), (150, 120, 90)][seed % 4], np.float32)
    img = np.clip(felt + rng.normal(0, 9, (h, w, 3)), 0, 255).astype(np.uint8)
    img = cv2.GaussianBlur(img, (5, 5), 0)
    cv2.rectangle(img, (0, h - 260), (w, h), (140, 95, 60), -1)  # the table's wooden edge
    for y in range(h - 260, h, 14):
        cv2.line(img, (0, y), (w, y + int(rng.integers(-8, 8))), (120, 80, 50), 2)
    x, y = int(rng.integers(100, 600)), int(rng.integers(100, 500))  # a notebook
    cv2.rectangle(img, (x, y), (x + 420, y + 560), (245, 245, 240), -1)
    for k in range(14):
        cv2.line(img, (x + 30, y + 40 + k * 35), (x + 30 + int(rng.integers(200, 360)), y + 40 + k * 35), (40, 40, 40), 3)
    cv2.rectangle(img, (1300, 300), (1520, 760), (20, 20, 25), -1)  # a phone
    cv2.rectangle(img, (1315, 330), (1505, 730), (70, 90, 120), -1)
    for k in range(5):  # point sticks
        y0 = 900 + k * 40
        cv2.rectangle(img, (1100, y0), (1700, y0 + 16), (250, 250, 250), -1)
        cv2.circle(img, (1400, y0 + 8), 6, (200, 30, 30), -1)
    for k in range(2):  # dice
        cx = 700 + k * 90
        cv2.rectangle(img, (cx, 1000), (cx + 60, 1060), (250, 250, 250), -1)
        cv2.circle(img, (cx + 30, 1030), 8, (30, 30, 200), -1)
    cv2.circle(img, (1800, 200), 110, (230, 230, 225), -1)  # a mug seen from above
    cv2.circle(img, (1800, 200), 85, (90, 60, 40), -1)
    cv2.ellipse(img, (300, 1150), (170, 100), 20, 0, 360, (200, 155, 125), -1)  # a hand
    ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(img[..., ::-1]), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()


@pytest.mark.parametrize("seed", range(6))
def test_a_table_without_tiles_gives_no_tiles(seed):
    result = get_recognizer().recognize(_table_photo(seed))
    assert [t.tile for t in result.tiles] == []
