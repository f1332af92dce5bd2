"""Fixtures shared by the test modules: the app on a temporary SQLite database, and a table API
client on every storage backend the run has (SQLite always, PostgreSQL when TEST_DATABASE_URL
points at one). Plain helpers live in the *_helpers.py modules next to this file."""
import os

import pytest

from app import create_app
from server_helpers import PG_URL


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite3'}",
                       "CONTRIBUTIONS_DIR": str(tmp_path / "contributions")})


@pytest.fixture
def client(app):
    return app.test_client()


def _backends():
    yield "sqlite"
    if PG_URL:
        yield "postgres"
    elif os.environ.get("REQUIRE_POSTGRES"):
        raise RuntimeError("REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not")


@pytest.fixture(params=list(_backends()))
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    return PG_URL


@pytest.fixture
def tclient(db_url):
    app = create_app({"TESTING": True, "DATABASE_URL": db_url})
    yield app.test_client()
    app.extensions["database"].dispose()


# Files that take minutes run first: scripts/test runs the files on two processes, and a long file
# started last would run alone at the end (tests/test_training_script.py trains at a toy size).
FIRST = ("test_training_script.py",)


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.path.name not in FIRST)  # stable: the rest keep their order
