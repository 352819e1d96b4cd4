#!/usr/bin/python3
"""defaults.py: no module of the Python package spells a number of the engine's table of defaults.

The package reads the σ grid, the gate rule, σ_data, the presets and the online samplers'
settings from noisescope/defaults.json (the CLI's table; test_python_defaults_json in
CMakeLists.txt holds the checked-in copy equal to the build's). This test reads every number in
that table and fails on any Python number token in the package (integrations/python/noisescope)
with the same value, except small numbers that are mathematics there (½ in erfc, the 2 of σ², the
Simpson weights) and the parser's upper limit 64 of smoothing passes and gate n
(docs/training.md). The example loop's own settings (batch, learning rate) are the example's.
"""
import ast
import glob
import json
import os
import sys
import tokenize
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "integrations", "python")
TABLE = os.path.join(ROOT, "noisescope", "defaults.json")
MATHEMATICS = {0, 1, 2, 3, 0.5}
LIMITS = {64}


def table_numbers(value):
    if isinstance(value, bool):
        return set()
    if isinstance(value, (int, float)):
        return {abs(value)}
    if isinstance(value, dict):
        return set().union(*map(table_numbers, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(table_numbers, value)) if value else set()
    return set()


def number_tokens(path):
    with open(path, "rb") as source:
        for token in tokenize.tokenize(source.readline):
            if token.type == tokenize.NUMBER:
                yield token.start[0], token.string, ast.literal_eval(token.string)


class RestatedDefaultsTest(unittest.TestCase):
    def test_package_spells_no_default(self):
        with open(TABLE, encoding="utf-8") as file:
            forbidden = table_numbers(json.load(file)) - MATHEMATICS - LIMITS
        self.assertIn(0.002, forbidden)  # the table is what this test thinks it is
        self.assertIn(0.15, forbidden)
        files = sorted(glob.glob(os.path.join(ROOT, "noisescope", "*.py")))
        self.assertGreaterEqual(len(files), 10)
        found = [f"{os.path.relpath(path, ROOT)}:{line}: {text}"
                 for path in files for line, text, value in number_tokens(path)
                 if not isinstance(value, complex) and abs(value) in forbidden]
        self.assertEqual(found, [], "numbers of defaults.json spelled in the package; read them from "
                                    "noisescope.defaults instead")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
