"""python -m training.corrections: list, delete and export the shared photos as a labels.jsonl folder
that the training data loader reads like ../shared/data/real-photos."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from photo_helpers import gps_exif, make_photo
from recognition.contributions import ContributionStore
from training import corrections

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT.parent / "shared" / "data" / "real-photos"

HAND = [("1m", [10, 20, 50, 80]), ("0p", [60, 20, 100, 80]), ("7z", [110, 20, 150, 80]), ("back", [160, 20, 200, 80])]


@pytest.fixture
def store(tmp_path):
    s = ContributionStore(tmp_path / "store")
    s.add(make_photo(), {"boxes": [{"tile": t, "box": b} for t, b in HAND]})
    s.add(make_photo(exif=gps_exif(orientation=6)), {"boxes": [{"tile": "9s", "box": [5, 5, 195, 315]}]})
    return s


def _rows(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines() if line.strip()]


def test_export_writes_the_real_photos_schema(store, tmp_path):
    out = tmp_path / "export"
    proc = subprocess.run([sys.executable, "-m", "training.corrections", "--store", str(store.folder), "export", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "exported 2 photos" in proc.stdout
    rows = _rows(out)
    assert len(rows) == 2
    by_size = {(r["width"], r["height"]): r for r in rows}
    flat, upright = by_size[(320, 200)], by_size[(200, 320)]
    assert [(b["tile"], b["box"]) for b in flat["boxes"]] == [(t, [float(v) for v in b]) for t, b in HAND]
    assert upright["boxes"] == [{"tile": "9s", "box": [5.0, 5.0, 195.0, 315.0]}]
    for row in rows:
        assert row["source"] == "contribution" and row["use"] == "detection"
        with Image.open(out / row["image"]) as im:
            assert im.size == (row["width"], row["height"])
            assert not im.getexif()
        assert row["image"].startswith("images/")
    if (REAL / "alanchoi00__mahjong_detection" / "labels.jsonl").exists():
        with open(REAL / "alanchoi00__mahjong_detection" / "labels.jsonl") as f:
            real = json.loads(f.readline())
        assert {"image", "width", "height", "boxes"} <= set(real) & set(rows[0])
        assert set(real["boxes"][0]) >= {"tile", "box"} and set(rows[0]["boxes"][0]) == {"tile", "box"}


def test_export_loads_with_the_training_data_loader(store, tmp_path):
    datasets = pytest.importorskip("training.datasets")
    out = tmp_path / "export"
    assert corrections.export(store, out) == 2
    photos = datasets.load_folder(str(out))
    assert len(photos) == 2
    flat = next(p for p in photos if len(p.boxes) == 3)
    assert os.path.exists(flat.path)
    assert sorted(flat.tiles.elements()) == ["0p", "1m", "7z"]
    assert flat.back == 1
    assert flat.complete is False, "unboxed parts of a contributed photo are not background"
    assert {p.kind for p in photos} == {"contributed"}


def test_list_delete_and_export_again_drops_deleted_photos(store, tmp_path, capsys):
    out = tmp_path / "export"
    corrections.main(["--store", str(store.folder), "export", str(out)])
    first, second = store.records()
    assert corrections.main(["--store", str(store.folder), "list"]) == 0
    listed = capsys.readouterr().out
    assert first["id"] in listed and second["id"] in listed and "2 contributions" in listed
    assert "0p 1m 7z back" in listed

    assert corrections.main(["--store", str(store.folder), "delete", first["id"]]) == 0
    assert [r["id"] for r in store.records()] == [second["id"]]
    assert corrections.main(["--store", str(store.folder), "delete", first["id"]]) == 1

    corrections.main(["--store", str(store.folder), "export", str(out)])
    assert [r["id"] for r in _rows(out)] == [second["id"]]
    assert sorted(p.name for p in (out / "images").iterdir()) == [f"{second['id']}.jpg"]


def test_ids_are_safe_on_a_command_line(tmp_path):
    store = ContributionStore(tmp_path / "store")
    for _ in range(200):  # a random id starting with "-" would be taken for an option
        cid = store.add(make_photo(), {"boxes": [{"tile": "1m", "box": [0, 0, 10, 10]}]})["id"]
        assert cid[0].isalnum() and corrections.main(["--store", str(store.folder), "delete", cid]) == 0


def test_export_refuses_a_folder_of_other_data(store, tmp_path):
    other = tmp_path / "real"
    other.mkdir()
    (other / "labels.jsonl").write_text(json.dumps({"image": "a.jpg", "width": 1, "height": 1, "boxes": []}) + "\n")
    with pytest.raises(SystemExit):
        corrections.export(store, other)
    assert not (other / "images").exists()
