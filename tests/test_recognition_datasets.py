"""Labelled photo folders in both formats, the split of real photos by scene, and how the
evaluation counts predictions on photos whose labels are incomplete."""
from __future__ import annotations

import json
import os
import re
from collections import Counter

import cv2
import numpy as np
import pytest

from recognition.detect import iou_matrix
from training import datasets
from training.datasets import LabelledPhoto, assign_scenes, assign_splits, load_folder, load_real, original_name
from training.evaluate import (
    PhotoResult,
    counted,
    flagged,
    prf,
    red_five_recall,
    red_fives_offered,
    red_fives_read,
    run,
    wrong_flagged,
)

SHARED = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data")
REAL = [os.path.join(SHARED, "real-photos", d) for d in
        ("alanchoi00__mahjong_detection", "alanchoi00__mahjong_detection_train")]


def _write(path: str, img: np.ndarray) -> None:
    assert cv2.imwrite(path, img)


def _pattern(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 255, (8, 8, 3), dtype=np.uint8)
    return cv2.resize(small, (160, 160), interpolation=cv2.INTER_NEAREST)


def test_original_name_strips_the_export_suffix():
    assert original_name("images/valid/hand_010_jpg.rf.eaeb9ed3e5a8df85f028a97885eee6b3.jpg") == "hand_010"
    assert original_name("IMG_2742_JPG.rf.983dc56143a483edab282501839693fb.jpg") == "IMG_2742"
    assert original_name("IMG_3085.jpg") == "IMG_3085"


def test_both_label_formats_load(tmp_path):
    jl = tmp_path / "real"
    (jl / "images").mkdir(parents=True)
    _write(str(jl / "images" / "hand_001_jpg.rf.ab12.jpg"), _pattern(1))
    rows = [{"image": "images/hand_001_jpg.rf.ab12.jpg", "width": 160, "height": 160,
             "boxes": [{"tile": "0p", "box": [1, 2, 30, 40]}, {"tile": "5z", "box": [40, 2, 70, 40]}],
             "use": "detection", "non_mpsz_boxes": [{"source_class": "bf1", "box": [80, 2, 110, 40]}]}]
    (jl / "labels.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    [p] = load_folder(str(jl))
    assert p.kind == "hand_row" and p.source == "real"
    assert p.tiles == Counter({"0p": 1, "5z": 1})
    assert p.boxes == [("0p", (1.0, 2.0, 30.0, 40.0)), ("5z", (40.0, 2.0, 70.0, 40.0))]
    assert p.ignore == [(80.0, 2.0, 110.0, 40.0)]
    assert not p.complete

    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "labels.json").write_text(json.dumps({"a.jpg": {"kind": "closeup", "tiles": ["1m", "1m"], "back": 2}}))
    [d] = load_folder(str(dev))
    assert (d.kind, d.tiles, d.back, d.boxes, d.complete) == ("closeup", Counter({"1m": 2}), 2, None, True)


def _fixes_file(tmp_path, fixes: list[dict]) -> str:
    path = tmp_path / "fixes.json"
    path.write_text(json.dumps({"about": "test", "fixes": {"real": fixes}}))
    return str(path)


def test_label_fixes_relabel_the_box_they_name_and_only_when_asked(tmp_path, monkeypatch):
    jl = tmp_path / "real"
    jl.mkdir()
    rows = [{"image": "images/IMG_2742_JPG.rf.1.jpg", "width": 160, "height": 160,
             "boxes": [{"tile": "back", "box": [0, 0, 9, 9]}, {"tile": "5m", "box": [1, 2, 30, 40]},
                       {"tile": "5m", "box": [40, 2, 70, 40]}]},
            {"image": "images/IMG_2743_JPG.rf.2.jpg", "width": 160, "height": 160,
             "boxes": [{"tile": "5m", "box": [1, 2, 30, 40]}]}]
    (jl / "labels.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    # the index counts every box of the line, face-down ones included
    monkeypatch.setattr(datasets, "LABEL_FIXES", _fixes_file(tmp_path, [
        {"image": "images/IMG_2742_JPG.rf.1.jpg", "box": 2, "from": "5m", "to": "0m", "why": "red"}]))
    fixed, other = load_folder(str(jl))
    assert fixed.boxes == [("5m", (1.0, 2.0, 30.0, 40.0)), ("0m", (40.0, 2.0, 70.0, 40.0))]
    assert fixed.tiles == Counter({"5m": 1, "0m": 1}) and fixed.back == 1
    assert other.tiles == Counter({"5m": 1})   # the same box index in another photo is not touched
    staged, _ = load_folder(str(jl), label_fixes=False)
    assert staged.tiles == Counter({"5m": 2})
    assert [p.tiles["0m"] for p in load_real([str(jl)])] == [1, 0]   # the evaluation's loader applies them


def test_a_label_fix_that_no_longer_matches_its_box_stops_the_load(tmp_path, monkeypatch):
    jl = tmp_path / "real"
    jl.mkdir()
    row = {"image": "images/a.jpg", "width": 160, "height": 160, "boxes": [{"tile": "5p", "box": [1, 2, 30, 40]}]}
    (jl / "labels.jsonl").write_text(json.dumps(row) + "\n")
    for fix, expected in [({"box": 0, "from": "5m"}, "expects 5m, the labels have 5p"), ({"box": 3, "from": "5p"}, "no box")]:
        monkeypatch.setattr(datasets, "LABEL_FIXES", _fixes_file(tmp_path, [{"image": "images/a.jpg", "to": "0p", **fix}]))
        with pytest.raises(ValueError, match=expected):
            load_folder(str(jl))


@pytest.mark.skipif(not all(os.path.isdir(d) for d in REAL), reason="../shared/data/real-photos not present")
def test_the_projects_label_fixes_match_the_staged_photos():
    """Each fix names a box of the staged labels that still carries its `from` (loading checks it),
    and gives it another tile's code."""
    tile = re.compile(r"[0-9][mps]|[1-7]z")
    fixes = datasets.load_label_fixes()
    assert fixes, "the file lists fixes"
    for source, by_box in fixes.items():
        assert any(os.path.basename(d) == source for d in REAL)
        for (was, now) in by_box.values():
            assert was != now and tile.fullmatch(was) and tile.fullmatch(now)
        folder = next(d for d in REAL if os.path.basename(d) == source)
        fixed = {p.name: p.tiles for p in load_folder(folder)}
        staged = {p.name: p.tiles for p in load_folder(folder, label_fixes=False)}
        for (image, _), (was, now) in by_box.items():
            assert fixed[image][now] > staged[image][now] and fixed[image][was] < staged[image][was]


def _additions_file(tmp_path, added: list[dict]) -> str:
    path = tmp_path / "fixes.json"
    path.write_text(json.dumps({"about": "test", "fixes": {}, "added": {"real": added}}))
    return str(path)


def test_label_additions_box_the_tiles_they_name_and_leave_flowers_unjudged(tmp_path, monkeypatch):
    jl = tmp_path / "real"
    jl.mkdir()
    rows = [{"image": "images/hk_1.jpg", "width": 160, "height": 160, "boxes": [{"tile": "1m", "box": [1, 100, 30, 140]}]},
            {"image": "images/hk_2.jpg", "width": 160, "height": 160, "boxes": [{"tile": "1m", "box": [1, 100, 30, 140]}]}]
    (jl / "labels.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    monkeypatch.setattr(datasets, "LABEL_FIXES", _additions_file(tmp_path, [
        {"image": "images/hk_1.jpg", "tile": "7p", "box": [40, 2, 70, 40], "why": "a discard"},
        {"image": "images/hk_1.jpg", "tile": "not_riichi", "box": [80, 2, 110, 40], "why": "a flower"},
        {"image": "images/hk_1.jpg", "tile": "unnamed", "box": [120, 2, 150, 40], "why": "turned away"}]))
    added, other = load_folder(str(jl))
    assert added.tiles == Counter({"1m": 1, "7p": 1}) and added.complete
    assert added.boxes[-1] == ("7p", (40.0, 2.0, 70.0, 40.0))
    assert added.ignore == [(80.0, 2.0, 110.0, 40.0), (120.0, 2.0, 150.0, 40.0)]
    assert other.tiles == Counter({"1m": 1}) and other.ignore == []
    staged, _ = load_folder(str(jl), label_fixes=False)
    assert staged.tiles == Counter({"1m": 1}) and staged.ignore == []
    fixed_only, _ = load_folder(str(jl), label_additions=False)
    assert fixed_only.tiles == staged.tiles and fixed_only.ignore == []
    assert [p.tiles["7p"] for p in load_real([str(jl)])] == [1, 0]   # the evaluation's loader applies them

    # the 7p read where it lies counts as right, a tile read on the flower is not counted
    codes, boxes = ["1m", "7p", "1s"], [(2, 101, 29, 139), (41, 3, 69, 39), (81, 3, 109, 39)]
    assert counted(added, codes, boxes) == Counter({"1m": 1, "7p": 1})
    assert counted(staged, codes, boxes) == Counter({"1m": 1, "7p": 1, "1s": 1})


def test_a_label_addition_on_a_staged_box_stops_the_load(tmp_path, monkeypatch):
    jl = tmp_path / "real"
    jl.mkdir()
    row = {"image": "images/a.jpg", "width": 160, "height": 160, "boxes": [{"tile": "5p", "box": [1, 2, 30, 40]}]}
    (jl / "labels.jsonl").write_text(json.dumps(row) + "\n")
    monkeypatch.setattr(datasets, "LABEL_FIXES", _additions_file(tmp_path, [
        {"image": "images/a.jpg", "tile": "5p", "box": [5, 5, 25, 35], "why": "twice"}]))
    with pytest.raises(ValueError, match="lies on the staged 5p box"):
        load_folder(str(jl))


@pytest.mark.skipif(not all(os.path.isdir(d) for d in REAL), reason="../shared/data/real-photos not present")
def test_the_projects_label_additions_touch_validation_photos_only():
    """Training reads the train scenes: the tiles added to the labels change what the evaluation
    judges, never what the models learn. Each addition is a tile code or a word for a tile not
    judged, lies on no staged box (loading checks it), and no two additions of a photo box one
    tile (IoU 0.5 or more; tiles lying aslant may overlap less): a tile added twice would be judged
    twice."""
    tile = re.compile(r"[0-9][mps]|[1-7]z")
    added = datasets.load_label_additions()
    assert added, "the file lists additions"
    val = {(p.source, p.name) for p in load_real(REAL, "val")}
    train = {(p.source, p.name) for p in load_real(REAL, "train", keep_stretched=True)}
    for source, by_image in added.items():
        for image, tiles in by_image.items():
            assert (source, image) in val and (source, image) not in train
            assert all(tile.fullmatch(code) or code in datasets.NOT_JUDGED for code, _ in tiles)
            boxes = np.array([box for _, box in tiles], np.float64)
            overlap = iou_matrix(boxes, boxes) - np.eye(len(boxes))
            assert overlap.max() < 0.5, (image, boxes[np.unravel_index(overlap.argmax(), overlap.shape)[0]])


def test_near_duplicates_and_versions_of_one_photo_are_one_scene(tmp_path):
    a, b = _pattern(1), _pattern(2)
    noisy = np.clip(a.astype(int) + np.random.default_rng(0).integers(-6, 7, a.shape), 0, 255).astype(np.uint8)
    for name, img in [("x1.jpg", a), ("x2.jpg", noisy), ("y.jpg", b), ("y_jpg.rf.0f.jpg", _pattern(3))]:
        _write(str(tmp_path / name), img)
    photos = [LabelledPhoto(n, str(tmp_path / n), "s", "k", Counter(), boxes=[]) for n in
              ("x1.jpg", "x2.jpg", "y.jpg", "y_jpg.rf.0f.jpg")]
    assign_scenes(photos)
    scenes = [p.scene for p in photos]
    assert scenes[0] == scenes[1]  # the same picture with a little noise
    assert scenes[2] == scenes[3]  # two versions of one original file, however different
    assert scenes[0] != scenes[2]


def test_split_keeps_scenes_whole_and_gives_every_kind_a_validation_share():
    photos = []
    for kind in ("hand_row", "trays"):
        for s in range(20):
            for v in range(3):
                photos.append(LabelledPhoto(f"{kind}{s}_{v}", "", "src", kind, Counter(), scene=f"{kind}/{s}"))
    splits = assign_splits(photos)
    assert splits == assign_splits(list(reversed(photos)))  # the order of the photos does not matter
    for kind in ("hand_row", "trays"):
        val = {s for s, v in splits.items() if v == "val" and s.startswith(kind)}
        assert len(val) == 20 // datasets.VAL_SHARE


def test_incomplete_labels_count_only_predictions_on_labelled_tiles():
    ph = LabelledPhoto("p", "", "s", "hand_row", Counter({"1m": 1, "2m": 1}),
                       boxes=[("1m", (0, 0, 10, 10)), ("2m", (10, 0, 20, 10))],
                       ignore=[(50, 0, 60, 10)], complete=False)
    codes = ["1m", "3m", "9s", "7z"]
    boxes = [(1, 1, 9, 9), (11, 1, 19, 9), (100, 100, 110, 110), (51, 1, 59, 9)]
    # the unlabelled discard at (100, 100) and the flower are not judged; the misread 2m is
    assert counted(ph, codes, boxes) == Counter({"1m": 1, "3m": 1})
    ph.complete = True
    assert counted(ph, codes, boxes) == Counter({"1m": 1, "3m": 1, "9s": 1})


def test_evaluation_runs_on_a_jsonl_folder(tmp_path):
    (tmp_path / "labels.jsonl").write_text(json.dumps(
        {"image": "a.png", "width": 160, "height": 160, "boxes": [{"tile": "1m", "box": [0, 0, 20, 30]}]}) + "\n")
    _write(str(tmp_path / "a.png"), _pattern(5))

    def reader(data: bytes):
        assert data[:4] == b"\x89PNG"
        return ["1m", "2m"], 0, [(1, 1, 19, 29), (100, 100, 120, 130)]

    [r] = run(load_real([str(tmp_path)]), reader)
    s = prf([r])
    assert (r.tp, s.precision, s.recall) == (1, 0.5, 1.0)


def test_red_fives_read_where_there_is_none_are_counted_beside_the_recall():
    # a photo with one red 5m read right and a plain 5m read red; one with a red 5p missed
    a = PhotoResult("a", "hand_row", Counter({"0m": 1, "5m": 1}), Counter({"0m": 2}), 0, 0)
    b = PhotoResult("b", "hand_row", Counter({"0p": 1}), Counter({"5p": 1}), 0, 0)
    assert red_five_recall([a, b]) == (0.5, 2)
    assert red_fives_read([a, b]) == (2, 1)
    assert red_fives_read([b]) == (0, 0)


def test_a_red_five_missed_counts_as_offered_only_where_a_wrong_tile_flagged_offers_it():
    def photo(predicted, offers):
        return PhotoResult("p", "hand_row", Counter({"0s": 1, "7z": 1, "1m": 1}), Counter(predicted), 0, 0, offers=offers)

    # the red 5s read as 中, flagged, a tap offering the red five: the player is steered to it
    assert red_fives_offered([photo({"7z": 2, "1m": 1}, [("7z", ("0s", "0m"))])]) == 1
    # the same tile not flagged, or flagged offering other tiles: the red five is lost unseen
    assert red_fives_offered([photo({"7z": 2, "1m": 1}, [])]) == 0
    assert red_fives_offered([photo({"7z": 2, "1m": 1}, [("7z", ("6z", "5s"))])]) == 0
    # a flagged tile read right (the 1m the labels hold) does not stand for the red five it offers
    assert red_fives_offered([photo({"7z": 1, "1m": 1}, [("1m", ("0s",))])]) == 0
    # one flagged tile stands for one red five only
    two = PhotoResult("p", "hand_row", Counter({"0s": 2}), Counter({"7z": 2}), 0, 0,
                      offers=[("7z", ("0s",)), ("7z", ("5s",))])
    assert red_fives_offered([two]) == 1
    # two 中 flagged where one is right: only one of them stands for a red five
    both = PhotoResult("p", "hand_row", Counter({"0s": 2, "7z": 1}), Counter({"7z": 2, "5s": 1}), 0, 0,
                       offers=[("7z", ("0s",)), ("7z", ("0s",))])
    assert red_fives_offered([both]) == 1
    # a reader that flags nothing (the baseline) gives no count, not a count of none
    assert red_fives_offered([photo({"7z": 2, "1m": 1}, None)]) is None


def test_wrong_tiles_count_as_flagged_only_as_often_as_a_flagged_tile_reads_them():
    # labels 1m 2m 3m; read 1m 3m 3m 9s: one 3m and the 9s are wrong. One 3m is flagged, which of
    # the two is wrong cannot be told from the counts, so it counts; the 9s is not flagged
    r = PhotoResult("p", "hand_row", Counter({"1m": 1, "2m": 1, "3m": 1}), Counter({"1m": 1, "3m": 2, "9s": 1}), 0, 0,
                    offers=[("3m", ("2m",)), ("1m", ("7m",))])
    assert wrong_flagged([r]) == (2, 1)
    # a flagged tile read right (the 1m) tells nothing wrong; a reader that flags nothing gives no count
    assert wrong_flagged([PhotoResult("p", "k", Counter({"1m": 1}), Counter({"1m": 1}), 0, 0, offers=[("1m", ())])]) == (0, 0)
    assert wrong_flagged([PhotoResult("p", "k", Counter({"1m": 1}), Counter({"2m": 1}), 0, 0)]) is None


def test_tiles_flagged_are_judged_as_the_tiles_counted():
    ph = LabelledPhoto("p", "", "s", "hand_row", Counter({"1m": 1, "2m": 1}),
                       boxes=[("1m", (0, 0, 10, 10)), ("2m", (10, 0, 20, 10))], ignore=[(50, 0, 60, 10)], complete=False)
    codes = ["1m", "3m", "9s", "7z"]
    boxes = [(1, 1, 9, 9), (11, 1, 19, 9), (100, 100, 110, 110), (51, 1, 59, 9)]
    offers = [None, ("2m", "4m"), ("1s",), ("6z",)]
    # the flagged discard far from the labels and the flagged flower are not judged; the misread 2m is
    assert flagged(ph, codes, boxes, offers) == [("3m", ("2m", "4m"))]
    assert flagged(ph, codes, boxes, None) is None


def test_evaluation_keeps_what_a_reader_flags(tmp_path):
    (tmp_path / "labels.jsonl").write_text(json.dumps(
        {"image": "a.png", "width": 160, "height": 160, "boxes": [{"tile": "0s", "box": [0, 0, 20, 30]}]}) + "\n")
    _write(str(tmp_path / "a.png"), _pattern(5))
    [r] = run(load_real([str(tmp_path)]), lambda data: (["7z"], 0, [(1, 1, 19, 29)], [("0s", "0m")]))
    assert r.offers == [("7z", ("0s", "0m"))]
    assert red_fives_offered([r]) == 1
    [r] = run(load_real([str(tmp_path)]), lambda data: (["7z"], 0, [(1, 1, 19, 29)]))
    assert r.offers is None


@pytest.mark.skipif(not all(os.path.isdir(d) for d in REAL), reason="../shared/data/real-photos not present")
def test_real_photo_split_has_no_scene_on_both_sides():
    train = load_real(REAL, "train")
    val = load_real(REAL, "val")
    assert not {p.scene for p in train} & {p.scene for p in val}
    assert 0.12 < len(val) / (len(train) + len(val)) < 0.3
    assert {p.kind for p in val} >= {"hand_row", "hk_table", "jp_trays", "riichi_mat"}


def test_photos_stretched_out_of_shape_are_left_out(tmp_path):
    rows = []
    for name, w in (("ok.png", 30), ("strip.png", 400)):
        cv2.imwrite(str(tmp_path / name), _pattern(7))
        rows.append({"image": name, "width": 640, "height": 640,
                     "boxes": [{"tile": "1m", "box": [0, k * 40, w, k * 40 + 38]} for k in range(3)]})
    (tmp_path / "labels.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    assert [p.name for p in load_real([str(tmp_path)])] == ["ok.png"]


@pytest.mark.parametrize("name", ["dim", "blur", "glare", "tilt45", "1mp", "12mp", "far3", "far4", "turn20", "turn35",
                                  "turn90", "turn180", "shake", "sent"])
def test_photo_conditions_map_points_back_to_the_labelled_photo(name):
    from training import perturb

    img = np.zeros((300, 400, 3), np.uint8)
    cv2.circle(img, (300, 220), 12, (255, 255, 255), -1)  # a bright dot we can find again
    ok, buf = cv2.imencode(".png", img)
    new, back = perturb.apply(name, buf.tobytes(), seed=1)
    out = cv2.imdecode(np.frombuffer(new, np.uint8), cv2.IMREAD_GRAYSCALE)
    if name in ("1mp", "12mp"):
        assert abs(out.shape[0] * out.shape[1] / 1e6 - float(name[:-2])) < 0.05
    if name.startswith("far"):  # the same frame; the dot a third or a quarter of its size, near the middle
        assert out.shape == (300, 400)
        assert 0 < (out > 200).sum() < np.pi * 12 ** 2 / int(name[3:]) ** 2 * 1.6
    if name == "sent":  # at most 1600 px on its long side: this one as it was
        assert out.shape == (300, 400)
    if name in ("dim", "glare"):
        return  # the dot stays where it was; only the light changes
    ys, xs = np.nonzero(out > out.max() * 0.8)
    found = back(np.array([[xs.mean(), ys.mean()]]))[0]
    assert np.allclose(found, (300, 220), atol=3)


@pytest.mark.parametrize("name,order", [("warm", "rgb"), ("tungsten", "rgb"), ("cool", "bgr")])
def test_light_conditions_tint_the_photo_and_move_nothing(name, order):
    from training import perturb

    img = np.full((60, 80, 3), 200, np.uint8)  # a grey photo (BGR)
    ok, buf = cv2.imencode(".png", img)
    new, back = perturb.apply(name, buf.tobytes(), seed=1)
    b, g, r = cv2.imdecode(np.frombuffer(new, np.uint8), cv2.IMREAD_COLOR).reshape(-1, 3).mean(0)
    first, _, last = ({"r": r, "g": g, "b": b}[c] for c in order)
    assert first > g > last  # warm: red over green over blue; cool the other way
    assert np.allclose(back(np.array([[10.0, 20.0]])), [[10.0, 20.0]])


def test_bright_and_flash_clip_the_faces_white_and_move_nothing():
    from training import perturb

    img = np.full((60, 80, 3), 170, np.uint8)  # an ivory face's grey, brighter than 255 / 1.6
    img[20:40, 55:70] = 40  # and some ink
    ok, buf = cv2.imencode(".png", img)
    for name in ("bright", "flash"):
        new, back = perturb.apply(name, buf.tobytes(), seed=1)
        out = cv2.imdecode(np.frombuffer(new, np.uint8), cv2.IMREAD_GRAYSCALE).astype(float)
        assert out[30, 40] >= 250  # the face in the middle, clipped at white
        assert 45 < out[30, 62] < 85  # the ink brighter, not lost
        assert np.allclose(back(np.array([[10.0, 20.0]])), [[10.0, 20.0]])
    # the flash falls off: a corner of the photo darker than the middle's face
    corner = cv2.imdecode(np.frombuffer(perturb.apply("flash", buf.tobytes())[0], np.uint8), cv2.IMREAD_GRAYSCALE)
    assert corner[0, 0] < 120


def test_a_shadow_darkens_part_of_the_photo_and_moves_nothing():
    from training import perturb

    img = np.full((200, 300, 3), 210, np.uint8)  # an evenly lit photo
    ok, buf = cv2.imencode(".png", img)
    for seed in range(6):
        new, back = perturb.apply("shadow", buf.tobytes(), seed=seed)
        out = cv2.imdecode(np.frombuffer(new, np.uint8), cv2.IMREAD_GRAYSCALE).astype(np.float32)
        dark = out < 210 * 0.5
        # a third to about half of the photo lies in the shadow, lit a third as brightly; the rest as it was
        assert 0.2 < dark.mean() < 0.6, seed
        assert abs(float(out[dark].min()) - 210 * 0.33) < 6
        assert float(out.max()) >= 205
        assert np.allclose(back(np.array([[10.0, 20.0]])), [[10.0, 20.0]])
