"""A gallery of every card piece, to look at and to test in Chromium.

``python -m tests.ui.card_gallery OUT`` writes ``OUT/gallery.html`` (with the site's CSS
beside it) and screenshots at phone (360 x 740) and desktop (1280 x 800) widths. The browser
test ``tests/browser/test_cards_browser.py`` loads the same page.
"""

import sys
from pathlib import Path

from pyengine.kits.cards import FRENCH_52, SPANISH_48, rank_of, sort_key, suit_of
from pyengine.ui.cards import card_back, card_face, card_pile, face_down_hand, hand_fan, trick_area
from pyengine.ui.markup import h

ROOT = Path(__file__).resolve().parents[2]
BOTIFARRA_ORDER = ("9", "1", "12", "11", "10", "8", "7", "6", "5", "4", "3", "2")
BOG_ORDER = ("K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A")
SUIT_NAMES = {"o": "oros", "c": "copes", "e": "espases", "b": "bastos",
              "H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}
RANK_NAMES = {"1": "as", "10": "sota", "11": "cavall", "12": "rei", "A": "ace", "J": "jack", "Q": "queen", "K": "king"}

# The gallery's fans and tricks (the browser test checks these exact pieces).
FAN_12 = ["1o", "9o", "3o", "12c", "7c", "2c", "9e", "11e", "5e", "10b", "4b", "1b"]
FAN_12_LEGAL = {"12c", "7c", "2c"}
FAN_12_SELECTED = "7c"
FAN_8 = ["AH", "KH", "7H", "JC", "10D", "QS", "8S", "9D"]
TRICKS = {
    2: ["9o", None],
    4: ["1c", "12c", "9e", None],
    6: ["AH", "KH", None, "10S", "JC", "QD"],
    10: ["AH", "KH", "QH", "JH", "10H", "9S", "8S", None, "2D", "3C"],
}
PLAYERS = ["Ana", "Bernat", "Carla", "Dídac", "Elisenda", "Ferran", "Gemma", "Hug", "Irene", "Joan-Maximilià"]

PAGE_CSS = """
body { padding: 0.75rem; }
.gallery-deck { display: flex; flex-wrap: wrap; gap: 0.3rem; }
.gallery-deck .cards-card { width: 3.25rem; height: auto; }
.gallery-row { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; }
.gallery-row .cards-card { width: 4.5rem; height: auto; }
section { margin-bottom: 1.25rem; }
"""


def card_name(card: str) -> str:
    rank = rank_of(card)
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit_of(card)]}"


def gallery_body():
    """The gallery's content, built with the project's markup builder."""
    spanish = [card_face(card, label=card_name(card)) for card in SPANISH_48.cards]
    french = [card_face(card, label=card_name(card)) for card in FRENCH_52.cards]
    botifarra = hand_fan(
        FAN_12, name=card_name, label="Your hand", key=sort_key(BOTIFARRA_ORDER),
        legal=FAN_12_LEGAL, selected={FAN_12_SELECTED},
        ui=lambda card: {"pick": card},
    )
    bog = hand_fan(FAN_8, name=card_name, label="Your hand (Bog)", key=sort_key(BOG_ORDER),
                   act=lambda card: {"type": "play", "card": card})
    tricks = [
        h("section", {"data-testid": f"trick-{n}"}, h("h2", None, f"Trick, {n} seats"),
          trick_area(plays, viewer=1 if n == 4 else 0, label=f"Trick of {n}",
                     slot_label=lambda seat, card: f"{PLAYERS[seat]}: {card_name(card) if card else 'no card yet'}",
                     names=PLAYERS[:n], highlight=1 if n == 4 else None))
        for n, plays in TRICKS.items()
    ]
    return h("main", {"id": "game-area"},
             h("section", {"data-testid": "fan-12"}, h("h2", None, "Botifarra hand: copes legal, 7 selected"), botifarra),
             h("section", {"data-testid": "fan-8"}, h("h2", None, "Bog hand: not your turn"), bog),
             h("section", None, h("h2", None, "Spanish deck (48)"), h("div", {"class": "gallery-deck"}, spanish)),
             h("section", None, h("h2", None, "French deck (52)"), h("div", {"class": "gallery-deck"}, french)),
             h("section", None, h("h2", None, "Back, stock, hidden hands"),
               h("div", {"class": "gallery-row"}, card_back(label="a face-down card"),
                 card_pile(8, label="Stock: 8 cards"), card_pile(0, label="Stock: empty"),
                 face_down_hand(12, label="Bernat: 12 cards"), face_down_hand(3, label="Carla: 3 cards"))),
             tricks)


def gallery_css() -> str:
    """The shell's stylesheet and the shared pieces' CSS, as the site concatenates them."""
    parts = [ROOT / "site" / "style.css", ROOT / "site" / "tables.css", *sorted((ROOT / "pyengine" / "ui").glob("*.css"))]
    return "\n".join(path.read_text(encoding="utf-8") for path in parts)


def write_gallery(folder: Path) -> Path:
    """Writes ``gallery.html`` and ``style.css`` into ``folder``; returns the page's path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "style.css").write_text(gallery_css() + PAGE_CSS, encoding="utf-8")
    page = folder / "gallery.html"
    page.write_text(
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<title>Taberna cards</title><link rel="stylesheet" href="style.css"></head>'
        f"<body>{gallery_body()}</body></html>",
        encoding="utf-8",
    )
    return page


def main(out: str) -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    folder = Path(out)
    page_url = write_gallery(folder).as_uri()
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for width, height in ((360, 740), (1280, 800)):
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(page_url)
            page.screenshot(path=str(folder / f"gallery-{width}.png"), full_page=True)
            page.screenshot(path=str(folder / f"gallery-{width}-top.png"))
            page.close()
        browser.close()
    print(f"wrote {folder}/gallery.html and screenshots")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/card_gallery")
