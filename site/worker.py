"""Taberna's engine worker: exports the pyengine bridge to the page.

Runs in a DOM-free PyScript worker (no cross-origin isolation needed, so it works on
GitHub Pages). The wheel is unpacked onto sys.path by the worker config's "files" entry.
Every exported function takes and returns JSON strings; the page never sees Python objects.

A screen's ``save`` is handed over as JSON *text*, which the page stores verbatim and gives
back to ``resume``: nothing in a save is ever re-read as a JavaScript number on the way
(seeds are kept below 2**53 as well, so the sync messages that carry them stay exact).
"""

import json

from polyscript import xworker

from pyengine import bridge, netplay

SCREEN_CALLS = ("setup", "start", "resume", "act", "ui", "bot_step", "render")
OTHER_CALLS = ("lobby", "selftest", "bench", "perft")
# Shared tables ("play with friends"), this tab's netplay.WORKER; their replies already carry
# the save as JSON text.
NET_CALLS = (
    "net_host_setup", "net_host_create", "net_host_resume", "net_host_receive", "net_host_tick",
    "net_host_dropped", "net_host_act", "net_host_ui", "net_host_bot_step", "net_host_command",
    "net_guest_join", "net_guest_resume", "net_guest_receive", "net_guest_tick",
    "net_guest_dropped", "net_guest_connected", "net_guest_act", "net_guest_ui",
)


def _save_as_text(function):
    def call(*args):
        reply = json.loads(function(*args))
        if reply.get("save") is not None:
            reply["save"] = json.dumps(reply["save"], separators=(",", ":"))
        return json.dumps(reply)

    return call


for _name in SCREEN_CALLS:
    setattr(xworker.sync, _name, _save_as_text(getattr(bridge, _name)))
for _name in OTHER_CALLS:
    setattr(xworker.sync, _name, getattr(bridge, _name))
for _name in NET_CALLS:
    setattr(xworker.sync, _name, getattr(netplay.WORKER, _name))
xworker.sync.net_qr = netplay.net_qr
