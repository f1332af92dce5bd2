"""The classifier's ink-style augmentation (training.train_classifier.ink_style): other sets draw
their pips and sticks in other inks and with other strokes."""
from __future__ import annotations

import torch

from training.train_classifier import ink_style

IVORY = (0.94, 0.92, 0.84)
GREEN = (0.10, 0.45, 0.20)
RED = (0.80, 0.12, 0.15)


def _face(n: int, ink: tuple[float, float, float]) -> torch.Tensor:
    """n ivory crops, each with one vertical stroke 4 px wide (columns 30-33) in `ink`."""
    x = torch.empty(n, 3, 64, 64)
    for c in range(3):
        x[:, c] = IVORY[c]
        x[:, c, 8:56, 30:34] = ink[c]
    return x


def _stroke_width(crop: torch.Tensor) -> int:
    """Columns of the middle row darker than the face by more than two thirds of the ink's depth
    (a thinned stroke's edge, half blended with the face, is not)."""
    lum = 0.3 * crop[0] + 0.59 * crop[1] + 0.11 * crop[2]
    face = 0.3 * IVORY[0] + 0.59 * IVORY[1] + 0.11 * IVORY[2]
    return int((lum[32] < face - 0.4).sum())


def test_off_it_changes_nothing_and_draws_no_random_number() -> None:
    x = _face(4, GREEN)
    g = torch.Generator().manual_seed(3)
    before = g.get_state()
    assert torch.equal(ink_style(x, g, 0.0), x)
    # the recipes that do not ask for it draw the same numbers as before it existed
    assert torch.equal(g.get_state(), before)


def test_green_ink_may_turn_blue_and_strokes_grow_or_thin_the_face_stays() -> None:
    x = _face(600, GREEN)
    out = ink_style(x, torch.Generator().manual_seed(5), 0.5)
    changed = (out - x).abs().amax(dim=(1, 2, 3)) > 1e-6
    # about half picked (300), of which a quarter neither swap nor change their strokes
    assert 180 < int(changed.sum()) < 270
    assert torch.equal(out[~changed], x[~changed])
    ink = out[:, :, 32, 31]  # inside the stroke
    blue = ink[:, 2] > ink[:, 1] + 0.1
    assert 100 < int(blue.sum()) < 200  # half of the picked crops swap green and blue (150)
    assert torch.allclose(ink[blue, 0], torch.full((int(blue.sum()),), GREEN[0]), atol=1e-6)  # red unchanged
    widths = [_stroke_width(c) for c in out[changed]]
    # as drawn, a pixel wider on each side, or a pixel thinner (half blended): thin, never gone
    assert set(widths) == {2, 4, 6}
    # the face away from the stroke keeps its colour
    assert torch.allclose(out[:, :, 5, 5], torch.tensor(IVORY).expand(600, 3), atol=1e-6)


def test_red_ink_stays_red_so_no_five_becomes_a_red_five() -> None:
    x = _face(300, RED)
    out = ink_style(x, torch.Generator().manual_seed(7), 1.0)
    r, g, b = out[:, 0, 32, 31], out[:, 1, 32, 31], out[:, 2, 32, 31]
    assert bool(((r - torch.maximum(g, b)) > 0.5).all())


def test_the_same_seed_gives_the_same_crops() -> None:
    x = _face(64, GREEN)
    a = ink_style(x, torch.Generator().manual_seed(11), 0.4)
    b = ink_style(x, torch.Generator().manual_seed(11), 0.4)
    assert torch.equal(a, b)


def test_with_strokes_off_only_the_ink_colour_changes() -> None:
    x = _face(300, GREEN)
    out = ink_style(x, torch.Generator().manual_seed(9), 1.0, strokes=0.0)
    assert {_stroke_width(c) for c in out} == {4}
    blue = out[:, 2, 32, 31] > out[:, 1, 32, 31] + 0.1
    assert 100 < int(blue.sum()) < 200


def test_redden_turns_the_ink_of_tiles_other_than_fives_red_and_leaves_fives_and_the_table() -> None:
    """training.train_classifier.redden: red ink alone must not make a red five. A 2m's dark ink
    on the face turns red; a dark table beside the tile stays dark; a plain five (which inked red
    would be a red five), a red five and no-tile crops are left as they are."""
    from training.labels import CLASSES
    from training.train_classifier import redden

    black = (0.10, 0.10, 0.12)
    x = _face(4, black)
    x[:, :, :, :6] = 0.08  # a dark table along the left edge, 6 px wide (farther than 3 px from the face's ink)
    cls = torch.tensor([CLASSES.index(c) for c in ("2m", "5m", "0m", "none")])
    g = torch.Generator().manual_seed(5)
    before = g.get_state()
    assert torch.equal(redden(x, cls, g, 0.0), x) and torch.equal(g.get_state(), before)
    y = redden(x, cls, g, 1.0)
    stroke = y[0, :, 32, 31]
    assert stroke[0] > stroke[1] + 0.2 and stroke[0] > stroke[2] + 0.2  # red now
    assert torch.allclose(y[0, :, 32, 1], x[0, :, 32, 1])  # the table is no face: it stays
    assert torch.allclose(y[0, :, 32, 45], x[0, :, 32, 45])  # the face itself stays ivory
    assert torch.equal(y[1:], x[1:])
