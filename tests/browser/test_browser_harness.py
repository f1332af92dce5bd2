"""The browser tests' own harness: a worker's Chromium that has gone is launched again for the next
test, and said, so that one crash fails one test and not every later one of its worker."""
from __future__ import annotations

import pytest

from .conftest import Chromium


def test_a_chromium_that_has_gone_is_launched_again_and_said(playwright, chromium_path, monkeypatch):
    shared = Chromium(playwright, chromium_path)
    first = shared.get("first")
    assert shared.get("again") is first  # connected: the same one
    monkeypatch.setenv("PYTEST_CURRENT_TEST", "tests/browser/test_x.py::test_that_crashed (call)")
    first.close()  # as a crash does, it disconnects
    with pytest.warns(UserWarning, match=r"during tests/browser/test_x.py::test_that_crashed \(call\)\); launched again for next"):
        second = shared.get("next")
    try:
        assert second is not first and second.is_connected()
        assert second.new_page().evaluate("1 + 1") == 2
    finally:
        second.close()
