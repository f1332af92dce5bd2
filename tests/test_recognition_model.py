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
    for name in ("detector.onnx", "classifier.onnx", "classifier_logits.onnx"):
        with open(os.path.join(MODELS_DIR, name), "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        assert digest in card, f"models/README.md does not give the SHA256 of {name}"


@pytest.mark.parametrize("name", ["classifier", "detector"])
def test_onnx_matches_pytorch_on_a_batch(name, classifier, detector):
    torch = pytest.importorskip("torch", reason="torch (requirements-dev.txt) compares the ONNX export with its weights")
    from training.nets import Classifier, Detector

    state = torch.load(os.path.join(MODELS_DIR, f"{name}.pt"), weights_only=True)
    net = Classifier.from_state(state) if name == "classifier" else Detector()
    if name == "detector":
        net.load_state_dict(state)
    net.eval()
    rng = np.random.default_rng(0)
    shape = (8, 3, 64, 64) if name == "classifier" else (2, 3, 256, 192)
    x = rng.random(shape, dtype=np.float32)
    with torch.no_grad():
        want = net(torch.from_numpy(x)).numpy()
    got = (classifier if name == "classifier" else detector).run(x)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3)


def _laplacian_share(crops: np.ndarray) -> np.ndarray:
    """The variance of the grey crop's 4-neighbour Laplacian over the variance of the grey crop."""
    g = crops[:, 0] * 0.299 + crops[:, 1] * 0.587 + crops[:, 2] * 0.114
    lap = g[:, :-2, 1:-1] + g[:, 2:, 1:-1] + g[:, 1:-1, :-2] + g[:, 1:-1, 2:] - 4 * g[:, 1:-1, 1:-1]
    return lap.reshape(len(g), -1).var(1) / np.maximum(g.reshape(len(g), -1).var(1), 1e-10)


def _sharpness_by_hand(crops: np.ndarray) -> np.ndarray:
    """The classifier's `sharpness` output as its card defines it, written again here: the lesser of
    the Laplacian's share and 0.6 times the least over the most variance of the grey crop's second
    differences across, down and along both diagonals."""
    g = crops[:, 0] * 0.299 + crops[:, 1] * 0.587 + crops[:, 2] * 0.114
    mid = g[:, 1:-1, 1:-1]
    ways = np.stack([(a + b - 2 * mid).reshape(len(g), -1).var(1) for a, b in (
        (g[:, 1:-1, :-2], g[:, 1:-1, 2:]), (g[:, :-2, 1:-1], g[:, 2:, 1:-1]),
        (g[:, :-2, :-2], g[:, 2:, 2:]), (g[:, :-2, 2:], g[:, 2:, :-2]))], 1)
    return np.minimum(_laplacian_share(crops), 0.6 * ways.min(1) / np.maximum(ways.max(1), 1e-10))


def test_the_classifier_gives_each_crops_sharpness(classifier):
    """Beside the logits, the classifier's graph measures each crop's focus (the phone and the
    server read it from the one graph): as defined, far lower for a glyph out of focus, and for
    one shaken along a line (whose Laplacian hardly says so), about the same at a third of the
    contrast, and 0 for a plain face."""
    import cv2

    crisp = np.full((64, 64, 3), 235, np.uint8)
    cv2.putText(crisp, "8", (18, 48), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (20, 20, 20), 3)
    cv2.line(crisp, (10, 10), (54, 12), (20, 20, 20), 2)
    soft = cv2.GaussianBlur(crisp, (0, 0), 2.0)
    faint = (200 - (235 - crisp.astype(np.int16)) * 70 // 215).astype(np.uint8)  # the same ink, a third of the contrast
    plain = np.full((64, 64, 3), 230, np.uint8)
    shaken = cv2.filter2D(crisp, -1, np.full((1, 5), 1 / 5, np.float32))  # moved 5 px across while exposed
    x = np.stack([crisp, soft, faint, plain, shaken]).transpose(0, 3, 1, 2).astype(np.float32) / 255
    out = classifier.run_all(x)
    assert set(out) == {"output", "sharpness"} and out["output"].shape == (5, 43)
    s = out["sharpness"]
    np.testing.assert_allclose(s, _sharpness_by_hand(x.astype(np.float64)), rtol=1e-3, atol=1e-6)
    assert s[1] < 0.3 * s[0]
    assert abs(s[2] - s[0]) < 0.05 * s[0]
    assert s[3] == 0.0
    lap = _laplacian_share(x.astype(np.float64))
    assert lap[4] > 0.3 * lap[0]  # the strokes across the motion stay sharp: the Laplacian keeps over 0.3 of it
    assert s[4] < 0.06 < s[0]  # read every way, the shaken glyph is under reading.Settings.soft_below


def test_the_servers_hot_cells_decode_a_real_map_as_the_scan_of_every_cell(detector):
    """pipeline.hot_cells finds with numpy the cells reading.decode would box when scanning in
    Python, its peaks: the same boxes at the detector's threshold and at the faint peaks', on a
    real map, from a few of the cells that reach the threshold; a float32 heat just under the cut
    (as a float64) stays out as it does in decode's scan; two equal neighbours are both peaks,
    and a cell with a hotter neighbour is none."""
    from recognition import reading
    from recognition.image_io import load_image
    from recognition.pipeline import DEFAULT_SETTINGS, fit_resize, flat, hot_cells, to_nchw

    with open(os.path.join(os.path.dirname(__file__), "data", "hard_cases", "standing_scattered.jpg"), "rb") as f:
        pixels = load_image(f.read(), 1024).pixels
    net_in, _ = fit_resize(pixels, 512)
    out = detector.run(to_nchw(net_in[None]))[0]
    _, gh, gw = out.shape
    thresholds = (DEFAULT_SETTINGS.detect_threshold, DEFAULT_SETTINGS.faint_threshold)
    for t in thresholds:
        boxes = reading.decode(flat(out), gh, gw, t)
        assert len(boxes) >= 5
        peaks = hot_cells(out, t)
        assert reading.decode(flat(out), gh, gw, t, cells=peaks) == boxes
        reaching = np.flatnonzero(out[0].astype(np.float64).reshape(-1) >= reading.heat_cut(t))
        assert set(peaks) < set(reaching.tolist()) and len(peaks) < len(reaching) / 2
    # a threshold whose cut rounds down to a float32: that float32 is under the cut as decode
    # compares, and a float32 comparison would let it in
    t = next(t for t in np.arange(0.30, 0.40, 0.001) if float(np.float32(reading.heat_cut(t))) < reading.heat_cut(t))
    edge = out.copy()
    edge[0] = -20.0
    edge[0, 3, 3] = np.float32(reading.heat_cut(t))
    assert (edge[0] >= np.float32(reading.heat_cut(t))).sum() == 1
    assert hot_cells(edge, t) == [] and reading.decode(flat(edge), gh, gw, t) == []
    edge[0, 3, 3] = np.nextafter(np.float32(reading.heat_cut(t)), np.float32(1))
    assert hot_cells(edge, t) == [3 * gw + 3] and len(reading.decode(flat(edge), gh, gw, t)) == 1
    edge[0, 3, 4] = edge[0, 3, 3]  # a plateau of two: decode boxes both
    edge[0, 5, 5] = edge[0, 3, 3]
    edge[0, 6, 6] = 5.0  # and not the cell beside a hotter one
    assert hot_cells(edge, t) == [3 * gw + 3, 3 * gw + 4, 6 * gw + 6]
    assert reading.decode(flat(edge), gh, gw, t) == reading.decode(flat(edge), gh, gw, t, cells=hot_cells(edge, t))


def test_the_logits_alone_come_from_the_graph_cut_down_to_them_and_read_the_same():
    """models/classifier_logits.onnx is what training.export writes: the shipped classifier's
    graph cut down to the nodes its logits need (no sharpness graph), its weights and metadata
    the same; its logits are the whole graph's to the bit."""
    import onnx
    import onnxruntime as ort

    from training.export import first_output_only

    with open(os.path.join(MODELS_DIR, "classifier.onnx"), "rb") as f:
        data = f.read()
    with open(os.path.join(MODELS_DIR, "classifier_logits.onnx"), "rb") as f:
        shipped = f.read()
    assert shipped == first_output_only(data)
    whole, cut = onnx.load_model_from_string(data), onnx.load_model_from_string(shipped)
    assert [o.name for o in cut.graph.output] == ["output"]
    assert len(cut.graph.node) < len(whole.graph.node) // 3  # the sharpness graph is most of the nodes
    assert not any(n.op_type.startswith("Reduce") for n in cut.graph.node)
    assert cut.metadata_props == whole.metadata_props
    x = np.random.default_rng(0).random((6, 3, 64, 64), dtype=np.float32)
    a = ort.InferenceSession(data, providers=["CPUExecutionProvider"]).run(["output"], {"image": x})[0]
    b = ort.InferenceSession(shipped, providers=["CPUExecutionProvider"]).run(None, {"image": x})[0]
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("lanes, n", [(2, 1), (2, 2), (2, 7), (4, 3)])
def test_a_batch_shared_between_lanes_reads_as_one_session_reads_it(classifier, lanes, n):
    """OnnxModel with lanes cuts a batch between single-thread sessions run at once and puts the
    parts back in order: the same outputs, to the bit and in the same order, as one session of
    the whole batch, with fewer crops than lanes too; `run` gives the same logits from the graph
    cut down to them."""
    shared = OnnxModel(os.path.join(MODELS_DIR, "classifier.onnx"), lanes=lanes,
                       first_only=os.path.join(MODELS_DIR, "classifier_logits.onnx"))
    assert len(shared._all) == len(shared._first) == lanes and shared._first is not shared._all
    x = np.random.default_rng(n).random((n, 3, 64, 64), dtype=np.float32)
    x[0] = 0.9  # the first crop unlike the rest: a part put back out of order shows
    want = classifier.run_all(x)
    got = shared.run_all(x)
    assert set(got) == set(want)
    for k in want:
        np.testing.assert_array_equal(got[k], want[k])
    np.testing.assert_array_equal(shared.run(x), want["output"])
