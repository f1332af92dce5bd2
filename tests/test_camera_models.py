"""What the live camera's on-phone recognition needs from the server: the models at /models with
the pipeline's settings, listed (with content hashes) in the service worker's offline cache, and a
cross-origin isolated page so ONNX Runtime Web may use threads."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

from app import create_app
from recognition.pipeline import MODELS_DIR, Settings


def make_app(tmp_path, models=None):
    config = {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    if models:
        config["RECOGNITION_MODELS"] = str(models)
    return create_app(config)


def sw_assets(client) -> list[str]:
    body = client.get("/sw.js").get_data(as_text=True)
    return json.loads(re.search(r"const ASSETS = (\[.*?\]);", body).group(1))


def test_model_info_matches_the_pipeline_and_files_are_served(tmp_path):
    client = make_app(tmp_path).test_client()
    info = client.get("/models/info.json").get_json()
    assert info["settings"] == Settings().__dict__
    assert info["labels"][-2:] == ["back", "none"] and info["reject_label"] == "none"
    assert (info["long_side"], info["stride"], info["crop_size"]) == (512, 4, 64)
    for key, name in (("detector", "detector.onnx"), ("classifier", "classifier.onnx")):
        data = (Path(MODELS_DIR) / name).read_bytes()
        digest = hashlib.sha256(data).hexdigest()[:12]
        assert info[key] == f"/models/{name}?v={digest}"
        resp = client.get(info[key])
        assert resp.status_code == 200 and resp.data == data
        resp.close()
    assert {"/models/info.json", info["detector"], info["classifier"]} <= set(sw_assets(client))


def test_unknown_model_is_a_json_404(tmp_path):
    resp = make_app(tmp_path).test_client().get("/models/app.py")
    assert resp.status_code == 404 and resp.get_json()["error"]["field"] == "name"


def test_new_weights_change_the_urls_and_the_offline_cache(tmp_path):
    models = tmp_path / "models"
    shutil.copytree(MODELS_DIR, models, ignore=shutil.ignore_patterns("*.pt"))
    client = make_app(tmp_path, models).test_client()
    before, sw_before = client.get("/models/info.json").get_json()["detector"], client.get("/sw.js").get_data(as_text=True)
    with open(models / "detector.onnx", "ab") as f:  # "new weights" dropped in place: a protobuf field
        f.write(b"\x32\x03new")                     # appended (doc_string = "new") keeps it a valid model
    client = make_app(tmp_path, models).test_client()
    after = client.get("/models/info.json").get_json()["detector"]
    assert after != before and after in sw_assets(client)
    assert re.search(r'VERSION = "(\w+)"', sw_before).group(1) != re.search(r'VERSION = "(\w+)"', client.get("/sw.js").get_data(as_text=True)).group(1)


def test_without_models_the_app_still_installs_offline(tmp_path):
    client = make_app(tmp_path, tmp_path / "no-models").test_client()
    assert not [u for u in sw_assets(client) if u.startswith("/models/")]  # nothing that could not be fetched
    resp = client.get("/models/info.json")
    assert resp.status_code == 503 and resp.get_json()["error"]["field"] == "models"


def test_pages_are_cross_origin_isolated_and_may_run_webassembly(tmp_path):
    resp = make_app(tmp_path).test_client().get("/")
    assert resp.headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert resp.headers["Cross-Origin-Embedder-Policy"] == "require-corp"
    script_src = resp.headers["Content-Security-Policy"].split("script-src")[1].split(";")[0]
    assert "'wasm-unsafe-eval'" in script_src and "'unsafe-eval'" not in script_src.replace("'wasm-unsafe-eval'", "")
