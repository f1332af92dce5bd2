"""The light's colour taken off a photo before it is read (recognition.reading.colour_cast,
cast_table, thumb_size; recognition.pipeline.tinted): judged on the tiles' faces, corrected only
beyond the spread of photos as taken, and the hard cases photographed under a bulb's orange
light read by the real models."""
from __future__ import annotations

import dataclasses
import json
import math
import os
from collections import Counter

import numpy as np
import pytest

from recognition import reading
from recognition.pipeline import get_recognizer, tinted
from training import perturb

HARD = os.path.join(os.path.dirname(__file__), "data", "hard_cases")
IVORY = (236, 231, 218)  # a face as photographed in daylight: r/g 1.02, b/g 0.94
FELT = (40, 110, 70)


def _scene(light=(1.0, 1.0, 1.0), face=IVORY, n=8, w=400, h=300):
    """A thumbnail (flat RGB bytes) of `n` faces with a dark glyph on green felt, all under
    `light` (gains on red, green, blue), and the faces' boxes (x1, y1, x2, y2, score)."""
    img = np.zeros((h, w, 3), np.float64)
    img[:] = FELT
    boxes = []
    for k in range(n):
        x1, y1 = 20 + 45 * k, 100
        img[y1:y1 + 54, x1:x1 + 40] = face
        img[y1 + 18:y1 + 36, x1 + 14:x1 + 26] = (30, 30, 30)  # ink
        boxes.append((x1, y1, x1 + 40, y1 + 54, 0.9 - 0.01 * k))
    img = np.clip(img * np.array(light), 0, 255).astype(np.uint8)
    return img.tobytes(), w, h, boxes


def test_faces_as_taken_are_left_alone() -> None:
    thumb, w, h, boxes = _scene()
    assert reading.colour_cast(thumb, w, h, boxes, w, h) is None


def test_a_warm_light_is_taken_off_whole_once_judged() -> None:
    """A photo whose faces lie further from the faces of the real photos as taken than their
    spread (Settings.colour_cast) has all of the light's colour taken off (Settings.cast_whole),
    or, with cast_whole off, all but the spread."""
    light = (1.0, 0.72, 0.42)
    thumb, w, h, boxes = _scene(light)
    gains = reading.colour_cast(thumb, w, h, boxes, w, h)
    assert gains is not None and gains[1] == 1.0
    # what would take the light off exactly, to the faces of the photos as taken
    r, g, b = (IVORY[c] * light[c] for c in range(3))
    whole_red = math.log(reading.FACE_CHROMA[0] / (r / g))  # negative: less red
    whole_blue = math.log(reading.FACE_CHROMA[1] / (b / g))  # positive: more blue
    assert math.log(gains[0]) == pytest.approx(whole_red, abs=0.02)
    assert math.log(gains[2]) == pytest.approx(whole_blue, abs=0.02)
    dead = reading.Settings().colour_cast
    edge = reading.colour_cast(thumb, w, h, boxes, w, h, reading.Settings(cast_whole=False))
    assert edge is not None
    assert math.log(edge[0]) == pytest.approx(whole_red + dead, abs=0.02)
    assert math.log(edge[2]) == pytest.approx(whole_blue - dead, abs=0.02)
    assert reading.colour_cast(thumb, w, h, boxes, w, h, reading.Settings(colour_cast=None)) is None
    # a light within the spread is still left alone, whole or not
    faint = _scene((1.0, 0.97, 0.95))
    assert reading.colour_cast(*faint[:4], faint[1], faint[2]) is None


def test_faces_in_a_dim_room_are_brightened() -> None:
    """Faces darker than Settings.dim_faces are brightened to FACE_LUMA, the three gains alike
    (no colour to take off), at most DIM_MOST times; faces bright enough are left alone."""
    light = (0.45, 0.45, 0.45)
    thumb, w, h, boxes = _scene(light)
    gains = reading.colour_cast(thumb, w, h, boxes, w, h)
    assert gains is not None and gains[0] == gains[1] == gains[2]
    luma = sum(k * IVORY[c] * light[c] for c, k in enumerate((0.299, 0.587, 0.114)))
    assert luma < reading.Settings().dim_faces
    assert gains[1] == pytest.approx(reading.FACE_LUMA / luma, rel=0.03)
    darker = _scene((0.15, 0.15, 0.15))
    assert reading.colour_cast(*darker[:4], darker[1], darker[2])[1] == reading.DIM_MOST
    assert reading.colour_cast(thumb, w, h, boxes, w, h, reading.Settings(dim_faces=None)) is None
    assert reading.colour_cast(*_scene((0.8, 0.8, 0.8))[:4], w, h) is None  # bright enough as it is
    # dim and warm: the colour taken off and the faces brightened
    both = reading.colour_cast(*_scene((0.45, 0.32, 0.19))[:4], w, h)
    assert both is not None and both[1] > 1.0 and both[2] / both[1] > 1.5 > 1.0 > both[0] / both[1]


def test_boxes_are_judged_in_the_frame_the_thumbnail_was_shrunk_from() -> None:
    thumb, w, h, boxes = _scene((1.0, 0.8, 0.55))
    frame_boxes = [(x1 * 4, y1 * 4, x2 * 4, y2 * 4, s) for x1, y1, x2, y2, s in boxes]
    assert reading.colour_cast(thumb, w, h, frame_boxes, 4 * w, 4 * h) == reading.colour_cast(thumb, w, h, boxes, w, h)


def test_coloured_backs_are_not_a_light() -> None:
    """Face-down tiles only (yellow backs): no face to judge by, nothing taken off. Pale blue backs,
    five beside three faces: their colour could be a light's, but they are the darker boxes, and
    only the brighter half judges (judged all together, their median would call for a warm
    correction)."""
    yellow, pale_blue = (230, 180, 30), (120, 160, 200)
    thumb, w, h, boxes = _scene(face=yellow)
    assert reading.colour_cast(thumb, w, h, boxes, w, h) is None
    img = np.frombuffer(_scene()[0], np.uint8).reshape(h, w, 3).copy()
    for x1, y1, x2, y2, _ in boxes[3:]:
        img[int(y1):int(y2), int(x1):int(x2)] = pale_blue
    assert reading.colour_cast(img.tobytes(), w, h, boxes, w, h) is None
    backs_only = reading.colour_cast(img.tobytes(), w, h, boxes[3:], w, h)
    assert backs_only is not None and backs_only[0] > 1 > backs_only[2]  # the backs alone look like a cool light


def test_too_few_faces_judge_nothing() -> None:
    thumb, w, h, boxes = _scene((1.0, 0.72, 0.42))
    assert reading.colour_cast(thumb, w, h, boxes[:2], w, h) is None
    assert reading.colour_cast(thumb, w, h, [], w, h) is None


def test_the_table_and_the_thumbnail() -> None:
    table = reading.cast_table((0.5, 1.0, 1.7))
    assert len(table) == 768
    assert table[:4] == [0, 1, 1, 2] and table[255] == 128  # 0.5 x v, rounded half up
    assert table[256:256 + 256] == list(range(256))
    assert table[512 + 100] == 170 and table[512 + 200] == 255  # capped
    lut = np.array(table, np.uint8).reshape(3, 256).T.reshape(256, 1, 3).copy()
    px = np.array([[[10, 20, 30], [255, 255, 255]]], np.uint8)
    assert tinted(px, lut).tolist() == [[[5, 20, 51], [128, 255, 255]]]
    assert reading.thumb_size(1008, 756) == (256, 192)
    assert reading.thumb_size(757, 1008) == (192, 256)  # 757 x 256 / 1008 = 192.2: whole-number arithmetic
    assert reading.thumb_size(100, 40) == (100, 40)  # never enlarged


def _under(light: str, name: str, off: dict) -> tuple[Counter, Counter, Counter]:
    """A hard case under `light` (training.perturb, seed 1): its tiles as labelled, and the face-up
    tiles the served reader reads, and the reader with the settings `off` changed."""
    rec = get_recognizer()
    with open(os.path.join(HARD, name), "rb") as f:
        data, _ = perturb.apply(light, f.read(), seed=1)
    with open(os.path.join(HARD, "labels.json")) as f:
        want = Counter(json.load(f)[name]["tiles"])
    plain = type(rec)(rec.detector, rec.classifier, dataclasses.replace(rec.settings, **off))
    return want, *(Counter(t.tile for t in r.recognize(data).tiles if not t.face_down) for r in (rec, plain))


@pytest.mark.parametrize("name", ["closeup_two.jpg", "keyboard_hand.jpg", "sans_row.jpg"])
def test_hard_cases_in_a_dim_room_are_read_when_brightened(name: str) -> None:
    """Three hard cases in a dim room (training.perturb's "dim": a third of the light, a cast,
    sensor noise): their faces brightened (Settings.dim_faces), every tile is right; read as they
    are, tiles are lost or misread. Of the 24 cases so, 6 are gained and 2 lost (standing_low,
    and standing_tall, read wrong as taken too). The dim close-up is also read right unbrightened
    by the coarse pass for tiles filling the frame (Settings.whole_tiles), off here too."""
    want, brightened, plain = _under("dim", name, {"dim_faces": None, "whole_tiles": None})
    assert brightened == want
    assert plain != want


@pytest.mark.parametrize("name,needed", [("crops_row.jpg", True), ("pile_blank.jpg", True), ("keyboard_hand.jpg", False)])
def test_hard_cases_under_a_bulb_are_read_as_in_daylight(name: str, needed: bool) -> None:
    """Three hard cases under a bulb's orange light the camera kept (training.perturb's
    "tungsten"): read as taken, tiles are lost or misread (crops_row 12/14, pile_blank 8/12,
    keyboard_hand 12/14 and two invented; keyboard_hand read right as taken since the classifier
    trained on the corrected labels); with the light taken off, every tile is right."""
    want, corrected, plain = _under("tungsten", name, {"colour_cast": None})
    assert corrected == want
    assert (plain != want) == needed


SHARED = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data")
REAL = [os.path.join(SHARED, "real-photos", d) for d in
        ("alanchoi00__mahjong_detection", "alanchoi00__mahjong_detection_train")] + [os.path.join(SHARED, "dev-photos")]


@pytest.mark.skipif(not all(os.path.isdir(d) for d in REAL), reason="../shared/data photos not present")
@pytest.mark.parametrize("light", ["warm", "tungsten"])
def test_red_fives_under_a_lamp_are_found_with_the_whole_cast_taken_off(light: str) -> None:
    """Every real photo with a red five (26 photos, 40 red fives, both splits and the dev photos)
    under a lamp's colour (training.perturb): with the whole cast taken off (Settings.cast_whole),
    at least 0.9 of them are found, as in daylight (39 of 40), and none read where there is none;
    corrected only to the edge of the spread of photos as taken, the red ink keeps too little
    contrast on the orange faces, and fewer are found (warm 32, tungsten 29 of 40, 2026-12-04)."""
    from training.datasets import load_real

    photos = [p for p in load_real(REAL) if any(t[0] == "0" for t in p.tiles)]
    rec = get_recognizer()
    edge = type(rec)(rec.detector, rec.classifier, dataclasses.replace(rec.settings, cast_whole=False))

    def fives(reader) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
        hit = total = invented = 0
        for ph in photos:
            with open(ph.path, "rb") as f:
                data, _ = perturb.apply(light, f.read(), seed=0)
            got = Counter(t.tile for t in reader.recognize(data).tiles if not t.face_down)
            want = Counter(ph.tiles)
            for c in ("0m", "0p", "0s"):
                total += want[c]
                hit += min(want[c], got[c])
                invented += max(0, got[c] - want[c])
        return hit, total, invented

    hit, total, invented = fives(rec)
    assert total >= 40 and hit >= 0.9 * total and invented == 0, (hit, total, invented)
    assert fives(edge)[0] < hit


# -- a blank face lit less than the faces round it (reading.unlit_blanks) --------------------------

UNLIT_LABELS = ["1m", "5z", "back", "none"]
GREY = (128, 126, 122)  # a dark set's back under a lamp's reflection: no blank face is this dull beside ivory


def _blank_at(k: int, colour=IVORY, shade: tuple[int, int, float] | None = None, h: int = 300):
    """_scene's eight faces with the k-th painted plain `colour` (no ink) and read as haku, the rest
    read as 1m; with `shade` (first face, last face, gain), those faces lie in a shadow. The
    thumbnail, its Thumb, the boxes and the probabilities."""
    thumb, w, h, boxes = _scene(h=h)
    img = np.frombuffer(thumb, np.uint8).reshape(h, w, 3).astype(np.float64)
    x1, y1, x2, y2, _ = boxes[k]
    img[int(y1):int(y2), int(x1):int(x2)] = colour
    if shade is not None:
        img[:, int(boxes[shade[0]][0]) - 2:int(boxes[shade[1]][2]) + 2] *= shade[2]
    pixels = np.clip(img, 0, 255).astype(np.uint8).tobytes()
    probs = [[0.95, 0.02, 0.02, 0.01] for _ in boxes]
    probs[k] = [0.03, 0.85, 0.1, 0.02]
    return pixels, reading.Thumb(pixels, (w, h), (w, h)), boxes, probs


def _reads(probs: list[list[float]]) -> list[str]:
    return [UNLIT_LABELS[max(range(len(p)), key=p.__getitem__)] for p in probs]


def test_a_blank_lit_less_than_the_faces_round_it_is_read_as_a_back() -> None:
    _, thumb, boxes, probs = _blank_at(3, GREY)
    got = reading.unlit_blanks(boxes, probs, UNLIT_LABELS, "none", thumb)
    assert _reads(got) == ["1m"] * 3 + ["back"] + ["1m"] * 4
    assert got[3] == [0.03, 0.1, 0.85, 0.02]  # haku's and back's probabilities swapped, the rest as read
    assert probs[3] == [0.03, 0.85, 0.1, 0.02]  # the probabilities given are left alone
    # a white blank face, as bright as the ground of the faces round it: haku
    _, thumb, boxes, probs = _blank_at(3)
    assert _reads(reading.unlit_blanks(boxes, probs, UNLIT_LABELS, "none", thumb))[3] == "5z"
    # just under and just over the bar (0.74 of the faces' ground)
    for gain, read in ((0.72, "back"), (0.76, "5z")):
        _, thumb, boxes, probs = _blank_at(3, tuple(c * gain for c in IVORY))
        assert _reads(reading.unlit_blanks(boxes, probs, UNLIT_LABELS, "none", thumb))[3] == read, gain


def test_a_blank_in_a_shadow_with_its_neighbours_stays_haku() -> None:
    """A shadow over one end of the row (the faces from the fifth on at 0.6 of the light): the blank
    face there is darker than the photo's faces, but as bright as the faces round it."""
    _, thumb, boxes, probs = _blank_at(6, shade=(4, 7, 0.6))
    assert _reads(reading.unlit_blanks(boxes, probs, UNLIT_LABELS, "none", thumb))[6] == "5z"
    # a grey back in the same shadow is darker than its neighbours too
    _, thumb, boxes, probs = _blank_at(6, GREY, shade=(4, 7, 0.6))
    assert _reads(reading.unlit_blanks(boxes, probs, UNLIT_LABELS, "none", thumb))[6] == "back"


def test_a_blank_read_with_no_trace_of_a_back_stays_haku_however_dark() -> None:
    """A haku beyond a shadow's edge is as dark beside the faces lit round it as a grey back, but the
    classifier sees no back in it (0.02 and less): judged only from reading.UNLIT_BACK."""
    _, thumb, boxes, probs = _blank_at(3, GREY)
    for trace, read in ((reading.UNLIT_BACK - 0.005, "5z"), (reading.UNLIT_BACK, "back")):
        probs[3] = [0.02, 0.98 - trace - 0.01, trace, 0.01]
        assert _reads(reading.unlit_blanks(boxes, probs, UNLIT_LABELS, "none", thumb))[3] == read, trace


def test_a_blank_is_a_back_only_when_the_photo_and_the_darkest_of_its_neighbours_find_it_dark() -> None:
    """A blank face at 0.6 of the light: beside a neighbour in the same shadow (the darkest of its
    four nearest faces judges), haku; beside bright faces only, in a photo whose faces are mostly
    as dull as it (a second row, below, in a shadow), haku; beside bright faces in a bright photo,
    a back."""
    dull = tuple(0.6 * c for c in IVORY)
    _, thumb, boxes, probs = _blank_at(6, dull, shade=(3, 3, 0.6))
    assert _reads(reading.unlit_blanks(boxes, probs, UNLIT_LABELS, "none", thumb))[6] == "5z"
    pixels, thumb, boxes, probs = _blank_at(0, dull)
    assert _reads(reading.unlit_blanks(boxes, probs, UNLIT_LABELS, "none", thumb))[0] == "back"
    # the row again, far below (farther than the blank's four nearest faces), in a shadow
    pixels, thumb, boxes, probs = _blank_at(0, dull, h=500)
    img = np.frombuffer(pixels, np.uint8).reshape(thumb.size[1], thumb.size[0], 3).copy()
    below = [(x1, y1 + 300, x2, y2 + 300, s) for x1, y1, x2, y2, s in boxes]
    img[400:454] = (img[100:154] * 0.6).astype(np.uint8)
    assert min(math.dist(boxes[0][:2], b[:2]) for b in below) > math.dist(boxes[0][:2], boxes[4][:2])
    two_rows = reading.Thumb(img.tobytes(), thumb.size, thumb.frame)
    both = reading.unlit_blanks(boxes + below, probs + [[0.95, 0.02, 0.02, 0.01]] * 8, UNLIT_LABELS, "none", two_rows)
    assert _reads(both)[0] == "5z"
    # the setting off, or no thumbnail: nothing changed
    off = reading.Settings(unlit_blank=None)
    assert reading.unlit_blanks(boxes, probs, UNLIT_LABELS, "none", thumb, off) == probs
    assert reading.unlit_blanks(boxes, probs, UNLIT_LABELS, "none", None) == probs
    # one face to judge by is too few
    two = [boxes[0], boxes[1]]
    assert reading.unlit_blanks(two, [probs[0], probs[1]], UNLIT_LABELS, "none", thumb) == [probs[0], probs[1]]


def test_blanks_are_judged_in_the_frame_the_thumbnail_was_shrunk_from() -> None:
    """The boxes in the pixels of a frame four times the thumbnail's size, or of that frame turned
    a quarter (the thumbnail is of the frame as taken): the same reading."""
    pixels, thumb, boxes, probs = _blank_at(3, GREY)
    w, h = thumb.size
    big = reading.Thumb(pixels, (w, h), (4 * w, 4 * h))
    frame_boxes = [(x1 * 4, y1 * 4, x2 * 4, y2 * 4, s) for x1, y1, x2, y2, s in boxes]
    want = reading.unlit_blanks(boxes, probs, UNLIT_LABELS, "none", thumb)
    assert reading.unlit_blanks(frame_boxes, probs, UNLIT_LABELS, "none", big) == want
    turn = reading.turn_frame(90.0, 4 * w, 4 * h)
    (a, b, c), (d, e, f) = turn.matrix

    def turned(box):  # the box's corners taken to the turned canvas
        xs, ys = zip(*[(a * x + b * y + c, d * x + e * y + f) for x in (box[0], box[2]) for y in (box[1], box[3])])
        return (min(xs), min(ys), max(xs), max(ys), box[4])

    got = reading.unlit_blanks([turned(bx) for bx in frame_boxes], probs, UNLIT_LABELS, "none", big, turn=turn)
    assert _reads(got) == _reads(want)
