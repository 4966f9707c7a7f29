"""Fair tables: what the commit-then-reveal draw costs per round, in CPython or in Pyodide.
Prints figures, asserts nothing.

    python bench/fair.py [--rounds 2000] [--games 20] [--pyodide]

``--pyodide`` runs this same script in Pyodide under Node (``bench/in_pyodide.py``).

1. The draw alone (``core.fair``), one round at a 4-seat table, CPU time per step: *commit*
   (4 secrets drawn and committed, checked in), *nonce* (4 shares checked, the nonce), the
   4 cups computed (each by its owner), *reveal* (4 secrets checked, every cup recomputed).
2. Whole Perudo games at a 4-seat fair table (host, bot, two guests) over the in-memory
   transport: the extra messages a round costs (the guests' commit, share and reveal
   intents, a reveal that ends the round carrying the next commitment as one
   ``intent_then``, and the host's record and state messages they cause), the host's CPU time per
   draw step, and the guests' replay (*verify*: ``Audit.record`` and ``Audit.check``, for
   every message of the game), per fair round.
"""

import argparse
import pathlib
import sys
from collections import Counter

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import in_pyodide  # noqa: E402
from bench.in_pyodide import cpu_seconds  # noqa: E402
from pyengine.core import fair  # noqa: E402
from pyengine.core.rng import Rng  # noqa: E402
from pyengine.games import perudo  # noqa: E402,F401  (registers the game)
from pyengine.protocol import Guest, Host, MemoryNetwork  # noqa: E402
from pyengine.protocol.fair import Audit  # noqa: E402

ID = "bench:0"
SEATS = [
    {"kind": "human", "name": "Host"},
    {"kind": "remote", "name": "A"},
    {"kind": "bot", "name": "Bot", "level": "easy"},
    {"kind": "remote", "name": "C"},
]


def draw_alone(rounds: int) -> dict:
    """CPU milliseconds per round of each step of the bare draw, 4 seats."""
    spent = Counter()
    players = [0, 1, 2, 3]
    for n in range(1, rounds + 1):
        state, held = fair.start(ID, players, 4, n), {}
        t0 = cpu_seconds()
        for seat in players:
            fair.play_commit(state, seat, fair.duty(state, seat, held))
        t1 = cpu_seconds()
        for seat in players:
            fair.play_share(state, seat, fair.duty(state, seat, held))
        t2 = cpu_seconds()
        for seat in players:
            fair.own_cup(state, seat, held, 5)
        t3 = cpu_seconds()
        state["step"] = "reveal"
        for seat in players:
            fair.play_reveal(state, seat, fair.duty(state, seat, held))
            fair.revealed_cup(state, seat, 5)
        t4 = cpu_seconds()
        spent.update(commit=t1 - t0, nonce=t2 - t1, cups=t3 - t2, reveal=t4 - t3)
    return {step: 1000 * total / rounds for step, total in spent.items()}


class CountingHost(Host):
    """A host that files each inbound intent's messages and CPU time under its kind."""

    tally = None

    def receive(self, peer, text, now):
        kind = next((k for k in ("commit", "share", "reveal") if f'"type":"{k}"' in text), None)
        if '"kind":"intent_then"' in text:
            kind = "reveal+commit"
        start = cpu_seconds()
        outbox = super().receive(peer, text, now)
        if kind is not None:
            self.tally[kind + " ms"] += cpu_seconds() - start
            self.tally[kind + " messages"] += 1 + len(outbox)
        return outbox


def whole_games(games: int) -> tuple:
    tally, verify, rounds = Counter(), [0.0], 0
    originals = {name: getattr(Audit, name) for name in ("record", "check")}

    def timed(method):
        def run(self, *args):
            start = cpu_seconds()
            try:
                return method(self, *args)
            finally:
                verify[0] += cpu_seconds() - start
        return run

    for name, method in originals.items():
        setattr(Audit, name, timed(method))
    try:
        for game in range(games):
            host = CountingHost.create("perudo", {}, SEATS, f"{game + 1:064x}", "bench", fair=True)
            host.tally = tally
            net = MemoryNetwork(host, now=0)
            net.add_guest("pa", Guest("bench", "A", seat=1))
            net.add_guest("pc", Guest("bench", "C", seat=3))
            net.host_says(host.start())
            net.run()
            rng = Rng(game)
            while not host.table.is_over():
                table = host.table
                seat = table.to_act()[0]
                kind = table.seats[seat]["kind"]
                actions = table.game.legal_actions(table.state, seat)
                action = actions[-1] if table.state["bids"] and rng.below(3) == 0 else actions[rng.below(len(actions))]
                if kind == "bot":
                    net.host_says(host.play_bot())
                elif kind == "human":
                    net.host_says(host.act(seat, action))
                else:
                    peer = "pa" if seat == 1 else "pc"
                    net.guest_says(peer, net.guests[peer].intend(action, net.now))
                net.run()
            rounds += host.table.state["fair"]["n"]
    finally:
        for name, method in originals.items():
            setattr(Audit, name, method)
    return tally, 1000 * verify[0], rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--pyodide", action="store_true")
    args = parser.parse_args()
    if args.pyodide:
        in_pyodide.run("bench/fair.py", ["--rounds", str(args.rounds), "--games", str(args.games)])
        return
    print(f"Python {sys.version.split()[0]} on {sys.platform}")
    steps = draw_alone(args.rounds)
    print(f"The draw alone, 4 seats, {args.rounds} rounds, CPU ms per round:")
    print("  " + ", ".join(f"{step} {ms:.3f}" for step, ms in steps.items()))
    tally, verify_ms, rounds = whole_games(args.games)
    print(f"Perudo, 4-seat fair table (2 guests), {args.games} games, {rounds} fair rounds, per round:")
    for step in ("commit", "share", "reveal", "reveal+commit"):
        messages = tally[step + " messages"] / rounds
        print(f"  {step}: {messages:.1f} messages, host CPU {1000 * tally[step + ' ms'] / rounds:.2f} ms")
    print(f"  verify (both guests' replay of the record and checks of the host's views): {verify_ms / rounds:.2f} ms")


if __name__ == "__main__":
    main()
