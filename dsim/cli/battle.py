"""`dsim run` and `dsim explain`: play many battles of one cell, or replay one with its trace."""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import numpy as np
import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from dsim.rng import stream_key
from dsim.stats import wilson_interval

console = Console()
err = Console(stderr=True)

Party = Annotated[str, typer.Option("--party", help="Comma-separated character ids, e.g. knight,warrior.")]
Encounter = Annotated[str | None, typer.Option("--encounter", help="Encounter card id (see `dsim data list encounters`).")]
Boss = Annotated[str | None, typer.Option("--boss", help="Boss id for a boss battle (see `dsim data list bosses`).")]
Gravestones = Annotated[int | None, typer.Option("--gravestones", min=0, help="Behaviour cards revealed at boss setup (default: expected from the boss's encounter levels).")]
Seed = Annotated[int, typer.Option("--seed", help="Random seed; battle i uses the stream (seed, cell, i).")]
PolicyOpt = Annotated[str, typer.Option("--policy", help="Policy name (`dsim policies list`) or path/to/module.py:name.")]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="Rule variant id=reading (repeatable; `dsim variants list`).")]
GameOpt = Annotated[str, typer.Option("--game", help="Game to simulate (only dstbg so far).")]
DataOpt = Annotated[str | None, typer.Option("--data", help="Overlay data folder (house-ruled cards).")]


def _settings(game: str, party: str, encounter: str | None, boss: str | None, gravestones: int | None,
              policy: str, sets: list[str] | None, data: str | None) -> dict[str, Any]:
    if game != "dstbg":
        raise typer.BadParameter(f"unknown game {game!r} (available: dstbg)", param_hint="--game")
    variants = {}
    for item in sets or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise typer.BadParameter(f"expected variant_id=value, got {item!r}", param_hint="--set")
        variants[key.strip()] = value.strip()
    if (encounter is None) == (boss is None):
        raise typer.BadParameter("give exactly one of --encounter or --boss", param_hint="--encounter/--boss")
    settings: dict[str, Any] = {"party": [p.strip() for p in party.split(",") if p.strip()], "policy": policy}
    if boss is not None:
        settings["boss"] = boss
        if gravestones is not None:
            settings["gravestones"] = gravestones
    else:
        settings["encounter"] = encounter
    if variants:
        settings["variants"] = variants
    if data:
        settings["data"] = data
    return settings


def _boss_summary(cols: dict[str, np.ndarray], is_boss: bool) -> dict[str, Any]:
    """Boss outcomes (R-12): heat-up reached and when, health left, cards drawn."""
    if not is_boss:
        return {}
    heated = cols["heatup_round"] >= 0
    return {
        "heat_up_rate": float(heated.mean()),
        "mean_heat_up_round": float(cols["heatup_round"][heated].mean()) if heated.any() else None,
        "mean_boss_health_left": float(cols["boss_health_left"].mean()),
        "mean_cards_drawn": float(cols["cards_drawn"].mean()),
    }


def _prepare(settings: dict[str, Any]):
    from dsim.games.dstbg.game import prepare
    from dsim.validation import exit_on_data_error

    with exit_on_data_error():
        try:
            return prepare(settings)
        except ValueError as exc:
            err.print(f"[red]Error:[/red] {exc}")
            raise typer.Exit(1) from None


def run(
    party: Party,
    encounter: Encounter = None,
    boss: Boss = None,
    gravestones: Gravestones = None,
    battles: Annotated[int, typer.Option("--battles", min=1, help="Number of battles to play.")] = 100_000,
    seed: Seed = 1,
    policy: PolicyOpt = "baseline",
    set_: SetOpt = None,
    game: GameOpt = "dstbg",
    data: DataOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
) -> None:
    """Play BATTLES battles of one encounter or boss and report the win rate with its 95% Wilson interval."""
    from dsim.games.dstbg import engine
    from dsim.games.dstbg.kernel import battle as K

    settings = _settings(game, party, encounter, boss, gravestones, policy, set_, data)
    cell = _prepare(settings)
    stream = stream_key(json.dumps(settings, sort_keys=True))
    tables = cell.compiled.tables
    engine.play_batch(tables, cell.policy.decide, cell.params, seed, stream, 0, 1)  # compile or load the kernel
    rows = np.zeros((battles, K.N_OUT), np.int32)
    chunk = 1 << 16
    start = time.perf_counter()
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                  TimeRemainingColumn(), console=err, disable=as_json or battles <= chunk, transient=True) as bar:
        task = bar.add_task("battles", total=battles)
        for lo in range(0, battles, chunk):
            hi = min(battles, lo + chunk)
            rows[lo:hi] = engine.play_batch(tables, cell.policy.decide, cell.params, seed, stream, lo, hi - lo)
            bar.update(task, advance=hi - lo)
    elapsed = time.perf_counter() - start
    cols = engine.outcome_columns(rows)
    wins = int(cols["win"].sum())
    low, high = (float(x) for x in wilson_interval(wins, battles))
    summary = {
        "game": game, "settings": settings, "battles": battles, "wins": wins, "win_rate": wins / battles,
        "ci95": [low, high], "mean_rounds": float(cols["rounds"].mean()), "seed": seed,
        "timeouts": int((cols["result"] == 3).sum()),
        "mean_deaths": float(cols["deaths"].mean()), "mean_damage_dealt": float(cols["damage_dealt"].mean()),
        "mean_damage_taken": float(cols["damage_taken"].mean()), "mean_stamina_spent": float(cols["stamina_spent"].mean()),
        "estus_per_battle": float(cols["estus_used"].mean()), "luck_per_battle": float(cols["luck_used"].mean()),
        "heroic_per_battle": float(cols["heroic_used"].mean()),
        **_boss_summary(cols, "boss" in settings),
        "battles_per_s": battles / elapsed if elapsed > 0 else None,
    }
    if as_json:
        typer.echo(json.dumps(summary))
        return
    table = Table(title=f"{', '.join(settings['party'])} vs {boss or encounter} — {battles:,} battles, policy {policy}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("win rate", f"{summary['win_rate']:.4f}  (95% CI {low:.4f} – {high:.4f})")
    for key in ("mean_rounds", "mean_deaths", "mean_damage_dealt", "mean_damage_taken", "mean_stamina_spent",
                "estus_per_battle", "luck_per_battle", "heroic_per_battle", "heat_up_rate", "mean_heat_up_round",
                "mean_boss_health_left", "mean_cards_drawn"):
        if summary.get(key) is not None:
            table.add_row(key.replace("_", " "), f"{summary[key]:.3f}")
    table.add_row("timeouts", str(summary["timeouts"]))
    table.add_row("throughput", f"{summary['battles_per_s']:,.0f} battles/s")
    console.print(table)


def explain(
    party: Party,
    encounter: Encounter = None,
    boss: Boss = None,
    gravestones: Gravestones = None,
    index: Annotated[int, typer.Option("--index", min=0, help="Battle index within the run (0-based).")] = 0,
    seed: Seed = 1,
    policy: PolicyOpt = "baseline",
    set_: SetOpt = None,
    game: GameOpt = "dstbg",
    data: DataOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON Lines: one event per line with the resulting state.")] = False,
    decisions: Annotated[bool, typer.Option("--decisions", help="Also show every policy decision.")] = False,
) -> None:
    """Replay one battle of `dsim run` (same settings, seed and index) step by step, citing rule IDs."""
    from dsim.games.dstbg import engine
    from dsim.games.dstbg.trace import describe, events

    settings = _settings(game, party, encounter, boss, gravestones, policy, set_, data)
    cell = _prepare(settings)
    stream = stream_key(json.dumps(settings, sort_keys=True))
    b = engine.play_one(cell.compiled.tables, cell.policy.decide, cell.params, seed, stream, index)
    for ev in events(b, cell.compiled):
        if as_json:
            typer.echo(json.dumps(ev))
        elif decisions or ev["event"] != "decision":
            console.print(describe(ev, cell.compiled), markup=False, highlight=False)
