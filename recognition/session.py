"""A thin ONNX Runtime wrapper: built from a path, bytes or a ready session (tests pass their own),
reads input/output names and the metadata (labels travel with the weights). One session is safe
to share between threads; this object keeps nothing per call.

Two ways it runs faster than one session of the whole graph (each gives the same numbers to the
bit; models/HISTORY.md, "The classifier's crops on both cores, and its logits alone"):
- `run` asks for the first output only, and runs a copy of the graph cut down to what that output
  needs: ONNX Runtime runs every node of a graph whichever outputs are asked for, and the
  classifier's sharpness nodes are a fifth of its time;
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


def first_output_only(model: bytes) -> bytes:
    """The graph of `model` (a serialised ONNX model) cut down to the nodes its first output needs,
    and the weights those use."""
    import onnx

    m = onnx.load_model_from_string(model)
    g = m.graph
    want = g.output[0].name
    needed, keep = {want}, []
    for node in reversed(g.node):  # a graph's nodes are in topological order
        if needed.intersection(node.output):
            keep.append(node)
            needed.update(i for i in node.input if i)
            for attr in node.attribute:  # a subgraph's inputs from outside (If, Loop): kept whole
                for sub in [attr.g] * attr.HasField("g") + list(attr.graphs):
                    needed.update(i for n in sub.node for i in n.input)
    del g.node[:]
    g.node.extend(reversed(keep))
    for field in (g.initializer, g.output, g.value_info):
        kept = [t for t in field if t.name in needed]
        del field[:]
        field.extend(kept)
    return m.SerializeToString()


class OnnxModel:
    """`threads`: the threads of its one session (default_threads() by default); with `lanes`, the
    number of single-thread sessions a batch is shared between instead (run at once, the batch
    cut along its first axis)."""

    def __init__(self, source: str | bytes | ort.InferenceSession, threads: int | None = None,
                 lanes: int | None = None) -> None:
        if isinstance(source, ort.InferenceSession):
            self.session = source
            self._all, self._first = [source], [source]
        else:
            if isinstance(source, bytes):
                data = source
            else:
                with open(source, "rb") as f:
                    data = f.read()
            n = max(1, lanes or 1)
            self._all = [_session(data, 1 if lanes else threads or default_threads()) for _ in range(n)]
            self.session = self._all[0]
            self._first = self._all
            if len(self.session.get_outputs()) > 1:
                cut = first_output_only(data)
                self._first = [_session(cut, 1 if lanes else threads or default_threads()) for _ in range(n)]
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
        """The first output (the classifier's logits), from the graph cut down to it."""
        return self._shared(self._first, self.output_names[:1], x)[0]

    def run_all(self, x: np.ndarray) -> dict[str, np.ndarray]:
        """Every output, by name (the classifier's `output` logits and each crop's `sharpness`)."""
        return dict(zip(self.output_names, self._shared(self._all, self.output_names, x)))

    def _shared(self, sessions: list[ort.InferenceSession], names: list[str], x: np.ndarray) -> list[np.ndarray]:
        """`names` for the batch `x`, its parts run at once by `sessions` (one part each, the first
        on this thread), put back together in order."""
        parts = np.array_split(x, len(sessions)) if len(sessions) > 1 and len(x) > 1 else [x]
        if len(parts) == 1:
            return list(sessions[0].run(names, {self.input_name: x}))
        assert self._pool is not None
        later = [self._pool.submit(s.run, names, {self.input_name: p}) for s, p in zip(sessions[1:], parts[1:])]
        outs = [sessions[0].run(names, {self.input_name: parts[0]})] + [f.result() for f in later]
        return [np.concatenate([o[k] for o in outs]) for k in range(len(names))]
