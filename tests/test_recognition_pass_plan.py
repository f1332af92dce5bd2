"""The extra recognition passes planned in recognition.reading (issue 19): which detector scales to
run again, how their boxes merge, which tall faces to read again from which crop. Both the
server's pipeline and the phone (live-recognizer.js asks Pyodide) run these very functions; here
they are fed hand-made boxes and probabilities."""
from __future__ import annotations

import dataclasses
import math

import pytest

from recognition import reading, scales

ON = reading.Settings(multi_scale=True, merge_fragments=True, tall_faces=True)
OFF = reading.Settings(multi_scale=False, merge_fragments=False, tall_faces=False)
LABELS = ["1m", "2m", "5z", "none"]


def row(n: int, x0: float = 100, y0: float = 200, w: float = 30, h: float = 40, score: float = 0.9) -> list[scales.Box]:
    return [(x0 + k * (w + 2), y0, x0 + k * (w + 2) + w, y0 + h, score) for k in range(n)]


GH, GW = 40, 80  # a detector map's grid (stride 4: a 320 x 160 image)


def detector_map(peaks: list[tuple]) -> list[float]:
    """A detector output (5, GH, GW), flat, with a peak of the given score at each (row, column)
    giving an 11 x 15 px box (or the width and height given after the score), and nothing
    anywhere else."""
    plane = GH * GW
    out = [-6.0] * (5 * plane)
    for r, c, score, *size in peaks:
        i = r * GW + c
        w, h = size or (11, 15)
        out[i] = math.log(score / (1 - score))
        out[plane + i], out[2 * plane + i] = math.log(w / 4), math.log(h / 4)
        out[3 * plane + i] = out[4 * plane + i] = 0.5
    return out


def test_rescan_sides_asks_for_the_scale_the_detector_learned() -> None:
    # tiles 8 px wide seen at scale 0.5 in a 1008 px photo: 4 detector pixels, far too small
    far = row(7, w=8, h=11)
    assert reading.rescan_sides(far, 0.5, 1008, 700, ON) == [1008]
    # tiles of the learned size: nothing more to run
    assert reading.rescan_sides(row(7, w=60, h=80), 0.5, 1008, 700, ON) == []
    # nothing found: the pyramid for a close-up
    assert reading.rescan_sides([], 512 / 1008, 1008, 700, ON) == [128, 256]
    # the photo as taken has more pixels than the 1008 px copy read: the pass may be finer than
    # the copy, up to ScaleRule.max_side (tiles 4 px at 512 -> 34 px wants 4352), and never
    # beyond the photo's own size
    assert reading.rescan_sides(far, 0.5, 1008, 700, ON, available=4032) == [scales.DEFAULT_RULE.max_side]
    assert reading.rescan_sides(far, 0.5, 1008, 700, ON, available=1200) == [1200]
    assert reading.rescan_sides(far, 0.5, 1008, 700, ON, available=640) == [1008]  # never under the copy's
    # three boxes of a size the detector reads well: blobs of a far block of tiles, maybe; probed
    # at twice the scale, on a finer copy when the photo has one (recognition.scales.probing); or
    # pieces of a close-up's face: the pyramid's smaller sides too
    blobs = row(3, w=38, h=48)
    assert reading.rescan_sides(blobs, 512 / 1008, 1008, 700, ON, available=2016) == [128, 256, 1024]
    assert reading.rescan_sides(blobs, 512 / 1008, 1008, 700, ON) == [128, 256, 1008]
    # seven boxes of that size are a row of small tiles: read again where they measure the target
    # (34 px: 512 * 34 / 21.7 = 802), where their boxes fit them closely (recognition.scales.ScaleRule.low)
    assert reading.rescan_sides(row(7, w=38, h=48), 512 / 1008, 1008, 700, ON, available=2016) == [802]
    assert reading.rescan_sides(row(7, w=58, h=76), 512 / 1008, 1008, 700, ON, available=2016) == []  # 33 px
    # off: never
    assert reading.rescan_sides(far, 0.5, 1008, 700, OFF) == []
    assert reading.rescan_sides([], 512 / 1008, 1008, 700, OFF) == []


def test_merge_detections_merges_passes_and_fragments_best_first() -> None:
    tiles = row(4)
    first = [tiles[0], tiles[1], (164, 200, 194, 220, 0.95), (164, 221, 194, 240, 0.4)]  # the third split in two
    second = [tiles[2], (228, 200, 258, 240, 0.99)]
    merged = reading.merge_detections([(first, 1.0), (second, 1.0)], ON)
    assert [b[4] for b in merged] == sorted((b[4] for b in merged), reverse=True)
    assert len(merged) == 4  # four tiles, the halves of the third one tile
    assert all(isinstance(v, float) for b in merged for v in b)
    # nothing to merge: the first pass's boxes, as given
    assert reading.merge_detections([(tiles, 1.0)], ON) == tiles
    # fragments left alone when merge_fragments is off
    assert len(reading.merge_detections([(first, 1.0)], OFF)) == 4
    assert reading.merge_detections([], ON) == []


def test_tall_faces_picks_tall_blank_boxes_and_their_lower_part() -> None:
    boxes = [(0, 0, 10, 30, 0.9), (20, 0, 30, 13, 0.9), (40, 0, 50, 30, 0.9), (60, 0, 70, 30, 0.9),
             (80, 0, 90, 30, 0.9), (100, 0, 110, 13, 0.9)]
    probs = [[0.1, 0.1, 0.7, 0.1],  # tall, read haku: again
             [0.1, 0.1, 0.7, 0.1],  # haku but a tile's shape: no
             [0.8, 0.1, 0.05, 0.05],  # tall but read 1m surely (0.84 given a tile): no
             [0.1, 0.1, 0.1, 0.7],  # tall, read as no tile: again
             [0.4, 0.35, 0.15, 0.1],  # tall, read 1m unsurely (0.44 given a tile): again
             [0.4, 0.35, 0.15, 0.1]]  # as unsure, but a tile's shape: no (grown_faces' business)
    idx, crops = reading.tall_faces(boxes, probs, LABELS, "none", ON)
    assert idx == [0, 3, 4]
    assert crops[0] == pytest.approx((0, 30 - 10 * scales.FACE_ASPECT, 10, 30))
    assert crops[1] == pytest.approx((60, 30 - 10 * scales.FACE_ASPECT, 70, 30))
    assert reading.tall_faces(boxes, probs, LABELS, "none", OFF) == ([], [])
    # the unsure tall face is read from its lower part, not grown taller (more of its blank top)
    plan = reading.rereads(boxes, probs, LABELS, "none", ON)
    assert plan.tall == [0, 3, 4] and plan.grown == [5, 5]


def test_reread_takes_the_lower_part_only_when_it_reads_a_tile_more_surely() -> None:
    probs = [[0.1, 0.1, 0.7, 0.1], [0.0, 0.0, 0.0, 1.0], [0.5, 0.0, 0.5, 0.0]]
    again = [[0.9, 0.05, 0.05, 0.0], [0.0, 0.0, 0.0, 1.0], [0.4, 0.1, 0.1, 0.4]]
    out = reading.reread_tall_faces(probs, [0, 1, 2], again, LABELS, "none")
    assert out[0] == again[0]  # 1m at 0.9 beats haku at 0.7
    assert out[1] == probs[1]  # "no tile" surely either way: not a surer tile
    assert out[2] == probs[2]  # 0.4 < 0.5: the whole stays


def test_a_box_short_of_its_rows_foot_is_measured_and_read_down_to_it() -> None:
    """A row of six standing faces 17 wide and 30 high, feet at 30; the fourth's box ends at 26
    (a detector box that stops above a 9p's last pips): 26 high, it is under scales.TALL x 17 and
    not a tall face; measured down to the row's foot, it is, and its lower part is read ending there.
    A box short by less than FOOT_SHORT of its height keeps its own foot; off, every box does."""
    row = [(k * 18.0, 0.0, k * 18.0 + 17, 30.0, 0.9) for k in range(6)]
    short = list(row)
    short[3] = (54.0, 0.0, 71.0, 26.0, 0.9)
    blank = [0.1, 0.1, 0.7, 0.1]  # read whole as haku
    sure = [0.9, 0.05, 0.05, 0.0]
    probs = [sure, sure, sure, blank, sure, sure]
    assert not reading._tall(short[3])
    idx, crops, footed = reading.tall_plan(short, probs, LABELS, "none", ON)
    assert idx == [3] and footed == [3]
    assert crops[0] == pytest.approx((54, 30 - 17 * scales.FACE_ASPECT, 71, 30))
    assert reading.tall_faces(short, probs, LABELS, "none", ON) == (idx, crops)
    assert reading.rereads(short, probs, LABELS, "none", ON).footed == [3]
    assert reading.tall_plan(short, probs, LABELS, "none", dataclasses.replace(ON, tall_foot=False)) == ([], [], [])
    nearly = list(row)
    nearly[3] = (54.0, 0.0, 71.0, 28.0, 0.9)  # 2 short of 28: under a tenth, and 28 high is not tall
    assert reading.tall_plan(nearly, probs, LABELS, "none", ON) == ([], [], [])
    # a tall face whose box reaches the row's foot is read from its own lower part, as before
    tall = [(54.0, -10.0, 71.0, 30.0, 0.9) if k == 3 else b for k, b in enumerate(row)]
    assert reading.tall_plan(tall, probs, LABELS, "none", ON)[2] == []


def test_a_box_read_down_to_its_rows_foot_takes_only_a_sure_reading() -> None:
    """Read beyond what the detector boxed, a box's lower part counts only at FOOT_SURE: a 7s boxed
    short and read down to the row's foot as 9s at 0.54 (a real photo of the training split) is
    left as it was read; a reading there just over the bar (0.91) is taken."""
    probs = [[0.1, 0.1, 0.5, 0.3], [0.1, 0.1, 0.5, 0.3]]  # read whole as haku at 0.5
    unsure = [0.6, 0.2, 0.1, 0.1]  # a tile more surely than that, not surely
    surely = [reading.FOOT_SURE + 0.01, 0.04, 0.0, 0.05]
    out = reading.reread_tall_faces(probs, [0, 1], [unsure, surely], LABELS, "none", footed=[0, 1])
    assert out[0] == probs[0] and out[1] == surely
    assert reading.reread_tall_faces(probs, [0], [unsure], LABELS, "none")[0] == unsure  # not footed: as before


def test_unsure_boxes_are_read_again_grown_down_and_up() -> None:
    """A box read as a tile, unsurely (a 6p boxed by its upper four pips reads as an unsure 8p):
    read again from the box grown by a third of its height downwards, then upwards. Sure boxes,
    boxes read as haku or surely as no tile are not; nor any with grow_unsure off."""
    labels = ["6p", "8p", "5z", "none"]
    boxes = [(0, 0, 30, 30, 0.9), (40, 0, 70, 30, 0.9), (80, 0, 110, 30, 0.9), (120, 0, 150, 30, 0.9)]
    probs = [[0.3, 0.6, 0.05, 0.05],  # 8p at 0.63 given a tile: again
             [0.05, 0.9, 0.0, 0.05],  # sure: no
             [0.2, 0.2, 0.5, 0.1],  # read as haku: no (blank faces are tall_faces' business)
             [0.1, 0.2, 0.0, 0.7]]  # surely no tile: no
    grow = reading.Settings(grow_unsure=0.35, scale_unsure=None)
    idx, crops = reading.grown_faces(boxes, probs, labels, "none", grow)
    assert idx == [0, 0]
    assert crops == [pytest.approx((0, 0, 30, 30 + 0.35 * 30)), pytest.approx((0, -0.35 * 30, 30, 30))]
    assert reading.grown_faces(boxes, probs, labels, "none", reading.Settings(grow_unsure=None)) == ([], [])
    # a hand photographed turned a quarter (tops pointing right): grown across its column, in x
    _, turned = reading.grown_faces(boxes, probs, labels, "none", grow, up=1)
    assert turned == [pytest.approx((-0.35 * 30, 0, 30, 30)), pytest.approx((0, 0, 30 + 0.35 * 30, 30))]
    assert reading.rereads(boxes, probs, labels, "none", grow, [[0.1, 0.8, 0.05, 0.05]] * 4).crops == turned
    # the plan: tall faces first, then the grown crops; the answers taken back in that order
    plan = reading.rereads(boxes, probs, labels, "none", grow)
    assert (plan.tall, plan.grown, plan.scaled, len(plan.crops)) == ([], [0, 0], [], 2)
    # a heap of twenty unsure boxes: a hand's worth are grown, the least sure, in the boxes' order
    many = [(k * 40, 0, k * 40 + 30, 30, 0.9) for k in range(20)]
    unsure = [[0.2, 0.5 - k / 100, 0.0, 0.05] for k in range(20)]  # 8p, less surely as k grows (0.71 to 0.61)
    idx, _ = reading.grown_faces(many, unsure, labels, "none", grow)
    assert idx == [i for i in range(20 - reading.GROWN_MOST, 20) for _ in (0, 1)]


def test_unsure_boxes_are_read_again_shrunk_and_grown_about_their_centre() -> None:
    """A box read as a tile less surely than scale_unsure is read again from its box shrunk and
    grown about its centre, by each of SCALED_VIEWS; after the tall and grown crops in the plan.
    Not boxes read best as no tile or as a back, nor tall faces read from their lower part. At
    most SCALED_MOST boxes, the least sure, in the boxes' order."""
    labels = ["6p", "8p", "back", "none"]
    boxes = [(0, 0, 30, 40, 0.9), (40, 0, 70, 40, 0.9), (80, 0, 110, 40, 0.9), (120, 0, 150, 40, 0.9)]
    probs = [[0.3, 0.6, 0.05, 0.05],  # 8p at 0.6: again (and grown)
             [0.01, 0.98, 0.0, 0.01],  # sure: no
             [0.05, 0.05, 0.1, 0.8],  # no tile at 0.8: no (clutter, not asked what it is)
             [0.05, 0.05, 0.85, 0.05]]  # a back at 0.85: no (a back has no artwork to confuse)
    st = reading.Settings(scale_unsure=0.9, grow_unsure=0.35)
    idx, crops = reading.scaled_faces(boxes, probs, labels, "none", st)
    views = len(reading.SCALED_VIEWS)
    assert idx == [0] * views
    for k, f in enumerate(reading.SCALED_VIEWS):
        assert crops[k] == pytest.approx((15 - 15 * f, 20 - 20 * f, 15 + 15 * f, 20 + 20 * f))
    assert reading.scaled_faces(boxes, probs, labels, "none", reading.Settings(scale_unsure=None)) == ([], [])
    assert reading.scaled_faces(boxes, probs, labels, "none", st, skip=[0]) == ([], [])
    plan = reading.rereads(boxes, probs, labels, "none", st)
    assert plan.grown == [0, 0] and plan.scaled == idx and plan.crops[2:] == crops
    many = [(k * 40, 0, k * 40 + 30, 40, 0.9) for k in range(40)]
    unsure = [[0.1, 0.85 - k / 100, 0.0, 0.0] for k in range(40)]  # less surely as k grows
    idx, _ = reading.scaled_faces(many, unsure, labels, "none", st)
    assert sorted(set(idx)) == list(range(40 - reading.SCALED_MOST, 40))


def test_the_scaled_readings_are_averaged_with_what_the_others_leave() -> None:
    """Given that the box is a tile, the scaled crops' readings are averaged with the box's own
    (counted SCALED_OWN times), after a tall face or a grown box has given it another: a numeral
    in a hand never seen, 4m read as 5m at 0.6, that reads 4m at both other sizes, is 4m. How
    surely the box is no tile stays as it read: a view that takes in a neighbour or cuts the
    face is asked which tile, not whether."""
    labels = ["4m", "5m", "5z", "none"]
    probs = [[0.35, 0.6, 0.0, 0.05], [0.02, 0.96, 0.0, 0.02], [0.3, 0.6, 0.0, 0.1]]
    boxes = [(0, 0, 30, 40, 0.9), (40, 0, 70, 40, 0.9), (80, 0, 110, 40, 0.9)]
    st = reading.Settings(scale_unsure=0.9, grow_unsure=None, tall_faces=False)
    plan = reading.rereads(boxes, probs, labels, "none", st)
    assert plan.scaled == [0, 0, 2, 2]  # the sure 5m is not read again
    again = [[0.8, 0.15, 0.0, 0.05], [0.7, 0.25, 0.0, 0.05],
             [0.02, 0.08, 0.0, 0.9], [0.0, 0.1, 0.0, 0.9]]  # box 2's views: mostly a neighbour, no tile
    out = reading.reread(probs, plan, again, labels, "none")
    own = reading.SCALED_OWN
    w = own + 2
    assert out[0] == pytest.approx([(own * 0.35 + 0.8 + 0.7) / w, (own * 0.6 + 0.15 + 0.25) / w, 0.0, 0.05])
    assert max(range(4), key=lambda j: out[0][j]) == 0 and out[1] == probs[1]
    assert out[2][3] == pytest.approx(0.1) and sum(out[2]) == pytest.approx(1.0)
    assert out[2][1] > out[2][0]  # 5m still, a little surer: the views lean to it, given a tile


def test_a_grown_reading_replaces_only_when_far_surer() -> None:
    labels = ["6p", "8p", "5z", "none"]
    probs = [[0.3, 0.6, 0.05, 0.05], [0.3, 0.6, 0.05, 0.05], [0.3, 0.6, 0.05, 0.05], [0.3, 0.6, 0.05, 0.05]]
    again = [[0.95, 0.03, 0.01, 0.01], [0.5, 0.4, 0.05, 0.05],  # box 0: grown down reads 6p surely
             [0.2, 0.7, 0.05, 0.05], [0.3, 0.65, 0.0, 0.05],  # box 1: 8p a little surer: not enough
             [0.05, 0.05, 0.0, 0.9], [0.0, 0.0, 0.0, 1.0],  # box 2: grown, it is no tile: kept as read
             [0.3, 0.1, 0.0, 0.6], [0.1, 0.85, 0.0, 0.05]]  # box 3: the sure one reads no tile; 8p 0.89
    out = reading.reread_grown(probs, [0, 0, 1, 1, 2, 2, 3, 3], again, labels, "none")
    assert out[0] == again[0]
    assert out[1] == probs[1] and out[2] == probs[2]
    assert out[3] == again[7]  # 0.89 given a tile, 0.26 more than the box's 0.63
    # grown into the yellow back of the tile behind: a face is not made a back
    backs = ["6p", "8p", "back", "none"]
    assert reading.reread_grown(probs[:1], [0], [[0.02, 0.03, 0.9, 0.05]], backs, "none") == probs[:1]


def test_an_upright_haku_set_apart_and_half_read_as_no_tile_stays_a_tile() -> None:
    """Read alone, a blank upright haku is half taken for no tile (none 0.62, 5z 0.23); laid
    apart on the hand's line, of the hand's tiles' size, it is the winning tile (set_apart)."""
    labels = ["1m", "2m", "3m", "5z", "none"]
    boxes = [(100 + k * 32, 200, 130 + k * 32, 240, 0.9) for k in range(13)] + [(540, 198, 570, 241, 0.5),
                                                                              (540, 100, 570, 141, 0.5)]
    probs = [[0.96 if j == k % 3 else 0.01 for j in range(5)] for k in range(13)]
    probs += [[0.05, 0.05, 0.05, 0.23, 0.62]] * 2  # the second one is above the row: off its line
    orient = [[1.0, 0.0, 0.0, 0.0]] * 15
    kept = reading.assemble(boxes, probs, orient, labels, "none", (800, 600), reading.Settings())
    assert [t.tile for t in kept.tiles].count("5z") == 1 and len(kept.tiles) == 14
    assert max(t.box[0] for t in kept.tiles) == 540
    off = reading.assemble(boxes, probs, orient, labels, "none", (800, 600), reading.Settings(set_apart_reject=None))
    assert len(off.tiles) == 13 and "5z" not in [t.tile for t in off.tiles]
    # read as no tile surely (a blank card, the table): not a tile, set apart or not
    sure_none = probs[:13] + [[0.02, 0.02, 0.02, 0.04, 0.9]] * 2
    assert len(reading.assemble(boxes, sure_none, orient, labels, "none", (800, 600)).tiles) == 13


def test_tiles_read_unsurely_in_a_row_stay_as_unsure_tiles() -> None:
    """A hand out of focus: 11 of its 14 tiles read surely, three at 0.4 (a tile, but which one
    the classifier is unsure). They stand in the row, so they stay, their best reading shown with
    its confidence (the phone marks it for checking) and the others offered. The same reading off
    the row (a key beside the hand), or a box half read as no tile in the row, stays out."""
    labels = ["1m", "2m", "3m", "5z", "none"]
    boxes = [(100 + k * 32, 200, 130 + k * 32, 240, 0.9) for k in range(14)] + [(300, 420, 330, 460, 0.9)]
    sure = [[0.96 if j == k % 3 else 0.01 for j in range(5)] for k in range(14)]
    unsure = [0.4, 0.3, 0.2, 0.05, 0.05]  # 1m at 0.4, or 2m at 0.3: a tile surely, which one not
    probs = [unsure if k in (0, 6, 13) else sure[k] for k in range(14)] + [unsure]
    orient = [[1.0, 0.0, 0.0, 0.0]] * 15
    got = reading.assemble(boxes, probs, orient, labels, "none", (800, 600))
    assert len(got.tiles) == 14 and all(t.box[1] == 200 for t in got.tiles)
    shown = sorted((t for t in got.tiles if t.confidence < 0.5), key=lambda t: t.box[0])
    assert [t.box[0] for t in shown] == [100, 100 + 6 * 32, 100 + 13 * 32]
    assert all(t.tile == "1m" and t.alternatives[0][0] == "2m" for t in shown)
    off = reading.assemble(boxes, probs, orient, labels, "none", (800, 600), reading.Settings(row_floor=None))
    assert len(off.tiles) == 11
    # half read as no tile: not a tile of the row, whatever its place
    half_none = [[0.2, 0.15, 0.1, 0.0, 0.55] if k == 6 else p for k, p in enumerate(probs)]
    assert len(reading.assemble(boxes, half_none, orient, labels, "none", (800, 600)).tiles) == 13
    # a hand has 14 tiles: with 12 read surely in a row of 15, only the two surest unsure boxes
    # join them (a 15th tile would stop the hand proposal completing the hand)
    boxes15 = [(100 + k * 32, 200, 130 + k * 32, 240, 0.9) for k in range(15)]
    by = {0: [0.4, 0.3, 0.2, 0.05, 0.05], 7: [0.45, 0.3, 0.15, 0.05, 0.05], 14: [0.3, 0.25, 0.25, 0.1, 0.1]}
    probs15 = [by.get(k, sure[k % 14]) for k in range(15)]
    got = reading.assemble(boxes15, probs15, [[1.0, 0.0, 0.0, 0.0]] * 15, labels, "none", (800, 600))
    assert sorted(t.box[0] for t in got.tiles if t.confidence < 0.5) == [100, 100 + 7 * 32]
    assert len(got.tiles) == 14


def test_a_row_starting_with_tiles_read_at_a_fifth_shows_them() -> None:
    """A hand set in a Ming hand no training drew (training.font_rows' uming_3, seed 101) starts
    with three 2m whose 二 is two thin strokes. The detector finds them surely (0.86); the
    classifier reads them as 2m or 1m, at 0.18 to 0.3 given a tile. At a floor of 0.25 the middle
    one stayed out, the chain to the row broke, and all three were gaps for the player to fill from
    the picker. At Settings.row_floor 0.15 they are shown, marked unsure, with their other
    readings offered."""
    labels = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "5z", "none"]
    boxes = [(100 + k * 32, 200, 130 + k * 32, 240, 0.9) for k in range(14)]
    sure = [[0.96 if j == 3 + k % 6 else 0.004 for j in range(11)] for k in range(14)]
    faint = [0.16, 0.18] + [0.08] * 7 + [0.0, 0.1]  # 2m at 0.2 given a tile, 1m next
    probs = [faint if k < 3 else sure[k] for k in range(14)]
    orient = [[1.0, 0.0, 0.0, 0.0]] * 14
    got = reading.assemble(boxes, probs, orient, labels, "none", (800, 600))
    shown = sorted((t for t in got.tiles if t.confidence < 0.5), key=lambda t: t.box[0])
    assert [t.box[0] for t in shown] == [100, 132, 164] and len(got.tiles) == 14
    before = reading.assemble(boxes, probs, orient, labels, "none", (800, 600), reading.Settings(row_floor=0.25))
    assert len(before.tiles) == 11


def test_a_tile_filling_the_photo_is_no_tile_cut_by_its_edge() -> None:
    """A tile cut by the photo's edge must be read 0.9 surely (Settings.border_confidence): part
    of its face is missing. A tile photographed close, filling the frame, is boxed to the edge as
    well, and read 0.86 to 0.89 surely (a 2s, a 0p, a haku 88% of the photo's height): a box
    spanning most of the photo (Settings.fills_frame) is what the photo is of, read as any other."""
    labels = ["1m", "2m", "3m", "5z", "none"]
    unsure = [0.02, 0.87, 0.05, 0.03, 0.03]  # 2m at 0.87
    whole = (178.0, 0.0, 797.0, 756.0, 0.64)  # 82% of the height, 61% of the width, top and bottom at the edge
    got = reading.assemble([whole], [unsure], [[1.0, 0.0, 0.0, 0.0]], labels, "none", (1008, 756))
    assert [(t.tile, t.box) for t in got.tiles] == [("2m", whole[:4])]
    off = reading.assemble([whole], [unsure], [[1.0, 0.0, 0.0, 0.0]], labels, "none", (1008, 756),
                           reading.Settings(fills_frame=None))
    assert off.tiles == ()
    # a row of tiles and one cut by the right edge, read as unsurely: that one is still cut
    boxes = [(100 + k * 100, 300, 190 + k * 100, 420, 0.9) for k in range(9)] + [(1000 - 90, 300, 1008, 420, 0.6)]
    probs = [[0.95 if j == k % 3 else 0.0125 for j in range(5)] for k in range(9)] + [unsure]
    got = reading.assemble(boxes, probs, [[1.0, 0.0, 0.0, 0.0]] * 10, labels, "none", (1008, 756))
    assert len(got.tiles) == 9 and all(t.box[2] < 1000 for t in got.tiles)


def test_boxes_cut_by_the_photos_edge_do_not_make_a_close_up_clutter() -> None:
    """A close-up in dim light: six tiles in a block, three read at 0.96, three at 0.6 (right,
    but unsurely), and above them two boxes cut by the photo's top edge, read as no tile (a laptop,
    the edge of a tray). Counted as company, the two drag the group's median under 0.75 and the
    whole close-up is judged clutter, keeping nothing (no tile is read at the 0.97 that clutter
    needs); not counted (Settings.judge_cut_boxes off, the default), the six stay. (With
    Settings.piles_of_tiles on, the default, the block stays either way: six of its eight boxes
    are surely tiles, so it is a pile read unsurely, not clutter; off here to show the rule.)"""
    labels = ["1m", "2m", "3m", "5z", "none"]
    block = [(200 + c * 122, 150 + r * 162, 320 + c * 122, 310 + r * 162, 0.8) for r in range(2) for c in range(3)]
    cut = [(200, 0, 320, 148, 0.4), (322, 0, 442, 148, 0.4)]
    sure, unsure, none = [0.95, 0.02, 0.01, 0.01, 0.01], [0.6, 0.3, 0.05, 0.03, 0.02], [0.1, 0.1, 0.05, 0.05, 0.7]
    probs = [sure, unsure, sure, unsure, sure, unsure, none, none]
    orient = [[1.0, 0.0, 0.0, 0.0]] * 8
    no_piles = reading.Settings(piles_of_tiles=False)
    got = reading.assemble(block + cut, probs, orient, labels, "none", (800, 600), no_piles)
    assert sorted(t.box for t in got.tiles) == sorted(b[:4] for b in block)
    judged = reading.assemble(block + cut, probs, orient, labels, "none", (800, 600),
                              reading.Settings(judge_cut_boxes=True, piles_of_tiles=False))
    assert judged.tiles == ()
    # the same two boxes inside the photo are things seen whole, read as nothing: company
    inside = [(200, 8, 320, 148, 0.4), (322, 8, 442, 148, 0.4)]
    assert reading.assemble(block + inside, probs, orient, labels, "none", (800, 600), no_piles).tiles == ()
    for boxes, st in ((block + cut, reading.Settings(judge_cut_boxes=True)), (block + inside, reading.Settings())):
        kept = reading.assemble(boxes, probs, orient, labels, "none", (800, 600), st)
        assert sorted(t.box for t in kept.tiles) == sorted(b[:4] for b in block)


def test_faint_boxes_are_the_faint_peaks_where_a_tile_set_apart_stands() -> None:
    """Detector peaks under its threshold are boxes beyond the end of a row, on its line, or
    (Settings.faint_sure) among the tiles; and (Settings.faint_elsewhere) elsewhere, last, their
    score set to 0."""
    gh, gw = GH, GW
    out = detector_map([(20, 4 + 3 * k, 0.9) for k in range(13)] + [
        (20, 4 + 3 * 13 + 1, 0.3),  # just beyond the row's end, on its line: the haku
        (5, 60, 0.3),  # faint, elsewhere
        (20, 75, 0.1),  # on the line but too faint
        (25, 10, 0.25),  # just below the row: among the tiles
    ])
    st = reading.Settings()
    boxes = reading.detect_boxes(out, gh, gw, 1.0, 320, 160, st)
    assert len(boxes) == 13
    every = reading.faint_boxes(out, gh, gw, 1.0, 320, 160, boxes, st)
    assert [b[4] for b in every] == pytest.approx([0.3, 0.25, 0.0])  # by place: set apart, among; elsewhere last
    assert [reading.elsewhere(b) for b in every] == [False, False, True]
    assert ((every[2][0] + every[2][2]) / 2, (every[2][1] + every[2][3]) / 2) == pytest.approx((60.5 * 4, 5.5 * 4))
    among = reading.faint_boxes(out, gh, gw, 1.0, 320, 160, boxes, reading.Settings(faint_elsewhere=None))
    assert sorted(b[4] for b in among) == pytest.approx([0.25, 0.3])
    faint = reading.faint_boxes(out, gh, gw, 1.0, 320, 160, boxes, reading.Settings(faint_sure=None))
    assert len(faint) == 1 and faint[0][4] == pytest.approx(0.3)
    assert (faint[0][0] + faint[0][2]) / 2 == pytest.approx((4 + 3 * 13 + 1.5) * 4)
    assert reading.faint_boxes(out, gh, gw, 1.0, 320, 160, boxes, reading.Settings(faint_threshold=None)) == []
    assert reading.faint_boxes(out, gh, gw, 1.0, 320, 160, [], st) == []


def _keyboard(read_as_none: int):
    """A grid of 4 x 10 touching key-sized boxes; the first `read_as_none` read as no tile, the
    others as tiles at 0.8, 0.9 and (every fifth) 0.99."""
    labels = ["1m", "2m", "3m", "5z", "none"]
    boxes = [(50 + c * 42, 100 + r * 42, 90 + c * 42, 140 + r * 42, 0.8) for r in range(4) for c in range(10)]
    probs = []
    for k in range(len(boxes)):
        if k < read_as_none:
            probs.append([0.02, 0.02, 0.02, 0.02, 0.92])
        else:
            p = 0.99 if k % 5 == 0 else (0.8 if k % 2 else 0.9)
            probs.append([p if j == k % 3 else (1 - p) / 4 for j in range(5)])
    return boxes, probs, [[1.0, 0.0, 0.0, 0.0]] * len(boxes), labels


def test_keys_read_as_no_tile_keep_the_others_from_passing_for_a_sure_group() -> None:
    """A keyboard: half its keys read as no tile, the others as tiles at 0.8-0.9 (some at 0.99).
    Judged without the rejected keys, the rest look like a sure group and stay; judged with them
    (as sure of nothing), the group is unsure and only what is read at 0.97 or more stays."""
    boxes, probs, orient, labels = _keyboard(24)
    with_company = reading.assemble(boxes, probs, orient, labels, "none", (800, 600), reading.Settings())
    without = reading.assemble(boxes, probs, orient, labels, "none", (800, 600),
                               reading.Settings(judge_with_rejected=False))
    assert len(without.tiles) == 16
    assert len(with_company.tiles) == sum(1 for k in range(24, 40) if k % 5 == 0)


def test_parts_of_tiles_read_as_no_tile_do_not_unsettle_a_sure_hand() -> None:
    """A hand of 14 read surely, each tile with a fragment box inside it read as no tile (a
    blank upper face): the fragments are the tiles' own, not company, and the hand stays."""
    labels = ["1m", "2m", "3m", "5z", "none"]
    tiles = [(100 + k * 32, 200, 130 + k * 32, 240, 0.9) for k in range(14)]
    parts = [(102 + k * 32, 201, 128 + k * 32, 218, 0.6) for k in range(14)]
    probs = [[0.9 if j == k % 3 else 0.025 for j in range(5)] for k in range(14)]
    probs += [[0.02, 0.02, 0.02, 0.04, 0.9]] * 14
    orient = [[1.0, 0.0, 0.0, 0.0]] * 28
    out = reading.assemble(tiles + parts, probs, orient, labels, "none", (800, 600), reading.Settings())
    assert len(out.tiles) == 14


def test_a_faint_box_among_the_tiles_read_surely_as_a_face_is_a_tile() -> None:
    """A pile of five tiles found by the detector and, beside them, a faint peak (a blank haku
    face up: the detector sees little) that the classifier reads as 5z at 0.95. It is a tile;
    read as a back, or only at 0.7, or lying far from the tiles, or with Settings.faint_sure off,
    it is not."""
    labels = ["1m", "2m", "3m", "5z", "back", "none"]
    pile = [(100, 100, 140, 154, 0.8), (145, 100, 185, 154, 0.8), (100, 160, 140, 214, 0.8),
            (190, 160, 230, 214, 0.8), (145, 220, 185, 274, 0.8)]
    probs = [[0.97 if j == k % 3 else 0.006 for j in range(6)] for k in range(5)]
    orient = [[1.0, 0.0, 0.0, 0.0]] * 6

    def read(faint_box, faint_probs, settings=reading.DEFAULT_SETTINGS):
        out = reading.assemble(pile + [faint_box], probs + [faint_probs], orient, labels, "none", (800, 600),
                               settings, faint=1)
        return sorted(t.tile for t in out.tiles)

    haku = [0.01, 0.01, 0.01, 0.95, 0.01, 0.01]
    beside = (145, 160, 185, 214, 0.25)
    assert read(beside, haku) == ["1m", "1m", "2m", "2m", "3m", "5z"]
    assert read(beside, [0.01, 0.01, 0.01, 0.01, 0.95, 0.01]) == ["1m", "1m", "2m", "2m", "3m"]
    assert read(beside, [0.01, 0.01, 0.01, 0.7, 0.01, 0.27]) == ["1m", "1m", "2m", "2m", "3m"]
    assert read((600, 450, 640, 504, 0.25), haku) == ["1m", "1m", "2m", "2m", "3m"]
    assert read(beside, haku, reading.Settings(faint_sure=None)) == ["1m", "1m", "2m", "2m", "3m"]


def test_faint_peaks_elsewhere_are_the_strongest_few_of_a_tiles_size_and_shape() -> None:
    """Far from a row of tiles, faint peaks of the tiles' size (FAINT_SIZES) and shape
    (FAINT_SHAPES) are read, the strongest Settings.faint_elsewhere of them: not one twice the
    size of a tile (a sheet), nor a strip along a table's edge, stronger as both are."""
    gh, gw = GH, GW
    elsewhere = [(5, 10, 0.30), (5, 20, 0.29), (5, 30, 0.28), (37, 60, 0.27)]
    out = detector_map([(20, 4 + 3 * k, 0.9) for k in range(13)] + elsewhere
                       + [(8, 70, 0.34, 40, 50), (37, 20, 0.33, 30, 8)])
    st = reading.Settings(faint_elsewhere=3)
    boxes = reading.detect_boxes(out, gh, gw, 1.0, 320, 160, st)
    assert len(boxes) == 13
    away = [b for b in reading.faint_boxes(out, gh, gw, 1.0, 320, 160, boxes, st) if reading.elsewhere(b)]
    centres = sorted(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in away)
    want = [((c + 0.5) * 4, (r + 0.5) * 4) for r, c, _ in elsewhere[:3]]
    assert [v for c in centres for v in c] == pytest.approx([v for c in want for v in c])
    more = reading.faint_boxes(out, gh, gw, 1.0, 320, 160, boxes, reading.Settings(faint_elsewhere=8))
    assert sum(reading.elsewhere(b) for b in more) == 4
    assert not any(reading.elsewhere(b) for b in
                   reading.faint_boxes(out, gh, gw, 1.0, 320, 160, boxes, reading.Settings(faint_elsewhere=None)))


def test_a_faint_peak_elsewhere_is_a_tile_only_when_read_surely_as_a_face_of_the_tiles_size() -> None:
    """A row of six tiles and a faint peak elsewhere (reading.elsewhere: score 0), read as 5z.
    Far off, at 0.95, it is a tile (a haku standing apart); at 0.85 it is not, nor is it taken
    where a tile set apart from the row would be (a faint peak there is, at 0.85); read as a back,
    or boxed at a third of a tile's size, it is not; and read as no tile it is no company: two
    tiles beside three such peaks stay, where three boxes found and read as no tile make them
    one more of those things (scales.lookalikes)."""
    labels = ["1m", "2m", "3m", "5z", "back", "none"]
    row = [(100 + k * 42, 200, 140 + k * 42, 254, 0.8) for k in range(6)]
    probs = [[0.97 if j == k % 3 else 0.006 for j in range(6)] for k in range(6)]

    def read(tiles, tile_probs, extra, extra_probs, faint):
        n = len(tiles) + len(extra)
        out = reading.assemble(tiles + extra, tile_probs + extra_probs, [[1.0, 0.0, 0.0, 0.0]] * n, labels, "none",
                               (800, 600), reading.Settings(), faint=faint)
        return sorted(t.tile for t in out.tiles)

    def haku(p):
        return [[0.01, 0.01, 0.01, p, 0.01, 0.97 - p]]

    six = ["1m", "1m", "2m", "2m", "3m", "3m"]
    far, past_end = (600, 450, 640, 504, 0.0), (100 + 6 * 42 + 8, 200, 140 + 6 * 42 + 8, 254)
    assert read(row, probs, [far], haku(0.95), 1) == six + ["5z"]
    assert read(row, probs, [far], haku(0.85), 1) == six
    assert read(row, probs, [(*past_end, 0.25)], haku(0.85), 1) == six + ["5z"]
    assert read(row, probs, [(*past_end, 0.0)], haku(0.85), 1) == six
    assert read(row, probs, [far], [[0.01, 0.01, 0.01, 0.01, 0.95, 0.01]], 1) == six
    assert read(row, probs, [(600, 450, 613, 468, 0.0)], haku(0.95), 1) == six
    # two tiles read at 0.9, and three things of their size elsewhere read as no tile
    two, two_probs = row[:2], [[0.9 if j == k else 0.02 for j in range(6)] for k in range(2)]
    things = [(400 + k * 80, 450, 440 + k * 80, 504) for k in range(3)]
    nothing = [[0.02, 0.02, 0.02, 0.02, 0.02, 0.9]] * 3
    assert read(two, two_probs, [(*b, 0.0) for b in things], nothing, 3) == ["1m", "2m"]
    assert read(two, two_probs, [(*b, 0.6) for b in things], nothing, 0) == []


def test_faint_boxes_among_the_tiles_are_the_strongest_few() -> None:
    """Each faint box is one more crop to classify on every camera frame: of many faint peaks
    among the tiles, only the strongest reading.FAINT_AMONG are read."""
    gh, gw = GH, GW
    out = detector_map([(20, 4 + 3 * k, 0.9) for k in range(13)]
                       + [(25, 4 + 3 * k, 0.21 + 0.01 * k) for k in range(12)])  # a second row below, all faint
    st = reading.Settings(set_apart_reject=None)
    boxes = reading.detect_boxes(out, gh, gw, 1.0, 320, 160, st)
    faint = reading.faint_boxes(out, gh, gw, 1.0, 320, 160, boxes, st)
    assert reading.FAINT_AMONG < 12
    assert sorted(round(b[4], 2) for b in faint) == [round(0.21 + 0.01 * k, 2) for k in range(12 - reading.FAINT_AMONG, 12)]


def test_an_upright_tile_boxed_whole_and_by_its_lower_part_is_one_tile() -> None:
    """A standing hand seen from a low angle: the second tile is boxed twice, once whole (the blank
    top of its face and its ink) and once by its lower part, and both boxes read 2m (the ink lies
    in both). The boxes overlap by 0.43 (IoU), the lower lies 0.67 over the whole: under the usual
    duplicate bounds, so it was counted twice. Read as the same tile, it is one; read as two
    different tiles (a tile standing before another, in a pile), both stay, and with
    Settings.same_tile_overlap off, so does the double."""
    labels = ["1m", "2m", "3m", "5z", "none"]
    tiles = [(100 + k * 62, 240, 155 + k * 62, 382, 0.8) for k in range(5)]
    lower = (160, 305, 220, 411, 0.79)  # over the second tile (x 162-217), shifted as a detector's box is
    probs = [[0.9 if j == k % 3 else 0.025 for j in range(5)] for k in range(5)]
    orient = [[1.0, 0.0, 0.0, 0.0]] * 6

    def read(lower_probs, settings=reading.DEFAULT_SETTINGS):
        out = reading.assemble(tiles + [lower], probs + [lower_probs], orient, labels, "none", (800, 600), settings)
        return sorted(t.tile for t in out.tiles)

    same = [0.02, 0.88, 0.05, 0.03, 0.02]  # read as the second tile is, 2m
    assert scales.iou(tiles[1], lower) < 0.45 < scales.inside_share(lower, tiles[1]) < 0.8
    assert read(same) == ["1m", "1m", "2m", "2m", "3m"]
    assert read([0.02, 0.05, 0.88, 0.03, 0.02]) == ["1m", "1m", "2m", "2m", "3m", "3m"]
    assert read(same, reading.Settings(same_tile_overlap=None)) == ["1m", "1m", "2m", "2m", "2m", "3m"]


def test_a_back_on_its_own_is_no_tile_a_back_beside_tiles_is() -> None:
    """A row of five tiles and a box read surely as a back: beside the row's end (a closed kan's
    back) it is a face-down tile; far above the row (a dark appliance across the kitchen, dev
    IMG_3108) it is not, unless Settings.lone_back is off."""
    labels = ["1m", "2m", "3m", "5z", "back", "none"]
    tiles = row(5, w=40, h=54)
    probs = [[0.97 if j == k % 3 else 0.006 for j in range(6)] for k in range(5)]
    back = [0.006, 0.006, 0.006, 0.006, 0.97, 0.006]
    orient = [[1.0, 0.0, 0.0, 0.0]] * 6

    def read(box, settings=reading.DEFAULT_SETTINGS):
        out = reading.assemble(tiles + [box], probs + [back], orient, labels, "none", (800, 600), settings)
        return sorted(t.tile for t in out.tiles)

    beside = (tiles[-1][2] + 2, 200, tiles[-1][2] + 42, 254, 0.9)
    far = (600, 20, 640, 74, 0.9)
    assert read(beside) == ["1m", "1m", "2m", "2m", "3m", "back"]
    assert read(far) == ["1m", "1m", "2m", "2m", "3m"]
    assert read(far, reading.Settings(lone_back=None)) == ["1m", "1m", "2m", "2m", "3m", "back"]


def test_backs_with_no_face_kept_are_no_tiles() -> None:
    """A column of four boxes read surely as backs, each beside the next (so none is alone): with no
    face read they are no tiles (a playing card's column of pips, training.closeups --things;
    face-down tiles score nothing without the faces of their hand); beside a row of faces they are
    a closed kan's backs and stay; with Settings.backs_need_a_face off, alone they stay too."""
    labels = ["1m", "2m", "3m", "5z", "back", "none"]
    backs = [(300, 100 + k * 58, 340, 154 + k * 58, 0.9) for k in range(4)]
    back = [0.006, 0.006, 0.006, 0.006, 0.97, 0.006]
    faces = row(5, w=40, h=54)
    face_probs = [[0.97 if j == k % 3 else 0.006 for j in range(6)] for k in range(5)]

    def read(boxes, probs, settings):
        out = reading.assemble(boxes, probs, [[1.0, 0.0, 0.0, 0.0]] * len(boxes), labels, "none", (800, 600), settings)
        return sorted(t.tile for t in out.tiles)

    on, off = reading.Settings(backs_need_a_face=True), reading.Settings(backs_need_a_face=False)
    assert read(backs, [back] * 4, off) == ["back"] * 4
    assert read(backs, [back] * 4, on) == []
    beside = [(faces[-1][2] + 2 + k * 42, 200, faces[-1][2] + 42 + k * 42, 254, 0.9) for k in range(2)]
    assert read(faces + beside, face_probs + [back] * 2, on) == ["1m", "1m", "2m", "2m", "3m", "back", "back"]
    assert reading.DEFAULT_SETTINGS.backs_need_a_face


def test_a_tile_read_unsurely_far_across_the_photo_is_clutter() -> None:
    """A row of five tiles and, far across the photo (sixteen tile sizes), a box read as 1s: read
    at 0.8 it is clutter (dev IMG_3108's stove, read so by one classifier tried); read at 0.97 it
    stays (a tile set far off, read surely); near the row it stays however unsurely; and with
    Settings.far_apart off it stays."""
    labels = ["1m", "2m", "3m", "1s", "back", "none"]
    tiles = row(5, w=40, h=54)
    probs = [[0.97 if j == k % 3 else 0.006 for j in range(6)] for k in range(5)]
    orient = [[1.0, 0.0, 0.0, 0.0]] * 6

    def read(box, sure, settings=reading.DEFAULT_SETTINGS):
        p = [(1 - sure) / 5] * 6
        p[3] = sure
        out = reading.assemble(tiles + [box], probs + [p], orient, labels, "none", (1400, 900), settings)
        return sorted(t.tile for t in out.tiles)

    far = (900, 700, 940, 754, 0.9)
    near = (tiles[-1][2] + 30, 200, tiles[-1][2] + 70, 254, 0.9)
    row_only = ["1m", "1m", "2m", "2m", "3m"]
    assert read(far, 0.8) == row_only
    assert read(far, 0.97) == sorted(row_only + ["1s"])
    assert read(near, 0.8) == sorted(row_only + ["1s"])
    assert read(far, 0.8, reading.Settings(far_apart=None)) == sorted(row_only + ["1s"])


def test_a_pair_read_unsurely_far_across_the_photo_is_clutter() -> None:
    """Five tiles standing a tile apart (a scattered scene: no group of touching tiles read surely
    that would make every unsure pair away from it clutter), and far across the photo two boxes
    lying together read as 1s at 0.5 (dev IMG_3108's cupboard handles, so read since crops of
    large tiles are averaged by whole blocks): as a pair (Settings.far_few 2) they are clutter;
    counted one box at a time (far_few 1), each has the other near it, and both stay. Read
    surely, they stay."""
    labels = ["1m", "2m", "3m", "1s", "back", "none"]
    tiles = [(100 + 90 * k, 200, 140 + 90 * k, 254, 0.9) for k in range(5)]
    probs = [[0.97 if j == k % 3 else 0.006 for j in range(6)] for k in range(5)]
    orient = [[1.0, 0.0, 0.0, 0.0]] * 7
    pair = [(900, 700, 940, 754, 0.9), (944, 700, 984, 754, 0.9)]

    def read(sure, settings=reading.DEFAULT_SETTINGS):
        p = [(1 - sure) / 5] * 6
        p[3] = sure
        out = reading.assemble(tiles + pair, probs + [p, p], orient, labels, "none", (1400, 900), settings)
        return sorted(t.tile for t in out.tiles)

    row_only = ["1m", "1m", "2m", "2m", "3m"]
    assert read(0.5) == row_only
    assert read(0.5, reading.Settings(far_few=1)) == sorted(row_only + ["1s", "1s"])
    assert read(0.97) == sorted(row_only + ["1s", "1s"])


def test_tiles_read_unsurely_are_flagged_for_checking() -> None:
    """One threshold, here, says which tiles the player should check (Detection.unsure,
    hand.UNSURE; the pages only show the flag: photo.js, camera.js): a tile read at 0.78 is
    flagged, tiles read at 0.96 and one at 0.85 are not, and a tile the hand proposal changed is."""
    labels = ["1m", "2m", "3m", "5z", "none"]
    hand = ["1m", "2m", "3m"] * 4 + ["5z", "5z"]  # complete as read: the proposal changes nothing
    boxes = [(100 + k * 32, 200, 130 + k * 32, 240, 0.9) for k in range(14)]

    def read(code: str, p: float) -> list[float]:  # `code` at p, the rest shared by the other tiles ("none" 0)
        return [p if c == code else 0.0 if c == "none" else (1 - p) / 3 for c in labels]

    probs = [read(c, 0.96) for c in hand]
    probs[0], probs[4] = read("1m", 0.78), read("2m", 0.85)
    orient = [[1.0, 0.0, 0.0, 0.0]] * 14
    got = reading.assemble(boxes, probs, orient, labels, "none", (800, 600))
    assert got.proposal is not None and got.proposal.complete and not got.proposal.changed
    assert [t.box[0] for t in got.tiles if t.unsure] == [100]  # the 1m at 0.78
    assert all(t.to_json()["unsure"] == t.unsure for t in got.tiles)
    # the sixth tile read 2m at 0.6 (3m 0.3) leaves 1m2m3m 1m2m2m: read as 3m, the hand is
    # complete, and that tile is flagged as changed
    probs[5] = [0.05, 0.6, 0.3, 0.05, 0.0]
    got = reading.assemble(boxes, probs, orient, labels, "none", (800, 600))
    assert got.proposal is not None and got.proposal.complete
    changed = [got.tiles[i] for i in got.proposal.changed]
    assert [t.tile for t in changed] == ["3m"] and all(t.unsure for t in changed)


def _read_as(codes: list[str], sure: float = 0.95) -> list[list[float]]:
    """Probabilities over LABELS: each box read as its code this surely, the rest spread evenly."""
    rest = (1 - sure) / (len(LABELS) - 1)
    return [[sure if label == code else rest for label in LABELS] for code in codes]


def test_retile_plans_the_passes_again_by_the_tiles_when_other_things_set_the_size() -> None:
    # a row of seven small tiles (38 x 48 px in a 1008 px frame: 22 detector px at 512, boxed
    # coarsely) and, across the photo, ten larger things the first pass boxed (a kitchen's
    # cupboards and kettle), read as no tile: the first plan went by those (58 detector px, a size
    # the detector reads well) and ran no other pass
    tiles = row(7, x0=300, y0=500, w=38, h=48)
    clutter = [(20 + k * 98, 20, 20 + k * 98 + 96, 150, 0.9) for k in range(10)]
    boxes = clutter + tiles
    scale = 512 / 1008
    probs = _read_as(["none"] * 10 + ["1m", "2m", "1m", "2m", "1m", "2m", "1m"])
    assert reading.rescan_sides(boxes, scale, 1008, 700, ON) == []
    again = reading.retile(boxes, probs, LABELS, "none", scale, 1008, 700, ON, available=2016)
    assert again is not None
    # planned as for the tiles alone; their boxes counted around the row, not up by the cupboards
    assert list(again.sides) == reading.rescan_sides(tiles, scale, 1008, 700, ON, available=2016) == [802]
    x1, y1, x2, y2 = again.region
    assert x1 < 300 and y1 < 500 and x2 > tiles[-1][2] and y2 > 548
    assert y1 > 150  # the clutter's boxes lie outside
    # its pass sees the part of the frame round the region (pass_windows), here most of its width
    (window,) = again.windows
    assert window is not None and window.window[1] > 150 and window.long_side == round(
        max(window.window[2] - window.window[0], window.window[3] - window.window[1]) * 802 / 1008)
    assert again.to_json() == {"sides": [802], "region": list(again.region), "windows": [window.to_json()], "largest": None}
    # the things read as tiles: the sizes agree, and nothing is asked
    assert reading.retile(boxes, _read_as(["1m"] * 17), LABELS, "none", scale, 1008, 700, ON) is None
    # the tiles alone: nothing is asked either (their own plan already ran)
    assert reading.retile(tiles, probs[10:], LABELS, "none", scale, 1008, 700, ON) is None
    # things smaller than the tiles (a granite counter's flecks) set the size: nothing is asked
    specks = [(20 + k * 30, 20, 32 + k * 30, 32, 0.9) for k in range(20)]
    assert reading.retile(specks + tiles, _read_as(["none"] * 20) + probs[10:], LABELS, "none", scale, 1008, 700,
                          ON) is None
    # no tile read: nothing to plan by, so the whole frame once more as finely as the photo allows
    # (Settings.nothing_read), its boxes counting up to 16 px at the first pass's scale
    nothing = reading.retile(boxes, _read_as(["none"] * 17), LABELS, "none", scale, 1008, 700, ON, available=3024)
    assert nothing == reading.Retile((1536,), (0.0, 0.0, 1008.0, 700.0), (None,), 16 / scale)
    assert reading.retile(boxes, _read_as(["none"] * 17), LABELS, "none", scale, 1008, 700, ON).sides == (1008,)
    assert reading.retile(boxes, _read_as(["none"] * 17), LABELS, "none", scale, 1008, 700,
                          dataclasses.replace(ON, nothing_read=None)) is None
    # no finer copy than the first pass's (a 600 px frame read at 512): nothing to ask
    assert reading.retile(boxes, _read_as(["none"] * 17), LABELS, "none", 512 / 600, 600, 420, ON) is None
    # faint boxes are left out of both sizes; off, or without multi_scale: never
    assert reading.retile(boxes + clutter, probs + _read_as(["none"] * 10), LABELS, "none", scale, 1008, 700, ON,
                          available=2016, faint=10) == again
    assert reading.retile(boxes, probs, LABELS, "none", scale, 1008, 700,
                          reading.Settings(multi_scale=True, retile=None)) is None
    assert reading.retile(boxes, probs, LABELS, "none", scale, 1008, 700, OFF) is None


def test_merge_detections_counts_the_later_passes_only_within_a_region() -> None:
    first = row(3)
    later = [(100, 200, 130, 240, 0.9), (500, 20, 530, 60, 0.95)]  # the first again, and one far up
    region = (50, 150, 300, 300)
    merged = reading.merge_detections([(first, 1.0), (later, 1.0)], OFF, region)
    assert sorted(merged) == sorted(first)
    # without a region, the far box counts
    assert (500, 20, 530, 60, 0.95) in reading.merge_detections([(first, 1.0), (later, 1.0)], OFF)
    # the first pass's boxes count wherever they lie
    far_first = [(500, 20, 530, 60, 0.95)] + first
    assert (500, 20, 530, 60, 0.95) in reading.merge_detections([(far_first, 1.0), (later, 1.0)], OFF, region)


def test_merge_detections_counts_only_boxes_up_to_the_largest_a_retile_allows() -> None:
    # nothing read: the finest pass's boxes count only up to Retile.largest (tiles the first pass
    # could not box); the first pass's boxes stay whatever their size
    first = [(10, 10, 110, 110, 0.9)]
    small, large = (300, 300, 315, 320, 0.8), (500, 300, 560, 380, 0.85)
    whole = (0.0, 0.0, 1008.0, 756.0)
    merged = reading.merge_detections([(first, 0.5), ([small, large], 2.0)], OFF, whole, largest=32.0)
    assert small in merged and large not in merged and first[0] in merged
    assert large in reading.merge_detections([(first, 0.5), ([small, large], 2.0)], OFF, whole)


def test_what_a_pass_asked_because_nothing_was_read_finds_is_believed_only_with_three_sure_tiles() -> None:
    kept = [0, 1, 2, 3]
    three_sure = _read_as(["1m", "2m", "5z"]) + _read_as(["1m"], sure=0.6)
    two_sure = _read_as(["1m", "2m"]) + _read_as(["1m", "5z"], sure=0.6)
    assert reading.believed(kept, three_sure, LABELS, "none", ON, nothing_read=True) == kept
    assert reading.believed(kept, two_sure, LABELS, "none", ON, nothing_read=True) == []
    # a retile planned by the tiles read: what it finds is kept as it is
    assert reading.believed(kept, two_sure, LABELS, "none", ON) == kept
    # sure of a tile given that it is one: "no tile" taken out, as far_apart judges (0.85 of 0.9 left)
    as_tile = [[0.85, 0.0, 0.05, 0.1]] * 3
    assert reading.believed([0, 1, 2], as_tile, LABELS, "none", ON, nothing_read=True) == [0, 1, 2]
    assert reading.believed([0, 1], as_tile, LABELS, "none", dataclasses.replace(ON, nothing_read_least=2), True) == [0, 1]


def test_a_finer_pass_sees_the_part_of_the_frame_round_the_first_boxes() -> None:
    # a hand row of 14 tiles 30 x 40 in the middle of a 1008 x 756 frame, found at scale 0.5
    tiles = row(14, x0=300, y0=350)
    size = scales.tile_size(tiles)
    assert size is not None
    windows = reading.pass_windows(tiles, 0.5, 1008, 756, [400, 800, 1400], ON)
    coarser, finer, past_the_frame = windows
    assert coarser is None and past_the_frame is None  # not finer than the first pass; needs a finer copy
    assert finer is not None
    x1, y1, x2, y2 = finer.window
    reach = ON.pass_window * size
    assert x1 == math.floor(300 - reach) and y1 == math.floor(350 - reach)
    assert x2 == math.ceil(tiles[-1][2] + reach) and y2 == math.ceil(390 + reach)
    # the window's long side at the pass's scale: 800 detector px over the frame's 1008
    assert finer.long_side == round((x2 - x1) * 800 / 1008)
    # over most of the frame, or a few boxes probed (a far row's blobs), or off: the whole frame
    spread = row(14, x0=10, y0=350, w=60, h=80, score=0.9)[::2] + [(900, 20, 960, 100, 0.9), (20, 650, 80, 730, 0.9)]
    assert reading.pass_windows(spread, 0.5, 1008, 756, [800], ON) == [None]
    far_blobs = row(2, x0=300, y0=350, w=48, h=60)  # 27 detector px at 0.5: probed (scales.probing)
    assert scales.probing(2, 0.5 * scales.tile_size(far_blobs))  # type: ignore[operator]
    assert reading.pass_windows(far_blobs, 0.5, 1008, 756, [800], ON) == [None]
    assert reading.pass_windows(tiles, 0.5, 1008, 756, [800], reading.Settings(pass_window=None)) == [None]


def test_a_windowed_pass_keeps_its_boxes_whole_in_the_frames_pixels() -> None:
    window = (200, 100, 600, 400)  # 400 x 300, inside a 1008 x 756 frame
    inside = (50, 60, 80, 100, 0.9)
    cut_left, cut_bottom = (0, 60, 20, 100, 0.8), (100, 270, 130, 300, 0.8)
    got = reading.window_boxes([inside, cut_left, cut_bottom], window, 1008, 756)
    assert got == [(250, 160, 280, 200, 0.9)]  # moved into the frame; the tiles the window cuts dropped
    # where the window's edge is the frame's, a tile there is the frame's own edge tile: kept
    at_edge = reading.window_boxes([cut_left], (0, 100, 400, 400), 1008, 756)
    assert at_edge == [(0, 160, 20, 200, 0.8)]


UP, RIGHT = [0.9, 0.04, 0.03, 0.03], [0.04, 0.9, 0.03, 0.03]  # orientation readings: top up, top to the right


def test_a_box_wider_than_a_face_across_its_top_is_read_again_by_its_halves() -> None:
    """split_faces: a box read as a tile, 1.1 to 1.6 times as wide as high across the way its top
    points, is read again as its two halves, after every other reread in the plan. A face is 0.75
    as wide as high; a tile turned sideways in a row is wide in the photo but read turned, so not
    wide across its own top. Not a box read as no tile or a back, nor a faint peak, nor wider
    than two faces."""
    labels = ["6s", "8p", "back", "none"]
    boxes = [(0, 0, 60, 40, 0.9),  # 1.5 wide, top up: two faces side by side
             (100, 0, 130, 40, 0.9),  # one face
             (200, 0, 240, 30, 0.9),  # wide in the photo, its top to the right: a tile turned sideways
             (300, 0, 360, 40, 0.9),  # as wide as box 0, read as no tile
             (400, 0, 460, 40, 0.9),  # read as a back
             (500, 0, 600, 40, 0.9),  # 2.5 wide: no two faces
             (700, 0, 760, 40, 0.3)]  # a faint peak
    probs = [[0.9, 0.05, 0.0, 0.05]] * 3 + [[0.2, 0.1, 0.0, 0.7], [0.05, 0.05, 0.85, 0.05]] + [[0.9, 0.05, 0.0, 0.05]] * 2
    orient = [UP, UP, RIGHT, UP, UP, UP, UP]
    st = reading.Settings(split_wide=0.8, split_unsure=None, tall_faces=False, grow_unsure=None, scale_unsure=None)
    idx, crops, stacked = reading.split_faces(boxes, probs, labels, "none", st, orient, faint=1)
    assert idx == [0, 0] and stacked == []
    assert crops == [(0, 0, 30, 40), (30, 0, 60, 40)]
    # top to the right: a box 1.5 as high as wide is two faces one above the other, cut across its height
    idx, crops, _ = reading.split_faces([(0, 0, 40, 60, 0.9)], probs[:1], labels, "none", st, [RIGHT])
    assert idx == [0, 0] and crops == [(0, 0, 40, 30), (0, 30, 40, 60)]
    assert reading.split_faces(boxes, probs, labels, "none", reading.Settings(split_wide=None, split_unsure=None),
                               orient) == ([], [], [])
    assert reading.split_faces(boxes, probs, labels, "none", st) == ([], [], [])  # no orientation read: nothing
    plan = reading.rereads(boxes, probs, labels, "none", dataclasses.replace(st, scale_unsure=0.95), orient, faint=1)
    assert plan.split == [0, 0]
    assert plan.crops[-2:] == [(0, 0, 30, 40), (30, 0, 60, 40)] and len(plan.crops) == len(plan.scaled) + 2


def test_a_wide_box_is_two_tiles_only_when_its_halves_read_two_tiles_surely() -> None:
    """read_again: a wide box whose halves read two different tiles, each at least split_wide
    surely, is two boxes, its halves, each with its half's reading and the box's orientation; the
    other boxes keep theirs, in their order. Halves read as the same tile are one face cut in two
    (a 4p's halves read 2p and 2p), and a half read unsurely is part of a face. Beside three single
    faces or more, only a box SPLIT_LARGER times the median tile's box is read so."""
    labels = ["2p", "4p", "6s", "8p", "back", "none"]
    boxes = [[0, 0, 60, 40, 0.9], [100, 0, 160, 40, 0.8], [200, 0, 260, 40, 0.7], [300, 0, 340, 30, 0.9],
             [400, 0, 430, 40, 0.9], [500, 0, 530, 40, 0.9]]  # two single faces more
    face = [0.0, 0.0, 0.0, 0.95, 0.0, 0.05]
    first = [[0.0, 0.1, 0.8, 0.05, 0.0, 0.05], [0.0, 0.9, 0.0, 0.05, 0.0, 0.05],
             [0.0, 0.0, 0.6, 0.3, 0.0, 0.1], face, face, face]
    orient = [UP, UP, UP, RIGHT, UP, UP]
    st = reading.Settings(split_wide=0.8, split_unsure=None, tall_faces=False, grow_unsure=None, scale_unsure=None)
    plan = reading.rereads(boxes, first, labels, "none", st, orient)
    assert plan.split == [0, 0, 1, 1, 2, 2]
    # beside larger single faces (48 x 64) the wide boxes are under SPLIT_LARGER times the median: not read so
    more = boxes + [[600 + 100 * k, 0, 648 + 100 * k, 64, 0.9] for k in range(3)]
    assert reading.rereads(more, first + [face] * 3, labels, "none", st, orient + [UP] * 3).split == []
    again = [[0.0, 0.0, 0.97, 0.01, 0.0, 0.02], [0.0, 0.02, 0.0, 0.9, 0.0, 0.08],  # 6s | 8p: two tiles
             [0.93, 0.02, 0.0, 0.0, 0.0, 0.05], [0.91, 0.04, 0.0, 0.0, 0.0, 0.05],  # 2p | 2p: one 4p cut in two
             [0.0, 0.0, 0.95, 0.0, 0.0, 0.05], [0.0, 0.0, 0.0, 0.6, 0.0, 0.4]]  # 6s | 8p at 0.6: part of a face
    out = reading.read_again(boxes, first, orient, plan, again, labels, "none", st)
    assert out.boxes == [[0, 0, 30, 40, 0.9], [30, 0, 60, 40, 0.9], *boxes[1:]]
    assert out.probs == [again[0], again[1], *first[1:]]
    assert out.orient == [UP, UP, UP, UP, RIGHT, UP, UP] and out.origin == [0, 0, 1, 2, 3, 4, 5]
    off = reading.read_again(boxes, first, orient, plan, again, labels, "none", dataclasses.replace(st, split_wide=None))
    assert off.boxes == boxes and off.probs == first and off.origin == [0, 1, 2, 3, 4, 5]


def test_an_unsure_box_as_long_as_two_faces_along_its_top_is_read_by_its_upper_and_lower_halves() -> None:
    """split_faces with split_unsure: a box read as no tile under even odds and as no tile at
    SPLIT_UNSURE_BELOW or more, SPLIT_STACKED to SPLIT_WIDE[0] times as wide as long along its top,
    is cut along its top (two faces lying one above the other, merged into one box). read_again
    cuts it when the halves read two different tiles at split_unsure or more, neither haku (the
    blank top of a standing face reads as haku). A sure box of that shape is one face."""
    labels = ["9m", "1z", "5z", "back", "none"]
    boxes = [[0, 0, 80, 80, 0.8],  # square, read as no tile at 0.38 and 9m at 0.24: unsure
             [100, 0, 180, 80, 0.8],  # square, read 9m at 0.9: one face
             [200, 0, 280, 80, 0.8],  # square, unsure, its halves haku and 1z
             [300, 0, 360, 80, 0.8],  # 0.75: one face's shape
             [400, 0, 480, 80, 0.8]]  # square, read as no tile at 0.6
    unsure = [0.24, 0.18, 0.1, 0.1, 0.38]
    probs = [unsure, [0.9, 0.04, 0.02, 0.0, 0.04], unsure, unsure, [0.1, 0.1, 0.1, 0.1, 0.6]]
    orient = [UP] * 5
    st = reading.Settings(split_wide=0.8, split_unsure=0.7, tall_faces=False, grow_unsure=None, scale_unsure=None)
    idx, crops, stacked = reading.split_faces(boxes, probs, labels, "none", st, orient)
    assert idx == [0, 0, 2, 2] and stacked == [0, 2]
    assert crops[:2] == [(0, 0, 80, 40), (0, 40, 80, 80)]  # upper and lower halves
    # its top to the right: the halves left and right
    assert reading.split_faces(boxes[:1], probs[:1], labels, "none", st, [RIGHT])[1] == [(0, 0, 40, 80), (40, 0, 80, 80)]
    assert reading.split_faces(boxes, probs, labels, "none", dataclasses.replace(st, split_unsure=None), orient)[0] == []
    many = [[k * 100, 0, k * 100 + 80, 80, 0.8] for k in range(12)]
    assert len(reading.split_faces(many, [unsure] * 12, labels, "none", st, [UP] * 12)[2]) == reading.SPLIT_MOST
    plan = reading.rereads(boxes, probs, labels, "none", st, orient)
    again = [[0.75, 0.1, 0.0, 0.0, 0.15], [0.02, 0.72, 0.1, 0.0, 0.16],  # 9m above 1z: two tiles
             [0.0, 0.05, 0.9, 0.0, 0.05], [0.0, 0.8, 0.1, 0.0, 0.1]]  # haku above 1z: a standing face
    out = reading.read_again(boxes, probs, orient, plan, again, labels, "none", st)
    assert out.boxes[:2] == [[0, 0, 80, 40, 0.8], [0, 40, 80, 80, 0.8]] and out.origin == [0, 0, 1, 2, 3, 4]
    assert out.probs[:2] == again[:2] and out.boxes[3] == boxes[2]
    # at 0.8 the 1z half (0.72) is not sure enough
    assert reading.read_again(boxes, probs, orient, plan, again, labels, "none",
                              dataclasses.replace(st, split_unsure=0.8)).origin == [0, 1, 2, 3, 4]
