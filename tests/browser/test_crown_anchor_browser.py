"""Crown and Anchor in Chromium: from the lobby, ten rolls against a bot banker and two bot
punters, every stake placed by clicks; after each roll the human's chips must move exactly as
the dice on screen say and the chips on the table must add up; a reload half-way resumes the
same table; the final save replays in CPython."""

import json
import os
import random
from pathlib import Path

from buildtools.po import read_po
from pyengine.i18n import translate
from pyengine.core.table import Table
from pyengine.games.crown_anchor.rules import SYMBOLS
from tests.browser.pages import BOTS_INSTANT
from tests.browser.saves import saved_text
from tests.browser.waits import NEWER, seeded_form, tap_move, wait_ready

TIMEOUT_MS = 60_000
ROLLS = 10
START_CHIPS = 100
SEATS = 4
CATALOG = read_po(Path(__file__).resolve().parents[2] / "pyengine/games/crown_anchor/i18n/crown_anchor.en.po")
# The dice are drawn as images labelled with the symbol's name: read them back to symbols.
SYMBOL_OF = {CATALOG[f"crown_anchor.sym.{s}"]: s for s in SYMBOLS}


# What the screen says, in one read: seats table, dice, history, version.
SNAPSHOT = """() => {
  const area = document.getElementById("game-area");
  const cell = (td) => { const c = td.cloneNode(true); c.querySelector("small")?.remove(); return c.textContent.trim(); };
  const seats = [...area.querySelectorAll("[data-testid=ca-seats] tbody tr")].map((tr) => {
    const td = tr.querySelectorAll("td");
    return {
      seat: +tr.dataset.seat,
      you: tr.classList.contains("crown_anchor-you"),
      chips: td[1].textContent.trim(),
      staked: td[2].textContent.trim(),
      delta: cell(td[3]),
      unpaid: td[3].querySelector("small")?.textContent || "",
    };
  });
  const dice = area.querySelector("[data-testid=ca-dice]");
  const labels = (el) => [...el.querySelectorAll("svg")].map((s) => s.getAttribute("aria-label"));
  return {
    version: +area.querySelector(".tb-table").dataset.version,
    seats,
    roll: dice ? +dice.dataset.roll : 0,
    dice: dice ? labels(dice) : [],
    history: [...area.querySelectorAll("[data-testid=ca-history] li")].map(labels),
  };
}"""


def snapshot(page):
    snap = page.evaluate(SNAPSHOT)
    snap["dice"] = [SYMBOL_OF[label] for label in snap["dice"]]
    snap["history"] = [[SYMBOL_OF[label] for label in roll] for roll in snap["history"]]
    return snap


def number(text):
    """A number as the seats table writes it: "−3" with a real minus, "" for nothing."""
    return int(text.replace("−", "-")) if text else 0


def unpaid(text):
    """The "(n unpaid)" note under a delta, or 0."""
    digits = "".join(ch for ch in text if ch.isdigit())
    return int(digits) if digits else 0


def me(snap):
    (row,) = [row for row in snap["seats"] if row["you"]]
    return row


def assert_chips_conserved(snap):
    """Stacks plus chips on the layout: nothing is created or lost."""
    total = sum(number(r["chips"]) + number(r["staked"]) for r in snap["seats"])
    assert total == SEATS * START_CHIPS, snap


def start_table(page):
    """A human, a steady bot (the only volunteer, so the banker) and two cautious punters."""
    page.click("[data-open=crown_anchor]")
    form = page.locator('form[data-form="setup"][data-game="crown_anchor"]')
    form.wait_for()
    form.locator('select[name="seat0_kind"]').select_option("human")
    form.locator('select[name="seat1_kind"]').select_option("bot:steady")
    form.locator('select[name="seat2_kind"]').select_option("bot:cautious")
    form.locator('select[name="seat3_kind"]').select_option("bot:cautious")
    for seat in range(SEATS, 10):
        form.locator(f'select[name="seat{seat}_kind"]').select_option("none")
    form.locator('input[name="opt_volunteer"]').check()
    # The volunteer keeps the bank (it does not rotate) and pays the standard 1/2/3.
    form.locator('select[name="opt_bank"]').select_option("lot")
    form.locator('select[name="opt_payouts"]').select_option("standard")
    form.locator('input[name="opt_start_chips"]').fill(str(START_CHIPS))
    form.locator("[data-testid=start]").click()
    page.locator("#game-area .tb-table").wait_for()


def answer_volunteer(page):
    """Declines the bank whenever asked (at the start, or if a bank breaks)."""
    area = page.locator("#game-area")
    while wait_ready(page, TIMEOUT_MS) == "human" and area.locator("[data-testid=ca-volunteer-no]").count():
        tap_move(page, area.locator("[data-testid=ca-volunteer-no]"), TIMEOUT_MS)


def place_stakes(page, rng):
    """Picks a chip size by click, stakes on one or two symbols; returns {symbol: chips}."""
    area = page.locator("#game-area")
    size = rng.choice([1, 5])
    chip = area.locator(f"[data-testid=ca-chip-{size}]")
    chip.click()
    page.wait_for_function(
        "s => document.querySelector(`#game-area [data-testid=ca-chip-${s}]`)?.getAttribute('aria-pressed') === 'true'",
        arg=size,
        timeout=TIMEOUT_MS,
    )
    stakes = {}
    for _ in range(rng.randint(1, 2)):
        symbol = rng.choice(SYMBOLS)
        cell = area.locator(f"[data-testid=ca-cell-{symbol}]")
        added = cell.locator(".crown_anchor-add").last.inner_text().strip()
        assert added.startswith("+"), added
        tap_move(page, cell, TIMEOUT_MS)
        stakes[symbol] = stakes.get(symbol, 0) + int(added[1:])
        assert number(me(snapshot(page))["staked"]) == sum(stakes.values())
    return stakes


def expected_delta(stakes, dice):
    """Standard payouts: a symbol shown m times pays m:1, else the stake goes to the bank."""
    delta = 0
    for symbol, chips in stakes.items():
        shown = dice.count(symbol)
        delta += chips * shown if shown else -chips
    return delta


def test_ten_rolls_of_crown_and_anchor_against_bots(context, site, wait_engine):
    context.add_init_script(BOTS_INSTANT)
    page = context.new_page()
    page.goto(site.url)
    wait_engine(page)
    assert page.locator('[data-game="crown_anchor"]').get_attribute("data-playable") == "true"
    start_table(page)
    answer_volunteer(page)
    rng = random.Random(6)
    area = page.locator("#game-area")
    rolls = []
    reloaded = False
    while len(rolls) < ROLLS:
        assert wait_ready(page, TIMEOUT_MS) == "human"
        answer_volunteer(page)
        if len(rolls) == ROLLS // 2 and not reloaded:
            before = snapshot(page)
            seats_html = area.locator("[data-testid=ca-seats]").inner_html()
            page.reload()
            wait_engine(page)
            page.locator("#game-area .tb-table").wait_for()
            assert wait_ready(page, TIMEOUT_MS) == "human"
            assert snapshot(page) == before
            assert area.locator("[data-testid=ca-seats]").inner_html() == seats_html
            reloaded = True
        # Our turn to stake: never the banker's controls, always the layout.
        assert area.locator("[data-testid=ca-roll]").count() == 0
        start = snapshot(page)
        assert_chips_conserved(start)
        assert start["roll"] == len(rolls)
        chips_before = number(me(start)["chips"])
        assert number(me(start)["staked"]) == 0
        stakes = place_stakes(page, rng)
        mid = snapshot(page)
        assert number(me(mid)["chips"]) == chips_before - sum(stakes.values())
        assert_chips_conserved(mid)
        assert area.locator("[data-testid=ca-done]").inner_text().strip() == CATALOG["crown_anchor.done"].format(
            n=sum(stakes.values())
        )
        tap_move(page, area.locator("[data-testid=ca-done]"), TIMEOUT_MS)
        # The bots finish staking and the bot banker rolls; then it is our turn again.
        wait_ready(page, TIMEOUT_MS)
        answer_volunteer(page)
        after = snapshot(page)
        assert after["roll"] == len(rolls) + 1, after
        assert len(after["dice"]) == 3
        mine = me(after)
        shown = number(mine["delta"])
        assert shown == expected_delta(stakes, after["dice"]) - unpaid(mine["unpaid"]), (stakes, after)
        assert number(mine["chips"]) == chips_before + shown
        assert sum(number(r["delta"]) for r in after["seats"]) == 0, after
        assert_chips_conserved(after)
        rolls.append(after["dice"])
        assert after["history"] == list(reversed(rolls))
    assert reloaded
    final = snapshot(page)
    assert len(final["history"]) == ROLLS and final["history"] == list(reversed(rolls))
    fairness = area.locator("[data-testid=ca-fairness]")
    fairness.locator("summary").click()
    assert translate("en", "crown_anchor.rolls_seen", count=ROLLS, dice=3 * ROLLS) in fairness.inner_text()
    # The save on disk is the same table, and it replays in CPython to what the page showed.
    save = json.loads(saved_text(page))
    assert save["game"] == "crown_anchor"
    state = Table.from_dict(save).state
    assert state["rolls"] == ROLLS and state["history"] == rolls
    assert state["banker"] == 1 and me(final)["seat"] == 0
    assert state["chips"] == [number(row["chips"]) for row in final["seats"]]
    assert [sum(bets.values()) for bets in state["stakes"]] == [number(row["staked"]) for row in final["seats"]]
    assert sum(state["chips"]) + sum(sum(bets.values()) for bets in state["stakes"]) == SEATS * START_CHIPS
    assert context.recorder.foreign(site.origin) == []
    assert context.recorder.errors == []


# Where a control's centre is, if a tap there reaches it (nothing covers it), else null.
TAP_POINT = """el => {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return hit && hit.closest("[data-act]") === el ? [x, y] : null;
}"""


def test_a_stake_tapped_while_the_bots_are_still_to_stake_lies_on_the_layout(context, site, wait_engine, tmp_path):
    """Stakes are simultaneous: the layout offers them at once after a roll, and a tap there
    is taken even before the bot punters have staked (it used to be refused as "not your
    turn"). The clock stands still, so no bot moves while we tap."""
    page = context.new_page()
    page.clock.install()
    page.goto(site.url)
    wait_engine(page)
    page.click("[data-open=crown_anchor]")
    form = seeded_form(page, 'form[data-form="setup"][data-game="crown_anchor"]', 3)
    form.locator('select[name="seat0_kind"]').select_option("bot:steady")  # the fixed bank
    form.locator('select[name="seat1_kind"]').select_option("human")
    form.locator('select[name="seat2_kind"]').select_option("bot:cautious")
    form.locator('select[name="seat3_kind"]').select_option("bot:reckless")
    for seat in range(SEATS, 10):
        form.locator(f'select[name="seat{seat}_kind"]').select_option("none")
    form.locator('select[name="opt_bank"]').select_option("fixed")
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    form.locator("[data-testid=start]").click()
    page.locator("#game-area .tb-table").wait_for()
    area = page.locator("#game-area")
    assert area.get_attribute("data-status") == "bot"  # the bot punters are to stake
    assert "place your stakes" in area.inner_text().lower()
    cell = area.locator("[data-testid=ca-cell-crown]")
    point = cell.evaluate(TAP_POINT)
    assert point, "the crown's stake button is covered"
    page.touchscreen.tap(*point)
    page.wait_for_function(NEWER, arg=0)
    assert area.get_attribute("data-status") == "bot"  # taken before any bot staked
    assert number(me(snapshot(page))["staked"]) == 1
    assert cell.locator("xpath=..").locator(".crown_anchor-stake").inner_text().strip() == "1"
    assert json.loads(saved_text(page))["log"] == [{"seat": 1, "action": {"type": "bet", "symbol": "crown", "chips": 1}}]
    folder = Path(os.environ.get("CROWN_ANCHOR_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "crown_anchor-stake-before-bots.png"))
    assert context.recorder.errors == []
