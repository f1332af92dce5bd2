"""The one reader: from the networks' raw outputs to a proposed hand, in plain Python.

Everything recognition decides after the networks have run happens here, once: decoding the
detector's map into boxes, suppressing repeated boxes, dropping what is not a tile, laying the
tiles out in rows, choosing the row that is the hand and the reading that makes it legal and
complete (`recognition.hand`), and writing it in notation (`scoring.tiles`). The module needs no
numpy, OpenCV or ONNX Runtime, so the server (recognition/pipeline.py) and the phone (Pyodide in
static/js/core/offline-worker.js, fed by static/js/photo/recognize-worker.js, which only turns camera frames
into tensors and runs the networks) run the very same code and read the same tiles.

Inputs are flat sequences of floats (a list, a memoryview of float32, a numpy array's `.ravel()`):
the detector's map is (5, gh, gw) in row-major order: a centre heat-map logit, the box size as
log(pixels / stride) and the centre's offset inside its cell; the classifier's logits are (n,
classes + 4): the tile classes, then the orientation head (0 = the top of the tile points up in
the image, 1 = right, 2 = down, 3 = left).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from statistics import median
from typing import Any

from recognition import scales
from recognition.hand import UNSURE, Proposal, TileReading, find_melds, propose
from scoring.errors import detail

STRIDE = 4
NO_TILES = "no tiles found in the photo"
HAND_TILES = 14  # a winning hand's tiles, without kans

Box = tuple[float, float, float, float]
# the detector's (5, gh, gw) map, flat: a list, or a float32 memoryview (Pyodide's Float32Array,
# the server's numpy map), read one value at a time
DetectorMap = Sequence[float] | memoryview


@dataclass(frozen=True)
class Settings:
    detector_long_side: int = 512
    detect_threshold: float = 0.35
    reject_threshold: float = 0.6  # drop a box when the classifier says "not a tile" this surely
    max_tiles: int = 120
    half_turn_tta: bool = False  # also read every crop turned half round, and average
    # a crop whose best reading is less sure than this is read again turned half round: the two
    # readings are averaged where they agree, the surer is kept where not (unsure_crops,
    # reread_half_turned; models/HISTORY.md, "Unsure crops read twice"); None: off
    half_turn_unsure: float | None = 0.9
    # ...but not a crop read as no tile at least this surely: turned, a number card's pips were read
    # as a 4p (models/HISTORY.md, "Things read surely as no tile are not read again turned"); None:
    # every crop under half_turn_unsure is
    half_turn_none: float | None = 0.7
    border_confidence: float = 0.9  # a tile cut by the photo's edge must be read at least this surely
    # a box touching the photo's edge that spans at least this share of its height or width is what
    # the photo was taken of (a close-up of one or two tiles, their boxes reaching the frame), not a
    # tile cut by the edge: it is read as any other box is (min_confidence); None: every box
    # touching the edge is cut
    fills_frame: float | None = 0.6
    min_confidence: float = 0.5  # a box read less surely than this as one tile (given it is one) is dropped
    # recognition.scales (issue 19): the passes are planned here (rescan_sides, straighten,
    # merge_detections, tall_faces) and run where the networks run: pipeline.py on the server,
    # live-recognizer.js on the phone, so both make the same passes; the clean-up after
    # classifying (drop_misfits and what follows) runs here, on both
    multi_scale: bool = True  # detect again where the tiles are the size the detector learned
    # a row of tiles turned this many degrees or more from level (or upright) is read again from the
    # photo turned to level it (row_tilt, Turn); None: off
    straighten: float | None = 8.0
    # a frame with no row of tiles to go by (a close-up, a few tiles, a small pile) is turned by its
    # faces' edges instead (face_tilt): when the edges inside the boxes run, together, at least this
    # coherently at one angle `straighten` degrees or more from level; None: off
    face_tilt: float | None = 0.25
    # the light's colour: where the tiles' faces, as the first pass boxed them, are tinted more than
    # this (the log of a channel's gain) from the faces of the real photos as taken (FACE_CHROMA), the
    # photo is read again with its colours corrected by the rest (colour_cast, cast_table: a lamp's
    # warm light, a cool daylight); None: off. cast_thumb: the long side of the copy it is judged on
    colour_cast: float | None = 0.07
    cast_thumb: int = 256
    # a photo judged lit by a colour has all of it taken off, to the faces of the real photos as
    # taken; False: all but colour_cast (the edge of their spread). Under a warm lamp the red
    # fives' red ink has too little contrast left on faces corrected to the edge: of 40 red fives
    # in the real photos, 38 are read under a warm lamp with the whole cast taken off, 32 with all
    # but the spread (models/HISTORY.md, "The whole cast taken off")
    cast_whole: bool = True
    # a photo whose faces (the brightest quarter of their middles, as colour_cast judges them) are
    # darker than this (luma, 0-255) is brightened for them to FACE_LUMA, at most DIM_MOST times,
    # and read again: a dim room's red fives lose their red and the hard cases their tiles (faces
    # of the real photos as taken: 158 and brighter in 99 of 100; one of 799 is brightened, and
    # reads the same); None: off
    dim_faces: float | None = 120.0
    merge_fragments: bool = True  # parts of one tile's face (blank top, pip groups) are not tiles
    snap_rows: bool = True  # a box in a row of tiles lower than its neighbours is grown to the row's height
    tall_faces: bool = True  # a face far taller than wide, read as blank, is read again from its lower part
    # a box in a row of tiles whose foot stops short of its neighbours' is measured, and read again,
    # down to theirs: the detector's box of a standing 9p can end above its lowest pips
    tall_foot: bool = True
    drop_misfits: bool = True  # boxes of no tile's shape (a strip of print, a point stick) are not tiles
    drop_unsure_groups: bool = True  # groups read unsurely, and unsure lone boxes beside a sure hand, are clutter
    judge_with_rejected: bool = True  # boxes read as no tile, or too unsurely, count in their group's judgement
    rows_of_tiles: bool = True  # a group in one line whose boxes are surely tiles is a row, however unsurely read which
    # a group of any other shape whose boxes are surely tiles is a pile of tiles, however unsurely
    # read which, in a photo with no group read surely (a scattered pond in dim light)
    piles_of_tiles: bool = True
    # boxes cut by the photo's edge and read as no tile, or too unsurely, count in their group's
    # judgement too; off (the default), they do not: such a box is part of something the photo
    # does not show whole, and counted as a box read as nothing it drags a close-up of tiles read
    # a little unsurely (in dim light) under the median that marks clutter
    judge_cut_boxes: bool = False
    # a tile-sized box set apart on a row's line (the winning tile laid apart: an upright haku is
    # half read as no tile) stays unless read as no tile at least this surely (scales.set_apart);
    # None: off
    set_apart_reject: float | None = 0.8
    # a tile set apart may also be found faintly (a blank upright haku): detector peaks from this
    # score up to detect_threshold are read too where set_apart would take them (faint_boxes); None: off
    faint_threshold: float | None = 0.2
    # a faint peak among the tiles (scales.among_tiles: a blank haku face up in a pile, a tile
    # standing on its own) is a tile when read as one face up, not as a back, at least this
    # surely (its share of the classifier's whole reading, "no tile" included); None: off
    faint_sure: float | None = 0.9
    # the strongest this many faint peaks elsewhere (neither where a tile set apart from a row stands
    # nor among the tiles), of about the tiles' size (FAINT_SIZES), are read too, and are tiles only
    # when read as a face at least faint_sure surely: a blank haku standing five tiles' sizes from the
    # rest (models/HISTORY.md, "Faint peaks elsewhere"); None: off (so too when faint_sure is)
    faint_elsewhere: int | None = 8
    # two boxes read as the same tile, the smaller lying over the other for at least this share of
    # its area, are one tile boxed twice (an upright face boxed whole and by its lower part; a
    # pinzu tile by two groups of pips); None: only the usual overlap makes a duplicate
    same_tile_overlap: float | None = 0.5
    # a box lying over two tiles already kept for this share of its area, read as one of them, is a
    # box across the edge between them, not a tile (two 9s side by side in a kan are boxed a third
    # time across their edge; models/HISTORY.md, "A box across two tiles"); None: off
    straddle: float | None = 0.8
    # a box read as a tile less surely than min_confidence, but at least this surely, that continues
    # a row of tiles (scales.in_rows) stays, its best reading shown as unsure, while the photo holds
    # fewer tiles than a winning hand: a hand out of focus, or drawn in a hand the models never saw,
    # is a row of tiles read surely in part (0.25 until 2026-12-03: three 2m in thin strokes, read
    # at 0.18-0.27, left gaps; models/HISTORY.md, "A lower floor for a row's unsure tiles"); None: off
    row_floor: float | None = 0.15
    # the photo looks blurred (out of focus, or shaken) when its face-up tiles' crops are less sharp
    # than this, by their median (the classifier's `sharpness` output, read every way; haku, plain,
    # left out): half the least sharp photo of the real photos' train split as taken by the
    # Laplacian alone (models/HISTORY.md, "A photo out of focus, said"; read every way, the least
    # sharp of the 617 measures 0.062: "A shaken photo, said"); the player is told, and can take it
    # again. None: never said
    soft_below: float | None = 0.06
    # a box read as a tile less surely than GROWN_UNSURE is read again from the box grown by this
    # share of its height downwards, and upwards (grown_faces): a box cut to part of a face (a 6p's
    # upper four pips, a numeral without its 萬) reads as another tile; None: off
    grow_unsure: float | None = 0.35
    # a box read as a tile less surely than this is read again from two more crops, its box shrunk
    # and grown about its centre (SCALED_VIEWS), and the three readings are averaged
    # (scaled_faces, reread_scaled): a set drawn in a hand the models never saw is read unsurely,
    # and a little nearer or farther it reads as it is (models/HISTORY.md, "Unsure crops read at
    # three sizes"); None: off
    scale_unsure: float | None = 0.9
    # a box read as a back (a face-down tile) stays only with another tile no further off than
    # this many of its sides (scales.lone): face-down tiles are a closed kan's or a wall's, beside
    # others, while a dark thing on its own (an appliance across the room) is no tile; None: off
    lone_back: float | None = 1.0
    # backs stay only with a face read among the tiles kept: face-down tiles score nothing on their
    # own (a closed kan shows faces beside them), while a card's column of pips was read as three to
    # eight backs, each the others' company (training.closeups --things; models/HISTORY.md, "Backs
    # with no face are no tiles"); False: backs alone stay
    backs_need_a_face: bool = True
    # a run of boxes read as one tile, upright and side by side in a row, spanning less than its
    # count less this of the width of the tiles beside it, holds one too many: the least sure go
    # (scales.crowded; two 9s boxed three times under a lamp, lamp_kan); None: off
    crowded: float | None = 0.5
    # a box read as haku whose face is lit less than this share of both the faces nearest it and
    # the photo's faces (the brightest quarter of its middle in the thumbnail, as colour_cast
    # measures a face), and in which the classifier sees a trace of a back (UNLIT_BACK), is no
    # blank face: a blank face is as bright as any face's ground. It is read as a back
    # (unlit_blanks): a dark set's back grey under a lamp (lamp_kan, 0.53-0.65). The ivory backs of
    # standing tiles in shadow are as dark (real photos' walls, 0.59-0.70) but most carry too
    # little of a back to be judged. Haku read in the real photos as taken are at 0.78 and above on
    # one of the two (a framed haku in a corner's shadow: 0.68 of the photo's faces, 0.85 of its
    # neighbours'); None: off
    unlit_blank: float | None = 0.74
    # a photo read as at most ScaleRule.closeup_pieces tiles is detected once more with its long
    # side at WHOLE_SIDE, where a tile filling the frame is the size the detector learned
    # (whole_side). When that pass boxes one or two faces standing upright (WHOLE_SHAPE; boxes
    # within them are parts of them), each spanning at least this share of the frame's shorter side
    # and read as a tile with ink (not haku, not a back) at WHOLE_SURE or more, and every tile read
    # lies within them, they are the reading (whole_tiles, whole_read): photographed tiles of
    # another set filling the frame were read as their pip groups or strokes (a 1p as 8s, 8s, 8p,
    # 2s) or as nothing (models/HISTORY.md, "Tiles filling the frame, read whole"); None: off
    whole_tiles: float | None = 0.4
    # ...read in the light judged on those faces (colour_cast with one face), from the frame as
    # taken, when the frame read was corrected for a light judged on the first boxes, a face's
    # pieces (an 8p's blue pips made a light blue, and the face corrected for it read as 1p at
    # 0.45; models/HISTORY.md, "A face boxed by its sticks, and read in its own light"); False: in the
    # frame read
    whole_light: bool = True
    # a tile read less surely than far_sure whose gap to every other tile is more than this many
    # of the tiles' sizes (scales.far_apart; at least three other tiles kept) is clutter across the
    # room: a hand's tiles, its melds and a dora indicator lie together; None: off
    far_apart: float | None = 5.0
    far_sure: float = 0.9
    # and so is a pair of them lying together so far from the rest (IMG_3108: two cupboard handles
    # across the kitchen read as 1s and 8p at 0.5); 1: a box on its own only
    far_few: int = 2
    # a box smaller than this share of the tiles' size, read as a tile less surely than speck_sure,
    # is a speck (a fleck of granite that a pass at a finer scale boxed), not a tile (scales.specks); None: off
    speck: float | None = 0.6
    speck_sure: float = 0.9
    # a box read as a blank haku more than this many times the other tiles' size (at least three
    # kept), with no tile of ink near its size, is a plain light thing far larger than the tiles: a
    # kettle, a sheet, a cup from above (scales.giants). Shrunk to the classifier's 64 px, a plain
    # thing is a blank face at any scale, so its size beside the tiles is all that tells it from
    # one. training.plain_things: plain shapes 2-5 times the tiles' size read as haku on 21 of 150
    # staged photos, none with this; no reading of any other suite changes at 1.6 or 2.5
    # (models/HISTORY.md, "A plain light thing read as haku"). None: off
    giant: float | None = 1.6
    # when one or two tiles are read, each read less surely than lookalike_sure is one more of a
    # kind of thing read as no tile if at least lookalike_least boxes within this factor of its size
    # are read as no tile, more than the tiles of that size: seven playing cards, six read as no
    # tile and a ten of diamonds as 0s at 0.92; dominoes, a blank half read as haku. At 1.5 a card
    # turned, boxed larger, is caught too, but a shaken photo of a kitchen counter loses the two
    # tiles it read among jars and handles. Tiles smaller than the first pass boxes well
    # (scales.ScaleRule.small) are not judged: far off, they are the size of the table's flecks
    # (scales.lookalikes; models/HISTORY.md, "One or two tiles among things read as no tile"). None: off
    lookalike: float | None = 1.3
    lookalike_least: int = 3
    lookalike_sure: float = 0.97
    # a photo whose tiles' tops point left or right (a hand photographed from a seat beside it)
    # is read again turned a quarter, tops up, when at least this share of its faces point left
    # or right (quarter_turn: drawn hands and rows turned a quarter, 0.89 and more; upright, 0.05 or
    # less; 35 of the 766 real photos, trays, mats and hands taken sideways, 0.8 or more, and two
    # more from 0.7); None: off
    quarter_turn: float | None = 0.8
    # the passes are planned again from the tiles read (retile) when all the boxes measure more
    # than this factor larger than those: things larger than tiles (a kettle, jugs, cupboard doors,
    # boxed at 512 px and read as no tile) set the first plan's size (a dev photo's kitchen: 31 px,
    # its standing tiles 22 px, two of them never boxed); None: off
    retile: float | None = 1.25
    # when nothing at all is read as a tile, the whole frame is detected again as finely as the
    # photo allows (up to scales.ScaleRule.max_side), and only that pass's boxes under this many
    # detector pixels at the first pass's scale count: tiles too small for the first pass to box
    # (under 16 px it finds none of them: ScaleRule.small), beside larger things that set its plan
    # (a dev kitchen three times farther off: its cupboards boxed at 512 px, its nine tiles 6-8 px
    # there, none found; models/HISTORY.md, "Nothing read: the whole frame once more, finer"). None: off
    nothing_read: float | None = 16.0
    # what that pass reads is kept only when at least this many of its tiles are read at least
    # far_sure surely: a keyboard far off gave six keys read as tiles, one of them surely
    nothing_read_least: int = 3
    # a pass finer than the first, within the frame read, runs on the part of the frame around what
    # the first pass boxed: this many tile sizes beyond its boxes (pass_windows; the whole frame when
    # that is most of it, or when a few boxes are probed); None: every pass sees the whole frame
    pass_window: float | None = 3.0
    # a box read as a tile that is wider than a face across the way its top points (SPLIT_WIDE
    # times its height) and larger than one (SPLIT_LARGER) is read again as its two halves, and is
    # two tiles when each half reads a tile at least this surely and the two read differently
    # (split_faces): two tiles side by side in a close-up, or lying over each other in a pile,
    # boxed as one and read as one of them (models/HISTORY.md, "Two tiles boxed as one, read by
    # their halves"); None: off
    split_wide: float | None = 0.8
    # a box read unsurely (as no tile under even odds, and as no one tile at SPLIT_UNSURE_BELOW or
    # more), about as wide as long along the way its top points, is read again as its two halves
    # along it, and is two tiles when each half reads a tile at least this surely, the two
    # differently and neither as haku (split_faces): two tiles lying one above the other,
    # foreshortened, merged into one box that reads as neither (dev IMG_3100's 9m and 1z;
    # models/HISTORY.md, "Two tiles boxed as one, read by their halves"); None: off
    split_unsure: float | None = 0.7

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


DEFAULT_SETTINGS = Settings()
FAINT_AMONG = 8  # faint peaks among the tiles read at most (faint_boxes)
# a faint peak elsewhere is of the tiles' size when its box is this many times the median box's area
# (faint_boxes: of the boxes found; kept_tiles: of the tiles kept)
FAINT_SIZES = (0.5, 2.0)
FAINT_SHAPES = (0.5, 2.0)  # ...and as wide as this many times its height (a face upright or lying)


# -- the detector's map -------------------------------------------------------------------------

def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _clip(v: float, lo: float, hi: float) -> float:
    return lo if v < lo else hi if v > hi else v


def heat_cut(threshold: float) -> float:
    """The logit a cell's heat must reach to count at `threshold` (a probability): the sigmoid is
    monotonic, so the map's logits are compared with it."""
    if threshold <= 0:
        return -math.inf
    if threshold >= 1:
        return math.inf
    return math.log(threshold / (1 - threshold))


def decode(out: DetectorMap, gh: int, gw: int, threshold: float = 0.3, max_boxes: int = 150,
           stride: int = STRIDE, cells: Sequence[int] | None = None) -> list[tuple[float, float, float, float, float]]:
    """The (5, gh, gw) map, flat -> boxes [x1, y1, x2, y2, score] in network pixels, best first,
    after non-maximum suppression. A box is a cell whose heat is at least `threshold` and no less
    than any of its (up to eight) neighbours'. `cells`, when given, are the indices (ascending)
    of the first plane's cells looked at: any that hold every such cell (at or above
    `heat_cut(threshold)` and exceeded by no neighbour) give the same boxes as the whole plane
    (the server finds those with numpy, `pipeline.hot_cells`; the phone scans the plane here)."""
    plane = gh * gw
    if threshold >= 1:
        return []
    cut = heat_cut(threshold)
    peaks: list[tuple[float, int]] = []
    hot = ([i for i, v in enumerate(out[:plane]) if v >= cut] if cells is None  # the few cells above the cut, in one pass
           else [i for i in cells if out[i] >= cut])
    for i in hot:
        v = out[i]
        y, x = divmod(i, gw)
        peak = True
        for dy in (-1, 0, 1):
            yy = y + dy
            if yy < 0 or yy >= gh:
                continue
            for dx in (-1, 0, 1):
                xx = x + dx
                if (dy or dx) and 0 <= xx < gw and out[yy * gw + xx] > v:
                    peak = False
                    break
            if not peak:
                break
        if peak:
            peaks.append((_sigmoid(float(v)), i))
    peaks.sort(key=lambda p: -p[0])  # stable: equal scores keep the map's order
    boxes = []
    for score, i in peaks[:max_boxes]:
        y, x = divmod(i, gw)
        w = math.exp(_clip(float(out[plane + i]), -3, 6)) * stride
        h = math.exp(_clip(float(out[2 * plane + i]), -3, 6)) * stride
        cx = (x + float(out[3 * plane + i])) * stride
        cy = (y + float(out[4 * plane + i])) * stride
        boxes.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, score))
    keep = nms([b[:4] for b in boxes], [b[4] for b in boxes], 0.5)
    return [boxes[k] for k in keep]


def iou(a: Sequence[float], b: Sequence[float]) -> float:
    ix = (a[2] if a[2] < b[2] else b[2]) - (a[0] if a[0] > b[0] else b[0])  # min and max written out: a hot path
    iy = (a[3] if a[3] < b[3] else b[3]) - (a[1] if a[1] > b[1] else b[1])
    inter = ix * iy if ix > 0.0 and iy > 0.0 else 0.0
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / max(union, 1e-6)


def _best_first(scores: Sequence[float]) -> list[int]:
    return sorted(range(len(scores)), key=lambda i: -scores[i])


def nms(boxes: Sequence[Sequence[float]], scores: Sequence[float], threshold: float) -> list[int]:
    """Indices of the boxes kept by greedy non-maximum suppression, best score first."""
    keep: list[int] = []
    kept: list[Sequence[float]] = []
    for j in _best_first(scores):
        b = boxes[j]
        # `iou` inline, and only for boxes that overlap (it is 0 for the others): the same numbers
        for a in kept:
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3] and iou(a, b) > threshold:
                break
        else:
            keep.append(j)
            kept.append(b)
    return keep


def _overlap(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float, float] | None:
    """The rectangle where boxes `a` and `b` overlap, or None when they do not."""
    x1, y1 = max(a[0], b[0]), max(a[1], b[1])
    x2, y2 = min(a[2], b[2]), min(a[3], b[3])
    return (x1, y1, x2, y2) if x2 > x1 and y2 > y1 else None


def _area(r: Sequence[float] | None) -> float:
    return 0.0 if r is None else (r[2] - r[0]) * (r[3] - r[1])


def straddles(box: Sequence[float], code: str, kept: Sequence[Sequence[float]], kept_codes: Sequence[str],
              share: float) -> bool:
    """Whether `box` (read as `code`) lies over two of the `kept` boxes for `share` of its area,
    together, and is read as one of them: a box across the edge between two tiles."""
    area = max(_area(box), 1e-6)
    over: list[tuple[tuple[float, float, float, float], str]] = []
    for k, c in zip(kept, kept_codes):
        r = _overlap(box, k)
        if r is not None:
            over.append((r, c))
    for m in range(len(over)):
        for n in range(m + 1, len(over)):
            (ra, ca), (rb, cb) = over[m], over[n]
            if code in (ca, cb) and (_area(ra) + _area(rb) - _area(_overlap(ra, rb))) / area >= share:
                return True
    return False


def drop_duplicates(boxes: Sequence[Sequence[float]], scores: Sequence[float], threshold: float = 0.45,
                    contain: float = 0.8, codes: Sequence[str] | None = None,
                    same_contain: float | None = None, straddle: float | None = None) -> list[int]:
    """Indices to keep after removing boxes that mostly repeat a better one (a box that sits
    inside another for `contain` of its area, or overlaps it by `threshold`), best first. With
    `codes` (each box's reading) and `same_contain`: two boxes read as the same tile where the
    smaller lies over the other for `same_contain` of its area are one tile too. With `codes` and
    `straddle`: a box lying over two better ones for `straddle` of its area, read as one of them,
    lies across their edge (`straddles`)."""
    keep: list[int] = []
    # boxes apart (no overlap) repeat nothing, unless a bound of 0 or less makes any pair a repeat
    apart_differ = threshold >= 0 and contain >= 0 and (same_contain is None or same_contain > 0)
    for j in _best_first(scores):
        b = boxes[j]
        area = max((b[2] - b[0]) * (b[3] - b[1]), 1e-6)
        dup = False
        for i in keep:
            a = boxes[i]
            ix = (a[2] if a[2] < b[2] else b[2]) - (a[0] if a[0] > b[0] else b[0])  # min, max written out
            iy = (a[3] if a[3] < b[3] else b[3]) - (a[1] if a[1] > b[1] else b[1])
            if (ix <= 0.0 or iy <= 0.0) and apart_differ:
                continue
            ix, iy = max(0.0, ix), max(0.0, iy)
            if (iou(a, b) > threshold or ix * iy / area > contain
                    or (codes is not None and same_contain is not None and codes[i] == codes[j]
                        and ix * iy / min(area, max((a[2] - a[0]) * (a[3] - a[1]), 1e-6)) >= same_contain)):
                dup = True
                break
        if not dup and codes is not None and straddle is not None and len(keep) >= 2:
            dup = straddles(b, codes[j], [boxes[i] for i in keep], [codes[i] for i in keep], straddle)
        if not dup:
            keep.append(j)
    return keep


def softmax(row: Sequence[float]) -> list[float]:
    top = max(row)
    e = [math.exp(float(v) - top) for v in row]
    s = sum(e)
    return [v / s for v in e]


# -- tiles in rows --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Detection:
    """One tile as read: box in original-photo pixels, code ("0m", "back"...), confidence, the
    classifier's other readings, where the top of the tile points, and layout flags."""

    box: tuple[float, float, float, float]
    tile: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...] = ()
    orientation: int = 0
    orientation_confidence: float = 1.0
    sideways: bool = False
    score: float = 1.0  # the detector's
    # the player should check it: read less surely than recognition.hand.UNSURE, or changed or
    # flagged by the hand proposal (`assemble` sets it; the phone's pages only show it)
    unsure: bool = False
    # read from the photo turned (straighten: a row or faces aslant), the tile's outline as it lies
    # in the photo (four corners, original-photo pixels); `box` is the upright box around it. Empty
    # when read as the photo lies, or turned by whole quarters (the box is the outline then)
    outline: tuple[tuple[float, float], ...] = ()

    @property
    def face_down(self) -> bool:
        return self.tile == "back"

    @property
    def center(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return (x1 + x2) / 2, (y1 + y2) / 2

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": self.tile,
            "box": [round(v, 1) for v in self.box],
            "confidence": round(self.confidence, 4),
            "sideways": self.sideways,
            "face_down": self.face_down,
            "unsure": self.unsure,
            "alternatives": [{"tile": t, "confidence": round(p, 4)} for t, p in self.alternatives],
            **({"outline": [[round(x, 1), round(y, 1)] for x, y in self.outline]} if self.outline else {}),
        }


@dataclass(frozen=True)
class Layout:
    """Tiles in reading order and the rows (indices into `tiles`) they form; `up` is the
    orientation most tiles share (the direction the row is read in follows from it)."""

    tiles: tuple[Detection, ...]
    rows: tuple[tuple[int, ...], ...]
    up: int = 0
    lines: tuple[tuple[int, ...], ...] = field(default=())  # rows that share a line, as row indices


# a share of all the votes. Of the 210 photos of the comparison suites three tie within it:
# IMG_3108 (within 0.00003; upright on the server, turned on the phone before), and two validation
# photos of loose tiles (12 tiles; a whole table's 42), laid out upright since, their tiles the same
UPRIGHT_MARGIN = 0.001


def dominant_orientation(orient_probs: Sequence[Sequence[float]], weights: Sequence[float] | None = None,
                         margin: float = UPRIGHT_MARGIN) -> int:
    """The orientation most tiles share. Sideways tiles count against each other, so a pon with
    one turned tile still reads as upright. Upright (0), as a photo is mostly taken, unless another
    orientation wins by more than `margin` of all the votes: scattered tiles pointing every way
    can tie within a rounding error (IMG_3108: 2.4247 upright, 2.4245 left), and the phone's and
    the server's float arithmetic, a few ulps apart, must not lay them out in two orders."""
    if len(orient_probs) == 0:
        return 0
    votes = [0.0] * 4
    for k, p in enumerate(orient_probs):
        w = 1.0 if weights is None else float(weights[k])
        for j in range(4):
            votes[j] += float(p[j]) * w
    best = max(range(4), key=lambda j: (votes[j], -j))
    return best if votes[best] - votes[0] > margin * sum(votes) else 0


def _rotate(x: float, y: float, up: int) -> tuple[float, float]:
    """A point in the frame where the tiles' top points up: (along the row, across the row)."""
    if up == 0:
        return x, y
    if up == 1:  # tops point right: read top to bottom, "down the row" is towards -x
        return y, -x
    if up == 2:
        return -x, -y
    return -y, x


def layout(dets: Sequence[Detection], orient_probs: Sequence[Sequence[float]], gap: float = 0.3,
           across: float = 0.45) -> Layout:
    """Order tiles into rows. Two tiles join one row when they sit side by side (the gap between
    them under `gap` x the tile width) on one line (their centres across the row closer than
    `across` x the tile height). Rows are read top to bottom, each left to right, in the frame
    where the tiles stand upright; sideways tiles are those turned a quarter from that."""
    n = len(dets)
    if n == 0:
        return Layout((), (), 0, ())
    probs = [[float(v) for v in orient_probs[i]] for i in range(n)]
    faces = [d.tile != "back" for d in dets]
    up = dominant_orientation([p for p, f in zip(probs, faces) if f] if any(faces) else probs)
    rc = [_rotate((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2, up) for d in dets]
    wh = [(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in dets]
    along = [w if up in (0, 2) else h for w, h in wh]
    acr = [h if up in (0, 2) else w for w, h in wh]
    # a tile's height across the row: the short side for sideways tiles
    unit_w = float(median(min(a, c) for a, c in zip(along, acr)))
    unit_h = float(median(max(a, c) for a, c in zip(along, acr)))

    # sideways: turned a quarter from the row's "up"; face-down tiles go by their shape
    sideways = [(probs[i][(up + 1) % 4] + probs[i][(up + 3) % 4] > 0.5) if faces[i] else along[i] > acr[i] * 1.15
                for i in range(n)]

    def side_by_side(i: int, j: int) -> bool:
        d_along = abs(rc[i][0] - rc[j][0]) - (along[i] + along[j]) / 2
        d_across = abs(rc[i][1] - rc[j][1])
        # boxes may overlap a little (the detector's sizes are approximate), but two tiles
        # side by side have centres apart along the row
        apart = abs(rc[i][0] - rc[j][0]) > 0.3 * unit_w
        return d_along < gap * unit_w and apart and d_across < across * unit_h

    segs = [sorted(g, key=lambda k: rc[k][0]) for g in scales.clusters(n, side_by_side)]
    # lines: segments whose mean across-position agree, read top to bottom
    seg_y = [sum(rc[k][1] for k in s) / len(s) for s in segs]
    seg_x = [rc[s[0]][0] for s in segs]
    order = sorted(range(len(segs)), key=lambda k: seg_y[k])
    lines: list[list[int]] = []
    for k in order:
        if lines and abs(seg_y[k] - sum(seg_y[m] for m in lines[-1]) / len(lines[-1])) < 0.6 * unit_h:
            lines[-1].append(k)
        else:
            lines.append([k])
    seg_order: list[int] = []
    line_rows: list[tuple[int, ...]] = []
    for line in lines:
        line.sort(key=lambda k: seg_x[k])
        line_rows.append(tuple(range(len(seg_order), len(seg_order) + len(line))))
        seg_order.extend(line)
    tiles: list[Detection] = []
    rows: list[tuple[int, ...]] = []
    for k in seg_order:
        row = []
        for i in segs[k]:
            tiles.append(replace(dets[i], sideways=bool(sideways[i])))
            row.append(len(tiles) - 1)
        rows.append(tuple(row))
    return Layout(tuple(tiles), tuple(rows), up, tuple(line_rows))


# -- the hand is the row --------------------------------------------------------------------------

def _rank(p: Proposal, n_rows: int, n_tiles: int) -> tuple[int, int, int, int, int]:
    """Complete first, then the tile count nearest a winning hand's, then fewest readings changed,
    then fewest rows (a row is a hand; rows apart are less likely one), then most tiles."""
    return (1 if p.complete else 0, -abs(14 - 3 * len(p.melds) - len(p.concealed)), -len(p.changed), -n_rows, n_tiles)


def read_hand(readings: Sequence[TileReading], rows: Sequence[Sequence[int]],
              lines: Sequence[Sequence[int]] = ()) -> Proposal:
    """The hand the photo shows: of the rows (each alone, with a lone tile after it as the
    winning tile, with the other rows on its line, or all of them) together with the groups set
    apart as melds, the one that best makes a legal, complete hand, else the one whose tile count
    is nearest a winning hand's. Every tile outside it is listed in
    the proposal's `extra`: it is in the photo, not in the hand."""
    rows_: list[list[int]] = [list(r) for r in rows]
    rows = rows_
    rs = list(readings)
    _, slots, _ = find_melds(rows_, rs)
    meld_rows = {s.positions for s in slots}
    melds = [r for r in rows if tuple(r) in meld_rows]
    plain_rows = [k for k, r in enumerate(rows) if tuple(r) not in meld_rows]
    line_of = {r: k for k, line in enumerate(lines) for r in line}
    choices: list[list[int]] = []
    for k in sorted(plain_rows, key=lambda k: -len(rows[k]))[:6]:
        choices.append([k])
        nxt = k + 1
        if nxt in plain_rows and len(rows[nxt]) == 1 and line_of.get(nxt, -1) == line_of.get(k, -2):
            choices.append([k, nxt])
    for line in lines:
        on_line = [k for k in line if k in plain_rows]
        if len(on_line) > 1:
            choices.append(on_line)
    choices.append(plain_rows)  # every row: the hand when no row alone comes nearer to one
    best: Proposal | None = None
    best_rank: tuple[int, int, int, int, int] | None = None
    for choice in choices:
        picked = [rows_[k] for k in sorted(choice)] + melds
        p = propose(rs, picked)
        rank = _rank(p, len(choice), sum(len(rows[k]) for k in choice))
        if best_rank is None or rank > best_rank:
            best, best_rank = p, rank
    assert best is not None
    used = set(best.concealed) | {i for r in melds for i in r}
    extra = tuple(i for r in rows for i in r if i not in used)
    return replace(best, extra=extra)


def out_of_focus(sharpness: Sequence[float], below: float | None, least: int = 2) -> bool:
    """Whether a photo's tiles look out of focus: the median of their crops' sharpness (the
    classifier's `sharpness` output, one value per face-up tile other than haku) is under `below`. Fewer
    than `least` such tiles say too little to judge: no."""
    if below is None or len(sharpness) < least:
        return False
    return float(median(sharpness)) < below


# -- the whole reading ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Reading:
    tiles: tuple[Detection, ...]
    rows: tuple[tuple[int, ...], ...]
    proposal: Proposal | None
    message: str = ""
    notes: tuple[dict[str, Any], ...] = ()  # what the player should know about the photo ({id, params} details)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tiles": [t.to_json() for t in self.tiles],
            "rows": [list(r) for r in self.rows],
            "proposal": self.proposal.to_json() if self.proposal else None,
            "notes": list(self.notes),
        }
        if self.message:
            out["message"] = self.message
            if self.message == NO_TILES:
                out["detail"] = detail("photo_no_tiles")
        return out


def detect_boxes(out: DetectorMap, gh: int, gw: int, scale: float, width: int, height: int,
                 settings: Settings = Settings(), stride: int = STRIDE,
                 cells: Sequence[int] | None = None) -> list[tuple[float, float, float, float, float]]:
    """The detector's map -> boxes in the pixels of the image it was given (`scale` = network
    pixels per image pixel), clipped to the image (width x height). `cells`: as `decode`'s."""
    boxes = decode(out, gh, gw, settings.detect_threshold, settings.max_tiles, stride, cells)
    return [(_clip(x1 / scale, 0, width), _clip(y1 / scale, 0, height), _clip(x2 / scale, 0, width),
             _clip(y2 / scale, 0, height), s) for x1, y1, x2, y2, s in boxes]


# -- the extra passes (recognition.scales): planned here, run where the networks run --------------
#
# The server (recognition/pipeline.py) and the phone (static/js/photo/live-recognizer.js, the networks in
# recognize-worker.js) both ask these functions what to run next and hand the outputs back, so the
# plan and its rules exist once, in Python. The phone's JavaScript only runs the passes it is told.

FiveBox = tuple[float, float, float, float, float]


def _five(b: Sequence[float]) -> FiveBox:
    return (float(b[0]), float(b[1]), float(b[2]), float(b[3]), float(b[4]))


@dataclass(frozen=True)
class Turn:
    """A frame turned by `angle` degrees (counter-clockwise as seen, about its centre; OpenCV's
    sign) onto a canvas large enough to hold all of it, `turned` (w, h), the rest filled grey
    (FILL): `matrix` (2 x 3) takes a point of the frame of `size` (w, h) to the turned canvas."""

    angle: float
    size: tuple[int, int]
    turned: tuple[int, int]
    matrix: tuple[tuple[float, float, float], tuple[float, float, float]]

    FILL = 114  # the grey the networks' inputs are padded with (recognition.preprocess.fit_resize)

    def to_json(self) -> dict[str, Any]:
        return {"angle": self.angle, "size": list(self.size), "turned": list(self.turned),
                "matrix": [list(r) for r in self.matrix]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Turn:
        (a, b, c), (e, f, g) = d["matrix"]
        return cls(float(d["angle"]), (int(d["size"][0]), int(d["size"][1])), (int(d["turned"][0]), int(d["turned"][1])),
                   ((float(a), float(b), float(c)), (float(e), float(f), float(g))))

    def back(self, box: Sequence[float]) -> tuple[float, float, float, float]:
        """A box of the turned canvas in the frame: the upright box around its four corners turned
        back (a tile lying aslant in the photo is boxed as the labelled photos box it, and as a
        contributed correction must be)."""
        corners = self.corners_back(box)
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        return min(xs), min(ys), max(xs), max(ys)

    def corners_back(self, box: Sequence[float]) -> tuple[tuple[float, float], ...]:
        """The four corners of a box of the turned canvas, turned back into the frame: the tile's
        outline as it lies there (its top-left, top-right, bottom-right and bottom-left as read)."""
        (a, b, c), (d, e, f) = self.matrix
        det = a * e - b * d
        out = []
        for u, v in ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])):
            u, v = u - c, v - f
            out.append(((e * u - b * v) / det, (a * v - d * u) / det))
        return tuple(out)


def turn_frame(angle: float, width: int, height: int) -> Turn:
    """The Turn that levels a row found `angle` degrees aslant (scales.row_tilt) in a frame of
    width x height, or turns a frame a whole number of quarters (quarter_turn): about the frame's
    middle pixel, so that a quarter turn moves whole pixels and blurs none."""
    r = math.radians(angle)
    cos, sin = math.cos(r), math.sin(r)
    if abs(angle / 90.0 - round(angle / 90.0)) < 1e-9:  # cos(90 degrees) is 6e-17, not 0
        cos, sin = float(round(cos)), float(round(sin))
    w, h = int(width), int(height)
    tw, th = int(math.ceil(h * abs(sin) + w * abs(cos))), int(math.ceil(h * abs(cos) + w * abs(sin)))
    cx, cy = (w - 1) / 2, (h - 1) / 2  # pixel centres, as warpAffine counts them
    tx, ty = (tw - 1) / 2, (th - 1) / 2
    matrix = ((cos, sin, tx - cos * cx - sin * cy),
              (-sin, cos, ty + sin * cx - cos * cy))
    return Turn(float(angle), (w, h), (tw, th), matrix)


def straighten(boxes: Sequence[Sequence[float]], width: int, height: int, settings: Settings = Settings(),
               thumb: Sequence[int] | None = None, tw: int = 0, th: int = 0,
               sums: EdgeSums | None = None) -> Turn | None:
    """The Turn to read the photo again with (Settings.straighten), given the boxes found in it (in
    the pixels of the width x height image read): None when no row of tiles stands aslant by that
    much. The detector learned tiles standing level or upright, and boxes level or upright: a
    hand aslant is boxed with pieces of its neighbours and read with them (validation photos
    turned 20 degrees: hand rows read exactly 0.94 -> 0.50).

    With `thumb` (the frame shrunk to tw x th, flat RGB: thumb_size, as colour_cast has it), a
    frame with no row to go by, level or aslant (a close-up, a few tiles, a small pile), is turned
    by its faces' edges (face_tilt, Settings.face_tilt), when they are large enough to judge
    (TILT_FACE); `sums`, when given, works out face_tilt's sums for it (face_tilt's `sums`).
    A row found level keeps the frame level,
    whatever the edges say: a hand's row within `straighten` degrees of level, with a wall behind
    it aslant, was turned by the wall's edges."""
    if settings.straighten is None:
        return None
    five = [_five(b) for b in boxes]
    runs = scales.longest_runs(five, level=settings.straighten)
    tilt = scales.row_tilt(five, level=settings.straighten, runs=runs)
    if tilt is None and runs[1] < scales.ROW_LEAST and thumb is not None and settings.face_tilt is not None:
        size = scales.tile_size(five)
        edges = (face_tilt(thumb, tw, th, five, width, height, sums)
                 if size and size * tw / width >= TILT_FACE else None)
        if edges is not None and edges[1] >= settings.face_tilt:
            tilt = edges[0]
    if tilt is None or abs(tilt) < settings.straighten:
        return None
    return turn_frame(tilt, width, height)


LUMA = (299, 587, 114)  # luma x 1000 from red, green and blue (BT.601), in whole numbers


def _luma(thumb: Sequence[int], tw: int, y: int, c0: int, c1: int) -> list[int]:
    """Luma x 1000 of the flat RGB `thumb` (tw pixels wide) in row y, columns c0 to c1 - 1."""
    o = 3 * (y * tw + c0)
    rgb = thumb[o:o + 3 * (c1 - c0)]
    kr, kg, kb = LUMA
    return [kr * r + kg * g + kb * b for r, g, b in zip(rgb[0::3], rgb[1::3], rgb[2::3])]


TILT_PIXELS = 6000  # face_tilt looks at about this many thumbnail pixels at most, over all boxes
# faces smaller than this in the thumbnail (scales.tile_size: about 31 px in a 1008 px frame) are
# not turned by their edges: a few pixels hold their outline, and tiles that small were found by
# the probe or a finer pass, which the turned frame, larger than the frame, does not repeat as well
# (far_honours turned 20 degrees, its tiles 5 px there: 9 of 12 read as it lies, 2 turned)
TILT_FACE = 8.0


Span = tuple[int, int, int, int]  # thumbnail columns c1 to c2 - 1, rows r1 to r2 - 1
# the edge sums of each span (face_tilt's): given the spans and the step they are sampled at
EdgeSums = Callable[[Sequence[Span], int], list[tuple[complex, float]]]


def tilt_spans(tw: int, th: int, boxes: Sequence[Sequence[float]], width: int, height: int) -> tuple[list[Span], int]:
    """The parts of the tw x th thumbnail face_tilt looks at, one per box (frame pixels; the frame
    is width x height) three pixels or more each way, a pixel in from the thumbnail's edges, and the
    step it samples them at: about TILT_PIXELS pixels over all of them."""
    sx, sy = tw / width, th / height
    spans = []
    for b in boxes:
        c1, r1 = max(1, int(b[0] * sx)), max(1, int(b[1] * sy))
        c2, r2 = min(tw - 1, int(math.ceil(b[2] * sx))), min(th - 1, int(math.ceil(b[3] * sy)))
        if c2 - c1 >= 3 and r2 - r1 >= 3:
            spans.append((c1, r1, c2, r2))
    step = max(1, math.ceil(math.sqrt(sum((c2 - c1) * (r2 - r1) for c1, r1, c2, r2 in spans) / TILT_PIXELS)))
    return spans, step


def edge_sums(thumb: Sequence[int], tw: int, spans: Sequence[Span], step: int) -> list[tuple[complex, float]]:
    """For each span of the flat RGB `thumb` (tw pixels wide), sampled at every `step`-th column of
    every `step`-th row from its corner: the sums of g**4 / |g|**3 and of |g| over the pixels
    sampled, g the Sobel gradient of their luma (x 1000, LUMA) as a complex number, in the order
    a row after another, left to right. Pixels with no gradient add nothing.
    The server works out the same numbers with numpy (recognition.pipeline.thumb_edge_sums), in the
    same operations and the same order, so to the bit."""
    out = []
    for c1, r1, c2, r2 in spans:
        z, weight = 0j, 0.0
        # luma x 1000 of the span's columns c1 - 1 to c2 (each x in range(c1, c2, step) needs x - 1,
        # x and x + 1) in the rows around each sampled one: not the rows across every box's columns
        # (boxes spread over a scattered photo made those rows long)
        ys = range(r1, r2, step)
        grey = {y: _luma(thumb, tw, y, c1 - 1, c2 + 1) for y in {y + d for y in ys for d in (-1, 0, 1)}}
        # the columns x - 1, x and x + 1 of every x in range(c1, c2, step), as slices of those rows
        before, at, after = slice(0, c2 - c1, step), slice(1, c2 - c1 + 1, step), slice(2, c2 - c1 + 2, step)
        for y in ys:
            up, mid, down = grey[y - 1], grey[y], grey[y + 1]
            for u0, u1, u2, m0, m2, d0, d1, d2 in zip(up[before], up[at], up[after], mid[before], mid[after],
                                                      down[before], down[at], down[after]):
                gx = (u2 + 2 * m2 + d2) - (u0 + 2 * m0 + d0)
                gy = (d0 + 2 * d1 + d2) - (u0 + 2 * u1 + u2)
                if gx or gy:
                    g = complex(gx, gy)
                    m = abs(g)
                    g2 = g * g
                    z += g2 * g2 / (m * m * m)
                    weight += m
        out.append((z, weight))
    return out


def face_tilt(thumb: Sequence[int], tw: int, th: int, boxes: Sequence[Sequence[float]], width: int,
              height: int, sums: EdgeSums | None = None) -> tuple[float, float] | None:
    """(degrees, coherence): the angle, from level or upright, at which the edges inside `boxes`
    (frame pixels; the frame is width x height, shrunk to the tw x th flat RGB `thumb`) run, signed
    as scales.row_tilt's, and how much they agree (0 to 1), or None with no box to judge.

    A tile's outline and most of its strokes run along its sides, square to each other: the
    brightness gradients (Sobel) inside a box, each as its direction taken four times (so that
    directions a quarter turn apart count as one) and weighted by its strength, average to the
    face's angle; the frame's is the mean of its boxes', each box counting once. Tiles level give
    about 0 (the dev photos and hard cases as taken: within 4 degrees); tiles lying every way give
    a low coherence (a loose pile: 0.1-0.2); a close-up turned 20 or 35 degrees gives its angle to
    within 2 degrees at a coherence of 0.25-0.55.

    `sums`: what works out edge_sums' numbers for the boxes' spans (tilt_spans), when the caller
    has a faster way (the server: recognition.pipeline.thumb_edge_sums, with numpy); by default
    edge_sums, pixel by pixel."""
    if tw < 3 or th < 3 or width <= 0 or height <= 0:
        return None
    spans, step = tilt_spans(tw, th, boxes, width, height)
    if not spans:
        return None
    total = 0j
    for z, weight in (sums or (lambda sp, st: edge_sums(thumb, tw, sp, st)))(spans, step):
        if weight > 0:
            total += z / weight
    z = total / len(spans)
    if z == 0:
        return None
    return math.degrees(math.atan2(z.imag, z.real) / 4), abs(z)


QUARTER_FACES = 3.0  # a frame of fewer faces than about this is not judged turned (quarter_turn)


def quarter_turn(probs: Sequence[Sequence[float]], orient: Sequence[Sequence[float]], labels: Sequence[str],
                 reject_label: str, width: int, height: int, turn: Turn | None = None,
                 settings: Settings = Settings()) -> tuple[Turn, Turn] | None:
    """How to read a frame again, tops up, when its tiles lie turned a quarter (a hand
    photographed from a seat beside it: the row runs down the photo, every top pointing left or
    right), or None. Judged on the boxes read as a face, each counted by how surely it is a tile:
    at least Settings.quarter_turn of their orientation share must point left or right, and the
    frame is turned the way more of it points.
    The detector and the classifier learned hands mostly upright: turned a quarter, rows of pinzu
    in other drawings read exactly fell from 34 to 16 and 19 of 48 (models/HISTORY.md, "Hands seen
    from a seat beside them").

    The frame read is width x height, the photo as taken turned by `turn` (straighten), if it
    was. The answer: the Turn of the photo as taken (for assemble), and the quarter turn of the
    frame read that gives the same picture. None too once a frame was read turned a quarter."""
    if settings.quarter_turn is None or not probs or (turn is not None and abs(turn.angle) > 45.0):
        return None
    reject = list(labels).index(reject_label) if reject_label in labels else -1
    not_faces = set(_blank_classes(labels, reject_label) + [k for k, c in enumerate(labels) if c == "back"])
    votes = [0.0] * 4
    for p, o in zip(probs, orient):
        top = max(range(len(p)), key=lambda k: (p[k], -k))
        if top in not_faces:
            continue
        w = 1.0 - (float(p[reject]) if reject >= 0 else 0.0)
        for j in range(4):
            votes[j] += w * float(o[j])
    total = sum(votes)
    if total < QUARTER_FACES:
        return None
    if votes[1] + votes[3] < settings.quarter_turn * total:
        return None
    # which way matters little where the tiles look alike either way (pinzu): a hand upside down
    # reads as well as upright
    side = 1 if votes[1] >= votes[3] else 3
    # tops pointing right: turned a quarter anticlockwise (OpenCV's positive angle) they point up
    quarter = 90.0 if side == 1 else -90.0
    w0, h0 = turn.size if turn is not None else (int(width), int(height))
    return turn_frame((turn.angle if turn else 0.0) + quarter, w0, h0), turn_frame(quarter, width, height)


# -- the light's colour ----------------------------------------------------------------------------

# The tiles' faces in the real photos' train split as taken: red / green and blue / green of their
# brightest part, ivory a little warm. Measured with colour_cast's first form (the median of every
# box, not of the brighter half); colour_cast as it is gives 1.017 and 0.958 over the split's 617
# photos (615 with three faces or more), from 5% to 95% of them 0.989-1.057 and 0.911-1.009: the
# same within half a per cent, well inside Settings.colour_cast.
FACE_CHROMA = (1.021, 0.958)
CAST_BRIGHT = 0.25  # of a box's middle, its brightest quarter is the face (not its ink)
CAST_BOXES = 40  # the best boxes of the first pass, at most, judge the light
CAST_PIXELS = 256  # pixels of a box's middle looked at, about, at most
CAST_MOST = math.log(2.5)  # a channel's gain beyond this is no light's: a photo of backs, say
# a correction whose gains all lie within this (log) of 1 is not made: a few per cent changes no
# reading, and would cost a second reading of the photo (a dev hand row 4.7% off was read twice);
# 10% left the dim condition's mild warm cast uncorrected (validation dimmed 0.980 -> 0.974)
CAST_LEAST = 0.05
CAST_PLAUSIBLE = ((0.5, 2.0), (0.4, 2.0))  # a box whose bright part's r/g or b/g lies outside is no face
FACE_LUMA = 200.0  # faces too dark (Settings.dim_faces) are brightened to this (the real photos' median: 214)
DIM_MOST = 2.5  # at most this many times


def thumb_size(width: int, height: int, settings: Settings = Settings()) -> tuple[int, int]:
    """The size of the copy of a width x height frame that colour_cast is given (its long side
    Settings.cast_thumb, never larger than the frame), in whole-number arithmetic, so that the
    phone makes the same copy (frame-tensors.js resizeArea, OpenCV's area shrink here)."""
    side = max(int(width), int(height), 1)
    top = min(int(settings.cast_thumb), side)
    return max(1, int(width) * top // side), max(1, int(height) * top // side)


def _face_tint(thumb: Sequence[int], tw: int, th: int, box: Sequence[float], sx: float, sy: float) -> tuple[float, float, float] | None:
    """(r/g, b/g, luma) of the brightest CAST_BRIGHT of the middle of `box` (frame pixels) in the
    thumbnail (flat RGB, tw x th; sx, sy: thumbnail pixels per frame pixel), None when it is no face."""
    x1, y1, x2, y2 = float(box[0]) * sx, float(box[1]) * sy, float(box[2]) * sx, float(box[3]) * sy
    mx, my = 0.2 * (x2 - x1), 0.2 * (y2 - y1)
    c1, r1 = max(0, int(round(x1 + mx))), max(0, int(round(y1 + my)))
    c2, r2 = min(tw, max(int(round(x2 - mx)), c1 + 1)), min(th, max(int(round(y2 - my)), r1 + 1))
    if c1 >= c2 or r1 >= r2:
        return None
    step = max(1, math.ceil(math.sqrt((c2 - c1) * (r2 - r1) / CAST_PIXELS)))  # a close-up's faces: every few pixels
    red: list[int] = []
    green: list[int] = []
    blue: list[int] = []
    for y in range(r1, r2, step):  # a row's channels sliced out whole (bytes, memoryview or list)
        o1, o2 = 3 * (y * tw + c1), 3 * (y * tw + c2)
        red += thumb[o1:o2:3 * step]
        green += thumb[o1 + 1:o2:3 * step]
        blue += thumb[o1 + 2:o2:3 * step]
    kr, kg, kb = LUMA
    luma = [kr * r + kg * g + kb * b for r, g, b in zip(red, green, blue)]  # x 1000
    top = sorted(range(len(luma)), key=luma.__getitem__, reverse=True)[:max(1, int(len(luma) * CAST_BRIGHT))]
    n = len(top)
    r = sum(red[i] for i in top) / n
    g = sum(green[i] for i in top) / n
    b = sum(blue[i] for i in top) / n
    if g < 8:
        return None
    (rlo, rhi), (blo, bhi) = CAST_PLAUSIBLE
    if not (rlo < r / g < rhi and blo < b / g < bhi):
        return None
    return r / g, b / g, sum(luma[i] for i in top) / n / 1000


def colour_cast(thumb: Sequence[int], tw: int, th: int, boxes: Sequence[Sequence[float]], width: int, height: int,
                settings: Settings = Settings(), fewest: int = 3) -> tuple[float, float, float] | None:
    """The gains (red, green, blue; green 1 but in a dim room) that take the light's colour off a
    photo, judged on its tiles' faces (Settings.colour_cast), or None to read it as it is. `thumb`: the photo's
    pixels shrunk to tw x th (thumb_size), flat RGB; `boxes`: the first detector pass's, in the
    pixels of the width x height photo. Each of the best CAST_BOXES boxes gives the colour of the
    brightest part of its middle (a face's ivory, not its ink); the brighter half of them (faces
    are brighter than the coloured backs of face-down tiles) give the photo's by their median.
    When its gap to FACE_CHROMA, less Settings.colour_cast (the spread of photos as taken), is
    CAST_LEAST or more, the gains take off that gap (Settings.cast_whole), or that gap less the
    spread; a gap wider than CAST_MOST is no light's colour, and nothing is taken off. Faces
    darker than Settings.dim_faces are brightened too, all three gains alike (a dim room).
    A lamp's warm light (validation photos under it: read exactly 0.79 -> 0.52) turns ivory to
    orange, which the networks learned little of. `fewest`: the faces it takes to judge: three of
    a photo's first boxes, or one of the faces filling a close-up (`whole_tiles`), whose pieces
    (pips, strokes: ink, not ivory) judged it first."""
    if settings.colour_cast is None or tw < 1 or th < 1 or len(thumb) < 3 * tw * th:
        return None
    sx, sy = tw / max(float(width), 1.0), th / max(float(height), 1.0)
    best = sorted(boxes, key=lambda b: -float(b[4]) if len(b) > 4 else 0.0)[:CAST_BOXES]
    tints = [t for t in (_face_tint(thumb, tw, th, b, sx, sy) for b in best) if t is not None]
    if len(tints) < max(1, fewest):
        return None
    tints.sort(key=lambda t: -t[2])
    faces = tints[:max(3, (len(tints) + 1) // 2)]
    logs = [math.log(FACE_CHROMA[0] / median(t[0] for t in faces)), math.log(FACE_CHROMA[1] / median(t[1] for t in faces))]
    if max(abs(v) for v in logs) > CAST_MOST:
        return None
    luma = median(t[2] for t in faces)
    brighten = 1.0 if settings.dim_faces is None or luma >= settings.dim_faces else min(DIM_MOST, FACE_LUMA / max(luma, 1.0))
    dead = float(settings.colour_cast)
    red, blue = (math.copysign(max(0.0, abs(v) - dead), v) for v in logs)
    if max(abs(red), abs(blue)) < CAST_LEAST:
        red = blue = 0.0  # no light's colour to take off
        if brighten == 1.0:
            return None
    elif settings.cast_whole:
        red, blue = logs
    return math.exp(red) * brighten, brighten, math.exp(blue) * brighten


def cast_table(gains: Sequence[float]) -> list[int]:
    """The lookup table that applies `gains` to 8-bit RGB: 768 values, red's 256, then green's,
    then blue's, each value times its channel's gain, rounded half up, at most 255. The phone
    applies the same table (recognize-worker.js `tint`); here cv2.LUT does (pipeline.tinted)."""
    return [min(255, int(math.floor(v * float(k) + 0.5))) for k in gains[:3] for v in range(256)]


def rescan_sides(boxes: Sequence[Sequence[float]], scale: float, width: int, height: int,
                 settings: Settings = Settings(), available: int | None = None) -> list[int]:
    """The detector input long sides to run again at (Settings.multi_scale), given the first pass's
    `boxes` (in the pixels of the width x height image it read) found at `scale` (detector pixels
    per image pixel): where the tiles have the size the detector learned. `available` is the long
    side of the largest copy of the photo the reader can get (the photo as taken; by default the
    image read): a side larger than the image read is run on a finer copy (a row of tiles across
    the table, 20 px wide in a 1008 px copy of a 12 MP photo, is 80 px wide in the photo). Empty
    when there is no need, or multi_scale is off."""
    if not settings.multi_scale:
        return []
    first = [_five(b) for b in boxes]
    size = scales.tile_size(first)
    work_side = max(int(width), int(height))
    top = max(work_side, int(available)) if available else work_side
    return scales.rescan_sides(size * scale if size else None, round(work_side * scale), top, count=len(first),
                               copy_side=work_side)


PASS_WINDOW_MOST = 0.7  # a window over more of the frame than this share: the whole frame is read


@dataclass(frozen=True)
class PassWindow:
    """A detector pass run on part of the frame: `window` (x1, y1, x2, y2, whole pixels of the frame
    read), its long side brought to `long_side` detector pixels (the pass's scale over the frame)."""

    window: tuple[int, int, int, int]
    long_side: int

    def to_json(self) -> dict[str, Any]:
        return {"window": list(self.window), "long_side": self.long_side}


def pass_windows(boxes: Sequence[Sequence[float]], scale: float, width: int, height: int, sides: Sequence[int],
                 settings: Settings = Settings(), region: Sequence[float] | None = None) -> list[PassWindow | None]:
    """For each of `sides` (rescan_sides', or a retile's), the part of the frame its pass needs to
    see, or None for the whole frame. A pass finer than the first (`boxes`, found at `scale`)
    finds what the first saw too small to box well, where it boxed things: its window is the
    first pass's boxes (or `region`, a retile's), and Settings.pass_window tile sizes round them.
    The whole frame when the pass is not finer than the first, or needs a finer copy than the
    frame (`sides` above its long side), when a few boxes are probed (scales.probing: a far row's
    blobs, its other tiles anywhere), when the window would hold over PASS_WINDOW_MOST of the
    frame, or with the setting off. A tile the window cuts is boxed in part: window_boxes drops
    what touches its edge, and the reach keeps the tiles round the boxes inside it."""
    whole: list[PassWindow | None] = [None] * len(sides)
    first = [_five(b) for b in boxes]
    size = scales.tile_size(first)
    if settings.pass_window is None or size is None or scales.probing(len(first), size * scale):
        return whole
    reach = settings.pass_window * size
    x1, y1, x2, y2 = region if region is not None else (min(b[0] for b in first), min(b[1] for b in first),
                                                         max(b[2] for b in first), max(b[3] for b in first))
    window = (max(0, math.floor(x1 - reach)), max(0, math.floor(y1 - reach)),
              min(int(width), math.ceil(x2 + reach)), min(int(height), math.ceil(y2 + reach)))
    ww, wh = window[2] - window[0], window[3] - window[1]
    if ww <= 0 or wh <= 0 or ww * wh > PASS_WINDOW_MOST * width * height:
        return whole
    frame_side, first_side = max(int(width), int(height)), round(max(width, height) * scale)
    return [PassWindow(window, max(1, round(max(ww, wh) * s / frame_side))) if first_side < s <= frame_side else None
            for s in sides]


def window_boxes(boxes: Sequence[Sequence[float]], window: Sequence[int], width: int, height: int) -> list[FiveBox]:
    """A windowed pass's boxes (in the window's pixels) in the frame's (width x height), without
    those touching an edge of the window that is not the frame's: a tile the window cuts, boxed
    in part."""
    x1, y1, x2, y2 = (int(v) for v in window)
    w, h = x2 - x1, y2 - y1
    return [(b[0] + x1, b[1] + y1, b[2] + x1, b[3] + y1, b[4]) for b in (_five(b) for b in boxes)
            if not ((x1 > 0 and b[0] <= 1) or (y1 > 0 and b[1] <= 1) or (x2 < width and b[2] >= w - 1)
                    or (y2 < height and b[3] >= h - 1))]


RETILE_REACH = 3.0  # the new passes' boxes count this many tile sizes around the tiles read, no farther


@dataclass(frozen=True)
class Retile:
    """Detect again at `sides` (detector input long sides), keeping the new passes' boxes whose
    centre lies in `region` (x1, y1, x2, y2 in the frame's pixels): where the tiles read are."""

    sides: tuple[int, ...]
    region: tuple[float, float, float, float]
    windows: tuple[PassWindow | None, ...] = ()  # each side's part of the frame (pass_windows), None: all of it
    # nothing was read (Settings.nothing_read): the new passes' boxes count only up to this side
    # (the frame's pixels), and the tiles read from them only as believed() says
    largest: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"sides": list(self.sides), "region": list(self.region),
                "windows": [None if w is None else w.to_json() for w in self.windows], "largest": self.largest}


def retile(boxes: Sequence[Sequence[float]], probs: Sequence[Sequence[float]], labels: Sequence[str],
           reject_label: str, scale: float, width: int, height: int, settings: Settings = Settings(),
           available: int | None = None, faint: int = 0, kept: Sequence[int] | None = None) -> Retile | None:
    """The passes to run again once the boxes are read (`probs`), when all the boxes (the last
    `faint`, faint peaks, left out) measure more than Settings.retile times the tiles read (the
    boxes `assemble` keeps: kept_tiles): the first plan went by a size that things larger than
    tiles set (a kitchen's kettle and cupboard doors, boxed and then read as no tile), and saw the
    tiles too small to box them all. (Specks smaller than the tiles, flecks of a granite counter,
    plan a finer pass that finds the tiles anyway: no pass is asked for them.)

    The sides are planned as rescan_sides plans them, from the tiles; `boxes` and `scale` as it
    takes them (the first pass's scale). Their boxes count within RETILE_REACH tile sizes of the
    tiles read (what lies farther is what set the first plan). None when the boxes are not that
    much larger, the tiles' plan runs no pass, or retile is off. The reader detects again (the
    first pass kept), reads the boxes again, and does not ask twice. When no box is read as a tile,
    the whole frame once more as finely as it can be had (Settings.nothing_read: _nothing_read).
    `kept`: kept_tiles' answer, when the caller has it (it hands the same to `assemble`)."""
    if not settings.multi_scale:
        return None
    if kept is None:
        kept = kept_tiles(boxes, probs, labels, reject_label, (width, height), settings, faint)
    if not kept:
        return _nothing_read(scale, width, height, settings, available)
    if settings.retile is None:
        return None
    every = [_five(b) for b in boxes[:len(boxes) - faint]]
    tiles = [_five(boxes[i]) for i in kept]
    size_all, size_tiles = scales.tile_size(every), scales.tile_size(tiles)
    if not size_all or not size_tiles or size_tiles * settings.retile >= size_all:
        return None
    sides = rescan_sides(tiles, scale, width, height, settings, available)
    if not sides:
        return None
    reach = RETILE_REACH * size_tiles
    region = (max(0.0, min(b[0] for b in tiles) - reach), max(0.0, min(b[1] for b in tiles) - reach),
              min(float(width), max(b[2] for b in tiles) + reach), min(float(height), max(b[3] for b in tiles) + reach))
    return Retile(tuple(sides), region, tuple(pass_windows(tiles, scale, width, height, sides, settings, region)))


def _nothing_read(scale: float, width: int, height: int, settings: Settings,
                  available: int | None) -> Retile | None:
    """Nothing was read as a tile: the whole frame detected again at the finest side the photo
    allows (the copy `available`, else the frame; at most ScaleRule.max_side, as any pass: at the
    photo's 2016 px a dev kitchen three times farther off reads 7 of its 9 tiles, not 3, but a 12 MP
    photo's pass at 2048 px peaked at 390 MB against 300 allowed), its boxes counting up to
    Settings.nothing_read detector pixels at the first pass's `scale`. None when that is off or no
    finer pass is to be had (less than 1.25 times the first pass's side, as rescan_sides judges)."""
    if settings.nothing_read is None:
        return None
    work = max(int(width), int(height))
    side = min(scales.DEFAULT_RULE.max_side, max(work, int(available)) if available else work)
    if side < 1.25 * work * scale:
        return None
    return Retile((side,), (0.0, 0.0, float(width), float(height)), (None,), settings.nothing_read / scale)


def believed(kept: Sequence[int], probs: Sequence[Sequence[float]], labels: Sequence[str], reject_label: str,
             settings: Settings = Settings(), nothing_read: bool = False) -> list[int]:
    """The tiles `kept` (kept_tiles') of a frame detected again as a retile asked: all of them,
    unless the retile was asked because nothing had been read (Retile.largest; `nothing_read`) and
    fewer than Settings.nothing_read_least of them are read at least Settings.far_sure surely;
    then none: what the finest pass finds in a frame of no tile is the keys and flecks boxed too."""
    if not nothing_read or not kept:
        return list(kept)
    reject = list(labels).index(reject_label) if reject_label in labels else -1
    sure = sum(1 for i in kept if _as_tile(probs[i], reject)[1] >= settings.far_sure)
    return list(kept) if sure >= settings.nothing_read_least else []


def merge_detections(passes: Sequence[tuple[Sequence[Sequence[float]], float]],
                     settings: Settings = Settings(),
                     region: Sequence[float] | None = None, largest: float | None = None) -> list[FiveBox]:
    """One list of boxes, best score first, from the detector passes (each: its boxes in the
    image's pixels and its scale; the first pass first): the passes merged (scales.merge_passes)
    and (Settings.merge_fragments) parts of one tile merged or dropped (scales.merge_fragments),
    and (Settings.snap_rows) the short boxes of a row grown to its height (scales.snap_to_rows).
    With `region` (x1, y1, x2, y2; Retile.region), the later passes' boxes count only where their
    centre lies in it, and with `largest` (Retile.largest) only those whose side is at most that.
    The first pass's boxes, as given, when nothing changes them."""
    plain = [([_five(b) for b in boxes], float(scale)) for boxes, scale in passes]
    if region is not None:
        x1, y1, x2, y2 = (float(v) for v in region)
        top = math.inf if largest is None else float(largest)
        plain = plain[:1] + [([b for b in boxes if x1 <= (b[0] + b[2]) / 2 <= x2 and y1 <= (b[1] + b[3]) / 2 <= y2
                               and scales.side(b) <= top], scale) for boxes, scale in plain[1:]]
    if not plain:
        return []
    first = plain[0][0]
    merged = scales.merge_passes(plain) if len(plain) > 1 else first
    if settings.merge_fragments:
        merged = scales.merge_fragments(merged)
    if settings.snap_rows:
        merged = scales.snap_to_rows(merged)
    if merged == first:
        return first
    return sorted(merged, key=lambda b: -b[4])  # stable: equal scores keep their order


def _blank_classes(labels: Sequence[str], reject_label: str) -> list[int]:
    return [list(labels).index(c) for c in ("5z", reject_label) if c in labels]


def tall_faces(boxes: Sequence[Sequence[float]], probs: Sequence[Sequence[float]], labels: Sequence[str],
               reject_label: str, settings: Settings = Settings()) -> tuple[list[int], list[Box]]:
    """The boxes to read again from their lower part (Settings.tall_faces), and the crop boxes to
    read (`tall_plan`'s first two)."""
    idx, crops, _ = tall_plan(boxes, probs, labels, reject_label, settings)
    return idx, crops


def tall_plan(boxes: Sequence[Sequence[float]], probs: Sequence[Sequence[float]], labels: Sequence[str],
              reject_label: str, settings: Settings = Settings()) -> tuple[list[int], list[Box], list[int]]:
    """The boxes to read again from their lower part (Settings.tall_faces), the crop boxes to
    read, and those of the boxes measured down to their row's foot (Settings.tall_foot). A
    standing tile close to a low camera has a face far taller than wide, its engraving low and its
    upper part blank, and read whole it looks like haku: a box higher than scales.TALL x its width
    read whole as haku (or as no tile), or as a tile less surely than GROWN_UNSURE, is read again
    from its lower part (a tile's proportions, from the bottom up). A box whose foot stops short of
    its row's by FOOT_SHORT of its height or more is measured, and read, down to the row's foot:
    its reading from there counts only when sure (`reread_tall_faces`)."""
    if not settings.tall_faces:
        return [], [], []
    blank = _blank_classes(labels, reject_label)
    reject = list(labels).index(reject_label) if reject_label in labels else -1
    unsure: list[int] = []  # read whole as blank, or as a tile unsurely
    for i, p in enumerate(probs):
        top = max(range(len(p)), key=lambda k: (p[k], -k))
        if top in blank or _as_tile(p, reject)[1] < GROWN_UNSURE:
            unsure.append(i)
    feet = [float(b[3]) for b in boxes]
    if settings.tall_foot and unsure:  # the rows measured only when a box may be read again
        feet = _row_feet(boxes)
    idx: list[int] = []
    crops: list[Box] = []
    footed: list[int] = []
    for i in unsure:
        b = boxes[i]
        h = float(b[3]) - float(b[1])
        foot = feet[i] if feet[i] >= float(b[3]) + FOOT_SHORT * h else float(b[3])
        if _tall((b[0], b[1], b[2], foot)):
            w = float(b[2]) - float(b[0])
            idx.append(i)
            crops.append((float(b[0]), foot - w * scales.FACE_ASPECT, float(b[2]), foot))
            if foot > float(b[3]):
                footed.append(i)
    return idx, crops, footed


FOOT_SHORT = 0.1  # a box stops short of its row's foot when this share of its height or more is missing
FOOT_SURE = 0.9  # a box read down to its row's foot takes that reading only when it reads a tile this surely


def _row_feet(boxes: Sequence[Sequence[float]]) -> list[float]:
    """Each box's foot (its lower edge), or where its row's boxes end below when it stops short of
    them: the lower edges of the boxes grown to their row's height (scales.snap_to_rows, for any
    box lower than its neighbours)."""
    five = [(float(b[0]), float(b[1]), float(b[2]), float(b[3]), 0.0) for b in boxes]
    return [b[3] for b in scales.snap_to_rows(five, short=1.0)]


def _tall(b: Sequence[float]) -> bool:
    """A box far higher than a face is wide (scales.TALL): a standing tile with its blank top."""
    return float(b[3]) - float(b[1]) > scales.TALL * (float(b[2]) - float(b[0]))


def reread_tall_faces(probs: Sequence[Sequence[float]], idx: Sequence[int], again: Sequence[Sequence[float]],
                      labels: Sequence[str], reject_label: str, footed: Sequence[int] = ()) -> list[list[float]]:
    """`probs` with each tall face (`idx`, from `tall_faces`) given its lower part's reading
    (`again`, in the same order) when that reads a tile more surely than the whole did; a box read
    down to its row's foot (`footed`, from `tall_plan`), only when that reads a tile at FOOT_SURE or
    more: it was read beyond what the detector boxed."""
    reject = list(labels).index(reject_label) if reject_label in labels else -1
    out = [list(p) for p in probs]
    for k, i in enumerate(idx):
        a = [0.0 if j == reject else float(v) for j, v in enumerate(probs[i])]
        b = [0.0 if j == reject else float(v) for j, v in enumerate(again[k])]
        if max(b) > max(a) and (i not in footed or max(b) >= FOOT_SURE):
            out[i] = list(again[k])
    return out


GROWN_UNSURE = 0.75  # a box read as a tile less surely than this (given it is one) is read again grown
GROWN_SURE = 0.8  # a grown reading replaces the box's when it reads a tile at least this surely
GROWN_GAIN = 0.15  # and this much more surely than the box did
GROWN_MOST = 14  # boxes read again grown, at most (the least sure first): a hand's worth of crops, twice


def _as_tile(p: Sequence[float], reject: int) -> tuple[int, float]:
    """The tile a reading reads, and how surely given that it is a tile (no-tile left out)."""
    q = [0.0 if k == reject else float(v) for k, v in enumerate(p)]
    top = q.index(max(q))  # the first of equals
    return top, q[top] / max(sum(q), 1e-9)


UNLIT_NEAR = 4  # the faces nearest a blank that judge its light (unlit_blanks)
UNLIT_FACES = 16  # the surest faces, at most, that give the photo's faces' light
UNLIT_SURE = 0.8  # a face judges the light when read at least this surely as one tile (not haku, not a back)
# a blank is judged only when the classifier sees a back in it at least this much: a back that the
# light makes look blank keeps a trace of one (lamp_kan's grey backs 0.06 and 0.13), a blank face in
# a shadow none (0.02 and less: haku beyond a shadow's edge, `--perturb shadow`, are as dark beside
# the faces lit round them)
UNLIT_BACK = 0.035


@dataclass(frozen=True)
class Thumb:
    """The frame read, shrunk (thumb_size) as colour_cast and straighten are given it: `pixels`
    flat RGB, `size` its (w, h), `frame` the (w, h) of the frame it shrinks."""

    pixels: Sequence[int]
    size: tuple[int, int]
    frame: tuple[int, int]


def unlit_blanks(boxes: Sequence[Sequence[float]], probs: Sequence[Sequence[float]], labels: Sequence[str],
                 reject_label: str, thumb: Thumb | None, settings: Settings = Settings(),
                 turn: Turn | None = None) -> list[list[float]]:
    """`probs` with each box read as haku, with a trace of a back (UNLIT_BACK), whose face is lit
    less than Settings.unlit_blank of both the darkest of the UNLIT_NEAR faces nearest it and the
    photo's faces (their median) read as a back: its haku's and back's probabilities swapped. A
    face's light is the luma of the brightest quarter of its box's middle in `thumb` (_face_tint,
    as colour_cast measures it); the faces are the UNLIT_FACES boxes read surely as a tile other
    than haku or a back. `boxes` are in the pixels of the frame turned by `turn` when given (the
    thumbnail is of the frame before it)."""
    out = [list(p) for p in probs]
    if settings.unlit_blank is None or thumb is None or "5z" not in labels or "back" not in labels:
        return out
    labels = list(labels)
    blank, back = labels.index("5z"), labels.index("back")
    reject = labels.index(reject_label) if reject_label in labels else -1
    read = [_as_tile(p, reject) for p in probs]
    blanks = [i for i, (k, _) in enumerate(read) if k == blank and probs[i][back] >= UNLIT_BACK
              and (reject < 0 or probs[i][reject] < max(probs[i]))]
    if not blanks:
        return out
    (tw, th), (fw, fh) = thumb.size, thumb.frame
    sx, sy = tw / max(float(fw), 1.0), th / max(float(fh), 1.0)

    def light(i: int) -> float | None:
        b = boxes[i]
        tint = _face_tint(thumb.pixels, tw, th, turn.back(b) if turn is not None else b, sx, sy)
        return None if tint is None else tint[2]

    sure = sorted((i for i, (k, q) in enumerate(read) if k not in (blank, back) and q >= UNLIT_SURE
                   and (reject < 0 or probs[i][reject] < 0.5)), key=lambda i: -read[i][1])[:UNLIT_FACES]
    faces = [(i, v) for i in sure for v in (light(i),) if v is not None]
    if len(faces) < 2:
        return out
    photo = median(v for _, v in faces)
    for i in blanks:
        own = light(i)
        if own is None:
            continue
        cx, cy = (boxes[i][0] + boxes[i][2]) / 2, (boxes[i][1] + boxes[i][3]) / 2
        near = sorted(faces, key=lambda f: math.hypot((boxes[f[0]][0] + boxes[f[0]][2]) / 2 - cx,
                                                       (boxes[f[0]][1] + boxes[f[0]][3]) / 2 - cy))[:UNLIT_NEAR]
        if own < settings.unlit_blank * min(photo, min(v for _, v in near)):
            out[i][blank], out[i][back] = out[i][back], out[i][blank]
    return out


WHOLE_SIDE = 128  # the detector's long side for one or two tiles filling the frame (whole_side)
# each read as a tile at least this surely (whole_read), as any tile kept (Settings.min_confidence);
# under 0.8 it is shown to check (recognition.hand.UNSURE). It was 0.8: a 5s, a 6s and a 9s filling
# the frame, read whole at 0.69, 0.74 and 0.78, were read as nothing, where now they are shown to
# check (models/HISTORY.md, "A face boxed by its sticks, and read in its own light")
WHOLE_SURE = 0.5
WHOLE_FEW = 2  # boxes of that pass, at most
WHOLE_SHAPE = 1.3  # each box's height over width at least a face's (scales.FACE_ASPECT) over this
# ...and at most this: a face is boxed by its artwork when its edges are faint (a souzu's sticks,
# 1.8 to 2.4 times as high as wide; the square crop read about the box is the face's all the same),
# while two faces one above the other are 2.7 (models/HISTORY.md, "A face boxed by its sticks, and
# read in its own light")
WHOLE_TALL = 2.4
WHOLE_FLOOR = 0.15  # that pass's boxes under this share of the frame's shorter side are not judged
WHOLE_WITHIN = 0.8  # a box of that pass this much inside a larger one is part of its face
# the pass is asked only when at most WHOLE_FEW tiles other than haku are read this surely (given
# they are tiles; a 5m 99% of the photo's height was read as six haku, its bare patches, at 0.9 and more):
# of the 41 staged close-ups of photographed tiles that it reads right and the reader did not, none
# had more than one tile read so; of the 356 real photos (training and validation scenes, dev)
# read as up to ScaleRule.closeup_pieces tiles, 354 have three or more
WHOLE_PIECE = 0.9


def whole_side(probs: Sequence[Sequence[float]], labels: Sequence[str], reject_label: str,
               settings: Settings = Settings()) -> int | None:
    """The detector's long side for the pass that looks for one or two tiles filling the frame
    (Settings.whole_tiles), given the readings `probs` of the tiles kept: None when none is asked
    (off; more tiles than one or two tiles' pieces give, ScaleRule.closeup_pieces; or more than
    WHOLE_FEW read at WHOLE_PIECE or more as a tile other than haku: a face's pieces are read
    unsurely, or as haku, the bare patches between its strokes, and a hand's tiles surely)."""
    if settings.whole_tiles is None or len(probs) > scales.DEFAULT_RULE.closeup_pieces:
        return None
    labels = list(labels)
    reject = labels.index(reject_label) if reject_label in labels else -1
    read = [_as_tile(p, reject) for p in probs]
    if sum(q >= WHOLE_PIECE and labels[k] != "5z" for k, q in read) > WHOLE_FEW:
        return None
    return WHOLE_SIDE


def whole_tiles(coarse: Sequence[Sequence[float]], tiles: Sequence[Sequence[float]], size: tuple[int, int],
                settings: Settings = Settings()) -> list[int] | None:
    """Which boxes of the pass at `whole_side` (`coarse`, [x1, y1, x2, y2, score] in the pixels of
    a frame of `size`) may be the photo's tiles instead of the `tiles` read (their boxes, in the
    same pixels), to be read (whole_read); None to keep those (Settings.whole_tiles). One or two
    tiles filling the frame are boxed whole only at so coarse a scale: at the detector's own, their
    pip groups and strokes are boxed as tiles, or nothing is. Those boxes count when there are one
    or two of them (WHOLE_FEW; boxes under WHOLE_FLOOR of the frame's shorter side left out), each
    is a face standing upright (WHOLE_SHAPE: two upright tiles boxed as one look like a tile lying
    sideways; WHOLE_TALL: a face may be boxed by its sticks, narrower than it is) spanning
    Settings.whole_tiles of that side or more, and every tile read has its centre inside one of
    them. None too when the tiles read are those boxes already."""
    if settings.whole_tiles is None:
        return None
    short = min(size)
    big = [i for i, b in enumerate(coarse) if max(b[2] - b[0], b[3] - b[1]) >= WHOLE_FLOOR * short]
    # a box lying within another is part of its face (a 9p's upper rows boxed beside the whole tile)
    big = [i for i in big if not any(j != i and scales.area(coarse[j]) > scales.area(coarse[i])
                                     and scales.inside_share(coarse[i], coarse[j]) >= WHOLE_WITHIN for j in big)]
    if not 1 <= len(big) <= WHOLE_FEW:
        return None
    for i in big:
        x1, y1, x2, y2 = coarse[i][:4]
        aspect = (y2 - y1) / max(x2 - x1, 1e-9)
        if aspect < scales.FACE_ASPECT / WHOLE_SHAPE or aspect > WHOLE_TALL or max(x2 - x1, y2 - y1) < settings.whole_tiles * short:
            return None
    for t in tiles:
        cx, cy = (t[0] + t[2]) / 2, (t[1] + t[3]) / 2
        if not any(coarse[i][0] <= cx <= coarse[i][2] and coarse[i][1] <= cy <= coarse[i][3] for i in big):
            return None
    if len(tiles) == len(big) and all(any(scales.iou(coarse[i], t) >= 0.5 for t in tiles) for i in big):
        return None
    return big


def whole_read(probs: Sequence[Sequence[float]], labels: Sequence[str], reject_label: str) -> bool:
    """Whether the boxes `whole_tiles` gives, read as `probs`, are the photo's tiles: each read as
    a tile with ink (not haku, not a back: a plain light thing that size is no tile to go by) at
    WHOLE_SURE or more."""
    for p in probs:
        top = max(range(len(p)), key=lambda k: p[k])
        if labels[top] in (reject_label, "5z", "back") or p[top] < WHOLE_SURE:
            return False
    return bool(probs)


def grown_faces(boxes: Sequence[Sequence[float]], probs: Sequence[Sequence[float]], labels: Sequence[str],
                reject_label: str, settings: Settings = Settings(), up: int = 0,
                skip: Sequence[int] = ()) -> tuple[list[int], list[Box]]:
    """The boxes read as a tile, but less surely than GROWN_UNSURE (given that they are one), to
    read again from the box grown by Settings.grow_unsure x its height towards the tiles' bottom,
    and towards their top: each such box twice in the answer, its crop boxes in that order. A box
    cut to part of a face reads as another tile (a 6p boxed by its upper four pips as 8p, a 4p by
    two as 2p). `up`: where most tiles' tops point (dominant_orientation): a hand photographed
    turned a quarter is grown left and right, across its column. Never along the row, where its
    neighbours stand; not boxes read as blank, as a back or surely as no tile. At most GROWN_MOST
    boxes, the least sure: a photo of many unsure boxes (a heap, a table of discards) costs the
    phone no more than a hand's worth of crops twice. Not the boxes in `skip` either (the tall
    faces read again from their lower part: grown taller, a standing tile shows more blank top)."""
    if settings.grow_unsure is None:
        return [], []
    reject = list(labels).index(reject_label) if reject_label in labels else -1
    not_faces = _blank_classes(labels, reject_label) + [k for k, c in enumerate(labels) if c == "back"]
    unsure: list[tuple[float, int]] = []
    for i in range(len(boxes)):
        top, sure = _as_tile(probs[i], reject)
        if sure < GROWN_UNSURE and top not in not_faces and not (reject >= 0 and probs[i][reject] >= 0.5) \
                and i not in skip:
            unsure.append((sure, i))
    idx: list[int] = []
    crops: list[Box] = []
    for i in sorted(i for _, i in sorted(unsure)[:GROWN_MOST]):
        x1, y1, x2, y2 = (float(v) for v in boxes[i][:4])
        idx += [i, i]
        if up in (1, 3):  # the tiles lie turned a quarter: their height is across x
            more = settings.grow_unsure * (x2 - x1)
            crops += [(x1 - more, y1, x2, y2), (x1, y1, x2 + more, y2)] if up == 1 else \
                [(x1, y1, x2 + more, y2), (x1 - more, y1, x2, y2)]
        else:
            more = settings.grow_unsure * (y2 - y1)
            crops += [(x1, y1, x2, y2 + more), (x1, y1 - more, x2, y2)] if up == 0 else \
                [(x1, y1 - more, x2, y2), (x1, y1, x2, y2 + more)]
    return idx, crops


def reread_grown(probs: Sequence[Sequence[float]], idx: Sequence[int], again: Sequence[Sequence[float]],
                 labels: Sequence[str], reject_label: str) -> list[list[float]]:
    """`probs` with each box of `grown_faces` (`idx`) given the surest of its grown readings
    (`again`, in the same order) where that reads a face (not a back, not surely no tile) at
    least GROWN_SURE surely and GROWN_GAIN more surely than the box did. A grown box reaching a
    tile's yellow back behind it is no reason to call a face a back."""
    reject = list(labels).index(reject_label) if reject_label in labels else -1
    back = list(labels).index("back") if "back" in labels else -1
    out = [list(p) for p in probs]
    best: dict[int, tuple[float, list[float]]] = {}
    for k, i in enumerate(idx):
        top, sure = _as_tile(again[k], reject)
        if (reject >= 0 and again[k][reject] >= 0.5) or top == back:
            continue
        if i not in best or sure > best[i][0]:
            best[i] = (sure, [float(v) for v in again[k]])
    for i, (sure, p) in best.items():
        if sure >= GROWN_SURE and sure > _as_tile(probs[i], reject)[1] + GROWN_GAIN:
            out[i] = p
    return out


SCALED_VIEWS = (0.9, 1.12)  # the sizes, against its box, an unsure box is read again at (scaled_faces)
SCALED_OWN = 2.0  # the box's own reading counts as this many of the views in their average
SCALED_MOST = 8  # boxes read again at those sizes, at most (the least sure first; models/HISTORY.md, "Unsure crops read at three sizes")


def scaled_faces(boxes: Sequence[Sequence[float]], probs: Sequence[Sequence[float]], labels: Sequence[str],
                 reject_label: str, settings: Settings = Settings(),
                 skip: Sequence[int] = ()) -> tuple[list[int], list[Box]]:
    """The boxes whose best reading is a tile read less surely than Settings.scale_unsure, to read
    again from the box shrunk and grown about its centre by each of SCALED_VIEWS: each such box
    once per view in the answer, its crop boxes in that order. Not the boxes read best as no tile
    (the clutter of a photo: many, and what they are is not asked) or as a back (no artwork to
    confuse), nor those in `skip` (the tall faces read again from their lower part: the whole box,
    a little larger or smaller, shows the blank top all the same). At most SCALED_MOST boxes, the
    least sure: a heap of unsure boxes (a pile, a kitchen's clutter) costs no more than sixteen
    crops."""
    if settings.scale_unsure is None:
        return [], []
    not_faces = {k for k, c in enumerate(labels) if c in (reject_label, "back")}
    unsure = sorted((max(p), i) for i, p in enumerate(probs)
                    if p and max(p) < settings.scale_unsure and i not in skip and p.index(max(p)) not in not_faces)
    idx: list[int] = []
    crops: list[Box] = []
    for i in sorted(i for _, i in unsure[:SCALED_MOST]):
        x1, y1, x2, y2 = (float(v) for v in boxes[i][:4])
        cx, cy, hw, hh = (x1 + x2) / 2, (y1 + y2) / 2, (x2 - x1) / 2, (y2 - y1) / 2
        for f in SCALED_VIEWS:
            idx.append(i)
            crops.append((cx - f * hw, cy - f * hh, cx + f * hw, cy + f * hh))
    return idx, crops


def _given_a_tile(p: Sequence[float], reject: int) -> list[float]:
    """A reading given that the box is a tile: no tile left out, the rest summing to one."""
    q = [0.0 if k == reject else float(v) for k, v in enumerate(p)]
    total = sum(q)
    return [v / total for v in q] if total > 0 else q


def reread_scaled(probs: Sequence[Sequence[float]], idx: Sequence[int], again: Sequence[Sequence[float]],
                  labels: Sequence[str], reject_label: str) -> list[list[float]]:
    """`probs` with each box of `scaled_faces` (`idx`) read, given that it is a tile, as the average
    of its reading (counted SCALED_OWN times: the crop the detector boxed) and its scaled crops'
    (`again`, in the same order), each given that it is one; how surely it is no tile stays as the
    box read it (the views are asked which tile, not whether: a tile shrunk or grown shows less of
    itself or more of its neighbours)."""
    reject = list(labels).index(reject_label) if reject_label in labels else -1
    out = [list(p) for p in probs]
    read: dict[int, list[Sequence[float]]] = {}
    for k, i in enumerate(idx):
        read.setdefault(i, []).append(again[k])
    for i, more in read.items():
        own = _given_a_tile(out[i], reject)
        views = [_given_a_tile(m, reject) for m in more]
        none = float(out[i][reject]) if reject >= 0 else 0.0
        weight = SCALED_OWN + len(views)
        out[i] = [none if j == reject else (1 - none) * (SCALED_OWN * own[j] + sum(v[j] for v in views)) / weight
                  for j in range(len(out[i]))]
    return out


SPLIT_WIDE = (1.1, 1.6)  # how many times its height a box may be wide to be read again as two faces (split_faces)
# how many times as wide as long along its top a box read unsurely may be to be read again as two
# faces one above the other (split_faces, Settings.split_unsure; from SPLIT_WIDE[0] it is wide)
SPLIT_STACKED = 0.85
SPLIT_UNSURE_BELOW = 0.5  # a box whose best tile is read less surely than this is unsure (split_faces)
SPLIT_MOST = 8  # unsure boxes read again by their halves at most, the surest boxes of the detector first
# a box is read again by its halves only when this many times larger than the median box read as a
# tile, in a photo of three or more (two faces in one box are larger than one face)
SPLIT_LARGER = 1.25


def _top_tile(p: Sequence[float], not_tiles: Sequence[int]) -> tuple[int, float]:
    """The tile a reading reads best, no tile and a back left out, and its probability."""
    top = max((k for k in range(len(p)) if k not in not_tiles), key=lambda k: (p[k], -k))
    return top, float(p[top])


def split_faces(boxes: Sequence[Sequence[float]], probs: Sequence[Sequence[float]], labels: Sequence[str],
                reject_label: str, settings: Settings = Settings(), orient: Sequence[Sequence[float]] = (),
                faint: int = 0) -> tuple[list[int], list[Box], list[int]]:
    """The boxes to read again as their two halves: each such box twice in the answer, the crop
    boxes of its halves in that order, and which of the boxes are cut along their top's way (the
    others across it). No tile at even odds or more, and no back, is read so; nor are the last
    `faint` boxes (faint peaks: too faint to be one tile, let alone two).
    - Settings.split_wide: a box read best as a tile, SPLIT_WIDE[0] to SPLIT_WIDE[1] times as wide
      as high across the way its own orientation reading says its top points, cut across that
      width: one face is 0.75 times as wide as high, two side by side 1.5. A tile turned sideways
      in a row is read turned too, so it is not wide across its own top.
    - Settings.split_unsure: a box whose best tile is read less surely than SPLIT_UNSURE_BELOW,
      SPLIT_STACKED to SPLIT_WIDE[0] times as wide as long along its top's way, cut along it: two faces one
      above the other, foreshortened (tiles lying in a pile, seen low), merged into one box that
      reads as neither. At most SPLIT_MOST, in the boxes' order (the detector's surest first).
    Either only when the box is SPLIT_LARGER times larger than the median box read best as a tile,
    where three or more are."""
    if not orient:
        return [], [], []
    reject = list(labels).index(reject_label) if reject_label in labels else -1
    not_tiles = [k for k, c in enumerate(labels) if c in (reject_label, "back")]
    n = len(boxes) - faint
    tops = [max(range(len(p)), key=lambda k: (p[k], -k)) for p in probs[:n]]
    areas = [_area(boxes[i]) for i in range(n) if tops[i] not in not_tiles]
    least = SPLIT_LARGER * median(areas) if len(areas) >= 3 else 0.0
    idx: list[int] = []
    crops: list[Box] = []
    stacked: list[int] = []
    for i in range(n):
        p, top = probs[i], tops[i]
        if (reject >= 0 and p[reject] >= 0.5) or (top in not_tiles and top != reject) or _area(boxes[i]) < least:
            continue
        ratio = _across_along(boxes[i], orient[i])
        if settings.split_wide is not None and top != reject and SPLIT_WIDE[0] <= ratio <= SPLIT_WIDE[1]:
            idx += [i, i]
            crops += _cut(boxes[i], orient[i], False)
        elif settings.split_unsure is not None and len(stacked) < SPLIT_MOST and SPLIT_STACKED <= ratio < SPLIT_WIDE[0] \
                and _top_tile(p, not_tiles)[1] < SPLIT_UNSURE_BELOW:
            idx += [i, i]
            crops += _cut(boxes[i], orient[i], True)
            stacked.append(i)
    return idx, crops, stacked


def _up(orient: Sequence[float]) -> bool:
    """Whether an orientation reading says the top points up or down (not left or right)."""
    return max(range(len(orient)), key=lambda k: (orient[k], -k)) % 2 == 0


def _across_along(box: Sequence[float], orient: Sequence[float]) -> float:
    """How many times as wide as long `box` is, across and along the way its top points."""
    w, h = float(box[2]) - float(box[0]), float(box[3]) - float(box[1])
    across, along = (w, h) if _up(orient) else (h, w)
    return across / along if along > 0 else 0.0


def _cut(box: Sequence[float], orient: Sequence[float], along: bool) -> list[Box]:
    """`box`'s two halves: cut along the way its top points (upper and lower halves of a face
    standing up), or across it."""
    x1, y1, x2, y2 = (float(v) for v in box[:4])
    if _up(orient) != along:  # halves left and right
        mid = (x1 + x2) / 2
        return [(x1, y1, mid, y2), (mid, y1, x2, y2)]
    mid = (y1 + y2) / 2
    return [(x1, y1, x2, mid), (x1, mid, x2, y2)]


@dataclass(frozen=True)
class Rereads:
    """What `rereads` plans: the boxes of each kind of second reading (`tall_faces`, `grown_faces`,
    `scaled_faces`, `split_faces`; each box once per crop), and the crop boxes of all four, in that
    order."""

    tall: list[int]
    grown: list[int]
    scaled: list[int]
    split: list[int]
    crops: list[Box]
    stacked: list[int] = field(default_factory=list)  # the boxes of `split` cut along their top's way
    footed: list[int] = field(default_factory=list)  # the boxes of `tall` read down to their row's foot


def rereads(boxes: Sequence[Sequence[float]], probs: Sequence[Sequence[float]], labels: Sequence[str],
            reject_label: str, settings: Settings = Settings(),
            orient: Sequence[Sequence[float]] = (), faint: int = 0) -> Rereads:
    """What is read again after the first reading, planned here and run where the networks run
    (the server's pipeline, the phone's worker): tall faces from their lower part (`tall_faces`),
    unsure boxes grown across the tiles' rows (`grown_faces`, by the orientation most of the
    boxes' `orient` readings share), unsure boxes shrunk and grown about their centre
    (`scaled_faces`), then boxes that may hold two faces by their halves (`split_faces`; the last
    `faint` boxes are faint peaks)."""
    tall, tall_crops, footed = tall_plan(boxes, probs, labels, reject_label, settings)
    grown, grown_crops = grown_faces(boxes, probs, labels, reject_label, settings, dominant_orientation(orient), tall)
    scaled, scaled_crops = scaled_faces(boxes, probs, labels, reject_label, settings, tall)
    split, split_crops, stacked = split_faces(boxes, probs, labels, reject_label, settings, orient, faint)
    return Rereads(tall, grown, scaled, split, tall_crops + grown_crops + scaled_crops + split_crops, stacked, footed)


def reread(probs: Sequence[Sequence[float]], plan: Rereads, again: Sequence[Sequence[float]],
           labels: Sequence[str], reject_label: str) -> list[list[float]]:
    """`probs` after the readings of the crops `rereads` planned (`again`, in their order): tall
    faces and grown boxes first, then the scaled crops averaged with what those leave. (The
    split crops, last, are `read_again`'s.)"""
    n_tall, n_grown, n_scaled = len(plan.tall), len(plan.grown), len(plan.scaled)
    out = reread_tall_faces(probs, plan.tall, again[:n_tall], labels, reject_label, plan.footed)
    out = reread_grown(out, plan.grown, again[n_tall:n_tall + n_grown], labels, reject_label)
    return reread_scaled(out, plan.scaled, again[n_tall + n_grown:n_tall + n_grown + n_scaled], labels, reject_label)


@dataclass(frozen=True)
class ReadAgain:
    """The boxes after the rereads, with their readings: a box whose halves read two tiles is two
    boxes now, its halves, each with its half's reading and the box's orientation. `origin`: the
    box of the first reading each one comes from (for what else was measured per box)."""

    boxes: list[list[float]]
    probs: list[list[float]]
    orient: list[list[float]]
    origin: list[int]


def read_again(boxes: Sequence[Sequence[float]], probs: Sequence[Sequence[float]], orient: Sequence[Sequence[float]],
               plan: Rereads, again: Sequence[Sequence[float]], labels: Sequence[str], reject_label: str,
               settings: Settings = Settings()) -> ReadAgain:
    """The first reading after the crops `rereads` planned were read (`again`, in their order):
    `reread`'s readings, and each box of `split_faces` whose two halves read two different tiles
    cut in two: a wide box when each reads at least Settings.split_wide surely, an unsure one cut
    along its top when each reads at least Settings.split_unsure surely and neither as haku (a
    standing face's blank top reads as haku). A face cut in half reads as half a face (no tile, or
    unsurely), or as the same tile twice: a 4p as two 2p, a haku as two haku."""
    read = reread(probs, plan, again, labels, reject_label)
    halves: dict[int, tuple[list[float], list[float]]] = {}
    not_tiles = [k for k, c in enumerate(labels) if c in (reject_label, "back")]
    blank = list(labels).index("5z") if "5z" in labels else -1
    start = len(plan.crops) - len(plan.split)
    for k in range(0, len(plan.split), 2):
        i = plan.split[k]
        a, b = list(again[start + k]), list(again[start + k + 1])
        (ta, pa), (tb, pb) = _top_tile(a, not_tiles), _top_tile(b, not_tiles)
        sure = settings.split_unsure if i in plan.stacked else settings.split_wide
        if sure is not None and ta != tb and min(pa, pb) >= sure and not (i in plan.stacked and blank in (ta, tb)):
            halves[i] = (a, b)
    out = ReadAgain([], [], [], [])
    for i, box in enumerate(boxes):
        if i not in halves:
            out.boxes.append(list(box))
            out.probs.append(read[i])
            out.orient.append(list(orient[i]))
            out.origin.append(i)
            continue
        # the halves in the pixels of `boxes` (the crops may have been cut from a finer copy)
        for p, half in zip(halves[i], _cut(box, orient[i], i in plan.stacked)):
            out.boxes.append([*half, *box[4:]])
            out.probs.append(p)
            out.orient.append(list(orient[i]))
            out.origin.append(i)
    return out


def faint_boxes(out: DetectorMap, gh: int, gw: int, scale: float, width: int, height: int,
                boxes: Sequence[Sequence[float]], settings: Settings = Settings(),
                stride: int = STRIDE, cells: Sequence[int] | None = None) -> list[FiveBox]:
    """The detector's peaks too faint to be boxes (from Settings.faint_threshold up to
    detect_threshold) standing where a tile set apart from a row of the found `boxes` stands
    (scales.set_apart): a blank upright haku laid apart gives the detector little to see. They are
    classified with the boxes and given to `assemble` as its `faint` boxes: a tile only if read as
    one. Peaks lying among the tiles (scales.among_tiles) are read too when Settings.faint_sure is
    set; then, with Settings.faint_elsewhere, the strongest of the other peaks of the tiles' size
    too, last and with their score set to 0 (`elsewhere`): tiles only when read surely (kept_tiles).
    Empty when off (faint_threshold None, or both set_apart_reject and faint_sure None).
    `cells`: as `decode`'s, holding every peak at or above `heat_cut(Settings.faint_threshold)`."""
    if settings.faint_threshold is None or not boxes or (settings.set_apart_reject is None
                                                          and settings.faint_sure is None):
        return []
    low = replace(settings, detect_threshold=settings.faint_threshold)
    found = [_five(b) for b in boxes]
    faint = [b for b in detect_boxes(out, gh, gw, scale, width, height, low, stride, cells)
             if b[4] < settings.detect_threshold]
    every = found + faint
    kept, candidates = list(range(len(found))), list(range(len(found), len(every)))
    picked = set(scales.set_apart(every, kept, candidates)) if settings.set_apart_reject is not None else set()
    among: list[int] = []
    if settings.faint_sure is not None:  # the strongest few: each is one more crop to classify, on every camera frame
        among = scales.among_tiles(every, kept, candidates)
        picked.update(sorted(among, key=lambda i: -every[i][4])[:FAINT_AMONG])
    answer: list[FiveBox] = [every[i] for i in sorted(picked)]
    if settings.faint_sure is not None and settings.faint_elsewhere:
        least, most = (k * median(_area(b) for b in found) for k in FAINT_SIZES)
        placed = picked.union(among)
        rest = [i for i in candidates if i not in placed and least <= _area(every[i]) <= most and _face_shaped(every[i])
                and not any(scales.inside_share(every[i], every[j]) >= 0.3 for j in kept)]
        strongest = sorted(rest, key=lambda i: -every[i][4])[:int(settings.faint_elsewhere)]
        answer += [(every[i][0], every[i][1], every[i][2], every[i][3], 0.0) for i in sorted(strongest)]
    return answer


def _face_shaped(box: Sequence[float]) -> bool:
    """Whether a box is as wide as a face is, upright or lying (FAINT_SHAPES times its height): a
    strip along a tile's top or a table's edge is not."""
    w, h = float(box[2]) - float(box[0]), float(box[3]) - float(box[1])
    return h > 0 and FAINT_SHAPES[0] <= w / h <= FAINT_SHAPES[1]


def elsewhere(box: Sequence[float]) -> bool:
    """Whether a faint box is a peak elsewhere (faint_boxes gives those a score of 0, which no
    detector box has: boxes are found from Settings.faint_threshold up)."""
    return len(box) > 4 and float(box[4]) == 0.0


def probabilities(logits: Sequence[float], n: int, n_classes: int,
                  half_turn: bool = False) -> tuple[list[list[float]], list[list[float]]]:
    """The classifier's logits, flat (n rows, or 2n with the half-turned crops after them) ->
    class and orientation probabilities per box."""
    rows = 2 * n if half_turn else n
    width = len(logits) // rows if rows else 0
    probs, orient = [], []
    for i in range(rows):
        row = [float(v) for v in logits[i * width:(i + 1) * width]]
        probs.append(softmax(row[:n_classes]))
        orient.append(softmax(row[n_classes:]))
    if half_turn:  # turned half round, "up" reads as "down": turn it back
        probs = [[(a + b) / 2 for a, b in zip(probs[i], probs[n + i])] for i in range(n)]
        orient = [[(orient[i][k] + orient[n + i][(k + 2) % 4]) / 2 for k in range(4)] for i in range(n)]
    return probs, orient


def unsure_crops(probs: Sequence[Sequence[float]], labels: Sequence[str], reject_label: str,
                 settings: Settings = Settings()) -> list[int]:
    """The boxes whose crops are read again turned half round (Settings.half_turn_unsure): those
    whose best reading is under it, unless read as no tile at Settings.half_turn_none or more.
    None when every crop already was (half_turn_tta), or when off."""
    if settings.half_turn_unsure is None or settings.half_turn_tta:
        return []
    reject = list(labels).index(reject_label) if reject_label in labels else -1
    bar = settings.half_turn_none if reject >= 0 else None
    return [i for i, p in enumerate(probs)
            if p and max(p) < settings.half_turn_unsure and (bar is None or p[reject] < bar)]


def reread_half_turned(probs: Sequence[Sequence[float]], orient: Sequence[Sequence[float]], idx: Sequence[int],
                       turned_logits: Sequence[float], n_classes: int) -> tuple[list[list[float]], list[list[float]]]:
    """`probs` and `orient` with each box of `idx` (from `unsure_crops`) given a second view, its
    crop turned half round (`turned_logits`: the classifier's rows for the turned crops, in the
    order of `idx`). Where both views read the same tile, the two readings are averaged (as
    `probabilities` with half_turn does); where they differ, the surer view's reading is kept: one
    view is confused (a tile's neighbours in the crop change sides when it is turned)."""
    turned_p, turned_o = probabilities(turned_logits, len(idx), n_classes)
    out_p, out_o = [list(p) for p in probs], [list(o) for o in orient]
    for k, i in enumerate(idx):
        first = [float(v) for v in probs[i]]
        second = turned_p[k]
        back = [turned_o[k][(j + 2) % 4] for j in range(4)]  # turned half round, "up" reads as "down"
        if first.index(max(first)) == second.index(max(second)):
            out_p[i] = [(a + b) / 2 for a, b in zip(first, second)]
            out_o[i] = [(float(a) + b) / 2 for a, b in zip(orient[i], back)]
        elif max(second) > max(first):
            out_p[i], out_o[i] = list(second), back
    return out_p, out_o


def kept_tiles(boxes: Sequence[Sequence[float]], probs: Sequence[Sequence[float]], labels: Sequence[str],
               reject_label: str, size: tuple[int, int], settings: Settings = Settings(), faint: int = 0) -> list[int]:
    """The boxes that are tiles (indices, in order), as `assemble` keeps them: non-tiles, boxes
    read too unsurely, clutter judged by its company, specks and duplicates dropped, tiles set
    apart and unsure boxes continuing a row kept. Arguments as `assemble` takes them."""
    labels = list(labels)
    reject = labels.index(reject_label) if reject_label in labels else -1
    w, h = size
    m = 0.004 * max(h, w)
    idx = []
    sure: list[float] = []
    apart: list[int] = []  # read as a tile, not too surely as none: may be a tile set apart
    sure_faint: list[int] = []  # faint peaks read surely as a face: tiles when they lie among the tiles
    others: list[int] = []  # detected, but read as no tile or too unsurely: company in their group's judgement
    unsure: list[float] = []  # how surely each of `others` is a tile (0 when read as no tile)
    in_row: dict[int, float] = {}  # read as a tile, too unsurely to say which: a tile if it continues a row
    cut: set[int] = set()  # boxes cut by the photo's edge
    away = {i for i in range(len(boxes) - faint, len(boxes)) if elsewhere(boxes[i])}  # faint peaks elsewhere
    for i, b in enumerate(boxes):
        p = probs[i]
        # how surely it is this tile rather than another, given that it is a tile
        if reject >= 0:
            tile_conf = max(v for k, v in enumerate(p) if k != reject) / max(1 - p[reject], 1e-6)
        else:
            tile_conf = max(p)
        at_edge = (b[0] <= m or b[1] <= m or b[2] >= w - m or b[3] >= h - m) and not (
            settings.fills_frame is not None and max((b[2] - b[0]) / w, (b[3] - b[1]) / h) >= settings.fills_frame)
        if at_edge:
            cut.add(i)
        rejected = reject >= 0 and p[reject] >= settings.reject_threshold
        if (i >= len(boxes) - faint and settings.faint_sure is not None and not at_edge
                and max(p) >= settings.faint_sure and labels[p.index(max(p))] not in (reject_label, "back")):
            sure_faint.append(i)
        if (at_edge and tile_conf < settings.border_confidence) or tile_conf < settings.min_confidence:
            if i < len(boxes) - faint:
                others.append(i)
                unsure.append(0.0 if rejected else float(tile_conf))
                if (settings.row_floor is not None and not rejected and not at_edge
                        and tile_conf >= settings.row_floor and (reject < 0 or p[reject] < 0.5)):
                    in_row[i] = float(tile_conf)
            continue
        if rejected or i >= len(boxes) - faint:
            # a faint peak elsewhere is a tile only when read surely (sure_faint), never by its place
            if settings.set_apart_reject is not None and (reject < 0 or p[reject] < settings.set_apart_reject) \
                    and i not in away:
                apart.append(i)
            if rejected and i < len(boxes) - faint:
                others.append(i)
                unsure.append(0.0)
            continue
        idx.append(i)
        sure.append(float(tile_conf))
    five = [(float(b[0]), float(b[1]), float(b[2]), float(b[3]), float(b[4])) for b in boxes]
    if idx and (settings.drop_misfits or settings.drop_unsure_groups):
        # shapes no tile has, and clutter judged by the company it keeps (recognition.scales). The
        # boxes read too unsurely, or as no tile (as sure of nothing), are company too: a
        # keyboard's keys are half read as no tile, and the rest must not pass for a sure group
        # without them. A box lying over a tile is that tile's fragment, not company; nor is a box
        # cut by the photo's edge (Settings.judge_cut_boxes).
        apart_from_tiles = [k for k, i in enumerate(others)
                            if not any(scales.inside_share(five[i], five[j]) >= 0.3 for j in idx)
                            and (settings.judge_cut_boxes or i not in cut)
                            ] if settings.judge_with_rejected else []
        company = idx + [others[k] for k in apart_from_tiles]
        conf = sure + [unsure[k] for k in apart_from_tiles]
        tileness = [1.0 - probs[i][reject] if reject >= 0 else 1.0 for i in company]  # a tile at all, whichever
        kept = [k for k in scales.keep_tiles([five[i] for i in company], conf, settings.drop_misfits,
                                             settings.drop_unsure_groups, settings.rows_of_tiles, tileness,
                                             settings.piles_of_tiles)
                if k < len(idx)]
        if settings.set_apart_reject is not None:
            dropped = set(idx) - {idx[k] for k in kept}
            apart = sorted(apart + [i for i in dropped])
        idx = [idx[k] for k in kept]
    if idx and settings.speck is not None:
        kept_now = set(idx)
        surely = [_as_tile(probs[i], reject)[1] if i in kept_now else 1.0 for i in range(len(five))]
        tiny = set(scales.specks(five, idx, surely, settings.speck, settings.speck_sure))
        idx = [i for i in idx if i not in tiny]
    if idx and settings.giant is not None and "5z" in labels:
        blanks = [i for i in idx if _as_tile(probs[i], reject)[0] == labels.index("5z")]
        huge = set(scales.giants(five, idx, blanks, settings.giant))
        idx = [i for i in idx if i not in huge]
    if idx and settings.lookalike is not None and reject >= 0 and len(idx) <= scales.LOOKALIKE_FEW:
        kept_now = set(idx)
        read_none = [i for i in range(len(five)) if i not in kept_now and probs[i][reject] >= max(probs[i])
                     and i not in away  # a peak elsewhere counts only as a tile read surely
                     and not any(scales.inside_share(five[i], five[j]) >= 0.3
                                 or scales.inside_share(five[j], five[i]) >= 0.3 for j in idx)]
        surely = [_as_tile(probs[i], reject)[1] if i in kept_now else 1.0 for i in range(len(five))]
        smallest = scales.DEFAULT_RULE.small * max(w, h) / settings.detector_long_side  # as the first pass sees them
        alike = set(scales.lookalikes(five, idx, surely, read_none, settings.lookalike, settings.lookalike_least,
                                      settings.lookalike_sure, smallest=smallest))
        idx = [i for i in idx if i not in alike]
    if idx and apart:
        idx = sorted(idx + scales.set_apart(five, idx, apart))
    if idx and sure_faint:
        # among the tiles, or elsewhere of the tiles' size
        least, most = (k * median(_area(five[i]) for i in idx) for k in FAINT_SIZES)
        idx = sorted(set(idx) | set(scales.among_tiles(five, idx, sure_faint))
                     | {i for i in sure_faint if i in away and least <= _area(five[i]) <= most})
    if idx and in_row and len(idx) < HAND_TILES:
        # a photo of a hand holds at most a hand's tiles: the surest of the row's unsure boxes fill
        # it, and no more (a photo holding more is of more than a hand, and the hand proposal needs
        # the count: a 15th tile read unsurely would stop it completing the hand)
        taken = sorted(scales.in_rows(five, idx, list(in_row)), key=lambda i: -in_row[i])
        idx = sorted(idx + taken[:HAND_TILES - len(idx)])
    if idx:
        top = [max((k for k in range(len(labels)) if k != reject), key=lambda k: probs[i][k]) for i in idx]
        keep = drop_duplicates([boxes[i][:4] for i in idx], [probs[i][k] * boxes[i][4] for k, i in zip(top, idx)],
                               codes=[labels[k] for k in top], same_contain=settings.same_tile_overlap,
                               straddle=settings.straddle)
        idx = [idx[k] for k in keep]
    if idx and settings.crowded is not None:
        tops = {i: _as_tile(probs[i], reject) for i in idx}
        crowd = set(scales.crowded(five, idx, {i: labels[k] for i, (k, _) in tops.items()},
                                   {i: q for i, (_, q) in tops.items()}, settings.crowded,
                                   scales.DEFAULT_RULE.small * max(w, h) / settings.detector_long_side))
        idx = [i for i in idx if i not in crowd]
    if idx and settings.lone_back is not None and "back" in labels:
        backs = [i for i in idx if _as_tile(probs[i], reject)[0] == labels.index("back")]
        lone = set(scales.lone(five, idx, backs, settings.lone_back))
        idx = [i for i in idx if i not in lone]
    if idx and settings.backs_need_a_face and "back" in labels:
        back = labels.index("back")
        if all(_as_tile(probs[i], reject)[0] == back for i in idx):
            idx = []
    if idx and settings.far_apart is not None:
        far = set(scales.far_apart(five, idx, settings.far_apart, few=settings.far_few))
        idx = [i for i in idx if i not in far or _as_tile(probs[i], reject)[1] >= settings.far_sure]
    return idx


def assemble(boxes: Sequence[Sequence[float]], probs: Sequence[Sequence[float]], orient: Sequence[Sequence[float]],
             labels: Sequence[str], reject_label: str, size: tuple[int, int], settings: Settings = Settings(),
             to_original: float = 1.0, original_size: tuple[int, int] | None = None, faint: int = 0,
             sharpness: Sequence[float] | None = None, turn: Turn | None = None,
             kept: Sequence[int] | None = None) -> Reading:
    """Drop non-tiles and duplicates, lay the tiles out, propose a hand. `boxes` [x1, y1, x2, y2,
    score] are in the pixels of an image of `size` (w, h); `to_original` is that image's pixels
    per pixel of the photo the answer's boxes are given in (of `original_size`, clipped to it).
    The last `faint` boxes are `faint_boxes`: tiles only where a tile set apart stands.
    `sharpness` (the classifier's second output, one per box): the photo is said to look out of
    focus (`out_of_focus`) by its face-up tiles other than haku, which has no ink to be sharp.
    With `turn`, `boxes` are in the pixels of the frame turned by it (`straighten`; `size` is the
    turned canvas), laid out there, and the answer's boxes taken back to the photo. `kept`: the
    tiles kept (kept_tiles' answer for these arguments), when the caller has them already."""
    labels = list(labels)
    reject = labels.index(reject_label) if reject_label in labels else -1
    w, h = size
    if turn is None:
        ow, oh = original_size or (w / to_original, h / to_original)
    else:  # the tiles are laid out level, on the turned canvas, and their boxes taken back at the end
        photo_size = original_size or (turn.size[0] / to_original, turn.size[1] / to_original)
        ow, oh = w / to_original, h / to_original
    idx = list(kept) if kept is not None else kept_tiles(boxes, probs, labels, reject_label, size, settings, faint)
    dets: list[Detection] = []
    orients: list[list[float]] = []
    for i in idx:
        p = [0.0 if k == reject else float(v) for k, v in enumerate(probs[i])]
        s = max(sum(p), 1e-9)
        p = [v / s for v in p]
        order = sorted(range(len(p)), key=lambda k: -p[k])
        alts = tuple((labels[j], p[j]) for j in order[1:4] if p[j] >= 0.005)
        o = [float(v) for v in orient[i]]
        x1, y1, x2, y2 = (_clip(float(boxes[i][k]) / to_original, 0, (ow, oh, ow, oh)[k]) for k in range(4))
        dets.append(Detection((x1, y1, x2, y2), labels[order[0]], p[order[0]], alts,
                              max(range(4), key=lambda k: (o[k], -k)), max(o), False, float(boxes[i][4])))
        orients.append(o)
    if not dets:
        return Reading((), (), None, NO_TILES)
    faces = [float(sharpness[i]) for i, d in zip(idx, dets) if d.tile not in ("back", "5z")] if sharpness else []
    notes = (detail("photo_out_of_focus"),) if out_of_focus(faces, settings.soft_below) else ()
    lay = layout(dets, orients)
    proposal = read_hand([TileReading(((d.tile, d.confidence),) + d.alternatives, d.sideways) for d in lay.tiles],
                         lay.rows, lay.lines)
    tiles = list(lay.tiles)
    # the tiles say what the proposal reads; the classifier's first choice stays an alternative
    for changed in proposal.changed:
        d = tiles[changed]
        cands = dict(((d.tile, d.confidence),) + d.alternatives)
        new = proposal.readings[changed]
        alts = tuple(sorted(((c, q) for c, q in cands.items() if c != new), key=lambda cq: -cq[1]))
        tiles[changed] = replace(d, tile=new, confidence=cands.get(new, 0.0), alternatives=alts)
    flagged = set(proposal.uncertain)
    tiles = [replace(d, unsure=k in flagged or d.confidence < UNSURE) for k, d in enumerate(tiles)]
    if turn is not None:
        pw, ph = photo_size
        aslant = abs(turn.angle / 90.0 - round(turn.angle / 90.0)) > 1e-9
        for k, d in enumerate(tiles):
            corners = turn.corners_back([v * to_original for v in d.box])
            xs, ys = [x for x, _ in corners], [y for _, y in corners]
            outline = tuple((_clip(x / to_original, 0, pw), _clip(y / to_original, 0, ph)) for x, y in corners)
            tiles[k] = replace(d, box=(_clip(min(xs) / to_original, 0, pw), _clip(min(ys) / to_original, 0, ph),
                                       _clip(max(xs) / to_original, 0, pw), _clip(max(ys) / to_original, 0, ph)),
                               outline=outline if aslant else ())
    return Reading(tuple(tiles), lay.rows, proposal, "", notes)


__all__ = ["Detection", "Layout", "Reading", "Settings", "assemble", "kept_tiles", "decode", "detect_boxes", "drop_duplicates", "out_of_focus",
           "faint_boxes", "layout", "merge_detections", "nms", "probabilities", "read_hand", "reread_half_turned", "reread_tall_faces",
           "rereads", "reread", "read_again", "ReadAgain", "split_faces", "reread_grown", "grown_faces", "rescan_sides",
           "colour_cast", "cast_table", "thumb_size",
           "straighten", "face_tilt", "tilt_spans", "edge_sums", "EdgeSums",
           "retile", "Retile", "believed", "Thumb", "Turn", "unlit_blanks", "turn_frame", "quarter_turn", "softmax", "tall_faces", "tall_plan", "unsure_crops",
           "whole_side", "whole_tiles", "whole_read"]
