"""A peer floods the host (issue 13, finding 6): does the table stay playable?

    python bench/flood.py [--messages 30000] [--junk 1000] [--samples 30] [--no-write]

A host and a guest sit at a shared Perudo table (invite link, WebRTC on loopback), as in
``friends_roundtrip.py``. A third page of the host's own browser joins the table through
the tabs' channel (as any peer: a spectator) and sends ``--messages`` pings as fast as it
can, then ``--junk`` messages of 7 KB of junk. Meanwhile and afterwards the guest keeps
bidding, and each bid is timed from the click to its answer painted on the guest's screen
(the host bids in between). Printed: the flood's duration, the guest's round trip before
and during/after the flood (median, 90th percentile, max), and the growth of the host
page's JavaScript heap (after a forced garbage collection, before and after). Written to
bench/results.md unless ``--no-write``.
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


def heap(session):
    """The host page's used JS heap after a full garbage collection, in bytes."""
    session.send("HeapProfiler.collectGarbage")
    metrics = session.send("Performance.getMetrics")["metrics"]
    return next(m["value"] for m in metrics if m["name"] == "JSHeapUsedSize")


def figures(times):
    times = sorted(times)
    return statistics.median(times), times[max(0, int(len(times) * 0.9) - 1)], times[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=30_000)
    parser.add_argument("--junk", type=int, default=1_000)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    with load_time.chromium_on_private_site("flood") as (browser, url):
        origin = url.rstrip("/")
        host, guest = roundtrip.player(browser, origin), roundtrip.player(browser, origin)
        roundtrip.seat_guest(host, guest, url)
        session = host.context.new_cdp_session(host)
        session.send("Performance.enable")
        before = roundtrip.measure(host, guest, 20)
        heap_before = heap(session)
        table = json.loads(host.evaluate("sessionStorage.getItem('taberna.shared')"))["table"]
        flooder = host.context.new_page()
        flooder.goto(url + "net/links.js")  # same origin, no engine: only the flood's own work
        took = flooder.evaluate(FLOOD, [table, args.messages, args.junk])
        during = roundtrip.measure(host, guest, args.samples)
        heap_after = heap(session)
        heard = flooder.evaluate("floodHeard")
        cut_off = "sync_flooded" in heard and "bye" in heard
    if len(during) < 5:
        print(f"only {len(during)} samples during the flood: no figure", file=sys.stderr)
        return 1
    b, d = figures(before), figures(during)
    text = (
        f"Flood (`python bench/flood.py --messages {args.messages} --junk {args.junk}`, {time.strftime('%Y-%m-%d')}, "
        "Debian Chromium headless, 2-core machine): a page of the host's browser joined as a spectator "
        f"sent {args.messages:,} pings and {args.junk:,} 7 KB junk messages in {took / 1000:.1f} s. "
        f"The guest's action round trip (click to the host's answer painted): before, median {b[0]:.0f} ms "
        f"(90th percentile {b[1]:.0f} ms, max {b[2]:.0f} ms, {len(before)} bids); during and after the flood, "
        f"median {d[0]:.0f} ms (90th percentile {d[1]:.0f} ms, max {d[2]:.0f} ms, {len(during)} bids). "
        f"Host page JS heap after GC: {heap_before / 1e6:.1f} MB before, {heap_after / 1e6:.1f} MB after "
        f"({(heap_after - heap_before) / 1e6:+.1f} MB). "
        + ("The flooder was told `sync_flooded` and disconnected." if cut_off else "The flooder was NOT disconnected.")
    )
    print(text)
    if not args.no_write:
        load_time.write_results(text, "flood")
    return 0


if __name__ == "__main__":
    sys.exit(main())
