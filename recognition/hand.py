"""Reading a laid-out hand: which rows are called melds, which tile won, and where the classifier
was unsure, the reading that makes a legal (and if possible complete) hand.

Layout conventions: the concealed tiles lie in one row; a called meld is a group of three or four
set apart with one tile turned sideways; a concealed kan shows two of its four tiles face down;
a single tile set apart at the end of the concealed row is the winning tile.

The search: each tile keeps its classifier's top readings. Readings are enumerated best first
(total log-probability) until one obeys the rules of the game (at most four of a kind, one red
five per suit, melds that are melds) and, when the tile count is that of a winning hand, forms a
complete hand. Tiles whose reading was changed or stayed unsure are reported.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from itertools import product

from scoring.errors import detail
from scoring.hand import is_complete, meld_shape
from scoring.tiles import TILE_CODES, Tile, parse_tiles, to_notation

MAX_ALTERNATIVES = 3
MIN_ALT_PROB = 0.01
MAX_TILE_COST = 2.5  # nats: a tile's reading may change only to one at least e^-2.5 (8%) as likely
MAX_COST = 4.0  # nats: how much less likely than the classifier's own reading a proposal may be
MAX_POPS = 1500
# a winning reading as read may not be the hand photographed: in a set drawn in an unfamiliar hand,
# 5m6m read as 8m9m, 4m4m4m as 5m5m5m still win. When another winning reading of other tiles lies
# within this many nats of the best (its tiles read at 1% or more), the tiles where they differ are
# flagged for checking (models/HISTORY.md, "Another winning reading"); None: not looked for
RIVAL_COST: float | None = 2.5
# a tile read less surely than this is shown as one to check (Detection.unsure), in the hand or
# not; 0.8, not 0.9: over the real photos' validation scenes a tile read wrong is as often flagged
# at either (5 of 12), while right tiles flagged go from 1.6% to 4.5% (models/HISTORY.md, "One
# threshold for the tiles to check")
UNSURE = 0.8


@dataclass(frozen=True)
class TileReading:
    """What the hand search needs of one tile: its candidates (code, probability), best first."""

    candidates: tuple[tuple[str, float], ...]
    sideways: bool = False

    @property
    def face_down(self) -> bool:
        return self.candidates[0][0] == "back"


@dataclass(frozen=True)
class MeldSlot:
    """A group read as a called meld or a concealed kan: tile positions and the meld type."""

    kind: str  # chi | pon | daiminkan | kakan | ankan ("chi" and "pon" decided by the tiles)
    positions: tuple[int, ...]


@dataclass(frozen=True)
class Proposal:
    hand: str
    melds: tuple[dict, ...]
    win_tile: str | None
    complete: bool
    readings: tuple[str, ...]  # the proposed code of every tile (index = tile index)
    changed: tuple[int, ...]  # tiles whose reading differs from the classifier's first choice
    uncertain: tuple[int, ...]
    message: str = ""
    concealed: tuple[int, ...] = field(default=())
    detail: dict | None = None  # the message's stable id and parameters (scoring.errors.DETAILS)
    extra: tuple[int, ...] = field(default=())  # tiles in the photo but not in the hand (recognition.reading)
    set_apart: int | None = None  # the tile set apart after the row as the winning tile, if one is

    def to_json(self) -> dict:
        return {
            "hand": self.hand, "melds": list(self.melds), "win_tile": self.win_tile,
            "complete": self.complete, "changed": list(self.changed), "uncertain": list(self.uncertain),
            "message": self.message, "concealed": list(self.concealed), "extra": list(self.extra),
            "set_apart": self.set_apart, **({"detail": self.detail} if self.detail else {}),
        }


_TILE = {code: Tile.parse(code) for code in TILE_CODES}  # parsed once: the search checks many readings


def _kind(code: str) -> int:
    return _TILE[code].index


def find_melds(rows: list[list[int]], readings: list[TileReading]) -> tuple[list[int], list[MeldSlot], int | None]:
    """Split rows into the concealed tiles, meld slots and the winning tile set apart.

    The concealed part is the longest row without face-down tiles and its same-line neighbours
    that have no sideways tile; a row of 3 or 4 with a sideways tile is a called meld (4: a kan);
    a row of 4 with face-down tiles is a concealed kan; a lone tile right after the concealed row
    is the winning tile."""
    melds: list[MeldSlot] = []
    concealed: list[int] = []
    win: int | None = None
    if not rows:
        return concealed, melds, win
    rest: list[list[int]] = []
    for row in rows:
        n_side = sum(readings[i].sideways for i in row)
        n_down = sum(readings[i].face_down for i in row)
        slot = None
        if len(row) in (3, 4) and n_side >= 1 and n_down == 0:
            slot = MeldSlot("pon" if len(row) == 3 else ("kakan" if n_side >= 2 else "daiminkan"), tuple(row))
        elif len(row) == 4 and n_down == 2:
            slot = MeldSlot("ankan", tuple(row))
        if slot is not None and _could_be_meld(slot, readings):
            melds.append(slot)
        else:
            rest.append(row)
    if rest:
        main = max(range(len(rest)), key=lambda k: len(rest[k]))
        concealed = list(rest[main])
        after = rest[main + 1] if main + 1 < len(rest) else None
        if after is not None and len(after) == 1 and len(rest[main]) > 1 and not readings[after[0]].face_down:
            win = after[0]
            concealed.append(win)
        for k, row in enumerate(rest):
            if k == main or (win is not None and row is after):
                continue
            concealed.extend(i for i in row if not readings[i].face_down)
    return concealed, melds, win


def _could_be_meld(slot: MeldSlot, readings: list[TileReading]) -> bool:
    """Whether some choice among the tiles' candidate readings makes the group a meld (a row
    that cannot be one is left with the concealed tiles rather than proposed as a broken meld)."""
    options = [[c for c, p in readings[i].candidates[:MAX_ALTERNATIVES] if p >= MIN_ALT_PROB] or
               [readings[i].candidates[0][0]] for i in slot.positions]
    for combo in product(*options):
        if _meld_type(slot, list(combo)) is not None:
            return True
    return False


def _meld_type(slot: MeldSlot, codes: list[str]) -> str | None:
    faces = [c for c in codes if c != "back"]
    if any(c == "back" for c in codes) and slot.kind != "ankan":
        return None
    kinds = [_kind(c) for c in faces]
    if slot.kind == "ankan":  # two faces and two backs: the faces must be alike
        return "ankan" if kinds and min(kinds) == max(kinds) else None
    shape = meld_shape(kinds)
    if slot.kind == "pon":
        return shape if shape in ("pon", "chi") else None
    return slot.kind if shape == "kan" else None


def _check(codes: list[str], concealed: list[int], slots: list[MeldSlot], need_complete: bool) -> bool:
    counts = [0] * 34
    reds = [0, 0, 0]
    for i in concealed + [p for s in slots for p in s.positions]:
        c = codes[i]
        if c == "back":
            continue
        t = _TILE[c]
        counts[t.index] += 1
        if t.red:
            reds[t.index // 9] += 1
    for s in slots:  # the two hidden tiles of a concealed kan are of its kind too
        if s.kind == "ankan":
            faces = [codes[p] for p in s.positions if codes[p] != "back"]
            if faces:
                counts[_kind(faces[0])] += sum(1 for p in s.positions if codes[p] == "back")
    if any(c > 4 for c in counts) or any(r > 1 for r in reds):
        return False
    for s in slots:
        if _meld_type(s, [codes[p] for p in s.positions]) is None:
            return False
    if need_complete:
        conc = [0] * 34
        for i in concealed:
            conc[_kind(codes[i])] += 1
        return is_complete(tuple(conc), 4 - len(slots))
    return True


def propose(readings: list[TileReading], rows: list[list[int]]) -> Proposal:
    codes0 = [r.candidates[0][0] for r in readings]
    concealed, slots, win = find_melds(rows, readings)
    concealed = [i for i in concealed if codes0[i] != "back"]
    n_needed = 14 - 3 * len(slots)
    need_complete = len(concealed) == n_needed and len(slots) <= 4
    # the tiles the search may change, each with its candidates best first
    pos = sorted(set(concealed) | {p for s in slots for p in s.positions})
    options: list[list[tuple[str, float]]] = []
    for i in pos:
        cands = [(c, p) for c, p in readings[i].candidates[:MAX_ALTERNATIVES] if p >= MIN_ALT_PROB or c == codes0[i]]
        if codes0[i] == "back":
            cands = [cands[0]]
        else:
            cands = [(c, p) for c, p in cands if c != "back"] or [readings[i].candidates[0]]
        top = math.log(max(cands[0][1], 1e-9))
        # every candidate: the best reading keeps to MAX_TILE_COST (search), a rival need not
        options.append([(c, top - math.log(max(p, 1e-9))) for c, p in cands
                        if RIVAL_COST is not None or top - math.log(max(p, 1e-9)) <= MAX_TILE_COST])

    def codes_of(state: tuple[int, ...]) -> list[str]:
        out = list(codes0)
        for k, i in enumerate(pos):
            out[i] = options[k][state[k]][0]
        return out

    rivals: list[list[str]] = []  # a second winning reading, when search(True) finds one

    def search(complete: bool) -> list[str] | None:
        """Readings best first until one passes the rules (and completes the hand): the best, each
        tile read at most MAX_TILE_COST and the whole at most MAX_COST from the classifier's own
        readings. Completing the hand, the search goes on to RIVAL_COST past the best, any
        candidate of a tile allowed, for another winning reading of other tiles (`rivals`)."""
        start = tuple(0 for _ in pos)
        heap = [(0.0, start, 0)]
        pops = 0
        best: list[str] | None = None
        best_cost = 0.0
        reach = MAX_COST + (RIVAL_COST or 0.0) if complete else MAX_COST
        while heap and pops < MAX_POPS:
            cost, state, last = heapq.heappop(heap)
            pops += 1
            if best is None and cost > MAX_COST or best is not None and cost - best_cost > (RIVAL_COST or 0.0):
                break
            codes = codes_of(state)
            if _check(codes, concealed, slots, complete):
                if best is None and all(options[k][state[k]][1] <= MAX_TILE_COST for k in range(len(pos))):
                    best, best_cost = codes, cost
                    if not complete or RIVAL_COST is None:
                        break
                elif best is not None and sorted(codes) != sorted(best):
                    rivals.append(codes)
                    break
            for k in range(last, len(pos)):
                if state[k] + 1 < len(options[k]):
                    nxt = list(state)
                    nxt[k] += 1
                    c = cost - options[k][state[k]][1] + options[k][state[k] + 1][1]
                    if c <= reach:
                        heapq.heappush(heap, (c, tuple(nxt), k))
        return best

    def repair() -> list[str] | None:
        """Rules only, greedily: move the tile whose next reading costs least, among the tiles
        that break a rule, until none does (fast on photos with many tiles)."""
        state = [0] * len(pos)
        where = {i: k for k, i in enumerate(pos)}
        for _ in range(2 * len(pos) + 1):
            codes = codes_of(tuple(state))
            if _check(codes, concealed, slots, False):
                return codes
            counts = [0] * 34
            reds = [0, 0, 0]
            for i in pos:
                if codes[i] != "back":
                    t = _TILE[codes[i]]
                    counts[t.index] += 1
                    if t.red:
                        reds[t.index // 9] += 1
            bad = {i for i in pos if codes[i] != "back" and (counts[_TILE[codes[i]].index] > 4
                                                              or (_TILE[codes[i]].red and reds[_TILE[codes[i]].index // 9] > 1))}
            for sl in slots:
                if _meld_type(sl, [codes[p] for p in sl.positions]) is None:
                    bad.update(sl.positions)
            steps = [(options[where[i]][state[where[i]] + 1][1] - options[where[i]][state[where[i]]][1], where[i])
                     for i in bad if state[where[i]] + 1 < len(options[where[i]])
                     and options[where[i]][state[where[i]] + 1][1] <= MAX_TILE_COST]
            if not steps:
                return None
            state[min(steps)[1]] += 1
        return None

    message = ""
    note = None
    complete = False
    codes = search(True) if need_complete and pos else None
    if codes is not None:
        complete = True
    else:
        codes = repair() if pos else None
        if codes is None:
            codes = list(codes0)
            message = "the tiles break the rules of the game (more than four of a kind?): please check them"
            note = detail("photo_breaks_rules")
        if not need_complete:
            n_found = len(concealed) + 3 * len(slots)
            if not message:
                message = f"{n_found} tiles found in the hand; a winning hand has 14 (and one more for each kan)"
                note = detail("photo_tile_count", count=n_found)
        else:
            if not message:
                message = "the tiles do not form a complete hand: please check the highlighted ones"
                note = detail("photo_not_complete")
    changed = tuple(i for i in pos if codes[i] != codes0[i])
    rival = {i for r in rivals for i in pos if complete and r[i] != codes[i]}
    uncertain = tuple(sorted(set(changed) | rival | {i for i in pos if readings[i].candidates[0][1] < UNSURE}))

    melds = []
    for s in slots:
        mcodes = [codes[p] for p in s.positions]
        mtype = _meld_type(s, mcodes) or s.kind
        faces = [c for c in mcodes if c != "back"]
        if s.kind == "ankan" and faces:
            base = faces[0] if faces[0][0] != "0" else "5" + faces[0][1]
            mcodes = [c if c != "back" else base for c in mcodes]
        melds.append({"type": mtype, "tiles": to_notation(parse_tiles("".join(c for c in _compact(mcodes))))})
    hand_codes = [codes[i] for i in concealed]
    # the tile set apart, else the last of the hand as the photo reads (indices are in reading
    # order): a row split by a gap is won on its rightmost tile, not on the end of its shorter part
    win_tile = codes[win] if win is not None else (codes[max(concealed)] if concealed else None)
    hand = to_notation(parse_tiles("".join(_compact(hand_codes)))) if hand_codes else ""
    return Proposal(hand, tuple(melds), win_tile, complete, tuple(codes), changed, uncertain, message, tuple(concealed), note,
                    set_apart=win)


def _compact(codes: list[str]) -> list[str]:
    """Codes written one by one ('1m', '0p') form valid notation when concatenated."""
    return [c for c in codes if c != "back"]
