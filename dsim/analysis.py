"""Comparing the cells of a results folder: which settings vary, readable labels, pairwise tests.

Works on the per-cell table of :func:`dsim.results.load`. Two cells are compared when they
differ in exactly one setting (dotted key, e.g. ``variants.bleed_zero_damage``); a setting a
cell does not name counts as its own value, shown as ``(default)``.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from dsim.results import canonical_json, flatten_settings
from dsim.stats import adjust_pvalues, two_proportion_test

DEFAULT = "(default)"
ALL_PAIRS_MAX = 10  # with no one-setting pairs, compare all pairs of at most this many cells


def format_value(value: Any) -> str:
    """A setting value for tables and plots: lists joined with ``+``, unset as ``(default)``."""
    if value is None:
        return DEFAULT
    if isinstance(value, tuple | list):
        return "+".join(format_value(v) for v in value)
    if isinstance(value, dict):
        return canonical_json(value)
    return f"{value:g}" if isinstance(value, float) else str(value)


def _flat(cells: pd.DataFrame) -> list[dict[str, Any]]:
    """Each cell's flattened settings."""
    return [flatten_settings(s) for s in cells["settings"]]


def _token(flat: dict[str, Any], key: str) -> str:
    """Comparable spelling of one setting of one cell (unset is ``null``)."""
    return canonical_json(flat.get(key))


def varying_keys(cells: pd.DataFrame) -> list[str]:
    """Settings (dotted keys) whose value differs between cells, in first-seen order."""
    flats = _flat(cells)
    keys = dict.fromkeys(k for flat in flats for k in flat)
    return [k for k in keys if len({_token(flat, k) for flat in flats}) > 1]


def fixed_settings(cells: pd.DataFrame) -> dict[str, str]:
    """The settings every cell shares, spelled for a report's or plot's context (``{key: value}``)."""
    flats = _flat(cells)
    varying = set(varying_keys(cells))
    keys = dict.fromkeys(k for flat in flats for k in flat if k not in varying)
    return {k: format_value(flats[0].get(k)) for k in keys}


def spelled(settings: dict[str, str]) -> str:
    """``key=value, …``."""
    return ", ".join(f"{k}={v}" for k, v in settings.items())


def cell_labels(cells: pd.DataFrame, keys: list[str] | None = None) -> list[str]:
    """``key=value, …`` over ``keys`` (default: the varying settings) per cell; the id if none vary. Cells that carry
    a ``label`` column already (one page of a larger grid, labelled over the whole grid) keep it."""
    if keys is None and "label" in cells:
        return list(cells["label"])
    keys = varying_keys(cells) if keys is None else keys
    if not keys:
        return list(cells["cell"])
    return [_labelled(flat, keys) for flat in _flat(cells)]


def _labelled(flat: dict[str, Any], keys: list[str]) -> str:
    """``key=value, …`` of one cell's settings ``keys``."""
    return ", ".join(f"{k}={format_value(flat.get(k))}" for k in keys)


def _groups(flats: list[dict[str, Any]], keys: list[str], key: str) -> list[list[int]]:
    """Positions of cells grouped by their values of every varying setting except ``key``."""
    groups: dict[tuple[str, ...], list[int]] = {}
    for i, flat in enumerate(flats):
        groups.setdefault(tuple(_token(flat, k) for k in keys if k != key), []).append(i)
    return [g for g in groups.values() if len(g) > 1]


def _test(cells: pd.DataFrame, a: np.ndarray, b: np.ndarray, level: float) -> dict[str, np.ndarray]:
    """Two-proportion tests of cells ``b`` against cells ``a`` (difference = rate b − rate a)."""
    wins, battles = cells["wins"].to_numpy(), cells["battles"].to_numpy()
    test = two_proportion_test(wins[b], battles[b], wins[a], battles[a], level)
    return {"difference": test.difference, "ci_low": test.ci_low, "ci_high": test.ci_high,
            "z": test.z, "p_value": test.p_value}


def _spell(flat: dict[str, Any], keys: list[str]) -> str:
    """The values of ``keys`` in one cell: bare for one key, ``k=v, …`` for several."""
    return format_value(flat.get(keys[0])) if len(keys) == 1 else _labelled(flat, keys)


def compare(cells: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Pairwise two-proportion tests between cells that differ in one setting.

    If no pair differs in exactly one setting and there are at most :data:`ALL_PAIRS_MAX`
    cells, every pair is compared. Each row names the differing ``setting``, the shared
    ``context`` (the other varying settings), both values, both win rates, the
    ``difference`` ``win_rate_b - win_rate_a`` with its Newcombe interval, the z statistic and
    the p-value, raw and Holm / Benjamini-Hochberg adjusted over all rows.
    """
    cells = cells.reset_index(drop=True)
    flats, keys = _flat(cells), varying_keys(cells)
    pairs = [(i, j) for key in keys for group in _groups(flats, keys, key) for i, j in combinations(group, 2)]
    if not pairs and len(cells) <= ALL_PAIRS_MAX:
        pairs = list(combinations(range(len(cells)), 2))
    differing = [[k for k in keys if _token(flats[i], k) != _token(flats[j], k)] for i, j in pairs]
    a = np.array([i for i, _ in pairs], dtype=np.int64)
    b = np.array([j for _, j in pairs], dtype=np.int64)
    table = pd.DataFrame({
        "setting": [", ".join(d) for d in differing],
        "context": [_labelled(flats[i], [k for k in keys if k not in d]) for (i, _), d in zip(pairs, differing)],
        "value_a": [_spell(flats[i], d) for (i, _), d in zip(pairs, differing)],
        "value_b": [_spell(flats[j], d) for (_, j), d in zip(pairs, differing)],
        "cell_a": cells["cell"].to_numpy()[a],
        "cell_b": cells["cell"].to_numpy()[b],
        "win_rate_a": cells["win_rate"].to_numpy()[a],
        "win_rate_b": cells["win_rate"].to_numpy()[b],
        **_test(cells, a, b, level),
    })
    table["p_holm"] = adjust_pvalues(table["p_value"].to_numpy(), "holm")
    table["p_bh"] = adjust_pvalues(table["p_value"].to_numpy(), "bh")
    return table


def variant_effects(cells: pd.DataFrame, key: str, level: float = 0.95) -> pd.DataFrame:
    """Win-rate difference made by each value of setting ``key`` against its baseline, per context.

    Cells are grouped by all other varying settings (the context). The baseline is the cell
    that leaves ``key`` unset (the default rules) or else the group's first cell.
    """
    cells = cells.reset_index(drop=True)
    flats, keys = _flat(cells), varying_keys(cells)
    if key not in keys:
        raise ValueError(f"setting {key!r} does not vary between cells (varying: {', '.join(keys) or 'none'})")
    context_keys = [k for k in keys if k != key]
    a, b = [], []
    for group in _groups(flats, keys, key):
        base = next((i for i in group if key not in flats[i]), group[0])
        a += [base] * (len(group) - 1)
        b += [i for i in group if i != base]
    a_idx, b_idx = np.array(a, dtype=np.int64), np.array(b, dtype=np.int64)
    return pd.DataFrame({
        "context": [_labelled(flats[i], context_keys) or "all cells" for i in b],
        "baseline": [format_value(flats[i].get(key)) for i in a],
        "value": [format_value(flats[i].get(key)) for i in b],
        **_test(cells, a_idx, b_idx, level),
    })
