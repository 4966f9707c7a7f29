"""Converts the JSON catalogs left in the tree into gettext ``.po`` (then deletes them).

    python buildtools/catalogs_to_po.py

Finds every ``pyengine/i18n/<domain>.<lang>.json`` and ``pyengine/games/<id>/i18n/<domain>.<lang>.json``
(flat ``key -> template`` maps; a count-bearing message is an object of CLDR categories,
``{"one": "{count} card left", "other": "{count} cards left"}``) and writes
``<domain>.<lang>.po`` beside it: msgid = the key, msgstr = the template; a plural object
becomes ``msgid_plural`` and ``msgstr[n]`` in the order of the language's ``Plural-Forms``
(a category the language needs but the object lacks takes its ``other`` text). When the
``.po`` already exists, the JSON's messages replace or extend its entries. A temporary tool:
run it after merging branches that still wrote JSON catalogs, then remove it.
"""

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from po import LOCALE_NAMES, PACKAGE, PLURAL_CATEGORIES, header, polib  # noqa: E402

NAME = re.compile(r"^(?P<domain>[\w-]+)\.(?P<lang>[a-z]{2})\.json$")


def json_catalogs() -> list:
    return [
        *sorted((PACKAGE / "i18n").glob("*.json")),
        *sorted((PACKAGE / "games").glob("*/i18n/*.json")),
    ]


def convert(path: Path) -> Path:
    """Writes (or updates) the ``.po`` for one JSON catalog and returns its path."""
    match = NAME.match(path.name)
    if not match or match["lang"] not in LOCALE_NAMES:
        raise SystemExit(f"{path}: not a <domain>.<lang>.json catalog of a known language")
    lang = match["lang"]
    po = polib()
    target = path.with_name(f"{match['domain']}.{lang}.po")
    catalog = po.pofile(str(target), wrapwidth=0) if target.exists() else po.POFile(wrapwidth=0)
    catalog.metadata = header(lang)
    for key, template in json.loads(path.read_text(encoding="utf-8")).items():
        entry = catalog.find(key)
        if entry is None:
            entry = po.POEntry(msgid=key)
            catalog.append(entry)
        if isinstance(template, dict):
            if "other" not in template:
                raise SystemExit(f"{path}: {key!r} needs an 'other' form")
            entry.msgid_plural, entry.msgstr = key, ""
            entry.msgstr_plural = {i: template.get(c, template["other"]) for i, c in enumerate(PLURAL_CATEGORIES[lang])}
        elif isinstance(template, str):
            entry.msgid_plural, entry.msgstr_plural, entry.msgstr = "", {}, template
        else:
            raise SystemExit(f"{path}: {key!r} is neither a string nor an object of plural forms")
    catalog.save(str(target))
    return target


def main() -> int:
    paths = json_catalogs()
    for path in paths:
        target = convert(path)
        path.unlink()
        print(f"{path.relative_to(PACKAGE.parent)} -> {target.name}")
    if not paths:
        print("no JSON catalog left")
    return 0


if __name__ == "__main__":
    sys.exit(main())
