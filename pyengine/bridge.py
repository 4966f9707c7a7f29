"""The app controller that the browser worker exports: one open table, its screen, its save.

Everything a game screen shows is HTML made here (and in the games' ``view.render``); the
page's script only moves DOM, input and storage. Every function takes and returns JSON
strings so that ``xworker.sync`` can carry them unchanged.

Screen responses: ``{"ok", "html", "status", "delay_ms", "save", "message", "title"}``.
``status`` tells the page what comes next: ``"bot"`` (call ``bot_step`` after ``delay_ms``),
``"handoff"`` (pass-and-play: the phone goes to another player, whose secrets are hidden until
they tap), ``"human"`` (wait for a click), ``"over"``, ``"setup"``. ``save`` is the table to
keep in storage; ``message`` a translated reason when an input was refused.

Buttons in the HTML: ``data-act`` (play an action as the seat on screen), ``data-ui`` (change
what is shown), ``data-nav="lobby"`` / ``data-nav="setup"`` with ``data-game`` (navigation,
handled by the page).
"""

import importlib
import importlib.util
import json
import secrets
import time
from html import escape

from .core.errors import TabernaError
from .core.registry import GAME_IDS, get_game, playable_games
from .core.simulate import playout_digest, random_playout
from .core.table import MAX_SEED, Table
from .i18n import Translator
from .ui.setup import config_from_fields, setup_form

BOT_DELAY_MS = 900


def game_view_module(game_id: str):
    return importlib.import_module(f"pyengine.games.{game_id}.view")


def has_view(game_id: str) -> bool:
    return importlib.util.find_spec(f"pyengine.games.{game_id}.view") is not None


def seat_html(game_id: str, view: dict, seats, ui: dict, t) -> str:
    """One seat's view drawn by its game; views name players from ``players`` (the seats)."""
    view = dict(view)
    view["players"] = [dict(seat) for seat in seats]
    return game_view_module(game_id).render(view, dict(ui), t)


def table_section(t, game_id: str, status: str, version: int, body: str) -> str:
    title = t(f"lobby.{game_id}.name")
    return (
        f'<section class="tb-table" data-game="{game_id}" data-status="{status}" '
        f'data-version="{version}" aria-label="{escape(title, quote=True)}">{body}</section>'
    )


def over_html(t, game_id: str, result: dict, names: list, again: bool = True) -> str:
    """Who won, with "play again" (a new table of the same game; ``again``) and "back to
    the lobby"."""
    winners = ", ".join(names[s] for s in result["winners"])
    key = "over.winner" if len(result["winners"]) == 1 else "over.winners"
    again_button = (
        f'<button type="button" class="tb-primary" data-nav="setup" data-game="{game_id}">'
        f'{escape(t("over.again"))}</button> '
        if again
        else ""
    )
    return (
        '<div class="tb-over" role="status" data-testid="game-over">'
        f"<h3>{escape(t('over.title'))}</h3><p>{escape(t(key, names=winners))}</p>"
        f'{again_button}<button type="button" data-nav="lobby">{escape(t("game.back"))}</button></div>'
    )


class Session:
    """The table open in this browser tab and whose screen is showing (pass-and-play)."""

    play_again = True  # the game-over screen offers a new table of the same game

    def __init__(self):
        self.table = None
        self.viewer = None
        self.ui: dict = {}

    # --- who is looking ------------------------------------------------------------------
    def human_seats(self) -> list:
        return [i for i, seat in enumerate(self.table.seats) if seat["kind"] == "human"]

    def next_human(self):
        humans = self.human_seats()
        return next((s for s in self.table.to_act() if s in humans), None)

    def status(self) -> str:
        if self.table.is_over():
            return "over"
        if self.table.next_bot_seat() is not None:
            return "bot"
        if self.next_human() not in (None, self.viewer):
            return "handoff"
        return "human"

    def open(self, table: Table) -> None:
        self.table = table
        self.ui = {}
        humans = self.human_seats()
        # One human: it is always their screen. Several: nobody's until someone takes the phone.
        self.viewer = humans[0] if len(humans) == 1 else None

    # --- inputs ------------------------------------------------------------------------------
    def play(self, seat: int, action) -> None:
        """Applies a move of a seat on this screen (a shared table routes it via its host)."""
        self.table.act(seat, action)

    def play_bot(self, seat: int) -> None:
        self.table.act(seat, self.table.bot_action(seat))

    def act(self, action) -> None:
        seat = self.viewer
        if self.status() != "human" or seat is None or seat not in self.table.to_act():
            raise TabernaError("Wait for your turn", "not_your_turn", seat=seat)
        self.play(seat, action)
        self.keep_persistent_ui()

    def bot_step(self) -> None:
        seat = self.table.next_bot_seat()
        if seat is None:
            raise TabernaError("No bot is to play now", "no_bot_turn")
        self.play_bot(seat)
        self.keep_persistent_ui()

    def can_undo(self) -> bool:
        humans = self.human_seats()
        return (
            self.table.game.undo_allowed
            and len(humans) == 1
            and any(entry["seat"] == humans[0] for entry in self.table.log)
        )

    def undo(self) -> None:
        """Against bots: back to just before the human's previous action (bots' replies too)."""
        if not self.can_undo():
            raise TabernaError("There is no move to take back", "no_undo")
        human = self.human_seats()[0]
        log = self.table.log
        cut = max(i for i, entry in enumerate(log) if entry["seat"] == human)
        saved = self.table.to_dict()
        saved["log"] = log[:cut]
        self.table = Table.from_dict(saved)
        self.keep_persistent_ui()

    def change_ui(self, change) -> None:
        if not isinstance(change, dict):
            raise TabernaError("Bad screen change", "bad_ui")
        if change.get("undo") is True:
            self.undo()
            return
        if "handoff" in change:
            if change["handoff"] != self.next_human() or self.status() != "handoff":
                raise TabernaError("It is not that player's turn", "bad_handoff")
            self.viewer = change["handoff"]
            return
        self.ui.update(change)

    # --- output ---------------------------------------------------------------------------------
    def view_module(self):
        return game_view_module(self.table.game.id)

    def keep_persistent_ui(self) -> None:
        """After an action selections go, but toggles the player set (a view's
        ``PERSISTENT_UI``, e.g. Perudo's odds helper) stay."""
        keep = getattr(self.view_module(), "PERSISTENT_UI", ())
        self.ui = {k: v for k, v in self.ui.items() if k in keep}

    def version(self) -> int:
        """The table version the screen is marked with (tests and the page wait on it)."""
        return self.table.version

    def delay_ms(self) -> int:
        """Pause before the next bot, longer after actions a view animates or reveals
        (its ``PAUSE_AFTER_MS``, e.g. a Dudo reveal or tumbling dice)."""
        last = self.table.log[-1]["action"] if self.table.log else {}
        pauses = getattr(self.view_module(), "PAUSE_AFTER_MS", {})
        return pauses.get(last.get("type"), BOT_DELAY_MS)

    def table_html(self, t) -> str:
        """The table as the seat on screen sees it (or the hand-off screen), as a section."""
        table = self.table
        status = self.status()
        names = [seat["name"] for seat in table.seats]
        if status == "handoff":
            body = self.handoff_html(t, names)
        else:
            body = seat_html(table.game.id, table.view(self.viewer), table.seats, self.ui, t)
        if status == "over":
            body += over_html(t, table.game.id, table.game.result(table.state), names, self.play_again)
        elif self.can_undo():
            body += (
                f"<button type=\"button\" class=\"tb-undo\" data-ui='{{\"undo\":true}}' "
                f'data-testid="undo">{escape(t("table.undo"))}</button>'
            )
        return table_section(t, table.game.id, status, self.version(), body)

    def screen(self, t, message=None, ok=True) -> dict:
        table = self.table
        status = self.status()
        return {
            "ok": ok,
            "html": self.table_html(t),
            "status": status,
            "delay_ms": self.delay_ms() if status == "bot" else 0,
            "save": table.to_dict(),
            "message": message,
            "title": t(f"lobby.{table.game.id}.name"),
        }

    def handoff_html(self, t, names) -> str:
        seat = self.next_human()
        name = escape(names[seat])
        return (
            '<div class="tb-handoff" role="dialog" aria-modal="false" data-testid="handoff">'
            f'<p class="tb-handoff-text">{escape(t("handoff.pass", name=names[seat]))}</p>'
            f"<p>{escape(t('handoff.hint'))}</p>"
            f"<button type=\"button\" class=\"tb-primary\" data-ui='{{\"handoff\":{seat}}}' "
            f'data-testid="handoff-ready">{escape(t("handoff.ready", name=names[seat]))}</button>'
            f'<span class="tb-visually-hidden">{name}</span></div>'
        )



SESSION = Session()


def _response(fn):
    """Wraps a bridge call: JSON in and out, refused inputs become ``ok: false`` screens."""

    def wrapper(*args):
        lang = args[-1] if args else "en"
        t = Translator(lang if isinstance(lang, str) else "en")
        try:
            result = fn(t, *args[:-1])
        except TabernaError as error:
            reply = SESSION.screen(t, t.error(error), ok=False) if SESSION.table else {
                "ok": False,
                "html": "",
                "status": "setup",
                "delay_ms": 0,
                "save": None,
                "message": t.error(error),
                "title": "",
            }
            reply["error"] = error.to_json()
            return json.dumps(reply)
        return json.dumps(result)

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


def _not_json(name):
    raise ValueError(f"{name} is not JSON")


def parse_json(text):
    """A request's JSON; NaN and Infinity are refused (they could not be sent on as JSON)."""
    try:
        return json.loads(text, parse_constant=_not_json) if isinstance(text, str) else text
    except (ValueError, RecursionError) as error:
        raise TabernaError("The request was not valid JSON", "bad_json") from error


# --- exported calls (all: JSON strings in, a JSON string out; the last argument is the language) ---
def lobby(lang="en") -> str:
    """Which games are playable, their seat limits, bot levels and option schemas."""
    games = playable_games()
    entries = []
    for game_id in GAME_IDS:
        game = games.get(game_id)
        entry = {"id": game_id, "playable": game is not None and has_view(game_id)}
        if game is not None:
            entry.update(
                min_seats=game.min_seats,
                max_seats=game.max_seats,
                bot_levels=list(game.bot_levels),
                options={name: option.to_json() for name, option in game.options.items()},
            )
        entries.append(entry)
    return json.dumps({"games": entries})


@_response
def setup(t, game_id):
    """The new-table form for ``game_id``."""
    game = get_game(game_id)
    return {
        "ok": True,
        "html": setup_form(game, t),
        "status": "setup",
        "delay_ms": 0,
        "save": None,
        "message": None,
        "title": t(f"lobby.{game.id}.name"),
    }


@_response
def start(t, request):
    """``{"game", "fields"}`` from the setup form -> the first screen of a new table."""
    request = parse_json(request)
    if not isinstance(request, dict):
        raise TabernaError("Bad request", "bad_request")
    game = get_game(request.get("game"))
    config = config_from_fields(game, request.get("fields"), t)
    seed = config.get("seed", secrets.randbelow(MAX_SEED + 1))
    SESSION.open(Table(game.id, config["options"], config["seats"], seed))
    return SESSION.screen(t)


@_response
def resume(t, save):
    """Reopens a saved table (its log is replayed and so checked)."""
    SESSION.open(Table.from_dict(parse_json(save)))
    return SESSION.screen(t)


def _require_table():
    if SESSION.table is None:
        raise TabernaError("No table is open", "no_table")


@_response
def act(t, action):
    """Plays ``action`` for the seat on screen."""
    _require_table()
    SESSION.act(parse_json(action))
    return SESSION.screen(t)


@_response
def ui(t, change):
    """Changes only what the screen shows (selection, toggles, pass-and-play hand-off)."""
    _require_table()
    SESSION.change_ui(parse_json(change))
    return SESSION.screen(t)


@_response
def bot_step(t):
    """Lets the next bot play one action."""
    _require_table()
    SESSION.bot_step()
    return SESSION.screen(t)


@_response
def render(t):
    """The current screen again (e.g. after a language change)."""
    _require_table()
    return SESSION.screen(t)


def selftest(request) -> str:
    """Digests of seeded random games, to compare Pyodide with CPython."""
    request = parse_json(request)
    results = [
        playout_digest(game_id, seed, request.get("seats"))
        for game_id in request["games"]
        for seed in request["seeds"]
    ]
    return json.dumps({"results": results})


def bench(request) -> str:
    """Random games per second for one game in this interpreter."""
    request = parse_json(request)
    count = int(request.get("games", 50))
    began = time.perf_counter()
    for seed in range(count):
        random_playout(request["game"], seed, request.get("seats", 4))
    elapsed = time.perf_counter() - began
    return json.dumps({"games": count, "seconds": elapsed, "games_per_second": count / elapsed})


def perft(request) -> str:
    """Lasca move-generation speed in this interpreter: ``{"depth", "lfen"?}`` -> counts."""
    from .games import lasca

    request = parse_json(request)
    position = lasca.parse(request.get("lfen") or lasca.START)
    results = []
    for depth in range(1, int(request["depth"]) + 1):
        began = time.perf_counter()
        nodes = lasca.perft(position, depth)
        results.append({"depth": depth, "nodes": nodes, "seconds": time.perf_counter() - began})
    return json.dumps({"results": results})
