"""Message catalogs: ``<domain>.<lang>.json`` files of flat ``key -> template`` maps.

The shell's domains (``shell``, ``core``, ``sync``, ``friends``) live here; each game keeps
its own in its package, ``pyengine/games/<id>/i18n/<id>.<lang>.json`` (lobby strings
included), so adding a game edits no shared catalog. English is complete and the fallback
for any key a language lacks; ``{name}`` placeholders are filled by ``str.format``. The
build merges the same files (``catalog_files``) into ``i18n/<lang>.json`` for the page's
static shell, so there is one source.
"""

import json
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("en", "pt", "es", "ca", "it")
COMPLETE_LANGUAGES = ("en", "pt", "es")
FALLBACK = "en"
_FOLDER = Path(__file__).parent
_GAMES = _FOLDER.parent / "games"


def catalog_files(lang: str) -> list:
    """Every catalog of one language: the shell's, then each game package's."""
    return [*sorted(_FOLDER.glob(f"*.{lang}.json")), *sorted(_GAMES.glob(f"*/i18n/*.{lang}.json"))]


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict:
    """All keys of one language, every domain merged."""
    merged: dict = {}
    for path in catalog_files(lang):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def pick_language(lang) -> str:
    """The supported language for a tag like ``pt-BR``; English when unknown."""
    base = str(lang or "").split("-")[0].lower()
    return base if base in LANGUAGES else FALLBACK


def translate(lang: str, key: str, **params) -> str:
    """The message for ``key`` in ``lang`` (falling back to English, then to the key)."""
    template = catalog(pick_language(lang)).get(key)
    if template is None:
        template = catalog(FALLBACK).get(key, key)
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


class Translator:
    """``t("key", n=3)`` bound to one language: what view renderers receive."""

    def __init__(self, lang: str):
        self.lang = pick_language(lang)

    def __call__(self, key: str, **params) -> str:
        return translate(self.lang, key, **params)

    def error(self, error) -> str:
        """A translated reason for a ``TabernaError`` (its English reason if no key exists)."""
        key = f"err.{error.code}"
        if key in catalog(FALLBACK):
            return translate(self.lang, key, **error.params)
        return error.reason
