"""The engine protocol pages: conformance/PROTOCOL.md and PROTOCOL-7.md to PROTOCOL-1.md copied, their links to
each other fixed."""

from __future__ import annotations

from .markup import header
from .paths import PROTOCOL, PROTOCOL_1, PROTOCOL_2, PROTOCOL_3, PROTOCOL_4, PROTOCOL_5, PROTOCOL_6, PROTOCOL_7

_LINKS = {
    "(PROTOCOL.md)": "(protocol.md)",
    "(PROTOCOL-7.md)": "(protocol-7.md)",
    "(PROTOCOL-6.md)": "(protocol-6.md)",
    "(PROTOCOL-5.md)": "(protocol-5.md)",
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


#: The protocol versions still served, each with its document.
OLDER_PROTOCOLS = {
    7: PROTOCOL_7,
    6: PROTOCOL_6,
    5: PROTOCOL_5,
    4: PROTOCOL_4,
    3: PROTOCOL_3,
    2: PROTOCOL_2,
    1: PROTOCOL_1,
}


def older_protocol_page(version: int) -> str:
    """An older protocol version, still served: its links to the other versions point at the site's pages."""
    text = _site_links(OLDER_PROTOCOLS[version].read_text(encoding="utf-8").rstrip())
    return header(f"conformance/PROTOCOL-{version}.md") + text + "\n"
