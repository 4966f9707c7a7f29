"""Fair card tables in Chromium: the wall time of a whole fair deal, messages included.

    nice -n 19 python bench/fair_cards_browser.py [--game botifarra] [--guests 1] [--samples 3] [--no-write]
    nice -n 19 python bench/fair_cards_browser.py --game bog --seats 10 [--devices 10] [--samples 3]

Every device is a Chromium context of its own (one browser, one private build of the site),
joined by invite links over WebRTC on loopback (no relay); the seats without a device are
bots, their part of the deal played by the host's device. Botifarra: a 4-seat table, the
host and ``--guests`` friends (1 to 3); each sample a fresh table. Bog: ``--seats`` seats
(3 to 10), ``--devices`` of them devices (default: every seat), a one-deal game played out
by random taps and then rematched at the same table, so each sample is a new game's first
deal without ten pages to load again: the ten page loads (≈ 6 s of CPU each, overlapped)
are paid once, then each sample is one deal and its play by random taps.

A deal is timed from the host's tap on Start (or Rematch) (``Date.now()``, one clock for
every context on this machine) until every player's screen shows its own cards (the last one
counts): the card group installed beforehand (the page does it before a shared table's first
call), the lock and relock passes of every device in turn, every key released, every hand
opened and painted. Also counted meanwhile: the protocol's texts every page received (each
message once, at its receiver) and their bytes; the CPU time of all the pages' workers
(Python and the crypto) and of their main threads (paints, messages), from Linux's
``schedstat`` of the Chromium's renderer threads; how many pages showed the deal's progress
line (``screens.deal_line``) before their cards, and the latest time one first showed it.
Goals (issue 24): ≤ 1 s for a 4-player Botifarra deal, ≤ 3 s for a 10-player Bog deal;
the progress shown when a deal takes longer than 300 ms.
"""

import argparse
import importlib.util
import os
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tests.browser.conftest import TAP_CHANNELS  # noqa: E402
from tests.browser.test_bog_browser import play_shared  # noqa: E402
from tests.browser.test_fair_browser import create_fair_table  # noqa: E402
from tests.browser.test_friends_browser import hand_reply_to_host, invite, whole_texts  # noqa: E402

_spec = importlib.util.spec_from_file_location("taberna_load_time", HERE / "load_time.py")
load_time = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(load_time)

SETTINGS = ("localStorage.setItem('taberna.stun', ''); localStorage.setItem('taberna.useRelays', '0');"
            " localStorage.setItem('taberna.speed', 'fast');")
TIMEOUT_MS = 180_000
HANDS = {  # a page's own cards, readable (a sealed hand shows no card names)
    "botifarra": '#game-area [data-testid=bt-hand] .cards-fan[data-count="12"]',
    "bog": "#game-area .bog [data-testid=bog-hand] [aria-label]",
}

# A promise in the page: ``[Date.now() once its own cards show, Date.now() when the deal's
# progress line first showed (or null)]``.
WATCH_HAND = """(hand) => {
  const area = document.getElementById('game-area');
  let progress = null;
  window.__dealt = new Promise((resolve) => {
    const look = () => {
      if (progress === null && area.querySelector('[data-testid=fair-deal]')) progress = Date.now();
      if (area.querySelector(hand)) { watch.disconnect(); resolve([Date.now(), progress]); }
    };
    const watch = new MutationObserver(look);
    watch.observe(area, { subtree: true, childList: true, attributes: true });
  });
}"""
TAP = "(selector) => { const at = Date.now(); document.querySelector(selector).click(); return at; }"


def player(browser, origin):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.grant_permissions(["microphone", "camera"], origin=origin)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(SETTINGS)
    context.add_init_script(TAP_CHANNELS)
    return context.new_page()


def seat_friends(browser, url, game: str, others: list, options=None) -> list:
    """The host's fair ``game`` table, ``others`` its seats after the host's ("remote" or
    "bot"), each friend's page opened at once (the loads overlap) and seated by invite."""
    origin = url.rstrip("/")
    friends = [player(browser, origin) for kind in others if kind == "remote"]
    for page in friends:
        page.goto(url, wait_until="commit")
    host = player(browser, origin)
    load_time.open_playable(host, url)
    create_fair_table(host, game, others, options)
    for seat, page in enumerate(friends, start=1):
        page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'", timeout=TIMEOUT_MS)
        page.goto(invite(host, seat))  # the same page: only its fragment changes
        page.click("[data-testid=join-submit]")
        hand_reply_to_host(host, page, seat)
    return [host] + friends


def texts_of(page) -> list:
    return [text for text in whole_texts(page.evaluate("window.__raw")) if '{"v":' in text]


def renderer_threads() -> dict:
    """``{"worker" | "page": nanoseconds run}`` summed over the dedicated worker threads and
    the main threads of the renderers of the Chromium this process started."""
    mine, spent = os.getpid(), {"worker": 0, "page": 0}
    for process in Path("/proc").iterdir():
        try:
            if b"--type=renderer" not in (process / "cmdline").read_bytes() or not descends(process, mine):
                continue
            for thread in (process / "task").iterdir():
                main = thread.name == process.name  # the renderer's main thread: paints, messages
                kind = "page" if main else "worker" if (thread / "comm").read_text().startswith("DedicatedWorker") else None
                if kind:
                    spent[kind] += int((thread / "schedstat").read_text().split()[0])
        except OSError:
            continue
    return spent


def descends(process: Path, ancestor: int) -> bool:
    pid = int(process.name)
    while pid > 1:
        status = Path(f"/proc/{pid}/status").read_text()
        pid = int(next(line for line in status.splitlines() if line.startswith("PPid:")).split()[1])
        if pid == ancestor:
            return True
    return False


def timed_deal(pages, game: str, button: str) -> dict:
    """One deal from a tap on ``button`` in the host's page until every page shows its cards."""
    before = [len(texts_of(page)) for page in pages]
    for page in pages:
        page.evaluate(WATCH_HAND, HANDS[game])
    threads = renderer_threads()
    began = pages[0].evaluate(TAP, button)
    seen = [page.evaluate("window.__dealt") for page in pages]
    spent = {kind: ns - threads[kind] for kind, ns in renderer_threads().items()}
    received = [texts_of(page)[count:] for page, count in zip(pages, before)]
    progress = [shown - began for _, shown in seen if shown is not None]
    return {
        "ms": max(done for done, _ in seen) - began,
        "messages": sum(map(len, received)),
        "bytes": sum(len(text.encode()) for texts in received for text in texts),
        "worker_ms": spent["worker"] / 1e6,
        "page_ms": spent["page"] / 1e6,
        "progress_pages": len(progress),
        "progress_by_ms": max(progress, default=None),
    }


def botifarra_deals(browser, url, args) -> list:
    """Each sample a fresh 4-seat table: the host, ``guests`` friends, bots after them."""
    deals = []
    for _ in range(args.samples):
        pages = seat_friends(browser, url, "botifarra", ["remote"] * args.guests + ["bot"] * (3 - args.guests))
        try:
            deals.append(timed_deal(pages, "botifarra", "[data-testid=net-start]"))
        finally:
            for page in pages:
                page.context.close()
    return deals


def bog_deals(browser, url, args) -> list:
    """One table of ``seats``, ``devices`` of them devices: a one-deal game, played out by
    random taps, then a rematch, each one's deal timed."""
    others = ["remote"] * (args.devices - 1) + ["bot"] * (args.seats - args.devices)
    pages = seat_friends(browser, url, "bog", others, {"deals": "1"})
    rng, deals, button = random.Random(24), [], "[data-testid=net-start]"
    for _ in range(args.samples):
        deals.append(timed_deal(pages, "bog", button))
        play_shared(pages[0], pages, rng)
        button = "[data-testid=net-rematch]"
        pages[0].locator(button).wait_for()
    return deals


def spread(values: list, unit: str = " ms") -> str:
    ordered = sorted(values)
    return f"median {statistics.median(ordered):,.0f}{unit} ({ordered[0]:,.0f}–{ordered[-1]:,.0f})"


def report(deals: list, args, load: float, devices: int) -> str:
    if args.game == "bog":
        command = f"--game bog --seats {args.seats} --devices {args.devices}"
        what = (f"a {args.seats}-player Bog deal, {devices} devices (the host and {devices - 1} friends by invite over "
                f"WebRTC on loopback{', bots on the host' + chr(39) + 's device' if args.seats > devices else ''}), "
                f"each sample a one-deal game's deal (the first, then rematches at the same table)")
        goal = "≤ 3 s at 10 players"
    else:
        command = f"--guests {args.guests}"
        what = (f"a 4-player Botifarra deal, {devices} devices (the host and {args.guests} "
                f"friend{'s' if args.guests > 1 else ''} by invite over WebRTC on loopback, bots on the host's device), "
                f"each sample a fresh table")
        goal = "≤ 1 s"
    progress = [deal["progress_by_ms"] for deal in deals if deal["progress_by_ms"] is not None]
    in_order = ", ".join(f"{deal['ms']:,.0f}" for deal in deals)
    return (
        f"Fair card tables in Chromium (`nice -n 19 python bench/fair_cards_browser.py {command} --samples {args.samples}`, "
        f"{time.strftime('%Y-%m-%d')}, Debian Chromium headless, 2-core machine shared with other jobs, load average "
        f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end): {what}; from the host's tap to every player's "
        f"cards painted, {len(deals)} deals: {spread([d['ms'] for d in deals])} (in order {in_order} ms; goal {goal}); per deal, the protocol's "
        f"messages received by all pages {spread([d['messages'] for d in deals], '')}, "
        f"{spread([d['bytes'] / 1000 for d in deals], ' kB')}; CPU of all the pages' workers "
        f"{spread([d['worker_ms'] for d in deals])}, of their main threads {spread([d['page_ms'] for d in deals])}; "
        f"the deal's progress line shown on {min(d['progress_pages'] for d in deals)}–"
        f"{max(d['progress_pages'] for d in deals)} of {devices} pages"
        + (f", on every page showing it by {max(progress):,.0f} ms at the latest." if progress else ".")
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("botifarra", "bog"), default="botifarra")
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--guests", type=int, default=1, choices=(1, 2, 3), help="Botifarra: friends besides the host")
    parser.add_argument("--seats", type=int, default=10, choices=range(3, 11), help="Bog: seats at the table")
    parser.add_argument("--devices", type=int, help="Bog: seats with a device of their own (default: every seat)")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    args.devices = min(args.devices or args.seats, args.seats)
    devices = args.devices if args.game == "bog" else 1 + args.guests
    load = os.getloadavg()[0]
    with load_time.chromium_on_private_site("fair-cards") as (browser, url):
        deals = (bog_deals if args.game == "bog" else botifarra_deals)(browser, url, args)
    text = report(deals, args, load, devices)
    print(text)
    if not args.no_write:
        name = f"bog_{args.seats}_{args.devices}" if args.game == "bog" else str(args.guests)
        load_time.write_results(text, f"fair_cards_browser_{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
