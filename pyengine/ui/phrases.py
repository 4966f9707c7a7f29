"""A word to your friends, drawn: a phrase's bubble beside its seat, and the picker.

The shell hands in words already translated (``shell.phrases``), so this piece knows no
catalog and no protocol: a phrase is text, or an emoji with its spoken name, and comes out
escaped like every other text (``ui.markup``). A bubble fades in once, when its ``key`` is
new (``ui.motion``; nothing moves under ``prefers-reduced-motion``); it goes when the table's
state stops showing it, never on a timer of the page.

Buttons carry ``data-phrase`` JSON, which the page forwards to the worker as it is:
``{"say": id}``, ``{"mute": seat}`` and ``{"picker": open}``.
"""

from .markup import fragment, h
from .motion import moving


# A speech bubble, drawn rather than an emoji: every device shows it, emoji font or not.
SPEECH_ICON = h(
    "svg",
    {"class": "tb-phrase-icon", "viewBox": "0 0 24 24", "width": 24, "height": 24, "aria-hidden": "true", "focusable": "false"},
    h("path", {
        "d": "M5 4h14a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-8l-5 4v-4H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z",
        "fill": "none", "stroke": "currentColor", "stroke-width": 2, "stroke-linejoin": "round",
    }),
    h("path", {"d": "M8 10.5h8", "stroke": "currentColor", "stroke-width": 2, "stroke-linecap": "round"}),
)


def phrase_words(text: str, emoji: str | None):
    """A phrase as shown: its emoji (its name kept for screen readers), else its words."""
    if emoji is None:
        return h("span", {"class": "tb-phrase-text"}, text)
    return h("span", {"class": "tb-phrase-emoji", "role": "img", "aria-label": text}, emoji)


def phrase_bubble(seat: int, name: str, text: str, emoji, key: str, said_label: str):
    """The bubble beside ``seat``: ``said_label`` ("Ana says: Dudo!") is what a screen
    reader announces."""
    attrs = {"class": "tb-phrase", "data-testid": f"phrase-{seat}", "data-phrase-seat": seat}
    return h(
        "span",
        moving(attrs, "arrive", f"phrase-{key}", dy=1),
        phrase_words(text, emoji),
        h("span", {"class": "tb-visually-hidden", "data-announce": True}, said_label),
    )


def phrase_picker(toggle_label: str, open_: bool, phrases: list, mutes: list, mute_label: str):
    """The picker's button and, when ``open_``, its panel: ``phrases`` as ``(id, text,
    emoji)`` to say (none for a device that holds no seat), ``mutes`` as ``(seat, name,
    muted)`` toggles for the other players."""
    toggle = h(
        "button",
        {
            "type": "button",
            "class": "tb-phrase-toggle",
            "data-phrase": {"picker": not open_},
            "data-testid": "phrases-toggle",
            "aria-expanded": "true" if open_ else "false",
            "aria-controls": "tb-phrase-panel" if open_ else None,  # the panel exists only when open
        },
        SPEECH_ICON,
        h("span", {"class": "tb-visually-hidden"}, toggle_label),
    )
    if not open_:
        return toggle
    says = [
        h(
            "li",
            None,
            h(
                "button",
                {"type": "button", "class": "tb-phrase-say", "data-phrase": {"say": phrase}, "data-testid": f"say-{phrase}"},
                phrase_words(text, emoji),
            ),
        )
        for phrase, text, emoji in phrases
    ]
    toggles = [
        h(
            "button",
            {
                "type": "button",
                "class": "tb-phrase-mute",
                "data-phrase": {"mute": seat},
                "data-testid": f"mute-{seat}",
                "aria-pressed": "true" if muted else "false",
            },
            name,
        )
        for seat, name, muted in mutes
    ]
    return fragment(
        toggle,
        h(
            "div",
            {"class": "tb-phrase-panel", "id": "tb-phrase-panel", "data-testid": "phrase-panel"},
            says and h("ul", {"class": "tb-phrase-list", "aria-label": toggle_label}, says),
            toggles and h("p", {"class": "tb-phrase-mutes"}, h("span", {"class": "tb-hint"}, mute_label), " ", toggles),
        ),
    )
