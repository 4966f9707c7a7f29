"""Message catalogs: gettext, one compiled ``.mo`` per language, read with the standard library.

Sources are ``.po`` files, one per domain and language: the shell's domains (``shell``,
``core``, ``sync``, ``friends``) live here, each game keeps its own in its package
(``pyengine/games/<id>/i18n/<id>.<lang>.po``, lobby strings included), so adding a game
edits no shared catalog. The build (``buildtools/po.py``) merges every domain of a language
into ``compiled/<lang>.mo``; the worker opens the one of its language once, on first use.

A msgid is the message key; ``{name}`` placeholders are filled by ``str.format``. A message
that depends on a count is a gettext plural (``msgid_plural``, ``msgstr[n]`` chosen by the
language's ``Plural-Forms``) and takes that count as the parameter ``count``:
``t("perudo.dice_count", count=3)``. Numbers among the parameters are written the way the
language writes them (``1.234`` in Portuguese, ``1,234`` in English). English is complete
and the fallback for any key a language lacks (read only when such a key is asked for).
"""

import gettext
import re
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("en", "pt", "es", "ca", "it")
COMPLETE_LANGUAGES = LANGUAGES
# The BCP 47 tag a page in a language carries (``<html lang>``), where it says more than the
# code: our Portuguese is Brazilian (screen readers pick their voice by it).
LANGUAGE_TAGS = {"pt": "pt-BR"}
FALLBACK = "en"
# Catalan elides "de", "la" and "el" before a vowel or a silent h and a vowel ("d'Anna",
# "l'as"). A catalog's own words are written elided; a placeholder's value (a name, a card)
# is known only when the message is made, so an article or "de" right before a placeholder
# is elided then, when the value calls for it.
ELIDED = {"ca": (re.compile(r"\b(de|De|la|La|el|El) \{(\w+)\}"), {"d": "d'", "D": "D'", "l": "l'", "L": "L'", "e": "l'", "E": "L'"})}
VOWEL_SOUND = re.compile(r"h?[aeiouàèéíïòóúü]", re.IGNORECASE)
COMPILED = Path(__file__).parent / "compiled"
_SUPPORTED = frozenset(LANGUAGES)

# How each language writes numbers (CLDR, as the browsers' Intl.NumberFormat does): the
# grouping separator, the decimal separator and the minimum number of digits before the
# first group (2: "1234" but "12.345"). Small enough to keep here instead of a locale database.
NUMBER_FORMATS = {
    "en": (",", ".", 1),
    "pt": (".", ",", 1),
    "es": (".", ",", 2),
    "ca": (".", ",", 1),
    "it": (".", ",", 2),
}


def language_tag(lang: str) -> str:
    """The ``lang`` attribute of text in ``lang`` (one of ``LANGUAGES``)."""
    return LANGUAGE_TAGS.get(lang, lang)


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.GNUTranslations:
    """The compiled catalog of one language (every domain), opened once."""
    path = COMPILED / f"{lang}.mo"
    try:
        with open(path, "rb") as file:
            return gettext.GNUTranslations(file)
    except FileNotFoundError:
        raise RuntimeError(
            f"{path} is missing: the catalogs are compiled by `python build.py` "
            "(or `python buildtools/po.py`; the tests' conftest does it too)"
        ) from None


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict:
    """Every message of one language: ``{key: template}``; a plural message maps to the
    tuple of its forms in ``Plural-Forms`` order. (For checks and the static page; the
    messages themselves go through ``translate``.)"""
    merged: dict = {}
    for msgid, text in translations(pick_language(lang))._catalog.items():
        if isinstance(msgid, tuple):  # (key, plural form index)
            merged.setdefault(msgid[0], {})[msgid[1]] = text
        elif msgid:  # "" is the header
            merged[msgid] = text
    return {key: tuple(v[i] for i in sorted(v)) if isinstance(v, dict) else v for key, v in merged.items()}


def pick_language(lang) -> str:
    """The supported language for a tag like ``pt-BR``; English when unknown."""
    if type(lang) is str and lang in _SUPPORTED:  # already a code (what a Translator passes on every message)
        return lang
    base = str(lang or "").split("-")[0].lower()
    return base if base in LANGUAGES else FALLBACK


def format_number(lang: str, number) -> str:
    """``number`` as ``lang`` writes it: grouped thousands, its decimal separator."""
    if type(number) is int and -1000 < number < 1000:  # too short to group, in every language
        return str(number)
    group, decimal, min_grouping = NUMBER_FORMATS[pick_language(lang)]
    sign = "-" if number < 0 else ""
    whole, _, fraction = f"{abs(number)}".partition(".") if isinstance(number, float) else (str(abs(number)), "", "")
    if len(whole) >= 3 + min_grouping:
        head = len(whole) % 3 or 3
        whole = group.join([whole[:head], *(whole[i : i + 3] for i in range(head, len(whole), 3))])
    return sign + whole + (decimal + fraction if fraction else "")


def _message(lang: str, key: str, count):
    """The template of ``key`` (in its plural form for ``count``), or None when unknown."""
    found = translations(lang)
    text = key if count is None else found.ngettext(key, key, count)
    if text == key:  # not a plural message (or unknown)
        text = found.gettext(key)
    if text != key:
        return text
    return None if lang == FALLBACK else _message(FALLBACK, key, count)


@lru_cache(maxsize=4096)
def _template(lang: str, key: str, count) -> tuple:
    """The template ``translate`` fills for ``key`` (the key itself when unknown), whether it
    has a word to elide before a placeholder, and its text without parameters: the compiled
    catalogs never change, so each (language, key, count) is looked up once, not on every
    repaint."""
    template = _message(lang, key, count) or key
    elision = ELIDED.get(lang)
    return template, elision is not None and elision[0].search(template) is not None, _fill(template, {})


def translate(lang: str, key: str, **params) -> str:
    """The message for ``key`` in ``lang`` (falling back to English, then to the key)."""
    lang = pick_language(lang)
    count = params.get("count")
    count = count if isinstance(count, int) and not isinstance(count, bool) else None
    template, elidable, plain = _template(lang, key, count)
    if not params:
        return plain
    shown = {
        name: format_number(lang, value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value
        for name, value in params.items()
    }
    if elidable:
        template = _elide(template, shown, *ELIDED[lang])
    return _fill(template, shown)


def _fill(template: str, shown: dict) -> str:
    """``template`` with its placeholders filled; as it stands when they do not fit."""
    try:
        return template.format(**shown)
    except (KeyError, IndexError, ValueError):
        return template


def _elide(template: str, shown: dict, before: re.Pattern, elided: dict) -> str:
    """``template`` with each word of ``before`` elided before a placeholder whose value
    starts with a vowel sound (see ``ELIDED``)."""

    def one(match):
        word, name = match.groups()
        value = shown.get(name)
        if isinstance(value, str) and VOWEL_SOUND.match(value):
            return elided[word[0]] + "{" + name + "}"
        return match.group(0)

    return before.sub(one, template)


class Translator:
    """``t("key", n=3)`` bound to one language: what view renderers receive."""

    def __init__(self, lang: str):
        self.lang = pick_language(lang)

    def __call__(self, key: str, **params) -> str:
        return translate(self.lang, key, **params)

    def number(self, value) -> str:
        """A number as this language writes it (for numbers shown outside a message)."""
        return format_number(self.lang, value)

    def error(self, error) -> str:
        """A translated reason for a ``TabernaError`` (its English reason if no key exists);
        an error that words itself (a refused record: its line, then the rules' reason)
        says it in its own words."""
        if callable(getattr(error, "message", None)):
            return error.message(self)
        key = f"err.{error.code}"
        text = translate(self.lang, key, **error.params)
        return error.reason if text == key else text
