"""The classifier's out-of-focus augmentation (training.train_classifier.defocus)."""
from __future__ import annotations

import torch

from training.train_classifier import defocus


def _checkers(n: int) -> torch.Tensor:
    """n crops of sharp 8-px black and white squares, as ink on a face is."""
    ys, xs = torch.meshgrid(torch.arange(64), torch.arange(64), indexing="ij")
    board = (((ys // 8) + (xs // 8)) % 2).float()
    return board.expand(n, 3, 64, 64).clone()


def _edge_energy(x: torch.Tensor) -> torch.Tensor:
    """Per crop, the mean squared difference between neighbouring pixels (a blur spreads a step
    over more pixels: the same total rise in smaller steps)."""
    return (x[..., :, 1:] - x[..., :, :-1]).pow(2).mean(dim=(1, 2, 3))


def test_off_it_changes_nothing_and_draws_no_random_number():
    x = _checkers(8)
    g = torch.Generator().manual_seed(3)
    before = g.get_state()
    assert torch.equal(defocus(x, g, 0.0, 5.0), x)
    assert torch.equal(defocus(x, g, 0.5, 1.0), x)
    # the recipes that do not ask for it (stages 1 and 2) draw the same numbers as before it existed
    assert torch.equal(g.get_state(), before)


def test_it_blurs_the_picked_share_and_keeps_the_rest_and_the_ink():
    x = _checkers(400)
    out = defocus(x, torch.Generator().manual_seed(5), 0.5, 5.0)
    changed = (out - x).abs().amax(dim=(1, 2, 3)) > 1e-6
    assert 150 < int(changed.sum()) < 250
    assert torch.equal(out[~changed], x[~changed])
    # blurred: the edges soften to well under half their energy, the ink stays where it was
    assert float(_edge_energy(out[changed]).max()) < 0.5 * float(_edge_energy(x[:1]))
    assert torch.allclose(out[changed].mean(dim=(1, 2, 3)), x[changed].mean(dim=(1, 2, 3)), atol=0.02)
    assert float(out.min()) >= 0.0 and float(out.max()) <= 1.0


def test_a_larger_sigma_blurs_more():
    x = _checkers(64)
    soft = defocus(x, torch.Generator().manual_seed(1), 1.0, 1.5)
    hard = defocus(x, torch.Generator().manual_seed(1), 1.0, 6.0)
    assert float(_edge_energy(hard).mean()) < float(_edge_energy(soft).mean())


def test_spared_crops_stay_sharp():
    x = _checkers(200)
    spare = torch.arange(200) % 2 == 0
    out = defocus(x, torch.Generator().manual_seed(2), 1.0, 4.0, spare)
    assert torch.equal(out[spare], x[spare])
    assert float(_edge_energy(out[~spare]).max()) < float(_edge_energy(x[:1]))
