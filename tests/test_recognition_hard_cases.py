"""The hard-case suite (issue 19): photos staged by training.hard_cases with this project's own
drawing code, one per way recognition fails on other sets and scenes, read by the real models.

Each case checks the face-up tiles read (as a multiset) and that no face-down tile is invented.
Cases still read wrongly are marked xfail(strict=True): when a change fixes one, its test
passes, the strict mark fails the run, and the mark is taken off, so the suite records progress
both ways. The suite's tile F1 has a floor under which it may not fall.
"""
from __future__ import annotations

import json
import os
from collections import Counter

import pytest

from recognition.pipeline import get_recognizer
from recognition.scales import inside_share

HERE = os.path.join(os.path.dirname(__file__), "data", "hard_cases")
with open(os.path.join(HERE, "labels.json")) as _f:
    LABELS: dict[str, dict] = json.load(_f)

# why each of these is still read wrongly (models of this release)
STILL_FAILING = {
    "far_row.jpg": "seven tiles across the table, about 20 px wide: all seven shown, six right; the 9p is "
                   "read as 9s at 0.18, flagged to check (stage 2g's first classifier read all seven)",
}


def scaled():  # type: ignore[no-untyped-def]
    """The recogniser as served: every part of recognition.scales is on by default (the phone
    makes the same passes, tests/browser/test_browser_one_reader.py)."""
    rec = get_recognizer()
    st = rec.settings
    assert st.multi_scale and st.merge_fragments and st.tall_faces and st.drop_misfits and st.drop_unsure_groups
    return rec


def _read(name: str) -> tuple[Counter, int]:
    with open(os.path.join(HERE, name), "rb") as f:
        result = scaled().recognize(f.read())
    return Counter(t.tile for t in result.tiles if not t.face_down), sum(t.face_down for t in result.tiles)


_cache: dict[str, tuple[Counter, int]] = {}


def read(name: str) -> tuple[Counter, int]:
    if name not in _cache:
        _cache[name] = _read(name)
    return _cache[name]


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=STILL_FAILING[n])) if n in STILL_FAILING else n
    for n in sorted(LABELS)])
def test_hard_case_is_read_exactly(name: str) -> None:
    faces, backs = read(name)
    want = Counter(LABELS[name]["tiles"])
    assert faces == want, f"missing {sorted((want - faces).elements())}, invented {sorted((faces - want).elements())}"
    assert backs == LABELS[name]["back"]


def test_hard_case_suite_tile_f1_floor() -> None:
    """Tile F1 over the suite (multiset match per photo): 0.730 with one detection pass and no
    clean-up, 0.898 with recognition.scales and tall faces read from their lower part, 0.907 (ten
    cases) with tiles set apart kept; 0.856 with the eleventh case (brush_row), 0.887 with groups
    judged with the boxes read as no tile, 0.905 with two scattered scenes (read exactly), 0.927
    with a row of tiles never judged as clutter (brush_row), 0.939 with stage 2b's classifier (far_row
    and standing_tall), 0.947 with unsure crops read again turned half round (brush_row three
    more, standing_tall one less), 0.950 with a fifteenth case read exactly (far_row_photo, read on a
    finer copy of the photo), 0.954 with a sixteenth (far_honours_photo: 0.910 without the probe,
    which reads none of its twelve tiles), 0.957 with keys read as tiles among keys read as no
    tile dropped (keyboard_hand), 0.960 with one tile boxed twice and read the same counted once
    (standing_tall's 8p), 0.957 with a row's unsure tiles shown (brush_row: its 3m found, two 3z
    shown as 4z); 0.893 with two more rows in hands no training saw (ming_row 6 of 14 right,
    sans_row 4), 0.947 with stage 2c's classifier, taught manzu and honours in other fonts (the
    sixteen cases before them 0.957 -> 0.977: brush_row, far_row and standing_tall one or two
    more each); 0.947 with a row's short sure runs joined through the unsure tiles between them
    (standing_tall's 7s found; sans_row's third 發 shown, as 5m); 0.953 with unsure boxes read
    again grown up and down (brush_row read exactly: its third 3z, read as 4z at 0.43, is 3z grown);
    0.961 with stage 2d's classifier, taught pinzu in other drawings (sans_row's 4m and a 發 right);
    0.970 with stage 2f's; 0.984 with stage 2g's, distilled over every scene of other hands
    (far_row's 9p and two of ming_row's manzu right; standing_scattered's granite fleck, read as
    3s at 0.79, a speck under Settings.speck_sure 0.9); 0.985 with a nineteenth case, a hand
    photographed 30 degrees aslant (aslant_row), read exactly from the photo turned to level it
    (Settings.straighten; as taken, a 5m read as 6m); 0.983 with a twentieth, a haku standing alone
    on granite (found; a tile-sized patch of the granite read as 3s); 0.990 with stage 2g trained
    on the corrected labels (ming_row, standing_apart and haku_apart_stone read exactly, far_row's
    9p and 1s no longer shown); 0.985 with stage 2h, taught fourteen more hands (standing_tall's
    1z read as haku too); 0.990 with tall faces read unsurely as a tile read from their lower part
    too, never grown taller (standing_tall's 1z right again); 0.988 with three hands seen from other
    seats (across_row read exactly; side_seat_row a 4s too many, far_honours_side a 6z and a 7z
    missing), 0.992 with a photo whose tiles' tops point left or right read again turned tops up
    (Settings.quarter_turn: both read exactly), and with a twenty-fourth, such a hand seen sitting,
    in perspective (side_seat_far, read exactly); 0.988 with two hands with called tiles from a set
    with black backs (called_dark_backs, read exactly since a box across two 9s is dropped,
    Settings.straddle; lamp_kan, whose backs, grey under a lamp's reflection, are read as haku);
    0.985 with four more of the issue's clutter (cards_alone, calculator_alone and dominoes_hand
    read exactly; dominoes_alone, two blank halves read as haku); 0.988 with one or two tiles outnumbered
    by things of their size read as no tile taken for one of those things (Settings.lookalike:
    dominoes_alone read exactly); 0.992 with a tall face read down to its row's foot when its box stops
    short of it (Settings.tall_foot: standing_tall's 9p, read whole as haku, read exactly; 0.9917); 0.995
    with a box read as haku lit far less than the faces round it read as a back (Settings.unlit_blank:
    lamp_kan's two grey backs; 0.9950); 0.997 with a run of like boxes spanning fewer tiles than it
    holds losing its least sure (Settings.crowded: lamp_kan's two 9s, boxed three times, read as two;
    lamp_kan read exactly; 0.9967); 0.9967 with two close-ups of photographed tiles filling the frame
    (crop_filling, read as nothing until Settings.whole_tiles, and crops_closeup_two, both read
    exactly); 0.9968 with a photographed 8p inked in blue filling the frame (crop_blue_pips, read
    as four 1p and two 3z until Settings.whole_light); the floor keeps the gain."""
    tp = n_pred = n_true = 0
    for name, lab in LABELS.items():
        faces, _ = read(name)
        want = Counter(lab["tiles"])
        tp += sum((faces & want).values())
        n_pred += sum(faces.values())
        n_true += sum(want.values())
    p, r = tp / n_pred, tp / n_true
    assert 2 * p * r / (p + r) >= 0.996


def test_grey_backs_under_a_lamp_are_read_as_backs_by_their_light() -> None:
    """lamp_kan's two black backs, grey under the lamp's reflection, are read as haku (0.86, 0.82):
    their faces' light is 0.53 and 0.65 of the faces round them. A blank face is as bright as any
    face's ground, so they are read as backs (Settings.unlit_blank); without that rule, as haku."""
    import dataclasses

    from recognition.pipeline import Recognizer

    rec = scaled()
    with open(os.path.join(HERE, "lamp_kan.jpg"), "rb") as f:
        data = f.read()
    faces, backs = read("lamp_kan.jpg")
    assert backs == 2 and faces["5z"] == 0
    without = Recognizer(rec.detector, rec.classifier, dataclasses.replace(rec.settings, unlit_blank=None)).recognize(data)
    assert sum(t.face_down for t in without.tiles) == 0
    assert Counter(t.tile for t in without.tiles)["5z"] == 2


def test_two_like_tiles_boxed_three_times_are_read_as_two() -> None:
    """Under the lamp, lamp_kan's two 9s between the kan's backs are boxed three times: a narrow
    box over each (34 px, the tiles 52 px) and one across their edge. None lies over the others
    enough to be a straddle (Settings.straddle), but the three span 2.1 tiles of their row: the
    least sure goes (Settings.crowded). Without that rule, three 9s."""
    import dataclasses

    from recognition.pipeline import Recognizer

    rec = scaled()
    with open(os.path.join(HERE, "lamp_kan.jpg"), "rb") as f:
        data = f.read()
    assert read("lamp_kan.jpg")[0]["9s"] == 2
    without = Recognizer(rec.detector, rec.classifier, dataclasses.replace(rec.settings, crowded=None)).recognize(data)
    assert Counter(t.tile for t in without.tiles)["9s"] == 3


def test_a_tile_filling_the_frame_is_read_whole() -> None:
    """crop_filling: a photographed 9p of another set 70% of the photo's height. At the detector's
    scale nothing of it is read as a tile (its pip groups boxed, read as no tile or unsurely); the
    pass at the coarse scale (reading.WHOLE_SIDE) boxes it whole, read as 9p surely: that is the
    reading (Settings.whole_tiles). Without that rule, no tile."""
    import dataclasses

    from recognition.pipeline import Recognizer

    rec = scaled()
    with open(os.path.join(HERE, "crop_filling.jpg"), "rb") as f:
        data = f.read()
    assert read("crop_filling.jpg") == (Counter({"9p": 1}), 0)
    without = Recognizer(rec.detector, rec.classifier, dataclasses.replace(rec.settings, whole_tiles=None))
    assert Counter(t.tile for t in without.recognize(data).tiles) != Counter({"9p": 1})


def test_a_face_filling_the_frame_is_read_in_the_light_judged_on_it() -> None:
    """crop_blue_pips: a photographed 8p inked in blue, 60% of the photo's height. Its pips are
    boxed as tiles at the detector's scale, and the light's colour judged on them (blue ink) looks
    blue: the frame is corrected for it. The coarse pass boxes the face whole; read in the frame
    corrected for a blue light, that is no sure tile, so the pips stood (four 1p, two 3z). Read in
    the light judged on the face itself (Settings.whole_light), it is the 8p."""
    import dataclasses

    from recognition.pipeline import Recognizer

    rec = scaled()
    with open(os.path.join(HERE, "crop_blue_pips.jpg"), "rb") as f:
        data = f.read()
    assert read("crop_blue_pips.jpg") == (Counter({"8p": 1}), 0)
    tint = rec.cast_table(*_first_boxes(rec, data))
    assert tint is not None and int(tint[100, 0, 0]) - int(tint[100, 0, 2]) > 50  # a blue light taken off: reds raised more
    without = Recognizer(rec.detector, rec.classifier, dataclasses.replace(rec.settings, whole_light=False))
    assert Counter(t.tile for t in without.recognize(data).tiles) != Counter({"8p": 1})


def _first_boxes(rec, data: bytes):  # type: ignore[no-untyped-def]
    """The frame of `data` and its first pass's boxes, as Recognizer.recognize judges the light on them."""
    from recognition.image_io import load_image

    pixels = load_image(data).pixels
    return pixels, rec.detect_all(pixels)[0]


def test_a_tile_filling_the_frame_is_read_whole_before_any_retile(monkeypatch) -> None:
    """crop_filling reads nothing at the detector's scale, which would have the frame detected again
    finely, up to 1536 px (reading.retile, Settings.nothing_read). The coarse pass is looked at first:
    its 9p read whole, no retile's passes are made; without it, they are."""
    import dataclasses

    from recognition.pipeline import Recognizer

    rec = scaled()
    with open(os.path.join(HERE, "crop_filling.jpg"), "rb") as f:
        data = f.read()
    retiles: list[object] = []
    detect_all = Recognizer.detect_all

    def counted(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if kwargs.get("again") is not None:
            retiles.append(kwargs["again"])
        return detect_all(self, *args, **kwargs)

    monkeypatch.setattr(Recognizer, "detect_all", counted)
    assert [t.tile for t in rec.recognize(data).tiles] == ["9p"]
    assert retiles == []
    without = Recognizer(rec.detector, rec.classifier, dataclasses.replace(rec.settings, whole_tiles=None))
    without.recognize(data)
    assert len(retiles) == 1


def test_dominoes_alone_give_no_tile_by_the_lookalikes_rule() -> None:
    """Of the dominoes on a wooden table, two blank halves are boxed alone and read as haku (0.92,
    0.77): the reader's rule that one or two tiles, outnumbered by boxes of their size read as no
    tile (the other dominoes' halves), are things of that kind (Settings.lookalike) drops them."""
    import dataclasses

    from recognition.pipeline import Recognizer

    rec = scaled()
    with open(os.path.join(HERE, "dominoes_alone.jpg"), "rb") as f:
        data = f.read()
    assert rec.recognize(data).tiles == ()
    without = Recognizer(rec.detector, rec.classifier, dataclasses.replace(rec.settings, lookalike=None))
    assert Counter(t.tile for t in without.recognize(data).tiles) == Counter({"5z": 2})


def test_a_faint_haku_among_scattered_tiles_is_kept_by_the_faint_tiles_rule() -> None:
    """A detector that sees blank faces a little less (its threshold raised to 0.5) finds
    standing_scattered's blank haku only faintly: read surely as 5z among the tiles, it stays a
    tile (Settings.faint_sure); without that rule it is lost."""
    import dataclasses

    from recognition.pipeline import Recognizer

    rec = scaled()
    weak = dataclasses.replace(rec.settings, detect_threshold=0.5)
    with open(os.path.join(HERE, "standing_scattered.jpg"), "rb") as f:
        data = f.read()

    def faces(settings) -> Counter:  # type: ignore[no-untyped-def]
        return Counter(t.tile for t in Recognizer(rec.detector, rec.classifier, settings).recognize(data).tiles)

    assert faces(weak) == Counter(LABELS["standing_scattered.jpg"]["tiles"])
    assert faces(dataclasses.replace(weak, faint_sure=None))["5z"] == 0


def test_labels_cover_every_fixture() -> None:
    photos = {f for f in os.listdir(HERE) if f.endswith(".jpg")}
    assert photos == set(LABELS)
    assert {lab["kind"] for lab in LABELS.values()} >= {"standing", "far_row", "closeup", "clutter", "hand_row"}
    assert LABELS["keyboard_alone.jpg"]["tiles"] == []


SHARED = os.environ.get("TENBOU_SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "shared"))


@pytest.mark.skipif(not os.path.isdir(os.path.join(SHARED, "tiles", "Export")), reason="../shared/tiles not present")
def test_fixtures_are_rebuilt_by_their_script(tmp_path) -> None:
    """training.hard_cases makes the committed fixtures: the same labels, and the same pictures
    (compared as decoded pixels, so a different JPEG encoder build does not matter)."""
    import cv2
    import numpy as np

    from training import hard_cases

    assert hard_cases.build(str(tmp_path)) == LABELS
    for name in LABELS:
        a = cv2.imread(os.path.join(HERE, name)).astype(np.int16)
        b = cv2.imread(str(tmp_path / name)).astype(np.int16)
        assert a.shape == b.shape
        assert float(np.abs(a - b).mean()) < 1.0, name


def test_the_close_up_needs_the_second_scale() -> None:
    """The close-up is read because of recognition.scales, not by luck of the models: with one
    detection pass at 512 px (the reader before issue 19: neither the passes recognition.scales
    plans nor the coarse pass for tiles filling the frame, Settings.whole_tiles) it gives no tile at all."""
    import dataclasses

    from recognition.pipeline import Recognizer

    on = scaled()
    one_pass = Recognizer(on.detector, on.classifier, dataclasses.replace(on.settings, multi_scale=False, whole_tiles=None))
    with open(os.path.join(HERE, "closeup_two.jpg"), "rb") as f:
        data = f.read()
    assert [t.tile for t in one_pass.recognize(data).tiles] == []
    assert sorted(t.tile for t in on.recognize(data).tiles) == ["0m", "3s"]


def _closeup(codes: list[str], w: float, h: float, seed: int) -> bytes:
    """training.closeups' photo (upright), as the JPEG a phone sends."""
    import cv2
    import numpy as np

    from training import closeups

    ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(closeups.photo(codes, w, h, seed, 0.0)[..., ::-1]),
                           [cv2.IMWRITE_JPEG_QUALITY, 85])
    return buf.tobytes()


# (tile, the photo's seed: training.closeups draws the felt and picks its colour from it)
FILLING = [("6p", 5), ("2m", 5), ("7s", 5), ("4z", 5), ("9p", 5), ("1s", 5), ("4s", 21), ("6s", 23), ("7p", 15), ("8p", 16),
           ("2s", 19), ("0p", 35), ("5z", 31), ("0m", 34)]


@pytest.mark.parametrize("code,seed", FILLING)
def test_one_tile_filling_the_photo_is_read(code: str, seed: int) -> None:
    """One tile 88% of the photo's height (500 x 667 px in 1008 x 756; training.closeups' one_88).
    At 512 px the detector boxes pieces of its face (pip groups, the engraving), some of a size it
    reads well, so no other scale was planned, or the planned pass's whole tile, too large to
    count, lost to them: 2 of the first 6 were read (6p, 4z and 1s as nothing, 9p as 3z). One to
    three boxes now also get the pyramid's smaller sides (ScaleRule.closeup_few), and a surer box
    there holding them all leads. The last 4 were boxed as 4 or more pip groups or strokes, and
    the pass planned from their size found the whole tile, which lost to them: more pieces lead
    too when they leave most of the box bare (ScaleRule.pieces_cover). The next 3 were boxed whole,
    their boxes reaching the photo's edge, and read 0.86 to 0.89 surely: under the 0.9 asked of a
    tile cut by the edge, and lost. A box spanning most of the photo is what was photographed, not
    a tile cut by the edge (Settings.fills_frame). The red 5m was one bare patch between its strokes
    at 512 px, small enough to probe at twice the scale, where seven such patches were read as
    haku: a probe of one to three boxes now also gets the pyramid's smaller sides, whose whole
    tile leads when it holds the probe's boxes too, leaving it bare (recognition.scales.merge_passes)."""
    from training import hard_cases

    w, h = 500, 667
    tiles = scaled().recognize(_closeup([code], w, h, seed)).tiles
    assert [t.tile for t in tiles] == [code]
    x1, y1, x2, y2 = tiles[0].box  # the whole face, not a piece of it
    assert inside_share(((hard_cases.W - w) / 2, (hard_cases.H - h) / 2, (hard_cases.W + w) / 2, (hard_cases.H + h) / 2),
                        (x1, y1, x2, y2)) > 0.8


# (the two tiles, each tile's width, the photo's seed), as training.closeups draws its two_* kinds
TWO_FILLING = [(["3m", "9p"], 300, 2), (["3p", "7m"], 300, 11), (["9m", "5s"], 380, 8), (["6p", "1z"], 460, 14),
               (["4z", "2z"], 460, 30),
               # a blob over both tiles, as sure as the first pass's two tiles, led (ScaleRule.blob_sure)
               (["5s", "1p"], 200, 22), (["8s", "4z"], 200, 25), (["9p", "3p"], 300, 17),
               # boxed whole to the photo's edge and read under 0.9 surely (Settings.fills_frame)
               (["0p", "9s"], 460, 35), (["3z", "4s"], 460, 29),
               # four or five pieces too large to be tiles: the pyramid too (ScaleRule.few)
               (["5z", "0p"], 460, 31), (["7s", "6s"], 460, 24),
               # a blob over both tiles, surer than the tiles boxed apart, each shaped as a face
               # standing upright (ScaleRule.blob_face_sure)
               (["8s", "4z"], 300, 25), (["6s", "8p"], 200, 23), (["5s", "1p"], 300, 22)]


@pytest.mark.parametrize("codes,w,seed", TWO_FILLING)
def test_two_tiles_filling_the_photo_are_read(codes: list[str], w: int, seed: int) -> None:
    """Two tiles side by side, 35% to 81% of the photo's height. At 512 px the detector boxes
    pieces of their faces; the pyramid's 128 px pass finds both tiles, each surer than the pieces
    it holds, but a pass of one blob over both, surer than every piece, also held them all, and it
    alone counted: each of the first five was read as one tile or none. A pass now holds the
    pieces with several boxes as well (recognition.scales._holds), and of the passes that hold
    them, the one whose tiles measure as the detector learned leads. In the last three, a pass
    boxing both tiles as one blob of a tile's size led by counting as found, and one tile or both
    were lost: a pass with such a blob now leads after the others (recognition.scales._blob). In
    the two at 460 px (81% of the height), one tile's box reached the photo's edge and was read
    0.77 or 0.78 surely, too unsurely for a tile cut by the edge, and lost (Settings.fills_frame).
    In the last two, 512 px boxed four or five pip groups or strokes, all too large for the
    detector, and the one side planned from their size boxed the pair as one tile: four or five
    such boxes now get the pyramid's smaller sides too, and 128 px finds both tiles. In the last
    three, the blob over both was surer than the tiles boxed apart (8s and 4z: the blob 0.71, the
    tiles 0.80 and 0.56), so it was not judged a blob, led, and was read as one tile or none:
    boxes shaped as a face standing upright may now be that much less sure."""
    tiles = sorted(scaled().recognize(_closeup(codes, w, w * 4 / 3, seed)).tiles, key=lambda t: t.box[0])
    assert [t.tile for t in tiles] == codes


def test_the_far_honours_need_the_probe(monkeypatch) -> None:
    """Twelve honours far away are two or three blobs at 512 px; the probe at twice the scale
    finds the twelve (recognition.scales.probing). Without it, the pass planned from the blobs'
    size (20-28 px: read again where they measure 34) finds ten of them; with no pass planned
    from a size either (ScaleRule.low at 20, as before), none of the twelve is read (stage 2c's
    classifier read one blob as 4m, stage 2b's none). Reading nothing, the reader now detects
    the whole frame once more finely (Settings.nothing_read), which reads the twelve too: the
    probe is judged with that off."""
    import dataclasses
    import functools

    from recognition import scales
    from recognition.pipeline import Recognizer

    with open(os.path.join(HERE, "far_honours_photo.jpg"), "rb") as f:
        data = f.read()
    rec = scaled()
    truth = Counter(LABELS["far_honours_photo.jpg"]["tiles"])
    assert Counter(t.tile for t in rec.recognize(data).tiles) == truth
    monkeypatch.setattr(scales, "probing", lambda *a, **k: False)
    without = Counter(t.tile for t in rec.recognize(data).tiles)
    assert without != truth and sum((without & truth).values()) < sum(truth.values())
    before = dataclasses.replace(scales.DEFAULT_RULE, low=20.0)
    monkeypatch.setattr(scales, "rescan_sides", functools.partial(scales.rescan_sides, rule=before))
    monkeypatch.setattr(scales, "merge_passes", functools.partial(scales.merge_passes, rule=before))
    first_only = Recognizer(rec.detector, rec.classifier, dataclasses.replace(rec.settings, nothing_read=None))
    without = Counter(t.tile for t in first_only.recognize(data).tiles)
    assert sum(without.values()) <= 1 and not without & truth
    assert Counter(t.tile for t in rec.recognize(data).tiles) == truth


def test_tall_faces_are_read_from_their_lower_part() -> None:
    """Read whole, a tall standing face with a blank upper half looks like haku; read from its
    lower part it is its tile (Settings.tall_faces): with stage 2's classifier 4 of 10 right
    without, 6 with; with stage 2b's (out of focus), 6 without, 8 with; with unsure crops read
    again turned half round (Settings.half_turn_unsure, which loses this case's 1z), 5 without, 7 with;
    with stage 2c's, which reads a tall face whole as no tile, 0 without, 8 with; with stage 2h's
    and the faces read unsurely as a tile read from their lower part too, 9 with; with a face read
    down to its row's foot (Settings.tall_foot), 10."""
    import dataclasses

    from recognition.pipeline import Recognizer

    on = scaled()
    whole = Recognizer(on.detector, on.classifier, dataclasses.replace(on.settings, tall_faces=False))
    with open(os.path.join(HERE, "standing_tall.jpg"), "rb") as f:
        data = f.read()
    want = Counter(LABELS["standing_tall.jpg"]["tiles"])
    right_whole = sum((Counter(t.tile for t in whole.recognize(data).tiles) & want).values())
    right_lower = sum((read("standing_tall.jpg")[0] & want).values())
    assert right_lower >= right_whole + 2 and right_lower >= 10


def test_an_upright_tile_boxed_twice_is_counted_once() -> None:
    """standing_tall's 8p is boxed whole (its blank top and its pips) and by its lower part (IoU
    0.43, under the usual duplicate bounds). Stage 2b's classifier read both boxes as 8p, and
    they were one tile only because they read the same and lie two thirds over each other
    (Settings.same_tile_overlap; tests/test_recognition_pass_plan.py checks that rule on its own).
    Stage 2c's reads the whole box as no tile (0.61) and its lower part as 8p: either way no more
    tiles are read than the photo's ten, the 8p once, and no box lies over another."""
    with open(os.path.join(HERE, "standing_tall.jpg"), "rb") as f:
        tiles = scaled().recognize(f.read()).tiles
    assert read("standing_tall.jpg")[0]["8p"] == 1
    assert len(tiles) <= len(LABELS["standing_tall.jpg"]["tiles"])
    for i, a in enumerate(tiles):  # no box lies mostly over another
        for b in tiles[i + 1:]:
            assert inside_share(a.box, b.box) < 0.5 and inside_share(b.box, a.box) < 0.5, (a.tile, b.tile)


def test_a_row_in_unseen_artwork_is_shown_whole_its_unsure_tiles_marked() -> None:
    """brush_row, 14 tiles in a brush hand no training saw: some of them are read unsurely (under
    Settings.min_confidence, 0.5: three with stage 2d's classifier, two with 2e's; none with the
    classifier trained on the corrected labels, so this test asks 0.8 of a sure tile, and three
    are under it). They stand in the row, so they are shown, marked unsure (the phone asks the
    player to check them, and offers the other readings), and the row is whole: a wrong tile is
    changed with two taps, a gap must be noticed and filled from the picker. Without the rule
    (Settings.row_floor) each of them is a gap. (Unsure boxes grown up and down are read again by
    another rule, off here, to see this one alone.)"""
    import dataclasses

    from recognition.pipeline import Recognizer

    served = scaled()
    on = Recognizer(served.detector, served.classifier,
                    dataclasses.replace(served.settings, grow_unsure=None, min_confidence=0.8))
    off = Recognizer(on.detector, on.classifier, dataclasses.replace(on.settings, row_floor=None))
    with open(os.path.join(HERE, "brush_row.jpg"), "rb") as f:
        data = f.read()
    shown = on.recognize(data).tiles
    assert len(shown) == 14
    unsure = [t for t in shown if t.confidence < on.settings.min_confidence]
    assert unsure and all(t.alternatives for t in unsure)
    assert len(off.recognize(data).tiles) == 14 - len(unsure)
