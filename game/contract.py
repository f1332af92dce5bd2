"""The wire shape of a table's hand, declared once: web/openapi.py takes it for the OpenAPI document,
and game/ledger.py derives from it which fields each kind of result may carry (refusing any other,
or dropping it from a hand stored before) and the checks of seats, values and penalties
(scoring/schema.py). What depends on the table's rule set (how many yakuman, which abortive
draws, how many winners of one discard) and what a schema cannot state stays in the ledger."""
from __future__ import annotations

from collections.abc import Mapping

from scoring.contract import MELD, Schema, score_request
from scoring.rules import ABORTIVE_DRAWS

RESULTS = ("ron", "tsumo", "draw", "abort", "chombo", "end")
MAX_HAN = 100                  # han entered by hand (a hand of 13 or more han is a limit anyway)
MAX_PENALTY = 1_000_000        # points of one referee penalty
MAX_REASON = 200               # characters of a penalty's reason
MAX_PENALTIES = 20             # penalties given with one hand
#: A limit hand entered as a limit (``{"limit": "mangan"}``): its base points, with no han or fu invented.
LIMIT_BASES: Mapping[str, int] = {"mangan": 2000, "haneman": 3000, "baiman": 4000, "sanbaiman": 6000}

SEAT: Schema = {"type": "integer", "minimum": 0, "maximum": 3,
                "x-refusal": {"type:integer": ["malformed", "seat_number"], "*": ["impossible", "seat_number"]}}
SEATS: Schema = {"type": ["array", "null"], "items": SEAT, "maxItems": 4, "uniqueItems": True,
                 "x-refusal": {"type:array": ["malformed", "seat_list"], "maxItems": ["impossible", "seat_list_long"],
                               "uniqueItems": ["impossible", "seat_list_twice"]}}
PENALTY: Schema = {
    "type": "object", "required": ["seat", "points"], "additionalProperties": False,
    "properties": {"seat": SEAT,
                   "points": {"type": "integer", "minimum": 100, "maximum": MAX_PENALTY, "multipleOf": 100,
                              "x-refusal": {"*": ["impossible", "penalty_points"]}},
                   "reason": {"type": ["string", "null"], "maxLength": MAX_REASON,
                              "x-refusal": {"*": ["impossible", "text_length"]}}},
    "x-refusal": {"type:object": ["malformed", "penalty_object"], "required:seat": ["malformed", "seat_number"],
                  "required:points": ["impossible", "penalty_points"]}}
PENALTIES: Schema = {"type": ["array", "null"], "maxItems": MAX_PENALTIES, "items": PENALTY,
                     "x-refusal": {"type:array": ["malformed", "penalties_list"], "maxItems": ["impossible", "penalties_count"]}}

#: The value of a win entered by hand: han and fu (limits counted from them).
HAN_FU: Schema = {
    "type": "object", "required": ["han", "fu"], "additionalProperties": False,
    "properties": {"han": {"type": "integer", "minimum": 1, "maximum": MAX_HAN, "x-refusal": {"minimum": ["impossible", "han_range"],
                                                                                             "maximum": ["impossible", "han_range"]}},
                   "fu": {"type": "integer", "minimum": 20, "maximum": 130,
                          "x-refusal": {"minimum": ["impossible", "fu_value"], "maximum": ["impossible", "fu_value"]}}},
    "x-refusal": {"required": ["malformed", "not_whole_number"]}}
LIMIT: Schema = {"type": "object", "required": ["limit"], "additionalProperties": False,
                 "description": "a limit entered as a limit: recorded with no han or fu",
                 "properties": {"limit": {"type": "string", "enum": list(LIMIT_BASES)}},
                 "x-refusal": {"required": ["malformed", "hand_value"]}}
#: yakuman and pao_yakuman are bounded by the table's rule set (stacking, double yakuman): the ledger checks them.
YAKUMAN: Schema = {"type": "object", "required": ["yakuman"], "additionalProperties": False,
                   "properties": {"yakuman": {"type": "integer", "minimum": 1, "x-refusal": {"*": ["impossible", "yakuman_count"]},
                                              "x-bound-by-ruleset": True},
                                  "pao_yakuman": {"type": ["integer", "null"], "minimum": 1, "x-bound-by-ruleset": True,
                                                  "x-refusal": {"*": ["impossible", "range"]}}},
                   "x-refusal": {"required": ["malformed", "hand_value"]}}
#: A winner's hand scored by the table: a score request without comparisons (ruleset and rules, when
#: given, must be the table's own; the winds, honba and sticks are the table's).
SCORED_HAND_FIELDS = tuple(key for key in score_request()["properties"] if key != "compare")


def scored_hand(meld: Schema = MELD) -> Schema:
    request = score_request(meld)
    return {**request, "additionalProperties": False,
            "properties": {key: request["properties"][key] for key in SCORED_HAND_FIELDS},
            "x-refusal": {**request["x-refusal"], "type:object": ["malformed", "score_request_object"]}}


def value(hand: Schema | None = None) -> Schema:
    """A winner's value: one of four forms, told apart by their first key (han, limit, yakuman, hand)."""
    scored = {"type": "object", "required": ["hand"], "additionalProperties": False,
              "properties": {"hand": hand if hand is not None else scored_hand()},
              "x-refusal": {"required": ["malformed", "hand_value"]}}
    return {"type": "object", "oneOf": [HAN_FU, LIMIT, YAKUMAN, scored],
            "x-refusal": {"type:object": ["malformed", "hand_value"], "oneOf": ["malformed", "hand_value"]}}


def winner(value_schema: Schema | None = None) -> Schema:
    return {"type": "object", "required": ["seat", "value"], "additionalProperties": False,
            "properties": {"seat": SEAT, "value": value_schema if value_schema is not None else value(),
                           "pao_seat": {**SEAT, "type": ["integer", "null"]}},
            "x-refusal": {"type:object": ["malformed", "winner_object"], "required:seat": ["malformed", "seat_number"],
                          "required:value": ["malformed", "hand_value"]}}


#: The fields each kind of result may carry, besides ``result`` (every kind: referee ``penalties``;
#: all but chombo and end: ``continue_game``, after which the dealer may stop the game).
def _fields(winner_schema: Schema) -> dict[str, dict[str, Schema]]:
    common: dict[str, Schema] = {"riichi": SEATS, "penalties": PENALTIES}
    go_on: dict[str, Schema] = {"continue_game": {"type": ["boolean", "null"]}}
    return {
        # winners: how many may win on one discard is the rule set's (the ledger checks it)
        "ron": {"from_seat": SEAT, "winners": {"type": "array", "items": winner_schema, "minItems": 1, "maxItems": 3,
                                               "x-bound-by-ruleset": True},
                **common, **go_on},
        "tsumo": {"winner": winner_schema, **common, **go_on},
        "draw": {"tenpai": SEATS, "riichi": SEATS, "nagashi": SEATS, "penalties": PENALTIES, **go_on},
        # which abortive draws the table plays is the rule set's (the ledger checks it)
        "abort": {"kind": {"type": "string", "enum": list(ABORTIVE_DRAWS), "x-bound-by-ruleset": True}, **common, **go_on},
        "chombo": {"seat": SEAT, **common},
        "end": {"penalties": PENALTIES},
    }


def hand(winner_schema: Schema | None = None, description: str = "") -> Schema:
    """A hand sent to a table: one branch per kind of result, each refusing any field not its own."""
    by_result = _fields(winner_schema if winner_schema is not None else winner())
    out: Schema = {
        "type": "object", "required": ["result"],
        "properties": {"result": {"type": "string", "enum": list(RESULTS)}},
        "discriminator": {"propertyName": "result"},
        "oneOf": [{"type": "object", "required": ["result"], "additionalProperties": False,
                   "properties": {"result": {"type": "string", "enum": [kind]}, **fields},
                   "x-refusal": {"required": ["malformed", "choice"]}}
                  for kind, fields in by_result.items()],
        "x-refusal": {"type:object": ["malformed", "hand_object"], "required": ["malformed", "choice"]}}
    if description:
        out["description"] = description
    return out


def fields_of(kind: str) -> tuple[str, ...]:
    """The input fields of a kind of result, ``result`` first."""
    return ("result", *_fields({"type": "object"})[kind])
