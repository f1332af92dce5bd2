"""Tenbou's rules engine: score riichi hands under any rule set. Pure Python, no Flask.

>>> r = score({"ruleset": "wrr", "hand": "234m067p345s11z555z", "win_tile": "5z", "win": "ron",
...            "seat_wind": "south", "round_wind": "east"})
>>> r["han"], r["fu"], r["points"]
(1, 40, 1300)
"""
from __future__ import annotations

from typing import Any

from . import _native

#: True when the compiled build of the hot path is in use (see scoring/_native.py).
NATIVE = _native.activate(__path__)

from .analysis import compare, waits  # noqa: E402  (after choosing compiled or pure modules)
from .engine import evaluate, parse_request  # noqa: E402
from .errors import NotationError, ScoringError  # noqa: E402
from .rules import PRESETS, Ruleset, get_ruleset  # noqa: E402
from .tiles import TILE_CODES, Tile, parse_tiles, to_notation  # noqa: E402
from .yaku import BY_ID  # noqa: E402

__all__ = [
    "NATIVE", "score", "waits", "compare", "rulesets", "yaku_list", "ScoringError", "NotationError", "Ruleset",
    "PRESETS", "get_ruleset", "Tile", "TILE_CODES", "parse_tiles", "to_notation",
]


def score(payload: Any) -> dict[str, Any]:
    """Score a winning hand (the JSON contract of POST /api/score)."""
    result = evaluate(parse_request(payload))
    if isinstance(payload, dict) and payload.get("compare") is not None:
        result["compare"] = compare(payload, payload["compare"])
    return result


def yaku_list() -> list[dict[str, Any]]:
    """Every yaku id the engine can report, with its han closed / open (None: closed only)."""
    out = [{"id": y.id, "name": y.name, "han_closed": y.han_closed, "han_open": y.han_open, "yakuman": y.yakuman}
           for y in BY_ID.values()]
    out += [{"id": "dora", "name": "Dora", "han_closed": 1, "han_open": 1, "yakuman": False},
            {"id": "aka_dora", "name": "Red fives (aka dora)", "han_closed": 1, "han_open": 1, "yakuman": False},
            {"id": "ura_dora", "name": "Ura dora", "han_closed": 1, "han_open": None, "yakuman": False}]
    return out


def rulesets() -> dict[str, Any]:
    """Every preset with every parameter, and the yaku list (GET /api/rulesets)."""
    return {"rulesets": [r.describe() for r in PRESETS.values()], "yaku": yaku_list()}
