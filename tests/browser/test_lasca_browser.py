"""Lasca in Chromium: a complete game from the lobby against the easy bot, every move entered
by tapping a column and then its landing squares (or, once, a full path), up to the game-over
panel. First, at phone and desktop size, the square buttons must tile the board and the
pieces under them must show (pixels sampled at each piece's face). Each turn the destinations the board offers are checked against the CPython engine
replaying the page's own save; refused taps must explain themselves (an opponent's column, a
column that may not move while a capture is compulsory, a square that is no destination); one
take-back must shorten the move list by the human's move and the bot's reply; a reload
half-way must resume the same table at the same version. Nothing may leave the origin."""

import json
import random
import re
import struct
import zlib
from pathlib import Path

from buildtools.po import read_po
from pyengine.core.table import Table
from pyengine.games.lasca import rules
from tests.browser.pages import BOTS_INSTANT
from tests.browser.saves import saved_text
from tests.browser.waits import screen_html, tap_move, tap_view, wait_ready

TIMEOUT_MS = 60_000
OUR_MOVE = ".lasca-sq:not([disabled])"  # ready for us: a square we may tap
MAX_HUMAN_MOVES = 120  # easy-bot games against random play end in well under 40 moves each
I18N = Path(__file__).resolve().parents[2] / "pyengine/i18n"
LASCA_I18N = Path(__file__).resolve().parents[2] / "pyengine/games/lasca/i18n"
TEXT = {
    **read_po(LASCA_I18N / "lasca.en.po"),
    **read_po(I18N / "core.en.po"),
}
HUMAN, BOT = "Ana", "Botvinnik"
DESTINATION = " — " + TEXT["lasca.destination"]


# The board as the buttons describe it, the hint, the offered paths and the move list.
SNAPSHOT = """() => {
  const area = document.getElementById("game-area");
  const squares = {};
  for (const b of area.querySelectorAll(".lasca-sq")) {
    const label = b.getAttribute("aria-label");
    squares[label.split(":")[0]] = {label, act: b.dataset.act || null, ui: b.dataset.ui || null};
  }
  const hint = area.querySelector(".lasca-hint[role=alert]");
  return {
    version: +area.querySelector(".tb-table").dataset.version,
    squares,
    hint: hint ? hint.textContent : null,
    capture_hint: !!area.querySelector(".lasca-hint:not([role])"),
    paths: [...area.querySelectorAll(".lasca-paths [data-act]")].map((b) => b.textContent),
    moves: [...area.querySelectorAll(".lasca-moves li")].flatMap((li) => li.textContent.split(" ")),
    status: area.querySelector(".lasca-status").textContent,
    undo: !!area.querySelector("[data-testid=undo]"),
  };
}"""


# Each square's button and the board, in page pixels: the buttons must tile the board.
GEOMETRY = """() => {
  const board = document.querySelector("#game-area .lasca-board").getBoundingClientRect();
  const squares = [...document.querySelectorAll("#game-area .lasca-sq")].map((b) => {
    const r = b.getBoundingClientRect();
    return {label: b.getAttribute("aria-label"), x: r.x, y: r.y, width: r.width, height: r.height};
  });
  return {board: {x: board.x, y: board.y, width: board.width, height: board.height}, squares};
}"""
# A lone piece's top face is centred half-way across its square and 66/100 down (view.py's
# _stack_svg draws it 16/100 of a square below the centre); the colours it is painted with.
FACE_AT = (0.5, 0.66)
FACE_RGB = {"white": (0xF5, 0xEF, 0xE0), "black": (0x2B, 0x26, 0x23)}
EMPTY_RGB = (0xE9, 0xD8, 0xB4)  # a playable square with nothing on it


def pixel(page, x, y):
    """The colour the page shows at (x, y): a 1x1 screenshot, decoded (any PNG filter leaves
    the first pixel of the first row as it is)."""
    png = page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1})
    at, data = 8, b""
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        if kind == b"IDAT":
            data += png[at + 8:at + 8 + length]
        at += 12 + length
    return tuple(zlib.decompress(data)[1:4])


def check_pieces_show_through(page):
    """Every square's button is its own cell of the board (none spills out), and the pieces
    and empty squares drawn under the transparent buttons are what the page really shows
    (issue 14: the shell's button style once painted opaque tiles over every piece)."""
    page.evaluate("window.scrollTo(0, 0)")
    geometry = page.evaluate(GEOMETRY)
    board, squares = geometry["board"], geometry["squares"]
    cell = board["width"] / 7
    assert len(squares) == 25 and abs(board["height"] - board["width"]) < 1
    assert board["y"] + board["height"] <= page.viewport_size["height"], "the board must be on screen"
    cells = set()
    for sq in squares:
        assert abs(sq["width"] - cell) < 1 and abs(sq["height"] - cell) < 1, sq
        col, row = (sq["x"] - board["x"]) / cell, (sq["y"] - board["y"]) / cell
        assert abs(col - round(col)) < 0.05 and abs(row - round(row)) < 0.05, sq
        assert 0 <= round(col) < 7 and 0 <= round(row) < 7, sq
        cells.add((round(col), round(row)))
    assert len(cells) == 25
    for sq in squares:
        pieces = contents(sq["label"])
        x, y = sq["x"] + FACE_AT[0] * sq["width"], sq["y"] + FACE_AT[1] * sq["height"]
        if pieces == TEXT["lasca.empty"]:
            expected = EMPTY_RGB
        else:
            assert "," not in pieces, "the check expects lone pieces (the opening)"
            white = pieces.startswith((TEXT["lasca.piece.soldier.white"], TEXT["lasca.piece.officer.white"]))
            expected = FACE_RGB["white" if white else "black"]
        shown = pixel(page, x, y)
        assert max(abs(a - b) for a, b in zip(shown, expected)) <= 6, (sq["label"], shown, expected)


def snapshot(page):
    return page.evaluate(SNAPSHOT)


def contents(label):
    """The pieces of a square's label, top first, without the destination note."""
    return label.split(": ", 1)[1].removesuffix(DESTINATION)


def own_columns(snap):
    white = (TEXT["lasca.piece.soldier.white"], TEXT["lasca.piece.officer.white"])
    return sorted(sq for sq, b in snap["squares"].items() if contents(b["label"]).startswith(white))


def enemy_columns(snap):
    black = (TEXT["lasca.piece.soldier.black"], TEXT["lasca.piece.officer.black"])
    return sorted(sq for sq, b in snap["squares"].items() if contents(b["label"]).startswith(black))


def destinations(snap):
    return sorted(sq for sq, b in snap["squares"].items() if b["label"].endswith(DESTINATION))


def hops(move):
    """The squares of a move in the notation: "a3xc5xe7" -> ["a3", "c5", "e7"]."""
    return move.replace("x", "-").split("-")


def engine_state(page):
    """The position the page saved, replayed by the CPython engine."""
    save = json.loads(saved_text(page))
    assert save["game"] == "lasca"
    return Table.from_dict(save).state


def square(page, name):
    return page.locator(f"#game-area .lasca-sq[aria-label^='{name}:']")


def tap_ui(page, locator):
    """Taps something that only changes the screen; the screen after it."""
    tap_view(page, locator, TIMEOUT_MS)
    return snapshot(page)


def start_lasca(page):
    """The human plays White (seat 1 on the form), the easy bot Black."""
    page.click("[data-open=lasca]")
    form = page.locator('form[data-form="setup"][data-game="lasca"]')
    form.wait_for()
    form.locator('select[name="seat0_kind"]').select_option("human")
    form.locator('input[name="seat0_name"]').fill(HUMAN)
    form.locator('select[name="seat1_kind"]').select_option("bot:easy")
    form.locator('input[name="seat1_name"]').fill(BOT)
    form.locator("[data-testid=start]").click()
    page.locator("#game-area .tb-table").wait_for()


class Turn:
    """One human move entered by taps, with the checks that can be made on the way."""

    def __init__(self, page, rng, seen):
        self.page, self.rng, self.seen = page, rng, seen
        self.state = engine_state(page)
        self.legal = rules.legal_moves(self.state)
        self.starts = sorted({hops(m)[0] for m in self.legal})

    def check_refusals(self, snap):
        """Once each: an opponent's column, a column that must not move while capturing."""
        page = self.page
        if "enemy" not in self.seen:
            snap = tap_ui(page, square(page, self.rng.choice(enemy_columns(snap))))
            assert snap["hint"] == TEXT["lasca.tap.enemy"]
            assert destinations(snap) == [] and snap["paths"] == []
            self.seen.add("enemy")
        idle = [sq for sq in own_columns(snap) if sq not in self.starts]
        capture = any("x" in m for m in self.legal)
        assert snap["capture_hint"] == capture
        if capture and idle and "must_capture" not in self.seen:
            snap = tap_ui(page, square(page, self.rng.choice(idle)))
            squares = ", ".join(self.starts)
            assert snap["hint"] == TEXT["lasca.tap.must_capture"].format(squares=squares)
            assert destinations(snap) == [] and snap["paths"] == []
            self.seen.add("must_capture")

    def play(self):
        page, rng = self.page, self.rng
        snap = snapshot(page)
        assert own_columns(snap) and TEXT["lasca.your_move"].format(side=TEXT["lasca.white"]) in snap["status"]
        self.check_refusals(snap)
        # Tap our columns in a seeded order until one can move; the others must say why.
        for start in rng.sample(own_columns(snap), len(own_columns(snap))):
            snap = tap_ui(page, square(page, start))
            if start in self.starts:
                break
            assert snap["hint"] in (TEXT["lasca.tap.blocked"],
                                    TEXT["lasca.tap.must_capture"].format(squares=", ".join(self.starts)))
        else:
            raise AssertionError(f"no column of ours could move: {self.legal}")
        mine = sorted(m for m in self.legal if hops(m)[0] == start)
        assert snap["hint"] is None and sorted(snap["paths"]) == mine
        if len(mine) > 1 and "path" not in self.seen:
            # Choose among full paths, as the view offers under the board.
            move = rng.choice(mine)
            choice = page.locator("#game-area .lasca-paths [data-act]").filter(has_text=re.compile(f"^{move}$"))
            tap_move(page, choice, TIMEOUT_MS)
            self.seen.add("path")
            return move
        landed = []
        while True:
            offered = destinations(snap)
            expected = sorted({hops(m)[len(landed) + 1] for m in mine
                               if hops(m)[1:len(landed) + 1] == landed})
            assert offered == expected, (start, landed, offered, mine)
            if not landed and "not_dest" not in self.seen:
                empty = [sq for sq, b in snap["squares"].items()
                         if contents(b["label"]) == TEXT["lasca.empty"] and sq not in offered]
                tapped = rng.choice(empty)
                snap = tap_ui(page, square(page, tapped))
                assert snap["hint"] == TEXT["lasca.tap.not_dest"].format(square=tapped)
                assert destinations(snap) == offered and sorted(snap["paths"]) == mine
                self.seen.add("not_dest")
            target = rng.choice(offered)
            landed.append(target)
            button = square(page, target)
            if button.get_attribute("data-act"):
                move = json.loads(button.get_attribute("data-act"))["path"]
                tap_move(page, button, TIMEOUT_MS)
                assert move in mine and hops(move)[1:] == landed
                if len(landed) > 1:
                    self.seen.add("multi_jump")
                return move
            snap = tap_ui(page, button)
            # Half-way through a capture the board shows the column where it has landed.
            assert TEXT["lasca.column"].split(", top")[0].format(square=target) in page.inner_text("#game-area")


def test_complete_lasca_game_against_the_easy_bot_by_taps(context, site, wait_engine):
    context.add_init_script(BOTS_INSTANT)
    page = context.new_page()
    page.goto(site.url)
    wait_engine(page)
    assert page.locator('[data-game="lasca"]').get_attribute("data-playable") == "true"
    start_lasca(page)
    assert wait_ready(page, TIMEOUT_MS, OUR_MOVE) == "human"
    check_pieces_show_through(page)
    page.set_viewport_size({"width": 1280, "height": 800})
    check_pieces_show_through(page)
    page.set_viewport_size({"width": 360, "height": 740})
    rng = random.Random(4)
    seen = set()
    played = 0
    while wait_ready(page, TIMEOUT_MS, OUR_MOVE) == "human":
        snap = snapshot(page)
        assert snap["undo"] == (played > 0)
        assert snap["moves"] == engine_state(page)["history"]
        if played == 3 and "undo" not in seen:
            # Take back: our last move and the bot's reply leave the list, and it is our turn.
            before = snap["moves"]
            assert len(before) >= 2
            tap_ui(page, page.locator("#game-area [data-testid=undo]"))
            assert wait_ready(page, TIMEOUT_MS, OUR_MOVE) == "human"
            after = snapshot(page)
            assert after["moves"] == before[:-2] == engine_state(page)["history"]
            seen.add("undo")
            played -= 1
            continue
        if played == 6 and "reload" not in seen:
            screen = screen_html(page)
            page.reload()
            wait_engine(page)
            page.locator("#game-area .tb-table").wait_for()
            assert wait_ready(page, TIMEOUT_MS, OUR_MOVE) == "human"
            assert snapshot(page)["version"] == snap["version"]
            assert screen_html(page) == screen
            seen.add("reload")
        move = Turn(page, rng, seen).play()
        played += 1
        assert played <= MAX_HUMAN_MOVES
        assert move in snapshot(page)["moves"]
    assert {"enemy", "undo", "reload", "not_dest"} <= seen, seen
    over = page.locator("#game-area [data-testid=game-over]")
    assert over.is_visible()
    final = engine_state(page)
    result = final["result"]
    assert result is not None and result.get("reason") == "no_moves"
    (winner,) = result["winners"]
    winner_side = TEXT["lasca.white"] if winner == 0 else TEXT["lasca.black"]
    loser_side = TEXT["lasca.black"] if winner == 0 else TEXT["lasca.white"]
    assert rules.legal_moves(final) == []
    assert [line for line in over.inner_text().splitlines() if line.strip()][:2] == [
        TEXT["over.title"], TEXT["over.winner"].format(names=HUMAN if winner == 0 else BOT)
    ]
    status = page.inner_text("#game-area .lasca-status")
    assert status == TEXT["lasca.wins"].format(side=winner_side) + " — " + TEXT[
        "lasca.reason.no_moves"].format(side=loser_side)
    assert snapshot(page)["moves"] == final["history"]
    assert page.locator("#game-area .lasca-sq:not([disabled])").count() == 0
    print(f"lasca: {played} human moves, {len(final['history'])} plies, seen {sorted(seen)}")
    assert context.recorder.foreign(site.origin) == []
    assert context.recorder.errors == []
