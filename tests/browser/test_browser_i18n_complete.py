"""No English left in Japanese: with the phone in Japanese, every screen is walked (score with its
result card, photo, waits, tables list with house rules, a table with hands and the record sheet for
each kind of result, its history and standings, events, the camera's error state) and each visible
text, button label, placeholder, aria-label, title and alt is checked against the English catalogue.

Also: the two catalogues have the same keys and the same {placeholders}."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import new_phone, screenshot
from .hand_helpers import HAND, fake_recognition, serve_recognition, upload

STATIC = Path(__file__).resolve().parents[2] / "static"
EN = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
JA = json.loads((STATIC / "i18n" / "ja.json").read_text(encoding="utf-8"))
PLAYERS = ["佐藤", "鈴木", "高橋", "田中"]      # typed by the test: never English
# universal tokens a Japanese screen may show: the app's name, mpsz notation, file formats
UNIVERSAL = {"Tenbou", "mpsz", "CSV", "JSON"}

PLACEHOLDER = re.compile(r"\{\w+\}")


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_catalogues_have_the_same_keys_and_placeholders():
    assert sorted(set(EN) - set(JA)) == [], "keys missing in ja.json"
    assert sorted(set(JA) - set(EN)) == [], "keys missing in en.json"
    differ = {k: (EN[k], JA[k]) for k in EN if placeholders(EN[k]) != placeholders(JA[k])}
    assert differ == {}


def english_fragments() -> list[tuple[str, re.Pattern]]:
    """The English catalogue's words, as patterns: each value split at its {placeholders}; a piece
    with at least three letters that is not the same in Japanese is looked for as whole words."""
    out, seen = [], set()
    for key, value in EN.items():
        if value == JA.get(key):
            continue
        for piece in PLACEHOLDER.split(value):
            piece = piece.strip(" .,:;·—()–-/")
            if len(re.findall(r"[A-Za-z]", piece)) < 3 or piece in UNIVERSAL or piece in seen:
                continue
            seen.add(piece)
            out.append((piece, re.compile(r"(?<![A-Za-z])" + re.escape(piece) + r"(?![A-Za-z])")))
    return out


FRAGMENTS = english_fragments()

# every visible text node, and the labels a screen reader or a long press shows
VISIBLE_TEXTS = """() => {
  const out = [];
  const shown = (el) => el && el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : true;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    const el = n.parentElement;
    if (!text || !el || ["SCRIPT", "STYLE", "NOSCRIPT"].includes(el.tagName) || el.closest("#lang-toggle")) continue;
    if (el.closest("[hidden]") || !shown(el)) continue;
    out.push(["text", text, el.tagName]);
  }
  for (const el of document.body.querySelectorAll("[aria-label], [placeholder], [title], img[alt], input[type=button], input[type=submit]")) {
    if (el.closest("[hidden]") || el.closest("#lang-toggle")) continue;   // the switch names the other language in it
    for (const attr of ["aria-label", "placeholder", "title", "alt", "value"]) {
      if (attr === "value" && !["button", "submit"].includes(el.type)) continue;
      const v = (el.getAttribute(attr) || "").trim();
      if (v) out.push([attr, v, el.tagName]);
    }
  }
  return out;
}"""


def english_on(page, allowed: set[str] = frozenset()) -> list[str]:
    """The texts on the page that are, or contain, an English catalogue value."""
    found = []
    for kind, text, tag in page.evaluate(VISIBLE_TEXTS):
        if text in allowed:
            continue
        bare = text
        for token in sorted(allowed, key=len, reverse=True):   # a rule set's name or a player's, inside a sentence
            bare = bare.replace(token, " ")
        for piece, pattern in FRAGMENTS:
            if piece in allowed:
                continue
            if pattern.search(bare):
                found.append(f"{kind} <{tag}> {text!r} has {piece!r}")
                break
    return sorted(set(found))


class Walk:
    """Checks each screen as it is reached, and collects what leaked."""

    def __init__(self, page, allowed=()):
        self.page, self.allowed, self.leaks = page, set(allowed) | UNIVERSAL, {}

    def check(self, where: str):
        leaks = english_on(self.page, self.allowed)
        if leaks:
            self.leaks[where] = leaks


def test_every_screen_in_japanese_has_no_english_left(browser, live_server):
    context, console = new_phone(browser, live_server, locale="ja-JP")
    console.allow(422)
    page = context.new_page()
    rulesets = page.request.get(f"{live_server}/api/rulesets").json()["rulesets"]
    walk = Walk(page, allowed=[r["title"] for r in rulesets] + PLAYERS)

    # --- score: the first-launch question, then a hand with everything shown
    page.goto("/#/score")
    page.locator('[data-testid="first-ruleset"]').wait_for()
    walk.check("score: first launch")
    page.click('[data-first-ruleset="wrr"]')
    page.click("summary:has-text('文字で入力する')")
    page.locator("details").evaluate_all("(els) => els.forEach((d) => { d.open = true; })")
    walk.check("score: empty")
    page.fill('[data-testid="typed-tiles"]', HAND)
    page.press('[data-testid="typed-tiles"]', "Enter")
    page.locator('input[name="win"][value="tsumo"]').check()
    page.locator('input[name="riichi"]').check()
    page.click('[data-testid="dora-count"] button >> nth=1')
    for target in ("chi", "pon", "daiminkan", "ankan", "dora", "ura", "win"):
        page.locator(f'.hand-editor .modes input[value="{target}"]').check()
        walk.check(f"score: picker mode {target}")
    page.locator('.hand-editor .modes input[value="hand"]').check()
    page.locator('input[name="compare"]').check()
    page.click('[data-testid="score"]')
    card = page.locator('[data-testid="result"]')
    expect(card.locator('[data-fu="group"]').first).to_contain_text("の暗刻")
    walk.check("score: result card with fu lines")

    # --- photo: a recognised hand, a tile being corrected, the contribute card on
    serve_recognition(page, fake_recognition(["2m", "3m", "4m", "0p", "6p", "7p", "3s", "4s", "5s", "1z", "1z", "5z", "5z", "5z"],
                                             [list(range(14))], confidence={3: 0.5}))
    page.goto("/#/photo")
    page.locator('[data-testid="photo-input"]').wait_for(state="attached")
    walk.check("photo: empty")
    upload(page)
    page.locator('[data-testid="contribute-toggle"]').check()
    page.locator('[data-testid="hand-check"] .banner:not([data-state="checking"])').wait_for()
    walk.check("photo: tiles found")
    page.click('[data-testid="photo-score"]')   # ron or tsumo not chosen yet: asked
    expect(page.locator('[data-testid="photo-choice-error"]')).not_to_be_empty()
    walk.check("photo: asked for the win and seat")
    page.click('[data-testid="detections"] button[data-det="3"]')
    page.locator("dialog[open]").wait_for()
    walk.check("photo: correcting a tile")
    page.keyboard.press("Escape")

    # --- camera: no camera in this browser, so its error state
    page.goto("/#/camera")
    page.locator('[data-testid="camera-error"]').wait_for()
    walk.check("camera: error")

    # --- waits, with discards and an analysis
    page.goto("/#/waits")
    page.locator("details").evaluate_all("(els) => els.forEach((d) => { d.open = true; })")
    walk.check("waits: empty")
    page.fill('[data-testid="typed-tiles"]', "123m456p789s23m55p")
    page.press('[data-testid="typed-tiles"]', "Enter")
    page.locator('.hand-editor .modes input[value="discards"]').check()
    page.click('.picker [data-tile="4m"]')
    page.click('[data-testid="analyse"]')
    page.locator('[data-wait]').first.wait_for()
    walk.check("waits: analysed (furiten)")

    # --- tables list, with the house rules open
    page.goto("/#/tables")
    page.locator("details").evaluate_all("(els) => els.forEach((d) => { d.open = true; })")
    walk.check("tables: list and house rules")
    for i, name in enumerate(PLAYERS):
        page.fill(f'[data-testid="player-{i}"]', name)
    page.select_option('[data-testid="table-ruleset"]', "wrr")
    page.click('[data-testid="create-table"]')
    page.wait_for_url(re.compile(r"#/table/[\w-]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    # opened as from a link: the seat question
    page.evaluate("""(id) => { const all = JSON.parse(localStorage.getItem('tenbou.tables')); delete all[id].view_seat;
                          localStorage.setItem('tenbou.tables', JSON.stringify(all)); }""", table_id)
    page.reload()
    page.locator('[data-testid="seat-question"]').wait_for()
    walk.check("table: which seat")
    page.click('[data-pick-seat="0"]')

    def sheet(result: str | None):
        page.click('[data-testid="record-hand"]')
        page.locator("dialog[open]").wait_for()
        if result:
            page.check(f'dialog input[name="result"][value="{result}"]')

    def record():
        page.click('dialog [data-testid="save-hand"]')
        expect(page.locator("dialog[open]")).to_have_count(0)

    # ron, with the hand entered from tiles
    sheet(None)
    walk.check("record sheet: empty")
    page.check('dialog input[name="riichi"][data-seat="2"]')
    page.check('dialog input[name="from"][value="0"]')
    page.check('dialog input[name="winner"][value="2"]')
    page.check('dialog input[name="value-mode-2"][value="hand"]')
    page.locator("dialog details").evaluate_all("(els) => els.forEach((d) => { d.open = true; })")
    page.fill('dialog [data-testid="typed-tiles"]', "123m456p789s234m55p")
    page.press('dialog [data-testid="typed-tiles"]', "Enter")
    page.click('dialog [data-testid="check-hand-2"]')
    page.locator('dialog [data-testid="hand-value-2"]').wait_for()
    expect(page.locator('dialog [data-testid="preview"] .pay-list')).to_be_visible()
    walk.check("record sheet: ron from tiles, with who pays what")
    record()
    # tsumo, a limit
    sheet("tsumo")
    page.check('dialog input[name="winner"][value="1"]')
    page.check('dialog input[name="value-mode-1"][value="limit"]')
    expect(page.locator('dialog [data-testid="preview"] .pay-list')).to_be_visible()
    walk.check("record sheet: tsumo, a limit")
    record()
    # an exhaustive draw
    sheet("draw")
    page.check('dialog input[name="tenpai"][data-seat="3"]')
    expect(page.locator('dialog [data-testid="preview"] .pay-list')).to_be_visible()
    walk.check("record sheet: draw")
    record()
    # a chombo (WRR: a penalty settled at the end)
    sheet("chombo")
    page.check('dialog input[name="chombo"][value="3"]')
    walk.check("record sheet: chombo")
    record()
    page.locator('[data-testid="penalties"]').wait_for()
    walk.check("table: board, penalties and history")
    # a correction, and the share sheet
    page.click('[data-hand="0"] > button')
    page.locator("dialog[open]").wait_for()
    walk.check("record sheet: correcting hand 1")
    page.keyboard.press("Escape")
    page.click('[data-testid="share"]')
    page.locator("dialog[open]").wait_for()
    walk.check("table: share")
    page.keyboard.press("Escape")
    # an abortive draw needs a rule set that has them: EMA
    page.goto("/#/tables")
    for i, name in enumerate(PLAYERS):
        page.fill(f'[data-testid="player-{i}"]', name)
    page.select_option('[data-testid="table-ruleset"]', "ema")
    page.click('[data-testid="create-table"]')
    page.wait_for_url(re.compile(r"#/table/[\w-]+$"))
    sheet("abort")
    walk.check("record sheet: abortive draw")
    record()
    page.once("dialog", lambda d: d.accept())
    page.click('[data-testid="end-now"]')
    page.locator('[data-testid="standings"]').wait_for()
    walk.check("table: final standings")

    # --- events: the list and form, then an event with a round seated
    page.goto("/#/events")
    page.locator("details").evaluate_all("(els) => els.forEach((d) => { d.open = true; })")
    walk.check("events: list and form")
    page.fill('[data-testid="event-name"]', "例会")
    page.fill('[data-testid="event-players"]', "\n".join(PLAYERS))
    page.click('[data-testid="create-event"]')
    page.locator('[data-testid="event-title"]').wait_for()
    walk.check("event: standings")
    page.check('input[name="event-tab"][value="games"]')
    page.click('[data-testid="draw-round"]')
    page.locator("[data-game]").first.wait_for()
    walk.check("event: games")
    page.check('input[name="event-tab"][value="stats"]')
    walk.check("event: statistics")

    context.close()
    assert walk.leaks == {}, json.dumps(walk.leaks, ensure_ascii=False, indent=1)
    assert console.unexpected() == []


# --- at 360 px, in both languages: nothing overflows or is clipped, and screenshots to look at ----------

OVERFLOW = """() => {
  const out = [];
  if (document.documentElement.scrollWidth > window.innerWidth + 1) out.push(`page ${document.documentElement.scrollWidth}px wide`);
  for (const el of document.querySelectorAll("button, a.btn, label.chip, .seg label, h1, h2, h3, td, th, legend, summary, .banner, .fu-line")) {
    if (!el.checkVisibility() || el.closest("#lang-toggle, .scroll-x, svg, .visually-hidden")) continue;
    if (el.scrollWidth > el.clientWidth + 1) out.push(`${el.tagName}.${el.className}: ${el.textContent.trim().slice(0, 50)}`);
  }
  return out;
}"""


def fits(page, where: str) -> list[str]:
    return [f"{where}: {x}" for x in page.evaluate(OVERFLOW)]


@pytest.mark.parametrize("locale,tag", [("en-GB", "en"), ("ja-JP", "ja")])
def test_the_main_screens_fit_a_360px_phone_in_each_language(browser, live_server, locale, tag):
    context, console = new_phone(browser, live_server, locale=locale)
    page = context.new_page()
    problems = []

    page.goto("/#/score")
    page.click('[data-first-ruleset="wrr"]')
    page.locator("details.typed").evaluate("(d) => { d.open = true; }")
    page.fill('[data-testid="typed-tiles"]', "234m567p111s11z555z")
    page.press('[data-testid="typed-tiles"]', "Enter")
    page.locator('input[name="seat_wind"][value="south"]').check()
    page.locator('input[name="win"][value="tsumo"]').check()
    page.locator('input[name="riichi"]').check()
    page.click('[data-testid="dora-count"] button >> nth=1')
    problems += fits(page, "score: entry")
    page.click('[data-testid="score"]')
    card = page.locator('[data-testid="result"]')
    card.locator('[data-fu="group"]').first.wait_for()
    problems += fits(page, "score: result")
    card.locator("h3").nth(1).scroll_into_view_if_needed()
    screenshot(page, f"{tag}-score-result")

    serve_recognition(page, fake_recognition(["2m", "3m", "4m", "0p", "6p", "7p", "3s", "4s", "5s", "1z", "1z", "5z", "5z", "5z"],
                                             [list(range(14))], confidence={3: 0.5}))
    page.goto("/#/photo")
    upload(page)
    page.locator('[data-testid="hand-check"] .banner:not([data-state="checking"])').wait_for()
    problems += fits(page, "photo")
    page.locator('[data-testid="photo-score"]').scroll_into_view_if_needed()
    screenshot(page, f"{tag}-photo")

    page.goto("/#/waits")
    page.locator("details.typed").evaluate("(d) => { d.open = true; }")
    page.fill('[data-testid="typed-tiles"]', "123m456p789s23m55p")
    page.press('[data-testid="typed-tiles"]', "Enter")
    page.click('[data-testid="analyse"]')
    page.locator("[data-wait]").first.wait_for()
    page.wait_for_timeout(500)
    problems += fits(page, "waits")
    page.locator(".waits-list").scroll_into_view_if_needed()
    screenshot(page, f"{tag}-waits")

    page.goto("/#/tables")
    page.locator("form details").first.evaluate("(d) => { d.open = true; }")
    problems += fits(page, "tables: new table and house rules")
    for i, name in enumerate(["Aiko", "Ben", "Chie", "Dan"] if tag == "en" else PLAYERS):
        page.fill(f'[data-testid="player-{i}"]', name)
    page.click('[data-testid="create-table"]')
    page.wait_for_url(re.compile(r"#/table/[\w-]+$"))
    page.click('[data-testid="record-hand"]')
    page.check('dialog input[name="riichi"][data-seat="1"]')
    page.check('dialog input[name="from"][value="0"]')
    page.check('dialog input[name="winner"][value="2"]')
    page.select_option('dialog [data-testid="han-2"]', "3")
    page.select_option('dialog [data-testid="fu-2"]', "40")
    expect(page.locator('dialog [data-testid="preview"] .pay-list')).to_be_visible()
    problems += fits(page, "record sheet")
    page.locator('dialog [data-testid="preview"]').scroll_into_view_if_needed()
    screenshot(page, f"{tag}-record-sheet")
    page.click('dialog [data-testid="save-hand"]')
    expect(page.locator("dialog[open]")).to_have_count(0)
    page.wait_for_timeout(300)
    problems += fits(page, "table board")
    screenshot(page, f"{tag}-table-board")
    page.locator("[data-hand]").first.scroll_into_view_if_needed()
    screenshot(page, f"{tag}-table-history")

    context.close()
    assert problems == []
    assert console.unexpected() == []


def test_every_error_code_the_api_can_send_has_a_message_in_both_languages():
    from web.errors import CODES
    from web.openapi import SCHEMAS

    codes = set(CODES.values()) | {"error"}
    assert codes == set(SCHEMAS["Error"]["properties"]["error"]["properties"]["code"]["enum"])
    for catalogue in (EN, JA):
        assert sorted(c for c in codes if f"error.{c}" not in catalogue) == []


def test_every_yaku_and_limit_has_its_name_in_both_languages():
    import scoring

    ids = [y["id"] for y in scoring.yaku_list()]
    limits = ["mangan", "haneman", "baiman", "sanbaiman", "yakuman", "kazoe", "2", "3", "multi"]
    for catalogue in (EN, JA):
        assert [i for i in ids if f"yaku.{i}" not in catalogue] == []
        assert [i for i in limits if f"limit.{i}" not in catalogue] == []
    assert JA["yaku.riichi"] == "立直" and JA["limit.haneman"] == "跳満"


# --- the server's reasons in Japanese: worded from their detail ids, no English inside -------------------

def test_score_errors_in_japanese_have_no_english_inside(browser, live_server):
    context, console = new_phone(browser, live_server, locale="ja-JP")
    console.allow(422)
    page = context.new_page()
    rulesets = page.request.get(f"{live_server}/api/rulesets").json()["rulesets"]
    walk = Walk(page, allowed=[r["title"] for r in rulesets])
    page.goto("/#/score")
    page.click('[data-first-ruleset="wrr"]')
    page.click("summary:has-text('文字で入力する')")

    def score(tiles: str):
        page.fill('[data-testid="typed-tiles"]', tiles)
        page.press('[data-testid="typed-tiles"]', "Enter")
        page.click('[data-testid="score"]')

    # a closed ron with no yaku: a triplet of 1m, a closed wait on 4m, terminals
    score("111m456p789s99p35m4m")
    error = page.locator(".field-error:not(:empty), .banner.error").first
    expect(error).to_have_text(JA["detail.no_yaku"])
    walk.check("score: no yaku")
    screenshot(page, "ja-error-no-yaku")
    # not a complete hand
    score("111m456p789s99p36m4m")
    expect(page.locator(".field-error:not(:empty), .banner.error").first).to_have_text(JA["detail.not_complete"])
    walk.check("score: not a complete hand")
    screenshot(page, "ja-error-not-complete")
    # too few tiles
    score("111m456p789s99p4m")
    expect(page.locator(".field-error:not(:empty), .banner.error").first).to_contain_text("手牌が12枚です")
    walk.check("score: tile count")
    screenshot(page, "ja-error-tile-count")

    # the record sheet of a table: a hand from tiles with no yaku
    from .tables_helpers import create_table, open_sheet

    create_table(page, names=PLAYERS)
    sheet = open_sheet(page, "ron")
    sheet.locator('input[name="from"][value="0"]').check()
    sheet.locator('input[name="winner"][value="2"]').check()
    sheet.locator('input[name="value-mode-2"][value="hand"]').check()
    sheet.locator("details").evaluate_all("(els) => els.forEach((d) => { d.open = true; })")
    sheet.locator('[data-testid="typed-tiles"]').fill("111m456p789s99p35m4m")
    sheet.locator('[data-testid="typed-tiles"]').press("Enter")
    sheet.locator('[data-testid="check-hand-2"]').click()
    expect(sheet.locator('.field-error:not(:empty), [role="alert"]:not(:empty)').first).to_contain_text(JA["detail.no_yaku"])
    walk.check("record sheet: no yaku")
    screenshot(page, "ja-error-record-sheet")

    context.close()
    assert walk.leaks == {}, json.dumps(walk.leaks, ensure_ascii=False, indent=1)
    assert console.unexpected() == []


# --- the states the walk above does not reach: a conflict, offline, a queued hand, a link's key ----------

def test_conflict_offline_and_token_choice_in_japanese_have_no_english_left(browser, live_server):
    from .tables_helpers import api_table, create_table, record_ron, save

    context, console = new_phone(browser, live_server, locale="ja-JP")
    console.allow(409)
    console.allow(422)
    console.allow_offline()
    page = context.new_page()
    rulesets = page.request.get(f"{live_server}/api/rulesets").json()["rulesets"]
    walk = Walk(page, allowed=[r["title"] for r in rulesets] + PLAYERS)
    page.goto("/#/score")
    page.click('[data-first-ruleset="wrr"]')
    table_id = create_table(page, names=PLAYERS)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    token = json.loads(page.evaluate('localStorage.getItem("tenbou.tables")'))[table_id]["edit_token"]

    def other_phone_records():
        version = api_table(page, live_server, table_id)["version"]
        resp = page.request.post(f"{live_server}/api/tables/{table_id}/hands", headers={
            "Content-Type": "application/json", "Authorization": f"Bearer {token}", "If-Match": str(version)},
            data=json.dumps({"result": "draw", "tenpai": [0], "riichi": []}))
        assert resp.ok, resp.text()

    # the conflict sheet: a hand sent against a stale version
    sheet = record_ron(page, 0, 2, 2, 30)
    other_phone_records()
    sheet.locator('[data-testid="save-hand"]').click()
    expect(page.locator('dialog[open] [data-testid="conflict"]')).to_be_visible()
    walk.check("conflict sheet")
    screenshot(page, "ja-conflict-sheet")
    page.keyboard.press("Escape")   # kept on the phone as a conflict
    expect(page.locator('[data-testid="conflict"]')).to_be_visible()
    walk.check("conflict kept on the phone")
    page.locator('[data-testid="conflict"] .btn-danger').click()
    expect(page.locator('[data-testid="conflict"]')).to_have_count(0)

    # offline: the table's banner, a queued hand, then the queued hand meets a change made meanwhile
    context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    page.reload()
    expect(page.locator('[data-testid="offline-banner"]')).to_be_visible()
    walk.check("table offline")
    save(record_ron(page, 1, 3, 1, 30))
    expect(page.locator('[data-testid="pending"]')).to_be_visible()
    walk.check("a hand queued offline")
    screenshot(page, "ja-offline-queued")
    other_phone_records()
    context.set_offline(False)
    expect(page.locator('[data-testid="conflict"]')).to_be_visible(timeout=10_000)
    walk.check("a queued hand in conflict")
    screenshot(page, "ja-offline-conflict")
    page.locator('[data-testid="conflict"] .btn-danger').click()
    expect(page.locator('[data-testid="conflict"]')).to_have_count(0)
    # a queued hand the server refuses (its tiles have no yaku): the reason in Japanese
    version = api_table(page, live_server, table_id)["version"]
    no_yaku = {"result": "ron", "from_seat": 1, "riichi": [], "winners": [{"seat": 2, "value": {"hand": {
        "hand": "111m456p789s99p35m4m", "win_tile": "4m"}}}]}
    page.evaluate("""([id, body, version]) => localStorage.setItem("tenbou.queue", JSON.stringify([{key: "1-refused", created: Date.now(),
        table: id, method: "POST", path: `/api/tables/${id}/hands`, body, version}]))""", [table_id, no_yaku, version])
    page.reload()
    refused = page.locator('[data-testid="conflict"]')
    expect(refused).to_contain_text(JA["detail.no_yaku"], timeout=10_000)
    walk.check("a queued hand refused")
    screenshot(page, "ja-offline-refused")
    refused.locator(".btn-danger").click()

    # a link with another key for a table this phone already edits
    page.goto("/#/tables")
    page.goto(f"/t/{table_id}#token=someone-elses-token")
    expect(page.locator('[data-testid="token-choice"]')).to_be_visible()
    walk.check("token choice")
    screenshot(page, "ja-token-choice")
    page.click('[data-testid="keep-token"]')

    context.close()
    assert walk.leaks == {}, json.dumps(walk.leaks, ensure_ascii=False, indent=1)
    assert console.unexpected() == []
