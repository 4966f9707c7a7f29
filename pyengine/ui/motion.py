"""Motion that explains what just happened: dice rolled, a card played or a trick taken, a
stake placed, a column moved. Screens mark an element with ``moving(...)``; the page plays
its motion once, when the element's ``key`` first appears on a screen it already shows
(``site/screen.js`` adds the class ``tb-moving``), so a redraw never replays it and a screen
just opened stands still. ``motion.css`` draws each kind in at most 400 ms, only under
``prefers-reduced-motion: no-preference``; input is never held for it. A mark may name the
sound that goes with it (``SOUNDS``, played by ``site/sound.js`` when the player turned
sounds on, with or without motion).

The page's CSP allows no inline style, so an offset (where a card comes from, which way a
trick goes) is a pair of classes, ``motion-dx-<n>`` and ``motion-dy-<n>``, whole steps of
``--motion-step`` (a length each screen's CSS sets) from -``MAX_STEPS`` to ``MAX_STEPS``.
"""

KINDS = ("arrive", "take", "shake", "hit")  # motion.css has a keyframe for each
SOUNDS = ("dice", "card", "chips")  # site/sound.js's cues (besides "turn", the page's own)
MAX_STEPS = 6


def _step(n: float) -> int:
    return max(-MAX_STEPS, min(MAX_STEPS, round(n)))


def moving(attrs: dict, kind: str, key: str, dx: float = 0, dy: float = 0, *, sound: str | None = None) -> dict:
    """``attrs`` (an element's, for ``markup.h``) marked to play ``kind`` and ``sound`` when
    ``key`` is new: ``arrive`` comes from (``dx``, ``dy``) steps away, ``take`` goes towards
    them and back, ``shake`` rattles (dice, each child), ``hit`` flashes (a capture)."""
    if kind not in KINDS or sound not in (None, *SOUNDS):
        raise ValueError(f"no motion {kind!r} with sound {sound!r}")
    own = attrs.get("class")
    classes = list(own) if isinstance(own, (list, tuple)) else [own]
    classes.append(f"motion-{kind}")
    if kind in ("arrive", "take"):
        classes += [f"motion-dx-{_step(dx)}", f"motion-dy-{_step(dy)}"]
    return {**attrs, "class": classes, "data-motion": key, "data-sound": sound}
