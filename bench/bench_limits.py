"""What the rate limits cost on the commonest request, a table read (in process, Flask's test client).

    .venv/bin/python -m bench.bench_limits                    # every strategy, memory store
    .venv/bin/python -m bench.bench_limits --rounds 12 --requests 500

Each round times the same reads on an app without limits and on one with the default limits,
alternating, so both see the same machine load; it prints the best time of each and their ratio.
Clients rotate over many addresses, as a busy club's would, so no read is refused.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time

from app import create_app

STRATEGIES = ("sliding-window-counter", "moving-window", "fixed-window")


def _app(tmp: str, name: str, config: dict):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{os.path.join(tmp, name)}.sqlite3", **config})
    client = app.test_client()
    table = client.post("/api/tables", json={"ruleset": "wrr", "players": ["a", "b", "c", "d"]}).get_json()
    return app, client, table["id"]


def measure(strategy: str, rounds: int, requests: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        apps = {False: _app(tmp, "off", {"RATE_LIMITS": {}}), True: _app(tmp, "on", {"RATE_LIMIT_STRATEGY": strategy})}
        best = {False: float("inf"), True: float("inf")}
        n = 0
        for _ in range(rounds):
            for limited in (False, True):
                _, client, table_id = apps[limited]
                start = time.perf_counter()
                for _ in range(requests):
                    n += 1
                    resp = client.get(f"/api/tables/{table_id}", environ_base={"REMOTE_ADDR": f"10.{n // 300 % 250}.{n // 75000}.1"})
                    assert resp.status_code == 200, resp.status_code
                best[limited] = min(best[limited], (time.perf_counter() - start) / requests)
        for app, _, _ in apps.values():
            app.extensions["database"].dispose()
    return best[False], best[True]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--strategy", choices=STRATEGIES, action="append")
    args = parser.parse_args()
    for strategy in args.strategy or STRATEGIES:
        off, on = measure(strategy, args.rounds, args.requests)
        print(f"{strategy:24s} table read without limits {off * 1e6:6.0f} us, with them {on * 1e6:6.0f} us, "
              f"ratio {on / off:.2f}")


if __name__ == "__main__":
    main()
