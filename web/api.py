"""JSON API over the scoring engine: POST /api/score, POST /api/waits, GET /api/rulesets."""
from __future__ import annotations

from flask import Blueprint, jsonify, request

import scoring

from .errors import ApiError

bp = Blueprint("api", __name__, url_prefix="/api")


def json_body() -> dict:
    """The request's JSON object, or a 400/415 that says what was wrong."""
    if not request.is_json:
        raise ApiError(415, "send JSON with Content-Type: application/json", "body")
    payload = request.get_json(silent=True)
    if payload is None:
        raise ApiError(400, "the body is not valid JSON", "body")
    if not isinstance(payload, dict):
        raise ApiError(400, "the body must be a JSON object", "body")
    return payload


def scoring_call(fn, payload):
    try:
        return fn(payload)
    except scoring.ScoringError as err:
        raise ApiError(err.status, err.message, err.field) from None


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
