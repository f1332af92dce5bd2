"""Events (a club night, a league season): the standings over many games. Pure functions.

An event has a list of players (names, numbered from 0) and games. Each game is a table's JSON
(``players``, ``state``, ``hands``) with ``entrants``: the event player sitting at each seat, or
``None`` for a substitute. A substitute plays and is scored normally at the table, and is left out
of the ranking (WRR 7.2, "Substitute players are scored normally and then not included in the
ranking").

A player's total is the sum of the finals of their finished games (points - return points + uma
+ oka - penalties, in thousands: WRR's "overall score is the sum of each session scores"). Games
the organiser excluded, and games not finished, do not count. Equal totals are broken as the
rule set's ``ranking_tie_break`` says.

>>> g = {"entrants": [0, 1, 2, 3], "excluded": False, "state": {"finished": True, "standings": [
...     {"seat": 0, "place": 1, "final": 30}, {"seat": 1, "place": 2, "final": 5},
...     {"seat": 2, "place": 2, "final": 5}, {"seat": 3, "place": 4, "final": -40}]}}
>>> [(r["name"], r["rank"], r["total"]) for r in standings("shared", ["A", "B", "C", "D"], [g])["rows"]]
[('A', 1, 30), ('B', 2, 5), ('C', 2, 5), ('D', 4, -40)]
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def counts(game: Mapping[str, Any]) -> bool:
    """Whether a game counts in the standings: finished and not excluded."""
    return bool(game.get("state", {}).get("finished")) and not game.get("excluded")


def _num(x: float) -> float:
    x = round(x, 1)
    return int(x) if x == int(x) else x


def results_by_player(game: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    """Event player -> {"place", "final", "seat"} for one finished game (substitutes left out)."""
    out = {}
    entrants = game.get("entrants") or []
    for row in game["state"].get("standings", []):
        who = entrants[row["seat"]] if row["seat"] < len(entrants) else None
        if who is not None:
            out[who] = {"place": row["place"], "final": row["final"], "seat": row["seat"]}
    return out


def _tie_key(rule: str, row: dict[str, Any]) -> tuple[float, ...]:
    if rule == "placements":
        return (row["total"], *row["places"][:3])
    return (row["total"],)


def standings(tie_break: str, players: Sequence[str], games: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Rows sorted by rank, and each player's running total after each counted game.

    ``rows``: player, name, rank (None before a first counted game), total, games, average_place,
    places (1st..4th counts).
    ``progress``: one entry per counted game, in order: ``{"game": id, "totals": [per player]}``.
    """
    n = len(players)
    totals = [0.0] * n
    played = [0] * n
    places = [[0, 0, 0, 0] for _ in range(n)]
    place_sum = [0] * n
    progress: list[dict[str, Any]] = []
    for game in games:
        if not counts(game):
            continue
        for who, res in results_by_player(game).items():
            totals[who] += res["final"]
            played[who] += 1
            places[who][res["place"] - 1] += 1
            place_sum[who] += res["place"]
        progress.append({"game": game.get("id"), "totals": [_num(t) for t in totals]})
    rows: list[dict[str, Any]] = [{"player": i, "name": players[i], "total": _num(totals[i]), "games": played[i],
             "average_place": round(place_sum[i] / played[i], 2) if played[i] else None,
             "places": places[i]} for i in range(n)]

    def key(r: dict[str, Any]) -> tuple[float, ...]:
        return _tie_key(tie_break, r)

    ranked = [r for r in rows if r["games"]]
    for r in rows:  # a player with no counted game yet has no rank and is listed last
        r["rank"] = 1 + sum(1 for o in ranked if key(o) > key(r)) if r["games"] else None
    rows.sort(key=lambda r: (r["rank"] is None, r["rank"] or 0, r["name"].lower(), r["player"]))
    return {"rows": rows, "progress": progress, "tie_break": tie_break}


def score_lines(game: Mapping[str, Any], start_points: int) -> list[list[int]]:
    """Each seat's score before the first hand and after every hand: a game's chart."""
    lines = [[start_points] for _ in range(4)]
    for hand in game.get("hands", []):
        for seat in range(4):
            lines[seat].append(hand["scores_after"][seat])
    return lines
