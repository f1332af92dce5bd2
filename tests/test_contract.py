"""One declaration per request shape: the JSON Schemas of scoring/contract.py, game/contract.py and
services/contract.py are built from the domain's constants, the OpenAPI document is built from
them, and the engine's hand-written validation accepts exactly what their enums accept: requests
generated from each declared enum value are never refused at that field, and values just outside
it always are."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from game import contract as game_contract
from game.ledger import RESULTS, apply_hand, new_state
from league.seating import MODES
from scoring import contract
from scoring.contract import MELD_TYPES
from scoring.errors import DETAILS, KINDS, ScoringError
from scoring.rules import ABORTIVE_DRAWS, PRESETS, get_ruleset
from scoring.tiles import WIND_NAMES
from services import contract as events_contract
from services.events import METHODS
from web.openapi import build_spec

BASE = {"ruleset": "wrr", "hand": "123m456p789s234m55p", "win_tile": "4m", "riichi": True}
REQUEST = contract.score_request()


def test_the_enums_are_the_domain_constants():
    props = REQUEST["properties"]
    assert props["ruleset"]["enum"] == list(PRESETS)
    assert props["seat_wind"]["enum"] == props["round_wind"]["enum"] == list(WIND_NAMES)
    assert contract.MELD["properties"]["type"]["enum"] == list(MELD_TYPES)
    assert contract.ERROR_DETAIL["properties"]["id"]["enum"] == list(DETAILS)
    assert set(KINDS) <= set(contract.error()["properties"]["error"]["properties"]["code"]["enum"])
    hand = game_contract.hand({"type": "object"}, "")
    abort = next(b for b in hand["oneOf"] if b["properties"]["result"]["enum"] == ["abort"])
    assert hand["properties"]["result"]["enum"] == list(RESULTS) and abort["properties"]["kind"]["enum"] == list(ABORTIVE_DRAWS)
    assert [b["properties"]["result"]["enum"] for b in hand["oneOf"]] == [[kind] for kind in RESULTS]
    assert events_contract.SEATING["enum"] == list(METHODS) and events_contract.MODE["enum"] == list(MODES)


def test_the_openapi_document_takes_the_declarations():
    schemas = build_spec()["components"]["schemas"]
    assert schemas["ScoreRequest"]["properties"]["ruleset"] == contract.RULESET
    assert schemas["Meld"] == contract.MELD
    assert schemas["ErrorDetail"] == contract.ERROR_DETAIL
    assert schemas["Hand"]["properties"]["result"]["enum"] == list(RESULTS)
    codes = schemas["Error"]["properties"]["error"]["properties"]["code"]["enum"]
    assert set(KINDS) <= set(codes)


def _refused_at(payload: dict) -> str | None:
    """The field a score request is refused at (None when it scores)."""
    try:
        scoring.score(payload)
    except ScoringError as err:
        return err.field
    return None


ENUM_FIELDS = {"ruleset": REQUEST["properties"]["ruleset"]["enum"], "seat_wind": list(WIND_NAMES),
               "round_wind": list(WIND_NAMES), "win": REQUEST["properties"]["win"]["enum"]}
OUTSIDE = st.one_of(st.text(max_size=12), st.integers(), st.booleans(), st.none(), st.lists(st.integers(), max_size=2))


@pytest.mark.parametrize("field", sorted(ENUM_FIELDS))
def test_every_declared_value_is_accepted_at_its_field(field):
    for value in ENUM_FIELDS[field]:
        assert _refused_at({**BASE, field: value}) != field, (field, value)


@settings(max_examples=60, deadline=None)
@given(field=st.sampled_from(sorted(ENUM_FIELDS)), value=OUTSIDE)
def test_a_value_outside_the_declared_enum_is_refused_at_its_field(field, value):
    if isinstance(value, str) and value in ENUM_FIELDS[field]:
        return
    assert _refused_at({**BASE, field: value}) == field


@settings(max_examples=40, deadline=None)
@given(kind=st.one_of(st.sampled_from(list(MELD_TYPES)), st.text(max_size=10)))
def test_a_meld_type_is_accepted_exactly_when_declared(kind):
    meld = {"type": kind, "tiles": "777z" if kind != "chi" else "789s"}
    if kind in ("daiminkan", "kakan", "ankan"):
        meld["tiles"] = "7777z"
    field = _refused_at({**BASE, "hand": "123m456p234m55p", "melds": [meld]})
    if kind in MELD_TYPES:
        assert field != "melds[0].type"
    else:
        assert field == "melds[0].type"


@settings(max_examples=40, deadline=None)
@given(result=st.one_of(st.sampled_from(list(RESULTS)), st.text(max_size=10)))
def test_a_hand_result_is_accepted_exactly_when_declared(result):
    rules = get_ruleset("wrr")
    try:
        apply_hand(rules, new_state(rules), {"result": result})
    except ScoringError as err:
        refused = err.field == "result" and err.detail["id"] == "choice"
    else:
        refused = False
    assert refused == (result not in RESULTS)
