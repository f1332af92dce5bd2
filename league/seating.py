"""Seating for a round of an event: which players share a table, and who sits out. Pure functions.

Players are numbers (0..n-1, or the list of those present). A round is a list of tables, each a list of four seats (seat 0 is
first East; a seat holds a player's number, or ``None`` for a substitute) and a list of byes.

When n is not a multiple of 4 the organiser chooses: ``byes`` (n mod 4 players sit out, those with
the fewest byes so far first) or ``substitutes`` (the last table is filled with substitutes, who
play but are not ranked).

``random_round`` draws tables at random. ``balanced_round`` keeps players from meeting the same
opponents again: it searches for the grouping with the fewest repeat meetings (each earlier
meeting of a pair at the same table costs the square of how often they met, so one pair meeting
three times is worse than three pairs meeting twice), by random starts and improving swaps.
Within a table the seats and winds are always a fresh random draw.

>>> import random
>>> rounds = []
>>> for _ in range(4):
...     rounds.append(balanced_round(16, rounds, random.Random(len(rounds)), planned=4))
>>> repeat_meetings(rounds)
0
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from scoring.errors import Refusal

MODES = ("byes", "substitutes")


class SeatingError(Refusal):
    """A round that cannot be seated."""


def meetings(rounds: Sequence[dict[str, Any]]) -> dict[tuple[int, int], int]:
    """How often each pair of players has shared a table."""
    met: dict[tuple[int, int], int] = {}
    for rnd in rounds:
        for table in rnd["tables"]:
            people = sorted(p for p in table if p is not None)
            for pair in combinations(people, 2):
                met[pair] = met.get(pair, 0) + 1
    return met


def repeat_meetings(rounds: Sequence[dict[str, Any]]) -> int:
    """Meetings beyond the first of every pair: 0 when nobody meets an opponent twice."""
    return sum(c - 1 for c in meetings(rounds).values() if c > 1)


def _sitting(who: int | Sequence[int], rounds: Sequence[dict[str, Any]], mode: str, rng: random.Random) -> tuple[list[int], list[int]]:
    """Who plays this round and who sits out. ``who`` is a number of players (0..n-1) or a list
    of the players present."""
    people = list(range(who)) if isinstance(who, int) else list(who)
    n = len(people)
    if n < 3 or (n < 4 and mode == "byes"):
        raise SeatingError("players", "impossible", "round_players", count=n)
    if mode not in MODES:
        raise SeatingError("mode", "impossible", "choice", choices=", ".join(MODES))
    rng.shuffle(people)
    if mode == "substitutes" or n % 4 == 0:
        return people, []
    byes_so_far = {p: 0 for p in people}
    for rnd in rounds:
        for p in rnd.get("byes", []):
            if p in byes_so_far:
                byes_so_far[p] += 1
    people.sort(key=lambda p: -byes_so_far[p])  # those with fewest byes last; random among equals
    out = n % 4
    return people[: n - out], sorted(people[n - out:])


#: One table of a round: four seats, each an event player or None (an empty seat).
Table = list[int | None]
#: How often each pair (lower player first) has met.
Met = dict[tuple[int, int], int]


def _tables(people: list[int]) -> list[Table]:
    padded: list[int | None] = list(people) + [None] * (-len(people) % 4)
    return [padded[i:i + 4] for i in range(0, len(padded), 4)]


def _draw_seats(tables: list[Table], rng: random.Random) -> list[Table]:
    out = []
    for t in tables:
        t = list(t)
        rng.shuffle(t)
        out.append(t)
    return out


def random_round(n: int | Sequence[int], rounds: Sequence[dict[str, Any]] = (), rng: random.Random | None = None, mode: str = "byes") -> dict[str, Any]:
    rng = rng or random.SystemRandom()
    people, byes = _sitting(n, rounds, mode, rng)
    return {"tables": _draw_seats(_tables(people), rng), "byes": byes}


def _weight(met: Met, p: int | None, q: int | None) -> int:
    if p is None or q is None:
        return 0
    return met.get((p, q) if p < q else (q, p), 0) ** 2


def _cost(tables: list[Table], met: Met) -> int:
    total = 0
    for t in tables:
        for i in range(4):
            for j in range(i + 1, 4):
                total += _weight(met, t[i], t[j])
    return total


class _Budget:
    """How many swaps a search may still try: bounds the work of one request, whatever the
    number of players, and keeps a seeded search repeatable (unlike a time limit)."""

    def __init__(self, swaps: int):
        self.left = swaps

    def spend(self, n: int = 1) -> bool:
        self.left -= n
        return self.left > 0


def _grouping(people: list[int], met: Met, rng: random.Random, budget: _Budget) -> tuple[list[Table], int]:
    """One local optimum: a random grouping improved by swapping players between tables.
    Each swap is judged by what it changes at its two tables only."""
    people = list(people)
    rng.shuffle(people)
    tables = _tables(people)
    cost = _cost(tables, met)
    improved = True
    while improved and cost and budget.left > 0:
        improved = False
        for a, b in combinations(range(len(tables)), 2):
            ta, tb = tables[a], tables[b]
            for i in range(4):
                for j in range(4):
                    x, y = ta[i], tb[j]
                    if x is None and y is None:
                        continue
                    delta = 0
                    for k in range(4):
                        if k != i:
                            delta += _weight(met, y, ta[k]) - _weight(met, x, ta[k])
                        if k != j:
                            delta += _weight(met, x, tb[k]) - _weight(met, y, tb[k])
                    if delta < 0:
                        ta[i], tb[j] = y, x
                        cost += delta
                        improved = True
            if not budget.spend(16):
                return tables, cost
    return tables, cost


def _best_grouping(people: list[int], met: Met, rng: random.Random, starts: int, budget: _Budget) -> tuple[list[Table], int]:
    """The best of ``starts`` local optima (at least one), stopping early at no repeat or no budget."""
    best, best_cost = _grouping(people, met, rng, budget)
    for _ in range(starts - 1):
        if best_cost == 0 or budget.left <= 0:
            break
        tables, cost = _grouping(people, met, rng, budget)
        if cost < best_cost:
            best, best_cost = tables, cost
    return best, best_cost


#: swaps one balanced round may try (about a second of work on one core)
SEARCH_BUDGET = 150_000


def balanced_round(n: int | Sequence[int], rounds: Sequence[dict[str, Any]] = (), rng: random.Random | None = None, mode: str = "byes",
                   planned: int = 0, starts: int = 30, budget: int = SEARCH_BUDGET) -> dict[str, Any]:
    """The round with the fewest repeat meetings. With ``planned`` rounds in all, it also looks
    ahead: among good groupings for this round it takes one that leaves later rounds free of
    repeats too (a greedy choice round by round can paint itself into a corner). The search is
    bounded (``budget`` swaps tried), so a large event gets a good seating, not always the best."""
    rng = rng or random.SystemRandom()
    rounds = list(rounds)
    met = meetings(rounds)
    people, byes = _sitting(n, rounds, mode, rng)
    ahead = max(0, min(planned - len(rounds) - 1, 4))
    spend = _Budget(budget)
    best: list[Table] = []
    best_score: int | None = None
    floor = repeat_meetings(rounds)
    for _ in range(40 if ahead else 1):
        tables, cost = _best_grouping(people, met, rng, starts, spend)
        score = cost
        if ahead:
            future = rounds + [{"tables": tables, "byes": byes}]
            for _ in range(ahead):
                more, _ = _best_grouping(_sitting(n, future, mode, rng)[0], meetings(future), rng, 10, spend)
                future.append({"tables": more, "byes": []})
            score = repeat_meetings(future)
        if best_score is None or score < best_score:
            best, best_score = tables, score
        if best_score == floor or spend.left <= 0:
            break
    return {"tables": _draw_seats(best, rng), "byes": byes}


def seat_round(method: str, n: int | Sequence[int], rounds: Sequence[dict[str, Any]] = (), rng: random.Random | None = None,
               mode: str = "byes", planned: int = 0) -> dict[str, Any]:
    if method == "random":
        return random_round(n, rounds, rng, mode)
    if method == "balanced":
        return balanced_round(n, rounds, rng, mode, planned)
    raise SeatingError("method", "impossible", "choice", choices="random, balanced")
