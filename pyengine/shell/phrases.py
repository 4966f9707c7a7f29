"""A table's phrases on this device's screen (``protocol.phrases``), for a hosted table and a
joined one alike: the picker's state, the player's ``data-phrase`` requests, and the words
of each phrase in the viewer's language, drawn by ``ui.phrases``."""

from ..core.errors import TabernaError
from ..core.phrases import EMOJI
from ..core.registry import get_declaration
from ..ui.markup import h
from ..ui.phrases import phrase_bubble, phrase_picker


def _not_understood():
    return TabernaError("That button is not understood", "bad_ui")


class Talk:
    """The picker of one table on this device: open or closed (not saved: a reload closes it)."""

    def __init__(self):
        self.open = False

    def request(self, request: dict, board, seats: int, speaker, say) -> None:
        """``{"say": id}`` (``say(speaker, id)`` sends it for the seat on this screen; the
        picker closes), ``{"mute": seat}`` (this device mutes that player, or hears them
        again) or ``{"picker": open}``."""
        if len(request) != 1:
            raise _not_understood()
        (what, value), = request.items()
        if what == "say" and isinstance(value, str):
            if speaker is None:
                raise TabernaError("Only a player at the table can say something", "phrase_no_seat")
            say(speaker, value)
            self.open = False
        elif what == "mute" and type(value) is int and 0 <= value < seats:
            board.mute(value)
        elif what == "picker" and isinstance(value, bool):
            self.open = value
        else:
            raise _not_understood()

    def bubbles(self, t, game_id, board, names: list) -> dict:
        """``{seat: bubble}`` for the seats whose phrase shows now."""
        phrases = get_declaration(game_id).phrases
        shown = {}
        for seat, (phrase, number) in board.shown().items():
            if seat < len(names):
                text = t(phrases.key(game_id, phrase))
                said = t("sync.phrase_said", name=names[seat], phrase=text)
                shown[seat] = phrase_bubble(seat, names[seat], text, EMOJI.get(phrase), str(number), said)
        return shown

    def bar(self, t, game_id, board, names: list, speaker, strip):
        """The seat strip with the picker's button beside it (the panel under both, when
        open): at the top of the table, in the page's flow, over no control."""
        phrases = get_declaration(game_id).phrases
        words = [] if speaker is None else [
            (phrase, t(phrases.key(game_id, phrase)), EMOJI.get(phrase)) for phrase in phrases.ids
        ]
        mutes = [(seat, name, seat in board.muted) for seat, name in enumerate(names) if seat != speaker]
        picker = phrase_picker(t("sync.phrases"), self.open, words, mutes, t("sync.phrases_mute"))
        return h("div", {"class": "tb-net-top"}, strip, picker)
