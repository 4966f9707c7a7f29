"""The page's transports (site/net/bc.js, rtc.js, relay.js) between pages of the built site.

Separate browser contexts are separate players (no shared storage, no shared
BroadcastChannel); WebRTC runs on loopback and the relay is the session's own mosquitto.
Each page imports the modules as the driver does and keeps what it got on ``window``. The
pages are of the site's origin but load no engine (``open_page``): the transports need none,
and a page with the engine costs about 5 CPU-seconds more. The tables' own tests
(test_friends_browser, test_broker_path, test_room_security) run them on the site's page,
under its Content Security Policy.
"""

import base64
import random
import statistics
import time

import pytest

# Installed in every page: keeps a channel and what it received on ``window.net``.
TRACK = """() => {
  window.net = {channels: [], received: [], closed: 0};
  window.track = (channel, label = "") => {
    const index = net.channels.length;
    net.channels.push(channel);
    channel.onmessage = (text) => net.received.push({index, label, text});
    channel.onclose = () => { net.closed += 1; };
    return index;
  };
}"""

BIG = "ação🎲-" * 20_000  # about 200 KiB of UTF-8, with multi-byte characters


def open_page(ctx, site):
    """A page of the site's origin without the engine (a file beside index.html), tracking
    its channels (``TRACK``)."""
    page = ctx.new_page()
    page.goto(site.url + "manifest.webmanifest")
    page.evaluate(TRACK)
    return page


def texts(page, index=None):
    received = page.evaluate("net.received")
    return [r["text"] for r in received if index is None or r["index"] == index]


def wait_texts(page, count):
    page.wait_for_function("c => net.received.length >= c", arg=count, timeout=30_000)


# On the host's page: an invite kept as ``window[name]``; returns its code.
INVITE = """async (name) => {
    const rtc = await import("./net/rtc.js");
    window[name] = await rtc.createInvite({iceServers: []});
    return window[name].code;
}"""
# On the guest's page: the answer to an invite code (its channel tracked once open); returns
# the reply code.
ANSWER = """async (code) => {
    const rtc = await import("./net/rtc.js");
    const answer = await rtc.answerInvite(code, {iceServers: []});
    window.guestChannel = answer.channel.then((channel) => track(channel));
    return answer.reply;
}"""


def connect_rtc(host, guest):
    """Invite on ``host``, reply on ``guest``; returns the invite code."""
    code = host.evaluate(INVITE, "invite")
    reply = guest.evaluate(ANSWER, code)
    host.evaluate("async (reply) => track(await invite.accept(reply))", reply)
    guest.evaluate("guestChannel")
    return code, reply


# --- WebRTC with an invite and a reply code ---------------------------------------------------
def test_invite_and_reply_connect_two_players_both_ways(new_player, site):
    host, guest = open_page(new_player(), site), open_page(new_player(), site)
    code, reply = connect_rtc(host, guest)
    print(f"\ninvite code: {len(code)} chars, reply code: {len(reply)} chars")
    assert len(code) < 300 and len(reply) < 300
    assert set(code[1:]) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    host.evaluate("net.channels[0].send('hello guest')")
    guest.evaluate("net.channels[0].send('hello host')")
    host.evaluate("(big) => net.channels[0].send(big)", BIG)
    guest.evaluate("(big) => net.channels[0].send(big + '!')", BIG)
    wait_texts(guest, 2)
    wait_texts(host, 2)
    assert texts(guest) == ["hello guest", BIG]
    assert texts(host) == ["hello host", BIG + "!"]

    # Over the limit: refused on the sender's side, with a reason.
    refusal = host.evaluate(
        "() => { try { net.channels[0].send('x'.repeat(256 * 1024 + 1)); } catch (e) { return e.message; } }"
    )
    assert "limited to 262144 bytes" in refusal

    # A hostile peer skips its own check: the receiver drops the oversized text whole and
    # reads the next one intact.
    guest.evaluate("net.channels[0].transmit('x'.repeat(300 * 1024)); net.channels[0].send('after')")
    wait_texts(host, 3)
    assert texts(host)[2:] == ["after"]

    # Closing one side closes the other (and the closer itself is not told: it chose to).
    host.evaluate("net.channels[0].close()")
    guest.wait_for_function("() => net.closed === 1", timeout=15_000)
    assert guest.evaluate("net.channels[0].open") is False
    assert host.evaluate("net.closed") == 0
    for page in (host, guest):
        assert page.context.recorder.errors == []


def test_invite_connects_with_mdns_names_as_phones_offer_them(browser, site):
    """Without the media permission Chromium hides host addresses behind ``<uuid>.local``
    names (as a phone's browser does): the codes carry those names and still connect."""
    contexts = [browser.new_context() for _ in range(2)]
    try:
        host, guest = (open_page(ctx, site) for ctx in contexts)
        code, reply = connect_rtc(host, guest)
        for text in (code, reply):
            payload = unpack(text)
            assert payload[-1 - 18] & 3 == 2  # the last candidate is an mDNS name (16 + 2 bytes)
        host.evaluate("net.channels[0].send('over mDNS')")
        wait_texts(guest, 1)
        assert texts(guest) == ["over mDNS"]
    finally:
        for ctx in contexts:
            ctx.close()


def test_a_cancelled_invite_lets_go_of_its_connection(new_player, site):
    """The host closed the invite panel: its RTCPeerConnection is closed, and a reply
    arriving late is refused."""
    host, guest = open_page(new_player(), site), open_page(new_player(), site)
    host.evaluate(
        """() => {
            const Native = RTCPeerConnection;
            window.made = [];
            window.RTCPeerConnection = class extends Native {
                constructor(...args) { super(...args); made.push(this); }
            };
        }"""
    )
    code = host.evaluate(INVITE, "invite")
    reply = guest.evaluate(ANSWER, code)
    assert host.evaluate("made.map((pc) => pc.signalingState)") == ["have-local-offer"]
    host.evaluate("invite.cancel()")
    assert host.evaluate("made.map((pc) => pc.signalingState)") == ["closed"]
    refused = host.evaluate(
        "async (reply) => { try { await invite.accept(reply); return null; } catch (e) { return String(e); } }",
        reply,
    )
    assert refused


def test_a_guest_page_going_away_closes_the_hosts_channel(new_player, site):
    host, guest = open_page(new_player(), site), open_page(new_player(), site)
    connect_rtc(host, guest)
    guest.close()
    host.wait_for_function("() => net.closed === 1", timeout=20_000)


def test_fifty_pings_come_back_in_order_over_rtc_on_loopback(new_player, site):
    """The round trip's time is printed, not asserted (``bench/friends_roundtrip.py`` measures it)."""
    host, guest = open_page(new_player(), site), open_page(new_player(), site)
    connect_rtc(host, guest)
    guest.evaluate("() => { net.channels[0].onmessage = (text) => net.channels[0].send(text); }")
    times = host.evaluate(
        """async () => {
            const channel = net.channels[0];
            const times = [];
            for (let i = 0; i < 50; i++) {
                const started = performance.now();
                const back = new Promise((resolve) => { channel.onmessage = resolve; });
                channel.send(JSON.stringify({kind: "ping", n: i}));
                if (JSON.parse(await back).n !== i) return null;
                times.push(performance.now() - started);
            }
            return times;
        }"""
    )
    assert times is not None and len(times) == 50
    print(f"\nrtc round trip on loopback: median {statistics.median(times):.2f} ms, max {max(times):.2f} ms (50 pings)")


def fletcher(payload):
    low = high = 0
    for byte in payload:
        low = (low + byte) % 255
        high = (high + low) % 255
    return bytes((high, low))


def pack(payload):
    """A code in rtc.js's format (version digit, base64url of the bytes and their checksum)."""
    return "1" + base64.urlsafe_b64encode(payload + fletcher(payload)).decode().rstrip("=")


def unpack(code):
    raw = base64.urlsafe_b64decode(code[1:] + "=" * (-len(code[1:]) % 4))
    assert fletcher(raw[:-2]) == raw[-2:]
    return raw[:-2]


MALFORMED = [
    ("", "damaged or incomplete (empty)"),
    ("2AAAA", "another version of Taberna"),
    ("1***", "damaged or incomplete (unexpected characters)"),
    ("1AA", "damaged or incomplete (cut short)"),
    (pack(b""), "damaged or incomplete (cut short)"),
    (pack(bytes([0])), "damaged or incomplete (cut short)"),
    ("1AAAB", "damaged or incomplete (checksum)"),
    ("1" + "A" * 2000, "damaged or incomplete (too long)"),
    (pack(bytes([3 << 2])), "damaged or incomplete (unknown kind)"),
    (pack(bytes([1])), "damaged or incomplete (bad DTLS role)"),
    (pack(bytes([0]) + bytes(32) + b"\x02ab"), "damaged or incomplete (bad ICE credentials)"),
]


@pytest.mark.parametrize("code,message", MALFORMED)
def test_a_malformed_invite_rejects_with_a_reason(new_player, site, code, message):
    page = open_page(new_player(), site)
    error = page.evaluate(
        """async (code) => {
            const rtc = await import("./net/rtc.js");
            try { await rtc.answerInvite(code, {iceServers: []}); return null; }
            catch (e) { return {message: e.message, key: e.key}; }
        }""",
        code,
    )
    assert error is not None and message in error["message"], error
    assert error["key"].startswith("net.code_")
    assert page.context.recorder.errors == []


def test_codes_swapped_cut_or_from_another_invite_are_refused(new_player, site):
    host, guest = open_page(new_player(), site), open_page(new_player(), site)
    code = host.evaluate(INVITE, "invite")
    host.evaluate(INVITE, "other")
    reply = guest.evaluate(ANSWER, code)
    attempt = """async ([target, text]) => {
        try { await window[target].accept(text); return null; } catch (e) { return e.message; }
    }"""
    assert "invite code, not a reply" in host.evaluate(attempt, ["invite", code])
    assert "answers another invite" in host.evaluate(attempt, ["other", reply])
    assert "(checksum)" in host.evaluate(attempt, ["invite", reply[:-8]])
    assert "(checksum)" in host.evaluate(attempt, ["invite", reply + "AAAA"])
    assert "(trailing data)" in host.evaluate(attempt, ["invite", pack(unpack(reply) + b"\0")])
    refused = guest.evaluate(
        """async (reply) => {
            const rtc = await import("./net/rtc.js");
            try { await rtc.answerInvite(reply, {}); } catch (e) { return e.message; }
        }""",
        reply,
    )
    assert "reply code, not an invite" in refused
    # The refusals changed nothing: the right reply still connects.
    host.evaluate("async (reply) => track(await invite.accept(reply))", reply)
    guest.evaluate("guestChannel")
    host.evaluate("net.channels[0].send('still fine')")
    wait_texts(guest, 1)
    assert texts(guest) == ["still fine"]


def mutations(code, count, seed=5):
    """Hostile variants of a valid code: typing errors, cuts, junk, and well-checksummed bytes
    with altered fields, lengths and counts."""
    rng = random.Random(seed)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    payload = unpack(code)
    out = []
    while len(out) < count:
        kind = rng.randrange(6)
        if kind == 0:  # one character changed
            i = rng.randrange(1, len(code))
            out.append(code[:i] + rng.choice(alphabet) + code[i + 1 :])
        elif kind == 1:  # cut, or extended
            out.append(code[: rng.randrange(len(code))] + "".join(rng.choices(alphabet, k=rng.randrange(3))))
        elif kind == 2:  # junk of any sort
            out.append("".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(40))))
        else:  # bytes that pass the checksum: every field can be wrong
            data = bytearray(payload)
            for _ in range(rng.randrange(1, 4)):
                i = rng.randrange(len(data))
                data[i] = rng.choice((0, 1, 3, 4, 8, 9, 255, rng.randrange(256)))
            if kind == 5:
                data = data[: rng.randrange(len(data))] + bytes(rng.randrange(256) for _ in range(rng.randrange(20)))
            out.append(pack(bytes(data)))
    return out


def test_hostile_reply_codes_are_refused_with_reasons_and_nothing_else(new_player, site):
    host, guest = open_page(new_player(), site), open_page(new_player(), site)
    code = host.evaluate(INVITE, "invite")
    reply = guest.evaluate(ANSWER, code)
    codes = mutations(reply, 3000)
    outcomes = host.evaluate(
        """async (codes) => {
            const settled = (promise) => Promise.race([
                promise.then(() => "connected", (e) => e.key || `other: ${e.name}: ${e.message}`),
                new Promise((resolve) => setTimeout(() => resolve("waiting"), 3000)),
            ]);
            const outcomes = {};
            await Promise.all(codes.map(async (code) => {
                let outcome;
                try { outcome = await settled(invite.accept(code)); }
                catch (e) { outcome = `thrown: ${e}`; }
                outcomes[outcome] = (outcomes[outcome] || 0) + 1;
            }));
            return outcomes;
        }""",
        codes,
    )
    print("\nhostile reply codes:", outcomes)
    # Every code is refused with a reason, or is one the browser accepts: then the invite
    # connects (the guest is real: altered candidates do not stop ICE, which learns its
    # address from its checks), fails with a reason, or is still trying. Nothing else.
    assert set(outcomes) <= {"net.code_malformed", "net.code_version", "net.code_is_invite",
                             "net.code_other_invite", "net.connect_failed", "connected", "waiting"}, outcomes
    assert sum(outcomes.values()) == 3000
    assert sum(n for key, n in outcomes.items() if key.startswith("net.code_")) > 2000
    assert host.context.recorder.errors == []


# --- tabs of one browser ------------------------------------------------------------------------
def test_tabs_of_one_browser_pair_by_table_and_see_each_other_leave(new_player, site):
    ctx = new_player()
    host, first, second = (open_page(ctx, site) for _ in range(3))
    host.evaluate(
        """async () => {
            const bc = await import("./net/bc.js");
            window.peers = [];
            window.hosting = bc.hostBroadcast("TABLE123", (peer, channel) => { peers.push(peer); track(channel); });
        }"""
    )
    join = """async (table) => {
        const bc = await import("./net/bc.js");
        try { track(await bc.joinBroadcast(table)); return "joined"; } catch (e) { return e.message; }
    }"""
    assert first.evaluate(join, "TABLE123") == "joined"
    assert second.evaluate(join, "TABLE123") == "joined"
    assert "No tab of this browser" in second.evaluate(join, "OTHER999")
    assert len(set(host.evaluate("peers"))) == 2

    first.evaluate("net.channels[0].send('from first')")
    second.evaluate("net.channels[0].send('from second')")
    wait_texts(host, 2)
    assert sorted(texts(host)) == ["from first", "from second"]
    host.evaluate("net.channels[0].send('for first'); net.channels[1].send('for second')")
    wait_texts(first, 1)
    wait_texts(second, 1)
    assert texts(first) == ["for first"] and texts(second) == ["for second"]

    first.evaluate("net.channels[0].transmit('y'.repeat(300 * 1024)); net.channels[0].send('small')")
    wait_texts(host, 3)
    assert texts(host)[2:] == ["small"]

    first.close()  # its goodbye closes the host's channel to it, and only that one
    host.wait_for_function("() => net.closed === 1", timeout=10_000)
    assert host.evaluate("[net.channels[0].open, net.channels[1].open]") == [False, True]
    host.reload()  # the host tab goes away: the remaining guest hears it
    second.wait_for_function("() => net.closed === 1", timeout=10_000)


def test_a_table_open_in_two_host_tabs_gives_the_guest_to_one_only(new_player, site):
    ctx = new_player()
    hosts = [open_page(ctx, site) for _ in range(2)]
    guest = open_page(ctx, site)
    for host in hosts:
        host.evaluate("async () => (await import('./net/bc.js')).hostBroadcast('TWICE', (p, c) => track(c))")
    guest.evaluate("async () => track(await (await import('./net/bc.js')).joinBroadcast('TWICE'))")
    guest.evaluate("net.channels[0].send('only one of you')")
    deadline = time.monotonic() + 10
    while sum(len(texts(host)) for host in hosts) == 0 and time.monotonic() < deadline:
        guest.wait_for_timeout(100)
    guest.wait_for_timeout(300)  # time for a stray copy to arrive, were there one
    assert sorted(len(texts(host)) for host in hosts) == [0, 1]
    assert sorted(host.evaluate("net.channels.length") for host in hosts) == [0, 1]


def test_a_tab_that_vanishes_without_goodbye_times_out(new_player, site):
    ctx = new_player()
    host, guest = open_page(ctx, site), open_page(ctx, site)
    host.evaluate(
        """async () => {
            const bc = await import("./net/bc.js");
            bc.hostBroadcast("QUIET", (peer, channel) => track(channel));
        }"""
    )
    guest.evaluate("async () => track(await (await import('./net/bc.js')).joinBroadcast('QUIET'))")
    # A crashed tab says no goodbye: silence it by closing its BroadcastChannel behind its back.
    host.evaluate("BroadcastChannel.prototype.postMessage = () => {}")
    guest.wait_for_function("() => net.closed === 1", timeout=15_000)


# --- the relay ----------------------------------------------------------------------------------
# Hosts the room of ``code`` as this browser's host of the table derived from it (its key
# pair kept in IndexedDB, so a reload keeps it; one made on first use if this browser has none
# for that table: an impostor's); with no code, a new room of a new key, as a new table has.
# Returns the code and the key's fingerprint.
HOST_ROOM = """async ([code, url]) => {
    const relay = await import("./net/relay.js");
    const keys = await import("./net/identity.js");
    code ??= (await keys.newRoom()).code;
    const {table} = await (await import("./net/roomkey.js")).roomSecrets(code);
    const identity = await keys.hostIdentity(table);
    window.peers = [];
    window.room = await relay.hostRoom(code, {table, identity}, {relayUrls: [url], iceServers: []}, (peer, channel) => {
        peers.push(peer);
        track(channel, peer);
    });
    return [code, identity.fingerprint];
}"""

# Joins it as a guest: ``pin`` is the host key's fingerprint (a room link), or null (a typed
# code: a key the code names is pinned).
# A guest joins a room its host is in: on a loaded machine the host may take longer to answer
# than a player would wait (JOIN_WAIT_MS), which is not what these tests are about; the tests
# of a room nobody answers set their own wait. Unless ``brokers`` is true, nor does it go
# through the brokers when the direct path is slow (on a loaded machine it would, then switch
# back): the tests of the broker path are in test_broker_path.py.
JOIN_ROOM = """async ([code, url, pin = null, brokers = false]) => {
    const relay = await import("./net/relay.js");
    const {table} = await (await import("./net/roomkey.js")).roomSecrets(code);
    const wait = brokers ? {waitMs: 300_000} : {waitMs: 300_000, directWaitMs: 300_000};
    window.room = await relay.joinRoom(code, {table, pin, ...wait}, {relayUrls: [url], iceServers: []});
    room.onpin = (fingerprint) => { window.pinned = fingerprint; };
    room.onreconnect = (channel) => track(channel);
    track(await room.channel);
}"""


def test_relay_room_host_and_two_guests_then_the_host_reloads(new_player, site, relay):
    host = open_page(new_player(), site)
    guests = [open_page(new_player(), site) for _ in range(2)]
    sockets = []
    host.on("websocket", lambda socket: sockets.append(socket.url))
    imported = "performance.getEntriesByName(new URL('net/relay-bundle.js', location.href).href).length"
    assert host.evaluate(imported) == 0  # the page pays nothing for the relay until a room opens
    code, _ = host.evaluate(HOST_ROOM, [None, relay.url])
    assert host.evaluate(imported) == 1 and sockets == [relay.url + "/"]
    for guest in guests:
        guest.evaluate(JOIN_ROOM, [code, relay.url])
    host.wait_for_function("() => peers.length === 2", timeout=30_000)

    for i, guest in enumerate(guests):
        guest.evaluate("(i) => net.channels[0].send(`from guest ${i}`)", i)
    wait_texts(host, 2)
    by_peer = {r["label"]: r["text"] for r in host.evaluate("net.received")}
    assert sorted(by_peer.values()) == ["from guest 0", "from guest 1"]
    host.evaluate("() => net.channels.forEach((c, i) => c.send(`for ${peers[i]}`))")
    for guest in guests:
        wait_texts(guest, 1)
    peers = host.evaluate("peers")
    owners = {texts(guest)[0] for guest in guests}
    assert owners == {f"for {peer}" for peer in peers}  # each got its own, and only that
    assert all(len(texts(guest)) == 1 for guest in guests)
    guests[0].evaluate("net.channels[0].transmit('z'.repeat(300 * 1024)); net.channels[0].send('small')")
    wait_texts(host, 3)
    assert texts(host)[2:] == ["small"]  # the oversized text was dropped

    host.reload()  # the host's tab reloads and opens the same room again
    host.evaluate(TRACK)
    for guest in guests:
        guest.wait_for_function("() => net.closed === 1", timeout=30_000)
    host.evaluate(HOST_ROOM, [code, relay.url])
    for guest in guests:
        guest.wait_for_function("() => net.channels.length === 2", timeout=30_000)
        guest.evaluate("net.channels[1].send('back again')")
    wait_texts(host, 2)
    assert texts(host) == ["back again", "back again"]

    guests[0].reload()  # a guest's reload: a new peer for the host, the old one gone
    guests[0].evaluate(TRACK)
    guests[0].evaluate(JOIN_ROOM, [code, relay.url])
    host.wait_for_function("() => net.channels.length === 3 && net.closed === 1", timeout=30_000)
    states = host.evaluate("net.channels.map((c) => c.open)")
    assert sorted(states[:2]) == [False, True] and states[2] is True
    guests[0].evaluate("net.channels[0].send('reloaded')")
    wait_texts(host, 3)
    assert texts(host, 2) == ["reloaded"]
    for page in (host, *guests):
        assert page.context.recorder.errors == []


# Keeps every RTCPeerConnection the page makes from now on in ``window.connections``.
COUNT_CONNECTIONS = """() => {
    window.connections = [];
    const Native = window.RTCPeerConnection;
    window.RTCPeerConnection = function (...args) {
        const connection = new Native(...args);
        connections.push(connection);
        return connection;
    };
    window.RTCPeerConnection.prototype = Native.prototype;
}"""


def test_a_closed_room_leaves_no_connection_open(new_player, site, relay):
    """Closing a table ends its WebRTC connections (Trystero would keep them for two minutes,
    for a quick rejoin): nothing of the table stays connected, and the guest sees the host go."""
    host = open_page(new_player(), site)
    host.evaluate(COUNT_CONNECTIONS)
    code, _ = host.evaluate(HOST_ROOM, [None, relay.url])
    guest = open_page(new_player(), site)
    guest.evaluate(JOIN_ROOM, [code, relay.url])
    host.wait_for_function("() => peers.length === 1", timeout=30_000)
    assert host.evaluate("connections.filter((c) => c.connectionState === 'connected').length") >= 1

    host.evaluate("room.close()")
    host.wait_for_function("() => connections.every((c) => c.connectionState === 'closed')", timeout=30_000)
    guest.wait_for_function("() => net.closed === 1", timeout=30_000)
    for page in (host, guest):
        assert page.context.recorder.errors == []


def test_relay_unreachable_rejects_with_a_reason(new_player, site):
    page = open_page(new_player(), site)
    error = page.evaluate(
        """async () => {
            const relay = await import("./net/relay.js");
            try { await relay.joinRoom("NOBODY", {table: "t"}, {relayUrls: ["ws://127.0.0.1:9"], iceServers: []}); }
            catch (e) { return e.message; }
        }"""
    )
    assert error == "No relay server could be reached."


def test_relay_settings_refuse_what_is_not_a_websocket_address(new_player, site):
    page = open_page(new_player(), site)
    error = page.evaluate(
        """async () => {
            const relay = await import("./net/relay.js");
            try { await relay.hostRoom("NOBODY", {table: "t", identity: null}, {relayUrls: ["https://example.org/mqtt"]}, () => {}); }
            catch (e) { return [e.key, e.message]; }
        }"""
    )
    assert error == ["net.relay_bad_url", "A relay server must be a ws:// or wss:// address: https://example.org/mqtt"]


def test_no_relay_setting_means_the_public_brokers(new_player, site):
    """Empty settings use Trystero's public brokers (unreachable here: the test only sees the
    attempts, and the refusal once none answers)."""
    page = open_page(new_player(), site)
    sockets = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    error = page.evaluate(
        """async () => {
            const relay = await import("./net/relay.js");
            try { await relay.joinRoom("NOBODY", {table: "t"}, {relayUrls: [], iceServers: []}); }
            catch (e) { return e.key; }
        }"""
    )
    assert error == "net.relay_unreachable"
    assert sockets and all(url.startswith("wss://") for url in sockets)
