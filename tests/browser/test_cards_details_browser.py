"""The card games' details a player meets on a 360 x 740 phone (issue 27), hit-tested in
Chromium: Bog's seat chips show whole names, and "Your best" is not hidden by the cards
lifted under it. One seeded table, reached in one deal's first calls."""

from tests.browser.test_bog_browser import SEED, start_bog
from tests.browser.test_friends_browser import open_lobby
from tests.browser.waits import wait_ready

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


def test_bog_seat_names_whole_and_your_best_above_the_lifted_cards(page, site, wait_engine):
    open_lobby(page, site.url, wait_engine)
    start_bog(page, 5, SEED)  # five chips in a row: the narrowest; we deal, and hold a mitsi
    wait_ready(page, TIMEOUT_MS, "[data-testid=bog-keep]")
    page.click("[data-testid=bog-keep]")
    wait_ready(page, TIMEOUT_MS, OUR_CALL)
    assert page.evaluate(NAMES_CUT) == []
    best = page.evaluate(BEST_COVERED)
    assert best["lifted"] >= 3 and best["covered"] == [], best
