"""A score request in, the hand's value out.

:func:`parse_request` turns the JSON-like payload into a validated :class:`Win`;
:func:`evaluate` tries every interpretation of the hand (each decomposition and each place the
winning tile can sit) and keeps the one worth the most, as every rule text requires.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ._checks import score_request as quick_score_request
from .contract import FLAGS, score_request
from .errors import ScoringError
from .fu import FuLine, count_fu, fu_details
from .hand import KOUTSU, SHUNTSU, Counts, HandGroup, decompositions, is_chiitoitsu, is_kokushi, meld_shape
from .points import base_points, hand_payments, payment_total, with_honba
from .rules import PRESETS, Ruleset, get_ruleset
from .schema import validator
from .tiles import EAST, WIND_NAMES, Scan, Tile, counts_notation, dora_after, index_code, parse_tiles, scan_tiles, to_notation
from .yaku import BY_ID, Context, HandFacts, find_yaku, find_yakuman

FLAG_NAMES = frozenset(FLAGS)
WIND_INDEX = {name: EAST + i for i, name in enumerate(WIND_NAMES)}


KAN_TYPES = frozenset(("daiminkan", "kakan", "ankan"))


class Meld:
    """A declared meld: its type, its tiles, and the group it makes for the yaku and fu code."""

    __slots__ = ("type", "tiles", "group", "notation")

    def __init__(self, type: str, tiles: tuple[Tile, ...], group: HandGroup, notation: str) -> None:
        self.type = type
        self.tiles = tiles
        self.group = group          # (kind, index, concealed, kan, called)
        self.notation = notation    # the tiles as sorted notation

    @property
    def is_kan(self) -> bool:
        return bool(self.group[3])

    @property
    def is_called(self) -> bool:
        return bool(self.group[4])

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "tiles": self.notation}


class Win:
    """A validated score request: the facts of the win and the tile counts the evaluation needs."""

    __slots__ = ("rules", "counts", "red_kinds", "melds", "win_tile", "tsumo", "seat_wind", "round_wind", "flags",
                 "dora_indicators", "ura_indicators", "honba", "riichi_sticks", "notes", "all_counts", "red_fives",
                 "closed", "dora_count", "note_ids")

    def __init__(self, rules: Ruleset, red_kinds: list[int], melds: tuple[Meld, ...], win_tile: Tile, tsumo: bool,
                 seat_wind: int, round_wind: int, dora_indicators: tuple[Tile, ...], ura_indicators: tuple[Tile, ...],
                 honba: int, riichi_sticks: int, closed: bool) -> None:
        self.rules = rules
        self.red_kinds = red_kinds            # kinds (4, 13, 22) of the red fives among the concealed tiles
        self.melds = melds
        self.win_tile = win_tile
        self.tsumo = tsumo
        self.seat_wind = seat_wind
        self.round_wind = round_wind
        self.dora_indicators = dora_indicators
        self.ura_indicators = ura_indicators
        self.honba = honba
        self.riichi_sticks = riichi_sticks
        self.closed = closed                  # no called melds (concealed kans allowed)
        self.flags: frozenset[str] = frozenset()   # the situational toggles that hold (set once checked)
        self.notes: list[str] = []
        self.note_ids: list[str] = []         # the notes' stable ids, in the same order
        self.counts: Counts = ()              # the concealed tiles (with the winning tile) by kind
        self.all_counts: Counts = ()          # concealed and melded tiles by kind
        self.red_fives = 0                    # red fives among them
        self.dora_count = 0                   # dora han the player counted (beside any indicators)

    @property
    def dealer(self) -> bool:
        return self.seat_wind == EAST


# --- parsing -----------------------------------------------------------------------------------

def _is_mapping(value: Any) -> bool:
    return type(value) is dict or isinstance(value, Mapping)  # the ABC check only for other mappings


def _flags(payload: Mapping[str, Any]) -> set[str]:
    """The situational toggles that hold (their type was checked against the contract)."""
    named = FLAG_NAMES.intersection(payload)  # most requests name few flags
    return {name for name in named if payload[name] is True}


def _int(payload: Mapping[str, Any], name: str) -> int:
    value: int = payload.get(name, 0)
    return value


def _tiles_field(payload: Mapping[str, Any], name: str) -> tuple[Tile, ...]:
    value: object = payload.get(name) or ""
    if isinstance(value, list):
        value = "".join(value)
    assert isinstance(value, str)  # the contract allows text, a list of text, or nothing
    return _parse_short(value, name)


_SHORT: dict[str, tuple[Tile, ...]] = {}


def _parse_short(notation: str, name: str) -> tuple[Tile, ...]:
    """Melds, indicators and winning tiles: few distinct strings, so each is parsed once."""
    tiles = _SHORT.get(notation)
    if tiles is None:
        tiles = tuple(parse_tiles(notation, name))  # raises for bad notation: never cached
        if len(_SHORT) < 50_000:
            _SHORT[notation] = tiles
    return tiles


def _sorted_notation(notation: str) -> str:
    return to_notation(_parse_short(notation, "melds"))


_MELDS: dict[tuple[str, str], Meld] = {}  # (type, notation) -> Meld: a meld is a value, and few are distinct


def _parse_meld(raw: Mapping[str, str], n: int) -> Meld:
    """A meld the contract has checked (an object, a known type, notation): its tiles must make it."""
    kind, notation = raw["type"], raw["tiles"]
    key = (kind, notation)
    known = _MELDS.get(key)
    if known is not None:
        return known
    field_name = f"melds[{n}]"
    tiles = _parse_short(notation, f"{field_name}.tiles")
    indices = sorted(t.index for t in tiles)
    shape = meld_shape(indices)
    if kind == "chi" and shape != "chi":
        raise ScoringError(f"{field_name}.tiles", "impossible", "meld_chi")
    if kind != "chi" and shape != ("pon" if kind == "pon" else "kan"):
        size = 3 if kind == "pon" else 4
        raise ScoringError(f"{field_name}.tiles", "impossible", "meld_same", size=size)
    called = kind != "ankan"
    group = (SHUNTSU if kind == "chi" else KOUTSU, indices[0], not called, kind in KAN_TYPES, called)
    meld = Meld(kind, tuple(tiles), group, _sorted_notation(notation))
    if len(_MELDS) < 10000:
        _MELDS[key] = meld
    return meld


_check: Callable[[Any, str], None] | None = None


def check_request(payload: Any) -> None:
    """Refuse a score request that breaks its declared shape (scoring/contract.py), naming the field."""
    global _check
    if _check is None:
        def explain(notation: str, field: str) -> object:
            return parse_tiles(notation, field)  # raises the refusal that says where the notation goes wrong
        _check = validator(score_request(), ScoringError, explain={"mpsz": explain}, quick=quick_score_request)
    _check(payload, "")


def parse_request(payload: Any, rules: Ruleset | None = None) -> Win:
    """Validate a score request (the JSON contract of POST /api/score) into a :class:`Win`.

    Which fields exist, their types, bounds and choices are checked against the declared contract
    (:func:`check_request`); what is checked here is what a schema cannot say."""
    if not _is_mapping(payload):
        raise ScoringError(None, "malformed", "request_object")
    if rules is None:
        name, overrides = payload.get("ruleset", "wrr"), payload.get("rules")
        preset = PRESETS.get(name) if not overrides and isinstance(name, str) else None
        rules = preset if preset is not None else get_ruleset(name, overrides)
    if not quick_score_request(payload):  # the compiled quick test takes a valid request in one native call
        check_request(payload)  # names the field and the reason (or takes what the quick test was unsure of)
    notation = payload["hand"]
    scan = scan_tiles(notation)
    if scan is None:
        parse_tiles(notation, "hand")  # raises the precise error
        raise ScoringError("hand", "malformed", "notation_unreadable")  # pragma: no cover - parse_tiles raised
    melds_raw = payload.get("melds") or ()
    melds = tuple([_parse_meld(m, n) for n, m in enumerate(melds_raw)])
    tsumo = payload.get("win", "ron") == "tsumo"

    named_tile = payload.get("win_tile")
    if named_tile:
        win_tiles = _parse_short(named_tile, "win_tile")
        if len(win_tiles) != 1:  # pragma: no cover - the contract's pattern lets one tile through
            raise ScoringError("win_tile", "malformed", "win_tile_one")
        win_tile = win_tiles[0]
    elif scan.size:
        win_tile = Tile(scan.last, scan.last_red)  # the last tile written wins unless one is named
    else:
        raise ScoringError("hand", "impossible", "hand_empty")

    flags = _flags(payload)
    win_req = Win(
        rules=rules, red_kinds=scan.red_kinds, melds=melds, win_tile=win_tile, tsumo=tsumo,
        seat_wind=WIND_INDEX[payload.get("seat_wind", "east")], round_wind=WIND_INDEX[payload.get("round_wind", "east")],
        dora_indicators=_tiles_field(payload, "dora_indicators"),
        ura_indicators=_tiles_field(payload, "ura_indicators"),
        honba=_int(payload, "honba"), riichi_sticks=_int(payload, "riichi_sticks"),
        closed=all(m.type == "ankan" for m in melds) if melds else True,
    )
    win_req.dora_count = _int(payload, "dora_count")
    _check_tiles(win_req, scan)
    win_req.flags = frozenset(_check_flags(win_req, flags))
    return win_req


def _check_tiles(w: Win, scan: Scan) -> None:
    """Check the tile counts, and keep them on the request for the evaluation."""
    expected = 14 - 3 * len(w.melds)
    if scan.size != expected:
        raise ScoringError("hand", "impossible", "tile_count", count=scan.size, expected=expected, melds=len(w.melds))
    counts = scan.counts
    win = w.win_tile
    plain = counts[win.index] - (win.index in w.red_kinds)
    if (win.red and win.index not in w.red_kinds) or (not win.red and plain < 1):
        raise ScoringError("win_tile", "impossible", "win_tile_missing", tile=win.code)
    w.counts = tuple(counts)
    reds = list(w.red_kinds)
    for m in w.melds:
        for t in m.tiles:
            counts[t.index] += 1
            if t.red:
                reds.append(t.index)
    w.all_counts = tuple(counts)
    w.red_fives = len(reds)
    for t in w.dora_indicators + w.ura_indicators:
        counts[t.index] += 1
        if t.red:
            reds.append(t.index)
    if max(counts) > 4:
        over = [index_code(i) for i, c in enumerate(counts) if c > 4]
        raise ScoringError("hand", "impossible", "too_many_copies", tiles=", ".join(over))
    if len(set(reds)) != len(reds):  # one red five per suit
        suit = "mps"[min(i for i in reds if reds.count(i) > 1) // 9]
        raise ScoringError("hand", "impossible", "two_red_fives", suit=suit)
    if len(w.dora_indicators) > 5:
        raise ScoringError("dora_indicators", "impossible", "too_many_dora_indicators", count=len(w.dora_indicators))
    if len(w.ura_indicators) > len(w.dora_indicators):
        raise ScoringError("ura_indicators", "impossible", "too_many_ura_indicators")


def _note(w: Win, text: str, note_id: str) -> None:
    """A note for the player: the English text, and a stable id an app can word in its own language."""
    w.notes.append(text)
    w.note_ids.append(note_id)


def _check_flags(w: Win, flags: set[str]) -> set[str]:
    rules, name = w.rules, w.rules.title
    if "double_riichi" in flags:
        flags.add("riichi")
    if "riichi" in flags and not w.closed:
        raise ScoringError("riichi", "impossible", "riichi_closed")
    if "ippatsu" in flags and "riichi" not in flags:
        raise ScoringError("ippatsu", "impossible", "ippatsu_needs_riichi")
    if "haitei" in flags and not w.tsumo:
        raise ScoringError("haitei", "impossible", "haitei_tsumo")
    if "houtei" in flags and w.tsumo:
        raise ScoringError("houtei", "impossible", "houtei_ron")
    if "rinshan" in flags:
        if not w.tsumo:
            raise ScoringError("rinshan", "impossible", "rinshan_tsumo")
        if not any(m.is_kan for m in w.melds):
            raise ScoringError("rinshan", "impossible", "rinshan_needs_kan")
        if "ippatsu" in flags:
            raise ScoringError("ippatsu", "impossible", "rinshan_ippatsu")
    if "chankan_ankan" in flags:
        flags.add("chankan")
        if not rules.chankan_ankan_kokushi:
            raise ScoringError("chankan_ankan", "impossible", "chankan_ankan_never")
        if not is_kokushi(w.counts):
            raise ScoringError("chankan_ankan", "impossible", "chankan_ankan_kokushi")
    if "chankan" in flags:
        if w.tsumo:
            raise ScoringError("chankan", "impossible", "chankan_ron")
        if "houtei" in flags:
            raise ScoringError("chankan", "impossible", "chankan_houtei")
        if w.counts[w.win_tile.index] != 1:
            raise ScoringError("chankan", "impossible", "chankan_one_copy")
        robbed = w.win_tile.index
        elsewhere = w.all_counts[robbed] - 1 + sum(1 for t in w.dora_indicators + w.ura_indicators if t.index == robbed)
        if elsewhere:
            raise ScoringError("chankan", "impossible", "chankan_copies", tile=index_code(robbed))
    for special, need_tsumo, dealer in (("tenhou", True, True), ("chiihou", True, False), ("renhou", False, False)):
        if special not in flags:
            continue
        if w.melds:
            raise ScoringError(special, "impossible", "special_no_melds", yaku=special)
        if w.tsumo != need_tsumo:
            raise ScoringError(special, "impossible", "special_tsumo" if need_tsumo else "special_ron", yaku=special)
        if w.dealer != dealer:
            raise ScoringError(special, "impossible", "special_dealer" if dealer else "special_non_dealer", yaku=special)
        clash = flags & {"riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan"}
        if clash:
            raise ScoringError(special, "impossible", "special_clash", yaku=special, others=", ".join(sorted(clash)))
    if "haitei" in flags and "rinshan" in flags and not rules.haitei_with_rinshan:
        _note(w, f"{name}: a win on a last replacement tile scores rinshan only, not haitei", "haitei_rinshan")
        flags.discard("haitei")
    if "ippatsu" in flags and not rules.ippatsu:
        _note(w, f"{name} has no ippatsu; it is not counted", "no_ippatsu")
        flags.discard("ippatsu")
    if "renhou" in flags and rules.renhou == "none":
        _note(w, f"renhou is not a yaku under {name}; the hand is scored without it", "no_renhou")
        flags.discard("renhou")
    if w.red_fives and not rules.red_fives:
        _note(w, f"{name} has no red fives: they count as plain fives", "no_red_fives")
    if len(w.dora_indicators) > 1 and not rules.kan_dora:
        _note(w, f"{name} has no kan dora: only the first dora indicator counts", "no_kan_dora")
    if w.ura_indicators:
        if "riichi" not in flags:
            _note(w, "ura dora count only for a riichi hand; the ura indicators are ignored", "ura_needs_riichi")
        elif not rules.ura_dora:
            _note(w, f"{name} has no ura dora; the ura indicators are ignored", "no_ura_dora")
        elif len(w.ura_indicators) > 1 and not rules.kan_ura_dora:
            _note(w, f"{name} has no kan ura dora: only the first ura indicator counts", "no_kan_ura_dora")
    return flags


# --- evaluation --------------------------------------------------------------------------------

def _wait_of_run(start: int, win: int) -> str:
    pos = win - start
    if pos == 1:
        return "kanchan"
    if (pos == 0 and start % 9 == 6) or (pos == 2 and start % 9 == 0):
        return "penchan"
    return "ryanmen"


#: The group tuples (kind, index, concealed, kan, called) of concealed groups, and of a triplet
#: completed by ron (open for fu and for concealed-triplet yaku), made once and shared.
CONCEALED_GROUP = {(kind, index): (kind, index, True, False, False) for kind in (SHUNTSU, KOUTSU) for index in range(34)}
RON_TRIPLET = tuple((KOUTSU, index, False, False, False) for index in range(34))


#: One reading of a hand: (form, the concealed groups, pair index or -1, wait).
Reading = tuple[str, tuple[HandGroup, ...], int, str]


def interpretations(counts: Counts, groups_needed: int, win: int, tsumo: bool) -> list[Reading]:
    """(form, groups, pair, wait) for each way the hand and its winning tile can be read.

    ``groups`` are 5-tuples (kind, index, concealed, kan, called) for the concealed part only.
    """
    out: list[Reading] = []
    for pair, groups in decompositions(counts, groups_needed):
        concealed = tuple([CONCEALED_GROUP[g] for g in groups])
        if pair == win:
            out.append(("standard", concealed, pair, "tanki"))
        seen = []  # two identical groups give the same reading
        for j, (kind, index) in enumerate(groups):
            if kind == KOUTSU and index == win:
                wait = "shanpon"
            elif kind == SHUNTSU and index <= win <= index + 2:
                wait = _wait_of_run(index, win)
            else:
                continue
            if (kind, index, wait) in seen:
                continue
            seen.append((kind, index, wait))
            if wait == "shanpon" and not tsumo:
                out.append(("standard", concealed[:j] + (RON_TRIPLET[index],) + concealed[j + 1:], pair, wait))
            else:
                out.append(("standard", concealed, pair, wait))
    if groups_needed == 4:
        if is_chiitoitsu(counts):
            out.append(("chiitoitsu", (), -1, "tanki"))
        if is_kokushi(counts):
            out.append(("kokushi", (), -1, "kokushi_13" if counts[win] == 2 else "kokushi"))
    return out


def _dora_lines(w: Win, all_counts: Counts) -> list[dict[str, Any]]:
    rules = w.rules
    lines = []
    indicators = w.dora_indicators if rules.kan_dora else w.dora_indicators[:1]
    dora = sum(all_counts[dora_after(t.index)] for t in indicators) + w.dora_count
    if dora:
        lines.append({"id": "dora", "name": "Dora", "han": dora})
    if rules.red_fives and w.red_fives:
        lines.append({"id": "aka_dora", "name": "Red fives (aka dora)", "han": w.red_fives})
    if "riichi" in w.flags and rules.ura_dora and w.ura_indicators:
        ura_ind = w.ura_indicators if rules.kan_ura_dora else w.ura_indicators[:1]
        ura = sum(all_counts[dora_after(t.index)] for t in ura_ind)
        if ura:
            lines.append({"id": "ura_dora", "name": "Ura dora", "han": ura})
    return lines


_DIGIT = tuple(str(i % 9 + 1) for i in range(34))
_SUIT = tuple("mpsz"[i // 9] for i in range(34))


def _group_text(group: HandGroup) -> str:
    kind, index, _concealed, kan, _called = group
    if kind == SHUNTSU:
        return _DIGIT[index] + _DIGIT[index + 1] + _DIGIT[index + 2] + _SUIT[index]
    return _DIGIT[index] * (4 if kan else 3) + _SUIT[index]


#: The text of each group, made once: runs and triplets, concealed or not, and kans.
GROUP_TEXT = {(kind, i, concealed, kan, called): _group_text((kind, i, concealed, kan, called))
              for kind, i in ((SHUNTSU, i) for i in range(27) if i % 9 < 7) for concealed, kan, called in
              ((True, False, False), (False, False, True))} | {
    (KOUTSU, i, concealed, kan, called): _group_text((KOUTSU, i, concealed, kan, called)) for i in range(34)
    for concealed, kan, called in ((True, False, False), (False, False, False), (False, False, True),
                                   (True, True, False), (False, True, True))}
PAIR_TEXT = tuple(_DIGIT[i] * 2 + _SUIT[i] for i in range(34))


def _describe_groups(groups: tuple[HandGroup, ...], pair: int, form: str, counts: Counts) -> list[str]:
    if form != "standard":
        return [_DIGIT[i] * c + _SUIT[i] for i, c in enumerate(counts) if c]
    return [GROUP_TEXT[g] for g in groups] + [PAIR_TEXT[pair]]


def evaluate(w: Win) -> dict[str, Any]:
    """Score a validated win: the interpretation worth the most, with its payments."""
    rules = w.rules
    concealed, all_counts, closed = w.counts, w.all_counts, w.closed
    meld_groups = tuple(m.group for m in w.melds)
    dora_lines = _dora_lines(w, all_counts)
    dora_han = sum(d["han"] for d in dora_lines)

    best: Candidate | None = None
    best_key: Rank = (0, False, 0, 0)
    no_yaku = False
    facts = HandFacts(rules=rules, win_index=w.win_tile.index, tsumo=w.tsumo, closed=closed, counts=all_counts,
                      win_counts=concealed, seat_wind=w.seat_wind, round_wind=w.round_wind, flags=w.flags)
    for form, groups, pair, wait in interpretations(concealed, 4 - len(w.melds), w.win_tile.index, w.tsumo):
        ctx = Context(facts, form, groups + meld_groups, pair, wait)
        candidate = _value(w, ctx, dora_lines, dora_han)
        if candidate is None:
            no_yaku = True
            continue
        key = candidate.rank()
        if best is None or key > best_key:
            best, best_key = candidate, key
    if best is None:
        if no_yaku:
            if rules.two_yaku_minimum_honba and w.honba >= rules.two_yaku_minimum_honba:
                raise ScoringError("hand", "impossible", "no_yaku_two_han", honba=w.honba)
            raise ScoringError("hand", "impossible", "no_yaku")
        if w.melds:
            raise ScoringError("hand", "impossible", "not_complete_melds", melds=len(w.melds))
        raise ScoringError("hand", "impossible", "not_complete")

    best_ctx = best.ctx
    payments = with_honba(best.base_payments, w.honba, ron_value=rules.honba_ron, tsumo_value=rules.honba_tsumo)
    total = payment_total(payments, w.dealer) + rules.riichi_stick * w.riichi_sticks
    result = best.to_dict()
    result.update({
        "payments": payments,
        "total": total,
        "honba": w.honba,
        "riichi_sticks": w.riichi_sticks,
        "dealer": w.dealer,
        "win": "tsumo" if w.tsumo else "ron",
        "ruleset": rules.id,
        "ruleset_title": rules.title,
        "hand": counts_notation(concealed, w.red_kinds),
        "melds": [m.to_dict() for m in w.melds],
        "win_tile": w.win_tile.code,
        "groups": _describe_groups(best_ctx.groups, best_ctx.pair, best_ctx.form, best_ctx.win_counts),
        "notes": list(w.notes),
        "note_ids": list(w.note_ids),
    })
    return result


#: How interpretations compare: points, then a yakuman yaku, then han, then fu.
Rank = tuple[int, bool, int, int]


class Candidate:
    """The value of one interpretation, kept raw until it is known to be the best."""

    __slots__ = ("ctx", "han", "fu", "fu_lines", "yakuman", "limit", "kazoe", "yaku", "base_payments", "points")

    def __init__(self, ctx: Context, han: int, fu: int, fu_lines: list[FuLine], yakuman: int, limit: str | None,
                 kazoe: bool, yaku: list[dict[str, Any]], base_payments: dict[str, Any], points: int) -> None:
        self.ctx, self.han, self.fu, self.fu_lines, self.yakuman = ctx, han, fu, fu_lines, yakuman
        self.limit, self.kazoe, self.yaku, self.base_payments, self.points = limit, kazoe, yaku, base_payments, points

    def rank(self) -> Rank:
        # The most points; on a tie a yakuman yaku beats counted (kazoe) yakuman, then more han, then more fu.
        return (self.points, self.yakuman > 0, self.han, self.fu)

    def to_dict(self) -> dict[str, Any]:
        return {
            "han": self.han, "fu": self.fu, "yakuman": self.yakuman, "limit": self.limit, "kazoe": self.kazoe,
            "yaku": self.yaku, "fu_details": fu_details(self.fu_lines), "points": self.points,
            "wait": self.ctx.wait, "form": self.ctx.form,
        }


def _value(w: Win, ctx: Context, dora_lines: list[dict[str, Any]], dora_han: int) -> Candidate | None:
    """The value of one interpretation, or None when it has no yaku (or too few for the rules)."""
    rules = w.rules
    limit: str | None
    yakuman = find_yakuman(ctx)
    if yakuman:
        mult = min(sum(m for _, m in yakuman), rules.max_yakuman)
        yaku_lines = [{"id": y.id, "name": y.name, "han": 13 * m, "yakuman": m} for y, m in yakuman]
        fu, fu_lines = count_fu(ctx, pinfu=False)
        base, limit, han, kazoe = 8000 * mult, "yakuman", 13 * mult, False
    else:
        yaku = find_yaku(ctx)
        if not yaku:
            return _renhou_mangan(w, ctx) if "renhou" in ctx.flags and rules.renhou == "mangan" else None
        yaku_han = sum(h for _, h in yaku)
        if rules.two_yaku_minimum_honba and w.honba >= rules.two_yaku_minimum_honba and yaku_han < 2:
            return None
        pinfu = any(y.id == "pinfu" for y, _ in yaku)
        yaku_lines = [{"id": y.id, "name": y.name, "han": h} for y, h in yaku] + dora_lines
        han = yaku_han + dora_han
        fu, fu_lines = count_fu(ctx, pinfu)
        base, limit = base_points(han, fu, kiriage=rules.kiriage, kazoe=rules.kazoe_yakuman)
        kazoe = limit == "yakuman"
        mult = 0
        if "renhou" in ctx.flags and rules.renhou == "mangan" and base < 2000:
            alt = _renhou_mangan(w, ctx)
            if alt:
                return alt
    payments = hand_payments(base, dealer=w.dealer, tsumo=w.tsumo)
    return Candidate(ctx, han, fu, fu_lines, mult, limit, kazoe, yaku_lines, payments, payment_total(payments, w.dealer))


def _renhou_mangan(w: Win, ctx: Context) -> Candidate:
    payments = hand_payments(2000, dealer=w.dealer, tsumo=w.tsumo)
    return Candidate(ctx, 5, 0, [], 0, "mangan", False, [{"id": "renhou", "name": BY_ID["renhou"].name, "han": 5}],
                     payments, payment_total(payments, w.dealer))
