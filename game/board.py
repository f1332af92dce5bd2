"""A table's board from its list of changes: what the server stores and serves, and what a phone
projects offline from the last board it saw plus the hands it has not sent yet.

Pure functions (no Flask, no SQL): the server (services/tables.py) and the phone (Pyodide in
static/js/core/offline-worker.js, from /offline/scoring.zip) fold the same changes through the same
:func:`game.ledger.replay`, so the board a phone shows offline is the one the server will store.

A change is ``{"op": "add", "body": hand}``, ``{"op": "replace", "index": n, "body": hand}`` or
``{"op": "undo"}`` (the table log's ``hand_index`` is accepted for ``index``).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from game.ledger import LedgerError, clean_hand, replay, state_dict
from scoring.errors import ScoringError
from scoring.rules import Ruleset, get_ruleset

OPS = ("add", "replace", "undo")


def change_hands(hands: Sequence[Any], change: Mapping[str, Any]) -> list[Any]:
    """The hand list after one change (a new list; ``hands`` is left as it is)."""
    if not isinstance(change, Mapping) or change.get("op") not in OPS:
        raise LedgerError("op", "malformed", "change_op", ops=', '.join(OPS))
    op = change["op"]
    if op == "add":
        return list(hands) + [change.get("body")]
    if op == "undo":
        if not hands:
            raise LedgerError("hands", "impossible", "nothing_to_undo")
        return list(hands)[:-1]
    index = change.get("index", change.get("hand_index"))
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(hands):
        raise LedgerError("index", "not_found", "no_such_hand", index=index, count=len(hands))
    return list(hands[:index]) + [change.get("body")] + list(hands[index + 1:])


def fold(changes: Iterable[Mapping[str, Any]]) -> list[Any]:
    """The current list of hands from a table's whole log of changes, oldest first. Entries of the
    log that do not change the hands (``next``: the next game was started) are passed over."""
    hands: list[Any] = []
    for change in changes:
        if change.get("op") in OPS:
            hands = change_hands(hands, change)
    return hands


def board(rules: Ruleset, hands: Sequence[Any]) -> dict[str, Any]:
    """The board of the table JSON for these hands: rule set, ``state`` (scores, round, honba,
    sticks, penalties, standings when finished) and ``hands`` (each hand's record)."""
    state, records = replay(rules, hands)
    return {"ruleset": rules.id, "ruleset_title": rules.title, "state": state_dict(rules, state), "hands": records}


def hands_of(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The hands as they were sent, read back from their records in the table JSON.

    A record is the hand's own fields plus what the table worked out (payments, deltas, the
    winners' values...): keeping only the documented input fields gives the hand back, so a phone
    holding the table JSON can replay it.
    """
    return [clean_hand(r, strict=False) for r in records]


def project(table: Mapping[str, Any], changes: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The table JSON ``table`` (as GET /api/tables/<id> serves it) after ``changes`` not yet sent.

    Returns ``{"table": <table JSON with the projected state and hands>, "applied": n, "unsent": [...],
    "error": null}``: ``unsent`` lists the indices of the history rows the changes added or replaced.
    A change the ledger refuses stops the projection there: ``applied`` counts the changes in it and
    ``error`` says what is wrong (``{"change": k, "field", "message", "code", "detail"}`` and ``"hand"``
    when the refusal is about a hand already in the log). A table whose own
    records cannot be replayed is given back as it is, with ``"change": null`` in the error.
    """
    if not isinstance(table, Mapping):
        raise LedgerError("table", "malformed", "table_json")
    try:
        rules = get_ruleset(table.get("ruleset", "wrr"), table.get("rules") or {})
    except ScoringError as err:
        raise err.moved(LedgerError, f"table.{err.field}" if err.field else "table") from None
    hands = hands_of(table.get("hands") or [])
    base = len(hands)
    changes = list(changes or [])
    # the usual case, every change accepted: one replay of the whole list
    try:
        final = hands
        for change in changes:
            final = change_hands(final, change)
        doc: dict[str, Any] = {**table, **board(rules, final)}
        return {"table": doc, "applied": len(changes), "unsent": _unsent(base, changes), "sent_hands": base, "error": None}
    except LedgerError:
        pass
    # one of them is refused (or the table's own records are): find which, one change at a time
    try:
        shown = board(rules, hands)
    except LedgerError as err:  # a record the ledger cannot replay: the phone keeps the table as it is
        return {"table": dict(table), "applied": 0, "unsent": [], "sent_hands": base,
                "error": {"change": None, **err.to_dict()}}
    applied, error = 0, None
    for k, change in enumerate(changes):
        try:
            new_hands = change_hands(hands, change)
            new_board = board(rules, new_hands)
        except LedgerError as err:
            error = {"change": k, **err.to_dict()}
            break
        hands, shown, applied = new_hands, new_board, k + 1
    doc = {**table, **shown}
    return {"table": doc, "applied": applied, "unsent": _unsent(base, changes[:applied]), "sent_hands": base, "error": error}


def _unsent(count: int, changes: Sequence[Mapping[str, Any]]) -> list[int]:
    """The history rows that ``changes`` (all accepted) add or replace, of a table of ``count`` hands."""
    rows: set[int] = set()
    for change in changes:
        op = change.get("op")
        if op == "add":
            rows.add(count)
            count += 1
        elif op == "replace":
            rows.add(change.get("index", change.get("hand_index")))
        else:
            count -= 1
            rows.discard(count)
    return sorted(i for i in rows if i < count)
