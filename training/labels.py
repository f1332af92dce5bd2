"""Class list of the classifier, in output order. Written into the ONNX metadata at export."""
from __future__ import annotations

SUITS = "mpsz"
TILE_CODES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
RED_FIVES = ["0m", "0p", "0s"]
BACK = "back"
NONE = "none"  # not a tile (a detector false alarm): dropped at run time
CLASSES = TILE_CODES + RED_FIVES + [BACK, NONE]
CLASS_INDEX = {c: i for i, c in enumerate(CLASSES)}
ORIENTATIONS = ["up", "right", "down", "left"]  # where the top of the tile points in the image
