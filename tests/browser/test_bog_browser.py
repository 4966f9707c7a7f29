"""Bog in Chromium: a whole game of several deals against bots played by taps on a 360 x 740
phone (every control and card hit-tested inside the screen on each of our turns, a reload in
the middle of a deal resuming the same table, the save replaying in CPython); ten seats on a
phone and on a desktop screen, each phase hit-tested and screenshotted; a shared table where
each guest receives only its own hand (every raw state message checked); a fair table
(``kits.fair_cards``) of two phones and a bot playing three deals. Offline play of every
game: ``test_site_browser``."""

import json
import random
from unittest import mock

import pytest

from pyengine.core.table import Table
from pyengine.core.rng import Rng
from pyengine.kits.fair_cards import is_sealed
from pyengine.protocol import Guest, Host, MemoryNetwork
from tests.browser.saves import restore_records, saved_text
from tests.browser.shots import screenshots
from tests.browser.test_fair_browser import FRIEND, create_fair_table
from tests.browser.test_friends_browser import (
    check_secrecy, connected, host_over, host_table, host_version, join_by_invite, open_lobby, protocol_messages,
    wait_past,
)
from tests.browser.waits import NEWER, screen_html, seeded_form, wait_ready

TIMEOUT_MS = 90_000
OUR_TURN = ".bog [data-act]"  # ready for us: one of our actions
MIN_TAP = 44  # px: the smallest control or card a thumb is asked to hit
SEED = 20261124  # every table here is seeded: the same game on every run

# The stake picker shows ``n`` and the page takes taps again (taps while busy are ignored).
STAKE_SHOWN = """(n) => !document.getElementById("game-area").hasAttribute("aria-busy")
  && +document.querySelector("#game-area [data-testid=bog-stake]")?.textContent === n"""

# Every control of the Bog screen (buttons that act or change the screen, cards of the hand)
# at the top of the page: its box inside the viewport, at least MIN_TAP tall, and the element
# at its centre is itself or inside it (nothing covers it). Returns the misfits.
CONTROLS_IN_VIEW = """(minTap) => {
  window.scrollTo(0, 0);
  const bad = [];
  const controls = [...document.querySelectorAll(".bog [data-act], .bog [data-ui]")];
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    const name = el.getAttribute("aria-label") || el.textContent.trim() || el.dataset.testid;
    if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
      bad.push(`${name}: outside the screen ${JSON.stringify([r.left, r.top, r.right, r.bottom])}`);
    else if (r.height < minTap) bad.push(`${name}: ${r.height} px tall`);
    else {
      const hit = document.elementFromPoint(r.left + Math.min(r.width / 2, 12), r.top + r.height / 2);
      if (!hit || !el.contains(hit)) bad.push(`${name}: covered by ${hit && hit.outerHTML.slice(0, 60)}`);
    }
  }
  return {count: controls.length, bad};
}"""
# The board's six boxes and the seats: drawn, inside the screen's width.
TABLE_DRAWN = """() => {
  const boxes = [...document.querySelectorAll(".bog [data-testid^=bog-box-]")].map((g) => g.getBoundingClientRect());
  const seats = [...document.querySelectorAll(".bog .bog-seat")].map((li) => li.getBoundingClientRect());
  const inside = (r) => r.width > 10 && r.height > 10 && r.left >= 0 && r.right <= innerWidth + 0.5;
  return {boxes: boxes.length, seats: seats.length, inside: [...boxes, ...seats].every(inside),
          page: document.documentElement.scrollWidth <= innerWidth};
}"""


def start_bog(page, seats, seed, bots=("easy", "medium", "hard"), deals=0, chips=None):
    """Seat 0 is ours, the others bots (levels in turn), the table seeded with ``seed``;
    ``deals`` agreed deals (0: no limit); ``chips`` to start with (None: the default)."""
    page.click("[data-open=bog]")
    form = seeded_form(page, 'form[data-form="setup"][data-game="bog"]', seed)
    form.locator('select[name="seat0_kind"]').select_option("human")
    for seat in range(1, 10):
        kind = f"bot:{bots[seat % len(bots)]}" if seat < seats else "none"
        form.locator(f'select[name="seat{seat}_kind"]').select_option(kind)
    form.locator('input[name="opt_deals"]').fill(str(deals))
    if chips is not None:
        form.locator('input[name="opt_start_chips"]').fill(str(chips))
    form.locator("[data-testid=start]").click()
    page.locator("#game-area .tb-table").wait_for()


def version(page):
    return int(page.locator("#game-area .tb-table").get_attribute("data-version"))


def phase(page):
    return page.locator("#game-area .bog").get_attribute("data-phase")


def assert_playable_screen(page):
    """On our turn: every control tappable without scrolling, the board and seats drawn."""
    controls = page.evaluate(CONTROLS_IN_VIEW, MIN_TAP)
    assert controls["count"] >= 1 and controls["bad"] == [], controls
    drawn = page.evaluate(TABLE_DRAWN)
    assert drawn["boxes"] == 6 and drawn["inside"] and drawn["page"], drawn


def tap_one(page, rng):
    """A legal tap for the phase: keep or throw out a card; bog (a picked stake) or go out;
    a raised card of the run."""
    area = page.locator("#game-area .bog")
    current = phase(page)
    if current == "exchange":
        cards = area.locator("[data-testid=bog-hand] button")
        keep = area.locator("[data-testid=bog-keep]")
        (cards.nth(rng.randrange(cards.count())) if rng.random() < 0.5 else keep).click()
    elif current == "bog":
        if area.locator("[data-testid=bog-bog]").count() and rng.random() < 0.6:
            if rng.random() < 0.5 and area.locator("[data-testid=bog-stake-up]:not([disabled])").count():
                stake = int(area.locator("[data-testid=bog-stake]").inner_text())
                area.locator("[data-testid=bog-stake-up]").click()  # a screen change: the stake goes up
                page.wait_for_function(STAKE_SHOWN, arg=stake + 1, timeout=TIMEOUT_MS)
            area.locator("[data-testid=bog-bog]").click()
        else:
            area.locator("[data-testid=bog-out]").click()
    else:
        cards = area.locator("[data-testid=bog-hand] button.cards-legal")
        cards.nth(rng.randrange(cards.count())).click()


def test_whole_game_of_three_deals_against_bots_by_taps_on_a_phone(browser, site, wait_engine):
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    context.add_init_script("if (location.protocol === 'http:') localStorage.setItem('taberna.speed', 'fast')")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(site.url)
    wait_engine(page)
    start_bog(page, seats=4, deals=3, seed=SEED, chips=300)  # nobody goes broke in three deals
    rng = random.Random(7)
    taps, reloaded, phases, deals = 0, False, set(), set()
    while wait_ready(page, TIMEOUT_MS, OUR_TURN) == "human":
        assert_playable_screen(page)
        phases.add(phase(page))
        deals.add(int(page.locator("#game-area .bog").get_attribute("data-deal")))
        if phase(page) == "run" and not reloaded and taps >= 3:
            screen = screen_html(page)
            page.reload()
            wait_engine(page)
            assert wait_ready(page, TIMEOUT_MS, OUR_TURN) == "human"
            assert screen_html(page) == screen
            reloaded = True
        before = version(page)
        tap_one(page, rng)
        page.wait_for_function(NEWER, arg=before, timeout=TIMEOUT_MS)
        taps += 1
    assert reloaded and taps >= 6 and {"bog", "run"} <= phases and deals == {1, 2, 3}, (taps, phases, deals)
    page.locator("#game-area [data-testid=game-over]").wait_for()
    page.locator("#game-area [data-testid=bog-standings]").wait_for()
    save = json.loads(saved_text(page))
    table = Table.from_dict(save)
    assert table.is_over() and table.state["result"]["deals"] == 3
    assert errors == []
    context.close()


# Pass-and-play: "handoff" (the phone goes to the next player), "human", "over" or false.
PASSING = """() => {
  const area = document.getElementById("game-area");
  if (area.hasAttribute("aria-busy")) return false;
  const status = area.dataset.status;
  if (status === "handoff" && area.querySelector("[data-testid=handoff-ready]")) return "handoff";
  if (status === "human" && area.querySelector(".bog [data-act]")) return "human";
  return status === "over" ? "over" : false;
}"""


@pytest.mark.parametrize("seats, width, height", [(4, 360, 740), (4, 1280, 800), (10, 360, 740), (10, 1280, 800)])
def test_every_phase_fits_the_screen_in_pass_and_play(browser, site, wait_engine, tmp_path, seats, width, height):
    """Every seat a player passing the phone, so every phase comes to the screen: the
    dealer's exchange, bogging, the run, the next deal with the last one's summary open.
    Each turn is hit-tested; the first of each phase is photographed (and must not be blank)."""
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=width < 600)
    page = context.new_page()
    page.goto(site.url)
    wait_engine(page)
    page.click("[data-open=bog]")
    form = seeded_form(page, 'form[data-form="setup"][data-game="bog"]', SEED + seats)
    for seat in range(10):
        form.locator(f'select[name="seat{seat}_kind"]').select_option("human" if seat < seats else "none")
    form.locator('input[name="opt_deals"]').fill("2")
    form.locator("[data-testid=start]").click()
    page.locator("#game-area .tb-table").wait_for()
    rng = random.Random(seats)
    shots = {}
    while True:
        status = page.wait_for_function(PASSING, timeout=TIMEOUT_MS).json_value()
        if status == "over":
            break
        if status == "handoff":
            page.click("[data-testid=handoff-ready]")
            page.wait_for_function("() => document.getElementById('game-area').dataset.status !== 'handoff'",
                                   timeout=TIMEOUT_MS)
            continue
        assert_playable_screen(page)
        deal, current = int(page.locator("#game-area .bog").get_attribute("data-deal")), phase(page)
        if deal == 2:
            if current == "run":
                break
            assert page.locator("#game-area [data-testid=bog-summary]").get_attribute("open") is not None
        key = f"{deal}-{current}"
        if key not in shots:
            shots[key] = page.screenshot(path=str(tmp_path / f"bog{seats}-{width}-{key}.png"))
        before = version(page)
        tap_one(page, rng)
        page.wait_for_function(NEWER, arg=before, timeout=TIMEOUT_MS)
    assert {"1-exchange", "1-bog", "1-run"} <= set(shots), sorted(shots)
    assert all(len(png) > 20_000 for png in shots.values())  # a drawn table, not a blank page
    context.close()


# One legal tap by whoever may act at ``version`` (cards the rules refuse now are marked
# aria-disabled and skipped), chosen and clicked in one step in the page.
CLICK_IF_TO_ACT = """([version, r]) => {
  const area = document.getElementById('game-area');
  const table = area.querySelector('.tb-table');
  if (!table || Number(table.dataset.version) !== version || area.hasAttribute('aria-busy')) return false;
  const pool = [...area.querySelectorAll('.bog [data-act]')].filter(
    (el) => !el.disabled && el.getAttribute('aria-disabled') !== 'true');
  if (!pool.length) return false;
  pool[Math.floor(r * pool.length)].click();
  return true;
}"""


def play_shared(host, pages, rng, limit=600, until=lambda: False):
    """Taps for whoever may act until the game is over (or ``until()``); returns how many."""
    played = 0
    while not host_over(host) and not until():
        for _ in range(600):
            current = host_version(host)  # a fair deal's steps move the table on by themselves
            if any(page.evaluate(CLICK_IF_TO_ACT, [current, rng.random()]) for page in pages):
                break
            if host_over(host) or until():  # the deal's check, done by the devices, ended it
                return played
            pages[0].wait_for_timeout(100)
        else:
            raise AssertionError("nobody could act")
        wait_past(host, current)
        played += 1
        assert played < limit
    return played


def test_shared_table_each_guest_receives_only_its_own_hand(phones, site, wait_engine):
    """Ana hosts one deal for Bruno and Carla (invite links, no relay); afterwards every state
    message each guest's phone received equals the host's view of that guest's seat (its
    hand, the others' card counts) at that version."""
    rng = random.Random(9)
    host, bruno, carla = phones(), phones(), phones()
    open_lobby(host, site.url, wait_engine)
    host.select_option("#friends-game", "bog")
    host.click("[data-testid=friends-create]")
    form = seeded_form(host, 'form[data-form="setup"][data-shared="1"]', SEED)
    for seat in range(1, 10):
        form.locator(f'select[name="seat{seat}_kind"]').select_option("remote" if seat <= 2 else "none")
    form.locator('input[name="seat0_name"]').fill("Ana")
    form.locator('input[name="opt_deals"]').fill("1")
    form.locator("[data-testid=start]").click()
    host.locator("[data-testid=room-code]").wait_for()
    join_by_invite(host, bruno, 1, "Bruno", wait_engine)
    join_by_invite(host, carla, 2, "Carla", wait_engine)
    host.click("[data-testid=net-start]")
    assert play_shared(host, [host, bruno, carla], rng) > 10
    for page, seat in ((bruno, 1), (carla, 2)):
        page.locator("#game-area [data-testid=game-over]").wait_for()
        assert check_secrecy(host, page, seat) > 5
        assert page.context.errors == []


def test_two_phones_and_a_bot_play_three_fair_deals_and_the_host_reads_only_what_is_shown(phones, site, wait_engine, tmp_path):
    """Ana's phone hosts Bruno and a bot for three deals dealt by the devices: Bruno's hand
    stays sealed on the host's table while he holds it, his cards reach the host's page only
    in his own exchange, showing and plays, and each deal's check finds nothing on either phone."""
    rng = random.Random(24)
    host, bruno = phones(), phones()
    open_lobby(host, site.url, wait_engine)
    create_fair_table(host, "bog", ["remote", "bot"], {"deals": "3"})
    join_by_invite(host, bruno, FRIEND, "Bruno", wait_engine)
    connected(host, FRIEND)
    host.click("[data-testid=net-start]")
    bruno.locator("#game-area .bog [data-testid=bog-hand] [aria-label]").first.wait_for()
    table, saved = host_table(host), json.loads(saved_text(host, "host"))
    assert all(is_sealed(card) for card in table.state["hands"][FRIEND])
    assert FRIEND not in [entry["seat"] for entry in saved["held"]]  # the host's device has not Bruno's keys
    play_shared(host, [host, bruno], rng, until=lambda: bruno.locator("#game-area [data-phase=run]").count() > 0)
    screenshots(bruno, tmp_path, "bog-fair-run", centre="#game-area [data-testid=bog-board]")
    assert play_shared(host, [host, bruno], rng) > 3
    bruno.locator("#game-area [data-testid=game-over]").wait_for()
    screenshots(bruno, tmp_path, "bog-fair-over")
    table = host_table(host)
    assert table.state["result"]["deals"] == 3 and table.state["fair"]["verdict"] is None
    assert [e["action"]["type"] for e in table.log].count("lock") >= 3 * 2  # three deals, each locked by every seat
    for message in protocol_messages(host.evaluate("window.__raw"), "intent", "intent_then"):
        for action in (message["action"], message.get("then") or {}):
            assert not {"card", "cards"} & set(action) or action["type"] in ("exchange", "play", "show"), action
    for page in (host, bruno):
        assert page.locator("[data-testid=fair-verdict]").count() == 0 and page.context.errors == []
    assert bruno.locator("[data-testid=fair-evidence]").count() == 0
    host.click("#back")
    stakes_reachable_under_a_verdict(host, tmp_path)


def host_save_with_a_verdict(table_id="VERDICT", seats=3, seed=1) -> dict:
    """A fair Bog table's host save (Ana's seat, Bruno's device, bots) whose deal's check named
    Ana's false "not I", at the next deal's stakes with Ana to stake: the verdict stays. The
    devices' secrets from a counter: the same deals on every run."""
    bot = {"kind": "bot", "name": "Bot", "level": "easy"}
    numbers = iter(range(1, 1 << 30))
    with mock.patch("pyengine.core.fair.new_secret", lambda: f"{next(numbers):064x}"):
        host = Host.create("bog", {}, [{"kind": "human", "name": "Ana"}, {"kind": "remote", "name": "Bruno"}]
                           + [dict(bot, name=f"Bot {n}") for n in range(2, seats)], f"{seed:064x}", table_id, fair=True)
        net = MemoryNetwork(host, 1_000)
        net.add_guest("bruno", Guest(table_id, "Bruno", seat=1))
        net.host_says(host.start())
        net.run()
        rng, cheated = Rng(seed), False
        while not (cheated and host.table.state["phase"] == "bog" and host.table.to_act() == [0]):
            table = host.table
            seat = table.to_act()[0]
            if table.seats[seat]["kind"] == "bot":
                net.host_says(host.play_bot())
            elif seat == 0:
                legal = table.view(0)["legal"]
                asked = table.game.run_turn(table.state).get("ask") if table.state["phase"] == "run" else None
                cheat = not cheated and asked is not None and legal[0].get("card") == asked
                cheated = cheated or cheat
                net.host_says(host.act(0, {"type": "pass"} if cheat else legal[rng.below(len(legal))]))
            else:
                legal = net.guests["bruno"].view["legal"]
                net.guest_says("bruno", net.guests["bruno"].intend(legal[rng.below(len(legal))], net.now))
            net.run()
    assert host.table.state["fair"]["verdict"]["code"] == "bog.false_pass"
    return {**host.snapshot(), "friends": [1], "room": None}


def stakes_reachable_under_a_verdict(page, tmp_path):
    """A hand's verdict stays through the next deal: on the host's phone (in the lobby) it folds
    to one line (a tap opens it), so that the stakes stay on screen, nothing over them, on Ana's turn."""
    save = host_save_with_a_verdict()
    record = {"id": "host:VERDICT", "kind": "host", "table": "VERDICT", "game": "bog", "via": "invite",
              "players": [seat["name"] for seat in save["table"]["seats"]], "over": False,
              "updated": page.evaluate("() => Date.now()"), "text": json.dumps(save)}
    restore_records(page, [record])
    page.locator('#saved-list li.saved-game[data-save="host:VERDICT"] [data-testid=continue]').click()
    verdict = page.locator("#game-area [data-testid=fair-verdict]")
    page.locator("#game-area [data-testid=bog-bog]").wait_for()

    def stakes_in_view(page):
        fits = page.evaluate(CONTROLS_IN_VIEW, MIN_TAP)
        assert fits["count"] > 3 and fits["bad"] == [], fits

    screenshots(page, tmp_path, "bog-fair-verdict", stakes_in_view)
    assert verdict.bounding_box()["height"] < 2 * MIN_TAP
    opened = verdict.evaluate("(verdict) => { verdict.open = true; return verdict.getBoundingClientRect().height; }")
    assert opened > 2 * MIN_TAP and "said not to hold" in verdict.inner_text()  # its whole text, once tapped
