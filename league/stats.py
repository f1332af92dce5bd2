"""Players' statistics over the hands of one game or many. Pure functions over table JSON.

Counted per player, over the hands they sat in (a chombo's re-deal and an "end" are not hands):

- ``win_rate``: hands won / hands. ``deal_in_rate``: hands in which they discarded a winning
  tile / hands (a double ron is one deal-in). ``riichi_rate``: hands with their riichi / hands.
- ``tsumo_share``: wins by tsumo / wins.
- ``average_win``: the mean value of their winning hands, in points as the hand is worth (the
  "points" of the winner record: without honba and riichi sticks, so hands compare).
- ``average_deal_in``: the mean value of the hands they dealt into (both hands of a double ron).
- ``draws``, ``tenpai_at_draw``: exhaustive draws they sat in, and how many of those they were
  tenpai (``tenpai_rate`` the share).
- ``yaku``: where a win was scored from tiles (the tile picker, a photo, the live camera), how
  often each yaku came in those wins: ``{"riichi": 2, ...}`` with ``scored_wins`` the number of
  wins with tiles.

Rates are fractions (0..1) rounded to 4 places, or ``None`` where there is nothing to divide.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

HAND_RESULTS = ("ron", "tsumo", "draw", "abort")


def _blank() -> dict[str, Any]:
    return {"hands": 0, "wins": 0, "tsumo_wins": 0, "deal_ins": 0, "riichi": 0, "draws": 0, "tenpai_at_draw": 0,
            "win_points": 0, "deal_in_points": 0, "scored_wins": 0, "yaku": {}}


def _add_hand(acc: dict[int, dict[str, Any]], key_of_seat: Callable[[int], int | None], hand: Mapping[str, Any]) -> None:
    if hand.get("result") not in HAND_RESULTS:
        return
    seats = {s: key_of_seat(s) for s in range(4)}
    for seat, key in seats.items():
        if key is None:
            continue
        a = acc.setdefault(key, _blank())
        a["hands"] += 1
        if seat in (hand.get("riichi") or []):
            a["riichi"] += 1
        if hand["result"] == "draw":
            a["draws"] += 1
            if seat in (hand.get("tenpai") or []):
                a["tenpai_at_draw"] += 1
    winners = hand.get("winners") or []
    for w in winners:
        key = seats[w["seat"]]
        if key is None:
            continue
        a = acc[key]
        a["wins"] += 1
        a["win_points"] += w.get("points", 0)
        if hand["result"] == "tsumo":
            a["tsumo_wins"] += 1
        if "yaku" in w:
            a["scored_wins"] += 1
            for y in w["yaku"]:
                a["yaku"][y["id"]] = a["yaku"].get(y["id"], 0) + 1
    if hand["result"] == "ron":
        frm = hand.get("from_seat")
        key = seats.get(frm) if isinstance(frm, int) else None
        if key is not None:
            acc[key]["deal_ins"] += 1
            acc[key]["deal_in_points"] += sum(w.get("points", 0) for w in winners)


def _rate(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def _mean(a: int, b: int) -> int | None:
    return round(a / b) if b else None


def summarise(a: dict[str, Any]) -> dict[str, Any]:
    return {
        "hands": a["hands"], "wins": a["wins"], "deal_ins": a["deal_ins"], "riichi": a["riichi"],
        "tsumo_wins": a["tsumo_wins"], "draws": a["draws"], "tenpai_at_draw": a["tenpai_at_draw"],
        "win_rate": _rate(a["wins"], a["hands"]), "deal_in_rate": _rate(a["deal_ins"], a["hands"]),
        "riichi_rate": _rate(a["riichi"], a["hands"]), "tsumo_share": _rate(a["tsumo_wins"], a["wins"]),
        "average_win": _mean(a["win_points"], a["wins"]), "average_deal_in": _mean(a["deal_in_points"], a["deal_ins"]),
        "tenpai_rate": _rate(a["tenpai_at_draw"], a["draws"]),
        "scored_wins": a["scored_wins"], "yaku": dict(sorted(a["yaku"].items(), key=lambda kv: (-kv[1], kv[0]))),
    }


def game_stats(game: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Statistics of each seat (0-3) over one game's hands."""
    acc: dict[int, dict[str, Any]] = {}
    for hand in game.get("hands", []):
        _add_hand(acc, lambda s: s, hand)
    return [summarise(acc.get(s, _blank())) for s in range(4)]


def game_tally(game: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    """The counts of one game's hands for each event player at it (``entrants`` maps seats to
    players; substitutes are left out): what :func:`event_stats` adds up over the games."""
    acc: dict[int, dict[str, Any]] = {}
    entrants = game.get("entrants") or [None] * 4
    for hand in game.get("hands", []):
        _add_hand(acc, entrants.__getitem__, hand)
    return acc


def event_stats(players: int, games: Iterable[Mapping[str, Any]],
                tally: Callable[[Mapping[str, Any]], dict[int, dict[str, Any]]] = game_tally) -> list[dict[str, Any]]:
    """Statistics of each event player over every game they sat in (``entrants`` maps seats to
    players; substitutes are left out). Excluded games are left out too. ``tally`` gives a game's
    counts (:func:`game_tally`; a caller may keep them per game, so a new hand recounts one game)."""
    acc: dict[int, dict[str, Any]] = {}
    for game in games:
        if game.get("excluded"):
            continue
        for key, counts in tally(game).items():
            a = acc.setdefault(key, _blank())
            for name, value in counts.items():
                if name == "yaku":
                    for y, n in value.items():
                        a["yaku"][y] = a["yaku"].get(y, 0) + n
                else:
                    a[name] += value
    return [summarise(acc.get(p, _blank())) for p in range(players)]
