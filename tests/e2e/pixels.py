"""Read the pixels of a Chromium screenshot (8-bit RGB or RGBA PNG, not interlaced) without extra packages."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

Color = tuple[int, int, int]


@dataclass(frozen=True)
class Picture:
    width: int
    height: int
    rows: list[bytes]
    channels: int

    def pixel(self, x: int, y: int) -> Color:
        start = x * self.channels
        red, green, blue = self.rows[y][start : start + 3]
        return red, green, blue

    def column(self, x: int) -> list[Color]:
        return [self.pixel(x, y) for y in range(self.height)]


def read_png(data: bytes) -> Picture:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, compressed, header = 8, b"", b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind, body = data[position + 4 : position + 8], data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            compressed += body
        position += 12 + length
    width, height, depth, color_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and color_type in (2, 6) and not interlace, "only 8-bit RGB(A) screenshots"
    channels = 3 if color_type == 2 else 4
    raw, stride, rows = zlib.decompress(compressed), width * channels, []
    previous = bytes(stride)
    for y in range(height):
        line = raw[y * (stride + 1) : (y + 1) * (stride + 1)]
        row = _unfilter(line[0], bytearray(line[1:]), previous, channels)
        rows.append(row)
        previous = row
    return Picture(width, height, rows, channels)


def _unfilter(kind: int, row: bytearray, above: bytes, step: int) -> bytes:
    for i in range(len(row)):
        left = row[i - step] if i >= step else 0
        up, corner = above[i], (above[i - step] if i >= step else 0)
        if kind == 1:
            row[i] = (row[i] + left) & 0xFF
        elif kind == 2:
            row[i] = (row[i] + up) & 0xFF
        elif kind == 3:
            row[i] = (row[i] + (left + up) // 2) & 0xFF
        elif kind == 4:
            guess = left + up - corner
            nearest = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner))
            row[i] = (row[i] + nearest[2]) & 0xFF
    return bytes(row)
