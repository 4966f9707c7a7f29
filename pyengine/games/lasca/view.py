"""Lasca seat view -> HTML fragment with an inline SVG board (pure; tested in CPython).

The SVG draws the 7x7 board and every column as a stack of discs, bottom piece lowest,
officers marked with a star (commander) or a gold rim (prisoner). Over it sits a grid of
transparent <button>s, one per playable square, in visual order so Tab follows the board.

UI state (``ui``, reset after every move): ``select`` (a square), ``path`` (landing squares
tapped so far in a multi-jump), ``tap`` (a refused tap to explain), ``flip`` (board
turned). A tap on a landing square that completes a legal move carries ``data-act``;
every other tap only updates ``ui``, and the re-render says why a tap did nothing.
"""

import html
import json

from .rules import INDEX, NAMES, SQUARES, make

CELL = 100
RESULT_KEYS = {"no_moves": "lasca.reason.no_moves", "agreement": "lasca.reason.agreement",
               "repetition": "lasca.reason.repetition"}

STYLE = """<style>
.lasca{max-width:480px;margin:0 auto;font-size:1rem}
.lasca-board{position:relative;width:100%;aspect-ratio:1/1}
.lasca-board svg{position:absolute;inset:0;width:100%;height:100%}
.lasca-sq{position:absolute;width:14.2857%;height:14.2857%;margin:0;padding:0;border:0;
background:transparent;cursor:pointer;border-radius:4px}
.lasca-sq:focus-visible{outline:3px solid #1f6feb;outline-offset:-3px}
.lasca-sq:disabled{cursor:default}
.lasca-status{margin:.4rem 0;font-weight:600}
.lasca-hint{margin:.3rem 0;color:#8a1c1c}
.lasca-bar{display:flex;flex-wrap:wrap;gap:.4rem;margin:.4rem 0}
.lasca-bar button,.lasca-paths button{min-height:44px;padding:.3rem .7rem}
.lasca-paths{display:flex;flex-wrap:wrap;gap:.4rem;margin:.3rem 0}
.lasca-moves{columns:2;font-family:monospace;margin:.3rem 0;padding-left:2.2rem}
</style>"""


def _attr(value) -> str:
    return html.escape(json.dumps(value, separators=(",", ":")), quote=True)


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


def _stack_svg(column: str, x: float, y: float) -> str:
    """Discs from the bottom piece up; the commander's face is drawn last, on top."""
    n = len(column)
    step = min(11.0, 44.0 / n)
    base = y + 24 + (step * (n - 1)) / 2 - 8
    parts = []
    for depth in range(n - 1, -1, -1):
        piece = column[depth]
        cy = base - step * (n - 1 - depth)
        fill, stroke = ("#f5efe0", "#5b4a33") if piece in "wW" else ("#2b2623", "#0d0b0a")
        rim = "#d4a017" if piece.isupper() else stroke
        width = 3 if piece.isupper() else 1.5
        parts.append(f'<ellipse cx="{x:.1f}" cy="{cy + 5:.1f}" rx="34" ry="13" fill="{stroke}"/>'
                     f'<ellipse cx="{x:.1f}" cy="{cy:.1f}" rx="34" ry="13" fill="{fill}" '
                     f'stroke="{rim}" stroke-width="{width}"/>')
        if depth == 0 and piece.isupper():
            star = "#d4a017"
            parts.append(f'<text x="{x:.1f}" y="{cy + 6:.1f}" text-anchor="middle" '
                         f'font-size="20" fill="{star}">&#9733;</text>')
    if n > 1:
        parts.append(f'<text x="{x + 40:.1f}" y="{y - 30:.1f}" text-anchor="end" font-size="15" '
                     f'fill="#222" font-weight="700">{n}</text>')
    return "".join(parts)


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
    chosen = [m for m in moves if m[0] == select and m[1:len(path) + 1] == path]
    if select and not chosen:  # a stale path: the selection starts again
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


def _in_flight(columns: dict, squares: list) -> dict:
    """The columns as they stand partway through a capture (jumped commanders taken)."""
    board = [columns.get(name, "") for name in NAMES]
    path = [INDEX[name] for name in squares]
    overs = []
    for a, b in zip(path, path[1:]):
        (fa, ra), (fb, rb) = SQUARES[a], SQUARES[b]
        overs.append(INDEX[f"{'abcdefg'[(fa + fb) // 2]}{(ra + rb) // 2 + 1}"])
    after = make(board, (path, overs))
    return {NAMES[i]: col for i, col in enumerate(after) if col}


def render(view: dict, ui: dict, t) -> str:
    ui = ui if isinstance(ui, dict) else {}
    you = view.get("you")
    result = view.get("result")
    mine = result is None and you is not None and you in view.get("to_act", [])
    flipped = (you == 1) != bool(ui.get("flip"))
    board = _Board(flipped)
    actions, select, path, chosen, targets, hint = _interaction(view, ui, mine)
    columns = _in_flight(view["columns"], [select, *path]) if path else view["columns"]
    last = _split(view["last"]) if view.get("last") else []

    svg = [f'<svg viewBox="0 0 {7 * CELL} {7 * CELL}" role="img" '
           f'aria-label="{html.escape(t("lasca.board"))}">']
    for row in range(7):
        for col in range(7):
            light = (row + col) % 2 == 0
            svg.append(f'<rect x="{col * CELL}" y="{row * CELL}" width="{CELL}" height="{CELL}" '
                       f'fill="{"#e9d8b4" if light else "#7a5230"}"/>')
    for index, (f, r) in enumerate(SQUARES):
        name = NAMES[index]
        cx, cy = board.cell(f, r)
        x, y = cx * CELL, cy * CELL
        if name in last:
            svg.append(f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" '
                       'fill="#f2c94c" fill-opacity="0.45"/>')
        if name == select or name in path:
            svg.append(f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" '
                       'fill="none" stroke="#1f6feb" stroke-width="6"/>')
        if name in targets:
            svg.append(f'<circle cx="{x + 50}" cy="{y + 50}" r="16" fill="#2e9e44" '
                       'fill-opacity="0.75"/>')
        svg.append(f'<text x="{x + 5}" y="{y + 15}" font-size="13" fill="#7a5230">{name}</text>')
        if name in columns:
            svg.append(_stack_svg(columns[name], x + 50, y + 50))
    svg.append("</svg>")

    buttons = []
    for index in board.order():
        name = NAMES[index]
        cx, cy = board.cell(*SQUARES[index])
        column = columns.get(name)
        label = t("lasca.square", square=name,
                  contents=_describe(t, column) if column else t("lasca.empty"))
        if name in targets:
            label += " — " + t("lasca.destination")
        style = f"left:{cx * 100 / 7:.4f}%;top:{cy * 100 / 7:.4f}%"
        if name in actions:
            kind, payload = actions[name]
            data = f'data-act="{_attr(payload)}"' if kind == "act" else f'data-ui="{_attr(payload)}"'
            buttons.append(f'<button type="button" class="lasca-sq" style="{style}" {data} '
                           f'aria-label="{html.escape(label)}"></button>')
        else:
            buttons.append(f'<button type="button" class="lasca-sq" style="{style}" disabled '
                           f'aria-label="{html.escape(label)}"></button>')

    out = [STYLE, '<div class="lasca">', _status(view, t, mine)]
    if hint:
        out.append(f'<p class="lasca-hint" role="alert">{html.escape(t(hint[0], **hint[1]))}</p>')
    elif mine and view["capture"]:
        out.append(f'<p class="lasca-hint">{html.escape(t("lasca.capture_hint"))}</p>')
    out.append('<div class="lasca-board">' + "".join(svg) + "".join(buttons) + "</div>")
    here = path[-1] if path else select
    if here and columns.get(here):
        out.append(f'<p>{html.escape(t("lasca.column", square=here, pieces=_describe(t, columns[here])))}</p>')
    if chosen:
        out.append(f'<div class="lasca-paths" aria-label="{html.escape(t("lasca.choose_path"))}">')
        for m in chosen:
            text = ("x" if view["capture"] else "-").join(m)
            out.append(f'<button type="button" data-act="{_attr({"type": "move", "path": text})}">'
                       f'{html.escape(text)}</button>')
        out.append(f'<button type="button" data-ui="{_attr({"select": None, "path": [], "tap": None})}">'
                   f'{html.escape(t("lasca.cancel"))}</button></div>')
    out.append(_bar(view, ui, t, mine))
    out.append(_move_list(view, t))
    out.append("</div>")
    return "".join(out)


def _status(view, t, mine) -> str:
    result = view.get("result")
    if result:
        if result.get("draw"):
            text = t(RESULT_KEYS.get(result.get("reason"), "lasca.reason.agreement"))
        else:
            winner = result["winners"][0]
            text = t("lasca.wins", side=_side_name(t, winner))
            if result.get("reason") == "no_moves":
                text += " — " + t("lasca.reason.no_moves", side=_side_name(t, 1 - winner))
        return f'<p class="lasca-status" role="status">{html.escape(text)}</p>'
    side = _side_name(t, view["turn"])
    text = t("lasca.your_move", side=side) if mine else t("lasca.to_move", side=side)
    if view.get("last"):
        text += " · " + t("lasca.last_move", move=view["last"])
    offer = view.get("draw_offer")
    if offer is not None:
        text += " · " + t("lasca.draw_offered", side=_side_name(t, offer))
    return f'<p class="lasca-status" role="status">{html.escape(text)}</p>'


def _bar(view, ui, t, mine) -> str:
    items = [f'<button type="button" data-ui="{_attr({"flip": not ui.get("flip")})}">'
             f'{html.escape(t("lasca.flip"))}</button>']
    if mine and view.get("options", {}).get("draw_by_agreement"):
        offer = view.get("draw_offer")
        if offer is None:
            items.append(f'<button type="button" data-act="{_attr({"type": "offer_draw"})}">'
                         f'{html.escape(t("lasca.offer_draw"))}</button>')
        elif offer != view["you"]:
            items.append(f'<button type="button" data-act="{_attr({"type": "accept_draw"})}">'
                         f'{html.escape(t("lasca.accept_draw"))}</button>')
    return '<div class="lasca-bar">' + "".join(items) + "</div>"


def _move_list(view, t) -> str:
    history = view.get("history", [])
    rows = []
    for i in range(0, len(history), 2):
        pair = " ".join(html.escape(m) for m in history[i:i + 2])
        rows.append(f"<li>{pair}</li>")
    return (f'<h3>{html.escape(t("lasca.moves_title"))}</h3>'
            f'<ol class="lasca-moves">{"".join(rows)}</ol>')
