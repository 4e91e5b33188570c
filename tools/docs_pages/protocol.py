"""The engine protocol pages: conformance/PROTOCOL.md and PROTOCOL-1.md copied, their links to each other fixed."""

from __future__ import annotations

from .markup import header
from .paths import PROTOCOL, PROTOCOL_1


def protocol_page() -> str:
    text = PROTOCOL.read_text(encoding="utf-8").rstrip().replace("(PROTOCOL-1.md)", "(protocol-1.md)")
    return header("conformance/PROTOCOL.md") + text + "\n"


def protocol_1_page() -> str:
    """Protocol version 1, still served: its link to the current version points at the site's page."""
    text = PROTOCOL_1.read_text(encoding="utf-8").rstrip().replace("(PROTOCOL.md)", "(protocol.md)")
    return header("conformance/PROTOCOL-1.md") + text + "\n"
