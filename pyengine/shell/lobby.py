"""The lobby's game cards and language choices, written into the static ``index.html`` by
the build.

The lobby must paint before Python runs in the browser, so the build renders it once, in
English, from the same ``lobby`` entries the worker answers with; the page then swaps the
texts marked ``data-i18n`` into the player's language.
"""

from ..i18n import LANGUAGES, catalog, language_tag
from ..ui.markup import fragment, h


def _card(game: dict, t):
    gid = game["id"]
    extra = []
    if game["playable"]:
        low, high = game["min_seats"], game["max_seats"]
        if low != high:
            attrs, text = {"data-i18n": "lobby.seats", "data-i18n-low": low, "data-i18n-high": high}, t("lobby.seats", low=low, high=high)
        else:  # a plural: "2 players", and the page picks the form for its language
            attrs, text = {"data-i18n": "lobby.seats_exact", "data-i18n-count": low}, t("lobby.seats_exact", count=low)
        extra.append(h("p", {"class": "card-seats", **attrs}, text))
        play = h("span", {"data-i18n": "lobby.play"}, t("lobby.play"))
        friends = h("span", {"data-i18n": "lobby.with_friends"}, t("lobby.with_friends"))
        # A table with friends from the card itself: the lobby's friends section lies far
        # below the six cards on a phone.
        extra.append(h(
            "div",
            {"class": "row card-actions"},
            h("button", {"type": "button", "class": "btn btn-primary", "data-open": gid, "aria-describedby": f"name-{gid}"}, play),
            h("button", {"type": "button", "class": "btn", "data-friends": gid, "aria-describedby": f"name-{gid}"}, friends),
        ))
        # The game's rules page in the player's language (app.js points it at hers).
        howto = {"class": "card-howto", "href": f"howto/{gid}.en.html", "data-howto": gid, "aria-describedby": f"name-{gid}"}
        extra.append(h("a", howto, h("span", {"data-i18n": "howto.link"}, t("howto.link"))))
    else:
        extra.append(h("p", {"class": "card-soon", "data-i18n": "lobby.soon"}, t("lobby.soon")))
    return h(
        "li",
        {"class": "card", "data-game": gid, "data-playable": "true" if game["playable"] else "false"},
        h("img", {"class": "card-art", "src": f"icons/game-{gid}.svg", "alt": "", "width": 56, "height": 56}),
        h(
            "div",
            {"class": "card-body"},
            h("h2", {"class": "card-name", "id": f"name-{gid}", "data-i18n": f"lobby.{gid}.name"}, t(f"lobby.{gid}.name")),
            h("p", {"class": "card-blurb", "data-i18n": f"lobby.{gid}.blurb"}, t(f"lobby.{gid}.blurb")),
            extra,
        ),
    )


def lobby_cards(games: list, t):
    """One card per ``lobby`` entry, in lobby order; ``t(key, **params)`` gives the texts."""
    cards = []
    for index, game in enumerate(games):
        cards.append(("\n" if index else "", _card(game, t)))
    return fragment(cards)


def language_options():
    """The settings' language choices, each named in its own language (``lang.self``)."""
    return fragment(
        ("\n" if index else "",
         h("option", {"value": lang, "lang": language_tag(lang)}, catalog(lang).get("lang.self", lang)))
        for index, lang in enumerate(LANGUAGES)
    )
