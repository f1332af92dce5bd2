"""JSON API for live tables: create, read, record hands, undo, correct, export."""
from __future__ import annotations

import json
import re

from flask import Blueprint, Response, current_app, jsonify, request

from scoring.errors import Refusal
from services.tables import TableError, TableService

from .api import json_body
from .errors import refusal_response

bp = Blueprint("tables", __name__, url_prefix="/api/tables")


def service() -> TableService:
    return current_app.extensions["tables"]


def _token() -> str | None:
    auth = request.headers.get("Authorization", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def _if_match() -> int | None:
    from services.tables import parse_if_match

    return parse_if_match(request.headers.get("If-Match"))


def _request_key() -> str | None:
    from services.tables import parse_request_key

    return parse_request_key(request.headers.get("Idempotency-Key"))


def no_store(resp: Response) -> Response:
    """A response that carries a secret token (an edit, organiser or delete token): no cache, no
    proxy and no browser history may keep a copy."""
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _table_response(snapshot: str, version: int, status: int = 200) -> Response:
    resp = Response(snapshot, status=status, mimetype="application/json")
    resp.headers["ETag"] = f'"{version}"'
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.errorhandler(TableError)
def _table_error(err: TableError):
    if err.kind == "conflict" and err.table:
        import json

        return refusal_response(err, table=json.loads(err.table))  # the table as it is now, to show what changed
    return refusal_response(err)


@bp.post("")
def create():
    table = service().create(json_body())
    resp = jsonify(table)
    resp.status_code = 201
    resp.headers["Location"] = f"/api/tables/{table['id']}"
    resp.headers["ETag"] = f'"{table["version"]}"'
    return no_store(resp)


@bp.get("/<key>")
def read(key: str):
    version, snapshot = service().read(key)
    etag = f'"{version}"'
    if etag in request.headers.get("If-None-Match", ""):
        resp = Response(status=304)
        resp.headers["ETag"] = etag
        return resp
    return _table_response(snapshot, version)


_VERSION = re.compile(r',"version":(\d+),"state":')


def _written(snapshot: str) -> Response:
    """The table JSON after a write; its version read from the text (decoding a table of a thousand
    hands to find one number would cost more than the write)."""
    found = _VERSION.search(snapshot)
    return _table_response(snapshot, int(found.group(1)) if found else json.loads(snapshot)["version"])


@bp.post("/<key>/hands")
def record(key: str):
    return _written(service().record(key, _token(), _if_match(), json_body(), _request_key()))


@bp.post("/<key>/preview")
def preview(key: str):
    raw = request.args.get("index")
    # str.isdigit() accepts "²" and "①", which int() refuses: only the ASCII digits are a number here
    if raw is not None and not (raw.isascii() and raw.isdigit() and len(raw) <= 6):
        raise Refusal("index", "malformed", "index_number")
    return jsonify(service().preview(key, _token(), json_body(), None if raw is None else int(raw)))


@bp.delete("/<key>/hands/last")
def undo(key: str):
    return _written(service().undo(key, _token(), _if_match(), _request_key()))


@bp.put("/<key>/hands/<int:index>")
def correct(key: str, index: int):
    return _written(service().correct(key, _token(), _if_match(), index, json_body(), _request_key()))


@bp.post("/<key>/next")
def next_game(key: str):
    table = service().next_game(key, _token())
    resp = jsonify(table)
    resp.status_code = 201
    resp.headers["Location"] = f"/api/tables/{table['id']}"
    resp.headers["ETag"] = f'"{table["version"]}"'
    return no_store(resp)


@bp.get("/<key>/export")
def export(key: str):
    fmt = request.args.get("format", "json")
    content, mimetype = service().export(key, fmt)
    resp = Response(content, mimetype=mimetype)
    resp.headers["Content-Disposition"] = f'attachment; filename="tenbou-{key}.{fmt}"'
    return resp
