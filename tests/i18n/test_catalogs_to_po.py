"""The converter the lead runs on JSON catalogs merged from other branches."""

import json

from buildtools.catalogs_to_po import convert
from buildtools.po import read_po


def test_json_catalogs_become_po_with_plurals_and_update_an_existing_po(tmp_path):
    source = tmp_path / "cards.pt.json"
    source.write_text(json.dumps({
        "cards.title": "Cartas",
        "cards.left": {"one": "{count} carta restante", "other": "{count} cartas restantes"},
        "cards.only_other": {"other": "{count} vezes"},
    }), encoding="utf-8")
    target = convert(source)
    assert target.name == "cards.pt.po"
    assert read_po(target) == {
        "cards.title": "Cartas",
        "cards.left": {"one": "{count} carta restante", "other": "{count} cartas restantes"},
        "cards.only_other": {"one": "{count} vezes", "other": "{count} vezes"},
    }
    assert '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"' in target.read_text(encoding="utf-8")
    source.write_text(json.dumps({"cards.title": "Baralho", "cards.new": "Nova"}), encoding="utf-8")
    updated = read_po(convert(source))
    assert updated["cards.title"] == "Baralho" and updated["cards.new"] == "Nova" and "cards.left" in updated
