"""The light augmentations: the lamp-reflection ones, the classifier's (training.train_classifier.veil)
and the detector's (training.train_detector.veil), and the classifier's overexposure
(training.train_classifier.overexpose: a photo brighter than the camera should take it, its faces
clipped white; models/HISTORY.md, "An overexposed photo")."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from training import train_detector
from training.train_classifier import overexpose, veil


def _ink_on_face(n: int, face: float = 0.9, ink: float = 0.0) -> torch.Tensor:
    """n crops of an ivory face (`face`) with a stroke of `ink` (black by default) down its middle."""
    x = torch.full((n, 3, 64, 64), face)
    x[:, :, :, 28:36] = ink
    return x


@pytest.mark.parametrize("augmentation", [veil, overexpose])
def test_off_it_changes_nothing_and_draws_no_random_number(augmentation):
    x = _ink_on_face(8)
    g = torch.Generator().manual_seed(3)
    before = g.get_state()
    assert torch.equal(augmentation(x, g, 0.0), x)
    # the recipes that do not ask for it draw the same numbers as before it existed
    assert torch.equal(g.get_state(), before)


def test_it_lifts_the_darks_of_the_picked_share_and_keeps_the_rest():
    x = _ink_on_face(400)
    out = veil(x, torch.Generator().manual_seed(5), 0.5)
    changed = (out - x).abs().amax(dim=(1, 2, 3)) > 1e-6
    assert 150 < int(changed.sum()) < 250
    assert torch.equal(out[~changed], x[~changed])
    ink = out[changed][:, :, :, 28:36]
    face = out[changed][:, :, :, :20]
    # the ink turns grey (lifted by 0.15 to 0.65 where the veil is whole, at least half that across
    # the middle of a faded one), and the face stays as light as it was, the lamp's white over it
    assert float(ink.amax(dim=(1, 2, 3)).min()) >= 0.5 * 0.15 * 0.92 - 1e-6
    assert float(ink.amax()) <= 0.65 + 1e-6
    assert float(face.amin()) >= 0.9 - 1e-6
    # still a stroke on a face: the veil lowers the contrast, never inverts it
    assert bool((face.mean(dim=(1, 2, 3)) > ink.mean(dim=(1, 2, 3))).all())
    assert float(out.min()) >= 0.0 and float(out.max()) <= 1.0


def test_some_veils_fade_across_the_crop():
    x = torch.zeros(200, 3, 64, 64)  # black crops: what is left is the veil itself
    out = veil(x, torch.Generator().manual_seed(7), 1.0)
    lum = out.mean(dim=1)
    spread = lum.flatten(1).amax(1) - lum.flatten(1).amin(1)
    even = spread < 1e-5
    # about half are even over the crop, the others fade, some to a small part of their strength
    assert 60 < int(even.sum()) < 140
    faded = ~even
    assert float((lum[faded].flatten(1).amin(1) / lum[faded].flatten(1).amax(1)).min()) < 0.3


def test_the_detector_s_veil_is_a_soft_spot_that_lifts_the_darks_under_it():
    im = np.zeros((256, 256, 3), np.uint8)
    im[:, ::8] = 230  # light lines on black: a tile's ink and face, over the whole crop
    rng = np.random.default_rng(4)
    lifted = []
    for _ in range(50):
        out = train_detector.veil(im, rng)
        dark = out[:, 1::8].astype(np.float32).mean(axis=2)  # what was black
        lifted.append(float(dark.max()))
        assert float(dark.max()) <= 0.65 * 255 + 1
        # a spot, not an even veil: somewhere in the crop the darks stay darker than its brightest
        assert float(dark.min()) < float(dark.max())
        # the light lines stay as light (the lamp's white is lighter than they are)
        assert int(out[:, ::8].min()) >= 229
    assert min(lifted) < 0.4 * 255 < max(lifted)


def test_overexposure_brightens_the_picked_share_and_clips_it_white_and_keeps_the_rest():
    x = _ink_on_face(400, face=0.7, ink=0.2)
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


def test_the_detector_s_overexposure_clips_the_faces_white_and_keeps_the_ink_a_stroke():
    im = np.full((64, 64, 3), (200, 190, 170), np.uint8)  # an ivory face
    im[20:40, 30:34] = (40, 90, 50)  # a green stroke
    rng = np.random.default_rng(6)
    gains = []
    for _ in range(40):
        out = train_detector.overexposed(im, rng)
        gain = float(out[30, 31, 1]) / 90  # the stroke's green, never clipped, gives the gain
        gains.append(gain)
        assert 1.2 - 0.02 <= gain <= 1.8 + 0.02
        face = np.clip(np.array([200, 190, 170]) * gain, 0, 255)  # the ivory times the gain, clipped
        assert np.abs(out[5, 5].astype(np.float32) - face).max() <= 2.5  # the gain read off a whole number
        if gain >= 1.51:  # every channel of the face past white
            assert out[5, 5].tolist() == [255, 255, 255]
        assert int(out[30, 31].max()) < int(out[5, 5].min())  # the stroke stays darker than the face
    assert min(gains) < 1.35 and max(gains) > 1.6  # spread over the range
