"""The fair draw's moves (``core.fair``) for a game's move table.

A game with ``fair_chance`` adds ``MOVES`` to its move table and names the phase
``fair_<step>`` (``core.fair.fair_phase``) while a step is due; the rules of each step are
``core.fair``'s, what follows them the game's hooks (``Game.fair_nonce``, ``fair_revealed``,
``fair_forfeit``).
"""

from ..core.fair import HEX, ROUND, forfeit_rule, play_commit, play_reveal, play_share
from ..core.game import Move
from ..core.shape import Dict


def _commit(game, state, seat, action, rng):
    play_commit(state["fair"], seat, action)


def _share(game, state, seat, action, rng):
    if play_share(state["fair"], seat, action):
        game.fair_nonce(state)


def _reveal(game, state, seat, action, rng):
    if play_reveal(state["fair"], seat, action):
        game.fair_revealed(state)


def _forfeit(game, state, seat, action, rng):
    game.fair_forfeit(state, seat, forfeit_rule(state["fair"], seat, action))


MOVES = {
    "commit": Move(_commit, Dict({"n": ROUND, "commit": HEX}), phases=("fair_commit",)),
    "share": Move(_share, Dict({"n": ROUND, "share": HEX}), phases=("fair_share",)),
    "reveal": Move(_reveal, Dict({"n": ROUND, "secret": HEX}), phases=("fair_reveal",)),
    "forfeit": Move(_forfeit, Dict({"n": ROUND}), phases=("fair_commit", "fair_share", "fair_reveal")),
}


