"""Which games exist, and what each game package declares about itself.

A game is a package whose ``__init__.py`` calls ``declare``: its lobby metadata, its rules (a
``Game``), and the names of its bot and screen modules. The registry is filled by
``discover(package)``, which imports every sub-package of a games package (the shell asks for
``pyengine.games``; nothing in ``core`` names a game), so adding a game edits no shared file.
A package that declares no rules yet shows in the lobby as "coming soon".

Bots, screens and tools are imported only when first used (``bots()``, ``screen()``,
``tools()``), so opening the lobby imports rules only, and rules never import their bots
or views:

* ``bots``: a module with ``BOTS = {level: play}``, ``play(view, seed) -> action``, one
  entry per level in ``Game.bot_levels``; a bot sees one seat's view, never a state. Asked
  out of turn (a seat in ``Game.may_act``), ``play`` returns an action or ``None``.
* ``screen``: a module with ``render(view, ui, t)`` (a seat's view to markup),
  ``PERSISTENT_UI`` (the UI keys kept after a move) and either ``pause_ms(state, action)``
  or ``PAUSE_AFTER_MS = {action type: ms}`` (how long bots wait after that action); a card
  game's also ``card_name(t, card)`` (a card in words, in the reader's language: the shell
  names a card with it, e.g. in a fair table's verdict).
* ``tools``: a module with ``TOOLS = {name: call(request) -> reply}``, game-specific worker
  calls (Lasca's perft), exported under their own names.

The package folder also holds the game's message catalogs (``i18n/<id>.<lang>.po``,
lobby strings included), its how-to-play pages (``howto/<lang>.md``), its lobby icon
(``icon.svg``) and its styles (``view.css``).
"""

import importlib
from functools import partial
from pathlib import Path

from .errors import InvalidOptions
from .phrases import Phrases

KINDS = ("dice", "board", "cards", "betting")

_DECLARED: dict = {}
_IN_ORDER: list = []  # _DECLARED's values in lobby order, sorted once per change


class Screen:
    """A game's screen: its renderer and how the shell treats what it shows."""

    def __init__(self, module):
        self.render = module.render  # render(view, ui, t) -> markup
        self.persistent_ui = tuple(getattr(module, "PERSISTENT_UI", ()))
        self._pauses = dict(getattr(module, "PAUSE_AFTER_MS", {}))
        self._pause_hook = getattr(module, "pause_ms", None)  # pause_ms(state, action)
        self.card_name = getattr(module, "card_name", None)  # card_name(t, card) -> words, a card game's

    def pause_ms(self, state: dict, action: dict):
        """How long bots wait after ``action`` led to ``state``; ``None``: the usual pace."""
        if self._pause_hook is not None:
            return self._pause_hook(state, action)
        return self._pauses.get(action.get("type"))


class Declaration:
    """What a game package says about itself (see the module docstring and ``declare``)."""

    def __init__(self, package: str, order: int, kind: str, rules, seats: tuple, bots: str, screen: str, tools: str,
                 phrases: Phrases = None):
        self.id = package.rsplit(".", 1)[-1]
        self.package = package
        self.order = order
        self.kind = kind
        self.rules = rules  # the Game, or None while the game is coming soon
        self.seats = tuple(seats)  # (fewest, most) when there are no rules yet
        self.bots_module = bots
        self.screen_module = screen
        self.tools_module = tools
        self.phrases = phrases or Phrases()  # what its shared tables' players may say (core.phrases)
        self._screen = None  # the Screen, made on first use

    def __repr__(self) -> str:
        return f"Declaration({self.package!r})"

    @property
    def playable(self) -> bool:
        return self.rules is not None and bool(self.screen_module)

    @property
    def min_seats(self) -> int:
        return self.rules.min_seats if self.rules is not None else self.seats[0]

    @property
    def max_seats(self) -> int:
        return self.rules.max_seats if self.rules is not None else self.seats[1]

    @property
    def folder(self) -> Path:
        return Path(importlib.import_module(self.package).__file__).parent

    @property
    def icon(self) -> Path:
        return self.folder / "icon.svg"

    @property
    def view_shape(self):
        """The shape a guest checks a host's view against, when the rules declare one."""
        return getattr(self.rules, "view_shape", None)

    def _module(self, name: str):
        return importlib.import_module(name, self.package)

    def bots(self) -> dict:
        """``{level: play(view, seed)}``; empty for a game without bots."""
        return self._module(self.bots_module).BOTS if self.bots_module else {}

    def screen(self) -> Screen:
        """The game's screen, made once (every repaint of every table asks for it)."""
        if not self.screen_module:
            raise InvalidOptions(f"{self.id} cannot be shown yet", "unknown_game", game=self.id)
        if self._screen is None:
            self._screen = Screen(self._module(self.screen_module))
        return self._screen

    def tools(self) -> dict:
        return self._module(self.tools_module).TOOLS if self.tools_module else {}


def _play(choose, level, view, seed):
    return choose(view, level, seed)


def bots_by_level(choose, levels) -> dict:
    """``BOTS`` for a bot module whose ``choose(view, level, seed)`` plays every level."""
    return {level: partial(_play, choose, level) for level in levels}


def declare(
    package: str, *, order: int, kind: str, rules=None, seats=(), bots="", screen="", tools="", phrases=None
) -> Declaration:
    """Registers the game package ``package`` (pass ``__name__``); its id is the folder's name.

    ``bots``, ``screen`` and ``tools`` are module names relative to the package (``".bot"``),
    imported on first use. ``phrases``: the game's own phrases (``core.phrases.Phrases``;
    by default only the shared ones, on). Without ``rules`` the game is listed as coming soon and needs
    ``seats=(fewest, most)`` for its lobby card.
    """
    game_id = package.rsplit(".", 1)[-1]
    if kind not in KINDS:
        raise ValueError(f"{game_id}: kind must be one of {KINDS}")
    if rules is not None and rules.id != game_id:
        raise ValueError(f"{package} declares rules for {rules.id!r}")
    if rules is None and len(seats) != 2:
        raise ValueError(f"{game_id}: a game without rules declares seats=(fewest, most)")
    if game_id in _DECLARED and _DECLARED[game_id].package != package:
        raise ValueError(f"two packages declare the game {game_id!r}")
    declaration = Declaration(package, order, kind, rules, seats, bots, screen, tools, phrases)
    _DECLARED[game_id] = declaration
    _sort()
    return declaration


def forget(game_id: str) -> None:
    """Removes a declaration (tests that declare a game of their own)."""
    _DECLARED.pop(game_id, None)
    _sort()


def _sort() -> None:
    _IN_ORDER[:] = sorted(_DECLARED.values(), key=lambda d: (d.order, d.id))


def discover(package: str) -> list:
    """Imports every sub-package of the games package ``package`` (each declares its game) and
    returns every declaration. A folder scan rather than ``pkgutil.iter_modules``, which
    imports ``inspect`` at start-up; importing a package twice is free."""
    folder = Path(importlib.import_module(package).__file__).parent
    for sub in sorted(folder.iterdir()):
        if (sub / "__init__.py").is_file() or (sub / "__init__.pyc").is_file():  # the worker's are bytecode
            importlib.import_module(f"{package}.{sub.name}")
    return declarations()


def declarations() -> list:
    """Every declared game in lobby order."""
    return list(_IN_ORDER)


def get_declaration(game_id) -> Declaration:
    if not isinstance(game_id, str) or game_id not in _DECLARED:
        raise InvalidOptions(f"No game {game_id!r}", "unknown_game", game=str(game_id)[:32])
    return _DECLARED[game_id]


def playable_games() -> dict:
    """The games with rules, by id, in lobby order."""
    return {d.id: d.rules for d in declarations() if d.rules is not None}


def get_game(game_id):
    """The rules of ``game_id``; a game without rules (or no such game) raises."""
    declaration = get_declaration(game_id)
    if declaration.rules is None:
        raise InvalidOptions(f"No playable game {game_id!r}", "unknown_game", game=game_id)
    return declaration.rules
