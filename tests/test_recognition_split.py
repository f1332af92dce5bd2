"""Two tiles boxed as one, read by their halves (issue 19, recognition.reading.Settings.split_wide
and split_unsure).

A close-up of two tiles whose faces touch is often boxed once, around both, and read as one of
them. A box read as a tile that is 1.1 to 1.6 times as wide as high across the way its top points
(a face is 0.75), and larger than the photo's other tiles, is read again as its two halves; when
the halves read two different tiles, each surely, the box is two tiles. One face cut in half reads
as half a face, or as the same tile twice (a 6p's halves read 6p and 6p), and stays one. A box
read unsurely, about square, is read by its upper and lower halves the same way: two tiles lying
one above the other, merged into one box.
"""
from __future__ import annotations

import dataclasses
import io
import os
from collections import Counter

import numpy as np
import pytest
from PIL import Image

from recognition.pipeline import Recognizer, get_recognizer

HARD = os.path.join(os.path.dirname(__file__), "data", "hard_cases")


def _with(**changes: object) -> Recognizer:
    rec = get_recognizer()
    return Recognizer(rec.detector, rec.classifier, dataclasses.replace(rec.settings, **changes))


def _png(pixels: np.ndarray) -> bytes:
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "PNG")
    return out.getvalue()


def two_tiles(first: str, width: int, seed: int, lean: float) -> tuple[bytes, list[str]]:
    """training.closeups' pair for `first` (the face seven on beside it), each face `width` px wide,
    drawn as `python -m training.closeups --seed SEED --lean LEAN` draws it."""
    from training import closeups

    j = closeups.CODES.index(first)
    pair = [first, closeups.CODES[(j * 7 + 3) % len(closeups.CODES)]]
    return _png(closeups.photo(pair, width, width * 4 / 3, seed + j, lean)), pair


def _faces(rec: Recognizer, data: bytes) -> Counter:
    return Counter(t.tile for t in rec.recognize(data).tiles if not t.face_down)


# (first face, face width, seed, lean): close-ups the reader read as one tile, or none
PAIRS = [("6s", 300, 400, 0.03), ("8s", 200, 300, 0.02), ("3m", 300, 300, 0.02), ("4p", 300, 300, 0.02)]


@pytest.mark.parametrize("first,width,seed,lean", PAIRS)
def test_two_tiles_boxed_as_one_are_read_as_two(first: str, width: int, seed: int, lean: float) -> None:
    data, pair = two_tiles(first, width, seed, lean)
    assert _faces(get_recognizer(), data) == Counter(pair)
    alone = _faces(_with(split_wide=None), data)
    assert sum(alone.values()) < 2 and not alone - Counter(pair)


# a validation photo of a riichi set on a red mat (mahjong_detection, a validation scene): a 6p is
# boxed wide and large, and its halves read 6p and 6p, surely
SAME_HALVES = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "real-photos",
                           "alanchoi00__mahjong_detection", "images", "valid",
                           "IMG_2750_JPG.rf.371d76c36696291ca7ab774f6bfd120b.jpg")


@pytest.mark.skipif(not os.path.exists(SAME_HALVES), reason="../shared/data/real-photos not present")
def test_a_face_whose_halves_read_the_same_tile_stays_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from recognition import reading

    with open(SAME_HALVES, "rb") as f:
        data = f.read()
    halves: list[tuple[str, str]] = []
    read_again = reading.read_again

    def planned(boxes, probs, orient, plan, again, labels, *args, **kwargs):  # type: ignore[no-untyped-def]
        start = len(plan.crops) - len(plan.split)
        not_tiles = [k for k, c in enumerate(labels) if c in ("none", "back")]
        for k in range(0, len(plan.split), 2):
            (a, pa), (b, pb) = (reading._top_tile(again[start + k + n], not_tiles) for n in (0, 1))
            if min(pa, pb) >= 0.8:
                halves.append((labels[a], labels[b]))
        return read_again(boxes, probs, orient, plan, again, labels, *args, **kwargs)

    monkeypatch.setattr(reading, "read_again", planned)
    got = _faces(get_recognizer(), data)
    assert ("6p", "6p") in halves, "a wide box's halves read the same tile surely"
    monkeypatch.undo()
    assert got == _faces(_with(split_wide=None), data)


DEV = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "dev-photos")


@pytest.mark.skipif(not os.path.exists(os.path.join(DEV, "IMG_3100.jpg")), reason="../shared/data/dev-photos not present")
def test_two_tiles_merged_into_one_unsure_box_are_read_as_two() -> None:
    """Dev IMG_3100, a pile (a development photo: the rule was written on it): a 9m and a 1z lying
    sideways one above the other are boxed apart at first, then merged as fragments of one tile
    (scales.merge_fragments) into a box read as no tile unsurely (0.38). Cut along their tops
    (Settings.split_unsure), its halves read 9m and 1z, each at 0.7 or more."""
    import json

    with open(os.path.join(DEV, "IMG_3100.jpg"), "rb") as f:
        data = f.read()
    with open(os.path.join(DEV, "labels.json")) as f:
        want = Counter(json.load(f)["IMG_3100.jpg"]["tiles"])
    got, merged = _faces(get_recognizer(), data), _faces(_with(split_unsure=None), data)
    assert got - merged == Counter({"9m": 1, "1z": 1})
    assert sum((got & want).values()) == sum((merged & want).values()) + 2
    assert got - want == merged - want  # nothing more read that is not there
