"""Crown and Anchor at a fair table: every roll, and every bank drawn by lot, is read from a
joint nonce made after the stakes are locked, so the banker (host or not) cannot pick it;
guests replay every roll and catch a host that changes one; a device that fails its part
leaves the table by the forfeit rule."""

import pytest

from pyengine.core import fair
from pyengine.core.rng import Rng
from pyengine.games.crown_anchor.rules import SYMBOLS
from tests.protocol.fair_table import GUESTS, fair_table, guest_of


def drive(host, net, rng, rolls):
    """Stakes, confirmations and rolls, never ending the game, until ``rolls`` rolls (or
    the table waits for a fair step); each roll is checked against its nonce."""
    table = host.table
    while table.state["rolls"] < rolls and not table.is_over() and not table.fair_steps():
        seat = table.to_act()[0]
        state = table.state
        actions = [a for a in table.game.legal_actions(state, seat) if a["type"] not in ("end", "leave", "clear")]
        bets = [a for a in actions if a["type"] == "bet"]
        action = bets[rng.below(len(bets))] if bets and not state["stakes"][seat] else next(
            a for a in actions if a["type"] in ("done", "roll", "volunteer"))
        kind = table.seats[seat]["kind"]
        if kind == "bot":
            net.host_says(host.play_bot())
        elif kind == "human":
            net.host_says(host.act(seat, action))
        else:
            guest = guest_of(net, seat)
            peer = next(p for p, g in net.guests.items() if g is guest)
            net.guest_says(peer, guest.intend(action, net.now))
        rolled = state["rolls"]
        net.run()
        after = table.state
        if after["rolls"] > rolled and not after["last"]["broken"]:  # a broken bank draws again at once
            assert after["last"]["dice"] == [SYMBOLS[f - 1] for f in fair.roll(after["fair"]["nonce"], "roll", 3)]


@pytest.mark.parametrize("options", [{}, {"bank": "lot"}, {"volunteer": True}, {"bank": "lot", "start_chips": 6}])
def test_honest_rolls_come_from_the_joint_nonce_and_every_guest_agrees(options):
    host, net = fair_table("crown_anchor", seed=2, options=options)
    drive(host, net, Rng(2), rolls=12)
    assert host.table.state["rolls"] >= 6 or host.table.is_over()
    for guest in net.guests.values():
        assert guest.audit.evidence == [] and guest.audit.version == host.version == guest.version
        assert guest.misfits == 0  # every view the host sent fits the game's view shape
        assert guest.audit.table.state["chips"] == host.table.state["chips"]


def test_the_first_banker_by_lot_is_drawn_from_the_nonce():
    bankers = set()
    for seed in range(8):
        host, _ = fair_table("crown_anchor", seed=seed, options={"bank": "lot"})
        state = host.table.state
        assert state["banker"] == fair.draw(state["fair"]["nonce"], "banker", 4)
        bankers.add(state["banker"])
    assert len(bankers) > 1


def test_the_banker_calls_the_roll_but_cannot_pick_it():
    host, net = fair_table("crown_anchor", seed=3, options={"bank": "fixed"})  # the host banks
    table = host.table
    drive(host, net, Rng(3), rolls=1)
    while table.state["phase"] == "bet":
        seat = table.to_act()[0]
        guest = guest_of(net, seat) if table.seats[seat]["kind"] == "remote" else None
        if guest is None:
            net.host_says(host.play_bot())
        else:
            peer = next(p for p, g in net.guests.items() if g is guest)
            net.guest_says(peer, guest.intend({"type": "done"}, net.now))
        net.run()
    rolls = table.state["rolls"]
    outbox = host.act(0, {"type": "roll"})  # not delivered yet: the guests have not shared
    assert table.state["rolls"] == rolls and table.state["drawing"] == "roll"
    assert set(GUESTS.values()) <= set(table.to_act())
    net.host_says(outbox)
    net.run()
    assert table.state["rolls"] == rolls + 1


def _dice(peer, message):
    view = message.get("view") if message.get("kind") == "state" else None
    if view and view.get("last"):
        view["last"]["dice"] = ["crown", "crown", "crown"]
        return True
    return False


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_a_host_that_changes_a_roll_is_caught_every_time(seed):
    host, net = fair_table("crown_anchor", seed=seed, tamper=_dice)
    drive(host, net, Rng(seed), rolls=2)
    assert net.tampered
    for peer in GUESTS:
        assert [item["code"] for item in net.guests[peer].audit.evidence][:1] == ["fair_mismatch"]


def test_a_punter_that_fails_its_part_leaves_and_its_stakes_go_to_the_bank():
    host, net = fair_table("crown_anchor", seed=7, options={"bank": "fixed"})
    guest = net.guests["pa"]
    honest = guest._duty
    guest._duty = lambda now: [] if guest.audit.table.state["drawing"] == "roll" else honest(now)
    drive(host, net, Rng(7), rolls=5)  # stops at the first roll: seat 1 does not share
    state = host.table.state
    assert state["drawing"] == "roll" and fair.owed(state["fair"]) == [1]
    staked, bank, rolls = sum(state["stakes"][1].values()), state["chips"][0], state["rolls"]
    assert staked > 0
    net.host_says(host.forfeit(1))
    net.run()
    state = host.table.state
    assert state["active"][1] is False and state["rolls"] == rolls + 1
    assert state["last"]["stakes"][1] == {} and state["chips"][0] == bank + staked + state["last"]["delta"][0]
    assert net.guests["pc"].audit.evidence == [] and net.guests["pc"].audit.version == host.version
