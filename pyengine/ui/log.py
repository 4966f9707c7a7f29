"""The game log, drawn: a button under the table and, when open, the steps in the page's
flow under it (it covers no control), newest at the bottom and in view (``log.css``).

The shell hands in the lines already told and translated (``shell.log``); they come out
escaped like every other text. The button carries ``data-ui`` ``{"log": open}``.
"""

from .markup import h

PANEL_ID = "tb-log-panel"


def log_panel(title: str, open_: bool, entries: list, empty: str, step_label: str):
    """``entries``: ``[(step, seat, lines)]``; ``step_label`` names a step's number for a
    screen reader ("Step")."""
    toggle = h(
        "button",
        {"type": "button", "class": "tb-log-toggle", "data-ui": {"log": not open_}, "data-testid": "log-toggle",
         "aria-expanded": "true" if open_ else "false", "aria-controls": PANEL_ID if open_ else None},
        title,
    )
    if not open_:
        return h("div", {"class": "tb-log"}, toggle)
    steps = [
        h("li", {"class": "tb-log-entry", "data-seat": seat, "data-step": step},
          h("span", {"class": "tb-log-number"}, h("span", {"class": "tb-visually-hidden"}, step_label, " "), step),
          h("span", {"class": "tb-log-lines"}, (h("span", {"class": "tb-log-line"}, line) for line in lines)))
        for step, seat, lines in entries
    ]
    body = h("ol", {"class": "tb-log-list"}, steps) if steps else h("p", {"class": "tb-hint"}, empty)
    # Scrollable, so focusable: a keyboard can scroll it too.
    return h("div", {"class": "tb-log"}, toggle,
             h("section", {"class": "tb-log-panel", "id": PANEL_ID, "tabindex": 0, "aria-label": title,
                           "data-testid": "log-panel"}, body))
