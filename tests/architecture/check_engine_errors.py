#!/usr/bin/env python3
"""Engine errors name the setting, not a face's control: no InputError in core/ is sourced by a
CLI flag ("--memory"); it names the setting (util/setting_names.h) and the CLI maps that to its
flag (app/cli/flag_names.cpp), so the workbench shows words its user can act on. Usage:
check_engine_errors.py REPO_ROOT"""
import pathlib
import re
import sys

FLAG_SOURCE = re.compile(r'InputError\(\s*(std::string\()?"--')


def main(root):
    root = pathlib.Path(root)
    found = []
    for path in sorted((root / "core").rglob("*")):
        if path.suffix not in (".cpp", ".h"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FLAG_SOURCE.search(line.split("//")[0]):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    names = (root / "core/util/setting_names.h").read_text(encoding="utf-8")
    table = (root / "app/cli/flag_names.cpp").read_text(encoding="utf-8")
    for name in re.findall(r"inline constexpr const char\* (k\w+) =", names):
        if f"s::{name}," not in table:
            found.append(f"app/cli/flag_names.cpp: the setting {name} has no flag")
    if found:
        print("Engine errors must name the setting (util/setting_names.h), and the CLI must map "
              "every setting to its flag:")
        print("\n".join(found))
        return 1
    print("every engine error names a setting, and the CLI maps each to a flag")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
