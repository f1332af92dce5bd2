"""Errors a player can meet carry a stable detail ({"id", "params"}) beside the English message, so
the app can word the whole reason in the player's language; every id the server can produce has
words in both catalogues with the same {params}."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scoring.errors import DETAILS, ScoringError

STATIC = Path(__file__).resolve().parents[1] / "static"
EN = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
JA = json.loads((STATIC / "i18n" / "ja.json").read_text(encoding="utf-8"))

WIN = {"ruleset": "wrr", "hand": "123m456p789s234m55p", "win_tile": "4m", "riichi": True}
NO_YAKU = {"ruleset": "wrr", "hand": "123m456p789s234m55p", "win_tile": "4m",
           "melds": [{"type": "chi", "tiles": "789s"}]}
NO_YAKU["hand"] = "123m456p234m55p"  # with the chi: an open hand with no yaku


def error_of(resp):
    body = resp.get_json()
    assert "error" in body, body
    return body["error"]


@pytest.mark.parametrize("payload,status,field,detail_id,params", [
    (NO_YAKU, 422, "hand", "no_yaku", {}),
    ({**NO_YAKU, "ruleset": "ema", "honba": 5, "hand": "123m456p234m55p", "melds": [{"type": "chi", "tiles": "789s"}]},
     422, "hand", "no_yaku_two_han", {"honba": 5}),
    ({**WIN, "hand": "123m456p789s234m59p", "win_tile": "9p"}, 422, "hand", "not_complete", {}),
    ({**NO_YAKU, "hand": "123m456p234m59p", "win_tile": "9p"}, 422, "hand", "not_complete_melds", {"melds": 1}),
    ({**WIN, "hand": "123m456p789s234m5p"}, 422, "hand", "tile_count", {"count": 13, "expected": 14, "melds": 0}),
    ({**WIN, "hand": "11111m456p789s555p", "win_tile": "5p"}, 422, "hand", "too_many_copies", {"tiles": "1m"}),
    ({**WIN, "hand": "123m456p789s234m5q"}, 400, "hand", "notation_unknown_character", {"character": "q", "position": 18}),
    ({**WIN, "hand": "123m456p789s234m55"}, 400, "hand", "notation_trailing_digit", {"digit": 5}),
    ({**WIN, "hand": "m123"}, 400, "hand", "notation_suit_without_digits", {"letter": "m", "position": 1}),
    ({**WIN, "hand": "123m456p789s234m88z"}, 400, "hand", "notation_bad_honour", {"tile": "8z", "position": 17}),
    ({**WIN, "melds": [{"type": "chi", "tiles": "135m"}], "hand": "456p789s234m55p"}, 422, "melds[0].tiles", "meld_chi", {}),
    ({**WIN, "melds": [{"type": "pon", "tiles": "123m"}], "hand": "456p789s234m55p"}, 422, "melds[0].tiles", "meld_same",
     {"size": 3}),
    ({**WIN, "chankan": True, "win": "tsumo"}, 422, "chankan", "chankan_ron", {}),
    ({**WIN, "chankan_ankan": True}, 422, "chankan_ankan", "chankan_ankan_kokushi", {}),
    ({**WIN, "win_tile": "9m"}, 422, "win_tile", "win_tile_missing", {"tile": "9m"}),
    ({**WIN, "honba": 1000}, 422, "honba", "at_most", {"max": 999}),
    ({**WIN, "honba": -1}, 422, "honba", "negative", {}),
    ({**WIN, "rules": {"start_points": 5}}, 422, "rules.start_points", "range", None),
    ({**WIN, "ruleset": "nope"}, 422, "ruleset", "unknown_ruleset", {"name": "nope"}),
    ({**WIN, "tenhou": True}, 422, "tenhou", "special_tsumo", {"yaku": "tenhou"}),
    ({**WIN, "ippatsu": True, "riichi": False}, 422, "ippatsu", "ippatsu_needs_riichi", {}),
])
def test_score_errors_carry_their_detail_id(client, payload, status, field, detail_id, params):
    resp = client.post("/api/score", json=payload)
    assert resp.status_code == status, resp.get_json()
    error = error_of(resp)
    assert error["field"] == field
    assert error["detail"]["id"] == detail_id
    if params is not None:
        assert error["detail"]["params"] == params
    assert set(error["detail"]["params"]) == set(DETAILS[detail_id])
    assert error["message"]  # the English message stays for API users
    assert error["code"] == {400: "malformed", 422: "impossible"}[status]


def test_a_value_out_of_range_names_its_bounds(client):
    from scoring.rules import Ruleset

    bounds = next(f.metadata["bounds"] for f in Ruleset.parameters() if f.name == "start_points")
    error = error_of(client.post("/api/score", json={**WIN, "rules": {"start_points": 5}}))
    assert error["detail"]["params"] == {"min": bounds[0], "max": bounds[1]}


def test_waits_and_comparison_errors_carry_their_detail_id(client):
    resp = client.post("/api/waits", json={"ruleset": "wrr", "hand": "123m456p789s23m5p"})
    assert resp.status_code == 422
    assert error_of(resp)["detail"] == {"id": "wait_tile_count", "params": {"count": 12, "expected": 13, "melds": 0}}
    resp = client.post("/api/score", json={**WIN, "compare": ["wrr", "nope"]})
    assert error_of(resp)["detail"] == {"id": "compare_unknown", "params": {"name": "nope"}}
    resp = client.post("/api/score", json={**WIN, "compare": "wrr"})
    assert error_of(resp)["detail"]["id"] == "compare_list"
    # a row of "Other rule sets" where the hand does not score: its error has the id too
    resp = client.post("/api/score", json={**NO_YAKU, "ruleset": "wrr", "compare": ["ema"], "hand": "123m456p234m55p"})
    assert resp.status_code == 422  # no yaku in the asked rule set either
    mleague = {**WIN, "riichi": False, "hand": "234m456p678s22z567m", "win_tile": "7m", "melds": []}
    resp = client.post("/api/score", json={**mleague, "ruleset": "wrr", "compare": ["ema"]})
    body = resp.get_json()
    rows = body.get("compare") or []
    errored = [r for r in rows if "error" in r]
    for row in errored:
        assert row["error"]["detail"]["id"] in DETAILS


def test_a_comparison_row_that_does_not_score_carries_its_detail():
    from scoring.analysis import compare

    # open tanyao: a win under WRR, no yaku under EMA (no kuitan)
    payload = {"ruleset": "wrr", "hand": "234m456p678s55p", "win_tile": "5p", "melds": [{"type": "chi", "tiles": "345s"}]}
    rows = compare(payload, ["ema"])
    assert rows[0]["error"]["detail"] == {"id": "no_yaku", "params": {}}


def test_table_hands_carry_the_detail_of_the_engine(client):
    t = client.post("/api/tables", json={"ruleset": "wrr", "players": ["Ann", "Bo", "Cy", "Di"]}).get_json()
    hand = {"result": "ron", "from_seat": 1, "winners": [{"seat": 2, "value": {"hand": NO_YAKU}}]}
    resp = client.post(f"/api/tables/{t['id']}/preview", json=hand, headers={"Authorization": f"Bearer {t['edit_token']}"})
    assert resp.status_code == 422
    assert error_of(resp)["detail"] == {"id": "no_yaku", "params": {}}
    resp = client.post("/api/tables", json={"ruleset": "wrr", "players": ["Ann", "Bo", "Cy", "Di"],
                                            "rules": {"start_points": 5}})
    assert resp.status_code == 422 and error_of(resp)["detail"]["id"] == "range"
    resp = client.post("/api/tables", json={"ruleset": "nope", "players": ["Ann", "Bo", "Cy", "Di"]})
    assert resp.status_code == 422 and error_of(resp)["detail"] == {"id": "unknown_ruleset", "params": {"name": "nope"}}


def test_a_body_that_is_not_json_is_a_refusal_with_its_detail(client):
    resp = client.post("/api/score", data="{not json", content_type="application/json")
    assert resp.status_code == 400
    assert error_of(resp) == {"field": "body", "code": "malformed", "detail": {"id": "body_json", "params": {}},
                              "message": EN["detail.body_json"]}


def test_the_recognition_proposal_message_has_its_id():
    from recognition.hand import TileReading, propose

    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "3z"]
    readings = [TileReading(((c, 0.999),), False) for c in codes]
    p = propose(readings, [list(range(14))])
    assert not p.complete
    assert p.to_json()["detail"] == {"id": "photo_not_complete", "params": {}}
    short = propose(readings[:10], [list(range(10))])  # ten tiles: not a hand to complete
    assert short.to_json()["detail"] == {"id": "photo_tile_count", "params": {"count": 10}}
    complete = propose([TileReading(((c, 0.999),), False) for c in codes[:-1] + ["2z"]], [list(range(14))])
    assert complete.complete and "detail" not in complete.to_json()


def test_a_detail_with_the_wrong_params_is_refused():
    with pytest.raises(KeyError):
        ScoringError("hand", "impossible", "no_yaku_two_han")
    with pytest.raises(KeyError):
        ScoringError("hand", "impossible", "not_an_id")
    with pytest.raises(KeyError):
        ScoringError("hand", "not_a_kind", "no_yaku")


PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_every_detail_id_has_words_in_both_languages_with_its_params():
    for detail_id, params in DETAILS.items():
        for name, catalogue in (("en", EN), ("ja", JA)):
            words = catalogue.get(f"detail.{detail_id}")
            assert words, f"detail.{detail_id} missing in {name}.json"
            assert set(PLACEHOLDER.findall(words)) == set(params), (name, detail_id, words)
    assert sorted(k[len("detail."):] for k in EN if k.startswith("detail.")) == sorted(DETAILS)


def test_the_openapi_description_lists_every_detail_id():
    from web.openapi import SCHEMAS

    assert SCHEMAS["ErrorDetail"]["properties"]["id"]["enum"] == list(DETAILS)


def test_every_detail_id_is_produced_somewhere():
    """Each id in DETAILS is raised by the code (an id no code produces is a catalogue entry nobody sees)."""
    root = Path(__file__).resolve().parents[1]
    source = "".join(p.read_text(encoding="utf-8") for d in ("scoring", "game", "league", "services", "recognition", "web")
                     for p in (root / d).glob("*.py") if p != root / "scoring" / "errors.py")
    missing = [i for i in DETAILS if f'"{i}"' not in source]
    assert missing == []


def test_every_detail_id_is_a_whole_sentence_in_both_languages():
    """A player reads the catalogue's sentence as it is: English starts with a capital (or a value)
    and ends with a full stop, Japanese ends with 。, and each has every parameter of its id."""
    for detail_id, params in DETAILS.items():
        en, ja = EN[f"detail.{detail_id}"], JA[f"detail.{detail_id}"]
        assert en[:1].isupper() or en[:1].isdigit() or en.startswith("{"), (detail_id, en)
        assert en.endswith("."), (detail_id, en)
        assert ja.endswith("。"), (detail_id, ja)
        for words in (en, ja):
            assert set(PLACEHOLDER.findall(words)) == set(params), (detail_id, words)


def test_every_kind_of_refusal_has_its_status_in_the_web_layer_only():
    import ast

    from scoring.errors import KINDS
    from web.errors import STATUS

    assert set(KINDS) <= set(STATUS)
    root = Path(__file__).resolve().parents[1]
    # no HTTP status in the domain: no refusal is built with a number where its kind goes
    for folder in ("scoring", "game", "league", "services", "recognition"):
        for path in (root / folder).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.endswith(("Error", "Refusal")):
                    numbers = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, int)
                               and 400 <= a.value < 600]
                    assert not numbers, f"{path.name}:{node.lineno} builds a refusal with an HTTP status"


@pytest.mark.parametrize("cls_path", ["scoring.errors.ScoringError", "scoring.errors.NotationError", "game.ledger.LedgerError",
                                      "services.tables.TableError", "league.seating.SeatingError",
                                      "recognition.contributions.ContributionError", "recognition.image_io.ImageError"])
def test_every_error_class_of_the_domain_is_a_refusal(cls_path):
    import importlib

    from scoring.errors import Refusal

    module, name = cls_path.rsplit(".", 1)
    assert issubclass(getattr(importlib.import_module(module), name), Refusal)


@pytest.mark.parametrize("payload,detail_id,params", [
    # the three sentences a player met as fragments or twice
    ({"ruleset": "wrr", "hand": "11111m234p567s99s", "win_tile": "9s"}, "tile_count", {"count": 13, "expected": 14, "melds": 0}),
    ({"ruleset": "wrr", "hand": ""}, "hand_empty", {}),
])
def test_the_english_message_is_the_catalogue_sentence(client, payload, detail_id, params):
    error = error_of(client.post("/api/score", json=payload))
    assert error["detail"] == {"id": detail_id, "params": params}
    words = EN[f"detail.{detail_id}"]
    for name, value in params.items():
        words = words.replace("{" + name + "}", str(value))
    assert error["message"] == words


def test_a_refused_table_hand_names_its_hand_as_a_field_not_in_its_sentence(client):
    t = client.post("/api/tables", json={"ruleset": "wrr", "players": ["Ann", "Bo", "Cy", "Di"]}).get_json()
    auth = {"Authorization": f"Bearer {t['edit_token']}"}
    ron = {"result": "ron", "from_seat": 1, "winners": [{"seat": 2, "value": {"han": 1, "fu": 20}}]}
    resp = client.post(f"/api/tables/{t['id']}/hands", json=ron, headers={**auth, "If-Match": '"1"'})
    assert resp.status_code == 422
    error = error_of(resp)
    assert error["detail"] == {"id": "fu_20_ron", "params": {}}
    assert error["hand"] == 0 and error["message"] == EN["detail.fu_20_ron"]


def test_tables_and_events_number_their_players_the_same_way(client):
    table = client.post("/api/tables", json={"ruleset": "wrr", "players": ["Ann", "Bo", "ann", "Di"]})
    event = client.post("/api/events", json={"name": "Club", "ruleset": "wrr", "players": ["Ann", "Bo", "ann", "Di"]})
    for resp in (table, event):
        assert resp.status_code == 422
        error = error_of(resp)
        assert error["field"] == "players[2]"
        assert error["detail"] == {"id": "name_taken", "params": {"name": "ann", "number": 1}}
    blank_t = error_of(client.post("/api/tables", json={"ruleset": "wrr", "players": ["Ann", " ", "Cy", "Di"]}))
    blank_e = error_of(client.post("/api/events", json={"name": "Club", "ruleset": "wrr", "players": ["Ann", " ", "Cy"]}))
    assert blank_t["detail"] == blank_e["detail"] == {"id": "player_name_missing", "params": {"number": 2}}


def test_the_web_layers_own_refusals_carry_their_detail(client):
    """Refusals of the request as sent (a route or a method that does not exist, a body too large,
    a poll without its tag) carry a detail too, and their message is the catalogue's sentence."""
    cases = [
        (client.get("/api/no-such-thing"), 404, None, "no_route", {}),
        (client.delete("/api/score"), 405, None, "method_not_allowed", {"method": "DELETE"}),
        (client.get("/api/events/abcdef/changes"), 400, "since", "events_since", {}),
    ]
    for resp, status, field, detail_id, params in cases:
        assert resp.status_code == status, (detail_id, resp.get_json())
        error = error_of(resp)
        assert error["detail"]["id"] == detail_id and error["field"] == field
        assert set(error["detail"]["params"]) == set(DETAILS[detail_id])
        if params is not None:
            assert error["detail"]["params"] == params
        words = EN[f"detail.{detail_id}"]
        for name, value in error["detail"]["params"].items():
            words = words.replace("{" + name + "}", str(value))
        assert error["message"] == words and words[0].isupper() and words.endswith(".")


def test_what_werkzeug_refuses_by_itself_is_worded_from_the_catalogue(app):
    from web.errors import http_refusal

    with app.test_request_context("/api/score", method="POST"):
        want = {400: ("request_unreadable", {}), 404: ("no_route", {}), 405: ("method_not_allowed", {"method": "POST"}),
                413: ("body_too_large", {"max": app.config["MAX_CONTENT_LENGTH"] // 1024}), 415: ("media_type", {}),
                431: ("request_refused", {"http": 431})}
        for status, (detail_id, params) in want.items():
            err = http_refusal(status)
            assert err.detail == {"id": detail_id, "params": params}
            assert str(err)[0].isupper() and str(err).endswith(".") and "{" not in str(err)
            resp, code = err.response()
            assert code == status and resp.get_json()["error"]["detail"]["id"] == detail_id
