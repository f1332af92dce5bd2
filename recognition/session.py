"""A thin ONNX Runtime wrapper: built from a path, bytes or a ready session (tests pass their own),
reads input/output names and the metadata (labels travel with the weights). One session is safe
to share between threads; this object keeps nothing per call."""
from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import onnxruntime as ort


def default_threads() -> int:
    return max(1, min(4, os.cpu_count() or 1))


class OnnxModel:
    def __init__(self, source: str | bytes | ort.InferenceSession, threads: int | None = None) -> None:
        if isinstance(source, ort.InferenceSession):
            self.session = source
        else:
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = threads or default_threads()
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
            self.session = ort.InferenceSession(source, opts, providers=["CPUExecutionProvider"])
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
        return self.session.run(self.output_names[:1], {self.input_name: x})[0]

    def run_all(self, x: np.ndarray) -> dict[str, np.ndarray]:
        """Every output, by name (the classifier's `output` logits and each crop's `sharpness`)."""
        return dict(zip(self.output_names, self.session.run(self.output_names, {self.input_name: x})))
