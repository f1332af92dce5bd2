"""Labelled photo folders, in either format, and the split of real photos by scene.

Two label formats are read:

* ``labels.json`` (``../shared/data/dev-photos``): ``{photo: {"kind", "tiles", "back", ...}}``, the
  multiset of face-up tiles of each photo, no boxes.
* ``labels.jsonl`` (``../shared/data/real-photos/*``, and what ``python -m training.corrections
  export`` writes): one photo a line, ``{"image", "width", "height", "boxes": [{"tile", "box"}],
  ...}`` with pixel xyxy boxes and mpsz codes. Optional per photo: ``"kind"``, ``"use":
  "detection"`` (the boxes are trusted as tiles, but not every tile in the photo is boxed),
  ``"non_mpsz_boxes"`` (tiles that are no riichi tile, such as flowers).

The real photos hold many near-duplicate scenes, so they are split by scene: photos whose small
grey thumbnails nearly agree (average hash) or that share an original file name are one scene, and
a scene goes wholly to ``train`` or to ``val`` by a hash of its name. Nothing is tuned on ``val``.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from dataclasses import dataclass, field

import cv2
import numpy as np

from recognition.scales import clusters

# A photo whose labelled boxes have a median width/height beyond these was stretched by its export
# far past any real tile's proportions (a tile face is about 0.75 as wide as high, 1.33 lying
# sideways): narrow strips of a row blown up to a square. They are left out of training and of
# the evaluation, like the export's screenshots that SOURCE.md already excludes.
STRETCHED = (0.25, 3.0)
VAL_SHARE = 5  # one scene in five goes to validation
HASH_NEAR = 24  # average-hash Hamming distance (of 256 bits) under which two photos are one scene
# Labels of the staged real photos that this project corrected after looking at the box (the file
# says which, and why): loaded by default. ./training/train.sh trains on them (LABEL_FIXES=0: not),
# as the shipped classifier was trained; the shipped detector was trained before them.
LABEL_FIXES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "label_fixes.json")


@dataclass
class LabelledPhoto:
    name: str  # unique within its folder
    path: str
    source: str  # the folder's name
    kind: str  # photo family, e.g. "hand_row"
    tiles: Counter  # face-up tiles (mpsz, 0 = red five)
    back: int = 0
    boxes: list[tuple[str, tuple[float, float, float, float]]] | None = None
    ignore: list[tuple[float, float, float, float]] = field(default_factory=list)
    complete: bool = True  # every tile in the photo is labelled
    classify: bool = True  # the tile codes are trusted for training the classifier
    scene: str = ""

    @property
    def has_boxes(self) -> bool:
        return self.boxes is not None

    @property
    def stretched(self) -> bool:
        """Distorted beyond a real photo by its export (see STRETCHED)."""
        if not self.boxes:
            return False
        aspect = float(np.median([(x2 - x1) / max(y2 - y1, 1e-6) for _, (x1, y1, x2, y2) in self.boxes]))
        return not STRETCHED[0] <= aspect <= STRETCHED[1]


def _family(name: str) -> str:
    """The photo family of a file in the real-photos folders (their SOURCE.md describes each)."""
    if re.match(r"\d+_\d+_\d+_n", name):
        return "hk_table"  # Messenger exports: HK/Chinese sets, hand rows on automatic tables
    if name.startswith("IMG_2023"):
        return "jp_trays"  # Android, Japanese-style sets, many trays
    if re.match(r"IMG_27\d\d", name):
        return "riichi_mat"  # one Japanese riichi set on a red mat, mixed upright and sideways
    if name.startswith("hand_"):
        return "hand_row"
    if "family" in name or name.startswith("discards"):
        return "scattered"
    return "other"


def original_name(name: str) -> str:
    """`hand_010_jpg.rf.<hash>.jpg` -> `hand_010` (an export's versions of one photo share it)."""
    base = os.path.basename(name)
    base = re.sub(r"\.rf\.[0-9a-f]+", "", base)
    base = re.sub(r"_(jpg|jpeg|png|JPG|JPEG|PNG)(\.[A-Za-z]+)?$", "", base)
    return os.path.splitext(base)[0]


def load_label_fixes(path: str | None = None) -> dict[str, dict[tuple[str, int], tuple[str, str]]]:
    """The project's corrections of staged labels (LABEL_FIXES unless `path`): source folder ->
    (image, box index) -> (from, to)."""
    with open(path or LABEL_FIXES, encoding="utf-8") as f:
        doc = json.load(f)
    return {source: {(fx["image"], int(fx["box"])): (fx["from"], fx["to"]) for fx in fixes}
            for source, fixes in doc["fixes"].items()}


def fix_labels(row: dict, fixes: dict[tuple[str, int], tuple[str, str]]) -> dict:
    """`row` (a line of labels.jsonl) with the corrections of its boxes applied. A correction whose
    `from` is not the staged label stops the load: the source changed, and the box must be looked at
    again."""
    mine = {i: fix for (image, i), fix in fixes.items() if image == row["image"]}
    if not mine:
        return row
    boxes = [dict(b) for b in row["boxes"]]
    for i, (was, now) in mine.items():
        if i >= len(boxes) or boxes[i]["tile"] != was:
            found = boxes[i]["tile"] if i < len(boxes) else "no box"
            raise ValueError(f"label fix for {row['image']} box {i} expects {was}, the labels have {found}")
        boxes[i]["tile"] = now
    return {**row, "boxes": boxes}


# What an added box may name besides an mpsz code: both are judged as no riichi tile (an ignore
# region, like the source's non_mpsz_boxes).
NOT_JUDGED = ("not_riichi", "unnamed")


def load_label_additions(path: str | None = None) -> dict[str, dict[str, list[tuple[str, tuple[float, ...]]]]]:
    """Tiles the source left unboxed, added by this project (LABEL_FIXES' "added", unless `path`):
    source folder -> image -> [(code or a NOT_JUDGED word, pixel xyxy box)]."""
    with open(path or LABEL_FIXES, encoding="utf-8") as f:
        doc = json.load(f)
    out: dict[str, dict[str, list[tuple[str, tuple[float, ...]]]]] = {}
    for source, rows in doc.get("added", {}).items():
        for a in rows:
            out.setdefault(source, {}).setdefault(a["image"], []).append((a["tile"], tuple(float(v) for v in a["box"])))
    return out


def add_labels(row: dict, additions: dict[str, list[tuple[str, tuple[float, ...]]]]) -> dict:
    """`row` with the tiles added to its image: a code becomes a box, a NOT_JUDGED word an ignore
    region. An addition whose centre lies on a staged box stops the load: the source now boxes
    that tile, and the addition must be looked at again."""
    mine = additions.get(row["image"])
    if not mine:
        return row
    boxes, ignore = list(row["boxes"]), list(row.get("non_mpsz_boxes") or [])
    for code, (x1, y1, x2, y2) in mine:
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        for b in row["boxes"]:
            bx1, by1, bx2, by2 = b["box"]
            if bx1 <= cx <= bx2 and by1 <= cy <= by2:
                raise ValueError(f"label addition for {row['image']} at {[x1, y1, x2, y2]} lies on the staged {b['tile']} box")
        if code in NOT_JUDGED:
            ignore.append({"box": [x1, y1, x2, y2]})
        else:
            boxes.append({"tile": code, "box": [x1, y1, x2, y2]})
    return {**row, "boxes": boxes, "non_mpsz_boxes": ignore}


def load_folder(folder: str, label_fixes: bool = True, label_additions: bool | None = None) -> list[LabelledPhoto]:
    """Every labelled photo of `folder` (labels.jsonl if present, else labels.json), with the
    project's corrections of its labels (LABEL_FIXES) unless `label_fixes` is false, and the tiles
    it added to them unless `label_additions` is false (by default as `label_fixes`)."""
    source = os.path.basename(os.path.normpath(folder))
    jsonl = os.path.join(folder, "labels.jsonl")
    if os.path.exists(jsonl):
        fixes = load_label_fixes().get(source, {}) if label_fixes else {}
        additions = label_fixes if label_additions is None else label_additions
        added = load_label_additions().get(source, {}) if additions else {}
        photos = []
        with open(jsonl) as f:
            for line in f:
                if line.strip():
                    photos.append(_from_jsonl(add_labels(fix_labels(json.loads(line), fixes), added), folder, source))
        return photos
    with open(os.path.join(folder, "labels.json")) as f:
        labels = json.load(f)
    return [LabelledPhoto(name, os.path.join(folder, name), source, lab.get("kind", "unknown"),
                          Counter(lab["tiles"]), int(lab.get("back", 0)), scene=f"{source}/{name}")
            for name, lab in sorted(labels.items())]


def _from_jsonl(row: dict, folder: str, source: str) -> LabelledPhoto:
    name = row["image"]
    boxes = [(b["tile"], tuple(float(v) for v in b["box"])) for b in row["boxes"] if b["tile"] != "back"]
    back = sum(1 for b in row["boxes"] if b["tile"] == "back")
    ignore = [tuple(float(v) for v in b["box"]) for b in row.get("non_mpsz_boxes") or []]
    return LabelledPhoto(name, os.path.join(folder, name), source,
                         row.get("kind") or _family(os.path.basename(name)),
                         Counter(code for code, _ in boxes), back, boxes, ignore,
                         complete=row.get("use") != "detection",
                         # a player's confirmed correction names its tiles surely, even where
                         # the tiles the recogniser missed are not boxed
                         classify=row.get("use") != "detection" or row.get("source") == "contribution")


def _ahash(path: str) -> np.ndarray:
    img = cv2.imread(path, cv2.IMREAD_REDUCED_GRAYSCALE_4)
    if img is None:
        return np.zeros(256, bool)
    small = cv2.resize(img, (16, 16), interpolation=cv2.INTER_AREA).astype(np.float32)
    return (small > small.mean()).ravel()


def assign_scenes(photos: list[LabelledPhoto]) -> None:
    """Group near-duplicates (any pair under HASH_NEAR, transitively, or the same original file
    name) into scenes; each photo's `scene` becomes the scene's first name in sorted order."""
    n = len(photos)
    names = [original_name(p.name) for p in photos]
    if n:
        h = np.stack([_ahash(p.path) for p in photos]).astype(np.int16)
        near = (h[:, None, :] != h[None, :, :]).sum(2) < HASH_NEAR
    groups = clusters(n, lambda i, j: names[i] == names[j] or bool(near[i, j]))
    for group in groups:
        scene = min(f"{photos[i].source}/{names[i]}" for i in group)
        for i in group:
            photos[i].scene = scene


def _scene_hash(scene: str) -> int:
    return int(hashlib.sha1(scene.encode()).hexdigest(), 16)


def assign_splits(photos: list[LabelledPhoto]) -> dict[str, str]:
    """scene -> 'train' or 'val'. Stratified by photo kind: within each kind the scenes are ordered
    by a hash of their names and every VAL_SHARE-th goes to validation, so every kind has a
    validation share and the split depends only on the data, never on a tuning run."""
    kind_of: dict[str, str] = {}
    for p in sorted(photos, key=lambda p: (p.scene, p.name)):
        kind_of.setdefault(p.scene, p.kind)
    out: dict[str, str] = {}
    for kind in sorted(set(kind_of.values())):
        scenes = sorted((s for s, k in kind_of.items() if k == kind), key=lambda s: (_scene_hash(s), s))
        for rank, s in enumerate(scenes):
            out[s] = "val" if rank % VAL_SHARE == VAL_SHARE // 2 else "train"
    return out


def load_real(folders: list[str], split: str = "all", keep_stretched: bool = False,
              label_fixes: bool = True, label_additions: bool | None = None) -> list[LabelledPhoto]:
    """Photos of all `folders`, scenes assigned across them, keeping `split` ('train', 'val', 'all').
    Scenes and splits are drawn over every photo; then photos stretched out of shape by their
    export (`stretched`) are left out unless `keep_stretched`. `label_fixes` and `label_additions`
    as in load_folder."""
    photos = [p for f in folders for p in load_folder(f, label_fixes, label_additions)]
    if any(p.has_boxes for p in photos):
        assign_scenes(photos)
    if split != "all" and any(p.has_boxes for p in photos):
        splits = assign_splits(photos)
        photos = [p for p in photos if splits[p.scene] == split]
    return [p for p in photos if keep_stretched or not p.stretched]
