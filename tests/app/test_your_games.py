"""Your games (``shell/games.py``): a finished table hands the page its entry once, and the
page's entries are listed, counted and checked like any input."""

import json
import time

import pytest

from pyengine.core.registry import playable_games
from pyengine.records import import_record
from pyengine.shell.calls import Worker
from pyengine.shell.games import statistics

MARCH_5 = 1_772_719_620_000  # 2026-03-05 14:07 UTC, in ms


def call(fn, *args):
    return json.loads(fn(*[a if isinstance(a, (str, int)) else json.dumps(a) for a in args]))


def entry(game="perudo", seats=2, you=(0,), winners=(0,), levels=("easy",), n=0):
    return {"id": f"finished:{n}", "game": game, "seats": seats, "you": list(you), "winners": list(winners),
            "levels": list(levels), "updated": MARCH_5 + n, "players": ["Ana", "Bot 2"][:seats] + [f"P{i}" for i in range(2, seats)]}


@pytest.fixture(scope="module")
def ended():
    """A one-device Perudo table, a player and an easy bot, the player's moves by the bot's
    hand: ``(tab, the reply that ended it)``."""
    tab = Worker()
    reply = call(tab.start, {"game": "perudo", "fields": {"seat0_kind": "human", "seat1_kind": "bot:easy", "seed": "5"}}, "en")
    table = tab.tables["local"].table
    while reply["status"] != "over":
        assert reply["finished"] is None
        if reply["status"] == "bot":
            reply = call(tab.bot_step, "en")
        else:
            reply = call(tab.act, table.bot_action(0), "en")
    return tab, reply


def test_a_game_that_ends_hands_its_record_and_what_the_statistics_read_once(ended):
    tab, reply = ended
    finished = reply["finished"]
    table = tab.tables["local"].table
    assert finished["id"].startswith("finished:") and finished["game"] == "perudo" and finished["seats"] == 2
    assert finished["you"] == [0] and finished["levels"] == ["easy"] and finished["winners"] == table.state["result"]["winners"]
    steps = import_record(finished["text"])["record"]["steps"]
    assert [(step["seat"], step["action"]) for step in steps] == [(e["seat"], e["action"]) for e in table.log]
    assert call(tab.ui, {"log": True}, "en")["finished"] is None  # not again: nothing new to keep
    assert call(tab.resume, json.dumps(table.to_dict()), "en")["finished"]["id"] == finished["id"]  # the same game


def test_the_statistics_count_games_wins_levels_sizes_and_streaks():
    games = playable_games()
    entries = [entry(n=0), entry(winners=[1], n=1), entry(levels=["hard"], n=2), entry(n=3),
               entry(seats=3, levels=["easy", "hard"], winners=[2], n=4), entry(levels=[], you=[0, 1], winners=[1], n=5),
               entry(you=[], n=6), entry(game="lasca", winners=[], n=7)]
    stats = statistics(entries, games)
    perudo = stats["perudo"]
    assert (perudo["played"], perudo["won"]) == (6, 4)
    assert perudo["levels"] == {"easy": [3, 2], "hard": [2, 1], "": [1, 1]}
    assert perudo["sizes"] == {2: [5, 4], 3: [1, 0]}
    assert (perudo["streak"], perudo["best"]) == (1, 2)
    assert stats["lasca"]["played"] == 1 and stats["lasca"]["won"] == 0  # a draw is no win


def test_your_games_and_statistics_screens_list_what_fits_and_refuse_what_does_not():
    tab = Worker()
    entries = [entry(n=1), entry(game="bog", seats=3, levels=["hard"], winners=[1], n=2),
               {"id": "x", "game": "chess"}, entry(you=[5], n=3), "junk"]
    listed = call(tab.games_open, json.dumps(entries), "games", "es")
    assert listed["ok"] and listed["status"] == "games" and listed["title"] == "Tus partidas"
    assert listed["html"].count('data-testid="games-row"') == 2 and listed["html"].index("Bog") < listed["html"].index("Perudo")
    assert '"replay":"finished:1"' in listed["html"].replace("&quot;", '"')
    stats = call(tab.games_ui, {"view": "stats"}, "it")
    assert 'data-testid="stats-perudo"' in stats["html"] and "Bot: facile" in stats["html"] and "2 giocatori" in stats["html"]
    assert "Serie di vittorie: 1 ora, 1 al massimo" in stats["html"]
    for wrong in ({"view": "nope"}, {"view": "stats", "x": 1}):
        assert not call(tab.games_ui, wrong, "en")["ok"]
    assert not call(Worker().games_open, json.dumps({"a": 1}), "games", "en")["ok"]
    assert "No game has been finished" in call(Worker().games_open, "[]", "stats", "en")["html"]


@pytest.mark.parametrize("lang, shown", [("en", "finished 3/5/2026, 14:07"), ("pt", "terminada em 5/3/2026, 14:07"),
                                         ("es", "terminada el 5/3/2026, 14:07"), ("ca", "acabada el 5/3/2026, 14:07"),
                                         ("it", "finita il 5/3/2026, 14:07")])
def test_each_game_says_when_it_finished_as_the_players_language_writes_dates(monkeypatch, lang, shown):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    try:
        html = call(Worker().games_open, json.dumps([entry(), {**entry(n=1), "updated": "yesterday"}]), "games", lang)["html"]
    finally:
        monkeypatch.undo()
        time.tzset()
    assert html.count('data-testid="games-row"') == 1  # a time that is not one: the entry does not fit
    assert f'<time datetime="2026-03-05T14:07:00Z" data-testid="games-when">{shown}</time>' in html
