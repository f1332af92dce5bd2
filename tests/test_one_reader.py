"""One reader: recognition.reading decides everything after the networks, in plain Python, for the
server and the phone alike. Here: its decisions on hand-made numbers (the hand is the row, the
rest of the photo is listed apart), that the server's pipeline goes through it, and that it is
shipped to the phone as source (the Pyodide worker imports it; tests/browser/test_browser_one_reader.py
runs it there on photos built by the project's own code and requires the same tiles)."""
from __future__ import annotations

import ast
import io
import zipfile
from pathlib import Path

import pytest

from recognition import reading
from recognition.hand import TileReading
from recognition.reading import Detection

ROOT = Path(__file__).resolve().parents[1]
UP, RIGHT = (1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0)
HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z"]


def _dets(specs):
    return [Detection((x, y, x + w, y + h), code, 0.99) for x, y, w, h, code in specs]


def _read(specs, orient=None):
    dets = _dets(specs)
    lay = reading.layout(dets, orient or [UP] * len(dets))
    readings = [TileReading(((d.tile, d.confidence),) + d.alternatives, d.sideways) for d in lay.tiles]
    return lay, reading.read_hand(readings, lay.rows, lay.lines)


def test_the_hand_is_the_row_and_the_clutter_is_listed_apart():
    row = [(100 + 40 * i, 500, 40, 52, c) for i, c in enumerate(HAND)]
    keys = [(100 + 40 * i, 200, 40, 52, c) for i, c in enumerate(["2s", "5z", "3z"])]  # keyboard keys read as tiles
    stray = [(900, 800, 40, 52, "9m")]
    lay, p = _read(keys + row + stray)
    assert p.complete and p.hand == "123m456p789s11122z"
    extra = sorted(lay.tiles[i].tile for i in p.extra)
    assert extra == ["2s", "3z", "5z", "9m"]
    assert not set(p.extra) & set(p.concealed)
    assert p.to_json()["extra"] == list(p.extra)


def test_a_row_with_a_gap_on_its_line_is_one_hand():
    # the row lies in two pieces (a wider gap after the sixth tile): both are the hand
    row = [(100 + 40 * i + (30 if i >= 6 else 0), 500, 40, 52, c) for i, c in enumerate(HAND)]
    lay, p = _read(row + [(100, 100, 40, 52, "5m")])
    assert len(lay.rows) == 3
    assert p.complete and p.hand == "123m456p789s11122z"
    assert [lay.tiles[i].tile for i in p.extra] == ["5m"]


def test_the_winning_tile_set_apart_and_a_called_pon_join_the_row():
    hand = ["2m", "3m", "4m", "6p", "7p", "8p", "3s", "9s", "9s", "9s"]
    specs = [(100 + 40 * i, 500, 40, 52, c) for i, c in enumerate(hand)]
    specs.append((100 + 40 * 10 + 40, 500, 40, 52, "3s"))  # the winning tile, apart
    specs += [(900, 500, 40, 52, "7z"), (940, 512, 52, 40, "7z"), (992, 500, 40, 52, "7z")]  # pon, middle turned
    specs.append((400, 150, 40, 52, "1p"))  # something else on the table
    orient = [UP] * 12 + [RIGHT, UP, UP]
    lay, p = _read(specs, orient)
    assert p.complete, p.message
    assert p.hand == "234m678p33999s" and p.win_tile == "3s"
    assert p.melds == ({"type": "pon", "tiles": "777z"},)
    assert [lay.tiles[i].tile for i in p.extra] == ["1p"]


def test_nothing_complete_keeps_the_count_nearest_a_hand():
    row = [(100 + 40 * i, 500, 40, 52, c) for i, c in enumerate(HAND[:13])]
    lay, p = _read(row + [(100, 100, 40, 52, "9m"), (140, 100, 40, 52, "9m")])
    assert not p.complete
    assert len(p.concealed) == 13
    assert sorted(lay.tiles[i].tile for i in p.extra) == ["9m", "9m"]
    assert p.detail == {"id": "photo_tile_count", "params": {"count": 13}}


def test_decode_reads_peaks_the_same_from_a_flat_list():
    gh, gw = 8, 10
    plane = gh * gw
    out = [-8.0] * plane + [0.0] * (4 * plane)
    out[3 * gw + 4] = 3.0
    out[3 * gw + 5] = 2.0  # a weaker neighbour: not a peak
    out[plane + 3 * gw + 4] = 1.6094379  # log(20 / 4)
    out[2 * plane + 3 * gw + 4] = 1.9459101  # log(28 / 4)
    boxes = reading.decode(out, gh, gw, 0.3)
    assert len(boxes) == 1
    x1, y1, x2, y2, s = boxes[0]
    assert (x1 + x2) / 2 == pytest.approx(16) and (y1 + y2) / 2 == pytest.approx(12)
    assert x2 - x1 == pytest.approx(20, rel=1e-6) and y2 - y1 == pytest.approx(28, rel=1e-6)
    assert reading.decode(out, gh, gw, 0.99) == []


def test_decode_looks_only_at_the_cells_it_is_given():
    gh, gw = 8, 10
    plane = gh * gw
    out = [-8.0] * plane + [0.0] * (4 * plane)
    out[3 * gw + 4], out[6 * gw + 1] = 3.0, 1.0  # two peaks
    every = reading.decode(out, gh, gw, 0.3)
    assert len(every) == 2
    hot = [i for i in range(plane) if out[i] >= reading.heat_cut(0.3)]
    assert hot == [3 * gw + 4, 6 * gw + 1]
    # the hot cells, or any cells holding them (cold ones too), give the whole plane's boxes
    assert reading.decode(out, gh, gw, 0.3, cells=hot) == every
    assert reading.decode(out, gh, gw, 0.3, cells=range(plane)) == every
    assert reading.detect_boxes(out, gh, gw, 1.0, 100, 100, cells=[0, 3 * gw + 4, 6 * gw + 1, 7 * gw]) == \
        reading.detect_boxes(out, gh, gw, 1.0, 100, 100)
    # a hot cell left out is not looked at
    assert reading.decode(out, gh, gw, 0.3, cells=[3 * gw + 4]) == every[:1]
    assert reading.decode(out, gh, gw, 0.3, cells=[]) == []


def test_probabilities_average_the_half_turned_crops():
    # one box, 3 classes + 4 orientations; the half-turned crop says "down" where the first says "up"
    logits = [2.0, 0.0, 0.0, 5.0, 0.0, 0.0, 0.0] + [2.0, 0.0, 0.0, 0.0, 0.0, 5.0, 0.0]
    probs, orient = reading.probabilities(logits, 1, 3, half_turn=True)
    assert probs[0] == pytest.approx(reading.softmax([2.0, 0.0, 0.0]))
    assert max(range(4), key=lambda k: orient[0][k]) == 0


def test_unsure_crops_are_those_read_less_surely_than_the_setting():
    labels = ["1m", "2m", "none"]
    probs = [[0.95, 0.05, 0.0], [0.6, 0.4, 0.0], [0.89, 0.11, 0.0]]
    assert reading.unsure_crops(probs, labels, "none", reading.Settings(half_turn_unsure=0.9)) == [1, 2]
    assert reading.unsure_crops(probs, labels, "none", reading.Settings(half_turn_unsure=0.7)) == [1]
    assert reading.unsure_crops(probs, labels, "none", reading.Settings(half_turn_unsure=None)) == []
    # every crop already read twice: none again
    assert reading.unsure_crops(probs, labels, "none", reading.Settings(half_turn_tta=True, half_turn_unsure=0.9)) == []


def test_a_crop_read_surely_as_no_tile_is_not_read_again_turned():
    """Settings.half_turn_none: a crop read as no tile at 0.7 or more is not read again turned half
    round (a number card's pips read as 4p turned); one read so at 0.64 is (a haku standing apart,
    shaken, read as no tile at 0.64 and as 5z at 0.73 turned)."""
    labels = ["1m", "5z", "none"]
    probs = [[0.1, 0.16, 0.74], [0.1, 0.2, 0.7], [0.05, 0.31, 0.64]]
    assert reading.unsure_crops(probs, labels, "none", reading.Settings()) == [2]
    assert reading.unsure_crops(probs, labels, "none", reading.Settings(half_turn_none=0.72)) == [1, 2]
    assert reading.unsure_crops(probs, labels, "none", reading.Settings(half_turn_none=None)) == [0, 1, 2]
    # labels without a no-tile class: there is nothing to judge it by
    assert reading.unsure_crops([p[:2] for p in probs], labels[:2], "none", reading.Settings()) == [0, 1, 2]


def test_an_unsure_crop_read_again_turned_is_averaged_where_the_views_agree_else_the_surer_kept():
    n_classes = 3
    first = [[3.0, 0.0, 0.0, 5.0, 0.0, 0.0, 0.0],  # sure: read once
             [1.0, 0.5, 0.0, 0.0, 5.0, 0.0, 0.0],  # unsure; the turned view agrees
             [0.4, 0.3, 0.0, 0.0, 5.0, 0.0, 0.0],  # unsure; the turned view is surer of another tile
             [1.2, 0.0, 0.0, 0.0, 5.0, 0.0, 0.0]]  # unsure; the turned view is less sure of another tile
    turned = [[2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.0], [0.0, 1.5, 0.0, 0.0, 0.0, 5.0, 0.0],
              [0.0, 0.5, 0.0, 0.0, 0.0, 5.0, 0.0]]
    flat = [v for row in first for v in row]
    once_p, once_o = reading.probabilities(flat, 4, n_classes)
    idx = reading.unsure_crops(once_p, ["1m", "2m", "3m"], "none", reading.Settings(half_turn_unsure=0.9))
    assert idx == [1, 2, 3]
    p, o = reading.reread_half_turned(once_p, once_o, idx, [v for row in turned for v in row], n_classes)
    assert p[0] == once_p[0] and o[0] == once_o[0]
    # agreeing: what reading every crop twice (probabilities with half_turn) gives
    both_p, both_o = reading.probabilities(first[1] + turned[0], 1, n_classes, half_turn=True)
    assert p[1] == pytest.approx(both_p[0]) and o[1] == pytest.approx(both_o[0])
    # disagreeing: the surer view, its orientation turned back ("down" seen turned is "up")
    turned_p, _ = reading.probabilities(turned[1], 1, n_classes)
    assert p[2] == pytest.approx(turned_p[0]) and max(range(4), key=lambda k: o[2][k]) == 0
    assert p[3] == once_p[3] and o[3] == once_o[3]


def test_the_reading_module_needs_nothing_the_phone_lacks():
    """Pyodide runs it with the standard library and the scoring package only."""
    allowed = {"__future__", "bisect", "functools", "math", "collections", "dataclasses", "statistics", "typing", "heapq", "itertools",
               "recognition", "scoring"}
    for name in ("reading.py", "hand.py", "scales.py", "__init__.py"):
        tree = ast.parse((ROOT / "recognition" / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for mod in mods:
                assert mod.split(".")[0] in allowed, f"recognition/{name} imports {mod}"


def test_the_offline_archive_ships_the_reader(client):
    resp = client.get("/offline/scoring.zip")
    assert resp.status_code == 200
    names = zipfile.ZipFile(io.BytesIO(resp.data)).namelist()
    assert {"recognition/__init__.py", "recognition/reading.py", "recognition/hand.py",
            "recognition/scales.py"} <= set(names)
    assert "recognition/pipeline.py" not in names  # numpy and ONNX Runtime stay on the server


def test_the_javascript_copy_of_the_rules_is_gone():
    assert not (ROOT / "static" / "js" / "recognize-core.js").exists()
    for path in (ROOT / "static" / "js").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        for name in ("function propose", "function layout", "function isComplete", "function dropDuplicates"):
            assert name not in text, f"{path.name} re-implements {name}"
