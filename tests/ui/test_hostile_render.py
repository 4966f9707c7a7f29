"""Every playable game's screen, fed hostile values in every field and key, makes no markup.

The per-game view tests go deeper (every non-string field too); this one is the net under
every game a package declares, so a new game is covered the day it becomes playable.
"""

import pytest

from pyengine.core.registry import declarations
from pyengine.i18n import Translator
from tests.markup_check import HOSTILE, live_markup, random_play_views, with_strings

PLAYABLE = [d for d in declarations() if d.playable]


def with_hostile_keys(value, payload):
    """``value`` with an extra entry keyed ``payload`` in every object (a renderer that lists
    an object's keys would show it); its value is a copy of the object's last value, so a
    table of numbers stays a table of numbers (empty objects stay empty)."""
    if isinstance(value, dict):
        entries = {key: with_hostile_keys(item, payload) for key, item in value.items()}
        return {**entries, payload: list(entries.values())[-1]} if entries else entries
    if isinstance(value, list):
        return [with_hostile_keys(item, payload) for item in value]
    return value


@pytest.mark.parametrize("declaration", PLAYABLE, ids=lambda d: d.id)
def test_hostile_values_and_keys_render_as_text(declaration):
    game, render = declaration.rules, declaration.screen().render
    views = list(random_play_views(game, {}, game.min_seats, seed=7, every=3, viewers=2))
    assert views
    for lang in ("en", "pt"):
        t = Translator(lang)
        for view in views[:: 3 if lang == "pt" else 1]:
            for payload in HOSTILE:
                hostile = with_hostile_keys(with_strings(view, payload), payload)
                assert live_markup(str(render(hostile, {}, t))) == [], (declaration.id, payload)


def test_every_lobby_game_is_covered():
    """The games above are read when this module is imported: by then every game is declared."""
    assert PLAYABLE and PLAYABLE == [d for d in declarations() if d.playable]
