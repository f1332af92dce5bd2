"""JSON API for events (club nights, league seasons), and the printable results page."""
from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from services.events import EventService
from services.tables import TableError

from .api import json_body
from .errors import STATUS, ApiError
from .tables import _if_match, _table_error, _token, no_store

bp = Blueprint("events", __name__)


def service() -> EventService:
    return current_app.extensions["events"]


bp.register_error_handler(TableError, _table_error)


def _event_response(doc: dict, status: int = 200) -> Response:
    resp = jsonify(doc)
    resp.status_code = status
    resp.headers["ETag"] = f'"{doc["tag"]}"'
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.post("/api/events")
def create():
    doc = service().create(json_body())
    resp = _event_response(doc, 201)
    resp.headers["Location"] = f"/api/events/{doc['id']}"
    return no_store(resp)  # it carries the organiser token


@bp.get("/api/events/<key>")
def read(key: str):
    """Phones poll this: when neither the event nor any game changed, a 304 costs no game read."""
    etag = f'"{service().tag(key)}"'
    if etag in request.headers.get("If-None-Match", ""):
        resp = Response(status=304)
        resp.headers["ETag"] = etag
        return resp
    tag, text = service().read_json(key)
    resp = Response(text, mimetype="application/json")
    resp.headers["ETag"] = f'"{tag}"'
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/api/events/<key>/changes")
def changes(key: str):
    """What phones on the event page poll: 304 when nothing changed since ``since`` (the tag of the
    document they hold), else only what changed (see EventService.changes)."""
    since = request.args.get("since", "")
    if not since or len(since) > 64:
        return ApiError(400, "events_since", "since").response()
    tag, text = service().changes(key, since)
    if text is None:
        resp = Response(status=304)
    else:
        resp = Response(text, mimetype="application/json")
    resp.headers["ETag"] = f'"{tag}"'
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.patch("/api/events/<key>")
def update(key: str):
    return _event_response(service().update(key, _token(), json_body(), _if_match()))


@bp.post("/api/events/<key>/rounds")
def draw_round(key: str):
    return no_store(_event_response(service().draw_round(key, _token(), json_body(), _if_match()), 201))  # the games' edit tokens


@bp.post("/api/events/<key>/games")
def add_game(key: str):
    return no_store(_event_response(service().add_game(key, _token(), json_body(), _if_match()), 201))  # the game's edit token


@bp.put("/api/events/<key>/games/<table_id>")
def set_game(key: str, table_id: str):
    return _event_response(service().set_game(key, _token(), table_id, json_body(), _if_match()))


@bp.get("/api/events/<key>/export")
def export(key: str):
    fmt = request.args.get("format", "json")
    content, mimetype = service().export(key, fmt)
    resp = Response(content, mimetype=mimetype)
    resp.headers["Content-Disposition"] = f'attachment; filename="tenbou-event-{key}.{fmt}"'
    return resp


@bp.get("/events/<key>/print")
def print_page(key: str):
    """The results on one A4 page for a noticeboard: server-rendered, no script needed."""
    try:
        doc = service().read(key)
    except TableError as err:
        return render_template("event_print.html", doc=None, message=err.message), STATUS[err.kind]
    return render_template("event_print.html", doc=doc, message=None)
