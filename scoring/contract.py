"""The wire shapes of scoring, declared once as JSON Schema built from the domain's own constants.

web/openapi.py takes these for the OpenAPI document, and scoring/engine.py validates a request
with the check scoring/schema.py derives from the same declaration, so which fields exist, their
types, bounds and choices (rule sets, meld types, winds, kinds of refusal, detail ids) are said
here once. ``x-refusal`` names the refusal each broken keyword gets (scoring/schema.py);
tests/test_contract.py walks every declared property and fuzzes bodies from the schema."""
from __future__ import annotations

from typing import Any

from .errors import DETAILS, KINDS
from .rules import PRESETS, Ruleset
from .schema import module_source
from .tiles import WIND_NAMES

Schema = dict[str, Any]

MELD_TYPES = ("chi", "pon", "daiminkan", "kakan", "ankan")
#: The situational toggles of a win (scoring/engine.py checks which may go together).
FLAGS = ("riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "chankan_ankan",
         "tenhou", "chiihou", "renhou")
MAX_COUNTERS = 999  # honba and riichi sticks a request may name
#: Dora han a player may count by hand (``dora_count``), added to those from indicators and red fives.
#: Far above any real hand (a limit hand is counted from 13 han) yet small enough to catch a typo.
MAX_DORA_COUNT = 40
MAX_COMPARE = 2 * len(PRESETS)  # rule sets to compare: room for a list that repeats some, never thousands

#: The refusals of a tile field: a value that is not text, and (its ``format`` explaining) where it goes wrong.
_TILE_REFUSALS = {"type:string": ["malformed", "notation_type"], "pattern": ["malformed", "notation_unreadable"]}
#: mpsz notation as the engine reads it: groups of digits each closed by its suit, spaces or commas between.
NOTATION = "^[ ,]*(?:(?:[0-9]+[mps]|[1-7]+z)[ ,]*)*$"

RULESET: Schema = {"type": "string", "enum": list(PRESETS), "default": "wrr",
                   "x-refusal": {"enum": ["impossible", "unknown_ruleset"]}}
WIND: Schema = {"type": "string", "enum": list(WIND_NAMES), "x-refusal": {"enum": ["malformed", "wind"]}}
WIN: Schema = {"type": "string", "enum": ["ron", "tsumo"], "default": "ron", "x-refusal": {"enum": ["malformed", "win_kind"]}}
TILES: Schema = {"type": "string", "pattern": NOTATION, "x-explain": "mpsz",
                 "description": "mpsz notation: 123m406p55z (0 = red five; 1z-7z = E S W N haku hatsu chun)",
                 "examples": ["234m067p345s11z555z"], "x-refusal": _TILE_REFUSALS}
TILE: Schema = {"type": "string", "pattern": "^(?:[0-9][mps]|[1-7]z)$"}
#: A winning tile: one tile (empty or null: the last tile written in the hand).
WIN_TILE: Schema = {"type": ["string", "null"], "pattern": "^(?:[ ,]*(?:[0-9][mps]|[1-7]z)[ ,]*)?$", "x-explain": "mpsz",
                    "description": "the winning tile; when not given, the last tile written in hand",
                    "x-refusal": {**_TILE_REFUSALS, "pattern": ["malformed", "win_tile_one"]}}
#: Dora or ura indicators: notation, or a list of notation strings read as one.
INDICATORS: Schema = {"type": ["string", "array", "null"], "pattern": NOTATION, "x-explain": "mpsz",
                      "items": {"type": "string", "pattern": NOTATION, "x-explain": "mpsz", "x-refusal": _TILE_REFUSALS},
                      "x-items-at-array": True, "x-refusal": {**_TILE_REFUSALS, "type:string": ["malformed", "notation_type"]},
                      "examples": ["3m", ["3m", "7z"]]}
COUNTER: Schema = {"type": "integer", "minimum": 0, "maximum": MAX_COUNTERS}

#: House rules: overrides of the rule set's parameters, by name. Each value's type, choices and range are
#: the Ruleset field's own (scoring/rules.py checks them; GET /api/rulesets lists them).
RULES: Schema = {"type": ["object", "null"], "additionalProperties": False,
                 "description": "overrides of rule parameters (GET /api/rulesets lists them with their choices and ranges)",
                 "properties": {f.name: {"description": f.metadata["label"]} for f in Ruleset.parameters()},
                 "x-refusal": {"type:object": ["malformed", "rules_object"], "additionalProperties": ["malformed", "unknown_rule"]}}

MELD: Schema = {"type": "object", "required": ["type", "tiles"],
                "properties": {"type": {"type": "string", "enum": list(MELD_TYPES), "x-refusal": {"enum": ["malformed", "meld_type"]}},
                               "tiles": TILES},
                "x-refusal": {"type:object": ["malformed", "meld_object"], "required:type": ["malformed", "meld_type"],
                              "required:tiles": ["malformed", "notation_type"]}}


def score_request(meld: Schema = MELD) -> Schema:
    """POST /api/score's body (``meld`` may be given as a reference by the document)."""
    return {
        "type": "object", "required": ["hand"],
        "x-refusal": {"type:object": ["malformed", "request_object"], "required:hand": ["malformed", "hand_missing"]},
        # in the order a table's scored hand lists them when it refuses another field (game/contract.py)
        "properties": {
            "hand": TILES,
            "melds": {"type": ["array", "null"], "items": meld, "maxItems": 4,
                      "x-refusal": {"type:array": ["malformed", "melds_list"], "maxItems": ["impossible", "too_many_melds"]}},
            "win": WIN, "win_tile": WIN_TILE,
            "seat_wind": WIND, "round_wind": WIND,
            "dora_indicators": INDICATORS, "ura_indicators": INDICATORS,
            "dora_count": {"type": "integer", "minimum": 0, "maximum": MAX_DORA_COUNT, "default": 0,
                           "description": "dora han the player counted, added to any from indicators and red fives "
                                          "(dora never make a hand without yaku score)"},
            "honba": COUNTER, "riichi_sticks": COUNTER,
            "ruleset": RULESET,
            "rules": RULES,
            **{flag: {"type": "boolean", "default": False} for flag in FLAGS},
            "compare": {"type": ["array", "null"], "minItems": 1, "maxItems": MAX_COMPARE, "x-items-at-array": True,
                        "items": {**RULESET, "x-refusal": {"type:string": ["malformed", "compare_list"],
                                                           "enum": ["impossible", "compare_unknown"]}},
                        "x-refusal": {"type:array": ["malformed", "compare_list"], "minItems": ["malformed", "compare_list"],
                                      "maxItems": ["impossible", "compare_too_many"]}},
        },
    }


ERROR_DETAIL: Schema = {
    "type": "object", "required": ["id", "params"],
    "description": "the reason as a stable id with its parameters; the app words it from its catalogue "
                   "(key detail.<id>) and message is the English catalogue's sentence",
    "properties": {"id": {"type": "string", "enum": list(DETAILS)}, "params": {"type": "object"}},
}

#: The error codes a client can meet: every kind of refusal, and the web layer's own.
WEB_CODES = ("method_not_allowed", "request_timeout", "rate_limited", "internal", "error")


def error(detail: Schema = ERROR_DETAIL) -> Schema:
    return {
        "type": "object", "required": ["error"],
        "properties": {"error": {"type": "object", "required": ["message", "code"],
                                 "properties": {"field": {"type": ["string", "null"]}, "message": {"type": "string"},
                                                "code": {"type": "string", "description": "stable kind of failure",
                                                         "enum": [*KINDS, *WEB_CODES]},
                                                "hand": {"type": "integer", "minimum": 0,
                                                         "description": "the hand of a table's log the refusal is about"},
                                                "detail": detail}}},
    }


#: The shapes whose quick test is generated into scoring/_checks.py (compiled with the scoring core).
GENERATED = {"score_request": score_request}


def checks_source() -> str:
    return module_source({name: make() for name, make in GENERATED.items()}, "scoring/contract.py")


if __name__ == "__main__":  # python -m scoring.contract: write scoring/_checks.py
    from pathlib import Path

    (Path(__file__).with_name("_checks.py")).write_text(checks_source(), encoding="utf-8")
