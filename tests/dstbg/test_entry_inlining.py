"""Entries inline the kernel functions linked into them (dsim.games.dstbg.kernel.core._EntryLibrary)."""

from __future__ import annotations

import re

import pytest
from numba import config, njit, types

from dsim.games.dstbg.kernel.core import EntryPipeline, always_inline, cold, inline, kernel

pytestmark = pytest.mark.skipif(config.DISABLE_JIT, reason="inlining is a property of compiled code")


@inline
def _churn(x: int, k: int) -> int:
    """A body too large for LLVM to inline at several call sites unless told to (a dozen branches and loops)."""
    total = 0
    for i in range(x):
        if i % 3 == 0:
            total += (i * k) % 5
        elif i % 3 == 1:
            total -= (i * k) // 7
        else:
            total ^= i * k
    for i in range(x, 2 * x):
        if total > i:
            total -= i % 11
        elif total < -i:
            total += i % 13
        else:
            total += (total * k) % 17
    for i in range(x % 5):
        total = (total * 31 + i * k) % 1000003
        if total % 2 == 0:
            total //= 2
        if total % 3 == 0:
            total //= 3
    return total


@kernel
def _once(x: int) -> int:
    """A step with one caller: as an internal function LLVM inlines it and drops its copy."""
    return _churn(x, 7)


@always_inline
@kernel
def _often(x: int) -> int:
    """Called from many places: inlined at each only because it is marked."""
    return _churn(x, 3)


@cold
@kernel
def _rare(x: int) -> int:
    """Off the hot path: kept as one function even where inlining would be cheap."""
    return x + 1


def _entry(x: int) -> int:
    return _often(x) + _often(x + 1) + _often(x + 2) + _often(x + 3) + _often(x + 4) + _once(x) + _rare(x) + _rare(x + 2)


def _defined(ir: str, name: str) -> bool:
    return re.search(rf"^define [^\n]*{name}", ir, re.MULTILINE) is not None


def test_an_entry_inlines_single_callers_and_marked_functions_and_keeps_cold_ones():
    entry = njit(types.int64(types.int64), pipeline_class=EntryPipeline)(_entry)
    expected = sum(_churn.py_func(x, 3) for x in range(3, 8)) + _churn.py_func(3, 7) + 4 + 6  # kernel functions: no Python wrapper
    assert entry(3) == expected
    ir = entry.inspect_llvm(entry.signatures[0])
    assert not _defined(ir, "5_once")
    assert not _defined(ir, "6_often")
    assert _defined(ir, "5_rare")
    assert len(re.findall(r"call [^\n]*5_rare", ir)) == 2



def test_the_kernel_caches_cover_the_files_that_set_the_entries_compile_options():
    """Numba's cache key ignores the pipeline an entry is compiled with: the folders' hashes must cover it."""
    from pathlib import Path

    from dsim.games.dstbg import engine
    from dsim.games.dstbg.kernel import core
    from dsim.games.dstbg.whole import engine as whole_engine
    from dsim.games.dstbg.whole import kernel as whole_kernel

    assert {Path(engine.__file__).resolve(), Path(core.__file__).resolve()} <= set(core.kernel_sources())
    assert {Path(whole_engine.__file__).resolve(), Path(engine.__file__).resolve()} <= set(whole_kernel.GAME_SOURCES)
