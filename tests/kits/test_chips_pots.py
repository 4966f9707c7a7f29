"""Owner-tagged pots in kits.chips (Bog's coloured chips): exact, capped by the stack."""

from pyengine.kits.chips import collect, new_pot, pay, share_out, stake


def test_stake_records_the_owner_and_pays_what_the_stack_has():
    stacks, pot = [5, 1, 0], new_pot(3)
    assert stake(stacks, pot, 0, 2) == 2 and stake(stacks, pot, 1, 2) == 1 and stake(stacks, pot, 2, 2) == 0
    assert stacks == [3, 0, 0] and pot == [2, 1, 0]


def test_collect_takes_every_owners_chips():
    stacks, pot = [3, 0, 0], [2, 1, 4]
    assert collect(stacks, pot, 1) == 7 and stacks == [3, 7, 0] and pot == [0, 0, 0]


def test_pay_is_capped_by_the_payer():
    stacks = [3, 1]
    assert pay(stacks, 0, 1, 5) == 3 and stacks == [0, 4]
    assert pay(stacks, 0, 1, 2) == 0 and stacks == [0, 4]


def test_share_out_is_proportional_and_exact():
    assert share_out(6, [1, 0, 2], [0, 1, 2]) == [2, 0, 4]
    assert share_out(7, [1, 1, 1], [2, 0, 1]) == [2, 2, 3]  # the odd chip goes first in order
    assert share_out(5, [0, 0, 0], [0, 1, 2]) == [0, 0, 0]
    for fund in range(30):
        for weights in ([3, 1, 0, 2], [1, 1, 1, 1], [0, 5, 0, 0]):
            shares = share_out(fund, weights, [1, 2, 3, 0])
            assert sum(shares) == fund and all(s == 0 for s, w in zip(shares, weights) if w == 0)
