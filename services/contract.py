"""The wire shapes of events, declared from the services' and the league's own constants."""
from __future__ import annotations

from league.seating import MODES
from scoring.contract import Schema
from services.events import MAX_ROUNDS, METHODS

SEATING: Schema = {"type": "string", "enum": list(METHODS)}
MODE: Schema = {"type": "string", "enum": list(MODES)}
ROUNDS_PLANNED: Schema = {"type": "integer", "minimum": 0, "maximum": MAX_ROUNDS}
