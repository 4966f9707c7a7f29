"""A fair card table in real browsers: two phones (separate contexts) and two bots on the
host's phone play a Botifarra hand dealt by the devices (``kits.fair_cards``), over WebRTC.

A whole game (51 points at least) is several hands of 48 plays: too long for the suite's
budget, so one hand and the next deal's start. What is checked: both pages installed the
card group before the table's first call (else the table would deal from the host's
generator and say nothing of fair cards); while the table waits for the guest's part of the
deal, the host's screen says which step and whose device, and shows nothing of the game
until the cards are dealt (the guest's sends are held back for that moment), and on a phone
too what a fair table means (in play that line is for screen readers only, to keep the trick
above the hand); the guest's phone shows its own hand, the host's table holds it sealed;
the secrecy audit over every text the host's page received from the guest: each card of the
guest's hand first reached the host in the guest's own play of it; the check of the hand
found nothing. Screenshots go to ``$TABERNA_SCREENS`` (or the test's tmp_path).
"""

from pyengine.games.botifarra.view import card_label
from pyengine.i18n import Translator
from pyengine.kits.fair_cards import is_sealed
from tests.browser.shots import screenshots, tappable
from tests.browser.test_botifarra_browser import play_shared
from tests.browser.test_fair_browser import FRIEND, create_fair_table
from tests.browser.test_friends_browser import (
    connected,
    host_table,
    join_by_invite,
    open_lobby,
    protocol_messages,
    quiet,
    whole_texts,
)

EN = Translator("en")

# Holds back what the page sends on its WebRTC channels while ``window.__held`` is a list
# (the test sets it), and sends it all, in order, on ``window.__release()``.
HOLD_SENDS = """
if (location.protocol === 'http:') {
  window.__held = null;
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (data) {
    if (window.__held) window.__held.push([this, data]);
    else send.call(this, data);
  };
  window.__release = () => {
    const held = window.__held;
    window.__held = null;
    for (const [channel, data] of held) send.call(channel, data);
  };
}
"""


def lines_shown(*selectors):
    """A check for ``screenshots``: each line reads whole where it stands (in view, nothing
    over it, not shrunk to a screen reader's pixel)."""
    def check(page):
        for selector in selectors:
            tappable(selector)(page)
            assert page.locator(selector).bounding_box()["width"] > page.viewport_size["width"] / 2, selector
    return check


def hand_number(host):
    return host_table(host).state["hand_number"]


def test_two_phones_play_a_fair_botifarra_hand_and_the_host_never_holds_the_guests_cards(phones, site, wait_engine, tmp_path):
    host, bruno = phones(), phones()
    bruno.context.add_init_script(HOLD_SENDS)
    open_lobby(host, site.url, wait_engine)
    create_fair_table(host, "botifarra", ["remote", "bot", "bot"])
    assert host.locator("[data-testid=fair-line]").count() == 1  # dealt by the devices: the group is in
    join_by_invite(host, bruno, FRIEND, "Bruno", wait_engine)
    connected(host, FRIEND)

    # The deal waits for Bruno's lock while his phone's sends are held: the host says so.
    bruno.evaluate("() => { window.__held = []; }")
    host.click("[data-testid=net-start]")
    waiting = host.locator("#game-area [data-testid=fair-deal]", has_text="Bruno")
    waiting.wait_for()
    assert waiting.get_attribute("data-step") in ("lock", "relock")
    assert host.locator("#game-area [data-testid=bt-status]").count() == 0  # no "… is choosing trumps" yet
    assert "The bots run on the host's device, which sees their hands." in host.locator("#game-area [data-testid=fair-line]").inner_text()
    screenshots(host, tmp_path, "fair-cards-deal", lines_shown("#game-area [data-testid=fair-deal]",
                                                             "#game-area [data-testid=fair-line]"))
    bruno.evaluate("() => window.__release()")

    # Bruno's phone reads his twelve cards; the host's table holds them sealed.
    bruno.locator('#game-area [data-testid=bt-hand] .cards-fan[data-count="12"]').wait_for()
    shown = bruno.inner_html("#game-area [data-testid=bt-hand]")
    quiet(host, [host])
    assert all(is_sealed(card) for card in host_table(host).state["hands"][FRIEND])
    assert "which sees their hands" in bruno.locator("#game-area [data-testid=fair-line]").inner_text()

    played = play_shared(host, [host, bruno], 6)  # the trump, the doubling, the first tricks
    screenshots(bruno, tmp_path, "fair-cards-hand", tappable("#game-area .cards-fan [aria-label]"))
    while quiet(host, [host]) and hand_number(host) == 1:
        played += play_shared(host, [host, bruno], 1)
    assert played > 24  # the two players' twelve cards each, a tap to choose and one to play

    table = host_table(host)
    plays = [e["action"] for e in table.log if e["seat"] == FRIEND and e["action"]["type"] == "play"]
    cards = [action["card"] for action in plays]
    assert len(cards) == 12 and all(f'aria-label="{card_label(EN, card)}' in shown for card in cards)
    # Each of Bruno's cards first reached the host's page in Bruno's play of it.
    texts = list(whole_texts(host.evaluate("window.__raw")))
    for card in cards:
        [message] = protocol_messages([next(text for text in texts if f'"{card}"' in text)], "intent", "intent_then")
        play = message["action"] if message["action"]["type"] == "play" else message["then"]
        assert play["type"] == "play" and play["card"] == card
    # The hand's check found nothing, on either phone.
    assert any(e["seat"] == FRIEND and e["action"]["type"] == "reveal" for e in table.log)
    assert table.state["fair"]["verdict"] is None
    for page in (host, bruno):
        assert page.locator("[data-testid=fair-verdict]").count() == 0
    assert bruno.locator("[data-testid=fair-evidence]").count() == 0
    assert host.context.errors == [] and bruno.context.errors == []
