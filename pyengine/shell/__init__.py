"""The shell: everything around a game's own rules and drawing, for every kind of table.

* ``calls`` — the one export layer: every worker call, the one error path.
* ``reply`` — the one reply envelope, the save format, and ``Controller`` (what every
  table shares to answer a call).
* ``device`` — this device's seats of a table: whose screen shows, pass-and-play hand-off,
  persistent UI, bot pacing. ``LocalMoves`` plays moves straight on the ``Table``.
* ``local`` — ``LocalTable``: a table on this device only (``Device`` + ``LocalMoves``).
* ``hosted`` — ``HostedTable``: a table this tab hosts for friends (``Device`` + the
  ``protocol.Host``, which tells the guests).
* ``joined`` — ``JoinedTable``: a seat at another tab's table (``protocol.Guest``).
* ``screens`` — the screens around the game's drawing: table section, game over, hand-off,
  partnerships, seat strip, the friends' screens; ``setup`` — the new-table form;
  ``lobby`` — the lobby's game cards; ``qr`` — QR codes of invites.

``hosted``, ``joined``, ``qr`` and ``protocol`` are imported on first use of a shared
table or a QR code, never by a one-device game.
"""

from ..core.registry import discover

GAMES = "pyengine.games"
discover(GAMES)  # every module below looks games up by id in the registry
