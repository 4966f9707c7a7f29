"""A guest's own record of a shared table (``shell/joined.py``): its game log and the finished
game it keeps in "Your games" come from its replay of the host's public record, so they hold
what its seat saw and what the rules revealed, never another seat's hidden cards."""

import json
import random
import re

from pyengine.core.rng import Rng
from pyengine.i18n import Translator
from pyengine.records import import_record, record_text
from pyengine.shell.joined import JoinedTable
from pyengine.shell.log import GameLog
from pyengine.shell.calls import Worker as NetWorker
from pyengine.shell.replay import ReplayTable
from tests.app.test_shared_table import Tabs, play_turn, started
from tests.protocol.fair_table import fair_table, guest_of
from tests.protocol.test_fair_cards import play_hand, repeatable_secrets  # noqa: F401 (an autouse fixture)

CARD = re.compile(r"(?<![#\w])(?:1[0-2]|[1-9])[oceb](?!\w)")  # a Botifarra card in the clear


def test_a_guest_logs_a_fair_perudo_game_as_its_seat_saw_it_and_keeps_it_from_its_seat():
    tabs = started()
    rng = random.Random(5)
    while tabs.host_status != "over":
        play_turn(tabs, rng)
    joined = tabs.guests["pa"].tables["guest"]
    assert 'data-testid="log-panel"' in tabs.guest_call("pa", "net_guest_ui", {"log": True})["html"]
    t = Translator("en")
    entries = joined.log.entries(joined.guest.audit.table, 1, t, joined.guest.seats)
    # The host's own log of the same table, told as seat 1 saw it: the guest's says the same.
    assert entries == GameLog().entries(tabs.table(), 1, t)
    # Every call's cups, lifted by the round's last reveal (a fair step, itself untold).
    lifted = [lines for _, _, lines in entries if "the cups are lifted" in lines[0]]
    assert len(lifted) == tabs.table().state["round"] and all(line.startswith(("Ana: ", "Bea: ", "Caio: ")) for line in lifted[0][1:3])

    entry = joined.finished()
    table = tabs.table()
    assert entry["you"] == [1] and entry["seats"] == 3 and entry["winners"] == table.state["result"]["winners"]
    record = import_record(entry["text"])["record"]
    assert [(s["seat"], s["action"]) for s in record["steps"]] == [(e["seat"], e["action"]) for e in table.log]
    assert [seat["kind"] for seat in record["seats"]] == ["remote", "human", "remote"]  # Bea's device kept it
    assert [seat["name"] for seat in record["seats"]] == ["Ana", "Bea", "Caio"]
    assert ReplayTable.imported(entry["text"]).viewer == 1
    assert tabs.host.tables["host"].finished()["winners"] == entry["winners"]


def test_a_guests_record_of_a_fair_botifarra_game_holds_no_card_of_another_seat_before_it_is_played():
    host, net = fair_table("botifarra", seed=21)
    play_hand(host, net, Rng(21))
    play_hand(net.host, net, Rng(22), until=lambda table: len(table.state["tricks"]) == 3)
    joined = JoinedTable(guest_of(net, 1))
    text = record_text(joined.kept())
    steps = import_record(text)["record"]["steps"]
    assert sum(step["action"]["type"] == "play" for step in steps) == 48 + 3 * 4  # the first hand whole, then three tricks
    this_hand = text[text.rindex("\n; dealer "):]  # the second hand's deal, bidding and tricks
    played = {step["action"]["card"] for step in steps if step["action"]["type"] == "play"}
    shown = set(CARD.findall(this_hand))
    assert len(shown) == 3 * 4 and shown <= played
    hands = [net.host.table.view(0)["hand"], joined.guest.view["hand"], net.host.table.view(2)["hand"], guest_of(net, 3).view["hand"]]
    unplayed = {card for hand in hands for card in hand}  # each as its own device reads it
    assert len(unplayed) == 4 * 9 and not unplayed & shown


class LyingToTheSpectator(Tabs):
    """Tabs whose host tells the spectator ("pw") that the first move was another one."""

    def deliver_next(self):
        peer, to_host, text = self.queue[0]
        if peer == "pw" and '"kind":"step"' in text and '"version":1,' in text:
            self.queue[0] = (peer, to_host, text.replace("offer_draw", "accept_draw"))
        super().deliver_next()


def lasca_table(tabs, guests):
    """A started Lasca table hosted by Ana: ``guests`` ``(peer, seat, name)`` joined first."""
    fields = {"seat0_kind": "human", "seat0_name": "Ana", "seat1_kind": "remote", "opt_draw_by_agreement": "on"}
    assert tabs.host_call("net_host_create", {"game": "lasca", "fields": fields})["ok"]
    for peer, seat, name in guests:
        tabs.join(peer, seat, name)
        tabs.run()
    reply = tabs.host_call("net_host_command", {"start": True})
    assert reply["ok"], reply["message"]
    tabs.run()


def log_of(html) -> str:
    """The log panel of a screen."""
    return re.search(r'<section[^>]*data-testid="log-panel".*?</section>', html, re.S).group(0)


def test_a_guest_who_reloads_mid_game_at_a_lasca_table_logs_and_keeps_the_whole_game():
    """The guest's save keeps its account of the game (``protocol.witness``): back after a
    reload, its log is a spectator's who stayed, and the finished game is kept; a save whose
    account was tampered with is refused with a reason."""
    tabs = Tabs()
    lasca_table(tabs, (("pa", 1, "Bea"), ("pv", None, "Vera")))
    rng = random.Random(7)

    def play(until):
        while tabs.host_status != "over" and tabs.table().version < until:
            table = tabs.table()
            seat = table.to_act()[0]
            action = rng.choice(table.game.legal_actions(table.state, seat))
            reply = tabs.host_call("net_host_act", action) if seat == 0 else tabs.guest_call("pa", "net_guest_act", action)
            assert reply["ok"], reply["message"]
            tabs.run()

    play(until=12)
    stored = tabs.guests["pa"].tables["guest"].saved
    tampered = json.loads(stored)
    tampered["witness"] = tampered["witness"][:-8]
    tabs.guests["pb"] = NetWorker()  # another tab, handed the save cut short
    refused = tabs.guest_call("pb", "net_guest_resume", json.dumps(tampered))
    assert not refused["ok"] and refused["error"]["code"] == "sync_save_seat" and refused["message"] == "Your saved seat is damaged."
    tabs.links.discard("pa")
    tabs.host_call("net_host_dropped", "pa")
    tabs.guests["pa"] = NetWorker()  # the tab reloads
    assert tabs.guest_call("pa", "net_guest_resume", stored)["ok"]
    tabs.queue.clear()
    tabs.open("pa")
    tabs.run()
    play(until=10_000)
    assert tabs.host_status == "over" and len(tabs.table().log) > 20
    logs = [log_of(tabs.guest_call(peer, "net_guest_ui", {"log": True})["html"]) for peer in ("pa", "pv")]
    assert logs[0] == logs[1] and logs[0].count('class="tb-log-entry"') == len(tabs.table().log)
    (entry,) = tabs.kept["pa"]
    assert [(s["seat"], s["action"]) for s in import_record(entry["text"])["record"]["steps"]] == [
        (e["seat"], e["action"]) for e in tabs.table().log]


def test_a_guest_and_a_spectator_at_a_lasca_table_log_it_and_keep_it_unless_the_host_lied():
    """Lasca's tables are not fair: the guest's log is told from what its seat was shown, and
    the host's whole record, sent at the end, is kept once it agrees with all of it (the
    game over then offers Replay), by a spectator too; the spectator it lied to keeps nothing
    and is told why."""
    tabs = LyingToTheSpectator()
    lasca_table(tabs, (("pa", 1, "Bea"), ("pv", None, "Vera"), ("pw", None, "Watcher")))
    for call, action in (("host", {"type": "offer_draw"}), ("host", {"type": "move", "path": "c3-d4"}),
                         ("pa", {"type": "accept_draw"})):
        reply = tabs.host_call("net_host_act", action) if call == "host" else tabs.guest_call("pa", "net_guest_act", action)
        assert reply["ok"], reply["message"]
        tabs.run()
    assert tabs.host_status == "over"
    html = tabs.guest_call("pa", "net_guest_ui", {"log": True})["html"]
    assert [f"{name}: {what}" in html for name, what in (("Ana", "offers a draw"), ("Ana", "1. c3-d4"), ("Bea", "accepts the draw"))] == [True] * 3
    assert 'data-testid="replay-open"' in html and 'data-replay="guest"' in html
    (entry,) = tabs.kept["pa"]
    record = import_record(entry["text"])["record"]
    assert entry["you"] == [1] and [seat["kind"] for seat in record["seats"]] == ["remote", "human"]
    assert [(s["seat"], s["action"]) for s in record["steps"]] == [(e["seat"], e["action"]) for e in tabs.table().log]
    replay = json.loads(tabs.guests["pa"].replay_table("guest", "en"))
    assert replay["ok"] and replay["role"] == "replay" and 'data-testid="replay"' in replay["html"]
    (watched,) = tabs.kept["pv"]  # a spectator keeps it too, played by nobody here
    assert watched["you"] == [] and watched["winners"] == [] and watched["game"] == "lasca"
    assert tabs.kept["pw"] == []
    assert "This game was not kept in Your games: The host's record contradicts what it showed at step 1." in tabs.screens["pw"]
    assert 'data-testid="replay-open"' not in tabs.screens["pw"]
