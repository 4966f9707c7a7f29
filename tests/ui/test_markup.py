"""The markup builder escapes by construction and refuses what could run script."""

import pytest

from pyengine.ui.html import act_button, ui_button
from pyengine.ui.markup import EMPTY, Markup, fmt, fragment, h
from tests.markup_check import HOSTILE, live_markup


def test_text_and_attributes_are_escaped():
    for payload in HOSTILE:
        html = str(h("div", {"title": payload, "data-x": payload, "class": [payload]}, payload))
        assert live_markup(html) == [], payload
        assert html.count("<") == 2  # only <div> and </div>


def test_nesting_fragments_and_skipped_children():
    tree = h("ul", {"class": ["a", None, False, "b"]},
             (h("li", None, n) for n in (1, 2.5)), None, False, fragment("x", h("br")))
    assert str(tree) == '<ul class="a b"><li>1</li><li>2.5</li>x<br></ul>'
    assert str(h("circle", {"r": 8})) == '<circle r="8"/>'
    assert str(h("p")) == "<p></p>"
    assert not EMPTY and fragment() == EMPTY


def test_attribute_kinds():
    html = str(h("button", {"disabled": True, "hidden": False, "aria-x": None, "data-act": {"b": 1, "a": "<"}}))
    assert html == '<button disabled data-act="{&quot;a&quot;:&quot;&lt;&quot;,&quot;b&quot;:1}"></button>'


def test_numbers_are_formatted():
    assert fmt(3) == "3" and fmt(0.1 + 0.2) == "0.3" and fmt(-0.0001) == "0" and fmt(12.5) == "12.5"
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError):
            fmt(bad)
    with pytest.raises(TypeError):
        fmt(True)


@pytest.mark.parametrize("attrs", [
    {"onclick": "x"}, {"OnLoad": "x"}, {"style": "color:red"}, {"a b": "1"}, {'x"': "1"},
    {"href": "javascript:alert(1)"}, {"src": " JaVaScRiPt:x"}, {"href": "data:text/html,x"},
])
def test_unsafe_attributes_are_refused(attrs):
    with pytest.raises(ValueError):
        h("a", attrs)


@pytest.mark.parametrize("tag", ["", "a b", "script>", "<x", "1a"])
def test_unsafe_tags_are_refused(tag):
    with pytest.raises(ValueError):
        h(tag)


def test_strings_never_become_markup():
    with pytest.raises(TypeError):
        Markup("<b>")
    with pytest.raises(TypeError):
        h("p", None, {"not": "text"})
    with pytest.raises(TypeError):
        h("p") + "<b>"
    with pytest.raises(ValueError):
        h("br", None, "content")


def test_buttons():
    assert str(act_button("Bid <5>", {"type": "bid"}, cls="x", **{"data-testid": "b"})) == (
        '<button type="button" class="x" data-act="{&quot;type&quot;:&quot;bid&quot;}" data-testid="b">Bid &lt;5&gt;</button>'
    )
    assert 'data-ui="{&quot;odds&quot;:true}"' in str(ui_button(h("b", None, "?"), {"odds": True}))


def test_checker_finds_live_markup():
    assert live_markup('<p><img src=x onerror="a()"></p>') == ["<img> element", "onerror= attribute on <img>"]
    assert live_markup('<a href="javascript:x">') == ["javascript: URL in href on <a>"]


def test_refusals_hold_once_safe_attributes_are_remembered():
    """Attributes once written are remembered (``markup._WRITTEN``): a refused name or URL
    must still raise every time, whatever kind of value it comes with."""
    h("a", {"href": "/rules", "width": 3, "x": 1.5, "class": ["tb"], "title": "<ok>"})
    refused = ({"href": "javascript:x"}, {"HREF": "data:x"}, {"onclick": "x"}, {"onclick": 1}, {"onclick": 1.5},
               {"onclick": True}, {"style": None}, {"style": ["tb"]}, {"a b": "tb"})
    for attrs in refused:
        for _ in range(2):
            with pytest.raises(ValueError):
                h("a", attrs)
    assert str(h("a", {"width": 1, "height": 1.0, "x": True, "class": ["tb"], "title": "<ok>"})) == (
        '<a width="1" height="1" x class="tb" title="&lt;ok&gt;"></a>'
    )


def test_remembered_attributes_stay_bounded():
    from pyengine.ui import markup

    for n in range(markup._WRITTEN_LIMIT + 10):
        h("p", {"title": f"t{n}"})
    assert len(markup._WRITTEN) <= markup._WRITTEN_LIMIT
    assert str(h("p", {"title": "t1"})) == '<p title="t1"></p>'
