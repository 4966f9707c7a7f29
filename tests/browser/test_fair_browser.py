"""Fair tables in real browsers: two phones (separate contexts) play shared Perudo, Bozó and
Crown and Anchor tables to the end over WebRTC (invite links, no relay); the Perudo table
has a bot on the host's phone, the others are as short as their rules allow (Bozó: two
players, one round; Crown and Anchor: the host banks, one roll, then the guest's phone goes
away and the forfeit rule ends the game).

What is checked beyond the play: the table screens say what a fair table means and which
device runs the bot; and the secrecy audit on the host's side, over every text the host's
page received from the guest. Perudo and Bozó: before the guest revealed a round's secret
nothing it sent fixes its dice (no secret of that round, no dice at all), so the host's
browser could not have read the guest's cup. Crown and Anchor: the roll is read from the
nonce of both devices' shares, and the guest's share reached the host only in its share,
after its commitment, so the host's page could not know the roll before the draw's last
step (nor pick it: its own commitment came first). The notices a fair table adds are in
view and tappable on a phone and a desktop: the host's forfeit note and button, the
evidence a guest's phone shows when the host lies. Screenshots go to ``$TABERNA_SCREENS``
(or the test's tmp_path).
"""

import json
import random

from pyengine.core import fair
from pyengine.games.crown_anchor.rules import SYMBOLS
from tests.browser.test_friends_browser import (
    connected,
    host_table,
    join_by_invite,
    open_lobby,
    play,
    protocol_messages,
    quiet,
)
from tests.browser.shots import screenshots, tappable
from tests.browser.waits import tap_move

FRIEND = 1  # Bruno's seat at every table here
TIMEOUT_MS = 60_000

# Keeps the page's WebRTC data channels (``window.__channels``), so that a test can play a
# host that sends what its table never said.
KEEP_CHANNELS = """
if (location.protocol === 'http:') {
  window.__channels = [];
  const create = RTCPeerConnection.prototype.createDataChannel;
  RTCPeerConnection.prototype.createDataChannel = function (...args) {
    const channel = create.apply(this, args);
    window.__channels.push(channel);
    return channel;
  };
}
"""
# Sends one whole text (our framing: '.' ends a text) on every open channel of the page.
SEND_RAW = "(text) => { for (const c of window.__channels) if (c.readyState === 'open') c.send('.' + text); }"


def create_fair_table(page, game, others, options=None):
    """The host's setup: seat 0 on this phone ("Ana"), then ``others`` in order ("remote": a
    friend, "bot": the game's first bot), nobody else; ``options``: option fields by name."""
    page.select_option("#friends-game", game)
    page.click("[data-testid=friends-create]")
    form = page.locator('form[data-form="setup"][data-shared="1"]')
    form.wait_for()
    assert form.locator("[data-testid=fair-line]").count() == 1  # said before the table exists
    counted = form.locator("select[name=seat_count]")
    if counted.count():  # rows past the count are hidden and ignored
        counted.select_option(str(1 + len(others)))
    rows = len(others) + 1 if counted.count() else form.locator('select[name$="_kind"]').count()
    for seat in range(1, rows):
        select = form.locator(f'select[name="seat{seat}_kind"]')
        kind = others[seat - 1] if seat <= len(others) else "none"
        if kind == "bot":
            kind = select.locator('option[value^="bot:"]').first.get_attribute("value")
        select.select_option(kind)
    for name, value in (options or {}).items():
        field = form.locator(f'[name="opt_{name}"]')
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    form.locator('input[name="seat0_name"]').fill("Ana")
    form.locator("[data-testid=start]").click()
    page.locator("[data-testid=room-code]").wait_for()


def start_fair_table(phones, site, wait_engine, game, others, options=None):
    """Ana's phone hosts a fair ``game`` table (keeping its channels: ``KEEP_CHANNELS``),
    Bruno's takes seat 1 by invite, Ana starts; every screen says what a fair table means.
    Returns both pages."""
    host, bruno = phones(), phones()
    host.context.add_init_script(KEEP_CHANNELS)
    open_lobby(host, site.url, wait_engine)
    create_fair_table(host, game, others, options)
    assert host.locator("[data-testid=fair-line]").count() == 1  # the arrange screen says it too
    join_by_invite(host, bruno, FRIEND, "Bruno", wait_engine)
    connected(host, FRIEND)
    host.click("[data-testid=net-start]")
    for page in (host, bruno):
        page.locator("#game-area [data-testid=fair-line]").wait_for()
    return host, bruno


def finished_honestly(host, bruno):
    """The game ends on the guest's phone too, with nothing its replay caught the host at."""
    bruno.locator("#game-area [data-testid=game-over]").wait_for()
    assert bruno.locator("[data-testid=fair-evidence]").count() == 0
    for page in (host, bruno):
        assert page.context.errors == []


def guest_intents(host):
    """Every intent the host's page received (only Bruno sends any), in order, an
    ``intent_then`` as its two actions in turn; none names dice."""
    intents = []
    for message in protocol_messages(host.evaluate("window.__raw"), "intent", "intent_then"):
        intents.append(message)
        if "then" in message:
            intents.append(dict(message, action=message["then"]))
    assert any(i["action"]["type"] == "commit" for i in intents)
    assert all("dice" not in json.dumps(i["action"]) for i in intents)
    return intents


def first_sent_in(intents, action, value):
    """Where ``value`` first reached the host: it must be in ``action`` itself, after the
    guest's commitment of that fair round (which fixed it unseen). Returns the index."""
    first = next(k for k, i in enumerate(intents) if value in json.dumps(i))
    assert intents[first]["action"] == action
    commits = [k for k, i in enumerate(intents) if i["action"]["type"] == "commit" and i["action"]["n"] == action["n"]]
    assert commits and commits[0] < first
    return first


def rested_table(host):
    """The host's table from its save, once the save has caught up with its screen."""
    quiet(host, [host])
    return host_table(host)


def audit_cups(host):
    """Perudo and Bozó: the guest's secret of each round reached the host only in its
    reveal, and its share (all the nonce needs) before; at least one cup was revealed."""
    table = rested_table(host)
    intents = guest_intents(host)
    reveals = {e["action"]["n"]: e["action"]["secret"] for e in table.log if e["seat"] == FRIEND and e["action"]["type"] == "reveal"}
    for n, secret in reveals.items():
        first = first_sent_in(intents, {"type": "reveal", "n": n, "secret": secret}, secret)
        share = fair.share_of(secret, table.fair, n, FRIEND)
        assert any(i["action"].get("share") == share for i in intents[:first])
    assert reveals


def audit_first_roll(host):
    """Crown and Anchor after its first roll: the roll is the one the nonce of both shares
    gives; the guest's share reached the host only in its share, after its commitment, and
    the banker's commitment was in before it (the host could not choose its share after)."""
    table = rested_table(host)
    shares = {e["action"]["n"]: e["action"]["share"] for e in table.log if e["seat"] == FRIEND and e["action"]["type"] == "share"}
    assert list(shares) == [1]
    first_sent_in(guest_intents(host), {"type": "share", "n": 1, "share": shares[1]}, shares[1])
    banker = next(k for k, e in enumerate(table.log) if e["seat"] == 0 and e["action"]["type"] == "commit")
    guest = next(k for k, e in enumerate(table.log) if e["seat"] == FRIEND and e["action"]["type"] == "share")
    assert banker < guest
    nonce = table.state["fair"]["nonce"]
    assert nonce == fair.nonce_of(table.state["fair"]["shares"], table.fair, 1)
    assert table.state["last"]["dice"] == [SYMBOLS[f - 1] for f in fair.roll(nonce, "roll", 3)]


def test_two_phones_play_a_fair_perudo_table_and_the_host_never_holds_the_guests_dice(phones, site, wait_engine, tmp_path):
    rng = random.Random(23)
    host, bruno = start_fair_table(phones, site, wait_engine, "perudo", ["remote", "bot"])
    for page in (host, bruno):
        page.locator('#game-area [data-testid="seat-2"] .tb-net-runs').wait_for()  # the bot's device
        page.locator("#game-area [data-testid=my-cup]").wait_for()  # each sees its own cup at once
    assert "this device" in host.locator('[data-testid="seat-2"] .tb-net-runs').inner_text()
    assert "host's device" in bruno.locator('[data-testid="seat-2"] .tb-net-runs').inner_text()
    for name, page in (("host", host), ("guest", bruno)):
        screenshots(page, tmp_path, f"fair-{name}")

    assert play(host, [host, bruno], rng) > 5
    finished_honestly(host, bruno)
    audit_cups(host)


def test_two_phones_play_a_fair_bozo_round_and_the_host_never_holds_the_guests_dice(phones, site, wait_engine, tmp_path):
    """Then the host's page lies once (the dice the host holds, in a state it sends Bruno):
    Bruno's phone shows what its replay caught, in words, above the table."""
    host, bruno = start_fair_table(phones, site, wait_engine, "bozo", ["remote"], {"points_target": "1"})
    for page in (host, bruno):
        page.locator("#game-area [data-testid=my-cup]").wait_for()
    assert play(host, [host, bruno], random.Random(3)) >= 3  # a die lost per hand, three to lose
    finished_honestly(host, bruno)
    audit_cups(host)

    # The lie rewrites the latest state: Bruno must have it (else the real one overtakes the lie).
    bruno.wait_for_function(
        "(v) => Number(document.querySelector('#game-area .tb-table')?.dataset.version) === v", arg=quiet(host, [host])
    )
    lie = protocol_messages(bruno.evaluate("window.__raw"), "state")[-1]
    truth = lie["view"]["counts"][0]
    lie["view"]["counts"][0] = truth + 1
    # A lying host names any revision it likes: one ahead of whatever honest state the host
    # may still send meanwhile (a seat's connection flickering on a loaded machine), which
    # would otherwise overtake the lie and have it dropped as older.
    lie["rev"] += 1000
    host.evaluate(SEND_RAW, json.dumps(lie))
    evidence = bruno.locator("[data-testid=fair-evidence]")
    evidence.wait_for()
    assert evidence.locator("li").inner_text() == f"The host says Ana has {truth + 1} dice; by the record, {truth}."
    screenshots(bruno, tmp_path, "fair-evidence", tappable("[data-testid=fair-evidence] li"))


def test_two_phones_play_fair_crown_and_anchor_and_the_banker_cannot_know_the_roll(phones, site, wait_engine, tmp_path):
    """One roll; then Bruno stakes again and his phone goes away before the draw of the next
    roll: the host's screen says why the table waits and offers the forfeit rule, in view
    and tappable on a phone and a desktop; by the rule Bruno leaves and the game ends."""
    host, bruno = start_fair_table(phones, site, wait_engine, "crown_anchor", ["remote"], {"bank": "fixed"})
    area, its = host.locator("#game-area"), bruno.locator("#game-area")

    def stake():
        tap_move(bruno, its.locator("[data-testid=ca-cell-crown]"), TIMEOUT_MS)
        tap_move(bruno, its.locator("[data-testid=ca-done]"), TIMEOUT_MS)

    stake()
    tap_move(host, area.locator("[data-testid=ca-roll]"), TIMEOUT_MS)
    for page in (host, bruno):  # the draw's steps are the devices' own: the roll shows on both
        page.locator('#game-area [data-testid=ca-dice][data-roll="1"]').wait_for()
    audit_first_roll(host)

    stake()
    assert bruno.locator("[data-testid=fair-evidence]").count() == 0 and bruno.context.errors == []
    bruno.close()
    host.locator('[data-testid="seat-1"][data-conn="absent"]').wait_for()
    tap_move(host, area.locator("[data-testid=ca-roll]"), TIMEOUT_MS)
    forfeit = area.locator("[data-testid=forfeit-1]")
    forfeit.wait_for()
    screenshots(host, tmp_path, "fair-forfeit", tappable("#game-area [data-testid=forfeit-1]"))
    tap_move(host, forfeit, TIMEOUT_MS)
    area.locator("[data-testid=game-over]").wait_for()
    assert rested_table(host).state["result"]["reason"] == "no_punters" and host.context.errors == []
