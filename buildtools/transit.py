"""The files a static host sends as they are, because they are compressed already (the
worker's bytecode archives, the manifest's PNG icons), compressed harder by Zopfli: the same
formats and contents, 5-10 % fewer bytes for a first visit to download (README, "Bytes").

Zopfli is slow (tens of seconds for the standard library), so every result is kept in
``.cache/zopfli/``, keyed by the bytes that go in: an unchanged file costs nothing."""

import hashlib
import io
import struct
import zipfile
import zlib

from buildtools.pypi_tools import tool
from buildtools.workspace import CACHE, built_beside

# Zopfli's passes over each block: 5 is its advice for files of several MB; more gains
# almost nothing here (a few KB over the standard library) for much longer builds.
ITERATIONS = 5


def _cached(kind: str, data: bytes, make) -> bytes:
    key = hashlib.sha256(f"{kind} {ITERATIONS} ".encode() + data).hexdigest()[:32]
    path = CACHE / "zopfli" / key
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        with built_beside(path) as fresh:
            fresh.write_bytes(make(data))
    return path.read_bytes()


def _deflate(data: bytes) -> bytes:
    """Raw deflate (a zip entry's): Zopfli's zlib stream without its 2-byte header and
    4-byte checksum."""
    return tool("zopfli.zlib").compress(data, numiterations=ITERATIONS)[2:-4]


def _rezip(data: bytes) -> bytes:
    """The same zip archive (entries, names, times, order), every entry deflated by Zopfli."""
    out, central = io.BytesIO(), []
    with zipfile.ZipFile(io.BytesIO(data)) as source:
        for info in source.infolist():
            content = source.read(info)
            packed = _deflate(content)
            name = info.filename.encode()
            year, month, day, hour, minute, second = info.date_time
            fields = (
                20, 0, zipfile.ZIP_DEFLATED, hour << 11 | minute << 5 | second // 2,
                (year - 1980) << 9 | month << 5 | day, zlib.crc32(content), len(packed), len(content), len(name),
            )
            central.append(
                struct.pack("<4s2H", b"PK\x01\x02", 3 << 8 | 20, fields[0])
                + struct.pack("<4H3L5H2L", *fields[1:], 0, 0, 0, 0, info.external_attr, out.tell())
                + name
            )
            out.write(struct.pack("<4s5H3L2H", b"PK\x03\x04", *fields, 0) + name + packed)
    directory = b"".join(central)
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(central), len(central), len(directory), out.tell(), 0)
    return out.getvalue() + directory + end


def _regzip(data: bytes) -> bytes:
    return tool("zopfli.gzip").compress(zlib.decompress(data, wbits=31), numiterations=ITERATIONS)


def _repng(data: bytes) -> bytes:
    return tool("zopfli.png").optimize(data, num_iterations=ITERATIONS, num_iterations_large=ITERATIONS)


def smaller_zip(data: bytes) -> bytes:
    return _cached("zip", data, _rezip)


def smaller_gzip(data: bytes) -> bytes:
    return _cached("gzip", data, _regzip)


def smaller_png(data: bytes) -> bytes:
    """The same image, losslessly (zopflipng: better filters, Zopfli's deflate)."""
    return _cached("png", data, _repng)
