"""What checking a score request against its declared schema costs, as a share of scoring it.

    .venv/bin/python -m bench.bench_contract [--hands 5000] [--preset tenhou] [--seed 1] [--repeat 7]

The same distinct random hands (tests/random_hands.py) as bench_scoring, in one process: the time
of ``scoring.score`` per hand (the baseline, which includes the check) against the time of the
check alone: the compiled quick test (scoring/_checks.py, what a valid request costs) and the full
check that names the field (what a refused request costs on top). Chunks alternate so both see the
same machine load; the best of ``--repeat`` passes is kept. Never used by tests (timings vary).
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import scoring  # noqa: E402
from random_hands import random_deals  # noqa: E402
from scoring.contract import score_request  # noqa: E402
from scoring.engine import quick_score_request  # noqa: E402
from scoring.errors import ScoringError  # noqa: E402
from scoring.schema import validator  # noqa: E402
from scoring.tiles import parse_tiles  # noqa: E402

CHUNK = 250


def _timed(fn: Callable[[Any], Any], chunk: list) -> float:
    t0 = time.perf_counter()
    for payload in chunk:
        try:
            fn(payload)
        except ScoringError:
            pass
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--preset", default="tenhou")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    payloads = [d.payload(args.preset) for d in random_deals(args.seed, args.hands)]
    full = validator(score_request(), ScoringError, explain={"mpsz": parse_tiles}, quick=lambda v: False)  # always the full check
    engines = {"score": scoring.score, "quick check": quick_score_request, "full check": lambda p: full(p, "")}
    best = dict.fromkeys(engines, float("inf"))
    gc.disable()
    try:
        for _ in range(args.repeat):
            spent = dict.fromkeys(engines, 0.0)
            for n, start in enumerate(range(0, len(payloads), CHUNK)):
                chunk = payloads[start:start + CHUNK]
                names = list(engines) if n % 2 == 0 else list(reversed(engines))
                for name in names:
                    spent[name] += _timed(engines[name], chunk)
            best = {name: min(best[name], spent[name]) for name in engines}
    finally:
        gc.enable()
    n = len(payloads)
    print(f"{n} distinct hands, preset {args.preset}; scoring core: {'compiled (mypyc)' if scoring.NATIVE else 'pure Python'}")
    for name, seconds in best.items():
        print(f"{name:12} {seconds / n * 1e6:7.2f} us/hand   {100 * seconds / best['score']:5.1f}% of scoring a hand")


if __name__ == "__main__":
    main()
