"""The card games' details a player meets on a 360 x 740 phone (issue 27), hit-tested in
Chromium: Bog's seat chips show whole names, and "Your best" is not hidden by the cards
lifted under it (one seeded table, reached in one deal's first calls); Botifarra's bidding
stays in view once the cards are played (reached in a hand's first trick). Both tables are
started from the lobby of one page: Pyodide starts once for the module."""

import pytest

from tests.browser.pages import BOTS_INSTANT, loaded_page
from tests.browser.test_bog_browser import SEED, start_bog
from tests.browser.test_botifarra_browser import start_game
from tests.browser.waits import ANY_TURN, tap_move, to_lobby, wait_ready

TIMEOUT_MS = 90_000
OUR_CALL = "[data-testid=bog-bog], [data-testid=bog-out]"

# Every seat chip's name: nothing of it cut off (its box holds its whole text), the chip
# inside the screen and the name itself at its centre.
NAMES_CUT = """() => {
  const bad = [];
  for (const name of document.querySelectorAll("#game-area .bog-seat-name")) {
    name.scrollIntoView({block: "center"});
    const r = name.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (name.scrollWidth > name.clientWidth + 0.5 || name.scrollHeight > name.clientHeight + 0.5)
      bad.push(`${name.textContent}: ${name.scrollWidth}x${name.scrollHeight} in ${name.clientWidth}x${name.clientHeight}`);
    else if (r.left < 0 || r.right > innerWidth + 0.5 || !name.closest("li").contains(hit))
      bad.push(`${name.textContent}: outside the screen or covered`);
  }
  return bad;
}"""
# "Your best": points spread over its text (left to right, upper to lower part of the line)
# must hit the hint itself, not a lifted card of the fan below it.
BEST_COVERED = """() => {
  const best = document.querySelector("#game-area .bog-best");
  best.scrollIntoView({block: "center"});
  const range = document.createRange();
  range.selectNodeContents(best);
  const text = range.getBoundingClientRect();
  const covered = [];
  for (let i = 1; i < 10; i++) {
    for (const part of [0.2, 0.5, 0.85]) {
      const hit = document.elementFromPoint(text.left + text.width * i / 10, text.top + text.height * part);
      if (!best.contains(hit)) covered.push(`${i}/10, ${part}: ${hit && hit.outerHTML.slice(0, 50)}`);
    }
  }
  return {lifted: document.querySelectorAll("#game-area .bog-hand .cards-selected").length, covered};
}"""


@pytest.fixture(scope="module")
def phone(browser, site, wait_engine):
    with loaded_page(browser, site, wait_engine, BOTS_INSTANT) as page:
        yield page


@pytest.fixture
def page(phone):
    """``phone`` back in its lobby (a test before may have left a table on screen)."""
    to_lobby(phone)
    return phone


def test_bog_seat_names_whole_and_your_best_above_the_lifted_cards(page):
    start_bog(page, 5, SEED)  # five chips in a row: the narrowest; we deal, and hold a mitsi
    wait_ready(page, TIMEOUT_MS, "[data-testid=bog-keep]")
    page.click("[data-testid=bog-keep]")
    wait_ready(page, TIMEOUT_MS, OUR_CALL)
    assert page.evaluate(NAMES_CUT) == []
    best = page.evaluate(BEST_COVERED)
    assert best["lifted"] >= 3 and best["covered"] == [], best


# The bidding line: inside the screen at the top of the page, and itself at its centre (the
# dock kept at the bottom of the screen does not cover it).
BIDDING_SEEN = """() => {
  window.scrollTo(0, 0);
  const line = document.querySelector("#game-area [data-testid=bt-bidding]");
  if (!line) return "no bidding line";
  const r = line.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth + 0.5) return "outside the screen";
  return line.contains(hit) ? line.textContent : `covered by ${hit && hit.outerHTML.slice(0, 60)}`;
}"""


def test_botifarra_bidding_stays_in_view_during_the_hand(page):
    start_game(page, [("human", "Anna"), ("bot:easy", "Berta"), ("bot:easy", "Carles"), ("bot:easy", "Dolors")], {})
    choice = page.locator("#game-area [data-testid=bt-trump-o], #game-area [data-testid=bt-pass]")
    while True:  # our choice or doubling answers (if asked), until our first card
        wait_ready(page, TIMEOUT_MS, ANY_TURN)
        if page.locator("#game-area .botifarra").get_attribute("data-phase") == "play":
            break
        tap_move(page, choice.first, TIMEOUT_MS)
    seen = page.evaluate(BIDDING_SEEN)
    assert seen.startswith("Bidding:") and seen.count(":") >= 3, seen  # the choice and an answer to contro
