"""Every yaku and yakuman of the five rule texts, as a registry.

Each entry has one signature: ``check(ctx) -> bool`` over a :class:`Context` that holds the
interpretation of the hand (its groups, pair and wait), the facts of the win and the rule set.
Han values are data on the entry (closed / open; ``None`` when the yaku needs a closed hand).
Rule-set differences are read from ``ctx.rules`` fields, never from a preset's name.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .hand import KOUTSU, SHUNTSU
from .tiles import CHUN, DRAGONS, GREENS, HAKU, HATSU, TERMINALS, WINDS, YAOCHUU

SUITED_TERMINALS = frozenset(TERMINALS)


class Context:
    """One interpretation of a winning hand, with the facts of the win."""

    __slots__ = (
        "rules", "form", "groups", "pair", "wait", "win_index", "tsumo", "closed", "counts",
        "seat_wind", "round_wind", "flags", "shuntsu", "koutsu", "kans", "concealed_koutsu",
        "win_counts", "present", "suits", "has_honors", "peikou",
    )

    def __init__(self, *, rules, form, groups, pair, wait, win_index, tsumo, closed, counts,
                 seat_wind, round_wind, flags, win_counts):
        self.rules = rules
        self.form = form              # "standard" | "chiitoitsu" | "kokushi"
        self.groups = groups          # ((kind, index, concealed, kan, called), ...) incl. melds
        self.pair = pair              # tile index of the pair, or -1
        self.wait = wait              # ryanmen | kanchan | penchan | tanki | shanpon | kokushi | kokushi_13 | chiitoitsu
        self.win_index = win_index
        self.tsumo = tsumo
        self.closed = closed          # no called melds (concealed kans allowed)
        self.counts = counts          # all 14+ tiles of the hand, melds included, by kind
        self.seat_wind = seat_wind
        self.round_wind = round_wind
        self.flags = flags            # frozenset of situational toggles that hold
        self.win_counts = win_counts  # concealed counts including the winning tile
        self.shuntsu = [g[1] for g in groups if g[0] == SHUNTSU]
        self.koutsu = [g[1] for g in groups if g[0] == KOUTSU]
        self.kans = sum(1 for g in groups if g[3])
        self.concealed_koutsu = sum(1 for g in groups if g[0] == KOUTSU and g[2])
        # Facts about the tiles alone, read by many checks: computed once here.
        self.present = [i for i, c in enumerate(counts) if c]   # kinds in the hand, ascending
        self.suits = {i // 9 for i in self.present if i < 27}   # suits (0, 1, 2) with a tile
        self.has_honors = self.present[-1] >= 27
        self.peikou = _peikou_count(self.shuntsu) if closed and form == "standard" else 0

    def tiles_present(self):
        return iter(self.present)


@dataclass(frozen=True)
class Yaku:
    id: str
    name: str
    han_closed: int            # han on a closed hand (for yakuman: the multiplier)
    han_open: int | None       # han on an open hand; None: closed hands only
    check: Callable[[Context], bool]
    yakuman: bool = False


# --- checks ----------------------------------------------------------------------------------

def _value_pair(ctx: Context, index: int) -> bool:
    return index in DRAGONS or index == ctx.seat_wind or index == ctx.round_wind


def _pinfu(ctx: Context) -> bool:
    return (ctx.form == "standard" and ctx.closed and not ctx.koutsu and ctx.wait == "ryanmen"
            and not _value_pair(ctx, ctx.pair))


def _peikou_count(shuntsu: list) -> int:
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
    return YAOCHUU.isdisjoint(ctx.present)


def _yakuhai(index: int) -> Callable[[Context], bool]:
    return lambda ctx: ctx.form == "standard" and index in ctx.koutsu


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


YAKUMAN: tuple[Yaku, ...] = (
    Yaku("tenhou", "Tenhou (blessing of heaven)", 1, None, _flag("tenhou"), True),
    Yaku("chiihou", "Chiihou (blessing of earth)", 1, None, _flag("chiihou"), True),
    Yaku("renhou", "Renhou (blessing of man)", 1, None, _renhou_yakuman, True),
    Yaku("kokushi", "Kokushi musou (thirteen orphans)", 1, None, _kokushi, True),
    Yaku("kokushi_13", "Kokushi musou, thirteen-sided wait", 2, None, _kokushi_13, True),
    Yaku("chuuren", "Chuuren poutou (nine gates)", 1, None, _chuuren, True),
    Yaku("chuuren_9", "Junsei chuuren poutou (nine-sided wait)", 2, None, _chuuren_9, True),
    Yaku("suuankou", "Suuankou (four concealed triplets)", 1, None, _suuankou, True),
    Yaku("suuankou_tanki", "Suuankou tanki (four concealed triplets, pair wait)", 2, None, _suuankou_tanki, True),
    Yaku("daisangen", "Daisangen (big three dragons)", 1, 1, _daisangen, True),
    Yaku("shousuushii", "Shousuushii (little four winds)", 1, 1, _shousuushii, True),
    Yaku("daisuushii", "Daisuushii (big four winds)", 1, 1, _daisuushii, True),  # multiplier from rules
    Yaku("tsuuiisou", "Tsuuiisou (all honours)", 1, 1, _tsuuiisou, True),
    Yaku("ryuuiisou", "Ryuuiisou (all green)", 1, 1, _ryuuiisou, True),
    Yaku("chinroutou", "Chinroutou (all terminals)", 1, 1, _chinroutou, True),
    Yaku("suukantsu", "Suukantsu (four kans)", 1, 1, _suukantsu, True),
)

YAKU: tuple[Yaku, ...] = (
    Yaku("riichi", "Riichi", 1, None, lambda ctx: "riichi" in ctx.flags and "double_riichi" not in ctx.flags),
    Yaku("double_riichi", "Double riichi", 2, None, _flag("double_riichi")),
    Yaku("ippatsu", "Ippatsu", 1, None, _flag("ippatsu")),
    Yaku("menzen_tsumo", "Menzen tsumo (fully concealed self-draw)", 1, None, lambda ctx: ctx.tsumo),
    Yaku("pinfu", "Pinfu", 1, None, _pinfu),
    Yaku("tanyao", "Tanyao (all simples)", 1, 1, _tanyao),
    Yaku("iipeikou", "Iipeikou (pure double run)", 1, None, lambda ctx: ctx.peikou == 1),
    Yaku("yakuhai_haku", "Yakuhai: haku", 1, 1, _yakuhai(HAKU)),
    Yaku("yakuhai_hatsu", "Yakuhai: hatsu", 1, 1, _yakuhai(HATSU)),
    Yaku("yakuhai_chun", "Yakuhai: chun", 1, 1, _yakuhai(CHUN)),
    Yaku("seat_wind", "Yakuhai: seat wind", 1, 1, lambda ctx: _yakuhai(ctx.seat_wind)(ctx)),
    Yaku("round_wind", "Yakuhai: round wind", 1, 1, lambda ctx: _yakuhai(ctx.round_wind)(ctx)),
    Yaku("chankan", "Chankan (robbing a kan)", 1, 1, _flag("chankan")),
    Yaku("rinshan", "Rinshan kaihou (win on a kan replacement tile)", 1, 1, _flag("rinshan")),
    Yaku("haitei", "Haitei (win on the last tile)", 1, 1, _flag("haitei")),
    Yaku("houtei", "Houtei (win on the last discard)", 1, 1, _flag("houtei")),
    Yaku("renhou", "Renhou (blessing of man)", 5, None, _renhou_yaku),
    Yaku("chiitoitsu", "Chiitoitsu (seven pairs)", 2, None, lambda ctx: ctx.form == "chiitoitsu"),
    Yaku("ittsu", "Ittsu (pure straight)", 2, 1, _ittsu),
    Yaku("sanshoku", "Sanshoku doujun (mixed triple run)", 2, 1, _sanshoku),
    Yaku("chanta", "Chanta (outside hand)", 2, 1, _chanta),
    Yaku("toitoi", "Toitoi (all triplets)", 2, 2, lambda ctx: ctx.form == "standard" and len(ctx.koutsu) == 4),
    Yaku("sanshoku_doukou", "Sanshoku doukou (triple triplets)", 2, 2, _sanshoku_doukou),
    Yaku("sanankou", "Sanankou (three concealed triplets)", 2, 2, lambda ctx: ctx.concealed_koutsu == 3),
    Yaku("sankantsu", "Sankantsu (three kans)", 2, 2, lambda ctx: ctx.kans == 3),
    Yaku("honroutou", "Honroutou (all terminals and honours)", 2, 2, _honroutou),
    Yaku("shousangen", "Shousangen (little three dragons)", 2, 2, _shousangen),
    Yaku("ryanpeikou", "Ryanpeikou (twice pure double run)", 3, None, lambda ctx: ctx.peikou == 2),
    Yaku("honitsu", "Honitsu (half flush)", 3, 2, _honitsu),
    Yaku("junchan", "Junchan (terminals in every group)", 3, 2, _junchan),
    Yaku("chinitsu", "Chinitsu (full flush)", 6, 5, _chinitsu),
)

#: Yaku a stronger one replaces when both hold.
SUPERSEDED = {
    "chanta": ("junchan", "honroutou"),
    "honitsu": ("chinitsu",),
}

BY_ID = {y.id: y for y in YAKU + YAKUMAN}
DORA_IDS = ("dora", "aka_dora", "ura_dora")


#: The yaku a closed (True) or an open (False) hand can have, with their han as data says.
_CANDIDATES = {
    closed: tuple((y, y.han_closed if closed else y.han_open) for y in YAKU
                  if (y.han_closed if closed else y.han_open) is not None)
    for closed in (True, False)
}
_YAKUMAN_CANDIDATES = {True: YAKUMAN, False: tuple(y for y in YAKUMAN if y.han_open is not None)}
#: Yaku whose han a rule set sets, by the Ruleset field that holds it.
HAN_FROM_RULES = {"double_riichi": "double_riichi_han", "renhou": "renhou_han"}


def find_yakuman(ctx: Context) -> list[tuple[Yaku, int]]:
    """The yakuman of this interpretation with their multipliers, as the rule set counts them."""
    found = []
    for y in _YAKUMAN_CANDIDATES[ctx.closed]:
        if y.check(ctx):
            mult = _daisuushii_multiplier(ctx) if y.id == "daisuushii" else y.han_closed
            found.append((y, mult))
    if len(found) > 1 and not ctx.rules.yakuman_stacking:
        return [max(found, key=lambda f: f[1])]
    return found


def find_yaku(ctx: Context) -> list[tuple[Yaku, int]]:
    """The ordinary yaku of this interpretation with their han, exclusions applied."""
    rules = ctx.rules
    found = {y.id: (y, han) for y, han in _CANDIDATES[ctx.closed] if y.check(ctx)}
    if not found:
        return []
    for yaku_id, field_name in HAN_FROM_RULES.items():
        if yaku_id in found:
            found[yaku_id] = (found[yaku_id][0], getattr(rules, field_name))
    if "tanyao" in found and not ctx.closed and not rules.open_tanyao:
        del found["tanyao"]
    if "ryanpeikou" in found:
        found.pop("iipeikou", None)
    for weaker, stronger in SUPERSEDED.items():
        if weaker in found and any(s in found for s in stronger):
            del found[weaker]
    if "haitei" in found and "rinshan" in found and not rules.haitei_with_rinshan:
        del found["haitei"]
    return list(found.values())
