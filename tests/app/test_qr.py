"""QR codes of invite links and reply codes, drawn as scalable SVG in the worker."""

import json
import re

import segno

from pyengine.shell.calls import net_qr

LINK = "https://example.org/taberna/#join=K7M2QX9P.1.eyJ1IjoiYWJjIiwicCI6ImRlZiJ9"


def test_a_link_becomes_a_scalable_accessible_svg_with_a_quiet_zone():
    reply = json.loads(net_qr(LINK, "pt"))
    assert reply["ok"]
    svg = reply["svg"]
    assert svg.startswith('<svg role="img" aria-label="QR code do link" ')
    size = segno.make(LINK, error="m").symbol_size(border=4)[0]
    assert f'viewBox="0 0 {size} {size}"' in svg
    assert not re.search(r"<svg[^>]*\b(width|height)=", svg)  # it scales with its box
    assert 'fill="#fff"' in svg and 'stroke="#000"' in svg  # dark modules on light
    assert re.search(r'd="M4 4\.5h7', svg)  # the finder pattern starts after 4 quiet modules


def test_the_same_text_gives_the_same_code():
    assert net_qr(LINK) == net_qr(LINK)
    assert net_qr(LINK) != net_qr(LINK + "x")


def test_texts_a_phone_could_not_scan_are_refused_with_a_reason():
    for text in ("x" * 1001, "", 12, None):
        reply = json.loads(net_qr(text, "en"))
        assert not reply["ok"] and reply["svg"] is None
        assert reply["error"]["code"] == "net_qr_text"
        assert reply["message"] == "A QR code holds at most 1,000 characters."
    assert json.loads(net_qr("x" * 1000))["ok"]
