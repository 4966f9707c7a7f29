"""The shell's screens around a game's own drawing, for one device and for shared tables.

Every function returns ``Markup`` built with ``ui.markup.h``: names, reasons and codes from
players and peers are text, never markup. Test hooks are ``data-testid`` attributes; the
page delegates clicks on ``data-act`` / ``data-ui`` / ``data-nav`` / ``data-host`` /
``data-invite`` buttons.
"""

from ..core.errors import TabernaError
from ..core.registry import get_declaration
from ..ui.markup import Markup, fragment, h

TEAM_COLOURS = 4  # team badges cycle through tb-team-0 .. tb-team-3
# A seat nobody named is stored with an empty name and shown by its default, in the viewer's
# language: a Portuguese guest reads "Amigo 3" at a table made in English.
DEFAULT_NAMES = {"human": "setup.player", "bot": "setup.bot_name", "remote": "sync.friend_name"}


def seat_names(seats: list, t) -> list:
    """Every seat's name as the viewer reads it: its own, else its default ("Bot 3")."""
    return [seat.get("name") or t(DEFAULT_NAMES.get(seat.get("kind"), "setup.player"), n=index + 1)
            for index, seat in enumerate(seats)]


def seat_view(screen, view: dict, seats: list, ui: dict, t) -> Markup:
    """One seat's view drawn by its game; views name players from ``players`` (the seats)."""
    view = dict(view)
    view["players"] = [dict(seat, name=name) for seat, name in zip(seats, seat_names(seats, t))]
    drawn = screen.render(view, dict(ui), t)
    if not isinstance(drawn, Markup):
        raise TypeError("a game's render must return markup built with ui.markup")
    return drawn


def table_section(t, game_id: str, status: str, version: int, body) -> Markup:
    return h(
        "section",
        {
            "class": "tb-table",
            "data-game": game_id,
            "data-status": status,
            "data-version": version,
            "aria-label": t(f"lobby.{game_id}.name"),
        },
        body,
    )


def game_over(t, result: dict, names: list, again: bool, replay=None) -> Markup:
    """Who won (or that nobody did: a draw), "play again" (a new game at the same table,
    when ``again``), the game's replay (``replay``: the role of the table, whose worker
    holds it whole) and the lobby."""
    winners = ", ".join(names[seat] for seat in result["winners"])
    key = "over.draw" if not winners else "over.winner" if len(result["winners"]) == 1 else "over.winners"
    return h(
        "div",
        {"class": "tb-over", "role": "status", "data-testid": "game-over", "data-news": "over"},
        h("h2", None, t("over.title")),
        h("p", {"data-announce": True}, t(key, names=winners)),
        again and fragment(command_button(t("over.again"), "data-ui", {"again": True}, "again", "tb-primary"), " "),
        replay and fragment(h("button", {"type": "button", "data-replay": replay, "data-testid": "replay-open"}, t("replay.open")), " "),
        h("button", {"type": "button", "data-nav": "lobby"}, t("game.back")),
    )


def undo_button(t) -> Markup:
    return h("button", {"type": "button", "class": "tb-undo", "data-ui": {"undo": True}, "data-testid": "undo"}, t("table.undo"))


# --- partnerships ------------------------------------------------------------------------------
def team_of(teams: list, seat: int):
    """The index of ``seat``'s team, or ``None`` when it plays for itself."""
    return next((index for index, team in enumerate(teams) if seat in team), None)


def team_class(team):
    """The class that gives a team's elements its colour (``--team``), or ``None``."""
    return None if team is None else f"tb-team-{team % TEAM_COLOURS}"


def team_badge(t, team):
    """A coloured "Team n" badge, or nothing for a seat without a team."""
    if team is None:
        return None
    return h("span", {"class": ["tb-team", team_class(team)]}, t("team.name", n=team + 1))


def partners_line(t, teams: list, seat: int, names: list):
    """``Team 1 · partner of Ana`` for a seat in a team, else nothing."""
    team = team_of(teams, seat)
    if team is None:
        return None
    partners = [names[other] for other in teams[team] if other != seat and 0 <= other < len(names)]
    return h(
        "span",
        {"class": "tb-partners"},
        team_badge(t, team),
        partners and fragment(" ", t("team.partner_of", names=", ".join(partners))),
    )


def handoff(t, seat: int, names: list, teams: list) -> Markup:
    """Pass-and-play: the phone goes to ``seat``; nothing secret shows until they tap."""
    name = names[seat]
    partners = partners_line(t, teams, seat, names)
    return h(
        "div",
        {"class": "tb-handoff", "role": "dialog", "aria-modal": "false", "aria-labelledby": "tb-handoff-title",
         "data-testid": "handoff"},
        h("h2", {"class": "tb-handoff-text", "id": "tb-handoff-title", "data-announce": True}, t("handoff.pass", name=name)),
        partners and h("p", {"class": "tb-handoff-team", "data-testid": "handoff-team"}, partners),
        h("p", None, t("handoff.hint")),
        h(
            "button",
            {"type": "button", "class": "tb-primary", "data-ui": {"handoff": seat}, "data-testid": "handoff-ready"},
            t("handoff.ready", name=name),
        ),
        h("span", {"class": "tb-visually-hidden"}, name),
    )


# --- shared tables -------------------------------------------------------------------------------
def command_button(label: str, attribute: str, value, testid: str, cls=None, disabled=False, aria=None) -> Markup:
    """A button carrying ``data-host`` / ``data-ui`` JSON or a ``data-invite`` seat number.

    ``aria`` says more for screen readers (whose seat): it follows the visible label as hidden
    text, so the button's name still starts with what a speech-input user sees and says."""
    more = aria and h("span", {"class": "tb-visually-hidden"}, " · ", aria)
    return h(
        "button",
        {"type": "button", "class": cls, attribute: value, "data-testid": testid, "disabled": disabled},
        label,
        more,
    )


def seat_conn(seat: dict) -> str:
    """``local`` (the host's device), ``bot``, or for a friend's seat ``open`` / ``connected``
    / ``absent``: the ``data-conn`` of the strip, for the page's tests and styles. A seat of
    the host's device is ``absent`` too when a guest has lost the host (``away_from_host``)."""
    if seat["kind"] == "human":
        return "local" if seat["connected"] else "absent"
    if seat["kind"] == "bot":
        return "bot"
    if seat["open"]:
        return "open"
    return "connected" if seat["connected"] else "absent"


def away_from_host(seats: list) -> list:
    """The seats as a guest that lost the host shows them: nobody at the table can be
    reached from here, so every player's seat (its own too) reads away until the host is
    back, never "connected" under the banner that says the host is gone."""
    return [seat if seat["kind"] == "bot" else dict(seat, connected=False) for seat in seats]


def _conn_label(t, game_id: str, seat: dict, conn: str, host_side: bool) -> str:
    if conn == "local":
        return t("sync.conn.here") if host_side else t("sync.conn.host_device")
    if conn == "bot":
        level = t(f"level.{game_id}.{seat.get('level')}")
        return t("sync.conn.covered", level=level) if seat.get("covered") else t("setup.bot", level=level)
    return t(f"sync.conn.{conn}")


def _fair_declaration(game_id):
    """``game_id``'s declaration if the game draws fairly when shared, else ``None``
    (``game_id`` is a peer's word: maybe no game at all)."""
    try:
        declaration = get_declaration(game_id)
    except TabernaError:
        return None
    return declaration if getattr(declaration.rules, "fair_chance", False) else None


def _fair_cards_declaration(game_id):
    """``game_id``'s declaration if its cards are dealt by the devices when shared
    (``kits.fair_cards``), else ``None``."""
    declaration = _fair_declaration(game_id)
    return declaration if _deals_cards(declaration) else None


def _deals_cards(declaration) -> bool:
    return declaration is not None and hasattr(declaration.rules, "fair_cards")


def fair_line(t, game_id, fair=True, seats=()) -> Markup:
    """The one line that says what a fair table means, for games whose chance is fair at a
    shared table (``core.fair``); nothing for the others (Lasca has no chance), nor for a
    card table known to deal from the host's generator (``fair`` false: Botifarra for two).
    A card table with a bot among ``seats`` adds that the host's device sees the bots' hands
    (once here: a word on each bot's chip would push a phone's trick under the hand)."""
    declaration = _fair_declaration(game_id)
    if declaration is None:
        return None
    cards = _deals_cards(declaration)
    if cards and not fair:
        return None
    bots = cards and any(seat["kind"] == "bot" for seat in seats)
    return h("p", {"class": ["tb-hint", "tb-fair-line", cards and "tb-fair-cards"], "data-testid": "fair-line"},
             t("sync.fair_line_cards" if cards else "sync.fair_line"), bots and fragment(" ", t("sync.fair_line_bots")))


VERDICT_WORDS = ("fair_withheld", "fair_bad_deal", "fair_bad_key", "fair_false_claim")
DEAL_STEPS = ("lock", "relock", "release", "reveal")  # the devices' own steps of a fair card deal


def dealing(view: dict) -> bool:
    """Whether a fair card deal is under way and this seat holds no card yet: its table then
    shows the deal's progress only (``deal_line``), since the game's screen would show an
    empty table and whose turn comes after the deal ("Ana is choosing trumps…") as if the
    hands were there. A release in the middle of a hand (stock cards given to a seat) leaves
    the table on screen: the seat holds its hand. A watcher (``hand`` ``None``) holds no card
    either, so it sees the deal as the players do, then the table."""
    step = (view.get("fair") or {}).get("step")
    return step in ("lock", "relock") or (step == "release" and not view.get("hand"))


def _seat_name(t, names: list, seat: int) -> str:
    return names[seat] if seat < len(names) else t("sync.fair_seat", n=seat + 1)


def deal_line(t, game_id, fair, names: list):
    """Where a fair card deal stands while the devices deal or check a hand (``fair``: the
    public record a view shows, ``kits.fair_cards.public``): its step and whose device it
    waits for, so that a deal of a second on a slow phone shows progress, not a still table."""
    if _fair_cards_declaration(game_id) is None or not fair or fair.get("step") not in DEAL_STEPS:
        return None
    step = fair["step"]
    who = ", ".join(_seat_name(t, names, seat) for seat in fair["owed"])
    return h("p", {"class": "tb-hint tb-net-deal", "role": "status", "data-testid": "fair-deal", "data-step": step},
             t(f"sync.deal.{step}", names=who))


def verdict_line(t, game_id, fair, names: list):
    """What the check of a fair card table's last hand found (``kits.fair_cards``), in words,
    or nothing: who offended and how (a card played against the rules, a renege or a card
    not dealt, named with its trick, the card in words as the game's screen names it), and
    what it costs by the game's rule. It stays through the next deal, so it folds to one line
    (a tap opens it, ``shell.css``): at a ten-seat Bog table on a phone its five lines pushed
    the stakes below the fold."""
    verdict = (fair or {}).get("verdict")
    declaration = verdict and _fair_cards_declaration(game_id)
    if not declaration:
        return None
    game = declaration.rules
    name = _seat_name(t, names, verdict["seat"])
    code = verdict["code"]
    key = f"sync.verdict.{code}" if code in VERDICT_WORDS else game.offence_words.get(code, "sync.verdict.renege")
    card = _card_words(t, declaration, verdict.get("card"))
    offence = t(key, name=name, card=card, trick=verdict.get("trick", 0))
    text = t("sync.verdict", offence=offence, penalty=t(game.penalty_words, name=name))
    return h("details", {"class": "tb-hint tb-net-verdict", "data-testid": "fair-verdict"},
             h("summary", None, h("span", {"role": "status"}, text)))


def _card_words(t, declaration, card) -> str:
    """A verdict's card as its game's screen names it; what a peer sent that is no card of the
    game stays as written."""
    if card is None:
        return "?"
    try:
        return declaration.screen().card_name(t, card)
    except TabernaError:
        return card


def _bot_device(t, game_id, host_side: bool):
    """Where a bot runs, on a fair table: its dice are known to that device (the host's)."""
    if _fair_declaration(game_id) is None:
        return None
    return h("span", {"class": "tb-net-runs"}, t("sync.bot_runs_here" if host_side else "sync.bot_runs_host"))


def seat_strip(t, game_id: str, seats: list, you, host_side: bool, buttons, teams: list, playing=False, said=None) -> Markup:
    """The seats with their connection state and partnerships; ``buttons(index, conn)``
    adds each one's buttons. ``playing``: one line of names, each with its state as a
    coloured dot (the words stay for screen readers), so that on a phone the game, not the
    list, fills the screen (four seats once pushed Botifarra's trick under the hand). On a
    fair table each bot says which device runs it (and so knows its dice). ``said``: the
    bubbles of the phrases showing, by seat (``shell.phrases``), each beside its seat."""
    names = seat_names(seats, t)
    items = []
    for index, seat in enumerate(seats):
        conn = seat_conn(seat)
        team = team_of(teams, index)
        items.append(
            h(
                "li",
                {"class": ["tb-net-seat", team_class(team)], "data-testid": f"seat-{index}", "data-conn": conn, "data-team": team},
                h("span", {"class": "tb-net-dot", "aria-hidden": "true"}),
                h("span", {"class": "tb-net-name"}, names[index], index == you and fragment(" ", h("span", {"class": "tb-net-you"}, "(", t("sync.you"), ")"))),
                " ",
                h("span", {"class": "tb-net-state"}, _conn_label(t, game_id, seat, conn, host_side)),
                conn == "bot" and _bot_device(t, game_id, host_side),
                partners_line(t, teams, index, names),
                buttons(index, conn),
                said.get(index) if said else None,
            )
        )
    return h("ol", {"class": ["tb-net-seats", playing and "tb-net-playing"], "aria-label": t("sync.seats")}, items)


def arrange_screen(t, title: str, code, strip, waiting: bool, close, fair=None) -> Markup:
    """The host before play: the room code, the seats, "start" once every friend is in, and
    ``fair`` (``fair_line``)."""
    return h(
        "section",
        {"class": "tb-net tb-net-arrange", "data-testid": "net-host", "data-status": "arrange", "aria-label": title},
        h("h2", None, title),
        h(
            "div",
            {"class": "tb-room"},
            h("p", {"class": "tb-room-label"}, t("sync.room_code")),
            h("p", {"class": "tb-room-code", "data-testid": "room-code", "aria-label": " ".join(code)}, code),
            h("p", {"class": "tb-hint tb-rooms-on"}, t("sync.room_hint")),
            h("p", {"class": "tb-hint tb-rooms-off"}, t("sync.room_hint_off")),
        )
        if code  # no room code where the page has no Web Crypto (plain http on a LAN)
        else h("p", {"class": "tb-hint"}, t("sync.room_hint_off")),
        strip,
        fair,
        h("p", {"class": "tb-hint", "role": "status"}, t("sync.need_friends" if waiting else "sync.ready")),
        h(
            "p",
            {"class": "tb-net-actions"},
            command_button(t("sync.start"), "data-host", {"start": True}, "net-start", "tb-primary", waiting),
            " ",
            close,
        ),
    )


def hosted_screen(status: str, strip, table, closing) -> Markup:
    """The host during play: the seat strip, the table, and at the end what comes next."""
    return h("div", {"class": "tb-net", "data-testid": "net-host", "data-status": status}, strip, table, closing)


def closed_screen(t) -> Markup:
    return h(
        "section",
        {"class": "tb-net", "data-testid": "net-closed", "data-status": "closed"},
        h("p", {"role": "status"}, t("sync.closed")),
        h("button", {"type": "button", "class": "tb-primary", "data-nav": "lobby"}, t("game.back")),
    )


_RESERVED = ("reason", "code", "key", "lang")  # would collide with the translator's arguments


def host_reason(t, error: dict) -> str:
    """A refusal from the host, in our language when we know its code (the host's params are
    untrusted: only plain ones are used), else a generic reason: the host's own free text is
    never shown (a host could write anything there, to every guest)."""
    params = {k: v for k, v in error["params"].items() if k not in _RESERVED}
    text = t.error(TabernaError("", error["code"], **params))
    return text or t("sync.host_refused")


def guest_frame(status: str, table_id: str, lost_banner, body) -> Markup:
    """A guest's screen: the host-lost banner over whatever the guest sees now, brought into
    view when it comes (news: a player scrolled down to the game would not see it)."""
    banner = lost_banner and h(
        "p", {"class": "tb-net-banner", "role": "alert", "data-testid": "host-lost", "data-news": "host-lost"}, lost_banner
    )
    return h(
        "div",
        {"class": "tb-net tb-net-guest", "data-testid": "net-guest", "data-status": status, "data-table": table_id},
        banner,
        body,
    )


def notice(text: str, role="alert", cls=None) -> Markup:
    return h("p", {"class": cls, "role": role}, text)


def connecting_screen(t, title: str) -> Markup:
    return fragment(h("h2", None, title), notice(t("sync.connecting"), "status"))


def refused_screen(t, reason: str, retry: bool, watch: bool) -> Markup:
    """The host turned this guest down: why, and what the player may do next."""
    buttons = []
    if retry:
        buttons.append(command_button(t("sync.retry"), "data-ui", {"retry": True}, "net-retry", "tb-primary"))
    if watch:
        buttons += [" ", command_button(t("sync.watch"), "data-ui", {"watch": True}, "net-watch")]
    return fragment(
        h("h2", None, t("sync.refused")),
        h("p", {"role": "alert", "data-testid": "net-refused"}, reason),
        h("p", {"class": "tb-net-actions"}, buttons, " ", h("button", {"type": "button", "data-nav": "lobby"}, t("game.back"))),
    )
