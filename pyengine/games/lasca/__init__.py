"""Lasca (Emanuel Lasker, 1911): columns of draughts pieces on a 7x7 board.

The text interface, python-chess style::

    from pyengine.games.lasca import START, parse, to_lfen, legal_moves, play, perft
    position = play(parse(START), "c3-d4")

Importing the package declares the game for the lobby and the Table; its worker tool
``perft`` (``tools.py``) measures move generation in the browser.
"""

from ...core.phrases import Phrases
from ...core.registry import declare
from .game import GAME, Lasca
from .rules import START, legal_moves, parse, perft, play, to_lfen

DECLARATION = declare(
    __name__, order=30, kind="board", rules=GAME, bots=".bot", screen=".view", tools=".tools",
    phrases=Phrases("nice_capture", "your_move"),
)

__all__ = ["GAME", "Lasca", "START", "legal_moves", "parse", "perft", "play", "to_lfen"]
