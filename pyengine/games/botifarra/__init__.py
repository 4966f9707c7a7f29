"""Botifarra: the Catalan trick-taking game for two partnerships with the Spanish deck.
Coming soon: declared for the lobby (strings, icon), no rules yet."""

from ...core.registry import declare

DECLARATION = declare(__name__, order=60, kind="cards", seats=(4, 4))
