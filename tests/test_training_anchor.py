"""A fine-tune anchored to the detector it starts from (training.train_detector.anchor_loss: where
the anchor finds a tile, its heat, box sizes and offsets are taught beside the labels), its batch
norms' statistics kept (train_mode)."""
from __future__ import annotations

import torch

from training.nets import Detector
from training.train_detector import ANCHOR_HEAT, anchor_loss, train_mode


def _map(heat_prob: float, size: float = 1.0) -> torch.Tensor:
    """A (1, 5, 4, 4) detector map: one cell (1, 2) with heat `heat_prob`, the rest cold."""
    out = torch.zeros(1, 5, 4, 4)
    out[0, 0] = -6.0
    out[0, 0, 1, 2] = torch.logit(torch.tensor(heat_prob))
    out[0, 1:3, 1, 2] = size
    return out


def test_it_is_least_where_the_map_is_the_anchors_and_grows_as_its_boxes_move():
    kept = _map(0.8)
    same = anchor_loss(kept.clone(), kept)
    wider = anchor_loss(_map(0.8, size=1.3), kept)
    much_wider = anchor_loss(_map(0.8, size=2.0), kept)
    assert same < wider < much_wider
    # at the anchor's own map only the soft heat target's entropy is left: no box term
    p = torch.tensor(0.8)
    entropy = -(p * p.log() + (1 - p) * (1 - p).log())
    assert torch.isclose(same, entropy, atol=1e-5)
    cooler = anchor_loss(_map(0.3), kept)
    assert cooler > same


def test_cells_the_anchor_finds_no_tile_in_are_left_to_the_labels():
    kept = _map(ANCHOR_HEAT / 2)  # nowhere at ANCHOR_HEAT: nothing anchored
    moved = _map(0.9, size=3.0)
    moved[0, 3:5] = 5.0
    assert float(anchor_loss(moved, kept)) == 0.0


def test_its_gradient_moves_the_box_back_towards_the_anchors():
    kept = _map(0.8, size=1.0)
    out = _map(0.8, size=1.5).requires_grad_(True)
    anchor_loss(out, kept).backward()
    assert out.grad is not None
    assert float(out.grad[0, 1, 1, 2]) > 0 and float(out.grad[0, 2, 1, 2]) > 0  # descending shrinks it
    assert float(out.grad[0, 1, 0, 0]) == 0.0   # a cold cell gets no pull


def test_frozen_batch_norms_keep_their_statistics_while_the_weights_still_learn():
    torch.manual_seed(0)
    net = Detector()
    bns = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    before = [m.running_mean.clone() for m in bns]
    x = torch.rand(2, 3, 64, 64) * 0.3 + 0.6   # pale crops, unlike what the statistics came from
    train_mode(net, freeze_bn=True)
    net(x).sum().backward()
    assert all(torch.equal(m.running_mean, b) for m, b in zip(bns, before))
    assert all(not m.training for m in bns) and net.training
    assert next(net.parameters()).grad is not None
    train_mode(net, freeze_bn=False)
    net(x)
    assert not all(torch.equal(m.running_mean, b) for m, b in zip(bns, before))
