"""What a player asks beyond one score: the waits of a tenpai hand, and rule sets side by side."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .contract import MAX_COMPARE
from .engine import evaluate, parse_request
from .errors import ScoringError
from .hand import is_complete
from .rules import PRESETS, Ruleset, get_ruleset
from .tiles import Tile, parse_tiles, to_notation

TSUMO_ONLY = ("haitei", "rinshan", "tenhou", "chiihou")
RON_ONLY = ("houtei", "chankan", "renhou")


def _summary(result: dict[str, Any]) -> dict[str, Any]:
    keys = ("han", "fu", "yakuman", "limit", "kazoe", "points", "payments", "total", "wait")
    out = {k: result[k] for k in keys}
    out["yaku"] = [{"id": y["id"], "han": y["han"]} for y in result["yaku"]]
    return out


def _try(payload: Mapping[str, Any], rules: Ruleset) -> dict[str, Any]:
    try:
        return evaluate(parse_request(payload, rules))
    except ScoringError as err:
        return {"error": err.to_dict()}


def _outcome(result: dict[str, Any]) -> tuple[Any, ...]:
    if "error" in result:
        return ("error", result["error"]["message"])
    return (result["han"], result["fu"], result["yakuman"], result["points"], result["total"])


def compare(payload: Mapping[str, Any], ids: Any) -> list[dict[str, Any]]:
    """The hand's value under each named rule set, and the rules that make each differ from the first."""
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        raise ScoringError("compare", "malformed", "compare_list")
    if len(ids) > MAX_COMPARE:
        raise ScoringError("compare", "impossible", "compare_too_many", max=MAX_COMPARE)
    ids = list(dict.fromkeys(ids))  # each rule set once, in the order first asked
    overrides = payload.get("rules")
    base_rules = get_ruleset(payload.get("ruleset", "wrr"), overrides)
    base_result = _try(payload, base_rules)
    base_outcome = _outcome(base_result)
    rows = []
    for rid in ids:
        rules = get_ruleset(rid, overrides) if rid in PRESETS else None
        if rules is None:
            raise ScoringError("compare", "impossible", "compare_unknown", name=rid)
        result = _try(payload, rules)
        row = {"ruleset": rid, "title": rules.title}
        row.update(result if "error" in result else _summary(result))
        if _outcome(result) != base_outcome:
            row["differs_by"] = _differences(payload, base_rules, rules, base_outcome)
        else:
            row["differs_by"] = []
        rows.append(row)
    return rows


def _differences(payload: Mapping[str, Any], base: Ruleset, other: Ruleset, base_outcome: tuple[Any, ...]) -> list[dict[str, Any]]:
    """The parameters that, changed alone from ``base`` to ``other``, change this hand's value."""
    found = []
    for f in Ruleset.parameters():
        a, b = getattr(base, f.name), getattr(other, f.name)
        if a == b:
            continue
        variant = dataclasses.replace(base, **{f.name: b})
        if _outcome(_try(payload, variant)) != base_outcome:
            found.append({"parameter": f.name, "label": f.metadata["label"],
                          base.id: list(a) if isinstance(a, tuple) else a,
                          other.id: list(b) if isinstance(b, tuple) else b})
    return found


def waits(payload: Any) -> dict[str, Any]:
    """For a 13-tile hand (plus melds): each tile that completes it, worth what on ron and tsumo."""
    if not isinstance(payload, Mapping):
        raise ScoringError(None, "malformed", "request_object")
    if "hand" not in payload:
        raise ScoringError("hand", "malformed", "hand_missing")
    rules = get_ruleset(payload.get("ruleset", "wrr"), payload.get("rules"))
    hand = parse_tiles(payload["hand"], "hand")
    melds = payload.get("melds") or []
    if not isinstance(melds, list):
        raise ScoringError("melds", "malformed", "melds_list")
    expected = 13 - 3 * len(melds)
    if len(hand) != expected:
        raise ScoringError("hand", "impossible", "wait_tile_count", count=len(hand), expected=expected, melds=len(melds))
    discards = parse_tiles(payload.get("discards") or "", "discards")
    base = {k: v for k, v in payload.items() if k not in ("win_tile", "win", "discards", "compare")}

    # Tenpai counts only the player's own hand and calls (WRR "tenpai" 2, EMA 3.4.2, General laws,
    # Saikouisen 52.6): a wait whose copies are all in the indicators or discards is still a wait.
    own = [0] * 34
    concealed = [0] * 34
    for t in hand:
        own[t.index] += 1
        concealed[t.index] += 1
    for m in melds:
        if isinstance(m, Mapping) and isinstance(m.get("tiles"), str):
            for t in parse_tiles(m["tiles"], "melds"):
                own[t.index] += 1
    shown = [0] * 34
    for name in ("dora_indicators", "ura_indicators"):
        if isinstance(payload.get(name), str):
            for t in parse_tiles(payload[name], name):
                shown[t.index] += 1

    entries: list[dict[str, Any]] = []
    real_waits = 0
    for index in range(34):
        concealed[index] += 1
        completes = concealed[index] <= 4 and is_complete(tuple(concealed), 4 - len(melds))
        concealed[index] -= 1
        if not completes:
            continue
        tile = Tile(index)
        if own[index] >= 4:
            entries.append({"tile": tile.code, "index": index, "ron": None, "tsumo": None,
                            "reason": "all four copies are already in your hand and melds: this is not a wait",
                            "reason_id": "all_held"})
            continue
        real_waits += 1
        if own[index] + shown[index] >= 4:
            entries.append({"tile": tile.code, "index": index, "ron": None, "tsumo": None,
                            "reason": "the copies you do not hold are all in the indicators: the hand is tenpai "
                                      "on it, but it cannot be won with it", "reason_id": "in_indicators"})
            continue
        probe = dict(base, hand=to_notation(hand) + tile.code, win_tile=tile.code)
        tsumo = _try({k: v for k, v in probe.items() if k not in RON_ONLY} | {"win": "tsumo"}, rules)
        ron = _try({k: v for k, v in probe.items() if k not in TSUMO_ONLY} | {"win": "ron"}, rules)
        entries.append({"tile": tile.code, "index": index, "ron": _wait_value(ron), "tsumo": _wait_value(tsumo)})

    waiting = {e.pop("index") for e in entries}
    furiten = sorted({t.code for t in discards if t.index in waiting})
    if furiten:
        for e in entries:
            if e["ron"] is not None:
                e["ron"] = {"error": {"field": "discards", "message": f"furiten: you discarded {', '.join(furiten)}; win by tsumo only"}}
    return {
        "ruleset": rules.id,
        "hand": to_notation(hand),
        "tenpai": real_waits > 0,
        "furiten": bool(furiten),
        "waits": entries,
    }


def _wait_value(result: dict[str, Any]) -> dict[str, Any]:
    if "error" in result:
        return {"error": result["error"]}
    return _summary(result)
