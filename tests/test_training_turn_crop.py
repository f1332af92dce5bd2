"""The detector's turned-crop augmentation (training.train_detector.sample's `rotate`, turn_crop)."""
from __future__ import annotations

import math

import numpy as np

from training.train_detector import sample, turn_crop


def _scene(size: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """A grey table with one white tile, 40 x 60 px, standing level, and its box."""
    img = np.full((size, size, 3), 90, np.uint8)
    box = np.array([[180, 170, 220, 230, 1]], np.float32)
    x1, y1, x2, y2 = box[0, :4].astype(int)
    img[y1:y2, x1:x2] = 255
    return img, box


def _white_extent(img: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(img[..., 0] > 170)
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def test_a_level_tile_turned_is_boxed_by_its_turned_corners():
    img, box = _scene()
    for angle in (30.0, -20.0, 45.0):
        out, turned = turn_crop(img, box, angle, 256)
        assert out.shape == (256, 256, 3)
        r = math.radians(abs(angle))
        # the upright box of a 40 x 60 rectangle turned by the angle, no larger
        assert math.isclose(turned[0, 2] - turned[0, 0], 40 * math.cos(r) + 60 * math.sin(r), rel_tol=1e-4)
        assert math.isclose(turned[0, 3] - turned[0, 1], 40 * math.sin(r) + 60 * math.cos(r), rel_tol=1e-4)
        # and it lies where the tile's pixels went (to a pixel of interpolation)
        assert np.allclose(_white_extent(out), turned[0, :4], atol=1.5)
        assert turned[0, 4] == 1


def test_the_turned_crop_shows_only_the_photo():
    """The square turned is cut from a larger one, so no corner of the crop is filled in."""
    img = np.full((400, 400, 3), 200, np.uint8)
    out, _ = turn_crop(img, np.zeros((0, 5), np.float32), 40.0, 256)
    assert (out == 200).all()


def test_off_it_draws_the_same_crops_as_before():
    """Without `rotate` the crops and the random numbers are those of the recipes before it
    (stage 2's detector is trained so)."""
    img, box = _scene(512)
    boxes = box.tolist()
    a, b = np.random.default_rng(5), np.random.default_rng(5)
    for _ in range(10):
        im1, b1 = sample(img, boxes, 256, a, 0.25)
        im2, b2 = sample(img, boxes, 256, b, 0.25, 0.0, 40.0)
        assert np.array_equal(im1, im2) and np.array_equal(b1, b2)
    assert a.random() == b.random()


def test_with_it_some_crops_are_turned_and_their_tile_boxed():
    img, box = _scene(512)
    rng = np.random.default_rng(7)
    turned = 0
    for _ in range(40):
        im, b = sample(img, box.tolist(), 256, rng, 0.0, 1.0, 40.0)
        assert im.shape == (256, 256, 3)
        whole = b[(b[:, 4] == 1) & (b[:, :2] >= 0).all(1) & (b[:, 2:4] <= 256).all(1)]  # whole in the crop
        if len(whole):
            x1, y1, x2, y2 = _white_extent(im)
            # the box found is the tile's, turned (the crop's flips and quarter turns included)
            assert np.allclose((x1, y1, x2, y2), whole[0, :4], atol=2.0)
            w, h = whole[0, 2] - whole[0, 0], whole[0, 3] - whole[0, 1]
            # level or a quarter turn, the box keeps the tile's 2:3 (no stretch asked); turned, squarer
            turned += min(w, h) / max(w, h) > 0.72
    assert turned >= 10
