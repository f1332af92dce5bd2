"""One or two tiles filling the frame, read whole from a pass at a coarse scale
(recognition.reading.whole_side, whole_tiles, whole_read; Settings.whole_tiles). Pure Python on
hand-made boxes, as the phone's reader runs it; the staged photos are in
tests/test_recognition_hard_cases.py (crop_filling) and the browser test (both paths)."""
from __future__ import annotations

import dataclasses
import os

import pytest

from recognition import reading, scales
from recognition.reading import Settings, whole_read, whole_side, whole_tiles

SIZE = (1008, 756)  # a landscape frame: its shorter side 756
ON = Settings()
OFF = dataclasses.replace(ON, whole_tiles=None)
LABELS = ["1m", "9p", "5z", "back", "none"]
SHARED = os.environ.get("TENBOU_SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "shared"))


def face(x1: float, y1: float, height: float, score: float = 0.9) -> list[float]:
    """An upright face `height` high (its width by scales.FACE_ASPECT) from (x1, y1)."""
    return [x1, y1, x1 + height / scales.FACE_ASPECT, y1 + height, score]


def pieces_of(box: list[float], n: int = 4) -> list[list[float]]:
    """`n` small boxes inside `box`, down its middle (pip groups boxed as tiles)."""
    x1, y1, x2, y2 = box[:4]
    step = (y2 - y1) / n
    return [[x1 + 0.2 * (x2 - x1), y1 + k * step, x2 - 0.2 * (x2 - x1), y1 + (k + 0.8) * step, 0.6] for k in range(n)]


def read_as(code: str, p: float) -> list[float]:
    out = [(1 - p) / (len(LABELS) - 1)] * len(LABELS)
    out[LABELS.index(code)] = p
    return out


def test_the_pass_is_asked_for_a_few_tiles_read_unsurely_and_not_when_off():
    def asked(*sureness: float, settings: Settings = ON) -> bool:
        side = whole_side([read_as("9p", q) for q in sureness], LABELS, "none", settings)
        assert side in (None, reading.WHOLE_SIDE)
        return side is not None

    pieces = scales.DEFAULT_RULE.closeup_pieces
    assert asked()  # nothing read
    assert asked(*[0.6] * pieces)
    assert not asked(*[0.6] * (pieces + 1))  # more than one or two tiles' pieces
    sure = reading.WHOLE_PIECE
    assert asked(*[sure] * reading.WHOLE_FEW, 0.7, 0.6)  # one or two tiles read whole, and pieces
    assert not asked(*[sure] * (reading.WHOLE_FEW + 1))  # a hand's tiles, read surely
    assert asked(*[sure - 0.05] * (reading.WHOLE_FEW + 1))
    assert not asked(0.6, settings=OFF)
    # blank patches of a face filling the frame read surely as haku (a 5m's, between its strokes): pieces still
    haku = [read_as("5z", 0.99)] * 6
    assert whole_side(haku, LABELS, "none", ON) == reading.WHOLE_SIDE
    assert whole_side(haku + [read_as("9p", sure)] * (reading.WHOLE_FEW + 1), LABELS, "none", ON) is None
    # surely given that it is a tile: a piece read mostly as no tile, and as a 9p the rest, counts as read surely
    assert whole_side([[0.0, 0.3, 0.0, 0.0, 0.7]] * 3, LABELS, "none", ON) is None


def test_one_face_filling_the_frame_replaces_its_pieces():
    tile = face(300, 40, 0.85 * 756)
    assert whole_tiles([tile], pieces_of(tile), SIZE, ON) == [0]
    assert whole_tiles([tile], [], SIZE, ON) == [0]  # nothing read: the face is read
    assert whole_tiles([tile], pieces_of(tile), SIZE, OFF) is None


def test_two_faces_side_by_side_replace_their_pieces():
    a, b = face(60, 60, 600), face(520, 60, 600)
    assert whole_tiles([a, b], pieces_of(a) + pieces_of(b, 3), SIZE, ON) == [0, 1]
    three = [face(20 + 270 * k, 100, 330) for k in range(3)]
    assert whole_tiles(three, pieces_of(three[0]), SIZE, ON) is None  # three faces: no close-up of one or two
    assert whole_tiles(three[:2], pieces_of(three[0]), SIZE, ON) == [0, 1]


def test_a_box_within_a_face_is_part_of_it():
    tile = face(300, 40, 640)
    upper = [tile[0] + 5, tile[1] + 40, tile[2] - 5, tile[1] + 300, 0.8]  # its upper rows of pips, boxed too
    assert whole_tiles([tile, upper], pieces_of(tile), SIZE, ON) == [0]
    half_out = [tile[2] - 100, tile[1], tile[2] + 160, tile[1] + 300, 0.8]  # as much outside as in: not a part
    assert scales.inside_share(half_out, tile) < reading.WHOLE_WITHIN
    assert whole_tiles([tile, half_out], pieces_of(tile), SIZE, ON) is None


def test_boxes_under_the_floor_are_not_counted():
    tile = face(300, 40, 640)
    speck = [20, 20, 20 + 0.14 * 756, 20 + 0.14 * 756, 0.5]
    assert whole_tiles([tile, speck, speck], pieces_of(tile), SIZE, ON) == [0]


def test_a_face_must_span_enough_of_the_frame():
    bar = ON.whole_tiles * 756
    assert whole_tiles([face(300, 40, bar + 2)], [], SIZE, ON) == [0]
    assert whole_tiles([face(300, 40, bar - 2)], [], SIZE, ON) is None  # a tile of a close-up's size: its own reading stands


def test_only_a_face_standing_upright_counts():
    """Two upright tiles boxed as one look like a tile lying sideways (0.67 against 1.35): that
    box is never taken for one tile. A face boxed by its sticks is narrower than a face (up to
    WHOLE_TALL), two faces one above the other narrower still: only the first counts."""
    blob = [100, 100, 100 + 2 * 450, 100 + 600, 0.9]
    assert whole_tiles([blob], pieces_of(blob), SIZE, ON) is None
    x, y, h = 300, 40, 640
    stacked = [x, y, x + h / (2 * scales.FACE_ASPECT + 0.02), y + h, 0.9]  # two faces 6 px apart
    assert whole_tiles([stacked], pieces_of(stacked), SIZE, ON) is None
    for aspect, counts in ((reading.WHOLE_TALL * 0.98, True),
                           (reading.WHOLE_TALL * 1.02, False),
                           (scales.FACE_ASPECT * reading.WHOLE_SHAPE * 1.02, True),  # a 2s boxed by its sticks
                           (scales.FACE_ASPECT / reading.WHOLE_SHAPE * 1.02, True),
                           (scales.FACE_ASPECT / reading.WHOLE_SHAPE * 0.98, False)):
        box = [x, y, x + h / aspect, y + h, 0.9]
        assert (whole_tiles([box], [], SIZE, ON) == [0]) is counts, aspect


def test_a_tile_read_outside_the_faces_keeps_the_reading():
    """A close-up of three tiles where the coarse pass boxed two: the third is read on its own."""
    a, b = face(40, 60, 480), face(420, 60, 480)
    third = [820, 300, 920, 430, 0.8]
    assert whole_tiles([a, b], pieces_of(a) + [third], SIZE, ON) is None
    assert whole_tiles([a, b], pieces_of(a), SIZE, ON) == [0, 1]


def test_tiles_already_read_whole_are_kept():
    tile = face(300, 40, 640)
    same = [tile[0] + 8, tile[1] + 6, tile[2] - 4, tile[3] - 10, 0.8]
    assert whole_tiles([tile], [same], SIZE, ON) is None
    assert whole_tiles([tile], [same, pieces_of(tile)[0]], SIZE, ON) == [0]  # and a piece beside it: read whole


def test_the_faces_must_be_read_surely_as_inked_tiles():
    sure = reading.WHOLE_SURE
    assert whole_read([read_as("9p", sure)], LABELS, "none")
    assert whole_read([read_as("9p", 0.97), read_as("1m", sure + 0.01)], LABELS, "none")
    assert not whole_read([read_as("9p", sure - 0.01)], LABELS, "none")
    assert not whole_read([read_as("9p", 0.97), read_as("1m", sure - 0.01)], LABELS, "none")
    # a plain light thing that size reads as haku; a dark one as a back; neither is a tile to go by
    for code in ("5z", "back", "none"):
        assert not whole_read([read_as(code, 0.99)], LABELS, "none"), code
    assert not whole_read([], LABELS, "none")


@pytest.mark.parametrize("size", [(756, 1008), (1008, 756)])
def test_the_frames_shorter_side_measures_the_faces(size):
    """A portrait frame's shorter side is its width: a face 0.4 of it is as counted there as in a
    landscape frame of the same shorter side."""
    h = ON.whole_tiles * min(size) + 2
    assert whole_tiles([face(100, 100, h)], [], size, ON) == [0]


@pytest.mark.skipif(not os.path.isdir(os.path.join(SHARED, "data", "tile-crops")), reason="../shared/data/tile-crops not present")
def test_the_photographed_close_ups_are_built_as_labelled(tmp_path):
    """training.closeups --crops (the measure of models/HISTORY.md, "Tiles filling the frame, read
    whole"): one face per portrait photo and two per landscape one, each filling the share its kind
    names, the labels the faces' own, and the same photos from the same seed."""
    import cv2
    import numpy as np

    from training import closeups

    labels = closeups.build_crops(str(tmp_path / "a"), seed=3, singles=2, pairs=1)
    assert sorted({lab["kind"] for lab in labels.values()}) == sorted(
        [f"crop_one_{round(s * 100)}" for s in closeups.CROP_ONE] + [f"crop_two_{round(s * 100)}" for s in closeups.CROP_TWO])
    assert len(labels) == 2 * len(closeups.CROP_ONE) + len(closeups.CROP_TWO)
    for name, lab in labels.items():
        img = cv2.imread(str(tmp_path / "a" / name))
        one = lab["kind"].startswith("crop_one")
        assert img.shape[:2] == ((1008, 756) if one else (756, 1008))
        assert len(lab["tiles"]) == (1 if one else 2)
        # the faces stand out of the felt (its colour: the photo's border): their height (one) or width (two) is the share named
        share = int(lab["kind"].rsplit("_", 1)[1]) / 100
        felt = np.median(np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]]), axis=0)
        face = np.abs(img.astype(np.int16) - felt).max(axis=2) > 25
        extent = np.flatnonzero(face.mean(axis=1 if one else 0) > 0.1)
        span = (extent[-1] - extent[0] + 1) / (img.shape[0] if one else img.shape[1])
        assert abs(span - share) < 0.02, (name, span)
    again = closeups.build_crops(str(tmp_path / "b"), seed=3, singles=2, pairs=1)
    assert again == labels


@pytest.mark.skipif(not os.path.isdir(os.path.join(SHARED, "data", "tile-crops")), reason="../shared/data/tile-crops not present")
def test_the_stacked_close_ups_are_built_as_labelled(tmp_path):
    """training.closeups --stacked (the measure of models/HISTORY.md, "A face boxed by its sticks,
    and read in its own light"): two faces one above the other in a portrait photo, together the
    share of its height the kind names, and as narrow as two faces stacked are (their extent 2.7
    times as high as wide, more than reading.WHOLE_TALL); the same photos from the same seed."""
    import cv2
    import numpy as np

    from training import closeups

    labels = closeups.build_stacks(str(tmp_path / "a"), seed=2, stacks=2)
    assert sorted({lab["kind"] for lab in labels.values()}) == sorted(
        f"stack_{round(s * 100)}" for s in closeups.CROP_STACKED)
    assert len(labels) == 2 * len(closeups.CROP_STACKED)
    for name, lab in labels.items():
        img = cv2.imread(str(tmp_path / "a" / name))
        assert img.shape[:2] == (1008, 756) and len(lab["tiles"]) == 2
        felt = np.median(np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]]), axis=0)
        face = np.abs(img.astype(np.int16) - felt).max(axis=2) > 25
        rows, cols = np.flatnonzero(face.mean(axis=1) > 0.1), np.flatnonzero(face.mean(axis=0) > 0.1)
        high, wide = rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1
        assert abs(high / img.shape[0] - int(lab["kind"].rsplit("_", 1)[1]) / 100) < 0.02, name
        assert high / wide > reading.WHOLE_TALL, (name, high / wide)
    assert closeups.build_stacks(str(tmp_path / "b"), seed=2, stacks=2) == labels


def test_a_face_read_whole_unsurely_is_shown_to_check():
    """A face filling the frame read whole at 0.6 counts (whole_read, WHOLE_SURE 0.5), and the
    reading the phone and the server answer with flags it to check (under recognition.hand.UNSURE),
    with the tile it was next most likely to be offered."""
    from recognition import hand

    tile = face(300, 40, 0.85 * 756)
    probs = [[0.32, 0.6, 0.02, 0.01, 0.05]]  # 9p, 1m next
    assert reading.WHOLE_SURE <= 0.6 < hand.UNSURE
    assert whole_read(probs, LABELS, "none")
    layout = reading.assemble([tile], probs, [[1.0, 0.0, 0.0, 0.0]], LABELS, "none", SIZE, ON, kept=[0])
    (t,) = layout.tiles
    assert t.tile == "9p" and t.unsure and t.alternatives[0][0] == "1m"


def test_the_things_filling_the_frame_are_built_as_labelled(tmp_path):
    """training.closeups --things (the measure of models/README.md, "Dominoes and number cards"):
    cards and dominoes filling portrait and landscape photos, and keys seen close, each labelled
    with no tile; the same photos from the same seed."""
    import cv2
    import numpy as np

    from training import closeups

    labels = closeups.build_things(str(tmp_path / "a"), seed=4, each=1)
    kinds = sorted(lab["kind"] for lab in labels.values())
    assert kinds == sorted(["card"] * 2 + ["domino_across"] * 2 + ["domino_upright"] * 2 + ["keys_close"])
    for name, lab in labels.items():
        assert lab["tiles"] == [] and lab["back"] == 0
        img = cv2.imread(str(tmp_path / "a" / name))
        assert img.shape[:2] in ((1008, 756), (756, 1008))
        if lab["kind"] != "keys_close":  # a thing over most of the frame's middle, not felt
            h, w = img.shape[:2]
            felt = np.median(np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]]), axis=0)
            middle = img[h // 4:3 * h // 4, w // 4:3 * w // 4].astype(np.int16)
            assert (np.abs(middle - felt).max(axis=2) > 40).mean() > 0.3, name
    assert closeups.build_things(str(tmp_path / "b"), seed=4, each=1) == labels


def test_keys_seen_close_are_a_new_view_each_time():
    """training.closeups.close_keys: each keyboard its own view (key size, turn, place), keys of a
    tile's size filling the frame; until 2026-12-07 every seed drew one of two pictures."""
    import numpy as np

    from training import closeups

    views = [closeups.close_keys(np.random.default_rng([5, j]), (1008, 756)) for j in range(4)]
    assert all(v.shape == (756, 1008, 3) for v in views)
    assert all(not np.array_equal(a, b) for k, a in enumerate(views) for b in views[k + 1:])
    for v in views:  # keys and their letters over the frame, not one plain colour
        grey = v.mean(axis=2)
        assert grey.std() > 20 and (np.abs(np.diff(grey, axis=1)) > 60).mean() > 0.002
    assert np.array_equal(closeups.close_keys(np.random.default_rng([5, 0]), (1008, 756)), views[0])
