"""Tenbou's Flask application factory."""
from __future__ import annotations

import os
from typing import Any, Mapping

from flask import Flask


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. A mapping passed in overrides the configuration (Flask tutorial style)."""
    app = Flask(__name__, instance_relative_config=True)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL="sqlite:///" + os.path.join(app.instance_path, "tenbou.sqlite3"),
        MAX_CONTENT_LENGTH=20 * 1024 * 1024,  # photos; JSON bodies are capped lower (web/security.py)
        MAX_JSON_BYTES=256 * 1024,
        # per client and process: 30 photos a minute, bursts of 10; shared photos fewer
        RATE_LIMITS={"recognize": (30, 10), "contribute": (10, 5)},
        CONTRIBUTIONS_DIR=None,  # photos players share (web/contributions.py); None: instance/contributions
        CONTRIBUTIONS_MAX_COUNT=5000,
        CONTRIBUTIONS_MAX_BYTES=2 * 1024 ** 3,
        CONTRIBUTION_MAX_PHOTO_BYTES=8 * 1024 * 1024,
    )
    if test_config is None:
        app.config.from_prefixed_env("TENBOU")
        if os.environ.get("DATABASE_URL"):
            app.config["DATABASE_URL"] = os.environ["DATABASE_URL"]
    else:
        app.config.from_mapping(test_config)

    from tables import Database, TableService
    from web import api, contributions, errors, health, openapi, security, pages, recognize, tables

    database = Database(app.config["DATABASE_URL"])
    app.extensions["database"] = database
    app.extensions["tables"] = TableService(database)

    errors.register(app)
    security.register(app)
    for blueprint in (api.bp, recognize.bp, contributions.bp, tables.bp, health.bp, openapi.bp, pages.bp):
        app.register_blueprint(blueprint)
    return app
