"""The wire shapes of scoring, declared once as JSON Schema built from the domain's own constants.

web/openapi.py takes these for the OpenAPI document, so an enum there is the tuple the engine
checks against (rule sets, meld types, winds, kinds of refusal, detail ids), never a copy;
tests/test_contract.py checks the engine refuses as malformed exactly what breaks these enums."""
from __future__ import annotations

from typing import Any

from .engine import MAX_DORA_COUNT, MELD_TYPES
from .errors import DETAILS, KINDS
from .rules import PRESETS
from .tiles import WIND_NAMES

Schema = dict[str, Any]

RULESET: Schema = {"type": "string", "enum": list(PRESETS), "default": "wrr"}
WIND: Schema = {"type": "string", "enum": list(WIND_NAMES)}
WIN: Schema = {"type": "string", "enum": ["ron", "tsumo"], "default": "ron"}
TILES: Schema = {"type": "string", "maxLength": 64, "pattern": "^(?:[0-9]+[mps]|[1-7]+z)*$",
                 "description": "mpsz notation: 123m406p55z (0 = red five; 1z-7z = E S W N haku hatsu chun)",
                 "examples": ["234m067p345s11z555z"]}
TILE: Schema = {"type": "string", "pattern": "^(?:[0-9][mps]|[1-7]z)$"}
FLAGS = ("riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "chankan_ankan",
         "tenhou", "chiihou", "renhou")

MELD: Schema = {"type": "object", "required": ["type", "tiles"],
                "properties": {"type": {"type": "string", "enum": list(MELD_TYPES)}, "tiles": TILES}}


def score_request(meld: Schema = MELD) -> Schema:
    """POST /api/score's body (``meld`` may be given as a reference by the document)."""
    return {
        "type": "object", "required": ["hand"],
        "properties": {
            "ruleset": RULESET,
            "rules": {"type": "object", "description": "overrides of rule parameters (GET /api/rulesets lists them)"},
            "hand": TILES, "melds": {"type": "array", "items": meld, "maxItems": 4},
            "win_tile": TILE, "win": WIN,
            "seat_wind": WIND, "round_wind": WIND,
            **{flag: {"type": "boolean", "default": False} for flag in FLAGS},
            "dora_indicators": TILES, "ura_indicators": TILES,
            "dora_count": {"type": "integer", "minimum": 0, "maximum": MAX_DORA_COUNT, "default": 0,
                           "description": "dora han the player counted, added to any from indicators and red fives "
                                          "(dora never make a hand without yaku score)"},
            "honba": {"type": "integer", "minimum": 0}, "riichi_sticks": {"type": "integer", "minimum": 0},
            "compare": {"type": "array", "items": RULESET},
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
