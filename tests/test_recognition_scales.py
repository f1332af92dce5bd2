"""recognition.scales on hand-made box lists: the tiles' size, where to detect again, merging
passes, parts of one tile, boxes that fit no tile. Pure Python (no numpy), as the phone runs it."""
from __future__ import annotations

import ast
import dataclasses
import math
import os
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recognition import scales
from recognition.scales import ScaleRule, area, drop_misfits, merge_fragments, merge_passes, rescan_sides, tile_size


def row(n: int, x0: float = 100, y0: float = 200, w: float = 30, h: float = 40, gap: float = 2,
        score: float = 0.9) -> list[scales.Box]:
    return [(x0 + k * (w + gap), y0, x0 + k * (w + gap) + w, y0 + h, score) for k in range(n)]


def test_numpy_free() -> None:
    """The phone's reader runs this module under Pyodide without numpy: it imports only the
    standard library."""
    path = os.path.join(os.path.dirname(scales.__file__), "scales.py")
    with open(path) as f:
        tree = ast.parse(f.read())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported <= {"__future__", "bisect", "functools", "math", "statistics", "collections", "dataclasses", "typing"}, imported


def test_tile_size_of_a_row_ignores_fragments_and_clutter() -> None:
    tiles = row(8)  # 30 x 40: side sqrt(1200) = 34.6
    fragments = [(100, 200, 130, 215, 0.5), (132, 200, 162, 214, 0.5), (164, 200, 180, 220, 0.6)]
    clutter = [(500, 500, 620, 600, 0.7)]
    assert tile_size(tiles + fragments + clutter) == pytest.approx(math.sqrt(1200))


def test_tile_size_prefers_the_larger_when_groups_tie() -> None:
    big, small = row(3, w=30, h=40), row(3, y0=400, w=12, h=16)
    assert tile_size(small + big) == pytest.approx(math.sqrt(1200))
    assert tile_size([]) is None


def test_tile_size_is_the_boxes_own_in_any_order_and_under_each_rule() -> None:
    """tile_size is remembered by the boxes' sizes and scores (a reading asks it again of the same
    boxes): in another order the same boxes give the same size, and a rule of another `cluster`
    is asked afresh, not answered from the first rule's memory."""
    # three sizes, each 1.36-1.40 times the last: 34.6 (surest), 48.5 and 65.8
    boxes = (row(2, w=30, h=40, score=0.9) + row(2, y0=300, w=42, h=56, score=0.6)
             + row(2, y0=400, w=57, h=76, score=0.6))
    apart = tile_size(boxes)  # within 1.3: three sizes, and the surest (1.8) is the tiles'
    assert apart == pytest.approx(math.sqrt(30 * 40))
    wide = ScaleRule(cluster=1.5)  # within 1.5: 48.5 holds all six, whose weighted median it is
    assert tile_size(boxes, wide) == pytest.approx(math.sqrt(42 * 56))
    assert tile_size(boxes) == apart
    for seed in range(3):
        shuffled = boxes[:]
        random.Random(seed).shuffle(shuffled)
        assert tile_size(shuffled) == apart
        assert tile_size(shuffled, wide) == pytest.approx(math.sqrt(42 * 56))


@given(st.lists(st.floats(-500, 500, allow_nan=False), min_size=1, max_size=30),
       st.floats(0, 200, allow_nan=False), st.integers(0, 31), st.integers(0, 29), st.integers(0, 29),
       st.booleans())
def test_a_band_is_asked_whether_it_holds_more_as_it_is_counted(values, band, bar, i, j, exact) -> None:
    """longest_runs asks `_band_holds_more` before it counts `_densest_band` across each direction,
    and skips the count when the answer is no: both answers agree on any values, band and bar
    (ties, a band of 0, a bar beyond the values, and a band exactly as wide as two values lie
    apart, where `<` and `<=` part)."""
    values = sorted(values)
    if exact:  # the band two of the values span, to the float
        band = values[max(i, j) % len(values)] - values[min(i, j) % len(values)]
        band = max(band, 0.0)
    assert scales._band_holds_more(values, band, bar) == (scales._densest_band(values, band)[0] > bar)


def test_rescan_sides() -> None:
    rule = ScaleRule(low=16, high=64, target=32, min_side=192, max_side=1024, pyramid=(256, 1024))
    assert rescan_sides(30.0, 512, 1008, rule) == []  # already the size it learned
    # a far row: tiles of 8 px at 512 -> four times larger, but never past the image's own 1008
    assert rescan_sides(8.0, 512, 1008, rule) == [1008]
    assert rescan_sides(12.0, 512, 4000, rule) == [1024]  # bounded by max_side
    # a close-up: tiles of 200 px at 512 -> the long side that makes them 32 px, not under min_side
    assert rescan_sides(200.0, 512, 1008, rule) == [192]
    assert rescan_sides(100.0, 512, 1008, rule) == [192]  # 512 * 32 / 100 = 164, under min_side
    assert rescan_sides(80.0, 512, 1008, rule) == [205]  # 512 * 32 / 80 = 204.8
    # a close-up measured on one to three boxes: they may be pieces of its faces, so the pyramid's
    # smaller sides are tried too (256; not 1024, for tiles too large); so are four or five boxes
    # too large for the detector (two tiles filling the photo's width, boxed pip group by pip
    # group); six boxes are tiles, and four of a size it reads well too
    assert rescan_sides(200.0, 512, 1008, rule, count=1) == [192, 256]
    assert rescan_sides(100.0, 512, 1008, rule, count=3) == [192, 256]
    assert rescan_sides(100.0, 512, 1008, rule, count=5) == [192, 256]
    assert rescan_sides(100.0, 512, 1008, rule, count=6) == [192]
    assert rescan_sides(40.0, 512, 1008, rule, count=4) == []
    assert rescan_sides(200.0, 256, 1008, rule, count=1) == [192]  # a first pass at 256: not again
    # and so are one to three boxes of a size it reads well, but for far blobs (the probe's):
    # pieces of a tile filling the photo (a pip group, an engraving) measure like tiles at 512 px
    assert rescan_sides(40.0, 512, 1008, rule, count=2) == [256]
    assert rescan_sides(40.0, 512, 1008, rule, count=4) == []
    # nothing measurable: the pyramid, minus the pass already made
    assert rescan_sides(None, 512, 1008, rule) == [256, 1008]
    assert rescan_sides(None, 256, 1008, rule) == [1008]
    assert rescan_sides(None, 512, 560, rule) == [256]  # 560 is too close to 512 to read differently
    # a small image cannot be enlarged: no second pass that would change nothing
    assert rescan_sides(8.0, 300, 300, rule) == []


def test_a_few_tile_sized_boxes_are_probed_at_twice_the_scale() -> None:
    rule = ScaleRule(low=20, high=64, target=34, max_side=1536, few=5, probe=2.0)
    # a block of honours far away, seen at 512 px as three blobs measuring 22 px: again at 1024;
    # and, as for any one to three boxes (ScaleRule.closeup_few), at the pyramid's smaller sides:
    # they may as well be pieces of a close-up's face (a red 5m's bare patches between strokes)
    assert rescan_sides(22.0, 512, 2016, rule, count=3) == [128, 256, 1024]
    assert rescan_sides(22.0, 512, 1008, rule, count=1) == [128, 256, 1008]  # never past the image
    assert rescan_sides(22.0, 512, 560, rule, count=3) == [128, 256]  # 560: too close to 512 to read differently
    assert rescan_sides(22.0, 512, 2016, rule, count=4) == [1024]  # more than closeup_few: the probe alone
    # six boxes of that size are tiles of that size; no count given, no probe
    assert rescan_sides(22.0, 512, 2016, rule, count=6) == []
    assert rescan_sides(22.0, 512, 2016, rule) == []
    # a close-up's two tiles (40 px): at twice the scale their faces would be cut into pieces; at
    # the pyramid's smaller sides, they may be pieces of one tile's face (ScaleRule.closeup_few)
    assert rescan_sides(40.0, 512, 2016, rule, count=2) == [128, 256]
    assert scales.probing(3, 22.0, rule) and not scales.probing(0, 22.0, rule) and not scales.probing(3, None, rule)


def test_small_tiles_are_read_again_at_the_target_and_a_few_blobs_of_that_size_are_probed() -> None:
    rule = ScaleRule()  # the shipped rule: low 28, small 20
    # a row of fourteen tiles measuring 24 px at 512 (a hand across a 1008 px photo): found, but
    # boxed coarsely at that size (the detector's grid is 4 px); read again where they measure 34
    assert rescan_sides(24.0, 512, 1008, rule, count=14) == [725]
    assert rescan_sides(30.0, 512, 1008, rule, count=14) == []  # a size it boxes closely
    # within the copy already decoded: 21 px tiles want 829 px, the 1008 px copy has 1008 (no
    # finer copy of a 4032 px photo is decoded for them), a 640 px copy bounds them at 640
    assert rescan_sides(21.0, 512, 4032, rule, count=14, copy_side=1008) == [829]
    assert rescan_sides(21.0, 512, 4032, rule, count=14, copy_side=640) == [640]
    # tiles under `small` are found in part: those may have a finer copy
    assert rescan_sides(12.0, 512, 4032, rule, count=14, copy_side=1008) == [1451]
    # three blobs of that size are more likely a far block of tiles: probed at twice the scale (and,
    # as one to three boxes, the pyramid's smaller sides tried for a close-up), not read at 725
    assert rescan_sides(24.0, 512, 2016, rule, count=3) == [128, 256, 1024]
    assert scales.coarse(24.0, 14, rule) and not scales.coarse(24.0, 3, rule)
    assert not scales.coarse(30.0, 14, rule) and not scales.coarse(19.0, 14, rule) and not scales.coarse(None)
    assert scales.probing(3, 21.0, rule) and not scales.probing(3, 19.0, rule)
    # a pass that saw the row's boxes at 24 px does not lead one that saw them at 34
    coarse = [(100.0 + 50 * k, 100.0, 146.0 + 50 * k, 162.0, 0.8) for k in range(14)]
    close = [(101.0 + 50 * k, 101.0, 145.0 + 50 * k, 161.0, 0.7) for k in range(14)]
    assert merge_passes([(coarse, 24 / 53.4), (close, 34 / 51.4)], rule) == close


def test_merge_passes_a_probe_that_finds_the_tiles_in_the_blobs_leads() -> None:
    rule = ScaleRule(low=20, high=64, target=34, few=5, probe_min=4)
    # eight tiles (18 x 24) in two rows; the first pass (scale 0.5) saw them as two blobs of 37 x 49
    # (21 detector px: a size it reads well, so no pass is planned but the probe)
    tiles = [(100 + 19 * c, 100 + 25 * r, 118 + 19 * c, 124 + 25 * r, 0.5) for r in range(2) for c in range(4)]
    blobs = [(100, 100, 137, 149, 0.6), (138, 100, 175, 149, 0.55)]
    # the probe (scale 0.9: the tiles are 19 detector px, under `low`) found all eight: it leads,
    # and the blobs, each around four of its tiles, go
    assert sorted(merge_passes([(blobs, 0.5), (tiles, 0.9)], rule)) == sorted(tiles)
    # a probe that finds fewer than twice the first pass's boxes (an empty table's die and mug)
    # adds nothing
    assert merge_passes([(blobs, 0.5), (tiles[:3], 0.9)], rule) == blobs
    # blobs measuring under `low` (scale 0.45: 19 px) are not probed; the pass planned from their
    # size, which finds the eight tiles, leads all the same (it would not on size alone: both
    # passes saw their boxes under `low`, and the blobs' size is nearer the target)
    assert not scales.probing(2, tile_size(blobs) * 0.45, rule)
    assert sorted(merge_passes([(blobs, 0.45), (tiles, 0.9)], rule)) == sorted(tiles)
    # without a probe (many boxes in the first pass), a pass that saw its boxes under `low` does
    # not lead: the first pass's well-sized boxes stay
    many = blobs + [(400 + 40 * k, 400, 437 + 40 * k, 449, 0.6) for k in range(4)]
    assert sorted(merge_passes([(many, 0.5), (tiles, 0.9)], rule)) == sorted(many)


def test_merge_passes_a_probe_of_a_close_ups_pieces_loses_to_the_whole_tile() -> None:
    """A red 5m filling the photo (training.closeups' one_88, the boxes as the shipped detector
    gave them): at 512 px one bare patch between its strokes, small enough to probe; the probe
    at 1008 px boxed seven such patches, enough to lead as the tiles of far blobs, and they were
    read as haku. The pyramid's 128 px pass boxed the whole tile, holding the first pass's patch
    and the probe's seven, which leave it nearly bare: it leads."""
    rule = ScaleRule()
    first = [(311, 131, 374, 189, 0.41)]
    probe = [(439, 552, 468, 578, 0.53), (598, 590, 636, 631, 0.52), (513, 545, 540, 571, 0.49),
             (511, 498, 542, 518, 0.44), (507, 171, 570, 225, 0.4), (438, 501, 472, 527, 0.4), (508, 451, 545, 474, 0.39)]
    whole = [(191, 0, 788, 756, 0.8)]
    assert scales.probing(1, tile_size(first) * 0.508, rule)
    assert merge_passes([(first, 0.508), (whole, 0.127), (probe, 1.0)], rule) == whole
    # without the pyramid's pass, the probe leads, as before, and the first pass's patch fills in
    assert sorted(merge_passes([(first, 0.508), (probe, 1.0)], rule)) == sorted(probe + first)


def test_merge_passes_a_probe_boxing_the_first_patch_again_holds_nothing() -> None:
    """A 3m filling the photo's height (training.closeups --seed 400 --lean 0.03, one_99_3m; the
    boxes as the shipped detector gave them): at 512 px one bare patch of its 萬, boxed again by
    the probe, a little surer, among six more. That probe's box held the first pass's patch, so the
    probe counted as a pass holding pieces, led, and the photo was read as six haku. Only a coarser
    pass holds the first pass's boxes as pieces: the 128 px pass's whole tile leads."""
    rule = ScaleRule()
    first = [(606, 610, 662, 659, 0.35)]
    whole = [(170, 0, 922, 756, 0.76)]
    probe = [(607, 613, 653, 663, 0.74), (519, 563, 549, 594, 0.73), (516, 509, 553, 536, 0.61), (435, 516, 473, 544, 0.6),
             (517, 459, 556, 487, 0.55), (437, 572, 468, 600, 0.53), (430, 469, 478, 493, 0.38)]
    assert scales.inside_share(first[0], probe[0]) > 0.7 and probe[0][4] > first[0][4]
    assert merge_passes([(first, 0.508), (whole, 0.127), (probe, 1.0)], rule) == whole
    # a finer pass that boxes the first pass's few boxes again, and no more, is not kept for it
    # after a probe: it counts only by finding enough boxes of its own
    again = [(605, 611, 660, 660, 0.6)]
    assert merge_passes([(first, 0.508), (again, 1.0)], rule) == first


def test_merge_passes_a_coarse_blob_over_far_tiles_does_not_lead() -> None:
    """The far row's case: two blobs at 512 px, probed; the probe finds the eight tiles. A pass at
    the pyramid's coarser side boxing all of them as one blob, surer than the two blobs, holds the
    first pass's boxes too, but the probe's tiles fill it: they are tiles, not a face's pieces, and
    the probe leads."""
    rule = ScaleRule(low=20, high=64, target=34, few=5, probe_min=4)
    tiles = [(100 + 19 * c, 100 + 25 * r, 118 + 19 * c, 124 + 25 * r, 0.5) for r in range(2) for c in range(4)]
    blobs = [(100, 100, 137, 149, 0.6), (138, 100, 175, 149, 0.55)]
    blob = [(98, 98, 177, 151, 0.9)]
    assert sum(area(b) for b in tiles) > rule.pieces_cover * area(blob[0])
    assert sorted(merge_passes([(blobs, 0.5), (blob, 0.125), (tiles, 0.9)], rule)) == sorted(tiles)
    # with no probe to outnumber it, the blob holding the first pass's two boxes leads
    assert merge_passes([(blobs, 0.5), (blob, 0.125)], rule) == blob


def test_merge_passes_keeps_each_tile_from_the_pass_that_saw_it_at_a_learned_size() -> None:
    rule = ScaleRule(low=16, high=64, target=34)
    # first pass at scale 0.5: the far row's tiles are 10 px in the detector (too small), and it
    # boxed two tiles as one, twice
    first = [(100, 100, 140, 120, 0.8), (140, 100, 180, 120, 0.8)]
    # second pass at scale 2: the same tiles are 40 px: each found
    second = [(100 + 20 * k, 100, 120 + 20 * k, 120, 0.6) for k in range(4)]
    merged = merge_passes([(first, 0.5), (second, 2.0)], rule)
    assert sorted(merged) == sorted(second)
    # a tile only the first pass found (well sized there) is kept alongside
    lone = (400, 400, 480, 480, 0.9)
    merged = merge_passes([(first + [lone], 0.5), (second, 2.0)], rule)
    assert sorted(merged) == sorted(second + [lone])


def test_merge_passes_a_close_up_keeps_whole_tiles_not_their_pieces() -> None:
    rule = ScaleRule(low=16, high=64, target=34)
    # at scale 0.125 two huge tiles are 50 px: whole; at scale 1 the pass sees a piece of a face
    # (a character's stroke) at a size it reads well, and it must not replace the tile
    whole = [(100, 100, 420, 540, 0.7), (430, 100, 750, 540, 0.8)]
    pieces = [(500, 200, 545, 240, 0.9)]
    merged = merge_passes([(pieces, 1.0), (whole, 0.125)], rule)
    assert sorted(merged) == sorted(whole)


def test_merge_passes_a_surer_box_holding_the_first_pass_pieces_leads() -> None:
    rule = ScaleRule(low=16, high=64, target=34, closeup_few=3)
    # a tile filling the photo: at 512 px (scale 0.5) the detector boxed three of its pip groups,
    # of a size it reads well (40-45 px); at 128 px (scale 0.125) the whole tile, 70 x 90 px,
    # too large to count as found, but surer than any of its pieces: that pass leads
    pieces = [(300, 200, 380, 290, 0.6), (300, 420, 380, 500, 0.55), (300, 600, 390, 690, 0.5)]
    whole = [(240, 120, 800, 840, 0.85)]
    assert merge_passes([(pieces, 0.5), (whole, 0.125)], rule) == whole
    # not when the whole box is less sure than a piece, nor when it holds only some of them
    assert sorted(merge_passes([(pieces, 0.5), ([(240, 120, 800, 840, 0.58)], 0.125)], rule)) == sorted(pieces)
    assert sorted(merge_passes([(pieces, 0.5), ([(240, 120, 800, 520, 0.85)], 0.125)], rule)) == sorted(pieces)
    # more boxes than a close-up's lead only if they leave most of the box bare (pieces_cover):
    # five pip groups of a 9p filling the photo cover a third of it, and the whole tile leads...
    groups = [(300, 200, 420, 300, 0.6), (560, 200, 680, 300, 0.55), (430, 420, 550, 520, 0.5),
              (300, 640, 420, 740, 0.6), (560, 640, 680, 740, 0.5)]
    assert sum(area(b) for b in groups) / area(whole[0]) < rule.pieces_cover
    assert merge_passes([(groups, 0.5), (whole, 0.125)], rule) == whole
    # ...but four tiles of a row, which a coarser pass saw as one blob, fill it: they stay
    row4 = [(100 + 90 * k, 200, 180 + 90 * k, 300, 0.6) for k in range(4)]
    blob = (90, 190, 460, 310, 0.9)
    assert sum(area(b) for b in row4) / area(blob) > rule.pieces_cover
    assert sorted(merge_passes([(row4, 0.5), ([blob], 0.125)], rule)) == sorted(row4)


def test_merge_passes_two_tiles_holding_the_first_pass_pieces_lead() -> None:
    rule = ScaleRule(low=16, high=64, target=34)
    # a close-up of two tiles: at 512 px (scale 0.5) two pieces of their faces, too large; at
    # 128 px (scale 0.125) both tiles, each surer than the piece it holds, at a size the detector
    # reads well; at 160 px (scale 0.16) one blob over both, surer than the pieces too, but too
    # large to count as found: the pass of two tiles leads, and the pieces go
    pieces = [(284, 335, 461, 586, 0.39), (554, 332, 791, 557, 0.35)]
    tiles = [(244, 170, 475, 600, 0.85), (490, 195, 810, 575, 0.76)]
    blob = [(176, 106, 742, 618, 0.45)]
    assert sorted(merge_passes([(pieces, 0.5), (blob, 0.16), (tiles, 0.125)], rule)) == sorted(tiles)
    # with one tile less sure than the piece it holds, that pass holds them no more: the blob does
    unsure = [(244, 170, 475, 600, 0.85), (490, 195, 810, 575, 0.3)]
    assert merge_passes([(pieces, 0.5), (blob, 0.16), (unsure, 0.125)], rule) == blob


def test_merge_passes_a_pass_boxing_two_tiles_as_one_blob_does_not_lead() -> None:
    rule = ScaleRule()  # low 28, high 64: a close-up of two tiles, each 200 x 267 px in 1008 x 756
    # at 512 px (scale 0.508) both tiles, too large to count as found; at 121 px (scale 0.12) one
    # blob over both, 47 px: it would count; at 256 px (scale 0.254) both tiles again, the first
    # at 63 px. The blob holds two boxes of the first pass, side by side, as sure as it: it does
    # not lead, and the pass that found a tile at a size it reads well does
    first = [(292, 219, 549, 529, 0.84), (488, 262, 719, 533, 0.79)]
    blob = [(281, 219, 751, 542, 0.8)]
    apart = [(309, 229, 528, 512, 0.68), (488, 240, 724, 533, 0.57)]
    assert sorted(merge_passes([(first, 0.508), (blob, 0.12), (apart, 0.254)], rule)) == sorted(apart)
    # a single tile's whole face holding its two halves, each much less sure than it: no blob
    halves = [(300, 200, 700, 420, 0.6), (300, 400, 700, 640, 0.55)]
    whole = [(290, 190, 710, 650, 0.8)]
    assert merge_passes([(halves, 0.508), (whole, 0.12)], rule) == whole


def test_merge_passes_a_blob_surer_than_two_faces_boxed_apart_does_not_lead() -> None:
    """Two tiles of a close-up, each 300 px wide (training.closeups' two_300_8s): nothing at 512 px,
    one blob over both at 128 px (0.71), both tiles at 256 px, one less sure than the blob by more
    than ScaleRule.blob_sure (0.80 and 0.56). Each is shaped as a face standing upright, which a
    face's halves or pip groups are not: the blob does not lead, the tiles apart do. Halves of one
    face, left and right, as much less sure: the whole face leads."""
    rule = ScaleRule()
    blob = [(171, 156, 878, 619, 0.71)]
    apart = [(174, 165, 536, 611, 0.8), (458, 137, 818, 632, 0.56)]
    assert sorted(merge_passes([([], 0.508), (blob, 0.127), (apart, 0.254)], rule)) == sorted(apart)
    # as sure as before the rule (ScaleRule.blob_sure only): the blob led
    assert merge_passes([([], 0.508), (blob, 0.127), (apart, 0.254)], dataclasses.replace(rule, blob_face_sure=rule.blob_sure)) == blob
    whole = [(300, 160, 640, 620, 0.8)]  # one face, 340 x 460
    halves = [(305, 165, 470, 615, 0.6), (470, 165, 635, 615, 0.58)]  # its left and right halves, 165 x 450
    assert merge_passes([([], 0.508), (whole, 0.127), (halves, 0.254)], rule) == whole


def test_merge_passes_keeps_overlapping_boxes_of_one_pass() -> None:
    boxes = [(0, 0, 40, 40, 0.9), (10, 0, 50, 40, 0.8)]  # the detector's own NMS let both through
    assert merge_passes([(boxes, 1.0)]) == boxes


def test_fragment_inside_a_tile_is_dropped() -> None:
    tiles = row(5)
    blank_top = (100 + 32 * 2 + 2, 200, 100 + 32 * 2 + 28, 216, 0.7)  # the upper part of the third tile
    out = merge_fragments(tiles + [blank_top])
    assert out == tiles


def test_halves_of_one_tile_merge_into_it() -> None:
    tiles = row(5)
    # the sixth tile was boxed as its upper and lower half, never whole
    upper, lower = (260, 200, 290, 219, 0.6), (260, 221, 290, 240, 0.7)
    out = merge_fragments(tiles + [upper, lower])
    assert out[:5] == tiles
    assert out[5:] == [(260, 200, 290, 240, 0.7)]


def test_pip_groups_of_a_4p_merge_and_two_separate_tiles_do_not() -> None:
    tiles = row(6)
    # a 4p boxed as two 2p side by side (each half a tile wide)
    left, right = (300, 200, 315, 240, 0.5), (315, 200, 330, 240, 0.5)
    out = merge_fragments(tiles + [left, right])
    assert len(out) == 7 and out[-1] == (300, 200, 330, 240, 0.5)
    # two whole tiles are never merged, however close
    assert merge_fragments(row(2, gap=0)) == row(2, gap=0)


def test_three_pip_groups_merge_into_one_tile() -> None:
    tiles = row(6)
    thirds = [(300, 200 + 13 * k, 330, 200 + 13 * k + 13, 0.5) for k in range(3)]  # an 8p in three bands
    out = merge_fragments(tiles + thirds)
    assert len(out) == 7 and out[-1][:4] == (300, 200, 330, 239)


def test_small_things_far_apart_are_not_merged() -> None:
    tiles = row(6)
    specks = [(500, 500, 510, 510, 0.4), (700, 700, 710, 710, 0.4)]
    out = merge_fragments(tiles + specks)
    assert sorted(out) == sorted(tiles + specks)


def test_drop_misfits() -> None:
    tiles = row(6)
    huge = (600, 100, 760, 300, 0.6)  # five times a tile's size
    strip = (100, 400, 400, 430, 0.9)  # ten times longer than wide: a line of print, a point stick
    sure_huge = (800, 100, 960, 300, 0.9)
    boxes = tiles + [huge, strip, sure_huge]
    conf = [0.95] * 6 + [0.7, 0.99, 0.97]
    # by default only the shape counts: tiles near the camera may be far larger than the rest
    assert drop_misfits(boxes, conf) == [0, 1, 2, 3, 4, 5, 6, 8]
    keep = drop_misfits(boxes, conf, ratio=1.9)
    assert keep == [0, 1, 2, 3, 4, 5, 8]  # the surely-read big one stays (a close-up of one tile)
    # unsure tiles of the row's own size are kept: this is not a confidence filter
    assert drop_misfits(tiles, [0.3] * 6, ratio=1.9) == list(range(6))


def test_groups_link_touching_boxes_only() -> None:
    tiles = row(4)
    apart = [(600, 600, 630, 640, 0.9)]
    pair = [(100, 500, 130, 540, 0.9), (132, 500, 162, 540, 0.9)]
    assert scales.groups(tiles + apart + pair) == [[0, 1, 2, 3], [4], [5, 6]]


def test_an_unsurely_read_group_is_clutter() -> None:
    keys = [(100 + 40 * c, 100 + 45 * r, 134 + 40 * c, 140 + 45 * r, 0.6) for r in range(3) for c in range(6)]
    conf = [0.5, 0.6, 0.4, 0.7, 0.98, 0.55] * 3
    keep = scales.drop_unsure_groups(keys, conf)
    assert keep == [4, 10, 16]  # only the keys read as surely as a tile is
    # the same boxes read surely (a pond of discards) all stay, unsure members included
    conf = [0.95, 0.96, 0.6, 0.97, 0.98, 0.55] * 3
    assert scales.drop_unsure_groups(keys, conf) == list(range(18))


def test_one_line_is_a_row_level_or_tipped_not_a_grid_or_a_heap() -> None:
    level = row(8)
    tipped = [(100 + 32 * k, 200 + 9 * k, 130 + 32 * k, 240 + 9 * k, 0.9) for k in range(8)]  # a camera at an angle
    upright = [(200, 100 + 42 * k, 240, 140 + 42 * k, 0.9) for k in range(6)]  # a row running down the photo
    grid = row(6) + row(6, y0=245)
    heap = row(5) + [(150, 225, 180, 265, 0.9)]  # one tile half a tile off the row's line
    assert scales.one_line(level) and scales.one_line(tipped) and scales.one_line(upright)
    assert not scales.one_line(grid) and not scales.one_line(heap)


def test_an_unsurely_read_row_is_a_hand_not_clutter() -> None:
    """A hand row read unsurely (out of focus, or a set's artwork the models never saw) stays
    whole; the same readings in a grid (a keyboard's keys) keep only the sure ones, and so do
    the row with Settings.rows_of_tiles off and a line whose boxes are not surely tiles at all."""
    conf = [0.6, 0.7, 0.98, 0.55, 0.65, 0.9, 0.6, 0.7, 0.6, 0.5]
    assert scales.drop_unsure_groups(row(10), conf) == list(range(10))
    assert scales.drop_unsure_groups(row(5) + row(5, y0=245), conf) == [2]
    assert scales.drop_unsure_groups(row(10), conf, rows=False) == [2]
    # a line of print: the same readings, but half its boxes read as half likely no tile at all
    print_line = [0.95, 0.6, 0.9, 0.5, 0.97, 0.4, 0.8, 0.45, 0.99, 0.3]
    assert scales.drop_unsure_groups(row(10), conf, tileness=print_line) == [2]
    assert scales.drop_unsure_groups(row(10), conf, tileness=[0.99] * 10) == list(range(10))


def _aslant(n: int, degrees: float, w: float = 30, h: float = 40, gap: float = 2,
            x0: float = 300, y0: float = 300) -> list[scales.Box]:
    """The upright boxes a detector gives a row of n tiles turned `degrees` clockwise as seen
    (y down): each tile's corners turned about the row's first tile, and boxed."""
    a = math.radians(degrees)
    out = []
    for k in range(n):
        cx, cy = k * (w + gap), 0.0
        corners = [(cx + dx, cy + dy) for dx in (-w / 2, w / 2) for dy in (-h / 2, h / 2)]
        xs = [x0 + x * math.cos(a) - y * math.sin(a) for x, y in corners]
        ys = [y0 + x * math.sin(a) + y * math.cos(a) for x, y in corners]
        out.append((min(xs), min(ys), max(xs), max(ys), 0.9))
    return out


def test_row_tilt_is_how_far_a_row_stands_from_level_or_upright() -> None:
    assert scales.row_tilt(row(10)) is None  # level
    for degrees in (20.0, -30.0):
        tilt = scales.row_tilt(_aslant(10, degrees))
        assert tilt is not None and abs(tilt - degrees) < 1.0, tilt
    # a row running down the photo, its lower end turned 15 degrees to the right of upright:
    # counter-clockwise as seen, so -15
    tilt = scales.row_tilt(_aslant(10, 90 - 15))
    assert tilt is not None and abs(tilt + 15) < 1.0, tilt
    assert scales.row_tilt(_aslant(10, 5.0)) is None  # within `level`: read as it is
    assert scales.row_tilt(_aslant(6, 25.0)) is None  # six tiles are no row (in a heap, runs of five line up by chance)
    assert scales.row_tilt(_aslant(6, 25.0), least=5) is not None
    # the row touching a pond laid level below it: still the row's tilt
    pond = [(b[0] + 60, b[1] + 170, b[2] + 60, b[3] + 170, 0.9) for b in row(6) + row(6, y0=245)]
    tilt = scales.row_tilt(_aslant(12, 20.0, y0=300) + pond)
    assert tilt is not None and abs(tilt - 20) < 1.0, tilt
    # a heap of tiles lying level in a grid: as many line up level as aslant, so no tilt
    grid = [b for r in range(4) for b in row(5, y0=200 + 42 * r)]
    assert scales.row_tilt(grid) is None


def test_an_unsurely_read_pile_of_tiles_stays_unless_beside_a_sure_hand() -> None:
    """Tiles lying in a heap (not one line), each surely a tile but read unsurely as to which (a
    pond in dim light), stay whole in a photo with nothing read surely; beside a hand read
    surely the heap keeps only its sure members (a wall or pond behind the hand, too small to
    read); a heap half read as no tile (keys, clutter) and the heap with `piles` off keep only
    their sure members anywhere."""
    heap = row(3) + row(3, y0=245)  # two touching rows of three: a group in no one line
    assert not scales.one_line(heap)
    conf = [0.6, 0.45, 0.98, 0.55, 0.9, 0.5]
    tiles = [0.99, 0.95, 1.0, 0.97, 0.99, 0.93]
    assert scales.drop_unsure_groups(heap, conf, tileness=tiles) == list(range(6))
    assert scales.drop_unsure_groups(heap, conf, tileness=tiles, piles=False) == [2]
    keys = [0.99, 0.6, 1.0, 0.5, 0.99, 0.4]
    assert scales.drop_unsure_groups(heap, conf, tileness=keys) == [2]
    assert scales.drop_unsure_groups(heap, conf) == [2]  # no tileness: nothing says they are tiles
    hand = row(10, y0=600)
    got = scales.drop_unsure_groups(hand + heap, [0.95] * 10 + conf, tileness=[0.99] * 10 + tiles)
    assert got == list(range(10)) + [12]


def test_lone_unsure_boxes_beside_a_sure_hand_are_dropped_but_not_without_one() -> None:
    hand = row(10)
    lone = [(150, 500, 180, 540, 0.6), (700, 100, 730, 140, 0.6)]
    conf = [0.95] * 10 + [0.6, 0.85]
    assert scales.drop_unsure_groups(hand + lone, conf) == list(range(10)) + [11]
    # tiles lying apart with no row read surely: each is kept as read
    scattered = [(100 + 200 * k, 100, 130 + 200 * k, 140, 0.6) for k in range(4)]
    assert scales.drop_unsure_groups(scattered, [0.6, 0.55, 0.9, 0.7]) == [0, 1, 2, 3]


def test_keys_read_as_tiles_among_keys_read_as_no_tile_are_clutter() -> None:
    """A keyboard's keys stand further apart than a row's tiles (here 30 px gaps between 30 x 40
    boxes), so each is a box on its own; most are read as no tile. The few read as a tile, even
    beside a hand read surely where a lone box must be read at 0.8 and these are at 0.89, are
    known by the keys around them."""
    keys = [(100 + 60 * c, 100 + 70 * r, 130 + 60 * c, 140 + 70 * r, 0.6) for r in range(4) for c in range(8)]
    hand = row(14, y0=500)
    boxes = hand + keys
    as_tile = {14 + 7, 14 + 12, 14 + 30}  # a key read as 2p, two dark keys as face-down tiles
    conf = [0.95] * 14 + [0.89 if i in as_tile else 0.0 for i in range(14, 46)]
    tileness = [0.99] * 14 + [0.65 if i in as_tile else 0.1 for i in range(14, 46)]
    assert scales.drop_unsure_groups(boxes, conf, tileness=tileness) == list(range(14))
    # without the keys read as no tile in the company (no tileness given), they stay
    assert set(scales.drop_unsure_groups(boxes, conf)) == set(range(14)) | as_tile
    # read surely, a key is kept (a tile lying on a keyboard)
    sure = [0.99 if i == 14 + 7 else c for i, c in enumerate(conf)]
    assert scales.drop_unsure_groups(boxes, sure, tileness=tileness) == list(range(14)) + [14 + 7]
    # a hand read surely among many things read as no tile keeps every tile, unsure ones too:
    # its tiles touch, so they are a group kept whole, and only boxes on their own are judged so
    clutter = [(100 + 40 * k, 440, 130 + 40 * k, 480, 0.5) for k in range(14)] + \
              [(100 + 40 * k, 560, 130 + 40 * k, 600, 0.5) for k in range(14)]
    hand_conf = [0.95, 0.6] * 7
    keep = scales.drop_unsure_groups(hand + clutter, hand_conf + [0.0] * 28, tileness=[0.99] * 14 + [0.1] * 28)
    assert keep[:14] == list(range(14))
    # too few boxes read as no tile around them: lone boxes are judged as before
    few = keys[:8]
    conf8 = [0.89 if k < 4 else 0.0 for k in range(8)]
    assert scales.drop_unsure_groups(hand + few, [0.95] * 14 + conf8,
                                     tileness=[0.99] * 14 + [0.65] * 4 + [0.1] * 4) == list(range(18))


def test_keep_tiles_combines_shape_and_company() -> None:
    hand = row(10)
    strip = (100, 400, 400, 430, 0.9)  # print: no tile's shape, however surely read
    lone_key = (700, 100, 730, 140, 0.6)
    boxes = hand + [strip, lone_key]
    conf = [0.95] * 10 + [0.99, 0.6]
    assert scales.keep_tiles(boxes, conf) == list(range(10))
    assert scales.keep_tiles(boxes, conf, misfits=False) == list(range(11))  # the strip sits alone, read surely
    assert scales.keep_tiles(boxes, conf, unsure_groups=False) == list(range(10)) + [11]
    assert scales.keep_tiles([], []) == []


def test_set_apart_takes_a_tile_sized_box_on_the_rows_line_beyond_its_end() -> None:
    tiles = row(13)  # 30 x 40, ends at x = 100 + 13 * 32 - 2 = 514
    haku = (540, 198, 570, 241, 0.5)  # 26 px beyond the end, on the line
    far = (700, 200, 730, 240, 0.5)  # 186 px beyond: not set apart, just elsewhere
    above = (540, 150, 570, 190, 0.5)  # off the line
    small = (540, 210, 555, 230, 0.5)  # half a tile: a fragment, not a tile
    inside = (140, 205, 160, 235, 0.5)  # over a kept tile
    left = (50, 201, 80, 241, 0.5)  # beyond the other end
    boxes = tiles + [haku, far, above, small, inside, left]
    n = len(tiles)
    got = scales.set_apart(boxes, list(range(n)), list(range(n, len(boxes))))
    assert got == [n, n + 5]
    # a row too short to say where its line is: nothing
    assert scales.set_apart(tiles[:3] + [haku], [0, 1, 2], [3]) == []
    # a column of tiles (a hand photographed turned a quarter): the same along y
    col = [(200, 100 + k * 32, 240, 130 + k * 32, 0.9) for k in range(6)]
    below = (201, 100 + 6 * 32 + 20, 239, 100 + 6 * 32 + 50, 0.5)
    assert scales.set_apart(col + [below], list(range(6)), [6]) == [6]


def test_snap_to_rows_grows_a_short_box_in_a_row_to_the_rows_height() -> None:
    """A row of eight tiles (30 x 40) whose fourth was boxed by its lower part only (a thin 一 above
    the 萬 left out): that box grows to the row's top; the others, a tile laid sideways in a meld
    (wider, lower), a short row and boxes it would cover keep their boxes."""
    hand = row(8)
    cut = (hand[3][0], 212.0, hand[3][2], 240.0, 0.8)
    boxes = hand[:3] + [cut] + hand[4:]
    out = scales.snap_to_rows(boxes)
    assert out[3] == (hand[3][0], 200.0, hand[3][2], 240.0, 0.8)
    assert out[:3] + out[4:] == boxes[:3] + boxes[4:]
    # a sideways tile of a meld: 40 wide and 30 high, set lower in the row; kept as it is
    sideways = [(100 + k * 32, 200, 130 + k * 32, 240, 0.9) for k in range(5)] + [(260, 210, 300, 240, 0.9)]
    assert scales.snap_to_rows(sideways) == sideways
    # too few to be a row
    assert scales.snap_to_rows(boxes[:4]) == boxes[:4]
    # a row lying aslant (each tile 20 px lower than the one before): its boxes are left alone
    aslant = [(b[0], b[1] + 20 * k, b[2], b[3] + 20 * k, b[4]) for k, b in enumerate(boxes)]
    assert scales.snap_to_rows(aslant) == aslant
    # a box in the space it would grow into (a fragment above it): it is not grown over it
    above = (hand[3][0] + 2, 204.0, hand[3][2] - 2, 211.0, 0.5)
    assert scales.snap_to_rows(boxes + [above])[3] == cut
    # a column (a hand photographed turned a quarter): widths across it
    col = [(200, 100 + k * 42, 230, 140 + k * 42, 0.9) for k in range(6)]
    col[2] = (208, col[2][1], 230, col[2][3], 0.9)
    assert scales.snap_to_rows(col)[2] == (200, col[2][1], 230, col[2][3], 0.9)


def test_snap_to_rows_finds_the_rows_of_a_grid() -> None:
    """Tiles laid out on a mat in three touching rows of seven (40 x 70): the group of touching
    boxes is a grid, not one line, so its rows are taken band by band. A middle-row 4p boxed by
    its lower pair of pips only (read alone: a 2p) grows to its row's height, up to the tile
    above; the rows above and below keep their boxes. A heap of the same boxes, or one row with
    two boxes beside it, is no grid and is left alone."""
    grid = [(100 + c * 42, 100 + r * 72, 140 + c * 42, 170 + r * 72, 0.9) for r in range(3) for c in range(7)]
    cut = (100 + 6 * 42 + 3, 172 + 36, 140 + 6 * 42 - 3, 172 + 70, 0.6)  # the middle row's last tile
    boxes = grid[:13] + [cut] + grid[14:]
    # its rows; its columns, of three, are too short to be rows
    assert scales.rows_of(boxes, list(range(len(boxes)))) == [list(range(r * 7, r * 7 + 7)) for r in range(3)]
    out = scales.snap_to_rows(boxes)
    assert out[13] == (cut[0], 172, cut[2], 242, 0.6)
    assert out[:13] + out[14:] == boxes[:13] + boxes[14:]
    # a heap: the same boxes, each shifted by a different share of a tile, stand in no band's line
    shifts = [((k * 37) % 61 - 30, (k * 53) % 61 - 30) for k in range(len(boxes))]
    heap = [(b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy, b[4]) for b, (dx, dy) in zip(boxes, shifts)]
    assert scales.rows_of(heap, list(range(len(heap)))) == []
    assert scales.snap_to_rows(heap) == heap
    # one row with a few boxes beside it (objects on a counter, the tiles near a hand) is no grid
    beside = boxes[7:14] + [(100, 100, 140, 170, 0.9), (142, 100, 182, 170, 0.9)]
    assert scales.rows_of(beside, list(range(len(beside)))) == []
    assert scales.snap_to_rows(beside) == beside


def test_in_rows_takes_unsure_tile_sized_boxes_that_continue_a_row() -> None:
    """A hand of 14 (30 x 40, 2 px apart) of which 11 were read surely: the unsure boxes in its
    gap and beyond its end, on its line and of its tiles' size, continue it (two beyond the end
    one after the other: the second touches the first); boxes off the line, of another size, over
    a kept tile or away from the row do not."""
    hand = row(14)
    kept = [k for k in range(14) if k not in (4, 12, 13)]
    gap, end, after = hand[4], hand[12], hand[13]
    others = [
        (100 + 4 * 32, 150, 130 + 4 * 32, 190, 0.6),  # above the gap: off the line
        (560, 200, 575, 220, 0.6),  # beyond the end, a quarter of a tile: a fragment
        (100 + 7 * 32 + 10, 200, 130 + 7 * 32 + 10, 240, 0.6),  # lies over a kept tile
        (700, 200, 730, 240, 0.6),  # on the line, far beyond the row: not touching it
    ]
    boxes = [hand[k] for k in kept] + [gap, end, after] + others
    n = len(kept)
    cands = list(range(n, len(boxes)))
    assert scales.in_rows(boxes, list(range(n)), cands) == [n, n + 1, n + 2]
    # the last of the row is taken only through the one before it
    assert scales.in_rows(boxes, list(range(n)), [n, n + 2] + cands[3:]) == [n]
    # too few kept to be a row
    assert scales.in_rows(boxes, list(range(4)), cands) == []
    # a heap is not a row: kept boxes in a 4 x 3 block take no unsure neighbour
    block = [b for r in range(3) for b in row(4, y0=200 + r * 42)]
    beside = (100 + 4 * 32, 200, 130 + 4 * 32, 240, 0.6)
    assert scales.in_rows(block + [beside], list(range(12)), [12]) == []
    # a column (a hand photographed turned a quarter): the same along y
    col = [(200, 100 + k * 42, 230, 140 + k * 42, 0.9) for k in range(8)]
    assert scales.in_rows(col, [0, 1, 2, 3, 4, 5, 7], [6]) == [6]


def test_in_rows_joins_short_sure_runs_through_the_unsure_tiles_between_them() -> None:
    """A hand in artwork the models never saw, read surely in runs of three (tiles 0-2, 6-8,
    11-13) with unsure tiles between: no run alone is a row, but through the unsure tiles they
    stand in one line of nine sure tiles, and the five unsure tiles are the row's. Sure runs that
    only unsure boxes off the line would join are no row."""
    hand = row(14)
    kept_at = [0, 1, 2, 6, 7, 8, 11, 12, 13]
    unsure_at = [3, 4, 5, 9, 10]
    boxes = [hand[k] for k in kept_at] + [hand[k] for k in unsure_at]
    n = len(kept_at)
    assert scales.in_rows(boxes, list(range(n)), list(range(n, len(boxes)))) == list(range(n, len(boxes)))
    # the same runs, with only the gap between the first two filled: six sure tiles in a row, and
    # the second gap's tiles are taken too, as they touch the row
    assert scales.in_rows(boxes, list(range(n)), list(range(n, n + 3))) == list(range(n, n + 3))
    # runs of three joined only by boxes above the line: no row of five in one line
    runs = [hand[k] for k in (0, 1, 2)] + [(b[0], b[1] + 120, b[2], b[3] + 120, 0.9) for b in (hand[6], hand[7], hand[8])]
    bridge = [(100 + k * 32, 200 + 60, 130 + k * 32, 240 + 60, 0.6) for k in (3, 4, 5)]
    assert scales.in_rows(runs + bridge, list(range(6)), [6, 7, 8]) == []


def test_among_tiles_takes_a_tile_sized_box_near_the_tiles_only() -> None:
    """Three tiles 50 px wide scattered on a counter; of the faint candidates, those of about a
    tile's size within three tile sizes of one are among them: not a cupboard door (too big), a
    knob (too small), a kettle far off, nor a box lying over a tile."""
    tiles = [(100, 300, 150, 360, 0.9), (260, 320, 310, 380, 0.9), (180, 450, 230, 510, 0.9)]
    candidates = [
        (400, 330, 440, 372, 0.3),   # a tile standing 90 px from the nearest: among them
        (120, 520, 160, 560, 0.3),   # small for a face, still a tile's size: among them
        (100, 40, 150, 100, 0.3),    # tile-sized, but 200 px above the tiles: the room's clutter
        (350, 440, 500, 560, 0.3),   # near, but three times a tile: a cupboard door
        (330, 330, 345, 345, 0.3),   # near, but a knob
        (110, 310, 150, 355, 0.3),   # over a kept tile: its part
    ]
    boxes = tiles + candidates
    kept, cands = [0, 1, 2], list(range(3, 9))
    assert scales.among_tiles(boxes, kept, cands) == [3, 4]
    assert scales.among_tiles(boxes, kept[:2], cands) == []  # two tiles are not yet a scene of tiles
    assert scales.among_tiles(boxes, kept, cands, reach=1.0) == [4]


def test_lone_takes_the_boxes_with_no_other_box_near() -> None:
    """A closed kan's two backs in a row of tiles each have a tile beside them; a dark box far
    from every tile (an appliance across the room) has none within its own side. Reach is in
    the candidate's own sides."""
    tiles = [(100 + k * 42, 300, 140 + k * 42, 354, 0.9) for k in range(6)]
    kan_back = (352, 300, 392, 354, 0.9)     # touching the row's last tile
    far_back = (600, 40, 640, 94, 0.9)       # 250 px above and right of the row
    near_back = (100, 400, 140, 454, 0.9)    # 46 px below the row: within one side (46.5)
    boxes = tiles + [kan_back, far_back, near_back]
    kept = list(range(9))
    assert scales.lone(boxes, kept, [6, 7, 8]) == [7]
    assert scales.lone(boxes, kept, [6, 7, 8], reach=0.5) == [7, 8]
    assert scales.lone(boxes, [7], [7]) == [7]  # alone in the photo: nothing beside it


def test_far_apart_takes_the_boxes_far_from_every_other_box() -> None:
    """Four tiles 40 px wide lying together and one box 400 px off (ten tile sizes): the box far
    off is taken at any reach under ten sizes, the tiles only at a reach under their gaps; with
    two tiles or fewer kept beside it, nothing is (a close-up of a few tiles may hold them far apart)."""
    tiles = [(100, 300, 140, 354, 0.9), (142, 300, 182, 354, 0.9), (184, 300, 224, 354, 0.9),
             (120, 420, 160, 474, 0.9)]  # the fourth 66 px below: 1.4 sizes apart, still together
    far = (620, 300, 660, 354, 0.9)
    boxes = tiles + [far]
    assert scales.far_apart(boxes, [0, 1, 2, 3, 4], reach=5.0) == [4]
    assert scales.far_apart(boxes, [0, 1, 2, 3, 4], reach=1.0) == [3, 4]  # the fourth: 1.4 sizes off
    assert scales.far_apart(boxes, [0, 1, 2, 3, 4], reach=12.0) == []
    assert scales.far_apart(boxes, [0, 1, 4], reach=5.0) == []
    # a pair lying together that far off: taken as a pair (few 2), not one by one
    pair = boxes + [(664, 300, 704, 354, 0.9)]
    assert scales.far_apart(pair, [0, 1, 2, 3, 4, 5], reach=5.0) == []
    assert scales.far_apart(pair, [0, 1, 2, 3, 4, 5], reach=5.0, few=2) == [4, 5]
    assert scales.far_apart(pair, [0, 1, 2, 4, 5], reach=5.0, few=2) == [4, 5]  # three others kept
    assert scales.far_apart(pair, [0, 1, 4, 5], reach=5.0, few=2) == []  # two: not enough to judge by


def test_specks_are_boxes_far_smaller_than_the_tiles_read_unsurely() -> None:
    """Five tiles 44 x 56 px lying apart, a box of 24 x 26 px (half their size: a fleck of the
    granite) and one of 36 x 46 px (a tile a little further off): the small box read unsurely is a
    speck; read surely it stays, and so does the box of nearly the tiles' size, however read."""
    tiles = [(100.0 + 90 * k, 300.0, 144.0 + 90 * k, 356.0, 0.9) for k in range(5)]
    fleck = (680.0, 158.0, 704.0, 184.0, 0.6)
    further = (700.0, 400.0, 736.0, 446.0, 0.6)
    boxes = tiles + [fleck, further]
    kept = list(range(7))
    conf = [0.95] * 5 + [0.79, 0.79]
    assert scales.specks(boxes, kept, conf) == [5]
    assert scales.specks(boxes, kept, conf[:5] + [0.9, 0.79]) == []  # read surely: a tile
    assert scales.specks(boxes, kept, conf, sure=0.6) == []  # the rule's bar before stage 2g's classifier
    assert scales.specks(boxes, kept, conf, share=0.4) == []  # 25 px against 50: half, not under 0.4
    assert scales.specks(boxes, [], conf) == []


def test_giants_are_blank_boxes_far_larger_than_the_tiles_with_no_inked_tile_their_size() -> None:
    """Five tiles 40 x 52 px and, at the back of the counter, a plain thing 130 x 145 px read as
    haku (a kettle): a giant. Haku in a hand near the camera (64 x 84 px, beside the hand's other
    tiles of that size) with discards far off (30 x 40 px, more of them) are not; two plain things of
    one size do not vouch for each other; with under three other tiles there is nothing to judge by."""
    tiles = [(100.0 + 90 * k, 400.0, 140.0 + 90 * k, 452.0, 0.9) for k in range(5)]
    kettle = (800.0, 60.0, 930.0, 205.0, 0.8)
    boxes = tiles + [kettle]
    assert scales.giants(boxes, list(range(6)), [5]) == [5]
    assert scales.giants(boxes, list(range(6)), [5], ratio=3.5) == []  # 3.0 times the tiles' size
    assert scales.giants(boxes, [0, 1, 5], [5]) == []  # two others: not enough to judge by
    assert scales.giants(boxes, list(range(6)), []) == []  # read as a tile with ink: not judged here
    sheet = (600.0, 60.0, 740.0, 200.0, 0.8)
    assert scales.giants(boxes + [sheet], list(range(7)), [5, 6]) == [5, 6]
    discards = [(100.0 + 34 * k, 100.0, 130.0 + 34 * k, 140.0, 0.9) for k in range(10)]
    hand = [(60.0 + 66 * k, 500.0, 124.0 + 66 * k, 584.0, 0.9) for k in range(8)]
    near = discards + hand
    haku = [10, 11]  # two of the hand's tiles read as haku, twice the discards' size
    assert scales.tile_size(near) < 40
    assert scales.giants(near, list(range(18)), haku) == []
    assert scales.giants(near, list(range(10)) + haku, haku) == haku  # the hand's inked tiles gone


def test_lookalikes_are_one_or_two_unsure_tiles_outnumbered_by_things_of_their_size_read_as_none() -> None:
    """Seven playing cards 120 x 160 px: six read as no tile, one read as 0s at 0.92. That one is
    one of them. Read at 0.98 it stays; with two cards alike, or things of another size, there is
    nothing to judge by. Beside more tiles than `few`, a thing apart is their company's to judge."""
    cards = [(60.0 + 180 * k, 100.0 + 300 * (k % 2), 180.0 + 180 * k, 260.0 + 300 * (k % 2), 0.7) for k in range(7)]
    sure = [0.3, 0.3, 0.3, 0.3, 0.92, 0.3, 0.3]
    others = [0, 1, 2, 3, 5, 6]
    assert scales.lookalikes(cards, [4], sure, others) == [4]
    assert scales.lookalikes(cards, [4], sure[:4] + [0.98] + sure[5:], others) == []
    assert scales.lookalikes(cards, [4], sure, others[:2]) == []  # two alike: not enough
    assert scales.lookalikes(cards, [4], sure, others, ratio=1.05) == [4]  # the cards are of one size
    assert scales.lookalikes(cards, [4], sure, others, smallest=160.0) == []  # as small as specks: not judged
    small = [(x1, y1, x1 + 40.0, y1 + 52.0, s) for x1, y1, _, _, s in cards]  # things a third its size
    assert scales.lookalikes(cards[:1] + small[1:], [0], sure, [1, 2, 3, 5, 6]) == []
    # a domino: its blank half read as haku (0.94) and its other half as 4p (0.66), both kept,
    # among five dominoes' halves read as no tile
    halves = [(100.0 + 150 * k, 400.0, 160.0 + 150 * k, 460.0, 0.5) for k in range(5)]
    domino = [(900.0, 100.0, 960.0, 160.0, 0.4), (900.0, 162.0, 960.0, 222.0, 0.5)]
    assert scales.lookalikes(halves + domino, [5, 6], [0.1] * 5 + [0.94, 0.66], [0, 1, 2, 3, 4]) == [5, 6]
    assert scales.lookalikes(halves + domino, [5, 6], [0.1] * 5 + [0.94, 0.66], [0, 1]) == []  # two alike, two kept
    # the same pair beside a hand of tiles: three kept or more, not judged here
    row = [(100.0 + 62 * k, 700.0, 160.0 + 62 * k, 760.0, 0.9) for k in range(3)]
    assert scales.lookalikes(halves + domino + row, [5, 6, 7, 8, 9], [0.1] * 5 + [0.94, 0.66, 0.9, 0.9, 0.9],
                             [0, 1, 2, 3, 4]) == []


def _random_boxes(rnd: random.Random, n: int) -> list[scales.Box]:
    """Tiles of a few sizes, some a fragment or twice a tile, scattered so that some touch."""
    base = rnd.choice([10, 20, 40])
    out = []
    for _ in range(n):
        x, y = rnd.uniform(0, 600), rnd.uniform(0, 400)
        w = base * rnd.choice([0.5, 1, 1, 1, 1.3, 2]) * rnd.uniform(0.8, 1.2)
        out.append((x, y, x + w, y + w * rnd.uniform(0.6, 1.6), rnd.random()))
    return out


def test_near_groups_are_the_groups_of_every_pair() -> None:
    """The sweep asks only boxes whose left edges lie near: it must join exactly what asking every
    pair joins, whatever the gaps (0: nothing touches; large: chains across the photo)."""
    rnd = random.Random(7)
    for _ in range(300):
        boxes = _random_boxes(rnd, rnd.randint(0, 40))
        for near in (0.0, 3.0, 12.0, 60.0):
            every = scales.clusters(len(boxes), lambda i, j, b=boxes, d=near: scales._gap(b[i], b[j]) < d)
            assert scales.near_groups(boxes, near) == every


def test_tile_size_is_the_heaviest_band_of_sizes() -> None:
    """tile_size finds each box's band by bisection: the answer is that of asking every box of
    every other, the band of the most score (a tie to the larger size), its weighted median."""
    rnd = random.Random(11)
    band = math.log(scales.DEFAULT_RULE.cluster)
    for _ in range(300):
        boxes = _random_boxes(rnd, rnd.randint(1, 40))
        sized = [(scales.side(b), max(b[4], 1e-3)) for b in boxes]
        best = max(((math.fsum(w for t, w in sized if abs(math.log(t / s)) <= band), s) for s, _ in sized))
        members = [(t, w) for t, w in sized if abs(math.log(t / best[1])) <= band]
        assert scales.tile_size(boxes) == scales._weighted_median([t for t, _ in members], [w for _, w in members])


def _crowd_row():
    """lamp_kan's row as boxed: five tiles 52 px wide, then two 9s boxed three times (narrow
    boxes over each, 34 px, and one across their edge), then a tile: boxes, codes, confidences."""
    boxes = row(5, x0=400, w=52, h=66)
    boxes += [(713, 200, 747, 266, 0.9), (740, 200, 798, 266, 0.8), (790, 200, 824, 266, 0.9)]
    boxes += [(821, 200, 871, 266, 0.9)]
    codes = {i: c for i, c in enumerate(["2m", "3m", "4m", "7z", "back", "9s", "9s", "9s", "back"])}
    surely = {i: 0.95 for i in codes} | {5: 0.73, 6: 0.71, 7: 0.84}
    return boxes, codes, surely


def test_three_boxes_of_a_kind_over_two_tiles_lose_the_least_sure() -> None:
    boxes, codes, surely = _crowd_row()
    kept = list(range(len(boxes)))
    assert scales.crowded(boxes, kept, codes, surely) == [6]
    # the least sure goes, whichever it is
    assert scales.crowded(boxes, kept, codes, surely | {6: 0.9}) == [5]
    # read as two kinds, they are no run
    assert scales.crowded(boxes, kept, codes | {6: "8s"}, surely) == []
    # 111 px over tiles 52 px wide is 2.13 tiles: three boxes hold one too many at a slack of 0.8,
    # none at 0.9; two too many when the run must span one and a half tiles more than it holds
    assert scales.crowded(boxes, kept, codes, surely, slack=0.8) == [6]
    assert scales.crowded(boxes, kept, codes, surely, slack=0.9) == []
    assert scales.crowded(boxes, kept, codes, surely, slack=-0.5) == [5, 6]
    # tiles beside the run smaller than the first pass boxes well (their side 58.6 px): not judged
    assert scales.crowded(boxes, kept, codes, surely, smallest=58) == [6]
    assert scales.crowded(boxes, kept, codes, surely, smallest=59) == []


def test_three_like_tiles_side_by_side_are_three() -> None:
    """A pon of three like tiles in the row, boxed as wide as their neighbours: no box too many;
    nor with no neighbour to measure a tile by, nor two narrow boxes touching (tiles lying every
    way: a run of two is not judged)."""
    boxes = row(8, x0=100, w=52, h=66)
    codes = {i: c for i, c in enumerate(["2m", "3m", "9s", "9s", "9s", "4m", "5m", "6m"])}
    surely = {i: 0.9 for i in codes}
    assert scales.crowded(boxes, list(range(8)), codes, surely) == []
    assert scales.crowded(boxes, [2, 3, 4], codes, surely) == []  # nothing beside them
    narrow = row(3, x0=100, w=52, h=66) + [(260, 200, 294, 266, 0.9), (294, 200, 328, 266, 0.9)]
    pair = {0: "1m", 1: "2m", 2: "3m", 3: "8m", 4: "8m"}
    assert scales.crowded(narrow, list(range(5)), pair, {i: 0.9 for i in pair}) == []


def test_a_run_is_upright_boxes_in_one_row_chained_by_small_gaps() -> None:
    boxes, codes, surely = _crowd_row()
    kept = list(range(len(boxes)))
    # the middle box a row lower (not beside the others): two runs of one
    lower = list(boxes)
    lower[6] = (740, 240, 798, 306, 0.8)
    assert scales.crowded(lower, kept, codes, surely) == []
    # a gap of a fifth of their height between the narrow boxes and the middle one: not one run
    apart = list(boxes)
    apart[5] = (693, 200, 727, 266, 0.9)
    apart[7] = (811, 200, 845, 266, 0.9)
    assert scales.crowded(apart, kept, codes, surely) == []
    # a tile lying sideways (wider than high) is no part of a run
    sideways = list(boxes)
    sideways[6] = (730, 220, 808, 266, 0.8)
    assert scales.crowded(sideways, kept, codes, surely) == []
