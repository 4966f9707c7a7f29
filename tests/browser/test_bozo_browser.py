"""Bozó in Chromium: a complete game of two rounds against two bots, played by clicks, with a
reload in the middle that resumes the same table; the final save replays in CPython."""

import json
import random

from pyengine.core.table import Table
from tests.browser.pages import BOTS_INSTANT
from tests.browser.saves import saved_text
from tests.browser.waits import NEWER, screen_html, seat_count, wait_ready

TIMEOUT_MS = 60_000


def start_bozo(page):
    """One human against an easy and a hard bot; the game lasts exactly two rounds."""
    page.click("[data-open=bozo]")
    form = page.locator('form[data-form="setup"][data-game="bozo"]')
    form.wait_for()
    form.locator('select[name="seat1_kind"]').select_option("bot:easy")
    form.locator('select[name="seat2_kind"]').select_option("bot:hard")
    seat_count(form, 3)
    form.locator('select[name="opt_game_end"]').select_option("rounds")
    form.locator('input[name="opt_rounds"]').fill("2")
    form.locator("[data-testid=start]").click()
    page.locator("#game-area .tb-table").wait_for()


def version(page):
    return int(page.locator("#game-area .tb-table").get_attribute("data-version"))


def play_one(page, rng):
    """A direction when asked, else doubt now and then (always when no bid is left), else one
    of the enabled bids."""
    area = page.locator("#game-area")
    ways = area.locator("[data-testid^=direction-]")
    doubt = area.locator("[data-testid=doubt]")
    bids = area.locator("[data-testid^=bid-face-]:not([disabled])")
    if ways.count():
        ways.nth(rng.randrange(ways.count())).click()
    elif doubt.count() and (rng.random() < 0.5 or not bids.count()):
        doubt.click()
    else:
        bids.nth(rng.randrange(bids.count())).click()


def test_whole_bozo_game_of_two_rounds_against_bots(context, site, wait_engine):
    context.add_init_script(BOTS_INSTANT)
    page = context.new_page()
    page.goto(site.url)
    wait_engine(page)
    start_bozo(page)
    rng = random.Random(11)
    clicks = 0
    reloaded = False
    saw_points_table = False
    while wait_ready(page, TIMEOUT_MS) == "human":
        area = page.locator("#game-area")
        saw_points_table |= area.locator("[data-testid=points-table]").count() == 1
        assert area.locator("[data-testid=direction]").count() == 1
        if clicks == 4 and not reloaded:
            screen = screen_html(page)
            page.reload()
            wait_engine(page)
            page.locator("#game-area .tb-table").wait_for()
            assert wait_ready(page, TIMEOUT_MS) == "human"
            assert screen_html(page) == screen
            reloaded = True
        before = version(page)
        play_one(page, rng)
        page.wait_for_function(NEWER, arg=before, timeout=TIMEOUT_MS)
        clicks += 1
        assert clicks < 300
    assert reloaded and saw_points_table
    over = page.locator("#game-area [data-testid=game-over]")
    assert over.is_visible() and over.inner_text().strip()
    save = json.loads(saved_text(page))
    assert save["game"] == "bozo" and save["options"]["rounds"] == 2
    final = Table.from_dict(save).state
    assert final["result"] is not None and len(final["round_winners"]) == 2
    assert sum(final["points"]) == 2
    assert context.recorder.foreign(site.origin) == []
    assert context.recorder.errors == []
