"""Export the trained networks to ONNX with their labels and settings in the metadata, and copy
the PyTorch weights beside them (the tests compare the two).

    python -m training.export --work training/work --models models
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os

import onnx
import torch

from recognition.preprocess import CROP_CONTEXT, CROP_SIZE
from training.labels import BACK, CLASSES, NONE, ORIENTATIONS
from training.nets import Classifier, ClassifierWithSharpness, Detector

DETECTOR_LONG_SIDE = 512
OPSET = 17


def _export(net: torch.nn.Module, example: torch.Tensor, path: str, dynamic: dict, meta: dict,
            outputs: tuple[str, ...] = ("output",)) -> None:
    net.eval()
    torch.onnx.export(net, example, path, input_names=["image"], output_names=list(outputs),
                      dynamic_axes=dynamic, opset_version=OPSET, dynamo=False, do_constant_folding=True)
    model = onnx.load(path)
    del model.metadata_props[:]
    for k, v in meta.items():
        p = model.metadata_props.add()
        p.key, p.value = k, v if isinstance(v, str) else json.dumps(v)
    model.producer_name = "tenbou-training"
    model.producer_version = "1"
    onnx.checker.check_model(model)
    onnx.save(model, path)


def first_output_only(model: bytes) -> bytes:
    """The model `model` (serialised ONNX) with its graph cut down to the nodes its first output
    needs, and the weights those use; its metadata kept. ONNX Runtime runs every node of a graph
    whichever outputs are asked for: the classifier's rereads need no sharpness, a fifth of its
    time (recognition.session)."""
    m = onnx.load_model_from_string(model)
    g = m.graph
    needed, keep = {g.output[0].name}, []
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
    onnx.checker.check_model(m)
    return m.SerializeToString()


def sha256(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", default="training/work")
    ap.add_argument("--models", default="models")
    args = ap.parse_args()
    os.makedirs(args.models, exist_ok=True)
    torch.manual_seed(0)

    cls = Classifier.from_state(torch.load(os.path.join(args.work, "classifier.pt"), weights_only=True))
    _export(ClassifierWithSharpness(cls), torch.zeros(2, 3, CROP_SIZE, CROP_SIZE),
            os.path.join(args.models, "classifier.onnx"),
            {"image": {0: "n"}, "output": {0: "n"}, "sharpness": {0: "n"}},
            {"labels": CLASSES, "orientations": ORIENTATIONS, "back_label": BACK, "reject_label": NONE,
             "crop_size": CROP_SIZE, "crop_context": CROP_CONTEXT,
             "input": "RGB float32 NCHW in [0, 1]",
             "output": "logits: len(labels) tile classes, then len(orientations) orientations",
             "sharpness": "per crop: the lesser of the variance of the grey crop's Laplacian over the grey "
                           "crop's variance, and 0.6 times the least over the most variance of its second "
                           "differences in four directions"},
            outputs=("output", "sharpness"))
    with open(os.path.join(args.models, "classifier.onnx"), "rb") as f:
        logits = first_output_only(f.read())
    with open(os.path.join(args.models, "classifier_logits.onnx"), "wb") as f:
        f.write(logits)
    det = Detector()
    det.load_state_dict(torch.load(os.path.join(args.work, "detector.pt"), weights_only=True))
    _export(det, torch.zeros(1, 3, DETECTOR_LONG_SIDE, 384), os.path.join(args.models, "detector.onnx"),
            {"image": {0: "n", 2: "h", 3: "w"}, "output": {0: "n", 2: "gh", 3: "gw"}},
            {"stride": Detector.STRIDE, "long_side": DETECTOR_LONG_SIDE,
             "input": "RGB float32 NCHW in [0, 1], H and W multiples of 32",
             "output": "per cell: centre logit, log(w / stride), log(h / stride), dx, dy"})
    for name in ("classifier", "detector"):
        torch.save(torch.load(os.path.join(args.work, f"{name}.pt"), weights_only=True),
                   os.path.join(args.models, f"{name}.pt"))
    for name in sorted(os.listdir(args.models)):
        path = os.path.join(args.models, name)
        if name.endswith((".onnx", ".pt")):
            print(f"{name}  {os.path.getsize(path) / 1e6:.2f} MB  sha256 {sha256(path)}")


if __name__ == "__main__":
    main()
