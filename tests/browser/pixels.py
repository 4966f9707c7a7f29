"""Reading the pixels of a Playwright screenshot (PNG) without an imaging library.

Screens are checked as a player sees them: a piece or a die must be *drawn* where it belongs,
not merely present in the DOM (a white tile over Lasca's board once hid every piece while all
DOM checks passed). Chromium writes 8-bit RGB or RGBA, non-interlaced PNGs: that is all this
decoder reads.
"""

import struct
import zlib

_CHANNELS = {2: 3, 6: 4}  # PNG colour type -> bytes per pixel (truecolour, truecolour + alpha)


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


class Image:
    """A decoded screenshot: ``image.pixel(x, y)`` is an ``(r, g, b)`` tuple."""

    def __init__(self, png: bytes):
        assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        pos, data = 8, b""
        while pos < len(png):
            length, kind = struct.unpack(">I4s", png[pos:pos + 8])
            body = png[pos + 8:pos + 8 + length]
            if kind == b"IHDR":
                self.width, self.height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
                assert depth == 8 and colour in _CHANNELS and not interlace, "unexpected PNG format"
                self.bpp = _CHANNELS[colour]
            elif kind == b"IDAT":
                data += body
            pos += 12 + length
        raw = zlib.decompress(data)
        stride = self.width * self.bpp
        rows, previous = [], bytearray(stride)
        for y in range(self.height):
            kind = raw[y * (stride + 1)]
            line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            for i in range(stride):
                left = line[i - self.bpp] if i >= self.bpp else 0
                up = previous[i]
                corner = previous[i - self.bpp] if i >= self.bpp else 0
                if kind == 1:
                    line[i] = (line[i] + left) & 0xFF
                elif kind == 2:
                    line[i] = (line[i] + up) & 0xFF
                elif kind == 3:
                    line[i] = (line[i] + (left + up) // 2) & 0xFF
                elif kind == 4:
                    line[i] = (line[i] + _paeth(left, up, corner)) & 0xFF
            rows.append(line)
            previous = line
        self.rows = rows

    def pixel(self, x: int, y: int) -> tuple:
        start = x * self.bpp
        return tuple(self.rows[y][start:start + 3])

    def colours(self, box: dict) -> set:
        """Every colour inside ``box`` (a bounding box in CSS pixels at device scale 1)."""
        x0, y0 = max(0, int(box["x"])), max(0, int(box["y"]))
        x1, y1 = min(self.width, int(box["x"] + box["width"])), min(self.height, int(box["y"] + box["height"]))
        return {self.pixel(x, y) for y in range(y0, y1) for x in range(x0, x1)}


def near(colour: tuple, target: tuple, tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target))
