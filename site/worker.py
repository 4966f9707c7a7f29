"""Taberna's engine worker: exports the shell's calls (``pyengine.shell.calls``) to the page.

Runs in a DOM-free PyScript worker (no cross-origin isolation needed, so it works on
GitHub Pages). Our packages are unpacked into site-packages by ``engine.mjs`` before this
runs (with their bytecode, compiled at build time).
Every exported function takes and returns JSON strings; the page never sees Python objects.
Saves travel as JSON text, which the page stores verbatim and gives back: nothing in a save
is ever re-read as a JavaScript number on the way.
"""

from polyscript import xworker

from pyengine.shell.calls import exports

for _name, _call in exports().items():
    setattr(xworker.sync, _name, _call)
