"""Fair card tables with Bog (``kits.fair_cards``; Botifarra's are ``test_fair_cards.py``):
honest deals settle as the engine settles the same deals, the host never holds a guest's card
in the clear before it is shown, and every cheat is named at the deal's check (a card not
dealt, a wrong key, a false "not I", a false showing, a withheld secret, a swapped deck)."""

import json

import pytest

from pyengine.core import fair_deck
from pyengine.core import group as groups
from pyengine.core.errors import IllegalAction
from pyengine.core.rng import Rng
from pyengine.core.table import Table
from pyengine.core.validate import copy_json
from pyengine.games.bog.combos import DECKS
from pyengine.kits.fair_cards import is_sealed, keys_for
from pyengine.protocol import Guest, Host, MemoryNetwork

from .fair_table import repeatable_secrets  # noqa: F401  (autouse: the same deals on every run)
from .fair_table import GUESTS, SEATS, TABLE_ID
from .fair_table import challenged_verdict, do_duties, fair_table, guest_of, move_by_its_device, release_a_wrong_key

PLAIN_MOVES = ("decline", "exchange", "bog", "out", "play")


def one_device(seed, seats=4, options=None):
    """A fair Bog table whose one device plays every seat (it holds every secret)."""
    return Table("bog", options or {}, [{"kind": "human", "name": f"P{s}"} for s in range(seats)], seed, f"t:{seed}")


def move(table, rng, pick=None):
    """The seat on turn does what its device owes, else a seeded legal move (``pick(table,
    seat, legal)`` may choose another action: a cheat)."""
    seat = table.to_act()[0]
    action = table.duty(seat)
    if action is None or (pick is not None and action["type"] == "pass"):
        legal = table.view(seat)["legal"]
        chosen = pick(table, seat, legal) if pick is not None else None
        action = chosen or table.complete(seat, legal[rng.below(len(legal))])
    table.act(seat, action)


def play_deal(table, rng, pick=None):
    """One deal from its first step to the next deal's (or the game's end)."""
    n = table.state["fair"]["n"]
    while table.state["fair"]["n"] == n and not table.is_over():
        move(table, rng, pick)


def engine_deal(table, hands, turned, start, dealer, deal, log) -> dict:
    """The same deal through the one-device engine: the same hands, turned-up card, stacks,
    board and moves; its summary."""
    game, state = table.game, table.state
    plain = game.blank_state(state["options"], state["seats"], start["chips"], dealer)
    plain.update(boxes=copy_json(start["boxes"]), cursor=start["cursor"], deal=deal - 1, rng=state["rng"])
    seen = {card for hand in hands for card in hand} | {turned}
    game.begin_deal(plain, hands, [turned] + [c for c in DECKS[state["size"]].cards if c not in seen])
    for entry in log:
        action = entry["action"]
        if action["type"] in PLAIN_MOVES:
            plain = game.apply(plain, entry["seat"], {k: v for k, v in action.items() if k not in ("at", "key")})
    return plain["last_deal"]


@pytest.mark.parametrize("seed, options", [(1, {}), (2, {"change_suit": "all_void", "dealer_collects": "discard"}),
                                           (3, {"run_players": "boggers", "leader": "after_dealer"})])
def test_honest_deals_settle_as_the_engine_settles_the_same_deals(seed, options):
    table, rng = one_device(seed, 4, options), Rng(seed)
    for _ in range(4):
        do_duties(table)
        if table.is_over():
            break
        state = table.state
        assert all(is_sealed(card) for hand in state["hands"] for card in hand)
        hands = [table.view(seat)["hand"] if state["active"][seat] else [] for seat in range(4)]
        begun = (state["turned"], copy_json(state["deal_start"]), state["dealer"], state["deal"], len(table.log))
        play_deal(table, rng)
        assert table.state["fair"]["verdict"] is None
        assert table.state["last_deal"] == engine_deal(table, hands, *begun[:4], table.log[begun[4]:])


def cheat_once(cheat):
    """``pick`` for ``move``: plays ``cheat(table, seat, legal)``'s action the first time it
    gives one, honest moves otherwise; ``done`` keeps the seat, the card the check must name
    and the number of the run's card then due."""
    done = []

    def pick(table, seat, legal):
        if done:
            return None
        found = cheat(table, seat, legal)
        if found is None:
            return None
        action, card = found
        done.append((seat, card, len(table.state["run"]["played"]) + 1))
        return action

    return pick, done


def held_asked(table, seat, legal):
    """A "not I" from the seat that holds the card it is asked for."""
    if legal and legal[0]["type"] == "play" and table.game.run_turn(table.state).get("ask") == legal[0]["card"]:
        return {"type": "pass"}, legal[0]["card"]
    return None


def off_suit(table, seat, legal):
    """After a dead card, a card of another suit from the seat that still holds the run's suit."""
    state = table.state
    if state["phase"] != "run" or not state["run"]["played"] or table.game.run_turn(state).get("ask") is not None:
        return None
    last_seat, last_card = state["run"]["played"][-1]
    suits = {a["card"][-1] for a in legal}
    other = [c for c in table.view(seat)["hand"] if c[-1] not in suits]
    if suits == {last_card[-1]} and last_seat == seat and other and not last_card.startswith("K"):
        return table.complete(seat, {"type": "play", "card": other[0]}), other[0]
    return None


@pytest.mark.parametrize("cheat, code", [(held_asked, "bog.false_pass"), (off_suit, "bog.must_play")])
def test_a_cheat_in_the_run_is_named_with_its_card_and_the_offender_pays_each_player_a_hand(cheat, code):
    table, rng = one_device(11, 5), Rng(11)
    pick, done = cheat_once(cheat)
    while not done:
        do_duties(table)
        start = list(table.state["deal_start"]["chips"])
        play_deal(table, rng, pick)
    seat, card, number = done[0]
    assert table.state["fair"]["verdict"] == {"code": code, "seat": seat, "trick": number, "card": card}
    # Nothing else of the deal stands: 6 chips (a hand of cards) from the offender to each other player.
    net, others = table.state["last_deal"]["net"], [s for s in range(5) if s != seat and start[s]]
    assert start[seat] >= 6 * len(others) and [net[s] for s in others] == [6] * len(others)
    assert net[seat] == -6 * len(others)


def to_run(table, rng):
    """Honest moves until the run's first card is due."""
    do_duties(table)
    while table.state["phase"] != "run" or table.fair_steps():
        move(table, rng)


def test_a_card_not_dealt_or_a_wrong_key_is_refused_at_once():
    table = one_device(12)
    to_run(table, Rng(12))
    seat = table.to_act()[0]
    other = next(s for s in range(4) if s != seat and table.state["run"]["players"][s])
    theirs = table.complete(other, {"type": "play", "card": table.view(other)["hand"][0]})
    mine = table.complete(seat, {"type": "play", "card": table.view(seat)["hand"][0]})
    for forged in (theirs, {**mine, "key": theirs["key"]}):
        with pytest.raises(IllegalAction) as refused:
            table.act(seat, forged)
        assert refused.value.code == "fair_not_dealt"
    with pytest.raises(IllegalAction) as refused:
        table.act(seat, {"type": "play", "card": mine["card"]})
    assert refused.value.code == "fair_no_key"


def test_a_false_showing_is_named():
    table, rng = one_device(13, 3), Rng(13)
    while True:  # until two boggers, one of them holding a combination
        do_duties(table)
        while table.state["phase"] in ("exchange", "bog"):
            seat = table.to_act()[0]
            bog = [a for a in table.view(seat)["legal"] if a["type"] != "out"]
            table.act(seat, table.complete(seat, bog[0] if table.state["phase"] == "bog" else bog[rng.below(len(bog))]))
        shower = table.to_act()[0] if table.state["phase"] == "show" else None
        if shower is not None and table.duty(shower)["cards"]:
            break
        play_deal(table, rng)
    table.act(shower, {"type": "show", "cards": []})  # "nothing", holding a pair or better
    play_deal(table, rng)
    assert table.state["fair"]["verdict"] == {"code": "bog.false_show", "seat": shower}


def test_a_wrong_key_is_challenged_by_its_holder_and_its_giver_named():
    table = one_device(14)
    victim = release_a_wrong_key(
        table, 1, lambda record, keys: next(j for j, key in enumerate(keys) if key is not None and record["holders"][j] >= 0))
    holder = table.state["fair"]["holders"][victim]
    assert table.blind(holder)
    rng = Rng(14)
    while holder not in table.to_act():
        move(table, rng)
    assert challenged_verdict(table, holder) == ({"type": "challenge", "n": 1, "at": victim},
                                                 {"code": "fair_bad_key", "seat": 1, "at": victim})


def test_a_wrong_key_for_the_turned_up_card_stops_the_deal_and_its_giver_is_named():
    table = one_device(15)
    up = release_a_wrong_key(table, 2, lambda record, keys: record["holders"].index(-1))
    assert table.state["fair"]["step"] == "reveal"
    do_duties(table)
    assert table.state["fair"]["verdict"] == {"code": "fair_bad_key", "seat": 2, "at": up}


def test_a_secret_withheld_at_the_end_costs_the_offender_a_hand_to_each():
    table, rng = one_device(16), Rng(16)
    do_duties(table)
    start = list(table.state["deal_start"]["chips"])
    while not table.fair_steps():
        move(table, rng)
    do_duties(table, skip=(2,))
    table.act(2, {"type": "forfeit", "n": 1})
    assert table.state["fair"]["verdict"] == {"code": "fair_withheld", "seat": 2}
    assert table.state["last_deal"]["net"] == [6, 6, -18, 6] and start[2] >= 18


def test_a_device_gone_mid_deal_voids_it_and_the_same_dealer_deals_again():
    table = one_device(17)
    dealer, chips, boxes = table.state["dealer"], list(table.state["deal_start"]["chips"]), table.state["deal_start"]["boxes"]
    do_duties(table, skip=(3,))
    table.act(3, {"type": "forfeit", "n": 1})
    state = table.state
    assert (state["fair"]["n"], state["fair"]["step"], state["dealer"], state["deal"]) == (2, "lock", dealer, 1)
    assert state["deal_start"]["chips"] == chips and state["deal_start"]["boxes"] == boxes


def test_a_swapped_deck_is_named_with_its_seat():
    """A device (the host's, say) locks a deck whose order it chose, not its secret's."""
    table = one_device(18)
    do_duties(table, skip=(0,))
    honest = table.duty(0)
    keys = keys_for(table.state["fair"], 0, table.held[0]["secret"])
    locked = groups.current().multiply_all(keys.lock, [fair_deck.data_of(p) for p in table.state["fair"]["decks"][-1]])
    table.act(0, {**honest, "deck": [fair_deck.text_of(p) for p in locked]})  # unshuffled: it knows where each card lies
    play_deal(table, Rng(18))
    assert table.state["fair"]["verdict"] == {"code": "fair_bad_deal", "seat": 0}


# --- over the wire: a host, a bot and two guests ------------------------------------------------
def play_deals(host, net, rng, deals, watch):
    """``deals`` deals, each seat's move chosen by its own device; ``watch()`` after every move."""
    while host.table.state["deal"] <= deals and not host.table.is_over():
        move_by_its_device(host, net, rng, "legal")
        watch()


def test_over_the_wire_the_host_never_holds_a_guests_card_before_it_is_shown():
    host, net = fair_table("bog", seed=31)
    inbox = []
    receive = host.receive
    host.receive = lambda peer, text, now: (inbox.append(text), receive(peer, text, now))[1]
    guests, board = (1, 3), set(host.table.game.board(host.table.state))
    dealt = [0, 0, 1]  # where this deal begins in the inbox and in the log, and the deal

    def secrecy():
        table = host.table
        state = table.state
        if state["deal"] != dealt[2]:
            dealt[:] = [len(inbox), len(table.log), state["deal"]]
        # What the save holds of this deal: the state (earlier deals' summaries aside, and the
        # cards asked for in the run: the public next card of its suit) and its log.
        kept = {k: v for k, v in state.items() if k not in ("last_deal", "earlier_deals", "run")}
        saved = [json.dumps(kept), json.dumps(state["run"] and state["run"]["played"]),
                 json.dumps(host.snapshot()["table"]["log"][dealt[1]:])]
        assert all(map(is_sealed, state["stock"]))
        assert not set(table.held) & set(guests)
        assert not {entry["seat"] for entry in host.snapshot()["held"]} & set(guests)
        shown = {c for s in (state["showdown"] or {}).get("shown") or [] if s for c in s["cards"]}
        for seat in guests:
            public = shown | ({state["turned"]} if seat == state["dealer"] else set())
            assert all(is_sealed(card) or card in public for card in state["hands"][seat])
            secret = set(guest_of(net, seat).view["hand"] or []) - public - board
            assert not any(f'"{card}"' in text for card in secret for text in inbox[dealt[0]:] + saved)
        for text in inbox:  # a card in the clear only where the rules show it
            action = json.loads(text).get("action", {})
            assert not {"card", "cards"} & set(action) or action["type"] in ("play", "exchange", "show")

    play_deals(host, net, Rng(31), 2, secrecy)
    assert host.table.state["fair"]["verdict"] is None and host.table.state["deal"] == 3
    for seat in guests:
        audit = guest_of(net, seat).audit
        assert audit.evidence == [] and not audit.disputed
        assert guest_of(net, seat).view == audit.view()


class CountingNetwork(MemoryNetwork):
    """The memory network, counting the states the host sends."""

    states = 0

    def host_says(self, outbox) -> None:
        self.states += sum(json.loads(text)["kind"] == "state" for _, text in outbox)
        super().host_says(outbox)


class TogetherNetwork(CountingNetwork):
    """As a busy host's page delivers: every message waiting for the host goes to it in one
    ``Host.receive_all`` (each guest's still in its order)."""

    def run(self, limit: int = 100_000) -> int:
        while self.queue:
            waiting = list(self.queue)
            self.queue.clear()
            for _, peer, text in (item for item in waiting if item[1] is not None):
                self.guest_says(peer, self.guests[peer].receive(text, self.now))
            to_host = [(sender, text) for sender, receiver, text in waiting if receiver is None]
            if to_host:
                self.host_says(self.host.receive_all(to_host, self.now))
        return 0


def test_messages_the_host_takes_together_deal_the_same_table_with_fewer_states(monkeypatch):
    """A deal whose messages reach the host in bursts (every device's keys at once) ends in
    the same table as one message at a time, every guest's replay agreeing, and the guests
    were sent fewer states (one per burst, not one per message)."""
    ends = []
    for network in (CountingNetwork, TogetherNetwork):
        numbers = iter(range(1, 1 << 30))  # the same secrets in both runs
        monkeypatch.setattr("pyengine.core.fair.new_secret", lambda: f"{next(numbers):064x}")
        host = Host.create("bog", {}, [dict(seat, level="easy") if seat["kind"] == "bot" else seat for seat in SEATS],
                           f"{5:064x}", TABLE_ID, fair=True)
        net = network(host, now=1_000)
        for peer, seat in GUESTS.items():
            net.add_guest(peer, Guest(TABLE_ID, peer, seat=seat))
        net.run()
        net.host_says(host.start())
        net.run()
        assert host.table.state["fair"]["step"] == "play"
        for peer in GUESTS:
            audit = net.guests[peer].audit
            assert audit.evidence == [] and net.guests[peer].view == audit.view()
        ends.append((host.table.state, [net.guests[peer].view for peer in GUESTS], net.states))
    (state, views, states), (together_state, together_views, together_states) = ends
    assert together_state == state and together_views == views
    assert together_states < states, (together_states, states)
