"""A plain light thing beside the tiles (training.plain_things paints one: a sheet, a cup from above)
is not read as haku (recognition.reading.Settings.giant, recognition.scales.giants): the classifier
sees each box shrunk to 64 px, where a plain thing twice the tiles' size is a blank face, so only
its size beside the tiles tells it from one (models/HISTORY.md, "A plain light thing read as haku")."""
from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from recognition.pipeline import MODELS_DIR, Recognizer, Settings, get_recognizer
from training import plain_things

HARD = Path(__file__).resolve().parent / "data" / "hard_cases"


def _with_a_plain_thing(case: str, seed: int) -> tuple[bytes, tuple[float, float, float, float]]:
    data = (HARD / f"{case}.jpg").read_bytes()
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    tiles = get_recognizer().recognize(data).tiles
    where = plain_things.paint(img, [t.box for t in tiles], np.random.default_rng(seed))
    assert where is not None
    for t in tiles:  # painted clear of every tile read
        assert t.box[2] < where[0] or t.box[0] > where[2] or t.box[3] < where[1] or t.box[1] > where[3]
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return buf.tobytes(), where


@pytest.mark.parametrize("case, seed", [("aslant_row", 5), ("sans_row", 6)])
def test_a_plain_thing_twice_the_tiles_size_is_not_read_as_haku(case, seed) -> None:
    photo, _ = _with_a_plain_thing(case, seed)
    want = Counter(json.loads((HARD / "labels.json").read_text())[f"{case}.jpg"]["tiles"])
    read = Counter(t.tile for t in get_recognizer().recognize(photo).tiles)
    assert read == want
    without = Recognizer.from_directory(MODELS_DIR, settings=dataclasses.replace(Settings(), giant=None))
    assert Counter(t.tile for t in without.recognize(photo).tiles) - want == Counter({"5z": 1})  # the rule's work
