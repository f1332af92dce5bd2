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
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from werkzeug.middleware.proxy_fix import ProxyFix

from .errors import ApiError

# Which views each limit guards; the names are the keys of RATE_LIMITS.
GUARDED = {
    "recognize": ["recognize.recognize"],             # the expensive call: a photo through the models
    "contribute": ["contributions.contribute"],       # a photo shared for training, kept on disk
    # everything that makes a table: a new table, an event's games (one at a time or a round), the next game
    "table_create": ["tables.create", "tables.next_game", "events.add_game", "events.draw_round"],
    "event_create": ["events.create"],
    "table_read": ["tables.read", "tables.export"],   # one bucket for both
}
#: Reads by id or share code. Only MISSES (404: a code that names nothing) count against
#: RATE_LIMITS["table_miss"], and only a miss is refused once it is spent: a phone reading its real
#: table is never locked out by wrong guesses made from the same address (a club's wifi).
MISS_ENDPOINTS = {"tables.read", "tables.export", "events.read", "events.export", "events.print_page"}
MISSES = {"table_miss"}


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
            )
        for endpoint in endpoints:
            # flask-limiter types the decorated view as possibly async; these views are plain functions
            app.view_functions[endpoint] = decorate(app.view_functions[endpoint])  # type: ignore[assignment]

    fallback = MovingWindowRateLimiter(MemoryStorage())  # when the shared store is down

    @app.after_request
    def _limit_misses(resp):
        if resp.status_code != 404 or request.endpoint not in MISS_ENDPOINTS:
            return resp
        setting = current_app.config.get("RATE_LIMITS", {}).get("table_miss")
        if not setting:
            return resp
        ids = (current_app.config.get("RATE_LIMIT_PREFIX") or "tenbou", "table_miss", client_address())
        wait = 0
        for item in parse_many(setting):
            try:
                allowed = limiter.limiter.hit(item, *ids)
                reset = limiter.limiter.get_window_stats(item, *ids).reset_time
            except Exception:  # noqa: BLE001 - the store is down: count in this process
                allowed = fallback.hit(item, *ids)
                reset = fallback.get_window_stats(item, *ids).reset_time
            if not allowed:
                wait = max(wait, min(max(1, math.ceil(reset - time.time())), item.get_expiry()))
        if not wait:
            return resp
        out, status = ApiError(429, "codes_rate_limited", retry_after=wait, seconds=wait).response()
        out.status_code = status
        return out

    @app.errorhandler(RateLimitExceeded)
    def _too_many(err: RateLimitExceeded):
        wait = _retry_after(limiter)
        return ApiError(429, "rate_limited", retry_after=wait, seconds=wait).response()


def _retry_after(limiter: Limiter) -> int:
    """Seconds until the limit just hit lets this client in again."""
    limit = limiter.current_limit
    if limit is None or not limit.breached:
        return 1
    # reset_at is in whole seconds (rounded up): never say more than the window itself
    return max(1, min(math.ceil(limit.reset_at - time.time()), limit.limit.get_expiry()))
