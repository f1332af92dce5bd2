"""What both training scripts share: determinism, logging, a cosine schedule."""
from __future__ import annotations

import math
import os
import random
import time

import numpy as np
import torch


def make_deterministic(seed: int, threads: int) -> None:
    """Same seed, same thread count, same data -> the same weights, bit for bit."""
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    torch.set_num_interop_threads(1)
    torch.use_deterministic_algorithms(True)


def cosine_lr(step: int, total: int, peak: float, warmup: int) -> float:
    if step < warmup:
        return peak * (step + 1) / warmup
    t = (step - warmup) / max(1, total - warmup)
    return peak * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * t)))


class Log:
    def __init__(self, path: str) -> None:
        self.f = open(path, "a", buffering=1)
        self.t0 = time.time()

    def __call__(self, msg: str) -> None:
        line = f"[{time.time() - self.t0:7.0f}s] {msg}"
        print(line, flush=True)
        self.f.write(line + "\n")
