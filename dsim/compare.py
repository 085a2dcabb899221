"""Paired comparisons of rule settings with common random numbers (CRN).

Every setting of a cell plays the same battles: the same seed and the same random stream
(keyed by the cell without its rule settings), so battle ``i`` starts from the same dice under
each setting and differences are paired. Win rates are compared with McNemar's test on the
discordant battles and a paired interval; other measures with a paired normal interval on the
per-battle differences. Over a grid, p-values are adjusted for multiple testing (Holm or BH).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from dsim.games.base import Game
from dsim.play import chunks
from dsim.rng import stream_key
from dsim.stats import (Moments, adjust_pvalues, mcnemar_test, paired_difference_interval, two_proportion_test,
                        wilson_interval)
from dsim.text import count


def with_rules(base: Mapping[str, Any], rules: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The cell ``base`` with rule tables (e.g. ``variants``, ``house_rules``) laid over its own, key by key."""
    merged = dict(base)
    for table, values in rules.items():
        merged[table] = {**base.get(table, {}), **values}
    return merged


def crn_stream(base: Mapping[str, Any], rule_tables: Sequence[str] = ("variants", "house_rules")) -> int:
    """The random stream shared by every rule setting of a cell: keyed by the cell without its rule tables."""
    return stream_key(json.dumps({k: v for k, v in base.items() if k not in rule_tables}, sort_keys=True, default=str))


@dataclass
class PairedTotals:
    """What a paired comparison of settings A and B keeps of the plays seen so far, in O(1) memory: the cells
    of the yes/no outcome's 2×2 table (wins under A and B, won under one only), the plays whose outcome differs
    in any column, and the moments of each number measure under A, under B and of their difference."""

    success: str = "win"
    measures: tuple[str, ...] = ("rounds", "damage_dealt", "damage_taken", "deaths")
    battles: int = 0
    wins_a: int = 0
    wins_b: int = 0
    only_a: int = 0
    only_b: int = 0
    changed: int = 0
    moments: dict[str, tuple[Moments, Moments, Moments]] = field(default_factory=dict)  # measure → A, B, B − A

    def add(self, a: Mapping[str, np.ndarray], b: Mapping[str, np.ndarray]) -> PairedTotals:
        """Take in one chunk: the outcome columns of the same plays under A and under B; returns ``self``."""
        wa = np.asarray(a[self.success], bool)
        wb = np.asarray(b[self.success], bool)
        if wa.shape != wb.shape:
            raise ValueError("paired comparison needs the same battles under both settings")
        self.battles += int(wa.size)
        self.wins_a += int(np.count_nonzero(wa))
        self.wins_b += int(np.count_nonzero(wb))
        self.only_a += int(np.count_nonzero(wa & ~wb))
        self.only_b += int(np.count_nonzero(~wa & wb))
        changed = np.zeros(wa.size, bool)  # plays whose outcome differs in any column
        for key in a.keys() & b.keys():
            changed |= np.asarray(a[key]) != np.asarray(b[key])
        self.changed += int(np.count_nonzero(changed))
        for m in (m for m in self.measures if m in a and m in b):
            x, y = np.asarray(a[m]), np.asarray(b[m])
            whole = x.dtype.kind in "biu" and y.dtype.kind in "biu"
            d = y.astype(np.int64) - x.astype(np.int64) if whole else y.astype(np.float64) - x.astype(np.float64)
            for moments, values in zip(self.moments.setdefault(m, (Moments(), Moments(), Moments())), (x, y, d)):
                moments.add(values)
        return self

    def summary(self, level: float = 0.95) -> dict[str, Any]:
        """The comparison's figures (``diff`` = B − A): rates with Wilson intervals, the paired (Tango) and
        unpaired intervals of the difference, McNemar's test, and each measure's means with a paired normal
        interval (``None`` below two plays: one play gives no spread to estimate it from)."""
        n, wa, wb = self.battles, self.wins_a, self.wins_b
        low, high = paired_difference_interval(self.only_b, self.only_a, n, level)
        unpaired = two_proportion_test(wb, n, wa, n, level)
        test = mcnemar_test(self.only_a, self.only_b)
        ci_a = wilson_interval(wa, n, level)
        ci_b = wilson_interval(wb, n, level)
        measures = {}
        for m, (ma, mb, md) in self.moments.items():
            diff, d_low, d_high = md.interval(level)
            measures[m] = {"a": ma.mean, "b": mb.mean, "diff": diff, "ci95": [d_low, d_high] if n > 1 else None}
        return {
            "battles": n,
            "win_rate_a": wa / n, "win_rate_b": wb / n,
            "ci95_a": [float(x) for x in ci_a], "ci95_b": [float(x) for x in ci_b],
            "diff": wb / n - wa / n,
            "ci95": [float(low), float(high)],
            "ci95_unpaired": [float(unpaired.ci_low), float(unpaired.ci_high)],
            "won_only_a": self.only_a, "won_only_b": self.only_b,
            "p_value": float(test.p_value), "test": "mcnemar_chi2",
            "changed_battles": self.changed,
            "measures": measures,
        }


def paired_summary(a: Mapping[str, np.ndarray], b: Mapping[str, np.ndarray], level: float = 0.95,
                   success: str = "win", measures: Sequence[str] = ("rounds", "damage_dealt", "damage_taken", "deaths"),
                   ) -> dict[str, Any]:
    """Compare outcome columns of the same plays under setting A and setting B (``diff`` = B − A)."""
    return PairedTotals(success, tuple(measures)).add(a, b).summary(level)


def compare(
    game: Game,
    cells: Sequence[Mapping[str, Any]],
    rule_settings: Sequence[Mapping[str, Mapping[str, Any]]],
    battles: int,
    seed: int,
    level: float = 0.95,
    adjust: Literal["holm", "bh"] = "holm",
    measure: str | None = None,
    on_chunk: Callable[[int], None] = lambda n: None,
) -> list[dict[str, Any]]:
    """Each cell under each rule setting (the first is A, each other is a B) on the same battles.

    ``measure`` is the yes/no outcome column compared (default: the game's success column; a
    competitive game names one, e.g. ``first_player_won``). Returns one record per (cell, B) with
    :func:`paired_summary`'s fields plus the cell, both settings, the measure and ``p_adjusted``
    (over every record, ``adjust`` method; ``adjusted_over`` says how many p-values that was).
    The battles are played chunk by chunk (memory stays flat); ``on_chunk`` gets the plays of each.
    """
    if len(rule_settings) < 2:
        raise ValueError("compare needs at least two rule settings")
    measure = measure_column(game, measure, numbers=False)
    records = []
    for base in cells:
        stream = crn_stream(base, game.rule_tables)
        totals = [PairedTotals(measure, tuple(game.outcome.means or ("rounds",))) for _ in rule_settings[1:]]
        for first, n in chunks(battles):
            outcomes = [game.play(with_rules(base, rules), seed, stream, first, n) for rules in rule_settings]
            if measure not in outcomes[0]:
                yes_no = sorted(k for k, v in outcomes[0].items() if np.asarray(v).dtype == bool)
                raise ValueError(f"--measure: {game.name} has no outcome {measure!r} (yes/no outcomes: {', '.join(yes_no)})")
            if np.asarray(outcomes[0][measure]).dtype != bool:
                raise ValueError(f"--measure {measure!r} is a number, not a yes/no outcome (its mean is in the effects)")
            for k, total in enumerate(totals, 1):
                total.add(outcomes[0], outcomes[k])
            on_chunk(n * len(rule_settings))
        for k, total in enumerate(totals, 1):
            records.append({"cell": dict(base), "a": dict(rule_settings[0]), "b": dict(rule_settings[k]),
                            "measure": measure, **total.summary(level)})
    adjusted = adjust_pvalues([r["p_value"] for r in records], adjust)
    for rec, p in zip(records, adjusted, strict=True):
        rec.update(p_adjusted=float(p), adjust=adjust, adjusted_over=len(records))
    return records


def measure_column(game: Game, measure: str | None, numbers: bool = True) -> str:
    """The outcome column ``compare``/``tune`` measure: ``measure``, else the game's success column (a
    competitive game has none and must name one). ``numbers``: the command also takes a number column
    (``tune`` aims its mean; ``compare`` only tests yes/no outcomes)."""
    column = measure or game.outcome.success
    if column is None:
        seats = ", ".join(game.outcome.seat_columns()[:1]) or "a win column"
        kinds = f"a yes/no outcome such as {seats}, or a number such as {game.outcome.rounds}" if numbers else \
            f"a yes/no outcome such as {seats}"
        raise ValueError(f"{game.name} is competitive: name the outcome to measure with --measure ({kinds})")
    if column in game.outcome.codes:  # e.g. DS:TBG's next_first_char: a character's index, not a statistic
        example = game.outcome.success or next(iter(game.outcome.seat_columns()), game.outcome.rounds)
        raise ValueError(f"--measure {column!r} holds {game.name}'s ids or codes, not a statistic; measure an "
                         f"outcome such as {example}" + (f" or {game.outcome.rounds}" if numbers else ""))
    return column


def describe_rules(rules: Mapping[str, Mapping[str, Any]]) -> str:
    """``{"variants": {"x": "y"}}`` → ``x=y`` (or ``the defaults``)."""
    items = [f"{k}={v}" for table in rules.values() for k, v in table.items()]
    return " ".join(items) if items else "the defaults"


ADJUSTMENTS = {"holm": "Holm", "bh": "BH"}


def p_label(rec: Mapping[str, Any]) -> str:
    """``McNemar p``, or ``McNemar p (Holm-adjusted, 4 tests)`` when the verdict's p-value was adjusted over a grid."""
    over = rec.get("adjusted_over", 1)
    if "p_adjusted" not in rec or over <= 1:
        return "McNemar p"
    return f"McNemar p ({ADJUSTMENTS.get(rec.get('adjust', ''), 'multiplicity')}-adjusted, {over} tests)"


def played_rules(game: Game, cell: Mapping[str, Any], rules: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """The rules one side of a comparison played under: the cell's own (``--set``) with that side's on top."""
    tables = [t for t in game.rule_tables if cell.get(t) or rules.get(t)]
    return {t: {**cell.get(t, {}), **rules.get(t, {})} for t in tables}


def verdict(game: Game, rec: Mapping[str, Any], alpha: float = 0.05) -> str:
    """One sentence answering "does switching from A to B change the win rate?" with the numbers."""
    low, high = (100 * x for x in rec["ci95"])
    p = rec.get("p_adjusted", rec["p_value"])
    where = game.label(rec["cell"])
    change = " → ".join(describe_rules(played_rules(game, rec["cell"], rec[side])) for side in ("a", "b"))
    name = "win rate" if rec.get("measure", game.outcome.success) == game.outcome.success else rec["measure"]
    numbers = (f"{name} {100 * rec['win_rate_a']:.1f}% → {100 * rec['win_rate_b']:.1f}%, "
               f"difference {100 * rec['diff']:+.2f} points (95% CI {low:+.2f} to {high:+.2f}), "
               f"{p_label(rec)} {'< 1e-300' if p < 1e-300 else f'= {p:.3g}'}, {count(rec['battles'], 'paired ' + game.outcome.unit)}")
    if rec["won_only_a"] + rec["won_only_b"] == 0:
        return f"{where}: {change} changes no {game.outcome.unit}'s result ({numbers})."
    if p < alpha:
        direction = "raises" if rec["diff"] > 0 else "lowers"
        return f"{where}: {change} {direction} the {name} significantly ({numbers})."
    return f"{where}: {change} makes no significant difference ({numbers})."
