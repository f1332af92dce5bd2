"""training.soup: the uniform average of classifiers fine-tuned from one start."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch

from training.nets import Classifier
from training.soup import average

ROOT = Path(__file__).resolve().parents[1]


def _trained_copy(seed: int) -> dict[str, torch.Tensor]:
    torch.manual_seed(seed)
    net = Classifier()
    with torch.no_grad():
        for p in net.parameters():
            p.add_(torch.randn_like(p))
    net.train()
    net(torch.rand(4, 3, 64, 64))  # moves the batch-norm statistics and step counters
    return {k: v.clone() for k, v in net.state_dict().items()}


def test_weights_and_statistics_are_averaged_counters_kept():
    a, b, c = _trained_copy(1), _trained_copy(2), _trained_copy(3)
    soup = average([a, b, c])
    assert soup.keys() == a.keys()
    floats = [k for k, v in a.items() if v.is_floating_point()]
    counters = [k for k, v in a.items() if not v.is_floating_point()]
    assert any("running_mean" in k for k in floats) and counters
    for key in floats:
        torch.testing.assert_close(soup[key], (a[key] + b[key] + c[key]) / 3)
        assert not torch.equal(soup[key], a[key])
    for key in counters:
        assert torch.equal(soup[key], a[key])


def test_the_soup_is_a_network_of_the_same_shape():
    soup = average([_trained_copy(1), _trained_copy(2)])
    net = Classifier()
    net.load_state_dict(soup)  # strict: same tensors, same shapes
    net.eval()
    out = net(torch.rand(2, 3, 64, 64))
    assert all(torch.isfinite(o).all() for o in (out if isinstance(out, tuple) else (out,)))


def test_weights_of_other_networks_are_refused():
    a = _trained_copy(1)
    other = dict(a)
    key = next(k for k, v in a.items() if v.dim() == 4)
    other[key] = torch.zeros(1, *a[key].shape[1:])
    with pytest.raises(ValueError, match=key):
        average([a, other])
    fewer = {k: v for k, v in a.items() if k != key}
    with pytest.raises(ValueError, match="other tensors"):
        average([a, fewer])
    with pytest.raises(ValueError):
        average([])


def test_the_command_writes_the_same_bytes_each_time(tmp_path):
    for i, seed in enumerate((1, 2)):
        torch.save(_trained_copy(seed), tmp_path / f"w{i}.pt")
    outs = []
    for run in range(2):
        out = tmp_path / f"run{run}" / "classifier.pt"  # torch.save writes the file's name into it
        out.parent.mkdir()
        subprocess.run([sys.executable, "-m", "training.soup", "--out", str(out), str(tmp_path / "w0.pt"),
                        str(tmp_path / "w1.pt")], cwd=ROOT, check=True, capture_output=True, timeout=120)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    loaded = torch.load(tmp_path / "run0" / "classifier.pt", weights_only=True)
    torch.testing.assert_close(loaded, average([_trained_copy(1), _trained_copy(2)]))
    one = subprocess.run([sys.executable, "-m", "training.soup", "--out", str(tmp_path / "x.pt"),
                          str(tmp_path / "w0.pt")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert one.returncode != 0 and "two weights files" in one.stderr
