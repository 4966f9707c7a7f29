"""The how-to-play pages: ``pyengine/games/<id>/howto/<lang>.md`` -> ``howto/<id>.<lang>.html``.

Static pages, so the rules can be read before Python has loaded, and offline (the service
worker precaches every file of the site). Each page is the Markdown rendered by
markdown-it-py (CommonMark with tables; raw HTML in the source is escaped, not passed
through) inside ``howto.html``: the site's stylesheet, the same Content-Security-Policy as
the lobby (no script at all), a way back to the games and the page in the other languages.
"""

import sys
from html import escape
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script, or loaded from its path
from buildtools.pypi_tools import tool  # noqa: E402

TEMPLATE = Path(__file__).with_name("howto.html")


def source(game_folder: Path, lang: str) -> Path:
    return game_folder / "howto" / f"{lang}.md"


def page_name(game_id: str, lang: str) -> str:
    return f"{game_id}.{lang}.html"


def render_markdown(text: str) -> str:
    """CommonMark with tables; HTML in the source shows as text."""
    return tool("markdown_it").MarkdownIt("commonmark", {"html": False}).enable("table").render(text)


def write_pages(out: Path, games: list, languages: list, translate, csp_meta: str, tag=lambda lang: lang) -> list:
    """Writes ``out/<id>.<lang>.html`` for every ``(game_id, folder)`` in ``games`` that has a
    page in ``lang`` and returns the paths. ``translate(lang, key, **params)`` gives the
    chrome's words (from the catalogs); ``csp_meta`` is the lobby's policy tag; ``tag(lang)``
    the page's ``lang`` attribute."""
    out.mkdir(parents=True, exist_ok=True)
    template = TEMPLATE.read_text(encoding="utf-8")
    written = []
    for game_id, folder in games:
        present = [lang for lang in languages if source(folder, lang).exists()]
        for lang in present:
            others = "\n".join(
                f'<a href="{page_name(game_id, other)}" lang="{tag(other)}" hreflang="{tag(other)}">'
                f'{escape(translate(other, "lang.self"))}</a>'
                for other in present
                if other != lang
            )
            name = translate(lang, f"lobby.{game_id}.name")
            text = (
                template.replace("__CSP__", csp_meta)
                .replace("__LANG__", tag(lang))
                .replace("__TITLE__", escape(translate(lang, "howto.title", game=name)))
                .replace("__APP__", escape(translate(lang, "app.title")))
                .replace("__BACK__", escape(translate(lang, "howto.back")))
                .replace("__LANGUAGES_LABEL__", escape(translate(lang, "lang.label")))
                .replace("__LANGUAGES__", others)
                .replace("__BODY__", render_markdown(source(folder, lang).read_text(encoding="utf-8")))
            )
            path = out / page_name(game_id, lang)
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written
