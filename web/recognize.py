"""JSON API: photo to tiles (POST /api/recognize). Owned by the recognition work.

The recognizer (two ONNX Runtime sessions) is built once per process, on first use, and kept in
``app.extensions["recognizer"]``; it keeps no per-request state, so threads share it. Set
``RECOGNITION_MODELS`` in the app config to load the models from another folder.
"""
from __future__ import annotations

import threading

from flask import Blueprint, current_app, jsonify, request

from recognition.image_io import ImageError
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
                from recognition.pipeline import Recognizer, get_recognizer as shared

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
        result = get_recognizer().recognize(data)
    except ImageError as exc:
        raise ApiError(exc.status, str(exc), field="image") from exc
    return jsonify(result.to_json())
