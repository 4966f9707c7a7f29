"""The how-to-play pages: every playable game has one in every language, explaining every
table option (its label, and each choice's, as the setup form shows them in that language),
and the build renders them as static pages with the lobby's policy and no script."""

import re
from html.parser import HTMLParser

import pytest

from buildtools.assemble import csp_meta
from buildtools.howto import render_markdown, source, write_pages
from pyengine.core.registry import declarations
from pyengine.i18n import LANGUAGES, language_tag, translate

PLAYABLE = [d for d in declarations() if d.playable]


def plain(markdown: str) -> str:
    """The page's words, emphasis and line breaks aside."""
    return re.sub(r"\s+", " ", markdown.replace("**", "").replace("*", ""))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("declaration", PLAYABLE, ids=lambda d: d.id)
def test_every_playable_game_has_a_page_that_explains_every_option(declaration, lang):
    path = source(declaration.folder, lang)
    assert path.exists(), f"{path} is missing"
    text = plain(path.read_text(encoding="utf-8"))
    assert text.startswith("# "), "a page opens with its title"
    assert len(text) > 1500, "a page explains the aim, the turn and the rules"
    for name, option in declaration.rules.options.items():
        label = translate(lang, f"opt.{declaration.id}.{name}")
        assert label in text, (lang, name, label)
        for choice in option.choices:
            label = translate(lang, f"opt.{declaration.id}.{name}.{choice}")
            assert label in text, (lang, name, choice, label)


class _Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.links, self.meta, self.lang = [], [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        self.lang = attrs.get("lang") if tag == "html" else self.lang
        if tag == "a":
            self.links.append(attrs.get("href"))
        if tag == "meta":
            self.meta.append(attrs)
        assert not [name for name in attrs if name.startswith("on") or name == "style"], (tag, attrs)


def test_pages_are_static_html_under_the_lobbys_policy_with_markdown_escaped(tmp_path):
    games = [(d.id, d.folder) for d in PLAYABLE]
    written = write_pages(tmp_path, games, LANGUAGES, translate, csp_meta(), language_tag)
    assert len(written) == len(PLAYABLE) * len(LANGUAGES)
    for path in written:
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        game_id, lang = path.name.split(".")[:2]
        assert page.lang == language_tag(lang) and "script" not in page.tags and "style" not in page.tags
        assert "h1" in page.tags and "h2" in page.tags and "main" in page.tags
        policy = next(m["content"] for m in page.meta if m.get("http-equiv") == "Content-Security-Policy")
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        others = {f"{game_id}.{other}.html" for other in LANGUAGES if other != lang}
        assert others <= set(page.links) and "../" in page.links
    assert render_markdown("<script>alert(1)</script> *x*") == "<p>&lt;script&gt;alert(1)&lt;/script&gt; <em>x</em></p>\n"
    assert "<table>" in render_markdown("| a | b |\n|---|---|\n| 1 | 2 |\n")
