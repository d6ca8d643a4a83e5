"""Every test run keeps solved Mastermind trees in a directory of its own; tests of the
benchmarks load a script of ``bench/`` as a module."""

import importlib.util
import os
from pathlib import Path

import pytest

BENCH = Path(__file__).parents[1] / "bench"


@pytest.fixture(autouse=True, scope="session")
def own_cache_dir(tmp_path_factory):
    os.environ["HAMLE_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def load_bench():
    """A function loading ``bench/<name>.py`` afresh as a module on each call."""

    def load(name: str):
        spec = importlib.util.spec_from_file_location(f"{name}_bench", BENCH / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    return load
