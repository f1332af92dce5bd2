"""Every yaku and yakuman: a hand that has it and a hand that does not.

Hands are written as concealed tiles including the winning tile; seat south, round east unless said.
"""
import pytest

from scoring import ScoringError
from scoring_helpers import score, yaku_of

# (id, han, request args, request kwargs) - the hand must show the yaku with that han.
POSITIVE = [
    ("riichi", 1, ("123m456p789s234m55p", "5p"), {"riichi": True}),
    ("double_riichi", 2, ("123m456p789s234m55p", "5p"), {"double_riichi": True}),
    ("ippatsu", 1, ("123m456p789s234m55p", "5p"), {"riichi": True, "ippatsu": True}),
    ("menzen_tsumo", 1, ("123m456p789s234m55p", "5p"), {"win": "tsumo"}),
    ("pinfu", 1, ("123m456p789s234m55p", "4m"), {}),
    ("pinfu", 1, ("123m456p789s234m33z", "4m"), {}),  # west pair: no value for south seat in the east round
    ("tanyao", 1, ("234m456p678s234m55p", "4m"), {}),
    ("tanyao", 1, ("234m55p", "4m"), {"m": "chi:345s pon:666m pon:888p"}),  # open tanyao in WRR
    ("iipeikou", 1, ("112233m456p789s55p", "3m"), {}),
    ("yakuhai_haku", 1, ("123m456p789s55p555z", "5p"), {}),
    ("yakuhai_hatsu", 1, ("123m456p789s55p666z", "5p"), {}),
    ("yakuhai_chun", 1, ("123m456p55p", "5p"), {"m": "pon:777z chi:789s"}),
    ("seat_wind", 1, ("123m456p789s55p222z", "5p"), {}),
    ("round_wind", 1, ("123m456p789s55p111z", "5p"), {}),
    ("chankan", 1, ("123m456p789s23m55p", None), {"hand": "123m456p789s234m55p", "win_tile": "4m", "chankan": True}),
    ("rinshan", 1, ("123m456p234m55p", "5p"), {"m": "ankan:1111z", "win": "tsumo", "rinshan": True}),
    ("haitei", 1, ("123m456p789s234m55p", "5p"), {"win": "tsumo", "haitei": True}),
    ("houtei", 1, ("123m456p789s234m55p", "5p"), {"houtei": True}),
    ("chiitoitsu", 2, ("1133m5577p99s1122z", "2z"), {}),
    ("ittsu", 2, ("123456789m234p55s", "5s"), {}),
    ("ittsu", 1, ("456789m234p55s", "5s"), {"m": "chi:123m"}),
    ("sanshoku", 2, ("123m123p123s456m55s", "5s"), {}),
    ("sanshoku", 1, ("123p123s456m55s", "5s"), {"m": "chi:123m"}),
    ("chanta", 2, ("123m999p789s111z22z", "2z"), {}),
    ("chanta", 1, ("999p789s111z22z", "2z"), {"m": "chi:123m"}),
    ("toitoi", 2, ("222m55p", "5p"), {"m": "pon:444p pon:666s pon:888m"}),
    ("sanshoku_doukou", 2, ("222m222p456s88p", "8p"), {"m": "pon:222s"}),
    ("sanankou", 2, ("222m444p666s78s55p", None), {"hand": "222m444p666s678s55p", "win_tile": "8s"}),
    ("sankantsu", 2, ("234m55p", "5p"), {"m": "daiminkan:6666s kakan:8888p ankan:2222s"}),
    ("honroutou", 2, ("111m99p", "9p"), {"m": "pon:111z pon:222z pon:999s"}),
    ("honroutou", 2, ("1199m1199p11s1122z", "2z"), {}),  # with seven pairs
    ("shousangen", 2, ("555z666z77z123m456m", "4m"), {}),
    ("ryanpeikou", 3, ("112233m445566p55s", "6p"), {}),
    ("honitsu", 3, ("123456m789m111z22z", "2z"), {}),
    ("honitsu", 2, ("456m789m111z22z", "2z"), {"m": "chi:123m"}),
    ("junchan", 3, ("123m789m123p999s11s", "1s"), {}),
    ("junchan", 2, ("789m123p999s11s", "1s"), {"m": "chi:123m"}),
    ("chinitsu", 6, ("11223345678999m", "5m"), {}),
    ("chinitsu", 5, ("11122456789m", "2m"), {"m": "chi:123m"}),
    ("renhou", 5, ("123m456p789s234m55p", "5p"), {"renhou": True}),  # WRR: 5-han yaku
]

# Yakuman: (id, multiplier, args, kwargs)
YAKUMAN = [
    ("kokushi", 1, ("19m19p19s1234567z1z", "2z"), {}),
    ("kokushi", 1, ("19m19p19s1234567z1z", "1z"), {}),  # WRR: no double for the 13-sided wait
    ("kokushi_13", 2, ("19m19p19s1234567z1z", "1z"), {"ruleset": "ema"}),
    ("chuuren", 1, ("11123455678999m", "5m"), {}),
    ("chuuren", 1, ("11123456789999m", "9m"), {}),
    ("chuuren_9", 2, ("11123456789999m", "9m"), {"ruleset": "mahjongsoul"}),
    ("suuankou", 1, ("111m222p333s44455z", "5z"), {"win": "tsumo"}),
    ("suuankou", 1, ("111m222p333s44455z", "5z"), {}),  # WRR: single wait is no double
    ("suuankou_tanki", 2, ("111m222p333s44455z", "5z"), {"ruleset": "ema"}),
    ("daisangen", 1, ("555z666z777z123m44p", "4p"), {}),
    ("shousuushii", 1, ("111z222z333z44z", "4z"), {"m": "chi:123m"}),
    ("daisuushii", 1, ("111z222z333z11m", "1m"), {"m": "pon:444z"}),
    ("daisuushii", 2, ("111z222z333z11m", "1m"), {"m": "pon:444z", "ruleset": "ema"}),
    ("tsuuiisou", 1, ("111z222z333z55z", "5z"), {"m": "pon:777z"}),
    ("tsuuiisou", 1, ("11223344556677z", "7z"), {}),  # seven pairs of honours
    ("ryuuiisou", 1, ("22334466888s666z", "8s"), {}),
    ("ryuuiisou", 1, ("23334666888s", "8s"), {"m": "chi:234s"}),  # no hatsu needed (WRR 6.5.6)
    ("chinroutou", 1, ("111m999p111s99s", "9s"), {"m": "pon:999m"}),
    ("suukantsu", 1, ("55p", "5p"), {"m": "ankan:1111m daiminkan:2222p kakan:3333s ankan:4444z"}),
    ("tenhou", 1, ("123m456p789s234m55p", "5p"), {"win": "tsumo", "seat": "east", "tenhou": True}),
    ("chiihou", 1, ("123m456p789s234m55p", "5p"), {"win": "tsumo", "chiihou": True}),
    ("renhou", 1, ("123m456p789s234m55p", "5p"), {"renhou": True, "ruleset": "ema"}),
]

# (id that must be absent, args, kwargs)
NEGATIVE = [
    ("riichi", ("123m456p789s234m55p", "5p"), {"double_riichi": True}),  # replaced by double riichi
    ("menzen_tsumo", ("234m55p", "5p"), {"m": "chi:345s pon:666m pon:888p", "win": "tsumo"}),
    ("pinfu", ("123m456p789s234m55p", "3m"), {"riichi": True}),  # kanchan
    ("pinfu", ("123m456p789s234m55z", "4m"), {"riichi": True}),  # haku pair
    ("pinfu", ("123m456p789s234m22z", "4m"), {"riichi": True}),  # seat wind pair
    ("pinfu", ("123m456p789s12m55p", None), {"hand": "123m456p789s123m55p", "win_tile": "3m", "riichi": True}),  # penchan
    ("pinfu", ("111m456p789s234m55p", "4m"), {"riichi": True}),  # a triplet
    ("tanyao", ("123m456p789s234m55p", "4m"), {}),
    ("iipeikou", ("112233m456p55p", "3m"), {"m": "chi:789s", "raises": True}),  # open: no yaku at all
    ("iipeikou", ("112233m445566p55s", "6p"), {}),  # ryanpeikou replaces it
    ("chanta", ("123m789m123p999s11s", "1s"), {}),  # junchan replaces it
    ("chanta", ("111m99p", "9p"), {"m": "pon:111z pon:222z pon:999s"}),  # honroutou replaces it
    ("honitsu", ("11123455678999m", "9m"), {}),  # chinitsu replaces it
    ("sanankou", ("222m444p789s55p666s", "6s"), {"riichi": True}),  # the ron-completed triplet is open
    ("haitei", ("123m456p234m55p", "5p"), {"m": "ankan:1111z", "win": "tsumo", "rinshan": True, "haitei": True}),
    ("toitoi", ("111m222p333s44455z", "5z"), {"win": "tsumo"}),  # yakuman hides ordinary yaku
]


@pytest.mark.parametrize("yaku_id,han,args,kwargs", POSITIVE, ids=[f"{p[0]}-{n}" for n, p in enumerate(POSITIVE)])
def test_yaku_present(yaku_id, han, args, kwargs):
    kwargs = dict(kwargs)
    hand = kwargs.pop("hand", args[0])
    win_tile = kwargs.pop("win_tile", args[1])
    result = score(hand, win_tile, **kwargs)
    assert yaku_of(result).get(yaku_id) == han, result["yaku"]


@pytest.mark.parametrize("yaku_id,mult,args,kwargs", YAKUMAN, ids=[f"{p[0]}-{n}" for n, p in enumerate(YAKUMAN)])
def test_yakuman_present(yaku_id, mult, args, kwargs):
    result = score(*args, **kwargs)
    ids = {y["id"]: y.get("yakuman") for y in result["yaku"]}
    assert ids.get(yaku_id) == mult, result["yaku"]
    assert result["limit"] == "yakuman"
    assert not any(y["id"] in ("dora", "aka_dora", "ura_dora") for y in result["yaku"])


@pytest.mark.parametrize("yaku_id,args,kwargs", NEGATIVE, ids=[f"{p[0]}-{n}" for n, p in enumerate(NEGATIVE)])
def test_yaku_absent(yaku_id, args, kwargs):
    kwargs = dict(kwargs)
    hand = kwargs.pop("hand", args[0])
    win_tile = kwargs.pop("win_tile", args[1])
    raises = kwargs.pop("raises", False)
    if raises:
        with pytest.raises(ScoringError, match="no yaku" if raises is True else raises):
            score(hand, win_tile, **kwargs)
        return
    assert yaku_id not in yaku_of(score(hand, win_tile, **kwargs))


def test_every_yaku_id_has_a_positive_case():
    from scoring.yaku import BY_ID

    covered = {p[0] for p in POSITIVE} | {p[0] for p in YAKUMAN}
    assert set(BY_ID) <= covered


def test_yakuhai_double_wind_counts_twice():
    result = score("123m456p789s55p111z", "5p", seat="east", round_="east")
    assert yaku_of(result) == {"seat_wind": 1, "round_wind": 1}


def test_open_tanyao_not_in_ema():
    with pytest.raises(ScoringError, match="no yaku"):
        score("234m55p", "4m", m="chi:345s pon:666m pon:888p", ruleset="ema")


def test_suuankou_on_a_shanpon_ron_is_sanankou_toitoi():
    result = score("111m222p333s44455z", "4z")
    assert result["yakuman"] == 0
    assert {"sanankou", "toitoi"} <= set(yaku_of(result))


def test_nine_gates_with_a_kan_is_not_chuuren():
    result = score("23455678999m", "5m", m="ankan:1111m", win="tsumo")
    assert result["yakuman"] == 0 and "chinitsu" in yaku_of(result)


def test_all_green_needs_hatsu_when_the_rule_says_so():
    result = score("23334666888s", "8s", m="chi:234s", rules={"ryuuiisou_needs_hatsu": True})
    assert result["yakuman"] == 0 and "chinitsu" in yaku_of(result)


def test_tenhou_ignores_the_special_wait_for_double_yakuman():
    result = score("19m19p19s1234567z1z", "1z", ruleset="ema", win="tsumo", seat="east", tenhou=True)
    assert result["yakuman"] == 1  # EMA 4.2.5: no extra yakuman for the wait on tenhou; not cumulative
    assert len(result["yaku"]) == 1 and result["yaku"][0]["id"] in ("tenhou", "kokushi")


# Near misses: one per yaku id, a hand that comes close but must not show it.
NEAR_MISS = [
    ("riichi", ("123m456p789s234m55p", "5p"), {"win": "tsumo"}),
    ("double_riichi", ("123m456p789s234m55p", "5p"), {"riichi": True}),
    ("ippatsu", ("123m456p789s234m55p", "5p"), {"riichi": True}),
    ("menzen_tsumo", ("123m456p789s234m55p", "5p"), {"riichi": True}),
    ("yakuhai_haku", ("123m456p789s555p55z", "5z"), {"riichi": True}),  # a pair, not a triplet
    ("yakuhai_hatsu", ("123m456p789s555p66z", "6z"), {"riichi": True}),
    ("yakuhai_chun", ("123m456p789s555p77z", "7z"), {"riichi": True}),
    ("seat_wind", ("123m456p789s55p444z", "5p"), {"riichi": True}),  # north: not the seat (south)
    ("round_wind", ("123m456p789s55p444z", "5p"), {"riichi": True}),  # nor the round (east)
    ("chankan", ("123m456p789s234m55p", "4m"), {}),
    ("rinshan", ("123m456p234m55p", "5p"), {"m": "ankan:1111z", "win": "tsumo"}),
    ("houtei", ("123m456p789s234m55p", "5p"), {"riichi": True}),
    ("renhou", ("123m456p789s234m55p", "4m"), {}),
    ("chiitoitsu", ("112233m445566p55s", "6p"), {}),  # ryanpeikou is worth more
    ("ittsu", ("123456m789p234p55s", "5s"), {"riichi": True}),
    ("sanshoku", ("123m123p234s456m55s", "5s"), {"riichi": True}),
    ("chanta", ("123m999p234s111z22z", "2z"), {}),  # 234s has no terminal
    ("toitoi", ("222m55p", "5p"), {"m": "pon:444p chi:678s pon:888m"}),  # tanyao only
    ("sanshoku_doukou", ("222m222p456s88p", "8p"), {"m": "pon:333s"}),
    ("sankantsu", ("234m55p666s", "5p"), {"m": "daiminkan:8888p ankan:2222s"}),
    ("honroutou", ("111m99p", "9p"), {"m": "pon:111z pon:222z chi:789s"}),
    ("shousangen", ("555z666z123m456m44p", "4p"), {}),
    ("ryanpeikou", ("112233m456p789s55p", "3m"), {}),
    ("honitsu", ("123m456p789m111z22z", "2z"), {}),
    ("junchan", ("123m789m123p111z11s", "1s"), {}),  # an honour makes it chanta
    ("chinitsu", ("123456m789m111z22z", "2z"), {}),  # honours: honitsu
    ("kokushi", ("19m19p19s123456z11m", "1m"), {"raises": "not a complete hand"}),  # no chun
    ("kokushi_13", ("19m19p19s1234567z1z", "2z"), {"ruleset": "ema"}),
    ("chuuren", ("11123455667999m", "7m"), {}),  # no 8m: a full flush, not nine gates
    ("chuuren_9", ("11123455678999m", "2m"), {"ruleset": "mahjongsoul"}),  # won on 2m: not the nine-sided wait
    ("suuankou_tanki", ("111m222p333s444z55z", "4z"), {"win": "tsumo", "ruleset": "ema"}),  # tsumo on a shanpon
    ("suuankou", ("111m222p333s444z55z", "4z"), {}),  # ron completes the fourth triplet: it is open
    ("daisangen", ("555z666z77z123m444p", "4p"), {}),
    ("shousuushii", ("111z222z44z123m456p", "4p"), {}),
    ("daisuushii", ("111z222z333z44z", "4z"), {"m": "chi:123m"}),
    ("tsuuiisou", ("111z222z333z55z", "5z"), {"m": "pon:999m"}),
    ("ryuuiisou", ("23334666888s", "8s"), {"m": "chi:345s"}),
    ("chinroutou", ("111m999p111s11z", "1z"), {"m": "pon:999m"}),
    ("suukantsu", ("234m55p", "5p"), {"m": "ankan:1111m daiminkan:2222p kakan:3333s"}),
    ("tenhou", ("123m456p789s234m55p", "5p"), {"win": "tsumo", "seat": "east", "riichi": True}),
    ("chiihou", ("123m456p789s234m55p", "5p"), {"win": "tsumo", "riichi": True}),
]


@pytest.mark.parametrize("yaku_id,args,kwargs", NEAR_MISS, ids=[f"{p[0]}-miss" for p in NEAR_MISS])
def test_yaku_near_miss(yaku_id, args, kwargs):
    test_yaku_absent(yaku_id, args, kwargs)


def test_every_yaku_id_has_a_negative_case():
    from scoring.yaku import BY_ID

    covered = {p[0] for p in NEGATIVE} | {p[0] for p in NEAR_MISS}
    assert set(BY_ID) <= covered


def test_yaku_needs_only_skip_checks_that_would_fail():
    """Yaku.needs lets the engine skip checks; a check must never hold on a hand lacking its needs."""
    from random_hands import random_deals
    from scoring.engine import interpretations, parse_request
    from scoring.yaku import YAKU, YAKUMAN, Context, HandFacts, feature_names

    held = set()
    for deal in random_deals(7, 3000):
        for ruleset in ("ema", "mahjongsoul"):  # red fives, double yakuman, renhou as yakuman / none
            try:
                w = parse_request(deal.payload(ruleset))
            except ScoringError:
                continue
            facts = HandFacts(rules=w.rules, win_index=w.win_tile.index, tsumo=w.tsumo, closed=w.closed,
                              counts=w.all_counts, win_counts=w.counts, seat_wind=w.seat_wind,
                              round_wind=w.round_wind, flags=w.flags)
            melded = tuple(m.group for m in w.melds)
            for form, groups, pair, wait in interpretations(w.counts, 4 - len(w.melds), w.win_tile.index, w.tsumo):
                ctx = Context(facts, form, groups + melded, pair, wait)
                for y in YAKU + YAKUMAN:
                    if y.check(ctx):
                        held.add(y.id)
                        missing = y.needs & ~ctx.features
                        assert not missing, (y.id, feature_names(missing), deal.payload(ruleset))
    assert len(held) >= 40  # the hands reach nearly every yaku, so the check means something
