"""The hard cases drawn again from other seeds (training.case_scenes), read by the real models: each
case on more than the one scene of it that tests/data/hard_cases fixes. Each case holds a floor
of scenes read exactly at what this release reads: a change that reads one more scene wrong fails;
one that reads more of them right raises the floor with it.

The clutter's scenes (seed 81) are the issue's "nothing invented on clutter": read exactly, nothing
was invented and the hand beside the clutter was read whole. The other cases' (seed 82) are the
fixtures' scenes with the tables, and where tiles stand on their own, the tiles' places drawn
again (models/HISTORY.md, "Clutter drawn from other seeds" and "Every hard case drawn from other
seeds")."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from recognition.pipeline import get_recognizer
from training import case_scenes, hard_cases

HARD = Path(__file__).resolve().parent / "data" / "hard_cases"

# scenes read exactly of six per case, this release. Number cards: a 4p was read (flagged) on a four
# of clubs lying turned, its box 1.3 times the other cards' and more, until Settings.half_turn_none
# (read as no tile at 0.74, it is not read again turned and averaged to 0.59). A 0s on a ten of diamonds, a
# 0s and a 0p on two more cards, and on dominoes an 8s twice, and a 4p and a blank half's 5z on a
# third, were read until Settings.lookalike (one or two tiles, outnumbered by things of their size
# read as no tile, are one more of those things)
CLUTTER_FLOOR = {"keyboard_hand": 6, "keyboard_alone": 6, "clutter_row": 6, "print_line": 6, "dominoes_alone": 6,
                 "cards_alone": 6, "calculator_alone": 6, "dominoes_hand": 6}
# standing_scattered: a second 9p read (flagged) on one (the kettle at the back of the counter, read
# as haku on four until Settings.giant); haku_apart_stone: the haku standing apart lost on one (on
# three until Settings.faint_elsewhere: it stands five tiles' sizes from the rest, a faint peak);
# ming_row: a 4m read as 5m on one; lamp_kan read its grey backs as haku and its two 9s as three on
# every one, as its fixture did, until Settings.unlit_blank and Settings.crowded; far_row reads as
# its fixture (a strict xfail there) but on one, read exactly (and on one a 1s lost); standing_tall's 9p, read whole as haku on every one
# until Settings.tall_foot, still so on two (read down to its row's foot at 0.8994, under FOOT_SURE;
# its box over a fifth wider than its neighbours', not measured against them). pile_blank
# lost a 9p on two, boxed with the 6m over it, until Settings.split_wide. crop_filling and
# crops_closeup_two (photographed tiles filling the frame) read 4 and 1 of 6 without Settings.whole_tiles;
# crop_blue_pips (an 8p inked in blue) 3 of 6 without Settings.whole_light
OTHERS_FLOOR = {name: 6 for name in case_scenes.OTHERS} | {
    "standing_scattered": 5, "haku_apart_stone": 5, "ming_row": 5, "far_row": 1,
    "standing_tall": 4}


def _read(folder: Path, labels: dict) -> dict[str, list[tuple[Counter, Counter, int, int]]]:
    rec = get_recognizer()
    out: dict[str, list[tuple[Counter, Counter, int, int]]] = {}
    for photo, lab in sorted(labels.items()):
        tiles = rec.recognize((folder / photo).read_bytes()).tiles
        read = Counter(t.tile for t in tiles if not t.face_down)
        out.setdefault(lab["kind"], []).append((read, Counter(lab["tiles"]), sum(t.face_down for t in tiles), lab["back"]))
    return out


@pytest.fixture(scope="module")
def clutter(tmp_path_factory) -> dict[str, list[tuple[Counter, Counter, int, int]]]:
    folder = tmp_path_factory.mktemp("clutter")
    return _read(folder, case_scenes.build(str(folder)))


@pytest.fixture(scope="module")
def others_drawn(tmp_path_factory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("others")
    return folder, case_scenes.build_others(str(folder))


@pytest.fixture(scope="module")
def others(others_drawn) -> dict[str, list[tuple[Counter, Counter, int, int]]]:
    return _read(*others_drawn)


def test_every_hard_case_is_drawn_again_in_one_suite_or_the_other() -> None:
    assert set(CLUTTER_FLOOR) == set(case_scenes.CLUTTER)
    assert set(OTHERS_FLOOR) == set(case_scenes.OTHERS)
    assert set(case_scenes.CLUTTER) | set(case_scenes.OTHERS) == set(hard_cases.CASES)


@pytest.mark.parametrize("kind", sorted(CLUTTER_FLOOR))
def test_clutter_drawn_from_other_seeds_invents_no_more_than_it_did(clutter, kind) -> None:
    exact = sum(read == want for read, want, _, _ in clutter[kind])
    invented = [sorted((read - want).elements()) for read, want, _, _ in clutter[kind] if read != want]
    assert exact >= CLUTTER_FLOOR[kind], invented
    assert all(not (want - read) for read, want, _, _ in clutter[kind]), "a hand beside the clutter lost a tile"


@pytest.mark.parametrize("kind", sorted(OTHERS_FLOOR))
def test_the_other_cases_drawn_from_other_seeds_read_no_worse_than_they_did(others, kind) -> None:
    exact = sum(read == want for read, want, _, _ in others[kind])
    wrong = [(sorted((read - want).elements()), sorted((want - read).elements()))
             for read, want, _, _ in others[kind] if read != want]
    assert exact >= OTHERS_FLOOR[kind], wrong
    # the kan's two backs counted on every scene; under the lamp, grey, read as backs by their light
    # (Settings.unlit_blank: before it, read as haku on every scene)
    if kind in ("called_dark_backs", "lamp_kan"):
        assert [backs for _, _, backs, _ in others[kind]] == [want for _, _, _, want in others[kind]]


@pytest.mark.parametrize("cases", [case_scenes.CLUTTER, case_scenes.OTHERS], ids=["clutter", "others"])
def test_the_scenes_are_the_hard_cases_drawn_from_other_seeds(tmp_path, cases):
    labels = case_scenes.build(str(tmp_path), per_case=2, cases=cases)
    assert sorted(labels) == sorted(f"{c}_{j}.jpg" for c in cases for j in range(2))
    for case in cases:
        _, codes = hard_cases.CASES[case][1](np.random.default_rng(0))
        assert labels[f"{case}_0.jpg"]["tiles"] == codes  # the case's own tiles, or nothing
        assert labels[f"{case}_0.jpg"]["back"] == hard_cases.BACKS.get(case, 0)
        first, second = (cv2.imread(str(tmp_path / f"{case}_{j}.jpg")).astype(int) for j in range(2))
        fixture = cv2.imread(str(HARD / f"{case}.jpg"))
        assert first.shape == fixture.shape
        # another scene than the fixture's and than each other: the shading at least, and where the
        # things lie at random (dominoes, cards) the things themselves
        least = 8 if case in ("dominoes_alone", "cards_alone", "dominoes_hand") else 1
        assert np.abs(first - fixture).mean() > least and np.abs(first - second).mean() > least, case
    again = tmp_path / "again"
    assert case_scenes.build(str(again), per_case=2, cases=cases) == labels
    last = f"{cases[-1]}_1.jpg"
    assert (again / last).read_bytes() == (tmp_path / last).read_bytes()


def test_a_haku_standing_five_tiles_from_the_rest_is_read_by_its_faint_peak(others_drawn, others) -> None:
    """haku_apart_stone's haku stands about five tiles' sizes from the other tiles: neither where
    a tile set apart from a row stands nor among the tiles, and found by the detector only
    faintly. Read as a faint peak elsewhere (Settings.faint_elsewhere), it is found on more
    scenes than without that rule, and nothing else is read differently."""
    import dataclasses

    from recognition.pipeline import MODELS_DIR, Recognizer, Settings

    folder, labels = others_drawn
    off = Recognizer.from_directory(MODELS_DIR, settings=dataclasses.replace(Settings(), faint_elsewhere=None))
    scenes = sorted(name for name, lab in labels.items() if lab["kind"] == "haku_apart_stone")
    without = [Counter(t.tile for t in off.recognize((folder / name).read_bytes()).tiles if not t.face_down)
               for name in scenes]
    with_rule = [read for read, _, _, _ in others["haku_apart_stone"]]
    assert sum(read["5z"] for read in with_rule) > sum(read["5z"] for read in without)
    assert all(a - b in (Counter(), Counter({"5z": 1})) and not (b - a) for a, b in zip(with_rule, without))
