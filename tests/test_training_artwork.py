"""training.artwork, the wider tile artwork of the artwork stage (issue 19): every tile has several
drawings, a font without a character is replaced by one that has it, and the brush font of the
hard-case suite is never among the training fonts."""
from __future__ import annotations

import os

import numpy as np
import pytest

from training import artwork
from training.labels import TILE_CODES

pytestmark = pytest.mark.skipif(not artwork.available_fonts(), reason="no CJK font (scripts/system-packages.txt)")


@pytest.fixture(scope="module")
def bank() -> artwork.ArtworkBank:
    return artwork.ArtworkBank()


def test_every_tile_but_the_red_fives_has_several_distinct_drawings(bank) -> None:
    plain = [c for c in TILE_CODES if c[0] != "0"]
    assert sorted(bank.glyphs) == sorted(plain)
    for code in plain:
        glyphs = bank.glyphs[code]
        assert len(glyphs) >= 3, code
        if code != "5z":  # haku may be blank in several sets
            assert all(float(g.alpha.mean()) > 0.01 for g in glyphs), code
        assert len({g.alpha.tobytes() for g in glyphs}) >= 3, code


def test_manzu_carry_red_wan_below_a_dark_numeral(bank) -> None:
    for g in bank.glyphs["4m"][:len(artwork.available_fonts())]:
        h = g.kind.shape[0]
        assert (g.kind[h // 2:] == 1).sum() > (g.kind[: h // 2] == 1).sum()
        assert (g.kind[: h // 2] == 2).sum() > 50


def test_a_missing_character_is_drawn_by_another_font() -> None:
    fonts = artwork.available_fonts()
    lacking = [f for f in fonts if artwork._rendered("萬", f) is None]
    if not lacking:
        pytest.skip("every installed font has 萬")
    g = artwork.font_glyph("1m", lacking[0], np.random.default_rng(0))
    h = g.kind.shape[0]
    assert (g.kind[h // 2:] == 1).sum() > 200  # the red 萬 is there all the same


def test_the_hard_case_brush_font_is_held_out_of_training() -> None:
    from training import hard_cases

    assert artwork.HELD_OUT_FONT[0] == hard_cases.BRUSH_FONT
    assert all(os.path.realpath(p) != os.path.realpath(hard_cases.BRUSH_FONT) for p, _ in artwork.FONT_FILES)


def test_red_pins_and_sticks_are_where_japanese_sets_put_them(bank) -> None:
    g = artwork.pin_glyph(5, np.random.default_rng(1))
    h, w = g.kind.shape
    centre = g.kind[h // 2 - 10:h // 2 + 10, w // 2 - 10:w // 2 + 10]
    assert (centre == 1).any() and not (g.kind[: h // 4] == 1).any()
    g = artwork.sou_glyph(9, np.random.default_rng(1))
    assert (g.kind[:, w // 2 - 5:w // 2 + 5] == 1).sum() > (g.kind[:, : w // 4] == 1).sum()
