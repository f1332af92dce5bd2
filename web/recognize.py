"""JSON API: photo to tiles (POST /api/recognize). Owned by the recognition work.

The recognizer (two ONNX Runtime sessions) is built once per process, on first use, and kept in
``app.extensions["recognizer"]``; it keeps no per-request state, so threads share it. Set
``RECOGNITION_MODELS`` in the app config to load the models from another folder.
"""
from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, current_app, jsonify, request, send_from_directory

from recognition.image_io import ImageError
from web.bodies import photo_slot
from web.errors import ApiError

bp = Blueprint("recognize", __name__, url_prefix="/api")
_build_lock = threading.Lock()


def get_recognizer():
    ext = current_app.extensions
    rec = ext.get("recognizer")
    if rec is None:
        with _build_lock:
            rec = ext.get("recognizer")
            if rec is None:
                from recognition.pipeline import Recognizer
                from recognition.pipeline import get_recognizer as shared

                try:
                    models = current_app.config.get("RECOGNITION_MODELS")
                    # the process-wide recognizer unless this app names its own models
                    rec = Recognizer.from_directory(models) if models else shared()
                except Exception as exc:  # a missing or broken model file: say so, do not crash
                    current_app.logger.exception("recognition models could not be loaded")
                    raise ApiError(503, f"photo recognition is not available on this server ({exc.__class__.__name__})") from exc
                ext["recognizer"] = rec
    return rec


@bp.post("/recognize")
def recognize():
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit and request.content_length and request.content_length > limit:  # refuse before spooling it
        raise ApiError(413, f"the photo is over the {limit // (1024 * 1024)} MB limit", field="image")
    upload = request.files.get("image")
    if upload is None:
        raise ApiError(400, "send the photo as the multipart form field 'image'", field="image")
    try:
        data = upload.read()
    finally:
        upload.close()  # a big upload is spooled to a temporary file: release it now
    if not data:
        raise ApiError(400, "the uploaded photo is empty", field="image")
    try:
        with photo_slot():  # photos in flight: per worker and per client (web/bodies.py)
            result = get_recognizer().recognize(data)
    except ImageError as exc:
        raise ApiError(exc.status, str(exc), field="image") from exc
    return jsonify(result.to_json())


# -- the models for on-phone recognition (the camera screen runs them in the browser) ----------

models_bp = Blueprint("models", __name__, url_prefix="/models")
MODEL_FILES = ("detector.onnx", "classifier.onnx")


def models_dir() -> str:
    from recognition.pipeline import MODELS_DIR

    return current_app.config.get("RECOGNITION_MODELS") or MODELS_DIR


@lru_cache(maxsize=8)
def _file_hash(path: str, mtime: float, size: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def model_assets() -> list[str]:
    """The model URLs the service worker caches (each carries its content hash, so new weights get
    a new URL and a new cache); empty when the models are missing."""
    folder = models_dir()
    urls = []
    for name in MODEL_FILES:
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            return []
        st = os.stat(path)
        urls.append(f"/models/{name}?v={_file_hash(path, st.st_mtime, st.st_size)}")
    return ["/models/info.json", *urls]


@models_bp.get("/info.json")
def model_info():
    """What the browser needs to run the same pipeline as recognition/pipeline.py: the model URLs,
    the networks' metadata (labels travel with the weights) and the thresholds."""
    urls = model_assets()
    if not urls:
        raise ApiError(503, "photo recognition is not available on this server", field="models")
    rec = get_recognizer()
    resp = jsonify({
        "detector": urls[1], "classifier": urls[2],
        "labels": rec.labels, "reject_label": rec.reject_label, "crop_size": rec.crop_size,
        "crop_context": rec.crop_context, "stride": rec.stride, "long_side": rec.long_side,
        "settings": asdict(rec.settings),
    })
    resp.cache_control.no_cache = True
    return resp


@models_bp.get("/<name>")
def model_file(name: str):
    if name not in MODEL_FILES:
        raise ApiError(404, "no such model", field="name")
    resp = send_from_directory(models_dir(), name, mimetype="application/octet-stream", max_age=0)
    resp.cache_control.no_cache = True
    return resp
