"""The scoring endpoints take and give the same JSON as scoring.score."""
import scoring

HAND = {"ruleset": "wrr", "hand": "234m067p345s11z555z", "win_tile": "5z", "win": "ron",
        "seat_wind": "south", "round_wind": "east", "riichi": True, "dora_indicators": "3m", "honba": 1, "riichi_sticks": 2}


def test_score_endpoint_equals_library(client):
    resp = client.post("/api/score", json=HAND)
    assert resp.status_code == 200
    assert resp.get_json() == scoring.score(HAND)
    body = resp.get_json()
    assert body["total"] == body["payments"]["ron"] + 2000


def test_score_errors_name_the_field(client):
    resp = client.post("/api/score", json={**HAND, "hand": "234m067p345s11z55z"})
    assert resp.status_code == 422
    assert resp.get_json()["error"]["field"] == "hand"
    resp = client.post("/api/score", json={**HAND, "hand": "234q"})
    assert resp.status_code == 400
    assert resp.get_json()["error"]["detail"]["id"] == "notation_unknown_character"


def test_score_rejects_non_json(client):
    resp = client.post("/api/score", data="hand=123m", content_type="application/x-www-form-urlencoded")
    assert resp.status_code == 415
    resp = client.post("/api/score", data="{not json", content_type="application/json")
    assert resp.status_code == 400 and resp.get_json()["error"]["field"] == "body"
    resp = client.post("/api/score", json=[1, 2])
    assert resp.status_code == 400


def test_waits_endpoint(client):
    resp = client.post("/api/waits", json={"ruleset": "wrr", "hand": "123m456p789s23m55p", "riichi": True, "seat_wind": "south"})
    assert resp.status_code == 200
    body = resp.get_json()
    assert [w["tile"] for w in body["waits"]] == ["1m", "4m"]
    assert body["waits"][1]["ron"]["han"] == 2  # riichi + pinfu


def test_rulesets_lists_every_preset_and_parameter(client):
    body = client.get("/api/rulesets").get_json()
    ids = [r["id"] for r in body["rulesets"]]
    assert ids == ["wrr", "ema", "jpml", "saikouisen", "general", "tenhou", "mahjongsoul"]
    params = body["rulesets"][0]["parameters"]
    assert params["kiriage"]["value"] is False and "label" in params["kiriage"] and "note" in params["kiriage"]
    assert {"pinfu", "kokushi_13", "chiitoitsu", "dora", "ura_dora"} <= {y["id"] for y in body["yaku"]}


def test_rulesets_group_the_house_rules_from_the_fields_metadata(client):
    """The rule editor's groups come from the Ruleset fields: each group of RULE_GROUPS, in order,
    lists real parameters, each once, each marked with that group; the rest are in no group."""
    from scoring.rules import RULE_GROUPS

    for ruleset in client.get("/api/rulesets").get_json()["rulesets"]:
        groups, params = ruleset["groups"], ruleset["parameters"]
        assert [g["id"] for g in groups] == list(RULE_GROUPS)
        grouped = [name for g in groups for name in g["parameters"]]
        assert len(grouped) == len(set(grouped)) and all(g["parameters"] for g in groups)
        for g in groups:
            assert all(params[name]["group"] == g["id"] for name in g["parameters"]), g
        assert {n for n, p in params.items() if "group" in p} == set(grouped)
    # each field's place in its group is distinct and counts from 0
    places: dict[str, list[int]] = {}
    for f in scoring.Ruleset.parameters():
        if "group" in f.metadata:
            group, place = f.metadata["group"]
            places.setdefault(group, []).append(place)
    assert {g: sorted(p) for g, p in places.items()} == {g: list(range(len(p))) for g, p in places.items()}
    # the common rules first, as the table and event screens show them
    assert [g["parameters"][:2] for g in scoring.Ruleset.groups()] == [
        ["game_length", "start_points"], ["red_fives", "ura_dora"], ["open_tanyao", "kiriage"], ["max_ron_winners", "abortive_draws"]]


def test_every_preset_notes_every_parameter():
    for preset in scoring.PRESETS.values():
        described = preset.describe()["parameters"]
        assert [k for k, v in described.items() if not v.get("note")] == [], preset.id


def test_error_messages_show_no_raw_notation(client):
    """What players read names no internal notation ("0m23059p20s146z with 1 meld(s)")."""
    import re

    resp = client.post("/api/score", json={"hand": "123m456p789s234m56p", "win_tile": "6p"})
    message = resp.get_json()["error"]["message"]
    assert resp.status_code == 422 and "not a complete hand" in message
    assert not re.search(r"\d+[mpsz]", message) and "(s)" not in message, message


def test_dora_count_through_the_api(client):
    hand = {"ruleset": "wrr", "hand": "123m456p789s234m55p", "win_tile": "4m", "riichi": True}
    base = client.post("/api/score", json=hand).get_json()
    counted = client.post("/api/score", json={**hand, "dora_count": 2}).get_json()
    assert counted["han"] == base["han"] + 2
    assert {"id": "dora", "name": "Dora", "han": 2} in counted["yaku"]
    for bad, status in ((-1, 422), (41, 422), (2.5, 400), ("two", 400)):
        resp = client.post("/api/score", json={**hand, "dora_count": bad})
        assert resp.status_code == status, bad
        assert resp.get_json()["error"]["field"] == "dora_count"
