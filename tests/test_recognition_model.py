"""The committed models: labels are scoring's tile codes, and ONNX agrees with PyTorch."""
from __future__ import annotations

import os

import numpy as np
import pytest

from recognition.pipeline import MODELS_DIR
from recognition.session import OnnxModel
from scoring.tiles import TILE_CODES


@pytest.fixture(scope="module")
def classifier():
    return OnnxModel(os.path.join(MODELS_DIR, "classifier.onnx"), threads=1)


@pytest.fixture(scope="module")
def detector():
    return OnnxModel(os.path.join(MODELS_DIR, "detector.onnx"), threads=1)


def test_labels_are_scorings_tile_codes_then_back_and_reject(classifier):
    labels = classifier.meta("labels")
    assert labels == list(TILE_CODES) + ["back", "none"]
    assert classifier.meta("back_label") == "back" and classifier.meta("reject_label") == "none"
    assert classifier.meta("orientations") == ["up", "right", "down", "left"]


def test_models_fit_the_size_budget():
    total = sum(os.path.getsize(os.path.join(MODELS_DIR, f)) for f in os.listdir(MODELS_DIR)
                if f.endswith((".onnx", ".pt")))
    assert total <= 30 * 1024 * 1024


def test_model_card_records_the_shipped_hashes():
    import hashlib

    with open(os.path.join(MODELS_DIR, "README.md")) as f:
        card = f.read()
    for name in ("detector.onnx", "classifier.onnx"):
        with open(os.path.join(MODELS_DIR, name), "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        assert digest in card, f"models/README.md does not give the SHA256 of {name}"


@pytest.mark.parametrize("name", ["classifier", "detector"])
def test_onnx_matches_pytorch_on_a_batch(name, classifier, detector):
    torch = pytest.importorskip("torch", reason="torch (requirements-dev.txt) compares the ONNX export with its weights")
    from training.nets import Classifier, Detector

    net = (Classifier if name == "classifier" else Detector)()
    net.load_state_dict(torch.load(os.path.join(MODELS_DIR, f"{name}.pt"), weights_only=True))
    net.eval()
    rng = np.random.default_rng(0)
    shape = (8, 3, 64, 64) if name == "classifier" else (2, 3, 256, 192)
    x = rng.random(shape, dtype=np.float32)
    with torch.no_grad():
        want = net(torch.from_numpy(x)).numpy()
    got = (classifier if name == "classifier" else detector).run(x)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3)
