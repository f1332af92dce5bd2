"""Fu, the choice of interpretation, payments, dora, validation, and each rule-set difference."""
import pytest

import scoring
from scoring import ScoringError
from scoring_helpers import req, score, yaku_of
from web.errors import STATUS

PINFU_HAND = ("123m456p789s234m55p", "4m")
OPEN_TANYAO = dict(m="chi:345s chi:678p chi:234p")


# --- fu ------------------------------------------------------------------------------------

def test_pinfu_ron_is_30_fu():
    r = score(*PINFU_HAND, riichi=True)
    assert (r["han"], r["fu"], r["points"]) == (2, 30, 2000)


def test_pinfu_tsumo_is_20_fu_without_tsumo_fu():
    r = score(*PINFU_HAND, riichi=True, win="tsumo")
    assert (r["han"], r["fu"]) == (3, 20)
    assert r["payments"] == {"dealer": 1300, "non_dealer": 700}
    assert r["points"] == 2700


def test_open_hand_without_fu_is_30():
    r = score("234m55p", "4m", **OPEN_TANYAO)
    assert (r["han"], r["fu"], r["points"]) == (1, 30, 1000)
    assert [d["id"] for d in r["fu_details"]] == ["base", "open_pinfu"]


def test_kanchan_adds_two_fu():
    r = score("123p456p789s234m55p", "3m", riichi=True)
    assert r["fu"] == 40 and r["wait"] == "kanchan"
    assert sum(d["fu"] for d in r["fu_details"]) == 32


def test_seven_pairs_are_25_fu_never_rounded():
    r = score("1133m5577p99s1122z", "2z")
    assert (r["han"], r["fu"], r["points"]) == (2, 25, 1600)


@pytest.mark.parametrize("ruleset,fu,each", [("wrr", 40, 1300), ("jpml", 30, 1000), ("tenhou", 40, 1300), ("saikouisen", 30, 1000)])
def test_double_wind_pair_fu(ruleset, fu, each):
    # dealer in the east round with an east pair: 20 + 2 tsumo + 2 kanchan + 4 (222p concealed) + pair
    r = score("123m222p456s789s11z", "2m", win="tsumo", seat="east", riichi=True, ruleset=ruleset)
    assert r["fu"] == fu
    assert r["payments"] == {"non_dealer": each}


def test_rinshan_tsumo_fu_can_be_switched_off():
    args = ("123345m456p55p", "4m")
    kw = dict(m="daiminkan:2222s", win="tsumo", rinshan=True)
    assert score(*args, **kw)["fu"] == 40
    assert score(*args, **kw, rules={"rinshan_tsumo_fu": False})["fu"] == 30


def test_ron_on_a_triplet_counts_it_open():
    r = score("222m444p789s55p666s", "6s", riichi=True)
    groups = [d for d in r["fu_details"] if d["id"] == "group"]
    assert sorted(d["fu"] for d in groups) == [2, 4, 4]  # 666s completed by ron is open


# --- the interpretation worth the most ---------------------------------------------------

def test_triplets_beat_runs_when_worth_more():
    r = score("111222333m456p55s", "6p")
    assert yaku_of(r) == {"sanankou": 2}
    assert (r["han"], r["fu"], r["points"]) == (2, 50, 3200)


def test_two_sided_reading_is_chosen_for_pinfu():
    # EMA 4.1.1: 5-6-7-8-9 winning on 7 may be an edge wait or a two-sided one
    r = score("567789m123p456s22p", "7m", riichi=True)
    assert yaku_of(r) == {"riichi": 1, "pinfu": 1}
    assert r["points"] == 2000


def test_yakuman_beats_counted_yakuman_of_equal_value():
    # 222 555 666 777 + 33p is suuankou; 222 + 567 567 567 + 33p is chinitsu, tanyao, iipeikou,
    # riichi, tsumo, haitei and three dora: 14 han, counted yakuman under Tenhou rules. Both pay
    # 8000 base; the yakuman yaku is the hand (as Tenhou reports it; it decides liability and records).
    r = score("22233555666777p", "5p", ruleset="tenhou", win="tsumo", riichi=True, haitei=True, dora_indicators="1p")
    assert r["yakuman"] == 1 and r["kazoe"] is False
    assert [y["id"] for y in r["yaku"]] == ["suuankou"]
    assert r["points"] == 32000


def test_ryanpeikou_beats_seven_pairs():
    r = score("112233m445566p55s", "6p")
    assert "ryanpeikou" in yaku_of(r) and "chiitoitsu" not in yaku_of(r)


# --- payments, honba, sticks -------------------------------------------------------------

def test_ron_with_honba_and_sticks():
    r = score("123m456p789s234m55p", "4m", riichi=True, honba=2, riichi_sticks=3)
    assert r["points"] == 2000
    assert r["payments"] == {"ron": 2600}
    assert r["total"] == 2600 + 3000


def test_non_dealer_tsumo_with_honba():
    r = score("234m55p", "4m", win="tsumo", honba=1, **OPEN_TANYAO)
    assert (r["han"], r["fu"]) == (1, 30)
    assert r["payments"] == {"dealer": 600, "non_dealer": 400}
    assert (r["points"], r["total"]) == (1100, 1400)


def test_dealer_tsumo_has_only_non_dealer_payments():
    r = score(*PINFU_HAND, win="tsumo", seat="east", riichi=True, honba=1)
    assert r["payments"] == {"non_dealer": 1300 + 100}
    assert r["points"] == 3900 and r["total"] == 4200


def test_dealer_ron_mangan():
    r = score("123456789m234p55s", "5s", seat="east", riichi=True, ippatsu=True, dora_indicators="1p")
    assert r["han"] == 5 and r["limit"] == "mangan"
    assert r["payments"] == {"ron": 12000}


# --- dora ----------------------------------------------------------------------------------

@pytest.mark.parametrize("indicator,count", [("3m", 1), ("9m", 1), ("1m", 2), ("4p", 3), ("9s", 0), ("4z", 0)])
def test_dora_from_indicator(indicator, count):
    # hand holds 1m, 2m twice, 4m once, 5p three times: 9m -> 1m, 1m -> 2m, 3m -> 4m, 4p -> 5p
    r = score("123m456p789s234m55p", "4m", riichi=True, dora_indicators=indicator)
    assert yaku_of(r).get("dora", 0) == count


def test_honour_indicators_wrap():
    from scoring.tiles import Tile, dora_after, index_code

    assert [index_code(dora_after(Tile.parse(c).index)) for c in ("4z", "7z", "5z", "6z", "9p")] == ["1z", "5z", "6z", "7z", "1p"]


def test_kan_dora_counts_each_indicator():
    r = score("123m456p789s234m55p", "4m", riichi=True, dora_indicators="4p4p")
    assert yaku_of(r)["dora"] == 6


def test_no_kan_dora_in_jpml():
    r = score("123m456p789s234m55p", "4m", riichi=True, dora_indicators="4p4p", ruleset="jpml")
    assert yaku_of(r)["dora"] == 3
    assert any("kan dora" in n for n in r["notes"])


def test_ura_dora_only_with_riichi():
    with_riichi = score("123m456p789s234m55p", "4m", riichi=True, dora_indicators="1z", ura_indicators="4p")
    assert yaku_of(with_riichi)["ura_dora"] == 3
    r = score("234m456p678s234m55p", "4m", ura_indicators="4p", dora_indicators="1z")
    assert "ura_dora" not in yaku_of(r)
    assert any("ura" in n for n in r["notes"])


def test_red_fives_count_where_the_rules_have_them():
    ema = score("123m406p789s234m55s", "4m", riichi=True, ruleset="ema")
    assert yaku_of(ema)["aka_dora"] == 1
    wrr = score("123m406p789s234m55s", "4m", riichi=True)
    assert "aka_dora" not in yaku_of(wrr)
    assert any("red fives" in n for n in wrr["notes"])
    assert wrr["note_ids"] == ["no_red_fives"] and len(wrr["notes"]) == 1   # an id per note, for a translated note
    assert wrr["ruleset_title"] == scoring.get_ruleset("wrr").title


def test_dora_in_melds_count():
    r = score("234m55p", "4m", m="pon:666s chi:678p chi:234p", dora_indicators="5s")
    assert yaku_of(r)["dora"] == 3


def test_dora_counted_by_the_player_add_to_indicators_and_red_fives():
    hand = ("123m406p789s234m55s", "4m")
    plain = score(*hand, riichi=True, ruleset="ema")
    counted = score(*hand, riichi=True, ruleset="ema", dora_count=2, dora_indicators="4p")  # 4p -> 5p: one more
    assert yaku_of(plain) == {"riichi": 1, "pinfu": 1, "aka_dora": 1}
    assert yaku_of(counted)["dora"] == 3 and yaku_of(counted)["aka_dora"] == 1
    assert counted["han"] == plain["han"] + 3
    assert score(*hand, riichi=True, ruleset="ema", dora_count=0) == plain


def test_counted_dora_never_make_a_hand_without_yaku_score():
    with pytest.raises(ScoringError) as err:
        score("123m456p789s234m11z", "4m", dora_count=5)
    assert err.value.field == "hand" and "dora" in err.value.message


@pytest.mark.parametrize("value, status", [(-1, 422), (scoring.contract.MAX_DORA_COUNT + 1, 422),
                                           (1.5, 400), ("2", 400), (True, 400), (None, 400), ([1], 400)])
def test_dora_count_out_of_range_or_not_a_whole_number_is_refused_naming_it(value, status):
    """Like honba: a value of the wrong type is malformed (400), a number out of range is 422."""
    with pytest.raises(ScoringError) as err:
        score("123m456p789s234m55p", "4m", riichi=True, dora_count=value)
    assert (err.value.field, STATUS[err.value.kind]) == ("dora_count", status)


def test_dora_count_up_to_the_bound_is_accepted():
    r = score("123m456p789s234m55p", "4m", riichi=True, dora_count=scoring.contract.MAX_DORA_COUNT)
    assert yaku_of(r)["dora"] == scoring.contract.MAX_DORA_COUNT


# --- fu lines as data --------------------------------------------------------------------

def test_fu_lines_carry_their_tiles_and_kind():
    # east round, east seat: 111z is a double-wind pair; 555z a concealed triplet; 999p an open one; kanchan 2m
    r = score("13m111s11z555z2m", "2m", seat="east", m="pon:999p")
    by_id = {}
    for line in r["fu_details"]:
        by_id.setdefault(line["id"], []).append(line)
    groups = {g["tiles"]: g for g in by_id["group"]}
    assert groups["555z"] | {} == {"id": "group", "fu": 8, "tiles": "555z", "concealed": True, "kan": False,
                                   "terminal": True, "label": "concealed triplet of terminals/honours (555z)"}
    assert (groups["999p"]["concealed"], groups["999p"]["fu"]) == (False, 4)
    assert (groups["111s"]["concealed"], groups["111s"]["terminal"]) == (True, True)
    (pair,) = by_id["pair"]
    assert (pair["tiles"], pair["reason"], pair["fu"]) == ("11z", "double_wind", 4)
    (wait,) = by_id["wait"]
    assert (wait["wait"], wait["fu"]) == ("kanchan", 2)
    assert sum(line["fu"] for line in r["fu_details"]) == 20 + 8 + 8 + 4 + 4 + 2


@pytest.mark.parametrize("pair,seat,reason", [("66z", "south", "dragon"), ("22z", "south", "seat_wind"),
                                              ("11z", "south", "round_wind")])
def test_pair_lines_say_why_the_pair_is_worth_fu(pair, seat, reason):
    r = score(f"123m456p789s234m{pair}", "4m", seat=seat, riichi=True)
    (line,) = [d for d in r["fu_details"] if d["id"] == "pair"]
    assert (line["tiles"], line["reason"]) == (pair, reason)


def test_kan_lines_show_four_tiles():
    r = score("123m456p789s55p", "5p", m="ankan:1111z", riichi=True)
    (line,) = [d for d in r["fu_details"] if d["id"] == "group"]
    assert (line["tiles"], line["kan"], line["concealed"], line["fu"]) == ("1111z", True, True, 32)


# --- rule-set differences (RULESETS.md) ---------------------------------------------------

def test_kiriage_in_saikouisen_only():
    hand = ("234m456p678s345m55p", "5m")
    kw = dict(riichi=True, dora_indicators="3p")
    assert score(*hand, **kw)["points"] == 7700
    assert score(*hand, ruleset="saikouisen", **kw)["points"] == 8000
    assert score(*hand, ruleset="ema", **kw)["points"] == 7700


def test_kazoe_yakuman_ema_yes_wrr_no():
    kw = dict(win="tsumo", riichi=True, dora_indicators="8m8m")
    wrr = score("11223345678999m", "5m", **kw)
    ema = score("11223345678999m", "5m", ruleset="ema", **kw)
    assert wrr["han"] >= 13 and wrr["limit"] == "sanbaiman" and wrr["points"] == 24000
    assert ema["limit"] == "yakuman" and ema["kazoe"] is True and ema["points"] == 32000
    assert ema["yakuman"] == 0  # counted yakuman: not a yakuman yaku


def test_kazoe_in_saikouisen_is_sanbaiman():
    r = score("11223345678999m", "5m", ruleset="saikouisen", win="tsumo", riichi=True, dora_indicators="8m8m")
    assert r["limit"] == "sanbaiman"


@pytest.mark.parametrize("ruleset,mult", [("wrr", 1), ("ema", 1), ("jpml", 2), ("saikouisen", 2), ("tenhou", 2), ("mahjongsoul", 2)])
def test_yakuman_stacking(ruleset, mult):
    r = score("555z666z111z22z", "2z", m="pon:777z", ruleset=ruleset)  # daisangen + tsuuiisou
    assert r["yakuman"] == mult
    assert r["points"] == 32000 * mult


def test_saikouisen_caps_at_quadruple():
    # suuankou + daisuushii + tsuuiisou + ... (tsumo): 4 yakuman or more, capped at 4
    r = score("111z222z333z444z55z", "5z", win="tsumo", ruleset="saikouisen")
    assert r["yakuman"] == 3  # suuankou, daisuushii, tsuuiisou
    r = score("111z222z333z444z55z", "5z", win="tsumo", ruleset="mahjongsoul")
    assert r["yakuman"] == 2 + 2 + 1  # suuankou tanki x2, daisuushii x2, tsuuiisou


@pytest.mark.parametrize("ruleset,expect", [("wrr", ("han", 5)), ("ema", ("yakuman", 1)), ("jpml", None), ("tenhou", None)])
def test_renhou(ruleset, expect):
    r = score("123m456p789s234m55p", "4m", renhou=True, ruleset=ruleset)
    if expect is None:
        assert "renhou" not in yaku_of(r)
        assert any("renhou" in n for n in r["notes"])
    elif expect[0] == "han":
        assert yaku_of(r)["renhou"] == 5 and r["limit"] == "haneman"  # renhou 5 + pinfu 1
    else:
        assert r["yakuman"] == 1


def test_renhou_as_mangan_override():
    r = score("123m456p789s234m55p", "4m", renhou=True, rules={"renhou": "mangan"})
    assert r["limit"] == "mangan" and r["points"] == 8000


def test_ippatsu_not_counted_in_jpml():
    r = score(*PINFU_HAND, riichi=True, ippatsu=True, ruleset="jpml")
    assert "ippatsu" not in yaku_of(r)
    assert any("ippatsu" in n for n in r["notes"])


def test_haitei_does_not_combine_with_rinshan():
    r = score("123m456p234m55p", "5p", m="ankan:1111z", win="tsumo", rinshan=True, haitei=True, ruleset="general")
    assert "rinshan" in yaku_of(r) and "haitei" not in yaku_of(r)
    r = score("123m456p234m55p", "5p", m="ankan:1111z", win="tsumo", rinshan=True, haitei=True,
              rules={"haitei_with_rinshan": True})
    assert {"rinshan", "haitei"} <= set(yaku_of(r))


@pytest.mark.parametrize("ruleset,allowed", [("wrr", True), ("ema", True), ("tenhou", True), ("jpml", False), ("saikouisen", False)])
def test_kokushi_robbing_a_concealed_kan(ruleset, allowed):
    kw = dict(ruleset=ruleset, chankan_ankan=True)
    if allowed:
        r = score("19m19p19s1234567z1z", "2z", **kw)
        assert r["yakuman"] == 1 and "chankan" not in yaku_of(r)  # a yakuman hides chankan
    else:
        with pytest.raises(ScoringError, match="never let a concealed kan be robbed") as err:
            score("19m19p19s1234567z1z", "2z", **kw)
        assert err.value.field == "chankan_ankan"
    with pytest.raises(ScoringError, match="Only thirteen orphans"):
        score("123m456p789s234m55p", "4m", ruleset="wrr", chankan_ankan=True)


def test_ema_two_yaku_minimum_from_five_counters():
    hand = ("234m456p678s234m55p", "4m")  # tanyao, pinfu, iipeikou: 3 han
    assert score(*hand, ruleset="ema", honba=5)["han"] >= 2
    one_yaku = ("234m456p678s222s66p", "2s")  # tanyao only: the 2s completes a triplet
    r = score(*one_yaku, ruleset="ema", honba=4, dora_indicators="3p")
    assert yaku_of(r)["tanyao"] == 1
    with pytest.raises(ScoringError, match="two han"):
        score(*one_yaku, ruleset="ema", honba=5, dora_indicators="3p")
    assert score(*one_yaku, ruleset="wrr", honba=5)["han"] >= 1


def test_rules_override_validation():
    with pytest.raises(ScoringError) as err:
        score(*PINFU_HAND, rules={"no_such_rule": True})
    assert err.value.kind == "malformed" and err.value.field == "rules.no_such_rule"
    with pytest.raises(ScoringError) as err:
        score(*PINFU_HAND, rules={"kiriage": "yes"})
    assert err.value.field == "rules.kiriage"
    with pytest.raises(ScoringError) as err:
        score(*PINFU_HAND, rules={"double_wind_pair_fu": 3})
    assert err.value.kind == "impossible"


# --- validation ------------------------------------------------------------------------------

@pytest.mark.parametrize("payload,status,field,words", [
    ({"hand": "123m456p789s234m5p", "win_tile": "4m"}, 422, "hand", "13 tiles"),
    ({"hand": "123m456p789s234m5p5"}, 400, "hand", "no suit letter"),
    ({"hand": "123m456p789s234x55p"}, 400, "hand", "the character x"),
    ({"hand": "123m456p789s234m08z"}, 400, "hand", "0z at"),
    ({"hand": "123m456p789s234m88z"}, 400, "hand", "8z at"),
    ({"hand": "11111m456p789s555p"}, 422, "hand", "more than four of 1m"),
    ({"hand": "123m456p789s234m55p", "dora_indicators": "5p5p5p"}, 422, "hand", "more than four of 5p"),
    ({"hand": "123m406p789s234m00p"}, 422, "hand", "more than one red five"),
    ({"hand": "123m456p789s234m55p", "win_tile": "9m"}, 422, "win_tile", "is not in the hand"),
    ({"hand": "123m406p789s234m55s", "win_tile": "5p"}, 422, "win_tile", "5p is not in the hand"),
    ({"hand": "123m456p234m55p", "melds": [{"type": "chi", "tiles": "789s"}], "riichi": True}, 422, "riichi", "closed"),
    ({"hand": "123m456p789s234m55p", "ippatsu": True}, 422, "ippatsu", "riichi"),
    ({"hand": "123m456p789s234m55p", "haitei": True}, 422, "haitei", "houtei"),
    ({"hand": "123m456p789s234m55p", "win": "tsumo", "houtei": True}, 422, "houtei", None),
    ({"hand": "123m456p789s234m55p", "win": "tsumo", "rinshan": True}, 422, "rinshan", "kan"),
    ({"hand": "123m456p789s234m55p", "win": "tsumo", "chankan": True}, 422, "chankan", None),
    ({"hand": "123m456p789s234m55p", "tenhou": True}, 422, "tenhou", "tsumo"),
    ({"hand": "123m456p789s234m55p", "win": "tsumo", "seat_wind": "south", "tenhou": True}, 422, "tenhou", "dealer"),
    ({"hand": "123m456p789s234m55p", "riichi": "yes"}, 400, "riichi", "on or off"),
    ({"hand": "123m456p789s234m55p", "honba": -1}, 422, "honba", "negative"),
    ({"hand": "123m456p789s234m55p", "honba": "2"}, 400, "honba", None),
    ({"hand": "123m456p789s234m55p", "seat_wind": "up"}, 400, "seat_wind", None),
    ({"hand": "123m456p789s234m55p", "win": "draw"}, 400, "win", None),
    ({"hand": "123m456p789s234m55p", "ruleset": "nope"}, 422, "ruleset", "unknown rule set"),
    ({"hand": "123m456p234m55p", "melds": [{"type": "chi", "tiles": "135s"}]}, 422, "melds[0].tiles", "in a row"),
    ({"hand": "123m456p234m55p", "melds": [{"type": "pon", "tiles": "123z"}]}, 422, "melds[0].tiles", "identical"),
    ({"hand": "123m456p234m55p", "melds": [{"type": "meld", "tiles": "111z"}]}, 400, "melds[0].type", None),
    ({"hand": "123m456p234m55p", "melds": "pon 111z"}, 400, "melds", None),
    ({"hand": "123m456p234m55p", "melds": [{"type": ["pon"], "tiles": "111z"}]}, 400, "melds[0].type", None),
    ({"hand": "123m456p234m55p", "melds": [{"type": "pon", "tiles": ["111z"]}]}, 400, "melds[0].tiles", None),
    ({"hand": "123m456p234m55p", "melds": [{"type": "pon", "tiles": 111}]}, 400, "melds[0].tiles", None),
    ({"hand": "123m456p789s234m55p", "win_tile": ["4m"]}, 400, "win_tile", None),
    ({"hand": "123m456p789s234m55p", "dora_indicators": {"a": 1}}, 400, "dora_indicators", None),
    ({"hand": "123m456p789s234m55p", "ruleset": ["wrr"]}, 422, "ruleset", None),
    ({"hand": "123m456p789s234m55p", "rules": ["kiriage"]}, 400, "rules", None),
    ({"hand": ["123m"]}, 400, "hand", None),
    ({"hand": 123}, 400, "hand", "write tiles like"),
    ({}, 400, "hand", "enter the hand's tiles"),
    ({"hand": "123m456p789s234m56p", "win_tile": "6p"}, 422, "hand", "not a complete hand"),
    ({"hand": "123m456p789s234m55z", "win_tile": "4m"}, 422, "hand", "no yaku"),
])
def test_bad_requests(payload, status, field, words):
    with pytest.raises(ScoringError) as err:
        scoring.score(payload)
    assert STATUS[err.value.kind] == status
    assert err.value.field == field
    if words:
        assert words in err.value.message.lower()


def test_win_tile_defaults_to_the_last_tile_written():
    r = scoring.score({"hand": "123m456p789s55p234m", "riichi": True})
    assert r["win_tile"] == "4m" and "pinfu" in yaku_of(r)


def test_result_carries_the_contract_fields():
    r = score(*PINFU_HAND, riichi=True)
    for key in ("han", "fu", "yakuman", "limit", "yaku", "fu_details", "points", "payments", "total"):
        assert key in r
    assert all({"id", "name", "han"} <= set(y) for y in r["yaku"])


def test_request_is_not_mutated():
    payload = req(*PINFU_HAND, riichi=True, dora_indicators="3m")
    before = repr(payload)
    scoring.score(payload)
    assert repr(payload) == before


def test_a_wind_that_is_not_a_string_is_a_clean_error():
    # an unhashable value is a clear error, not a TypeError (HTTP 500) from the wind lookup
    with pytest.raises(ScoringError) as err:
        scoring.score({"hand": "123m456p789s234m55p", "seat_wind": ["east"]})
    assert err.value.kind == "malformed" and err.value.field == "seat_wind"
