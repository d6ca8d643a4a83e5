"""What every benchmark shares: what it records about the machine it ran on, and how it
writes its report."""

import json
import os
import platform
from pathlib import Path

import numba
import numpy as np


def machine() -> dict:
    """Platform, CPU model and count, Python, NumPy and Numba versions, 1-minute load."""
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
    }


def write_report(report: dict, out: Path) -> None:
    """Write the report as indented JSON to ``out`` (creating its folder) and print it."""
    text = json.dumps(report, indent=2, ensure_ascii=False)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", encoding="utf-8")
    print(text)
