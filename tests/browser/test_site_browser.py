"""The built site in Chromium: lobby first, a whole Perudo game by clicks, saves, offline,
sub-path hosting, no foreign requests, and the engine giving CPython's results in Pyodide."""

import json
import random
import shutil
import threading

import pytest

from buildtools.assemble import write_service_worker
from buildtools.serve import make_server
from pyengine.core.registry import declarations, playable_games
from pyengine.core.simulate import playout_digest
from tests.browser.pages import BOTS_INSTANT, loaded_page
from tests.browser.saves import delete_listed, saved_text
from tests.browser.waits import ANY_TURN, screen_html, to_lobby, wait_ready

GAME_OVER_TIMEOUT_MS = 120_000


def on_site(script):
    """An init script that runs only in the site's pages (not in blank or worker documents)."""
    return f"if (location.protocol === 'http:') {{ {script} }}"


def start_perudo(page, bots=3):
    """Opens Perudo's setup form and starts one human against ``bots`` bots."""
    page.click("[data-open=perudo]")
    form = page.locator('form[data-form="setup"][data-game="perudo"]')
    form.wait_for()
    for seat in range(1, 6):
        kind = "bot:medium" if seat <= bots else "none"
        form.locator(f'select[name="seat{seat}_kind"]').select_option(kind)
    form.locator("[data-testid=start]").click()
    page.locator("#game-area .tb-table").wait_for()


def play_one(page, rng):
    """Clicks one of the legal action buttons on screen: Dudo now and then, else a bid."""
    buttons = page.locator("#game-area [data-act]:not([disabled])")
    dudo = page.locator("#game-area [data-testid=dudo]:not([disabled])")
    if dudo.count() and rng.random() < 0.35:
        dudo.click()
    else:
        bids = page.locator("#game-area [data-testid^=bid-face-]:not([disabled])")
        target = bids if bids.count() else buttons
        target.nth(rng.randrange(target.count())).click()


def version(page):
    return int(page.locator("#game-area .tb-table").get_attribute("data-version"))


@pytest.fixture(scope="module")
def lobby_page(browser, site, wait_engine):
    """The page (``pages.loaded_page``, bots without pauses) of the tests that start from the
    lobby, a reload only where the test is about one."""
    with loaded_page(browser, site, wait_engine, BOTS_INSTANT) as page:
        yield page


@pytest.fixture
def lobby(lobby_page):
    """``lobby_page`` back in the lobby, the saves of the tests before deleted through it."""
    to_lobby(lobby_page)
    delete_listed(lobby_page)
    return lobby_page


def test_lobby_is_usable_before_the_engine_loads(context, site, wait_engine):
    """Every game is on screen from static HTML while Python is still on its way, and the
    engine's worker is created only once the lobby is usable (its strings in, its buttons
    wired): PyScript's core and the worker's creation do not hold the lobby up, nor do the
    tables' stylesheet and code, loaded after it (once the worker exists). The engine is
    ready only once the tables' stylesheet is in: a table never paints without it."""
    held, styles = [], []
    context.route("**/pyscript/core.js", lambda route: held.append(route))
    context.route("**/tables.css", lambda route: styles.append(route))
    page = context.new_page()
    page.goto(site.url)
    page.wait_for_function("() => true")
    assert page.evaluate("document.documentElement.dataset.engine") == "loading"
    assert page.locator("#engine progress").is_visible()
    cards = page.locator("[data-game]")
    game_ids = [declaration.id for declaration in declarations()]
    assert game_ids and cards.evaluate_all("els => els.map(e => e.dataset.game)") == game_ids  # in lobby order
    for game_id in game_ids:
        card = page.locator(f'[data-game="{game_id}"]')
        assert card.is_visible()
        playable = card.get_attribute("data-playable") == "true"
        assert card.locator(f'[data-open="{game_id}"]').count() == (1 if playable else 0)
        assert card.locator(".card-soon").count() == (0 if playable else 1)
    assert page.locator('[data-game="perudo"]').get_attribute("data-playable") == "true"
    # Opening a game early waits for the engine instead of failing.
    page.click("[data-open=perudo]")
    assert page.locator("#game-area .notice").is_visible()
    for _ in range(600):  # the held request reaches this process while it waits (a busy machine: later)
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the engine script was requested"
    for route in held:
        route.continue_()
    context.unroute("**/pyscript/core.js")
    # Python is up (its bridge answered) while the tables' stylesheet is held: not ready yet.
    page.wait_for_function("() => window.taberna !== undefined", timeout=120_000)
    assert styles, "the tables' stylesheet was requested"
    assert page.evaluate("document.documentElement.dataset.engine") == "loading"
    assert page.locator("#game-area .notice").is_visible()
    for route in styles:
        route.continue_()
    context.unroute("**/tables.css")
    wait_engine(page)
    page.locator('form[data-form="setup"]').wait_for()
    lobby, worker, tables = page.evaluate(
        "[performance.getEntriesByName('lobby-ready')[0], performance.getEntriesByName('engine-start')[0],"
        " performance.getEntriesByType('resource').find(r => r.name.endsWith('/tables.css'))].map(e => e.startTime)"
    )
    # The tables load while Python starts, once the worker exists: they do not hold it up.
    assert lobby <= worker <= tables


def test_a_broken_engine_is_reported_and_the_lobby_stays(context, site, wait_engine):
    context.route(
        "**/worker.py",
        lambda route: route.fulfill(body='raise RuntimeError("broken on purpose")', content_type="text/plain"),
    )
    page = context.new_page()
    page.goto(site.url)
    wait_engine(page, state="error")
    assert page.locator("#engine-reload").is_visible()
    assert page.locator("#engine-text").inner_text().strip()
    assert page.locator('[data-game="perudo"]').is_visible()


def test_whole_perudo_game_against_three_bots_by_clicks(lobby, site):
    page = lobby
    start_perudo(page, bots=3)
    # The table is drawn with its styles (the tables' stylesheet: ui/dice.css's strips).
    assert page.evaluate("getComputedStyle(document.querySelector('#game-area .cup-players')).display") == "grid"
    rng = random.Random(7)
    clicks = 0
    while wait_ready(page, GAME_OVER_TIMEOUT_MS) == "human":
        before = version(page)
        play_one(page, rng)
        page.wait_for_function(
            "v => { const t = document.querySelector('#game-area .tb-table');"
            " return t && +t.dataset.version > v; }",
            arg=before,
        )
        clicks += 1
        assert clicks < 400
    over = page.locator("#game-area [data-testid=game-over]")
    assert over.is_visible()
    assert over.inner_text().strip()
    assert clicks > 0
    save = json.loads(saved_text(page))
    assert save["game"] == "perudo" and len(save["log"]) >= clicks
    assert page.context.recorder.foreign(site.origin) == []
    assert page.context.recorder.errors == []


def test_reload_mid_game_resumes_exactly(lobby, wait_engine):
    page = lobby
    start_perudo(page, bots=2)
    rng = random.Random(3)
    for _ in range(2):
        assert wait_ready(page, GAME_OVER_TIMEOUT_MS) == "human"
        before = version(page)
        play_one(page, rng)
        page.wait_for_function(
            "v => +document.querySelector('#game-area .tb-table')?.dataset.version > v", arg=before
        )
    assert wait_ready(page, GAME_OVER_TIMEOUT_MS) == "human"
    screen = screen_html(page)
    save = saved_text(page)
    page.reload()
    wait_engine(page)
    page.locator("#game-area .tb-table").wait_for()
    assert wait_ready(page, GAME_OVER_TIMEOUT_MS) == "human"
    assert saved_text(page) == save
    assert screen_html(page) == screen
    # And the resumed table goes on.
    before = version(page)
    play_one(page, rng)
    page.wait_for_function(
        "v => +document.querySelector('#game-area .tb-table')?.dataset.version > v", arg=before
    )


def test_back_to_lobby_keeps_the_save_and_offers_to_continue(lobby, wait_engine):
    page = lobby
    start_perudo(page, bots=1)
    wait_ready(page, GAME_OVER_TIMEOUT_MS)
    screen = screen_html(page)
    page.click("#back")
    assert page.locator("#lobby").is_visible()
    assert page.locator("#saved").is_visible()
    assert "Perudo" in page.inner_text("#saved-list")
    page.reload()
    wait_engine(page)
    assert page.locator("#lobby").is_visible()
    page.click("#saved-list [data-testid=continue]")
    page.locator("#game-area .tb-table").wait_for()
    wait_ready(page, GAME_OVER_TIMEOUT_MS)
    assert screen_html(page) == screen


def test_corrupt_save_offers_a_fresh_start(context, site, wait_engine):
    context.add_init_script(
        on_site(
            "if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1');"
            " localStorage.setItem('taberna.table', '{\"format\": 1, \"game\": \"perudo\", \"log\": [7]');"
            " localStorage.setItem('taberna.inGame', '1'); }"
        )
    )
    page = context.new_page()
    page.goto(site.url)
    wait_engine(page)
    alert = page.locator("#game-area .broken-save[role=alert]")
    alert.wait_for()
    assert alert.locator("h2").inner_text().strip()
    page.click("#start-fresh")
    assert saved_text(page) is None
    assert page.evaluate("() => localStorage.getItem('taberna.table')") is None  # moved, then dropped
    assert page.locator("#lobby").is_visible()


def test_tampered_save_names_the_reason(context, site, wait_engine):
    tampered = {
        "format": 1,
        "game": "perudo",
        "options": {},
        "seed": 5,
        "seats": [{"kind": "human", "name": "A"}, {"kind": "bot", "name": "B", "level": "easy"}],
        "log": [{"seat": 0, "action": {"type": "bid", "count": 99, "face": 9}}],
    }
    context.add_init_script(
        on_site(
            "if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1');"
            f" localStorage.setItem('taberna.table', {json.dumps(json.dumps(tampered))});"
            " localStorage.setItem('taberna.inGame', '1'); }"
        )
    )
    page = context.new_page()
    page.goto(site.url)
    wait_engine(page)
    alert = page.locator("#game-area .broken-save[role=alert]")
    alert.wait_for()
    assert len(alert.locator("p").inner_text().strip()) > 5  # the engine's reason, translated
    page.click("#start-fresh")
    page.locator('form[data-form="setup"][data-game="perudo"]').wait_for()


@pytest.mark.caching
def test_works_offline_after_one_visit(context, site, wait_engine):
    context.add_init_script(BOTS_INSTANT)
    page = context.new_page()
    page.goto(site.url)
    wait_engine(page)
    assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    assert page.evaluate("caches.keys().then(k => k.filter(n => n.startsWith('taberna-')).length)") == 1
    context.set_offline(True)
    page.reload()
    wait_engine(page)
    for game_id in sorted(playable_games()):  # every game starts and reaches our turn offline
        page.click(f"[data-open={game_id}]")
        page.locator(f'form[data-form="setup"][data-game="{game_id}"] [data-testid=start]').click()
        page.locator("#game-area .tb-table").wait_for()
        assert wait_ready(page, GAME_OVER_TIMEOUT_MS, ANY_TURN) in ("human", "over"), game_id
        page.click("#back")
    start_perudo(page, bots=1)
    wait_ready(page, GAME_OVER_TIMEOUT_MS)
    page.close()  # (while a tab shows a table, another tab does not open the same one)
    second = context.new_page()
    second.goto(site.url)
    wait_engine(second)
    second.locator("#game-area .tb-table").wait_for()  # the save came back too
    assert context.recorder.foreign(site.origin) == []


@pytest.mark.caching
def test_served_under_a_sub_path(context, subpath_site, wait_engine):
    page = context.new_page()
    page.goto(subpath_site.url)
    wait_engine(page)
    start_perudo(page, bots=1)
    assert wait_ready(page, GAME_OVER_TIMEOUT_MS) in ("human", "over")
    assert page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)") == subpath_site.url
    stray = [u for u in context.recorder.urls if not u.startswith((subpath_site.url, "blob:"))]
    assert stray == []


def test_language_switch_translates_the_lobby_and_the_game(lobby, wait_engine):
    page = lobby
    page.click("#settings summary")
    page.select_option("#lang", "pt")
    page.wait_for_function("() => document.documentElement.lang === 'pt-BR'")
    assert page.locator('[data-open=perudo]').inner_text().strip() == "Jogar"
    start_perudo(page, bots=1)
    wait_ready(page, GAME_OVER_TIMEOUT_MS)
    english = page.evaluate("fetch('i18n/en.json').then(r => r.json())")
    html = page.inner_html("#game-area")
    page.select_option("#lang", "es")
    page.wait_for_function("h => document.getElementById('game-area').innerHTML !== h", arg=html)
    assert page.locator("#back").inner_text().strip().endswith("Volver a la sala")
    assert english["game.back"] == "Back to the lobby"
    page.reload()
    wait_engine(page)
    assert page.evaluate("document.documentElement.lang") == "es"
    page.click("#settings summary")  # English again, the settings closed, for the next test on the page
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.click("#settings summary")


def test_pyodide_plays_the_same_seeded_games_as_cpython(lobby, bridge_call):
    page = lobby
    games = sorted(playable_games())
    seeds = [0, 1, 2]
    in_browser = bridge_call(page, "selftest", json.dumps({"games": games, "seeds": seeds}))["results"]
    in_cpython = [playout_digest(game, seed) for game in games for seed in seeds]
    assert in_browser == in_cpython
    assert all(result["plies"] > 0 for result in in_cpython)


def test_installable_as_an_app(persistent_context, site):
    """Chromium's own installability check: manifest, icons, service worker, secure origin."""
    page = persistent_context.pages[0] if persistent_context.pages else persistent_context.new_page()
    page.goto(site.url)
    assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    manifest = page.evaluate("fetch('manifest.webmanifest').then(r => r.json())")
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
    assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])
    cdp = persistent_context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []


@pytest.mark.caching
def test_a_new_version_installs_cleanly(context, dist, tmp_path, wait_engine):
    """A rebuilt site: the page offers the update, reloads into it, keeps one cache, and the
    unchanged runtime comes from the old cache instead of the network."""
    copy = tmp_path / "site"
    shutil.copytree(dist, copy)
    served = []
    server = make_server("127.0.0.1", 0, copy, served=served)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        page = context.new_page()
        page.goto(url)
        wait_engine(page)
        assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
        # The memory snapshot made after a first visit loads the runtime too: let it finish.
        for _ in range(240):
            if page.evaluate("caches.open('pyodide-snapshot').then(c => c.keys()).then(k => k.length)"):
                break
            page.wait_for_timeout(500)
        old_caches = [name for name in page.evaluate("caches.keys()") if name.startswith("taberna-")]
        with open(copy / "app.js", "a", encoding="utf-8") as script:
            script.write("\n// version two\n")
        version = write_service_worker(copy)
        served.clear()
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        update = page.locator("#toast button")
        update.wait_for()
        # The new version is installed and waiting: it fetched what changed, nothing of the runtime.
        assert "/sw.js" in served and "/app.js" in served
        assert not [path for path in served if path.startswith("/pyodide/")]
        with page.expect_event("load"):
            update.click()
        wait_engine(page)
        assert [n for n in page.evaluate("caches.keys()") if n.startswith("taberna-")] == [f"taberna-{version}"] != old_caches
        assert page.evaluate("fetch('app.js').then(r => r.text())").endswith("// version two\n")
    finally:
        server.shutdown()
        server.server_close()


def tab_to(page, selector, limit=80):
    """Presses Tab until the focused element matches ``selector``."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement?.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_game_can_be_played_with_the_keyboard(lobby):
    page = lobby
    tab_to(page, "[data-open=perudo]")
    page.keyboard.press("Enter")
    page.locator('form[data-form="setup"]').wait_for()
    tab_to(page, "[data-testid=start]")
    page.keyboard.press("Enter")
    page.locator("#game-area .tb-table").wait_for()
    assert wait_ready(page, GAME_OVER_TIMEOUT_MS) == "human"
    if page.locator("[data-testid=count-up]:not([disabled])").count():
        tab_to(page, "[data-testid=count-up]")
        count = int(page.inner_text("[data-testid=bid-count]"))
        page.keyboard.press("Enter")
        page.wait_for_function("c => +document.querySelector('[data-testid=bid-count]').textContent > c", arg=count)
        # The re-rendered stepper keeps the focus, so a keyboard player can press again.
        assert page.evaluate("document.activeElement.dataset.testid") == "count-up"
    before = version(page)
    tab_to(page, "[data-testid^=bid-face-]:not([disabled]), [data-testid=dudo]")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "v => +document.querySelector('#game-area .tb-table')?.dataset.version > v", arg=before
    )


def test_language_comes_from_the_browser(browser, site):
    context = browser.new_context(locale="pt-BR")
    try:
        page = context.new_page()
        page.goto(site.url)
        page.wait_for_function("() => document.documentElement.lang === 'pt-BR'")
        assert page.locator("[data-open=perudo]").inner_text().strip() == "Jogar"
        assert page.locator('[data-open=bog]').inner_text().strip() == "Jogar"
        assert page.input_value("#lang") == "pt"
    finally:
        context.close()


def test_pass_and_play_hides_dice_until_the_next_player_takes_the_phone(lobby):
    page = lobby
    page.click("[data-open=perudo]")
    form = page.locator('form[data-form="setup"][data-game="perudo"]')
    form.wait_for()
    form.locator('select[name="seat1_kind"]').select_option("human")
    for seat in range(2, 6):
        form.locator(f'select[name="seat{seat}_kind"]').select_option("none")
    form.locator("[data-testid=start]").click()
    ready = page.locator("[data-testid=handoff-ready]")
    ready.wait_for()
    assert page.locator("[data-testid=my-cup]").count() == 0
    ready.click()
    page.locator("[data-testid=my-cup]").wait_for()
    assert wait_ready(page, GAME_OVER_TIMEOUT_MS) == "human"
    play_one(page, random.Random(1))
    page.locator("[data-testid=handoff-ready]").wait_for()
    assert page.locator("[data-testid=my-cup]").count() == 0


@pytest.mark.caching
def test_unreachable_runtime_while_online_falls_back_to_the_cached_copy(context, site, wait_engine):
    """Online but the runtime cannot be fetched (captive portal, flaky link): after one visit
    the page reloads once with the service worker serving Pyodide from its cache."""
    page = context.new_page()
    page.goto(site.url)
    wait_engine(page)
    assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    page.reload()  # now controlled by the service worker
    wait_engine(page)
    context.route("**/pyodide/**", lambda route: route.abort())
    page.reload()
    wait_engine(page)
    page.click("[data-open=perudo]")
    page.locator('form[data-form="setup"]').wait_for()
