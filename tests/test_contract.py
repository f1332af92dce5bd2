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
from services.contract import METHODS
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


# --- the validation is derived from the schema: every declared property, and bodies fuzzed from it ---------

import jsonschema_rs  # noqa: E402  (the reference JSON Schema validator, pinned in requirements-dev.txt)

from game.ledger import LedgerError  # noqa: E402
from scoring.engine import check_request  # noqa: E402
from scoring.errors import Refusal  # noqa: E402
from scoring.schema import refusal_for, validator  # noqa: E402
from services.tables import TableError  # noqa: E402

SAMPLES = {"object": {"x": 1}, "array": [{"x": 1}], "string": "x", "integer": 7, "boolean": True, "null": None}


def _types(node: dict) -> list[str]:
    t = node.get("type", [])
    return [t] if isinstance(t, str) else list(t)


def _right(node: dict):
    """The plainest value the node accepts."""
    if "enum" in node:
        return node["enum"][0]
    types = [t for t in _types(node) if t != "null"] or ["null"]
    if "oneOf" in node:
        return _right({**node["oneOf"][0], "type": "object"})
    kind = types[0]
    if kind == "integer":
        low = node.get("minimum", 0)
        step = node.get("multipleOf", 1)
        return -(-low // step) * step
    if kind == "boolean":
        return True
    if kind == "string":
        return ""
    if kind == "array":
        return [_right(node["items"])] * node.get("minItems", 0) if "items" in node else []
    if kind == "object":
        props = node.get("properties", {})
        return {key: _right(props.get(key, {})) for key in node.get("required", [])}
    return None


def _wrong(node: dict):
    allowed = set(_types(node))
    kind = next(t for t in SAMPLES if t not in allowed)
    return kind, SAMPLES[kind]


def _walk(node: dict, build, field: str):
    """(field, node, build) for the node and every declared property under it; build(value) is a whole
    body that is right everywhere but at that field."""
    if node.get("x-bound-by-ruleset"):
        return  # bounded by the table's rule set: the ledger checks it (tests/test_ledger*.py)
    yield field, node, build
    holders = [node] if "properties" in node and "oneOf" not in node else node.get("oneOf", [])
    for holder in holders:
        base = _right({**holder, "type": "object"})
        for key, sub in holder.get("properties", {}).items():
            if "oneOf" in node and key in node.get("properties", {}):
                continue  # the discriminator: walked at the node itself
            yield from _walk(sub, lambda v, key=key, base=base, build=build: build({**base, key: v}),
                             f"{field}.{key}" if field else key)
    if "oneOf" in node and "properties" in node:
        for key, sub in node["properties"].items():
            base = _right({**node["oneOf"][0], "type": "object"})
            yield from _walk(sub, lambda v, key=key, base=base, build=build: build({**base, key: v}),
                             f"{field}.{key}" if field else key)
    if "items" in node:
        at = field if node.get("x-items-at-array") else f"{field}[0]"
        yield from _walk(node["items"], lambda v, build=build, node=node: build([v] * max(1, node.get("minItems", 1))), at)


ROOTS = {
    "score request": (contract.score_request(), ScoringError),
    "hand": (game_contract.hand(), LedgerError),
    "event settings": (events_contract.settings(), TableError),
}
CASES = [(name, field, node, build) for name, (root, _) in ROOTS.items()
         for field, node, build in _walk(root, lambda v: v, "") if "type" in node or "enum" in node]


def test_the_walk_reaches_every_declared_field():
    fields = {field for name, field, _, _ in CASES if name == "score request"}
    assert {"hand", "melds", "melds[0].type", "melds[0].tiles", "dora_count", "compare", *contract.FLAGS} <= fields
    hand_fields = {field for name, field, _, _ in CASES if name == "hand"}
    assert {"result", "from_seat", "riichi[0]", "penalties[0].points", "winner.value.han", "winner.value.limit",
            "winner.value.hand.melds[0].tiles", "winner.pao_seat", "continue_game"} <= hand_fields
    assert "winners" not in hand_fields  # how many may win on one discard is the rule set's: the ledger checks it


@pytest.mark.parametrize("root,field,node,build", CASES, ids=[f"{name}: {field or 'body'}" for name, field, _, _ in CASES])
def test_every_declared_field_refuses_a_wrong_type_and_takes_a_right_one(root, field, node, build):
    schema, error = ROOTS[root]
    check = validator(schema, error, explain={"mpsz": lambda text, at: None})
    check(build(_right(node)), "")  # the right value is accepted
    kind, wrong = _wrong(node)
    with pytest.raises(Refusal) as refused:
        check(build(wrong), "")
    primary = next((t for t in _types(node) if t != "null"), None)
    expected = refusal_for(node, f"type:{primary}") if primary else refusal_for(node, "enum")
    assert (refused.value.field, refused.value.kind, refused.value.detail["id"]) == (field or None, *expected)
    assert isinstance(refused.value, error)


# Bodies fuzzed from the declared schema: the document's verdict (the reference validator reading the same
# schema) is the server's, and a body the document accepts is always read (never refused as malformed).

def _strategy(node: dict):
    if "enum" in node:
        return st.sampled_from(node["enum"])
    options = []
    for kind in _types(node):
        if kind == "null":
            options.append(st.none())
        elif kind == "boolean":
            options.append(st.booleans())
        elif kind == "integer":
            low, high = node.get("minimum", -10), node.get("maximum", node.get("minimum", 0) + 2000)
            step = node.get("multipleOf", 1)
            options.append(st.integers(-(-low // step), high // step).map(lambda n, step=step: n * step))
        elif kind == "string":
            if "pattern" in node:
                options.append(st.from_regex(node["pattern"].replace("$", r"\Z"), fullmatch=True)
                               .filter(lambda s: len(s) <= node.get("maxLength", 200)))
            else:
                options.append(st.text(max_size=node.get("maxLength", 20)))
        elif kind == "array":
            items = _strategy(node["items"])
            options.append(st.lists(items, min_size=node.get("minItems", 0), max_size=node.get("maxItems", 4),
                                    unique_by=repr if node.get("uniqueItems") else None))
        elif kind == "object" and "oneOf" not in node:
            props = node.get("properties", {})
            required = node.get("required", [])
            options.append(st.fixed_dictionaries({k: _strategy(props[k]) for k in required},
                                                 optional={k: _strategy(v) for k, v in props.items() if k not in required}))
    if "oneOf" in node:
        options.append(st.one_of([_strategy({**b, "type": "object"}) for b in node["oneOf"]]))
    return st.one_of(options)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 2000) | st.text(max_size=8)
                    | st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: not f.is_integer()),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=6)
REQUEST_SCHEMA = contract.score_request()
REFERENCE = jsonschema_rs.validator_for(REQUEST_SCHEMA)
PENALTIES_REFERENCE = jsonschema_rs.validator_for(game_contract.PENALTIES)


def _ours(check, body) -> bool:
    try:
        check(body, "")
    except Refusal:
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(body=_strategy(REQUEST_SCHEMA), key=st.sampled_from(list(REQUEST_SCHEMA["properties"])), junk=JSON,
       mutate=st.booleans())
def test_the_server_and_the_document_agree_on_fuzzed_score_requests(body, key, junk, mutate):
    if mutate:
        body = {**body, key: junk}
    accepted = _ours(lambda b, _f: check_request(b), body)
    assert accepted == REFERENCE.is_valid(body), body
    if accepted:  # what the document accepts, the engine reads: any refusal is about the hand, not its shape
        try:
            scoring.score(body)
        except ScoringError as err:
            # a house rule's value is the Ruleset field's to check (its type, choices and range: scoring/rules.py)
            assert err.kind != "malformed" or (err.field or "").startswith("rules."), (body, err.to_dict())


@settings(max_examples=200, deadline=None)
@given(penalties=_strategy(game_contract.PENALTIES), junk=JSON, where=st.sampled_from(["seat", "points", "reason", "x"]),
       mutate=st.booleans())
def test_the_ledger_and_the_document_agree_on_fuzzed_penalties(penalties, junk, where, mutate):
    if mutate and penalties:
        penalties = [{**penalties[0], where: junk}, *penalties[1:]]
    ours = _ours(validator(game_contract.PENALTIES, LedgerError), penalties)
    assert ours == PENALTIES_REFERENCE.is_valid(penalties), penalties


def test_the_compiled_quick_test_is_generated_from_the_schema_as_it_stands():
    """scoring/_checks.py (compiled with the scoring core) is what ``python -m scoring.contract`` writes now."""
    from pathlib import Path

    assert (Path(contract.__file__).with_name("_checks.py")).read_text(encoding="utf-8") == contract.checks_source()


def test_fields_outside_the_declared_hand_are_refused_when_new_and_dropped_when_stored():
    """clean_hand reads which fields exist from game/contract.py, at every depth."""
    from game.ledger import LedgerError, clean_hand

    scored = {"hand": "123m456p789s234m55p", "win_tile": "4m", "mood": "great"}
    body = {"result": "tsumo", "winner": {"seat": 0, "value": {"hand": scored}, "style": 1},
            "penalties": [{"seat": 1, "points": 1000, "why": "late"}], "continue_game": True}
    with pytest.raises(LedgerError) as refused:
        clean_hand(body)
    assert refused.value.field == "winner.style" and refused.value.detail["id"] == "unknown_field"
    assert refused.value.detail["params"] == {"key": "style", "allowed": ", ".join(game_contract.winner()["properties"])}
    with pytest.raises(LedgerError) as refused:
        clean_hand({**body, "winner": {"seat": 0, "value": {"hand": scored}}})
    assert refused.value.field == "winner.value.hand.mood"
    assert refused.value.detail["params"]["allowed"] == (  # as the ledger listed them before the schema did
        "hand, melds, win, win_tile, seat_wind, round_wind, dora_indicators, ura_indicators, dora_count, honba, "
        "riichi_sticks, ruleset, rules, riichi, double_riichi, ippatsu, haitei, houtei, rinshan, chankan, "
        "chankan_ankan, tenhou, chiihou, renhou")
    with pytest.raises(LedgerError) as refused:
        clean_hand({**body, "winner": {"seat": 0, "value": {"hand": {"hand": "123m"}}}})
    assert refused.value.field == "penalties[0].why"
    with pytest.raises(LedgerError) as refused:
        clean_hand({**body, "penalties": [], "winner": {"seat": 0, "value": {"hand": {"hand": "123m", "rules": {"red_fives": True, "fast": 1}}}}})
    assert refused.value.field == "winner.value.hand.rules.fast" and refused.value.detail == {"id": "unknown_rule", "params": {"name": "fast"}}
    with pytest.raises(LedgerError) as refused:
        clean_hand({"result": "draw", "dealer": 1})
    assert refused.value.detail["id"] == "computed_field"
    with pytest.raises(LedgerError) as refused:
        clean_hand({"result": "ron", "winners": [{"seat": 1, "value": {"fu": 30}}]})
    assert refused.value.field == "winners[0].value" and refused.value.detail["id"] == "hand_value"
    assert clean_hand(body, strict=False) == {
        "result": "tsumo", "winner": {"seat": 0, "value": {"hand": {"hand": "123m456p789s234m55p", "win_tile": "4m"}}},
        "penalties": [{"seat": 1, "points": 1000}], "continue_game": True}
    assert clean_hand({"result": "ron", "winners": [{"seat": 1, "value": {"fu": 30}}]}, strict=False)["winners"][0]["value"] == {"fu": 30}
