"""Serving a built site over HTTP on loopback, the way a static host would."""

import functools
import http.server
import os
import sys
from pathlib import Path

from buildtools.workspace import DIST, log

MIME_TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".py": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".css": "text/css",
    ".html": "text/html; charset=utf-8",
    ".png": "image/png",
}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the right MIME types (module scripts and wasm are checked strictly).

    ``prefix`` serves the site under a sub-path (as GitHub Pages does for project sites);
    anything outside it is a 404.
    """

    prefix = "/"
    served = None  # a list to record the paths asked for (tests), or None
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def translate_path(self, path):
        if self.served is not None:
            self.served.append(path)
        clean = path.split("?", 1)[0].split("#", 1)[0]
        if not clean.startswith(self.prefix):
            return str(DIST / "__outside_the_site__")
        return super().translate_path("/" + clean[len(self.prefix):])

    def end_headers(self):
        # Revalidate on every load, like a fresh deploy would: the service worker, not the
        # HTTP cache, is what makes repeat visits fast and offline.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):
        if os.environ.get("TABERNA_SERVE_LOG"):
            super().log_message(format, *args)


def make_server(host: str, port: int, directory: Path = DIST, prefix: str = "/", served=None):
    """A threaded HTTP server for ``directory`` under ``prefix`` (port 0 picks a free port).

    ``served``, if given, is a list that receives the path of every request."""
    if not prefix.endswith("/"):
        prefix += "/"
    handler = type(
        "BoundSiteHandler",
        (SiteHandler,),
        {
            "prefix": prefix,
            "served": served,
            "__init__": functools.partialmethod(SiteHandler.__init__, directory=str(directory)),
        },
    )
    return http.server.ThreadingHTTPServer((host, port), handler)


def serve(host: str, port: int) -> None:
    """Serves dist/ until Ctrl+C."""
    try:
        server = make_server(host, port)
    except OSError as error:
        sys.exit(f"cannot serve on {host}:{port} ({error.strerror}); pick another with --port N")
    log(f"serving dist/ on http://{host}:{server.server_address[1]}/  (Ctrl+C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
