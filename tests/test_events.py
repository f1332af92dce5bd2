"""Event standings, seating and statistics, with the numbers worked out by hand."""
import random

import pytest

from game.ledger import replay, state_dict
from league.seating import SeatingError, balanced_round, meetings, random_round, repeat_meetings, seat_round
from league.standings import score_lines, standings
from league.stats import event_stats, game_stats
from scoring.rules import get_ruleset

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def game(entrants, hands, ruleset="wrr", excluded=False, gid=None):
    rules = get_ruleset(ruleset)
    state, records = replay(rules, hands)
    return {"id": gid, "entrants": entrants, "excluded": excluded, "state": state_dict(rules, state), "hands": records}


def ron(frm, seat, han, fu, riichi=()):
    return {"result": "ron", "from_seat": frm, "winners": [{"seat": seat, "value": {"han": han, "fu": fu}}], "riichi": list(riichi)}


def fixed(entrants, rows, excluded=False, finished=True):
    """A game given by its final table: rows of (seat, place, final)."""
    return {"entrants": entrants, "excluded": excluded,
            "state": {"finished": finished, "standings": [{"seat": s, "place": p, "final": f} for s, p, f in rows]}}


# --- standings ---------------------------------------------------------------------------------

def test_a_real_game_ended_early_gives_wrr_session_scores():
    # seat 1 (riichi) rons seat 2 for 3 han 30 fu: 3900 and the stick; then the session ends
    g = game([0, 1, 2, 3], [ron(2, 1, 3, 30, riichi=[1]), {"result": "end"}])
    assert g["state"]["scores"] == [30000, 33900, 26100, 30000]
    rows = {r["name"]: r for r in standings("shared", NAMES[:4], [g])["rows"]}
    # WRR: (points - 30000) / 1000 + uma; Ann and Dan tie for 2nd and split +5 and -5
    assert rows["Ben"]["total"] == 18.9 and rows["Ben"]["places"] == [1, 0, 0, 0]
    assert rows["Ann"]["total"] == rows["Dan"]["total"] == 0 and rows["Ann"]["rank"] == rows["Dan"]["rank"] == 2
    assert rows["Ann"]["places"] == [0, 1, 0, 0]
    assert rows["Cat"]["total"] == -18.9 and rows["Cat"]["rank"] == 4


def test_totals_games_average_place_and_an_excluded_game():
    g1 = fixed([0, 1, 2, 3], [(0, 1, 40), (1, 2, 10), (2, 3, -15), (3, 4, -35)])
    g2 = fixed([4, 5, 6, 7], [(0, 1, 25), (1, 2, 5), (2, 3, -10), (3, 4, -20)])
    g3 = fixed([0, 4, 1, 5], [(0, 4, -30), (1, 1, 35), (2, 2, 2.5), (3, 3, -7.5)])
    practice = fixed([0, 1, 2, 3], [(0, 4, -50), (1, 3, -10), (2, 2, 10), (3, 1, 50)], excluded=True)
    unfinished = fixed([0, 1, 2, 3], [(0, 1, 99)], finished=False)
    out = standings("shared", NAMES, [g1, g2, g3, practice, unfinished])
    got = [(r["name"], r["rank"], r["total"], r["games"], r["average_place"], r["places"]) for r in out["rows"]]
    assert got == [
        ("Eve", 1, 60, 2, 1.0, [2, 0, 0, 0]),      # 25 + 35
        ("Ben", 2, 12.5, 2, 2.0, [0, 2, 0, 0]),    # 10 + 2.5
        ("Ann", 3, 10, 2, 2.5, [1, 0, 0, 1]),      # 40 - 30
        ("Fay", 4, -2.5, 2, 2.5, [0, 1, 1, 0]),    # 5 - 7.5
        ("Gus", 5, -10, 1, 3.0, [0, 0, 1, 0]),
        ("Cat", 6, -15, 1, 3.0, [0, 0, 1, 0]),
        ("Hal", 7, -20, 1, 4.0, [0, 0, 0, 1]),
        ("Dan", 8, -35, 1, 4.0, [0, 0, 0, 1]),
    ]
    assert [p["totals"][0] for p in out["progress"]] == [40, 40, 10]  # Ann after each counted game
    # bringing the practice game back changes the standings
    back = standings("shared", NAMES, [g1, g2, g3, {**practice, "excluded": False}])
    assert {r["name"]: r["total"] for r in back["rows"]}["Dan"] == 15


def test_equal_totals_share_a_rank_or_go_by_placements():
    g1 = fixed([0, 1, 2, 3], [(0, 1, 20), (1, 2, 10), (2, 3, -10), (3, 4, -20)])
    g2 = fixed([0, 1, 2, 3], [(0, 4, -10), (1, 1, 0), (2, 2, 10), (3, 3, 0)])
    # totals: Ann 10, Ben 10, Cat 0, Dan -20; Ann has a first, Ben has a first too, then Ben has a
    # second where Ann has none
    shared = [(r["name"], r["rank"]) for r in standings("shared", NAMES[:4], [g1, g2])["rows"]]
    assert shared == [("Ann", 1), ("Ben", 1), ("Cat", 3), ("Dan", 4)]
    placed = [(r["name"], r["rank"]) for r in standings("placements", NAMES[:4], [g1, g2])["rows"]]
    assert placed == [("Ben", 1), ("Ann", 2), ("Cat", 3), ("Dan", 4)]


def test_a_substitute_plays_but_is_not_ranked():
    g = fixed([0, 1, 2, None], [(0, 1, 30), (1, 2, 5), (2, 3, -5), (3, 4, -30)])
    rows = standings("shared", NAMES[:3], [g])["rows"]
    assert [(r["name"], r["total"]) for r in rows] == [("Ann", 30), ("Ben", 5), ("Cat", -5)]


def test_score_lines_follow_every_hand():
    g = game([0, 1, 2, 3], [ron(2, 1, 3, 30, riichi=[1]), ron(0, 3, 1, 30)])
    assert score_lines(g, 30000) == [[30000, 30000, 29000], [30000, 33900, 33900], [30000, 26100, 26100], [30000, 30000, 31000]]


# --- seating -----------------------------------------------------------------------------------

def _check_round(rnd, n):
    seated = [p for t in rnd["tables"] for p in t if p is not None]
    assert all(len(t) == 4 for t in rnd["tables"])
    assert sorted(seated + rnd["byes"]) == list(range(n))


@pytest.mark.parametrize("seed", range(5))
def test_balanced_seating_of_16_players_over_4_rounds_has_no_repeat_meeting(seed):
    rng = random.Random(seed)
    rounds = []
    for _ in range(4):
        rounds.append(balanced_round(16, rounds, rng, planned=4))
        _check_round(rounds[-1], 16)
    assert repeat_meetings(rounds) == 0
    assert len(meetings(rounds)) == 4 * 4 * 6  # 96 distinct pairs met once


def test_random_seating_leaves_repeats_the_balanced_one_avoids():
    rng = random.Random(1)
    rounds = []
    for _ in range(4):
        rounds.append(random_round(16, rounds, rng))
        _check_round(rounds[-1], 16)
    assert repeat_meetings(rounds) > 0


def test_byes_go_to_those_who_had_fewest():
    rng = random.Random(3)
    rounds = []
    for _ in range(5):
        rounds.append(seat_round("balanced", 10, rounds, rng))
        _check_round(rounds[-1], 10)
        assert len(rounds[-1]["byes"]) == 2 and len(rounds[-1]["tables"]) == 2
    byes = [p for r in rounds for p in r["byes"]]
    assert sorted(byes) == list(range(10))  # 5 rounds x 2 byes: everyone sits out once


def test_substitutes_fill_the_last_table():
    rnd = seat_round("random", 10, [], random.Random(0), mode="substitutes")
    assert len(rnd["tables"]) == 3 and rnd["byes"] == []
    assert sum(p is None for t in rnd["tables"] for p in t) == 2
    _check_round(rnd, 10)


def test_seating_refuses_too_few_players_and_unknown_methods():
    with pytest.raises(SeatingError) as err:
        seat_round("random", 3, [])
    assert err.value.field == "players"
    with pytest.raises(SeatingError) as err:
        seat_round("swiss", 8, [])
    assert err.value.field == "method"


# --- statistics --------------------------------------------------------------------------------

def test_game_and_event_statistics():
    hand = {"hand": "234m234p234s55m678s", "win_tile": "8s", "riichi": True}
    hands = [
        # E1: Ben (riichi) rons Cat, 3 han 30 fu = 3900
        ron(2, 1, 3, 30, riichi=[1]),
        # E2 (dealer Ben): Dan tsumo from tiles with riichi: riichi, tsumo, pinfu, tanyao, sanshoku = 6 han: haneman 12000
        {"result": "tsumo", "riichi": [3], "winner": {"seat": 3, "value": {"hand": hand}}},
        # E3 (dealer Cat): draw, Ann and Cat tenpai, Ann in riichi
        {"result": "draw", "tenpai": [0, 2], "riichi": [0]},
        # E3-1: Ann rons Cat 2 han 30 fu = 2000
        ron(2, 0, 2, 30),
        {"result": "chombo", "seat": 1},  # a re-deal: not a hand
    ]
    g = game([0, 1, 2, 3], hands)
    won = g["hands"][1]["winners"][0]
    assert won["points"] == 12000 and {y["id"] for y in won["yaku"]} >= {"riichi", "menzen_tsumo", "pinfu", "tanyao"}
    per_seat = game_stats(g)
    ann, ben, cat, dan = per_seat
    assert ann["hands"] == 4 and ann["wins"] == 1 and ann["win_rate"] == 0.25 and ann["riichi_rate"] == 0.25
    assert ann["draws"] == 1 and ann["tenpai_at_draw"] == 1 and ann["tenpai_rate"] == 1.0
    assert ben["average_win"] == 3900 and ben["tsumo_share"] == 0.0 and ben["tenpai_rate"] == 0.0
    assert cat["deal_ins"] == 2 and cat["deal_in_rate"] == 0.5 and cat["average_deal_in"] == (3900 + 2000) / 2
    assert dan["tsumo_share"] == 1.0 and dan["average_win"] == 12000 and dan["scored_wins"] == 1
    assert dan["yaku"]["riichi"] == 1 and ann["scored_wins"] == 0 and ann["yaku"] == {}
    assert cat["win_rate"] == 0.0 and cat["tsumo_share"] is None and cat["average_win"] is None
    # over an event: the same game seen from players 4..7, plus an excluded game that does not count
    again = {**g, "entrants": [4, 5, 6, None]}
    ignored = {**g, "entrants": [0, 1, 2, 3], "excluded": True}
    ev = event_stats(8, [g, again, ignored])
    assert ev[0] == ann and ev[4] == ann and ev[6] == cat
    assert ev[7]["hands"] == 0 and ev[7]["win_rate"] is None


def test_seating_only_the_players_present():
    present = [0, 2, 3, 5, 6, 7, 9, 11]
    rnd = seat_round("balanced", present, [], random.Random(2))
    assert sorted(p for t in rnd["tables"] for p in t) == present and rnd["byes"] == []


def test_a_player_without_a_counted_game_has_no_rank_yet():
    g = fixed([0, 1, 2, 3], [(0, 1, 10), (1, 2, 5), (2, 3, -5), (3, 4, -10)])
    rows = standings("shared", NAMES[:5], [g])["rows"]
    assert [(r["name"], r["rank"]) for r in rows] == [("Ann", 1), ("Ben", 2), ("Cat", 3), ("Dan", 4), ("Eve", None)]


def test_a_bounded_search_still_seats_everyone():
    rounds = []
    rng = random.Random(4)
    for _ in range(3):
        rounds.append(balanced_round(200, rounds, rng, planned=100, budget=2000))
        _check_round(rounds[-1], 200)
    # even a small search beats chance: 3 random rounds of 200 would repeat a few pairs
    assert repeat_meetings(rounds) == 0
