"""Protection: security headers on every response, a cap on JSON bodies, and a per-client rate limit."""
from __future__ import annotations

import threading
import time
from functools import wraps

from flask import Flask, current_app, request

from .errors import ApiError

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",             # no inline script anywhere in the PWA
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
        if request.mimetype == "application/json" and request.content_length:
            limit = current_app.config.get("MAX_JSON_BYTES", 256 * 1024)
            if request.content_length > limit:
                raise ApiError(413, f"a JSON body may be at most {limit // 1024} KB", "body")


class RateLimiter:
    """A token bucket per client: ``burst`` requests at once, refilled at ``per_minute``.

    It lives in each app process: with N gunicorn workers a client gets at most N times the rate.
    """

    def __init__(self, per_minute: float, burst: int):
        self.rate = per_minute / 60.0
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str, now: float | None = None) -> float:
        """0 if the request may go on, else the seconds to wait."""
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            if tokens >= 1:
                self._buckets[key] = (tokens - 1, now)
                wait = 0.0
            else:
                self._buckets[key] = (tokens, now)
                wait = (1 - tokens) / self.rate
            if len(self._buckets) > 10000:  # forget idle clients
                cutoff = now - self.burst / self.rate
                self._buckets = {k: v for k, v in self._buckets.items() if v[1] >= cutoff}
        return wait


def rate_limited(name: str):
    """Limit a view per client (its address) by ``app.config['RATE_LIMITS'][name] = (per_minute, burst)``."""
    def decorate(view):
        @wraps(view)
        def wrapper(*args, **kwargs):
            limits = current_app.config.get("RATE_LIMITS", {}).get(name)
            if limits:
                limiters = current_app.extensions.setdefault("rate_limiters", {})
                limiter = limiters.get(name)
                if limiter is None:
                    limiter = limiters[name] = RateLimiter(*limits)
                wait = limiter.take(request.remote_addr or "unknown")
                if wait:
                    raise ApiError(429, f"too many requests; try again in {int(wait) + 1} s", None,
                                   retry_after=int(wait) + 1)
            return view(*args, **kwargs)
        return wrapper
    return decorate
