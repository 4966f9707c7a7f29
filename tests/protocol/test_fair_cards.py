"""Fair card tables (``core.fair_deck``, ``kits.fair_cards``) with Botifarra: an honest hand
scores as the engine scores it, the host never holds a guest's card in the clear before it is
played, and every cheat is caught with named evidence (a card not dealt, a renege, a wrong
key, a withheld secret, a swapped deck; by a host or by a guest)."""

import json

import pytest

from pyengine.core import fair_deck
from pyengine.core import group as groups
from pyengine.core.errors import IllegalAction
from pyengine.core.registry import get_game
from pyengine.core.rng import Rng
from pyengine.core.table import Table
from pyengine.i18n import LANGUAGES, Translator
from pyengine.kits.fair_cards import is_sealed, keys_for
from pyengine.protocol import Guest, Host
from pyengine.protocol.envelope import encode
from pyengine.games.bog.rules import Bog
from pyengine.games.bog.view import card_name as bog_card
from pyengine.games.botifarra.view import card_name as botifarra_card
from pyengine.shell.screens import VERDICT_WORDS, verdict_line

from .fair_table import repeatable_secrets  # noqa: F401  (autouse: the same deals on every run)
from .fair_table import (
    TABLE_ID, challenged_verdict, do_duties, fair_table, guest_of, move_by_its_device, release_a_wrong_key,
)

HUMANS = [{"kind": "human", "name": f"P{s}"} for s in range(4)]


def one_device(seed=1):
    """A fair Botifarra table whose one device plays every seat (it holds every secret)."""
    return Table("botifarra", {}, HUMANS, seed, f"t:{seed}")


def play_on(table, rng, until=lambda table: False):
    """Seeded legal moves, each seat read by its own device, until the hand waits for a step."""
    while not table.fair_steps() and not table.is_over() and not until(table):
        seat = table.to_act()[0]
        actions = table.view(seat)["legal_actions"]
        table.act(seat, table.complete(seat, actions[rng.below(len(actions))]))


def dealt(table, seat) -> list:
    return table.view(seat)["hand"]


def test_an_honest_hand_scores_as_the_engine_scores_the_same_deal():
    table = one_device(2)
    do_duties(table)
    hands = [dealt(table, seat) for seat in range(4)]
    assert all(is_sealed(card) for hand in table.state["hands"] for card in hand)
    assert sorted(card for hand in hands for card in hand) == sorted(table.game.deck(4).cards)
    start = len(table.log)
    play_on(table, Rng(2))
    do_duties(table)
    assert table.state["fair"]["verdict"] is None and table.state["last_hand"]["number"] == 1
    game = get_game("botifarra")
    plain = game.new_state({}, 4, 5)
    plain.update(dealer=table.state["last_hand"]["dealer"], chooser=table.state["last_hand"]["dealer"],
                 hands=[game.sort_hand(plain, hand) for hand in hands])
    plain["trick"]["leader"] = (plain["dealer"] + 1) % 4
    for entry in table.log[start:]:
        action = entry["action"]
        if action["type"] in ("trump", "botifarra", "delegate", "double", "pass", "play"):
            plain = game.apply(plain, entry["seat"], {k: v for k, v in action.items() if k not in ("at", "key")})
    assert plain["last_hand"] == table.state["last_hand"] and plain["scores"] == table.state["scores"]


def test_a_card_not_dealt_or_a_wrong_key_is_refused_at_once():
    table = one_device(3)
    do_duties(table)
    play_on(table, Rng(3), until=lambda t: t.state["phase"] == "play")
    seat = table.to_act()[0]
    other = (seat + 1) % 4
    theirs = table.complete(other, {"type": "play", "card": dealt(table, other)[0]})
    for forged in ({**theirs}, {**table.complete(seat, {"type": "play", "card": dealt(table, seat)[0]}), "key": theirs["key"]}):
        with pytest.raises(IllegalAction) as refused:
            table.act(seat, forged)
        assert refused.value.code == "fair_not_dealt"
    with pytest.raises(IllegalAction) as refused:
        table.act(seat, {"type": "play", "card": dealt(table, seat)[0]})
    assert refused.value.code == "fair_no_key"


def test_a_renege_is_named_with_its_trick_at_the_end_and_the_other_side_scores_36_times_the_multiplier():
    table = one_device(4)
    do_duties(table)
    rng, reneged = Rng(4), None
    while not table.fair_steps():
        seat = table.to_act()[0]
        view = table.view(seat)
        illegal = [c for c in view["hand"] if c not in view["legal_cards"]] if view["phase"] == "play" else []
        if reneged is None and illegal:
            action = {"type": "play", "card": illegal[0]}
            reneged = (seat, len(table.state["tricks"]) + 1, illegal[0])
        else:
            action = view["legal_actions"][rng.below(len(view["legal_actions"]))]
        table.act(seat, table.complete(seat, action))
    assert reneged is not None
    multiplier = table.game.hand_multiplier(table.state)
    before = list(table.state["scores"])
    do_duties(table)
    verdict = table.state["fair"]["verdict"]
    assert (verdict["seat"], verdict["trick"], verdict["card"]) == reneged
    assert verdict["code"].startswith("botifarra.must_")
    side = reneged[0] % 2
    assert table.state["scores"][1 - side] - before[1 - side] == 36 * multiplier
    assert table.state["scores"][side] == before[side]


def test_a_wrong_key_is_challenged_by_its_holder_and_its_giver_named():
    table = one_device(5)
    victim = release_a_wrong_key(table, 1, lambda record, keys: next(j for j, key in enumerate(keys) if key is not None))
    holder = table.state["fair"]["holders"][victim]
    assert table.blind(holder)  # no bot could play it here
    play_on(table, Rng(5), until=lambda t: holder in t.to_act())
    assert challenged_verdict(table, holder) == ({"type": "challenge", "n": 1, "at": victim},
                                                 {"code": "fair_bad_key", "seat": 1, "at": victim})


def test_a_false_challenge_is_named():
    table = one_device(6)
    do_duties(table)
    seat = table.to_act()[0]
    table.act(seat, {"type": "challenge", "n": 1, "at": int(table.state["hands"][seat][0][1:])})
    do_duties(table)
    assert table.state["fair"]["verdict"] == {"code": "fair_false_claim", "seat": seat}


def test_a_secret_withheld_at_the_end_forfeits_the_hand():
    table = one_device(7)
    do_duties(table)
    play_on(table, Rng(7))
    do_duties(table, skip=(2,))
    before = list(table.state["scores"])
    table.act(2, {"type": "forfeit", "n": 1})
    assert table.state["fair"]["verdict"] == {"code": "fair_withheld", "seat": 2}
    assert table.state["scores"][1] - before[1] == 36 * table.state["last_hand"]["multiplier"]


def test_a_device_gone_mid_deal_voids_it_and_the_same_dealer_deals_again():
    table = one_device(8)
    dealer = table.state["dealer"]
    do_duties(table, skip=(3,))
    table.act(3, {"type": "forfeit", "n": 1})
    record = table.state["fair"]
    assert (record["n"], record["step"], table.state["dealer"], table.state["hand_number"]) == (2, "lock", dealer, 1)


def test_a_swapped_deck_is_named_with_its_seat():
    """A device (the host's, say) locks a deck whose order it chose, not its secret's."""
    table = one_device(9)
    do_duties(table, skip=(0,))
    honest = table.duty(0)
    keys = keys_for(table.state["fair"], 0, table.held[0]["secret"])
    group = groups.current()
    locked = group.multiply_all(keys.lock, [fair_deck.data_of(p) for p in table.state["fair"]["decks"][-1]])
    table.act(0, {**honest, "deck": [fair_deck.text_of(p) for p in locked]})  # unshuffled: it knows where each card lies
    do_duties(table)
    play_on(table, Rng(9))
    do_duties(table)
    assert table.state["fair"]["verdict"] == {"code": "fair_bad_deal", "seat": 0}


def top_bit_twin(text: str) -> str:
    """The same point with its last byte's top bit set: libsodium 1.0.18 decodes it as the
    same element, so a deck could hold one card twice under two spellings."""
    data = fair_deck.data_of(text)
    return fair_deck.text_of(data[:-1] + bytes([data[-1] | 0x80]))


@pytest.mark.parametrize("spoil", [lambda deck: fair_deck.text_of(bytes(32)), lambda deck: top_bit_twin(deck[4])],
                         ids=["the identity", "a point's top-bit twin"])
def test_a_deck_point_outside_the_group_is_refused(spoil):
    table = one_device(10)
    action = table.duty(table.to_act()[0])
    action["deck"][5] = spoil(action["deck"])
    with pytest.raises(IllegalAction) as refused:
        table.act(table.to_act()[0], action)
    assert refused.value.code == "fair_bad_deck"


def test_a_deck_point_spelled_twice_is_refused():
    """A point's text with its spare bits set decodes to the same point: refused, or a deck
    could hold one card's point twice under two spellings."""
    table = one_device(10)
    action = table.duty(table.to_act()[0])
    last = action["deck"][4][-1]
    action["deck"][5] = action["deck"][4][:-1] + chr(ord(last) + 1)
    assert fair_deck.data_of(action["deck"][5]) == fair_deck.data_of(action["deck"][4])
    with pytest.raises(IllegalAction) as refused:
        table.act(table.to_act()[0], action)
    assert (refused.value.code, refused.value.params) == ("bad_field", {"field": "deck"})


def test_steps_check_names_the_seat_whose_step_is_not_its_secrets():
    group, cards = groups.current(), get_game("botifarra").deck(4).cards[:6]
    secrets = {seat: f"{seat + 1:064x}" for seat in range(3)}
    decks = [fair_deck.start_deck(group, cards)]
    keys = {seat: fair_deck.SeatKeys(group, secrets[seat], "x:0", 1, seat, 6) for seat in range(3)}
    for step in (fair_deck.lock_step, fair_deck.relock_step):
        for seat in range(3):
            decks.append(step(group, decks[-1], keys[seat]))
    assert fair_deck.check_steps(group, decks, [0, 1, 2], secrets, "x:0", 1)[0] is None
    decks[5] = decks[5][1:] + decks[5][:1]  # seat 1's relock, reordered
    assert fair_deck.check_steps(group, decks, [0, 1, 2], secrets, "x:0", 1)[0] == 1


# --- over the wire: a host, a bot and two guests ------------------------------------------------
def play_hand(host, net, rng, watch=None, until=lambda table: False):
    """One hand (or until ``until(table)``), each seat's move chosen by its own device;
    ``watch()`` after every move."""
    number = host.table.state["hand_number"]
    while host.table.state["hand_number"] == number and not host.table.is_over() and not until(host.table):
        move_by_its_device(host, net, rng)
        if watch:
            watch()
        host = net.host


def test_over_the_wire_the_host_never_holds_a_guests_card_before_it_is_played():
    host, net = fair_table("botifarra", seed=21)
    inbox = []
    receive = host.receive
    host.receive = lambda peer, text, now: (inbox.append(text), receive(peer, text, now))[1]
    guests = (1, 3)

    def secrecy():
        table = host.table
        assert not set(table.held) & set(guests)
        assert not {entry["seat"] for entry in host.snapshot()["held"]} & set(guests)
        for seat in guests:
            assert all(is_sealed(card) for card in table.state["hands"][seat])
            assert all(is_sealed(card) for card in table.view(seat)["hand"] or [])
        for text in inbox:  # a card in the clear only in a card played
            action = json.loads(text).get("action", {})
            assert "card" not in action or action["type"] == "play"

    play_hand(host, net, Rng(21), secrecy)
    for seat in guests:
        audit = guest_of(net, seat).audit
        assert audit.evidence == [] and not audit.disputed
        assert guest_of(net, seat).view == audit.view()
    assert host.table.state["fair"]["verdict"] is None


def test_a_host_and_a_guest_reloaded_mid_hand_read_the_same_hands_and_finish_it():
    host, net = fair_table("botifarra", seed=24)
    play_hand(host, net, Rng(24), until=lambda table: len(table.state["tricks"]) == 3)
    hands = {seat: host.table.view(seat)["hand"] for seat in (0, 2)}
    hand = net.guests["pa"].view["hand"]
    reloaded = Host.from_snapshot(json.loads(json.dumps(host.snapshot())))
    assert {seat: reloaded.table.view(seat)["hand"] for seat in (0, 2)} == hands
    net.replace_host(reloaded)
    back = Guest.from_snapshot(json.loads(json.dumps(net.guests["pa"].snapshot())), "Guest pa")
    net.guests["pa"] = back
    net.guest_says("pa", back.start(net.now))
    net.advance(20_000)
    assert back.view["hand"] == hand
    play_hand(reloaded, net, Rng(25))
    assert reloaded.table.state["fair"]["verdict"] is None and reloaded.table.state["last_hand"]["number"] == 1
    assert all(guest.audit.evidence == [] for guest in net.guests.values())


def test_a_host_that_forges_a_guests_deck_in_the_record_is_caught():
    def tamper(peer, message):
        if message["kind"] != "record" or peer != "pa":
            return False
        for entry in message["entries"]:
            if entry["seat"] == 1 and entry["action"]["type"] == "relock":
                entry["action"]["deck"] = entry["action"]["deck"][::-1]
                return True
        return False

    host, net = fair_table("botifarra", seed=22, tamper=tamper)
    audit = guest_of(net, 1).audit
    assert audit.disputed and audit.evidence[0]["code"] == "fair_forged" and audit.evidence[0]["params"] == {"seat": 1}


def test_a_guest_cannot_void_a_deal_nor_play_a_card_it_was_not_dealt():
    host, net = fair_table("botifarra", seed=23)
    play_hand(host, net, Rng(23), until=lambda table: table.to_act() == [1] and table.state["phase"] == "play")
    guest = guest_of(net, 1)
    for action, code in (({"type": "forfeit", "n": 1}, "fair_forfeit_host"),
                         ({"type": "play", "card": host.table.view(0)["hand"][0], "at": 0, "key": fair_deck.text_of(b"\x11" * 32)},
                          "fair_not_dealt")):
        text = encode("intent", table=TABLE_ID, seat=1, version=guest.version, seq=99, action=action)
        (reply,) = [json.loads(t) for peer, t in host.receive("pa", text, net.now) if peer == "pa" and '"error"' in t]
        assert reply["code"] == code


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_verdict_is_said_in_words_with_the_offenders_name_and_the_games_penalty(lang):
    t = Translator(lang)
    names = ["Ana", "Bea", "Caio", "Duda"]
    side_loses = t("sync.penalty.side_loses", name="Caio")
    verdicts = [{"code": code, "seat": 2} for code in VERDICT_WORDS]
    verdicts.append({"code": "botifarra.must_follow", "seat": 2, "trick": 7, "card": "9o"})
    for verdict in verdicts:
        text = str(verdict_line(t, "botifarra", {"verdict": verdict}, names))
        assert "Caio" in text and side_loses in text and "{" not in text, text
    # The card as the game's screen names it in the reader's language, never by its code.
    assert botifarra_card(t, "9o") in text and "9o" not in text and "7" in text
    bog_pays = t("bog.penalty.fair", name="Caio")
    said = set()
    for code in Bog.offence_words:
        text = str(verdict_line(t, "bog", {"verdict": {"code": code, "seat": 2, "trick": 3, "card": "QH"}}, names))
        assert "Caio" in text and bog_pays in text and side_loses not in text and "{" not in text, text
        assert "QH" not in text and (code == "bog.false_show" or bog_card(t, "QH") in text), text
        said.add(text)
    assert len(said) == len(Bog.offence_words)  # each offence in its own words
    odd = {**verdicts[-1], "card": "9x"}  # a peer's word that is no card: said as written
    assert "9x" in str(verdict_line(t, "botifarra", {"verdict": odd}, names))
    assert verdict_line(t, "botifarra", {"verdict": None}, names) is None
    assert verdict_line(t, "no-such-game", {"verdict": verdicts[0]}, names) is None  # a peer's word
