"""The classifier's shaken-photo augmentation (training.train_classifier.shake)."""
from __future__ import annotations

import torch

from training.train_classifier import shake


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
