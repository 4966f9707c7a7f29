"""Bog (Poch): an old card game of chips on a six-box board, a round of bragging and a race
to empty one's hand. Coming soon: declared for the lobby (strings, icon), no rules
registered yet; the rules' pure functions (``combos``) are importable from the package."""

from ...core.registry import declare
from .combos import best_combination, compare, deal_plan, next_in_suit, phase1_winner, phase2_turn

DECLARATION = declare(__name__, order=50, kind="cards", seats=(3, 10))

__all__ = ["DECLARATION", "best_combination", "compare", "deal_plan", "next_in_suit", "phase1_winner", "phase2_turn"]
