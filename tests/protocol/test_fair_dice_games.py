"""Perudo and Bozó at a fair table, through the memory network: honest games agree everywhere; the
host never holds a guest's dice; a host that lies about a count, a loser, the dice in play,
the turn, a commitment or a roll is caught by every guest; a host that keeps its reveal back
loses by the forfeit rule; a guest's wrong, late, replayed or early part is refused and
changes nothing; reloads on either side lose nothing. (The draw's refusals are the same code
for both games, so a cheating guest is played at Perudo only.)"""

import hashlib
import itertools
import json
from collections import Counter

import pytest

from pyengine.core import fair
from pyengine.core.errors import BadSave
from pyengine.core.rng import Rng
from pyengine.protocol import Guest, Host, ProtocolError
from pyengine.protocol.envelope import encode
from pyengine.protocol.fair import WITHHELD_AFTER
from tests.protocol.fair_table import GUESTS, TABLE_ID, fair_table, guest_of, play_move, play_until

GAMES = ["perudo", "bozo"]
STARTER_LABEL = {"perudo": "opener", "bozo": "starter"}


def everyone_agrees(host, net):
    for guest in net.guests.values():
        assert guest.audit is not None and guest.audit.evidence == [], guest.audit.evidence
        assert guest.audit.version == host.version == guest.version and guest.misfits == 0  # every view fit
        assert guest.audit.table.state["counts"] == host.table.state["counts"]
        assert guest.audit.table.state["result"] == host.table.state["result"]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_an_honest_fair_game_plays_to_the_end_and_every_guest_agrees(game, seed):
    host, net = fair_table(game, seed=seed)
    rng = Rng(seed)
    rounds_seen = set()
    while play_move(host, net, rng):
        for peer, seat in GUESTS.items():
            guest = net.guests[peer]
            if host.table.state["counts"][seat] and not host.table.is_over():
                assert guest.view["dice"] is not None and len(guest.view["dice"]) == host.table.state["counts"][seat]
                assert host.table.state["dice"][seat] is None  # the host never has it
        rounds_seen.add((host.table.state["round"], host.table.state.get("hand")))
    assert host.table.is_over() and len(rounds_seen) > 5
    assert net.guests["pw"].view["result"] == host.table.state["result"]
    everyone_agrees(host, net)


@pytest.mark.parametrize("game", GAMES)
def test_the_first_player_is_drawn_from_the_joint_nonce(game):
    openers = Counter()
    for seed in range(12):
        host, _ = fair_table(game, seed=seed)
        state = host.table.state
        assert state["fair"]["step"] == "play"
        players = state["fair"]["players"]
        assert state["turn"] == players[fair.draw(state["fair"]["nonce"], STARTER_LABEL[game], len(players))]
        openers[state["turn"]] += 1
    assert len(openers) > 1


@pytest.mark.parametrize("game", GAMES)
def test_nothing_the_host_holds_before_the_reveal_has_a_guests_dice(game):
    host, net = fair_table(game, seed=3)
    sent = []
    original = net.guest_says
    net.guest_says = lambda peer, texts: (sent.extend(texts), original(peer, texts))[1]
    rng = Rng(3)
    checked = 0
    for _ in range(60):
        state = host.table.state
        if state["result"]:
            break
        if state["fair"]["step"] == "play":
            saved = json.dumps(host.snapshot())
            reloaded = Host.from_snapshot(json.loads(saved))
            for seat in GUESTS.values():
                if state["counts"][seat]:
                    secret = guest_of(net, seat).held[seat]["secret"]
                    assert secret not in saved and not any(secret in text for text in sent)
                    assert reloaded.table.view(seat)["dice"] is None
                    assert reloaded.table.state["dice"][seat] is None
                    checked += 1
        if not play_move(host, net, rng):
            break
    assert checked > 20


def test_over_a_thousand_rounds_a_guests_dice_are_independent_of_all_the_host_holds():
    """Per round the host holds its own secret, the guest's commitment and share (all the
    guest sent before the reveal) and the nonce; a die of the guest's cup must not depend on
    any of it: a contingency test of the guest's first die against a digest of those bytes."""
    table = Counter()
    faces = Counter()
    for n in range(1, 1_001):
        host_secret = hashlib.sha256(f"host {n}".encode()).hexdigest()
        guest_secret = hashlib.sha256(f"guest {n}".encode()).hexdigest()
        shares = [fair.share_of(s, "room-1:0", n, seat) for seat, s in enumerate((host_secret, guest_secret))]
        nonce = fair.nonce_of(shares, "room-1:0", n)
        held_by_host = host_secret + fair.commitment_of(shares[1], "room-1:0", n, 1) + shares[1] + nonce
        bucket = hashlib.sha256(held_by_host.encode()).digest()[0] % 6
        cup = fair.cup(guest_secret, nonce, "room-1:0", n, 1, 5)
        faces.update(cup)
        table[bucket, cup[0]] += 1
    rows = {b: sum(v for (r, _), v in table.items() if r == b) for b in range(6)}
    cols = {d: sum(v for (_, c), v in table.items() if c == d) for d in range(1, 7)}
    chi2 = sum(
        (table[b, d] - rows[b] * cols[d] / 1_000) ** 2 / (rows[b] * cols[d] / 1_000)
        for b in range(6) for d in range(1, 7) if cols[d]
    )
    assert chi2 < 52.6  # independence, df 25, p = 0.001
    expected = 5_000 / 6
    assert sum((faces[f] - expected) ** 2 / expected for f in range(1, 7)) < 20.5


def _settled(message):
    """The record of the last settled round (Perudo) or hand (Bozó) in a state message."""
    view = message.get("view") if message.get("kind") == "state" else None
    return (view or {}).get("last_round") or (view or {}).get("last_hand")


def _count(peer, message):
    settled = _settled(message)
    if settled:
        settled["actual"] += 1
        return True
    return False


def _loser(peer, message):
    settled = _settled(message)
    if settled and settled["loser"] is not None:
        settled["loser"] = (settled["loser"] + 1) % 4
        return True
    return False


def _dice_in_play(peer, message):
    if message.get("kind") == "state" and message["view"].get("counts") and message["view"]["counts"][0] > 1:
        message["view"]["counts"][0] -= 1
        return True
    return False


def _turn(peer, message):
    view = message.get("view") if message.get("kind") == "state" else None
    if view and view.get("bids"):
        view["turn"] = (view["turn"] + 1) % 4
        return True
    return False


def _rewrite_entry(message, kind, seat, field, value) -> bool:
    """Rewrites ``field`` of the first ``kind`` action of ``seat`` in a record message to
    ``value(action)``; whether there was one."""
    entries = message["entries"] if message.get("kind") == "record" else []
    for entry in entries:
        if entry["action"]["type"] == kind and entry["seat"] == seat:
            entry["action"][field] = value(entry["action"])
            return True
    return False


def _own_commitment(peer, message):
    """The host puts another commitment in the guest's name (one whose secret it knows)."""
    seat = GUESTS.get(peer)
    forged = lambda action: fair.commit_secret("11" * 32, message["fair"], action["n"], seat)  # noqa: E731
    return _rewrite_entry(message, "commit", seat, "commit", forged)


def _host_commitment(peer, message):
    """The host changes its own commitment after the fact: its share no longer matches."""
    return _rewrite_entry(message, "commit", 0, "commit", lambda action: "22" * 32)


def _host_roll(peer, message):
    """The host reveals a secret other than the one it committed to (another roll)."""
    return _rewrite_entry(message, "reveal", 0, "secret", lambda action: "33" * 32)


LIES = {
    "count": (_count, "fair_wrong_count"),
    "loser": (_loser, "fair_wrong_loser"),
    "dice_in_play": (_dice_in_play, "fair_wrong_dice"),
    "turn": (_turn, "fair_wrong_turn"),
    "own_commitment": (_own_commitment, "fair_forged"),
    "host_commitment": (_host_commitment, "fair_bad_record"),
    "host_roll": (_host_roll, "fair_bad_record"),
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lie", sorted(LIES))
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_a_host_that_lies_is_caught_every_time(game, lie, seed):
    tamper, code = LIES[lie]
    host, net = fair_table(game, seed=seed, tamper=tamper)
    play_until(host, net, Rng(seed), lambda: net.tampered > 0 and all(net.guests[p].audit.evidence for p in GUESTS))
    assert net.tampered > 0
    for peer in GUESTS:
        evidence = net.guests[peer].audit.evidence
        assert code in [item["code"] for item in evidence], (peer, evidence)
    if code == "fair_wrong_count":
        params = net.guests["pa"].audit.evidence[0]["params"]
        assert params["announced"] == params["revealed"] + 1


def test_the_evidence_names_the_count_announced_and_revealed():
    host, net = fair_table(seed=7, tamper=_count)
    play_until(host, net, Rng(7), lambda: bool(net.guests["pa"].audit.evidence))
    item = net.guests["pa"].audit.evidence[0]
    truth = net.guests["pa"].audit.table.state["last_round"]
    bid = truth["bids"][-1]
    assert item["params"] == {"count": bid["count"], "face": bid["face"], "announced": truth["actual"] + 1,
                              "revealed": truth["actual"]}


@pytest.mark.parametrize("game", GAMES)
def test_a_host_that_keeps_its_reveal_back_loses_by_the_forfeit_rule(game):
    host, net = fair_table(game, seed=8)
    honest_duty = host.table.duty
    host.table.duty = lambda seat: None if seat == 0 and host.table.state["fair"]["step"] == "reveal" else honest_duty(seat)
    play_until(host, net, Rng(8), lambda: host.table.state["fair"]["step"] == "reveal")
    assert fair.owed(host.table.state["fair"]) == [0]
    dice_before = host.table.state["counts"][0]
    for _ in range(WITHHELD_AFTER // 5_000 + 2):
        net.advance(5_000)
    for peer in GUESTS:
        audit = net.guests[peer].audit
        assert audit.evidence[-1]["code"] == "fair_withheld" and audit.evidence[-1]["params"] == {"seat": 0}
        state = audit.table.state
        settled = state.get("last_round") or state.get("last_hand")
        assert settled["forfeits"] == [0] and settled["loser"] == 0
        ended = settled.get("round_winner") is not None  # Bozó: a new round deals everyone 3 again
        assert state["counts"][0] == dice_before - 1 or ended


def _at_step(step, seed=9):
    """A table where guest ``pa`` (seat 1) plays on but keeps silent in the fair steps named
    in the returned set (at first only ``step``), reached: the test then speaks for it."""
    host, net = fair_table(seed=seed)
    guest = net.guests["pa"]
    silent = {step}
    honest = guest._duty
    guest._duty = lambda now: [] if guest.audit.table.state["fair"]["step"] in silent else honest(now)
    play_until(host, net, Rng(seed), lambda: host.table.state["fair"]["step"] == step)
    assert host.table.state["fair"]["step"] == step and 1 in host.table.to_act()
    return host, net, guest, silent


def _refused(host, action, seat=1):
    before = json.dumps(host.table.state, sort_keys=True), host.version
    outbox = host.receive("pa", encode(
        "intent", table=TABLE_ID, seat=seat, action=action, version=host.version, seq=99,
    ), 0)
    assert (json.dumps(host.table.state, sort_keys=True), host.version) == before
    errors = [json.loads(text) for _, text in outbox if json.loads(text)["kind"] == "error"]
    return errors[0]["code"]


def test_a_guests_wrong_reveal_is_refused_and_changes_nothing():
    host, net, guest, _ = _at_step("reveal")
    n = host.table.state["fair"]["n"]
    assert _refused(host, {"type": "reveal", "n": n, "secret": "44" * 32}) == "fair_bad_reveal"
    assert _refused(host, {"type": "reveal", "n": n + 1, "secret": guest.held[1]["secret"]}) == "fair_wrong_round"


def test_a_late_reveal_from_an_earlier_round_is_refused():
    host, net, guest, _ = _at_step("reveal")
    old = dict(guest.held[1])
    net.host_says(host.forfeit(1))
    net.run()
    assert host.table.state["fair"]["n"] == old["n"] + 1  # the round was settled without it
    assert _refused(host, {"type": "reveal", "n": old["n"], "secret": old["secret"]}) == "fair_out_of_step"
    assert host.table.state["last_round"]["forfeits"] == [1]


def test_a_replayed_commitment_from_an_earlier_round_is_refused():
    host, net, guest, silent = _at_step("reveal")
    n = host.table.state["fair"]["n"]
    earlier = host.table.state["fair"]["commits"][1]
    silent.add("commit")
    net.host_says(host.forfeit(1))
    net.run()
    assert host.table.state["fair"]["step"] == "commit"
    assert _refused(host, {"type": "commit", "n": n + 1, "commit": earlier}) == "fair_replayed"


def test_a_share_before_every_commitment_is_in_is_refused():
    host, net, guest, silent = _at_step("reveal")
    silent.add("commit")
    net.host_says(host.forfeit(1))
    net.run()
    held = {}
    fair_state = host.table.state["fair"]
    share = fair.duty(fair_state, 1, held)  # commits in its head, then tries to share at once
    assert fair_state["step"] == "commit"
    action = {"type": "share", "n": fair_state["n"], "share": fair.share_of(held[1]["secret"], fair_state["id"], fair_state["n"], 1)}
    assert share["type"] == "commit"
    assert _refused(host, action) == "fair_out_of_step"


def test_a_share_that_does_not_match_its_commitment_is_refused():
    host, net, guest, silent = _at_step("reveal", seed=10)
    silent.update(("commit", "share"))
    net.host_says(host.forfeit(1))
    net.run()
    commit = fair.duty(host.table.state["fair"], 1, {})
    net.host_says(host.receive("pa", encode(
        "intent", table=TABLE_ID, seat=1, action=commit, version=host.version, seq=98,
    ), net.now))
    net.run()
    fair_state = host.table.state["fair"]
    assert fair_state["step"] == "share" and fair.owed(fair_state) == [1]
    chosen = {"type": "share", "n": fair_state["n"], "share": "55" * 32}
    assert _refused(host, chosen) == "fair_bad_share"


def test_a_forfeit_before_the_nonce_costs_a_die_and_draws_again():
    host, net, guest, silent = _at_step("reveal", seed=11)
    silent.add("commit")
    net.host_says(host.forfeit(1))
    net.run()
    counts = list(host.table.state["counts"])
    n = host.table.state["fair"]["n"]
    assert host.table.state["fair"]["step"] == "commit" and 1 in host.table.to_act()
    net.host_says(host.forfeit(1))
    net.run()
    assert host.table.state["counts"][1] == counts[1] - 1 and host.table.state["fair"]["n"] == n + 1
    with pytest.raises(ProtocolError) as refused:
        host.forfeit(0)
    assert refused.value.code == "fair_nothing_owed"


@pytest.mark.parametrize("game", GAMES)
def test_a_host_reload_keeps_its_secrets_and_the_game_goes_on(game):
    host, net = fair_table(game, seed=12)
    rng = Rng(12)
    play_until(host, net, rng, lambda: host.table.version > 30 and bool(host.table.state["bids"]))
    reloaded = Host.from_snapshot(json.loads(json.dumps(host.snapshot())))
    assert reloaded.table.held == host.table.held and reloaded.table.view(0)["dice"] == host.table.view(0)["dice"]
    net.replace_host(reloaded)
    net.advance(20_000)
    play_until(reloaded, net, rng, lambda: reloaded.table.is_over())
    assert reloaded.table.is_over()
    everyone_agrees(reloaded, net)


@pytest.mark.parametrize("game", GAMES)
def test_a_guest_reload_in_the_middle_of_a_round_loses_nothing(game):
    host, net = fair_table(game, seed=13)
    rng = Rng(13)
    play_until(host, net, rng, lambda: host.table.version > 30 and bool(host.table.state["bids"]))
    guest = net.guests["pa"]
    dice = guest.view["dice"]
    saved = json.loads(json.dumps(guest.snapshot()))
    assert saved["held"][0]["seat"] == 1
    back = Guest.from_snapshot(saved, "Guest pa")
    net.guests["pa"] = back
    net.guest_says("pa", back.start(net.now))
    net.run()
    assert back.view["dice"] == dice
    play_until(host, net, rng, lambda: host.table.is_over())
    assert host.table.is_over()
    everyone_agrees(host, net)


@pytest.mark.parametrize("held, for_the_host_too", [
    ([{"seat": 1, "n": 1, "secret": "xyz"}], True),
    ([{"seat": 1, "n": 1, "secret": "aa" * 32}, {"seat": 1, "n": 2, "secret": "bb" * 32}], True),
    ([{"seat": 9, "n": 1, "secret": "aa" * 32}], True),
    ("aa" * 32, True),
    ([{"seat": 2, "n": 1, "secret": "aa" * 32}], False),  # another seat's secret in a guest's save
])
def test_saved_secrets_are_checked_when_read_back(held, for_the_host_too):
    with pytest.raises(BadSave) as bad:
        Guest.from_snapshot({"format": 1, "table": TABLE_ID, "seat": 1, "token": "t" * 22, "room": None, "held": held})
    assert bad.value.code == "fair_save_secrets"
    if for_the_host_too:
        host, _ = fair_table(seed=14)
        data = host.snapshot()
        data["held"] = held
        with pytest.raises(BadSave) as bad:
            Host.from_snapshot(data)
        assert bad.value.code == "fair_save_secrets"


def test_a_long_record_reaches_a_rejoining_guest_in_pieces_it_replays_in_order(monkeypatch):
    monkeypatch.setattr("pyengine.protocol.fair.RECORD_CHUNK", 7)
    host, net = fair_table(seed=15)
    play_until(host, net, Rng(15), lambda: host.table.version > 40)
    sent = []
    net.host_says = (lambda original: lambda outbox: (sent.extend(outbox), original(outbox))[1])(net.host_says)
    net.guest_says("pa", [encode("sync", table=TABLE_ID)])
    net.run()
    records = [json.loads(text) for peer, text in sent if peer == "pa" and '"kind":"record"' in text]
    assert len(records) >= 6 and [r["from"] for r in records] == list(range(0, 7 * len(records), 7))
    everyone_agrees(host, net)


def test_a_rematch_draws_under_a_new_fair_id_and_the_guests_follow():
    host, net = fair_table(seed=16)
    rng = Rng(16)
    play_until(host, net, rng, lambda: host.table.is_over())
    first = host.table.fair
    net.host_says(host.rematch())
    net.run()
    assert host.table.fair != first and host.table.state["fair"]["step"] == "play"
    play_until(host, net, rng, lambda: host.table.version > 20)
    everyone_agrees(host, net)


def test_no_guest_blames_the_host_for_the_reveal_of_a_friend_a_bot_covers():
    """Seat 3's device leaves after its commitment and a bot covers the seat: only that
    device holds seat 3's secret, so however long its reveal waits, the other guest's replay
    never says the host kept it back (the host may then apply the forfeit rule)."""
    host, net = fair_table(seed=8)
    net.cut.add("pc")
    net.host_says(host.drop("pc", net.now))
    net.host_says(host.set_seat(3, "bot", host.table.game.bot_levels[0]))
    net.run()
    play_until(host, net, Rng(8), lambda: host.table.state["fair"]["step"] == "reveal")
    assert fair.owed(host.table.state["fair"]) == [3]
    for _ in range(WITHHELD_AFTER // 5_000 + 2):
        net.advance(5_000)
    assert "fair_withheld" not in [item["code"] for item in net.guests["pa"].audit.evidence]
    assert fair.owed(host.table.state["fair"]) == [3]



@pytest.fixture
def steady_secrets(monkeypatch):
    """Every device's secrets (``core.fair.new_secret``) drawn from a counter: the dice, and
    so who speaks in which hand, are the same every run."""
    counter = itertools.count()
    monkeypatch.setattr(fair.secrets, "token_hex", lambda size: hashlib.sha256(b"%d" % next(counter)).hexdigest()[: 2 * size])


@pytest.mark.parametrize("blind_bids", [False, True])
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_bozo_bot_covering_a_sealed_cup_plays_blind(steady_secrets, blind_bids, level):
    """Seat 3's device leaves after its commitment: the covering bot cannot see the cup (only
    that device holds its secret), so it looks only if the table's blind bids let it look,
    then bids or doubts blind until the hand's reveal waits for the friend's device."""
    host, net = fair_table("bozo", seed=7, options={"blind_bids": blind_bids})
    net.cut.add("pc")
    net.host_says(host.drop("pc", net.now))
    net.host_says(host.set_seat(3, "bot", level))
    net.run()
    covered_from = len(host.table.log)
    play_until(host, net, Rng(7), lambda: host.table.state["fair"]["step"] == "reveal")
    moves = [entry["action"]["type"] for entry in host.table.log[covered_from:] if entry["seat"] == 3]
    assert {"bid", "doubt"} & set(moves) and moves.count("look") <= int(blind_bids)
    assert fair.owed(host.table.state["fair"]) == [3]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("committed_by", ["friend", "bot"])
def test_a_friend_given_back_a_seat_mid_round_sees_its_cup_at_once(steady_secrets, game, committed_by):
    """Seat 3's device leaves after its commitment and a bot covers the seat; with
    ``committed_by`` "bot" the round is then settled without it (the forfeit rule) and the
    bot commits for the next one, so that round's secret is the host's device's. The
    friend is given the seat back mid-round: it sees its own cup at once (its own secret,
    or the one the host hands over and its device checks against the commitment), nobody
    blames the host for showing it, and the friend's device reveals it when the rules
    reveal: the table never waits for a secret only the host holds."""
    host, net = fair_table(game, seed=8)
    guest = net.guests["pc"]
    net.cut.add("pc")
    net.host_says(host.drop("pc", net.now))
    net.host_says(host.set_seat(3, "bot", host.table.game.bot_levels[0]))
    net.run()
    rng = Rng(8)
    if committed_by == "bot":
        play_until(host, net, rng, lambda: host.table.state["fair"]["step"] == "reveal")
        net.host_says(host.forfeit(3))  # only the friend's device could reveal this round's cup
        net.run()
    n = host.table.state["fair"]["n"]
    assert (host.table.held.get(3, {}).get("n") == n) == (committed_by == "bot")
    play_move(host, net, rng, call_often=False)
    net.cut.discard("pc")
    net.host_says(host.set_seat(3, "remote"))
    net.guest_says("pc", guest.connected(net.now))
    net.run()
    mine = dict(guest.held[3])
    assert mine["n"] == n and guest.view["dice"] == fair.own_cup(host.table.state["fair"], 3, guest.held, host.table.state["counts"][3])
    assert guest.view["dice"] is not None and guest.audit.evidence == []
    assert not any(g.held.get(3) for p, g in net.guests.items() if p != "pc")  # only the seat's device
    play_until(host, net, rng, lambda: host.table.state["fair"]["n"] > n or host.table.is_over())
    assert host.table.state["fair"]["n"] > n or host.table.is_over()
    assert any(e["seat"] == 3 and e["action"] == {"type": "reveal", "n": n, "secret": mine["secret"]} for e in host.table.log)
    everyone_agrees(host, net)


def test_a_handed_secret_that_does_not_open_the_seats_commitment_changes_nothing():
    host, net = fair_table(seed=17)
    guest = net.guests["pa"]
    mine = dict(guest.held[1])
    n = host.table.state["fair"]["n"]
    for seat, secret in ((1, "66" * 32), (3, net.guests["pc"].held[3]["secret"]), (1, mine["secret"])):
        guest.receive(encode("secret", table=TABLE_ID, seat=seat, n=n, secret=secret), net.now)
        assert guest.held == {1: mine} and guest.audit.evidence == []


ONE_GUEST = [{"kind": "human", "name": "Host"}, {"kind": "remote", "name": "A"}, {"kind": "bot", "name": "B"}, {"kind": "bot", "name": "C"}]


def guest_trips(net) -> int:
    """Delivers in waves (what is queued now, then its answers) until quiet; returns how many
    waves carried an intent: the round trips the guests' devices took."""
    trips = 0
    while net.queue:
        wave = len(net.queue)
        trips += any(receiver is None and '"kind":"intent' in text.replace(" ", "") for _, receiver, text in net.queue)
        net.run(limit=wave)
    return trips


def _guest_calls(game, seed):
    """A one-guest fair table where the guest (seat 1) has just sent a call that ends the round."""
    host, net = fair_table(game, seed=seed, seats=ONE_GUEST)
    rng = Rng(seed)
    play_until(host, net, rng, lambda: 1 in host.table.to_act() and bool(host.table.state["bids"]))
    call = next(a for a in host.table.game.legal_actions(host.table.state, 1) if a["type"] != "bid")
    guest = net.guests["pa"]
    net.guest_says("pa", guest.intend(call, net.now))
    return host, net, guest


@pytest.mark.parametrize("game", GAMES)
def test_after_a_call_the_next_round_is_drawn_in_two_more_round_trips(game):
    """The call, then the guest's reveal with its next commitment, then its share: the round
    trips a round's end costs a guest (the host and its bots do their part with each state)."""
    host, net, guest = _guest_calls(game, seed=5)
    n = host.table.state["fair"]["n"]
    assert guest_trips(net) == 3
    assert host.table.state["fair"]["n"] == n + 1 and host.table.state["fair"]["step"] == "play"
    assert guest.view["dice"] is not None
    everyone_agrees(host, net)


def test_a_guest_reloaded_before_its_reveal_and_commitment_are_answered_loses_nothing():
    host, net, guest = _guest_calls("perudo", seed=5)
    net.run(limit=len(net.queue))  # the call: the host answers with the reveal step
    net.run(limit=len(net.queue))  # the guest sends its reveal with its next commitment
    assert any('"intent_then"' in text for sender, _, text in net.queue if sender == "pa")
    saved = json.loads(json.dumps(guest.snapshot()))
    assert saved["ahead"][0]["n"] == host.table.state["fair"]["n"] + 1
    net.run()  # the host takes both; the guest reloads before it reads the answer
    back = Guest.from_snapshot(saved, "Guest pa")
    net.guests["pa"] = back
    net.guest_says("pa", back.start(net.now))
    net.run()
    assert host.table.state["fair"]["step"] == "play" and back.view["dice"] is not None
    everyone_agrees(host, net)
