"""The offline engine's source archive (/offline/scoring.zip) is the same bytes for the same source:
the phone keys its engine snapshot by a hash of them (static/js/core/offline-worker.js), so bytes
that changed with the server's start time would throw the snapshot away after every restart and
between the server's worker processes."""
from __future__ import annotations

import time
import zipfile
from io import BytesIO

from web import pages


def test_the_archive_does_not_depend_on_when_it_was_built(monkeypatch):
    pages.scoring_archive.cache_clear()
    first = pages.scoring_archive()
    pages.scoring_archive.cache_clear()
    later = time.time() + 3 * 86400   # as if the server started three days later
    monkeypatch.setattr(time, "time", lambda: later)
    try:
        again = pages.scoring_archive()
    finally:
        monkeypatch.undo()
        pages.scoring_archive.cache_clear()
    assert again == first
    names = zipfile.ZipFile(BytesIO(first)).namelist()
    assert "scoring/__init__.py" in names and "recognition/reading.py" in names


def test_its_etag_survives_a_restart(client, monkeypatch):
    pages.scoring_archive.cache_clear()
    a = client.get("/offline/scoring.zip")
    pages.scoring_archive.cache_clear()   # a restarted server (or another worker process) builds it again
    later = time.time() + 86400
    monkeypatch.setattr(time, "time", lambda: later)
    try:
        b = client.get("/offline/scoring.zip", headers={"If-None-Match": a.headers["ETag"]})
    finally:
        monkeypatch.undo()
        pages.scoring_archive.cache_clear()
    assert a.status_code == 200 and b.status_code == 304
