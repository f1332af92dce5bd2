"""Dominoes and number cards as a detector's box frames them (training.distractors' games), and the
fine-tune that learns the drawn clutter while held to a teacher everywhere else
(train_classifier --teach-clutter)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from training import distractors
from training.labels import CLASSES, NONE, ORIENTATIONS
from training.nets import Classifier
from training.train_classifier import clutter_and_teacher, distillation
from training_helpers import random_crop_arrays

ROOT = Path(__file__).resolve().parents[1]
N_CLS = len(CLASSES)


def test_a_die_face_and_a_card_hold_as_many_marks_as_their_number():
    assert {n: len(p) for n, p in distractors.DIE_PIPS.items()} == {n: n for n in range(7)}
    assert all(len(set(p)) == n for n, p in distractors.DIE_PIPS.items())  # no pip drawn twice
    assert {n: len(c) for n, c in distractors.CARD_COLUMNS.items()} == {n: n for n in range(2, 11)}
    for n, cols in distractors.CARD_COLUMNS.items():  # the left and right columns mirror each other
        assert cols.count(-1) == cols.count(1), n


def _ink(img: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    return (np.abs(img.astype(int) - np.array(colour)).sum(2) < 40)


@pytest.mark.parametrize("seed", range(6))
def test_a_domino_half_fills_the_box_and_its_other_half_runs_out_of_it(seed):
    """Drawn at the centre of a 64 px crop as the classifier's crops are cut (the box 1/1.2 of the
    crop): the half in the box covers the centre, and the domino reaches the crop's edge."""
    rng = np.random.default_rng(seed)
    img = np.zeros((64, 64, 3), np.uint8)
    distractors.draw(img, "domino_half", 32, 32, 64 / 1.2, rng)
    drawn = img.any(2)
    assert drawn[24:40, 24:40].all()  # the middle of the box is the domino
    assert drawn[0].any() or drawn[-1].any() or drawn[:, 0].any() or drawn[:, -1].any()


@pytest.mark.parametrize("seed", range(6))
def test_a_number_card_lies_whole_in_the_box_with_its_marks(seed):
    rng = np.random.default_rng(seed)
    img = np.zeros((64, 64, 3), np.uint8)
    pts = distractors.draw(img, "number_card", 32, 32, 64 / 1.2, rng)
    drawn = img.any(2)
    assert not (drawn[0].any() or drawn[-1].any() or drawn[:, 0].any() or drawn[:, -1].any())  # whole
    x1, y1 = pts.min(0)
    x2, y2 = pts.max(0)
    assert 1.1 < (y2 - y1) / (x2 - x1) < 1.6  # a card stands about as a tile does (turned a little)
    face = img[y1:y2, x1:x2]
    marks = ~_ink(face, (246, 245, 240)) & face.any(2)
    assert 0.02 < marks.mean() < 0.5  # marks on white, not a blank card


def test_the_games_add_to_every_earlier_kind():
    assert distractors.KINDS_GAMES[:len(distractors.KINDS_FOCUS)] == distractors.KINDS_FOCUS
    assert set(distractors.KINDS_GAMES) - set(distractors.KINDS_FOCUS) == {"domino_half", "number_card"}


def _logits(rows: list[int]) -> torch.Tensor:
    """Logits reading each crop as the class given, surely, tops up."""
    out = torch.full((len(rows), N_CLS + len(ORIENTATIONS)), -8.0)
    for i, c in enumerate(rows):
        out[i, c] = 8.0
        out[i, N_CLS] = 8.0
    return out


def test_drawn_crops_are_taught_none_and_the_others_the_teachers_reading():
    none, haku = CLASSES.index(NONE), CLASSES.index("5z")
    teacher = _logits([haku, CLASSES.index("0p"), haku])
    drawn = torch.tensor([True, False, False])
    right = _logits([none, CLASSES.index("0p"), haku])  # the domino read as no tile, the rest as the teacher
    assert clutter_and_teacher(right, teacher, drawn, 2.0) < 0.01
    # the drawn crop's reading by the teacher counts for nothing: only "none" does
    assert torch.isclose(clutter_and_teacher(right, _logits([CLASSES.index("1m"), CLASSES.index("0p"), haku]),
                                             drawn, 2.0), clutter_and_teacher(right, teacher, drawn, 2.0))
    assert clutter_and_teacher(teacher, teacher, drawn, 2.0) > 1.0  # the domino read as haku: taught
    plain_five = _logits([none, CLASSES.index("5p"), haku])
    assert clutter_and_teacher(plain_five, teacher, drawn, 2.0) > 1.0  # a red five moved: taught back
    # with nothing drawn it is the distillation alone
    nothing = torch.zeros(3, dtype=torch.bool)
    assert torch.isclose(clutter_and_teacher(plain_five, teacher, nothing, 2.0), distillation(plain_five, teacher, 2.0))


def test_the_training_script_teaches_clutter_from_a_teacher_and_refuses_it_without_one(tmp_path):
    data = random_crop_arrays(tmp_path, 800, 2)
    torch.manual_seed(0)
    torch.save(Classifier().state_dict(), tmp_path / "teacher.pt")
    base = [sys.executable, "-m", "training.train_classifier", "--data", str(data), "--init", str(tmp_path / "teacher.pt"),
            "--teach-clutter", "--clutter", "games", "--epochs", "1", "--batch", "64", "--warmup", "1"]
    proc = subprocess.run(base + ["--teacher", str(tmp_path / "teacher.pt"), "--distractors", "0.2",
                                  "--out", str(tmp_path / "out.pt")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert Classifier.from_state(torch.load(tmp_path / "out.pt", weights_only=True)) is not None
    proc = subprocess.run(base + ["--distractors", "0.2", "--out", str(tmp_path / "no.pt")], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "--teach-clutter needs --teacher and --distractors" in proc.stderr
    assert not (tmp_path / "no.pt").exists()

