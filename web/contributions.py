"""JSON API: photos players share to improve recognition (POST/GET/DELETE /api/contributions).

Opt-in from the photo screen. The store (recognition/contributions.py) keeps each photo stripped of
its metadata, with the tiles as the player confirmed them; only whoever holds the delete token
returned on upload can read or delete it. Settings (app config, or TENBOU_-prefixed environment
variables): CONTRIBUTIONS_DIR (default instance/contributions), CONTRIBUTIONS_MAX_COUNT,
CONTRIBUTIONS_MAX_BYTES (the folder's total), CONTRIBUTION_MAX_PHOTO_BYTES; rate-limited per
client as RATE_LIMITS["contribute"].
"""
from __future__ import annotations

import os

from flask import Blueprint, current_app, jsonify, request

from recognition.contributions import ContributionError, ContributionStore, Limits
from web.bodies import photo_slot
from web.errors import ApiError

bp = Blueprint("contributions", __name__, url_prefix="/api")

LABELS_SLACK = 512 * 1024  # room for the labels and the multipart framing beside the photo


def get_store() -> ContributionStore:
    store = current_app.extensions.get("contributions")
    if store is None:
        cfg = current_app.config
        limits = Limits(photo_bytes=int(cfg["CONTRIBUTION_MAX_PHOTO_BYTES"]), count=int(cfg["CONTRIBUTIONS_MAX_COUNT"]),
                        total_bytes=int(cfg["CONTRIBUTIONS_MAX_BYTES"]))
        folder = cfg.get("CONTRIBUTIONS_DIR") or os.path.join(current_app.instance_path, "contributions")
        store = current_app.extensions["contributions"] = ContributionStore(folder, limits)
    return store


def _call(fn, *args):
    try:
        return fn(*args)
    except ContributionError as err:
        raise ApiError(err.status, err.message, err.field) from None


def _token() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


@bp.post("/contributions")  # rate-limited per client: "contribute" in web/limits.py
def contribute():
    store = get_store()
    limit = store.limits.photo_bytes + LABELS_SLACK
    if request.content_length and request.content_length > limit:  # refuse before spooling it
        raise ApiError(413, f"the photo is over the {store.limits.photo_bytes // (1024 * 1024)} MB limit for sharing", "image")
    if request.mimetype != "multipart/form-data":
        raise ApiError(415, "send the photo and its labels as multipart/form-data (fields 'image' and 'labels')", "body")
    upload = request.files.get("image")
    if upload is None:
        raise ApiError(400, "send the photo as the multipart form field 'image'", "image")
    try:
        data = upload.read()
    finally:
        upload.close()
    labels = request.form.get("labels")
    if labels is None:
        raise ApiError(400, "send the tiles as the multipart form field 'labels' (JSON)", "labels")
    with photo_slot():  # photos in flight: per worker and per client (web/bodies.py)
        record = _call(store.add, data, labels)
    resp = jsonify(record)
    resp.status_code = 201
    resp.headers["Cache-Control"] = "no-store"  # it carries the delete token
    return resp


@bp.get("/contributions/<cid>")
def contribution(cid: str):
    return jsonify(_call(get_store().get, cid, _token()))


@bp.delete("/contributions/<cid>")
def delete_contribution(cid: str):
    _call(get_store().delete, cid, _token())
    return "", 204
