"""Every game's screens as a player sees them, on a 360x740 phone and a 1280x800 desktop.

One page plays through the lobby, every game's setup and turn (at a few seat counts), a
Perudo reveal and game over, the pass-and-play hand-off, a friends' table with its invite
panel and, in a second tab, a guest's screens (watching, seated before the start, its turn).
Screens deep in a game are reached through saves made here in CPython (bots play every seat,
the log is cut where the player is to act, or one bot move before the end) and continued
from the lobby: Botifarra's turn, trump and doubling sheets, hand summary and game over,
Bog's turn, showdown and game over, Bozó's, Crown and Anchor's and Lasca's game over. The lobby, a
setup and a turn are checked again in every other language. On each screen it checks what a
player needs, from what is drawn:

* every control of the turn is inside the viewport, at the top of the page, and is what a tap
  at its centre hits (``document.elementFromPoint``: nothing drawn over it);
* nothing overflows the screen sideways (``scrollWidth <= innerWidth``);
* dice and pieces are drawn where they belong: the pixels of a screenshot inside a die or on a
  Lasca square show the die's or the piece's colours (a DOM check alone once let an opaque tile
  hide every Lasca piece);
* axe-core (injected from the test's own copy, never served by the site) finds no violation.

Screenshots are written to ``$TABERNA_SCREENS`` (or a temporary folder named in the log) so
that a person can look at them.

The same page (its engine loaded once) also checks the worker's card group for fair card
tables, which has no screen: libsodium loads only when asked, and then computes what rbcl
computes under CPython.
"""

import contextlib
import hashlib
import json
import os
from pathlib import Path

import pytest

from pyengine.core.group import NativeGroup
from pyengine.core.registry import get_game, playable_games
from pyengine.i18n import LANGUAGES, Translator, language_tag
from pyengine.shell.cardgroup import exercise

from .pixels import Image, near
from tests.browser.pages import BOTS_INSTANT
from tests.browser.saves import PUT_RECORDS, local_record, played_by_bots
from tests.browser.test_friends_browser import enter_by_room_code
from tests.browser.waits import ANY_TURN, seat_count, tap_move, wait_ready
from tests.core.test_group import BAD_POINTS

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
TIMEOUT_MS = 90_000

# "over", "handoff", "human" (an action of ours, or a Lasca square to pick up, is ready) or

# Every enabled control shown on the screen that is out of view or covered where a finger lands.
UNREACHABLE = """() => {
  const out = [];
  for (const el of document.querySelectorAll("#game-area [data-act]:not([disabled]), #game-area [data-ui]:not([disabled])")) {
    if (!el.checkVisibility()) continue;  // folded away (a closed "More"): not part of the turn
    if (el.closest(".tb-log")) continue;  // the game log under the table: read between turns, not part of one
    const r = el.getBoundingClientRect();
    const name = el.dataset.testid || el.getAttribute("aria-label") || el.textContent.trim();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
      out.push(`${name}: outside the viewport (${Math.round(r.left)},${Math.round(r.top)})-(${Math.round(r.right)},${Math.round(r.bottom)})`);
      continue;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(el === hit || el.contains(hit))) out.push(`${name}: covered by ${hit ? hit.className || hit.tagName : "nothing"}`);
  }
  return out;
}"""

AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => `${v.id} (${v.impact}): ` +
    v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(" | "));
}"""


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = Path(os.environ.get("TABERNA_SCREENS") or tmp_path_factory.mktemp("screens"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"screenshots in {folder}")
    return folder


@contextlib.contextmanager
def phone_page(browser, site, wait_engine):
    """A phone-sized touch page at the lobby with its engine loaded (bots without pauses), its
    page errors in ``page.errors``. It asks for reduced motion, as some players do: nothing is
    then caught half-faded by a check."""
    context = browser.new_context(viewport=PHONE, has_touch=True, reduced_motion="reduce")
    context.add_init_script(BOTS_INSTANT)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(site.url)
    wait_engine(page)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture(scope="module")
def player(browser, site, wait_engine):
    """One phone page for the whole module (the engine loads once)."""
    with phone_page(browser, site, wait_engine) as page:
        yield page


class Screens:
    """What the tests do to the page, with the checks a player would make."""

    def __init__(self, page, axe_source, folder):
        self.page, self.axe_source, self.folder = page, axe_source, folder

    # --- getting somewhere ---------------------------------------------------------------------
    def lobby(self):
        page = self.page
        if page.locator("#game").is_visible():
            page.click("#back")
        page.locator("#lobby").wait_for()

    def open_setup(self, game, shared=False):
        self.lobby()
        if shared:
            self.page.select_option("#friends-game", game)
            self.page.click("[data-testid=friends-create]")
        else:
            self.page.click(f"[data-open={game}]")
        form = self.page.locator(f'form[data-form="setup"][data-game="{game}"]')
        form.wait_for()
        return form

    def start(self, game, kinds, options=None):
        """A new table: ``kinds`` for the first seats (e.g. ``["human", "bot:easy"]``), the
        other seats empty; returns what the screen is ready for."""
        form = self.open_setup(game)
        if form.locator("select[name=seat_count]").count():
            seat_count(form, len(kinds))
        seats = form.locator("select[name$=_kind]:visible").count()
        for seat in range(1, seats):
            form.locator(f'select[name="seat{seat}_kind"]').select_option(kinds[seat] if seat < len(kinds) else "none")
        for name, value in (options or {}).items():
            form.locator(f'[name="opt_{name}"]').select_option(value)
        form.locator("[data-testid=start]").click()
        self.page.locator("#game-area .tb-table").wait_for()
        return self.ready()

    def ready(self):
        return wait_ready(self.page, TIMEOUT_MS, ANY_TURN)

    def act(self, selector):
        """Taps an action and waits for the table to move on."""
        tap_move(self.page, self.page.locator(selector).first, TIMEOUT_MS)
        return self.ready()

    # --- looking -------------------------------------------------------------------------------
    def shot(self, name):
        path = self.folder / f"{name}.png"
        png = self.page.screenshot(path=str(path))
        return Image(png)

    def axe(self, where):
        if not self.page.evaluate("() => typeof axe !== 'undefined'"):
            self.page.evaluate(self.axe_source)
        violations = self.page.evaluate(AXE_RUN)
        assert violations == [], f"axe on {where}:\n" + "\n".join(violations)

    def fits(self, name, controls=True):
        """At the top of the page, at phone and desktop size: nothing wider than the screen,
        every control of the turn reachable; one screenshot of each (returned, phone first)."""
        images = []
        for size, label in ((PHONE, "360"), (DESKTOP, "1280")):
            page = self.page
            page.set_viewport_size(size)
            page.evaluate("() => window.scrollTo(0, 0)")
            images.append(self.shot(f"{name}-{label}"))  # first, to look at when a check fails
            widths = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
            assert widths[0] <= widths[1], f"{name} at {label} px: {widths[0]} px wide"
            if controls:
                assert page.evaluate(UNREACHABLE) == [], f"{name} at {label} px"
        self.page.set_viewport_size(PHONE)
        return images

    def drawn_dice(self, image, selector, bodies, marks):
        """Every die matched is drawn: its box holds a body colour and a pip or mark colour,
        and a tap at its centre lands on it."""
        boxes = self.page.evaluate(
            """(sel) => [...document.querySelectorAll(sel)].map((svg) => {
                 const r = svg.getBoundingClientRect();
                 const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                 return {x: r.left, y: r.top, width: r.width, height: r.height, hit: !!hit && svg.contains(hit)};
               })""",
            selector,
        )
        assert boxes, f"no die matches {selector}"
        for box in boxes:
            assert box["hit"], f"a die of {selector} is covered"
            colours = image.colours(box)
            assert any(near(c, body) for c in colours for body in bodies), f"a die of {selector} has no body drawn"
            assert any(near(c, mark) for c in colours for mark in marks), f"a die of {selector} has no pips drawn"
        return len(boxes)


@pytest.fixture
def screens(player, axe_source, shots):
    yield Screens(player, axe_source, shots)
    assert player.errors == []


INK, PAPER, WILD, WILD_MARK, HIDDEN = (43, 42, 40), (255, 253, 248), (243, 223, 176), (181, 85, 58), (138, 75, 42)
FACES = (PAPER, WILD)  # a die's body: plain, or the wild ace's


def test_lobby_and_every_setup(screens):
    screens.lobby()
    screens.axe("the lobby")
    screens.fits("lobby", controls=False)
    for game in playable_games():
        form = screens.open_setup(game)
        screens.axe(f"{game}'s setup")
        screens.fits(f"{game}-setup", controls=False)
        # Every seat menu shown shows its whole choice ("Player on this device"): nothing cut at 360 px.
        cut = screens.page.evaluate(
            """() => [...document.querySelectorAll("form[data-form=setup] select[name$=_kind]")].filter((s) => {
                 if (!s.checkVisibility()) return false;  // a seat past Bozó's count of players
                 const probe = document.createElement("span");
                 probe.textContent = s.selectedOptions[0].textContent;
                 probe.style.cssText = "position:absolute;visibility:hidden;white-space:nowrap;font:" + getComputedStyle(s).font;
                 document.body.append(probe);
                 const wide = probe.getBoundingClientRect().width;
                 probe.remove();
                 return wide > s.clientWidth - 24;
               }).map((s) => s.name + ": " + s.selectedOptions[0].textContent)"""
        )
        assert cut == [], f"{game}'s setup cuts {cut}"
        assert "level." not in form.inner_text()  # level names, never raw catalog keys


@pytest.mark.parametrize("seats", [2, 6])
def test_perudo_turn(screens, seats):
    assert screens.start("perudo", ["human"] + ["bot:medium"] * (seats - 1)) == "human"
    screens.axe(f"Perudo's turn with {seats} seats")
    phone, desktop = screens.fits(f"perudo-{seats}")
    for image in (phone, desktop):
        screens.page.set_viewport_size(PHONE if image is phone else DESKTOP)
        screens.page.evaluate("() => window.scrollTo(0, 0)")
        assert screens.drawn_dice(image, "[data-testid=my-cup] svg.die", FACES, (INK, WILD_MARK)) == 5
    screens.page.set_viewport_size(PHONE)
    # Each opponent's strip shows as many hidden dice as it says; never "?" for our own.
    strips = screens.page.evaluate(
        """() => [...document.querySelectorAll(".perudo .cup-player")].map((li) => ({
             you: li.classList.contains("cup-you"), hidden: li.querySelectorAll(".die-hidden").length,
             open: li.querySelectorAll(".cup-open svg").length,
             says: parseInt(li.querySelector(".cup-state").textContent) || 0}))"""
    )
    assert len(strips) == seats
    assert [s for s in strips if s["you"]] == [{"you": True, "hidden": 0, "open": 5, "says": 5}]
    assert all(s["hidden"] == s["says"] > 0 for s in strips if not s["you"])
    phone = screens.shot(f"perudo-{seats}-strips")
    screens.drawn_dice(phone, ".perudo .cup-player:not(.cup-you) .die-hidden", (HIDDEN,), ((246, 241, 231),))


def test_perudo_reveal_and_game_over(screens):
    """Two players: call Dudo whenever we can, else make the lowest bid, to the end."""
    state = screens.start("perudo", ["human", "bot:easy"])
    saw_reveal = False
    for _ in range(200):
        if state == "over":
            break
        if not saw_reveal and screens.page.locator("[data-testid=reveal]").count():
            saw_reveal = True
            screens.axe("Perudo's reveal")
            screens.fits("perudo-reveal")
            announced = screens.page.inner_text("#announce")
            assert "loses a die" in announced or "wins back a die" in announced, announced
        dudo = screens.page.locator("[data-testid=dudo]")
        state = screens.act("[data-testid=dudo]" if dudo.count() else "[data-testid^=bid-face-]:not([disabled])")
    assert state == "over" and saw_reveal
    screens.axe("Perudo's game over")
    phone, _ = screens.fits("perudo-over", controls=False)
    area = screens.page.locator("#game-area")
    assert area.locator(".die-hidden").count() == 0  # the real dice, no "?" left
    assert "No bid yet" not in area.inner_text()
    assert screens.page.locator("[data-testid=game-over]").is_visible()
    assert "won" in screens.page.inner_text("#announce").lower() or "wins" in screens.page.inner_text("#announce").lower()
    screens.page.evaluate("() => window.scrollTo(0, 0)")
    screens.drawn_dice(screens.shot("perudo-over-dice"), ".perudo .cup-open svg.die", FACES, (INK, WILD_MARK))


def test_pass_and_play_handoff(screens):
    assert screens.start("perudo", ["human", "human"]) == "handoff"
    dialog = screens.page.locator("[data-testid=handoff]")
    name = screens.page.evaluate(
        "() => document.getElementById(document.querySelector('[data-testid=handoff]').getAttribute('aria-labelledby')).textContent"
    )
    assert dialog.get_attribute("role") == "dialog" and "Player" in name
    assert screens.page.locator("#game-area .die").count() == 0  # nothing secret before the tap
    screens.axe("the hand-off")
    screens.fits("handoff")


@pytest.mark.parametrize("seats", [2, 10, 20])
def test_bozo_turn(screens, seats):
    state = screens.start("bozo", ["human"] + ["bot:medium"] * (seats - 1))
    assert state == "human"
    screens.axe(f"Bozó's turn with {seats} seats")
    screens.fits(f"bozo-{seats}")
    if screens.page.locator("[data-testid=my-cup] svg.die").count():
        screens.drawn_dice(screens.shot(f"bozo-{seats}-dice"), "[data-testid=my-cup] svg.die", FACES, (INK, WILD_MARK))
    # Names are whole: no strip cuts a name with an ellipsis or hides it.
    cut = screens.page.evaluate(
        """() => [...document.querySelectorAll(".bozo .cup-name")].filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent)"""
    )
    assert cut == []
    # Every strip can be scrolled to just under the page's top bar, where neither that bar nor
    # the dock covers it (a tap at its centre reaches it).
    hidden = screens.page.evaluate(
        """() => {
             const bar = document.querySelector("header").getBoundingClientRect().height;
             const out = [...document.querySelectorAll(".bozo .cup-player")].filter((strip) => {
               window.scrollTo(0, strip.getBoundingClientRect().top + scrollY - bar - 8);
               const r = strip.getBoundingClientRect();
               const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
               return !hit || !strip.contains(hit);
             }).map((strip) => strip.querySelector(".cup-name").textContent);
             window.scrollTo(0, 0);
             return out;
           }"""
    )
    assert hidden == [], f"strips out of reach with {seats} seats"


def test_lasca_turn_pieces_drawn_on_their_squares(screens):
    assert screens.start("lasca", ["human", "bot:easy"]) == "human"
    screens.axe("Lasca's turn")
    for image, size in zip(screens.fits("lasca"), (PHONE, DESKTOP)):
        screens.page.set_viewport_size(size)
        screens.page.evaluate("() => window.scrollTo(0, 0)")
        squares = screens.page.evaluate(
            """() => [...document.querySelectorAll(".lasca-sq")].map((b) => {
                 const r = b.getBoundingClientRect();
                 return {label: b.getAttribute("aria-label"), x: r.left, y: r.top, width: r.width, height: r.height};
               })"""
        )
        assert len(squares) == 25
        white = black = 0
        for square in squares:
            # A lone piece's top disc is drawn around 2/3 down its square, as wide as most of it.
            x, y = int(square["x"] + square["width"] / 2), int(square["y"] + square["height"] * 0.62)
            colour = image.pixel(x, y)
            if square["label"].endswith(": white soldier"):
                assert near(colour, (245, 239, 224)), (square, colour)
                white += 1
            elif square["label"].endswith(": black soldier"):
                assert near(colour, (43, 38, 35)), (square, colour)
                black += 1
            else:
                assert near(colour, (233, 216, 180)), (square, colour)  # an empty light square
        assert white == black == 11
    screens.page.set_viewport_size(PHONE)
    # A draw offered in the opening is declined (issue 27): we offer and move, the bot plays on.
    assert screens.act("[data-act*=offer_draw]") == "human"
    screens.page.click('.lasca-sq[aria-label^="c3:"]')
    screens.page.locator('.lasca-sq[aria-label^="d4:"][data-act]').wait_for()
    assert screens.act('.lasca-sq[aria-label^="d4:"]') == "human"
    assert screens.page.locator("#game-area [data-testid=draw-offer]").count() == 0


@pytest.mark.parametrize("seats", [2, 10])
def test_crown_anchor_turn_and_roll(screens, seats):
    state = screens.start("crown_anchor", ["human"] + ["bot:steady"] * (seats - 1))
    assert state == "human"
    screens.axe(f"Crown and Anchor with {seats} seats")
    screens.fits(f"crown_anchor-{seats}")
    # Play until our own stack changes on a roll: stake when punting, roll when banking.
    for _ in range(20):
        if screens.page.locator("[data-testid=ca-your-result]").count():
            break
        page = screens.page
        if page.locator("[data-testid=ca-roll]").count():
            state = screens.act("[data-testid=ca-roll]")
        elif page.locator("[data-testid=ca-cell-hearts]:not([disabled])").count():
            state = screens.act("[data-testid=ca-cell-hearts]")
            state = screens.act("[data-testid=ca-done]")
        else:
            state = screens.act("[data-act]:not([disabled])")
    result = screens.page.locator("[data-testid=ca-your-result]")
    assert result.is_visible()
    assert result.inner_text() in screens.page.inner_text("#announce")
    screens.axe(f"Crown and Anchor's roll with {seats} seats")
    phone, _ = screens.fits(f"crown_anchor-{seats}-rolled")
    # The roll's three dice are drawn (face and symbol), readable stakes are text of 12 px or more.
    screens.page.evaluate("() => window.scrollTo(0, 0)")
    image = screens.shot(f"crown_anchor-{seats}-dice")
    assert screens.drawn_dice(image, "[data-testid=ca-dice] svg", (PAPER,),
                              ((192, 57, 43), (34, 34, 34), (183, 149, 11), (31, 58, 104))) == 3
    sizes = screens.page.evaluate(
        "() => [...document.querySelectorAll('.crown_anchor-stake')].map((s) => parseFloat(getComputedStyle(s).fontSize))"
    )
    assert all(size >= 12 for size in sizes)


def test_friends_table_and_invite_panel(screens):
    form = screens.open_setup("perudo", shared=True)
    screens.axe("a friends' table setup")
    form.locator('select[name="seat1_kind"]').select_option("remote")
    for seat in range(2, 6):
        form.locator(f'select[name="seat{seat}_kind"]').select_option("none")
    form.locator("[data-testid=start]").click()
    screens.page.locator("[data-testid=room-code]").wait_for()
    screens.axe("the friends' table")
    screens.fits("friends-table", controls=False)
    screens.page.click('[data-invite="1"]')
    screens.page.locator("[data-testid=share-link]").wait_for()
    screens.axe("the invite panel")
    screens.fits("invite-panel", controls=False)
    screens.page.click("#back")  # leave the table: the page is plain again for what runs next
    screens.page.locator("#lobby").wait_for()


def guest_by_room_code(host, site, wait_engine, name="Bea"):
    """A friend in another tab of the host's browser, come by the room code on the host's
    screen; its page errors count as the host's."""
    code = host.locator("[data-testid=room-code]").inner_text().strip()
    guest = host.context.new_page()
    guest.on("pageerror", lambda error: host.errors.append(f"guest: {error}"))
    enter_by_room_code(guest, code, name, wait_engine, site.url)
    return guest


def test_a_guests_screens(screens, site, wait_engine):
    """A friend in another tab of this browser comes by the room code (the tabs' own channel,
    relays off): watching first, then seated before the start, then on its turn."""
    host = screens.page
    host.evaluate("() => localStorage.setItem('taberna.useRelays', '0')")
    try:
        form = screens.open_setup("perudo", shared=True)
        form.locator('select[name="seat1_kind"]').select_option("remote")
        for seat in range(2, 6):
            form.locator(f'select[name="seat{seat}_kind"]').select_option("none")
        form.locator("[data-testid=start]").click()
        guest = guest_by_room_code(host, site, wait_engine)
        guest.locator("[data-testid=take-seat-1]").wait_for()
        as_guest = Screens(guest, screens.axe_source, screens.folder)
        as_guest.axe("a guest watching")
        as_guest.fits("guest-watching", controls=False)
        guest.click("[data-testid=take-seat-1]")
        host.locator('[data-testid="seat-1"][data-conn="connected"]').wait_for()
        guest.locator('[data-testid="seat-1"] .tb-net-you').wait_for()
        as_guest.axe("a guest seated before the start")
        as_guest.fits("guest-seated", controls=False)
        host.click("[data-testid=net-start]")
        bid = "#game-area [data-testid^=bid-face-]:not([disabled])"
        starter = guest.locator("#game-area .perudo .cup-turn")
        starter.wait_for()
        if starter.get_attribute("data-seat") == "0":  # the host opens: one bid, then the guest's turn
            host.locator(bid).first.click()
        guest.locator(bid).first.wait_for()
        as_guest.axe("a guest's turn")
        as_guest.fits("guest-turn")
        guest.close()
    finally:
        host.evaluate("() => localStorage.removeItem('taberna.useRelays')")
    screens.lobby()


# --- screens deep in a game, reached through saves ----------------------------------------------
# (game, seats, options, seed): every seat played by the game's first bot level in CPython.
SAVED_GAMES = {
    "bozo": (3, {"points_target": 1}, 1),
    "crown_anchor": (2, {"start_chips": 10}, 1),
    "botifarra": (4, {"target": 51}, 1),
    "bog": (4, {"deals": 1}, 4),
    "lasca": (2, {}, 2),
}
# Where each saved screen is cut: the first state where the player (seat 0) is to act and this
# holds; "over": one bot move before the end (the page's bot makes it).
SAVED_SCREENS = {
    "botifarra-turn": lambda s: s["phase"] == "play" and bool(s["trick"]["cards"]),
    "botifarra-trumps": lambda s: s["phase"] == "choose",
    "botifarra-doubling": lambda s: s["phase"] == "double",
    "botifarra-summary": lambda s: s["phase"] in ("choose", "double") and s["hand_number"] >= 2,
    "botifarra-over": "over",
    "bog-turn": lambda s: s["phase"] != "over",
    "bog-showdown": lambda s: s["showdown"] is not None,
    "bog-over": "over",
    "bozo-over": "over",
    "crown_anchor-over": "over",
    "lasca-over": "over",
}


def saved_records():
    """One lobby record per entry of SAVED_SCREENS (ids ``local:screen-<name>``)."""
    played = {game_id: played_by_bots(game_id, *SAVED_GAMES[game_id]) for game_id in SAVED_GAMES}
    records = []
    for number, (name, where) in enumerate(SAVED_SCREENS.items()):
        table, states = played[name.split("-")[0]]
        if where == "over":
            cut = len(table.log) - 1
            assert table.log[cut]["seat"] != 0, f"{name}: the last move is the player's (pick another seed)"
        else:
            cut = next((i for i, s in enumerate(states[:-1]) if 0 in table.game.to_act(s) and where(s)), None)
            assert cut is not None, f"{name}: no such state in the game (pick another seed)"
        records.append(local_record(f"local:screen-{name}", table, cut, number))
    return records


@pytest.fixture(scope="module")
def saved_screens(player, wait_engine):
    """The page with the saved screens in its lobby (written to IndexedDB, then a reload, not a
    backup restore: the card-group test wants a page that the tests before did not make load
    libsodium)."""
    player.evaluate(PUT_RECORDS, saved_records())
    player.reload()
    wait_engine(player)
    return player


def continue_saved(screens, name):
    screens.lobby()
    screens.page.click(f'[data-save="local:screen-{name}"] [data-testid=continue]')
    screens.page.locator("#game-area .tb-table").wait_for()
    return screens.ready()


@pytest.mark.parametrize("name", list(SAVED_SCREENS))
def test_saved_screens(screens, saved_screens, name):
    state = continue_saved(screens, name)
    assert state == ("over" if SAVED_SCREENS[name] == "over" else "human"), name
    area = screens.page.locator("#game-area")
    if state == "over":
        assert screens.page.locator("[data-testid=game-over]").is_visible()
    elif name == "botifarra-trumps":
        assert area.locator("[data-testid=bt-sheet] [data-testid=bt-trump-o]").is_visible()
    elif name == "botifarra-doubling":
        assert area.locator("[data-testid=bt-sheet] [data-testid=bt-pass]").is_visible()
    elif name == "botifarra-summary":
        assert area.locator(".botifarra-summary").is_visible()
    screens.axe(name)
    screens.fits(name, controls=state != "over")


# The other languages: the lobby, a setup and a turn in each (the game differs from one
# language to the next). A turn is a new table or a saved one (``screen-...``). Bozó keeps its
# Portuguese words in every language (as Botifarra its Catalan ones): its turn is Brazilian.
IN_LANGUAGE = {
    "pt": ("perudo", "bozo"),
    "es": ("bozo", "screen-bog-turn"),
    "ca": ("botifarra", "screen-botifarra-turn"),
    "it": ("crown_anchor", "lasca"),
}
SET_LANGUAGE = """(code) => {
  const select = document.getElementById("lang");
  select.value = code;
  select.dispatchEvent(new Event("change"));
}"""
# Every name given in an attribute (what a screen reader says, a tooltip) on the page.
LABELS = r"""() => [...document.querySelectorAll("[aria-label], [title], [alt], [placeholder]")]
  .flatMap((el) => ["aria-label", "title", "alt", "placeholder"].map((name) => el.getAttribute(name)))
  .filter((text) => text && /[a-z]{3}/i.test(text) && !/^[a-z]+:\S+$/i.test(text))"""  # an address (turn:…) is no word


# The game area was painted again since ``MARK_AREA`` (a language change redraws the screen).
MARK_AREA = "() => { const first = document.getElementById('game-area').firstElementChild; if (first) first.dataset.stale = '1'; }"
REPAINTED = """() => {
  const area = document.getElementById("game-area");
  return !area.hasAttribute("aria-busy") && area.firstElementChild && !area.firstElementChild.dataset.stale;
}"""


def set_language(page, lang):
    """Chooses ``lang`` in the settings; waits until the page and any screen read in it."""
    in_game = page.locator("#game").is_visible()
    if in_game:
        page.evaluate(MARK_AREA)
    page.evaluate(SET_LANGUAGE, lang)
    page.wait_for_function("(tag) => document.documentElement.lang === tag", arg=language_tag(lang))
    if in_game:
        page.wait_for_function(REPAINTED)


def untranslated(screens, lang, players=()):
    """The attribute names on this screen that read the same in English, but for names (of
    players, of games): left untranslated (the screen is drawn again in English to compare,
    then back in ``lang``)."""
    page = screens.page
    shown = set(page.evaluate(LABELS))
    set_language(page, "en")
    english = set(page.evaluate(LABELS))
    set_language(page, lang)
    games = {Translator(lang)(f"lobby.{game}.name") for game in playable_games()}
    return sorted(label for label in shown & english if label not in {*players, *games})


def test_other_languages(screens, saved_screens):
    assert set(IN_LANGUAGE) == set(LANGUAGES) - {"en"}
    page = screens.page
    try:
        for lang, (setup, turn) in IN_LANGUAGE.items():
            screens.lobby()
            set_language(page, lang)
            screens.axe(f"the lobby in {lang}")
            screens.open_setup(setup)
            screens.axe(f"{setup}'s setup in {lang}")
            assert untranslated(screens, lang) == [], f"{setup}'s setup in {lang}"
            if turn.startswith("screen-"):
                assert continue_saved(screens, turn.removeprefix("screen-")) == "human"
            else:
                assert screens.start(turn, ["human", "bot:" + get_game(turn).bot_levels[0]]) == "human"
            screens.axe(f"{turn}'s turn in {lang}")
            screens.fits(f"{turn}-{lang}")
            names = page.evaluate("() => [...document.querySelectorAll('#game-area .tb-name, #game-area [class$=-name]')]"
                                  ".map((el) => el.textContent.trim())")
            if turn != "bozo":  # its words read the same in English and Portuguese
                assert untranslated(screens, lang, names) == [], f"{turn}'s turn in {lang}"
    finally:
        screens.lobby()
        set_language(page, "en")


def test_the_card_group_loads_when_asked_and_computes_what_cpython_computes(player, bridge_call):
    """Fair card tables need the browser's libsodium and CPython's (``rbcl``) to agree bit for
    bit: fixed points, scalars, their inverses and products, whole decks locked and unlocked,
    and every bad point refused. libsodium is fetched when ``card_group`` first asks, not
    before."""
    fetched = []

    def heard(request):
        fetched.append(request.url.split("/", 3)[-1])

    player.on("request", heard)
    try:
        player.evaluate("() => window.taberna.call('card_group')")
    finally:
        player.remove_listener("request", heard)
    assert {"sodium/libsodium-wrappers.mjs", "sodium/libsodium-sumo.mjs", "sodium/libsodium-sumo.wasm"} <= set(fetched)
    bad = [point for point in BAD_POINTS if isinstance(point, bytes)]
    request = {
        "digests": [hashlib.sha512(f"taberna/card/{n}".encode()).hexdigest() for n in range(12)],
        "wide": [hashlib.sha512(f"lock {n}".encode()).hexdigest() for n in range(4)],
        "bad": [point.hex() for point in bad],
    }
    answer = bridge_call(player, "group_selftest", json.dumps(request))
    assert answer == exercise(NativeGroup(), request)
    assert answer["refused"] == [True] * len(bad)
    assert answer["unlocked"] == answer["points"]
