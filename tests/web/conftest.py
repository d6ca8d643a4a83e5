"""An in-process site over a fresh SQLite file for the API tests."""

import pytest
from fastapi.testclient import TestClient

from hamle.web import create_app


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "hamle.sqlite3", warm=False)) as test_client:
        yield test_client
