"""Errors the scoring engine raises: each names the request field that was wrong."""
from __future__ import annotations


class ScoringError(ValueError):
    """A request that cannot be scored. ``status`` is 400 when malformed, 422 when impossible."""

    def __init__(self, field: str | None, message: str, status: int = 422):
        super().__init__(message)
        self.field = field
        self.message = message
        self.status = status

    def to_dict(self) -> dict:
        return {"field": self.field, "message": self.message}


class NotationError(ScoringError):
    """Tile notation that cannot be read (HTTP 400)."""

    def __init__(self, message: str, field: str = "hand"):
        super().__init__(field, message, 400)
