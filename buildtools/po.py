"""The message catalogs' build step: gettext ``.po`` sources compiled into one ``.mo`` per language.

Sources: ``pyengine/i18n/<domain>.<lang>.po`` (the shell's domains) and
``pyengine/games/<id>/i18n/<domain>.<lang>.po`` (each game's). A msgid is the message key
(``perudo.round``); a message that depends on a count has ``msgid_plural`` (the same key) and
one ``msgstr[n]`` per plural form of its language, chosen by the ``Plural-Forms`` header.

Compiled: ``pyengine/i18n/compiled/<lang>.mo`` (every domain of one language merged, so the
worker opens one file per language), which the standard library's ``gettext`` reads at run
time. The folder is a build output (git ignores it): ``build.py`` writes it before the wheel
is made, and ``tests/conftest.py`` before any test runs, so plain ``python -m pytest`` works.
polib (from PyPI, installed by ``build.py`` into ``.cache/tools/``) parses and writes.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script, or loaded from its path
from buildtools.pypi_tools import tool  # noqa: E402
from buildtools.workspace import built_beside  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "pyengine"
COMPILED = PACKAGE / "i18n" / "compiled"

# Each language's gettext header: its locale name and plural rule (CLDR's "one"/"other" as
# gettext's two forms; pt is Brazilian: 0 and 1 are singular). PLURAL_CATEGORIES names the
# CLDR category of each msgstr index, used by the JSON converter and the page's catalogs.
LOCALE_NAMES = {"en": "en", "pt": "pt_BR", "es": "es", "ca": "ca", "it": "it"}
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "pt": "nplurals=2; plural=(n > 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "ca": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
}
PLURAL_CATEGORIES = {lang: ("one", "other") for lang in PLURAL_FORMS}


def polib():
    """The polib module (see ``pypi_tools.tool``)."""
    return tool("polib")


def po_files(lang: str) -> list:
    """Every ``.po`` of one language: the shell's domains, then each game package's."""
    return [
        *sorted((PACKAGE / "i18n").glob(f"*.{lang}.po")),
        *sorted((PACKAGE / "games").glob(f"*/i18n/*.{lang}.po")),
    ]


def header(lang: str) -> dict:
    """The metadata every ``.po`` of ``lang`` carries."""
    return {
        "Language": LOCALE_NAMES[lang],
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": PLURAL_FORMS[lang],
    }


def read_po(path: Path) -> dict:
    """``{key: template}`` of one ``.po`` file; a plural message maps to ``{category: template}``
    (CLDR category names, as the page's ``Intl.PluralRules`` says). Raises ``ValueError`` when
    its header is not its language's."""
    lang = Path(path).name.split(".")[-2]
    catalog = polib().pofile(str(path))
    if catalog.metadata.get("Plural-Forms") != PLURAL_FORMS[lang]:
        raise ValueError(f"{path}: Plural-Forms must be {PLURAL_FORMS[lang]!r}")
    categories = PLURAL_CATEGORIES[lang]
    messages: dict = {}
    for entry in catalog:
        if entry.obsolete or entry.fuzzy:
            continue
        if entry.msgid_plural:
            messages[entry.msgid] = {c: entry.msgstr_plural.get(i, "") for i, c in enumerate(categories)}
        else:
            messages[entry.msgid] = entry.msgstr
    return messages


def read_messages(lang: str) -> dict:
    """``{key: template}`` of one language, every domain merged (see ``read_po``). Raises
    ``ValueError`` on a key defined in two catalogs."""
    messages: dict = {}
    for path in po_files(lang):
        for key, template in read_po(path).items():
            if key in messages:
                raise ValueError(f"{path}: {key!r} is defined in another catalog too")
            messages[key] = template
    return messages


def compile_catalogs(languages=tuple(LOCALE_NAMES), out: Path = COMPILED) -> list:
    """Writes ``out/<lang>.mo`` for each language (skipped when newer than every source) and
    returns the paths. Each file is written beside and renamed into place."""
    po = polib()
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for lang in languages:
        sources = po_files(lang)
        target = out / f"{lang}.mo"
        written.append(target)
        # A removed source changes its folder's time, an edited one its own.
        inputs = [*sources, *{p.parent for p in sources}, Path(__file__)]
        newest = max(p.stat().st_mtime_ns for p in inputs)
        if target.exists() and target.stat().st_mtime_ns > newest:
            continue
        merged = po.POFile()
        merged.metadata = header(lang)
        for key, template in read_messages(lang).items():
            if isinstance(template, dict):
                plural = dict(enumerate(template.values()))
                merged.append(po.POEntry(msgid=key, msgid_plural=key, msgstr_plural=plural))
            else:
                merged.append(po.POEntry(msgid=key, msgstr=template))
        with built_beside(target) as fresh:
            merged.save_as_mofile(str(fresh))
    return written


if __name__ == "__main__":
    for path in compile_catalogs():
        print(path.relative_to(ROOT))
