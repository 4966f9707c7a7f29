"""Issue 27's page findings on a 360x740 touch phone, checked by hit-testing what is drawn:
an element counts as seen when its box lies between the page's sticky top bar and the
bottom of the screen and a tap at its top, centre and bottom reaches it (nothing, such as
the action dock, drawn over it).

* every screen change (lobby -> setup, setup -> game, "Play again", back to the lobby)
  starts at its top, and Bozó's 20-seat setup keeps Start within reach;
* what just happened is in view: a Bozó or Perudo reveal, the game's end, Botifarra's last
  trick looked back at (screens reached through saves made here in CPython);
* "Play with friends" is reachable from the lobby's top and from each game's card;
* at a shared Botifarra table the seats shrink to a line and the trick is in view on the
  host's and the guest's phone.

Screenshots (360x740 and 1280x800) go to ``$TABERNA_SCREENS`` or a temporary folder.
"""

import json
import os
from pathlib import Path

import pytest

from pyengine.core.registry import get_game

from tests.browser.saves import local_record, played_by_bots, restore_records
from tests.browser.test_friends_browser import take_seat
from tests.browser.test_screens_browser import DESKTOP, PHONE, TIMEOUT_MS, Screens, guest_by_room_code, phone_page
from tests.browser.waits import ANY_TURN, tap_move, wait_ready

# Where ``selector``'s element lies, and whether it is seen (see the module's docstring).
SEEN = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return {selector, missing: true, ok: false};
  const r = el.getBoundingClientRect();
  const below = document.querySelector("header.bar").getBoundingClientRect().bottom;
  const x = r.left + r.width / 2, edge = Math.min(8, r.height / 2);
  const reached = [r.top + edge, r.top + r.height / 2, r.bottom - edge].map((y) => {
    const hit = document.elementFromPoint(x, y);
    return !!hit && el.contains(hit);
  });
  const inside = r.height > 0 && r.top >= below - 0.5 && r.bottom <= innerHeight + 0.5 && r.left >= 0 && r.right <= innerWidth + 0.5;
  return {selector, top: Math.round(r.top), bottom: Math.round(r.bottom), below, scrollY, reached, ok: inside && reached.every(Boolean)};
}"""
TO_BOTTOM = "() => window.scrollTo(0, document.documentElement.scrollHeight)"


AT_TOP = "() => ({ok: scrollY === 0, scrollY})"
# Measures with ``probe`` as soon as a paint has drawn ``selector`` in the game area: the bots
# (at the instant pace) may move right after it and bring their own news into view.
WHEN_DRAWN = """([selector, probe]) => {
  const area = document.getElementById("game-area");
  window.drawnProbe = null;
  const observer = new MutationObserver(() => {
    if (!area.querySelector(selector)) return;
    observer.disconnect();
    window.drawnProbe = (PROBE === "top" ? (AT_TOP) : (SEEN))(selector);
  });
  observer.observe(area, {childList: true, subtree: true});
}""".replace("AT_TOP", AT_TOP).replace("SEEN", SEEN).replace("PROBE", "probe")


def seen(page, selector):
    where = page.evaluate(SEEN, selector)
    assert where["ok"], json.dumps(where)


def at_top(page):
    assert page.evaluate("() => scrollY") == 0


def as_drawn(page, selector, act, probe="seen"):
    """Does ``act`` and checks the first screen it draws with ``selector`` in it: seen whole
    (``seen``) or at the page's top (``top``)."""
    page.evaluate(WHEN_DRAWN, [selector, probe])
    act()
    where = page.wait_for_function("() => window.drawnProbe", timeout=TIMEOUT_MS).json_value()
    assert where["ok"], json.dumps(where)


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = Path(os.environ.get("TABERNA_SCREENS") or tmp_path_factory.mktemp("screens"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"screenshots in {folder}")
    return folder


def both_sizes(screens, name):
    """Screenshots of the screen as it stands, at phone and at desktop size (for a person
    to look at), then back to the phone."""
    screens.shot(f"{name}-360")
    screens.page.set_viewport_size(DESKTOP)
    screens.shot(f"{name}-1280")
    screens.page.set_viewport_size(PHONE)


# --- saved tables: the screens of a finished or running game --------------------------------------
def _may_call(kind):
    """The player's (seat 0's) turn with a bid to call ``kind`` on (a reveal follows), from
    the second hand on: an earlier reveal is on the screen."""
    return lambda table, states, i: (
        0 in table.game.to_act(states[i]) and any(e["action"]["type"] == kind for e in table.log[:i])
        and {"type": kind} in table.game.legal_actions(states[i], 0)
    )


def _before_the_end(table, states, i):
    return i == len(table.log) - 1 and table.log[i]["seat"] != 0


def _second_roll(table, states, i):
    """The player, the banker, is to roll for the second time."""
    return table.log[i] == {"seat": 0, "action": {"type": "roll"}} and states[i]["rolls"] >= 1


def _dealer_speaks_after_a_bog(table, states, i):
    """The player, the dealer, speaks last in a deal's bogging after someone bogged."""
    state = states[i]
    return (state["phase"] == "bog" and state["speaker"] == state["dealer"] == 0
            and any(entry["action"]["type"] == "bog" for entry in table.log[:i][-(state["seats"] - 1):]))


def _peek_on_turn(table, states, i):
    """The player's turn in Botifarra's play, with a trick already taken in the hand."""
    return states[i]["phase"] == "play" and bool(states[i]["tricks"]) and 0 in table.game.to_act(states[i])


# name: (game, seats, options, seed, where the log is cut)
SAVES = {
    "bozo-reveal": ("bozo", 10, {"points_target": 1}, 1, _may_call("doubt")),
    "bozo-over": ("bozo", 10, {"points_target": 1}, 1, _before_the_end),
    "perudo-reveal": ("perudo", 6, {}, 1, _may_call("dudo")),
    "botifarra-peek": ("botifarra", 4, {"target": 51}, 1, _peek_on_turn),
    "crown_anchor-roll": ("crown_anchor", 8, {"start_chips": 10}, 1, _second_roll),
    "bog-showdown": ("bog", 4, {"deals": 2}, 1, _dealer_speaks_after_a_bog),
}


def saved_records():
    """One lobby record per entry of SAVES (ids ``local:phone-<name>``)."""
    played = {}
    records = []
    for number, (name, (game_id, seats, options, seed, where)) in enumerate(SAVES.items()):
        key = (game_id, seats, json.dumps(options), seed)
        if key not in played:
            played[key] = played_by_bots(game_id, seats, options, seed)
        table, states = played[key]
        cut = next(i for i in range(len(table.log)) if where(table, states, i))
        records.append(local_record(f"local:phone-{name}", table, cut, number))
    return records


@pytest.fixture(scope="module")
def phone(browser, site, wait_engine):
    """One phone page for the module, with the saved tables in its lobby (restored as a backup)."""
    with phone_page(browser, site, wait_engine) as page:
        restore_records(page, saved_records())
        yield page


@pytest.fixture
def screens(phone, axe_source, shots):
    screens = Screens(phone, axe_source, shots)
    screens.lobby()
    phone.evaluate("() => window.scrollTo(0, 0)")
    yield screens
    assert phone.errors == []


def continue_saved(screens, name):
    screens.page.click(f'[data-save="local:phone-{name}"] [data-testid=continue]')
    screens.page.locator("#game-area .tb-table").wait_for()


# --- the tests ------------------------------------------------------------------------------------
def test_play_with_friends_is_reachable_from_the_lobby_top_and_from_each_card(screens):
    page = screens.page
    seen(page, "[data-testid=to-friends]")
    screens.axe("the lobby")
    both_sizes(screens, "phone-lobby")
    page.click("[data-testid=to-friends]")
    seen(page, "#friends-heading")
    page.evaluate("() => window.scrollTo(0, 0)")
    games = page.eval_on_selector_all("[data-open]", "buttons => buttons.map((b) => b.dataset.open)")
    assert page.eval_on_selector_all("[data-friends]", "buttons => buttons.map((b) => b.dataset.friends)") == games
    page.locator("[data-friends=perudo]").scroll_into_view_if_needed()
    page.click("[data-friends=perudo]")
    page.locator('form[data-form="setup"][data-shared="1"][data-game="perudo"]').wait_for()
    at_top(page)


def test_screen_changes_start_at_their_top_and_bozos_start_is_in_reach(screens):
    page = screens.page
    page.locator("[data-open=bozo]").scroll_into_view_if_needed()
    assert page.evaluate("() => scrollY") > 0
    page.click("[data-open=bozo]")
    form = page.locator('form[data-form="setup"][data-game="bozo"]')
    form.wait_for()
    at_top(page)
    seen(page, "select[name=seat_count]")
    form.locator("select[name=seat_count]").select_option("20")
    assert form.locator(".tb-seat-row:visible").count() == 20
    seen(page, "[data-testid=start]")
    screens.axe("Bozó's setup for 20")
    both_sizes(screens, "phone-bozo-setup-20")
    page.evaluate(TO_BOTTOM)
    seen(page, "[data-testid=start]")
    form.locator("select[name=seat_count]").select_option("10")
    assert form.locator(".tb-seat-row:visible").count() == 10
    both_sizes(screens, "phone-bozo-setup-10")
    page.evaluate(TO_BOTTOM)
    as_drawn(page, "#game-area .tb-table", form.locator("[data-testid=start]").click, probe="top")
    assert page.locator("#game-area .bozo .cup-player").count() == 10
    page.evaluate(TO_BOTTOM)
    assert page.evaluate("() => scrollY") > 0
    page.click("#back")
    page.locator("#lobby").wait_for()
    at_top(page)


def test_a_reveal_is_in_view_above_the_dock(screens):
    """The player, at the top of the table, calls from the dock: the reveal that follows is
    in view above the dock (it lay under it, below the ten cups)."""
    for name, call in (("bozo-reveal", "doubt"), ("perudo-reveal", "dudo")):
        screens.lobby()
        page = screens.page
        continue_saved(screens, name)
        assert wait_ready(page, TIMEOUT_MS) == "human"
        page.evaluate("() => window.scrollTo(0, 0)")
        seen(page, f"#game-area [data-testid={call}]")
        reveal = "#game-area [data-testid=reveal] [data-announce]"
        as_drawn(page, reveal, lambda: tap_move(page, page.locator(f"#game-area [data-testid={call}]"), TIMEOUT_MS))
        seen(page, "#game-area [data-testid=dock]")
        screens.axe(name)
        both_sizes(screens, f"phone-{name}")


def test_a_roll_and_a_showdown_come_into_view(screens):
    """The player, scrolled to the bottom of a phone to tap the dock, rolls (Crown and Anchor,
    the dice above the layout) or goes out last (Bog, the showdown below the hand): what
    happened is brought into view."""
    for name, tap, news in (("crown_anchor-roll", "ca-roll", "ca-dice"), ("bog-showdown", "bog-out", "bog-showdown")):
        screens.lobby()
        page = screens.page
        continue_saved(screens, name)
        assert wait_ready(page, TIMEOUT_MS) == "human"
        page.evaluate(TO_BOTTOM)
        as_drawn(page, f"#game-area [data-testid={news}]", lambda: tap_move(page, page.locator(f"#game-area [data-testid={tap}]"), TIMEOUT_MS))
        screens.axe(name)
        both_sizes(screens, f"phone-{name}")


def test_the_games_end_is_in_view_and_play_again_starts_at_the_top(screens):
    page = screens.page
    continue_saved(screens, "bozo-over")
    assert wait_ready(page, TIMEOUT_MS, ANY_TURN) == "over"
    seen(page, "#game-area [data-testid=game-over]")
    screens.axe("Bozó's game over")
    both_sizes(screens, "phone-bozo-over")
    page.evaluate(TO_BOTTOM)
    assert page.evaluate("() => scrollY") > 0
    # The new game's first paint is at the top (the bots, at the instant pace, may move
    # right after it and bring their news into view).
    fresh_table = "#game-area .tb-table:not(:has([data-testid=game-over]))"
    as_drawn(page, fresh_table, lambda: page.click("#game-area [data-testid=again]"), probe="top")


def test_botifarras_last_trick_opens_in_view(screens):
    page = screens.page
    continue_saved(screens, "botifarra-peek")
    assert wait_ready(page, TIMEOUT_MS, ANY_TURN) == "human"
    page.click("#game-area [data-testid=bt-peek-0], #game-area [data-testid=bt-peek-1]")
    page.locator("#game-area [data-testid=bt-peeked]").wait_for()
    seen(page, "#game-area [data-testid=bt-peeked]")
    seen(page, "#game-area [data-testid=bt-hand]")
    screens.axe("Botifarra's last trick")
    both_sizes(screens, "phone-botifarra-peek")


# A shared Botifarra table's next step for the player on ``page``: trumps or "pass" when
# its sheet asks (the first trumps offered), once per version of the table (a second tap on
# a sheet the host has moved past is refused, and the refusal shows above the table);
# "play" once the hand is being played and no refusal shows.
DECIDE = """() => {
  const game = document.querySelector("#game-area .botifarra");
  if (game?.dataset.phase === "play") return document.querySelector("#game-area .tb-net-error") ? "refused" : "play";
  const version = document.querySelector("#game-area .tb-table")?.dataset.version;
  const tap = document.querySelector("#game-area [data-testid=bt-sheet] [data-testid^=bt-trump-], #game-area [data-testid=bt-pass]");
  if (tap && window.tappedAt !== version && !document.getElementById("game-area").hasAttribute("aria-busy")) {
    window.tappedAt = version;
    tap.click();
  }
  return "waiting";
}"""


def test_a_shared_botifarra_shows_the_trick_on_both_phones(screens, site, wait_engine):
    """The host and a friend in another tab (the room code over the tabs' own channel, relays
    off), two bots: once the hand is played the seats are one line, the trick in view."""
    host = screens.page
    host.evaluate("() => localStorage.setItem('taberna.useRelays', '0')")
    guest = None
    try:
        form = screens.open_setup("botifarra", shared=True)
        bot = f"bot:{get_game('botifarra').bot_levels[0]}"
        for seat, kind in ((1, "remote"), (2, bot), (3, bot)):
            form.locator(f'select[name="seat{seat}_kind"]').select_option(kind)
        form.locator("[data-testid=start]").click()
        guest = guest_by_room_code(host, site, wait_engine)
        take_seat(host, guest, 1)
        host.click("[data-testid=net-start]")
        for _ in range(300):
            if [page.evaluate(DECIDE) for page in (host, guest)] == ["play", "play"]:
                break
            host.wait_for_timeout(100)
        else:
            raise AssertionError("the hand never came to be played")
        as_guest = Screens(guest, screens.axe_source, screens.folder)
        for name, page, shown in (("host", host, screens), ("guest", guest, as_guest)):
            shown.shot(f"phone-botifarra-shared-{name}-checked")
            assert page.locator("#game-area ol.tb-net-playing").count() == 1
            seen(page, "#game-area [data-testid=bt-trick]")
            shown.axe(f"a shared Botifarra on the {name}'s phone")
            both_sizes(shown, f"phone-botifarra-shared-{name}")
    finally:
        if guest is not None:
            guest.close()
        host.evaluate("() => localStorage.removeItem('taberna.useRelays')")
