"""Bog (Poch): an old card game of chips on a six-box board, a round of bragging and a race
to empty one's hand. Coming soon: declared for the lobby (strings, icon), no rules yet."""

from ...core.registry import declare

DECLARATION = declare(__name__, order=50, kind="cards", seats=(3, 10))
