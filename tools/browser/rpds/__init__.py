"""A pure-Python stand-in for ``rpds`` (rpds-py), shipped only in the site's browser bundle.

jsonschema reaches rpds through ``referencing``; rpds-py is compiled Rust and has no WebAssembly wheel for the
browser runtime. jsonschema and referencing use a few operations of three immutable collections; these classes
give the same answers by copying (the schemas are small, so the copies cost nothing that shows). The CPython
install keeps the real rpds-py; tests/docs/test_browser_bundle.py validates through this module against it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

__all__ = ["HashTrieMap", "HashTrieSet", "List"]


class HashTrieMap(Mapping[K, V], Generic[K, V]):
    """An immutable mapping: every change returns a new one."""

    __slots__ = ("_items",)

    def __init__(self, value: Mapping[K, V] | Iterable[tuple[K, V]] = (), **kwds: V) -> None:
        items: dict[Any, V] = dict(value)
        items.update(kwds)
        self._items = items

    @classmethod
    def convert(cls, value: Mapping[K, V] | Iterable[tuple[K, V]]) -> HashTrieMap[K, V]:
        return value if isinstance(value, HashTrieMap) else cls(value)

    @classmethod
    def fromkeys(cls, keys: Iterable[K], value: Any = None) -> HashTrieMap[K, Any]:
        return cls((key, value) for key in keys)

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __repr__(self) -> str:
        return f"HashTrieMap({self._items!r})"

    def insert(self, key: K, value: V) -> HashTrieMap[K, V]:
        return HashTrieMap({**self._items, key: value})

    def remove(self, key: K) -> HashTrieMap[K, V]:
        if key not in self._items:
            raise KeyError(key)
        return self.discard(key)

    def discard(self, key: K) -> HashTrieMap[K, V]:
        return HashTrieMap({k: v for k, v in self._items.items() if k != key})

    def update(self, *maps: Mapping[K, V] | Iterable[tuple[K, V]], **kwds: V) -> HashTrieMap[K, V]:
        items = dict(self._items)
        for each in maps:
            items.update(each)
        items.update(kwds)
        return HashTrieMap(items)


class HashTrieSet(Generic[T]):
    """An immutable set: every change returns a new one."""

    __slots__ = ("_items",)

    def __init__(self, value: Iterable[T] = ()) -> None:
        self._items = frozenset(value)

    def __contains__(self, item: object) -> bool:
        return item in self._items

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HashTrieSet) and self._items == other._items

    def __hash__(self) -> int:
        return hash(self._items)

    def __repr__(self) -> str:
        return f"HashTrieSet({set(self._items)!r})"

    def __or__(self, other: Iterable[T]) -> HashTrieSet[T]:
        return self.update(other)

    def __and__(self, other: Iterable[T]) -> HashTrieSet[T]:
        return HashTrieSet(self._items & frozenset(other))

    def __sub__(self, other: Iterable[T]) -> HashTrieSet[T]:
        return HashTrieSet(self._items - frozenset(other))

    def insert(self, item: T) -> HashTrieSet[T]:
        return HashTrieSet(self._items | {item})

    def remove(self, item: T) -> HashTrieSet[T]:
        if item not in self._items:
            raise KeyError(item)
        return self.discard(item)

    def discard(self, item: T) -> HashTrieSet[T]:
        return HashTrieSet(self._items - {item})

    def update(self, *iterables: Iterable[T]) -> HashTrieSet[T]:
        return HashTrieSet(self._items.union(*iterables))


class List(Generic[T]):
    """An immutable singly linked list: ``push_front`` returns a new one."""

    __slots__ = ("_items",)

    def __init__(self, value: Iterable[T] = ()) -> None:
        self._items = tuple(value)

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __reversed__(self) -> Iterator[T]:
        return reversed(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, List) and self._items == other._items

    def __hash__(self) -> int:
        return hash(self._items)

    def __repr__(self) -> str:
        return f"List({list(self._items)!r})"

    @property
    def first(self) -> T:
        if not self._items:
            raise IndexError("empty list has no first element")
        return self._items[0]

    @property
    def rest(self) -> List[T]:
        return List(self._items[1:])

    def push_front(self, item: T) -> List[T]:
        return List((item, *self._items))

    def drop_first(self) -> List[T]:
        return self.rest
