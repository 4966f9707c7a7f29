"""Taberna's engine worker: exports the shell's calls (``pyengine.shell.calls``) to the page.

Run by ``engine-worker.mjs`` in a DOM-free web worker, once ``engine.mjs`` has started Python
and unpacked our packages (with their bytecode, compiled at build time) into site-packages.
``taberna_bridge.calls`` is the worker's table of calls: the page's messages name one.
Every exported function takes and returns JSON strings; the page never sees Python objects.
Saves travel as JSON text, which the page stores verbatim and gives back: nothing in a save
is ever re-read as a JavaScript number on the way.
"""

from taberna_bridge import calls

from pyengine.shell.calls import exports

for _name, _call in exports().items():
    setattr(calls, _name, _call)
