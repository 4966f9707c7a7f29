"""Lasca (Emanuel Lasker, 1911): columns of draughts pieces on a 7x7 board.

The text interface, python-chess style::

    from pyengine.games.lasca import START, parse, to_lfen, legal_moves, play, perft
    position = play(parse(START), "c3-d4")

Importing the package registers the game for the lobby and the Table.
"""

from pyengine.core import registry

from .game import GAME, Lasca
from .rules import START, legal_moves, parse, perft, play, to_lfen

registry.register(GAME)

__all__ = ["GAME", "Lasca", "START", "legal_moves", "parse", "perft", "play", "to_lfen"]
