"""Motion that explains and sounds (pyengine/ui/motion.py, site/screen.js, site/sound.js).

* A Lasca column that has just moved plays its motion when motion is allowed, and nothing
  runs under ``prefers-reduced-motion``. Timing plays no part: an observer notes, as the page
  marks an element ``tb-moving``, which animation its computed style names and how many run.
* Sounds are off until turned on in Settings, stay on after a reload, and then the page asks
  for the right cue: chips for a stake, dice for a roll, a chime for the player's turn (the
  "taberna:sound" events the audio layer announces, not the audio).

Both start from the lobby of one page: Pyodide starts once for the module.
"""

import pytest

from tests.browser.pages import loaded_page
from tests.browser.test_crown_anchor_browser import answer_volunteer, start_table
from tests.browser.test_lasca_browser import start_lasca
from tests.browser.waits import tap_move, tap_view, to_lobby, wait_ready

TIMEOUT_MS = 60_000

# Notes each element the page sets moving: its motion key, animation name and animations.
OBSERVE = """() => {
  window.moved = [];
  new MutationObserver((changes) => {
    for (const change of changes) {
      const el = change.target;
      if (!el.classList.contains("tb-moving") || window.moved.some((m) => m.el === el)) continue;
      window.moved.push({el, key: el.dataset.motion, name: getComputedStyle(el).animationName,
                         running: el.getAnimations().length});
    }
  }).observe(document.getElementById("game-area"), {subtree: true, attributes: true, attributeFilter: ["class"]});
}"""
# What the observer noted of moved columns (motion keys ply-<n>) since it was last cleared.
MOVED_COLUMNS = """() => window.moved.filter((m) => m.key.startsWith("ply-")).map(({key, name, running}) => ({key, name, running}))"""


def square(page, name):
    return page.locator(f"#game-area .lasca-sq[aria-label^='{name}:']")


def move_c3_d4(page):
    """White's opening step, tapped (the column, then its landing square)."""
    tap_view(page, square(page, "c3"), TIMEOUT_MS)
    tap_move(page, square(page, "d4"), TIMEOUT_MS)
    page.wait_for_function(f"() => ({MOVED_COLUMNS})().length > 0", timeout=TIMEOUT_MS)
    return page.evaluate(MOVED_COLUMNS)


@pytest.fixture(scope="module")
def phone(browser, site, wait_engine):
    """The module's page (``pages.loaded_page``), motion allowed."""
    with loaded_page(browser, site, wait_engine, reduced_motion="no-preference") as page:
        yield page


@pytest.fixture
def page(phone):
    """``phone`` in its lobby, motion allowed again (a test before may have asked for less)."""
    phone.emulate_media(reduced_motion="no-preference")
    to_lobby(phone)
    return phone


def test_a_moved_column_moves_unless_reduced_motion_is_asked(page):
    start_lasca(page)
    page.evaluate(OBSERVE)
    moved = move_c3_d4(page)
    assert all(m["name"] == "motion-arrive" and m["running"] > 0 for m in moved), moved

    assert wait_ready(page, TIMEOUT_MS, ".lasca-sq:not([disabled])") == "human"
    page.emulate_media(reduced_motion="reduce")
    tap_view(page, page.locator("#game-area [data-testid=undo]"), TIMEOUT_MS)  # c3-d4 again
    page.evaluate("() => { window.moved.length = 0; }")
    moved = move_c3_d4(page)
    assert all(m["name"] == "none" and m["running"] == 0 for m in moved), moved


# Notes every cue the audio layer is asked to play.
LISTEN = """() => {
  window.cues = [];
  document.addEventListener("taberna:sound", (event) => window.cues.push(event.detail));
}"""


def test_sounds_are_off_until_turned_on_then_a_stake_and_a_roll_are_heard(page, wait_engine):
    page.click("#settings summary")
    page.select_option("#speed", "fast")  # the bots at the fast pace
    assert not page.locator("#sound").is_checked()
    page.locator("#sound").check()
    page.reload()
    wait_engine(page)
    assert page.locator("#sound").is_checked() and page.evaluate("() => localStorage.getItem('taberna.sound')") == "1"
    page.evaluate(LISTEN)
    start_table(page)
    answer_volunteer(page)
    assert wait_ready(page, TIMEOUT_MS) == "human"
    page.evaluate("() => { window.cues.length = 0; }")
    tap_move(page, page.locator("#game-area [data-testid=ca-cell-crown]"), TIMEOUT_MS)
    assert set(page.evaluate("() => window.cues")) == {"chips"}  # ours (and any bot's beside it)
    tap_move(page, page.locator("#game-area [data-testid=ca-done]"), TIMEOUT_MS)
    page.wait_for_function("() => window.cues.includes('dice') && window.cues.includes('turn')", timeout=TIMEOUT_MS)
    cues = page.evaluate("() => window.cues")
    assert set(cues) == {"chips", "dice", "turn"} and cues.index("dice") < cues.index("turn"), cues
