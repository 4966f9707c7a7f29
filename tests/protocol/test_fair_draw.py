"""The fair draw itself (``core.fair``): commitments bind, the nonce needs every share, cups
are unbiased and need their owner's secret, and every wrong step is refused with its code."""

import hashlib
from collections import Counter

import pytest

from pyengine.core import fair
from pyengine.core.errors import IllegalAction

ID = "room-1:0"


def secret(i) -> str:
    """Deterministic 256-bit secrets for tests (a device draws them with ``secrets``)."""
    return hashlib.sha256(f"test secret {i}".encode()).hexdigest()


def committed_round(players=(0, 1, 2), n=1, salt=0):
    """A fair round with every player's commitment in; ``held`` as each device keeps it."""
    state = fair.start(ID, list(players), 3, n)
    held = {seat: {"n": n, "secret": secret((salt, n, seat))} for seat in players}
    for seat in players:
        fair.play_commit(state, seat, fair.duty(state, seat, held))
    return state, held


def test_a_commitment_binds_share_and_secret_to_its_table_round_and_seat():
    s = secret(1)
    base = fair.commit_secret(s, ID, 1, 0)
    assert len({base, fair.commit_secret(s, "room-2:0", 1, 0), fair.commit_secret(s, ID, 2, 0),
                fair.commit_secret(s, ID, 1, 1), fair.commit_secret(secret(2), ID, 1, 0)}) == 5
    assert fair.commitment_of(fair.share_of(s, ID, 1, 0), ID, 1, 0) == base
    assert s not in base and s not in fair.share_of(s, ID, 1, 0)


def test_the_round_goes_commit_share_play_and_the_nonce_needs_every_share():
    state, held = committed_round()
    assert state["step"] == "share" and state["nonce"] is None
    for seat in (0, 1):
        assert fair.play_share(state, seat, fair.duty(state, seat, held)) is False
    assert fair.play_share(state, 2, fair.duty(state, 2, held)) is True
    assert state["step"] == "play" and fair.owed(state) == []
    assert state["nonce"] == fair.nonce_of(state["shares"], ID, 1)
    other, other_held = committed_round(salt=1)  # one player's other secret: another nonce
    for seat in (0, 1, 2):
        fair.play_share(other, seat, fair.duty(other, seat, other_held))
    assert other["nonce"] != state["nonce"]


def test_a_cup_needs_its_owners_secret_and_is_what_the_reveal_shows():
    state, held = committed_round()
    for seat in (0, 1, 2):
        fair.play_share(state, seat, fair.duty(state, seat, held))
    mine = fair.own_cup(state, 1, held, 5)
    assert len(mine) == 5 and mine == sorted(mine)
    assert fair.own_cup(state, 1, {1: {"n": 1, "secret": secret("guess")}}, 5) is None
    assert fair.revealed_cup(state, 1, 5) is None
    state["step"] = "reveal"
    assert fair.play_reveal(state, 1, fair.duty(state, 1, held)) is False
    assert fair.revealed_cup(state, 1, 5) == mine


def test_faces_are_unbiased_over_many_cups():
    nonce = "ab" * 32
    faces = Counter(d for i in range(2_000) for d in fair.cup(secret(i), nonce, ID, 1, 0, 5))
    expected = 10_000 / 6
    chi2 = sum((faces[f] - expected) ** 2 / expected for f in range(1, 7))
    assert sorted(faces) == [1, 2, 3, 4, 5, 6] and chi2 < 20.5  # df 5, p = 0.001


def test_public_chance_is_fixed_by_the_nonce_and_spread_evenly():
    assert fair.draw("cd" * 32, "opener", 6) == fair.draw("cd" * 32, "opener", 6)
    drawn = Counter(fair.draw(hashlib.sha256(str(i).encode()).hexdigest(), "opener", 4) for i in range(4_000))
    assert all(900 < drawn[k] < 1_100 for k in range(4))
    assert len(fair.roll("cd" * 32, "roll", 3)) == 3


@pytest.mark.parametrize("tamper, code", [
    (lambda state, held, action: {**action, "n": 2}, "fair_wrong_round"),
    (lambda state, held, action: {**action, "share": fair.share_of(secret("other"), ID, 1, 0)}, "fair_bad_share"),
])
def test_a_wrong_share_is_refused_and_changes_nothing(tamper, code):
    state, held = committed_round()
    before = {key: list(v) if isinstance(v, list) else v for key, v in state.items()}
    with pytest.raises(IllegalAction) as refused:
        fair.play_share(state, 0, tamper(state, held, fair.duty(state, 0, held)))
    assert refused.value.code == code and state == before


def test_a_wrong_reveal_a_replayed_commitment_and_a_lost_secret():
    state, held = committed_round()
    for seat in (0, 1, 2):
        fair.play_share(state, seat, fair.duty(state, seat, held))
    state["step"] = "reveal"
    with pytest.raises(IllegalAction) as refused:
        fair.play_reveal(state, 0, {"type": "reveal", "n": 1, "secret": secret("guess")})
    assert refused.value.code == "fair_bad_reveal" and state["secrets"] == [None, None, None]
    following = fair.next_round(state, [0, 1, 2])
    old = state["commits"][0]
    with pytest.raises(IllegalAction) as replayed:
        fair.play_commit(following, 0, {"type": "commit", "n": 2, "commit": old})
    assert replayed.value.code == "fair_replayed" and following["commits"] == [None, None, None]
    following["step"] = "share"
    assert fair.duty(following, 0, held) is None  # a device that lost its secret can only forfeit


def test_the_duty_draws_a_new_secret_each_round():
    held = {}
    first = fair.duty(fair.start(ID, [0], 1, 1), 0, held)
    secret_one = held[0]["secret"]
    second = fair.duty(fair.start(ID, [0], 1, 2), 0, held)
    assert held[0]["n"] == 2 and held[0]["secret"] != secret_one and first["commit"] != second["commit"]


@pytest.mark.parametrize("game", ["perudo", "bozo", "crown_anchor"])
def test_a_fair_step_offers_players_no_choice_and_bots_no_turn(game):
    import pyengine.games  # noqa: F401  (registers the games)
    from pyengine.core.registry import get_game
    from pyengine.core.table import Table

    seats = [{"kind": "bot", "name": "", "level": get_game(game).bot_levels[0]}] * 3
    table = Table(game, {}, seats, 1, fair="room-1:0")
    assert table.fair_steps() and table.to_act() == [0, 1, 2]
    assert all(table.game.legal_actions(table.state, seat) == [] for seat in range(3))
    assert table.next_bot_seat() is None
    one_device = Table(game, {}, seats, 1)
    assert "fair" not in one_device.state and one_device.fair is None
