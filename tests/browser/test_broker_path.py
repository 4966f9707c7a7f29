"""Friends with no direct path between them play through the brokers (site/net/brokerpath.js).

Every context here blocks WebRTC candidates (BLOCK_DIRECT: no STUN server, no candidate taken
from the far side), as two phones behind carrier-grade NAT without a TURN server would see it:
a data channel can never open, and the table goes through the loopback mosquitto brokers.
"""

import json
import random

import pytest

from tests.browser.conftest import Relay, record, settings_script
from tests.browser.pages import BOTS_INSTANT
from tests.browser.pixels import Image, near
from tests.browser.test_botifarra_browser import painted_hands, play_shared
from tests.browser.shots import TAPPABLE, screenshots, tappable
from tests.browser.test_friends_browser import (
    MAX_ACTIONS, connected, create_table, host_over, host_table, join_by_room_code, open_lobby, play,
)
from tests.browser.test_transports import HOST_ROOM, JOIN_ROOM, TRACK, texts, wait_texts

# No ICE candidate is accepted from the far side, and the page counts the WebRTC connections that
# got through anyway (``__rtcConnected``): direct paths are impossible.
BLOCK_DIRECT = """
if (location.protocol === 'http:') {
  window.__rtcConnected = 0;
  const Native = window.RTCPeerConnection;
  const strip = (description) => description?.sdp
    ? { type: description.type, sdp: description.sdp.replace(/a=candidate:.*\\r\\n/g, '') }
    : description;
  window.RTCPeerConnection = class extends Native {
    constructor(config = {}) {
      super({ ...config, iceServers: [] });
      this.addEventListener('connectionstatechange', () => {
        if (this.connectionState === 'connected') window.__rtcConnected += 1;
      });
    }
    addIceCandidate() { return Promise.resolve(); }
    setRemoteDescription(description) { return super.setRemoteDescription(strip(description)); }
  };
}
"""

BROKERS_COLOUR = (0xB5, 0x54, 0x1C)  # .net-path[data-path="brokers"]::before


@pytest.fixture
def cut_off(browser, site):
    """Makes players whose devices can reach the brokers ``urls`` but never each other."""
    made = []

    def make(*urls):
        ctx = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
        ctx.set_default_timeout(90_000)
        ctx.add_init_script(settings_script("\n".join(urls)))
        ctx.add_init_script(BLOCK_DIRECT)
        ctx.recorder = record(ctx)
        made.append(ctx)
        return ctx.new_page()

    yield make
    for ctx in made:
        ctx.close()


@pytest.fixture
def second_relay(tmp_path):
    broker = Relay(tmp_path)
    yield broker
    broker.close()


def path_shown(page):
    """The path line as a player sees it: its text, once a tap at its centre lands on it and
    the slow path's dot is drawn."""
    line = page.locator("[data-testid=net-path]")
    line.wait_for()
    assert page.evaluate(TAPPABLE, "[data-testid=net-path]")
    assert any(near(colour, BROKERS_COLOUR) for colour in Image(line.screenshot()).colours(line.bounding_box() | {"x": 0, "y": 0}))
    return line.inner_text()


DIRECT_VERDICTS = {
    "Direct path: through your TURN server, from any network.",
    "Direct path: likely (this network shows a public address). Where it fails, games go through the relay servers.",
    "Direct path: only with devices on this same network; with others, games go through the relay servers.",
    "Direct path: unlikely from here; games go through the relay servers.",
}


def check_the_connection(page, tmp_path):
    """The friends panel's check, before anyone is invited: both brokers answer; and the
    settings where TURN servers go, beside STUN (screenshots of both)."""
    page.click("[data-testid=friends-check]")
    result = page.locator("[data-testid=check-result] li")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=check-result] li').length === 2")
    brokers, direct = result.all_inner_texts()
    assert brokers == "Relay servers reachable: 2 of 2. Room codes work from here."
    assert direct in DIRECT_VERDICTS
    check = "[data-testid=friends-check]"
    screenshots(page, tmp_path, "broker-check", tappable(check), centre=check)
    page.click("#settings summary")
    page.click("#settings-net summary")
    screenshots(page, tmp_path, "broker-settings", tappable("#turn-credential"), centre="#turn-credential")
    page.click("#settings summary")


def test_a_whole_perudo_game_through_two_brokers_one_stopped_mid_game(cut_off, site, wait_engine, relay, second_relay, tmp_path):
    """Two phones that cannot reach each other play a whole Perudo game through two brokers
    at once; one broker stops mid-game and the game goes on to its end through the other."""
    import random

    rng = random.Random(5)
    host, guest = cut_off(second_relay.url, relay.url), cut_off(second_relay.url, relay.url)
    open_lobby(host, site.url, wait_engine)
    check_the_connection(host, tmp_path)
    code = create_table(host, seats=1)
    join_by_room_code(host, guest, code, 1, "Bruno", wait_engine, site.url)
    assert path_shown(guest) == "Through the relay servers (slower)"
    assert path_shown(host) == "Through the relay servers (slower)"
    screenshots(guest, tmp_path, "broker-path-guest", tappable("[data-testid=net-path]"))
    host.click("[data-testid=net-start]")
    played = play(host, [host, guest], rng, actions=4)
    second_relay.close()  # one broker goes away mid-game
    played += play(host, [host, guest], rng)
    assert host_over(host) and played > 10
    guest.locator("#game-area [data-testid=game-over]").wait_for()
    connected(host, 1)
    for page in (host, guest):
        assert page.evaluate("window.__rtcConnected") == 0  # never a direct path
        assert page.context.recorder.errors == []


def room_fingerprint(host):
    """The fingerprint of the host's key, as its room link names it."""
    host.click("#net-share-room")
    link = host.locator("[data-testid=share-link]").input_value()
    host.click("[data-testid=share-close]")
    return link.split("#room=", 1)[1].split("&", 1)[0].split(".", 1)[1]


def scores(page):
    return [page.locator(f"#game-area [data-testid=bt-score-{side}] b").inner_text() for side in (0, 1)]


def test_a_whole_fair_botifarra_game_through_the_brokers(cut_off, site, wait_engine, relay):
    """Botifarra to 51 (a host, a friend and two bots, the cards dealt by the devices) played
    to its end through the brokers: the friend's phone took the host only once it proved its
    key, shows none of the host's cards, and ends on the same score; every hand's check
    found nothing."""
    host, guest = cut_off(relay.url), cut_off(relay.url)
    for page in (host, guest):
        page.context.add_init_script(BOTS_INSTANT)
    open_lobby(host, site.url, wait_engine)
    host.select_option("#friends-game", "botifarra")
    host.click("[data-testid=friends-create]")
    form = host.locator('form[data-form="setup"][data-shared="1"]')
    form.wait_for()
    form.locator('select[name="seat1_kind"]').select_option("remote")
    for seat in (2, 3):
        kinds = form.locator(f'select[name="seat{seat}_kind"]')
        kinds.select_option(kinds.evaluate("(s) => [...s.options].find((o) => o.value.startsWith('bot:')).value"))
    form.locator('select[name="opt_target"]').select_option("51")
    form.locator("[data-testid=start]").click()
    code = host.locator("[data-testid=room-code]").inner_text().strip()
    join_by_room_code(host, guest, code, 1, "Bruno", wait_engine, site.url)
    assert json.loads(guest.evaluate("sessionStorage.getItem('taberna.shared')"))["pin"] == room_fingerprint(host)
    host.click("[data-testid=net-start]")
    played = play_shared(host, [host, guest], 8)
    host_hand, _ = painted_hands(host, [host, guest])
    shown = guest.inner_html("#game-area")
    for label in host_hand:  # the friend's phone shows none of the host's cards (bots': fair-deal tests)
        assert f'aria-label="{label}"' not in shown
    played += play_shared(host, [host, guest], MAX_ACTIONS)
    assert host_over(host) and played > 24  # more than one hand: each person plays 12 cards a hand
    guest.locator("#game-area [data-testid=game-over]").wait_for()
    table = host_table(host)
    assert max(table.state["scores"]) >= 51 and table.state["fair"]["verdict"] is None
    assert scores(host) == scores(guest) == [str(score) for score in table.state["scores"]]
    assert guest.locator("[data-testid=fair-evidence]").count() == 0
    for page in (host, guest):
        assert page.evaluate("window.__rtcConnected") == 0
        assert page.context.recorder.errors == []


# Listens on the room's broker topic as anyone with the room code could: every frame, and
# whether the room key opens it (``window.heard``).
LISTEN = """async ([code, url]) => {
    const lib = await import("./net/relay-bundle.js");
    const path = await import("./net/brokerpath.js");
    const {roomId, password, broker} = await (await import("./net/roomkey.js")).roomSecrets(code);
    const secrets = await path.pathSecrets(broker);
    lib.joinRoom({appId: "taberna", password, relayConfig: {urls: [url]}, rtcConfig: {iceServers: []}}, roomId);
    window.heard = [];
    const links = path.brokerLinks(lib.brokerClients([url]), secrets.topic);
    links.onframe = async (frame) => {
        const opened = await path.openFrame(secrets.roomKey, frame);
        heard.push({kind: path.readHeader(frame).kind, opened: opened && new TextDecoder().decode(opened)});
    };
    await new Promise((resolve) => { const wait = () => links.reachable ? resolve() : setTimeout(wait, 50); wait(); });
}"""


# A guest that proves the host like any other, then sends the first frame of a text far over
# the size limit (sealed under its own session key, as only it can): a flood, as a data
# channel's guard counts one.
FLOOD = """async ([code, url]) => {
    const lib = await import("./net/relay-bundle.js");
    const path = await import("./net/brokerpath.js");
    const {roomId, password, broker, table} = await (await import("./net/roomkey.js")).roomSecrets(code);
    const secrets = await path.pathSecrets(broker);
    lib.joinRoom({appId: "taberna", password, relayConfig: {urls: [url]}, rtcConfig: {iceServers: []}}, roomId);
    await new Promise((resolve) => { const wait = () => lib.brokerClients([url])[0]?.connected ? resolve() : setTimeout(wait, 50); wait(); });
    const links = path.brokerLinks(lib.brokerClients([url]), secrets.topic);
    let flooder;
    await new Promise((resolve) => { flooder = new path.GuestPath(links, secrets, {table, trusted: (key) => key.code === code, onproved: resolve}); });
    const [[hostSid, session]] = [...flooder.sessions];
    const head = {kind: path.KIND.TEXT, from: flooder.sid, to: hostSid, counter: 1000};
    const [first] = await path.sealMessage(session.key, head, new Uint8Array(200 * path.CHUNK_BYTES));
    links.publish(first);
}"""


def test_on_the_broker_path_the_host_proves_its_key_an_impostor_learns_nothing_and_a_flood_is_cut(cut_off, site, relay):
    """The guest takes only the host whose key the code names (an impostor answering the code
    with its own key is refused), its seat token travels sealed under a key the room code
    does not give, and a peer that floods the host is cut off as on a data channel."""
    pages = [cut_off(relay.url) for _ in range(5)]
    for page in pages:
        page.goto(site.url)
        page.evaluate(TRACK)
    host, impostor, listener, guest, flooder = pages
    code, fingerprint = host.evaluate(HOST_ROOM, [None, relay.url])
    impostor.evaluate(HOST_ROOM, [code, relay.url])  # its own key: the code names another
    listener.evaluate(LISTEN, [code, relay.url])
    guest.evaluate(JOIN_ROOM, [code, relay.url, None, True])
    assert guest.evaluate("net.channels.map((c) => c.path)") == ["brokers"]
    assert guest.evaluate("window.pinned") == fingerprint
    assert guest.evaluate("room.impostors") >= 1
    guest.evaluate("net.channels[0].send('rejoin with seat token 7')")
    wait_texts(host, 1)
    assert texts(host) == ["rejoin with seat token 7"]
    assert texts(impostor) == []
    heard = listener.evaluate("heard")
    assert any(frame["kind"] == 2 for frame in heard)  # the token's frame went by...
    assert not any(frame["kind"] == 2 and frame["opened"] is not None for frame in heard)  # ...sealed
    assert not any("seat token" in (frame["opened"] or "") for frame in heard)

    flooder.evaluate(FLOOD, [code, relay.url])
    host.wait_for_function("() => room.cutOff === 1 && net.closed === 1", timeout=60_000)
    assert host.evaluate("net.channels.map((c) => c.open)") == [True, False]  # the guest's stays
    guest.evaluate("net.channels[0].send('still here')")
    wait_texts(host, 2)
    for page in pages:
        assert page.evaluate("window.__rtcConnected") == 0
        assert page.context.recorder.errors == []
