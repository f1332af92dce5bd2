"""The OpenAPI 3.1 description of the API, served at /api/openapi.json.

It cannot drift from the code: tests check that every route of the app is described and every
description is routed, schemathesis fuzzes every operation and validates each response against
it, and the examples (recorded from real calls by ``python -m web.openapi_record``, web/openapi_record.py) are replayed
against the app.
"""
from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, current_app, jsonify

from game import contract as game_contract
from scoring import contract
from services import contract as events_contract
from services.tables import REQUEST_KEY

bp = Blueprint("openapi", __name__)

EXAMPLES_FILE = Path(__file__).with_name("openapi_examples.json")

# the shapes are declared once, from the domain's constants (scoring/contract.py, game/contract.py)
TILES = contract.TILES
RULESET = contract.RULESET
SEAT = game_contract.SEAT
WIND = contract.WIND
SEATS = game_contract.SEATS


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict, example_key: str | None = None) -> dict:
    body = {"schema": schema}
    return {"content": {"application/json": body}, "_example": example_key}


def _error(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": _ref("Error")}}}


ERRORS = {
    "400": _error("Malformed request: the field and what was wrong"),
    "408": _error("The request body did not arrive in time (the connection is closed)"),
    "413": _error("Request too large"),
    "415": _error("Not JSON (or not an image)"),
    "422": _error("Well-formed but impossible: the field and why"),
}

SCHEMAS = {
    "Error": contract.error(_ref("ErrorDetail")),
    "EventChanges": {
        "type": "object", "required": ["tag"],
        "properties": {
            "tag": {"type": "string", "description": "the tag (ETag) of the event now"},
            "since": {"type": "string", "description": "the tag the changes are from"},
            "set": {"type": "object", "description": "top-level values of the event that changed, whole"},
            "lists": {"type": "object", "description": "per list of the event (games, standings, stats...): its new length "
                                                        "and the entries that changed, by index",
                      "additionalProperties": {"type": "object", "required": ["length", "items"],
                                               "properties": {"length": {"type": "integer", "minimum": 0},
                                                              "items": {"type": "object"}}}},
            "full": {"type": "object", "description": "the whole event (as GET /api/events/{key}), when the tag is unknown"},
        },
    },
    "ErrorDetail": contract.ERROR_DETAIL,
    "Meld": contract.MELD,
    "ScoreRequest": contract.score_request(_ref("Meld")),
    "Yaku": {"type": "object", "required": ["id", "name", "han"],
             "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "han": {"type": "integer"},
                            "yakuman": {"type": "integer"}}},
    "FuLine": {
        "type": "object", "required": ["id", "label", "fu"],
        "description": "one line of the fu count; label is English, the other keys let an app word it itself",
        "properties": {
            "id": {"type": "string", "enum": ["base", "chiitoitsu", "pinfu_tsumo", "menzen_ron", "tsumo", "wait", "group",
                                              "pair", "open_pinfu"]},
            "label": {"type": "string"}, "fu": {"type": "integer"},
            "tiles": {"type": "string", "description": "group and pair lines: the tiles in mpsz, like 555z"},
            "concealed": {"type": "boolean"}, "kan": {"type": "boolean"},
            "terminal": {"type": "boolean", "description": "group lines: terminals or honours"},
            "reason": {"type": "string", "enum": ["dragon", "seat_wind", "round_wind", "double_wind"],
                       "description": "pair lines: why the pair is worth fu"},
            "wait": {"type": "string", "enum": ["kanchan", "penchan", "tanki"], "description": "wait lines: which wait"},
        },
    },
    "Payments": {"type": "object", "properties": {"ron": {"type": "integer"}, "dealer": {"type": "integer"},
                                                   "non_dealer": {"type": "integer"}}},
    "ScoreResult": {
        "type": "object",
        "required": ["han", "fu", "yakuman", "limit", "yaku", "fu_details", "points", "payments", "total"],
        "properties": {
            "han": {"type": "integer"}, "fu": {"type": "integer"}, "yakuman": {"type": "integer"},
            "limit": {"type": ["string", "null"], "enum": [None, "mangan", "haneman", "baiman", "sanbaiman", "yakuman"]},
            "kazoe": {"type": "boolean"}, "yaku": {"type": "array", "items": _ref("Yaku")},
            "fu_details": {"type": "array", "items": _ref("FuLine")},
            "points": {"type": "integer"}, "payments": _ref("Payments"), "total": {"type": "integer"},
            "wait": {"type": "string"}, "groups": {"type": "array", "items": {"type": "string"}},
            "notes": {"type": "array", "items": {"type": "string"}},
            "ruleset_title": {"type": "string", "description": "the rule set's name, for notes worded by an app"},
            "note_ids": {"type": "array", "description": "a stable id for each of notes, in the same order, for a translated note",
                         "items": {"type": "string", "enum": ["haitei_rinshan", "no_ippatsu", "no_renhou", "no_red_fives", "no_kan_dora",
                                                              "ura_needs_riichi", "no_ura_dora", "no_kan_ura_dora"]}},
            "compare": {"type": "array", "items": {"type": "object"}},
        },
    },
    "WaitsResult": {
        "type": "object", "required": ["tenpai", "furiten", "waits"],
        "properties": {"tenpai": {"type": "boolean"}, "furiten": {"type": "boolean"}, "ruleset": {"type": "string"},
                       "hand": {"type": "string"},
                       "waits": {"type": "array", "items": {"type": "object", "required": ["tile", "ron", "tsumo"],
                                                             "properties": {"tile": {"type": "string"},
                                                                            "ron": {"type": ["object", "null"]},
                                                                            "tsumo": {"type": ["object", "null"]},
                                                                            "reason": {"type": "string"},
                                                                            "reason_id": {"type": "string", "enum": ["all_held", "in_indicators"],
                                                                                          "description": "why the tile cannot win, as a stable id"}}}}},
    },
    "Rulesets": {"type": "object", "required": ["rulesets", "yaku"],
                 "properties": {"rulesets": {"type": "array", "items": {"type": "object", "required": ["id", "title", "parameters"]}},
                                "yaku": {"type": "array", "items": {"type": "object"}}}},
    "TableCreate": {"type": "object", "required": ["players"],
                    "properties": {"ruleset": RULESET, "rules": {"type": "object"},
                                   "players": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 40},
                                               "minItems": 4, "maxItems": 4}}},
    "Value": game_contract.value(_ref("ScoredHand")),
    "ScoredHand": {**game_contract.scored_hand(_ref("Meld")),
                   "description": "a score request without compare; ruleset and rules, when given, must be the "
                                  "table's own, and seat_wind, round_wind, honba, riichi_sticks and win are the table's"},
    "Winner": game_contract.winner(_ref("Value")),
    "Hand": game_contract.hand(_ref("Winner"), "one of ron, tsumo, draw, abort, chombo, end (see the README's table API). Only the fields "
                            "of the result's kind are accepted (ron: from_seat, winners, riichi; tsumo: winner, riichi; "
                            "draw: tenpai, riichi, nagashi; abort: kind, riichi; chombo: seat, riichi; every kind: "
                            "penalties; all but chombo and end: continue_game); any other field, including those the "
                            "table works out (index, dealer, honba...), is refused with 422 naming it."),
    "State": {"type": "object",
              "required": ["scores", "round_wind", "hand_number", "dealer", "honba", "riichi_sticks", "finished"],
              "properties": {
                  "scores": {"type": "array", "items": {"type": "integer"}, "minItems": 4, "maxItems": 4},
                  "round_wind": WIND, "hand_number": {"type": "integer", "minimum": 1, "maximum": 4}, "dealer": SEAT,
                  "honba": {"type": "integer"}, "riichi_sticks": {"type": "integer"}, "finished": {"type": "boolean"},
                  "seat_winds": {"type": "array", "items": WIND}, "penalties": {"type": "array", "items": {"type": "integer"}},
                  "standings": {"type": "array", "items": {"type": "object", "required": ["seat", "place", "points", "uma", "oka", "penalty", "final"]}},
              }},
    "Table": {"type": "object", "required": ["id", "share_code", "ruleset", "players", "version", "state", "hands"],
              "properties": {"id": {"type": "string"}, "share_code": {"type": "string"}, "ruleset": {"type": "string"},
                             "rules": {"type": "object"}, "players": {"type": "array", "items": {"type": "string"}},
                             "version": {"type": "integer"}, "state": _ref("State"),
                             "hands": {"type": "array", "items": {"type": "object", "required": ["result", "deltas", "scores_after"]}},
                             "edit_token": {"type": "string", "description": "only in the 201 answer to POST /api/tables"},
                             "previous_table": {"type": "string", "description": "the game this one follows (same players)"},
                             "next_table": {"type": "string", "description": "the next game with the same players"},
                             "event": {"type": "object", "required": ["id", "share_code", "entrants"],
                                       "description": "the event this game belongs to, and the event player at each seat (null: a substitute)",
                                       "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "share_code": {"type": "string"},
                                                      "entrants": {"type": "array", "items": {"type": ["integer", "null"]}}}}}},
    "HandPreview": {"type": "object", "required": ["version", "hand", "state"],
                    "properties": {"version": {"type": "integer", "description": "the table version the preview was computed on"},
                                   "hand": {"type": "object", "required": ["result", "deltas", "scores_after", "payments"],
                                            "properties": {"payments": {"type": "array", "items": {
                                                "type": "object", "required": ["from", "to", "amount", "for"]}}}},
                                   "state": _ref("State")}},
    "Conflict": {"type": "object", "required": ["error"],
                 "properties": {"error": {"type": "object"}, "table": _ref("Table")}},
    "RecognizeResult": {
        "type": "object", "required": ["tiles", "rows", "proposal", "image_size"],
        "properties": {
            "tiles": {"type": "array", "items": {"type": "object", "required": ["tile", "box", "confidence", "sideways", "face_down", "unsure"],
                                                   "properties": {"tile": {"type": "string"},
                                                                  "box": {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4},
                                                                  "confidence": {"type": "number"}, "sideways": {"type": "boolean"},
                                                                  "face_down": {"type": "boolean"}, "alternatives": {"type": "array"},
                                                                  "unsure": {"type": "boolean", "description": "a tile for the player to "
                                                                             "check: read unsurely, or changed by the hand proposal"},
                                                                  "outline": {"type": "array", "minItems": 4, "maxItems": 4,
                                                                              "items": {"type": "array", "items": {"type": "number"},
                                                                                        "minItems": 2, "maxItems": 2},
                                                                              "description": "read from the photo turned level: the "
                                                                              "tile's four corners as it lies in the photo (box is the "
                                                                              "upright box around them)"}}}},
            "rows": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
            "proposal": {"type": ["object", "null"]}, "image_size": {"type": "array", "items": {"type": "integer"}},
            "timing_ms": {"type": "object"}, "message": {"type": "string"}, "detail": _ref("ErrorDetail"),
            "notes": {"type": "array", "items": _ref("ErrorDetail"),
                      "description": "what the player should know about the photo itself: photo_out_of_focus"},
        },
    },
    "ContributionLabels": {
        "type": "object", "required": ["boxes"],
        "description": "the tiles as the player confirmed them, boxes in the (upright) photo's pixels",
        "properties": {"boxes": {"type": "array", "minItems": 1, "maxItems": 60, "items": {
                           "type": "object", "required": ["tile", "box"],
                           "properties": {"tile": {"type": "string", "pattern": "^(?:[0-9][mps]|[1-7]z|back)$"},
                                          "box": {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4,
                                                  "description": "[x1, y1, x2, y2]"}}}},
                       "image_size": {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 2, "maxItems": 2,
                                      "description": "[width, height] the boxes were drawn on; checked against the photo"}}},
    "Contribution": {
        "type": "object", "required": ["id", "created_at", "width", "height", "boxes", "photo_bytes"],
        "properties": {"id": {"type": "string"}, "created_at": {"type": "string"},
                       "width": {"type": "integer"}, "height": {"type": "integer"}, "photo_bytes": {"type": "integer"},
                       "boxes": {"type": "array", "items": {"type": "object", "required": ["tile", "box"]}},
                       "delete_token": {"type": "string", "description": "only in the 201 answer to POST /api/contributions"}}},
    "EventSettings": events_contract.settings(
        seating={**events_contract.SEATING, "description": "balanced keeps players from meeting the same opponents again"},
        mode={**events_contract.MODE, "description": "when the players present are not a multiple of 4"},
        rounds_planned={**events_contract.ROUNDS_PLANNED,
                        "description": "rounds the night will have (balanced seating looks ahead); 0 if open"}),
    "EventCreate": {"type": "object", "required": ["name"],
                    "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 80}, "ruleset": RULESET,
                                   "rules": {"type": "object", "description": "house rules: overrides as for a table (game_length east for East-only games)"},
                                   "players": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 40}, "maxItems": 200},
                                   "settings": _ref("EventSettings")}},
    "EventUpdate": {"type": "object",
                    "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 80},
                                   "players": {"type": "array", "items": {"type": "string"}, "maxItems": 200,
                                               "description": "the full list: names may be corrected and players added, never removed"},
                                   "settings": _ref("EventSettings")}},
    "RoundRequest": {"type": "object", "properties": {
        "seating": events_contract.SEATING, "mode": events_contract.MODE,
        "present": {"type": "array", "items": {"type": "integer", "minimum": 0}, "description": "players present (all if left out)"},
        "round": {**events_contract.ROUND, "description": "the round meant (the next one): if it is seated already (a request sent "
                                                          "again), nothing is seated and the answer is 409 (detail id round_seated)"}}},
    "GameRequest": {"type": "object", "required": ["players"], "properties": {
        "players": {"type": "array", "items": {"type": ["integer", "null"], "minimum": 0}, "minItems": 4, "maxItems": 4,
                    "description": "four player numbers, null for a substitute; seats are drawn afresh"}}},
    "GameUpdate": {"type": "object", "required": ["excluded"], "properties": {"excluded": {"type": "boolean"}}},
    "Rate": {"type": ["number", "null"], "minimum": 0, "maximum": 1},
    "PlayerStats": {"type": "object", "required": ["hands", "wins", "deal_ins", "win_rate", "deal_in_rate", "riichi_rate", "tsumo_share",
                                                   "average_win", "average_deal_in", "draws", "tenpai_at_draw", "yaku"],
                    "properties": {"hands": {"type": "integer"}, "wins": {"type": "integer"}, "deal_ins": {"type": "integer"},
                                   "riichi": {"type": "integer"}, "tsumo_wins": {"type": "integer"},
                                   "win_rate": _ref("Rate"), "deal_in_rate": _ref("Rate"), "riichi_rate": _ref("Rate"),
                                   "tsumo_share": _ref("Rate"), "tenpai_rate": _ref("Rate"),
                                   "average_win": {"type": ["integer", "null"]}, "average_deal_in": {"type": ["integer", "null"]},
                                   "draws": {"type": "integer"}, "tenpai_at_draw": {"type": "integer"}, "scored_wins": {"type": "integer"},
                                   "yaku": {"type": "object", "additionalProperties": {"type": "integer"}}}},
    "Standing": {"type": "object", "required": ["player", "name", "rank", "total", "games", "average_place", "places"],
                 "properties": {"player": {"type": "integer"}, "name": {"type": "string"}, "rank": {"type": ["integer", "null"]},
                                "total": {"type": "number"}, "games": {"type": "integer"}, "average_place": {"type": ["number", "null"]},
                                "places": {"type": "array", "items": {"type": "integer"}, "minItems": 4, "maxItems": 4}}},
    "EventGame": {"type": "object", "required": ["id", "number", "players", "entrants", "excluded", "finished", "scores", "standings", "score_lines", "stats"],
                  "properties": {"id": {"type": "string"}, "share_code": {"type": "string"}, "round": {"type": ["integer", "null"]},
                                 "number": {"type": "integer"}, "players": {"type": "array", "items": {"type": "string"}},
                                 "entrants": {"type": "array", "items": {"type": ["integer", "null"]}}, "excluded": {"type": "boolean"},
                                 "previous_table": {"type": ["string", "null"]}, "next_table": {"type": ["string", "null"]},
                                 "finished": {"type": "boolean"}, "hands_played": {"type": "integer"},
                                 "scores": {"type": "array", "items": {"type": "integer"}},
                                 "standings": {"type": "array", "items": {"type": "object"}},
                                 "score_lines": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
                                 "stats": {"type": "array", "items": _ref("PlayerStats")}}},
    "Event": {"type": "object", "required": ["id", "share_code", "name", "ruleset", "players", "version", "rounds", "games", "standings", "progress", "stats"],
              "properties": {"id": {"type": "string"}, "share_code": {"type": "string"}, "name": {"type": "string"},
                             "ruleset": {"type": "string"}, "ruleset_title": {"type": "string"}, "rules": {"type": "object"},
                             "players": {"type": "array", "items": {"type": "string"}}, "settings": _ref("EventSettings"),
                             "version": {"type": "integer"},
                             "rounds": {"type": "array", "items": {"type": "object", "required": ["number", "tables", "byes"]}},
                             "games": {"type": "array", "items": _ref("EventGame")},
                             "standings": {"type": "array", "items": _ref("Standing")},
                             "progress": {"type": "array", "items": {"type": "object", "required": ["totals"]}},
                             "tie_break": {"type": "string"}, "stats": {"type": "array", "items": _ref("PlayerStats")},
                             "repeat_meetings": {"type": "integer"},
                             "tag": {"type": "string", "description": "changes whenever the event or one of its games changes (the ETag)"},
                             "organiser_token": {"type": "string", "description": "only in the 201 answer to POST /api/events"},
                             "new_games": {"type": "array", "description": "games just opened, with their tables' edit tokens",
                                           "items": {"type": "object", "required": ["id", "players", "edit_token"]}}}},
    "Health": {"type": "object", "required": ["ok", "checks"],
               "properties": {"ok": {"type": "boolean"}, "checks": {
                   "type": "object", "properties": {
                       "database": {"enum": ["ok", "unreachable", "corrupt", "writes failing"]},
                       "model": {"enum": ["ok", "not loaded"]}}}}},
}

TABLE_KEY = {"name": "key", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 64},
             "description": "the table id, or its share code (read only)"}
AUTH = {"name": "Authorization", "in": "header", "required": False, "schema": {"type": "string"},
        "description": "Bearer <edit_token>"}
IF_MATCH = {"name": "If-Match", "in": "header", "required": True, "schema": {"type": "string"},
            "description": "the version the client saw, like \"3\"; a stale one gives 409, none 428"}
IDEMPOTENCY_KEY = {"name": "Idempotency-Key", "in": "header", "required": False,
                   "schema": {"type": "string", "pattern": f"^{REQUEST_KEY.pattern}$"},
                   "description": "a key of the client's own (a UUID) for this change, sent again unchanged when the change "
                                  "is sent again: if the change was already made (its answer was lost), the table is "
                                  "returned as it is now and nothing is stored twice; the same key with another change "
                                  "is a 422 (detail id idempotency_key_reused)"}
STORAGE = _error("The storage cannot be used just now (database down, disk full, damaged file): nothing was "
                 "changed; see Retry-After (detail id storage_unavailable)")
TOO_MANY = _error("Too many requests from this client (or too many reads of codes that do not exist); see Retry-After")
WRITE_ERRORS = {**ERRORS,
                "401": _error("No edit token"), "403": _error("Wrong edit token"), "404": _error("No such table or hand"),
                "409": {"description": "The table changed since If-Match: the current table is in the body",
                        "content": {"application/json": {"schema": _ref("Conflict")}}},
                "428": _error("No If-Match: the version the change was made on is required"), "503": STORAGE}

CONTRIBUTION_ID = {"name": "cid", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 64},
                   "description": "the contribution's id"}
TOKEN = {"name": "Authorization", "in": "header", "required": False, "schema": {"type": "string"},
         "description": "Bearer <delete_token>"}
CONTRIBUTION_ERRORS = {"401": _error("No delete token"), "403": _error("Wrong delete token"),
                       "404": _error("No such contribution")}
EVENT_KEY = {"name": "key", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 64},
             "description": "the event id, or its share code (read only)"}
ORGANISER = {"name": "Authorization", "in": "header", "required": False, "schema": {"type": "string"},
             "description": "Bearer <organiser_token>"}
EVENT_IF_MATCH = {"name": "If-Match", "in": "header", "required": False, "schema": {"type": "string"},
                  "description": "the event's version the organiser saw, like \"3\"; a stale one gives 409 (detail id "
                                 "event_changed_since), as does a change sent again after its answer was lost"}
EVENT_IF_MATCH_REQUIRED = {**EVENT_IF_MATCH, "required": True,
                           "description": "the event's version the organiser saw, like \"3\"; none gives 428 (detail id "
                                          "event_if_match_required: a game sent twice would be opened twice), a stale "
                                          "one 409 (event_changed_since), as does a game sent again after its answer was lost"}
EVENT_ERRORS = {**ERRORS, "401": _error("No organiser token"), "403": _error("Wrong organiser token"),
                "404": _error("No such event or game"), "409": _error("The event changed at the same moment, or since the version in If-Match"),
                "503": STORAGE}
EVENT_GAME_ERRORS = {**EVENT_ERRORS, "422": _error("Impossible, or the event would hold more than MAX_EVENT_GAMES games"),
                     "429": TOO_MANY}


def _op(summary: str, ok: dict, *, body: dict | None = None, params=(), errors=ERRORS, ok_code="200", security=False,
        scheme="edit_token"):
    op = {"summary": summary, "responses": {ok_code: ok, **errors}}
    if body is not None:
        op["requestBody"] = {"required": True, **body}
    if params:
        op["parameters"] = list(params)
    if security:
        op["security"] = [{"organiser_token" if ORGANISER in op.get("parameters", []) else scheme: []}]
    return op


def _ok(description: str, schema: dict) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


PATHS = {
    "/api/score": {"post": _op("Score a winning hand", _ok("The hand's value", _ref("ScoreResult")),
                               body=_json(_ref("ScoreRequest"), "score"))},
    "/api/waits": {"post": _op("Each tile a 13-tile hand waits on, and its value", _ok("The waits", _ref("WaitsResult")),
                               body=_json(_ref("ScoreRequest"), "waits"))},
    "/api/rulesets": {"get": _op("Rule set presets with every parameter, and the yaku list",
                                 _ok("Presets", _ref("Rulesets")), errors={})},
    "/api/recognize": {"post": _op(
        "Recognise the tiles in a photo", _ok("Tiles, rows and a proposed hand", _ref("RecognizeResult")),
        body={"content": {"multipart/form-data": {"schema": {"type": "object", "required": ["image"],
                                                             "properties": {"image": {"type": "string", "contentMediaType": "application/octet-stream"}}}}}},
        errors={**ERRORS, "429": _error("Too many photos from this client; see Retry-After"),
                "503": _error("Recognition is not available on this server (model missing)")})},
    "/api/contributions": {"post": _op(
        "Share a corrected photo to improve recognition (stored without its metadata)",
        _ok("The stored contribution, with the token that deletes it", _ref("Contribution")),
        body={"content": {"multipart/form-data": {"schema": {
            "type": "object", "required": ["image", "labels"],
            "properties": {"image": {"type": "string", "contentMediaType": "application/octet-stream"},
                           "labels": {"type": "string", "contentMediaType": "application/json",
                                      "contentSchema": _ref("ContributionLabels")}}}}}},
        errors={**ERRORS, "429": _error("Too many photos from this client; see Retry-After"),
                "507": _error("The server has no room for more contributions")}, ok_code="201")},
    "/api/contributions/{cid}": {
        "get": _op("A contribution, for whoever holds its delete token", _ok("The contribution", _ref("Contribution")),
                   params=[CONTRIBUTION_ID, TOKEN], errors=CONTRIBUTION_ERRORS, security=True, scheme="delete_token"),
        "delete": _op("Delete a contribution (photo and labels)", {"description": "Deleted"},
                      params=[CONTRIBUTION_ID, TOKEN], errors=CONTRIBUTION_ERRORS, ok_code="204", security=True,
                      scheme="delete_token")},
    "/api/tables": {"post": _op("Create a table", _ok("The new table, with its edit token", _ref("Table")),
                                body=_json(_ref("TableCreate"), "create_table"), ok_code="201",
                                errors={**ERRORS, "429": TOO_MANY, "503": STORAGE})},
    "/api/tables/{key}": {"get": _op("A table: players, state and every hand", _ok("The table", _ref("Table")),
                                     params=[TABLE_KEY], errors={"404": _error("No such table"), "429": TOO_MANY,
                                                                 "503": STORAGE})},
    "/api/tables/{key}/hands": {"post": _op("Record a hand", _ok("The updated table", _ref("Table")),
                                            body=_json(_ref("Hand"), "record_hand"), params=[TABLE_KEY, AUTH, IF_MATCH, IDEMPOTENCY_KEY],
                                            errors=WRITE_ERRORS, security=True)},
    "/api/tables/{key}/preview": {"post": _op(
        "What recording a hand (or, with index, correcting hand n) would do, without storing it",
        _ok("The hand's record (payments, deltas, sticks) and the state after it", _ref("HandPreview")),
        body=_json(_ref("Hand")), params=[TABLE_KEY, {"name": "index", "in": "query", "required": False,
                                                     "schema": {"type": "integer", "minimum": 0}}, AUTH],
        errors={k: v for k, v in WRITE_ERRORS.items() if k != "409"}, security=True)},
    "/api/tables/{key}/hands/last": {"delete": _op("Undo the last hand", _ok("The updated table", _ref("Table")),
                                                   params=[TABLE_KEY, AUTH, IF_MATCH, IDEMPOTENCY_KEY], errors=WRITE_ERRORS,
                                                   security=True)},
    "/api/tables/{key}/hands/{index}": {"put": _op(
        "Correct hand n (0-based) and recompute everything after it", _ok("The updated table", _ref("Table")),
        body=_json(_ref("Hand")), params=[TABLE_KEY, {"name": "index", "in": "path", "required": True,
                                                     "schema": {"type": "integer", "minimum": 0}}, AUTH, IF_MATCH, IDEMPOTENCY_KEY],
        errors=WRITE_ERRORS, security=True)},
    "/api/tables/{key}/export": {"get": _op(
        "The game record as CSV or JSON",
        {"description": "The record", "content": {"text/csv": {"schema": {"type": "string"}}, "application/json": {"schema": {"type": "object"}}}},
        params=[TABLE_KEY, {"name": "format", "in": "query", "required": False, "schema": {"type": "string", "enum": ["csv", "json"]}}],
        errors={"400": _error("Unknown format"), "404": _error("No such table"), "429": TOO_MANY})},
    "/api/tables/{key}/next": {"post": _op(
        "Next game, same players: a new table with seats and winds drawn afresh, linked to this one (the same edit token records on it)",
        _ok("The new table", _ref("Table")), params=[TABLE_KEY, AUTH], ok_code="201",
        errors={"401": _error("No edit token"),
                "403": _error("Wrong edit token; for a game of an event, anything but the organiser token"),
                "404": _error("No such table"), "429": TOO_MANY, "503": STORAGE,
                "422": _error("The game is not over, already has a next game, or its event is full (MAX_EVENT_GAMES)")},
        security=True)},
    "/api/events": {"post": _op("Create an event (a club night or a league season)", _ok("The event, with its organiser token", _ref("Event")),
                                body=_json(_ref("EventCreate")), ok_code="201",
                                errors={**ERRORS, "429": TOO_MANY, "503": STORAGE})},
    "/api/events/{key}": {
        "get": _op("An event: players, rounds, games, standings, statistics", _ok("The event", _ref("Event")),
                   params=[EVENT_KEY], errors={"404": _error("No such event"), "429": TOO_MANY, "503": STORAGE}),
        "patch": _op("Rename the event, add or rename players, change its settings", _ok("The event", _ref("Event")),
                     body=_json(_ref("EventUpdate")), params=[EVENT_KEY, ORGANISER, EVENT_IF_MATCH], errors=EVENT_ERRORS, security=True)},
    "/api/events/{key}/changes": {"get": _op(
        "What changed in an event since the version a phone holds (what the event page polls): the values "
        "that changed whole, and of its lists the new length and only the changed entries",
        _ok("The changes since that version; or, for a tag the server no longer knows, the whole event under \"full\"",
            _ref("EventChanges")),
        params=[EVENT_KEY, {"name": "since", "in": "query", "required": True, "schema": {"type": "string", "maxLength": 64},
                            "description": "the tag of the event document held (its ETag, without quotes)"}],
        errors={"304": {"description": "Nothing changed since that version"}, "400": _error("No since tag"),
                "404": _error("No such event")})},
    "/api/events/{key}/rounds": {"post": _op(
        "Seat the next round and open its tables", _ok("The event, with the new games and their edit tokens", _ref("Event")),
        body=_json(_ref("RoundRequest")), params=[EVENT_KEY, ORGANISER, EVENT_IF_MATCH], errors=EVENT_GAME_ERRORS, ok_code="201", security=True)},
    "/api/events/{key}/games": {"post": _op(
        "Open one game for four players of the event", _ok("The event, with the new game and its edit token", _ref("Event")),
        body=_json(_ref("GameRequest")), params=[EVENT_KEY, ORGANISER, EVENT_IF_MATCH_REQUIRED],
        errors={**EVENT_GAME_ERRORS, "428": _error("No If-Match: the event's version is required")}, ok_code="201", security=True)},
    "/api/events/{key}/games/{table_id}": {"put": _op(
        "Leave a game out of the standings (a practice game), or count it again", _ok("The event", _ref("Event")),
        body=_json(_ref("GameUpdate")), params=[EVENT_KEY, {"name": "table_id", "in": "path", "required": True,
                                                             "schema": {"type": "string", "maxLength": 64}}, ORGANISER, EVENT_IF_MATCH],
        errors=EVENT_ERRORS, security=True)},
    "/api/events/{key}/export": {"get": _op(
        "The event's standings, statistics and games as CSV or JSON",
        {"description": "The record", "content": {"text/csv": {"schema": {"type": "string"}}, "application/json": {"schema": {"type": "object"}}}},
        params=[EVENT_KEY, {"name": "format", "in": "query", "required": False, "schema": {"type": "string", "enum": ["csv", "json"]}}],
        errors={"400": _error("Unknown format"), "404": _error("No such event"), "429": TOO_MANY})},
    "/healthz": {"get": _op("Database reachable and undamaged, model loaded", _ok("Healthy", _ref("Health")),
                            errors={"503": {"description": "Not healthy", "content": {"application/json": {"schema": _ref("Health")}}}})},
    "/api/openapi.json": {"get": _op("This description", _ok("OpenAPI 3.1", {"type": "object"}), errors={})},
}


def build_spec() -> dict:
    examples = json.loads(EXAMPLES_FILE.read_text()) if EXAMPLES_FILE.exists() else {}
    paths = json.loads(json.dumps(PATHS))
    for ops in paths.values():
        for op in ops.values():
            body = op.get("requestBody")
            key = body.pop("_example", None) if body else None
            if key and key in examples:
                body["content"]["application/json"]["example"] = examples[key]["request"]
                ok = op["responses"].get("200") or op["responses"].get("201")
                ok["content"]["application/json"]["example"] = examples[key]["response"]
    schemas = json.loads(json.dumps(SCHEMAS))
    schemas["Conflict"]["properties"]["error"] = schemas["Error"]["properties"]["error"]
    return {
        "openapi": "3.1.0",
        "info": {"title": "Tenbou API", "version": "1.0.0",
                 "description": "Score riichi mahjong hands under seven rule sets, keep a table's running scores, "
                                "and read tiles from a photo. Errors are {\"error\": {\"field\", \"message\"}}."},
        "paths": paths,
        "components": {"schemas": schemas,
                       "securitySchemes": {"edit_token": {"type": "http", "scheme": "bearer",
                                                          "description": "the edit_token returned when the table was created "
                                                                         "(or the organiser token of the table's event)"},
                                           "delete_token": {"type": "http", "scheme": "bearer",
                                                            "description": "the delete_token returned when the photo was shared"},
                                           "organiser_token": {"type": "http", "scheme": "bearer",
                                                               "description": "the organiser_token returned when the event was created"}}},
    }


@bp.get("/api/openapi.json")
def openapi_json():
    spec = current_app.extensions.get("openapi")
    if spec is None:
        spec = current_app.extensions["openapi"] = build_spec()
    return jsonify(spec)
