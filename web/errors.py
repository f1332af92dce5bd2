"""JSON errors for API clients: every failure is {"error": {"field", "message", "code"}}, never a 500 page.

`code` is stable (it never changes with the wording of the message), so an app can show the error
in the player's language: the kind of failure, with `field` saying where. An error a player can
meet at the table (a hand with no yaku, a tile count, a value out of range...) also carries
`detail`: {"id", "params"}, the reason as a stable id from scoring.errors.DETAILS with its
parameters, so the app can word the whole reason itself; `message` stays the English text for API
users. An error without `detail` is shown by its `code` and `message` as before."""
from __future__ import annotations

import logging

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An error a client caused; `field` names the part of the request that was wrong."""

    def __init__(self, status: int, message: str, field: str | None = None, **extra):
        super().__init__(message)
        self.status = status
        self.message = message
        self.field = field
        self.extra = extra

    @classmethod
    def from_scoring(cls, err) -> ApiError:
        """A scoring.ScoringError as an API error, keeping its detail id and parameters."""
        return cls(err.status, err.message, err.field, **({"detail": err.detail} if err.detail else {}))


CODES = {
    400: "malformed", 401: "token_missing", 403: "token_wrong", 404: "not_found", 405: "method_not_allowed",
    408: "request_timeout", 409: "conflict", 413: "too_large", 415: "unsupported_media_type", 422: "impossible",
    428: "precondition_required", 429: "rate_limited", 500: "internal", 503: "unavailable",
}

#: Seconds a client is told to wait (Retry-After) when the storage is down: a restart of the
#: database or a disk freed takes about that long, and the phone's queue retries by itself.
STORAGE_RETRY_AFTER = 5


def error_code(status: int) -> str:
    return CODES.get(status, "error")


def error_response(status: int, message: str, field: str | None = None, **extra):
    body = {"error": {"field": field, "message": message, "code": error_code(status), **extra}}
    return jsonify(body), status


def register(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api_error(err: ApiError):
        resp, status = error_response(err.status, err.message, err.field, **err.extra)
        if "retry_after" in err.extra:
            resp.headers["Retry-After"] = str(err.extra["retry_after"])
        return resp, status

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException):
        if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
            field = "body" if err.code in (400, 413, 415) else None
            return error_response(err.code or 500, err.description or err.name, field)
        return err

    @app.errorhandler(Exception)
    def _unexpected(err: Exception):
        from storage.db import storage_failure

        if storage_failure(err):  # the request did nothing (its transaction was rolled back): say try again
            log.error("storage unavailable on %s: %s: %s", request.path, err.__class__.__name__, err)
            resp, status = error_response(503, "the server cannot use its storage just now; nothing was changed. "
                                               "Try again in a moment.", None, retry_after=STORAGE_RETRY_AFTER,
                                          detail={"id": "storage_unavailable", "params": {}})
            resp.headers["Retry-After"] = str(STORAGE_RETRY_AFTER)
            return resp, status
        log.exception("unhandled error on %s", request.path)  # pragma: no cover - the last line of defence
        return error_response(500, "internal error; nothing was changed", None)
