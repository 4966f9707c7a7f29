"""ui/motion.py's marks, the stylesheet that draws them and the page's sounds agree: every kind
has its keyframes and its rule, every offset step its class, all of it only without reduced
motion, and every sound a screen names is one site/sound.js plays."""

import re
from pathlib import Path

import pytest

from pyengine.ui.motion import KINDS, MAX_STEPS, SOUNDS, moving

ROOT = Path(__file__).resolve().parents[2]
CSS = (ROOT / "pyengine/ui/motion.css").read_text(encoding="utf-8")


def test_every_kind_and_step_is_drawn_and_only_without_reduced_motion():
    rules = CSS[CSS.index("@media (prefers-reduced-motion: no-preference)"):]
    for kind in KINDS:
        assert f"@keyframes motion-{kind} " in CSS and f".tb-moving.motion-{kind}" in rules, kind
    assert not re.search(r"animation:", CSS[:CSS.index("@media")]), "no animation outside the no-preference block"
    for axis in ("dx", "dy"):
        for n in range(-MAX_STEPS, MAX_STEPS + 1):
            assert n == 0 or f".motion-{axis}-{n} {{ --motion-{axis}: {n}; }}" in CSS


def test_every_sound_a_screen_names_is_a_cue_the_page_plays():
    cues = re.findall(r"^  (\w+): \(s\) =>", (ROOT / "site/sound.js").read_text(encoding="utf-8"), re.MULTILINE)
    assert sorted(cues) == sorted([*SOUNDS, "turn"])


def test_marks_keep_the_elements_classes_and_clamp_offsets():
    assert moving({"class": ["a", None]}, "arrive", "k", 9.4, -0.4) == {
        "class": ["a", None, "motion-arrive", f"motion-dx-{MAX_STEPS}", "motion-dy-0"], "data-motion": "k",
        "data-sound": None}
    assert moving({"class": "b", "id": "x"}, "shake", "roll-2", sound="dice") == {
        "class": ["b", "motion-shake"], "id": "x", "data-motion": "roll-2", "data-sound": "dice"}
    for kind, sound in (("spin", None), ("shake", "drums")):
        with pytest.raises(ValueError):
            moving({}, kind, "k", sound=sound)
