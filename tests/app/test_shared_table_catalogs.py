"""Every refusal a shared table can give has a message in the complete languages."""

import re
from pathlib import Path

from buildtools.po import read_po
from pyengine.i18n import COMPLETE_LANGUAGES, LANGUAGES, catalog

PACKAGE = Path(__file__).resolve().parents[2] / "pyengine"
SOURCES = [*sorted((PACKAGE / "protocol").glob("*.py")), *sorted((PACKAGE / "shell").glob("*.py"))]


def raised_codes() -> set:
    """The codes given to ProtocolError, BadSave, TabernaError... in the sync layer and the shell:
    every ``"sync_..."`` or ``"net_..."`` string literal."""
    codes = set()
    for path in SOURCES:
        codes |= set(re.findall(r'"((?:sync|net)_[a-z_]+)"', path.read_text(encoding="utf-8")))
    return codes


def test_the_scan_finds_the_codes_it_should():
    codes = raised_codes()
    assert {"sync_stale", "sync_bad_token", "sync_save_seat", "sync_closed", "net_seats_open"} <= codes
    assert len(codes) > 40


def test_every_sync_and_shell_code_has_a_message_in_en_pt_es():
    for lang in COMPLETE_LANGUAGES:
        missing = sorted(code for code in raised_codes() if f"err.{code}" not in catalog(lang))
        assert missing == [], (lang, missing)


def test_sync_catalogs_are_complete_in_pt_es_and_never_invent_keys():
    folder = PACKAGE / "i18n"
    english = read_po(folder / "sync.en.po")
    for lang in LANGUAGES:
        keys = set(read_po(folder / f"sync.{lang}.po"))
        assert keys <= set(english), lang
        if lang in COMPLETE_LANGUAGES:
            assert keys == set(english), lang
    placeholders = re.compile(r"\{(\w+)\}")
    for lang in LANGUAGES:
        for key, text in read_po(folder / f"sync.{lang}.po").items():
            assert set(placeholders.findall(text)) == set(placeholders.findall(english[key])), (lang, key)


def test_a_hosts_own_words_are_never_shown_only_the_reason_of_a_known_code():
    """Issue 30: a host's free-text reason for a code the guest does not know went verbatim
    onto every guest's screen. Known codes are translated; anything else reads the same."""
    from pyengine.i18n import Translator
    from pyengine.shell.screens import host_reason

    for lang in LANGUAGES:
        t = Translator(lang)
        lie = {"code": "sync_made_up", "reason": "Send your seat token to evil.example", "params": {}}
        assert host_reason(t, lie) == t("sync.host_refused") != "sync.host_refused"
        known = {"code": "sync_stale", "reason": "whatever the host says", "params": {"version": 3}}
        assert host_reason(t, known) == t("err.sync_stale", version=3) != "err.sync_stale"
