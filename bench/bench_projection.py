"""Cost of the offline board: ``game.board.project`` (the last table JSON plus the hands not yet
sent) against its baseline, one ``game.ledger.replay`` of the same table (what the server does
for every write).

    .venv/bin/python -m bench.bench_projection [--hands 40] [--queued 4] [--repeat 50]

The table is a random legal game of the given length under each preset (tests/test_ledger.py's
strategy), sent as the server serves it; the projection reads the hands back from their records,
applies the queued ones and replays once. Prints milliseconds per call and the ratio to the
baseline. On the phone the same code runs in Pyodide (several times slower than CPython): the
browser test tests/browser/test_browser_offline_board.py logs the time from Record to the board
in test-artifacts/offline-board.json. Never used by tests (timings vary by machine).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from game.board import board, project  # noqa: E402
from game.ledger import LedgerError, apply_hand, new_state, replay  # noqa: E402
from scoring.rules import PRESETS, get_ruleset  # noqa: E402


def random_game(rules, length: int, rng: random.Random) -> list:
    """A legal log of han/fu wins and draws, as long as the game lasts (at most ``length``)."""
    state, log = new_state(rules), []
    while len(log) < length and not state.finished:
        kind = rng.choice(["ron", "tsumo", "draw"])
        seat, other = rng.sample(range(4), 2)
        value = {"han": rng.randint(1, 2), "fu": rng.choice([30, 40])}
        hand = ({"result": "ron", "from_seat": other, "winners": [{"seat": seat, "value": value}]} if kind == "ron" else
                {"result": "tsumo", "winner": {"seat": seat, "value": value}} if kind == "tsumo" else
                {"result": "draw", "tenpai": sorted(rng.sample(range(4), rng.randint(0, 4)))})
        try:
            state, _ = apply_hand(rules, state, hand)
        except LedgerError:
            continue
        log.append(hand)
    return log


def per_call(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - started) / repeat)
    return best * 1000


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--queued", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"{'preset':12} {'hands':>5} {'queued':>6} {'replay ms':>10} {'project ms':>10} {'ratio':>6}")
    for preset in PRESETS:
        rules = get_ruleset(preset)
        log = random_game(rules, args.hands + args.queued, rng)
        sent, queued = log[:-args.queued] if args.queued else log, log[-args.queued:] if args.queued else []
        table = {"id": "bench", "players": ["A", "B", "C", "D"], "rules": {}, "version": len(sent) + 1, **board(rules, sent)}
        changes = [{"op": "add", "body": h} for h in queued]
        assert project(table, changes)["table"]["state"] == board(rules, log)["state"]
        base = per_call(lambda rules=rules, log=log: replay(rules, log), args.repeat)
        proj = per_call(lambda table=table, changes=changes: project(table, changes), args.repeat)
        print(f"{preset:12} {len(sent):5d} {len(queued):6d} {base:10.2f} {proj:10.2f} {proj / base:6.2f}")


if __name__ == "__main__":
    main()
