"""Detection at the scale of the tiles, and one tile per box: pure Python on lists of boxes.

The detector learned tiles of a certain size (in its input's pixels). A row photographed from
across the table gives tiles far smaller than that, a close-up of two tiles far larger, and both
are read badly or not at all. The functions here look at a first pass's boxes, say at which input
sizes to run the detector again (`rescan_sides`), merge the passes (`merge_passes`), and then
clean the boxes up: parts of one tile boxed as tiles of their own (the blank upper half of an
upright tile's face, a pinzu tile's groups of pips) are dropped or merged into one tile
(`merge_fragments`), and boxes that do not fit the tiles around them in size, shape and
confidence are dropped (`drop_misfits`).

Everything works on plain tuples and floats, with no numpy, so the phone's Pyodide reader can run
the same code as the server (recognition.reading calls it there). A box is
``(x1, y1, x2, y2, score)`` in one pixel frame; functions return new lists, never change theirs.
"""
from __future__ import annotations

import bisect
import functools
import math
import statistics
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

Box = tuple[float, float, float, float, float]

FACE_ASPECT = 1.35  # a tile's face: height / width
TALL = 1.75  # a box this much higher than wide is more than a face (a standing tile's blank top)


@dataclass(frozen=True)
class ScaleRule:
    """The tile sizes the detector reads well, as the side of a square of the tile's box area, in
    the detector's input pixels; `target` is where a second pass puts the tiles. `max_side` and
    `min_side` bound the input's long side (a second pass beyond the working copy's 1008 px runs on
    a finer copy of the photo, up to the photo's own size), `pyramid` are the long sides tried when
    a first pass finds nothing it can measure."""

    # tiles measured under `low` are detected again where they measure `target`: under `small`
    # (16-20 px) tiles in a dense pile are found in part (a dev scene three times farther: 3 of 27);
    # from `small` to `low` they are found, but boxed coarsely (the map's grid is 4 px), so that
    # their crops cut numerals and pips (a hand row across a 1008 px photo measures 24 px at 512:
    # 64 font rows read 0.893 with `low` at 20, 0.911 at 28; models/HISTORY.md, "Small tiles read
    # again"). Those are read again within the copy already decoded: a finer copy is decoded for
    # tiles under `small` alone
    low: float = 28.0
    small: float = 20.0
    high: float = 64.0
    target: float = 34.0
    min_side: int = 96
    max_side: int = 1536  # tiles 7 px wide at 512 (28 px in a 12 MP photo) come to 21 px
    # nothing found at 512 px: try smaller (a close-up), not larger: a far row is found in part
    # at 512 px and measured, and a pass at 1008 px costs four of 512 px on every photo with no tile
    pyramid: tuple[int, ...] = (128, 256)
    closeup_few: int = 3  # a first pass of 1 to this many boxes (a close-up, or pieces of its faces): the pyramid too
    # more boxes than `closeup_few` are pieces of one face (a 6p's or 9p's pip groups, merge_passes)
    # only if their areas sum to at most this share of the box holding them (4 to 7 pip groups of a
    # tile filling the photo: 0.21-0.52; four tiles of a row boxed as one blob: 0.7 and more)
    pieces_cover: float = 0.6
    closeup_pieces: int = 18  # at most this many (two 9p boxed pip by pip): more is no close-up, and not judged so
    # a box of a later pass holding two or more boxes of another that lie side by side (IoU under
    # 0.3), fill it (`pieces_cover`) and are each at most this much less sure than it, or surer, is
    # a blob of those tiles: its pass does not lead (merge_passes). A face's pieces are less sure
    # than the whole face (two halves of a single tile: 0.1-0.3 less)
    blob_sure: float = 0.05
    # Those boxes shaped as a face standing upright (height over width within a factor `blob_face`
    # of FACE_ASPECT: a face's halves and pip groups are not) may be up to `blob_face_sure` less
    # sure: two tiles of a close-up boxed apart were less sure than the blob over both (8s and 4z,
    # 300 px wide: the blob 0.71, the tiles 0.80 and 0.56), which led and was read as one tile
    # (models/HISTORY.md, "Two faces less sure than the blob over them")
    blob_face_sure: float = 0.3
    blob_face: float = 1.3
    cluster: float = 1.3  # boxes within this factor of each other's size are "the same size"
    # a first pass of 1-`few` boxes that look tile-sized may be the blobs of a far close-up or a
    # far row (a dev close-up of 12 honours three times farther: 3 boxes, its tiles 14 px wide):
    # detect again at `probe` times the long side; that pass counts only if it finds `probe_min`
    # boxes or more, and twice the first pass's (an empty table probed at any size found 3: a die,
    # a mug's rim; at its boxes' size, 48-55 px, it is not probed)
    few: int = 5
    probe: float = 2.0
    probe_min: int = 4


DEFAULT_RULE = ScaleRule()


def side(box: Sequence[float]) -> float:
    """The side of a square with the box's area (orientation-free: a sideways tile gives the same)."""
    return math.sqrt(max(box[2] - box[0], 0.0) * max(box[3] - box[1], 0.0))


def area(box: Sequence[float]) -> float:
    return max(box[2] - box[0], 0.0) * max(box[3] - box[1], 0.0)


def intersection(a: Sequence[float], b: Sequence[float]) -> float:
    ix = min(a[2], b[2]) - max(a[0], b[0])
    iy = min(a[3], b[3]) - max(a[1], b[1])
    return ix * iy if ix > 0 and iy > 0 else 0.0


def iou(a: Sequence[float], b: Sequence[float]) -> float:
    inter = intersection(a, b)
    union = area(a) + area(b) - inter
    return inter / union if union > 0 else 0.0


def inside_share(inner: Sequence[float], outer: Sequence[float]) -> float:
    """The share of `inner`'s area that lies inside `outer`."""
    a = area(inner)
    return intersection(inner, outer) / a if a > 0 else 0.0


def _weighted_median(values: list[float], weights: list[float]) -> float:
    pairs = sorted(zip(values, weights))
    half = sum(w for _, w in pairs) / 2
    acc = 0.0
    for v, w in pairs:
        acc += w
        if acc >= half:
            return v
    return pairs[-1][0]


def tile_size(boxes: Sequence[Box], rule: ScaleRule = DEFAULT_RULE) -> float | None:
    """The tiles' typical size (see `side`), or None for no boxes.

    Not the plain median: fragments of tiles are smaller than tiles and clutter may be any size,
    so this takes the largest group of boxes of about one size (within `rule.cluster` of each
    other, counted by detector score; a tie goes to the larger size, as fragments are smaller)
    and returns its score-weighted median. It depends only on the boxes' sizes and scores, so a
    reading asking it again of the same boxes (a photo asks about 15 times, of 3 sets of boxes)
    is answered from `_typical_size`'s memory."""
    sized = []
    for b in boxes:
        s = side(b)
        if s > 0:
            sized.append((s, max(b[4], 1e-3)))
    if not sized:
        return None
    sized.sort()
    return _typical_size(tuple(sized), rule.cluster)


@functools.lru_cache(maxsize=64)
def _typical_size(by_size: tuple[tuple[float, float], ...], cluster: float) -> float:
    """`tile_size` of boxes whose (side, score) pairs are `by_size`, sorted."""
    spread = math.log(cluster)
    # |log(t / s)| <= spread, the logarithm taken only near the band's edges (an ulp either way)
    near_lo, near_hi = math.exp(-spread) * (1 - 1e-9), math.exp(spread) * (1 + 1e-9)
    in_lo, in_hi = math.exp(-spread) * (1 + 1e-9), math.exp(spread) * (1 - 1e-9)

    def member(t: float, s: float) -> bool:
        return near_lo <= t / s <= near_hi and (in_lo <= t / s <= in_hi or abs(math.log(t / s)) <= spread)

    # a box's members are a run of the boxes in order of size (t / s grows with t): found by
    # bisection, its ends settled by `member` itself, rather than asking every pair (n^2 tests).
    # The larger of two sizes with the same weight wins, so the order the boxes are asked in
    # does not matter
    sides = [t for t, _ in by_size]
    n = len(by_size)
    best: tuple[float, float] | None = None
    best_run = (0, 0)
    for s, _ in by_size:
        lo, hi = bisect.bisect_left(sides, s * near_lo), bisect.bisect_right(sides, s * near_hi)
        while lo > 0 and member(sides[lo - 1], s):
            lo -= 1
        while lo < n and not member(sides[lo], s):
            lo += 1
        while hi < n and member(sides[hi], s):
            hi += 1
        while hi > lo and not member(sides[hi - 1], s):
            hi -= 1
        weight = math.fsum(w for _, w in by_size[lo:hi])  # the same sum in any order
        if best is None or (weight, s) > best:
            best = (weight, s)
            best_run = (lo, hi)
    members = by_size[best_run[0]:best_run[1]]
    return _weighted_median([t for t, _ in members], [w for _, w in members])


def probing(count: int, size: float | None, rule: ScaleRule = DEFAULT_RULE) -> bool:
    """True when a first pass of `count` boxes whose tiles measure `size` (detector pixels) is
    followed by a probe (`rule.few`): a few boxes of a size the detector reads well, small enough
    that at `rule.probe` times the scale they still are (larger ones are a close-up's tiles, whose
    faces a finer pass would cut into pieces)."""
    return 1 <= count <= rule.few and size is not None and rule.small <= size <= rule.high / rule.probe


def coarse(size: float | None, count: int = 0, rule: ScaleRule = DEFAULT_RULE) -> bool:
    """True when tiles measuring `size` (detector pixels) in a pass that found `count` boxes were
    found, but boxed coarsely: from `rule.small` to `rule.low`, and not a few blobs to probe."""
    return size is not None and rule.small <= size < rule.low and not probing(count, size, rule)


def rescan_sides(size: float | None, long_side: int, work_side: int,
                 rule: ScaleRule = DEFAULT_RULE, count: int = 0, copy_side: int | None = None) -> list[int]:
    """The detector input long sides to run again at, given the tiles' `size` measured in a
    pass at `long_side` that found `count` boxes, on a photo whose long side is `work_side` (the
    most pixels the reader can get: detection never enlarges the photo past that) and whose copy
    already decoded has `copy_side` (by default `work_side`): tiles of `rule.small` to `rule.low`
    are read again within it. Empty when the tiles are already of a size the detector reads well.

    No size (nothing found): the pyramid, for a close-up (tiles too large to be seen as tiles)
    and a far row (too small). Too small or too large: the one long side that brings them to
    `rule.target`, bounded; none when that cannot change the scale much. A few boxes of a good
    size (`probing`): `rule.probe` times the long side, bounded, whose boxes `merge_passes`
    keeps only if there are enough of them. One to `rule.closeup_few` boxes of at least
    `rule.small`, or up to `rule.few` over `rule.high`: the pyramid's smaller sides too, for a
    close-up whose pieces they may be."""
    top = min(rule.max_side, work_side)
    if size is None:
        sides = {min(max(s, rule.min_side), top) for s in rule.pyramid}
        return sorted(s for s in sides if abs(math.log(s / long_side)) >= math.log(1.25))
    sides = set()
    probe = probing(count, size, rule)
    if probe:
        sides.add(int(round(min(long_side * rule.probe, top))))
    if 1 <= count <= rule.closeup_few and size >= rule.small or 1 <= count <= rule.few and size > rule.high:
        # one to three boxes: a close-up's tiles, or pieces of its faces (a pip group or an
        # engraving of a tile filling the frame measures like a tile at 512 px): the pyramid's
        # smaller sides are tried as well (merge_passes lets a pass whose box holds them lead). A
        # retrained detector found one piece of a two-tile close-up at 512 px and nothing at the
        # side that piece gave, 140 px; it found both tiles at 256 px. Boxes small enough to probe
        # may be such pieces too, as much as far blobs: a red 5m filling the photo was one bare
        # patch at 512 px (31 px), seven at the probe's 1008 px, and whole at 128 px. Up to
        # `rule.few` boxes, all too large for the detector: pieces of tiles larger still (two tiles
        # filling the photo's width, boxed as four or five pip groups or strokes, and at the side
        # their size gives, 150-160 px, as one box over both)
        sides |= {min(max(s, rule.min_side), top) for s in rule.pyramid if s < long_side}
    if not probe and not rule.low <= size <= rule.high:
        if coarse(size, count, rule) and copy_side is not None:  # found, boxed coarsely: no finer copy for them
            top = min(top, copy_side)
        sides.add(int(round(min(max(long_side * rule.target / size, rule.min_side), top))))
    return sorted(s for s in sides if abs(math.log(s / long_side)) >= math.log(1.25))  # else too little change


def fit(box: Box, scale: float, rule: ScaleRule = DEFAULT_RULE) -> float:
    """How far (in log size) a box found at `scale` (detector pixels per frame pixel) was from
    the sizes the detector reads well: 0 inside [low, high]."""
    s = side(box) * scale
    if s <= 0:
        return math.inf
    if s < rule.low:
        return math.log(rule.low / s)
    if s > rule.high:
        return math.log(s / rule.high)
    return 0.0


def merge_passes(passes: Sequence[tuple[Sequence[Box], float]], rule: ScaleRule = DEFAULT_RULE,
                 overlap: float = 0.45, contain: float = 0.7) -> list[Box]:
    """One list of boxes from several detector passes. Each pass is (boxes in one common frame,
    its scale: detector pixels per frame pixel).

    The pass that found the most at sizes the detector reads well (the sum of the scores of its
    boxes whose `fit` is 0; a tie goes to the pass whose `tile_size` is nearest `rule.target`)
    leads: all its boxes are kept. The others' boxes fill in what it missed, those
    seen at a size the detector reads well (`fit`) first, then by score; a box that covers a
    kept box of another pass (IoU over `overlap`, or the smaller lying `contain` inside the
    larger) is dropped, so a close-up's whole tiles are not joined by the pieces of their faces
    that a pass at a finer scale took for tiles. Within one pass, boxes are all kept (the
    detector's own suppression already ran).

    After a first pass of one to `rule.few` boxes, a pass that found `rule.probe_min` boxes or more,
    and at least twice the first pass's, leads before any that did not: the first pass's few boxes
    were blobs of several tiles (whether the pass was the probe that `probing` plans or one planned
    from the blobs' size). After a first pass that is probed, a pass that did not is dropped,
    unless it holds the first pass's boxes (below).

    A pass whose boxes hold every box of the first pass, each box surer than those it holds, leads
    before all (`_holds`; among several such, by the order above): those boxes were pieces of the
    tiles of a close-up (pip groups, strokes). Past `rule.closeup_few` boxes, only if they leave
    most of their holders bare (`rule.pieces_cover`); and only if it holds the boxes of any pass
    outnumbering the first so too (a probe's seven bare patches of a numeral, not a far row's
    tiles, which fill the coarse box they are a blob of). Next, a later pass with a box that is a blob
    of tiles another pass boxed apart (`_blob`) leads after those without: at a coarse scale two
    tiles of a close-up side by side are one box of a tile's size, which counts as found, while the
    pass that boxed them apart may measure them too large to count."""
    first = passes[0][0]
    size = tile_size(first, rule)
    least = max(rule.probe_min, 2 * len(first))
    cover = None if len(first) <= rule.closeup_few else rule.pieces_cover

    def holding(boxes: Sequence[Box], scale: float) -> bool:
        # only a coarser pass holds the first's boxes as pieces of its tiles: a pass as fine or finer
        # that boxes them again (the probe's box over the one bare patch of a numeral the first pass
        # found, a little surer) holds nothing, and made the probe's patches lead over the whole tile
        return scale < passes[0][1] and 1 <= len(first) <= rule.closeup_pieces and _holds(boxes, first, contain, cover)

    if probing(len(first), size * passes[0][1] if size else None, rule):
        passes = [passes[0]] + [p for p in passes[1:] if len(p[0]) >= least or holding(*p)]
    many = [k for k in range(1, len(passes)) if len(passes[k][0]) >= least]
    outnumbered = 1 <= len(first) <= rule.few and bool(many)
    # a pass holding the first's few boxes leads only if it also holds, leaving them bare, the boxes
    # of any pass that outnumbers it: those were pieces too (the bare patches between a numeral's
    # strokes, boxed at twice the scale), not the tiles of a far row that a coarse box is a blob of
    covering = {k for k in range(1, len(passes)) if holding(*passes[k])
                and all(_holds(passes[k][0], passes[j][0], contain, rule.pieces_cover) for j in many if j != k)}

    # a blob's pass is a close-up's few boxes (and judging a pass of many is quadratic in boxes)
    blobs = {k for k in range(1, len(passes)) if len(passes[k][0]) <= rule.few
             and any(_blob(b, passes[j][0], rule, contain) for b in passes[k][0] for j in range(len(passes)) if j != k)}

    def lead(k: int) -> tuple[bool, bool, bool, float, float]:
        boxes, scale = passes[k]
        size = tile_size(boxes, rule)
        found = sum(b[4] for b in boxes if fit(b, scale, rule) == 0)
        return (bool(covering) and k not in covering, k in blobs, outnumbered and len(boxes) < least, -found,
                abs(math.log(size * scale / rule.target)) if size else math.inf)

    rank = {k: r for r, k in enumerate(sorted(range(len(passes)), key=lead))}
    tagged: list[tuple[int, float, float, int, Box]] = []
    for k, (boxes, scale) in enumerate(passes):
        for b in boxes:
            tagged.append((0 if rank[k] == 0 else 1, fit(b, scale, rule), -b[4], rank[k], b))
    tagged.sort(key=lambda t: t[:4])
    kept: list[tuple[int, Box, float]] = []
    for _, _, _, k, b in tagged:
        ab = area(b)
        clash = False
        for k2, c, ac in kept:
            if k2 == k:
                continue
            # iou(b, c) > overlap, or the smaller's inside_share in the larger > contain, from one intersection
            inter = intersection(b, c)
            union = ab + ac - inter
            small = ab if ab <= ac else ac
            if (inter / union if union > 0 else 0.0) > overlap or (inter / small if small > 0 else 0.0) > contain:
                clash = True
                break
        if not clash:
            kept.append((k, b, ab))
    return [b for _, b, _ in kept]


def _holds(boxes: Sequence[Box], pieces: Sequence[Box], contain: float, cover: float | None = None) -> bool:
    """True when every one of `pieces` lies `contain` inside one of `boxes` surer than it: the
    pieces were parts of those tiles' faces (a close-up of two tiles boxed as three pieces at
    512 px, both tiles whole at 128 px). With `cover`, the pieces each box holds (each piece
    counted in its surest holder) must also sum to at most that share of its area: a face's pip
    groups leave most of it bare, where the tiles of a row that a coarser pass saw as one blob, or
    the same tiles boxed again, fill it."""
    held: dict[int, float] = {}
    for p in pieces:
        ks = [k for k, b in enumerate(boxes) if b[4] > p[4] and inside_share(p, boxes[k]) > contain]
        if not ks:
            return False
        k = max(ks, key=lambda k: boxes[k][4])
        held[k] = held.get(k, 0.0) + area(p)
    return cover is None or all(a <= cover * area(boxes[k]) for k, a in held.items())


def _blob(box: Box, others: Sequence[Box], rule: ScaleRule, contain: float) -> bool:
    """True when `box` is a blob of tiles that another pass boxed apart: two or more of `others`
    lie inside it, side by side (overlapping little), nearly as sure as it or surer
    (`rule.blob_sure`; `rule.blob_face_sure` for boxes shaped as an upright face), and fill it
    (`rule.pieces_cover`)."""
    inner = [o for o in others if inside_share(o, box) > contain
             and o[4] >= box[4] - (rule.blob_face_sure if _face_shaped(o, rule.blob_face) else rule.blob_sure)]
    if len(inner) < 2 or sum(area(o) for o in inner) < rule.pieces_cover * area(box):
        return False
    return all(iou(a, b) < 0.3 for i, a in enumerate(inner) for b in inner[i + 1:])


def _face_shaped(box: Sequence[float], within: float) -> bool:
    """True when `box` is as much higher than wide as a face standing upright, within a factor `within`."""
    w, h = box[2] - box[0], box[3] - box[1]
    return w > 0 and FACE_ASPECT / within <= h / w <= FACE_ASPECT * within


def _union(a: Sequence[float], b: Sequence[float], score: float) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]), score)


def _gap(a: Sequence[float], b: Sequence[float]) -> float:
    """The distance between two boxes (0 when they touch or overlap)."""
    # max(..., 0.0) and hypot written out: this runs for every pair of boxes, many times a photo
    dx = a[0] - b[2]
    d = b[0] - a[2]
    if d > dx:
        dx = d
    dy = a[1] - b[3]
    d = b[1] - a[3]
    if d > dy:
        dy = d
    if dx <= 0.0:
        return dy if dy > 0.0 else 0.0
    return dx if dy <= 0.0 else math.hypot(dx, dy)


def merge_fragments(boxes: Sequence[Box], size: float | None = None, small: float = 0.6,
                    inside: float = 0.6, grow: float = 1.45, touch: float = 0.15) -> list[Box]:
    """Boxes with the parts of one tile gone: a box under `small` x a tile's area (the tile
    size is `size`, or `tile_size(boxes)`) is a fragment. A fragment lying `inside` within a
    tile-sized box is dropped (the blank top of an upright face boxed beside its tile; a pip
    group inside its tile). Fragments that touch (gap under `touch` x the tile size) and whose
    union is no bigger than `grow` x a tile's area and no longer than a tile's long side
    allows are merged into one box (a tile split into its upper and lower half, or a 4p split
    into two 2p), with the better score. Order: tile-sized boxes first, as given, then merged
    ones."""
    if size is None:
        size = tile_size(boxes)
    if size is None:
        return []
    tile_area = size * size
    whole = [b for b in boxes if area(b) >= small * tile_area]
    parts = [b for b in boxes if area(b) < small * tile_area]
    parts = [p for p in parts if not any(inside_share(p, w) >= inside for w in whole)]
    # a tile's face is at most about 1.6 times longer than wide; allow its box a little more
    longest = size * math.sqrt(2.2)
    merged = True
    while merged and len(parts) > 1:
        merged = False
        best: tuple[float, int, int] | None = None
        for i in range(len(parts)):
            for j in range(i + 1, len(parts)):
                a, b = parts[i], parts[j]
                if _gap(a, b) > touch * size:
                    continue
                u = _union(a, b, max(a[4], b[4]))
                if area(u) > grow * tile_area or max(u[2] - u[0], u[3] - u[1]) > longest:
                    continue
                # prefer the pair whose union is closest to one tile
                cost = abs(math.log(max(area(u), 1e-9) / tile_area))
                if best is None or cost < best[0]:
                    best = (cost, i, j)
        if best is not None:
            _, i, j = best
            u = _union(parts[i], parts[j], max(parts[i][4], parts[j][4]))
            parts = [p for k, p in enumerate(parts) if k not in (i, j)] + [u]
            merged = True
    return whole + parts


def drop_misfits(boxes: Sequence[Box], confidences: Sequence[float], size: float | None = None,
                 ratio: float | None = None, aspect: float = 3.2, sure: float = 0.9) -> list[int]:
    """Indices of the boxes to keep: a box longer than `aspect` times its width is no tile's
    face at any angle the reader handles and is dropped; with a `ratio`, a box whose size is
    off the tiles' (`size`, or `tile_size(boxes)`) by more than `ratio` either way is kept only
    when read at least `sure` (its `confidences` entry: how surely it is a tile and which).

    The size test is off by default, and `aspect` is generous: a hand near the camera and the
    discards across the table differ in size by more than two, and photos squashed by an export
    stretch tiles to over twice as long as wide; tighter, both cost hand-row tiles on the real
    photos' training scenes."""
    if ratio is not None and size is None:
        size = tile_size(boxes)
    keep: list[int] = []
    for i, b in enumerate(boxes):
        w, h = b[2] - b[0], b[3] - b[1]
        if w <= 0 or h <= 0 or max(w, h) / min(w, h) > aspect:
            continue
        if (ratio is not None and size is not None and abs(math.log(side(b) / size)) > math.log(ratio)
                and confidences[i] < sure):
            continue
        keep.append(i)
    return keep


def groups(boxes: Sequence[Box], size: float | None = None, reach: float = 0.35) -> list[list[int]]:
    """Indices of the boxes in groups that touch: two boxes are in one group when the gap between
    them is under `reach` x the tiles' size (`size`, or `tile_size(boxes)`), in any direction (a
    row of tiles, a pond of discards, a keyboard's keys). Groups in order of their first box."""
    if size is None:
        size = tile_size(boxes)
    if size is None:
        return [[i] for i in range(len(boxes))]
    return near_groups(boxes, reach * size)


def near_groups(boxes: Sequence[Sequence[float]], near: float) -> list[list[int]]:
    """`clusters` of the boxes joined when the gap between them (`_gap`) is under `near`. Only
    pairs whose left edges lie within one box's width and `near` of each other can be (the gap is
    at least the distance across): a sweep from left to right asks those, not every pair."""
    order = sorted(range(len(boxes)), key=lambda i: boxes[i][0])

    def pairs() -> Iterator[tuple[int, int]]:
        for k, i in enumerate(order):
            right = boxes[i][2] + near
            for j in order[k + 1:]:
                if boxes[j][0] >= right:
                    break
                yield i, j

    return clusters(len(boxes), lambda i, j: _gap(boxes[i], boxes[j]) < near, pairs())


def clusters(n: int, joined: Callable[[int, int], bool],
             pairs: Iterable[tuple[int, int]] | None = None) -> list[list[int]]:
    """The indices 0..n-1 in groups: i and j are in one group when ``joined(i, j)``, or through a
    chain of such pairs. Groups in order of their first index, each in increasing order. `pairs`:
    the pairs that may be joined, when fewer than all (the groups do not depend on their order)."""
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    every = ((a, b) for a in range(n) for b in range(a + 1, n))
    for i, j in pairs if pairs is not None else every:
        root = find(i)  # a pair already in one group need not be asked (the groups are the same)
        if root != find(j) and joined(i, j):
            parent[root] = find(j)
    out: dict[int, list[int]] = {}
    for i in range(n):
        out.setdefault(find(i), []).append(i)
    return list(out.values())


@dataclass(frozen=True)
class _Line:
    """The straight line fitted through boxes' centres (least squares, along whichever axis they
    spread more), and the boxes' median size across it."""

    across_x: bool  # the line runs left to right
    mid_along: float
    mid_across: float
    slope: float
    size: float

    def off(self, box: Sequence[float]) -> float:
        """How far the box's centre lies from the line, across it."""
        u, v = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if not self.across_x:
            u, v = v, u
        return abs(v - (self.mid_across + self.slope * (u - self.mid_along)))


def _fit_line(boxes: Sequence[Sequence[float]]) -> _Line:
    cx = [(b[0] + b[2]) / 2 for b in boxes]
    cy = [(b[1] + b[3]) / 2 for b in boxes]
    across_x = max(cx) - min(cx) >= max(cy) - min(cy)
    a, t = (cx, cy) if across_x else (cy, cx)  # along the line, across it
    sizes = sorted((b[3] - b[1]) if across_x else (b[2] - b[0]) for b in boxes)
    n = len(a)
    ma, mt = sum(a) / n, sum(t) / n
    var = sum((v - ma) ** 2 for v in a)
    slope = sum((u - ma) * (v - mt) for u, v in zip(a, t)) / var if var > 0 else 0.0
    return _Line(across_x, ma, mt, slope, sizes[len(sizes) // 2])


def one_line(boxes: Sequence[Box], off: float = 0.35) -> bool:
    """Whether the boxes stand in one straight line (a row of tiles, level or tipped by the
    camera), not in a grid or a heap: every centre lies within `off` x the boxes' median size
    across the line of the line fitted through the centres."""
    if len(boxes) < 2:
        return True
    line = _fit_line(boxes)
    return all(line.off(b) <= off * line.size for b in boxes)


ROW_LEAST = 7  # boxes in a row that `row_tilt` goes by: half a hand


def row_tilt(boxes: Sequence[Box], least: int = ROW_LEAST, off: float = 0.35, level: float = 8.0,
             reach: float = 0.35, runs: tuple[list[int], int] | None = None) -> float | None:
    """How far, in degrees, the longest row of tiles among `boxes` is turned from level or upright
    (the nearer; positive when its right end, or lower end, lies clockwise of that), or None when
    there is no row aslant. A hand photographed with the phone turned to it stands aslant in the
    photo, often touching other tiles (a pond, a wall) in one group, so rows are looked for within
    each group of touching boxes (`groups`): in every direction, a degree apart, the most boxes
    whose centres lie in one band along it, `off` x the tiles' size wide, and of those the longest
    run of boxes each touching the next (gaps under `reach` x the size). The row is the longest
    such run, of at least `least` boxes (half a hand: in a heap, runs of five line up aslant by
    chance, as in a dev pile under glare), standing in one line (`one_line`), and its tilt is that
    of the line fitted through them; it is aslant only if it is longer than any run within `level`
    degrees of level or upright (in a heap of tiles lying every way, some line up aslant by
    chance, as many as line up level). `runs`: `longest_runs`' answer for the same arguments, when
    already known."""
    aslant, level_run = runs if runs is not None else longest_runs(boxes, least, off, level, reach)
    if len(aslant) < least or len(aslant) <= level_run or not one_line([boxes[i] for i in aslant]):
        return None
    line = _fit_line([boxes[i] for i in aslant])
    # the line's direction in the photo (y down), turned to the nearest level or upright
    return -math.degrees(math.atan(line.slope)) if not line.across_x else math.degrees(math.atan(line.slope))


# `longest_runs`' directions: every degree from -90 to 89, with the cosine and sine of each
_DIRECTIONS = tuple((step, math.cos(math.radians(step)), math.sin(math.radians(step))) for step in range(-90, 90))


def longest_runs(boxes: Sequence[Box], least: int = ROW_LEAST, off: float = 0.35, level: float = 8.0,
                 reach: float = 0.35) -> tuple[list[int], int]:
    """`row_tilt`'s search: the longest run of boxes aslant (their indices, in order along it) and
    the length of the longest run within `level` degrees of level or upright, among groups of at
    least `least` boxes (shorter runs may be left uncounted: ([], 0) when there is no such group)."""
    size = tile_size(boxes)
    if size is None:
        return [], 0
    centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes]
    band, near = off * size, reach * size
    best: list[int] = []
    best_level = 0
    for g in groups(boxes, size):
        if len(g) < least:
            continue
        points = [(centres[i][0], centres[i][1], i) for i in g]
        xs, ys = [x for x, _, _ in points], [y for _, y, _ in points]
        for step, ux, uy in _DIRECTIONS:  # along a line running at the step's angle
            is_level = min(abs(step), 90 - abs(step)) < level
            bar = best_level if is_level else len(best)
            if len(g) <= bar:
                continue  # no run in this group can be longer than one already found
            # most directions hold no band of more than `bar` boxes: asked first of the distances
            # across alone, before the boxes are sorted by them and counted
            if not _band_holds_more(sorted([y * ux - x * uy for x, y in zip(xs, ys)]), band, bar):
                continue  # no run in this band can be longer than one already found
            across = sorted([(y * ux - x * uy, i) for x, y, i in points])
            most, where = _densest_band([v for v, _ in across], band)
            members = sorted((i for _, i in across[where:where + most]), key=lambda i: centres[i][0] * ux + centres[i][1] * uy)
            run: list[int] = []
            longest: list[int] = []
            for i in members:
                if run and _gap(boxes[run[-1]], boxes[i]) < near:
                    run.append(i)
                else:
                    run = [i]
                if len(run) > len(longest):
                    longest = run.copy()
            if is_level:
                best_level = max(best_level, len(longest))
            elif len(longest) > len(best):
                best = longest
    return best, best_level


def _densest_band(values: Sequence[float], band: float) -> tuple[int, int]:
    """The most of the sorted `values` lying within `band` of the first of them, and where the
    first such run of them starts (`longest_runs`' band across a direction)."""
    most, where, lo = 0, 0, 0
    for hi, v in enumerate(values):
        while v - values[lo] > band:
            lo += 1
        if hi - lo + 1 > most:
            most, where = hi - lo + 1, lo
    return most, where


def _band_holds_more(values: Sequence[float], band: float, bar: int) -> bool:
    """Whether `_densest_band(values, band)` holds more than `bar` of the sorted `values`, without
    counting it: whether some bar + 1 values in a row lie within the band, by the same float
    differences (v - values[lo] for the last and the first)."""
    if bar < 1:
        return len(values) > 0
    return any(b - a <= band for a, b in zip(values, values[bar:]))


def _surely_tiles(group: Sequence[int], tileness: Sequence[float] | None, least: float) -> bool:
    if tileness is None:
        return True
    t = sorted(tileness[i] for i in group)
    return (t[(len(t) - 1) // 2] + t[len(t) // 2]) / 2 >= least


def drop_unsure_groups(boxes: Sequence[Box], confidences: Sequence[float], size: float | None = None,
                       least: int = 3, typical: float = 0.75, sure: float = 0.97, alone: float = 0.8,
                       rows: bool = True, tileness: Sequence[float] | None = None, row_tiles: float = 0.9,
                       clutter_reach: float = 1.0, clutter_least: int = 6, clutter_share: float = 0.6,
                       piles: bool = True) -> list[int]:
    """Indices of the boxes to keep, judging boxes by the company they keep (`groups`).

    - A group of at least `least` touching boxes whose median confidence is under `typical` is
      clutter read as tiles (a keyboard's keys, letters of print: each looks a little like some
      tile, none like one surely): only its members read at least `sure` stay. With `rows`, not
      when the group stands in one line (`one_line`) and its boxes are surely tiles (the median
      of their `tileness`, how surely each is a tile at all, at least `row_tiles`; all are when
      it is not given): a row of touching tiles is a hand, read unsurely as to which tiles when
      the photo is out of focus or the set's artwork is new, while keys lie in a grid, clutter
      in a heap, and a line of print is half read as no tile.
    - With `piles`, a group of another shape whose boxes are surely tiles (by `tileness`, which
      must be given, at least `row_tiles`) is a pile of tiles read unsurely, kept whole when the
      photo has no group read surely: a scattered pond in dim light, each tile read at 0.4 to 0.9
      as to which, is not clutter. Beside a group read surely (a hand), such a pile keeps only its
      members read at least `sure`, as clutter does: there it is as often the wall or a pond
      behind the hand, too small to be read, as a heap of keys read as tiles.
    - When the photo has a group of tiles read surely (`least` or more, median at least
      `typical`), a box standing alone or in a pair away from it must be read at least `alone`:
      beside a hand read surely, an unsure thing on its own is far more often a key, a die or a
      wrapper than a tile. Photos of tiles lying apart (a scattered pond) have no such group,
      and their lone tiles are kept as read.
    - Boxes not in a group kept whole, in a wider group (gaps under `clutter_reach` x the tiles'
      size) of at least `clutter_least` boxes of which `clutter_share` or more are read as no tile
      (`tileness` under 0.5; needs `tileness`), are clutter too unless read at least `sure`: a
      keyboard's keys stand further apart than a row's tiles, so each is a box on its own, and
      the few read as a tile (a key as 2p, a dark key as a face-down tile) are known by the keys
      around them read as no tile.
    Tiles read unsurely inside a group read surely always stay: this judges groups, not tiles."""
    if size is None:
        size = tile_size(boxes)
    found = groups(boxes, size)
    keep: list[int] = []
    small: list[int] = []
    whole: set[int] = set()
    anchored = False
    unsure_piles: list[list[int]] = []
    for g in found:
        if len(g) < least:
            small.extend(g)
            continue
        conf = sorted(confidences[i] for i in g)
        median = (conf[(len(conf) - 1) // 2] + conf[len(conf) // 2]) / 2
        if median < typical and not (rows and _surely_tiles(g, tileness, row_tiles) and one_line([boxes[i] for i in g])):
            if piles and tileness is not None and _surely_tiles(g, tileness, row_tiles):
                unsure_piles.append(g)
            else:
                keep.extend(i for i in g if confidences[i] >= sure)
        else:
            anchored = True
            keep.extend(g)
            whole.update(g)
    for g in unsure_piles:
        if anchored:
            keep.extend(i for i in g if confidences[i] >= sure)
        else:
            keep.extend(g)
            whole.update(g)
    keep.extend(i for i in small if not anchored or confidences[i] >= alone)
    if tileness is not None and size is not None:
        reach = clutter_reach * size
        for g in near_groups(boxes, reach):
            if len(g) >= clutter_least and sum(tileness[i] < 0.5 for i in g) >= clutter_share * len(g):
                unsure = {i for i in g if i not in whole and confidences[i] < sure}
                keep = [i for i in keep if i not in unsure]
    return sorted(keep)


def set_apart(boxes: Sequence[Box], kept: Sequence[int], candidates: Sequence[int], least: int = 5,
              like: float = 1.3, line: float = 0.25, reach: float = 2.5, overlap: float = 0.2) -> list[int]:
    """Of the `candidates` (indices into `boxes` a reader was about to drop), those standing where
    a tile set apart from a row stands: a player lays the winning tile (or a tile being
    discussed) a little apart from the hand, on its line. A candidate is one when, for a row of
    at least `least` touching `kept` boxes (`groups`), it has the row's tiles' width and height
    (each within `like` of the row's median), its centre lies on the row's line (off it by under
    `line` x the tiles' height across the row), it stands beyond one end of the row by no more
    than `reach` x a tile's width, and it lies over no kept box (under `overlap` of its area).
    An upright haku set apart, blank as a tile's back or side, is read by the classifier half as
    no tile; a box of exactly a tile's size in exactly that place is a tile."""
    kept_boxes = [boxes[i] for i in kept]
    out: list[int] = []
    rows = []  # each row's tiles' width and height, the way it runs, its line and its ends
    for row in ([kept[k] for k in g] for g in groups(kept_boxes) if len(g) >= least):
        ws = sorted(boxes[i][2] - boxes[i][0] for i in row)
        hs = sorted(boxes[i][3] - boxes[i][1] for i in row)
        w, h = ws[len(ws) // 2], hs[len(hs) // 2]
        cx = sorted((boxes[i][0] + boxes[i][2]) / 2 for i in row)
        cy = sorted((boxes[i][1] + boxes[i][3]) / 2 for i in row)
        across_x = cx[-1] - cx[0] >= cy[-1] - cy[0]  # the row runs left to right
        # along the row: a = the coordinate the row runs in, t = the tile's size along it
        a1, a2, t, mid, size = (0, 2, w, cy[len(cy) // 2], h) if across_x else (1, 3, h, cx[len(cx) // 2], w)
        start, end = min(boxes[i][a1] for i in row), max(boxes[i][a2] for i in row)
        rows.append((w, h, across_x, a1, a2, t, mid, size, start, end))
    for c in candidates:
        b = boxes[c]
        bw, bh = b[2] - b[0], b[3] - b[1]
        for w, h, across_x, a1, a2, t, mid, size, start, end in rows:
            if not (w / like <= bw <= w * like and h / like <= bh <= h * like):
                continue
            cross = (b[1] + b[3]) / 2 if across_x else (b[0] + b[2]) / 2
            if abs(cross - mid) >= line * size:
                continue
            gap = max(b[a1] - end, start - b[a2])
            if -0.1 * t <= gap <= reach * t:  # in place; kept only if over no kept box
                if not any(inside_share(b, boxes[i]) >= overlap for i in kept):
                    out.append(c)
                break
    return out


def rows_of(boxes: Sequence[Box], group: Sequence[int], least: int = 5, gap: float = 0.5) -> list[list[int]]:
    """The rows of tiles in a `group` of touching boxes (`groups`): the group itself when it stands
    in one line (`one_line`); else, for a grid (a tray, the tiles laid out on a mat), its bands
    across each axis in turn (boxes whose centres lie within `gap` x their median size across the
    band of each other, in one chain) that stand in one line, where at least two such bands of
    `least` boxes or more run the same way: the rows, then the columns. One long band with a few
    boxes beside it (a hand with tiles or objects near it) is no grid, and a heap has no such
    bands, so neither gives a row."""
    if one_line([boxes[i] for i in group]):
        return [list(group)]
    out = []
    for axis in (1, 0):  # bands of centres close in y (rows running left to right), then in x
        size = sorted(boxes[i][axis + 2] - boxes[i][axis] for i in group)[len(group) // 2]
        order = sorted(group, key=lambda i: boxes[i][axis] + boxes[i][axis + 2])
        bands, band = [], [order[0]]
        for prev, i in zip(order, order[1:]):
            if (boxes[i][axis] + boxes[i][axis + 2] - boxes[prev][axis] - boxes[prev][axis + 2]) / 2 > gap * size:
                bands.append(band)
                band = []
            band.append(i)
        bands.append(band)
        lines = [sorted(b) for b in bands if len(b) > 1 and one_line([boxes[i] for i in b])]
        if sum(len(b) >= least for b in lines) >= 2:
            out += lines
    return out


def snap_to_rows(boxes: Sequence[Box], least: int = 5, short: float = 0.85, wide: float = 1.2,
                 near: int = 4, overlap: float = 0.3, tilt: float = 0.15) -> list[Box]:
    """`boxes` with the short boxes of a row of tiles grown to the row's height. In a row of at
    least `least` touching boxes in one line (`groups`, `one_line`; or a row of a grid of them,
    `rows_of`), a box lower across the line than `short` x its `near` nearest neighbours' median,
    as wide as they are (within `wide`: a tile laid sideways in a meld is wider, and keeps its box),
    is grown (never shrunk) to their median extent across the line, unless it would then cover
    another box, or lie in one, for `overlap` of that box's area or its own. Rows tipped more than
    `tilt` (its slope) are left alone: the upright boxes of tiles lying aslant are no outlines of
    their faces. The detector boxes a face by its ink: a 一 drawn in thin strokes above a red 萬
    is left out, and the box read alone looks like a red five; a 4p on a mat boxed by its lower
    pair of pips is read as a 2p."""
    out = list(boxes)
    for g in (r for group in groups(boxes) for r in rows_of(boxes, group, least)):
        if len(g) < least:
            continue
        row = [boxes[i] for i in g]
        line = _fit_line(row)
        if abs(line.slope) > tilt:  # a row across the photo's diagonal: its boxes are no faces' outlines
            continue
        across_x = line.across_x  # the row runs left to right: heights are across it
        lo, hi, a0, a1 = (1, 3, 0, 2) if across_x else (0, 2, 1, 3)
        centre = {i: (boxes[i][a0] + boxes[i][a1]) / 2 for i in g}
        for i in g:
            b = boxes[i]
            if out[i] is not b:
                continue  # grown already, in the other direction of a grid
            others = sorted((j for j in g if j != i), key=lambda j: abs(centre[j] - centre[i]))[:near]
            across = sorted(boxes[j][hi] - boxes[j][lo] for j in others)
            along = sorted(boxes[j][a1] - boxes[j][a0] for j in others)
            h, w = across[len(across) // 2], along[len(along) // 2]
            if not (b[hi] - b[lo] < short * h and w / wide <= b[a1] - b[a0] <= w * wide):
                continue
            starts = sorted(boxes[j][lo] for j in others)
            ends = sorted(boxes[j][hi] for j in others)
            grown = list(b)
            grown[lo] = min(b[lo], starts[len(starts) // 2])
            grown[hi] = max(b[hi], ends[len(ends) // 2])
            g5: Box = (grown[0], grown[1], grown[2], grown[3], b[4])
            if any(max(inside_share(g5, o), inside_share(o, g5)) >= overlap > max(inside_share(b, o), inside_share(o, b))
                   for j, o in enumerate(boxes) if j != i):
                continue  # it would cover another box (or lie in one) that it did not before
            out[i] = g5
    return out


def in_rows(boxes: Sequence[Box], kept: Sequence[int], candidates: Sequence[int], least: int = 5,
            like: float = 1.3, line: float = 0.25, touch: float = 0.35, overlap: float = 0.3) -> list[int]:
    """Of the `candidates` (indices into `boxes`: found, and read as a tile, but too unsurely to
    say which), those that continue a row of tiles: for a row of at least `least` `kept` boxes
    standing in one line (`one_line`) and touching (`groups`) each other or through candidates (a
    row read surely in short runs, its other tiles between them), a candidate of the row's tiles'
    width and height (each within `like` of the row's median), whose centre lies on the row's
    line (off it by under `line` x the tiles' size across the row), that touches the row or a
    candidate taken before it (a gap under `touch` x that size), and lies over no kept or taken
    box (under `overlap` of its area). A hand photographed out of focus, or drawn in artwork the models never
    saw, is read surely in part: its other tiles are still tiles, in the row, and the player is
    better served by the classifier's best reading, shown as unsure, than by a gap."""
    kept_boxes = [boxes[i] for i in kept]
    pool = kept_boxes + [boxes[c] for c in candidates]
    taken: list[int] = []
    for g in groups(pool, tile_size(kept_boxes)):
        row = [pool[k] for k in g if k < len(kept_boxes)]
        if len(row) < least or not one_line(row):
            continue
        ws = sorted(b[2] - b[0] for b in row)
        hs = sorted(b[3] - b[1] for b in row)
        w, h = ws[len(ws) // 2], hs[len(hs) // 2]
        fitted = _fit_line(row)
        members = list(row)
        left = [c for c in candidates if c not in taken]
        grew = True
        while grew:
            grew = False
            for c in list(left):
                b = boxes[c]
                bw, bh = b[2] - b[0], b[3] - b[1]
                if not (w / like <= bw <= w * like and h / like <= bh <= h * like):
                    continue
                if fitted.off(b) >= line * fitted.size:
                    continue
                if any(inside_share(b, k) >= overlap for k in kept_boxes + [boxes[j] for j in taken]):
                    continue
                if min(_gap(b, m) for m in members) < touch * fitted.size:
                    taken.append(c)
                    members.append(b)
                    left.remove(c)
                    grew = True
    return sorted(taken)


def among_tiles(boxes: Sequence[Box], kept: Sequence[int], candidates: Sequence[int], least: int = 3,
                like: float = 1.75, reach: float = 3.0, overlap: float = 0.2) -> list[int]:
    """Of the `candidates` (indices into `boxes`), those lying among the `kept` tiles: when at
    least `least` tiles are kept, a candidate of about their size (its `side` within `like` of
    the tiles' `tile_size`) whose gap to the nearest kept tile is under `reach` x that size, and
    that lies over no kept tile (under `overlap` of its area). Tiles lie near tiles: a blank
    haku face up in a pile or a tile standing on its own among others gives the detector little
    to see, while the clutter of a room (a cupboard, a kettle) stands further off or is of
    another size."""
    if len(kept) < least:
        return []
    kept_boxes = [boxes[i] for i in kept]
    size = tile_size(kept_boxes)
    if size is None:
        return []
    out: list[int] = []
    for c in candidates:
        b = boxes[c]
        s = side(b)
        if s <= 0 or abs(math.log(s / size)) > math.log(like):
            continue
        if any(inside_share(b, k) >= overlap for k in kept_boxes):
            continue
        if min(_gap(b, k) for k in kept_boxes) < reach * size:
            out.append(c)
    return out


def lone(boxes: Sequence[Box], kept: Sequence[int], candidates: Sequence[int], reach: float = 1.0) -> list[int]:
    """Of the `candidates` (indices into `boxes`, among `kept`), those with no other kept box
    within `reach` x their own `side`: a thing on its own, not one of a group of tiles."""
    out: list[int] = []
    for c in candidates:
        b = boxes[c]
        near = reach * side(b)
        if not any(_gap(b, boxes[k]) <= near for k in kept if k != c):
            out.append(c)
    return out


CROWD_REACH = 0.1  # boxes read as one tile chain into a run when the gap between them is under this of their height
CROWD_NEAR = 4  # the upright tiles nearest a run, beside it in its row, give the width of a tile there
# a run this long at least is judged: a box across the edge of two like tiles makes three (two boxes
# touching, in a scene of tiles lying every way, are two tiles however narrow beside their neighbours)
CROWD_LEAST = 3
# ...of boxes level with each other, overlapping for this share of the lower one's height: a row
# aslant, read as it lies, has its boxes wider than its tiles and stepping up or down (a validation
# hand under glare, 30 degrees aslant: three runs of three boxes whose widths overlap)
CROWD_LEVEL = 0.8


def _upright(b: Sequence[float]) -> bool:
    return b[2] - b[0] < b[3] - b[1]


def _beside(a: Sequence[float], b: Sequence[float], share: float = 0.5) -> bool:
    """Whether two boxes lie in one row: overlapping for `share` of the lower one's height."""
    return min(a[3], b[3]) - max(a[1], b[1]) >= share * min(a[3] - a[1], b[3] - b[1])


def crowded(boxes: Sequence[Box], kept: Sequence[int], codes: Mapping[int, str], confidences: Mapping[int, float],
            slack: float = 0.5, smallest: float = 0.0) -> list[int]:
    """Of the `kept` boxes, those one too many in a run of boxes read as the same tile (`codes`, by
    index), upright, level (CROWD_LEVEL) and side by side (gaps under CROWD_REACH of their
    height): when a run of CROWD_LEAST or more spans less than its count less `slack` of the width
    of the upright tiles beside it (the median of the CROWD_NEAR nearest in its row, at least
    two), the least sure (`confidences`, by index) go until it holds as many as it spans. Two
    tiles of a kind boxed three times, in narrow boxes over each and one across their edge: a
    pattern repeats across the edge of like tiles. Rows whose tiles (those beside the run) are under
    `smallest` in side are not judged: far off, the boxes lie loosely over the tiles and overlap
    each other (a kan of 6m three times farther off, 17 px wide boxes on a 15 px pitch)."""
    out: list[int] = []
    upright = [i for i in kept if _upright(boxes[i])]
    by_code: dict[str, list[int]] = {}
    for i in upright:
        by_code.setdefault(codes[i], []).append(i)
    for members in by_code.values():
        members.sort(key=lambda i: boxes[i][0])
        runs: list[list[int]] = []
        for i in members:
            last = runs[-1][-1] if runs else None
            if (last is not None and _beside(boxes[last], boxes[i], CROWD_LEVEL)
                    and boxes[i][0] <= boxes[last][2] + CROWD_REACH * (boxes[i][3] - boxes[i][1])):
                runs[-1].append(i)
            else:
                runs.append([i])
        for run in runs:
            if len(run) < CROWD_LEAST:
                continue
            x1, x2 = boxes[run[0]][0], max(boxes[i][2] for i in run)
            middle = (x1 + x2) / 2
            near = sorted((k for k in upright if k not in run and any(_beside(boxes[k], boxes[i]) for i in run)),
                          key=lambda k: abs((boxes[k][0] + boxes[k][2]) / 2 - middle))[:CROWD_NEAR]
            if len(near) < 2 or statistics.median(side(boxes[k]) for k in near) < smallest:
                continue
            width = statistics.median(boxes[k][2] - boxes[k][0] for k in near)
            holds = max(1, math.floor((x2 - x1) / width + slack))
            if holds < len(run):
                out += sorted(run, key=lambda i: confidences[i])[:len(run) - holds]
    return sorted(out)


def far_apart(boxes: Sequence[Box], kept: Sequence[int], reach: float = 5.0, least: int = 3, few: int = 1) -> list[int]:
    """Of the `kept` boxes, those in a cluster of at most `few` (boxes linked by gaps of at most
    `reach` x the kept boxes' `tile_size`) whose gap to every other kept box is more than that,
    when at least `least` others are kept: one box on its own (few 1), or a pair (few 2)."""
    if len(kept) <= least:
        return []
    size = tile_size([boxes[i] for i in kept])
    if size is None:
        return []
    far = reach * size
    out: list[int] = []
    for c in kept:
        cluster, todo = {c}, [c]
        while todo and len(cluster) <= few:
            k = todo.pop()
            for j in kept:
                if j not in cluster and _gap(boxes[k], boxes[j]) <= far:
                    cluster.add(j)
                    todo.append(j)
        if len(cluster) <= few and len(kept) - len(cluster) >= least:
            out.append(c)
    return out


def specks(boxes: Sequence[Box], kept: Sequence[int], confidences: Sequence[float], share: float = 0.6,
           sure: float = 0.9) -> list[int]:
    """The boxes of `kept` (indices into `boxes`) smaller than `share` times the kept tiles' size
    (`tile_size`) and read as a tile less surely than `sure` (`confidences`, one per box): a fleck
    of granite that a pass at a finer scale boxed and the classifier took for a 3s (at 0.56 with
    stage 2f's classifier, 0.79 with 2g's). A tile far smaller than the others (a discard across
    the table) is read surely all the same."""
    size = tile_size([boxes[i] for i in kept])
    if size is None:
        return []
    return [i for i in kept if side(boxes[i]) < share * size and confidences[i] < sure]


def giants(boxes: Sequence[Box], kept: Sequence[int], blanks: Sequence[int], ratio: float = 1.6, least: int = 3,
           near: float = 1.6) -> list[int]:
    """The boxes of `blanks` (indices into `boxes`, among `kept`, each read as a blank face) more
    than `ratio` times the size of the other kept tiles (`tile_size`, at least `least` of them),
    with no tile of ink within `near` times its own size: a plain light thing far larger than the
    tiles (a kettle at the back of the counter read as haku at 0.95; a sheet, a cup). A haku in a
    hand near the camera, larger than the discards across the table, has its hand's tiles beside
    it at its size; two plain things of one size do not vouch for each other."""
    blank = set(blanks)
    out = []
    for i in blanks:
        others = [boxes[j] for j in kept if j != i]
        if len(others) < least:
            continue
        size = tile_size(others)
        s = side(boxes[i])
        if (size is not None and s > ratio * size
                and not any(side(boxes[j]) * near > s for j in kept if j not in blank)):
            out.append(i)
    return out


LOOKALIKE_FEW = 2  # lookalikes judges a photo's tiles only when at most this many are read


def lookalikes(boxes: Sequence[Box], kept: Sequence[int], confidences: Sequence[float], others: Sequence[int],
               ratio: float = 1.3, least: int = 3, sure: float = 0.97, few: int = LOOKALIKE_FEW,
               smallest: float = 0.0) -> list[int]:
    """The boxes of `kept` (indices into `boxes`) read as a tile less surely than `sure`
    (`confidences`, one per box), when at most `few` are kept and at least `least` of `others`
    (boxes read as no tile, none lying over a kept box) lie within `ratio` of their size, more than
    the kept boxes of that size: one of a kind of thing the classifier reads as no tile (seven
    playing cards, six read as no tile and a ten of diamonds as 0s at 0.92; dominoes, a half read
    as 8s). Among more tiles, an unsure thing apart from them is judged by their company
    (`drop_unsure_groups`): a photo of scattered tiles on a granite counter has as many boxes of
    the tiles' size read as no tile as it has tiles. Boxes of side under `smallest` are not judged:
    tiles far off, as small as the flecks of the table around them, are boxed as those are."""
    if not kept or len(kept) > few or len(others) < least:
        return []
    spread = math.log(ratio)

    def like(s: float, pool: Sequence[int]) -> int:
        return sum(1 for j in pool if side(boxes[j]) > 0 and abs(math.log(side(boxes[j]) / s)) <= spread)

    out = []
    for i in kept:
        s = side(boxes[i])
        if confidences[i] < sure and s > max(smallest, 0.0):
            alike = like(s, others)
            if alike >= least and alike > like(s, kept):
                out.append(i)
    return out


def keep_tiles(boxes: Sequence[Box], confidences: Sequence[float], misfits: bool = True,
               unsure_groups: bool = True, rows: bool = True, tileness: Sequence[float] | None = None,
               piles: bool = True) -> list[int]:
    """Indices of the classified boxes that stay: `drop_misfits`, then `drop_unsure_groups` on
    what is left (the one call a reader makes after classifying; recognition.pipeline and the
    phone's reader share it)."""
    idx = drop_misfits(boxes, confidences) if misfits else list(range(len(boxes)))
    if unsure_groups and idx:
        kept = drop_unsure_groups([boxes[i] for i in idx], [confidences[i] for i in idx], rows=rows,
                                  tileness=[tileness[i] for i in idx] if tileness is not None else None,
                                  piles=piles)
        idx = [idx[k] for k in kept]
    return idx


__all__ = ["Box", "DEFAULT_RULE", "ScaleRule", "among_tiles", "coarse", "drop_misfits", "drop_unsure_groups", "fit", "groups",
           "in_rows", "inside_share", "iou", "far_apart", "giants", "keep_tiles", "lone", "lookalikes",
           "merge_fragments", "merge_passes", "one_line", "probing", "row_tilt",
           "rescan_sides", "rows_of", "set_apart", "side", "snap_to_rows", "specks", "tile_size"]
