"""training.copy_paste: composed images from real tile cut-outs, in training.real_data's formats."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from training import copy_paste
from training.copy_paste import SIZE, Cutout, build, load_cutouts, train_photos
from training.labels import BACK, CLASS_INDEX, NONE

MAGENTA = (255, 0, 255)


@pytest.fixture(autouse=True)
def _one_thread():
    cv2.setNumThreads(1)


def _photo(path, codes, colour, use_detection=False):
    """A photo of tiles of one distinctive colour (with a dark stripe so they are not flat)."""
    img = np.full((320, 480, 3), (60, 120, 70), np.uint8)
    boxes = []
    for k, code in enumerate(codes):
        x = 30 + k * 70
        cv2.rectangle(img, (x, 100), (x + 48, 164), colour[::-1], -1)  # BGR on disk
        cv2.rectangle(img, (x + 20, 110), (x + 28, 150), (40, 40, 40), -1)
        boxes.append({"tile": code, "box": [x, 100, x + 48, 164]})
    cv2.imwrite(str(path), img)
    row = {"image": path.name, "width": 480, "height": 320, "boxes": boxes}
    if use_detection:
        row["use"] = "detection"
    return row


def _folder(tmp_path):
    rows = [_photo(tmp_path / "a.png", ["1m", "0p", "7z"], MAGENTA),
            _photo(tmp_path / "b.png", ["9s", "9s"], (0, 255, 255), use_detection=True)]
    (tmp_path / "labels.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(tmp_path)


def _magenta(region):
    r, g, b = (region[..., i].astype(int) for i in range(3))
    return (r > 120) & (b > 120) & (g < 90) & (np.abs(r - b) < 90)


def test_only_train_scenes_with_trusted_codes_are_cut(tmp_path, monkeypatch):
    folder = _folder(tmp_path)
    asked = []
    real = copy_paste.load_real

    def spy(folders, split="all", keep_stretched=False, label_fixes=True):
        asked.append((split, label_fixes))
        return real(folders, split, keep_stretched, label_fixes)

    monkeypatch.setattr(copy_paste, "load_real", spy)
    photos = train_photos([folder])
    # never "val" or "all": the validation scenes stay unseen; the labels as the shipped stages saw them
    assert asked == [("train", False)]
    assert [p.name for p in photos] == ["a.png"]  # b.png is labelled for detection only
    cuts = load_cutouts(photos)
    assert [c.code for c in cuts] == ["1m", "0p", "7z"]
    assert all(c.image.shape == (64, 48, 3) for c in cuts)
    assert all(_magenta(c.image).mean() > 0.7 for c in cuts)
    assert all(c.orient == -1 for c in cuts)


def test_validation_photo_never_cut(tmp_path):
    """Five different scenes of one kind: the split sends one to validation, and none of its
    tiles (a class of its own) is ever cut out."""
    rows = []
    codes = ["1m", "2m", "3m", "4m", "5m"]
    rng = np.random.default_rng(0)
    for k, code in enumerate(codes):
        path = tmp_path / f"scene{k}.png"
        img = (rng.random((320, 480, 3)) * 255).astype(np.uint8)  # unlike thumbnails: separate scenes
        img = cv2.resize(cv2.resize(img, (8, 6), interpolation=cv2.INTER_AREA), (480, 320), interpolation=cv2.INTER_NEAREST)
        cv2.imwrite(str(path), img)
        rows.append({"image": path.name, "width": 480, "height": 320, "kind": "hand_row",
                     "boxes": [{"tile": code, "box": [40, 100, 88, 164]}]})
    (tmp_path / "labels.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    from training.datasets import load_real

    val = {p.name for p in load_real([str(tmp_path)], "val")}
    assert len(val) == 1
    cuts = load_cutouts(train_photos([str(tmp_path)]))
    assert len(cuts) == 4
    assert {c.source for c in cuts}.isdisjoint(val)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cp")
    (tmp / "src").mkdir()
    cuts = load_cutouts(train_photos([_folder(tmp / "src")]))
    out = tmp / "out"
    stats = build(cuts, str(out), images=12, seed=5)
    return out, stats, cuts


def test_outputs_in_real_data_formats(built):
    out, stats, _ = built
    det = np.load(out / "det_images.npy")
    assert det.shape == (12, SIZE, SIZE, 3) and det.dtype == np.uint8
    rows = json.loads((out / "det_boxes.json").read_text())
    assert len(rows) == 12
    for per_image in rows:
        for r in per_image:
            assert len(r) == 5 and r[4] in (0, 1)
            assert 0 <= r[0] < r[2] <= SIZE and 0 <= r[1] < r[3] <= SIZE
    crops = np.load(out / "cls_crops.npy")
    meta = np.load(out / "cls_meta.npy")
    assert crops.dtype == np.uint8 and crops.shape[1:] == (64, 64, 3)
    assert meta.dtype == np.int16 and meta.shape == (len(crops), 3)
    saved = json.loads((out / "stats.json").read_text())
    assert saved["images"] == 12 and saved["cutouts"] == 3
    assert saved["tiles"] == sum(r[4] for per in rows for r in per)
    assert saved["tile_crops"] + saved["none_crops"] == len(meta)
    assert saved["row"] + saved["closeup"] + saved["pile"] == 12
    assert stats == saved


def test_every_positive_box_holds_a_pasted_tile(built):
    out, _, _ = built
    det = np.load(out / "det_images.npy")
    rows = json.loads((out / "det_boxes.json").read_text())
    positives = 0
    for img, per_image in zip(det, rows):
        for x1, y1, x2, y2, flag in per_image:
            if not flag:
                continue
            positives += 1
            assert x2 - x1 >= copy_paste.MIN_BOX and y2 - y1 >= copy_paste.MIN_BOX
            region = img[int(y1):int(np.ceil(y2)), int(x1):int(np.ceil(x2))]
            # the tile covers much of its (axis-aligned, so for a tilted tile looser) box
            assert _magenta(region).mean() > 0.2, (x1, y1, x2, y2)
    assert positives >= 12 * 3


def test_crops_carry_the_cut_outs_classes(built):
    out, _, _ = built
    meta = np.load(out / "cls_meta.npy")
    crops = np.load(out / "cls_crops.npy")
    tiles = meta[:, 0] != CLASS_INDEX[NONE]
    assert set(meta[tiles, 0].tolist()) <= {CLASS_INDEX[c] for c in ("1m", "0p", "7z")}
    assert len(set(meta[tiles, 0].tolist())) == 3
    assert (meta[:, 1] == -1).all()  # the cut-outs' own orientation is unknown
    assert (meta[:, 2] == 0).all()  # no backs
    # tile crops show the tile, "none" crops show none of it
    centre = crops[:, 24:40, 24:40]
    assert np.mean([_magenta(c).mean() > 0.3 for c in centre[tiles]]) > 0.9
    # (a clutter object, such as a phone's app icons, may be magenta too)
    assert np.mean([_magenta(c).mean() < 0.05 for c in crops[~tiles]]) > 0.9
    assert (~tiles).sum() > 0


def _marked(orient=0):
    """A tile whose top half is red and bottom half blue."""
    img = np.zeros((64, 48, 3), np.uint8)
    img[:32] = (230, 30, 30)
    img[32:] = (30, 30, 230)
    return Cutout(BACK, img, orient, "marked")


def test_known_orientation_follows_the_rotations(tmp_path):
    out = tmp_path / "out"
    build([_marked(0)], str(out), images=10, seed=3)
    crops = np.load(out / "cls_crops.npy")
    meta = np.load(out / "cls_meta.npy")
    tiles = meta[:, 0] == CLASS_INDEX[BACK]
    assert tiles.sum() > 20
    assert (meta[tiles, 2] == 1).all()  # a back is known only up to a half turn
    right = []
    for crop, (_, o, _) in zip(crops[tiles], meta[tiles]):
        assert 0 <= o <= 3
        up = np.rot90(crop, int(o)).astype(int)  # turn the top back up
        top, bottom = up[14:30, 24:40], up[34:50, 24:40]
        right.append(top[..., 0].mean() - top[..., 2].mean() > 0 > bottom[..., 0].mean() - bottom[..., 2].mean())
    assert np.mean(right) > 0.85


def test_deterministic_per_seed_and_worker_count(tmp_path):
    cuts = load_cutouts(train_photos([_folder(tmp_path)]))
    arrays = {}
    for name, seed, workers in [("a", 9, 1), ("b", 9, 2), ("c", 10, 1)]:
        out = tmp_path / name
        build(cuts, str(out), images=4, seed=seed, workers=workers)
        arrays[name] = (np.load(out / "det_images.npy"), (out / "det_boxes.json").read_text(),
                        np.load(out / "cls_crops.npy"), np.load(out / "cls_meta.npy"))
    a, b, c = arrays["a"], arrays["b"], arrays["c"]
    assert np.array_equal(a[0], b[0]) and a[1] == b[1] and np.array_equal(a[2], b[2]) and np.array_equal(a[3], b[3])
    assert not np.array_equal(a[0], c[0])


def test_no_cut_outs_is_an_error(tmp_path):
    with pytest.raises(ValueError):
        build([], str(tmp_path / "out"), images=1)
