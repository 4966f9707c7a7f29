"""The engine's start-up in Chromium: the memory snapshot made after a first visit is
restored on the next one, and one that does not restore falls back to a normal start."""

import json

from pyengine.core.registry import playable_games
from pyengine.core.simulate import playout_digest

SNAPSHOT_CACHE = "pyodide-snapshot"
STORED = f"caches.open('{SNAPSHOT_CACHE}').then(c => c.keys()).then(k => k.map(r => r.url.split('/').pop()))"


def stored_snapshots(page, want=None, attempts=240):
    """Names stored in the snapshot cache, waiting (up to two minutes) until ``want(names)``."""
    for _ in range(attempts):
        names = page.evaluate(STORED)
        if want is None or want(names):
            return names
        page.wait_for_timeout(500)
    raise AssertionError(f"snapshot cache stayed {names}")


def start_a_game(page):
    page.click("[data-open=perudo]")
    form = page.locator('form[data-form="setup"][data-game="perudo"]')
    form.wait_for()
    form.locator("[data-testid=start]").click()
    page.locator("#game-area .tb-table").wait_for()


def test_the_next_visit_restores_the_memory_snapshot(context, site, wait_engine, bridge_call):
    page = context.new_page()
    messages = []
    page.on("console", lambda message: messages.append(message.text))
    page.goto(site.url)
    wait_engine(page)
    assert not [m for m in messages if "memory snapshot" in m]
    (name,) = stored_snapshots(page, want=bool)
    assert name.startswith("snapshot-") and not name.endswith("-failed")
    page.reload()
    wait_engine(page)
    assert "engine: started from the memory snapshot" in messages
    # The restored interpreter plays the same seeded games as CPython.
    games, seeds = sorted(playable_games()), [0, 1]
    in_browser = bridge_call(page, "selftest", json.dumps({"games": games, "seeds": seeds}))["results"]
    assert in_browser == [playout_digest(game, seed) for game in games for seed in seeds]
    start_a_game(page)
    assert context.recorder.errors == []
    assert stored_snapshots(page) == [name]  # kept: one per build


def test_a_snapshot_that_does_not_restore_falls_back_and_is_not_made_again(context, site, wait_engine):
    page = context.new_page()
    messages = []
    page.on("console", lambda message: messages.append(message.text))
    page.goto(site.url)
    wait_engine(page)
    (name,) = stored_snapshots(page, want=bool)
    # Damaged (or made for a heap it no longer fits): restoring it throws in the worker.
    page.evaluate(
        """([cache, name]) => caches.open(cache).then(c => c.put(`runtime/${name}`, new Response(new Uint8Array(4096))))""",
        [SNAPSHOT_CACHE, name],
    )
    page.reload()
    wait_engine(page)
    assert any("did not restore" in m for m in messages)
    assert stored_snapshots(page, want=lambda names: names == [f"{name}-failed"]) == [f"{name}-failed"]
    start_a_game(page)
    page.reload()  # the marker stops the snapshot worker from making it again
    wait_engine(page)
    page.wait_for_timeout(6000)
    assert stored_snapshots(page) == [f"{name}-failed"]
    assert "engine: started from the memory snapshot" not in messages
