"""A room code holder cannot exhaust a table (issue 30).

The attacker knows the room code and speaks Trystero directly (the bundled library, as the
page has it), so it can send anything on any action. The attacked page runs in a browser of
its own, whose renderers' resident memory (VmRSS, read from /proc for the renderer processes
that the browser's DevTools name) is the figure that counts: the data of a flood lives
outside the JavaScript heap.
"""

from pathlib import Path

import pytest

from buildtools.chromium import ARGS as CHROMIUM_ARGS
from buildtools.chromium import EXECUTABLE as CHROMIUM
from tests.browser.test_friends_browser import create_table, open_lobby
from tests.browser.test_transports import HOST_ROOM, JOIN_ROOM, open_page, texts

MB = 1024 * 1024
GROWTH_LIMIT = 20 * MB
# What each attack sends: a page that kept it would be over the limit twice over.
FLOOD = 2 * GROWTH_LIMIT
TEXT = 200 * 1024  # a text under the size cap

# Joins the room with the code and keeps the room, a sender per action and the peers that
# announced themselves as host on ``window.flood``.
ATTACKER = """async ([code, url]) => {
    const lib = await import("./net/relay-bundle.js");
    const {roomId, password, table} = await (await import("./net/roomkey.js")).roomSecrets(code);
    const room = lib.joinRoom({appId: "taberna", password, relayConfig: {urls: [url]}, rtcConfig: {iceServers: []}}, roomId);
    const actions = Object.fromEntries(["host", "prove", "proof", "text"].map((name) => [name, room.makeAction(name)]));
    window.flood = {room, actions, table, announced: new Set(), sent: 0};
    actions.host.onMessage = (data, {peerId}) => { if (data?.table === table) flood.announced.add(peerId); };
}"""

# Sends ``count`` messages of ``size`` bytes on ``action`` to the announced host (or to every
# other peer of the room), one after another; resolves once sent or the peers are gone or cut
# it off.
SEND = """async ([action, size, count, toHost]) => {
    const payload = "x".repeat(size);
    const targets = () => Object.keys(flood.room.getPeers()).filter((peer) => flood.announced.has(peer) === toHost);
    for (let i = 0; i < count; i += 1) {
        const now = targets().filter((peer) => flood.room.getPeers()[peer]);
        if (!now.length) break;
        try {
            await flood.actions[action].send(payload, {target: now});
        } catch {
            break;  // cut off while sending
        }
        flood.sent += size;
    }
    return flood.sent;
}"""


def resident_bytes(browser):
    """The resident memory of every renderer process of ``browser`` (its DevTools name them)."""
    session = browser.new_browser_cdp_session()
    try:
        processes = session.send("SystemInfo.getProcessInfo")["processInfo"]
    finally:
        session.detach()
    total = 0
    for process in processes:
        if process["type"] != "renderer":
            continue
        status = Path(f"/proc/{process['id']}/status")
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
    return total


def settled_resident(browser, page):
    """Resident memory after a full garbage collection of ``page``."""
    session = page.context.new_cdp_session(page)
    session.send("HeapProfiler.collectGarbage")
    session.detach()
    page.evaluate("() => new Promise((resolve) => setTimeout(resolve, 500))")
    return resident_bytes(browser)


@pytest.fixture
def own_browser(playwright_driver, site):
    """A browser with only the attacked page in it: its renderers' memory is that page's."""
    browser = playwright_driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    context = browser.new_context()
    context.grant_permissions(["microphone", "camera"], origin=site.origin)
    context.set_default_timeout(90_000)
    yield browser, context
    browser.close()


def attacker_page(new_player, site, relay, code):
    """A code holder's page of its own: the networking only, no engine to load
    (``open_page``), so its memory is the networking's alone."""
    page = open_page(new_player(), site)
    page.evaluate(ATTACKER, [code, relay.url])
    return page


def two_attackers(new_player, site, relay, code, peers):
    """Two holders of ``code`` in the room, each connected to at least ``peers`` of its peers
    and told who the host is."""
    attackers = [attacker_page(new_player, site, relay, code) for _ in range(2)]
    for attacker in attackers:
        attacker.wait_for_function(
            "n => flood.announced.size === 1 && Object.keys(flood.room.getPeers()).length >= n", arg=peers, timeout=30_000
        )
    return attackers


def test_a_flood_on_an_action_the_host_does_not_read_is_cut_off_and_costs_no_memory(own_browser, new_player, site, relay):
    """Issue 30: 400 MB sent on ``proof`` (which only a guest reads) grew the host's tab by
    398 MB and kept it. Now the first oversized message cuts the sender off, and a stream of
    messages within the size limit on an action the host reads costs no memory either (the
    byte budget that cuts it off is tested in tests/js/guard.test.mjs, without a clock)."""
    browser, context = own_browser
    host = open_page(context, site)
    code, _ = host.evaluate(HOST_ROOM, [None, relay.url])
    attackers = two_attackers(new_player, site, relay, code, peers=1)
    before = settled_resident(browser, host)

    attackers[0].evaluate(SEND, ["proof", MB, FLOOD // MB, True])  # where nobody reads
    host.wait_for_function("() => room.cutOff >= 1", timeout=30_000)
    attackers[1].evaluate(SEND, ["text", TEXT, FLOOD // TEXT, True])  # texts, each under the cap
    after = settled_resident(browser, host)
    print(f"\nhost renderers: {before / MB:.0f} MB before, {after / MB:.0f} MB after ({(after - before) / MB:+.1f} MB)")
    assert after - before < GROWTH_LIMIT


def test_a_flood_on_a_guest_is_cut_off_and_costs_no_memory(own_browser, new_player, site, relay):
    """400 MB sent to a guest stayed +373 MB. A guest reads only the host's announcement and
    proof from anyone, and texts from its proved host."""
    browser, context = own_browser
    host = open_page(new_player(), site)
    code, _ = host.evaluate(HOST_ROOM, [None, relay.url])
    guest = open_page(context, site)
    guest.evaluate(JOIN_ROOM, [code, relay.url])
    attackers = two_attackers(new_player, site, relay, code, peers=2)
    before = settled_resident(browser, guest)
    attackers[0].evaluate(SEND, ["host", MB, FLOOD // MB, False])  # "announcements"
    guest.wait_for_function("() => room.cutOff >= 1", timeout=30_000)
    attackers[1].evaluate(SEND, ["prove", MB, FLOOD // MB, False])  # the guest never reads ``prove``
    attackers[1].evaluate(SEND, ["text", TEXT, FLOOD // TEXT, False])  # nor texts from anyone but its host
    after = settled_resident(browser, guest)
    print(f"\nguest renderers: {before / MB:.0f} MB before, {after / MB:.0f} MB after ({(after - before) / MB:+.1f} MB)")
    assert after - before < GROWTH_LIMIT
    guest.evaluate("net.channels[0].send('still here')")  # the guest and its host still talk
    host.wait_for_function("() => net.received.length >= 1", timeout=30_000)
    assert texts(host) == ["still here"]


# The visible controls of the page that ``#net-notice`` overlaps, or that a tap at their centre
# would not reach.
COVERED_CONTROLS = """() => {
    const notice = document.querySelector("[data-testid=net-notice]").getBoundingClientRect();
    return [...document.querySelectorAll("button, input, select, a[href]")]
        .filter((control) => control.checkVisibility() && control.getClientRects().length)
        .filter((control) => {
            const box = control.getBoundingClientRect();
            const x = box.left + box.width / 2, y = box.top + box.height / 2;
            const overlaps = box.bottom > notice.top && box.top < notice.bottom && box.right > notice.left && box.left < notice.right;
            const hit = document.elementFromPoint(x, y);
            return overlaps || (y >= 0 && y < innerHeight && !(hit && (control === hit || control.contains(hit))));
        })
        .map((control) => control.outerHTML.slice(0, 80));
}"""


def test_the_host_is_told_when_a_peer_is_cut_off_and_keeps_its_controls(phones, new_player, site, wait_engine, relay):
    """The host sees a notice once a code holder is cut off, on screen, over no control."""
    host = phones(relay.url)
    open_lobby(host, site.url, wait_engine)
    code = create_table(host).replace("-", "")
    attacker = attacker_page(new_player, site, relay, code)
    attacker.wait_for_function("() => flood.announced.size === 1", timeout=60_000)
    attacker.evaluate(SEND, ["prove", 64 * 1024, 1, True])  # a challenge four times too long
    notice = host.locator("[data-testid=net-notice]")
    notice.get_by_text("A connection sent too much and was cut off.").wait_for(state="visible")
    box = notice.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 740  # on screen
    assert host.evaluate(COVERED_CONTROLS) == []
    assert host.context.errors == []
