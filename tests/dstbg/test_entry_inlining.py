"""Entries inline the kernel functions linked into them (dsim.games.dstbg.kernel.core._EntryLibrary)."""

from __future__ import annotations

import re

import pytest
from numba import config, njit, types

from dsim.games.dstbg.kernel.core import EntryPipeline, always_inline, cold, kernel

pytestmark = pytest.mark.skipif(config.DISABLE_JIT, reason="inlining is a property of compiled code")


@kernel
def _once(x: int) -> int:
    """A step with one caller: as an internal function LLVM inlines it and drops its copy."""
    total = 0
    for i in range(x):
        total += (i * 7) % 5
    return total


@always_inline
@kernel
def _often(x: int) -> int:
    """Called from many places: inlined at each only because it is marked."""
    total = 0
    for i in range(x):
        total += (i * 3) % 4 + _once(i)
    return total


@cold
@kernel
def _rare(x: int) -> int:
    """Off the hot path: kept as one function even where inlining would be cheap."""
    return x + 1


def _entry(x: int) -> int:
    return _often(x) + _often(x + 1) + _often(x + 2) + _often(x + 3) + _often(x + 4) + _rare(x) + _rare(x + 2)


def _defined(ir: str, name: str) -> bool:
    return re.search(rf"^define [^\n]*{name}", ir, re.MULTILINE) is not None


def test_an_entry_inlines_single_callers_and_marked_functions_and_keeps_cold_ones():
    entry = njit(types.int64(types.int64), pipeline_class=EntryPipeline)(_entry)
    often = [sum((i * 3) % 4 + sum((j * 7) % 5 for j in range(i)) for i in range(x)) for x in range(3, 8)]
    expected = sum(often) + 4 + 6  # kernel functions have no Python wrapper: worked out here
    assert entry(3) == expected
    ir = entry.inspect_llvm(entry.signatures[0])
    assert not _defined(ir, "5_once")
    assert not _defined(ir, "6_often")
    assert _defined(ir, "5_rare")
    assert len(re.findall(r"call [^\n]*5_rare", ir)) == 2
