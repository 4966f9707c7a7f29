"""Peer-to-peer tables: a host-authoritative protocol over any transport that carries text.

* ``envelope`` — the wire format: versioned JSON messages, a schema per kind, size limits.
* ``host`` — the ``Host`` runs the Table, authorises every message, sends per-seat views.
* ``guest`` — the ``Guest`` state machine: seat, token, latest view, pending intent, resync.
* ``phrases`` — premade phrases between players: ids only, paced, muteable per device.
* ``witness`` — a guest's account of a table that is not fair, and the host's whole record
  at the end, checked against it.
* ``memory`` — an in-memory transport for tests, bots and the reference behaviour.

Nothing here opens a socket or reads a clock. A transport (in-memory here; BroadcastChannel
or WebRTC on the page's main thread) hands each inbound text to ``Host.receive(peer, text,
now)`` or ``Guest.receive(text, now)`` and delivers what they return: the host's outbox is a
list of ``(peer, text)`` pairs, a guest's a list of texts for the host. The caller also calls
``tick(now)`` now and then, for heartbeats, absences and retries.

Guest to host: ``join``, ``rejoin``, ``intent``, ``sync``, ``ping``, ``say``.
Host to guest: ``welcome``, ``state``, ``error``, ``pong``, ``record`` (fair tables), ``said``,
``step`` and ``game_record`` (tables that are not fair).

What a driver (``MemoryNetwork`` here, the page's glue in the browser) does:

* host page: each text from a peer -> ``host.receive(peer, text, now)``; a peer's channel
  closed -> ``host.drop(peer, now)`` (absent at once); about once a second
  ``host.tick(now)``; bots paced by calling ``host.play_bot()``; local players through
  ``host.act``; the host's own choices through ``host.start`` / ``host.set_seat`` /
  ``host.rematch`` / ``host.close``. Deliver every returned ``(peer, text)``, and store ``host.snapshot()``
  whenever ``host.rev`` moved.
* guest page: ``guest.start(now)`` to begin; each text from the host ->
  ``guest.receive(text, now)``; a channel to the host opened -> ``guest.connected(now)``,
  closed -> ``guest.lost(now)``; about once a second ``guest.tick(now)``; the player's moves
  through ``guest.intend(action, now)``. Send every returned text to the host, and store
  ``guest.snapshot()`` after a welcome. A new channel may bring a new peer id: the token
  makes the host recognise the guest anyway.

``pyengine.shell`` (``hosted``, ``joined``) is that driver's worker half in the browser: it
runs these calls and draws the screens; the page's ``site/session.js`` moves the texts.
"""

from .envelope import PROTOCOL, ProtocolError
from .guest import Guest
from .host import Host
from .memory import MemoryNetwork

__all__ = ["PROTOCOL", "Guest", "Host", "MemoryNetwork", "ProtocolError"]
