"""Rate limits per client (Flask-Limiter), and which proxies may say who the client is.

Each limit is a setting, ``RATE_LIMITS[name]``, in Flask-Limiter's notation ("30 per minute; 10
per 10 seconds"); an empty value turns that limit off. The counters live in ``RATE_LIMIT_STORAGE``:
``memory://`` (each process counts alone: fine for one process) or a shared store such as
``redis://127.0.0.1:6379/0`` (``REDIS_URL``), so that every gunicorn worker and every machine
counts one client once.

The client is the address that connected, unless that address is one of ``TRUSTED_PROXIES``
(addresses or networks, comma-separated): then Werkzeug's ProxyFix takes the client from the last
``X-Forwarded-For`` entry that proxy added (and the scheme from ``X-Forwarded-Proto``). A header
from anyone else is ignored, so a client cannot pick its own bucket.
"""
from __future__ import annotations

import ipaddress
import math
import time

from flask import Flask, current_app, request
from flask_limiter import Limiter, RateLimitExceeded
from werkzeug.middleware.proxy_fix import ProxyFix

from .errors import error_response

# Which views each limit guards; the names are the keys of RATE_LIMITS.
GUARDED = {
    "recognize": ["recognize.recognize"],             # the expensive call: a photo through the models
    "contribute": ["contributions.contribute"],       # a photo shared for training, kept on disk
    "table_create": ["tables.create"],
    "table_read": ["tables.read", "tables.export"],   # one bucket for both
    "table_miss": ["tables.read", "tables.export"],   # reads of codes that do not exist: guessing
}
MISSES = {"table_miss"}   # counted only when the answer is 404


def _proxy_networks(setting) -> list:
    if not setting:
        return []
    items = setting.split(",") if isinstance(setting, str) else list(setting)
    return [ipaddress.ip_network(item.strip(), strict=False) for item in items if item.strip()]


class TrustedProxyFix:
    """Apply ProxyFix only to requests whose socket peer is a trusted proxy."""

    def __init__(self, wsgi_app, networks: list):
        self.wsgi_app = wsgi_app
        self.fixed = ProxyFix(wsgi_app, x_for=1, x_proto=1)
        self.networks = networks

    def _trusted(self, addr: str | None) -> bool:
        try:
            ip = ipaddress.ip_address(addr or "")
        except ValueError:
            return False
        return any(ip in net for net in self.networks)

    def __call__(self, environ, start_response):
        if self._trusted(environ.get("REMOTE_ADDR")):
            return self.fixed(environ, start_response)
        return self.wsgi_app(environ, start_response)


def client_address() -> str:
    return request.remote_addr or "unknown"


def _limit(name: str):
    return lambda: current_app.config.get("RATE_LIMITS", {}).get(name) or "1000000 per second"


def _off(name: str):
    return lambda: not current_app.config.get("RATE_LIMITS", {}).get(name)


def register(app: Flask) -> None:
    """Install the proxy rule and the limits on this app (call after its blueprints are registered)."""
    networks = _proxy_networks(app.config.get("TRUSTED_PROXIES"))
    if networks:
        # Flask's documented way to add WSGI middleware; its stubs declare wsgi_app a method
        app.wsgi_app = TrustedProxyFix(app.wsgi_app, networks)  # type: ignore[method-assign]

    limiter = Limiter(
        key_func=client_address,
        app=app,
        storage_uri=app.config.get("RATE_LIMIT_STORAGE") or "memory://",
        # sliding-window-counter: cheap, and at a window boundary it may let one more in;
        # moving-window counts every hit exactly and costs more (bench/bench_limits.py measures)
        strategy=app.config.get("RATE_LIMIT_STRATEGY") or "sliding-window-counter",
        headers_enabled=False,               # Retry-After is set with the JSON error below
        swallow_errors=True,                 # a store that is down lets requests through, logged
        in_memory_fallback_enabled=True,     # ...and counts in this process meanwhile
        key_prefix=app.config.get("RATE_LIMIT_PREFIX") or "tenbou",
    )
    app.extensions["tenbou_limiter"] = limiter
    for name, endpoints in GUARDED.items():
        decorate = limiter.shared_limit(
            _limit(name), scope=name, exempt_when=_off(name),
            deduct_when=(lambda resp: resp.status_code == 404) if name in MISSES else None)
        for endpoint in endpoints:
            # flask-limiter types the decorated view as possibly async; these views are plain functions
            app.view_functions[endpoint] = decorate(app.view_functions[endpoint])  # type: ignore[assignment]

    @app.errorhandler(RateLimitExceeded)
    def _too_many(err: RateLimitExceeded):
        wait = _retry_after(limiter)
        resp, status = error_response(429, f"too many requests; try again in {wait} s", None, retry_after=wait)
        resp.headers["Retry-After"] = str(wait)
        return resp, status


def _retry_after(limiter: Limiter) -> int:
    """Seconds until the limit just hit lets this client in again."""
    limit = limiter.current_limit
    if limit is None or not limit.breached:
        return 1
    # reset_at is in whole seconds (rounded up): never say more than the window itself
    return max(1, min(math.ceil(limit.reset_at - time.time()), limit.limit.get_expiry()))
