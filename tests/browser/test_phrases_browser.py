"""A word to your friends, on two phones: a guest picks a phrase from the picker at the top of
its table (reachable without scrolling on a 360x740 phone) and the host's phone shows it in a
bubble beside the guest's seat, drawn on top (a tap at its centre lands on it) and inside the
screen; the host's player answers and the guest's phone shows that the same way; the host
mutes the guest. axe-core checks the guest's open picker and the host's with a player muted
(what a mute hides, and that a save keeps it, is checked in CPython:
tests/protocol/test_protocol_phrases.py). Screenshots at 360x740 and 1280x800 go to
``$TABERNA_SCREENS``."""

from tests.browser.test_friends_browser import create_table, join_by_invite, open_lobby
from tests.browser.test_screens_browser import AXE_RUN, DESKTOP, PHONE, shots  # noqa: F401 - a fixture

# Resolves with what a page shows the moment the bubble of ``seat`` appears beside its seat
# (set up before the sender taps, so no page timer and no wait of the test's decides it).
WATCH_BUBBLE = """(seat) => {
  window.__bubble = new Promise((resolve) => {
    const seen = () => {
      const bubble = document.querySelector(`#game-area [data-testid="phrase-${seat}"]`);
      if (!bubble) return false;
      const r = bubble.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      resolve({
        text: bubble.textContent, hit: !!hit && bubble.contains(hit),
        seat: bubble.closest("[data-testid^=seat-]")?.dataset.testid,
        inside: r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight,
      });
      return true;
    };
    if (seen()) return;
    const watch = new MutationObserver(() => seen() && watch.disconnect());
    watch.observe(document.getElementById("game-area"), {childList: true, subtree: true});
  });
}"""
# Whether ``selector`` is inside the viewport, unscrolled, and what a tap at its centre hits.
REACHABLE = """(selector) => {
  const el = document.querySelector(selector);
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return scrollY === 0 && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && !!hit && el.contains(hit);
}"""


def check_axe(page, axe_source, where):
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(axe_source)
    assert page.evaluate(AXE_RUN) == [], where


def test_a_guests_phrase_shows_beside_its_seat_on_the_hosts_phone(phones, site, wait_engine, axe_source, shots):  # noqa: F811
    host = phones()
    open_lobby(host, site.url, wait_engine)
    create_table(host, seats=1)
    guest = phones()
    join_by_invite(host, guest, 1, "Bea", wait_engine)
    host.click("[data-testid=net-start]")
    guest.locator("#game-area .tb-table").wait_for()
    guest.evaluate("() => window.scrollTo(0, 0)")  # as the table opens (a new screen starts at its top)
    assert guest.evaluate(REACHABLE, "[data-testid=phrases-toggle]")
    guest.click("[data-testid=phrases-toggle]")
    guest.locator("[data-testid=say-dudo]").wait_for()
    assert guest.evaluate(REACHABLE, "[data-testid=say-dudo]")  # the panel opens in view, over nothing
    check_axe(guest, axe_source, "the guest's picker")
    guest.screenshot(path=str(shots / "phrases-picker-360.png"))

    host.evaluate(WATCH_BUBBLE, 1)
    guest.click("[data-testid=say-dudo]")
    bubble = host.evaluate("() => window.__bubble")
    assert bubble == {"text": "Dudo!Bea says: Dudo!", "hit": True, "seat": "seat-1", "inside": True}
    host.screenshot(path=str(shots / "phrases-bubble-360.png"))
    guest.locator('[data-testid="phrase-1"]').wait_for()  # the sender sees it as everyone does
    host.set_viewport_size(DESKTOP)
    host.screenshot(path=str(shots / "phrases-bubble-1280.png"))
    host.set_viewport_size(PHONE)

    guest.evaluate(WATCH_BUBBLE, 0)  # the host's own player answers, seen on the guest's phone
    host.click("[data-testid=phrases-toggle]")
    host.click("[data-testid=say-good_game]")
    bubble = guest.evaluate("() => window.__bubble")
    assert bubble == {"text": "Good game!Ana says: Good game!", "hit": True, "seat": "seat-0", "inside": True}

    host.click("[data-testid=phrases-toggle]")
    host.click("[data-testid=mute-1]")  # this phone hides Bea's phrases from now on
    host.locator('[data-testid=mute-1][aria-pressed="true"]').wait_for()
    check_axe(host, axe_source, "the host's picker with a player muted")
    assert host.context.errors == [] and guest.context.errors == []
