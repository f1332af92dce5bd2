"""Faint peaks elsewhere (issue 19, recognition.reading.Settings.faint_elsewhere): the detector's
peaks under its threshold, of the tiles' size and shape, standing neither where a tile set apart
from a row stands nor among the tiles, are read too, and kept only when read surely as a face.

The staged haku standing far apart is in tests/test_recognition_case_scenes.py. Here, real photos:
validation photos taken four times farther off (training.perturb's far4), where tiles of the
hand are found only faintly, read more of their tiles with the rule, and none that is not there
(models/HISTORY.md, "Faint peaks elsewhere")."""
from __future__ import annotations

import dataclasses
import os
from collections import Counter

import pytest

from recognition.pipeline import Recognizer, get_recognizer
from training.datasets import load_real

SHARED = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data")
REAL = [os.path.join(SHARED, "real-photos", d) for d in
        ("alanchoi00__mahjong_detection", "alanchoi00__mahjong_detection_train")]

pytestmark = pytest.mark.skipif(not all(os.path.isdir(d) for d in REAL), reason="../shared/data/real-photos not present")

# validation photos (name fragments) whose tiles four times farther off include faint peaks elsewhere
FAR = ("IMG_2759_JPG", "IMG_20231219_161900", "IMG_20231107_231551", "IMG_20231119_102851")


def test_real_photos_far_off_read_more_of_their_tiles_by_faint_peaks_elsewhere() -> None:
    from training import perturb

    rec = get_recognizer()
    off = Recognizer(rec.detector, rec.classifier, dataclasses.replace(rec.settings, faint_elsewhere=None))
    photos = [p for p in load_real(REAL, "val") if any(f in p.name for f in FAR)]
    assert len(photos) == len(FAR)
    gained = 0
    for photo in photos:
        with open(photo.path, "rb") as f:
            data = perturb.apply("far4", f.read())[0]
        on = Counter(t.tile for t in rec.recognize(data).tiles if not t.face_down)
        without = Counter(t.tile for t in off.recognize(data).tiles if not t.face_down)
        more = on - without
        assert not without - on, photo.name  # the rule only adds
        assert not more - photo.tiles, photo.name  # what it adds is in the photo
        gained += sum(more.values())
    assert gained >= 5  # IMG_2759's 0p, 9p and 2z, a 7z, a 7p, a 5z
