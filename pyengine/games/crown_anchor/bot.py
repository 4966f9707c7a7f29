"""Crown and Anchor bots: staking by temperament, from a seat's view only.

Every stake loses 17/216 on average (nothing at a fair table), so no choice of symbols is
better than another; what differs between temperaments is how much of the bankroll they
risk each round and over how many symbols they spread it. Bots agree to end the game as
soon as anyone (banker included) has proposed it, and the banker bot rolls (or ends, once
all agree); it never proposes to stop itself.
"""

from ...core.registry import bots_by_level
from ...core.rng import Rng
from .rules import SYMBOLS

# level -> (share of the bankroll staked per round, most symbols covered, volunteers for bank)
TEMPERS = {
    "cautious": (0.02, 1, False),
    "steady": (0.05, 2, True),
    "reckless": (0.15, 3, True),
}

DONE = {"type": "done"}


def choose_action(view: dict, level: str, seed: int) -> dict:
    """One action for ``view["you"]``; bets are placed one per call until the round's budget."""
    if level not in TEMPERS:
        raise ValueError(f"unknown bot level {level!r}")
    share, spread, volunteers = TEMPERS[level]
    me = view["you"]
    phase = view["phase"]
    if phase == "volunteer":
        return {"type": "volunteer", "yes": volunteers}
    if phase == "roll":
        return {"type": "end"} if view["agreed"] else {"type": "roll"}
    if any(voted and s != me for s, voted in enumerate(view["votes"])):
        return {"type": "end"}
    return _stake(view, me, share, spread, Rng(seed))


BOTS = bots_by_level(choose_action, TEMPERS)


def _stake(view: dict, me: int, share: float, spread: int, rng: Rng) -> dict:
    """The next chip placement towards ``share`` of the bankroll, or ``done``.

    Never stakes more than the stack in front of the bot, and keeps to the table limits.
    """
    low, high = view["options"]["min_bet"], view["options"]["max_bet"]
    stakes = view["stakes"][me]
    chips = view["chips"][me]
    staked = sum(stakes.values())
    target = max(low, int((chips + staked) * share))
    per_symbol = max(low, -(-target // spread))
    if high:
        per_symbol = min(per_symbol, high)
    if staked >= target:
        return DONE
    candidates = [s for s in SYMBOLS if s in stakes and stakes[s] < per_symbol]
    if not candidates and len(stakes) < spread:
        candidates = [s for s in SYMBOLS if s not in stakes]
    if not candidates:
        return DONE
    symbol = candidates[rng.below(len(candidates))]
    current = stakes.get(symbol, 0)
    amount = max(min(per_symbol - current, target - staked, chips), low - current)
    if amount <= 0 or amount > chips or (high and current + amount > high):
        return DONE
    return {"type": "bet", "symbol": symbol, "chips": amount}
