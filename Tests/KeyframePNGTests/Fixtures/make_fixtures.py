#!/usr/bin/env python3
"""Generates ../PNGFixtures.swift, the PNG decoder fixtures, using only the standard library.

Each fixture is a PNG file plus the straight 8-bit RGBA pixels a correct decoder must produce
(row-major, 4 bytes per pixel), both base64-encoded into the Swift file so the tests need no
resource bundle and no file paths. Images are 7x5 so that every Adam7 pass has
odd leftovers. 16-bit samples are multiples of 257 so that any correct 16->8 rounding gives the
same byte. Run once and commit the output; the tests never run Python.
"""
import base64
import os
import struct
import zlib

W, H = 7, 5
HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = []


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(samples, bit_depth):
    """Packs a row of integer samples at the given bit depth (MSB first for < 8 bits)."""
    if bit_depth == 8:
        return bytes(samples)
    if bit_depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    out, acc, used = bytearray(), 0, 0
    for s in samples:
        acc = (acc << bit_depth) | s
        used += bit_depth
        if used == 8:
            out.append(acc)
            acc, used = 0, 0
    if used:
        out.append(acc << (8 - used))
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def image_data(rows, bit_depth, interlaced):
    """rows: list of per-pixel sample tuples. Returns the filtered (filter 0) raw stream."""
    def encode(sub_rows):
        raw = b""
        for r in sub_rows:
            raw += b"\x00" + pack_row([s for px in r for s in px], bit_depth)
        return raw

    if not interlaced:
        return encode(rows)
    raw = b""
    for x0, y0, dx, dy in ADAM7:
        sub = [[rows[y][x] for x in range(x0, W, dx)] for y in range(y0, H, dy)]
        if sub and sub[0]:
            raw += encode(sub)
    return raw


def write_png(name, color_type, bit_depth, pixels, expected, interlaced=False, extra=b""):
    ihdr = struct.pack(">IIBBBBB", W, H, bit_depth, color_type, 0, 0, 1 if interlaced else 0)
    data = zlib.compress(image_data(pixels, bit_depth, interlaced), 9)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    rgba = bytes(v for row in expected for px in row for v in px)
    FIXTURES.append((name, png, rgba))


def grid(fn):
    return [[fn(x, y) for x in range(W)] for y in range(H)]


def main():
    for interlaced in (False, True):
        suffix = "-interlaced" if interlaced else ""
        # Gray at every depth; low depths expand by bit replication (v * 255 / max).
        for depth in (1, 2, 4, 8, 16):
            top = (1 << depth) - 1
            def value(x, y, top=top):
                return (x * 3 + y * 5) % (top + 1) if depth < 16 else ((x * 37 + y * 11) % 256) * 257
            def as8(v, top=top):
                return v >> 8 if depth == 16 else v * 255 // top
            write_png(f"gray{depth}{suffix}", 0, depth, grid(lambda x, y: (value(x, y),)),
                      grid(lambda x, y: (as8(value(x, y)),) * 3 + (255,)), interlaced)
        # Gray with a tRNS key: the key value becomes transparent.
        key = 3
        write_png(f"gray8-trns{suffix}", 0, 8, grid(lambda x, y: ((x + y) % 5,)),
                  grid(lambda x, y: ((x + y) % 5,) * 3 + ((0 if (x + y) % 5 == key else 255),)), interlaced,
                  extra=chunk(b"tRNS", struct.pack(">H", key)))
        # Gray + alpha, 8 and 16 bits.
        for depth in (8, 16):
            m = 257 if depth == 16 else 1
            write_png(f"grayalpha{depth}{suffix}", 4, depth,
                      grid(lambda x, y: ((x * 40) * m, (y * 60) * m)),
                      grid(lambda x, y: (x * 40,) * 3 + (y * 60,)), interlaced)
        # RGB 8 and 16, and RGB with a tRNS key.
        for depth in (8, 16):
            m = 257 if depth == 16 else 1
            write_png(f"rgb{depth}{suffix}", 2, depth,
                      grid(lambda x, y: (x * 36 * m, y * 63 * m, (x * y * 9) * m)),
                      grid(lambda x, y: (x * 36, y * 63, x * y * 9, 255)), interlaced)
        write_png(f"rgb8-trns{suffix}", 2, 8, grid(lambda x, y: (x * 36, y * 63, 7)),
                  grid(lambda x, y: (x * 36, y * 63, 7, 0 if (x, y) == (2, 1) else 255)), interlaced,
                  extra=chunk(b"tRNS", struct.pack(">HHH", 72, 63, 7)))
        # RGBA 8 and 16.
        for depth in (8, 16):
            m = 257 if depth == 16 else 1
            write_png(f"rgba{depth}{suffix}", 6, depth,
                      grid(lambda x, y: (x * 36 * m, y * 63 * m, 200 * m, ((x + y * W) * 7 % 256) * m)),
                      grid(lambda x, y: (x * 36, y * 63, 200, (x + y * W) * 7 % 256)), interlaced)
        # Palette at every depth with a partial tRNS (alpha for the first entries only).
        for depth in (1, 2, 4, 8):
            count = min(1 << depth, 16)
            palette = [((i * 53) % 256, (i * 97) % 256, (i * 151) % 256) for i in range(count)]
            alphas = [(i * 80) % 256 for i in range(min(count, 3))]
            def index(x, y, count=count):
                return (x + 2 * y) % count
            def rgba(i, palette=palette, alphas=alphas):
                return palette[i] + ((alphas[i] if i < len(alphas) else 255),)
            extra = chunk(b"PLTE", bytes(v for c in palette for v in c)) + chunk(b"tRNS", bytes(alphas))
            write_png(f"palette{depth}{suffix}", 3, depth, grid(lambda x, y: (index(x, y),)),
                      grid(lambda x, y: rgba(index(x, y))), interlaced, extra=extra)


def write_swift():
    lines = [
        "// Generated by Fixtures/make_fixtures.py; do not edit.",
        "",
        "/// A decoder fixture: PNG bytes and the straight RGBA8 pixels they must decode to.",
        "struct PNGFixture {",
        "    let name: String",
        "    let png: String",
        "    let rgba: String",
        "}",
        "",
        "/// Every colour type and bit depth, plain and interlaced, %dx%d pixels." % (W, H),
        "let pngFixtures: [PNGFixture] = [",
    ]
    for name, png, rgba in FIXTURES:
        lines.append('    PNGFixture(name: "%s", png: "%s",' % (name, base64.b64encode(png).decode()))
        lines.append('               rgba: "%s"),' % base64.b64encode(rgba).decode())
    lines.append("]")
    lines.append("")
    with open(os.path.join(HERE, "..", "PNGFixtures.swift"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
    write_swift()
