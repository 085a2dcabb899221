"""Entries inline the kernel functions linked into them (dsim.numba_linking._EntryLibrary)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from numba import config, njit, types

from dsim.games.dstbg.kernel.jit import kernel
from dsim.numba_linking import EntryPipeline, always_inline, cold

compiled_only = pytest.mark.skipif(config.DISABLE_JIT, reason="inlining is a property of compiled code")


@njit(_nrt=False, inline="always")  # copied into each caller at Numba IR level: every caller is as large
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


@kernel
def _twice_called(x: int) -> int:
    """Called from two places in :func:`_collision_entry`: it stays a function there, an internal copy."""
    return _churn(x, 5) + _churn(x + 1, 3)


def _collision_entry(x: int) -> int:
    return _twice_called(x) + _twice_called(x + 7)


def _plain(x: int) -> int:
    return _twice_called(x)


def _defined(ir: str, name: str) -> bool:
    return re.search(rf"^define [^\n]*{name}", ir, re.MULTILINE) is not None


def _body(ir: str, name: str) -> str:
    """The text of the function defined with ``name`` in its symbol."""
    match = re.search(rf"^define [^\n]*{name}.*?^}}", ir, re.MULTILINE | re.DOTALL)
    assert match, name
    return match.group(0)


@compiled_only
def test_an_entry_inlines_single_callers_and_marked_functions_and_keeps_cold_ones():
    entry = njit(types.int64(types.int64), pipeline_class=EntryPipeline)(_entry)
    expected = sum(_churn.py_func(x, 3) for x in range(3, 8)) + _churn.py_func(3, 7) + 4 + 6  # kernel functions: no Python wrapper
    assert entry(3) == expected
    ir = entry.inspect_llvm(entry.signatures[0])
    assert not _defined(ir, "5_once")
    assert not _defined(ir, "6_often")
    assert _defined(ir, "5_rare")
    assert len(re.findall(r"call [^\n]*5_rare", _body(ir, "_ZN5tests5dstbg19test_entry_inlining6_entry"))) == 2


_COLLISION = """
from numba import njit, types
from tests.dstbg import test_entry_inlining as T
from dsim.numba_linking import EntryPipeline
entry = njit(types.int64(types.int64), pipeline_class=EntryPipeline)(T._collision_entry)
print(entry(3), njit(types.int64(types.int64))(T._plain)(3))
"""


@compiled_only
def test_code_compiled_after_an_entry_calls_its_own_copy_of_a_kernel_function(tmp_path):
    """The JIT keeps one symbol table for the process: an entry's internal copy of a kernel function, whose calling
    convention LLVM may have changed, kept its name and was what later code calling that function was bound to
    (it hung or returned garbage). Fresh process and cache, so both are compiled here in this order."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(root)}
    run = subprocess.run([sys.executable, "-c", _COLLISION], capture_output=True, text=True, env=env, cwd=root,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    one = _churn.py_func(3, 5) + _churn.py_func(4, 3)
    assert run.stdout.split() == [str(one + _churn.py_func(10, 5) + _churn.py_func(11, 3)), str(one)]



def test_the_kernel_caches_cover_the_files_that_set_the_entries_compile_options():
    """Numba's cache key ignores the pipeline an entry is compiled with: the folders' hashes must cover it."""
    from pathlib import Path

    from dsim import numba_linking
    from dsim.games.dstbg import engine
    from dsim.games.dstbg.kernel import core, jit
    from dsim.games.dstbg_game import engine as whole_engine
    from dsim.games.dstbg_game import kernel as whole_kernel

    linked = {Path(m.__file__).resolve() for m in (core, jit, numba_linking)}  # compiled into both kernels' entries
    assert linked | {Path(engine.__file__).resolve()} <= set(jit.kernel_sources())
    assert linked | {Path(whole_engine.__file__).resolve()} <= set(whole_kernel.GAME_SOURCES)
