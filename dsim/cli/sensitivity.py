"""``dsim sensitivity``: which numbers of the data (and which house rules) a cell's answer hangs on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from dsim.cli.common import CellArgs, LoggedProgress, PolicyOpt, console, err, fail, with_game_options
from dsim.text import count


def _listed(values: list[str] | None, default: list[str]) -> list[str]:
    """Repeatable, comma-separated patterns."""
    items = [part.strip() for value in values or [] for part in value.split(",")]
    if any(not item for item in items):
        fail("--fields: an empty pattern (a doubled or stray comma?)")
    return items or default


def sensitivity(
    fields: Annotated[list[str] | None, typer.Option(
        "--fields", help="Figures to nudge: globs over dotted paths (`*` spans dots, e.g. 'bosses.gargoyle.*'), "
                         "'placeholders', 'rules' (whole-number house rules and variants), 'data' or 'all' (the "
                         "default); comma-separated or repeated.")] = None,
    exclude: Annotated[list[str] | None, typer.Option(
        "--exclude", help="Globs of figures to leave out of --fields (comma-separated or repeated), e.g. '*.level'.")] = None,
    group: Annotated[list[str] | None, typer.Option(
        "--group", help="A glob whose figures move together as one row, each by its own step (repeatable), e.g. "
                        "'bosses.gargoyle.cards.*.damage'.")] = None,
    budget: Annotated[int, typer.Option("--budget", min=1000, max=10**10, help="Plays in all (baseline and "
                                        "every nudge): bounds the time.")] = 2_000_000,
    step: Annotated[float, typer.Option("--step", help="Relative step for real numbers and whole numbers above 20 "
                                        "(whole numbers up to 20 move by 1).")] = 0.1,
    refine: Annotated[int, typer.Option("--refine", min=1, max=10_000, help="Figures played longest (the screen "
                                        "keeps a third each round until this many are left).")] = 10,
    measure: Annotated[str | None, typer.Option(
        "--measure", help="Outcome to measure: a yes/no column (its rate) or a number (its mean). Default: the "
                          "game's win; a competitive game names one, e.g. win_seat_0.")] = None,
    top: Annotated[int, typer.Option("--top", min=1, help="Rows shown in the table.")] = 20,
    plot: Annotated[Path | None, typer.Option("--plot", help="Write a tornado plot of the top rows (.png, .svg, "
                                              ".pdf).")] = None,
    plot_rows: Annotated[int, typer.Option("--plot-rows", min=1, max=200, help="Rows in the plot.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (every row, ranked).")] = False,
    policy: PolicyOpt = None,
    cell: CellArgs | None = None,
) -> None:
    """Nudge every number of the game's data (and every whole-number house rule) down and up, play each on the
    baseline's plays (common random numbers) and rank the figures by how much they move the answer."""
    from rich.progress import BarColumn, TextColumn, TimeRemainingColumn

    from dsim.sensitivity import sensitivity as run
    from dsim.validation import exit_on_data_error

    chosen, settings = cell.one(policy)
    with exit_on_data_error(), LoggedProgress(TextColumn("plays"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                                        TimeRemainingColumn(), console=err, transient=True, disable=as_json) as bar:
        task = bar.add_task("plays", total=budget)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            result = run(chosen, settings, cell.seed, budget, fields=_listed(fields, ["all"]), groups=group or (),
                         exclude=_listed(exclude, []),
                         measure=measure, step=step, refine=refine, progress=progress)
        except ValueError as exc:
            fail(str(exc))
    record = result.record()
    if plot is not None:
        from dsim.plots import PlotError, save, tornado

        try:
            save(tornado(record, chosen.label(settings), chosen.outcome.unit, plot_rows), plot)
        except (PlotError, ValueError) as exc:
            fail(str(exc))
    if as_json:
        typer.echo(json.dumps(record))
        return
    show(record, chosen.label(settings), chosen.outcome.unit, top)
    if plot is not None:
        console.print(f"tornado plot: {plot}", markup=False, highlight=False)


def _points(value: float | None, rate: bool) -> str:
    if value is None:
        return "—"
    return f"{100 * value:+.2f}" if rate else f"{value:+.3f}"


def _side(entry: dict[str, Any] | None, rate: bool) -> str:
    if entry is None:
        return "—"
    if "error" in entry:
        return "cannot play"
    if entry["effect"] is None:
        return "not measured"
    low, high = entry["ci95"]
    mark = "*" if entry["p_adjusted"] < 0.05 else ""
    return f"{_points(entry['effect'], rate)}{mark} ({_points(low, rate)}, {_points(high, rate)})"


def _moved(rec: dict[str, Any]) -> str:
    if rec["group"]:
        return f"{len(rec['members'])} figures ±1 step"
    to = [f"{rec[s]['to']:g}" if rec[s] else "—" for s in ("down", "up")]
    return f"{rec['value']:g} → {to[0]} / {to[1]}"


def show(record: dict[str, Any], label: str, unit: str, top: int) -> None:
    """The ranked table of the top rows."""
    from rich.table import Table

    rate = record["kind"] == "rate"
    base = record["baseline"]
    name = record["measure"] + (" rate" if rate else " mean")
    scale = (lambda v: f"{100 * v:.2f}%") if rate else (lambda v: f"{v:.3f}")
    title = (f"Sensitivity of {label}: {name} {scale(base['value'])} (95% CI {scale(base['ci95'][0])} – "
             f"{scale(base['ci95'][1])}), policy {record['policy']}, {count(record['plays'], unit)} played, "
             f"seed {record['seed']}")
    table = Table(title=title, caption=f"change in {'points' if rate else name} (95% CI); * Holm-adjusted p < 0.05 "
                                       f"over {sum(1 for r in record['rows'] for s in ('down', 'up') if r[s] and 'p' in r[s])} tests")
    for col in ("#", "figure", "value → down / up", "down", "up", "plays", "status"):
        table.add_column(col, justify="left" if col in ("figure", "status") else "right", overflow="fold")
    for rec in record["rows"][:top]:
        table.add_row(str(rec["rank"]), rec["name"], _moved(rec), _side(rec["down"], rate), _side(rec["up"], rate),
                      f"{rec['plays']:,}", rec["status"])
    console.print(table)
    rounds = ", ".join(f"{r['rows']} × {r['plays']:,}" for r in record["rounds"])
    console.print(f"screen rounds (figures × plays each side): {rounds}", markup=False, highlight=False)
    broken = [rec for rec in record["rows"] if rec["errors"]]
    for rec in broken[:5]:
        for side, text in rec["errors"].items():
            console.print(f"{rec['name']} {side}: cannot play ({text})", markup=False, highlight=False)
    if len(broken) > 5:
        console.print(f"… and {len(broken) - 5} more figures that cannot play nudged (see --json)", markup=False)


sensitivity_command = with_game_options(sensitivity)
