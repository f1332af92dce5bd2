"""Compressed responses (brotli or gzip, as the client accepts) for HTML, JavaScript, CSS, JSON and
SVG, in every serve: a phone on a slow link gets the app in about a quarter of the bytes. The work
is Flask-Compress's; this module only sets it up for Tenbou:

- ETags are left exactly as the views set them. A table's ETag is its version (``"12"``), which
  phones send back in If-Match; Flask-Compress would make it ``"12:br"``. The views answer
  conditional requests themselves (and static files before they are compressed), so the library's
  own conditional evaluation is off.
- A partial response (206, a Range request) is never compressed: the range is of the file's bytes.
- A static file (streamed by Flask) of up to 4 MB is compressed whole, so it keeps a Content-Length
  and gzip-only clients get it compressed too.
- ``COMPRESSION = False`` (TENBOU_COMPRESSION=0) turns it off, for a proxy that compresses itself
  (Caddy leaves an already compressed response alone either way).
"""
from __future__ import annotations

import os

from flask import Flask, Response
from flask_compress import Compress

#: Static files up to this size are read and compressed whole (any encoding, a Content-Length);
#: larger ones are compressed as they stream.
WHOLE_FILE = 4 * 1024 * 1024
MIMETYPES = [
    "text/html", "text/css", "text/javascript", "application/javascript", "application/json",
    "application/manifest+json", "image/svg+xml", "text/csv", "text/plain",
]


def init_compression(app: Flask) -> None:
    enabled = app.config.get("COMPRESSION", os.environ.get("TENBOU_COMPRESSION", "1") not in ("0", "false", "no"))
    if not enabled:
        return
    app.config.setdefault("COMPRESS_MIMETYPES", MIMETYPES)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "deflate"])
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    app.config["COMPRESS_REGISTER"] = False           # registered below, keeping the views' ETags
    app.config["COMPRESS_EVALUATE_CONDITIONAL_REQUEST"] = False
    compress = Compress(app)

    @app.after_request
    def _compressed(response: Response) -> Response:
        if response.status_code == 206:
            return response
        if (response.is_streamed and response.status_code == 200 and response.mimetype in MIMETYPES
                and response.content_length is not None and response.content_length <= WHOLE_FILE):
            response.make_sequence()  # a static file: compressed whole, with its Content-Length
            response.direct_passthrough = False  # so the server's close() reaches the file, compressed or not
        etag = response.headers.get("ETag")
        response = compress.after_request(response)
        if etag is not None:
            response.headers["ETag"] = etag
        return response
