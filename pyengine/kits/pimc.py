"""Determinised search ("perfect-information Monte Carlo", as GIB plays bridge and Kermit
Skat) for bots of games with hidden information.

A bot sees a view, never the state. It draws *worlds*: full states that its seat cannot
tell from the real one (the game's ``resample`` redraws everything hidden, consistently
with what the view shows and what play revealed). In each world every candidate action is
scored as if the cards were face up; the action with the best average wins. Scoring all
candidates in the same world compares them on equal terms (common random numbers), which
is what makes a dozen worlds already useful.

The budget is a number of worlds and, optionally, an allowance of ``Work`` (units the game
counts, such as cards played in its worlds): sampling stops at whichever runs out first,
after at least one world (anytime under a deadline). Both are counted, never timed, so a
bot is deterministic for a given (view, seed) in CPython and Pyodide alike, on a fast
machine or a busy one, and its worst case is still bounded.

The caller supplies the two game-specific parts:

* ``sample(rng) -> world``: one world; ``world_sampler(game, state, seat)`` builds it from a
  state the bot reconstructed from its view, through ``game.resample``;
* ``evaluate(world, candidates) -> scores``: one number per candidate, higher is better for
  the bot (a roll-out, an exact search, ...); it spends from the ``Work`` given to
  ``choose``, if any, what each world cost.

Optionally ``weigh(world) -> likelihood``: how likely what the others did so far (their
bids, their choices) was in that world. Sampling consistently with the hard facts is cheap;
soft evidence ("he chose hearts, so he is probably long in them") is cheaper to apply as a
weight on each world than by drawing worlds until one fits (importance sampling).
"""

__all__ = ["Choice", "Work", "choose", "world_sampler"]


class Work:
    """A decision's allowance of work in units the game counts; ``evaluate`` spends it."""

    __slots__ = ("left",)

    def __init__(self, units: int):
        if type(units) is not int or units < 1:
            raise ValueError("Work needs at least one unit")
        self.left = units

    def spend(self, units: int) -> None:
        self.left -= units

    def exhausted(self) -> bool:
        return self.left <= 0


class Choice:
    """What ``choose`` decided: the action, each candidate's mean score, the worlds used."""

    __slots__ = ("action", "means", "worlds")

    def __init__(self, action, means: list, worlds: int):
        self.action = action
        self.means = means
        self.worlds = worlds

    def __repr__(self) -> str:
        return f"Choice({self.action!r}, means={self.means!r}, worlds={self.worlds})"


def choose(candidates: list, sample, evaluate, rng, *, worlds: int, work: Work = None, weigh=None) -> Choice:
    """The candidate with the best mean score over up to ``worlds`` sampled worlds.

    ``rng`` (a ``core.rng.Rng``) feeds ``sample``; ties go to the earlier candidate, so the
    caller's order is its tie-break. A single candidate is returned without sampling.
    ``work``, when given, stops sampling once ``evaluate`` has spent it (at least one world
    is always scored). ``weigh``, when given, makes the means weighted by each world's
    likelihood (worlds that all weigh 0 count alike).
    """
    candidates = list(candidates)
    if not candidates:
        raise ValueError("choose() needs at least one candidate")
    if type(worlds) is not int or worlds < 1:
        raise ValueError("choose() needs a budget of at least one world")
    if len(candidates) == 1:
        return Choice(candidates[0], [0.0], 0)
    totals = [0.0] * len(candidates)
    plain = [0.0] * len(candidates)
    weights = 0.0
    done = 0
    while done < worlds:
        world = sample(rng)
        weight = 1.0 if weigh is None else weigh(world)
        scores = evaluate(world, candidates)
        if len(scores) != len(candidates):
            raise ValueError("evaluate() must score every candidate")
        totals = [total + weight * score for total, score in zip(totals, scores)]
        plain = [total + score for total, score in zip(plain, scores)]
        weights += weight
        done += 1
        if work is not None and work.exhausted():
            break
    means = [total / weights for total in totals] if weights > 0 else [total / done for total in plain]
    best = max(range(len(candidates)), key=lambda i: (means[i], -i))
    return Choice(candidates[best], means, done)


def world_sampler(game, state: dict, seat):
    """``sample(rng)`` for ``choose``: worlds drawn by ``game.resample`` from ``state`` (a
    state consistent with ``seat``'s view, e.g. rebuilt from it)."""

    def sample(rng):
        return game.resample(state, seat, rng)

    return sample
