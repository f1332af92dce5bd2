"""The offline engine's memory snapshot (static/js/core/offline-worker.js): after its first start the worker
keeps Pyodide's memory, with the engine imported, in Cache Storage; after a reload it restores that
instead of booting CPython and importing the packages again. A restored engine must answer exactly
as the server does (scores, waits, refusals, a table's board), offline; a snapshot that is damaged or
left by other source must be dropped, the engine started the ordinary way and a new one kept.
No timings are asserted: bench/bench_offline_start.py measures the start."""
from __future__ import annotations

import json

from .conftest import new_phone
from .offline_helpers import needs_pyodide, prepare_offline

#: Hands the server and the phone both answer: wins of different shapes and rule sets, a refusal.
SCORES = [
    {"ruleset": "wrr", "hand": "234m067p345s11z555z", "win_tile": "5z", "win": "tsumo", "seat_wind": "south", "riichi": True},
    {"ruleset": "wrr", "hand": "234m067p345s11z555z", "win_tile": "5z", "win": "ron", "seat_wind": "south", "round_wind": "east",
     "riichi": True, "dora_indicators": "1z", "ura_indicators": "4m", "honba": 1, "riichi_sticks": 1},
    {"ruleset": "tenhou", "hand": "19m19p19s1234567z7z", "win_tile": "7z", "win": "ron", "seat_wind": "east"},
    {"ruleset": "ema", "hand": "22334455667788p", "win_tile": "8p", "win": "tsumo", "seat_wind": "west"},
    {"ruleset": "wrr", "hand": "234m067p345s11z55z", "win_tile": "5z", "win": "tsumo", "seat_wind": "south"},   # 13 tiles: refused
]
WAITS = {"ruleset": "tenhou", "hand": "2345666m234p567s", "seat_wind": "south", "riichi": True}

ASK = """async ({ scores, waits }) => {
  const offline = await import("/static/js/core/offline.js");
  const answer = (p) => p.then((result) => ({ result }), (err) => ({ status: err.status, error: err.body && err.body.error || err.error || String(err) }));
  const out = { scores: [] };
  for (const request of scores) out.scores.push(await answer(offline.scoreOffline(request)));
  out.waits = await answer(offline.waitsOffline(waits));
  out.engine = await offline.offlineEngine().call("timings");
  return out;
}"""
KEPT = """async () => {
  const cache = await caches.open("engine-snapshots");
  return (await cache.keys()).map((r) => new URL(r.url).pathname);
}"""
DAMAGE = """async () => {
  const cache = await caches.open("engine-snapshots");
  const [key] = await cache.keys();
  const old = await cache.match(key);
  // the same key and headers, other bytes: what a half-written or corrupted entry would look like
  const headers = { "Content-Type": "application/octet-stream", "X-Engine-Check": old.headers.get("X-Engine-Check"),
                    "X-Engine-Digest": old.headers.get("X-Engine-Digest") };
  await cache.put(key, new Response(new Uint8Array(4096).fill(7), { headers }));
  return new URL(key.url).pathname;
}"""


def server_answers(page, live_server) -> dict:
    def post(path, body):
        resp = page.request.post(f"{live_server}{path}", data=json.dumps(body), headers={"Content-Type": "application/json"})
        return {"result": resp.json()} if resp.ok else {"status": resp.status, "error": resp.json()["error"]}
    return {"scores": [post("/api/score", r) for r in SCORES], "waits": post("/api/waits", WAITS)}


def offline_answers(page) -> dict:
    # an engine that never answers fails the test rather than hanging it
    got = page.evaluate(f"""(args) => Promise.race([({ASK})(args),
        new Promise((resolve) => setTimeout(() => resolve("no answer in 120 s"), 120000))])""", {"scores": SCORES, "waits": WAITS})
    assert isinstance(got, dict), got
    return got


def same_as_server(got: dict, expected: dict):
    for mine, theirs in zip(got["scores"], expected["scores"], strict=True):
        if "result" in theirs:
            assert mine == theirs
        else:   # a refusal: the same status, field and code as the API's
            assert mine["status"] == theirs["status"]
            assert {k: mine["error"][k] for k in ("field", "code")} == {k: theirs["error"][k] for k in ("field", "code")}
    assert got["waits"] == expected["waits"]


def wait_kept(page) -> str:
    """The key the worker kept its snapshot under, once kept (in the background after its start)."""
    stored = None
    for _ in range(300):
        stored = page.evaluate("""async () => (await (await import("/static/js/core/offline.js")).offlineEngine().call("timings")).stored""")
        if stored:
            break
        page.wait_for_timeout(200)
    assert page.evaluate(KEPT) == [stored]   # the one snapshot: any other one was dropped
    return stored


def test_a_reloaded_engine_restores_its_snapshot_and_scores_like_the_server(browser, live_server):
    needs_pyodide()
    context, console = new_phone(browser, live_server)
    console.allow_offline()
    page = context.new_page()
    page.goto("/#/score")
    # a snapshot another version of the engine left: replaced, not kept beside the new one
    page.evaluate("""async () => (await caches.open("engine-snapshots")).put("/engine-snapshot/0.0.0/stale", new Response("old"))""")
    expected = server_answers(page, live_server)
    prepare_offline(page)
    key = wait_kept(page)
    assert key.startswith("/engine-snapshot/")
    booted = offline_answers(page)
    assert booted["engine"]["snapshot"].startswith("made")
    same_as_server(booted, expected)

    # offline, after a reload: the engine comes back from the snapshot and answers as the server did
    context.set_offline(True)
    page.reload()
    page.locator(".picker").wait_for()
    restored = offline_answers(page)
    assert restored["engine"]["snapshot"] == "restored"
    same_as_server(restored, expected)
    board = page.evaluate("""async () => (await import("/static/js/core/offline.js")).projectOffline(
        { ruleset: "tenhou", players: ["A", "B", "C", "D"] }, [])""")
    assert board is not None

    # a damaged snapshot: dropped, the engine booted as on the first start, the answers the same,
    # and a good snapshot kept again for the next reload
    page.evaluate(DAMAGE)
    page.reload()
    page.locator(".picker").wait_for()
    fallback = offline_answers(page)
    assert fallback["engine"]["snapshot"] == "made (failed: the snapshot is damaged)"
    same_as_server(fallback, expected)
    assert wait_kept(page) == key
    page.reload()
    page.locator(".picker").wait_for()
    again = offline_answers(page)
    assert again["engine"]["snapshot"] == "restored"
    same_as_server(again, expected)
    context.close()
    assert console.unexpected() == []


def test_a_snapshot_of_other_source_is_not_restored(browser, live_server):
    """The key carries a hash of the Python source and the worker's glue: a snapshot under another
    key (the engine before an update) is never restored, whatever it holds."""
    needs_pyodide()
    context, console = new_phone(browser, live_server)
    page = context.new_page()
    prepare_offline(page)
    key = wait_kept(page)
    # move the good snapshot to another key, as if the source had changed since it was made
    page.evaluate(f"""async () => {{ const c = await caches.open("engine-snapshots"); const r = await c.match({json.dumps(key)});
        await c.put("/engine-snapshot/0.29.5/000000000000000000000000", r); await c.delete({json.dumps(key)}); }}""")
    page.reload()
    page.locator(".picker").wait_for()
    got = offline_answers(page)
    assert got["engine"]["snapshot"].startswith("made")
    same_as_server(got, server_answers(page, live_server))
    assert wait_kept(page) == key
    context.close()
    assert console.unexpected() == []
