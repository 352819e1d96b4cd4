#!/usr/bin/env python3
"""One owner per default: NoiseScope's own σ range, σ_data fallback, min-SNR γ and low-noise gate
are written as numbers only in core/schedule/engine_defaults.h; every other file names them.

A trainer's own published constants (k-diffusion's σ range, EDM's σ_data) belong to that trainer's
table under core/schedule/trainers/ and are allowed there. Comments are not code and are skipped,
so the docs in a header may still say "0.002 … 80". Usage: check_default_owners.py REPO_ROOT
"""
import pathlib
import re
import sys

OWNER = "core/schedule/engine_defaults.h"
# Folders whose files hold an outside tool's published numbers.
TRAINER_TABLES = ("core/schedule/trainers/",)
SCANNED = ("core", "app", "ui", "integrations/python")

# Each rule's literal as it is written where it is restated: a bare σ end, or a named setting
# given the value.
RULES = {
    "σ range (kSigmaMin/kSigmaMax)": re.compile(r"(?<![\w.])(0\.002|80\.0)(?![\w.])"),
    "σ_data fallback (kSigmaDataFallback)": re.compile(
        r"(?i)sigma_?data\w*\s*(=|:|\(|,)\s*0\.5(?![\d])"),
    "min-SNR γ (kMinSnrGamma)": re.compile(r"(?i)gamma\w*\s*(=|:)\s*5(\.0)?(?![\d.])"),
    "gate c (kGateC/kGateCDiscrete)": re.compile(r"(?i)gate_?c\w*\s*(=|:)\s*0\.(15|2)(?![\d])"),
    "gate n (kGateN)": re.compile(r"(?i)gate_?n\w*\s*(=|:)\s*3(\.0)?(?![\d.])"),
    # A LossWeight spelled with both: {Kind, σ_data, γ}.
    "σ_data and γ in a LossWeight": re.compile(r"Kind::\w+,\s*0\.5,\s*5(\.0)?\s*\}"),
}


def code_lines(path):
    """The file's lines with comments (and Python docstrings) blanked, numbered from 1."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".py":
        text = re.sub(r'"""(.|\n)*?"""', lambda m: "\n" * m.group(0).count("\n"), text)
        strip = re.compile(r"#.*$")
    else:
        text = re.sub(r"/\*(.|\n)*?\*/", lambda m: "\n" * m.group(0).count("\n"), text)
        strip = re.compile(r"//.*$")
    return [strip.sub("", line) for line in text.split("\n")]


def main(root):
    root = pathlib.Path(root)
    found = []
    for folder in SCANNED:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".cpp", ".h", ".py") or not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            if rel == OWNER or rel.startswith(TRAINER_TABLES):
                continue
            for number, line in enumerate(code_lines(path), 1):
                for rule, pattern in RULES.items():
                    if pattern.search(line):
                        found.append(f"{rel}:{number}: restates the {rule}: {line.strip()}")
    if found:
        print("These lines write a default whose owner is " + OWNER + "; name it instead:")
        print("\n".join(found))
        return 1
    print(f"every σ range, σ_data, γ and gate default is written only in {OWNER}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
