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
    """Without `rotate`, `sample` draws the random numbers and cuts the crops that it did before
    turned crops existed (stage 2's detector is trained so): the numbers below were drawn by the
    code of commit 43e2548, ten crops from seed 5, then one more number from the generator."""
    img = np.full((512, 512, 3), 90, np.uint8)
    boxes = [[180, 170, 220, 230, 1], [300, 100, 340, 160, 0]]
    rng = np.random.default_rng(5)
    first = [sample(img, boxes, 256, rng, 0.25)[1] for _ in range(10)][:2]
    assert np.allclose(first[0], [[159.219, 164.328, 222.031, 221.359, 1.0], [232.5, -6.766, 295.312, 50.266, 0.0]], atol=1e-3)
    assert np.allclose(first[1], [[182.223, 132.891, 252.184, 162.422, 1.0], [100.602, 221.484, 170.562, 251.016, 0.0]], atol=1e-3)
    assert rng.random() == 0.6842052123845983


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
