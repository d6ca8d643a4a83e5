"""What every benchmark records about the machine it ran on."""

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
