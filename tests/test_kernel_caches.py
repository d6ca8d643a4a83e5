"""Numba's cache of a kernel file is checked against that file alone: a function or constant
compiled in from another file could change and leave the cache stale, giving old answers. So
each kernel file carries a stamp of what it takes from other hamle modules, and this test
makes sure the stamp follows them (a change there then changes the kernel file too)."""

import ast
import hashlib
import importlib
import importlib.util
import inspect
import types
from pathlib import Path

import numpy as np
import pytest

import hamle

SOURCE = Path(hamle.__file__).parent
KERNEL_FILES = sorted(p for p in SOURCE.rglob("*.py") if "@njit" in p.read_text(encoding="utf-8"))


def taken(module: types.ModuleType, names: list[str]) -> dict[str, object]:
    """``names`` of ``module`` with every global their functions refer to, in turn (each
    looked up where its function is defined): hamle's functions, modules and values, not
    what comes from numpy or numba, which their versions stand for. Keyed module.name."""
    found: dict[str, object] = {}
    waiting = [(vars(module), name) for name in names]
    while waiting:
        space, name = waiting.pop()
        key = f"{space['__name__']}.{name}"
        if key in found or name not in space:
            continue
        value = space[name]
        function = getattr(value, "py_func", value)  # (a kernel's Python function)
        if isinstance(value, types.ModuleType):
            home = value.__name__
        elif inspect.isfunction(function) or inspect.isclass(value) or callable(value):
            home = getattr(function, "__module__", "") or ""
        else:
            home = space["__name__"]  # a value: a constant compiled in
        if not home.startswith("hamle"):
            continue
        found[key] = value
        if inspect.isfunction(function):
            codes = [function.__code__]
            while codes:
                code = codes.pop()
                waiting += [(function.__globals__, ref) for ref in code.co_names]
                codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return found


def stamp(module: types.ModuleType, names: list[str]) -> str:
    """A digest of the source of the functions, modules and classes ``names`` take, and
    of their values (arrays byte for byte)."""
    lines = []
    for key, value in sorted(taken(module, names).items()):
        value = getattr(value, "py_func", value)
        if inspect.isfunction(value) or inspect.isclass(value) or inspect.ismodule(value):
            said = inspect.getsource(value)
        elif isinstance(value, np.ndarray | np.generic):  # (numpy 1 and 2 repr scalars apart)
            said = f"{value.dtype} {np.shape(value)} {value.tobytes().hex()}"
        else:
            said = repr(value)
        lines.append(f"{key}: {said}")
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of each ``from … import`` of a hamle module in ``path``."""
    package = ".".join(path.relative_to(SOURCE.parent).with_suffix("").parts[:-1])
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and (node.level or node.module.startswith("hamle.")):
            name = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            found.append((name, [alias.name for alias in node.names]))
    return found


@pytest.mark.parametrize("path", KERNEL_FILES, ids=lambda p: str(p.relative_to(SOURCE)))
def test_a_kernel_file_carries_the_stamp_of_what_it_compiles_in_from_others(path):
    text = path.read_text(encoding="utf-8")
    for module, names in imports(path):
        line = f"# numba cache stamp of {module}: {stamp(importlib.import_module(module), names)}"
        assert line in text, f"{path.name} should carry the line '{line}'"


def test_the_stamp_follows_a_change_of_what_is_taken():
    before = stamp(importlib.import_module("hamle.mastermind._vector"), ["TIE"])
    changed = types.ModuleType("changed")
    changed.TIE = 2e-9
    assert stamp(changed, ["TIE"]) != before
    kernels = importlib.import_module("hamle.battleship._kernels")
    assert "hamle.battleship._kernels._mul_high" in taken(kernels, ["pcg64_next"])  # (in turn)
