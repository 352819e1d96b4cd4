"""The engine's table of defaults (core/pipeline/defaults.h), as the package ships it.

Not a mirror: it reads the table, and restates none of it.

defaults.json is exactly what `noisescope-cli defaults --json` prints; the ctest
test_python_defaults_json fails when the checked-in copy differs from the CLI's output, so the
presets, the σ range, the gate rule, the σ_data fallback and the online samplers' settings here
are the C++ engine's. No module of the package spells one of these numbers itself
(test_python_no_restated_defaults).
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

# The trainer's `noise` section as a config without one gets it (docs/training.md), and the exact
# bins its base (warm-up, static) schedule is discretised on.
NOISE = dict(TABLE["training"]["noise"])
BASE_SCHEDULE_BINS = TABLE["training"]["base_schedule_bins"]
MIN_SNR_GAMMA = NOISE["min_snr_gamma"]


def auto_gate_c(discrete):
    """Gate "auto": c for the kind of data (THEORY §6)."""
    return TABLE["gate"]["auto"]["discrete" if discrete else "continuous"]
