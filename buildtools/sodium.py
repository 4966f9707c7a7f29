"""libsodium for fair card tables: npm's libsodium-wrappers-sumo and the libsodium-sumo it
wraps (ES modules, the second's WebAssembly in a file beside it), served under ``sodium/``.
The worker imports them only when a fair card table first asks (``site/card-group.mjs``);
the service worker precaches them like every file, for offline play."""

import base64
import hashlib
import re
import sys
from pathlib import Path

from buildtools.runtime import extract, npm_tarballs

# Pinned by version and by the registry's integrity (npm's sha512 of the tarball), so a
# tarball that changed under the same version fails the build.
SODIUM = {
    "libsodium-wrappers-sumo": (
        "0.8.4",
        "sha512-ql7hcgulKZ3ekfa2DGAogcCKsWU0diA/0nArz1CFzh93WQdb46/Kj18ka/Hifq6uA3Ush34Pc6vU/6HXeRwUkg==",
    ),
    "libsodium-sumo": (
        "0.8.4",
        "sha512-TMtHShQfVVsaxDygyapvUC3o7YsPgXa/hRWeIgzyFz6w5k/1hirGptCxp1U7XwW3rCskaTTYKgV10v86UiGgNw==",
    ),
}
WRAPPERS = "libsodium-wrappers.mjs"
LIBRARY = "libsodium-sumo.mjs"
# The wrappers import the library by its package name, which a browser cannot resolve
# (import maps do not reach workers): the build points it at the file beside them.
BARE_IMPORT = 'from"libsodium-sumo"'
# The library carries its WebAssembly as a base64 string and the function that decodes it:
# base64 gzips to 165 kB where the module itself gzips to 124 kB, so the build serves it as
# a file of its own, which the library fetches instead (from the service worker offline).
INLINE_WASM = re.compile(r'\(A=>\{for\(var [^{}]*?return E\}\)\("([A-Za-z0-9+/]+={0,2})"\)')
WASM = "libsodium-sumo.wasm"
FETCH_WASM = f'new Uint8Array(await(await fetch(new URL("./{WASM}",import.meta.url))).arrayBuffer())'


def _integrity(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def copy_sodium(dest: Path) -> None:
    """``dest/``: the two ES modules (the wrappers importing the library beside them) and
    their licence."""
    tarballs = npm_tarballs([(name, version) for name, (version, _) in SODIUM.items()])
    for name, (version, integrity) in SODIUM.items():
        if _integrity(tarballs[name]) != integrity:
            sys.exit(f"{tarballs[name].name} does not match the pinned integrity of {name}@{version}")
    dest.mkdir()
    extract(tarballs["libsodium-sumo"], lambda n: n in (f"dist/modules-sumo-esm/{LIBRARY}", "LICENSE"), dest)
    extract(tarballs["libsodium-wrappers-sumo"], lambda n: n == f"dist/modules-sumo-esm/{WRAPPERS}", dest)
    wrappers = dest / WRAPPERS
    text = wrappers.read_text(encoding="utf-8")
    if text.count(BARE_IMPORT) != 1:
        sys.exit(f"{WRAPPERS} no longer imports {BARE_IMPORT!r} exactly once: see buildtools/sodium.py")
    wrappers.write_text(text.replace(BARE_IMPORT, f'from"./{LIBRARY}"'), encoding="utf-8")
    library = dest / LIBRARY
    text = library.read_text(encoding="utf-8")
    inline = INLINE_WASM.findall(text)
    if len(inline) != 1 or not base64.b64decode(inline[0]).startswith(b"\0asm"):
        sys.exit(f"{LIBRARY} no longer carries its WebAssembly as one base64 string: see buildtools/sodium.py")
    (dest / WASM).write_bytes(base64.b64decode(inline[0]))
    library.write_text(INLINE_WASM.sub(lambda _: FETCH_WASM, text), encoding="utf-8")
