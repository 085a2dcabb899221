"""Output of ``dsim report``: the per-cell table and the comparisons, as a rich table, JSON or CSV.

Kept apart from the command definitions because it pulls in scipy and statsmodels, which are
slow to import and not needed by any other command.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Literal

import pandas as pd
from rich.console import Console
from rich.table import Table

from dsim import analysis, results, stats
from dsim.cli.tables import fitted_table, squeezed
from dsim.text import wrap_label

Format = Literal["table", "json", "csv"]
WIDE = 140  # terminal columns from which shares get their intervals in the table, and comparisons every p
KEY_WIDTH = 12  # the least width a setting's column keeps before the report lists a cell's figures one per row
out_console = Console()
err_console = Console(stderr=True)


def _outcomes(cells: pd.DataFrame, outcome: Mapping[str, Any] | None = None, table: bool = True) -> list[str]:
    """Outcome names with a mean column, less the game's internal ones and the optional ones that apply in no
    cell (a boss's health left in a sweep of encounters); a ``table`` also leaves out the shares and seat wins
    it shows as rates."""
    outcome = outcome or {}
    hidden = set(outcome.get("internal", ()))
    if table:
        hidden |= set(outcome.get("shares", ())) | {f"win_seat_{k}" for k in range(outcome.get("seats", 0))}
    return [c.removesuffix("_mean") for c in cells.columns
            if c.endswith("_mean") and c.removesuffix("_mean") not in hidden and cells[c].notna().any()]


def _mean(x: float) -> str:
    """A mean for the table; "–" where the outcome never applied (an optional one, e.g. no heat-up)."""
    return "–" if math.isnan(x) else f"{x:.2f}"


def _finite(x: float) -> float | None:
    """A float for JSON (NaN becomes null)."""
    return None if math.isnan(x) else float(x)


def cell_records(cells: pd.DataFrame, outcome: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Per-cell JSON objects: id, settings, battles, wins, win rate, ``ci95``, means and spreads (not of the
    game's internal columns, nor of outcomes that apply in no cell)."""
    outcomes = _outcomes(cells, outcome, table=False)
    records = []
    for _, row in cells.iterrows():
        record = {
            "cell": row["cell"],
            "settings": row["settings"],
            "battles": int(row["battles"]),
            "wins": int(row["wins"]),
            "win_rate": float(row["win_rate"]),
            "ci95": [float(row["ci_low"]), float(row["ci_high"])],
            "complete": bool(row["complete"]),
            "mean": {o: _finite(row[f"{o}_mean"]) for o in outcomes},
            "std": {o: _finite(row[f"{o}_std"]) for o in outcomes if f"{o}_std" in row},
            "rate_ci95": {o: [float(row[f"{o}_ci_low"]), float(row[f"{o}_ci_high"])]
                          for o in outcomes if f"{o}_ci_low" in row},
        }
        if "battles_needed" in row:
            record["battles_needed"] = int(row["battles_needed"])
        records.append(record)
    return records


def _statistic_of(column: str) -> str | None:
    """The outcome an ``X_mean`` / ``X_std`` / ``X_ci_low`` / ``X_ci_high`` column summarises, else ``None``."""
    return next((column.removesuffix(s) for s in ("_mean", "_std", "_ci_low", "_ci_high") if column.endswith(s)), None)


def flat_table(cells: pd.DataFrame, outcome: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Cells as plain columns: readable settings, counts, rate, interval, means (no arrays or dicts, nothing of
    the game's internal columns or of outcomes that apply in no cell)."""
    flats = [results.flatten_settings(s) for s in cells["settings"]]
    keys = list(dict.fromkeys(k for flat in flats for k in flat))
    readable = {k: [analysis.format_value(flat.get(k)) for flat in flats] for k in keys}
    settings = pd.DataFrame(readable, index=cells.index)
    shown = set(_outcomes(cells, outcome, table=False))
    scalars = [c for c in cells.columns if c != "cell" and c not in keys and c != "settings"
               and not c.startswith("setting.") and "_hist_" not in c and _statistic_of(c) in (None, *shown)]
    return pd.concat([cells[["cell"]], settings, cells[scalars]], axis=1)


def _percent(x: float) -> str:
    """A rate as a percentage with one decimal."""
    return f"{100 * x:.1f}%"


def _p(p: float) -> str:
    """A p-value for a table (underflow shown as a bound)."""
    return f"{p:.2g}" if p > 0 else "<1e-300"


def _rate(row: pd.Series, name: str | None, sep: str = " ") -> str:
    """``42.0% (41.1%–42.9%)``: a rate with its 95% interval (``None``: the success rate); ``sep="\n"`` puts
    the interval under the rate, for a narrow terminal."""
    mean, low, high = (("win_rate", "ci_low", "ci_high") if name is None else
                       (f"{name}_mean", f"{name}_ci_low", f"{name}_ci_high"))
    return f"{_percent(row[mean])}{sep}({_percent(row[low])}–{_percent(row[high])})"


def _short(text: str) -> str:
    """``variants.bleed_zero_damage=x, p=0.3`` → ``bleed_zero_damage=x, p=0.3``: a rule table's name left out of the
    setting names in a narrow table (values such as 0.3 keep their dots)."""
    return re.sub(r"(^|, )[A-Za-z_]\w*\.(?=[A-Za-z_]\w*(=|,|$))", r"\1", text)


def _header(key: str, keys: list[str]) -> str:
    """A setting's column header: ``bleed_zero_damage`` for ``variants.bleed_zero_damage`` when no other
    varying setting ends the same (the table's width goes to the values)."""
    short = key.rsplit(".", 1)[-1]
    return short if sum(k.rsplit(".", 1)[-1] == short for k in keys) == 1 else key


def _share_header(name: str) -> str:
    """``seat 1 wins (95% CI)`` for a seat's win share, ``beat mini boss (95% CI)`` for another share."""
    if name.startswith("win_seat_"):
        return f"seat {name.rsplit('_', 1)[1]} wins (95% CI)"
    return f"{name.replace('_', ' ')} (95% CI)"


def _seat_rate(row: pd.Series, name: str | None, sep: str) -> str:
    """:func:`_rate`, or ``—`` for a seat nobody sat in (a table smaller than the game's largest)."""
    if name is not None and name.startswith("win_seat_") and 0 < row.get("seats_taken", 0) <= int(name.rsplit("_", 1)[1]):
        return "—"
    return _rate(row, name, sep)


@contextmanager
def paged(enabled: bool = True) -> Iterator[None]:
    """A table report taller than the terminal goes through the pager (``$PAGER``, else ``less``), as ``git log``
    does: a 300-cell grid is several hundred lines. Output to a file or a pipe is written as it is."""
    if not enabled or not out_console.is_terminal:
        yield
        return
    with out_console.capture() as captured:
        yield
    text = captured.get()
    if text.count("\n") > out_console.height:
        import click

        click.echo_via_pager(text, color=True)
    else:
        sys.stdout.write(text)


def print_cells(cells: pd.DataFrame, fmt: Format, battles_needed: float | None, title: str,
                outcome: Mapping[str, Any] | None = None, everything: bool = False) -> None:
    """Print one row per cell: the settings that vary, the plays, the success rate (or each seat's win
    share) with its interval and the mean rounds; ``everything`` adds the cell id and every outcome mean.
    With ``battles_needed`` (an interval width) add the plays each cell needs. ``outcome`` is the game's
    schema from the manifest (it names the internal columns never shown)."""
    if battles_needed is not None:
        cells = cells.assign(battles_needed=stats.battles_needed(cells["win_rate"].to_numpy(), battles_needed))
    if fmt == "json":
        sys.stdout.write(json.dumps(cell_records(cells, outcome), indent=2) + "\n")
        return
    if fmt == "csv":
        flat_table(cells, outcome).to_csv(sys.stdout, index=False)
        return
    outcome = outcome or {}
    keys = analysis.varying_keys(cells)
    means = _outcomes(cells, outcome) if everything else [o for o in ("rounds",) if f"{o}_mean" in cells]
    seats = [f"win_seat_{k}" for k in range(outcome.get("seats", 0)) if f"win_seat_{k}_mean" in cells]
    rates = [None] if outcome.get("success", "win") is not None else seats
    shares = [name for name in outcome.get("shares", ()) if f"{name}_ci_low" in cells]  # e.g. a game's funnel
    wide = out_console.width >= WIDE  # narrower: the shares in a table of their own, without intervals
    if wide:
        rates += shares
    headers = [f"{outcome.get('unit', 'battle')}s",
               *("win rate (95% CI)" if r is None else _share_header(r) for r in rates),
               *(f"mean {outcome.get('rounds', o) if o == 'rounds' else o}"  # Dark Maiden: turns
                 + (" (where it applies)" if o in outcome.get("optional", ()) else "") for o in means),
               *([f"needed for ±{100 * battles_needed / 2:g} pp"] if battles_needed is not None else []),
               *(["cell"] if everything or not keys else [])]
    rows = []
    for _, row in cells.iterrows():
        flat = results.flatten_settings(row["settings"])
        rows.append(([analysis.format_value(flat.get(k)) for k in keys],
                     [f"{row['battles']:,}", *(_seat_rate(row, r, "\n") for r in rates),
                      *(_mean(row[f"{o}_mean"]) for o in means),
                      *([f"{row['battles_needed']:,}"] if battles_needed is not None else []),
                      *([row["cell"]] if everything or not keys else [])]))
    names = [_header(k, keys) for k in keys]
    same: list[str] = []
    if len(rows) > 1 and _one_row_per_cell(title, names, headers, rows) is None:
        # too narrow for a row per cell: a figure equal in every cell (the plays; a win rate of 0.0% in every whole
        # game) is said once under the table instead of on a line of every cell
        equal = [i for i in range(len(headers)) if len({values[i] for _, values in rows}) == 1]
        if len(equal) < len(headers):
            same = [f"{headers[i]} {rows[0][1][i]}".replace("\n", " ") for i in equal]
            headers = [h for i, h in enumerate(headers) if i not in equal]
            rows = [(settings, [v for i, v in enumerate(values) if i not in equal]) for settings, values in rows]
    table = _wide_or_long(title, names, headers, rows)
    fixed = analysis.fixed_settings(cells)
    shared = ([analysis.spelled(fixed)] if fixed else []) + same  # what the title and the columns leave out
    if shared:
        table.caption = wrap_label(f"in every cell: {'; '.join(shared)}", out_console.width)
    rate_said_once = any(text.startswith(("win rate", "seat")) for text in same)
    if shares and not wide and rate_said_once:  # the shares tell the cells apart: they come first
        _print_shares(cells, keys, shares, outcome.get("unit", "battle"))
    out_console.print(table)
    if shares and not wide and not rate_said_once:
        _print_shares(cells, keys, shares, outcome.get("unit", "battle"))


def print_unfinished(cells: pd.DataFrame, planned: list[str]) -> None:
    """On stderr: the cells short of their target, and those with no finished chunk (left out of the report)."""
    for ids, what in ((cells.loc[~cells["complete"], "cell"].tolist(), "not finished"),
                      ([c for c in planned if c not in set(cells["cell"])], "without a finished chunk, not shown")):
        if ids:
            err_console.print(f"[yellow]{len(ids)} cell(s) {what} ({', '.join(ids[:5])}{' …' if len(ids) > 5 else ''}): "
                              "run the same `dsim sweep` again to complete them.[/yellow]", highlight=False)


def _least(columns: list[list[str]]) -> int:
    """The least width a setting's column keeps: :data:`KEY_WIDTH`, or the longest id in its values (the words
    between ``+``, ``,``, ``=`` and spaces), so that an id a user types never breaks across lines."""
    ids = [len(word) for values in columns for value in values for word in re.split(r"[+,= \n]", value)]
    return max([KEY_WIDTH, *ids])


def _one_row_per_cell(title: str, keys: list[str], headers: list[str],
                      rows: list[tuple[list[str], list[str]]]) -> Table | None:
    """The table with one row per cell, each interval beside its rate or under it, if it fits the terminal."""
    for sep in (" ", "\n"):
        table = fitted_table(title, [(key, [settings[i] for settings, _ in rows]) for i, key in enumerate(keys)],
                             [(h, [values[i].replace("\n", sep) for _, values in rows]) for i, h in enumerate(headers)],
                             out_console.width, _least([settings for settings, _ in rows]))
        if table is not None:
            return table
    return None


def _wide_or_long(title: str, keys: list[str], headers: list[str], rows: list[tuple[list[str], list[str]]]) -> Table:
    """One row per cell when its figures fit the terminal beside the settings (each interval beside its rate, or
    under it), else one row per figure (``measure``, ``value``) under each cell's settings, else (too many varying
    settings for columns) one line per setting and per figure of each cell: nothing is cut, names wrap between
    their words (in the last layout a value wider than its column folds onto the next line)."""
    table = _one_row_per_cell(title, keys, headers, rows)
    if table is not None:
        return table
    long_rows = [(settings if i == 0 else [""] * len(settings), header, value.replace("\n", " "))
                 for settings, values in rows for i, (header, value) in enumerate(zip(headers, values))]
    names = [(key, [r[0][k] for r in long_rows]) for k, key in enumerate(keys)] + [("measure", [r[1] for r in long_rows])]
    figures = [("value", [r[2] for r in long_rows])]
    table = fitted_table(title, names, figures, out_console.width, _least([values for _, values in names]))
    per_cell = len(headers)
    if table is None:  # too many settings for columns: each cell's settings, then its figures, one per line
        names = [("setting or measure", [name for _ in rows for name in (*keys, *headers)])]
        figures = [("value", [v.replace("\n", " ") for settings, values in rows for v in (*settings, *values)])]
        table = squeezed(title, names + figures, [], out_console.width)
        per_cell += len(keys)
    for index in range(per_cell - 1, len(table.rows), per_cell):  # a line under each cell's last figure
        table.rows[index].end_section = True
    return table


def _print_shares(cells: pd.DataFrame, keys: list[str], shares: list[str], unit: str) -> None:
    """The shares of a narrow report in a table of their own (their intervals: ``--json``, ``--csv`` or a terminal
    of :data:`WIDE` columns)."""
    rows = [(results.flatten_settings(row["settings"]), row) for _, row in cells.iterrows()]
    names = [(_header(key, keys), [analysis.format_value(flat.get(key)) for flat, _ in rows]) for key in keys]
    figures = [(name.replace("_", " "), [_percent(row[f"{name}_mean"]) for _, row in rows]) for name in shares]
    title = f"share of {unit}s (95% intervals: --json, --csv or a wider terminal)"
    out_console.print(squeezed(title, names, figures, out_console.width))


def policy_shares(cells: pd.DataFrame, listed: Any) -> list[dict[str, Any]]:
    """Each cell's share of wins per seat held by each of its policies, from the stored ``win_listed_k`` means:
    ``listed(settings)`` names the policy listed ``k``-th (:meth:`dsim.games.base.Game.listed_policies`). A figure
    is a policy's wins over games × the seats it held (ties credit every tied hunter), with a Wilson interval."""
    out = []
    for _, row in cells.iterrows():
        names = listed(row["settings"]) or []
        games = int(row["battles"])
        for policy in dict.fromkeys(names):
            seats = [k for k, name in enumerate(names) if name == policy and f"win_listed_{k}_mean" in row]
            if not seats:
                continue
            wins = int(round(sum(float(row[f"win_listed_{k}_mean"]) * games for k in seats)))
            low, high = stats.wilson_interval(wins, games * len(seats))
            out.append({"cell": row["cell"], "policy": policy, "seats": len(seats), "games": games, "wins": wins,
                        "share": wins / (games * len(seats)), "ci95": [float(low), float(high)]})
    return out


def print_policy_shares(cells: pd.DataFrame, listed: Any) -> None:
    """Under a competitive report: which style wins — each policy's share per seat it held, cell by cell."""
    shares = policy_shares(cells, listed)
    if not shares or all(len(set(listed(row["settings"]) or [])) < 2 for _, row in cells.iterrows()):
        return
    by_cell = {row["cell"]: row for _, row in cells.iterrows()}
    keys = analysis.varying_keys(cells)
    flats = [results.flatten_settings(by_cell[s["cell"]]["settings"]) for s in shares]
    names = [(_header(key, keys), [analysis.format_value(flat.get(key)) for flat in flats]) for key in keys]
    names.append(("style", [f"{s['policy']} ({s['seats']} seat{'s' * (s['seats'] > 1)})" for s in shares]))
    figures = [("wins per seat held (95% CI)",
                [f"{_percent(s['share'])} ({_percent(s['ci95'][0])} – {_percent(s['ci95'][1])})" for s in shares])]
    title = ("which style wins: each policy's share of wins per seat it held (wins ÷ games × seats; "
             "a fair share is 1 ÷ hunters)")
    out_console.print(squeezed(title, names, figures, out_console.width))


def print_comparisons(cells: pd.DataFrame, fmt: Format) -> None:
    """Print the pairwise comparisons of :func:`dsim.analysis.compare`."""
    comparisons = analysis.compare(cells)
    if fmt == "json":
        sys.stdout.write(comparisons.to_json(orient="records", indent=2) + "\n")
        return
    if fmt == "csv":
        comparisons.to_csv(sys.stdout, index=False)
        return
    if comparisons.empty:
        err_console.print("Nothing to compare: no two cells differ in exactly one setting.")
        return
    rows = [row for _, row in comparisons.iterrows()]
    if out_console.width < WIDE:  # a narrow terminal: A → B in one column, the interval under the difference
        title = ("Win-rate comparisons (difference = B − A; p adjusted by Holm; "
                 "raw and BH p: a wider terminal, --csv or --json)")
        names = [("setting: A → B", [f"{_short(r['setting'])}: {r['value_a']} → {r['value_b']}" for r in rows]),
                 ("context", [_short(r["context"]) for r in rows])]
        figures = [("rate A → B", [f"{_percent(r['win_rate_a'])} → {_percent(r['win_rate_b'])}" for r in rows]),
                   ("B − A (95% CI)", [f"{100 * r['difference']:+.1f} pp\n({100 * r['ci_low']:+.1f}, "
                                       f"{100 * r['ci_high']:+.1f})" for r in rows]),
                   ("p Holm", [_p(r["p_holm"]) for r in rows])]
    else:
        title = "Win-rate comparisons (difference = B − A; p adjusted by Holm and BH)"
        names = [(header, [str(r[key]) for r in rows]) for header, key in
                 (("setting", "setting"), ("context", "context"), ("A", "value_a"), ("B", "value_b"))]
        figures = [("rate A", [_percent(r["win_rate_a"]) for r in rows]),
                   ("rate B", [_percent(r["win_rate_b"]) for r in rows]),
                   ("B − A (95% CI)", [f"{100 * r['difference']:+.1f} pp ({100 * r['ci_low']:+.1f}, "
                                       f"{100 * r['ci_high']:+.1f})" for r in rows]),
                   *((f"p{suffix}", [_p(r[f"p_{key}"]) for r in rows])
                     for suffix, key in (("", "value"), (" Holm", "holm"), (" BH", "bh")))]
    table = squeezed(title, names, figures, out_console.width)
    out_console.print(table)
