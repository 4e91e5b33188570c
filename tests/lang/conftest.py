"""Make the package importable when pytest runs from a plain checkout (no installed canasta-ref)."""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import canasta_ref  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
