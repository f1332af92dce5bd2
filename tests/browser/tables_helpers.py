"""Helpers for the browser tests of the table screens: create a table through the phone app, read
it back from the API, record a ron through the record sheet, go offline and back, and read what
the board shows."""
from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from .conftest import new_phone

NAMES = ["Aiko", "Ben", "Chie", "Dan"]


def create_table(page, names=NAMES, ruleset="wrr") -> str:
    page.goto("/#/tables")
    for i, name in enumerate(names):
        page.fill(f'[data-testid="player-{i}"]', name)
    page.select_option('[data-testid="table-ruleset"]', ruleset)
    page.click('[data-testid="create-table"]')
    page.wait_for_url(re.compile(r"#/table/[\w-]+$"))
    return page.url.rsplit("/", 1)[1]


def offline_capable_table(browser, live_server):
    """A new phone (its console allowing the errors of a cut network) on a new table, once the
    service worker controls the page, so the app still opens with the network cut:
    (context, console, page, table_id)."""
    context, console = new_phone(browser, live_server)
    console.allow_offline()
    page = context.new_page()
    table_id = create_table(page)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    return context, console, page, table_id


def api_table(page, live_server, table_id) -> dict:
    resp = page.request.get(f"{live_server}/api/tables/{table_id}")
    assert resp.ok
    return resp.json()


def expect_board(page, table: dict, timeout: float = 5_000):
    """The scoreboard shows the API's scores, round, honba and sticks. At the end it shows the final
    standings' points (a leftover stick first place took included) and says where leftover sticks went."""
    state = table["state"]
    scores = list(state["scores"])
    if state.get("finished") and state.get("standings"):
        for row in state["standings"]:
            scores[row["seat"]] = row["points"]
    for seat, score in enumerate(scores):
        expect(page.locator(f'[data-testid="seat-score-{seat}"]')).to_have_text(str(score), timeout=timeout)
    expect(page.locator('[data-testid="honba"]')).to_have_text(f'{state["honba"]} honba', timeout=timeout)
    sticks = state["riichi_sticks"]
    said = f"{sticks} riichi stick{'' if sticks == 1 else 's'}"
    if state.get("finished") and sticks:
        expect(page.locator('[data-testid="riichi-sticks"]')).to_contain_text(said, timeout=timeout)
    else:
        expect(page.locator('[data-testid="riichi-sticks"]')).to_have_text(said, timeout=timeout)


def open_sheet(page, result: str):
    page.click('[data-testid="record-hand"]')
    sheet = page.locator("dialog[open]")
    sheet.locator(f'input[name="result"][value="{result}"]').check()
    return sheet


def save(sheet):
    sheet.locator('[data-testid="save-hand"]').click()
    expect(sheet).to_have_count(0)


def record_ron(page, frm, winner, han, fu, riichi=()):
    sheet = open_sheet(page, "ron")
    for seat in riichi:
        sheet.locator(f'input[name="riichi"][data-seat="{seat}"]').check()
    sheet.locator(f'input[name="from"][value="{frm}"]').check()
    sheet.locator(f'input[name="winner"][value="{winner}"]').check()
    sheet.locator(f'[data-testid="han-{winner}"]').select_option(str(han))
    sheet.locator(f'[data-testid="fu-{winner}"]').select_option(str(fu))
    return sheet


VENDOR = Path(__file__).resolve().parents[2] / "static" / "vendor" / "pyodide"


def go_offline(context, page):
    context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")


def go_online(context, page):
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")


def board_numbers(page) -> dict:
    """What the board shows: the four scores, round, honba, sticks, and the history's running totals."""
    return page.evaluate("""() => ({
      scores: [0, 1, 2, 3].map((s) => document.querySelector(`[data-testid="seat-score-${s}"]`).textContent),
      round: document.querySelector('[data-testid="round"]').textContent,
      honba: document.querySelector('[data-testid="honba"]').textContent,
      sticks: document.querySelector('[data-testid="riichi-sticks"]').textContent,
      totals: [...document.querySelectorAll('.history li')].map((li) => [...li.querySelectorAll('[data-total]')].map((e) => e.dataset.total)),
      standings: [...document.querySelectorAll('[data-testid="standings"] tbody tr')].map((tr) => tr.innerText),
    })""")


def projected(page, n: int, timeout: float = 120_000):
    """Wait until the board includes the n hands not yet sent."""
    banner = page.locator('[data-testid="projection"][data-state="ready"]')
    expect(banner).to_contain_text(f"{n} hand{'' if n == 1 else 's'} not yet sent: the board includes", timeout=timeout)
    # one count in the box: the list under the summary does not say it again
    expect(page.locator('[data-testid="pending"]')).not_to_contain_text("waiting to be sent")
    return banner


def still(page, top: bool = False):
    """Ready for a screenshot: the toast gone (and the page at its top)."""
    page.evaluate("document.getElementById('toast').hidden = true")
    if top:
        page.evaluate("window.scrollTo(0, 0)")
