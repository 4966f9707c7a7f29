"""The shell's screens with hostile values in every name, reason, code and translated text:
nothing becomes live markup (they are built with ``ui.markup``, escaping by construction)."""

import pytest

from pyengine.core.registry import get_game
from pyengine.shell import screens
from pyengine.shell.lobby import lobby_cards
from pyengine.shell.setup import setup_form
from tests.markup_check import HOSTILE, live_markup


class Hostile:
    """A translator whose every text is the payload (catalogs are data too)."""

    def __init__(self, payload):
        self.payload = payload

    def __call__(self, key, **params):
        return self.payload + "".join(str(v) for v in params.values())

    def error(self, error):
        return self.payload + error.reason


@pytest.mark.parametrize("payload", HOSTILE)
def test_every_shell_screen_keeps_hostile_values_as_text(payload):
    t = Hostile(payload)
    name = payload[:24]
    names = [name, "Bea", name, "Dan"]
    teams = [[0, 2], [1, 3]]
    seats = [
        {"kind": "human", "name": name, "open": False, "covered": False, "connected": True},
        {"kind": "remote", "name": name, "open": False, "covered": False, "connected": False},
        {"kind": "bot", "name": name, "level": payload, "open": False, "covered": True, "connected": True},
        {"kind": "remote", "name": name, "open": True, "covered": False, "connected": False},
    ]
    button = screens.command_button(payload, "data-host", {"seat": payload}, payload, payload, aria=payload)
    built = [
        screens.table_section(t, payload, payload, 3, payload),
        screens.game_over(t, {"winners": [0, 2]}, names, again=True),
        screens.handoff(t, 2, names, teams),
        screens.undo_button(t),
        screens.seat_strip(t, payload, seats, 0, True, lambda index, conn: button, teams),
        screens.arrange_screen(t, payload, payload, payload, True, button),
        screens.hosted_screen(payload, payload, payload, payload),
        screens.closed_screen(t),
        screens.guest_frame(payload, payload, payload, payload),
        screens.connecting_screen(t, payload),
        screens.refused_screen(t, payload, True, True),
        screens.notice(payload),
        screens.notice(screens.host_reason(t, {"reason": payload, "code": payload, "params": {"x": payload, "key": payload}})),
    ]
    for part in built:
        assert live_markup(str(part)) == [], part
    # The setup form is the one form the shell draws, and the lobby's cards carry their art.
    form = str(setup_form(get_game("crown_anchor"), t, shared=True))
    assert live_markup(form) == ["<form> element"]
    cards = lobby_cards([{"id": "perudo", "playable": True, "min_seats": 2, "max_seats": 6}, {"id": "bog", "playable": False}], t)
    assert live_markup(str(cards)) == ["<img> element", "<img> element"]
