"""Taberna's engine worker: exports the pyengine bridge to the page.

Runs in a DOM-free PyScript worker (no cross-origin isolation needed, so it works on
GitHub Pages). The wheel is unpacked onto sys.path by the worker config's "files" entry.
Every exported function takes and returns JSON strings; the page never sees Python objects.
"""

from polyscript import xworker

from pyengine import bridge

for _name in ("lobby", "setup", "start", "resume", "act", "ui", "bot_step", "render", "selftest", "bench"):
    setattr(xworker.sync, _name, getattr(bridge, _name))
