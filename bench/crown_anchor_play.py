"""Crown and Anchor figures: bot tables' speed, each temperament's results, render time.

    python bench/crown_anchor_play.py [--tables N] [--rolls N]

Bot tables of six seats (two of each temperament, bank by lot) play ``--rolls`` rolls each.
Per temperament it prints the return per chip staked (exact: -17/216 = -7.87 %), chips
staked per roll and how many bot punters left the table broke. Times are CPU seconds of
this process, robust to a loaded machine.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pyengine.core.table import Table  # noqa: E402
from pyengine.games.crown_anchor import GAME, expected_return  # noqa: E402
from pyengine.games.crown_anchor.rules import _expected_for  # noqa: E402
from pyengine.games.crown_anchor.view import render  # noqa: E402
from pyengine.i18n import Translator  # noqa: E402

LEVELS = GAME.bot_levels


def play_tables(tables: int, rolls: int) -> dict:
    figures = {level: {"staked": 0, "gained": 0, "broke": 0, "punter_rolls": 0} for level in LEVELS}
    decisions = 0
    cpu = 0.0
    for seed in range(tables):
        seats = [{"kind": "bot", "name": f"B{i}", "level": LEVELS[i % 3]} for i in range(6)]
        table = Table("crown_anchor", {"start_chips": 200}, seats, seed)
        while not table.is_over() and table.state["rolls"] < rolls:
            seat = table.next_bot_seat()
            began = time.process_time()
            action = table.bot_action(seat)
            cpu += time.process_time() - began
            decisions += 1
            before = table.state
            table.act(seat, action)
            if action["type"] == "roll":
                last = table.state["last"]
                for punter, bets in enumerate(last["stakes"]):
                    if punter == last["banker"] or not before["active"][punter]:
                        continue
                    level = seats[punter]["level"]
                    figures[level]["staked"] += sum(bets.values())
                    figures[level]["gained"] += last["delta"][punter]
                    figures[level]["punter_rolls"] += 1
                    if punter in last["left"] and table.state["chips"][punter] == 0:
                        figures[level]["broke"] += 1
    return {"levels": figures, "decisions": decisions, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--rolls", type=int, default=200)
    args = parser.parse_args()

    began = time.process_time()
    _expected_for.cache_clear()
    expected_return({})
    print(f"expected_return (216 rolls x 6 symbols, uncached): {1000 * (time.process_time() - began):.1f} ms")

    began = time.process_time()
    result = play_tables(args.tables, args.rolls)
    total = time.process_time() - began
    print(f"{args.tables} six-bot tables x {args.rolls} rolls: {total:.2f} s CPU, "
          f"{result['decisions'] / total:.0f} actions/s including rules, "
          f"{1e6 * result['cpu'] / result['decisions']:.0f} us per bot decision")
    exact = float(expected_return({}))
    for level, f in result["levels"].items():
        ret = f["gained"] / f["staked"] if f["staked"] else 0.0
        print(f"  {level:9s} staked {f['staked']:7d} chips ({f['staked'] / max(1, f['punter_rolls']):5.1f} per roll), "
              f"return per chip {100 * ret:+6.2f} % (exact {100 * exact:+.2f} %), went broke {f['broke']}")

    table = Table("crown_anchor", {}, [{"kind": "bot", "name": f"B{i}", "level": "steady"} for i in range(6)], 1)
    while table.state["rolls"] < 12:
        table.act(table.next_bot_seat(), table.bot_action(table.next_bot_seat()))
    view = table.view(0)
    view["players"] = table.seats
    t = Translator("pt")
    began = time.process_time()
    for _ in range(200):
        render(view, {}, t)
    print(f"render, six seats, 12 rolls of history: {5 * (time.process_time() - began):.2f} ms per screen "
          f"({len(str(render(view, {}, t)))} bytes)")


if __name__ == "__main__":
    main()
