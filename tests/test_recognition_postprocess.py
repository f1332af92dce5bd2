"""Decoding, duplicates, rows and the hand proposal, on hand-made numbers with known answers."""
from __future__ import annotations

import numpy as np
import pytest

from recognition.detect import decode, iou_matrix, nms
from recognition.hand import TileReading, find_melds, propose
from recognition.postprocess import Detection, drop_duplicates, layout

UP, RIGHT, DOWN, LEFT = np.eye(4)


def _map(peaks: list[tuple[int, int, float, float, float]], gh: int = 32, gw: int = 24) -> np.ndarray:
    """A detector output with a peak (row, col, w px, h px, dx) per entry."""
    out = np.zeros((5, gh, gw), np.float32)
    out[0] = -8
    for r, c, w, h, dx in peaks:
        out[0, r, c] = 4
        out[0, r, c + 1] = 1  # a weaker neighbour, suppressed as not a local maximum
        out[1, r, c] = np.log(w / 4)
        out[2, r, c] = np.log(h / 4)
        out[3, r, c] = dx
        out[4, r, c] = 0.5
    return out


def test_decode_finds_peaks_with_sizes_and_offsets():
    boxes = decode(_map([(10, 5, 20, 28, 0.25), (20, 15, 40, 30, 0.5)]))
    assert len(boxes) == 2
    by_x = sorted(boxes.tolist())
    x1, y1, x2, y2, s = by_x[0]
    assert (x1 + x2) / 2 == pytest.approx((5 + 0.25) * 4)
    assert (y1 + y2) / 2 == pytest.approx((10 + 0.5) * 4)
    assert x2 - x1 == pytest.approx(20, rel=1e-4) and y2 - y1 == pytest.approx(28, rel=1e-4)
    assert s == pytest.approx(1 / (1 + np.exp(-4)), rel=1e-4)


def test_decode_on_an_empty_map_gives_nothing():
    out = np.full((5, 16, 16), -8, np.float32)
    assert decode(out).shape == (0, 5)


def test_nms_and_iou():
    b = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30]], np.float32)
    assert iou_matrix(b[:1], b[2:])[0, 0] == 0
    assert sorted(nms(b, np.array([0.9, 0.8, 0.7]), 0.5).tolist()) == [0, 2]


def test_drop_duplicates_removes_a_box_inside_a_better_one():
    b = np.array([[0, 0, 40, 50], [5, 5, 35, 45], [60, 0, 100, 50]], np.float32)
    keep = drop_duplicates(b, np.array([0.9, 0.5, 0.8]))
    assert sorted(keep.tolist()) == [0, 2]


def _row_dets(specs):
    """specs: (x, y, w, h, code) -> detections and orientation probabilities."""
    dets = [Detection((x, y, x + w, y + h), code, 0.99) for x, y, w, h, code in specs]
    return dets


def test_layout_splits_a_hand_row_from_its_called_group_and_flags_the_sideways_tile():
    specs = [(100 + 40 * i, 500, 40, 52, f"{i + 1}m") for i in range(9)]  # 1m..9m touching
    specs += [(100 + 40 * 9 + 60, 500, 40, 52, "5z"), (100 + 40 * 10 + 60, 512, 52, 40, "5z"),
              (100 + 40 * 10 + 60 + 52, 500, 40, 52, "5z")]  # a gap, then a pon, middle tile turned
    orient = [UP] * 10 + [RIGHT] + [UP]
    # shuffle the input order: the layout must not depend on it
    perm = [5, 11, 0, 3, 9, 1, 10, 7, 2, 8, 4, 6]
    dets = _row_dets([specs[i] for i in perm])
    lay = layout(dets, np.array([orient[i] for i in perm]))
    codes = [[lay.tiles[i].tile for i in row] for row in lay.rows]
    assert codes == [[f"{i}m" for i in range(1, 10)], ["5z", "5z", "5z"]]
    side = [t.sideways for t in lay.tiles]
    assert side == [False] * 10 + [True, False]
    assert lay.up == 0


def test_layout_reads_a_photo_taken_turned_a_quarter():
    # tiles' tops point left (the phone was turned): the row runs down the image, read bottom-up
    specs = [(300, 700 - 40 * i, 52, 40, f"{i + 1}p") for i in range(5)]
    dets = _row_dets(specs)
    lay = layout(dets, np.array([LEFT] * 5))
    assert lay.up == 3
    assert [lay.tiles[i].tile for i in lay.rows[0]] == ["1p", "2p", "3p", "4p", "5p"]
    assert not any(t.sideways for t in lay.tiles)


def test_orientations_tied_within_rounding_read_upright_and_a_clear_win_turns():
    from recognition.reading import UPRIGHT_MARGIN, dominant_orientation

    # scattered tiles pointing every way: upright and left tie within a few ulps of one another
    # (IMG_3108: 2.4247 and 2.4245), and the phone's float arithmetic may put either ahead
    ups = [[0.5, 0.0, 0.0, 0.5], [0.9, 0.0, 0.0, 0.1], [0.1, 0.0, 0.0, 0.9]]
    for nudge in (-1e-6, 0.0, 1e-6):
        tied = [[p[0] - nudge, p[1], p[2], p[3] + nudge] for p in ups]
        assert dominant_orientation(tied) == 0
    # a left-pointing lead beyond the margin turns the layout, as a photo taken turned a quarter
    lead = 2 * UPRIGHT_MARGIN * len(ups)
    assert dominant_orientation([[p[0] - lead, p[1], p[2], p[3] + lead] for p in ups]) == 3
    assert dominant_orientation(ups, margin=0.0) == 0  # an exact tie: the lower orientation, as before
    assert dominant_orientation([[0.4, 0.0, 0.0, 0.6]], margin=0.0) == 3


def test_layout_puts_rows_on_two_lines_top_to_bottom():
    top = [(100 + 40 * i, 100, 40, 52, "1s") for i in range(3)]
    bottom = [(100 + 40 * i, 300, 40, 52, "9s") for i in range(3)]
    lay = layout(_row_dets(bottom + top), np.array([UP] * 6))
    assert [[lay.tiles[i].tile for i in r] for r in lay.rows] == [["1s"] * 3, ["9s"] * 3]


def _reading(code, p=0.99, alts=(), side=False):
    return TileReading(((code, p),) + tuple(alts), side)


def test_propose_corrects_an_unsure_tile_to_complete_the_hand():
    # 123m 456p 789s 111z + pair 22z, but the classifier read the last 2z as 3z (2z second)
    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z"]
    readings = [_reading(c) for c in codes] + [_reading("3z", 0.55, [("2z", 0.4)])]
    p = propose(readings, [list(range(14))])
    assert p.complete
    assert p.hand == "123m456p789s11122z"
    assert p.changed == (13,)
    assert 13 in p.uncertain
    assert p.win_tile == "2z"


def test_a_row_split_by_a_gap_is_won_on_its_rightmost_tile_and_a_tile_set_apart_is_said():
    """Thirteen tiles read as two rows (a tile missed makes a gap: 234m4p, then 6p...55z): no tile
    is set apart, so the winning tile is the hand's last as the photo reads, its rightmost (5z),
    not the end of the shorter part (4p), which the longer part was put before."""
    codes = ["2m", "3m", "4m", "4p", "6p", "6s", "7s", "8s", "1z", "1z", "1z", "5z", "5z"]
    readings = [_reading(c) for c in codes]
    p = propose(readings, [[0, 1, 2, 3], list(range(4, 13))])
    assert (p.win_tile, p.set_apart) == ("5z", None) and p.to_json()["set_apart"] is None
    # the same tiles in one row, and a 9m laid apart after it: that tile is the winning one, and said
    p = propose(readings + [_reading("9m")], [list(range(13)), [13]])
    assert (p.win_tile, p.set_apart, p.to_json()["set_apart"]) == ("9m", 13, 13)


def test_a_tile_whose_other_reading_also_wins_is_flagged(monkeypatch):
    """In an unfamiliar hand 6m and 3m can look alike: 1m2m3m 4m5m6m wins read either way
    (1m2m3m 3m4m5m). The 6m read at 0.9, 3m at 0.08, is flagged for checking, though read surely
    enough on its own; at 3m 0.02 (past hand.RIVAL_COST) it is not, nor with no rival looked for."""
    from recognition import hand

    codes = ["1m", "2m", "3m", "4m", "5m", "6m", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z"]
    readings = [_reading(c) for c in codes]
    readings[5] = _reading("6m", 0.9, [("3m", 0.08)])
    p = propose(readings, [list(range(14))])
    assert p.complete and p.changed == () and p.hand == "123456m789s11122z"
    assert p.uncertain == (5,)
    readings[5] = _reading("6m", 0.9, [("3m", 0.02)])
    assert propose(readings, [list(range(14))]).uncertain == ()
    readings[5] = _reading("6m", 0.9, [("3m", 0.08)])
    monkeypatch.setattr(hand, "RIVAL_COST", None)
    assert propose(readings, [list(range(14))]).uncertain == ()


def test_propose_keeps_a_confident_reading_even_if_incomplete():
    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "3z"]
    readings = [_reading(c) for c in codes[:-1]] + [_reading("3z", 0.999, [("2z", 0.0005)])]
    p = propose(readings, [list(range(14))])
    assert not p.complete and p.changed == ()
    assert "complete" in p.message


def test_propose_enforces_four_of_a_kind_and_one_red_five():
    codes = ["5m", "5m", "5m", "5m"]
    readings = [_reading(c) for c in codes] + [_reading("5m", 0.6, [("6m", 0.3)]),
                                                _reading("0p", 0.6, [("5p", 0.35)]), _reading("0p", 0.9, [("5p", 0.09)])]
    p = propose(readings, [list(range(7))])
    assert p.readings[4] == "6m"
    assert sorted(p.readings[5:]) == ["0p", "5p"]


def test_melds_called_groups_and_concealed_kan():
    hand = ["2m", "3m", "4m", "6p", "7p", "8p", "3s"]
    rows = [list(range(7))]
    readings = [_reading(c) for c in hand]
    # pon of 7z with the middle tile sideways
    readings += [_reading("7z"), _reading("7z", side=True), _reading("7z")]
    rows.append([7, 8, 9])
    # concealed kan of 1s: backs at both ends
    readings += [_reading("back"), _reading("1s"), _reading("1s"), _reading("back")]
    rows.append([10, 11, 12, 13])
    # the winning tile set apart after the concealed row: the row order puts it after the hand
    readings += [_reading("3s")]
    rows.insert(1, [14])
    concealed, slots, win = find_melds(rows, readings)
    assert win == 14 and concealed == list(range(7)) + [14]
    assert [(s.kind, s.positions) for s in slots] == [("pon", (7, 8, 9)), ("ankan", (10, 11, 12, 13))]
    p = propose(readings, rows)
    assert p.melds == ({"type": "pon", "tiles": "777z"}, {"type": "ankan", "tiles": "1111s"})
    assert p.hand == "234m678p33s"
    assert p.win_tile == "3s"
    assert p.complete


def test_chi_is_told_from_pon_by_its_tiles():
    readings = [_reading(c) for c in ["3p", "4p", "5p"]]
    readings[0] = _reading("3p", side=True)
    p = propose(readings, [[0, 1, 2]])
    assert p.melds == ({"type": "chi", "tiles": "345p"},)


def test_a_row_that_cannot_be_a_meld_stays_with_the_concealed_tiles():
    # four different tiles, the last one sideways (a riichi discard turned, say): not a kan
    readings = [_reading(c) for c in ["9p", "0s", "1z"]] + [_reading("6z", side=True)]
    concealed, slots, win = find_melds([[0, 1, 2, 3]], readings)
    assert slots == [] and concealed == [0, 1, 2, 3]
    p = propose(readings, [[0, 1, 2, 3]])
    assert p.melds == () and p.hand == "9p0s16z"


def test_a_box_across_the_edge_of_two_like_tiles_is_dropped_and_a_tile_between_them_kept():
    from recognition import reading
    left, right = [716.6, 330.3, 767.7, 401.3], [772.8, 328.9, 821.7, 401.7]  # two 9s of a kan, as boxed
    across = [743.6, 332.1, 793.5, 399.6]  # a third box across their edge, read as 9s less surely
    boxes, scores = [left, right, across], [0.64, 0.57, 0.30]
    share = reading.Settings().straddle
    assert reading.drop_duplicates(boxes, scores, codes=["9s"] * 3, same_contain=0.5, straddle=share) == [0, 1]
    # off, or read as neither of the two, it stays (a third tile, as the layout may show it)
    assert sorted(reading.drop_duplicates(boxes, scores, codes=["9s"] * 3, same_contain=0.5)) == [0, 1, 2]
    assert sorted(reading.drop_duplicates(boxes, scores, codes=["9s", "9s", "8s"], straddle=share)) == [0, 1, 2]
    # a tile of its own in the gap between two tiles set apart, touching each a little, stays
    apart = [[600, 330, 650, 400], [700, 330, 750, 400]]
    between = [645, 330, 705, 400]
    assert sorted(reading.drop_duplicates(apart + [between], [0.9, 0.9, 0.5], codes=["9s"] * 3,
                                          straddle=share)) == [0, 1, 2]
