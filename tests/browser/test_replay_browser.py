"""A finished game replayed in Chromium on a 360x740 phone: two bots play Perudo to its end on
one device; its log tells every step; "Replay" opens it; the buttons step it from the set-up
to its end, where the board is the table's own final screen; a reload comes back to the same
step; the record, damaged, is refused in the lobby with its line, and whole it imports. The
game is among "Your games" and counted in the statistics, and replays from there; its share
link, opened in a fresh context, shows the same final position, and a mutated link is
refused in the lobby with why. At a player's turn the open log covers none of the action
buttons. The forward button is in reach of a thumb, axe-core finds nothing on the log,
replay, games and statistics screens, and the screenshots go to ``$TABERNA_SCREENS``
(``tests/browser/test_screens_browser.py``)."""

import json

from tests.browser.pages import BOTS_INSTANT
from tests.browser.test_details_browser import in_reach, no_axe_violation, screenshots
from tests.browser.test_screens_browser import DESKTOP, PHONE, shots  # noqa: F401 (shots: the screenshots folder fixture)
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
# Every action button of the game on screen that the open log covers, or that it overlaps.
COVERED = """() => {
  const log = document.querySelector("#game-area [data-testid=log-panel]").getBoundingClientRect();
  return [...document.querySelectorAll("#game-area [data-act]")].filter((button) => {
    button.scrollIntoView({block: "center"});
    const r = button.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const logBox = document.querySelector("#game-area [data-testid=log-panel]").getBoundingClientRect();
    const overlaps = r.left < logBox.right && logBox.left < r.right && r.top < logBox.bottom && logBox.top < r.bottom;
    return !(hit && button.contains(hit)) || overlaps;
  }).map((button) => button.outerHTML.slice(0, 80));
}"""


def phone_context(browser, fast: bool = False, **options):
    """A phone's context without motion (``fast``: its bots at the "instant" speed, no pauses)."""
    context = browser.new_context(viewport=PHONE, has_touch=True, reduced_motion="reduce", **options)
    if fast:
        context.add_init_script(BOTS_INSTANT)
    context.set_default_timeout(TIMEOUT_MS)
    return context


def play_to_the_end(page) -> None:
    """Plays the player's Perudo seat against a bot to the end, the quickest way: Dudo on
    every bid, the first bid offered to open."""
    ready = """() => document.querySelector('#game-area [data-testid=game-over]')
        || document.querySelector('#game-area .tb-table[data-status=human] [data-act]')"""
    while True:
        page.wait_for_function(ready)
        if page.locator("#game-area [data-testid=game-over]").count():
            return
        version = page.locator("#game-area .tb-table").get_attribute("data-version")
        dudo = page.locator("#game-area [data-testid=dudo]")
        (dudo if dudo.count() else page.locator("#game-area [data-act]").first).click()
        page.wait_for_function("(v) => document.querySelector('#game-area .tb-table')?.dataset.version !== v", arg=version)


def shot_of(page, folder, name, selector):
    """``selector`` scrolled into view, at phone and desktop size (back to the phone after)."""
    for size, label in ((PHONE, "360"), (DESKTOP, "1280")):
        page.set_viewport_size(size)
        page.locator(selector).scroll_into_view_if_needed()
        page.screenshot(path=str(folder / f"{name}-{label}.png"))
    page.set_viewport_size(PHONE)


def step_of(page) -> int:
    return int(page.locator(REPLAY).get_attribute("data-step"))


def tap_step(page, testid) -> None:
    """Taps a replay button and waits for the step it leads to."""
    button = page.locator(f"#game-area [data-testid={testid}]")
    to = json.loads(button.get_attribute("data-ui"))["step"]
    button.click()
    page.wait_for_function("(to) => +document.querySelector('#game-area [data-testid=replay]')?.dataset.step === to", arg=to)


def test_a_finished_game_replays_step_by_step_to_the_tables_final_screen(browser, site, wait_engine, axe_source, shots):  # noqa: F811
    context = phone_context(browser, fast=True)
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
        steps = int(page.locator("#game-area .tb-table").get_attribute("data-version"))

        page.click("#game-area [data-testid=log-toggle]")
        log = page.locator("#game-area [data-testid=log-panel]")
        log.wait_for()
        assert log.locator(".tb-log-entry").count() == steps and "the cups are lifted" in log.inner_text()
        no_axe_violation(page, axe_source, "the game log")
        shot_of(page, shots, "log-over", "#game-area [data-testid=log-panel]")

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

        page.click("#game-area [data-testid=replay-share-open]")
        page.locator("#game-area [data-testid=replay-share]").wait_for()
        link = page.locator("#game-area [data-testid=replay-link]").input_value()
        assert link.startswith(site.url) and "#replay=" in link
        assert page.locator("#game-area [data-testid=replay-share] svg.tb-qr").count() == 1  # a short game: it fits
        no_axe_violation(page, axe_source, "a replay's share panel")
        shot_of(page, shots, "replay-share", "#game-area [data-testid=replay-share]")

        page.click("#back")
        page.click("[data-testid=open-games]")
        page.locator("#game-area [data-testid=games-screen-games]").wait_for()
        assert page.locator("#game-area [data-testid=games-row]").count() == 1
        no_axe_violation(page, axe_source, "your games")
        screenshots(page, shots, "your-games")
        page.click("#game-area [data-testid=games-replay]")
        page.locator(REPLAY).wait_for()
        tap_step(page, "replay-first")
        page.locator("#game-area [data-testid=replay-slider]").fill(str(last))
        page.wait_for_function("(to) => +document.querySelector('#game-area [data-testid=replay]').dataset.step === to", arg=last)
        assert page.evaluate(BOARD, REPLAY_BOARD) == final
    finally:
        context.close()

    fresh = phone_context(browser, fast=True)  # nothing stored but the bots' pace
    page = fresh.new_page()
    try:
        page.goto(link)
        wait_engine(page)
        page.locator(REPLAY).wait_for()
        assert step_of(page) == last and page.evaluate(BOARD, REPLAY_BOARD) == final

        page.click("#back")
        page.click("[data-open=perudo]")
        form = seeded_form(page, "form[data-form=setup]", 3)
        for seat, kind in enumerate(("human", "bot:easy", "none", "none")):
            form.locator(f"select[name=seat{seat}_kind]").select_option(kind)
        form.locator("button[type=submit]").click()
        page.locator("#game-area .tb-table[data-status=human] [data-act]").first.wait_for()
        page.click("#game-area [data-testid=log-toggle]")
        page.locator("#game-area [data-testid=log-panel]").wait_for()
        assert page.evaluate(COVERED) == []
        shot_of(page, shots, "log-playing", "#game-area [data-testid=log-panel]")
        play_to_the_end(page)
        page.click("#game-area [data-nav=lobby]")
        page.click("[data-testid=open-stats]")
        stats = page.locator("#game-area [data-testid=stats-perudo]")
        stats.wait_for()
        assert stats.locator("tbody tr").first.inner_text().split() == ["All", "games", "1", "0"]  # the bot won
        no_axe_violation(page, axe_source, "the statistics")
        screenshots(page, shots, "statistics")

        payload = link.split("#replay=", 1)[1]
        mutated = payload[:40] + ("B" if payload[40] != "B" else "C") + payload[41:]
        page.goto("about:blank")
        page.goto(f"{site.url}#replay={mutated}")
        wait_engine(page)
        refusal = page.locator("[data-testid=import-refusal]")
        refusal.wait_for()
        assert refusal.inner_text().startswith("This link does not hold") and page.locator("#lobby").is_visible()
    finally:
        fresh.close()
