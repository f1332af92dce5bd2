"""What a table records is what happened (issue 21): a limit entered as a limit stays a limit, the
last board and the standings agree on a leftover stick, an EMA chombo is a payment, liability
(pao) covers what the rule set says, and an event planned for N rounds seats no round N+1."""
import csv
import io

import pytest

from api_helpers import auth, new_table
from game.ledger import LedgerError, apply_hand, new_state, replay, standings
from ledger_helpers import W, hf, ron, tsumo
from scoring.rules import get_ruleset


def limit(name):
    return {"limit": name}


# --- a limit entered as a limit ----------------------------------------------------------------

@pytest.mark.parametrize("name,base", [("mangan", 2000), ("haneman", 3000), ("baiman", 4000), ("sanbaiman", 6000)])
def test_a_limit_is_paid_as_the_limit_and_recorded_with_no_han_or_fu(name, base):
    rules = get_ruleset("wrr")
    _, record = apply_hand(rules, new_state(rules), ron(0, W(2, limit(name))))
    winner = record["winners"][0]
    assert winner["limit"] == name
    assert "han" not in winner and "fu" not in winner  # nobody entered them: none invented
    assert winner["value"] == {"limit": name}
    assert winner["points"] == base * 4
    assert record["deltas"][2] == base * 4 and record["deltas"][0] == -base * 4


def test_a_limit_entered_as_han_and_fu_still_keeps_them():
    rules = get_ruleset("wrr")
    _, record = apply_hand(rules, new_state(rules), ron(0, W(2, hf(5, 30))))
    assert record["winners"][0]["han"] == 5 and record["winners"][0]["fu"] == 30
    assert record["winners"][0]["limit"] == "mangan"


@pytest.mark.parametrize("bad", ["yakuman", "Mangan", 5, None, ""])
def test_an_unknown_limit_is_refused_naming_the_field(bad):
    rules = get_ruleset("wrr")
    with pytest.raises(LedgerError) as err:
        apply_hand(rules, new_state(rules), tsumo(1, limit(bad)))
    assert err.value.field == "winner.value.limit"
    assert "mangan" in err.value.message


def test_a_limit_stays_a_limit_in_history_csv_and_json_export(tclient):
    t = new_table(tclient)
    resp = tclient.post(f"/api/tables/{t['id']}/hands", json=ron(1, W(2, limit("mangan"))), headers=auth(t, 1))
    assert resp.status_code == 200, resp.get_json()
    doc = tclient.get(f"/api/tables/{t['id']}").get_json()
    winner = doc["hands"][0]["winners"][0]
    assert winner["limit"] == "mangan" and "han" not in winner and "fu" not in winner
    assert doc["state"]["scores"][2] == 30000 + 8000
    rows = list(csv.reader(io.StringIO(tclient.get(f"/api/tables/{t['id']}/export?format=csv").get_data(as_text=True))))
    details = rows[1][5]
    assert "mangan" in details and "han" not in details and "fu" not in details, details
    exported = tclient.get(f"/api/tables/{t['id']}/export?format=json").get_json()
    assert exported["log"][0]["body"]["winners"][0]["value"] == {"limit": "mangan"}
    # and the table replays from its own JSON (a phone offline does this)
    from game.board import hands_of
    state, records = replay(get_ruleset("wrr"), hands_of(doc["hands"]))
    assert records[0]["winners"][0] == winner and list(state.scores) == doc["state"]["scores"]


def test_a_limit_counts_in_player_statistics_by_its_points(tclient):
    from league.stats import game_stats
    t = new_table(tclient)
    tclient.post(f"/api/tables/{t['id']}/hands", json=tsumo(0, limit("haneman")), headers=auth(t, 1))
    doc = tclient.get(f"/api/tables/{t['id']}").get_json()
    stats = game_stats(doc)
    assert stats[0]["wins"] == 1 and stats[0]["average_win"] == 18000  # a dealer haneman


# --- the last board and the standings agree on a leftover stick ---------------------------------

def _game_ending_with_a_stick(ruleset):
    """An East-only game of four draws... (ended at once with "end") after a riichi nobody collected."""
    rules = get_ruleset(ruleset)
    hands = [{"result": "draw", "tenpai": [1], "riichi": [1], "nagashi": []}, {"result": "end"}]
    return rules, *replay(rules, hands)


@pytest.mark.parametrize("ruleset,to_first", [("ema", True), ("wrr", False), ("jpml", False), ("tenhou", True)])
def test_the_final_standings_say_where_a_leftover_stick_went(ruleset, to_first):
    rules, state, _ = _game_ending_with_a_stick(ruleset)
    assert state.finished and state.riichi_sticks == 1
    out = standings(rules, state)
    first = out["standings"][0]
    assert out["leftover_sticks"]["rule"] == rules.leftover_sticks
    if to_first:
        assert out["leftover_sticks"]["to"] == [first["seat"]]
        assert first["points"] == state.scores[first["seat"]] + 1000
    else:
        assert out["leftover_sticks"]["to"] == []
        assert first["points"] == state.scores[first["seat"]]


# --- chombo -------------------------------------------------------------------------------------

def test_an_ema_chombo_preview_is_a_payment_and_no_penalty(tclient):
    t = new_table(tclient, ruleset="ema")
    resp = tclient.post(f"/api/tables/{t['id']}/preview", json={"result": "chombo", "seat": 1}, headers=auth(t))
    assert resp.status_code == 200, resp.get_json()
    hand = resp.get_json()["hand"]
    assert "penalty" not in hand  # nothing is settled at the end: it is paid now
    assert hand["chombo"] == {"seat": 1, "kind": "payment"}
    assert sorted(p["amount"] for p in hand["payments"]) == [2000, 2000, 4000]
    assert hand["deltas"] == [4000, -8000, 2000, 2000]


def test_a_wrr_chombo_preview_is_a_penalty():
    rules = get_ruleset("wrr")
    _, record = apply_hand(rules, new_state(rules), {"result": "chombo", "seat": 1})
    assert record["penalty"] == {"seat": 1, "points": 20000}
    assert record["chombo"] == {"seat": 1, "kind": "penalty"}
    assert record["payments"] == []


# --- liability (pao) ----------------------------------------------------------------------------

def test_ema_big_four_winds_liability_covers_the_whole_double_yakuman():
    rules = get_ruleset("ema")
    assert rules.pao_scope == "hand"
    _, record = apply_hand(rules, new_state(rules), tsumo(1, {"yakuman": 2}, pao=3))
    # a non-dealer's double yakuman by tsumo: 64000, all of it from the liable player (3.3.6)
    assert record["deltas"] == [0, 64000, 0, -64000]
    _, record = apply_hand(rules, new_state(rules), ron(2, W(1, {"yakuman": 2}, 3)))
    # on a discard the liable player and the discarder share it
    assert record["deltas"] == [0, 64000, -32000, -32000]


def test_a_scored_big_four_winds_under_ema_is_wholly_liable():
    rules = get_ruleset("ema")
    hand = {"hand": {"hand": "111z222z333z11m", "win_tile": "1m", "melds": [{"type": "pon", "tiles": "444z"}]}}
    _, record = apply_hand(rules, new_state(rules), tsumo(1, hand, pao=3))
    assert record["winners"][0]["yakuman"] == 2
    assert record["deltas"] == [0, 64000, 0, -64000]


@pytest.mark.parametrize("ruleset", ["jpml", "tenhou", "mahjongsoul"])
def test_where_liability_is_per_yakuman_the_sheet_must_say_which(ruleset):
    rules = get_ruleset(ruleset)
    assert rules.pao_scope == "yakuman"
    with pytest.raises(LedgerError) as err:
        apply_hand(rules, new_state(rules), tsumo(1, {"yakuman": 2}, pao=3))
    assert err.value.field == "winner.value.pao_yakuman"
    # said: one of the two yakuman is the liable one; the other is paid by all as usual
    _, record = apply_hand(rules, new_state(rules), tsumo(1, {"yakuman": 2, "pao_yakuman": 1}, pao=3))
    assert record["deltas"] == [-16000, 64000, -8000, -40000]
    _, record = apply_hand(rules, new_state(rules), tsumo(1, {"yakuman": 2, "pao_yakuman": 2}, pao=3))
    assert record["deltas"] == [0, 64000, 0, -64000]


def test_a_single_yakuman_needs_no_statement_of_which():
    for ruleset in ("jpml", "wrr", "ema"):
        rules = get_ruleset(ruleset)
        _, record = apply_hand(rules, new_state(rules), tsumo(1, {"yakuman": 1}, pao=3))
        assert record["deltas"] == [0, 32000, 0, -32000]


def test_every_preset_states_its_pao_scope_with_a_source_or_an_assumption():
    from scoring.rules import PRESETS
    for rules in PRESETS.values():
        assert rules.pao_scope in ("hand", "yakuman")
        assert rules.notes.get("pao_scope"), rules.id


# --- events planned for N rounds ----------------------------------------------------------------

def test_an_event_planned_for_two_rounds_seats_no_third(tclient):
    resp = tclient.post("/api/events", json={"name": "Club", "ruleset": "wrr", "players": ["A", "B", "C", "D"],
                                             "settings": {"rounds_planned": 2}})
    ev = resp.get_json()
    headers = {"Authorization": f"Bearer {ev['organiser_token']}"}
    for _ in range(2):
        assert tclient.post(f"/api/events/{ev['id']}/rounds", json={}, headers=headers).status_code == 201
    resp = tclient.post(f"/api/events/{ev['id']}/rounds", json={}, headers=headers)
    assert resp.status_code == 422
    body = resp.get_json()
    assert "rounds" in str(body), body
    assert len(tclient.get(f"/api/events/{ev['id']}").get_json()["rounds"]) == 2
    # raising the plan lets the organiser seat another
    assert tclient.patch(f"/api/events/{ev['id']}", json={"settings": {"rounds_planned": 3}}, headers=headers).status_code == 200
    assert tclient.post(f"/api/events/{ev['id']}/rounds", json={}, headers=headers).status_code == 201
