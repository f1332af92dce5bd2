"""The overexposure augmentation of the classifier (training.train_classifier.overexpose): a photo
brighter than the camera should take it, its faces clipped white (models/HISTORY.md, "An
overexposed photo")."""
from __future__ import annotations

import torch

from training.train_classifier import overexpose


def _ink_on_face(n: int) -> torch.Tensor:
    """n crops of an ivory face (0.7) with a dark stroke (0.2) down its middle."""
    x = torch.full((n, 3, 64, 64), 0.7)
    x[:, :, :, 28:36] = 0.2
    return x


def test_off_it_changes_nothing_and_draws_no_random_number():
    x = _ink_on_face(8)
    g = torch.Generator().manual_seed(3)
    before = g.get_state()
    assert torch.equal(overexpose(x, g, 0.0), x)
    assert torch.equal(g.get_state(), before)  # the recipes that do not ask for it draw the same numbers


def test_the_picked_share_is_brightened_and_clipped_white_and_the_rest_kept():
    x = _ink_on_face(400)
    out = overexpose(x, torch.Generator().manual_seed(5), 0.5)
    changed = (out - x).abs().amax(dim=(1, 2, 3)) > 1e-6
    assert 150 < int(changed.sum()) < 250
    assert torch.equal(out[~changed], x[~changed])
    face, ink = out[changed][:, :, :, :20], out[changed][:, :, :, 28:36]
    gain = ink.mean(dim=(1, 2, 3)) / 0.2  # the ink, never clipped, gives each crop's gain
    assert float(gain.min()) >= 1.2 - 1e-4 and float(gain.max()) <= 1.8 + 1e-4
    assert float(gain.max()) > 1.6 and float(gain.min()) < 1.4  # spread over the range
    # the face is the ivory times the gain, at most white: clipped where the gain passes 1 / 0.7
    assert torch.allclose(face.mean(dim=(1, 2, 3)), (0.7 * gain).clamp(max=1.0), atol=1e-5)
    assert int((face.amin(dim=(1, 2, 3)) >= 1.0).sum()) > 0.5 * int(changed.sum())
