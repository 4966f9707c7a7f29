"""Every game on record, in Chromium on a 360x740 phone, on one page: bots finish a game of
each of the six games with their shortest options; each is opened from "Your games" (which
says when it finished), stepped from its set-up to its end, where the board is the table's
own final screen, and shared; in a fresh context (nothing stored) each share link shows the
same final position, the next ones opened in the same tab. The all-seeing spectator lists
every seat's hand. A guest at a fair table has the game log too, and keeps the game in its
own "Your games", replayed from its seat to its own final screen; at a Lasca table (not fair)
too, from the host's whole record its phone checked, and its game-over offers Replay. Then the backup: everything exported as one file, the storage cleared,
the file imported, and the finished games and the settings are back. axe-core finds nothing
on the screens this changed; the screenshots go to ``$TABERNA_SCREENS``."""

import json
import random

from tests.browser.test_details_browser import no_axe_violation, screenshots
from tests.browser.shots import screenshots as shots_checked, tappable
from tests.browser.test_fair_browser import finished_honestly, start_fair_table
from tests.browser.test_friends_browser import invite, play, sit_down_by_invite
from tests.browser.test_replay_browser import BOARD, REPLAY, REPLAY_BOARD, TABLE_BOARD, phone_context, shot_of, step_of, tap_step
from tests.browser.test_screens_browser import shots  # noqa: F401 (shots: the screenshots folder fixture)
from tests.browser.waits import seeded_form, tap_move, tap_view

# (game, bots' level, seats, options, seed): the shortest whole games the bots play (seeds
# picked in CPython: a few dozen moves each, Botifarra 148).
GAMES = (
    ("perudo", "easy", 2, {}, 2),
    ("bozo", "easy", 2, {"game_end": "rounds", "rounds": "1"}, 11),
    ("lasca", "easy", 2, {}, 10),
    ("crown_anchor", "cautious", 2, {"start_chips": "1"}, 0),
    ("bog", "easy", 3, {"deals": "1"}, 6),
    ("botifarra", "easy", 3, {"target": "51"}, 33),
)
SETTING = ("taberna.name", "Ana")  # a setting the backup carries
STEP_MS = 60_000  # a move's round trip between two phones on a loaded machine


def finish_a_game(page, game, level, seats, options, seed) -> str:
    """Sets up ``game`` with bots in ``seats`` seats, waits for its end, returns its final board."""
    page.click(f"[data-open={game}]")
    form = seeded_form(page, f'form[data-form="setup"][data-game="{game}"]', seed)
    count = form.locator("select[name=seat_count]")
    if count.count():
        count.select_option(str(seats))
    for seat in range(seats):
        form.locator(f"select[name=seat{seat}_kind]").select_option(f"bot:{level}")
    for seat in range(seats, 4):
        kind = form.locator(f"select[name=seat{seat}_kind]")
        if kind.count() and kind.is_visible():
            kind.select_option("none")
    for name, value in options.items():
        field = form.locator(f"[name=opt_{name}]")
        if field.evaluate("(el) => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    form.locator("button[type=submit]").click()
    page.locator("#game-area [data-testid=game-over]").wait_for()
    return page.evaluate(BOARD, TABLE_BOARD)


def test_a_game_of_each_replays_from_your_games_and_its_link_shows_the_same_end_then_a_backup_brings_all_back(
        browser, site, wait_engine, axe_source, shots, tmp_path):  # noqa: F811
    context = phone_context(browser, fast=True, accept_downloads=True)
    page = context.new_page()
    ends = {}
    try:
        page.goto(site.url)
        wait_engine(page)
        for game, level, seats, options, seed in GAMES:
            final = finish_a_game(page, game, level, seats, options, seed)
            page.click("#game-area [data-nav=lobby]")
            page.click("[data-testid=open-games]")
            page.locator("#game-area [data-testid=games-replay]").first.click()  # the newest first
            page.locator(f"#game-area .tb-table[data-game={game}] [data-testid=replay]").wait_for()
            last = int(page.locator(REPLAY).get_attribute("data-last"))
            tap_step(page, "replay-first")
            while step_of(page) < last:
                tap_step(page, "replay-last")
            assert page.evaluate(BOARD, REPLAY_BOARD) == final, game
            page.click("#game-area [data-testid=replay-share-open]")
            ends[game] = (page.locator("#game-area [data-testid=replay-link]").input_value(), last, final)
            page.click("#back")

        page.click("[data-testid=open-games]")
        rows = page.locator("#game-area [data-testid=games-row]")
        rows.first.wait_for()
        assert rows.count() == len(GAMES)
        when = rows.first.locator("[data-testid=games-when]")
        assert when.inner_text().startswith("finished ") and when.get_attribute("datetime").endswith("Z")
        no_axe_violation(page, axe_source, "your games, dated")
        screenshots(page, shots, "your-games-dated")

        # The all-seeing spectator of a card game: every hand, a line each, at its first trick.
        rows.first.locator("[data-testid=games-replay]").click()  # Botifarra, the newest
        page.locator(REPLAY).wait_for()
        page.locator("#game-area [data-testid=replay-slider]").fill("1")
        page.locator("#game-area [data-testid=replay-hands] li").first.wait_for()
        assert page.locator("#game-area [data-testid=replay-viewer] option:checked").inner_text() == "Everyone (every hand shown)"
        assert page.locator("#game-area [data-testid=replay-hands] li").count() == 3
        no_axe_violation(page, axe_source, "the all-seeing replay")
        shot_of(page, shots, "replay-all-seeing", "#game-area [data-testid=replay-hands]")

        # The backup: one file out, the storage emptied, the file in: every game and the settings back.
        page.click("#back")
        page.evaluate("([key, value]) => localStorage.setItem(key, value)", list(SETTING))
        with page.expect_download() as download:
            page.click("[data-testid=backup-export]")
        backup = tmp_path / "backup.json"
        download.value.save_as(backup)
        kept = json.loads(backup.read_text())
        assert [save["kind"] for save in kept["saves"]].count("finished") == len(GAMES) and kept["settings"][SETTING[0]] == SETTING[1]
        page.evaluate("() => { localStorage.clear(); indexedDB.deleteDatabase('taberna'); }")  # done once this page is gone
        page.reload()
        wait_engine(page)
        assert page.evaluate("(key) => localStorage.getItem(key)", SETTING[0]) is None
        page.click("[data-testid=open-games]")
        page.locator("#game-area [data-testid=games-none]").wait_for()
        page.click("#back")
        page.locator("[data-testid=backup-file]").scroll_into_view_if_needed()  # where a player picks the file
        page.set_input_files("[data-testid=backup-file]", str(backup))
        page.locator("[data-testid=backup-status]:not([hidden])").wait_for()
        assert page.locator("[data-testid=backup-status]").inner_text() == "The backup was imported."
        assert page.evaluate("(key) => localStorage.getItem(key)", SETTING[0]) == SETTING[1]
        page.click("[data-testid=open-games]")
        page.locator("#game-area [data-testid=games-row]").first.wait_for()
        assert page.locator("#game-area [data-testid=games-row]").count() == len(GAMES)
    finally:
        context.close()

    fresh = phone_context(browser)
    page = fresh.new_page()
    try:
        for index, (game, (link, last, final)) in enumerate(ends.items()):
            if index == 0:
                page.goto(link)
                wait_engine(page)
            else:  # the next link in the same tab: only its fragment changes
                page.evaluate("(link) => { location.href = link; }", link)
            page.locator(f"#game-area .tb-table[data-game={game}] [data-testid=replay]").wait_for()
            assert step_of(page) == last and page.evaluate(BOARD, REPLAY_BOARD) == final, game
    finally:
        fresh.close()


def test_a_guest_at_a_fair_table_logs_the_game_and_keeps_it_in_its_own_games(phones, site, wait_engine, axe_source, shots):  # noqa: F811
    host, bruno = start_fair_table(phones, site, wait_engine, "bozo", ["remote"], {"points_target": "1"})
    assert play(host, [host, bruno], random.Random(3)) >= 3
    finished_honestly(host, bruno)
    final = bruno.evaluate(BOARD, TABLE_BOARD)
    bruno.click("#game-area [data-testid=log-toggle]")
    log = bruno.locator("#game-area [data-testid=log-panel]")
    log.wait_for()
    assert "the cups are lifted" in log.inner_text() and "Bruno: " in log.inner_text()
    no_axe_violation(bruno, axe_source, "a guest's game log")
    shot_of(bruno, shots, "guest-log", "#game-area [data-testid=log-panel]")

    bruno.click("#game-area [data-nav=lobby]")
    bruno.click("[data-testid=open-games]")
    row = bruno.locator("#game-area [data-testid=games-row]")
    row.wait_for()
    assert row.count() == 1 and "watched" not in row.inner_text()  # Bruno played it
    row.locator("[data-testid=games-replay]").click()
    bruno.locator("#game-area .tb-table[data-game=bozo] [data-testid=replay]").wait_for()
    assert bruno.locator("#game-area [data-testid=replay-viewer] option:checked").inner_text() == "Bruno"
    assert bruno.evaluate(BOARD, REPLAY_BOARD) == final
    a_guest_at_a_lasca_table_logs_it_and_replays_it_from_its_game_over(host, bruno, shots)


def a_guest_at_a_lasca_table_logs_it_and_replays_it_from_its_game_over(host, bruno, shots):  # noqa: F811
    """A table that is not fair: the host tells Bruno's phone each move and, at the end, its
    whole record, which his phone checks before keeping it. Ana offers a draw and moves,
    Bruno accepts (his phone follows the invite link in the tab it has open)."""
    host.click("#game-area [data-nav=lobby]")
    host.select_option("#friends-game", "lasca")
    host.click("[data-testid=friends-create]")
    form = host.locator('form[data-form="setup"][data-shared="1"]')
    form.locator('select[name="seat1_kind"]').select_option("remote")
    form.locator('input[name="seat0_name"]').fill("Ana")
    form.locator("[data-testid=start]").click()
    bruno.evaluate("(link) => { location.href = link; }", invite(host, 1))
    sit_down_by_invite(host, bruno, 1, "Bruno")
    host.click("[data-testid=net-start]")
    tap_move(host, host.locator("#game-area button[data-act*=offer_draw]"), STEP_MS)
    tap_view(host, host.locator('#game-area .lasca-sq[aria-label^="c3:"]'), STEP_MS)
    tap_move(host, host.locator('#game-area .lasca-sq[aria-label^="d4:"]'), STEP_MS)
    tap_move(bruno, bruno.locator("#game-area button[data-act*=accept_draw]"), STEP_MS)
    bruno.locator("#game-area [data-testid=game-over]").wait_for()
    final = bruno.evaluate(BOARD, TABLE_BOARD)
    bruno.click("#game-area [data-testid=log-toggle]")
    log = bruno.locator("#game-area [data-testid=log-panel]")
    log.wait_for()
    assert [line for line in log.inner_text().splitlines() if ": " in line] == [
        "Ana: offers a draw", "Ana: 1. c3-d4", "Bruno: accepts the draw"]
    shot_of(bruno, shots, "guest-lasca-log", "#game-area [data-testid=log-panel]")
    replay = "#game-area [data-testid=game-over] [data-testid=replay-open]"
    shots_checked(bruno, shots, "guest-lasca-over", tappable(replay), centre=replay)
    bruno.click(replay)
    bruno.locator("#game-area .tb-table[data-game=lasca] [data-testid=replay]").wait_for()
    assert bruno.locator("#game-area [data-testid=replay-viewer] option:checked").inner_text() == "Bruno"
    assert bruno.evaluate(BOARD, REPLAY_BOARD) == final
    bruno.click("#back")
    bruno.click("[data-testid=open-games]")
    assert bruno.locator("#game-area [data-testid=games-row]").first.inner_text().startswith("Lasca")
    assert bruno.locator("#game-area [data-testid=games-row]").count() == 2 and bruno.context.errors == []
