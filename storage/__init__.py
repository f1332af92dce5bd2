"""Storage: all SQL (SQLAlchemy Core; SQLite by default, PostgreSQL by URL) and its migrations."""
from .db import Database

__all__ = ["Database"]
