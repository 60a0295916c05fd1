"""QR codes of a match's links, drawn as SVG on the server (segno; nothing is fetched at run time)."""

from __future__ import annotations

import base64
import io

import segno

QUIET_ZONE = 4  # modules of light border around the code, as the QR standard asks
ERROR_LEVEL = "m"  # survives a smudge or a glare on the screen


def qr_code(link: str) -> segno.QRCode:
    return segno.make(link, error=ERROR_LEVEL, micro=False)


def qr_svg(link: str, title: str) -> bytes:
    """The QR code of ``link`` as a standalone SVG, dark on white whatever the page's colours (a phone's
    camera reads dark modules on a light ground), scaled by the page (a ``viewBox``, no fixed size)."""
    out = io.BytesIO()
    qr_code(link).save(
        out, kind="svg", scale=1, border=QUIET_ZONE, dark="#000", light="#fff", title=title,
        xmldecl=False, svgns=True, omitsize=True, svgclass=None, lineclass=None,
    )
    return out.getvalue()


def qr_data_uri(link: str, title: str) -> str:
    """The QR code of ``link`` as a ``data:`` address, for a page to print: drawn with the page, no image to
    fetch (a printer gets the page as it is, lazy images not yet loaded left blank)."""
    return "data:image/svg+xml;base64," + base64.b64encode(qr_svg(link, title)).decode("ascii")
