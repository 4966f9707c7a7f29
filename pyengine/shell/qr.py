"""QR codes of invite links and reply codes: segno encodes, ``ui.markup`` draws.

segno (an optional dependency, ``pyengine[qr]``) is imported on the first code asked for,
never at start-up. The SVG scales with its box (a ``viewBox``, no size), dark modules on
light with a quiet zone of 4 modules, one stroked path of horizontal runs per row.
"""

from ..core.errors import TabernaError
from ..ui.markup import h

MAX_QR_TEXT = 1000
QUIET_ZONE = 4


def _runs(rows) -> str:
    """Path data: each run of dark modules as a one-module-thick horizontal stroke."""
    moves = []
    for y, row in enumerate(rows):
        x = 0
        while x < len(row):
            if not row[x]:
                x += 1
                continue
            start = x
            while x < len(row) and row[x]:
                x += 1
            moves.append(f"M{start} {y}.5h{x - start}")
    return "".join(moves)


def qr_svg(text, t):
    """A QR code of ``text`` (an invite link or a reply code) as accessible SVG markup."""
    if not isinstance(text, str) or not 0 < len(text) <= MAX_QR_TEXT:
        raise TabernaError("A QR code holds at most 1000 characters", "net_qr_text", limit=MAX_QR_TEXT)
    import segno

    code = segno.make(text, error="m")
    size = code.symbol_size(border=QUIET_ZONE)[0]
    return h(
        "svg",
        {"role": "img", "aria-label": t("sync.qr_label"), "viewBox": f"0 0 {size} {size}", "class": "tb-qr"},
        h("path", {"fill": "#fff", "d": f"M0 0h{size}v{size}h-{size}z"}),
        h("path", {"stroke": "#000", "d": _runs(code.matrix_iter(border=QUIET_ZONE))}),
    )
