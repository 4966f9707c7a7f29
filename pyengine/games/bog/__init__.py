"""Bog: the rules' pure functions (``combos``) are importable from the package itself."""

from .combos import best_combination, compare, deal_plan, next_in_suit, phase1_winner, phase2_turn

__all__ = ["best_combination", "compare", "deal_plan", "next_in_suit", "phase1_winner", "phase2_turn"]
