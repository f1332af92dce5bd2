"""Protection: security headers on every response and a cap on JSON bodies (rate limits: web/limits.py)."""
from __future__ import annotations

from flask import Flask, current_app, request

from scoring.errors import Refusal

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",  # no inline script anywhere; WebAssembly for on-phone recognition
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",    # photo previews are blob: URLs
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    # with COOP, makes the page cross-origin isolated: on-phone recognition may then use threads
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Permissions-Policy": "geolocation=(), microphone=(), payment=()",
}


def register(app: Flask) -> None:
    @app.after_request
    def _headers(resp):
        for name, value in HEADERS.items():
            resp.headers.setdefault(name, value)
        if request.is_secure:
            resp.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
        return resp

    @app.before_request
    def _json_cap():
        # request.is_json: application/json and every application/*+json. A body without a length
        # (chunked) is read through a stream that stops at the limit with the same 413.
        if request.is_json:
            limit = current_app.config.get("MAX_JSON_BYTES", 256 * 1024)
            if request.content_length is not None and request.content_length > limit:
                raise Refusal("body", "too_large", "body_size", max=limit // 1024)
            if request.content_length is None:  # chunked: read it now, one byte past the limit at most
                request.max_content_length = limit + 1
                if len(request.get_data(cache=True)) > limit:
                    raise Refusal("body", "too_large", "body_size", max=limit // 1024)

