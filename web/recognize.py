"""JSON API: photo to tiles (POST /api/recognize). Owned by the recognition work."""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("recognize", __name__, url_prefix="/api")
