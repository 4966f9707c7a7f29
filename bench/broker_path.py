"""The broker path (site/net/brokerpath.js) against the direct one, on loopback.

    python bench/broker_path.py [--samples N] [--games N]

Separate Chromium contexts on one machine, a mosquitto broker on 127.0.0.1 (as the browser
tests start it); "broker" contexts refuse every WebRTC candidate (as two phones behind
carrier-grade NAT see it), "direct" ones connect by WebRTC on loopback. Prints:

* the round trip of a 2 KB text (a table's view is 1–5 KB) from the guest to the host and
  back, through the room's channel, over each path;
* the time from "no direct path" to a channel over the brokers: a guest's whole join (the
  room code's key derivation, the brokers reached, DIRECT_WAIT_MS without a direct channel,
  then the broker path's handshake), and what follows the derivation and the wait;
* bytes on the wire (every WebSocket frame of both pages, Trystero's included) for a whole
  two-player Perudo game played through the brokers, and per action;
* WebSocket attempts in 60 s to a broker that is down (retries back off).
"""

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from buildtools.chromium import ARGS, EXECUTABLE  # noqa: E402
from tests.browser.conftest import Relay, Site, settings_script  # noqa: E402
from tests.browser.conftest import _wait_engine as wait_engine  # noqa: E402
from tests.browser.test_broker_path import BLOCK_DIRECT  # noqa: E402
from tests.browser.test_friends_browser import create_table, host_over, join_by_room_code, play  # noqa: E402
from tests.browser.test_transports import HOST_ROOM, JOIN_ROOM, TRACK  # noqa: E402

# The guest's side of one round trip: sends a text, resolves with the ms until the host's echo.
ROUND_TRIP = """async (size) => {
  const started = performance.now();
  const echoed = new Promise((resolve) => { window.echo = resolve; });
  net.channels.at(-1).send('x'.repeat(size));
  await echoed;
  return performance.now() - started;
}"""
ECHO = """() => { net.channels.forEach((c) => { c.onmessage = (text) => c.send(text); }); }"""
LISTEN_ECHO = """() => { net.channels.at(-1).onmessage = () => window.echo(); }"""
# A guest's whole join, and the room code's key derivation in it (cached for the join).
JOIN_TIMED = """async ([code, url]) => {
  const started = performance.now();
  await (await import("./net/roomkey.js")).roomSecrets(code);
  const derived = performance.now();
  await (""" + JOIN_ROOM + """)([code, url]);
  return [performance.now() - started, derived - started];
}"""


def context(browser, site, relay_urls, direct):
    ctx = browser.new_context()
    ctx.add_init_script(settings_script("\n".join(relay_urls)))
    if direct:  # Chromium gathers loopback candidates only for an origin with this permission
        ctx.grant_permissions(["microphone", "camera"], origin=site.origin)
    else:
        ctx.add_init_script(BLOCK_DIRECT)
    return ctx


def pair(browser, site, relay, direct):
    """A host and a guest in the room of a new code; returns their pages and the join time."""
    pages = []
    for _ in range(2):
        page = context(browser, site, [relay.url], direct).new_page()
        page.goto(site.url)
        page.evaluate(TRACK)
        pages.append(page)
    host, guest = pages
    code, _ = host.evaluate(HOST_ROOM, [None, relay.url])
    return host, guest, guest.evaluate(JOIN_TIMED, [code, relay.url])


def round_trips(browser, site, relay, direct, samples):
    host, guest, joined = pair(browser, site, relay, direct)
    path = guest.evaluate("net.channels.at(-1).path")
    host.evaluate(ECHO)
    guest.evaluate(LISTEN_ECHO)
    times = [guest.evaluate(ROUND_TRIP, 2000) for _ in range(samples)]
    host.context.close()
    guest.context.close()
    return path, times, joined


def game_bytes(browser, site, relay, wait_engine):
    """One whole two-player Perudo game through the brokers: WebSocket bytes of both pages."""
    pages = [context(browser, site, [relay.url], direct=False).new_page() for _ in range(2)]
    counted = {"bytes": 0, "on": False}

    def count(socket):
        def add(payload):
            if counted["on"]:
                counted["bytes"] += len(payload)
        socket.on("framesent", add)
        socket.on("framereceived", add)

    for page in pages:
        page.on("websocket", count)
    host, guest = pages
    host.goto(site.url)
    wait_engine(host)
    code = create_table(host, seats=1)
    join_by_room_code(host, guest, code, 1, "Bruno", wait_engine, site.url)
    counted["on"] = True
    host.click("[data-testid=net-start]")
    actions = play(host, pages, random.Random(3))
    assert host_over(host)
    for page in pages:
        page.context.close()
    return counted["bytes"], actions


def dead_broker_attempts(browser, site, seconds=60):
    """WebSocket attempts a page makes to a broker that never answers, in ``seconds``."""
    page = browser.new_context().new_page()
    page.goto(site.url)
    attempts = []
    page.on("websocket", lambda socket: attempts.append(socket.url))
    page.evaluate(
        """async () => {
            const lib = await import("./net/relay-bundle.js");
            lib.joinRoom({appId: "taberna", password: "p", relayConfig: {urls: ["ws://127.0.0.1:9"]}, rtcConfig: {iceServers: []}}, "r");
        }"""
    )
    page.wait_for_timeout(seconds * 1000)
    page.context.close()
    return len(attempts)


def summary(times):
    ordered = sorted(times)
    return f"median {statistics.median(ordered):.0f} ms, p90 {ordered[int(0.9 * (len(ordered) - 1))]:.0f} ms"


DIRECT_WAIT_MS = 4000  # site/net/relay.js


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = parser.parse_args()
    site = Site(args.dist)
    relay = Relay(Path(tempfile.mkdtemp()))
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=EXECUTABLE, args=ARGS)
            for direct in (True, False):
                path, times, (joined, derived) = round_trips(browser, site, relay, direct, args.samples)
                print(f"round trip of 2 KB, {path}: {summary(times)} ({len(times)} samples); "
                      f"join {joined:.0f} ms (key derivation {derived:.0f} ms)")
            for _ in range(3):
                joined, derived = pair(browser, site, relay, direct=False)[2]
                print(f"join with no direct path: {joined:.0f} ms in all; after the key derivation and "
                      f"DIRECT_WAIT_MS ({DIRECT_WAIT_MS} ms): {joined - derived - DIRECT_WAIT_MS:.0f} ms")
            started = time.monotonic()
            total, actions = game_bytes(browser, site, relay, wait_engine)
            print(f"a two-player Perudo game through the brokers: {actions} actions, {total / 1024:.0f} KiB on the "
                  f"wire, {total / actions / 1024:.1f} KiB per action ({time.monotonic() - started:.0f} s)")
            print(f"WebSocket attempts to a dead broker in 60 s: {dead_broker_attempts(browser, site)}")
            browser.close()
    finally:
        relay.close()
        site.close()


if __name__ == "__main__":
    main()
