"""Which games exist. The lobby lists every id; only registered games are playable."""

from .errors import InvalidOptions

# Lobby order. Every entry has a lobby card; a game is playable once its package registers.
GAME_IDS = ("perudo", "bozo", "lasca", "crown_anchor", "bog", "botifarra")

_GAMES: dict = {}


def register(game) -> None:
    if game.id not in GAME_IDS:
        raise ValueError(f"unknown game id {game.id!r}")
    _GAMES[game.id] = game


def playable_games() -> dict:
    """Registered games by id (imports the game packages on first use)."""
    import pyengine.games  # noqa: F401  (registers the built-in games)

    return dict(_GAMES)


def get_game(game_id):
    games = playable_games()
    if not isinstance(game_id, str) or game_id not in games:
        raise InvalidOptions(f"No playable game {game_id!r}", "unknown_game", game=str(game_id))
    return games[game_id]
