"""Lasca seat view -> built ``Markup`` with an SVG board (pure; tested in CPython).

The SVG draws the 7x7 board and every column as a stack of discs, bottom piece lowest,
officers marked with a star (commander) or a gold rim (prisoner). Over it sits a grid of
transparent <button>s, one per playable square, in visual order so Tab follows the board;
each is placed on the board's 7x7 CSS grid by ``lasca-col-<n>`` and ``lasca-row-<n>``
classes (``view.css``), since the site allows no inline style.

UI state (``ui``, reset after every move): ``select`` (a square), ``path`` (landing squares
tapped so far in a multi-jump), ``tap`` (a refused tap to explain), ``flip`` (board
turned). A tap on a landing square that completes a legal move carries ``data-act``;
every other tap only updates ``ui``, and the re-render says why a tap did nothing.
"""

from ...ui.html import act_button, ui_button
from ...ui.markup import Markup, fragment, h
from ...ui.motion import moving
from .rules import INDEX, NAMES, SQUARES, make

CELL = 100
RESULT_KEYS = {"no_moves": "lasca.reason.no_moves", "agreement": "lasca.reason.agreement",
               "repetition": "lasca.reason.repetition"}


def _split(move: str) -> list:
    return move.replace("x", "-").split("-")


def _side_name(t, side: int) -> str:
    return t("lasca.white") if side == 0 else t("lasca.black")


def _describe(t, column: str) -> str:
    return ", ".join(t(f"lasca.piece.{'officer' if p.isupper() else 'soldier'}."
                       f"{'white' if p in 'wW' else 'black'}") for p in column)


class _Board:
    """Where squares are drawn: orientation and pixel centres."""

    def __init__(self, flipped: bool):
        self.flipped = flipped

    def cell(self, f: int, r: int):
        """(column, row) on screen, 0..6 from the top left."""
        return (6 - f, r) if self.flipped else (f, 6 - r)

    def order(self):
        """Playable square indices in reading order (top row first)."""
        return sorted(range(25), key=lambda i: self.cell(*SQUARES[i])[::-1])


# A column's discs (half-height ``DISC_RY``, their shadow ``SHADOW`` lower) stay inside their
# square: the bottom disc's shadow at most ``STACK_BOTTOM`` below the centre, the top disc
# at most ``STACK_TOP`` above it, the discs closing up as the column grows. A lone piece sits
# ``LONE_DROP`` below the centre.
DISC_RY, SHADOW = 13, 5
STACK_BOTTOM, STACK_TOP, LONE_DROP = 46, 34, 16
DISC_STEP = 11.0
STACK_RISE = STACK_BOTTOM + STACK_TOP - 2 * DISC_RY - SHADOW  # bottom disc centre to top disc centre, at most


def _stack_svg(column: str, x: float, y: float) -> Markup:
    """Discs from the bottom piece up; the commander's face is drawn last, on top."""
    n = len(column)
    step = min(DISC_STEP, STACK_RISE / (n - 1)) if n > 1 else 0
    base = y + min(LONE_DROP + step * (n - 1) / 2, STACK_BOTTOM - DISC_RY - SHADOW)
    parts = []
    for depth in range(n - 1, -1, -1):
        piece = column[depth]
        cy = base - step * (n - 1 - depth)
        fill, stroke = ("#f5efe0", "#5b4a33") if piece in "wW" else ("#2b2623", "#0d0b0a")
        rim = "#d4a017" if piece.isupper() else stroke
        parts.append(h("ellipse", {"cx": x, "cy": cy + SHADOW, "rx": 34, "ry": DISC_RY, "fill": stroke}))
        parts.append(h("ellipse", {"cx": x, "cy": cy, "rx": 34, "ry": DISC_RY, "fill": fill, "stroke": rim,
                                   "stroke-width": 3 if piece.isupper() else 1.5}))
        if depth == 0 and piece.isupper():
            parts.append(h("text", {"x": x, "y": cy + 6, "text-anchor": "middle", "font-size": 20, "fill": "#d4a017"},
                           "\u2605"))
    if n > 1:
        parts.append(h("text", {"x": x + 40, "y": y - 30, "text-anchor": "end", "font-size": 15, "fill": "#222",
                                "font-weight": 700}, n))
    return h("g", {"class": "lasca-stack"}, parts)


def _refusal(view: dict, square, starts) -> tuple:
    """Why the column on ``square`` cannot be picked up: (message key, params)."""
    column = view["columns"].get(square)
    own = "wW" if view["turn"] == 0 else "bB"
    if not column:
        return "lasca.tap.empty", {}
    if column[0] not in own:
        return "lasca.tap.enemy", {}
    if view["capture"]:
        return "lasca.tap.must_capture", {"squares": ", ".join(sorted(starts))}
    return "lasca.tap.blocked", {}


def _interaction(view: dict, ui: dict, mine: bool):
    """What tapping each square does, and why the last tap did nothing.

    Returns (actions {square: ("act" | "ui", payload)}, selected square, path so far,
    the legal moves still matching the selection, next landing squares, hint or None).
    """
    moves = [_split(m) for m in view["moves"]] if mine else []
    starts = {m[0] for m in moves}
    select = ui.get("select")
    path = ui.get("path") if isinstance(ui.get("path"), list) else []
    hint = None
    if select not in starts:
        if select in NAMES and mine:
            hint = _refusal(view, select, starts)
        select, path = None, []
    chosen = [m for m in moves if m[0] == select and len(m) > len(path) + 1 and m[1:len(path) + 1] == path]
    if select and not chosen:  # a stale or complete path: the selection starts again
        path = []
        chosen = [m for m in moves if m[0] == select]
    depth = len(path) + 1
    joiner = "x" if view["capture"] else "-"
    nexts = {}
    for m in chosen:
        if len(m) == depth + 1:
            nexts[m[depth]] = ("act", {"type": "move", "path": joiner.join(m)})
        else:
            nexts[m[depth]] = ("ui", {"path": path + [m[depth]], "tap": None})
    tap = ui.get("tap")
    if select and tap in NAMES and tap not in nexts:
        hint = ("lasca.tap.continue", {}) if path else ("lasca.tap.not_dest", {"square": tap})
    actions = {}
    if mine:
        pick_up = {"path": [], "tap": None}
        for name in NAMES:
            if name in nexts:
                actions[name] = nexts[name]
            elif name == select and not path:
                actions[name] = ("ui", {"select": None, **pick_up})
            elif name in view["columns"] or not select:
                actions[name] = ("ui", {"select": name, **pick_up})
            else:
                actions[name] = ("ui", {"tap": name})
    return actions, select, path, chosen, set(nexts), hint


def _jumped(a: int, b: int) -> int:
    """The square between squares ``a`` and ``b`` of a capture."""
    (fa, ra), (fb, rb) = SQUARES[a], SQUARES[b]
    return INDEX[f"{'abcdefg'[(fa + fb) // 2]}{(ra + rb) // 2 + 1}"]


def _in_flight(columns: dict, squares: list) -> dict:
    """The columns as they stand partway through a capture (jumped commanders taken)."""
    board = [columns.get(name, "") for name in NAMES]
    path = [INDEX[name] for name in squares]
    after = make(board, (path, [_jumped(a, b) for a, b in zip(path, path[1:])]))
    return {NAMES[i]: col for i, col in enumerate(after) if col}


def _last_move_motion(board: _Board, last: list, ply: int) -> dict:
    """What the last move did, to show in motion (ui/motion.py): the column on its landing
    square arrives from where it started (in squares as drawn), each column it jumped flashes."""
    if not last or not all(name in INDEX for name in last):
        return {}
    path = [INDEX[name] for name in last]
    (fx, fy), (tx, ty) = board.cell(*SQUARES[path[0]]), board.cell(*SQUARES[path[-1]])
    marks = {last[-1]: ("arrive", f"ply-{ply}", fx - tx, fy - ty, "chips")}  # a column of discs set down
    for a, b in zip(path, path[1:]):
        if abs(SQUARES[a][0] - SQUARES[b][0]) == abs(SQUARES[a][1] - SQUARES[b][1]) == 2:  # a jump, not a step
            over = NAMES[_jumped(a, b)]
            marks[over] = ("hit", f"hit-{ply}-{over}", 0, 0, None)
    return marks


# The 49 squares never change: built once.
_SQUARES = fragment(
    h("rect", {"x": col * CELL, "y": row * CELL, "width": CELL, "height": CELL,
               "fill": "#e9d8b4" if (row + col) % 2 == 0 else "#7a5230"})
    for row in range(7) for col in range(7)
)


def _board_svg(t, board: _Board, columns: dict, last: list, ply: int, marked: set, targets: set) -> Markup:
    """The squares, the last move shaded (and its columns in motion), the selection outlined,
    landing squares dotted."""
    motion = _last_move_motion(board, last, ply)
    shapes = [_SQUARES]
    for index, (f, r) in enumerate(SQUARES):
        name = NAMES[index]
        cx, cy = board.cell(f, r)
        x, y = cx * CELL, cy * CELL
        inset = {"x": x + 3, "y": y + 3, "width": CELL - 6, "height": CELL - 6}
        if name in last:
            shapes.append(h("rect", {**inset, "fill": "#f2c94c", "fill-opacity": 0.45}))
        if name in marked:
            shapes.append(h("rect", {**inset, "fill": "none", "stroke": "#1f6feb", "stroke-width": 6}))
        if name in targets:
            shapes.append(h("circle", {"cx": x + 50, "cy": y + 50, "r": 16, "fill": "#2e9e44", "fill-opacity": 0.75}))
        shapes.append(h("text", {"x": x + 5, "y": y + 15, "font-size": 13, "fill": "#7a5230"}, name))
        if name in columns:
            stack = _stack_svg(columns[name], x + 50, y + 50)
            if name in motion:
                kind, key, dx, dy, sound = motion[name]
                stack = h("g", moving({}, kind, key, dx, dy, sound=sound), stack)
            shapes.append(stack)
    return h("svg", {"viewBox": f"0 0 {7 * CELL} {7 * CELL}", "role": "img", "aria-label": t("lasca.board")}, shapes)


def _square_buttons(t, board: _Board, columns: dict, actions: dict, targets: set) -> list:
    """One button per playable square, in reading order, placed on the board's CSS grid."""
    buttons = []
    for index in board.order():
        name = NAMES[index]
        cx, cy = board.cell(*SQUARES[index])
        column = columns.get(name)
        label = t("lasca.square", square=name, contents=_describe(t, column) if column else t("lasca.empty"))
        if name in targets:
            label += " — " + t("lasca.destination")
        classes = ["lasca-sq", f"lasca-col-{cx}", f"lasca-row-{cy}"]
        kind, payload = actions.get(name, (None, None))
        button = {"act": act_button, "ui": ui_button}.get(kind)
        if button:
            buttons.append(button(None, payload, cls=classes, **{"aria-label": label}))
        else:
            buttons.append(h("button", {"type": "button", "class": classes, "disabled": True, "aria-label": label}))
    return buttons


def render(view: dict, ui: dict, t) -> Markup:
    ui = ui if isinstance(ui, dict) else {}
    you = view.get("you")
    result = view.get("result")
    mine = result is None and you is not None and you in view.get("to_act", [])
    board = _Board((you == 1) != bool(ui.get("flip")))
    actions, select, path, chosen, targets, hint = _interaction(view, ui, mine)
    columns = _in_flight(view["columns"], [select, *path]) if path else view["columns"]
    last = _split(view["last"]) if view.get("last") else []
    here = path[-1] if path else select
    joiner = "x" if view["capture"] else "-"
    if hint:
        note = h("p", {"class": "lasca-hint", "role": "alert"}, t(hint[0], **hint[1]))
    elif mine and view["capture"]:
        note = h("p", {"class": "lasca-hint"}, t("lasca.capture_hint"))
    else:
        note = None
    return h(
        "div", {"class": "lasca"},
        h("div", {"class": "lasca-board"},
          _board_svg(t, board, columns, last, len(view.get("history", [])), {select, *path} - {None}, targets),
          _square_buttons(t, board, columns, actions, targets)),
        h("div", {"class": "lasca-side"},
          _status(view, t, mine),
          _offer(view, t, mine),
          note,
          here and columns.get(here) and h("p", None, t("lasca.column", square=here, pieces=_describe(t, columns[here]))),
          chosen and h(
              "div", {"class": "lasca-paths", "role": "group", "aria-label": t("lasca.choose_path")},
              (act_button(joiner.join(m), {"type": "move", "path": joiner.join(m)}) for m in chosen),
              ui_button(t("lasca.cancel"), {"select": None, "path": [], "tap": None}),
          ),
          _bar(view, ui, t, mine),
          _move_list(view, t)),
    )


def _status(view, t, mine) -> Markup:
    result = view.get("result")
    if result:
        if result.get("draw"):
            text = t(RESULT_KEYS.get(result.get("reason"), "lasca.reason.agreement"))
        else:
            winner = result["winners"][0]
            text = t("lasca.wins", side=_side_name(t, winner))
            if result.get("reason") == "no_moves":
                text += " — " + t("lasca.reason.no_moves", side=_side_name(t, 1 - winner))
        return h("p", {"class": "lasca-status", "data-announce": True}, text)
    side = _side_name(t, view["turn"])
    text = t("lasca.your_move", side=side) if mine else t("lasca.to_move", side=side)
    if view.get("last"):
        text += " · " + t("lasca.last_move", move=view["last"])
    return h("p", {"class": "lasca-status", "data-announce": True}, text)


def _offer(view, t, mine) -> Markup:
    """Where a draw offer stands, said from the viewer's side: an offer of the viewer's own
    waits for the opponent's answer after the viewer's move, then is being considered (a
    bot's think shows as this line, not as silence); an offer of the opponent's is theirs; an
    offer declined by a move is said to be declined until the next move."""
    offer = view.get("draw_offer")
    if view.get("result"):
        return None
    declined = view.get("draw_declined")
    if offer is None and declined is not None:
        return h("p", {"class": "lasca-offer", "data-testid": "draw-declined", "data-announce": True},
                 t("lasca.draw_declined", side=_side_name(t, declined)))
    if offer is None:
        return None
    if offer == view.get("you"):
        other = _side_name(t, 1 - offer)
        text = t("lasca.draw_answer_after", side=other) if mine else t("lasca.draw_considering", side=other)
    else:
        text = t("lasca.draw_offered", side=_side_name(t, offer))
    return h("p", {"class": "lasca-offer", "data-testid": "draw-offer", "data-announce": True}, text)


def _bar(view, ui, t, mine) -> Markup:
    items = [ui_button(t("lasca.flip"), {"flip": not ui.get("flip")})]
    if mine and view.get("options", {}).get("draw_by_agreement"):
        offer = view.get("draw_offer")
        if offer is None:
            items.append(act_button(t("lasca.offer_draw"), {"type": "offer_draw"}))
        elif offer != view["you"]:
            items.append(act_button(t("lasca.accept_draw"), {"type": "accept_draw"}))
    return h("div", {"class": "lasca-bar"}, items)


def _plies(pair: list) -> list:
    """White's and Black's move of one row, as text separated by a space."""
    return [part for n, move in enumerate(pair) for part in (" " if n else None, h("span", {"class": "lasca-ply"}, move))]


def _move_list(view, t) -> Markup:
    history = view.get("history", [])
    rows = (
        h("li", None, _plies(history[i:i + 2]))
        for i in range(0, len(history), 2)
    )
    return h("section", {"class": "lasca-history"},
             h("h2", None, t("lasca.moves_title")),
             # Scrolls when long: focusable, so that a keyboard can scroll it too.
             h("ol", {"class": "lasca-moves", "data-testid": "moves", "tabindex": 0,
                      "aria-label": t("lasca.moves_title")}, rows))
