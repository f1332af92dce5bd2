"""JSON errors for API clients: every failure is {"error": {"field", "message", "code"}}, never a 500 page.

`code` is stable (it never changes with the wording of the message), so an app can show the error
in the player's language: the kind of failure, with `field` saying where. An error a player can
meet at the table (a hand with no yaku, a tile count, a value out of range...) also carries
`detail`: {"id", "params"}, the reason as a stable id from scoring.errors.DETAILS with its
parameters, so the app can word the whole reason itself; `message` stays the English text for API
users. The web layer's own refusals (a body too large or too slow, too many requests, a route that
does not exist) carry one too (`ApiError`)."""
from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from scoring.errors import KINDS, Refusal, detail, english

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An error of the web layer itself (the request as sent: its size, its pace, how often): its
    HTTP `status`, its reason (`detail_id`, one of scoring.errors.DETAILS, with its `params`), and
    the `field` of the request that was wrong; `retry_after`, the seconds to wait, when waiting helps."""

    def __init__(self, status: int, detail_id: str, field: str | None = None, *, retry_after: int | None = None,
                 **params: Any) -> None:
        self.status = status
        self.detail = detail(detail_id, **params)
        self.field = field
        self.retry_after = retry_after
        super().__init__(english(detail_id, params))

    def response(self) -> tuple[Response, int]:
        """The error body and status (with Retry-After when waiting helps)."""
        extra: dict[str, Any] = {"detail": self.detail}
        if self.retry_after is not None:
            extra["retry_after"] = self.retry_after
        resp, status = error_response(self.status, str(self), self.field, **extra)
        if self.retry_after is not None:
            resp.headers["Retry-After"] = str(self.retry_after)
        return resp, status


#: The HTTP status of each kind of refusal (scoring.errors.KINDS) and of the web layer's own failures:
#: the one place a kind becomes a status. The kind is sent as the error's ``code``.
STATUS: dict[str, int] = {
    "malformed": 400, "token_missing": 401, "token_wrong": 403, "not_found": 404, "method_not_allowed": 405,
    "request_timeout": 408, "conflict": 409, "too_large": 413, "unsupported_media_type": 415, "impossible": 422,
    "precondition_required": 428, "rate_limited": 429, "internal": 500, "unavailable": 503, "no_room": 507,
}
assert set(KINDS) <= set(STATUS), "every kind of refusal has its HTTP status"
#: The code of a status werkzeug or the web layer raises by itself (a 404 route, a 405 method...).
CODES: dict[int, str] = {status: kind for kind, status in STATUS.items()}

#: Seconds a client is told to wait (Retry-After) when the storage is down: a restart of the
#: database or a disk freed takes about that long, and the phone's queue retries by itself.
STORAGE_RETRY_AFTER = 5


def error_code(status: int) -> str:
    return CODES.get(status, "error")


def http_refusal(status: int) -> ApiError:
    """What werkzeug refuses by itself (a route that does not exist, a method it does not take, a
    body over MAX_CONTENT_LENGTH...) as an ApiError with its reason."""
    field = "body" if status in (400, 413, 415) else None
    if status == 400:
        return ApiError(400, "request_unreadable", field)
    if status == 404:
        return ApiError(404, "no_route")
    if status == 405:
        return ApiError(405, "method_not_allowed", method=request.method)
    if status == 413:
        limit = request.max_content_length
        if limit:
            return ApiError(413, "body_too_large", field, max=limit // 1024)
    if status == 415:
        return ApiError(415, "media_type", field)
    return ApiError(status, "request_refused", field, http=status)


def error_response(status: int, message: str, field: str | None = None, **extra):
    body = {"error": {"field": field, "message": message, "code": error_code(status), **extra}}
    return jsonify(body), status


def refusal_response(err: Refusal, **extra):
    """A domain refusal as the API's error body and status: {"error": {field, message, code, detail[, hand]}}."""
    resp = jsonify({"error": err.to_dict(), **extra})
    status = STATUS[err.kind]
    if status == 401:
        resp.headers["WWW-Authenticate"] = 'Bearer realm="tenbou"'
    return resp, status


def register(app: Flask) -> None:
    @app.errorhandler(Refusal)
    def _refusal(err: Refusal):
        return refusal_response(err)

    @app.errorhandler(ApiError)
    def _api_error(err: ApiError):
        return err.response()

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException):
        if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
            return http_refusal(err.code or 500).response()
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
        return ApiError(500, "internal_error").response()
