#!/usr/bin/env python3
"""The one door, checked: the faces (ui/, app/) include only core/pipeline headers, plus the
value-type headers that docs/architecture.md names between its "face-value-headers" markers.

Usage: check_face_includes.py SOURCE_DIR
Exits 1 and lists every stray include (file:line: header). The build enforces most of this by
itself (core/face_headers.cmake: a header behind the door is not on a face's include path); this
check also catches a header that is on the path only because a pipeline header includes it."""
import pathlib
import re
import sys

LOWER_LIBRARIES = ("util", "data", "profile", "schedule", "io", "render", "tensor", "diagnostic",
                   "train")
MAX_VALUE_HEADERS = 12
# "core/io/x.h" reaches the same header through the repository root, which ui/ puts on its path.
INCLUDE = re.compile(r'^\s*#\s*include\s+"(?:core/)?([a-z_]+)/([^"]+)"')


def allowed_value_headers(doc: pathlib.Path) -> list:
    text = doc.read_text(encoding="utf-8")
    match = re.search(r"<!-- face-value-headers -->(.*?)<!-- /face-value-headers -->", text, re.S)
    if not match:
        sys.exit(f"{doc}: no <!-- face-value-headers --> list; the door has no list of value headers")
    headers = re.findall(r"`([a-z_]+/[a-z_0-9]+\.h)`", match.group(1))
    if not headers:
        sys.exit(f"{doc}: the face-value-headers list is empty")
    if len(headers) > MAX_VALUE_HEADERS:
        sys.exit(f"{doc}: {len(headers)} value headers listed; the door allows at most "
                 f"{MAX_VALUE_HEADERS}")
    return headers


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    allowed = set(allowed_value_headers(root / "docs" / "architecture.md"))
    strays = []
    for face in ("ui", "app"):
        for path in sorted((root / face).rglob("*")):
            if path.suffix not in (".h", ".cpp"):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                m = INCLUDE.match(line)
                if not m or m.group(1) not in LOWER_LIBRARIES:
                    continue
                header = f"{m.group(1)}/{m.group(2)}"
                if header in allowed:
                    continue
                strays.append(f"{path.relative_to(root)}:{number}: {header}")
    if strays:
        print("the faces include lower-library headers that are not named value types "
              "(ask core/pipeline instead, or name the header in docs/architecture.md):")
        print("\n".join(strays))
        print(f"{len(strays)} stray includes")
        return 1
    print(f"the faces include only pipeline/ and the {len(allowed)} named value headers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
