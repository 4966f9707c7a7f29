"""Play with friends: the action round trip between a guest and the host, on loopback.

    python bench/friends_roundtrip.py [--samples N] [--no-write]

Two players in separate Chromium contexts sit at a shared Perudo table connected through
the invite flow (WebRTC data channel, no relay). Each sample is one of the guest's bids,
timed in the guest's page from the click to the moment its screen shows the table's next
version: the guest's worker turns the click into an intent, the data channel carries it,
the host's worker checks and applies it and sends the guest its new view, which the
guest's worker renders and the page paints. The host answers with its own bids in
between (not timed). Both play the lowest legal bid, so rounds are long. Prints the
figures and writes them to bench/results.md.

Every shared Perudo table is a fair one (commit, then reveal): a bid costs what it did, but
a round's end now waits for the reveal and the next round for the commitments and shares
of both devices. So with ``--calls N`` the guest also calls Dudo N times (in place of
every third bid), each timed in its page from the click to two moments: the host's first
answer painted (what a plain table's call cost: the round's outcome) and the guest's new
cup painted, the next round playable (the fair draw done: the guest's reveal with its next
commitment, then its share). The difference is the fair table's extra latency per round
(goal: ≤ 150 ms on loopback).
"""

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("taberna_load_time", HERE / "load_time.py")
load_time = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(load_time)

# No STUN server, no relay: the two contexts find each other on loopback.
SETTINGS = "localStorage.setItem('taberna.stun', ''); localStorage.setItem('taberna.useRelays', '0');"
TIMEOUT_MS = 60_000

# The lowest legal bid (raising the picker's quantity first when it must; Dudo when no bid is
# left) if this page may act at ``version``; for the guest, times it until the next version
# is on screen.
MOVE = """async ([version, timed]) => {
  const area = document.getElementById('game-area');
  const shown = () => Number(area.querySelector('.tb-table')?.dataset.version);
  if (shown() !== version) return null;
  const enabled = (selector) => [...area.querySelectorAll(selector)].filter((el) => !el.disabled);
  const more = enabled('[data-testid=count-up]')[0];
  let target = enabled('[data-testid^=bid-face-]')[0];
  if (!target && more) { more.click(); return null; }  // raise the quantity, bid next time
  target ??= enabled('[data-act]')[0];
  if (!target) return null;
  if (!timed) { target.click(); return 0; }
  const started = performance.now();
  const painted = new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (shown() > version) { watch.disconnect(); resolve(performance.now() - started); }
    });
    watch.observe(area, { subtree: true, childList: true, attributes: true });
  });
  target.click();
  return await painted;
}"""


# Dudo, if this guest may call it at ``version``: ``[answer, cup]`` ms from the click to the
# host's first answer painted and to the guest's next cup painted (its cup leaves the screen
# when the round is settled and comes back once the next round's draw is done); null if
# the game ended meanwhile or the guest has no cup left (a bench guard of 20 s too).
CALL = """async ([version]) => {
  const area = document.getElementById('game-area');
  const shown = () => Number(area.querySelector('.tb-table')?.dataset.version);
  if (shown() !== version) return null;
  const dudo = [...area.querySelectorAll('[data-testid=dudo]')].find((el) => !el.disabled);
  if (!dudo) return null;
  const started = performance.now();
  let answer = null, gone = false;
  const timed = new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (answer === null && shown() > version) answer = performance.now() - started;
      const cup = area.querySelector('[data-testid=my-cup]');
      if (area.querySelector('[data-testid=game-over]')) { watch.disconnect(); resolve(null); }
      else if (!cup) gone = true;
      else if (gone) { watch.disconnect(); resolve([answer, performance.now() - started]); }
    });
    watch.observe(area, { subtree: true, childList: true, attributes: true });
    setTimeout(() => { watch.disconnect(); resolve(null); }, 20000);
  });
  dudo.click();
  return await timed;
}"""


def player(browser, origin):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.grant_permissions(["microphone", "camera"], origin=origin)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(SETTINGS)
    return context.new_page()


def seat_guest(host, guest, url):
    """Host: a Perudo table for itself and one friend; the friend comes in by invite."""
    load_time.open_playable(host, url)
    host.select_option("#friends-game", "perudo")
    host.click("[data-testid=friends-create]")
    form = host.locator('form[data-form="setup"][data-shared="1"]')
    for seat in range(1, 6):
        form.locator(f'select[name="seat{seat}_kind"]').select_option("remote" if seat == 1 else "none")
    form.locator("[data-testid=start]").click()
    host.click('[data-invite="1"]')
    link = host.locator("[data-testid=share-link]").input_value()
    load_time.open_playable(guest, link)
    guest.click("[data-testid=join-submit]")
    reply = guest.locator("[data-testid=share-code]").input_value()
    host.fill("[data-testid=reply-input]", reply)
    host.click("[data-testid=reply-submit]")
    host.locator('[data-testid="seat-1"][data-conn="connected"]').wait_for()
    host.click("[data-testid=net-start]")


def host_version(host):
    return int(host.locator("#game-area .tb-table").first.get_attribute("data-version"))


def measure(host, guest, samples, calls, called):
    """Times guest bids until ``samples`` and guest calls of Dudo (in place of every third
    bid) until ``calls``, appended to ``called``; returns the bids' times."""
    times = []
    deadline = time.monotonic() + 600
    while (len(times) < samples or len(called) < calls) and time.monotonic() < deadline:
        if host.locator("#game-area [data-testid=game-over]").count():
            break
        version = host_version(host)
        if len(called) < calls and len(times) % 3 == 2:
            pair = guest.evaluate(CALL, [version])
            if pair is not None:
                called.append(pair)
                continue
        took = guest.evaluate(MOVE, [version, True])
        if took is None:
            took = host.evaluate(MOVE, [version, False])
        if took is None:
            host.wait_for_timeout(20)  # news on its way, or the quantity was just raised
            continue
        if took:
            times.append(took)
        host.wait_for_function(
            "(v) => Number(document.querySelector('#game-area .tb-table')?.dataset.version) > v", arg=version
        )
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--calls", type=int, default=0)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    with load_time.chromium_on_private_site("friends") as (browser, url):
        origin = url.rstrip("/")
        times, called, games = [], [], 0
        while (len(times) < args.samples or len(called) < args.calls) and games < 20:
            # A game gives a few dozen guest bids; each new game gets two fresh phones.
            host, guest = player(browser, origin), player(browser, origin)
            seat_guest(host, guest, url)
            times += measure(host, guest, args.samples - len(times), args.calls, called)
            games += 1
            host.context.close()
            guest.context.close()
    if len(times) < 10:
        print(f"only {len(times)} samples: no figure", file=sys.stderr)
        return 1
    times.sort()
    text = (
        f"Play with friends (`python bench/friends_roundtrip.py --samples {args.samples}`, "
        f"{time.strftime('%Y-%m-%d')}, Debian Chromium headless, two contexts, WebRTC on loopback, "
        "2-core machine): a guest's action round trip, click to the host's answer painted on "
        f"the guest's screen, over {len(times)} bids in {games} games: median {statistics.median(times):.0f} ms, "
        f"90th percentile {times[int(len(times) * 0.9) - 1]:.0f} ms, max {times[-1]:.0f} ms."
    )
    if called:
        answers, cups = sorted(a for a, _ in called), sorted(c for _, c in called)
        extra = sorted(c - a for a, c in called)
        text += (
            f" The guest's Dudo at this fair table, {len(called)} calls: the host's answer painted after a median "
            f"{statistics.median(answers):.0f} ms (max {answers[-1]:.0f}), the next round playable (the guest's new cup "
            f"painted) after {statistics.median(cups):.0f} ms (max {cups[-1]:.0f}); the fair draw's extra latency per "
            f"round: median {statistics.median(extra):.0f} ms, max {extra[-1]:.0f} ms."
        )
    print(text)
    if not args.no_write:
        load_time.write_results(text, "friends_roundtrip")
    return 0


if __name__ == "__main__":
    sys.exit(main())
