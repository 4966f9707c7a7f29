"""A guest's evidence notice speaks the table's language: seats by the names the table
shows them by, a contradicted part of the host's table in words, in every language."""

import html
import re

import pytest

from pyengine.core.registry import playable_games
from pyengine.i18n import LANGUAGES, Translator
from pyengine.protocol import Guest
from pyengine.protocol.fair import FIELD_WORDS, SEAT_PARAMS, Audit
from pyengine.shell.joined import JoinedTable

SEATS = [
    {"kind": "human", "name": "Ana"},
    {"kind": "remote", "name": "Bea"},
    {"kind": "bot", "name": "", "level": "easy"},  # a bot's default name, as the strip shows it
    {"kind": "remote", "name": "Caio"},
]
NAMES = {0: "Ana", 1: "Bea", 3: "Caio"}
SEAT_EVIDENCE = [
    ("fair_wrong_loser", {"announced": 0, "revealed": 3}),
    ("fair_wrong_dice", {"seat": 3, "announced": 4, "revealed": 3}),
    ("fair_wrong_turn", {"announced": 1, "expected": 0}),
    ("fair_withheld", {"seat": 0}),
]


def view_fields() -> set:
    """Every key a fair game's view may have (what ``fair_mismatch`` can name)."""
    fields = set()
    for game in playable_games().values():
        if game.fair_chance:
            shape = game.view_shape
            while not hasattr(shape, "fields"):  # unwrap the ``Where`` checks
                shape = shape.shape
            fields |= set(shape.fields) | set(shape.optional)
    return fields


def evidence_items(lang, evidence, game=None) -> list:
    """The evidence notice's items, as the guest's screen in ``lang`` shows them."""
    guest = Guest("room-1", "Bea", seat=1)
    guest.game = game
    guest.seats = SEATS
    guest.audit = Audit(1, {})
    guest.audit.evidence = [{"code": code, "params": params, "version": 9} for code, params in evidence]
    notice = str(JoinedTable(guest)._evidence(Translator(lang)))
    return [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", notice)]


def test_every_field_of_a_fair_games_view_has_words():
    fields = view_fields()
    assert {"bids", "counts", "chips", "stakes", "banker"} <= fields
    own = {field for game in playable_games().values() for field in game.fair_field_words}
    assert fields - {"players"} <= set(FIELD_WORDS) | own  # players are never compared


@pytest.mark.parametrize("lang", LANGUAGES)
def test_evidence_names_seats_and_fields_in_words(lang):
    t = Translator(lang)
    seat_word = re.escape(t("sync.fair_seat", n=1).split(" ")[0])
    for (code, params), text in zip(SEAT_EVIDENCE, evidence_items(lang, SEAT_EVIDENCE), strict=True):
        assert all(NAMES[params[key]] in text for key in SEAT_PARAMS[code]), (code, text)
        assert not re.search(seat_word + r"\s*\d", text, re.IGNORECASE), text
    fields = sorted(FIELD_WORDS)
    for field, text in zip(fields, evidence_items(lang, [("fair_mismatch", {"field": f}) for f in fields]), strict=True):
        assert t(f"sync.fair_field.{FIELD_WORDS[field]}") in text, text
        assert f"({field})" not in text
        if lang != "en":
            assert not re.search(rf"\b{field}\b", text), text


def test_a_seat_the_hosts_list_lacks_shows_by_number():
    (text,) = evidence_items("pt", [("fair_wrong_loser", {"announced": 6, "revealed": 0})])
    assert "lugar 7" in text and "Ana" in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_games_own_field_is_named_in_its_words(lang):
    [text] = evidence_items(lang, [("fair_mismatch", {"field": "botifarra"})], game="botifarra")
    assert Translator(lang)("sync.fair_field.bidding") in text, text
