"""kits.pimc: determinised choice by world counts (never by time)."""

import pytest

from pyengine.kits.pimc import Work, choose, world_sampler
from pyengine.core.rng import Rng


def test_the_best_mean_over_the_sampled_worlds_wins():
    # Each world is a coin; "heads" pays 1 in heads worlds, "safe" always 0.6.
    def sample(rng):
        return rng.below(4) != 0  # heads three times in four

    def evaluate(world, candidates):
        return [(1.0 if world else 0.0) if c == "heads" else 0.6 for c in candidates]

    choice = choose(["safe", "heads"], sample, evaluate, Rng(7), worlds=200)
    assert choice.action == "heads"
    assert choice.worlds == 200
    assert 0.65 < choice.means[1] < 0.85 and choice.means[0] == pytest.approx(0.6)


def test_weighed_worlds_count_by_their_likelihood():
    # The coin again; evidence makes tails worlds four times likelier, so "heads" pays
    # (3 x 1) / (3 x 1 + 1 x 4) = 3/7 on average, below "safe"; all-zero weights count alike.
    def sample(rng):
        return rng.below(4) != 0

    def evaluate(world, candidates):
        return [(1.0 if world else 0.0) if c == "heads" else 0.6 for c in candidates]

    choice = choose(["safe", "heads"], sample, evaluate, Rng(7), worlds=400, weigh=lambda heads: 1 if heads else 4)
    assert choice.action == "safe"
    assert 0.35 < choice.means[1] < 0.5
    unweighed = choose(["safe", "heads"], sample, evaluate, Rng(7), worlds=400)
    assert choose(["safe", "heads"], sample, evaluate, Rng(7), worlds=400, weigh=lambda w: 0).means == unweighed.means


def test_same_seed_same_choice_and_ties_go_to_the_first_candidate():
    def evaluate(world, candidates):
        return [world % 3 == i for i in range(len(candidates))]

    a = choose(["x", "y", "z"], lambda rng: rng.below(3), evaluate, Rng(1), worlds=9)
    b = choose(["x", "y", "z"], lambda rng: rng.below(3), evaluate, Rng(1), worlds=9)
    assert (a.action, a.means) == (b.action, b.means)
    tied = choose(["x", "y"], lambda rng: 0, lambda w, c: [1, 1], Rng(1), worlds=3)
    assert tied.action == "x"


def test_a_single_candidate_needs_no_world_and_bad_budgets_are_refused():
    def never(rng):
        raise AssertionError("no world needed")

    assert choose(["only"], never, None, Rng(1), worlds=5).action == "only"
    with pytest.raises(ValueError):
        choose([], never, None, Rng(1), worlds=5)
    with pytest.raises(ValueError):
        choose(["a", "b"], never, None, Rng(1), worlds=0)


def test_the_work_allowance_stops_after_at_least_one_world():
    work = Work(25)

    def evaluate(world, candidates):
        work.spend(10)  # what this world cost
        return [0, 1]

    choice = choose(["a", "b"], lambda rng: 0, evaluate, Rng(1), worlds=50, work=work)
    assert choice.action == "b" and choice.worlds == 3  # 10 + 10 + 10 passes 25
    costly = Work(1)
    assert choose(["a", "b"], lambda rng: 0, lambda w, c: costly.spend(99) or [1, 0], Rng(1), worlds=50,
                  work=costly).worlds == 1
    with pytest.raises(ValueError):
        Work(0)


def test_world_sampler_draws_through_resample():
    class Game:
        def resample(self, state, seat, rng):
            return {"seat": seat, "draw": rng.below(1000), **state}

    sample = world_sampler(Game(), {"x": 1}, 2)
    world = sample(Rng(3))
    assert world["seat"] == 2 and world["x"] == 1 and world == sample(Rng(3))
