"""Screenshots of a page on a phone and on a desktop, for a person to look at, and the check
that a control on them can be tapped where it is drawn."""

import os
from pathlib import Path

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}

# Whether the element ``selector`` lies wholly inside the viewport, as it stands (no
# scrolling), and a tap at its centre lands on it (``elementFromPoint``: nothing over it).
TAPPABLE = """(selector) => {
  const el = document.querySelector(selector);
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit !== null && el.contains(hit);
}"""


def screenshots(page, tmp_path, name, check=None, centre=None):
    """The page as it stands, on a phone and on a desktop, into ``$TABERNA_SCREENS`` (or the
    test's tmp_path), then ``check(page)`` at each size; the page is left phone-sized.
    ``centre``: a selector scrolled to the middle of the screen at each size first (a long
    page's scroll offset shows another part of it at the other size)."""
    folder = Path(os.environ.get("TABERNA_SCREENS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    for label, size in (("360", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)
        if centre is not None:
            page.locator(centre).evaluate("(el) => el.scrollIntoView({block: 'center'})")
        page.screenshot(path=str(folder / f"{name}-{label}.png"))  # to look at, even if the check fails
        if check is not None:
            check(page)
    page.set_viewport_size(PHONE)


def tappable(selector):
    """A check for ``screenshots``: ``selector`` is in view and a tap at its centre hits it."""
    def check(page):
        assert page.evaluate(TAPPABLE, selector), f"{selector}: out of view or covered at {page.viewport_size}"
    return check
