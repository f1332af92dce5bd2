"""Every yaku and yakuman of the five rule texts, as a registry.

Each entry has one signature: ``check(ctx) -> bool`` over a :class:`Context` that holds the
interpretation of the hand (its groups, pair and wait), the facts of the win and the rule set.
Han values are data on the entry (closed / open; ``None`` when the yaku needs a closed hand).
Rule-set differences are read from ``ctx.rules`` fields, never from a preset's name.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .hand import SHUNTSU, Counts, HandGroup
from .rules import Ruleset
from .tiles import CHUN, DRAGONS, GREENS, HAKU, HATSU, TERMINALS, WINDS, YAOCHUU

SUITED_TERMINALS = frozenset(TERMINALS)


#: What a hand can show, as bits of an int: flags that hold, then facts of its tiles and of one
#: reading. A yaku's ``needs`` are bits the hand must show for its check to be worth running.
FEATURES = (
    "riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou",
    "tsumo", "one_suit", "simples_only", "yaochuu_only", "honours_only", "greens_only",
    "standard", "chiitoitsu", "kokushi", "runs", "two_runs", "three_runs", "four_runs",
    "triplets", "two_triplets", "three_triplets", "four_triplets", "honour_triplets", "three_kans", "outside_pair",
)
BIT = {name: 1 << n for n, name in enumerate(FEATURES)}
#: The bits the code tests by name (Final: compiled in as constants).
F_TSUMO: Final = 1 << 10
F_ONE_SUIT: Final = 1 << 11
F_SIMPLES_ONLY: Final = 1 << 12
F_YAOCHUU_ONLY: Final = 1 << 13
F_HONOURS_ONLY: Final = 1 << 14
F_GREENS_ONLY: Final = 1 << 15
F_HONOUR_TRIPLETS: Final = 1 << 27
F_THREE_KANS: Final = 1 << 28
F_OUTSIDE_PAIR: Final = 1 << 29
F_STANDARD: Final = 1 << 16
F_CHIITOITSU: Final = 1 << 17
F_KOKUSHI: Final = 1 << 18
#: Bits for a reading with n runs (triplets): "three_runs" also shows "two_runs" and "runs".
RUN_BITS = tuple(sum(BIT[f] for f in ("runs", "two_runs", "three_runs", "four_runs")[:n]) for n in range(5))
TRIPLET_BITS = tuple(sum(BIT[f] for f in ("triplets", "two_triplets", "three_triplets", "four_triplets")[:n]) for n in range(5))


#: Tile facts, and for each kind the facts a tile of that kind rules out.
TILE_FACTS: Final = F_SIMPLES_ONLY | F_YAOCHUU_ONLY | F_HONOURS_ONLY | F_GREENS_ONLY
BREAKS = tuple((F_SIMPLES_ONLY if i in YAOCHUU else F_YAOCHUU_ONLY) | (0 if i >= 27 else F_HONOURS_ONLY)
               | (0 if i in GREENS else F_GREENS_ONLY) for i in range(34))
SUIT_BIT = tuple(0 if i >= 27 else 1 << (i // 9) for i in range(34))


def feature_names(bits: int) -> list[str]:
    """The names of the features in ``bits`` (for messages and tests)."""
    return [name for name in FEATURES if bits & BIT[name]]


class HandFacts:
    """What a winning hand is however it is read: its tiles, the facts of the win, the rule set.

    Computed once per request; each :class:`Context` (one reading of the hand) copies them.
    """

    __slots__ = ("rules", "win_index", "tsumo", "closed", "counts", "win_counts", "seat_wind", "round_wind",
                 "flags", "present", "suits", "has_honors", "features")

    def __init__(self, *, rules: Ruleset, win_index: int, tsumo: bool, closed: bool, counts: Counts, win_counts: Counts,
                 seat_wind: int, round_wind: int, flags: frozenset[str]) -> None:
        self.rules = rules
        self.win_index = win_index
        self.tsumo = tsumo
        self.closed = closed          # no called melds (concealed kans allowed)
        self.counts = counts          # all 14+ tiles of the hand, melds included, by kind
        self.win_counts = win_counts  # concealed counts including the winning tile
        self.seat_wind = seat_wind
        self.round_wind = round_wind
        self.flags = flags            # frozenset of situational toggles that hold
        # One pass over the kinds: which are present, which suits, and which tile facts each breaks.
        present = [i for i, c in enumerate(counts) if c]
        suit_bits = broken = 0
        for i in present:
            suit_bits |= SUIT_BIT[i]
            broken |= BREAKS[i]
        self.present = present                                         # kinds in the hand, ascending
        self.suits = [s for s in (0, 1, 2) if suit_bits >> s & 1]      # suits (0, 1, 2) with a tile
        self.has_honors = present[-1] >= 27
        # What the tiles alone show, for Yaku.needs (with the flags that hold).
        shows = TILE_FACTS & ~broken
        if len(self.suits) == 1:
            shows |= F_ONE_SUIT
        for flag in flags:
            shows |= BIT.get(flag, 0)
        if tsumo:
            shows |= F_TSUMO
        self.features = shows


class Context:
    """One interpretation of a winning hand (groups, pair, wait), with the facts of the win."""

    __slots__ = HandFacts.__slots__ + (
        "form", "groups", "pair", "wait", "shuntsu", "koutsu", "kans", "concealed_koutsu", "peikou", "candidates",
    )

    def __init__(self, hand: HandFacts, form: str, groups: tuple[HandGroup, ...], pair: int, wait: str) -> None:
        self.rules, self.win_index, self.tsumo, self.closed = hand.rules, hand.win_index, hand.tsumo, hand.closed
        self.counts, self.win_counts, self.flags = hand.counts, hand.win_counts, hand.flags
        self.seat_wind, self.round_wind = hand.seat_wind, hand.round_wind
        self.present, self.suits, self.has_honors = hand.present, hand.suits, hand.has_honors
        self.form = form              # "standard" | "chiitoitsu" | "kokushi"
        self.groups = groups          # ((kind, index, concealed, kan, called), ...) incl. melds
        self.pair = pair              # tile index of the pair, or -1
        self.wait = wait              # ryanmen | kanchan | penchan | tanki | shanpon | kokushi | kokushi_13
        shuntsu, koutsu = [], []
        kans = concealed_koutsu = 0
        for kind, index, concealed, kan, _called in groups:
            if kind == SHUNTSU:
                shuntsu.append(index)
            else:
                koutsu.append(index)
                concealed_koutsu += concealed
            kans += kan
        self.shuntsu, self.koutsu, self.kans, self.concealed_koutsu = shuntsu, koutsu, kans, concealed_koutsu
        self.peikou = _peikou_count(shuntsu) if hand.closed and len(shuntsu) > 1 else 0
        # What this reading shows, for Yaku.needs: its form, runs, triplets, kans, pair.
        form_bit = F_STANDARD if form == "standard" else (F_CHIITOITSU if form == "chiitoitsu" else F_KOKUSHI)
        shows = hand.features | form_bit | RUN_BITS[len(shuntsu)] | TRIPLET_BITS[len(koutsu)]
        if koutsu and max(koutsu) >= 27:
            shows |= F_HONOUR_TRIPLETS
        if kans >= 3:
            shows |= F_THREE_KANS
        if pair in YAOCHUU:
            shows |= F_OUTSIDE_PAIR
        self.features = shows
        self.candidates = _candidates(shows, hand.closed)  # (yakuman, (yaku, han)) worth checking


@dataclass(frozen=True)
class Yaku:
    id: str
    name: str
    han_closed: int            # han on a closed hand (for yakuman: the multiplier)
    han_open: int | None       # han on an open hand; None: closed hands only
    check: Callable[[Context], bool]
    yakuman: bool = False
    #: What a hand must show (Context.features) for the check to be worth running: a form, "runs",
    #: "triplets", "honour_triplets", "tsumo" or a flag. The check must be false without them
    #: (tests/test_yaku.py checks this on random hands); it only saves work.
    needs: int = 0
    #: The Ruleset field that sets this yaku's han, where the rule sets differ (double riichi, renhou).
    han_rule: str | None = None


# --- checks ----------------------------------------------------------------------------------

def _value_pair(ctx: Context, index: int) -> bool:
    return index in DRAGONS or index == ctx.seat_wind or index == ctx.round_wind


def _pinfu(ctx: Context) -> bool:
    return (ctx.form == "standard" and ctx.closed and not ctx.koutsu and ctx.wait == "ryanmen"
            and not _value_pair(ctx, ctx.pair))


def _peikou_count(shuntsu: list[int]) -> int:
    """How many pairs of identical runs (1: iipeikou, 2: ryanpeikou)."""
    runs = sorted(shuntsu)
    pairs, i = 0, 0
    while i + 1 < len(runs):
        if runs[i] == runs[i + 1]:
            pairs += 1
            i += 2
        else:
            i += 1
    return pairs


def _tanyao(ctx: Context) -> bool:
    return (ctx.closed or ctx.rules.open_tanyao) and YAOCHUU.isdisjoint(ctx.present)


def _yakuhai(index: int) -> Callable[[Context], bool]:
    return lambda ctx: ctx.form == "standard" and index in ctx.koutsu


def _seat_wind(ctx: Context) -> bool:
    return ctx.form == "standard" and ctx.seat_wind in ctx.koutsu


def _round_wind(ctx: Context) -> bool:
    return ctx.form == "standard" and ctx.round_wind in ctx.koutsu


def _sanshoku(ctx: Context) -> bool:
    starts = set(ctx.shuntsu)
    return any(n in starts and n + 9 in starts and n + 18 in starts for n in range(7))


def _ittsu(ctx: Context) -> bool:
    starts = set(ctx.shuntsu)
    return any(b in starts and b + 3 in starts and b + 6 in starts for b in (0, 9, 18))


def _sanshoku_doukou(ctx: Context) -> bool:
    trips = set(ctx.koutsu)
    return any(n in trips and n + 9 in trips and n + 18 in trips for n in range(9))


def _group_has_yaochuu(kind: int, index: int) -> bool:
    if kind == SHUNTSU:
        return index % 9 in (0, 6)
    return index in YAOCHUU


def _outside(ctx: Context) -> bool:
    """Every group and the pair hold a terminal or honour, with at least one run."""
    return (ctx.form == "standard" and bool(ctx.shuntsu) and ctx.pair in YAOCHUU
            and all(_group_has_yaochuu(g[0], g[1]) for g in ctx.groups))


def _chanta(ctx: Context) -> bool:
    return _outside(ctx) and ctx.has_honors


def _junchan(ctx: Context) -> bool:
    return _outside(ctx) and not ctx.has_honors


def _honroutou(ctx: Context) -> bool:
    return YAOCHUU.issuperset(ctx.present)


def _shousangen(ctx: Context) -> bool:
    return ctx.form == "standard" and ctx.pair in DRAGONS and sum(1 for d in DRAGONS if d in ctx.koutsu) == 2


def _honitsu(ctx: Context) -> bool:
    return len(ctx.suits) == 1 and ctx.has_honors


def _chinitsu(ctx: Context) -> bool:
    return len(ctx.suits) == 1 and not ctx.has_honors


def _flag(name: str) -> Callable[[Context], bool]:
    return lambda ctx: name in ctx.flags


def _haitei(ctx: Context) -> bool:
    return "haitei" in ctx.flags and ("rinshan" not in ctx.flags or ctx.rules.haitei_with_rinshan)


def _renhou_yaku(ctx: Context) -> bool:
    return "renhou" in ctx.flags and ctx.rules.renhou == "han"


# --- yakuman checks ----------------------------------------------------------------------------

def _chuuren_base(ctx: Context) -> bool:
    if ctx.form != "standard" or not ctx.closed or ctx.kans or len(ctx.suits) != 1 or ctx.has_honors:
        return False
    suit = ctx.present[0] - ctx.present[0] % 9
    c = ctx.counts[suit:suit + 9]
    return c[0] >= 3 and c[8] >= 3 and all(x >= 1 for x in c)


def _chuuren_nine_sided(ctx: Context) -> bool:
    """The hand before the winning tile was exactly 1112345678999."""
    if not _chuuren_base(ctx) or "tenhou" in ctx.flags:
        return False
    suit = ctx.win_index - ctx.win_index % 9
    c = list(ctx.counts[suit:suit + 9])
    c[ctx.win_index - suit] -= 1
    return c == [3, 1, 1, 1, 1, 1, 1, 1, 3]


def _double_allowed(ctx: Context, kind: str) -> bool:
    return kind in ctx.rules.double_yakuman


def _kokushi_thirteen_sided(ctx: Context) -> bool:
    return ctx.wait == "kokushi_13" and "tenhou" not in ctx.flags and _double_allowed(ctx, "kokushi_13")


def _kokushi(ctx: Context) -> bool:
    return ctx.form == "kokushi" and not _kokushi_thirteen_sided(ctx)


def _kokushi_13(ctx: Context) -> bool:
    return ctx.form == "kokushi" and _kokushi_thirteen_sided(ctx)


def _chuuren(ctx: Context) -> bool:
    return _chuuren_base(ctx) and not (_double_allowed(ctx, "chuuren_9") and _chuuren_nine_sided(ctx))


def _chuuren_9(ctx: Context) -> bool:
    return _double_allowed(ctx, "chuuren_9") and _chuuren_nine_sided(ctx)


def _suuankou_base(ctx: Context) -> bool:
    return ctx.form == "standard" and ctx.concealed_koutsu == 4


def _suuankou_single(ctx: Context) -> bool:
    return ctx.wait == "tanki" and "tenhou" not in ctx.flags


def _suuankou(ctx: Context) -> bool:
    return _suuankou_base(ctx) and not (_double_allowed(ctx, "suuankou_tanki") and _suuankou_single(ctx))


def _suuankou_tanki(ctx: Context) -> bool:
    return _suuankou_base(ctx) and _double_allowed(ctx, "suuankou_tanki") and _suuankou_single(ctx)


def _daisangen(ctx: Context) -> bool:
    return ctx.form == "standard" and all(d in ctx.koutsu for d in DRAGONS)


def _wind_koutsu(ctx: Context) -> int:
    return sum(1 for w in WINDS if w in ctx.koutsu)


def _shousuushii(ctx: Context) -> bool:
    return ctx.form == "standard" and _wind_koutsu(ctx) == 3 and ctx.pair in WINDS


def _daisuushii(ctx: Context) -> bool:
    return ctx.form == "standard" and _wind_koutsu(ctx) == 4


def _tsuuiisou(ctx: Context) -> bool:
    return ctx.present[0] >= 27


def _chinroutou(ctx: Context) -> bool:
    return SUITED_TERMINALS.issuperset(ctx.present)


def _ryuuiisou(ctx: Context) -> bool:
    if ctx.rules.ryuuiisou_needs_hatsu and not ctx.counts[HATSU]:
        return False
    return GREENS.issuperset(ctx.present)


def _suukantsu(ctx: Context) -> bool:
    return ctx.kans == 4


def _renhou_yakuman(ctx: Context) -> bool:
    return "renhou" in ctx.flags and ctx.rules.renhou == "yakuman"


def _daisuushii_multiplier(ctx: Context) -> int:
    return 2 if _double_allowed(ctx, "daisuushii") else 1


def _needs(*features: str) -> int:
    return sum(BIT[f] for f in features)


HONOUR_TRIPLETS = _needs("honour_triplets")

YAKUMAN: tuple[Yaku, ...] = (
    Yaku("tenhou", "Tenhou (blessing of heaven)", 1, None, _flag("tenhou"), True, _needs("tenhou")),
    Yaku("chiihou", "Chiihou (blessing of earth)", 1, None, _flag("chiihou"), True, _needs("chiihou")),
    Yaku("renhou", "Renhou (blessing of man)", 1, None, _renhou_yakuman, True, _needs("renhou")),
    Yaku("kokushi", "Kokushi musou (thirteen orphans)", 1, None, _kokushi, True, _needs("kokushi")),
    Yaku("kokushi_13", "Kokushi musou, thirteen-sided wait", 2, None, _kokushi_13, True, _needs("kokushi")),
    Yaku("chuuren", "Chuuren poutou (nine gates)", 1, None, _chuuren, True, _needs("standard", "one_suit")),
    Yaku("chuuren_9", "Junsei chuuren poutou (nine-sided wait)", 2, None, _chuuren_9, True, _needs("standard", "one_suit")),
    Yaku("suuankou", "Suuankou (four concealed triplets)", 1, None, _suuankou, True, _needs("four_triplets")),
    Yaku("suuankou_tanki", "Suuankou tanki (four concealed triplets, pair wait)", 2, None, _suuankou_tanki, True,
         _needs("four_triplets")),
    Yaku("daisangen", "Daisangen (big three dragons)", 1, 1, _daisangen, True, _needs("three_triplets", "honour_triplets")),
    Yaku("shousuushii", "Shousuushii (little four winds)", 1, 1, _shousuushii, True, _needs("three_triplets", "honour_triplets")),
    Yaku("daisuushii", "Daisuushii (big four winds)", 1, 1, _daisuushii, True, _needs("four_triplets", "honour_triplets")),  # multiplier from rules
    Yaku("tsuuiisou", "Tsuuiisou (all honours)", 1, 1, _tsuuiisou, True, _needs("honours_only")),
    Yaku("ryuuiisou", "Ryuuiisou (all green)", 1, 1, _ryuuiisou, True, _needs("greens_only")),
    Yaku("chinroutou", "Chinroutou (all terminals)", 1, 1, _chinroutou, True, _needs("yaochuu_only", "four_triplets")),
    Yaku("suukantsu", "Suukantsu (four kans)", 1, 1, _suukantsu, True, _needs("three_kans")),
)

YAKU: tuple[Yaku, ...] = (
    Yaku("riichi", "Riichi", 1, None, lambda ctx: "riichi" in ctx.flags and "double_riichi" not in ctx.flags,
         needs=_needs("riichi")),
    Yaku("double_riichi", "Double riichi", 2, None, _flag("double_riichi"), needs=_needs("double_riichi"),
         han_rule="double_riichi_han"),
    Yaku("ippatsu", "Ippatsu", 1, None, _flag("ippatsu"), needs=_needs("ippatsu")),
    Yaku("menzen_tsumo", "Menzen tsumo (fully concealed self-draw)", 1, None, lambda ctx: ctx.tsumo, needs=_needs("tsumo")),
    Yaku("pinfu", "Pinfu", 1, None, _pinfu, needs=_needs("four_runs")),
    Yaku("tanyao", "Tanyao (all simples)", 1, 1, _tanyao, needs=_needs("simples_only")),
    Yaku("iipeikou", "Iipeikou (pure double run)", 1, None, lambda ctx: ctx.peikou == 1, needs=_needs("two_runs")),
    Yaku("yakuhai_haku", "Yakuhai: haku", 1, 1, _yakuhai(HAKU), needs=HONOUR_TRIPLETS),
    Yaku("yakuhai_hatsu", "Yakuhai: hatsu", 1, 1, _yakuhai(HATSU), needs=HONOUR_TRIPLETS),
    Yaku("yakuhai_chun", "Yakuhai: chun", 1, 1, _yakuhai(CHUN), needs=HONOUR_TRIPLETS),
    Yaku("seat_wind", "Yakuhai: seat wind", 1, 1, _seat_wind, needs=HONOUR_TRIPLETS),
    Yaku("round_wind", "Yakuhai: round wind", 1, 1, _round_wind, needs=HONOUR_TRIPLETS),
    Yaku("chankan", "Chankan (robbing a kan)", 1, 1, _flag("chankan"), needs=_needs("chankan")),
    Yaku("rinshan", "Rinshan kaihou (win on a kan replacement tile)", 1, 1, _flag("rinshan"), needs=_needs("rinshan")),
    Yaku("haitei", "Haitei (win on the last tile)", 1, 1, _haitei, needs=_needs("haitei")),
    Yaku("houtei", "Houtei (win on the last discard)", 1, 1, _flag("houtei"), needs=_needs("houtei")),
    Yaku("renhou", "Renhou (blessing of man)", 5, None, _renhou_yaku, needs=_needs("renhou"), han_rule="renhou_han"),
    Yaku("chiitoitsu", "Chiitoitsu (seven pairs)", 2, None, lambda ctx: ctx.form == "chiitoitsu", needs=_needs("chiitoitsu")),
    Yaku("ittsu", "Ittsu (pure straight)", 2, 1, _ittsu, needs=_needs("three_runs")),
    Yaku("sanshoku", "Sanshoku doujun (mixed triple run)", 2, 1, _sanshoku, needs=_needs("three_runs")),
    Yaku("chanta", "Chanta (outside hand)", 2, 1, _chanta, needs=_needs("runs", "outside_pair")),
    Yaku("toitoi", "Toitoi (all triplets)", 2, 2, lambda ctx: ctx.form == "standard" and len(ctx.koutsu) == 4,
         needs=_needs("four_triplets")),
    Yaku("sanshoku_doukou", "Sanshoku doukou (triple triplets)", 2, 2, _sanshoku_doukou, needs=_needs("three_triplets")),
    Yaku("sanankou", "Sanankou (three concealed triplets)", 2, 2, lambda ctx: ctx.concealed_koutsu == 3, needs=_needs("three_triplets")),
    Yaku("sankantsu", "Sankantsu (three kans)", 2, 2, lambda ctx: ctx.kans == 3, needs=_needs("three_kans")),
    Yaku("honroutou", "Honroutou (all terminals and honours)", 2, 2, _honroutou, needs=_needs("yaochuu_only")),
    Yaku("shousangen", "Shousangen (little three dragons)", 2, 2, _shousangen, needs=_needs("two_triplets", "honour_triplets")),
    Yaku("ryanpeikou", "Ryanpeikou (twice pure double run)", 3, None, lambda ctx: ctx.peikou == 2, needs=_needs("four_runs")),
    Yaku("honitsu", "Honitsu (half flush)", 3, 2, _honitsu, needs=_needs("one_suit")),
    Yaku("junchan", "Junchan (terminals in every group)", 3, 2, _junchan, needs=_needs("runs", "outside_pair")),
    Yaku("chinitsu", "Chinitsu (full flush)", 6, 5, _chinitsu, needs=_needs("one_suit")),
)

#: Yaku a stronger one replaces when both hold. The checks already exclude each other; this
#: keeps the rule explicit should a check change.
SUPERSEDED = {
    "chanta": frozenset(("junchan", "honroutou")),
    "honitsu": frozenset(("chinitsu",)),
    "iipeikou": frozenset(("ryanpeikou",)),
}

BY_ID = {y.id: y for y in YAKU + YAKUMAN}
DORA_IDS = ("dora", "aka_dora", "ura_dora")


#: The yakuman worth checking, and the yaku with their han on this hand.
Candidates = tuple[tuple[Yaku, ...], tuple[tuple[Yaku, int], ...]]
_CANDIDATES: dict[int, Candidates] = {}


def _candidates(features: int, closed: bool) -> Candidates:
    """The yakuman and the (yaku, han) worth checking on a hand that shows ``features``."""
    key = features * 2 + closed
    found = _CANDIDATES.get(key)
    if found is None:
        yakuman = tuple(y for y in YAKUMAN if y.needs & features == y.needs and (closed or y.han_open is not None))
        yaku: list[tuple[Yaku, int]] = []
        for y in YAKU:
            han = y.han_closed if closed else y.han_open
            if y.needs & features == y.needs and han is not None:
                yaku.append((y, han))
        found = _CANDIDATES[key] = (yakuman, tuple(yaku))
    return found


def find_yakuman(ctx: Context) -> list[tuple[Yaku, int]]:
    """The yakuman of this interpretation with their multipliers, as the rule set counts them."""
    found = []
    for y in ctx.candidates[0]:
        if y.check(ctx):
            mult = _daisuushii_multiplier(ctx) if y.id == "daisuushii" else y.han_closed
            found.append((y, mult))
    if len(found) > 1 and not ctx.rules.yakuman_stacking:
        return [max(found, key=lambda f: f[1])]
    return found


def find_yaku(ctx: Context) -> list[tuple[Yaku, int]]:
    """The ordinary yaku of this interpretation with their han, exclusions applied."""
    rules = ctx.rules
    found = [(y, getattr(rules, y.han_rule) if y.han_rule else han) for y, han in ctx.candidates[1] if y.check(ctx)]
    if len(found) > 1:
        ids = {y.id for y, _ in found}
        if not ids.isdisjoint(SUPERSEDED):
            found = [(y, han) for y, han in found if ids.isdisjoint(SUPERSEDED.get(y.id, ()))]
    return found
