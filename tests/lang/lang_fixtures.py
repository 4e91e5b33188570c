"""The hook variables and spec parameters the rules-language tests compile against.

A module with a unique name rather than conftest.py, which other test folders also have.
"""

from __future__ import annotations

from typing import Any

VARIABLES: dict[str, str] = {
    "size": "int",
    "wilds": "int",
    "naturals": "int",
    "team_score": "int",
    "rank": "str",
    "is_wild": "bool",
    "going_out": "bool",
}

PARAMETERS: dict[str, tuple[str, Any]] = {
    "min_size": ("int", 3),
    "max_wilds": ("int", 3),
    "allow_pile": ("bool", False),
    "strict": ("bool", True),
    "permission": ("enum", "ask"),
    "wild_ranks": ("list", ["2", "JK"]),
    "bonus_counts": ("list", [7, 8]),
    "card_values": ("map", {"JK": 50, "2": 20, "A": 20, "K": 10, "4": 5}),
    "initial_minimum": (
        "table",
        [
            {"from": None, "value": 15},
            {"from": 0, "value": 50},
            {"from": 1500, "value": 90},
            {"from": 3000, "value": 120},
        ],
    ),
    "bands_from_zero": ("table", [{"from": 0, "value": 1}, {"from": 10, "value": 2}]),
}
