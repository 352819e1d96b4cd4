"""The engine's table of defaults (core/pipeline/defaults.h), as the package ships it.

defaults.json is exactly what `noisescope-cli defaults --json` prints; the ctest
test_python_defaults_json fails when the checked-in copy differs from the CLI's output, so the
presets, the σ range, the gate rule and the σ_data fallback here are the C++ engine's.
"""

import json
import os

with open(os.path.join(os.path.dirname(__file__), "defaults.json"), encoding="utf-8") as _file:
    TABLE = json.load(_file)

SIGMA_MIN = TABLE["grid"]["sigma_min"]
SIGMA_MAX = TABLE["grid"]["sigma_max"]
GATE_N = TABLE["gate"]["n"]
SIGMA_DATA = TABLE["sigma_data_fallback"]

# preset name → (family name, every parameter of the family)
PRESETS = {p["name"]: (p["family"], dict(p["parameters"])) for p in TABLE["presets"]}


def auto_gate_c(discrete):
    """Gate "auto": c for the kind of data (THEORY §6)."""
    return TABLE["gate"]["auto"]["discrete" if discrete else "continuous"]
