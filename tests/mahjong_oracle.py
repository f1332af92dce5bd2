"""The PyPI ``mahjong`` package (2.1.0) as an oracle for Tenbou's scoring: tests and benchmark only.

:func:`options_for` maps a :class:`scoring.Ruleset` to mahjong's ``OptionalRules`` and refuses a
rule set it cannot express, so a comparison never runs under a silently different rule.
:func:`oracle_args` writes a :class:`random_hands.Deal` as mahjong's arguments, and
:func:`oracle_result` reads its answer back in the shape of ``scoring.score`` (yaku by our ids).
The app never imports this module or the package.
"""
from __future__ import annotations

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld

from scoring.rules import DOUBLE_YAKUMAN_KINDS, Ruleset

#: mahjong's yaku classes by our yaku ids (its double-yakuman classes are separate yaku too).
YAKU_IDS = {
    "Tsumo": "menzen_tsumo", "Riichi": "riichi", "DaburuRiichi": "double_riichi", "Ippatsu": "ippatsu",
    "Chankan": "chankan", "Rinshan": "rinshan", "Haitei": "haitei", "Houtei": "houtei", "Renhou": "renhou",
    "Pinfu": "pinfu", "Tanyao": "tanyao", "Iipeiko": "iipeikou", "Haku": "yakuhai_haku", "Hatsu": "yakuhai_hatsu",
    "Chun": "yakuhai_chun", "Sanshoku": "sanshoku", "Ittsu": "ittsu", "Chantai": "chanta", "Honroto": "honroutou",
    "Toitoi": "toitoi", "Sanankou": "sanankou", "SanKantsu": "sankantsu", "SanshokuDoukou": "sanshoku_doukou",
    "Chiitoitsu": "chiitoitsu", "Shosangen": "shousangen", "Honitsu": "honitsu", "Junchan": "junchan",
    "Ryanpeikou": "ryanpeikou", "Chinitsu": "chinitsu",
    "KokushiMusou": "kokushi", "DaburuKokushiMusou": "kokushi_13", "ChuurenPoutou": "chuuren",
    "DaburuChuurenPoutou": "chuuren_9", "Suuankou": "suuankou", "SuuankouTanki": "suuankou_tanki",
    "Daisangen": "daisangen", "Shousuushii": "shousuushii", "DaiSuushii": "daisuushii", "Tsuuiisou": "tsuuiisou",
    "Ryuuiisou": "ryuuiisou", "Chinroutou": "chinroutou", "Suukantsu": "suukantsu", "Tenhou": "tenhou",
    "Chiihou": "chiihou", "RenhouYakuman": "renhou", "Dora": "dora", "AkaDora": "aka_dora", "UraDora": "ura_dora",
    **{f"SeatWind{w}": "seat_wind" for w in ("East", "South", "West", "North")},
    **{f"RoundWind{w}": "round_wind" for w in ("East", "South", "West", "North")},
}
MELD_TYPES = {  # ours -> (mahjong's type, opened)
    "chi": (Meld.CHI, True), "pon": (Meld.PON, True), "daiminkan": (Meld.KAN, True),
    "kakan": (Meld.SHOUMINKAN, True), "ankan": (Meld.KAN, False),
}
WIND_TILES = (27, 28, 29, 30)  # mahjong's 34-index of east..north, the same numbering as ours


class Unsupported(ValueError):
    """A rule set value mahjong's OptionalRules cannot express."""


def options_for(rules: Ruleset) -> OptionalRules:
    """mahjong's options for ``rules``; :class:`Unsupported` for values it has no switch for.

    Two differences are left for the caller (mahjong has no switch for them, and a test can
    state what they change): yakuman that do not add up, and the two-yaku minimum.
    """
    fixed = {  # values mahjong always uses
        "double_wind_pair_fu": 4, "rinshan_tsumo_fu": True, "ryuuiisou_needs_hatsu": False,
        "double_riichi_han": 2, "max_yakuman": 6, "haitei_with_rinshan": False,
    }
    for name, value in fixed.items():
        if getattr(rules, name) != value:
            raise Unsupported(f"{rules.id}: {name}={getattr(rules, name)!r}; mahjong always uses {value!r}")
    if rules.double_yakuman not in ((), DOUBLE_YAKUMAN_KINDS):
        raise Unsupported(f"{rules.id}: mahjong doubles all of {DOUBLE_YAKUMAN_KINDS} or none")
    if rules.renhou == "mangan" or (rules.renhou == "han" and rules.renhou_han != 5):
        raise Unsupported(f"{rules.id}: renhou={rules.renhou!r} ({rules.renhou_han} han)")
    return OptionalRules(
        has_open_tanyao=rules.open_tanyao,
        has_aka_dora=rules.red_fives,
        has_double_yakuman=bool(rules.double_yakuman),
        kazoe_limit=HandConstants.KAZOE_LIMITED if rules.kazoe_yakuman else HandConstants.KAZOE_SANBAIMAN,
        kiriage=rules.kiriage,
        fu_for_open_pinfu=True,      # every preset: an open hand without fu is 30
        fu_for_pinfu_tsumo=False,    # every preset: pinfu tsumo is 20 fu
        renhou_as_yakuman=rules.renhou == "yakuman",
        limit_to_sextuple_yakuman=True,
    )


def oracle_args(deal, rules: Ruleset, options: OptionalRules) -> tuple:
    """``estimate_hand_value``'s positional arguments for one deal under ``rules``.

    Situations the rule set does not score are not told to mahjong (it would count them):
    ippatsu without the ippatsu rule, renhou where it is no yaku, haitei on a rinshan tile
    (every supported preset scores rinshan only; mahjong refuses the pair), and indicators
    beyond the first where there is no kan dora / kan ura dora.
    """
    flags = deal.flags
    config = HandConfig(
        is_tsumo=deal.tsumo,
        is_riichi="riichi" in flags,
        is_daburu_riichi="double_riichi" in flags,
        is_ippatsu="ippatsu" in flags and rules.ippatsu,
        is_rinshan="rinshan" in flags,
        is_chankan="chankan" in flags or "chankan_ankan" in flags,
        is_haitei="haitei" in flags and "rinshan" not in flags,
        is_houtei="houtei" in flags,
        is_tenhou="tenhou" in flags,
        is_chiihou="chiihou" in flags,
        is_renhou="renhou" in flags and rules.renhou != "none",
        player_wind=WIND_TILES[deal.seat],
        round_wind=WIND_TILES[deal.round],
        kyoutaku_number=deal.sticks,
        tsumi_number=deal.honba,
        options=options,
    )
    tiles = list(deal.concealed) + [t for _, meld in deal.melds for t in meld]
    melds = [Meld(MELD_TYPES[kind][0], list(meld), opened=MELD_TYPES[kind][1]) for kind, meld in deal.melds]
    dora = list(deal.dora if rules.kan_dora else deal.dora[:1])
    ura = list(deal.ura if rules.kan_ura_dora else deal.ura[:1]) if rules.ura_dora else []
    return tiles, deal.win_tile, melds, dora, config, ura


def estimate(args: tuple):
    """Call the oracle on :func:`oracle_args`' output."""
    tiles, win_tile, melds, dora, config, ura = args
    return HandCalculator.estimate_hand_value(tiles, win_tile, melds=melds, dora_indicators=dora,
                                              config=config, ura_dora_indicators=ura)


def oracle_result(response, deal) -> dict:
    """mahjong's answer as ``{han, fu, yakuman, payments, total, yaku}`` (yaku: our id -> han), or ``{error}``."""
    if response.error:
        return {"error": response.error}
    opened = any(MELD_TYPES[kind][1] for kind, _ in deal.melds)
    yaku: dict[str, int] = {}
    for y in response.yaku:
        han = y.han_open if opened and y.han_open else y.han_closed
        our_id = YAKU_IDS[type(y).__name__]
        yaku[our_id] = yaku.get(our_id, 0) + han
    cost = response.cost
    main = cost["main"] + cost["main_bonus"]
    if not deal.tsumo:
        payments = {"ron": main}
    elif deal.seat == 0:
        payments = {"non_dealer": main}
    else:
        payments = {"dealer": main, "non_dealer": cost["additional"] + cost["additional_bonus"]}
    return {
        "han": response.han,
        "fu": response.fu,
        "yakuman": response.han // 13 if any(y.is_yakuman for y in response.yaku) else 0,  # han is capped at 78
        "payments": payments,
        "total": cost["total"],
        "yaku": yaku,
    }
