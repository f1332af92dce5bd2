"""training.artwork, the wider tile artwork of the artwork stage (issue 19): every tile has several
drawings, a font without a character is replaced by one that has it, and the brush font of the
hard-case suite is never among the training fonts."""
from __future__ import annotations

import os

import cv2
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


def test_the_hard_case_fonts_are_held_out_of_training() -> None:
    from training import hard_cases

    assert artwork.HELD_OUT_FONT[0] == hard_cases.BRUSH_FONT
    for held_out in (hard_cases.BRUSH_FONT, hard_cases.MING_FONT, hard_cases.SANS_FONT):
        for p, _ in artwork.FONT_FILES + artwork.MORE_FONT_FILES + artwork.EXTRA_HAND_FONT_FILES:
            assert os.path.realpath(p) != os.path.realpath(held_out), held_out


def test_red_pins_and_sticks_are_where_japanese_sets_put_them(bank) -> None:
    g = artwork.pin_glyph(5, np.random.default_rng(1))
    h, w = g.kind.shape
    centre = g.kind[h // 2 - 10:h // 2 + 10, w // 2 - 10:w // 2 + 10]
    assert (centre == 1).any() and not (g.kind[: h // 4] == 1).any()
    g = artwork.sou_glyph(9, np.random.default_rng(1))
    assert (g.kind[:, w // 2 - 5:w // 2 + 5] == 1).sum() > (g.kind[:, : w // 4] == 1).sum()


def test_a_bank_of_some_sources_draws_only_those_and_the_same_glyphs(bank) -> None:
    fonts_only = artwork.ArtworkBank(sources=("fonts",))
    n_fonts = len(artwork.available_fonts())
    for code in ("1m", "9m", "1z", "7z"):
        assert fonts_only.has(code)
        # a source's drawings do not depend on which others are kept: the font glyphs come first
        assert [g.alpha.tobytes() for g in fonts_only.glyphs[code]] == \
               [g.alpha.tobytes() for g in bank.glyphs[code][:n_fonts]], code
        assert len(bank.glyphs[code]) == n_fonts + 1  # and the Unicode line art after them
    for code in ("1p", "5p", "1s", "9s", "5z"):  # haku's faces are a source of their own
        assert not fonts_only.has(code) and bank.has(code)
    pins = artwork.ArtworkBank(sources=("pins",))
    assert pins.has("5p") and not pins.has("5s") and not pins.has("5m")
    with pytest.raises(ValueError, match="unknown artwork sources"):
        artwork.ArtworkBank(sources=("fonts", "brush"))


def test_a_face_of_a_tile_no_chosen_source_draws_keeps_the_usual_artwork() -> None:
    from training.textures import TextureBank, face_texture, random_scheme

    fonts_only = TextureBank(wide=True, art_sources=("fonts",))
    light = [s for s in (random_scheme(np.random.default_rng(k)) for k in range(40)) if not s.dark_face]
    # souzu has no drawing among the fonts: its faces come from the usual sources (picking from
    # the empty list of artwork would fail on the draws that give the artwork its share)
    for k, scheme in enumerate(light[:12]):
        face = face_texture(fonts_only, "9s", scheme, np.random.default_rng(k))
        assert np.isfinite(face).all() and face[..., 3].max() > 0


def test_font_rows_are_set_in_fonts_no_training_uses(tmp_path) -> None:
    from training import font_rows

    if not all(os.path.exists(f) for f in font_rows.FONTS.values()):
        pytest.skip("a held-out font is missing (scripts/system-packages.txt)")
    trained = {os.path.realpath(p) for p, _ in artwork.FONT_FILES + artwork.MORE_FONT_FILES + artwork.EXTRA_HAND_FONT_FILES}
    assert not trained & {os.path.realpath(f) for f in font_rows.FONTS.values()}
    # nor any font of the same foundries' families (AR PL, WenQuanYi), whose hands they share
    assert not any(("arphic" in p or "wqy" in p) for p in trained)
    labels = font_rows.build(str(tmp_path), rows=1)
    assert sorted(labels) == sorted(f"{name}_0.jpg" for name in font_rows.FONTS)
    for photo, lab in labels.items():
        assert (tmp_path / photo).stat().st_size > 10_000
        assert len(lab["tiles"]) == 14 and sum(c[1] == "m" for c in lab["tiles"]) == 8
    # the same seed gives the same rows
    assert font_rows.build(str(tmp_path / "again"), rows=1) == labels


def test_font_hands_are_winning_hands_in_a_players_order() -> None:
    from scoring.hand import is_complete
    from scoring.tiles import parse_tiles
    from training import font_rows

    rng = np.random.default_rng(5)
    order = "mpsz"
    drawn = 0
    for _ in range(200):
        hand = font_rows.winning_hand(rng)
        assert len(hand) == 14 and max(hand.count(c) for c in hand) <= 4
        assert hand == sorted(hand, key=lambda c: (order.index(c[1]), c[0]))
        counts = [0] * 34
        for t in parse_tiles("".join(hand)):
            counts[t.index] += 1
        assert is_complete(tuple(counts), 4), hand
        drawn += sum(c[1] in "mz" for c in hand)
    assert drawn >= 0.85 * 14 * 200  # the fonts draw manzu and honours: most of the tiles


@pytest.fixture(scope="module")
def styled_bank() -> artwork.ArtworkBank:
    return artwork.ArtworkBank(sources=("fonts", "styled"))


def test_styled_drawings_come_after_and_leave_the_other_sources_as_they_were(bank, styled_bank) -> None:
    assert "styled" not in artwork.DEFAULT_SOURCES  # the artwork stage's draws are unchanged
    n_fonts = len(artwork.available_fonts())
    n_styled = n_fonts + sum(os.path.exists(p) for p, _ in artwork.STYLED_EXTRA_FONTS)
    for code in ("1m", "5m", "9m", "1z", "4z", "6z", "7z"):
        glyphs = styled_bank.glyphs[code]
        assert [g.alpha.tobytes() for g in glyphs[:n_fonts]] == [g.alpha.tobytes() for g in bank.glyphs[code][:n_fonts]]
        assert len(glyphs) == n_fonts + n_styled * artwork.STYLED_VARIANTS, code
        assert len({g.alpha.tobytes() for g in glyphs[n_fonts:]}) == n_styled * artwork.STYLED_VARIANTS, code
    for code in ("5z", "1p", "9s"):  # haku, pinzu and souzu: neither the fonts nor styled draw them
        assert not styled_bank.has(code), code
    from training import font_rows, hard_cases

    held_out = {os.path.realpath(p) for p in (hard_cases.BRUSH_FONT, hard_cases.MING_FONT, hard_cases.SANS_FONT,
                                               *font_rows.FONTS.values())}
    assert not held_out & {os.path.realpath(p) for p, _ in artwork.STYLED_EXTRA_FONTS}


def test_styled_manzu_keep_a_dark_numeral_above_the_red_wan_whatever_the_style(styled_bank) -> None:
    n_fonts = len(artwork.available_fonts())
    for g in styled_bank.glyphs["2m"][n_fonts:]:
        h = g.kind.shape[0]
        assert (g.kind[h // 2:] == 1).sum() > (g.kind[: h // 2] == 1).sum()
        assert (g.kind[: h // 2] == 2).sum() > 30


def test_restyle_thickens_and_thins_but_never_rubs_a_stroke_out() -> None:
    mask = np.zeros((100, 100), np.uint8)
    mask[20:80, 40:60] = 255  # a 20 px stroke
    ink = int(mask.sum())
    assert artwork._restyle(mask, 2, 0.0).sum() > ink
    assert 0 < artwork._restyle(mask, -2, 0.0).sum() < ink
    hair = np.zeros((100, 100), np.uint8)
    hair[20:80, 50] = 255  # a 1 px line that thinning would take away: it is kept
    assert np.array_equal(artwork._restyle(hair, -2, 0.0), hair)
    slanted = artwork._restyle(mask, 0, 0.2)
    ys, xs = np.nonzero(slanted > 127)
    assert xs[ys == ys.max()].mean() > xs[ys == ys.min()].mean() + 8  # leans: the bottom is further right


def test_pin_rows_draw_each_tile_with_its_number_of_pips_and_sticks(tmp_path) -> None:
    from training import pin_rows

    def marks(face: np.ndarray) -> int:
        ink = (np.abs(face.astype(int) - np.array(pin_rows.hc.IVORY)).sum(2) > 120).astype(np.uint8)
        outer, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)  # a sun's hub is inside its disc
        return sum(cv2.contourArea(c) > 20 for c in outer)

    for n in range(2, 10):
        for style in ("wheel", "sun"):
            assert marks(pin_rows.pin_face(n, style, pin_rows.PIN_INKS[style][0])) == n, (n, style)
        if n != 8:  # the 8s's sticks lean on each other
            assert marks(pin_rows.sou_face(n, "outline", pin_rows.STICK_INKS["outline"][1])) == n, n
    labels = pin_rows.build(str(tmp_path), rows=1)
    assert sorted(labels) == sorted(f"{p}_{s}_0.jpg" for p, s in pin_rows.PAIRS)
    for lab in labels.values():
        assert len(lab["tiles"]) == 14 and sum(c[1] in "ps" for c in lab["tiles"]) == 12
    assert pin_rows.build(str(tmp_path / "again"), rows=1) == labels


def _added_last(bank: artwork.ArtworkBank, source: str, extra) -> tuple[artwork.ArtworkBank, dict[str, list[bytes]]]:
    """The bank of the default sources and `source`, after checking that it draws every glyph of
    `bank` (the default sources) first, as they were, then `extra(code)` more; and those more."""
    assert source not in artwork.DEFAULT_SOURCES
    wider = artwork.ArtworkBank(sources=(*artwork.DEFAULT_SOURCES, source))
    added = {}
    for code in TILE_CODES:
        if code[0] == "0":
            continue
        before = [g.alpha.tobytes() for g in bank.glyphs.get(code, [])]
        now = [g.alpha.tobytes() for g in wider.glyphs.get(code, [])]
        assert now[: len(before)] == before and len(now) == len(before) + extra(code), code
        added[code] = now[len(before):]
    return wider, added


def test_bars_are_drawn_last_for_souzu_two_to_nine_only(bank) -> None:
    _added_last(bank, "bars", lambda code: 6 if code[1] == "s" and code[0] != "1" else 0)
    only = artwork.ArtworkBank(sources=("bars",))
    for n in (2, 3, 4, 5, 7, 9):  # broad bars, no joints: one blob of ink per stick
        for g in only.glyphs[f"{n}s"]:
            ink = (g.alpha > 0.5).astype(np.uint8)
            outer, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            assert sum(cv2.contourArea(c) > 20 for c in outer) == n, n


@pytest.mark.parametrize("source, more", [("hands", artwork.MORE_FONT_FILES),
                                          ("extra_hands", artwork.EXTRA_HAND_FONT_FILES)])
def test_hands_are_drawn_last_in_more_fonts_for_manzu_and_honours_only(bank, source, more) -> None:
    if not all(os.path.exists(p) for p, _ in more):
        with pytest.raises(RuntimeError, match=f"the {source} source needs") as refused:  # never fewer hands, silently
            artwork.ArtworkBank(sources=(source,))
        pytest.skip(f"a font of {source} is not installed: {refused.value}")
    with_hands, added = _added_last(
        bank, source, lambda code: len(more) if code[1] == "m" or code in ("1z", "2z", "3z", "4z", "6z", "7z") else 0)
    for code, glyphs in added.items():
        # each font draws its own (but 发, which most lack, drawn by the same font that has it)
        assert len(set(glyphs)) >= (len(glyphs) if code != "6z" else len(glyphs) // 2), code
    for g in with_hands.glyphs["9m"][-len(more):]:  # a dark numeral over a red 萬, as in the fonts
        h = g.kind.shape[0]
        assert (g.kind[h // 2:] == 1).sum() > (g.kind[: h // 2] == 1).sum()
        assert (g.kind[: h // 2] == 2).sum() > 50


def test_red_rows_draw_a_red_five_all_red_and_a_plain_five_with_its_usual_red(tmp_path) -> None:
    from training import font_rows, red_rows

    if not all(os.path.exists(f) for f in font_rows.FONTS.values()):
        pytest.skip("a held-out font is missing (scripts/system-packages.txt)")

    def red_share(face: np.ndarray) -> float:
        """The share of the face's ink that is red."""
        f = face.astype(int)
        ink = np.abs(f - np.array(red_rows.hc.IVORY)).sum(2) > 120
        red = ink & (f[..., 0] > 150) & (f[..., 1] < 90) & (f[..., 2] < 90)
        return red.sum() / max(ink.sum(), 1)

    for name, pins, sticks in red_rows.DRAWINGS:
        faces = red_rows.faces_for(["0m", "5m", "0p", "5p", "0s", "5s"], font_rows.FONTS[name], pins, sticks, 0)
        for suit in "mps":
            red, plain = red_share(faces[f"0{suit}"][0]), red_share(faces[f"5{suit}"][0])
            assert red > 0.7, (name, suit, red)  # all its ink (the rest: antialiased edges)
            # the plain five keeps the red its set gives it (the 萬, one pip, one stick), no more
            assert 0.1 < plain < red - 0.15, (name, suit, plain)
    labels = red_rows.build(str(tmp_path), rows=1)
    assert sorted(labels) == sorted(f"{n}_{p}_{s}_0.jpg" for n, p, s in red_rows.DRAWINGS)
    rng = np.random.default_rng(3)
    for codes in [lab["tiles"] for lab in labels.values()] + [red_rows.red_row(rng) for _ in range(50)]:
        assert len(codes) == 14 and any(c[0] == "0" for c in codes) and "5z" not in codes
        assert max(codes.count(c) for c in codes) <= 4
        key = [(font_rows.SUIT_ORDER[c[1]], 5 if c[0] == "0" else int(c[0])) for c in codes]
        assert key == sorted(key)  # as a player keeps them, the red five among the fives
    assert red_rows.build(str(tmp_path / "again"), rows=1) == labels


def test_motifs_are_drawn_last_for_pinzu_only_one_mark_per_pip(bank) -> None:
    _added_last(bank, "motifs", lambda code: artwork.MOTIF_VARIANTS if code[1] == "p" else 0)
    rng = np.random.default_rng(3)
    for motif in artwork.MOTIFS:
        for n in range(2, 10):
            g = artwork.motif_pin_glyph(n, rng, motif)
            ink = (g.alpha > 0.5).astype(np.uint8)
            outer, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            marks = sum(cv2.contourArea(c) > 20 for c in outer)
            if motif == "rosette":  # seven dots a pip, which run together on small pips
                assert n <= marks <= 7 * n, (motif, n)
            else:
                assert marks == n, (motif, n)
    for n in (5, 6, 7, 9):  # red where sets put it (nine times in ten per pip)
        assert (artwork.motif_pin_glyph(n, rng, "coin").kind == 1).sum() > 0, n
