"""A refusal reads as one whole sentence from the catalogue, in English and in Japanese, on a
360x740 phone: a hand with five of one tile, a hand one tile short, and a 1 han 20 fu ron recorded
at a table (said once, with no "hand 1:" in front)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import new_phone, screenshot
from .tables_helpers import create_table, record_ron

STATIC = Path(__file__).resolve().parents[2] / "static"
CATALOGUES = {lang: json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "ja")}


def sentence(lang: str, detail_id: str, **params) -> str:
    words = CATALOGUES[lang][f"detail.{detail_id}"]
    for name, value in params.items():
        words = words.replace("{" + name + "}", str(value))
    return words


def whole(lang: str, text: str) -> bool:
    text = text.strip()
    if lang == "en":
        return bool(re.match(r"^[A-Z0-9]", text)) and text.endswith(".")
    return text.endswith("。") and not re.search(r"[A-Za-z]{3}", text)


def type_and_score(page, lang: str, tiles: str, expected: str) -> list[str]:
    """Type ``tiles``, score, and wait for ``expected`` under the hand; every message shown there."""
    typed = page.locator(".hand-editor details.typed").first
    if typed.get_attribute("open") is None:
        typed.locator("summary").click()
    page.fill('[data-testid="typed-tiles"]', tiles)
    page.press('[data-testid="typed-tiles"]', "Enter")
    page.click('[data-testid="score"]')
    errors = page.locator(".hand-editor .field-error:not(:empty)")
    expect(errors.filter(has_text=expected)).to_have_count(1)
    shown = [e.inner_text() for e in errors.all()]
    for text in shown:
        assert whole(lang, text), text  # no fragment next to it either
    return shown


@pytest.mark.parametrize("locale,lang", [("en-GB", "en"), ("ja-JP", "ja")])
def test_refusals_are_whole_sentences_from_the_catalogue(browser, live_server, locale, lang):
    context, console = new_phone(browser, live_server, locale=locale)
    console.allow(422)
    page = context.new_page()
    page.goto("/#/score")
    page.click('[data-first-ruleset="wrr"]')

    # five 1m (typed as 11111m234p567s99s): the entry says only four exist, and scoring the hand left
    # empty says so in a whole sentence (once the fragment "is empty")
    type_and_score(page, lang, "11111m234p567s99s", sentence(lang, "hand_empty"))
    # a hand one tile short: once "has 13 tiles; with no melds..."
    shown = type_and_score(page, lang, "123456789m1111z", sentence(lang, "tile_count", count=13, expected=14, melds=0))
    assert not any("with no melds" in text for text in shown)
    screenshot(page, f"refusal-tiles-{lang}")

    # a 1 han 20 fu ron at a table: one sentence, said once, no "hand 1:" before it
    create_table(page)
    sheet = record_ron(page, 1, 2, 1, 20)
    sheet.locator('[data-testid="save-hand"]').click()
    refused = sheet.locator(".field-error")
    expect(refused).to_have_count(1)
    text = refused.inner_text()
    assert sentence(lang, "fu_20_ron") in text, text
    assert not re.search(r"hand \d+:", text)
    assert whole(lang, text.split(": ", 1)[-1].split("：", 1)[-1]), text
    refused.scroll_into_view_if_needed()
    screenshot(page, f"refusal-ron-{lang}")
    context.close()
    assert console.unexpected() == [], "console errors"
