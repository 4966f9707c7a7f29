"""Finds live markup that hostile values managed to create in rendered HTML.

Used by the hostile-render tests: a screen is rendered with payloads such as
``<img src=x onerror=…>`` in every field, parsed with the standard library's HTML parser (as
a browser would tokenise it), and every element and attribute is checked: any event-handler
attribute, ``style`` attribute, script-like element or ``javascript:`` URL means a value
escaped its text or attribute and became markup.
"""

import itertools
from html.parser import HTMLParser

HOSTILE = (
    "<img src=x onerror=alert(1)>",
    '"><svg onload=alert(2)>',
    "' onmouseover='alert(3)",
    "</textarea><script>alert(4)</script>",
    "javascript:alert(5)",
    "&lt;b&gt;&amp;",
    "\u202eevil\u202c",
)
_DANGEROUS_TAGS = {"script", "iframe", "object", "embed", "img", "style", "link", "meta", "base", "form", "foreignobject"}


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list = []

    def handle_starttag(self, tag, attrs):
        if tag in _DANGEROUS_TAGS:
            self.problems.append(f"<{tag}> element")
        for name, value in attrs:
            if name.startswith("on") or name == "style":
                self.problems.append(f"{name}= attribute on <{tag}>")
            if name in ("href", "src", "xlink:href", "action") and (value or "").strip().lower().startswith("javascript:"):
                self.problems.append(f"javascript: URL in {name} on <{tag}>")

    handle_startendtag = handle_starttag


def live_markup(html: str) -> list:
    """Problems found in ``html`` (empty when no hostile value became markup)."""
    collector = _Collector()
    collector.feed(str(html))
    collector.close()
    return collector.problems


def random_play_views(game, options, seats: int, seed: int, every: int = 1, viewers: int | None = None):
    """Views every ``every`` actions of one random legal game (each with ``players`` added as
    the app does), so hostile-render tests see real screens: for the spectator and every seat,
    or for ``viewers`` of them at a time, taking turns (a big table's positions are then seen
    from every side over the game without drawing each position for every seat)."""
    from pyengine.core.rng import Rng
    from pyengine.core.simulate import random_moves

    state = game.new_state(options, seats, seed)
    players = [{"kind": "human", "name": f"P{i}"} for i in range(seats)]
    everyone = (None, *range(seats))
    taking_turns = itertools.cycle(everyone)
    moves = ((None, None, state), *random_moves(game, state, Rng(seed + 1000)))
    for step, (_, _, state) in enumerate(moves):
        if step % every == 0 or game.is_over(state):
            chosen = everyone if viewers is None else [next(taking_turns) for _ in range(viewers)]
            for viewer in chosen:
                yield {**game.view(state, viewer), "players": [dict(p) for p in players]}


def with_strings(value, payload):
    """``value`` with every string in it (player names included) replaced by ``payload``."""
    if isinstance(value, str):
        return payload
    if isinstance(value, dict):
        return {key: with_strings(item, payload) for key, item in value.items()}
    if isinstance(value, list):
        return [with_strings(item, payload) for item in value]
    return value


def other_fields(value, path=()):
    """Paths to every field of ``value`` that is not a string (numbers, booleans, ``None``)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from other_fields(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from other_fields(item, (*path, index))
    elif not isinstance(value, str):
        yield path


def with_field(value, path, payload):
    """A copy of ``value`` with the field at ``path`` replaced by ``payload``."""
    if not path:
        return payload
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: with_field(value[head], rest, payload)}
    return [with_field(item, rest, payload) if index == head else item for index, item in enumerate(value)]


# How a renderer may turn away a view whose field has the wrong type: the guest's view-shape
# check refuses such views before anything is rendered, so only what renders is checked here.
MALFORMED = (TypeError, ValueError, KeyError, IndexError, AttributeError)


def hostile_render_problems(render, views, t, uis=({},), every_field_of: int = 4) -> tuple:
    """Renders each view with every string replaced by each ``HOSTILE`` payload (these must
    render), and every ``every_field_of``-th view once per other field (numbers and flags a
    host could send as text) with just that field replaced, the payload turning from field to
    field and view to view; the UI states ``uis`` take turns from view to view. Returns
    ``(problems, renders)``: ``problems`` lists ``(payload, field, live markup)``,
    ``renders`` counts the screens checked."""
    problems, renders = [], 0
    # A field the screen does not show gives the same markup again: it is parsed once per view.
    parsed: dict = {}

    def check(payload, field, view, ui):
        nonlocal renders
        html = str(render(view, dict(ui), t))
        found = parsed.get(html)
        if found is None:
            found = parsed[html] = live_markup(html)
        problems.extend([(payload, field, found)] if found else [])
        renders += 1

    for number, view in enumerate(views):
        parsed.clear()
        ui = uis[number % len(uis)]
        for payload in HOSTILE:
            check(payload, "every string", with_strings(view, payload), ui)
        if number % every_field_of:
            continue
        for index, path in enumerate(other_fields(view)):
            payload = HOSTILE[(number + index) % len(HOSTILE)]
            try:
                check(payload, path, with_field(view, path, payload), ui)
            except MALFORMED:
                continue
    return problems, renders
