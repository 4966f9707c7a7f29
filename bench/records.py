"""Records (issue 26): random games of every option set through record → text → record →
replay, record sizes, games played by the bots as records and links, and mutated records
refused.

    nice -n 19 python bench/records.py [--games 200] [--bot-games 10] [--mutants 10000]   (0: skip that part)

Per option set: the games whose every replayed state matched the original and whose text
read back wrote the same text; the text's bytes per game and those of a share link's
fragment (the text without its notes, deflated with zlib, level 9, in base64url without padding); the CPU
time to record, write, read and replay one game. Then mutated records (truncated, lines
swapped, dropped or doubled, numbers changed, moves unknown, junk, huge): each must be
refused with a line and a translated reason or, if it is still a valid record, replay.
Games the bots play (each game's middle level in every seat, its default options) are as
long as people's: their text, their share link (on a GitHub Pages address) and how many of
those links one QR code holds (``shell.qr.MAX_QR_TEXT``).
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pyengine.core.registry import discover, playable_games  # noqa: E402
from pyengine.core.rng import Rng  # noqa: E402
from pyengine.core.table import Table  # noqa: E402
from pyengine.records import record_text  # noqa: E402
from pyengine.records.link import PREFIX, link_payload  # noqa: E402
from pyengine.shell.qr import MAX_QR_TEXT  # noqa: E402
from pyengine.shell.setup import default_bot_level  # noqa: E402

discover("pyengine.games")

from tests.records.proof import OPTION_SETS, mutants, random_table, refused_cleanly, round_trip  # noqa: E402

MUTATED_PLIES = 200  # the tables the mutants are made from: long enough to hold every kind of line
PAGE = f"https://someone.github.io/taberna/#{PREFIX}"  # a published copy's address (README: GitHub Pages)
BOT_PLIES = 5_000  # a bot game longer than this is cut (Crown and Anchor's bots, left alone, play on)


def link_bytes(text: str) -> int:
    """The fragment of a share link (``records.link``)."""
    return len(link_payload(text))


def round_trips(games: int) -> None:
    print("| game | options | seats | games passed | plies per game | text bytes per game (max) | link bytes per game (max) | CPU ms per game |")
    print("|---|---|---|---|---|---|---|---|")
    for game_id, options, seats in OPTION_SETS:
        texts, plies, cpu = [], 0, 0.0
        for seed in range(games):
            table, states = random_table(game_id, options, seats, seed)
            began = time.process_time()
            texts.append(round_trip(table, states))
            cpu += time.process_time() - began
            plies += len(table.log)
        sizes = [len(text.encode()) for text in texts]
        links = [link_bytes(text) for text in texts]
        shown = " ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
        print(f"| {game_id} | {shown} | {seats} | {len(texts)}/{games} | {plies / games:.0f} | "
              f"{statistics.mean(sizes):,.0f} ({max(sizes):,}) | {statistics.mean(links):,.0f} ({max(links):,}) | "
              f"{1000 * cpu / games:.1f} |", flush=True)


def bot_games(count: int) -> None:
    """Games the bots play to the end, at each game's smallest and usual table sizes."""
    print("| game | seats | games | plies per game | text bytes per game (max) | link characters per game (max) | links in one QR code | CPU s per game |")
    print("|---|---|---|---|---|---|---|---|")
    for game_id, game in playable_games().items():
        level = default_bot_level(game)
        for seats in sorted({game.min_seats, min(4, game.max_seats)}):
            texts, links, plies = [], [], 0
            began = time.process_time()
            for seed in range(count):
                table = Table(game_id, {}, [{"kind": "bot", "level": level, "name": ""}] * seats, seed)
                while not table.is_over() and len(table.log) < BOT_PLIES:
                    seat = table.next_bot_seat()
                    table.act(seat, table.bot_action(seat))
                plies += len(table.log)
                texts.append(record_text(table))
                links.append(len(PAGE) + link_bytes(texts[-1]))
            cpu = time.process_time() - began
            sizes = [len(text.encode()) for text in texts]
            fits = sum(link <= MAX_QR_TEXT for link in links)
            print(f"| {game_id} | {seats} | {count} | {plies / count:.0f} | {statistics.mean(sizes):,.0f} ({max(sizes):,}) | "
                  f"{statistics.mean(links):,.0f} ({max(links):,}) | {fits}/{count} | {cpu / count:.1f} |", flush=True)


def mutated(count: int) -> None:
    refused = taken = 0
    began = time.process_time()
    seed = 0
    while refused + taken < count:
        game_id, options, seats = OPTION_SETS[seed % len(OPTION_SETS)]
        text = round_trip(*random_table(game_id, options, seats, seed, MUTATED_PLIES))
        for mutant in mutants(text, Rng(seed)):
            if refused_cleanly(mutant):
                refused += 1
            else:
                taken += 1
        seed += 1
    cpu = time.process_time() - began
    print(f"\nmutated records: {refused + taken:,} from {seed:,} games, none raised: {refused:,} refused with a line "
          f"and a reason, {taken:,} still valid records (a cut after a whole step, a note dropped) that replay; "
          f"{1000 * cpu / (refused + taken):.2f} ms CPU per mutant")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bot-games", type=int, default=10)
    parser.add_argument("--mutants", type=int, default=10_000)
    args = parser.parse_args()
    if args.games:
        round_trips(args.games)
    if args.bot_games:
        bot_games(args.bot_games)
    if args.mutants:
        mutated(args.mutants)


if __name__ == "__main__":
    main()
