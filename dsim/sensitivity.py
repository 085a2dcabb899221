"""Which figures matter: the paired change of a cell's headline measure when each number of the game's data, or
each whole-number house rule, is nudged down and up (issue 45), and the spread of the measure when the guessed
figures range over their stated values.

Every nudged copy plays the same plays as the baseline (common random numbers: the seed and the stream that
``dsim compare`` gives the cell, the same play indices), so each change is paired play by play: a rate's change has
Tango's score interval and McNemar's test, a mean's change a normal interval on the per-play differences; p-values
are Holm-adjusted over every test reported. A screen plays every figure a little; successive rounds keep the
figures that moved the measure most (a third each round, never fewer than ``refine``) and play them ``eta`` times
as long, so the budget goes to the figures that matter. A figure the cell never reads changes no play. A kept
figure's estimate counts its screening plays too: the screen kept it for looking large, so among close rivals its
size leans slightly high, but the later rounds' plays (``eta`` times as many each round) dominate it.
"""

from __future__ import annotations

import fnmatch
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats as _st

from dsim.compare import crn_stream, measure_column
from dsim.figures import Figure, FigureNote, Figures
from dsim.games.base import Game, SettingsError
from dsim.games.loading import hold, release
from dsim.stats import adjust_pvalues, mcnemar_test, paired_difference_interval, wilson_interval

SMALL_WHOLE = 20
"""Whole numbers up to this size move by one; larger ones, and real numbers, by the relative step."""

MIN_SCREEN = 100
"""The fewest plays a figure's screen may have."""

UNPLAYABLE = (ValueError, KeyError, IndexError, OverflowError)
"""What a game raises for a nudged value it cannot compile or play (recorded on the row, never a traceback)."""


def steps(figure: Figure, step: float) -> tuple[float | None, float | None]:
    """A figure's values one step down and one step up, inside its bounds (``None`` where no move is possible):
    ±1 for whole numbers up to :data:`SMALL_WHOLE`, else ± ``step`` of the value (at least 1 for whole numbers,
    ± ``step`` itself for a real zero)."""
    value = figure.value
    if figure.whole:
        delta = 1.0 if abs(value) <= SMALL_WHOLE else max(1.0, round(abs(value) * step))
    else:
        delta = abs(value) * step if value else step
    out = []
    for moved in (value - delta, value + delta):
        if figure.low is not None:
            moved = max(moved, figure.low)
        if figure.high is not None:
            moved = min(moved, figure.high)
        out.append(None if moved == value else moved)
    return out[0], out[1]


def rule_figures(game: Game, settings: Mapping[str, Any]) -> list[Figure]:
    """Every whole-number house rule and variant of the game as a figure ``<table>.<id>`` at the cell's value."""
    figures = []
    for rule in game.rules():
        if not rule.numeric:
            continue
        table = game.parse_set(rule.id, str(rule.default))[0]
        value = settings.get(table, {}).get(rule.id, rule.default)
        try:
            value = int(value)
        except (TypeError, ValueError):
            continue
        low, high = rule.bounds or (None, None)
        figures.append(Figure(f"{table}.{rule.id}", float(value), True, low, high,
                              FigureNote("rule", f"rule {rule.ref}: {rule.question}"), table=table))
    return figures


@dataclass
class Row:
    """One figure (or a group of figures moved as one) with its two nudged settings and paired tallies."""

    name: str
    members: tuple[Figure, ...]
    group: bool
    down: dict[str, float] | None
    up: dict[str, float] | None
    settings: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    plays: int = 0
    tallies: dict[str, np.ndarray] = field(default_factory=dict)  # per side: see :func:`_tally`

    def sides(self) -> list[str]:
        """The directions this row plays."""
        return [side for side in ("down", "up") if getattr(self, side) is not None and side not in self.errors]


def _changes(members: Sequence[Figure], step: float, side: int) -> dict[str, float] | None:
    """Each member's value one step down (``side`` 0) or up (1); ``None`` when none can move that way."""
    moved = {f.path: v for f in members if (v := steps(f, step)[side]) is not None}
    return moved or None


def build_rows(figures: Sequence[Figure], groups: Mapping[str, Sequence[Figure]], step: float) -> list[Row]:
    """A row per figure and per named group; a group moves every member one step the same way."""
    rows = [Row(f.path, (f,), False, _changes([f], step, 0), _changes([f], step, 1)) for f in figures]
    rows += [Row(name, tuple(members), True, _changes(members, step, 0), _changes(members, step, 1))
             for name, members in groups.items()]
    return rows


class Cell:
    """The baseline cell and its nudged copies: settings for any set of figure changes, on the baseline's stream."""

    def __init__(self, game: Game, settings: Mapping[str, Any], figures: Figures | None) -> None:
        self.game, self.base, self.figures = game, dict(settings), figures
        self.stream = crn_stream(self.base, game.rule_tables)
        self.tokens: list[str] = []

    def moved(self, changes: Mapping[str, float], by_path: Mapping[str, Figure],
              refused: list[str] | None = None) -> dict[str, Any]:
        """The cell's settings with the changes laid on: data figures in a held copy of the data, rules in their
        tables (``ValueError`` if the schema refuses a value, or see :meth:`Figures.moved` for ``refused``)."""
        settings = {k: (dict(v) if isinstance(v, dict) else v) for k, v in self.base.items()}
        data = {p: v for p, v in changes.items() if not by_path[p].is_rule}
        for path, value in changes.items():
            figure = by_path[path]
            if figure.is_rule:
                settings.setdefault(figure.table, {})[path.split(".", 1)[1]] = int(round(value))
        if data:
            assert self.figures is not None
            token = hold(self.figures.moved(data, refused))
            self.tokens.append(token)
            settings["data"] = token
        return settings

    def close(self) -> None:
        """Forget the held copies of the data."""
        for token in self.tokens:
            release(token)
        self.tokens.clear()


def _values(game: Game, columns: Mapping[str, np.ndarray], measure: str) -> np.ndarray:
    """The measured column as floats, NaN where an optional column does not apply (−1)."""
    values = np.asarray(columns[measure])
    out = values.astype(np.float64)
    if measure in game.outcome.optional:
        out[values < 0] = np.nan
    return out


# A side's tally: [n, sum d, sum d², only side, only base] for d = side − base (only_* count yes/no outcomes).
_N, _SUM, _SQ, _ONLY_SIDE, _ONLY_BASE = range(5)
# The row's down→up tally (d = up − down) is stored under "span" in the same layout.


def _tally(tally: np.ndarray, side: np.ndarray, base: np.ndarray, rate: bool) -> None:
    ok = ~(np.isnan(side) | np.isnan(base))
    d = side[ok] - base[ok]
    tally[_N] += d.size
    tally[_SUM] += d.sum()
    tally[_SQ] += (d * d).sum()
    if rate:
        tally[_ONLY_SIDE] += int((d > 0).sum())
        tally[_ONLY_BASE] += int((d < 0).sum())


def _effect(tally: np.ndarray, rate: bool, level: float) -> dict[str, Any]:
    """Mean paired change with its interval and p-value from a tally."""
    n = int(tally[_N])
    if n == 0:
        return {"effect": None, "ci95": [None, None], "p": 1.0, "changed": 0, "plays": 0}  # JSON has no NaN
    mean = tally[_SUM] / n
    if rate:
        only_side, only_base = int(tally[_ONLY_SIDE]), int(tally[_ONLY_BASE])
        low, high = paired_difference_interval(only_side, only_base, n, level)
        p = mcnemar_test(only_base, only_side).p_value
        changed = only_side + only_base
    else:
        var = max(tally[_SQ] / n - mean * mean, 0.0) * n / max(n - 1, 1)
        se = math.sqrt(var / n)
        z = float(_st.norm.isf((1 - level) / 2))
        low, high = mean - z * se, mean + z * se
        p = float(2 * _st.norm.sf(abs(mean) / se)) if se > 0 else (1.0 if mean == 0 else 0.0)
        changed = None
    return {"effect": float(mean), "ci95": [float(low), float(high)], "p": float(p), "changed": changed, "plays": n}


@dataclass(frozen=True)
class Round:
    """One round of the screen: rows played and plays each so far."""

    rows: int
    plays: int


def schedule(rows: int, budget: int, refine: int, eta: int) -> list[Round]:
    """Rounds of the screen within ``budget`` plays (the baseline's and both sides' of every row): round ``r``
    plays ``m0·eta^r`` plays per side for the rows still in; each round keeps a ``1/eta`` share, never fewer than
    ``refine``, until ``refine`` are left (``ValueError`` if the budget cannot give each row :data:`MIN_SCREEN`)."""
    counts = [rows]
    while counts[-1] > refine:
        counts.append(max(refine, math.ceil(counts[-1] / eta)))
    unit = eta ** (len(counts) - 1) + sum(2 * c * (eta**r - (eta ** (r - 1) if r else 0)) for r, c in enumerate(counts))
    m0 = budget // unit
    if m0 < MIN_SCREEN:
        raise ValueError(f"--budget {budget:,} is too small for {rows} figures (a screen of {MIN_SCREEN} plays each "
                         f"needs {MIN_SCREEN * unit:,}): raise it, or choose fewer with --fields")
    return [Round(c, m0 * eta**r) for r, c in enumerate(counts)]


@dataclass
class Sensitivity:
    """The table of ``dsim sensitivity``: the baseline and every row's paired changes, ranked."""

    game: str
    cell: dict[str, Any]
    measure: str
    rate: bool
    seed: int
    budget: int
    step: float
    baseline: dict[str, Any]
    rounds: list[Round]
    rows: list[dict[str, Any]]
    plays: int

    def record(self) -> dict[str, Any]:
        """The JSON form (stable keys; rows ranked, most influential first)."""
        return {"game": self.game, "cell": self.cell, "policy": self.cell.get("policy"), "measure": self.measure,
                "kind": "rate" if self.rate else "mean", "seed": self.seed, "budget": self.budget,
                "plays": self.plays, "step": self.step, "small_whole": SMALL_WHOLE, "adjust": "holm",
                "rounds": [{"rows": r.rows, "plays": r.plays} for r in self.rounds],
                "baseline": self.baseline, "rows": self.rows}


def _play(game: Game, settings: Mapping[str, Any], seed: int, stream: int, start: int, count: int,
          measure: str) -> np.ndarray:
    return _values(game, game.play(settings, seed, stream, start, count), measure)


def sensitivity(game: Game, settings: Mapping[str, Any], seed: int, budget: int, *,
                fields: Sequence[str] = ("all",), groups: Sequence[str] = (), exclude: Sequence[str] = (),
                measure: str | None = None,
                step: float = 0.1, refine: int = 10, eta: int = 3, level: float = 0.95, chunk: int = 1 << 16,
                progress: Callable[[int, int], None] = lambda done, total: None) -> Sensitivity:
    """Nudge each chosen figure (``fields``: globs over paths, ``placeholders``, ``rules``, ``all``; less those
    matching an ``exclude`` glob) and each group (a glob whose figures move together) down and up, and measure the paired change of ``measure`` (default: the
    game's win) within ``budget`` plays. ``progress(done, total)`` is called as plays finish."""
    if not 0 < step < 1:
        raise ValueError(f"--step must be a share between 0 and 1 (0.1 = 10%), got {step}")
    if refine < 1 or eta < 2:
        raise ValueError("--refine must be at least 1 and eta at least 2")
    measure = measure_column(game, measure)
    support = game.data()
    figures = None
    if support is not None:
        overlay = settings.get("data")
        loaded = support.load(Path(overlay) if overlay else None)
        figures = Figures(loaded, support.kinds, support)
    data_figures = list(figures.figures.values()) if figures else []
    rules = rule_figures(game, settings)
    every = data_figures + rules
    by_path = {f.path: f for f in every}

    def matching(pattern: str) -> list[Figure]:
        if pattern == "rules":
            return list(rules)
        if pattern == "data":
            return list(data_figures)
        picked = figures.select([pattern]) if figures else []
        return picked + ([r for r in rules if pattern == "all" or _glob(r.path, pattern)] if pattern != "placeholders" else [])

    chosen: dict[str, Figure] = {}
    for pattern in fields:
        found = matching(pattern)
        if not found:
            example = (data_figures or rules)[0].path if data_figures or rules else "kind.id.field"
            raise ValueError(f"--fields {pattern!r} matches no figure of {game.name} (paths look like {example})")
        chosen.update((f.path, f) for f in found)
    chosen = {path: f for path, f in chosen.items() if not any(_glob(path, pattern) for pattern in exclude)}
    grouped: dict[str, list[Figure]] = {}
    for pattern in groups:
        members = [f for f in every if _glob(f.path, pattern)]
        if not members:
            raise ValueError(f"--group {pattern!r} matches no figure of {game.name}")
        grouped[pattern] = members
    rows = [r for r in build_rows(list(chosen.values()), grouped, step) if r.down or r.up]
    if not rows:
        raise ValueError("none of the chosen figures can move inside its schema's bounds")
    rounds = schedule(len(rows), budget, refine, eta)
    rate = np.asarray(game.play(settings, seed, crn_stream(settings, game.rule_tables), 0, 1)[measure]).dtype == bool
    cell = Cell(game, settings, figures)
    total = rounds[-1].plays + sum(2 * r.rows * (r.plays - (rounds[i - 1].plays if i else 0)) for i, r in enumerate(rounds))
    done = 0
    base_tally = np.zeros(3)  # n, sum, sum² of the baseline measure
    try:
        alive = list(range(len(rows)))
        played = 0
        for r, rnd in enumerate(rounds):
            for lo in range(played, rnd.plays, chunk):
                n = min(chunk, rnd.plays - lo)
                base = _play(game, settings, seed, cell.stream, lo, n, measure)
                ok = ~np.isnan(base)
                base_tally += (ok.sum(), base[ok].sum(), (base[ok] ** 2).sum())
                done += n
                for i in alive:
                    row = rows[i]
                    outcomes = {}
                    for side in row.sides():
                        outcomes[side] = _side(game, cell, row, side, by_path, seed, lo, n, measure)
                        done += n
                        if outcomes[side] is not None:
                            _tally(row.tallies.setdefault(side, np.zeros(5)), outcomes[side], base, rate)
                    if outcomes.get("down") is not None and outcomes.get("up") is not None:
                        _tally(row.tallies.setdefault("span", np.zeros(5)), outcomes["up"], outcomes["down"], rate)
                    row.plays = lo + n
                    progress(done, total)
            played = rnd.plays
            if r + 1 < len(rounds):
                keep = rounds[r + 1].rows
                order = sorted(alive, key=lambda i: (-_size(rows[i]), rows[i].name))
                alive = sorted(order[:keep])
    finally:
        cell.close()
    progress(total, total)
    n = int(base_tally[0])
    if n == 0:
        raise ValueError(f"--measure {measure!r} applies to none of the {rounds[-1].plays:,} plays of this cell")
    mean = base_tally[1] / n
    if rate:
        low, high = wilson_interval(int(round(base_tally[1])), n, level)
    else:
        sd = math.sqrt(max(base_tally[2] / n - mean * mean, 0.0) * n / max(n - 1, 1))
        half = float(_st.norm.isf((1 - level) / 2)) * sd / math.sqrt(n)
        low, high = mean - half, mean + half
    baseline = {"value": float(mean), "ci95": [float(low), float(high)], "plays": n}
    return Sensitivity(game.name, dict(settings), measure, rate, seed, budget, step, baseline, rounds,
                       _records(rows, rate, level), done)


def _glob(path: str, pattern: str) -> bool:
    """Whether a figure's path matches a glob (``*`` spans dots)."""
    return fnmatch.fnmatchcase(path, pattern)


def _side(game: Game, cell: Cell, row: Row, side: str, by_path: Mapping[str, Figure], seed: int, start: int,
          count: int, measure: str) -> np.ndarray | None:
    """One side's measured plays, compiling its settings on first use; a value the game refuses is recorded."""
    if side not in row.settings:
        try:
            row.settings[side] = cell.moved(getattr(row, side), by_path)
        except UNPLAYABLE as exc:
            row.errors[side] = str(exc)
            return None
    try:
        return _play(game, row.settings[side], seed, cell.stream, start, count, measure)
    except UNPLAYABLE as exc:
        row.errors[side] = _one_line(exc)
        row.tallies.pop(side, None)
        return None


def _one_line(exc: BaseException) -> str:
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return (text.splitlines() or [type(exc).__name__])[0]


def _size(row: Row) -> float:
    """How far a row moved the measure so far: its larger absolute mean change."""
    sizes = [abs(t[_SUM] / t[_N]) for side, t in row.tallies.items() if side != "span" and t[_N] > 0]
    return max(sizes, default=0.0)


def _records(rows: Sequence[Row], rate: bool, level: float) -> list[dict[str, Any]]:
    """The ranked rows with Holm-adjusted p-values over every side tested."""
    out = []
    for row in rows:
        figure = row.members[0]
        rec: dict[str, Any] = {"name": row.name, "group": row.group, "plays": row.plays}
        if row.group:
            rec |= {"members": [f.path for f in row.members], "value": None,
                    "status": _group_status(row.members), "source": "", "range": None, "confidence": None}
        else:
            rec |= {"value": figure.value, "status": figure.note.status, "source": figure.note.source,
                    "range": list(figure.note.range) if figure.note.range else None,
                    "confidence": figure.note.confidence}
        for side in ("down", "up"):
            moved = getattr(row, side)
            if moved is None:
                rec[side] = None
                continue
            entry: dict[str, Any] = {"to": None if row.group else moved[figure.path]}
            if side in row.errors:
                entry |= {"error": row.errors[side]}
            else:
                entry |= _effect(row.tallies.get(side, np.zeros(5)), rate, level)
            rec[side] = entry
        span = row.tallies.get("span")
        rec["slope"] = None
        if span is not None and span[_N] > 0 and rec["down"] and rec["up"]:
            width = _width(row)
            if width:
                eff = _effect(span, rate, level)
                rec["slope"] = {"per": "unit" if not row.group else "step", "value": eff["effect"] / width,
                                "ci95": [eff["ci95"][0] / width, eff["ci95"][1] / width]}
        rec["errors"] = dict(row.errors)
        out.append(rec)
    tests = [(i, side) for i, rec in enumerate(out) for side in ("down", "up") if rec[side] and "p" in rec[side]]
    adjusted = adjust_pvalues([out[i][side]["p"] for i, side in tests], "holm")
    for (i, side), p in zip(tests, adjusted, strict=True):
        out[i][side]["p_adjusted"] = float(p)
    for rec in out:
        rec["size"] = max((abs(rec[s]["effect"]) for s in ("down", "up") if rec[s] and rec[s].get("effect") is not None),
                          default=0.0)
    out.sort(key=lambda rec: (-rec["size"], rec["name"]))
    for rank, rec in enumerate(out, 1):
        rec["rank"] = rank
    return out


def _width(row: Row) -> float:
    """The distance from the down value to the up value: of the figure, or in steps for a group (2)."""
    if row.group:
        return 2.0
    path = row.members[0].path
    return float(row.up[path] - row.down[path])  # type: ignore[index]


def _group_status(members: Sequence[Figure]) -> str:
    statuses = {f.note.status for f in members}
    return statuses.pop() if len(statuses) == 1 else "mixed"


# ---------------------------------------------------------------- the uncertainty of a headline figure


@dataclass
class Uncertainty:
    """The measure over joint draws of the guessed figures within their ranges."""

    measure: str
    draws: int
    plays: int
    figures: list[dict[str, Any]]
    values: list[float]
    spread: tuple[float, float]
    level: float
    base: float  # the measure on the same plays with the data as it is
    refused: list[str] = field(default_factory=list)  # entries a draw left as they were: the schema's reason

    @property
    def shift(self) -> tuple[float, float]:
        """How far the guessed figures move the measure: the spread less the same plays' unmoved value (paired, so
        the draws' own sampling noise mostly cancels; add it to a longer run's estimate)."""
        return self.spread[0] - self.base, self.spread[1] - self.base

    def record(self) -> dict[str, Any]:
        """JSON form (``refused``: entries some draw left at their values, as the schema refused the draw's)."""
        return {"measure": self.measure, "draws": self.draws, "plays_per_draw": self.plays,
                "spread": list(self.spread), "base": self.base, "shift": list(self.shift), "level": self.level,
                "values": self.values, "figures": self.figures, "refused": self.refused}


def ranges(figures: Sequence[Figure], step: float) -> list[tuple[Figure, float, float]]:
    """Each figure's stated range, or one schema step either side where none is stated."""
    out = []
    for figure in figures:
        down, up = steps(figure, step)
        low, high = (figure.value if down is None else down), (figure.value if up is None else up)
        if figure.note.range is not None:  # the stated ends; an open end keeps the step
            stated_low, stated_high = figure.note.range
            low = low if stated_low is None else stated_low
            high = high if stated_high is None else stated_high
        if high > low:
            out.append((figure, float(low), float(high)))
    return out


def uncertainty(game: Game, settings: Mapping[str, Any], seed: int, draws: int, plays: int, *,
                fields: Sequence[str] = ("placeholders",), measure: str | None = None, step: float = 0.1,
                level: float = 0.95, stream: int | None = None,
                progress: Callable[[int], None] = lambda n: None) -> Uncertainty:
    """Play the cell ``draws`` times with the chosen figures drawn jointly (a Latin hypercube over their ranges),
    each draw on the same ``plays`` plays as the others (``stream``: the cell's own, by default ``dsim compare``'s),
    and report the central ``level`` share of the measure over the draws."""
    from dsim.tuning import latin_hypercube

    if draws < 2:
        raise ValueError("--uncertain needs at least 2 draws")
    measure = measure_column(game, measure)
    support = game.data()
    if support is None:
        raise SettingsError(f"{game.name} has no data figures to draw")
    overlay = settings.get("data")
    figs = Figures(support.load(Path(overlay) if overlay else None), support.kinds, support)
    chosen = figs.select(list(fields))
    spans = ranges(chosen, step)
    if not spans:
        raise ValueError(f"no figure matching {', '.join(fields)} has a range to draw from")
    low = np.array([s[1] for s in spans])
    high = np.array([s[2] for s in spans])
    whole = np.array([s[0].whole for s in spans])
    points = latin_hypercube(low, high, draws, seed, whole)
    cell = Cell(game, settings, figs)
    if stream is not None:
        cell.stream = stream
    by_path = {f.path: f for f in figs.figures.values()}
    refused: list[str] = []

    def mean(played: Mapping[str, Any]) -> float:
        total, count = 0.0, 0
        for lo in range(0, plays, 1 << 16):
            n = min(1 << 16, plays - lo)
            vals = _play(game, played, seed, cell.stream, lo, n, measure)
            total += float(np.nansum(vals))
            count += int((~np.isnan(vals)).sum())
            progress(n)
        if not count:
            raise ValueError(f"--measure {measure!r} applies to none of the {plays:,} plays")
        return total / count

    try:
        base = mean(settings)  # the same plays with the data as it is: the draws' shifts are paired with it
        values = []
        for point in points:
            # an entry the schema refuses in this draw (two guessed faces drawn equal) keeps its values: counted
            values.append(mean(cell.moved({s[0].path: float(v) for s, v in zip(spans, point, strict=True)}, by_path,
                                          refused)))
            cell.close()
    finally:
        cell.close()
    tail = (1 - level) / 2
    spread = (float(np.quantile(values, tail)), float(np.quantile(values, 1 - tail)))
    figures = [{"path": f.path, "value": f.value, "low": lo_, "high": hi_, "stated": f.note.range is not None}
               for f, lo_, hi_ in spans]
    return Uncertainty(measure, draws, plays, figures, [float(v) for v in values], spread, level, float(base), refused)
