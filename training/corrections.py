"""The photos players shared from the photo screen, for the operator: list, delete, export.

    python -m training.corrections list
    python -m training.corrections delete ID [ID ...]
    python -m training.corrections export DIR

The store is the app's (``instance/contributions``); ``--store PATH`` or TENBOU_CONTRIBUTIONS_DIR
names another. ``export`` writes DIR/labels.jsonl in the schema of ../shared/data/real-photos (one
photo a line: "image" relative to DIR, "width", "height", "boxes": [{"tile", "box": [x1, y1, x2,
y2]}]) plus "source": "contribution", "kind": "contributed" and "use": "detection" (a player
confirms the tiles the recogniser found, so a tile it missed is not boxed: training must not take
what is not boxed for background), with the photos under DIR/images/. Exporting again into the
same DIR brings it up to date, and drops the photos contributors have deleted since.
training.datasets.load_folder reads the folder, and training/train.sh takes it as extra real
data (EXTRA_REAL="DIR ...").
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

from recognition.contributions import ContributionStore

SOURCE = "contribution"
SOURCE_NOTE = """# Contributed corrections

Photos that players of this server chose to share from the photo screen, with the tiles as they
confirmed or corrected them (boxes in the upright photo's pixels, mpsz codes, `0` = red five,
`back` = a face-down tile). Written by `python -m training.corrections export`; every line has
`"use": "detection"`: only the tiles the recogniser found were shown to the player, so a tile it
missed is not boxed. The photos were re-encoded without EXIF or other metadata when they arrived.
A contributor may delete a photo at any time: export again before training, and do not keep old
copies of this folder.
"""


def store_from(args) -> ContributionStore:
    folder = args.store or os.environ.get("TENBOU_CONTRIBUTIONS_DIR") or None
    return ContributionStore(folder)


def export_row(record: dict) -> dict:
    return {"image": f"images/{record['id']}.jpg", "width": record["width"], "height": record["height"],
            "boxes": [{"tile": b["tile"], "box": list(b["box"])} for b in record["boxes"]],
            "source": SOURCE, "kind": "contributed", "use": "detection",
            "id": record["id"], "created_at": record["created_at"]}


def _is_export(folder: Path) -> bool:
    """An earlier export of ours (so it may be updated), or an empty/new folder."""
    if not folder.exists() or not any(folder.iterdir()):
        return True
    labels = folder / "labels.jsonl"
    if not labels.is_file():
        return False
    with open(labels) as f:
        return all(json.loads(line).get("source") == SOURCE for line in f if line.strip())


def export(store: ContributionStore, out: str | os.PathLike) -> int:
    """Write every contribution to `out`; returns how many. Refuses a folder that holds other data."""
    out = Path(out)
    if not _is_export(out):
        raise SystemExit(f"{out} holds something other than an export of contributions; choose an empty folder")
    images = out / "images"
    images.mkdir(parents=True, exist_ok=True)
    rows = []
    for record in store.records():
        src = store.image_path(record["id"])
        dst = images / f"{record['id']}.jpg"
        try:
            if not (dst.exists() and dst.stat().st_size == src.stat().st_size):
                shutil.copyfile(src, dst)
        except FileNotFoundError:  # deleted while we were exporting
            dst.unlink(missing_ok=True)
            continue
        rows.append(export_row(record))
    keep = {Path(r["image"]).name for r in rows}
    for stale in images.glob("*.jpg"):  # deleted by their contributors since the last export
        if stale.name not in keep:
            stale.unlink()
    fd, tmp = tempfile.mkstemp(dir=out, prefix=".labels-", suffix=".jsonl")
    with os.fdopen(fd, "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    os.replace(tmp, out / "labels.jsonl")
    (out / "SOURCE.md").write_text(SOURCE_NOTE)
    return len(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.corrections", description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", help="the contributions folder (default: TENBOU_CONTRIBUTIONS_DIR or instance/contributions)")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="one line per contribution: id, date, size, tiles")
    rm = sub.add_parser("delete", help="delete contributions by id")
    rm.add_argument("ids", nargs="+", metavar="ID")
    ex = sub.add_parser("export", help="write labels.jsonl and images/ for training")
    ex.add_argument("dir")
    args = parser.parse_args(argv)
    store = store_from(args)

    if args.command == "list":
        records = store.records()
        for r in records:
            tiles = Counter(b["tile"] for b in r["boxes"])
            summary = " ".join(f"{t}x{n}" if n > 1 else t for t, n in sorted(tiles.items()))
            print(f"{r['id']}  {r['created_at']}  {r['width']}x{r['height']}  {r['photo_bytes'] // 1024} KB  "
                  f"{len(r['boxes'])} tiles: {summary}")
        count, size = store.usage()
        print(f"{count} contribution{'s' if count != 1 else ''}, {size / 1e6:.1f} MB in {store.folder}")
        return 0
    if args.command == "delete":
        missing = [cid for cid in args.ids if not store.remove(cid)]
        for cid in missing:
            print(f"no contribution {cid}", file=sys.stderr)
        print(f"deleted {len(args.ids) - len(missing)}")
        return 1 if missing else 0
    n = export(store, args.dir)
    print(f"exported {n} photo{'s' if n != 1 else ''} to {args.dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
