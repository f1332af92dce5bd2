"""Tenbou's Flask application factory."""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

ROOT = os.path.dirname(os.path.abspath(__file__))


def database_url_from_env() -> str:
    """The database create_app() uses when configured from the environment (as under gunicorn)."""
    url = os.environ.get("DATABASE_URL") or os.environ.get("TENBOU_DATABASE_URL")
    if url:
        return url
    os.makedirs(os.path.join(ROOT, "instance"), exist_ok=True)
    return "sqlite:///" + os.path.join(ROOT, "instance", "tenbou.sqlite3")


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. A mapping passed in overrides the configuration (Flask tutorial style)."""
    app = Flask(__name__, instance_relative_config=True)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL="sqlite:///" + os.path.join(app.instance_path, "tenbou.sqlite3"),
        MAX_CONTENT_LENGTH=20 * 1024 * 1024,  # photos; JSON bodies are capped lower (web/security.py)
        MAX_JSON_BYTES=256 * 1024,
        INTEGRITY_CHECK_SECONDS=300,  # /healthz runs SQLite's quick_check at most this often per process
        MIGRATE=True,  # bring the database schema up to date at start (False: only check it is)
        # Per client (web/limits.py; Flask-Limiter notation, "" turns one off). A phone at a table
        # polls its table every few seconds; several phones may share one address behind a NAT.
        RATE_LIMITS={
            "recognize": "10 per 10 seconds; 30 per minute",
            "contribute": "5 per 10 seconds; 10 per minute",   # photos players share for training
            "table_create": "30 per minute; 300 per hour",   # tables, events' games, next games
            "event_create": "10 per minute; 50 per hour",
            "table_read": "600 per minute",
            "table_miss": "30 per minute",   # reads of codes that do not exist (tables, events): only these are refused
        },
        RATE_LIMIT_STORAGE="memory://",      # REDIS_URL: one count across workers and machines
        RATE_LIMIT_STRATEGY="sliding-window-counter",  # or "moving-window": exact, dearer (web/limits.py)
        RATE_LIMIT_PREFIX="tenbou",          # keys in that store start with it (apps sharing a Redis)
        TRUSTED_PROXIES="",                  # proxies whose X-Forwarded-For is believed
        CONTRIBUTIONS_DIR=None,  # photos players share (web/contributions.py); None: instance/contributions
        CONTRIBUTIONS_MAX_COUNT=5000,
        CONTRIBUTIONS_MAX_BYTES=2 * 1024 ** 3,
        CONTRIBUTION_MAX_PHOTO_BYTES=8 * 1024 * 1024,
        MAX_EVENT_GAMES=1000,    # games one event may hold (TENBOU_MAX_EVENT_GAMES)
    )
    if test_config is None:
        app.config.from_prefixed_env("TENBOU")
        app.config["DATABASE_URL"] = database_url_from_env()
        if os.environ.get("REDIS_URL"):
            app.config["RATE_LIMIT_STORAGE"] = os.environ["REDIS_URL"]
        if os.environ.get("TRUSTED_PROXIES"):
            app.config["TRUSTED_PROXIES"] = os.environ["TRUSTED_PROXIES"]
    else:
        app.config.from_mapping(test_config)

    from services.events import EventService
    from services.tables import TableService
    from storage import Database, migrate
    from web import api, bodies, contributions, errors, events, health, limits, openapi, pages, recognize, security, tables
    from web.compression import init_compression

    database = Database(app.config["DATABASE_URL"])
    # Prepare the schema: gunicorn's master does it once before forking (gunicorn.conf.py) and sets
    # TENBOU_MIGRATE=false, so its workers only check; anything else (tests, scripts) migrates
    # itself, under a lock that makes processes starting together take turns.
    try:
        if app.config["MIGRATE"]:
            migrate.upgrade(database.engine)
        else:
            migrate.check(database.engine)
    except BaseException:
        database.dispose()
        raise
    database.integrity_every = float(app.config["INTEGRITY_CHECK_SECONDS"])
    app.extensions["database"] = database
    app.extensions["tables"] = TableService(database, max_event_games=int(app.config["MAX_EVENT_GAMES"]))
    app.extensions["events"] = EventService(app.extensions["tables"])

    init_compression(app)  # registered first, so its hook runs last, on the finished response
    errors.register(app)
    bodies.register(app)   # before security (its refusals come first) and limits (whose proxy rule runs first)
    security.register(app)
    for blueprint in (api.bp, recognize.bp, contributions.bp, tables.bp, events.bp, health.bp, openapi.bp, pages.bp,
                      recognize.models_bp):
        app.register_blueprint(blueprint)
    limits.register(app)
    return app
