"""A thin ONNX Runtime wrapper: built from a path, bytes or a ready session (tests pass their own),
reads input/output names and the metadata (labels travel with the weights). One session is safe
to share between threads; this object keeps nothing per call.

Two ways it runs faster than one session of the whole graph (each gives the same numbers to the
bit; models/HISTORY.md, "The classifier's crops on both cores, and its logits alone"):
- `run` asks for the first output only and, given `first_only` (the graph cut down to what that
  output needs: models/classifier_logits.onnx, written by training.export), runs that: ONNX
  Runtime runs every node of a graph whichever outputs are asked for, and the classifier's
  sharpness nodes are a fifth of its time;
- with `lanes`, a batch is cut into that many parts, each run at once by a session of one thread:
  a batch of small crops keeps two threads of one session busy only 1.4 times as much as one.
"""
from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import onnxruntime as ort


def default_threads() -> int:
    return max(1, min(4, os.cpu_count() or 1))


def _session(source: str | bytes, threads: int) -> ort.InferenceSession:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    # no arena: it grows by doubling and keeps the peak of the largest photo read (a detector
    # pass at 1536 px took a process from 190 to 310 MB, 245 MB without; no slower)
    opts.enable_cpu_mem_arena = False
    # no spinning: a photo runs two sessions (detector, classifier) one after the other, and
    # each one's pool kept its threads spinning after its run, fighting the next run for the
    # cores (on 2 cores the dev photos' median went from 139 to 90 ms without it; the
    # results are the same numbers)
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(source, opts, providers=["CPUExecutionProvider"])


class OnnxModel:
    """`threads`: the threads of its one session (default_threads() by default); with `lanes`, the
    number of single-thread sessions a batch is shared between instead (run at once, the batch
    cut along its first axis). `first_only`: the same model cut down to its first output, which
    `run` runs."""

    def __init__(self, source: str | bytes | ort.InferenceSession, threads: int | None = None,
                 lanes: int | None = None, first_only: str | bytes | None = None) -> None:
        if isinstance(source, ort.InferenceSession):
            self.session = source
            self._all, self._first = [source], [source]
        else:
            n, each = (lanes, 1) if lanes else (1, threads or default_threads())
            self._all = [_session(source, each) for _ in range(n)]
            self.session = self._all[0]
            self._first = self._all if first_only is None else [_session(first_only, each) for _ in range(n)]
        self._pool = ThreadPoolExecutor(len(self._all) - 1) if len(self._all) > 1 else None
        self.input_name = self.session.get_inputs()[0].name
        self.output_names = [o.name for o in self.session.get_outputs()]
        self.metadata: dict[str, str] = dict(self.session.get_modelmeta().custom_metadata_map)

    def meta(self, key: str, default: Any = None) -> Any:
        """A metadata value, JSON-decoded when it is JSON."""
        if key not in self.metadata:
            return default
        value = self.metadata[key]
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value

    def run(self, x: np.ndarray) -> np.ndarray:
        """The first output (the classifier's logits), from the graph cut down to it when given."""
        return self._shared(self._first, self.output_names[:1], x)[0]

    def run_all(self, x: np.ndarray) -> dict[str, np.ndarray]:
        """Every output, by name (the classifier's `output` logits and each crop's `sharpness`)."""
        return dict(zip(self.output_names, self._shared(self._all, self.output_names, x)))

    def _shared(self, sessions: list[ort.InferenceSession], names: list[str], x: np.ndarray) -> list[np.ndarray]:
        """`names` for the batch `x`, its parts run at once by `sessions` (one part each, the first
        on this thread; no part empty), put back together in order."""
        n = min(len(sessions), len(x))
        parts = np.array_split(x, n) if n > 1 else [x]
        if len(parts) == 1:
            return list(sessions[0].run(names, {self.input_name: x}))
        assert self._pool is not None
        later = [self._pool.submit(s.run, names, {self.input_name: p}) for s, p in zip(sessions[1:], parts[1:])]
        outs = [sessions[0].run(names, {self.input_name: parts[0]})] + [f.result() for f in later]
        return [np.concatenate([o[k] for o in outs]) for k in range(len(names))]
