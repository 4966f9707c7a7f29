"""The game log at the table (``shell/log.py``, each game's ``notation.log``): every step told
in the player's language, from the seat on screen's views only."""

import json
import re

import pytest

from pyengine.i18n import COMPLETE_LANGUAGES, Translator
from pyengine.kits.cards import SPANISH_48
from pyengine.shell.calls import Worker
from pyengine.shell.log import GameLog
from tests.records.proof import OPTION_SETS, random_table

# One option set per game: the first listed.
ONE_PER_GAME = list({game_id: (game_id, options, seats) for game_id, options, seats in reversed(OPTION_SETS)}.values())


def call(fn, *args):
    return json.loads(fn(*[a if isinstance(a, (str, int)) else json.dumps(a) for a in args]))


def told(table, viewer, lang="en") -> list:
    return GameLog().entries(table, viewer, Translator(lang))


@pytest.mark.parametrize("game_id, options, seats", ONE_PER_GAME, ids=lambda v: v if isinstance(v, str) else "")
def test_every_step_of_every_game_is_told_in_every_language_without_a_raw_key(game_id, options, seats):
    table, _ = random_table(game_id, options, seats, 11, plies=150)
    for lang in COMPLETE_LANGUAGES:
        entries = told(table, None, lang)
        assert [step for step, _, _ in entries] == list(range(1, len(table.log) + 1))  # nothing unsaid
        text = "\n".join(line for _, _, lines in entries for line in lines)
        assert not re.search(rf"\b(log|{game_id})\.[a-z_.]+", text), lang
        assert all(line.strip() for _, _, lines in entries for line in lines)


def test_a_perudo_log_lifts_the_cups_only_at_a_call():
    table, _ = random_table("perudo", {}, 3, 4, plies=200)
    for step, seat, lines in told(table, 1):
        action = table.log[step - 1]["action"]
        cups = [line for line in lines if re.fullmatch(r"P\d: [1-6]( [1-6])*", line)]
        assert bool(cups) == (action["type"] != "bid"), (step, lines)
        assert lines[0] == (f"P{seat}: Dudo!" if action["type"] == "dudo" else lines[0])


def test_a_botifarra_log_names_no_card_before_it_is_played():
    """The spectator's log of a four-player game: every card it names was on the table."""
    table, _ = random_table("botifarra", {}, 4, 8, plies=150)
    t = Translator("en")
    from pyengine.games.botifarra.view import card_name

    names = {card_name(t, card): card for card in SPANISH_48.cards}
    played: set = set()
    for step, seat, lines in told(table, None):
        action = table.log[step - 1]["action"]
        if action["type"] == "play":
            played.add(action["card"])
        named = {names[name] for line in lines for name in names if re.search(rf"\b{re.escape(name)}\b", line)}
        assert named <= played, (step, lines)
    assert played  # the sample reached the play


def test_the_log_opens_under_the_table_and_grows_with_each_move():
    tab = Worker()
    reply = call(tab.start, {"game": "perudo", "fields": {"seat0_kind": "human", "seat1_kind": "bot:easy", "seed": "3"}}, "pt")
    assert 'data-testid="log-toggle"' in reply["html"] and 'data-testid="log-panel"' not in reply["html"]
    opened = call(tab.ui, {"log": True}, "pt")["html"]
    assert "Registro da partida" in opened and "Nada aconteceu ainda." in opened
    assert opened.index('data-testid="log-panel"') > opened.index('class="perudo')  # under the game, in its flow
    assert 'data-step="1"' in call(tab.bot_step, "pt")["html"]  # the bot opens: "2 × quatros"
    reply = call(tab.act, {"type": "bid", "count": 3, "face": 4}, "pt")
    assert re.search(r'data-step="1">.*?Bot 2: 2 × quatros.*data-step="2">.*?Jogador 1: 3 × quatros</span>', reply["html"])
    assert 'aria-expanded="false"' in call(tab.ui, {"log": False}, "pt")["html"]
    for wrong in ({"log": 1}, {"log": True, "odds": True}):
        assert not call(tab.ui, wrong, "pt")["ok"]


def test_no_log_while_the_phone_changes_hands():
    tab = Worker()
    fields = {"seat0_kind": "human", "seat1_kind": "human", "seed": "3"}
    reply = call(tab.start, {"game": "perudo", "fields": fields}, "en")
    assert reply["status"] == "handoff" and 'data-testid="log-toggle"' not in reply["html"]
    seat = tab.tables["local"].device.next_local()
    reply = call(tab.ui, {"handoff": seat}, "en")
    assert reply["status"] == "human" and 'data-testid="log-toggle"' in reply["html"]
