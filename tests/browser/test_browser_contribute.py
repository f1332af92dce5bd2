"""Sharing a corrected photo from the photo screen, seeing it listed, and deleting it, on a phone."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from .conftest import new_phone, screenshot, unlabelled_controls
from .hand_helpers import DEV_PHOTOS, recognize_available

TALL_PHONE = {"width": 360, "height": 740}


@pytest.fixture
def tall_phone(browser, live_server):
    context, console = new_phone(browser, live_server, viewport=TALL_PHONE)
    page = context.new_page()
    yield page, console
    context.close()
    assert console.unexpected() == [], "console errors"


def stored(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))


def test_share_a_corrected_photo_then_delete_it(tall_phone, live_server, contributions_dir):
    page, console = tall_phone
    page.goto("/#/photo")
    reason = recognize_available(page, live_server)
    if reason:
        pytest.skip(reason)
    photo = DEV_PHOTOS / "IMG_3085.jpg"
    if not photo.exists():
        pytest.skip(f"the development photos are not at {DEV_PHOTOS}")
    before = stored(contributions_dir)

    toggle = page.locator('[data-testid="contribute-toggle"]')
    assert not toggle.is_checked(), "off by default"
    assert page.locator('[data-testid="contribute-send"]').count() == 0
    toggle.check()
    page.reload()
    assert page.locator('[data-testid="contribute-toggle"]').is_checked(), "the choice is remembered on the phone"

    with page.expect_response("**/api/recognize") as recognised:
        page.set_input_files('[data-testid="photo-input"]', str(photo))
    res = recognised.value.json()
    found = page.locator('[data-testid="detections"] button')
    found.first.wait_for(timeout=60_000)
    # correct the first tile in reading order to chun
    first = int(found.first.get_attribute("data-det"))
    found.first.click()
    page.click('dialog [data-fix="7z"]')
    assert found.first.get_attribute("data-tile-now") == "7z"
    assert unlabelled_controls(page) == []

    with page.expect_response("**/api/contributions") as posted:
        page.click('[data-testid="contribute-send"]')
    assert posted.value.status == 201
    item = page.locator('[data-testid="contributions"] li')
    item.first.wait_for()
    assert item.count() == 1
    assert "tiles" in item.first.inner_text()
    assert page.locator('[data-testid="contribute-send"]').is_disabled()
    page.locator('[data-testid="contribute"]').scroll_into_view_if_needed()
    screenshot(page, "photo-shared")

    # the server has the photo and the tiles as corrected, in the photo's pixels
    cid = item.first.get_attribute("data-id")
    assert stored(contributions_dir) == sorted(before + [f"{cid}.jpg", f"{cid}.json"])
    record = json.loads((contributions_dir / f"{cid}.json").read_text())
    kept = [i for i, t in enumerate(res["tiles"]) if not (t["face_down"] or t["tile"] == "back")]
    assert len(record["boxes"]) == len(kept)
    want = [round(v, 1) for v in res["tiles"][first]["box"]]
    assert {"tile": "7z", "box": want} in record["boxes"]
    assert [record["width"], record["height"]] == res["image_size"]
    with Image.open(contributions_dir / f"{cid}.jpg") as im:
        assert list(im.size) == res["image_size"] and not im.getexif()
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('tenbou.contributions'))")
    assert [e["id"] for e in saved] == [cid] and saved[0]["token"]

    # the list survives a reload; delete it from there
    page.reload()
    item = page.locator('[data-testid="contributions"] li')
    item.first.wait_for()
    with page.expect_response(lambda r: "/api/contributions/" in r.url and r.request.method == "DELETE") as deleted:
        item.first.get_by_role("button", name="Delete").click()
    assert deleted.value.status == 204
    page.locator('[data-testid="contributions"]').wait_for(state="detached")
    assert stored(contributions_dir) == before
    gone = page.request.get(f"{live_server}/api/contributions/{cid}", headers={"Authorization": f"Bearer {saved[0]['token']}"})
    assert gone.status == 404
    assert page.evaluate("() => JSON.parse(localStorage.getItem('tenbou.contributions'))") == []


def test_scoring_a_photo_shares_it_when_chosen(tall_phone, live_server, contributions_dir):
    page, console = tall_phone
    console.allow(422)  # the score screen may say why the hand read from the photo cannot be scored
    page.goto("/#/photo")
    reason = recognize_available(page, live_server)
    if reason:
        pytest.skip(reason)
    photo = DEV_PHOTOS / "IMG_3085.jpg"
    if not photo.exists():
        pytest.skip(f"the development photos are not at {DEV_PHOTOS}")
    before = stored(contributions_dir)
    page.locator('[data-testid="contribute-toggle"]').check()
    page.set_input_files('[data-testid="photo-input"]', str(photo))
    page.locator('[data-testid="detections"] button').first.wait_for(timeout=60_000)
    page.check('input[name="photo-win"][value="tsumo"]')   # asked for every photo before scoring
    page.check('input[name="photo-seat"][value="east"]')
    with page.expect_response("**/api/contributions") as posted:
        page.click('[data-testid="photo-score"]')
    assert posted.value.status == 201
    cid = posted.value.json()["id"]
    page.wait_for_function("(id) => (JSON.parse(localStorage.getItem('tenbou.contributions')) || []).some((e) => e.id === id)", arg=cid)
    assert f"{cid}.json" in stored(contributions_dir)
    # turned off, scoring the next photo shares nothing
    page.goto("/#/photo")
    page.locator('[data-testid="contribute-toggle"]').uncheck()
    page.set_input_files('[data-testid="photo-input"]', str(photo))
    page.locator('[data-testid="detections"] button').first.wait_for(timeout=60_000)
    page.check('input[name="photo-win"][value="tsumo"]')
    page.check('input[name="photo-seat"][value="east"]')
    page.click('[data-testid="photo-score"]')
    page.wait_for_url("**/#/score")
    page.wait_for_timeout(500)
    assert len(stored(contributions_dir)) == len(before) + 2
