"""The legal actions of one position as a sequence of blocks, each counted and indexed on its own.

A block is a sequence of actions: a plain tuple or list where the actions are few, or a structure
(``combos.Combinations``) where they are many. ``Listing`` adds up their lengths and finds the ``n``-th action in the
block that holds it, so counting, indexing and a uniform random choice cost what the blocks cost, not what listing
every action would.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .actions import Action
from .combos import Combinations


class Listing:
    """Blocks of legal actions, in listing order; a read-only sequence (``random.choice`` works on it)."""

    __slots__ = ("_blocks", "_count")

    def __init__(self, blocks: Sequence[Sequence[Action] | Combinations]) -> None:
        self._blocks = [block for block in blocks if _size(block)]
        self._count = -1

    def count(self) -> int:
        """How many actions there are (exact, however many: ``len`` cannot exceed ``sys.maxsize``)."""
        if self._count < 0:
            self._count = sum(_size(block) for block in self._blocks)
        return self._count

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return bool(self._blocks)

    def __getitem__(self, index: int) -> Action:
        if index < 0:
            index += self.count()
        if index >= 0:
            for block in self._blocks:
                size = _size(block)
                if index < size:
                    return block[index]
                index -= size
        raise IndexError("legal action index out of range")

    def __iter__(self) -> Iterator[Action]:
        for block in self._blocks:
            yield from block

    @property
    def blocks(self) -> list[Sequence[Action] | Combinations]:
        """The blocks, none of them empty (for callers that treat a structure apart)."""
        return self._blocks


def _size(block: Sequence[Action] | Combinations) -> int:
    """A block's number of actions: a structure's ``count()`` (which may pass ``sys.maxsize``), else its length."""
    return block.count() if isinstance(block, Combinations) else len(block)
