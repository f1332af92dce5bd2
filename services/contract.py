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
#: The round a "seat the round" request means (the next one, as the organiser's phone shows it): a
#: tap sent again after its answer was lost finds that round seated, and seats no second one.
ROUND: Schema = {"type": "integer", "minimum": 1, "maximum": MAX_ROUNDS}


def settings(seating: Schema = SEATING, mode: Schema = MODE, rounds_planned: Schema = ROUNDS_PLANNED) -> Schema:
    """An event's settings (each optional: what is not given keeps its value); null changes none."""
    return {"type": ["object", "null"], "additionalProperties": False,
            "properties": {"seating": seating, "mode": mode, "rounds_planned": rounds_planned},
            "x-refusal": {"type:object": ["malformed", "event_settings"],
                          "additionalProperties": ["malformed", "unknown_setting"]}}
