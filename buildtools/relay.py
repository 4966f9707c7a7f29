"""The relay transport's bundle (site/net/relay-entry.js -> net/relay-bundle.js): Trystero's
MQTT strategy, bundled by esbuild for the browser."""

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

from buildtools.workspace import CACHE, SITE, built_beside, log

# Installed with npm into .cache/relay/ (never committed); mqtt is listed to pin the version
# @trystero-p2p/mqtt would otherwise take from a range.
RELAY_TOOLS = {"@trystero-p2p/mqtt": "0.25.4", "mqtt": "5.16.0", "esbuild": "0.28.2"}


def relay_bundle() -> Path:
    """``.cache/relay/bundle-<key>.js``: the relay entry bundled for the browser.

    Keyed by the pinned tools and the entry's text, so an unchanged entry costs nothing and a
    fresh machine pays one npm install and one esbuild run.
    """
    entry = SITE / "net" / "relay-entry.js"
    pins = json.dumps(RELAY_TOOLS, sort_keys=True)
    folder = CACHE / "relay"
    key = hashlib.sha256((pins + entry.read_text(encoding="utf-8")).encode()).hexdigest()[:16]
    bundle = folder / f"bundle-{key}.js"
    if bundle.exists():
        return bundle
    tools = folder / f"tools-{hashlib.sha256(pins.encode()).hexdigest()[:12]}"
    esbuild = tools / "node_modules" / ".bin" / "esbuild"
    if not esbuild.exists():
        if shutil.which("npm") is None:
            sys.exit("npm is needed to bundle the relay transport (install Node.js / npm)")
        log(f"installing {', '.join(f'{k}@{v}' for k, v in RELAY_TOOLS.items())} with npm")
        with built_beside(tools) as fresh:
            fresh.mkdir()
            (fresh / "package.json").write_text(
                json.dumps({"private": True, "dependencies": RELAY_TOOLS}, indent=1), encoding="utf-8"
            )
            subprocess.run(
                ["npm", "install", "--silent", "--no-audit", "--no-fund", "--ignore-scripts"],
                cwd=fresh,
                check=True,
                stdout=subprocess.DEVNULL,
            )
    # The entry is bundled from inside the tools folder so its imports resolve there.
    source = tools / f"entry-{key}.js"
    shutil.copyfile(entry, source)
    log("bundling the relay transport with esbuild")
    with built_beside(bundle) as partial:
        subprocess.run(
            [
                str(esbuild), source.name, "--bundle", "--format=esm", "--minify", "--platform=browser",
                "--log-level=warning", f"--outfile={partial}",
            ],
            cwd=tools,
            check=True,
        )
    return bundle
