"""dsim.numba_ref: named tuples by reference, and tables whose trailing dimensions compiled code takes as constants."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest
from numba import njit, typeof

from dsim.numba_ref import check_trailing_dims, fixed_trailing_dims, fixed_views, keep_alive, ref, typeof_arrays


class Grid(NamedTuple):
    cells: np.ndarray  # int32 (n, 3, 2)
    rows: np.ndarray  # int32 (n, 5)
    free: np.ndarray  # int32 (n, m): not declared


fixed_trailing_dims(Grid, {"cells": (3, 2), "rows": (5,)})


class LabelledGrid(Grid):
    __slots__ = ()


@njit
def _read(r, i: int, j: int, k: int):
    return r.cells[i, j, k], r.rows[i, j], r.free[i, j], r.cells.shape[1], r.cells.shape[2], r.rows.shape[1], \
        r.cells[i].strides[0], r.rows[i, 1:].shape[0]


@njit
def _write(r, i: int, j: int, value: int) -> None:
    r.rows[i, j] = value
    r.cells[i, j % 3, 1] = value


@njit
def _through_ref(g, i: int, j: int, k: int):
    r = ref(g)
    out = _read(r, i, j, k)
    _write(r, i, j, -7)
    keep_alive(g)
    return out


def _grid(cls=Grid, n: int = 4) -> Grid:
    return cls(np.arange(n * 6, dtype=np.int32).reshape(n, 3, 2), np.arange(n * 5, dtype=np.int32).reshape(n, 5) * 10,
               np.arange(n * 7, dtype=np.int32).reshape(n, 7) * 100)


@pytest.mark.parametrize("cls", [Grid, LabelledGrid])
def test_declared_trailing_dims_read_and_write_the_same_elements_as_numpy(cls):
    g, before = _grid(cls), _grid(cls)
    got = _through_ref(g, 3, 2, 1)
    # values, the declared shapes, a row's stride (2 int32) and a slice's length, all as numpy has them
    assert got == (before.cells[3, 2, 1], before.rows[3, 2], before.free[3, 2], 3, 2, 5, 8, 4)
    assert g.rows[3, 2] == -7 and g.cells[3, 2, 1] == -7  # the writes land on the elements numpy names so
    assert np.count_nonzero(g.rows != before.rows) == 1 and np.count_nonzero(g.cells != before.cells) == 1


def test_check_trailing_dims_names_the_field_and_the_expected_shape():
    check_trailing_dims(_grid())
    bad = _grid()._replace(rows=np.zeros((4, 6), np.int32))
    with pytest.raises(ValueError, match=r"Grid\.rows: expected a C-contiguous array of shape \(n, 5\), got \(4, 6\)"):
        check_trailing_dims(bad)
    strided = _grid()._replace(cells=np.zeros((4, 3, 4), np.int32)[:, :, ::2])
    with pytest.raises(ValueError, match=r"LabelledGrid\.cells: expected a C-contiguous array of shape \(n, 3, 2\), "
                                         r"got \(4, 3, 2\)"):
        check_trailing_dims(LabelledGrid(*strided))


def test_declaring_an_unknown_field_is_refused():
    with pytest.raises(ValueError, match="no fields"):
        fixed_trailing_dims(Grid, {"colums": (5,)})


def test_the_kernel_refuses_tables_whose_columns_differ_from_the_declared_ones():
    from dsim.games.dstbg import engine
    from dsim.games.dstbg.compile import compile_encounter
    from dsim.games.dstbg.loader import load_game_data
    from dsim.games.dstbg.policy import get_policy

    tables = compile_encounter(load_game_data(), ["knight", "warrior"], "the_forgotten").tables
    baseline = get_policy("baseline")
    narrow = tables._replace(etypes=np.ascontiguousarray(tables.etypes[:, :-1]))
    with pytest.raises(ValueError, match=r"Tables\.etypes: expected a C-contiguous array of shape \(n, 10\)"):
        engine.play_batch(narrow, baseline.decide, baseline.vector(), 1, 2, 0, 10)


def test_compiled_code_takes_the_declared_dims_as_constants_not_the_arrays_own():
    """What the entry points' check guards: a tuple that breaks its declaration is read with the declared dims."""
    g = _grid()._replace(rows=np.zeros((4, 6), np.int32), free=np.zeros((4, 9), np.int32))
    _, _, _, _, _, rows_width, _, _ = _through_ref(g, 0, 0, 0)
    assert rows_width == 5
    assert np.flatnonzero(g.rows.ravel()).tolist() == [0]  # rows[0, 0] written at offset 0
    g = _grid()._replace(rows=np.zeros((4, 6), np.int32))
    _through_ref(g, 1, 0, 0)
    assert np.flatnonzero(g.rows.ravel()).tolist() == [5]  # rows[1, 0] at 1 * 5, the declared width, not 6


def test_typeof_arrays_is_numba_typeof_for_each_kind_of_array_and_class():
    """The remembered type follows what numba.typeof reads: a read-only, strided or int64 array, or a subclass, is
    another type; a field that is not an array is typed afresh."""
    g = _grid()
    frozen = g.free.copy()
    frozen.flags.writeable = False
    kinds = [g, g._replace(free=frozen), g._replace(free=np.repeat(g.free, 2, axis=1)[:, ::2]),
             g._replace(free=g.free.astype(np.int64)), LabelledGrid(*g), g._replace(free=7)]
    for tup in kinds:
        assert typeof_arrays(tup) == typeof(tup)
    assert len({typeof_arrays(tup) for tup in kinds}) == len(kinds)


class Packed(NamedTuple):
    whole: np.ndarray  # int32 (10,)
    head: np.ndarray  # int32 (2,): whole[0:2]
    grid: np.ndarray  # int32 (2, 3): whole[3:9]


fixed_views(Packed, "whole", {"head": (0, (2,)), "grid": (3, (2, 3))})


def _packed() -> Packed:
    whole = np.arange(10, dtype=np.int32) * 10
    return Packed(whole, whole[:2], whole[3:9].reshape(2, 3))


@njit
def _packed_through_ref(p, i: int, j: int):
    r = ref(p)
    got = r.head[1], r.grid[i, j], r.grid.shape[0], r.grid.shape[1], r.grid.strides[0], r.grid.size, r.head.shape[0]
    r.grid[i, j] = -1
    r.head[0] = -2
    keep_alive(p)
    return got


def test_declared_views_read_and_write_their_base_at_the_declared_offsets():
    p = _packed()
    assert _packed_through_ref(p, 1, 2) == (10, 80, 2, 3, 12, 6, 2)
    assert p.whole.tolist() == [-2, 10, 20, 30, 40, 50, 60, 70, -1, 90]


def test_check_trailing_dims_refuses_a_view_that_is_not_of_its_base():
    check_trailing_dims(_packed())
    with pytest.raises(ValueError, match=r"Packed\.grid: expected the view of whole\[3:\] of shape \(2, 3\)"):
        check_trailing_dims(_packed()._replace(grid=np.zeros((2, 3), np.int32)))
    with pytest.raises(ValueError, match=r"Packed\.head: expected the view of whole\[0:\] of shape \(2,\)"):
        check_trailing_dims(_packed()._replace(head=_packed().whole[1:3]))
    with pytest.raises(ValueError, match="no fields"):
        fixed_views(Packed, "whole", {"tail": (9, (1,))})
