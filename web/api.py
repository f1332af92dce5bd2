"""JSON API over the scoring engine: POST /api/score, POST /api/waits, GET /api/rulesets."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Blueprint, current_app, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

import scoring
from scoring.errors import Refusal

bp = Blueprint("api", __name__, url_prefix="/api")


def json_body() -> dict:
    """The request's JSON object, or a 400/415 that says what was wrong."""
    if not request.is_json:
        raise Refusal("body", "unsupported_media_type", "body_json_type")
    try:
        payload = request.get_json(silent=True)
    except RecursionError:
        raise Refusal("body", "malformed", "body_depth", max=MAX_JSON_DEPTH) from None
    except RequestEntityTooLarge:
        limit = current_app.config.get("MAX_JSON_BYTES", 256 * 1024)
        raise Refusal("body", "too_large", "body_size", max=limit // 1024) from None
    if payload is None:
        raise Refusal("body", "malformed", "body_json")
    if not isinstance(payload, dict):
        raise Refusal("body", "malformed", "body_object")
    if _depth(payload) > MAX_JSON_DEPTH:
        raise Refusal("body", "malformed", "body_depth", max=MAX_JSON_DEPTH)
    return payload


MAX_JSON_DEPTH = 32  # a hand request is five levels deep; nothing a client sends needs more


def _depth(value) -> int:
    """How deeply lists and objects nest in ``value`` (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_JSON_DEPTH:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def scoring_call(fn, payload):
    return fn(payload)  # a refusal reaches the app's handler (web/errors.py) as it is


@bp.post("/score")
def score():
    return jsonify(scoring_call(scoring.score, json_body()))


@bp.post("/waits")
def waits():
    return jsonify(scoring_call(scoring.waits, json_body()))


@bp.get("/rulesets")
def rulesets():
    resp = jsonify(scoring.rulesets())
    resp.cache_control.public = True
    resp.cache_control.max_age = 3600
    return resp
