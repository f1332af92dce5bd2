"""The wire shape of a table's hand, declared from the ledger's own constants (web/openapi.py
takes it for the OpenAPI document)."""
from __future__ import annotations

from scoring.contract import Schema
from scoring.rules import ABORTIVE_DRAWS

from .ledger import MAX_PENALTIES, MAX_PENALTY, MAX_REASON, RESULTS

SEAT: Schema = {"type": "integer", "minimum": 0, "maximum": 3}
SEATS: Schema = {"type": "array", "items": SEAT, "maxItems": 4}


def hand(winner: Schema, description: str) -> Schema:
    return {"type": "object", "required": ["result"], "description": description,
            "properties": {
                "result": {"type": "string", "enum": list(RESULTS)},
                "from_seat": SEAT, "winners": {"type": "array", "items": winner, "minItems": 1, "maxItems": 3},
                "winner": winner, "riichi": SEATS, "tenpai": SEATS, "nagashi": SEATS,
                "kind": {"type": "string", "enum": list(ABORTIVE_DRAWS)},
                "seat": SEAT, "continue_game": {"type": "boolean"},
                "penalties": {"type": "array", "maxItems": MAX_PENALTIES, "items": {
                    "type": "object", "required": ["seat", "points"],
                    "properties": {"seat": SEAT, "points": {"type": "integer", "minimum": 100, "maximum": MAX_PENALTY, "multipleOf": 100},
                                   "reason": {"type": "string", "maxLength": MAX_REASON}}}}}}

