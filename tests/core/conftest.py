"""The native core's tests need its library: without it they are skipped, unless CANASTA_REF_REQUIRE_CORE is set
(tools/test.sh sets it where a C compiler is found), where a missing library is a failure, not a quiet skip."""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from canasta_ref import core


@pytest.fixture
def library() -> ModuleType:
    if core.LIBRARY is None:
        reason = f"{core.STATUS}: its tests need it"
        if os.environ.get("CANASTA_REF_REQUIRE_CORE"):
            pytest.fail(reason)
        pytest.skip(reason)
    return core.LIBRARY


@pytest.fixture
def native_game(library: ModuleType) -> ModuleType:
    """A game on the core needs the library, and nothing more: it plays on the compiled engine and the pure one."""
    return library
