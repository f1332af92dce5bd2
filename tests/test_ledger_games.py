"""Whole games for every preset (tests/worked_games.py, the scores worked out by hand from the rule
texts) played through the ledger, and the ledger's end-of-game rules."""
import pytest

from game.ledger import apply_hand, new_state, standings
from ledger_helpers import W, draw, hf, ron, tsumo
from scoring.rules import get_ruleset
from worked_games import FINALS, GAMES


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_whole_game(ruleset):
    rules = get_ruleset(ruleset)
    state = new_state(rules)
    for n, (hand, scores, sticks, honba, nxt) in enumerate(GAMES[ruleset]):
        state, record = apply_hand(rules, state, hand)
        where = f"{ruleset} hand {n}"
        assert list(state.scores) == scores, where
        assert state.riichi_sticks == sticks, where
        assert sum(state.scores) + 1000 * sticks == 4 * rules.start_points, where
        if nxt == "end":
            assert state.finished, where
        else:
            assert not state.finished, where
            assert (state.round_wind, state.hand_number, state.dealer) == nxt, where
            assert state.honba == honba, where
    assert state.finished
    table = standings(rules, state)
    got = {r["seat"]: (r["place"], r["final"]) for r in table["standings"]}
    assert got == FINALS[ruleset]


def test_records_itemise_payments_that_add_up_to_the_deltas():
    rules = get_ruleset("ema")
    state = new_state(rules)
    for hand, *_ in GAMES["ema"]:
        before = state.scores
        state, record = apply_hand(rules, state, hand)
        assert [a - b for a, b in zip(state.scores, before)] == record["deltas"]
        moved = [0, 0, 0, 0]
        for item in record["payments"]:
            if item["from"] != "table":
                moved[item["from"]] -= item["amount"]
            if item["to"] != "table":
                moved[item["to"]] += item["amount"]
        assert moved == record["deltas"]


def test_general_agari_yame_and_choosing_to_continue():
    rules = get_ruleset("general")
    state = new_state(rules)
    for _ in range(7):  # E1..S3 drawn with nobody tenpai: the deal passes each time
        state, _ = apply_hand(rules, state, draw())
    assert (state.round_wind, state.hand_number, state.dealer, state.honba) == ("south", 4, 3, 7)
    win = ron(0, W(3, hf(1, 30)))  # dealer 1500 + 7 x 300
    ended, _ = apply_hand(rules, state, win)
    assert list(ended.scores) == [21400, 25000, 25000, 28600] and ended.finished
    rows = {r["seat"]: r for r in standings(rules, ended)["standings"]}
    assert rows[3]["final"] == 48.6 and rows[3]["oka"] == 20000
    assert rows[1]["place"] == rows[2]["place"] == 2 and rows[1]["uma"] == rows[2]["uma"] == 0  # tie: uma split
    assert rows[1]["final"] == rows[2]["final"] == -5 and rows[0]["final"] == -38.6
    going_on, _ = apply_hand(rules, state, {**win, "continue_game": True})
    assert not going_on.finished and going_on.honba == 8


def test_tenhou_west_round_extension():
    rules = get_ruleset("tenhou")
    state = new_state(rules)
    for _ in range(8):  # nobody tenpai E1..S4: nobody has 30000, so West 1 follows
        state, _ = apply_hand(rules, state, draw())
    assert not state.finished
    assert (state.round_wind, state.hand_number, state.dealer, state.honba) == ("west", 1, 0, 8)
    # seat 1 tsumo 4 han 30 fu: 2000/3900 + 800 each; reaching 30000 in the West round ends the game
    state, _ = apply_hand(rules, state, tsumo(1, hf(4, 30)))
    assert list(state.scores) == [20300, 35300, 22200, 22200] and state.finished
    got = {r["seat"]: (r["place"], r["final"]) for r in standings(rules, state)["standings"]}
    assert got == {1: (1, 46), 2: (2, 2), 3: (3, -18), 0: (4, -30)}  # tie 2/3 by seat order


def test_jpml_uma_depends_on_how_many_are_positive():
    rules = get_ruleset("jpml")
    one = standings(rules, new_state(rules).__class__(scores=(60000, 29000, 20000, 11000)))["standings"]
    assert [r["uma"] for r in one] == [12000, -1000, -3000, -8000]
    three = standings(rules, new_state(rules).__class__(scores=(31000, 30000, 30000, 29000)))["standings"]
    # exactly 30000 counts as positive; seats 1 and 2 tie for 2nd and split +3 and +1
    assert [(r["seat"], r["uma"]) for r in three] == [(0, 8000), (1, 2000), (2, 2000), (3, -12000)]


def test_east_only_game_ends_after_east_4():
    rules = get_ruleset("wrr", {"game_length": "east"})
    state = new_state(rules)
    for _ in range(3):  # E1..E3 drawn, nobody tenpai: the deal passes
        state, _ = apply_hand(rules, state, draw())
    assert (state.round_wind, state.hand_number, state.dealer) == ("east", 4, 3) and not state.finished
    state, record = apply_hand(rules, state, draw())  # E4: the dealer is noten, so the game ends
    assert state.finished and record["game_over"]
    # the same hands under East and South go on to South 1
    full = new_state(get_ruleset("wrr"))
    for _ in range(4):
        full, _ = apply_hand(get_ruleset("wrr"), full, draw())
    assert (full.round_wind, full.hand_number, full.dealer, full.finished) == ("south", 1, 0, False)


def test_east_only_dealer_repeats_in_east_4_under_wrr_and_stops_under_general():
    # WRR has no agari-yame: a dealer's win in the last hand means another hand
    wrr = get_ruleset("wrr", {"game_length": "east"})
    state = new_state(wrr)
    for _ in range(3):
        state, _ = apply_hand(wrr, state, draw())
    state, _ = apply_hand(wrr, state, tsumo(3, hf(3, 30)))  # dealer 2000 all + 300 each (3 honba)
    assert list(state.scores) == [27700, 27700, 27700, 36900]
    assert not state.finished and (state.round_wind, state.hand_number, state.honba) == ("east", 4, 4)
    # General Laws: the first-placed dealer's win in the last hand ends it (agari-yame)
    general = get_ruleset("general", {"game_length": "east"})
    state = new_state(general)
    for _ in range(3):
        state, _ = apply_hand(general, state, draw())
    state, _ = apply_hand(general, state, tsumo(3, hf(3, 30)))
    assert state.finished and list(state.scores) == [22700, 22700, 22700, 31900]


def test_tenhou_east_only_extends_into_south_until_someone_has_30000():
    rules = get_ruleset("tenhou", {"game_length": "east"})
    state = new_state(rules)
    for _ in range(4):  # E1..E4 drawn, nobody tenpai: nobody has 30000, so South 1 follows
        state, _ = apply_hand(rules, state, draw())
    assert (state.round_wind, state.hand_number, state.dealer, state.finished) == ("south", 1, 0, False)
    # seat 1 tsumo 4 han 30 fu: 2000/3900 + 400 each (4 honba); 34100 ends the game in the extension
    state, _ = apply_hand(rules, state, tsumo(1, hf(4, 30)))
    assert list(state.scores) == [20700, 34100, 22600, 22600] and state.finished
