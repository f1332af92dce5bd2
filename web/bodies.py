"""Request bodies and photos a client may hold the server with.

Under gunicorn each request, body included, is read by one worker thread, so a client that sends
its headers and then trickles the body (one byte every few seconds) holds that thread for as long
as it likes; sixteen such connections once held every thread. Two guards, per worker process:

* **A deadline for the body** (``BodyGuard``, WSGI middleware): the body is read in full before
  the app sees the request, and must arrive within ``BODY_SECONDS`` plus one second per
  ``BODY_MIN_RATE`` bytes (a 200 KB body: 13 s; a 2 MB photo: 42 s), with no pause longer than
  ``BODY_IDLE_SECONDS``. Too slow: 408, and the connection is closed.
* **Bodies in flight per address** (``BODIES_PER_CLIENT``, 2): a third body from the same address
  while two are still arriving is refused at once with 429, unread.

Photos cost more than their upload: ``PhotoSlots`` admits at most ``PHOTOS_PER_WORKER`` photos
(recognize, share) in a worker at once and ``PHOTOS_PER_CLIENT`` per client, counted in Redis
when the rate limits are (``RATE_LIMIT_STORAGE``), so a burst of photos from one phone waits its
turn instead of making everyone else wait (429 with Retry-After).

A buffering proxy in front (deploy/Caddyfile) is the first line: it receives slow bodies itself
and passes gunicorn only complete requests. These guards hold when gunicorn faces the phones
directly (``HOST=0.0.0.0 ./scripts/serve``).
"""
from __future__ import annotations

import io
import logging
import socket
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from werkzeug.wsgi import ClosingIterator

log = logging.getLogger(__name__)

BODY_SECONDS = 10.0
BODY_MIN_RATE = 50 * 1024          # bytes a second a body must at least average beyond BODY_SECONDS
BODY_IDLE_SECONDS = 10.0
BODIES_PER_CLIENT = 2
PHOTOS_PER_WORKER = 2
PHOTOS_PER_CLIENT = 1
PHOTO_RETRY_AFTER = 2
CHUNK = 64 * 1024
SPOOL = 1024 * 1024                # bodies above this are kept in a temporary file, not in memory

#: What BodyGuard leaves for the app in the environ when a body was refused: (status, message).
REFUSED = "tenbou.body_refused"


class BodyGuard:
    """WSGI middleware: read each request body with a deadline, at most ``per_client`` at once per address."""

    def __init__(self, app: Callable, *, max_bytes: int, json_max_bytes: int | None = None, per_client: int = BODIES_PER_CLIENT,
                 base_seconds: float = BODY_SECONDS, min_rate: float = BODY_MIN_RATE,
                 idle_seconds: float = BODY_IDLE_SECONDS, clock: Callable[[], float] = time.monotonic):
        self.app = app
        self.max_bytes = max_bytes
        self.json_max_bytes = json_max_bytes or max_bytes
        self.per_client = per_client
        self.base_seconds, self.min_rate, self.idle_seconds = base_seconds, min_rate, idle_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._reading: Counter[str] = Counter()

    def __call__(self, environ: dict, start_response: Callable) -> Any:
        length = _length(environ.get("CONTENT_LENGTH"))
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if not chunked and not length:
            return self.app(environ, start_response)
        is_json = "json" in environ.get("CONTENT_TYPE", "").lower()
        limit = self.json_max_bytes if is_json else self.max_bytes
        if length and length > limit:  # the app refuses it (413) unread
            _close_after(environ)
            return self.app(environ, start_response)
        addr = environ.get("REMOTE_ADDR") or "unknown"
        with self._lock:
            admitted = self._reading[addr] < self.per_client
            if admitted:
                self._reading[addr] += 1
        if not admitted:
            _close_after(environ)  # the body is never read: the connection cannot carry another request
            environ[REFUSED] = (429, "uploads_at_once", {"max": self.per_client})
            return self.app(environ, start_response)
        try:
            buf = self._buffer(environ, length, limit)
        finally:
            with self._lock:
                self._reading[addr] -= 1
                if not self._reading[addr]:
                    del self._reading[addr]
        return ClosingIterator(self.app(environ, start_response), [buf.close])

    def _buffer(self, environ: dict, length: int | None, limit: int) -> Any:
        """Replace wsgi.input by the whole body, read within the deadline (or mark it refused)."""
        source = environ["wsgi.input"]
        sock = environ.get("gunicorn.socket")
        expected = length if length is not None else limit
        deadline = self.clock() + self.base_seconds + expected / self.min_rate
        buf: Any = io.BytesIO() if length is not None and length <= SPOOL else tempfile.SpooledTemporaryFile(SPOOL)
        got = 0
        try:
            while length is None or got < length:
                left = deadline - self.clock()
                if left <= 0:
                    raise TimeoutError
                if sock is not None:
                    sock.settimeout(min(left, self.idle_seconds))
                want = CHUNK if length is None else min(CHUNK, length - got)
                data = source.read(want)
                if not data:
                    break
                got += len(data)
                if got > limit:
                    _close_after(environ)
                    environ[REFUSED] = (413, "body_too_large", {"max": limit // 1024})
                    break
                buf.write(data)
        except TimeoutError:  # socket.timeout is TimeoutError
            _close_after(environ)
            environ[REFUSED] = (408, "body_timeout", {})
            log.warning("request body from %s too slow: %d bytes", environ.get("REMOTE_ADDR"), got)
        except OSError:
            _close_after(environ)
            environ[REFUSED] = (400, "body_cut", {})
        finally:
            if sock is not None:
                try:
                    sock.settimeout(None)
                except OSError:
                    pass
        buf.seek(0)
        environ["wsgi.input"] = buf
        environ["CONTENT_LENGTH"] = str(got)
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        environ["wsgi.input_terminated"] = False
        return buf


def register(app: Any) -> None:
    """Install the body guard (call before web.limits.register, whose proxy rule must run first so
    that REMOTE_ADDR is the phone's address) and the photo slots."""
    from flask import request

    from .errors import ApiError

    cfg = app.config
    app.wsgi_app = BodyGuard(app.wsgi_app, max_bytes=int(cfg.get("MAX_CONTENT_LENGTH") or 20 * 1024 * 1024),
                             json_max_bytes=int(cfg.get("MAX_JSON_BYTES") or 256 * 1024),
                             per_client=int(cfg.get("BODIES_PER_CLIENT", BODIES_PER_CLIENT)),
                             base_seconds=float(cfg.get("BODY_SECONDS", BODY_SECONDS)),
                             min_rate=float(cfg.get("BODY_MIN_RATE", BODY_MIN_RATE)))
    store = cfg.get("RATE_LIMIT_STORAGE") or ""
    app.extensions["photo_slots"] = PhotoSlots(int(cfg.get("PHOTOS_PER_WORKER", PHOTOS_PER_WORKER)),
                                               int(cfg.get("PHOTOS_PER_CLIENT", PHOTOS_PER_CLIENT)),
                                               store if store.startswith(("redis", "unix")) else None,
                                               cfg.get("RATE_LIMIT_PREFIX") or "tenbou")

    @app.before_request
    def _refused_body():
        refused = request.environ.get(REFUSED)
        if refused:
            status, detail_id, params = refused
            raise ApiError(status, detail_id, "body", retry_after=1 if status == 429 else None, **params)


@contextmanager
def photo_slot() -> Iterator[None]:
    """Hold one of this worker's photo slots for the current client, or raise 429 (in a request)."""
    from flask import current_app

    from .errors import ApiError
    from .limits import client_address

    slots: PhotoSlots = current_app.extensions["photo_slots"]
    with slots.slot(client_address()) as ok:
        if not ok:
            raise ApiError(429, "photo_busy", "image", retry_after=PHOTO_RETRY_AFTER, seconds=PHOTO_RETRY_AFTER)
        yield


def _length(raw: Any) -> int | None:
    try:
        n = int(raw)
    except (TypeError, ValueError):
        return None
    return n if n >= 0 else None


def _close_after(environ: dict) -> None:
    """Make gunicorn close this connection after the answer rather than drain a body it should not
    wait for: no more can be read from the socket (writing the answer still works)."""
    sock = environ.get("gunicorn.socket")
    if sock is None:
        return
    try:
        sock.shutdown(socket.SHUT_RD)
    except OSError:
        pass


# --- photos in flight ----------------------------------------------------------------------------

class PhotoSlots:
    """At most ``per_worker`` photos decoding in this process, ``per_client`` per client address
    (across processes when ``redis_url`` is given; in this process if that store is down)."""

    def __init__(self, per_worker: int = PHOTOS_PER_WORKER, per_client: int = PHOTOS_PER_CLIENT,
                 redis_url: str | None = None, prefix: str = "tenbou"):
        self.per_worker, self.per_client = per_worker, per_client
        self._worker = threading.BoundedSemaphore(per_worker)
        self._lock = threading.Lock()
        self._clients: Counter[str] = Counter()
        self._redis = None
        self._prefix = prefix
        if redis_url and redis_url.startswith(("redis://", "rediss://", "unix://")):
            try:
                import redis

                self._redis = redis.Redis.from_url(redis_url, socket_timeout=0.5, socket_connect_timeout=0.5)
            except Exception:  # noqa: BLE001 - no shared count: this process counts alone
                self._redis = None

    def _take_client(self, client: str) -> str | None:
        """Take the client's slot: the way to give it back, or None when it has none free."""
        if self._redis is not None:
            key = f"{self._prefix}:photos:{client}"
            try:
                n = self._redis.incr(key)
                self._redis.expire(key, 120)  # a worker killed mid-photo frees its slot in time
                if n > self.per_client:
                    self._redis.decr(key)
                    return None
                return "redis"
            except Exception:  # noqa: BLE001 - the store is down: count in this process
                log.warning("photo slots: Redis unavailable, counting in this process")
        with self._lock:
            if self._clients[client] >= self.per_client:
                return None
            self._clients[client] += 1
        return "memory"

    def _give_client(self, client: str, where: str) -> None:
        if where == "redis":
            try:
                self._redis.decr(f"{self._prefix}:photos:{client}")  # type: ignore[union-attr]
                return
            except Exception:  # noqa: BLE001 - it expires by itself
                return
        with self._lock:
            self._clients[client] -= 1
            if self._clients[client] <= 0:
                del self._clients[client]

    @contextmanager
    def slot(self, client: str) -> Iterator[bool]:
        """``with slots.slot(addr) as ok:`` ok is False when the photo must wait (answer 429)."""
        where = self._take_client(client)
        if where is None:
            yield False
            return
        if not self._worker.acquire(blocking=False):
            self._give_client(client, where)
            yield False
            return
        try:
            yield True
        finally:
            self._worker.release()
            self._give_client(client, where)
