"""The wire shapes of events, declared from the services' and the league's own constants: web/openapi.py
takes them for the document, and services/events.py checks an event's settings with the check
scoring/schema.py derives from the same declaration."""
from __future__ import annotations

from league.seating import MODES
from scoring.contract import Schema

METHODS = ("balanced", "random")
MAX_ROUNDS = 100

SEATING: Schema = {"type": "string", "enum": list(METHODS), "x-refusal": {"enum": ["impossible", "choice"]}}
MODE: Schema = {"type": "string", "enum": list(MODES), "x-refusal": {"enum": ["impossible", "choice"]}}
ROUNDS_PLANNED: Schema = {"type": "integer", "minimum": 0, "maximum": MAX_ROUNDS, "x-refusal": {"*": ["impossible", "range"]}}


def settings(seating: Schema = SEATING, mode: Schema = MODE, rounds_planned: Schema = ROUNDS_PLANNED) -> Schema:
    """An event's settings (each optional: what is not given keeps its value); null changes none."""
    return {"type": ["object", "null"], "additionalProperties": False,
            "properties": {"seating": seating, "mode": mode, "rounds_planned": rounds_planned},
            "x-refusal": {"type:object": ["malformed", "event_settings"],
                          "additionalProperties": ["malformed", "unknown_setting"]}}
