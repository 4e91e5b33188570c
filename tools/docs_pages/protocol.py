"""The engine protocol pages: conformance/PROTOCOL.md and PROTOCOL-4.md to PROTOCOL-1.md copied, their links to
each other fixed."""

from __future__ import annotations

from .markup import header
from .paths import PROTOCOL, PROTOCOL_1, PROTOCOL_2, PROTOCOL_3, PROTOCOL_4

_LINKS = {
    "(PROTOCOL.md)": "(protocol.md)",
    "(PROTOCOL-4.md)": "(protocol-4.md)",
    "(PROTOCOL-3.md)": "(protocol-3.md)",
    "(PROTOCOL-2.md)": "(protocol-2.md)",
    "(PROTOCOL-1.md)": "(protocol-1.md)",
}


def _site_links(text: str) -> str:
    for source, page in _LINKS.items():
        text = text.replace(source, page)
    return text


def protocol_page() -> str:
    return header("conformance/PROTOCOL.md") + _site_links(PROTOCOL.read_text(encoding="utf-8").rstrip()) + "\n"


def protocol_4_page() -> str:
    """Protocol version 4, still served: its links to the other versions point at the site's pages."""
    text = _site_links(PROTOCOL_4.read_text(encoding="utf-8").rstrip())
    return header("conformance/PROTOCOL-4.md") + text + "\n"


def protocol_3_page() -> str:
    """Protocol version 3, still served: its links to the other versions point at the site's pages."""
    text = _site_links(PROTOCOL_3.read_text(encoding="utf-8").rstrip())
    return header("conformance/PROTOCOL-3.md") + text + "\n"


def protocol_2_page() -> str:
    """Protocol version 2, still served: its links to the other versions point at the site's pages."""
    text = _site_links(PROTOCOL_2.read_text(encoding="utf-8").rstrip())
    return header("conformance/PROTOCOL-2.md") + text + "\n"


def protocol_1_page() -> str:
    """Protocol version 1, still served: its link to the current version points at the site's page."""
    text = _site_links(PROTOCOL_1.read_text(encoding="utf-8").rstrip())
    return header("conformance/PROTOCOL-1.md") + text + "\n"
