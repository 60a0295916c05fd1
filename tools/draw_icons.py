"""Draw the app's icons (static/icons/*.png) with the standard library only: a white spade on the
app's green, as the tab icon shows it. Run once when the drawing changes; the PNGs are committed.

    .venv/bin/python tools/draw_icons.py

``icon-192.png`` and ``icon-512.png`` have rounded corners (transparent outside); ``maskable-512.png``
fills its square and keeps the spade inside the middle 60 %, the part every launcher's mask shows.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
GREEN = (0x0B, 0x5D, 0x3B)
WHITE = (0xFF, 0xFF, 0xFF)
SAMPLES = 4  # per side: 16 samples a pixel smooth the edges


def in_spade(x: float, y: float) -> bool:
    """A spade in the unit square: two round lobes, a point above them and a flared stem."""
    for cx in (0.355, 0.645):
        if (x - cx) ** 2 + (y - 0.58) ** 2 <= 0.16**2:
            return True
    if 0.1 <= y <= 0.6 and abs(x - 0.5) <= (y - 0.1) / 0.5 * 0.3:
        return True
    return 0.6 <= y <= 0.9 and abs(x - 0.5) <= 0.03 + (y - 0.6) / 0.3 * 0.11


def in_rounded_square(x: float, y: float, radius: float) -> bool:
    cx = min(max(x, radius), 1 - radius)
    cy = min(max(y, radius), 1 - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius**2


def pixel(px: int, py: int, size: int, maskable: bool) -> tuple[int, int, int, int]:
    """The colour of one pixel: the share of its samples in the background and in the spade."""
    spade_scale = 0.6 if maskable else 0.74
    background = spade = 0
    for sy in range(SAMPLES):
        for sx in range(SAMPLES):
            x = (px + (sx + 0.5) / SAMPLES) / size
            y = (py + (sy + 0.5) / SAMPLES) / size
            if maskable or in_rounded_square(x, y, 0.2):
                background += 1
                if in_spade(0.5 + (x - 0.5) / spade_scale, 0.5 + (y - 0.5) / spade_scale):
                    spade += 1
    if background == 0:
        return (0, 0, 0, 0)
    share = spade / background
    r, g, b = (round(c0 + (c1 - c0) * share) for c0, c1 in zip(GREEN, WHITE, strict=True))
    return (r, g, b, round(255 * background / SAMPLES**2))


def png(size: int, maskable: bool) -> bytes:
    rows = b"".join(
        b"\x00" + bytes(channel for px in range(size) for channel in pixel(px, py, size, maskable))
        for py in range(size)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("maskable-512.png", 512, True)):
        (ICONS / name).write_bytes(png(size, maskable))
        print(f"static/icons/{name}")


if __name__ == "__main__":
    main()
