"""Persistence of tables and their hand logs (SQLite by default, PostgreSQL by URL)."""
from .db import Database
from .service import TableError, TableService

__all__ = ["Database", "TableError", "TableService"]
