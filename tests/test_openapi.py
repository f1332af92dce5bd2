"""The OpenAPI description matches the code: every route described, every response conforms."""
import json
import re

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import ignored_auth, positive_data_acceptance

from api_helpers import event_current
from app import create_app
from web.openapi import EXAMPLES_FILE, build_spec
from web.openapi_record import EXAMPLE_CALLS, record_examples


@pytest.fixture(scope="module")
def spec_app(tmp_path_factory):
    db = tmp_path_factory.mktemp("openapi") / "api.sqlite3"
    # uncompressed: the fuzzer's WSGI client asks for gzip but does not decode it (tests/test_compression.py covers it)
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{db}", "RATE_LIMITS": {}, "COMPRESSION": False,
                      "CONTRIBUTIONS_DIR": str(db.parent / "contributions")})
    yield app
    app.extensions["database"].dispose()


def _openapi_path(rule: str) -> str:
    return re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule)


def test_every_route_is_described_and_every_description_routed(spec_app):
    spec = build_spec()
    routed = set()
    for rule in spec_app.url_map.iter_rules():
        path = _openapi_path(rule.rule)
        if not (path.startswith("/api/") or path == "/healthz"):
            continue
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            routed.add((path, method.lower()))
    described = {(path, method) for path, ops in spec["paths"].items() for method in ops}
    assert routed == described


def test_spec_is_served_and_valid_openapi_31(spec_app):
    served = spec_app.test_client().get("/api/openapi.json").get_json()
    assert served["openapi"] == "3.1.0"
    assert served == json.loads(json.dumps(build_spec()))
    schemathesis.openapi.from_dict(served)  # raises on an invalid description


@pytest.mark.parametrize("key", list(EXAMPLE_CALLS))
def test_examples_are_what_the_app_answers(spec_app, key):
    recorded = json.loads(EXAMPLES_FILE.read_text())[key]
    fresh = record_examples(spec_app)[key]
    assert fresh["request"] == recorded["request"]
    volatile = {"id", "share_code", "edit_token", "created_at", "updated_at"}
    strip = lambda doc: {k: v for k, v in doc.items() if k not in volatile}  # noqa: E731
    assert strip(fresh["response"]) == strip(recorded["response"])


OPERATIONS = [(op, path) for path, ops in build_spec()["paths"].items() for op in ops]


@pytest.fixture(scope="module")
def api_schema(spec_app):
    return schemathesis.openapi.from_wsgi("/api/openapi.json", spec_app)


@pytest.mark.parametrize("method,path", OPERATIONS, ids=[f"{m.upper()} {p}" for m, p in OPERATIONS])
def test_fuzz_every_operation(api_schema, method, path):
    """No 5xx, and every response (status, headers, body) matches the description.

    Not checked: that every schema-valid request is accepted. A hand can be valid JSON of the
    right shape and still impossible (13 tiles, no yaku), which is a documented 422.
    """
    operation = api_schema[path][method.upper()]

    @given(operation.as_strategy())
    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def check(case):
        case.call_and_validate(excluded_checks=[positive_data_acceptance])

    check()


@pytest.mark.parametrize("method,path", [("post", "/api/tables/{key}/hands"), ("put", "/api/tables/{key}/hands/{index}")])
def test_fuzz_hands_on_a_real_table(spec_app, api_schema, method, path):
    """With a real table and its token, fuzzed hands reach the ledger: still no 5xx, still as described."""
    client = spec_app.test_client()
    table = client.post("/api/tables", json={"ruleset": "ema", "players": ["a", "b", "c", "d"]}).get_json()
    client.post(f"/api/tables/{table['id']}/hands", json={"result": "draw", "tenpai": [0]},
                headers={"Authorization": f"Bearer {table['edit_token']}", "If-Match": '"1"'})
    operation = api_schema[path][method.upper()]

    @given(operation.as_strategy())
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def check(case):
        case.path_parameters = {**(case.path_parameters or {}), "key": table["id"]}
        if "index" in case.path_parameters:
            case.path_parameters["index"] = 0
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {table['edit_token']}"}
        case.headers.pop("If-Match", None)
        # auth is tested in tests/test_api_tables.py; here the real token is injected on purpose
        case.call_and_validate(excluded_checks=[positive_data_acceptance, ignored_auth])

    check()


@pytest.mark.parametrize("method,path", [("patch", "/api/events/{key}"), ("post", "/api/events/{key}/rounds"),
                                         ("post", "/api/events/{key}/games"), ("put", "/api/events/{key}/games/{table_id}")])
def test_fuzz_a_real_event_with_its_organiser_token(spec_app, api_schema, method, path):
    """With a real event and its organiser token, fuzzed bodies reach the event code: no 5xx."""
    client = spec_app.test_client()
    event = client.post("/api/events", json={"name": "fuzz", "players": [f"p{i}" for i in range(9)]}).get_json()
    auth = {"Authorization": f"Bearer {event['organiser_token']}"}
    game = client.post(f"/api/events/{event['id']}/games", json={"players": [0, 1, 2, None]},
                       headers=event_current(client, event["id"], auth)).get_json()["new_games"][0]
    operation = api_schema[path][method.upper()]

    @given(operation.as_strategy())
    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def check(case):
        case.path_parameters = {**(case.path_parameters or {}), "key": event["id"]}
        if "table_id" in case.path_parameters:
            case.path_parameters["table_id"] = game["id"]
        case.headers = {**(case.headers or {}), **auth}
        if path.endswith("/games"):  # If-Match is required there: the event's version now, so bodies reach the event code
            case.headers = event_current(client, event["id"], case.headers)
        case.call_and_validate(excluded_checks=[positive_data_acceptance, ignored_auth])

    check()
