"""GET /healthz: is the database reachable and undamaged, and is the recognition model loaded?"""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    checks = {}
    try:
        checks["database"] = current_app.extensions["database"].health(current_app.config["INTEGRITY_CHECK_SECONDS"])
        if checks["database"] != "ok":
            current_app.logger.error("health check: database: %s", checks["database"])
    except Exception as err:  # noqa: BLE001 - any failure means unhealthy; no details leak
        current_app.logger.warning("health check: database: %s", err)
        checks["database"] = "unreachable"
    checks["model"] = _model_status()
    ok = all(v == "ok" for v in checks.values())
    resp = jsonify({"ok": ok, "checks": checks})
    resp.status_code = 200 if ok else 503
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _model_status() -> str:
    from scoring.errors import Refusal

    from .recognize import get_recognizer

    try:
        get_recognizer()  # built once per process; later calls are a dictionary lookup
    except Refusal:
        return "not loaded"
    return "ok"
