"""What one write costs on a table of 10, 100 and 1,000 hands (the write that makes it that long, its
correction and its undo), through the app (test client, a
temporary SQLite database): recording a hand, undoing it, and correcting the last hand. A write
keeps the table's board with its log and replays only from the hand it changes, so the cost should
not grow with the hands. For comparison, the same run times a full replay of the table's hands
(what every write cost before the board was kept).

    .venv/bin/python -m bench.bench_table_writes --repeat 60

Prints milliseconds (wall and CPU) per write at each size and their ratio to the 10-hand table;
compare ratios from one run, not between machines.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from app import create_app
from game.board import board
from scoring.rules import get_ruleset

SIZES = (10, 100, 1000)
HAND = {"result": "draw", "tenpai": [0, 1, 2, 3]}  # the dealer stays and no points move: a game that never ends


def timed(fn, *args, **kwargs) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn(*args, **kwargs)
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def send(fn, url: str, headers: dict, **kwargs):
    """One write as the phone makes it: If-Match on the version it last saw, moved on by the answer."""
    resp = fn(url, headers=headers, **kwargs)
    assert resp.status_code == 200, resp.get_json()
    headers["If-Match"] = resp.headers["ETag"]
    return resp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=60, help="writes of each kind timed at each size")
    args = parser.parse_args()
    rules = get_ruleset("wrr")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3"})
        client = app.test_client()
        for size in SIZES:
            t = client.post("/api/tables", json={"ruleset": "wrr", "players": ["A", "B", "C", "D"]}).get_json()
            auth = {"Authorization": f"Bearer {t['edit_token']}", "If-Match": f'"{t["version"]}"'}
            url = f"/api/tables/{t['id']}"
            for _ in range(size - 1):  # each add below makes the table `size` hands long (the cap is 1,000)
                send(client.post, f"{url}/hands", auth, json=HAND)
            add, undo, fix = [], [], []
            for _ in range(args.repeat):
                add.append(timed(send, client.post, f"{url}/hands", auth, json=HAND))
                fix.append(timed(send, client.put, f"{url}/hands/{size - 1}", auth, json=HAND))
                undo.append(timed(send, client.delete, f"{url}/hands/last", auth))
            assert len(client.get(url).get_json()["hands"]) == size - 1  # every write above was taken
            hands = [HAND] * size
            replay = [timed(board, rules, hands) for _ in range(max(5, args.repeat // 6))]
            rows.append((size, *(statistics.median(x[i] for x in xs) for xs in (add, undo, fix, replay) for i in (0, 1))))
        app.extensions["database"].dispose()
    base = rows[0]
    print(f"{'hands':>6} {'add ms':>8} {'(cpu)':>7} {'undo ms':>8} {'(cpu)':>7} {'fix ms':>8} {'(cpu)':>7} "
          f"{'full replay ms':>15} {'(cpu)':>7}   cpu ratio to 10 hands: add / undo / fix / replay")
    for r in rows:
        print(f"{r[0]:>6} {r[1]:8.2f} {r[2]:7.2f} {r[3]:8.2f} {r[4]:7.2f} {r[5]:8.2f} {r[6]:7.2f} {r[7]:15.2f} {r[8]:7.2f}"
              f"   {r[2] / base[2]:.2f} / {r[4] / base[4]:.2f} / {r[6] / base[6]:.2f} / {r[8] / base[8]:.1f}")


if __name__ == "__main__":
    main()
