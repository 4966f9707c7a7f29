"""What the game tests share: the page scripts they wait on and the setup form's seed
(functions: the page's CSP refuses eval'd strings), and the taps and waits built on them."""

# What the game area is ready for: "over", "handoff" (the pass-the-phone screen), "human"
# (a control of ours, matched by the selector passed in, is ready) or false (keep waiting:
# the page is busy or a bot is to move).
READY = """(ours) => {
  const area = document.getElementById("game-area");
  if (area.hasAttribute("aria-busy")) return false;
  const status = area.dataset.status;
  if (status === "over" || status === "handoff") return status;
  if (status === "human" && area.querySelector(ours)) return "human";
  return false;
}"""
# An enabled action button: what most screens offer a human on their turn.
ACTIONS = "[data-act]:not([disabled])"
# Whatever any game offers a human on their turn: an action, a Lasca square, a card of the
# hand (Botifarra's play is a card, chosen before any action button shows).
ANY_TURN = f"{ACTIONS}, .lasca-sq:not([disabled]), .cards-fan button"


# The table was redrawn past version ``v`` (every move bumps the version).
NEWER = "v => +document.querySelector('#game-area .tb-table')?.dataset.version > v"

# A data-ui tap changes no version: mark the table, and wait until a fresh one replaced it.
MARK = "() => { document.querySelector('#game-area .tb-table').dataset.stale = '1'; }"
REDRAWN = """() => {
  const area = document.getElementById("game-area");
  const table = area.querySelector(".tb-table");
  return !area.hasAttribute("aria-busy") && table && !table.dataset.stale;
}"""

# Adds a hidden ``seed`` field to the setup form ``form`` (a selector; the form sends every
# named field), so that a test's table (deals, bots' choices) is the same on every run.
ADD_SEED = """([form, seed]) => {
  const input = document.createElement("input");
  Object.assign(input, {type: "hidden", name: "seed", value: String(seed)});
  document.querySelector(form).append(input);
}"""


# The game area's markup as the screen stands, motion aside (site/screen.js marks an element
# tb-moving as it starts to move; a screen drawn again, after a reload, stands still).
SCREEN = """() => {
  const area = document.getElementById("game-area").cloneNode(true);
  for (const el of area.querySelectorAll(".tb-moving")) el.classList.remove("tb-moving");
  return area.innerHTML;
}"""


def screen_html(page) -> str:
    """What the game area shows (``SCREEN``): the same screen drawn again gives the same text."""
    return page.evaluate(SCREEN)


def seeded_form(page, selector: str, seed: int):
    """The setup form ``selector`` once shown, its table seeded with ``seed`` (``ADD_SEED``)."""
    form = page.locator(selector)
    form.wait_for()
    page.evaluate(ADD_SEED, [selector, seed])
    return form


def seat_count(form, count: int) -> None:
    """Sets how many play on a setup form that asks first (a game for many players: its
    rows past the count are hidden, and ignored)."""
    form.locator("select[name=seat_count]").select_option(str(count))


def tap_move(page, locator, timeout_ms: int) -> None:
    """Taps what plays a move and waits until the table shows the next version."""
    before = int(page.locator("#game-area .tb-table").first.get_attribute("data-version"))
    locator.click()
    page.wait_for_function(NEWER, arg=before, timeout=timeout_ms)


def tap_view(page, locator, timeout_ms: int, force: bool = False) -> None:
    """Taps what only changes the screen (a ``data-ui`` button) and waits for the redraw.
    ``force``: tap even what Playwright would wait on, e.g. a dimmed card that is
    ``aria-disabled`` yet a player can tap."""
    page.evaluate(MARK)
    locator.click(force=force)
    page.wait_for_function(REDRAWN, timeout=timeout_ms)


def wait_ready(page, timeout_ms: int, ours: str = ACTIONS) -> str:
    """Waits until the game area is ready (see ``READY``) and says for what."""
    return page.wait_for_function(READY, arg=ours, timeout=timeout_ms).json_value()


# Until the lobby shows, "Back" is tapped whenever a table's screen shows, at most every half
# second: a screen change that a test before started may still be under way (a table opening
# after a first look found the lobby, or none of the two, on screen).
BACK_TO_LOBBY = """() => {
  if (!document.getElementById("lobby").hidden) return true;
  const now = performance.now();
  if (!document.getElementById("game").hidden && now - (window.backTappedAt ?? -Infinity) > 500) {
    window.backTappedAt = now;
    document.getElementById("back").click();
  }
  return false;
}"""


def to_lobby(page, timeout_ms: int = 90_000) -> None:
    """Back in the lobby, whatever table a test before left on screen (a page shared by tests)."""
    page.wait_for_function(BACK_TO_LOBBY, timeout=timeout_ms)
