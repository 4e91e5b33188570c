"""The engine protocol page: conformance/PROTOCOL.md copied, its links to the repository's files made site links."""

from __future__ import annotations

from .markup import header
from .paths import PROTOCOL

_LINKS = {"(PROTOCOL.md)": "(protocol.md)"}


def _site_links(text: str) -> str:
    for source, page in _LINKS.items():
        text = text.replace(source, page)
    return text


def protocol_page() -> str:
    return header("conformance/PROTOCOL.md") + _site_links(PROTOCOL.read_text(encoding="utf-8").rstrip()) + "\n"
