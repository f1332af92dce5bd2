"""The classifier's shaken-photo augmentation (training.train_classifier.shake), and the teacher
that reads the crops before they are shaken (--teach-sharp)."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

import torch

from training.nets import Classifier
from training.train_classifier import shake, sharp_and_shaken
from training_helpers import random_crop_arrays

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _dots(n: int) -> torch.Tensor:
    """n crops, each one white pixel in the middle of black."""
    x = torch.zeros(n, 3, 64, 64)
    x[:, :, 32, 32] = 1.0
    return x


def test_off_it_changes_nothing_and_draws_no_random_number():
    x = _dots(8)
    g = torch.Generator().manual_seed(3)
    before = g.get_state()
    assert torch.equal(shake(x, g, 0.0, 9.0), x)
    # the recipes that do not ask for it draw the same numbers as before it existed
    assert torch.equal(g.get_state(), before)


def test_a_dot_is_drawn_out_into_a_line_of_the_length_asked_keeping_its_light():
    x = _dots(300)
    out = shake(x, torch.Generator().manual_seed(5), 0.5, 9.0)
    changed = (out - x).abs().amax(dim=(1, 2, 3)) > 1e-6
    assert 100 < int(changed.sum()) < 200
    assert torch.equal(out[~changed], x[~changed])
    lit = out[changed][:, 0] > 1e-6
    ys, xs = lit[0].nonzero(as_tuple=True)
    span = max(int(ys.max() - ys.min()), int(xs.max() - xs.min())) + 1
    assert 3 <= span <= 10 and int(lit[0].sum()) <= span + 2  # a thin line, not a disc
    assert torch.allclose(out[changed].sum(dim=(2, 3)), torch.ones(int(changed.sum()), 3), atol=1e-4)


def test_spared_crops_stay_sharp():
    x = _dots(200)
    spare = torch.arange(200) % 2 == 0
    out = shake(x, torch.Generator().manual_seed(2), 1.0, 9.0, spare)
    assert torch.equal(out[spare], x[spare])
    assert bool(((out[~spare] - x[~spare]).abs().amax(dim=(1, 2, 3)) > 1e-6).all())


def test_with_teach_sharp_the_network_reads_the_crops_shaken_and_the_teacher_reads_them_sharp():
    x = _dots(200)
    spare = torch.arange(200) % 4 == 0
    args = argparse.Namespace(teach_sharp=True, shake=1.0, shake_max=9.0)
    read, taught = sharp_and_shaken(x, torch.Generator().manual_seed(4), args, spare)
    assert torch.equal(taught, x)
    # the network's crops are the ones shake makes with the same numbers drawn, spared ones sharp
    assert torch.equal(read, shake(x, torch.Generator().manual_seed(4), 1.0, 9.0, spare))
    assert torch.equal(read[spare], x[spare]) and not torch.equal(read[~spare], x[~spare])


def test_without_it_both_read_the_same_crops_and_nothing_is_drawn():
    x = _dots(8)
    g = torch.Generator().manual_seed(3)
    before = g.get_state()
    read, taught = sharp_and_shaken(x, g, argparse.Namespace(teach_sharp=False, shake=1.0, shake_max=9.0),
                                    torch.zeros(8, dtype=torch.bool))
    assert read is x and taught is x
    assert torch.equal(g.get_state(), before)


def test_the_training_script_teaches_shaken_crops_from_a_sharp_teacher_and_refuses_it_without_shake(tmp_path):
    data = random_crop_arrays(tmp_path, 800, 1)
    torch.manual_seed(0)
    torch.save(Classifier().state_dict(), tmp_path / "teacher.pt")
    base = [sys.executable, "-m", "training.train_classifier", "--data", str(data), "--init", str(tmp_path / "teacher.pt"),
            "--teacher", str(tmp_path / "teacher.pt"), "--teach-sharp", "--epochs", "1", "--batch", "64", "--warmup", "1"]
    proc = subprocess.run(base + ["--out", str(tmp_path / "out.pt"), "--shake", "0.5"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert Classifier.from_state(torch.load(tmp_path / "out.pt", weights_only=True)) is not None
    proc = subprocess.run(base + ["--out", str(tmp_path / "no.pt")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "--teach-sharp needs --teacher and --shake" in proc.stderr
    assert not (tmp_path / "no.pt").exists()
