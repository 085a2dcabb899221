"""`dsim run` and `dsim explain`: play many games of one cell, or replay one with its trace."""

from __future__ import annotations

import json
from typing import Annotated, Any

import numpy as np
import typer
from rich.table import Table

from dsim.cli.common import CellArgs, PolicyOpt, console, err, fail, with_game_options
from dsim.clikit import play_errors, run_with_progress
from dsim.games.base import MAX_PLAYS, Game
from dsim.text import count

Count = Annotated[int, typer.Option("--battles", "--games", min=1, max=MAX_PLAYS, help="Number of battles (games) to play.")]


def _format(value: Any) -> str:
    """A summary figure for the run table."""
    if isinstance(value, float):
        return f"{value:.3f}"
    return "—" if value is None else str(value)


def run(
    battles: Count = 100_000,
    policy: PolicyOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    cell: CellArgs | None = None,
) -> None:
    """Play BATTLES battles (or games) of one cell and report the win rate with its 95% Wilson interval.

    The cell is given by the game's own options; `dsim games` lists them per game."""
    chosen, settings = cell.one(policy)
    seed = cell.seed
    unit = f"{chosen.outcome.unit}s"
    summary = run_with_progress(chosen, settings, battles, seed, quiet=as_json)
    if as_json:
        typer.echo(json.dumps(summary))
        return
    table = Table(title=f"{chosen.heading(settings)} — {count(battles, chosen.outcome.unit)}, policy {settings['policy']}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    if "win_rate" in summary:
        low, high = summary["ci95"]
        table.add_row(chosen.outcome.success_label, f"{summary['win_rate']:.4f}  (95% CI {low:.4f} – {high:.4f})")
    for share in summary.get("win_share", []):
        low, high = share["ci95"]
        table.add_row(f"seat {share['seat']} wins", f"{share['share']:.4f}  (95% CI {low:.4f} – {high:.4f})")
    shares = summary.get("policy_share", [])
    for share in shares if len(shares) > 1 else []:  # a table of several policies: each one's share per seat held
        low, high = share["ci95"]
        table.add_row(f"{share['policy']} wins per seat ({share['seats']} seat{'s' * (share['seats'] > 1)})",
                      f"{share['share']:.4f}  (95% CI {low:.4f} – {high:.4f})")
    shown = {"game", "settings", unit, "wins", "win_rate", "ci95", "win_share", "policy_share", "seed", f"{unit}_per_s"}
    for key, value in summary.items():  # the game's own figures: numbers only (text is in the heading)
        if key not in shown and (value is None or isinstance(value, int | float)):
            table.add_row(key.replace("_", " "), _format(value))
    rate = summary[f"{unit}_per_s"]
    table.add_row("throughput", f"{rate:,.0f} {unit}/s" if rate else "—")
    console.print(table)
    rules = [f"{k}={v}" for t in chosen.rule_tables for k, v in settings.get(t, {}).items()]
    if rules:  # what makes these numbers differ from the printed game's
        console.print(f"rules: {', '.join(rules)}", markup=False, highlight=False)
    if settings.get("data"):
        console.print(f"data overlay: {settings['data']}", markup=False, highlight=False)


def first_match(game: Any, cols: dict[str, np.ndarray], where: str) -> int | None:
    """Index of the first play whose outcome columns (and the game's match columns) satisfy ``where``."""
    import pandas as pd

    frame = pd.DataFrame({**cols, **game.match_columns(cols)})
    try:
        mask = np.asarray(frame.eval(where), dtype=bool)
    except Exception as exc:  # pandas raises many kinds for a bad expression: report them all as one message
        raise ValueError(f"cannot evaluate --where {where!r}: {exc} (columns: {', '.join(frame.columns)})") from None
    if mask.shape != (len(frame),):
        raise ValueError(f"--where {where!r} must give one true/false value per play")
    hits = np.flatnonzero(mask)
    return int(hits[0]) if hits.size else None


def explain(
    index: Annotated[int, typer.Option("--index", min=0, max=2**62, help="Index of the play within the run (0-based).")] = 0,
    policy: PolicyOpt = None,
    where: Annotated[str | None, typer.Option(
        "--where", help="Replay the first play (from --index on) whose outcome matches, e.g. \"lost and rounds > 8\" "
                        "(columns of `dsim run`, plus won/lost and the game's own).")] = None,
    search: Annotated[int | None, typer.Option("--search", min=1, max=10**9,
                                               help="How many plays --where may scan (default 100,000).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON Lines: one event per line with the resulting state.")] = False,
    decisions: Annotated[bool, typer.Option("--decisions", help="Also show (with --json: write) every policy decision.")] = False,
    cell: CellArgs | None = None,
) -> None:
    """Replay one play of `dsim run` (same settings, seed and index) step by step, citing rule IDs."""
    from dsim.play import cell_stream

    chosen, settings = cell.one(policy)
    seed, stream = cell.seed, cell_stream(settings)
    if search is not None and where is None:
        fail("--search bounds the plays --where scans: give --where too")
    search = search or 100_000
    if decisions and type(chosen).is_decision is Game.is_decision:
        err.print(f"note: {chosen.name} logs no separate decisions: its players' choices are the events shown",
                  markup=False, highlight=False)
    if not as_json:
        for line in chosen.explain_header(settings):
            console.print(line, markup=False, highlight=False)
    if where is not None:
        hit = None
        for lo in range(index, index + search, 4096):  # scan in chunks: stop at the first match
            count = min(4096, index + search - lo)
            try:
                hit = first_match(chosen, chosen.play(settings, seed, stream, lo, count), where)
            except ValueError as exc:
                fail(str(exc))
            if hit is not None:
                index = lo + hit
                break
        if hit is None:
            fail(f"no {chosen.outcome.unit} in {index}..{index + search - 1} matches --where {where!r}")
        (err if as_json else console).print(f"{chosen.outcome.unit} {index} (seed {seed}) is the first where {where}",
                                            markup=False)
    with play_errors():
        events = chosen.explain(settings, seed, stream, index)
    for ev in events:
        if chosen.is_decision(ev) and not decisions:
            continue
        if as_json:
            typer.echo(json.dumps(ev))
        else:
            console.print(chosen.describe_event(ev, settings), markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    """Add ``run`` and ``explain`` with every registered game's options."""
    app.command("run")(with_game_options(run))
    app.command("explain")(with_game_options(explain))
