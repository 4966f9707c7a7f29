"""Fair card tables: what a fair deal costs per hand in CPython (``kits.fair_cards``). Prints
figures; stops with an error if a hand scores otherwise than the engine scores the same deal,
or if the host ever holds a guest's secret or an unplayed guest card in the clear.

    nice -n 19 python bench/fair_cards.py [--hands 200]

Botifarra at a 4-seat shared table (the host's seat, two guests, a bot) over the in-memory
transport, every device replaying the record: per hand, the group operations of the whole
table (scalar multiplications, point checks; every device counted), the messages and bytes
the guests and the host send, and the CPU time of one whole deal (lock, relock, release) on
one device that plays all four seats' parts (the table's critical path without messages).
"""

import argparse
import json
import pathlib
import sys
import time
from collections import Counter

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pyengine.core import group as groups  # noqa: E402
from pyengine.core.registry import get_game  # noqa: E402
from pyengine.core.rng import Rng  # noqa: E402
from pyengine.core.table import Table  # noqa: E402
from pyengine.games import botifarra  # noqa: E402,F401  (registers the game)
from pyengine.kits.fair_cards import is_sealed  # noqa: E402
from pyengine.protocol import Guest, Host, MemoryNetwork  # noqa: E402

SEATS = [
    {"kind": "human", "name": "Host"},
    {"kind": "remote", "name": "A"},
    {"kind": "bot", "name": "Bot", "level": "easy"},
    {"kind": "remote", "name": "C"},
]
GUESTS = {"pa": 1, "pc": 3}
PLAIN_MOVES = ("trump", "botifarra", "delegate", "double", "pass", "play")


class CountingGroup(groups.NaclGroup):
    """PyNaCl's group, counting what the card protocol asks of it."""

    def __init__(self):
        super().__init__()
        self.counts = Counter()

    def multiply_pairs(self, scalars, points):
        self.counts["multiplications"] += len(points)
        return super().multiply_pairs(scalars, points)

    def is_valid_point(self, point):
        self.counts["point checks"] += 1
        return super().is_valid_point(point)


class CountingNetwork(MemoryNetwork):
    def __init__(self, host, now):
        super().__init__(host, now)
        self.sent = Counter()

    def host_says(self, outbox):
        self.sent["host messages"] += len(outbox)
        self.sent["host bytes"] += sum(len(text) for _, text in outbox)
        super().host_says(outbox)

    def guest_says(self, peer, texts):
        self.sent["guest messages"] += len(texts)
        self.sent["guest bytes"] += sum(len(text) for text in texts)
        super().guest_says(peer, texts)


def engine_scores(table_state, dealt_hands, log) -> tuple:
    """The same hand through the plain engine: the same deal and dealer, the same moves."""
    game = get_game("botifarra")
    plain = game.new_state({}, 4, 1)
    dealer = table_state["last_hand"]["dealer"]
    plain.update(dealer=dealer, chooser=dealer, hands=[game.sort_hand(plain, hand) for hand in dealt_hands])
    plain["trick"]["leader"] = (dealer + 1) % 4
    for entry in log:
        action = entry["action"]
        if action["type"] in PLAIN_MOVES:
            plain = game.apply(plain, entry["seat"], {k: v for k, v in action.items() if k not in ("at", "key")})
    return [plain["last_hand"][key] for key in ("points", "gains")], [table_state["last_hand"][key] for key in ("points", "gains")]


def table_hands(hands: int, seed: int):
    counting = CountingGroup()
    groups.use(counting)
    rng, done, games = Rng(seed), 0, 0
    totals = Counter()
    while done < hands:
        host = Host.create("botifarra", {}, SEATS, f"{seed + games:064x}", "bench", fair=True)
        net = CountingNetwork(host, now=1_000)
        for peer, seat in GUESTS.items():
            net.add_guest(peer, Guest("bench", peer, seat=seat))
        net.host_says(host.start())
        net.run()
        games += 1
        while not host.table.is_over() and done < hands:
            number, start = host.table.state["hand_number"], len(host.table.log)
            seen = [host.table.view(0)["hand"], net.guests["pa"].view["hand"], host.table.view(2)["hand"],
                    net.guests["pc"].view["hand"]]
            while host.table.state["hand_number"] == number and not host.table.is_over():
                table = host.table
                seat = table.to_act()[0]
                kind = table.seats[seat]["kind"]
                if kind == "bot":
                    net.host_says(host.play_bot())
                else:
                    view = table.view(seat) if kind == "human" else net.guests[{1: "pa", 3: "pc"}[seat]].view
                    action = view["legal_actions"][rng.below(len(view["legal_actions"]))]
                    if kind == "human":
                        net.host_says(host.act(seat, action))
                    else:
                        peer = {1: "pa", 3: "pc"}[seat]
                        net.guest_says(peer, net.guests[peer].intend(action, net.now))
                net.run()
                assert not {1, 3} & set(host.table.held), "the host holds a guest's secret"
                assert all(is_sealed(c) for s in (1, 3) for c in host.table.state["hands"][s]), "a guest card in clear"
            assert host.table.state["fair"]["verdict"] is None
            assert all(not g.audit.evidence for g in net.guests.values())
            expected, played = engine_scores(host.table.state, seen, host.table.log[start:])
            assert expected == played, (expected, played)
            done += 1
        totals.update(net.sent)
    totals.update(counting.counts)
    return totals


def one_device_deal(deals: int) -> float:
    """CPU ms of one whole deal (every seat's part and every check) on one device."""
    groups.use(groups.NaclGroup())
    spent = 0.0
    for number in range(deals):
        table = Table("botifarra", {}, [dict(SEATS[0], name=f"P{s}") for s in range(4)], number, f"d:{number}")
        began = time.process_time()
        while table.fair_steps():
            for seat in table.to_act():
                table.act(seat, table.duty(seat))
        for seat in range(4):
            table.view(seat)  # each hand read by its device
        spent += time.process_time() - began
    return 1000 * spent / deals


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    began = time.process_time()
    totals = table_hands(args.hands, 1)
    spent = time.process_time() - began
    print(f"Botifarra, 4 seats, {args.hands} hands over the memory transport (host + 2 guests replaying):")
    for name in ("multiplications", "point checks", "guest messages", "guest bytes", "host messages", "host bytes"):
        print(f"  {name} per hand: {totals[name] / args.hands:,.0f}")
    print(f"  CPU per hand, every device of the table in this one process: {1000 * spent / args.hands:,.0f} ms")
    print(f"One device playing all 4 seats' part of a deal: {one_device_deal(20):,.0f} ms CPU per deal")
    print("Every hand scored as the engine scores the same deal; the host never held a guest's card.")


if __name__ == "__main__":
    main()
