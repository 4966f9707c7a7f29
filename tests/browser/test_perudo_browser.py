"""Perudo in Chromium: a player calls Calza out of turn (``calza_by`` ``anyone``) on one
device and at a shared table, the bid history folds open without pushing the controls
off a phone, and "Play again" deals a new game at the same table in one tap."""

import json
import os
import time
from pathlib import Path

from tests.browser.saves import saved_text, stored_records, wait_stored
from tests.browser import test_friends_browser as friends
from tests.browser.waits import NEWER, seeded_form, wait_ready

# Seat 1 (a bot) opens round 1 at this seed; its bid leaves bot 2 to speak, and us free to
# call Calza out of turn (checked in CPython by tests/perudo, the same engine).
SEED = 2

# Where a control sits in the viewport (a phone: the controls must be in view unscrolled).
IN_VIEW = """el => { const r = el.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"""


# The centre of the "Play again" button scrolled into view (as a player scrolls to it), and
# whether a tap there lands on it (nothing drawn over it, e.g. the action dock).
AGAIN_HIT = """() => {
  const button = document.querySelector("#game-area [data-testid=again]");
  button.scrollIntoView({block: "center"});
  const r = button.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {x, y, hit: !!hit && button.contains(hit)};
}"""


def version(page):
    return int(page.locator("#game-area .tb-table").get_attribute("data-version"))


def test_calza_out_of_turn_on_one_device_and_the_bid_history(context, site, wait_engine):
    page = context.new_page()
    page.clock.install()  # the page's timers run in real time until paused below
    page.goto(site.url)
    wait_engine(page)
    page.click("[data-open=perudo]")
    form = seeded_form(page, 'form[data-form="setup"][data-game="perudo"]', SEED)
    form.locator('select[name="seat0_kind"]').select_option("human")
    for seat in range(1, 6):
        form.locator(f'select[name="seat{seat}_kind"]').select_option("bot:medium" if seat <= 3 else "none")
    who = form.locator('select[name="opt_calza_by"]')
    assert who.is_hidden()  # who may call Calza shows only once Calza is on
    form.locator('input[name="opt_calza"]').check()
    assert who.is_visible()
    who.select_option("anyone")
    # From here the bots move only when the test lets time pass, so nothing races the tap.
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    form.locator("[data-testid=start]").click()
    page.locator("#game-area .tb-table").wait_for()
    assert version(page) == 0
    page.clock.run_for(5000)  # bot 1's pause: it opens the round
    page.wait_for_function(NEWER, arg=0)

    # Bot 2 is to speak; we may call Calza on bot 1's bid meanwhile, from the phone's dock.
    assert page.locator("#game-area").get_attribute("data-status") == "bot"
    dock = page.locator("#game-area [data-testid=dock]")
    calza = dock.locator("[data-testid=calza]")
    assert calza.is_visible() and calza.evaluate(IN_VIEW)
    assert "not your turn" in dock.inner_text().lower()
    assert dock.locator("[data-testid^=bid-face-]").count() == 0  # no bidding out of turn
    action = json.loads(calza.get_attribute("data-act"))
    assert action["type"] == "calza" and action["round"] == 1
    calza.click()
    page.wait_for_function(NEWER, arg=1)
    reveal = page.locator("#game-area [data-testid=reveal]")
    assert "called Calza" in reveal.inner_text()
    save = json.loads(saved_text(page))
    assert save["log"][-1] == {"seat": 0, "action": action}
    assert save["log"][0]["seat"] == 1  # the bid we answered was not ours, nor was the turn

    # The caller opens round 2: the history holds round 1, folded until asked for. No bot is
    # to move, so time may run again (and the page's toasts go away).
    assert page.locator("#game-area").get_attribute("data-status") == "human"
    page.clock.resume()
    toggle = page.locator("#game-area [data-testid=history-toggle]")
    assert "1 round" in toggle.inner_text()
    assert page.locator("#game-area [data-testid=history]").count() == 0
    toggle.click()
    history = page.locator("#game-area [data-testid=history]")
    history.wait_for()
    assert "Round 1" in history.inner_text() and "called Calza" in history.inner_text()
    assert toggle.get_attribute("aria-expanded") == "true"
    face = page.locator("#game-area [data-testid^=bid-face-]:not([disabled])").first
    assert face.evaluate(IN_VIEW), "the history pushed the bid picker off the phone's screen"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert context.recorder.errors == []


# --- a shared table ------------------------------------------------------------------------------
SHARED_SEED = 3  # the table's key; at a fair table the dice and who opens are drawn jointly

# One page's table: its version, its screen's status, and whether it offers Calza or a bid.
OFFERS = """() => {
  const area = document.getElementById('game-area');
  const table = area.querySelector('.tb-table');
  const enabled = (selector) => [...area.querySelectorAll(selector)].some((el) => !el.disabled);
  return table && { version: +table.dataset.version, status: area.dataset.status,
                    calza: enabled('[data-testid=calza]'), bid: enabled('[data-testid^=bid-face-]') };
}"""

# Bids at ``version`` if this page's player is to: chosen and clicked in one step, so a
# repaint between choosing and clicking cannot make the test click a ghost.
BID = """(version) => {
  const area = document.getElementById('game-area');
  const table = area.querySelector('.tb-table');
  const face = [...area.querySelectorAll('[data-testid^=bid-face-]')].find((el) => !el.disabled);
  if (!table || +table.dataset.version !== version || !face) return false;
  face.click();
  return true;
}"""


def calza_out_of_turn(host, version) -> bool:
    """By the host's table at rest at ``version`` (no fair-draw step under way): the host is
    to speak and Bruno may call Calza on another's bid."""
    if friends.quiet(host, [host]) != version:
        return False
    table = friends.host_table(host)
    return table.to_act() == [0] and 1 in table.game.may_act(table.state)


def bid_until_calza_is_out_of_turn(host, guest, timeout_s=60):
    """Who opens is drawn, not seeded: the host and Bruno bid in their turns (the bot bids
    by itself) until the host is to speak and Bruno, not to speak, may call Calza."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        here, there = host.evaluate(OFFERS), guest.evaluate(OFFERS)
        if here and there and here["version"] == there["version"]:
            if here["status"] == "human" and there["calza"] and not there["bid"] and calza_out_of_turn(host, here["version"]):
                return
            for page, offers in ((host, here), (guest, there)):
                if offers["bid"] and page.evaluate(BID, here["version"]):
                    page.wait_for_function(NEWER, arg=here["version"])
        host.wait_for_timeout(100)
    raise AssertionError(f"Bruno was not offered Calza out of turn within {timeout_s} s")


def test_a_friend_calls_calza_out_of_turn_at_a_shared_table(phones, site, wait_engine):
    host, guest = phones(), phones()
    friends.open_lobby(host, site.url, wait_engine)
    host.select_option("#friends-game", "perudo")
    host.click("[data-testid=friends-create]")
    form = seeded_form(host, 'form[data-form="setup"][data-shared="1"]', SHARED_SEED)
    form.locator('input[name="seat0_name"]').fill("Ana")
    for seat, kind in enumerate(("remote", "bot:medium", "none", "none", "none"), start=1):
        form.locator(f'select[name="seat{seat}_kind"]').select_option(kind)
    form.locator('input[name="opt_calza"]').check()
    form.locator('select[name="opt_calza_by"]').select_option("anyone")
    form.locator("[data-testid=start]").click()
    host.locator("[data-testid=room-code]").wait_for()
    friends.join_by_invite(host, guest, 1, "Bruno", wait_engine)
    host.click("[data-testid=net-start]")

    # The host is to speak, and Bruno, on his own phone, may call Calza on another's bid.
    bid_until_calza_is_out_of_turn(host, guest)
    version = int(host.locator("#game-area .tb-table").get_attribute("data-version"))
    assert host.locator("#game-area").get_attribute("data-status") == "human"
    calza = guest.locator("#game-area [data-testid=calza]")
    assert calza.is_visible() and calza.evaluate(IN_VIEW)
    assert guest.locator("#game-area [data-testid^=bid-face-]").count() == 0
    action = json.loads(calza.get_attribute("data-act"))
    calza.click()
    host.wait_for_function(NEWER, arg=version)
    settled = friends.quiet(host, [host])  # a fair table reveals every cup before the round settles
    for page in (host, guest):
        page.wait_for_function(NEWER, arg=settled - 1)
        assert "Bruno called Calza" in page.locator("#game-area [data-testid=reveal]").inner_text()
    log = json.loads(saved_text(host, "host"))["table"]["log"]
    moves = [entry for entry in log if entry["action"]["type"] not in ("commit", "share", "reveal")]  # not the fair draw's
    assert moves[-1] == {"seat": 1, "action": action} and moves[-2]["seat"] != 1  # on another's bid
    for page in (host, guest):
        assert page.context.errors == []


def test_play_again_deals_a_new_game_at_the_same_table(context, site, wait_engine, tmp_path):
    """Two fast bots (one hard, named) with Calza on play to the end; one tap on "Play again"
    and the same table deals again, under the same save, from a new seed."""
    shots = Path(os.environ.get("TABERNA_SCREENS") or tmp_path)
    context.add_init_script("localStorage.setItem('taberna.speed', 'fast')")
    page = context.new_page()
    page.clock.install()  # real time until the game is over, then paused: the new game waits
    page.goto(site.url)
    wait_engine(page)
    page.click("[data-open=perudo]")
    form = seeded_form(page, 'form[data-form="setup"][data-game="perudo"]', SEED)
    for seat, (kind, name) in enumerate([("bot:hard", "Ana"), ("bot:easy", "Rui")] + [("none", "")] * 4):
        form.locator(f'select[name="seat{seat}_kind"]').select_option(kind)
        form.locator(f'input[name="seat{seat}_name"]').fill(name)
    form.locator('input[name="opt_calza"]').check()
    form.locator('select[name="opt_calza_by"]').select_option("anyone")
    form.locator("[data-testid=start]").click()
    page.locator("#game-area .tb-table").wait_for()
    assert wait_ready(page, 90_000) == "over"
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    finished = json.loads(saved_text(page))
    [record] = [r for r in stored_records(page) if r["kind"] == "local"]
    look(page, shots, "perudo-again-over")

    at = page.evaluate(AGAIN_HIT)
    assert at["hit"], "something is drawn over Play again"
    page.mouse.click(at["x"], at["y"])
    page.wait_for_function("() => document.querySelector('#game-area .tb-table')?.dataset.version === '0'")
    assert page.locator("#game-area").get_attribute("data-status") == "bot"
    assert page.locator("[data-testid=game-over]").count() == 0
    wait_stored(page, lambda records: json.loads(next(r["text"] for r in records if r["id"] == record["id"]))["log"] == [])
    [dealt] = [r for r in stored_records(page) if r["kind"] == "local"]  # the finished game's place
    assert dealt["id"] == record["id"] and dealt["players"] == ["Ana", "Rui"] and not dealt["over"]
    table = json.loads(dealt["text"])
    assert table["seats"] == finished["seats"] == [
        {"kind": "bot", "level": "hard", "name": "Ana"}, {"kind": "bot", "level": "easy", "name": "Rui"}]
    assert table["options"] == finished["options"] and table["options"]["calza_by"] == "anyone"
    assert table["seed"] != finished["seed"]
    look(page, shots, "perudo-again-new")


def look(page, folder, name):
    """Screenshots at phone and desktop size, from the top, for a person to look at."""
    for size, label in (({"width": 1280, "height": 800}, "1280"), ({"width": 360, "height": 740}, "360")):
        page.set_viewport_size(size)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(folder / f"{name}-{label}.png"), full_page=True)
    print(f"screenshots in {folder}")
