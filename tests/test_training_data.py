"""The training data builders that real photos go through: real labelled folders become detector
and classifier arrays with unlabelled things set to "ignore", and drawn distractors never cover a
labelled tile."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from training import distractors
from training.datasets import load_folder
from training.labels import CLASS_INDEX, NONE
from training.real_data import DET_SIZE, build


def _folder(tmp_path, use_detection: bool, contribution: bool = False):
    img = np.full((320, 480, 3), (60, 120, 70), np.uint8)
    boxes = []
    for k, code in enumerate(["1m", "0p", "7z"]):
        x = 40 + k * 50
        cv2.rectangle(img, (x, 100), (x + 40, 155), (240, 240, 235), -1)
        boxes.append({"tile": code, "box": [x, 100, x + 40, 155]})
    cv2.imwrite(str(tmp_path / "a.png"), img)
    row = {"image": "a.png", "width": 480, "height": 320, "boxes": boxes,
           "non_mpsz_boxes": [{"source_class": "bf1", "box": [300, 100, 340, 155]}]}
    if use_detection:
        row["use"] = "detection"
    if contribution:
        row["source"] = "contribution"
    (tmp_path / "labels.jsonl").write_text(json.dumps(row) + "\n")
    return load_folder(str(tmp_path))


@pytest.mark.parametrize("use_detection,contribution", [(False, False), (True, False), (True, True)])
def test_real_folder_becomes_training_arrays(tmp_path, use_detection, contribution):
    photos = _folder(tmp_path, use_detection, contribution)
    out = tmp_path / "out"
    stats = build(photos, str(out), crops_per_tile=2, teacher=None)
    det = np.load(out / "det_images.npy")
    assert det.shape == (1, DET_SIZE, DET_SIZE, 3)
    [rows] = json.loads((out / "det_boxes.json").read_text())
    flags = [r[4] for r in rows]
    assert flags == [1, 1, 1, 0]  # three tiles, and the flower as "ignore"
    sx = DET_SIZE / 480
    assert rows[0][:4] == pytest.approx([40 * sx, 100 * DET_SIZE / 320, 80 * sx, 155 * DET_SIZE / 320], abs=0.01)
    meta = np.load(out / "cls_meta.npy")
    if use_detection and not contribution:  # detection-only labels give no classifier crops
        assert len(meta) == 0 and stats["tile_crops"] == 0
    else:
        tiles = meta[meta[:, 0] != CLASS_INDEX[NONE]]
        assert sorted(tiles[:, 0].tolist()) == sorted([CLASS_INDEX[c] for c in ("1m", "0p", "7z")] * 2)
        assert (meta[:, 1] == -1).all()  # real labels say nothing of orientation
        crops = np.load(out / "cls_crops.npy")
        assert crops.shape == (len(meta), 64, 64, 3)


@pytest.mark.parametrize("kinds", [distractors.KINDS, distractors.KINDS_WIDE, distractors.KINDS_FOCUS])
def test_distractors_never_touch_a_labelled_tile(kinds):
    rng = np.random.default_rng(3)
    for _ in range(40):
        img = np.full((256, 256, 3), (60, 120, 70), np.uint8)
        boxes = np.array([[90, 90, 120, 130, 1], [120, 90, 150, 130, 1], [30, 180, 60, 220, 0]], np.float32)
        out = distractors.paste(img, boxes, rng, count=4, kinds=kinds)
        for x1, y1, x2, y2, _ in boxes.astype(int):
            assert (out[y1:y2, x1:x2] == img[y1:y2, x1:x2]).all()


def test_distractor_crops_are_classifier_sized_and_varied():
    rng = np.random.default_rng(4)
    crops = np.stack([distractors.crop(rng) for _ in range(20)])
    assert crops.shape == (20, 64, 64, 3) and crops.dtype == np.uint8
    assert len({c.tobytes() for c in crops}) == 20


@pytest.mark.parametrize("kind", sorted(set(distractors.KINDS_FOCUS) - set(distractors.KINDS)))
def test_each_wider_clutter_kind_draws_inside_the_corners_it_returns(kind):
    """Keys, dominoes, playing cards, text and screens (the artwork stage's clutter) and palms (the
    out-of-focus stage's) are drawn, and the corners `paste` keeps clear of the tiles hold what was
    drawn."""
    for seed in range(5):
        rng = np.random.default_rng(seed)
        img = np.zeros((400, 400, 3), np.uint8)
        pts = distractors.draw(img, kind, 200, 200, 40, rng)
        ys, xs = np.nonzero(img.any(2))
        assert len(xs) > 200, kind
        x1, y1 = pts.reshape(-1, 2).min(0)
        x2, y2 = pts.reshape(-1, 2).max(0)
        assert xs.min() >= x1 - 3 and xs.max() <= x2 + 3 and ys.min() >= y1 - 3 and ys.max() <= y2 + 3, kind


def test_a_fragment_box_is_the_upper_or_lower_part_of_the_face():
    from training.build_data import fragment_box

    quad = np.array([[100, 50], [160, 50], [160, 130], [100, 130]], np.float32)  # 60 x 80, upright
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(50):
        x1, y1, x2, y2 = fragment_box(quad, rng)
        assert (x1, x2) == (100, 160)
        assert 0.3 * 80 - 1e-6 <= y2 - y1 <= 0.55 * 80 + 1e-6
        assert y1 == 50 or y2 == 130
        seen.add("top" if y1 == 50 else "bottom")
    assert seen == {"top", "bottom"}


def test_the_keyboard_table_is_rows_of_keys():
    from training.backgrounds import TEX, keys

    tex = keys(np.random.default_rng(5))
    assert tex.shape == (TEX, TEX, 3) and tex.dtype == np.float32
    assert 0.0 <= float(tex.min()) and float(tex.max()) <= 1.0
    # keys are separated by gaps: along a row of keys (not the gap between rows), the brightness
    # changes many times
    changes = max(int((np.abs(np.diff(tex[y].mean(1))) > 0.1).sum()) for y in range(0, TEX, 8))
    assert changes >= 8
