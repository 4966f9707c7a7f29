"""The card pieces in Chromium, on the gallery page (tests/ui/card_gallery.py) with the site's CSS:
in a fanned hand every card's centre and corner index belong to that card's own button, legal
cards stand higher than dimmed ones and the selected card higher still, red suits are drawn
red, the trick puts the viewer at the bottom and the next player on the right, and nothing is
wider than a 360 px phone."""

import base64

import pytest

from tests.ui.card_gallery import FAN_8, FAN_12, FAN_12_LEGAL, FAN_12_SELECTED, TRICKS, write_gallery

# For each card of a fan: its button's label, classes, the card's box, and which button the
# card's centre and its corner index (where the rank is drawn) hit.
FAN_GEOMETRY = """(fan) => [...document.querySelectorAll(`[data-testid="${fan}"] .cards-hold`)].map((hold) => {
  const box = hold.querySelector("svg").getBoundingClientRect();
  const owner = (x, y) => document.elementFromPoint(x, y)?.closest(".cards-hold");
  return {
    label: hold.getAttribute("aria-label"),
    classes: [...hold.classList],
    box: {left: box.left, top: box.top, width: box.width, height: box.height},
    centre_hits_own: owner(box.left + box.width / 2, box.top + box.height / 2) === hold,
    index_hits_own: owner(box.left + box.width * 12.5 / 60, box.top + box.height * 16 / 90) === hold,
  };
})"""

# Counts reddish and dark pixels of a PNG (a screenshot clip), decoded by the page's canvas.
COUNT_PIXELS = """async (png) => {
  const image = new Image();
  image.src = "data:image/png;base64," + png;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.width; canvas.height = image.height;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, image.width, image.height).data;
  let red = 0, dark = 0;
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    if (r > 150 && g < 90 && b < 100) red++;
    if (r < 70 && g < 70 && b < 70) dark++;
  }
  return {red, dark, total: data.length / 4};
}"""

SLOTS = """(n) => Object.fromEntries([...document.querySelectorAll(`[data-testid="trick-${n}"] .cards-slot`)].map((g) => {
  const box = g.getBoundingClientRect();
  return [g.dataset.seat, {x: box.left + box.width / 2, y: box.top + box.height / 2, right: box.right, left: box.left}];
}))"""


@pytest.fixture(scope="module")
def gallery_url(tmp_path_factory):
    return write_gallery(tmp_path_factory.mktemp("card_gallery")).as_uri()


def _open(browser, url, width, height):
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=width < 600)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return context, page, errors


def _corner_pixels(page, label):
    """Red and dark pixel counts in the top-left corner (the index) of the named fan card."""
    box = page.locator(f'.cards-hold[aria-label="{label}"] svg').bounding_box()
    clip = {"x": box["x"] + 2, "y": box["y"] + 2, "width": box["width"] * 0.38, "height": box["height"] * 0.42}
    png = page.screenshot(clip=clip)
    return page.evaluate(COUNT_PIXELS, base64.b64encode(png).decode())


@pytest.mark.parametrize("width, height", [(360, 740), (1280, 800)])
def test_fanned_hands_can_be_read_and_tapped(browser, gallery_url, width, height):
    context, page, errors = _open(browser, gallery_url, width, height)
    try:
        botifarra = page.evaluate(FAN_GEOMETRY, "fan-12")
        assert len(botifarra) == len(FAN_12) == 12
        for card in botifarra:
            assert card["centre_hits_own"], card
            assert card["index_hits_own"], card
            assert 0 <= card["box"]["left"] and card["box"]["left"] + card["box"]["width"] <= width
        lefts = [card["box"]["left"] for card in botifarra]
        assert lefts == sorted(lefts)
        step = lefts[1] - lefts[0]
        card_width = botifarra[0]["box"]["width"]
        assert 0.55 <= step / card_width <= 0.65  # ~40 % overlap
        if width == 360:
            assert card_width >= 40 and botifarra[0]["box"]["height"] >= 60  # legible on a phone

        legal = [card for card in botifarra if "cards-legal" in card["classes"]]
        dimmed = [card for card in botifarra if "cards-dim" in card["classes"]]
        selected = [card for card in botifarra if "cards-selected" in card["classes"]]
        assert len(legal) == len(FAN_12_LEGAL) and len(dimmed) == 12 - len(FAN_12_LEGAL) and len(selected) == 1
        assert max(card["box"]["top"] for card in legal) < min(card["box"]["top"] for card in dimmed) - 5
        assert selected[0]["box"]["top"] < min(card["box"]["top"] for card in legal if card not in selected) - 5
        assert selected[0]["label"] == "7 of copes" and FAN_12_SELECTED == "7c"

        bog = page.evaluate(FAN_GEOMETRY, "fan-8")
        assert len(bog) == len(FAN_8) and all(card["centre_hits_own"] and card["index_hits_own"] for card in bog)
        assert len({round(card["box"]["top"]) for card in bog}) == 1  # not your turn: nothing raised

        hearts, spades = _corner_pixels(page, "ace of hearts"), _corner_pixels(page, "queen of spades")
        assert hearts["red"] > 0.04 * hearts["total"] and hearts["dark"] < 0.01 * hearts["total"]
        assert spades["dark"] > 0.04 * spades["total"] and spades["red"] < 0.01 * spades["total"]

        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert errors == []
    finally:
        context.close()


def test_tricks_seat_the_viewer_at_the_bottom_within_a_phone(browser, gallery_url):
    context, page, errors = _open(browser, gallery_url, 360, 740)
    try:
        for n, plays in TRICKS.items():
            viewer = 1 if n == 4 else 0  # as the gallery draws them
            slots = {int(seat): box for seat, box in page.evaluate(SLOTS, n).items()}
            assert len(slots) == n
            assert max(slots, key=lambda seat: slots[seat]["y"]) == viewer
            if n >= 4:  # the next player in playing order sits on the viewer's right
                assert slots[(viewer + 1) % n]["x"] > slots[viewer]["x"]
                assert slots[(viewer - 1) % n]["x"] < slots[viewer]["x"]
            assert all(0 <= box["left"] and box["right"] <= 360 for box in slots.values())
            assert page.locator(f'[data-testid="trick-{n}"] .cards-slot[data-card]').count() == sum(
                card is not None for card in plays)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert errors == []
    finally:
        context.close()
