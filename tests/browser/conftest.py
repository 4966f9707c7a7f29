"""Browser fixtures: one private build of the site, served on free loopback ports, Debian's Chromium.

Every context records the URL of every request it makes (page, workers, service worker), so
any test can assert that nothing left the site's origin. The outside world is unreachable
anyway (host resolver rules), so a stray request fails instead of silently succeeding.

Playing with friends needs two more things on this loopback-only machine: WebRTC candidates
(Chromium gathers none on loopback unless ``--allow-loopback-in-peer-connection`` is given
and the origin holds the media permission; mDNS ``*.local`` names must resolve) and a relay
(``mosquitto``: Debian's MQTT broker with a websockets listener, started by the tests).
"""

import json
import shutil
import socket
import subprocess
import tarfile
import tempfile
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from buildtools.assemble import build
from buildtools.chromium import ARGS as CHROMIUM_ARGS
from buildtools.chromium import EXECUTABLE as CHROMIUM
from buildtools.serve import make_server

ROOT = Path(__file__).resolve().parents[2]
MOSQUITTO = "/usr/sbin/mosquitto"
ENGINE_TIMEOUT_MS = 120_000  # cold Pyodide start on a busy 2-core machine, with margin


@pytest.fixture(scope="session")
def dist(tmp_path_factory):
    """The site built once per session into a private folder, so a build of dist/ running
    elsewhere at the same time cannot change files under a test."""
    return build(tmp_path_factory.mktemp("taberna") / "dist")["path"]


class Site:
    """A running static server for dist/ at ``url`` (which ends with the sub-path)."""

    def __init__(self, dist, prefix="/"):
        self.server = make_server("127.0.0.1", 0, dist, prefix)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.url = self.origin + prefix
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="session")
def site(dist):
    server = Site(dist)
    yield server
    server.close()


@pytest.fixture(scope="session")
def subpath_site(dist):
    """The same dist/ under /taberna/, as GitHub Pages serves a project site."""
    server = Site(dist, "/taberna/")
    yield server
    server.close()


@pytest.fixture(scope="session")
def playwright_driver():
    with sync_playwright() as driver:
        yield driver


# --- Content-Security-Policy ---------------------------------------------------------------------
# Every context of the suite listens for what the page's policy blocks: ``securitypolicyviolation``
# events, turned into console errors by an init script, and the browser's own console messages
# about the policy. A dedicated worker hears its violations only in its own scope, so the init
# script also puts the listener in front of every script blob the page makes (PyScript starts
# the Python worker from one; a worker from a blob runs under the page's policy). The test
# during which a violation happened fails (at teardown) with the list.
# Give ``wait_for_function`` a function ("() => ..."), never a bare expression: Playwright
# evaluates an expression with eval on every poll, which the policy refuses.
CSP_REPORTER = """(() => {
  const report = (e) => console.error(`CSP violation: ${e.effectiveDirective} blocked`
    + ` ${e.blockedURI || "(inline)"} at ${e.sourceFile || self.location.href}:${e.lineNumber}`);
  document.addEventListener("securitypolicyviolation", report);
  const inWorker = `self.addEventListener("securitypolicyviolation", ${report});\n`;
  const createObjectURL = URL.createObjectURL;
  URL.createObjectURL = (object) => createObjectURL(
    object instanceof Blob && /javascript/.test(object.type) ? new Blob([inWorker, object], {type: object.type}) : object
  );
})();"""
CSP_VIOLATIONS = []


def _csp_message(message):
    if message.text.startswith("CSP violation") or "Content Security Policy" in message.text:
        CSP_VIOLATIONS.append(message.text)


def watch_csp(context):
    """Records the context's CSP violations into ``CSP_VIOLATIONS``; returns the context."""
    context.add_init_script(CSP_REPORTER)
    context.on("console", _csp_message)
    return context


@pytest.fixture(autouse=True)
def csp_violations():
    """Fails the test during which the policy blocked anything. A test that provokes a
    violation on purpose reads this list and empties it."""
    CSP_VIOLATIONS.clear()
    yield CSP_VIOLATIONS
    if CSP_VIOLATIONS:
        found = "\n".join(CSP_VIOLATIONS)
        CSP_VIOLATIONS.clear()
        pytest.fail(f"Content-Security-Policy violations:\n{found}", pytrace=False)


def _abort(route):
    route.abort()


@pytest.fixture(scope="session")
def browser(playwright_driver):
    """Debian's Chromium; every context made from it (here or in a test) watches the CSP.

    A first visit caches the whole site for offline play (the service worker) and, once the
    engine is up, makes a memory snapshot of Python in a second worker: about 3 CPU-seconds
    per fresh context, which only the tests of those features need (``service_workers=
    "allow"``, or the ``caching`` mark for the ``context`` fixture). Every other context
    runs without either, as the page does in a browser that offers neither."""
    browser = playwright_driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    make_context = browser.new_context

    def new_context(*args, **kwargs):
        kwargs.setdefault("service_workers", "block")
        context = watch_csp(make_context(*args, **kwargs))
        if kwargs["service_workers"] == "block":
            context.route("**/snapshot.mjs", _abort)
        return context

    browser.new_context = new_context
    yield browser
    browser.close()


class Recorder:
    """Every request URL a context made, and the page errors it raised."""

    def __init__(self):
        self.urls = []
        self.errors = []

    def foreign(self, origin):
        """Requests that went anywhere but ``origin`` (same-origin blob: URLs are local)."""
        return [
            url
            for url in self.urls
            if not (url.startswith(origin + "/") or url.startswith(f"blob:{origin}/") or url.startswith("data:"))
        ]


def record(context):
    recorder = Recorder()
    context.on("request", lambda request: recorder.urls.append(request.url))
    context.on("weberror", lambda error: recorder.errors.append(str(error.error)))
    return recorder


@pytest.fixture
def context(browser, request):
    """A fresh incognito context at phone size; ``context.recorder`` audits its requests. A
    test marked ``caching`` gets the service worker and the memory snapshot (see ``browser``)."""
    caching = request.node.get_closest_marker("caching") is not None
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, service_workers="allow" if caching else "block"
    )
    ctx.recorder = record(ctx)
    ctx.set_default_timeout(90_000)
    yield ctx
    ctx.close()


@pytest.fixture
def persistent_context(playwright_driver, tmp_path):
    """A context with a real profile on disk (installability is not checked in incognito)."""
    ctx = playwright_driver.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS
    )
    watch_csp(ctx)
    ctx.set_default_timeout(90_000)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context):
    return context.new_page()


def _wait_engine(page, state="ready"):
    """Waits until ``<html data-engine>`` leaves "loading"; asserts it reached ``state``."""
    page.wait_for_function(
        "() => document.documentElement.dataset.engine !== 'loading'", timeout=ENGINE_TIMEOUT_MS
    )
    assert page.evaluate("document.documentElement.dataset.engine") == state


def _bridge_call(page, name, *args):
    """Calls an exported bridge function in the page's worker (JSON strings in and out)."""
    raw = page.evaluate("([name, args]) => window.taberna.call(name, ...args)", [name, list(args)])
    return json.loads(raw)


AXE_CORE = "4.14.1"  # axe-core, the accessibility checker the screen tests run in the page


@pytest.fixture(scope="session")
def axe_source():
    """axe-core's browser script, fetched once with `npm pack` into .cache/npm/. It is never
    part of the site: tests run it through ``page.evaluate`` (DevTools), which the page's
    Content-Security-Policy does not govern, so the policy stays as players get it."""
    folder = ROOT / ".cache" / "npm"
    tarball = folder / f"axe-core-{AXE_CORE}.tgz"
    if not tarball.exists():
        # Packed beside and renamed into place: another test process may be fetching it too.
        folder.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(dir=folder))
        subprocess.run(["npm", "pack", "--silent", "--pack-destination", str(fresh), f"axe-core@{AXE_CORE}"],
                       check=True, stdout=subprocess.DEVNULL)
        (fresh / tarball.name).replace(tarball)
        shutil.rmtree(fresh)
    with tarfile.open(tarball) as archive:
        return archive.extractfile("package/axe.min.js").read().decode("utf-8")


@pytest.fixture(scope="session")
def wait_engine():
    return _wait_engine


@pytest.fixture(scope="session")
def bridge_call():
    return _bridge_call


# --- playing with friends ------------------------------------------------------------------------
def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_port(port, process, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"mosquitto exited with status {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"mosquitto did not listen on port {port}")


class Relay:
    """A mosquitto broker on loopback: ``url`` is its MQTT-over-WebSocket address."""

    def __init__(self, folder):
        self.ws_port, self.tcp_port = _free_port(), _free_port()
        self.url = f"ws://127.0.0.1:{self.ws_port}"
        config = folder / "mosquitto.conf"
        # A websockets-only config exits ("Unable to start any listening sockets"), hence the
        # TCP listener; ``socket_domain ipv4`` keeps the websockets one on 127.0.0.1.
        config.write_text(
            f"listener {self.tcp_port} 127.0.0.1\n"
            f"listener {self.ws_port} 127.0.0.1\nprotocol websockets\nsocket_domain ipv4\n"
            "allow_anonymous true\npersistence false\n",
            encoding="utf-8",
        )
        self.log = open(folder / "mosquitto.log", "wb")
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(config)], stdout=self.log, stderr=subprocess.STDOUT)
        try:
            _wait_port(self.ws_port, self.process)
        except RuntimeError:
            self.close()
            raise

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


@pytest.fixture(scope="session")
def relay(tmp_path_factory):
    """Debian's mosquitto, started for this session on free loopback ports."""
    assert shutil.which(MOSQUITTO) or Path(MOSQUITTO).exists(), "mosquitto is missing: python build.py test installs it"
    broker = Relay(tmp_path_factory.mktemp("mosquitto"))
    yield broker
    broker.close()


@pytest.fixture
def new_player(browser, site):
    """Makes separate players: each call is a fresh incognito context (phone size) whose
    ``site`` origin may use WebRTC (the media permission makes Chromium gather loopback
    candidates); ``context.recorder`` audits its requests."""
    contexts = []

    def make():
        ctx = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
        ctx.grant_permissions(["microphone", "camera"], origin=site.origin)
        ctx.recorder = record(ctx)
        ctx.set_default_timeout(90_000)
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        ctx.close()


# Records every message any RTCDataChannel of the page receives (ours or the relay
# library's), as text, before the page's own handlers see it.
TAP_CHANNELS = """
if (location.protocol === 'http:') {
  window.__raw = [];
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const record = (data) => {
    if (typeof data === 'string') window.__raw.push(data);
    else if (data instanceof ArrayBuffer) window.__raw.push(decoder.decode(data));
    else if (ArrayBuffer.isView(data)) window.__raw.push(decoder.decode(data));
    else if (data && data.arrayBuffer) data.arrayBuffer().then((b) => window.__raw.push(decoder.decode(b)));
  };
  const tap = (channel) => channel.addEventListener('message', (event) => record(event.data));
  const Native = window.RTCPeerConnection;
  const create = Native.prototype.createDataChannel;
  Native.prototype.createDataChannel = function (...args) {
    const channel = create.apply(this, args);
    tap(channel);
    return channel;
  };
  window.RTCPeerConnection = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('datachannel', (event) => tap(event.channel));
    }
  };
}
"""


def settings_script(relay_url):
    """Loopback only: no STUN servers; the test's relay, or none; bots at the fast pace."""
    items = {
        "taberna.stun": "",
        "taberna.useRelays": "1" if relay_url else "0",
        "taberna.relays": relay_url or "",
        "taberna.speed": "fast",
    }
    sets = "".join(f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in items.items())
    return f"if (location.protocol === 'http:') {{ {sets} }}"


@pytest.fixture
def phones(browser, site):
    """Makes player contexts (phone-sized, WebRTC allowed on loopback); closes them after."""
    made = []

    def make(relay_url=None):
        ctx = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
        ctx.grant_permissions(["microphone", "camera"], origin=site.origin)
        ctx.set_default_timeout(90_000)
        ctx.add_init_script(settings_script(relay_url))
        ctx.add_init_script(TAP_CHANNELS)
        ctx.errors = []
        ctx.on("weberror", lambda error: ctx.errors.append(str(error.error)))
        made.append(ctx)
        return ctx.new_page()

    yield make
    for ctx in made:
        ctx.close()
