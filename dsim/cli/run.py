"""`dsim run` and `dsim explain`: play many games of one cell, or replay one with its trace."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from dsim.cli.common import CellArgs, PolicyOpt, console, err, fail, say_played_with, with_game_options
from dsim.clikit import play_errors, progress, run_with_progress
from dsim.games.base import MAX_PLAYS, Game
from dsim.text import count

if TYPE_CHECKING:
    import numpy as np

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
    uncertain: Annotated[int, typer.Option(
        "--uncertain", min=0, max=10_000, help="Also play DRAWS joint draws of the guessed figures (the data's "
                                               "placeholders) within their stated ranges, or one step either side "
                                               "where none is stated, and report the win rate's spread.")] = 0,
    uncertain_plays: Annotated[int | None, typer.Option(
        "--uncertain-plays", min=100, max=10**8, help="Plays per draw (the same plays in every draw; default the "
                                                      "lesser of --battles and 10,000).")] = None,
    uncertain_fields: Annotated[str, typer.Option(
        "--uncertain-fields", help="Figures drawn: 'placeholders' or globs over dotted paths, comma-separated "
                                   "(see `dsim sensitivity --fields`).")] = "placeholders",
    cell: CellArgs | None = None,
) -> None:
    """Play BATTLES battles (or games) of one cell and report the win rate with its 95% Wilson interval.

    The cell is given by the game's own options; `dsim games` lists them per game."""
    chosen, settings = cell.one(policy)
    seed = cell.seed
    unit = f"{chosen.outcome.unit}s"
    summary = run_with_progress(chosen, settings, battles, seed, quiet=as_json)
    if uncertain:
        summary["uncertain"] = _uncertain(chosen, settings, seed, uncertain, uncertain_plays or min(battles, 10_000),
                                          uncertain_fields, as_json)
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
    say_played_with(chosen, [settings])
    rules = [f"{k}={v}" for t in chosen.rule_tables for k, v in settings.get(t, {}).items()]
    if rules:  # what makes these numbers differ from the printed game's
        console.print(f"rules: {', '.join(rules)}", markup=False, highlight=False)
    if settings.get("data"):
        console.print(f"data overlay: {settings['data']}", markup=False, highlight=False)
    if uncertain:
        console.print(uncertain_sentence(chosen, summary), markup=False, highlight=False)


def _uncertain(chosen: Game, settings: dict[str, Any], seed: int, draws: int, plays: int, fields: str,
               quiet: bool) -> dict[str, Any]:
    """``--uncertain``: the measure over joint draws of the guessed figures (:func:`dsim.sensitivity.uncertainty`)."""
    from dsim.play import cell_stream
    from dsim.sensitivity import uncertainty
    from dsim.validation import exit_on_data_error

    patterns = [p.strip() for p in fields.split(",")]
    if not all(patterns):
        fail(f"--uncertain-fields: an empty pattern in {fields!r}")
    with progress("draws", draws * plays, quiet) as on_chunk, exit_on_data_error(), play_errors():
        measure = chosen.outcome.success or chosen.outcome.seat_columns()[0]  # competitive: the first seat's share
        result = uncertainty(chosen, settings, seed, draws, plays, fields=patterns, measure=measure,
                             stream=cell_stream(settings), progress=on_chunk)
    return result.record()


def uncertain_sentence(chosen: Game, summary: dict[str, Any]) -> str:
    """"57% (95% CI 56–58%); with the guessed figures in their ranges 41–73%": the sampling interval beside the
    spread over the data's doubt."""
    drawn = summary["uncertain"]
    low, high = drawn["spread"]
    if "win_rate" in summary and drawn["measure"] == chosen.outcome.success:  # the shifts laid on the whole run's rate
        low, high = (min(max(summary["win_rate"] + d, 0.0), 1.0) for d in drawn["shift"])
    span = f"{100 * low:.1f}–{100 * high:.1f}%"
    where = (f"{len(drawn['figures'])} figures, {drawn['draws']} draws of {drawn['plays_per_draw']:,} common plays, "
             f"each paired with the same plays unmoved")
    if drawn["refused"]:
        where += (f"; {len(drawn['refused'])} times an entry's draw broke its schema and kept its values, e.g. "
                  f"{drawn['refused'][0]}")
    if "win_rate" in summary and drawn["measure"] == chosen.outcome.success:
        ci = summary["ci95"]
        return (f"{chosen.outcome.success_label}: {100 * summary['win_rate']:.1f}% (95% CI {100 * ci[0]:.1f}–"
                f"{100 * ci[1]:.1f}%); with the guessed figures in their ranges {span} (central 95% of {where})")
    return f"{drawn['measure']}: with the guessed figures in their ranges {span} (central 95% of {where})"


def first_match(game: Any, cols: dict[str, np.ndarray], where: str) -> int | None:
    """Index of the first play whose outcome columns (and the game's match columns) satisfy ``where``, parsed by
    :func:`dsim.where.where_mask` (never evaluated as code)."""
    import numpy as np

    from dsim.where import where_mask

    hits = np.flatnonzero(where_mask(where, {**cols, **game.match_columns(cols)}))
    return int(hits[0]) if hits.size else None


def first_where(game: Game, settings: dict[str, Any], seed: int, stream: int, start: int, count: int, where: str,
                on_chunk: Callable[[int], None] = lambda n: None) -> int | None:
    """Index of the first of plays ``start .. start+count-1`` that satisfies ``where``, or ``None``: scanned in
    chunks that start small (a match is often near) and double up to :data:`dsim.play.CHUNK`, so a long search
    keeps memory flat; ``on_chunk`` gets the plays of each chunk scanned."""
    from dsim.play import CHUNK

    first, end, size = start, start + count, 4096
    while first < end:
        n = min(size, end - first)
        hit = first_match(game, game.play(settings, seed, stream, first, n), where)
        on_chunk(n)
        if hit is not None:
            return first + hit
        first, size = first + n, min(2 * size, CHUNK)
    return None


def explain(
    index: Annotated[int, typer.Option("--index", min=0, max=2**62, help="Index of the play within the run (0-based).")] = 0,
    policy: PolicyOpt = None,
    where: Annotated[str | None, typer.Option(
        "--where", help="Replay the first play (from --index on) whose outcome matches, e.g. \"lost and rounds > 8\": "
                        "comparisons (== != < <= > >= in [..]) joined by and/or/not of the outcome columns (those of "
                        "`dsim run`, plus won/lost and the game's own); nothing else is allowed.")] = None,
    search: Annotated[int | None, typer.Option("--search", min=1, max=10**9,
                                               help="How many plays --where may scan (default 100,000).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON Lines: one event per line with the resulting state.")] = False,
    decisions: Annotated[bool, typer.Option("--decisions", help="Also show (with --json: write) every policy decision.")] = False,
    cell: CellArgs | None = None,
) -> None:
    """Replay one play of `dsim run` (same settings, seed and index) step by step, citing rule IDs."""
    from dsim.play import CHUNK, cell_stream

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
        say_played_with(chosen, [settings])
    if where is not None:
        with progress(f"{chosen.outcome.unit}s searched", search, as_json, CHUNK) as on_chunk, play_errors():
            hit = first_where(chosen, settings, seed, stream, index, search, where, on_chunk)
        if hit is None:
            fail(f"no {chosen.outcome.unit} in {index}..{index + search - 1} matches --where {where!r}")
        index = hit
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
