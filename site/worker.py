"""Taberna's engine worker: exports the shell's calls (``pyengine.shell.calls``) to the page.

Runs in a DOM-free PyScript worker (no cross-origin isolation needed, so it works on
GitHub Pages). Our packages are unpacked into site-packages by ``engine.mjs`` before this
runs (with their bytecode, compiled at build time).
Every exported function takes and returns JSON strings; the page never sees Python objects.
Saves travel as JSON text, which the page stores verbatim and gives back: nothing in a save
is ever re-read as a JavaScript number on the way.
One more call, ``card_group``, is asynchronous: it loads libsodium for fair card tables.
"""

from polyscript import xworker

from pyengine.shell.calls import exports

for _name, _call in exports().items():
    setattr(xworker.sync, _name, _call)


async def card_group():
    """Imports libsodium into this worker (``card-group.mjs``, through ``engine.mjs``) and
    installs the card group; the page awaits it before a fair card table's first call, so
    that no other table pays for it. Calling it again costs nothing (the module is kept)."""
    from card_group_js import load  # registered by engine.mjs

    from pyengine.core.group import use
    from pyengine.shell.cardgroup import SodiumGroup

    use(SodiumGroup(await load()))


xworker.sync.card_group = card_group
