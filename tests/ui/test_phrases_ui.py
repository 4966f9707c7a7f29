"""Phrases drawn (ui.phrases, through shell.phrases): whatever the words and names are, they
stay text: a phrase's words come from a catalog and a seat's name from a peer, and neither
may become live markup in a bubble, the picker or a screen reader's announcement."""

from html.parser import HTMLParser

import pytest

from pyengine.core.phrases import EMOJI
from pyengine.protocol.phrases import Board
from pyengine.shell.phrases import Talk
from pyengine.shell.screens import seat_strip
from tests.markup_check import HOSTILE, live_markup


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text = []

    def handle_data(self, data):
        self.text.append(data)


def text_of(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "".join(parser.text)


@pytest.mark.parametrize("payload", HOSTILE)
def test_phrases_and_names_render_as_text(payload):
    t = lambda key, **params: payload  # noqa: E731 - every catalog entry hostile
    seats = [{"kind": "human", "name": payload, "open": False, "covered": False, "connected": True}] * 3
    names = [payload] * 3
    board = Board()
    board.heard(1, "dudo", 0)
    board.heard(2, "thumbs_up", 0)
    talk = Talk()
    talk.open = True
    bubbles = talk.bubbles(t, "perudo", board, names)
    strip = seat_strip(t, "perudo", seats, 0, False, lambda index, conn: None, [], True, bubbles)
    html = str(talk.bar(t, "perudo", board, names, 0, strip))
    assert live_markup(html) == []
    assert payload in text_of(html) and EMOJI["thumbs_up"] in text_of(html)
    assert 'data-testid="phrase-1"' in html and 'data-testid="say-dudo"' in html
    assert 'data-testid="mute-0"' not in html and 'data-testid="mute-2"' in html  # no mute of oneself


def test_the_shared_setup_switches_phrases_off_for_botifarra_and_on_elsewhere():
    from pyengine.core.registry import get_game
    from pyengine.i18n import Translator
    from pyengine.shell.setup import config_from_fields, setup_form

    t = Translator("en")
    for game, ticked in (("botifarra", False), ("perudo", True)):
        form = str(setup_form(get_game(game), t, shared=True))
        assert ('name="phrases" checked' in form) == ticked and 'name="phrases"' in form
    assert 'name="phrases"' not in str(setup_form(get_game("perudo"), t))  # one device: nobody to talk to
    fields = {"seat0_kind": "human", "seat1_kind": "remote"}
    assert config_from_fields(get_game("botifarra"), {**fields, "phrases": "on"}, t, shared=True)["phrases"] is True
    assert config_from_fields(get_game("botifarra"), fields, t, shared=True)["phrases"] is False
