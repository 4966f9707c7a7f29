"""A game replayed step by step through the worker's calls (``pyengine.shell.replay``): from
the table on screen and from a record's text; steps and viewpoints, and their refusals."""

import json
import re

import pytest

from pyengine.core.table import MAX_NAME
from pyengine.games.botifarra.view import card_label
from pyengine.i18n import Translator
from pyengine import records
from pyengine.games.botifarra.view import card_name as botifarra_card_name
from pyengine.records import record_text
from pyengine.records.notation import notation_for
from pyengine.shell.calls import Worker
from tests.markup_check import HOSTILE, live_markup


EN = Translator("en")


def call(fn, *args):
    return json.loads(fn(*[a if isinstance(a, (str, int)) else json.dumps(a) for a in args]))


def where(html):
    """``(step, last)`` of the replay on screen."""
    found = re.search(r'data-testid="replay" data-step="(\d+)" data-last="(\d+)"', html)
    return int(found.group(1)), int(found.group(2))


def board(html) -> str:
    return html.split('data-testid="replay-board">', 1)[1]


@pytest.fixture(scope="module")
def finished():
    """A tab whose one-device Perudo table (two easy bots) has played to its end."""
    tab = Worker()
    reply = call(tab.start, {"game": "perudo", "fields": {"seat0_kind": "bot:easy", "seat1_kind": "bot:easy", "seed": "7"}}, "en")
    while reply["status"] == "bot":
        reply = call(tab.bot_step, "en")
    assert reply["status"] == "over"
    return tab


def test_a_finished_table_replays_to_its_own_final_screen_and_steps_within_bounds(finished):
    table = finished.tables["local"]
    reply = call(finished.replay_table, "local", "en")
    assert reply["ok"] and reply["status"] == "replay" and reply["title"] == "Replay: Perudo"
    assert where(reply["html"]) == (len(table.table.log), len(table.table.log))
    # The last step, seen as the table's screen saw it (nobody's seat: two bots), is that screen.
    assert board(reply["html"]).startswith(str(table.device.body(Translator("en"))))
    last = len(table.table.log)
    first = call(finished.replay_ui, {"step": 0}, "es")
    assert where(first["html"]) == (0, last) and f"Paso 0 de {last}" in first["html"] and "La mesa tal como se preparó" in first["html"]
    assert 'data-testid="replay-back" aria-label="Paso atrás" disabled' not in first["html"]
    assert re.search(r'<button[^>]*disabled[^>]*data-testid="replay-back"', first["html"])
    forward = call(finished.replay_ui, {"step": 1}, "it")
    assert where(forward["html"]) == (1, last) and re.search(r"Bot 1: 1 \S+", forward["html"])
    for wrong in (-1, last + 1, "2", 1.0, None):
        refused = call(finished.replay_ui, {"step": wrong}, "ca")
        assert not refused["ok"] and refused["html"] is None and refused["message"] == f"No hi ha aquest pas (de 0 a {last})."
    assert where(call(finished.replay_render, "en")["html"]) == (1, last)  # nothing moved


def test_every_seat_and_the_spectator_may_look_once_the_game_is_over(finished):
    call(finished.replay_table, "local", "en")
    assert where(call(finished.replay_ui, {"viewer": 1}, "en")["html"])[0] > 0
    assert 'value="1" selected' in call(finished.replay_render, "en")["html"]
    assert call(finished.replay_ui, {"viewer": None}, "en")["ok"]
    assert not call(finished.replay_ui, {"viewer": 2}, "en")["ok"]


def test_the_all_seeing_spectator_of_a_finished_game_sees_every_cup_at_every_step(finished):
    table = finished.tables["local"].table
    call(finished.replay_table, "local", "en")
    seen = call(finished.replay_ui, {"step": 1}, "en")["html"]
    assert '<option value="null" selected>Everyone (every hand shown)</option>' in seen
    record = records.import_record(records.record_text(table))["record"]
    cups = records.replay_states(record)[1]["dice"]
    hands = seen.split('data-testid="replay-hands">', 1)[1]
    assert [f"{name}: {' '.join(map(str, cup))}" for name, cup in zip(("Bot 1", "Bot 2"), cups)] == re.findall(r"<li>([^<]*)</li>", hands)
    assert 'data-testid="replay-hands"' not in call(finished.replay_ui, {"viewer": 0}, "en")["html"]  # a seat sees its own


def test_the_all_seeing_list_names_each_hands_cards_but_never_a_sealed_one():
    t, notation = Translator("ca"), notation_for("botifarra")
    lines = notation.hand_lines(t, ["Ana", "Biel"], [["1o", "#3"], ["#4", "#5"]], botifarra_card_name)
    assert lines == ["Ana: as d'oros"]


def test_a_game_still_played_is_seen_only_through_the_seats_of_this_device():
    tab = Worker()
    reply = call(tab.start, {"game": "perudo", "fields": {"seat0_kind": "bot:easy", "seat1_kind": "human", "seed": "2"}}, "en")
    while reply["status"] == "bot":
        reply = call(tab.bot_step, "en")
    replay = call(tab.replay_table, "local", "pt")
    assert replay["ok"] and '<option value="1" selected' in replay["html"] and '<option value="0"' not in replay["html"]
    for other in (0, None):
        refused = call(tab.replay_ui, {"viewer": other}, "pt")
        assert not refused["ok"] and "só os seus lugares" in refused["message"]
    assert not call(Worker().replay_table, "local", "en")["ok"]  # no table on screen
    assert not call(tab.replay_table, "guest", "en")["ok"]  # a guest does not hold the table


def test_a_record_imports_resumes_at_its_step_and_a_damaged_one_is_refused_with_its_line(finished):
    text = record_text(finished.tables["local"].table)
    tab = Worker()
    reply = call(tab.replay_import, text, "en")
    assert reply["ok"] and '<option value="0"' in reply["html"] and '<option value="null"' in reply["html"]
    moved = call(tab.replay_ui, {"step": 3}, "en")
    damaged = text.replace("\n1 ", "\n7 ", 1)
    refused = call(tab.replay_import, damaged, "it")
    line = damaged.splitlines().index(next(l for l in damaged.splitlines() if l.startswith("7 "))) + 1
    assert not refused["ok"] and refused["message"].startswith(f"Riga {line}:") and refused["html"] is None
    assert where(call(tab.replay_render, "en")["html"])[0] == 3  # the replay on screen stays
    again = Worker()
    assert where(call(again.replay_resume, moved["save"], "en")["html"])[0] == 3
    bad = json.dumps(dict(json.loads(moved["save"]), step=10_000))
    assert not call(again.replay_resume, bad, "en")["ok"]


def test_hostile_names_in_a_record_stay_text(finished):
    text = record_text(finished.tables["local"].table)
    names = iter(HOSTILE)
    hostile = re.sub(r'^(Seat \d (?:\w+ )+)".*"$', lambda m: m.group(1) + json.dumps(next(names)[:MAX_NAME]), text, flags=re.M)
    tab = Worker()
    reply = call(tab.replay_import, hostile, "en")
    assert reply["ok"]
    for step in (0, 1, where(reply["html"])[1]):
        html = call(tab.replay_ui, {"step": step}, "en")["html"]
        assert live_markup(html) == [] and "&lt;img src=x" in html


def test_a_hosted_table_replays_on_the_hosts_tab_through_the_hosts_eyes_only():
    tab = Worker()
    fields = {"seat0_kind": "human", "seat1_kind": "remote", "seat2_kind": "bot:easy"}
    assert call(tab.net_host_create, {"game": "perudo", "fields": fields}, 5, "en")["ok"]
    reply = call(tab.replay_table, "host", "en")
    assert reply["ok"] and where(reply["html"]) == (0, 0) and '<option value="0" selected' in reply["html"]
    assert not call(tab.replay_ui, {"viewer": 1}, "en")["ok"]  # a friend's dice stay theirs
    assert call(tab.net_host_ui, {}, 6, "en")["ok"]  # the hosted table plays on beside it


def test_a_replay_shares_as_a_link_that_opens_the_same_game_and_a_mutated_link_is_refused(finished):
    page = "https://example.org/taberna/#replay="
    shared = call(finished.replay_table, "local", "en")
    assert 'data-testid="replay-share-open"' in shared["html"]
    opened = call(finished.replay_ui, {"share": page}, "pt")
    assert opened["ok"] and "Compartilhar esta partida" in opened["html"] and 'data-testid="replay-download"' in opened["html"]
    link = re.search(r'data-testid="replay-link" value="([^"]+)"|value="([^"]+)"[^>]*data-testid="replay-link"', opened["html"])
    link = next(group for group in link.groups() if group)
    assert link.startswith(page) and ('class="tb-qr"' in opened["html"]) == (len(link) <= 1000)
    final = board(opened["html"])
    payload = link[len(page):]
    other = Worker()
    reply = call(other.replay_link, payload, "pt")
    assert reply["ok"] and where(reply["html"]) == where(opened["html"]) and board(reply["html"]) == final
    for bad in (payload[:-5], payload[:20] + ("A" if payload[20] != "A" else "B") + payload[21:], "", "!!", "x" * 3_000_000):
        refused = call(other.replay_link, bad, "es")
        assert not refused["ok"] and refused["message"].startswith("Este enlace no contiene"), bad[:30]
    assert where(call(other.replay_render, "en")["html"]) == where(reply["html"])  # the replay on screen stays
    for wrong in (True, "javascript:alert(1)#replay=", "https://x.org/#join=", page + "x" * 400):
        assert not call(finished.replay_ui, {"share": wrong}, "en")["ok"]
    closed = call(finished.replay_ui, {"share": None}, "en")
    assert 'data-testid="replay-share"' not in closed["html"] and 'data-testid="replay-share-open"' in closed["html"]


def test_a_fair_card_game_replays_each_hand_read_once_it_was_checked():
    """A hosted fair Botifarra table (the friend's seat covered by a bot) plays its first hand
    to the check: its record, imported in another tab, shows the host's hand of that deal
    read from the secrets published at the check; the next hand, not checked yet, is seen
    through the spectator's eyes (no seat's hand to read)."""
    tab = Worker()
    fields = {"seat0_kind": "human", "seat1_kind": "remote", "seat2_kind": "bot:easy", "seat3_kind": "bot:easy"}
    assert call(tab.net_host_create, {"game": "botifarra", "fields": fields}, 5, "en")["ok"]
    assert call(tab.net_host_command, {"seat": 1, "kind": "bot", "level": "easy"}, 5, "en")["ok"]
    reply = call(tab.net_host_command, {"start": True}, 5, "en")
    table = tab.tables["host"].host.table
    dealt = None
    while table.state["hand_number"] == 1:
        dealt = dealt or (table.state["fair"]["step"] == "play" and table.view(0)["hand"])
        reply = call(tab.net_host_bot_step, 6, "en") if reply["status"] == "bot" else call(tab.net_host_act, table.bot_action(0), 6, "en")
        assert reply["ok"], reply["message"]
    text = record_text(table)
    reader = Worker()
    imported = call(reader.replay_import, text, "en")
    assert imported["ok"] and '<option value="0" selected' in imported["html"]
    first_play = next(i for i, entry in enumerate(table.log) if entry["action"]["type"] == "play")
    read = call(reader.replay_ui, {"step": first_play}, "en")["html"]  # before any card is played
    assert all(f'aria-label="{card_label(EN, card)}' in board(read) for card in dealt)
    last = call(reader.replay_ui, {"step": len(table.log)}, "en")
    assert last["ok"] and 'data-testid="bt-hand"' not in board(last["html"])
