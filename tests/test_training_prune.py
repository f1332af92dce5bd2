"""training.nets.prune and the classifier's widths: a narrower classifier started from a wider one."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch

from training.labels import CLASSES, ORIENTATIONS
from training.nets import SMALL_WIDTHS, WIDTHS, Classifier, prune
from training.train_classifier import distillation
from training_helpers import random_crop_arrays

OUT = len(CLASSES) + len(ORIENTATIONS)
ROOT = Path(__file__).resolve().parents[1]


def _trained(seed: int = 0) -> Classifier:
    """A classifier whose weights and batch-norm statistics are not the initial ones."""
    torch.manual_seed(seed)
    net = Classifier()
    with torch.no_grad():
        for p in net.parameters():
            p.add_(0.3 * torch.randn_like(p))
    net.train()
    for _ in range(3):
        net(torch.rand(16, 3, 64, 64))
    return net.eval()


def test_the_widths_are_read_back_from_the_weights():
    net = Classifier(SMALL_WIDTHS)
    again = Classifier.from_state(net.state_dict())
    assert again.widths == SMALL_WIDTHS
    assert Classifier.from_state(Classifier().state_dict()).widths == WIDTHS
    with pytest.raises(ValueError):
        Classifier((8, 8, 8))


def test_pruned_to_its_own_widths_it_is_the_same_network():
    net = _trained()
    crops = torch.rand(32, 3, 64, 64)
    same = prune(net, net.widths, crops).eval()
    with torch.no_grad():
        torch.testing.assert_close(same(crops), net(crops))


def test_pruning_keeps_the_channels_that_carry_most():
    net = _trained()
    crops = torch.rand(64, 3, 64, 64)
    # make one channel of the first convolution dead (never above zero after its ReLU) and one
    # strong: the pruned network keeps the strong one and drops the dead one
    with torch.no_grad():
        net.body[0][1].bias[5] = -100.0
        net.body[0][1].bias[7] = 20.0
    widths = (8,) + net.widths[1:]
    small = prune(net, widths, crops)
    kept = small.body[0][0].weight
    first = net.body[0][0].weight
    assert any(torch.equal(kept[i], first[7]) for i in range(8))
    assert not any(torch.equal(kept[i], first[5]) for i in range(8))
    # the next layer sees the same inputs, in the same order, for what was kept
    assert small.body[1][0].weight.shape == (net.widths[1], 8, 3, 3)


def test_a_narrower_network_starts_close_to_the_wider_one():
    """Pruned by half a layer's channels, the network still reads much like the one it came from,
    far more like it than a network of those widths started at random does."""
    net = _trained(1)
    crops = torch.rand(256, 3, 64, 64)
    widths = tuple(max(8, w * 3 // 4) for w in net.widths)
    small = prune(net, widths, crops[:128]).eval()
    fresh = Classifier(widths).eval()
    with torch.no_grad():
        want = net(crops[128:])
        err_pruned = (small(crops[128:]) - want).abs().mean()
        err_fresh = (fresh(crops[128:]) - want).abs().mean()
    assert err_pruned < 0.5 * err_fresh


def test_distillation_is_zero_for_the_teachers_own_reading_and_grows_away_from_it():
    torch.manual_seed(0)
    teacher = torch.randn(8, OUT)
    assert float(distillation(teacher, teacher, 2.0)) == pytest.approx(0.0, abs=1e-6)
    near = distillation(teacher + 0.1 * torch.randn(8, OUT), teacher, 2.0)
    far = distillation(torch.randn(8, OUT), teacher, 2.0)
    assert 0 < float(near) < float(far)


def test_the_training_script_prunes_a_start_and_distils_from_a_teacher(tmp_path):
    """`train_classifier --init W --widths ... --teacher W` trains a narrower network that started
    as W pruned, and saves weights of those widths."""
    data = random_crop_arrays(tmp_path, 400, 0)
    torch.save(_trained(2).state_dict(), tmp_path / "teacher.pt")
    out = tmp_path / "small.pt"
    proc = subprocess.run([sys.executable, "-m", "training.train_classifier", "--data", str(data), "--out", str(out),
                           "--init", str(tmp_path / "teacher.pt"), "--teacher", str(tmp_path / "teacher.pt"),
                           "--widths", ",".join(map(str, SMALL_WIDTHS)), "--blend", "0.5", "--epochs", "1",
                           "--batch", "64", "--warmup", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "pruned" in (tmp_path / "small.pt.log").read_text()
    small = Classifier.from_state(torch.load(out, weights_only=True))
    assert small.widths == SMALL_WIDTHS
    # a fine-tune of the narrower network, no widths given, keeps its widths (nothing to prune)
    again = tmp_path / "again.pt"
    proc = subprocess.run([sys.executable, "-m", "training.train_classifier", "--data", str(data), "--out", str(again),
                           "--init", str(out), "--epochs", "1", "--batch", "64", "--warmup", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "pruned" not in (tmp_path / "again.pt.log").read_text()
    assert Classifier.from_state(torch.load(again, weights_only=True)).widths == SMALL_WIDTHS
