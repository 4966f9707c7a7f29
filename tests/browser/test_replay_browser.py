"""A finished game replayed in Chromium on a 360x740 phone: two bots play Perudo to its end on
one device; "Replay" opens it; the buttons step it from the set-up to its end, where the
board is the table's own final screen; a reload comes back to the same step; the record,
damaged, is refused in the lobby with its line, and whole it imports. The forward button
is in reach of a thumb, axe-core finds nothing, and the screenshots go to
``$TABERNA_SCREENS`` (``tests/browser/test_screens_browser.py``)."""

import json

from tests.browser.test_details_browser import in_reach, no_axe_violation, screenshots
from tests.browser.test_screens_browser import PHONE, shots  # noqa: F401 (shots: the screenshots folder fixture)
from tests.browser.waits import seeded_form

TIMEOUT_MS = 90_000
# The game's own screen, motion aside: the table's (before its game-over box) or the replay's.
BOARD = """(where) => {
  const board = document.querySelector(where).cloneNode(true);
  for (const el of board.querySelectorAll(".tb-moving")) el.classList.remove("tb-moving");
  return board.outerHTML;
}"""
TABLE_BOARD = "#game-area .tb-table > :first-child"
REPLAY_BOARD = "#game-area [data-testid=replay-board] > :first-child"
REPLAY = "#game-area [data-testid=replay]"


def step_of(page) -> int:
    return int(page.locator(REPLAY).get_attribute("data-step"))


def tap_step(page, testid) -> None:
    """Taps a replay button and waits for the step it leads to."""
    button = page.locator(f"#game-area [data-testid={testid}]")
    to = json.loads(button.get_attribute("data-ui"))["step"]
    button.click()
    page.wait_for_function("(to) => +document.querySelector('#game-area [data-testid=replay]')?.dataset.step === to", arg=to)


def test_a_finished_game_replays_step_by_step_to_the_tables_final_screen(browser, site, wait_engine, axe_source, shots):  # noqa: F811
    context = browser.new_context(viewport=PHONE, has_touch=True, reduced_motion="reduce")
    context.add_init_script("localStorage.setItem('taberna.speed', 'fast')")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto(site.url)
        wait_engine(page)
        page.click("[data-open=perudo]")
        form = seeded_form(page, "form[data-form=setup]", 2)
        for seat, kind in enumerate(("bot:easy", "bot:easy", "none", "none")):
            form.locator(f"select[name=seat{seat}_kind]").select_option(kind)
        form.locator("button[type=submit]").click()
        page.locator("#game-area [data-testid=game-over]").wait_for()
        final = page.evaluate(BOARD, TABLE_BOARD)

        page.click("#game-area [data-testid=replay-open]")
        page.locator(REPLAY).wait_for()
        last = int(page.locator(REPLAY).get_attribute("data-last"))
        assert step_of(page) == last > 10 and page.evaluate(BOARD, REPLAY_BOARD) == final
        tap_step(page, "replay-first")
        assert page.locator("#game-area [data-testid=replay-step]").inner_text().startswith(f"Step 0 of {last}")
        in_reach(page, "#game-area [data-testid=replay-forward]")
        in_reach(page, "#game-area [data-testid=replay-slider]")
        no_axe_violation(page, axe_source, "a replay")
        screenshots(page, shots, "replay-start")
        page.locator("#game-area [data-testid=replay-slider]").fill("3")
        page.wait_for_function("() => +document.querySelector('#game-area [data-testid=replay]').dataset.step === 3")
        while step_of(page) < last:
            tap_step(page, "replay-forward")
        assert page.locator("#game-area [data-testid=replay-forward]").is_disabled()
        assert page.evaluate(BOARD, REPLAY_BOARD) == final
        screenshots(page, shots, "replay-end")

        tap_step(page, "replay-back")
        page.reload()
        wait_engine(page)
        page.locator(REPLAY).wait_for()
        assert step_of(page) == last - 1

        text = json.loads(page.evaluate("() => localStorage.getItem('taberna.replay')"))["text"]
        page.click("#back")
        damaged = text.replace("Game perudo", "Game chess")
        page.fill("#import-text", damaged)
        page.click("[data-testid=import-go]")
        page.locator("[data-testid=import-refusal]").wait_for()
        assert page.locator("[data-testid=import-refusal]").inner_text().startswith("Line 2:")
        assert page.locator("#lobby").is_visible()
        page.fill("#import-text", text)
        page.click("[data-testid=import-go]")
        page.locator(REPLAY).wait_for()
        assert step_of(page) == last and page.evaluate(BOARD, REPLAY_BOARD) == final
    finally:
        context.close()
