#!/usr/bin/env python3
"""The one door, checked: the faces (ui/, app/) include only the [pipeline] and [values] headers
of core/face_headers.txt, and no face parses LibTorch (torch, ATen, c10) or Eigen.

Usage: check_face_includes.py SOURCE_DIR [BUILD_DIR]
Without BUILD_DIR it reads the sources: every stray include (file:line: header). With BUILD_DIR it
also reads the dependencies of every face object there (the compiler's *.o.d files, or Ninja's log
of them, which replaces the files in a Ninja build) and names each one that pulled in a LibTorch or
Eigen header through any chain of includes. Exits 1 on a finding.
The build enforces most of this by itself (core/face_headers.cmake); this also catches a
[support] header included directly, and a third-party header that brings torch along."""
import pathlib
import re
import subprocess
import sys

LOWER_LIBRARIES = ("util", "data", "profile", "schedule", "io", "render", "tensor", "diagnostic",
                   "train", "pipeline")
# "core/io/x.h" reaches the same header through the repository root, which ui/ puts on its path.
INCLUDE = re.compile(r'^\s*#\s*include\s+"(?:core/)?([a-z_]+)/([^"]+)"')
HEAVY_INCLUDE = re.compile(r'^\s*#\s*include\s+<(torch|ATen|c10|Eigen|unsupported/Eigen)/')
HEAVY_DEPENDENCY = re.compile(r"/include/(torch|ATen|c10|eigen3)/")
FACE_OBJECT_FOLDERS = ("app/CMakeFiles", "ui/CMakeFiles")


def face_list(path: pathlib.Path) -> dict:
    sections = {"pipeline": [], "values": [], "support": []}
    section = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r"\[(pipeline|values|support)\]", line)
        if m:
            section = m.group(1)
        elif section is None:
            sys.exit(f"{path}:{number}: '{line}' comes before any [section]")
        else:
            sections[section].append(line)
    if not sections["pipeline"] or not sections["values"]:
        sys.exit(f"{path}: the [pipeline] or [values] list is empty; the door has no API")
    return sections


def source_strays(root: pathlib.Path, allowed: set) -> list:
    strays = []
    for face in ("ui", "app"):
        for path in sorted((root / face).rglob("*")):
            if path.suffix not in (".h", ".cpp"):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                where = f"{path.relative_to(root)}:{number}"
                if HEAVY_INCLUDE.match(line):
                    strays.append(f"{where}: {line.strip()} (a face parses no LibTorch or Eigen)")
                    continue
                m = INCLUDE.match(line)
                if not m or m.group(1) not in LOWER_LIBRARIES:
                    continue
                header = f"{m.group(1)}/{m.group(2)}"
                if header not in allowed:
                    strays.append(f"{where}: {header}")
    return strays


def face_dependencies(build: pathlib.Path) -> dict:
    """Each face object (relative path) with the text of its dependency list."""
    if (build / ".ninja_deps").exists():
        return ninja_dependencies(build)
    found = {}
    for folder in FACE_OBJECT_FOLDERS:
        for depfile in sorted((build / folder).rglob("*.o.d")):
            found[str(depfile.relative_to(build))[: -len(".d")]] = depfile.read_text(
                encoding="utf-8", errors="replace")
    return found


def ninja_dependencies(build: pathlib.Path) -> dict:
    """Ninja reads each *.o.d into its log and deletes it; `ninja -t deps` prints the log."""
    listing = subprocess.run(["ninja", "-C", str(build), "-t", "deps"], capture_output=True,
                             text=True, check=True).stdout
    found, current = {}, None
    for line in listing.splitlines():
        header = re.match(r"^(\S.*\.o): #deps", line)
        if header:
            current = header.group(1) if header.group(1).startswith(FACE_OBJECT_FOLDERS) else None
            if current:
                found[current] = ""
        elif current and line.strip():
            found[current] += line.strip() + "\n"
    return found


def heavy_face_objects(build: pathlib.Path) -> tuple:
    """(face objects read, face objects that depend on a LibTorch or Eigen header)."""
    read, heavy = 0, []
    for obj, text in sorted(face_dependencies(build).items()):
        if "_autogen" in obj or "defaults_json" in obj:
            continue
        read += 1
        found = HEAVY_DEPENDENCY.search(text)
        if found:
            heavy.append(f"{obj}: parses {found.group(1)} headers{batch_members(build, obj)}")
    return read, heavy


def batch_members(build: pathlib.Path, obj: str) -> str:
    """For a unity batch (NOISESCOPE_UNITY_BUILD), the files it compiles: one of them is the culprit,
    and `-DNOISESCOPE_UNITY_BUILD=OFF` names it."""
    if "/Unity/" not in obj:
        return ""
    batch = build / obj[: -len(".o")]
    try:
        members = re.findall(r'#include "([^"]+)"', batch.read_text(encoding="utf-8"))
    except OSError:
        return " (a unity batch)"
    names = ", ".join(pathlib.Path(m).name for m in members)
    return f" (a unity batch of {names})"


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    sections = face_list(root / "core" / "face_headers.txt")
    allowed = set(sections["pipeline"]) | set(sections["values"])
    failed = False
    strays = source_strays(root, allowed)
    if strays:
        print("the faces include core headers that are neither [pipeline] nor [values] in "
              "core/face_headers.txt (ask core/pipeline instead, or list the header):")
        print("\n".join(strays))
        print(f"{len(strays)} stray includes")
        failed = True
    else:
        print(f"the faces include only the {len(allowed)} [pipeline] and [values] headers")
    if len(sys.argv) > 2:
        build = pathlib.Path(sys.argv[2]).resolve()
        read, heavy = heavy_face_objects(build)
        if read == 0:
            print(f"{build}: no face dependencies (*.o.d or Ninja's log) to read: build the faces first")
            failed = True
        elif heavy:
            print("face translation units that parse LibTorch or Eigen:")
            print("\n".join(heavy))
            failed = True
        else:
            print(f"none of the {read} face translation units parses LibTorch or Eigen")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
