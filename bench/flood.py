"""A peer floods the host (issue 13, finding 6; issue 30): does the table stay playable?

    python bench/flood.py [--messages 30000] [--junk 1000] [--samples 30]
                          [--connections 12 50] [--rate 18] [--no-write]

A host and a guest sit at a shared Perudo table (invite link, WebRTC on loopback), as in
``friends_roundtrip.py``; the host's page runs in a browser of its own, so that the resident
memory of that browser's renderers (VmRSS, what a flood's data costs: it lives outside the
JavaScript heap) is the host's. A third page of the host's own browser joins the table
through the tabs' channel (as any peer: a spectator) and sends ``--messages`` pings as fast
as it can, then ``--junk`` messages of 7 KB of junk. Meanwhile and afterwards the guest keeps
bidding, and each bid is timed from the click to its answer painted on the guest's screen
(the host bids in between).

Then, at a new table each time, many connections (``--connections``): that many peers, each
a new connection id to the host as a room code holder's would be, join as spectators and
send ``--rate`` pings a second each, while the seated guest bids (goal: 90th percentile of
its round trip at most 200 ms). They come through the tabs' channel, which goes through the
same per-peer and per-table limits as a room's WebRTC peers without the cost of a WebRTC
mesh among the flooders on this 2-core machine.

Printed: the guest's round trips (median, 90th percentile, max), the host page's JS heap and
its renderers' resident memory before and after. Written to bench/results.md unless
``--no-write``.
"""

import argparse
import importlib.util
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _module(name, file):
    spec = importlib.util.spec_from_file_location(name, HERE / file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


roundtrip = _module("taberna_friends_roundtrip", "friends_roundtrip.py")
load_time = roundtrip.load_time
from tests.browser.test_flood_browser import settled_resident  # noqa: E402  (load_time puts the root on the path)

MB = 1024 * 1024

# The flooder: pairs with the host tab over the table's BroadcastChannel (site/net/bc.js),
# joins as a spectator, then floods. Resolves with how long sending took.
FLOOD = """async ([table, messages, junk]) => {
  const me = 'flood' + Math.random().toString(16).slice(2);
  const bus = new BroadcastChannel(`taberna.table.${table}`);
  const host = await new Promise((resolve) => {
    bus.onmessage = (event) => { if (event.data?.t === 'welcome' && event.data.to === me) resolve(event.data.from); };
    bus.postMessage({t: 'hello', from: me});
  });
  const send = (text) => bus.postMessage({t: 'msg', to: host, from: me, text});
  window.floodHeard = [];  // the host's answers: its errors name why it stopped listening
  bus.onmessage = (event) => {
    if (event.data?.t === 'msg' && event.data.to === me) floodHeard.push(JSON.parse(event.data.text).code ?? event.data.text.slice(0, 40));
    if (event.data?.t === 'bye' && event.data.to === me) floodHeard.push('bye');
  };
  bus.postMessage({t: 'take', to: host, from: me});
  send(JSON.stringify({v: 1, kind: 'join', table, seat: null, name: 'Flood'}));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const started = performance.now();
  for (let i = 0; i < messages; i += 1) send(JSON.stringify({v: 1, kind: 'ping', table, t: i}));
  const junkText = 'x'.repeat(7 * 1024);
  for (let i = 0; i < junk; i += 1) send(junkText);
  window.floodBus = bus;
  return performance.now() - started;
}"""


# ``count`` peers of this page, each pairing with the host tab under an id of its own, join as
# spectators, then each sends ``rate`` pings a second. Resolves with how many were welcomed.
MANY = """async ([table, count, rate]) => {
  const bus = new BroadcastChannel(`taberna.table.${table}`);
  const ids = Array.from({length: count}, (_, i) => `many${i}x` + Math.random().toString(16).slice(2));
  const hosts = new Map();
  bus.onmessage = (event) => {
    const data = event.data;
    if (data?.t === 'welcome' && ids.includes(data.to) && !hosts.has(data.to)) hosts.set(data.to, data.from);
  };
  for (const id of ids) bus.postMessage({t: 'hello', from: id});
  for (let wait = 0; hosts.size < count && wait < 50; wait += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  const send = (id, message) => bus.postMessage({t: 'msg', to: hosts.get(id), from: id, text: JSON.stringify({v: 1, table, ...message})});
  for (const id of hosts.keys()) {
    bus.postMessage({t: 'take', to: hosts.get(id), from: id});
    send(id, {kind: 'join', seat: null, name: 'Flood'});
  }
  let ping = 0;
  setInterval(() => { for (const id of hosts.keys()) send(id, {kind: 'ping', t: ping}); ping += 1; }, 1000 / rate);
  return hosts.size;
}"""


def heap(session):
    """The host page's used JS heap after a full garbage collection, in bytes."""
    session.send("HeapProfiler.collectGarbage")
    metrics = session.send("Performance.getMetrics")["metrics"]
    return next(m["value"] for m in metrics if m["name"] == "JSHeapUsedSize")


def figures(times):
    times = sorted(times)
    return statistics.median(times), times[max(0, int(len(times) * 0.9) - 1)], times[-1]


def seated_table(browser, host_browser, origin, url):
    """A new table: the host (in ``host_browser``) and its seated guest, playing."""
    host, guest = roundtrip.player(host_browser, origin), roundtrip.player(browser, origin)
    roundtrip.seat_guest(host, guest, url)
    return host, guest


def table_id(host):
    return json.loads(host.evaluate("sessionStorage.getItem('taberna.shared')"))["table"]


def flooder_page(host, url):
    """A page of the host's browser (same origin, no engine: only the flood's own work)."""
    page = host.context.new_page()
    page.goto(url + "net/links.js")
    return page


def many_connections(browser, host_browser, origin, url, count, rate, samples):
    """The guest's round trips while ``count`` peers ping at ``rate``, and the host's
    renderers' resident memory before and after, at a new table."""
    host, guest = seated_table(browser, host_browser, origin, url)
    resident_before = settled_resident(host_browser, host)
    flooder = flooder_page(host, url)
    welcomed = flooder.evaluate(MANY, [table_id(host), count, rate])
    times = roundtrip.measure(host, guest, samples)
    flooder.close()
    resident_after = settled_resident(host_browser, host)
    host.context.close()
    guest.context.close()
    return welcomed, times, resident_before, resident_after


def spread(times):
    median, p90, worst = figures(times)
    return f"median {median:.0f} ms (90th percentile {p90:.0f} ms, max {worst:.0f} ms, {len(times)} bids)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=30_000)
    parser.add_argument("--junk", type=int, default=1_000)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--connections", type=int, nargs="*", default=[12, 50])
    parser.add_argument("--rate", type=float, default=18)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    with load_time.chromium_on_private_site("flood") as (browser, url):
        origin = url.rstrip("/")
        host_browser = browser.browser_type.launch(executable_path=load_time.EXECUTABLE, args=load_time.ARGS)
        try:
            host, guest = seated_table(browser, host_browser, origin, url)
            session = host.context.new_cdp_session(host)
            session.send("Performance.enable")
            before = roundtrip.measure(host, guest, 20)
            heap_before, resident_before = heap(session), settled_resident(host_browser, host)
            flooder = flooder_page(host, url)
            took = flooder.evaluate(FLOOD, [table_id(host), args.messages, args.junk])
            during = roundtrip.measure(host, guest, args.samples)
            heard = flooder.evaluate("floodHeard")
            flooder.close()
            heap_after, resident_after = heap(session), settled_resident(host_browser, host)
            cut_off = "sync_flooded" in heard and "bye" in heard
            host.context.close()
            guest.context.close()
            many = {
                count: many_connections(browser, host_browser, origin, url, count, args.rate, args.samples)
                for count in args.connections
            }
        finally:
            host_browser.close()
    if len(during) < 5 or any(len(times) < 5 for _, times, _, _ in many.values()):
        print("fewer than 5 samples in a phase: no figure", file=sys.stderr)
        return 1
    text = (
        f"Flood (`python bench/flood.py --messages {args.messages} --junk {args.junk} --rate {args.rate:g}`, "
        f"{time.strftime('%Y-%m-%d')}, Debian Chromium headless, 2-core machine, under `nice -n 19`): a page of the "
        f"host's browser joined as a spectator sent {args.messages:,} pings and {args.junk:,} 7 KB junk messages "
        f"in {took / 1000:.1f} s. The guest's action round trip (click to the host's answer painted): before, "
        f"{spread(before)}; during and after the flood, {spread(during)}. Host page JS heap after GC: "
        f"{heap_before / 1e6:.1f} MB before, {heap_after / 1e6:.1f} MB after ({(heap_after - heap_before) / 1e6:+.1f} MB); "
        f"the host browser's renderers' resident memory: {resident_before / MB:.0f} MB before, "
        f"{resident_after / MB:.0f} MB after ({(resident_after - resident_before) / MB:+.1f} MB). "
        + ("The flooder was told `sync_flooded` and disconnected." if cut_off else "The flooder was NOT disconnected.")
    )
    for count, (welcomed, times, rss_before, rss_after) in many.items():
        text += (
            f" {count} connections ({welcomed} paired) at {args.rate:g} pings a second each, at a new table: "
            f"the seated guest's round trip {spread(times)}; resident memory {rss_before / MB:.0f} MB before, "
            f"{rss_after / MB:.0f} MB after ({(rss_after - rss_before) / MB:+.1f} MB)."
        )
    print(text)
    if not args.no_write:
        load_time.write_results(text, "flood")
    return 0


if __name__ == "__main__":
    sys.exit(main())
