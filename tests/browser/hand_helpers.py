"""Helpers for the browser tests of entering and scoring a hand: the sample hand, scoring it
through the API, a fixed answer of the photo recogniser and an upload to trigger it, the hand
check's state, and the phone-layout check (no horizontal scrolling, 44 px controls)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from playwright.sync_api import expect

from .conftest import unlabelled_controls

HAND = "234m067p345s11z555z"


def score_api(page, live_server, **req) -> dict:
    return page.request.post(f"{live_server}/api/score", data=json.dumps(req),
                             headers={"Content-Type": "application/json"}).json()


def fake_recognition(tiles: list[str], rows: list[list[int]], melds=(), confidence=None, sideways=()) -> dict:
    confidence = confidence or {}
    return {
        "tiles": [{"tile": t, "box": [10 + 40 * i, 20 + 60 * r, 46 + 40 * i, 68 + 60 * r], "confidence": confidence.get(i, 0.97),
                   "sideways": i in sideways, "face_down": t == "back", "alternatives": [],
                   "unsure": confidence.get(i, 0.97) < 0.8}  # as the reader flags them (recognition.hand.UNSURE)
                  for r, row in enumerate(rows) for i, t in ((i, tiles[i]) for i in row)],
        "rows": rows,
        "proposal": {"hand": "", "melds": list(melds), "win_tile": None, "complete": False, "changed": [],
                     "uncertain": [i for i, c in confidence.items() if c < 0.8],
                     "message": "the tiles do not form a complete hand: please check the highlighted ones"},
        "image_size": [620, 160], "message": "",
    }


def serve_recognition(page, answer: dict):
    page.route("**/api/recognize", lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(answer)))


def upload(page):
    page.set_input_files('[data-testid="photo-input"]', files=[{"name": "hand.jpg", "mimeType": "image/png", "buffer": TINY_PNG}])
    page.locator('[data-testid="detections"]').wait_for()


def _png(width: int = 8, height: int = 4) -> bytes:
    """A small grey PNG, built here so the test needs no image file."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + b"\x80\x80\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


TINY_PNG = _png()


def check_state(page) -> str:
    banner = page.locator('[data-testid="hand-check"] .banner')
    expect(banner).not_to_have_attribute("data-state", "checking")
    return banner.get_attribute("data-state")


DEV_PHOTOS = Path(os.environ.get("TENBOU_SHARED", Path(__file__).resolve().parents[3] / "shared")) / "data" / "dev-photos"


def assert_phone_layout(page):
    """No horizontal scrolling, and every visible control is at least 44 px in both directions,
    except the tiles of the hand being entered: one row of 14 small tiles is as wide as a 360 px
    phone allows (the row's width over 14), so those are held to 44 px in height only."""
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    short = page.evaluate("""() => [...document.querySelectorAll('.hand-row .hand-tile, .meld .remove')]
        .filter((el) => el.offsetParent !== null && el.getBoundingClientRect().height < 43.5)
        .map((el) => el.getAttribute('aria-label'))""")
    assert short == []
    small = page.evaluate("""() => [...document.querySelectorAll('button, a.btn, select, input[type=text], .seg label, .chip, .tabbar a, summary')]
        .filter((el) => el.offsetParent !== null && !el.closest('.hand-row'))
        .map((el) => [el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30), el.getBoundingClientRect()])
        .filter(([, r]) => r.width > 0 && (r.width < 43.5 || r.height < 43.5))
        .map(([n, r]) => `${n}: ${Math.round(r.width)}x${Math.round(r.height)}`)""")
    assert small == []
    assert unlabelled_controls(page) == []


def recognize_available(page, live_server) -> str | None:
    """None when POST /api/recognize is served, else the reason to skip."""
    resp = page.request.post(f"{live_server}/api/recognize", multipart={"image": {"name": "x.jpg", "mimeType": "image/jpeg", "buffer": b"not an image"}})
    if resp.status in (404, 405, 501, 503):
        try:
            said = resp.json()["error"]["message"]
        except Exception:
            said = resp.status_text
        return f"POST /api/recognize answers {resp.status} ({said}): recognition has not landed on this server yet"
    return None


def mode(page, target: str) -> str:
    return f'.hand-editor .modes input[value="{target}"]'


def enter_busy_hand(page):
    """A hand with everything per-hand set: tsumo, riichi, ippatsu, haitei, 2 honba, a dora and an ura."""
    page.locator('input[name="win"][value="tsumo"]').check()
    page.locator('input[name="riichi"]').check()
    page.locator('input[name="ippatsu"]').check()
    page.locator('input[name="last_tile"]').check()
    page.click('[aria-label="Honba: one more"]')
    page.click('[aria-label="Honba: one more"]')
    page.click('[aria-label="Riichi sticks: one more"]')
    page.click('[aria-label="Dora in hand: one more"]')
    page.click('[aria-label="Dora in hand: one more"]')
    page.locator(".picker").scroll_into_view_if_needed()
    for code in [c + s for s, digits in (("m", "234"), ("p", "067"), ("s", "345"), ("z", "11555")) for c in digits]:
        page.click(f'.picker [data-tile="{code}"]')
    page.locator(mode(page, "dora")).check()
    page.click('.picker [data-tile="4z"]')
    page.locator(mode(page, "ura")).check()
    page.click('.picker [data-tile="9m"]')
