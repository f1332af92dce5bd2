"""What a phone's poll of an event costs after one hand, at 4, 40 and 200 tables: the bytes and
time of GET /api/events/<key>/changes?since=<tag> (what static/js/events/events.js polls), against the
whole document (what every phone fetched after each hand before), in a temporary SQLite database
through the app. Also: the 304 when nothing changed, and the time to add one game to the event.

    .venv/bin/python -m bench.bench_event_polls --hands 4

Each size's figures are given with their ratio to the 4-table event of the same run; compare ratios
from one run, not between machines.
"""
from __future__ import annotations

import argparse
import gzip
import statistics
import tempfile
import time

from app import create_app


def edit(client, game: dict) -> dict:
    """A game's edit token and If-Match on its table's version now, as a phone that has read it sends."""
    version = client.get(f"/api/tables/{game['id']}").get_json()["version"]
    return {"Authorization": f"Bearer {game['edit_token']}", "If-Match": f'"{version}"'}

SIZES = (4, 40, 200)


def build(client, tables: int, hands: int) -> tuple[dict, list]:
    players = min(200, 4 * tables)
    ev = client.post("/api/events", json={"name": "bench", "players": [f"Player {i:03d}" for i in range(players)]}).get_json()
    auth = {"Authorization": f"Bearer {ev['organiser_token']}"}
    games: list = []
    while len(games) < tables:
        games += client.post(f"/api/events/{ev['id']}/rounds", json={}, headers=auth).get_json()["new_games"]
    for n, g in enumerate(games):
        for k in range(hands):
            body = ({"result": "ron", "from_seat": (n + k + 1) % 4, "winners": [{"seat": (n + k) % 4, "value": {"han": 1 + k % 3, "fu": 30}}]}
                    if k % 2 == 0 else {"result": "draw", "tenpai": [k % 4]})
            assert client.post(f"/api/tables/{g['id']}/hands", json=body, headers=edit(client, g)).status_code == 200
    return ev, games


def ms(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return (time.perf_counter() - start) * 1000, out


def measure(tables: int, hands: int, repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3", "RATE_LIMITS": {}})  # games in bulk
        client = app.test_client()
        ev, games = build(client, tables, hands)
        url = f"/api/events/{ev['id']}"
        out: dict = {"tables": tables, "delta_ms": [], "full_ms": [], "again_ms": [], "delta_bytes": 0, "full_bytes": 0,
                     "full_gzip": 0, "delta_gzip": 0, "not_modified_ms": [], "add_game_ms": []}
        tag = client.get(url).get_json()["tag"]
        for k in range(repeat):
            g = games[(k * 7) % len(games)]
            body = {"result": "draw", "tenpai": [k % 4]}
            assert client.post(f"/api/tables/{g['id']}/hands", json=body, headers=edit(client, g)).status_code == 200
            t, resp = ms(client.get, f"{url}/changes?since={tag}")      # the first phone after the hand
            out["delta_ms"].append(t)
            out["delta_bytes"], out["delta_gzip"] = len(resp.data), len(gzip.compress(resp.data))
            t, _ = ms(client.get, f"{url}/changes?since={tag}")          # the next phones
            out["again_ms"].append(t)
            new_tag = resp.get_json()["tag"]
            t, _ = ms(client.get, f"{url}/changes?since={new_tag}")      # nothing changed since: 304
            out["not_modified_ms"].append(t)
            app.extensions["events"]._cache.clear()                               # the whole document, computed afresh
            t, full = ms(client.get, url)
            out["full_ms"].append(t)
            out["full_bytes"], out["full_gzip"] = len(full.data), len(gzip.compress(full.data))
            tag = new_tag
        auth = {"Authorization": f"Bearer {ev['organiser_token']}"}
        version = client.get(url).get_json()["version"]  # If-Match on the event's version, moved on by each game opened
        for _ in range(max(3, repeat // 3)):
            t, resp = ms(client.post, f"{url}/games", json={"players": [0, 1, 2, 3]}, headers={**auth, "If-Match": f'"{version}"'})
            assert resp.status_code == 201
            out["add_game_ms"].append(t)
            version = resp.get_json()["version"]
        app.extensions["database"].dispose()
    return {k: statistics.median(v) if isinstance(v, list) else v for k, v in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=4, help="hands recorded at each table before measuring")
    parser.add_argument("--repeat", type=int, default=12)
    args = parser.parse_args()
    rows = [measure(n, args.hands, args.repeat) for n in SIZES]
    base = rows[0]
    print(f"{'tables':>6} {'poll KB':>8} {'(gzip)':>7} {'poll ms':>8} {'next ms':>8} {'304 ms':>7} | {'whole KB':>9} {'(gzip)':>7} "
          f"{'whole ms':>9} | {'add game ms':>11} | ratios to 4 tables: poll ms, whole ms, add game ms")
    for r in rows:
        print(f"{r['tables']:>6} {r['delta_bytes'] / 1024:8.2f} {r['delta_gzip'] / 1024:7.2f} {r['delta_ms']:8.2f} {r['again_ms']:8.2f} "
              f"{r['not_modified_ms']:7.2f} | {r['full_bytes'] / 1024:9.1f} {r['full_gzip'] / 1024:7.1f} {r['full_ms']:9.1f} | "
              f"{r['add_game_ms']:11.1f} | {r['delta_ms'] / base['delta_ms']:.2f}, {r['full_ms'] / base['full_ms']:.2f}, "
              f"{r['add_game_ms'] / base['add_game_ms']:.2f}")


if __name__ == "__main__":
    main()
