"""build.py's steps for playing with friends: the networking modules, the relay bundle, segno."""

import hashlib
import json
import re
import tarfile
import zipfile
from pathlib import Path

import pytest

from buildtools.assemble import build
from buildtools.relay import RELAY_TOOLS, relay_bundle
from buildtools.wheels import WORKER_WHEELS, worker_wheels
from buildtools.workspace import CACHE

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build(tmp_path_factory.mktemp("net") / "dist")["path"]


def test_networking_modules_and_the_relay_bundle_are_staged(site):
    sources = {p.name for p in (ROOT / "site" / "net").glob("*.js")} - {"relay-entry.js"}
    staged = {p.name for p in (site / "net").iterdir()}
    assert staged == sources | {"relay-bundle.js"}
    for name in sources:
        assert (site / "net" / name).read_bytes() == (ROOT / "site" / "net" / name).read_bytes()


def test_relay_bundle_is_one_self_contained_module_with_what_relay_js_imports(site):
    bundle = (site / "net" / "relay-bundle.js").read_text(encoding="utf-8")
    assert not re.search(r"""\bimport\s*\(?\s*["']""", bundle)  # nothing left to fetch
    assert not re.search(r"""\brequire\(\s*["']""", bundle)
    # The module's one export statement (esbuild writes it after the code, before the
    # licence comments): the names relay.js uses.
    (exports,) = re.findall(r"\bexport\s*\{([^}]*)\}", bundle)
    names = sorted(part.split(" as ")[-1].strip() for part in exports.split(","))
    assert names == ["brokerClients", "defaultRelayUrls", "getRelaySockets", "joinRoom"]
    used = set(re.findall(r"\blib\.(\w+)", (ROOT / "site" / "net" / "relay.js").read_text(encoding="utf-8")))
    assert used == set(names)


def test_bundle_is_cached_by_pins_and_entry():
    first = relay_bundle()
    assert relay_bundle() == first  # no second npm or esbuild run
    assert first.parent == CACHE / "relay"
    key = hashlib.sha256(
        (json.dumps(RELAY_TOOLS, sort_keys=True) + (ROOT / "site/net/relay-entry.js").read_text()).encode()
    ).hexdigest()[:16]
    assert first.name == f"bundle-{key}.js"


def test_segno_wheel_is_pinned_and_unpacked_in_the_worker(site):
    """The worker's packages archive carries the pinned segno wheel: each module as bytecode
    only, its metadata unchanged."""
    (wheel,) = [p for p in worker_wheels() if p.name == "segno-1.6.6-py3-none-any.whl"]
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == WORKER_WHEELS[wheel.name]
    with tarfile.open(site / "runtime" / "packages.tar.gz") as packages, zipfile.ZipFile(wheel) as archive:
        shipped = {m.name: packages.extractfile(m).read() for m in packages if m.isfile()}
        assert "segno/__init__.py" in archive.namelist()
        for name in archive.namelist():
            if name.endswith(".py"):
                assert name + "c" in shipped and name not in shipped, name
            elif ".dist-info/" in name:
                assert shipped[name] == archive.read(name), name


def test_service_worker_precaches_the_new_files(site):
    text = (site / "sw.js").read_text(encoding="utf-8")
    precache = json.loads(re.search(r"const PRECACHE = (\{.*?\});", text, re.S).group(1))
    for path in ("net/rtc.js", "net/bc.js", "net/relay.js", "net/channel.js", "net/relay-bundle.js",
                 "runtime/packages.tar.gz"):
        assert precache[path] == hashlib.sha256((site / path).read_bytes()).hexdigest()
    assert "net/relay-entry.js" not in precache


def test_lobby_does_not_load_the_relay(site):
    """Only relay.js imports the bundle, and only transports.js (on first use of a room) relay.js."""
    for path in (site / "net").glob("*.js"):
        if path.name == "relay-bundle.js":
            continue
        text = path.read_text(encoding="utf-8")
        static = re.findall(r"""^import .* from ["'](.+)["'];""", text, re.M)
        assert "./relay.js" not in static and "./relay-bundle.js" not in static, path.name
    page = (site / "index.html").read_text(encoding="utf-8")
    assert "relay-bundle" not in page and "net/relay.js" not in page
    app = (site / "app.js").read_text(encoding="utf-8")
    assert not re.search(r"""^import .* from ["'].*relay.*["'];""", app, re.M)
