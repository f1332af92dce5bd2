"""What polling an event costs, on a league-sized event in a temporary SQLite database: a full
read after a change (every game's JSON, standings, statistics computed), the same read by the next
phone (served from the process's cache of the last document) and a 304 (nothing changed).

    .venv/bin/python -m bench.bench_events --games 60 --hands 12

Prints requests/second of each and their ratio; compare ratios from one run, not between machines.
"""
import argparse
import random
import tempfile
import time

from app import create_app


def build(client, games: int, hands: int, players: int = 16) -> dict:
    names = [f"Player {i + 1}" for i in range(players)]
    ev = client.post("/api/events", json={"name": "bench league", "players": names}).get_json()
    auth = {"Authorization": f"Bearer {ev['organiser_token']}"}
    rng = random.Random(1)
    version = ev["version"]  # If-Match on the event's version, moved on by each game opened
    for _ in range(games):
        seats = rng.sample(range(players), 4)
        doc = client.post(f"/api/events/{ev['id']}/games", json={"players": seats},
                          headers={**auth, "If-Match": f'"{version}"'}).get_json()
        g, version = doc["new_games"][0], doc["version"]
        for n in range(hands):
            if n % 3 == 2:
                body = {"result": "draw", "tenpai": [n % 4]}
            else:
                frm, win = rng.sample(range(4), 2)
                body = {"result": "ron", "from_seat": frm, "winners": [{"seat": win, "value": {"han": 1 + n % 4, "fu": 30}}]}
            resp = client.post(f"/api/tables/{g['id']}/hands", json=body, headers={**auth, "If-Match": f'"{n + 1}"'})
            assert resp.status_code == 200, resp.get_json()
            if resp.get_json()["state"]["finished"]:
                break
        else:
            client.post(f"/api/tables/{g['id']}/hands", json={"result": "end"}, headers={**auth, "If-Match": f'"{hands + 1}"'})
    return ev


def rate(fn, seconds: float) -> float:
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn()
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3", "RATE_LIMITS": {}})  # games in bulk
        client = app.test_client()
        ev = build(client, args.games, args.hands)
        first = client.get(f"/api/events/{ev['id']}")
        etag = first.headers["ETag"]
        size = len(first.data)

        events = app.extensions["events"]

        def full():
            events._cache.clear()  # as after a hand at one of the tables
            assert client.get(f"/api/events/{ev['id']}").status_code == 200

        def cached():
            assert client.get(f"/api/events/{ev['id']}").status_code == 200

        def unchanged():
            assert client.get(f"/api/events/{ev['id']}", headers={"If-None-Match": etag}).status_code == 304

        full_rate = rate(full, args.seconds)
        cached_rate = rate(cached, args.seconds)
        poll_rate = rate(unchanged, args.seconds)
        print(f"event of {args.games} games: {size / 1024:.0f} KB of JSON")
        print(f"full read    {full_rate:8.1f} /s")
        print(f"cached read  {cached_rate:8.1f} /s   ({cached_rate / full_rate:.1f}x the full read)")
        print(f"304 poll     {poll_rate:8.1f} /s   ({poll_rate / full_rate:.1f}x the full read)")
        app.extensions["database"].dispose()


if __name__ == "__main__":
    main()
