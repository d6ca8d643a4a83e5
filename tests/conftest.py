"""Every test run keeps solved Mastermind trees in a directory of its own."""

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def own_cache_dir(tmp_path_factory):
    os.environ["HAMLE_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
