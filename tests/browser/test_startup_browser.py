"""The engine's start-up in Chromium: the memory snapshot made after a first visit is
restored on the next one, one that does not restore falls back to a normal start, and the
standard library the build cut down holds every module the worker asks for."""

import json
import zipfile

import pytest

from buildtools import runtime
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


def load_the_card_group_and_deal(page, bridge_call):
    """The worker's card group, loaded (``card_group``) and used for a tiny deal."""
    page.evaluate("() => window.taberna.call('card_group')")
    assert bridge_call(page, "group_bench", json.dumps({"seats": 2, "cards": 3, "passes": 2}))["multiplications"] == 12


def start_a_game(page):
    page.click("[data-open=perudo]")
    form = page.locator('form[data-form="setup"][data-game="perudo"]')
    form.wait_for()
    form.locator("[data-testid=start]").click()
    page.locator("#game-area .tb-table").wait_for()


@pytest.mark.caching
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
    load_the_card_group_and_deal(page, bridge_call)  # its importer is handed to a restored Python too
    start_a_game(page)
    assert context.recorder.errors == []
    assert stored_snapshots(page) == [name]  # kept: one per build


@pytest.mark.caching
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


# Served in front of the worker script: records every module name the import system is asked
# for, and exports the names asked for that never loaded (the worker script is served with
# this appended, the service worker blocked so that it cannot answer with the real one).
# What Pyodide's and PyScript's own start-up import before it runs is what the build's probe
# starts from; a start-up that missed one would not reach the lobby.
RECORD_IMPORTS = """
import sys as _sys


class _AskedFor:
    names = set()

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        cls.names.add(name)


_sys.meta_path.insert(0, _AskedFor)
"""
REPORT_IMPORTS = """
import json as _json

xworker.sync.not_found = lambda: _json.dumps(sorted(set(_AskedFor.names) - set(_sys.modules)))
"""


def stock_stdlib_modules() -> set:
    """Every module of the standard library as Pyodide ships it (before the build cut it)."""
    stock = runtime.node_runtime(runtime.fetch_runtime()[runtime.PYODIDE[0]]) / "python_stdlib.zip"
    with zipfile.ZipFile(stock) as archive:
        paths = [n[: -len(".py")] for n in archive.namelist() if n.endswith(".py")]
    return {path.removesuffix("/__init__").replace("/", ".") for path in paths}


def play_every_path(page, bridge_call):
    """What the worker imports on first use: every game with its bots (each level at a
    table of its size), a table shared with a friend (hosted and joined in this one worker,
    its messages passed by hand), an invite's QR code and the card group (locks drawn and
    put on)."""
    games = [game for game in bridge_call(page, "lobby", "en")["games"] if game["playable"]]
    assert sorted(game["id"] for game in games) == sorted(playable_games())
    for game in games:
        levels = game["bot_levels"]
        seats = max(game["min_seats"], min(game["max_seats"], len(levels)))
        fields = {f"seat{i}_kind": f"bot:{levels[i % len(levels)]}" for i in range(seats)}
        opened = bridge_call(page, "start", json.dumps({"game": game["id"], "fields": {**fields, "seed": "7"}}), "en")
        assert opened["ok"], opened["message"]
        for _ in range(12):
            bridge_call(page, "bot_step", "en")
    fields = {"seat0_kind": "human", "seat1_kind": "remote", "seed": "7"}
    created = bridge_call(page, "net_host_create", json.dumps({"game": "perudo", "fields": fields}), 1_000, "en")
    assert created["ok"], created["message"]
    joined = bridge_call(page, "net_guest_join", json.dumps({"table": created["table"], "seat": 1, "name": "Bea"}), 1_000, "en")
    to_host = [text for _, text in joined["outbox"] + bridge_call(page, "net_guest_connected", 1_000, "en")["outbox"]]
    while to_host:
        for _, text in bridge_call(page, "net_host_receive", "peer", to_host.pop(0), 1_000, "en")["outbox"]:
            to_host += [t for _, t in bridge_call(page, "net_guest_receive_all", json.dumps([text]), 1_000, "en")["outbox"]]
    started = bridge_call(page, "net_host_command", json.dumps({"start": True}), 1_000, "en")
    assert started["ok"], started["message"]
    qr = bridge_call(page, "net_qr", "https://example.org/#invite", "en")
    assert qr["ok"], qr["message"]
    load_the_card_group_and_deal(page, bridge_call)


def test_nothing_the_worker_imports_was_left_out_of_the_standard_library(browser, dist, site, wait_engine, bridge_call):
    context = browser.new_context(service_workers="block")
    script = (dist / "worker.py").read_text(encoding="utf-8")
    context.route("**/worker.py", lambda route: route.fulfill(body=RECORD_IMPORTS + script + REPORT_IMPORTS))
    try:
        page = context.new_page()
        page.goto(site.url)
        wait_engine(page)
        play_every_path(page, bridge_call)
        not_found = page.evaluate("window.taberna.call('not_found')")
        missing = set(json.loads(not_found)) & stock_stdlib_modules()
        assert not missing, f"imported but not shipped in runtime/stdlib.zip: {sorted(missing)}"
    finally:
        context.close()
