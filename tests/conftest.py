import pytest

from app import create_app


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite3'}",
                       "CONTRIBUTIONS_DIR": str(tmp_path / "contributions")})


@pytest.fixture
def client(app):
    return app.test_client()
