"""What every benchmark shares: what it records about the machine it ran on, how it
writes its report, and the checks of its arguments made before any work."""

import argparse
import json
import math
import os
import platform
import sys
from pathlib import Path

import numba
import numpy as np

from hamle.fingerprint import fingerprint


class Arguments(argparse.ArgumentParser):
    """A benchmark's argument parser: an option given twice is refused (argparse keeps its
    last value alone, so ``--rules classic --rules russian`` ran the Russian half only),
    and no option is taken by an abbreviation of its name."""

    ONCE = (argparse._StoreAction, argparse._StoreConstAction, argparse.BooleanOptionalAction)

    def __init__(self, **options) -> None:
        super().__init__(allow_abbrev=False, **options)

    def parse_known_args(self, args=None, namespace=None):
        given = list(sys.argv[1:] if args is None else args)
        words = given[: given.index("--")] if "--" in given else given
        for action in self._actions:
            if action.option_strings and isinstance(action, self.ONCE):
                times = sum(w.split("=", 1)[0] in action.option_strings for w in words)
                if times > 1:
                    names = "/".join(action.option_strings)
                    self.error(f"{names} is given {times} times; give it once, with all its values")
        return super().parse_known_args(args, namespace)


def machine() -> dict:
    """Platform, CPU model and count, Python, NumPy and Numba versions, 1-minute load, and
    which hamle ran (``hamle.fingerprint``: its version and a hash of its source)."""
    cpu = platform.processor()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        models = [ln for ln in cpuinfo.read_text().splitlines() if ln.startswith("model name")]
        cpu = models[0].split(":", 1)[1].strip() if models else cpu
    return {
        "platform": platform.platform(),
        "cpu": cpu,
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "load_average_1_min_at_start": round(os.getloadavg()[0], 2),
        "hamle": fingerprint(),
    }


def write_report(report: dict, out: Path) -> None:
    """Write the report as indented JSON to ``out`` (creating its folder) and print it."""
    text = json.dumps(report, indent=2, ensure_ascii=False)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", encoding="utf-8")
    print(text)


def positive_int(text: str) -> int:
    """An argparse ``type``: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def jobs_count(text: str) -> int:
    """An argparse ``type``: processes for a run, 1 to ``hamle.cluster.MAX_JOBS``."""
    from hamle.cluster import MAX_JOBS

    value = positive_int(text)
    if value > MAX_JOBS:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_JOBS}, not {value}")
    return value


def positive_float(text: str) -> float:
    """An argparse ``type``: a finite number above 0 (not inf or nan)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, not {text}")
    return value


def at_most(limit: int, kind=positive_int, unit: str = ""):
    """An argparse ``type``: a value of ``kind`` (``positive_int`` or ``positive_float``)
    of at most ``limit`` (``unit`` follows it in the message)."""

    def parse(text: str):
        value = kind(text)
        if value > limit:
            raise argparse.ArgumentTypeError(f"must be at most {limit:,}{unit}, not {text.strip()}")
        return value

    return parse


# ``--seconds`` of load on a server (bench/site.py, bench/crash.py): an hour at most.
load_seconds = at_most(3600, positive_float, " seconds (an hour)")


def report_file(text: str) -> Path:
    """An argparse ``type``: a file to write, not a path that names a folder (``out.json/``
    was written to out.json, as a Path drops its last slash)."""
    from hamle.cli.common import names_a_folder

    if names_a_folder(text):
        raise argparse.ArgumentTypeError(f"{text!r} names a folder, not a file")
    return Path(text)


def check_out(parser: argparse.ArgumentParser, out: Path, option: str = "--out") -> None:
    """Make sure ``write_report`` will be able to write ``out`` at the end of the run:
    create its folder now, as the writer would, and stop with a usage error if it is a
    folder or cannot be written."""
    if out.is_dir():
        parser.error(f"{option} {out} is a folder, not a file")
    for folder in out.parents:
        if folder.exists():
            if not folder.is_dir():
                parser.error(f"{option} {out} is under {folder}, which is a file")
            break
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.exists():
            with out.open("a"):  # opened, not changed
                pass
        else:
            with out.open("x"):
                pass
            out.unlink()
    except OSError as error:
        parser.error(f"{option} {out} cannot be written: {error.strerror or error}")


def no_repeats(parser: argparse.ArgumentParser, option: str, names: list[str]) -> None:
    """Stop with a usage error if a name is given twice (it would be run twice)."""
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        parser.error(f"{option} names {', '.join(repeated)} more than once")
