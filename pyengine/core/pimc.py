"""Determinised search ("perfect-information Monte Carlo", as GIB plays bridge and Kermit
Skat) for bots of games with hidden information.

A bot sees a view, never the state. It draws *worlds*: full states that its seat cannot
tell from the real one (the game's ``resample`` redraws everything hidden, consistently
with what the view shows and what play revealed). In each world every candidate action is
scored as if the cards were face up; the action with the best average wins. Scoring all
candidates in the same world compares them on equal terms (common random numbers), which
is what makes a dozen worlds already useful.

The budget is a number of worlds, so a bot is deterministic for a given (view, seed) in
CPython and Pyodide alike; ``seconds`` is an optional safety cap (anytime: sampling stops
once it is spent, after at least one world), the only case where the choice depends on
the machine. Tests pass budgets as world counts only.

The caller supplies the two game-specific parts:

* ``sample(rng) -> world``: one world; ``world_sampler(game, state, seat)`` builds it from a
  state the bot reconstructed from its view, through ``game.resample``;
* ``evaluate(world, candidates) -> scores``: one number per candidate, higher is better for
  the bot (a roll-out, an exact search, ...).
"""

import time

__all__ = ["Choice", "choose", "world_sampler"]


class Choice:
    """What ``choose`` decided: the action, each candidate's mean score, the worlds used."""

    __slots__ = ("action", "means", "worlds")

    def __init__(self, action, means: list, worlds: int):
        self.action = action
        self.means = means
        self.worlds = worlds

    def __repr__(self) -> str:
        return f"Choice({self.action!r}, means={self.means!r}, worlds={self.worlds})"


def choose(candidates: list, sample, evaluate, rng, *, worlds: int, seconds=None, clock=time.perf_counter) -> Choice:
    """The candidate with the best mean score over up to ``worlds`` sampled worlds.

    ``rng`` (a ``core.rng.Rng``) feeds ``sample``; ties go to the earlier candidate, so the
    caller's order is its tie-break. A single candidate is returned without sampling.
    ``seconds``, when given, stops sampling once that much time has passed (at least one
    world is always scored).
    """
    candidates = list(candidates)
    if not candidates:
        raise ValueError("choose() needs at least one candidate")
    if type(worlds) is not int or worlds < 1:
        raise ValueError("choose() needs a budget of at least one world")
    if len(candidates) == 1:
        return Choice(candidates[0], [0.0], 0)
    totals = [0.0] * len(candidates)
    started = clock()
    done = 0
    while done < worlds:
        world = sample(rng)
        scores = evaluate(world, candidates)
        if len(scores) != len(candidates):
            raise ValueError("evaluate() must score every candidate")
        totals = [total + score for total, score in zip(totals, scores)]
        done += 1
        if seconds is not None and clock() - started >= seconds:
            break
    means = [total / done for total in totals]
    best = max(range(len(candidates)), key=lambda i: (means[i], -i))
    return Choice(candidates[best], means, done)


def world_sampler(game, state: dict, seat):
    """``sample(rng)`` for ``choose``: worlds drawn by ``game.resample`` from ``state`` (a
    state consistent with ``seat``'s view, e.g. rebuilt from it)."""

    def sample(rng):
        return game.resample(state, seat, rng)

    return sample
