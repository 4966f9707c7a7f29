"""Fair card tables: what a fair deal costs per hand in CPython (``kits.fair_cards``). Prints
figures; stops with an error if a hand scores otherwise than the engine scores the same deal,
or if the host ever holds a guest's secret or a guest card in the clear that the rules have
not shown (played, thrown out, shown in Bog's showdown).

    nice -n 19 python bench/fair_cards.py [--hands 200] [--game botifarra|bog|both]

Botifarra at a 4-seat shared table (the host's seat, two guests, a bot) and Bog at 4 seats
(the host's seat, two guests, a bot) and at 10 (the host's seat, five guests, four bots;
a tenth of the hands) over the in-memory transport, every device replaying the record: per
hand, the group operations of the whole table (scalar multiplications, point checks; every
device counted), the messages and bytes the guests and the host send (Bog: and how many
"not I" answers its run asked for), and the CPU time of one whole deal (lock, relock,
release) on one device that plays every seat's part (the table's critical path without
messages), with its group operations. Then one deal's messages and bytes by kind (record
entries by action) at a table where every seat is a device, for Bog at 4 and 10 seats and
Botifarra at 4: where a deal's bytes go.
"""

import argparse
import json
import pathlib
import sys
import time
from collections import Counter
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pyengine.core import group as groups  # noqa: E402
from pyengine.core.registry import get_game  # noqa: E402
from pyengine.core.rng import Rng  # noqa: E402
from pyengine.core.table import Table  # noqa: E402
from pyengine.core.validate import copy_json  # noqa: E402
from pyengine.games import bog, botifarra  # noqa: E402,F401  (registers the games)
from pyengine.kits.fair_cards import is_sealed  # noqa: E402
from pyengine.protocol import Guest, Host, MemoryNetwork  # noqa: E402
from tests.protocol.test_fair_bog import engine_deal  # noqa: E402

SEATS = [
    {"kind": "human", "name": "Host"},
    {"kind": "remote", "name": "A"},
    {"kind": "bot", "name": "Bot", "level": "easy"},
    {"kind": "remote", "name": "C"},
]
GUESTS = {"pa": 1, "pc": 3}
PLAIN_MOVES = ("trump", "botifarra", "delegate", "double", "pass", "play")


class CountingGroup(groups.NativeGroup):
    """rbcl's group, counting what the card protocol asks of it."""

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


def engine_scores(host, seen, log):
    """Botifarra's hand through the plain engine (the same deal and dealer, the same moves)
    against the fair table's: the points and gains of both."""
    table_state = host.table.state
    game = get_game("botifarra")
    plain = game.new_state({}, 4, 1)
    dealer = table_state["last_hand"]["dealer"]
    plain.update(dealer=dealer, chooser=dealer, hands=[game.sort_hand(plain, hand) for hand in seen["hands"]])
    plain["trick"]["leader"] = (dealer + 1) % 4
    for entry in log:
        action = entry["action"]
        if action["type"] in PLAIN_MOVES:
            plain = game.apply(plain, entry["seat"], {k: v for k, v in action.items() if k not in ("at", "key")})
    return [plain["last_hand"][key] for key in ("points", "gains")], [table_state["last_hand"][key] for key in ("points", "gains")]


def bog_begun(host) -> dict:
    """What the engine needs of a Bog deal besides the hands: the turned-up card and the table before it."""
    state = host.table.state
    return {"turned": state["turned"], "start": copy_json(state["deal_start"]), "dealer": state["dealer"],
            "deal": state["deal"]}


def bog_settles(host, seen, log):
    """Bog's deal through the plain engine against the fair table's: the two deal summaries."""
    return engine_deal(host.table, seen["hands"], seen["turned"], seen["start"], seen["dealer"], seen["deal"], log), \
        host.table.state["last_deal"]


@dataclass
class Bench:
    """One game's run: its seats (``remote`` seats are guests' devices) and its checks."""

    game: str
    seats: list
    legal: str  # the view's key of the legal actions
    same: object  # (host, seen, log) -> (engine's, table's): equal for an honest hand
    begun: object = lambda host: {}  # what ``same`` needs of the hand's start besides the hands
    shown: object = lambda state: set()  # the cards in a hand that its rules have shown to all

    @property
    def guests(self) -> dict:
        return {f"g{seat}": seat for seat, entry in enumerate(self.seats) if entry["kind"] == "remote"}


BOTIFARRA = Bench("botifarra", SEATS, "legal_actions", engine_scores)


def bog_bench(seats: int) -> Bench:
    """Bog with the host's seat, a bot and guests (half the other seats, the rest bots)."""
    kinds = ["human"] + ["remote" if s % 2 else "bot" for s in range(1, seats)]
    entries = [{"kind": kind, "name": f"S{s}", **({"level": "easy"} if kind == "bot" else {})} for s, kind in enumerate(kinds)]
    return Bench("bog", entries, "legal", bog_settles, bog_begun, bog_shown)


def bog_shown(state) -> set:
    """The showdown's cards and the turned-up card the dealer took."""
    shown = {card for entry in (state["showdown"] or {}).get("shown") or [] if entry for card in entry["cards"]}
    return shown | {state["turned"]}


def table_hands(bench: Bench, hands: int, seed: int):
    """``hands`` hands (fair rounds) through the protocol, checked; totals of what they cost."""
    counting = CountingGroup()
    groups.use(counting)
    rng, done, games = Rng(seed), 0, 0
    totals = Counter()
    guests = bench.guests
    peer_of = {seat: peer for peer, seat in guests.items()}
    while done < hands:
        host = Host.create(bench.game, {}, bench.seats, f"{seed + games:064x}", "bench", fair=True)
        net = CountingNetwork(host, now=1_000)
        for peer, seat in guests.items():
            net.add_guest(peer, Guest("bench", peer, seat=seat))
        net.host_says(host.start())
        net.run()
        games += 1
        while not host.table.is_over() and done < hands:
            n, start = host.table.state["fair"]["n"], len(host.table.log)
            seen = {"hands": [host.table.view(seat)["hand"] if seat not in peer_of else net.guests[peer_of[seat]].view["hand"]
                              for seat in range(len(bench.seats))], **bench.begun(host)}
            while host.table.state["fair"]["n"] == n and not host.table.is_over():
                table = host.table
                seat = table.to_act()[0]
                kind = table.seats[seat]["kind"]
                if kind == "bot":
                    net.host_says(host.play_bot())
                else:
                    view = table.view(seat) if kind == "human" else net.guests[peer_of[seat]].view
                    action = view[bench.legal][rng.below(len(view[bench.legal]))]
                    if kind == "human":
                        net.host_says(host.act(seat, action))
                    else:
                        net.guest_says(peer_of[seat], net.guests[peer_of[seat]].intend(action, net.now))
                net.run()
                assert not set(guests.values()) & set(host.table.held), "the host holds a guest's secret"
                public = bench.shown(host.table.state)
                assert all(is_sealed(c) or c in public for s in guests.values() for c in host.table.state["hands"][s]), \
                    "a guest card in the clear"
            assert host.table.state["fair"]["verdict"] is None
            assert all(not g.audit.evidence for g in net.guests.values())
            expected, played = bench.same(host, seen, host.table.log[start:])
            assert expected == played, (expected, played)
            done += 1
            totals["passes"] += sum(e["action"]["type"] == "pass" for e in host.table.log[start:])
        totals.update(net.sent)
    totals.update(counting.counts)
    return totals


def one_device_deal(game: str, seats: int, deals: int) -> tuple:
    """CPU ms of one whole deal (every seat's part and every check) on one device, and the
    group operations it asks for."""
    counting = CountingGroup()
    groups.use(counting)
    spent = 0.0
    for number in range(deals):
        table = Table(game, {}, [dict(SEATS[0], name=f"P{s}") for s in range(seats)], number, f"d:{number}")
        began = time.process_time()
        while table.fair_steps():
            for seat in table.to_act():
                table.act(seat, table.duty(seat))
        for seat in range(seats):
            table.view(seat)  # each hand read by its device
        spent += time.process_time() - began
    return 1000 * spent / deals, Counter({name: count / deals for name, count in counting.counts.items()})


def deal_traffic(game: str, seats: int) -> tuple:
    """One deal (start to every hand readable) at a table of ``seats`` devices (the host's seat
    and guests): ``(messages, bytes)`` by kind, a record's entries by their action's type."""
    entries = [{"kind": "human", "name": "Host"}] + [{"kind": "remote", "name": f"S{s}"} for s in range(1, seats)]
    host = Host.create(game, {}, entries, f"{seats:064x}", "bench", fair=True)
    net = MemoryNetwork(host, now=1_000)
    for seat in range(1, seats):
        net.add_guest(f"g{seat}", Guest("bench", f"g{seat}", seat=seat))
    net.run()
    messages, sizes = Counter(), Counter()

    def count(texts) -> None:
        for text in texts:
            message = json.loads(text)
            kind = message["kind"]
            if kind.startswith("intent"):
                kind = f"intent: {message['action']['type']}"
            messages[kind] += 1
            sizes[kind] += len(text)
            for entry in message.get("entries", []):
                size = len(json.dumps(entry, separators=(",", ":")))
                sizes[f"record: {entry['action']['type']}"] += size
                sizes[kind] -= size

    host_says, guest_says = net.host_says, net.guest_says
    net.host_says = lambda outbox: count([text for _, text in outbox]) or host_says(outbox)
    net.guest_says = lambda peer, texts: count(texts) or guest_says(peer, texts)
    net.host_says(host.start())
    net.run()
    assert host.table.state["fair"]["step"] == "play"
    return messages, sizes


def report_traffic(game: str, seats: int) -> None:
    messages, sizes = deal_traffic(game, seats)
    print(f"{game}, one deal, {seats} devices: {sum(messages.values())} messages, {sum(sizes.values()) / 1000:,.0f} kB")
    for kind, size in sizes.most_common():
        print(f"  {kind}: {size / 1000:,.1f} kB" + (f" in {messages[kind]} messages" if kind in messages else ""))


def report(title: str, bench: Bench, hands: int, seed: int) -> None:
    began = time.process_time()
    totals = table_hands(bench, hands, seed)
    spent = time.process_time() - began
    print(f"{title}, {hands} hands over the memory transport (host + {len(bench.guests)} guests replaying):")
    names = ["multiplications", "point checks", "guest messages", "guest bytes", "host messages", "host bytes"]
    for name in names + (["passes"] if bench.game == "bog" else []):
        print(f"  {name} per hand: {totals[name] / hands:,.0f}")
    print(f"  CPU per hand, every device of the table in this one process: {1000 * spent / hands:,.0f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--game", choices=("botifarra", "bog", "both"), default="both")
    args = parser.parse_args()
    if args.game in ("botifarra", "both"):
        report("Botifarra, 4 seats", BOTIFARRA, args.hands, 1)
        ms, _ = one_device_deal("botifarra", 4, 20)
        print(f"One device playing all 4 seats' part of a deal: {ms:,.0f} ms CPU per deal")
    if args.game in ("bog", "both"):
        report("Bog, 4 seats", bog_bench(4), args.hands, 1)
        report("Bog, 10 seats", bog_bench(10), max(1, args.hands // 10), 1)
        for seats in (4, 10):
            ms, counts = one_device_deal("bog", seats, 10)
            print(f"One device playing all {seats} seats' part of a Bog deal: {ms:,.0f} ms CPU per deal, "
                  f"{counts['multiplications']:,.0f} multiplications and {counts['point checks']:,.0f} point checks")
    print("Every hand settled as the engine settles the same deal; the host never held a guest's secret.")
    for game, seats in (("bog", 4), ("bog", 10), ("botifarra", 4)):
        if args.game in (game, "both"):
            report_traffic(game, seats)


if __name__ == "__main__":
    main()
