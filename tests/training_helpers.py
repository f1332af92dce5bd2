"""Arrays made on the fly for the tests that run the training scripts."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from training.labels import CLASSES


def random_crop_arrays(tmp_path: Path, n: int, seed: int) -> Path:
    """A folder `data` in `tmp_path` holding `n` random 64 px crops (cls_crops.npy) with random
    classes and orientations (cls_meta.npy), as training.build_data writes them: enough for
    train_classifier to run an epoch."""
    data = tmp_path / "data"
    data.mkdir()
    rng = np.random.default_rng(seed)
    np.save(data / "cls_crops.npy", rng.integers(0, 256, (n, 64, 64, 3), dtype=np.uint8))
    np.save(data / "cls_meta.npy", np.stack([rng.integers(0, len(CLASSES), n), rng.integers(-1, 4, n),
                                             np.zeros(n, np.int64)], 1).astype(np.int16))
    return data
