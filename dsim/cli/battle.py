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
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="Rule variant or house rule id=value (repeatable; `dsim variants list`).")]
GameOpt = Annotated[str, typer.Option("--game", help="Game to simulate (only dstbg so far).")]
LoadoutOpt = Annotated[str | None, typer.Option(
    "--loadout", help="Gear of the party: a loadout id for everybody (e.g. mid_game; `dsim data list loadouts`) or "
                      "per character, e.g. knight=mid_game,warrior=starting. Default: the starting equipment.")]
DataOpt = Annotated[str | None, typer.Option("--data", help="Overlay data folder (house-ruled cards).")]

MEANS = {  # `dsim run` summary key -> outcome column averaged over the battles
    "mean_rounds": "rounds", "mean_deaths": "deaths", "mean_damage_dealt": "damage_dealt",
    "mean_damage_taken": "damage_taken", "mean_stamina_spent": "stamina_spent", "estus_per_battle": "estus_used",
    "luck_per_battle": "luck_used", "heroic_per_battle": "heroic_used",
}
BOSS_MEANS = {"mean_boss_health_left": "boss_health_left", "mean_cards_drawn": "cards_drawn"}  # boss battles


def parse_sets(sets: list[str] | None) -> dict[str, dict[str, str]]:
    """``id=value`` items → ``{"variants": {...}, "house_rules": {...}}`` (only the non-empty tables)."""
    from dsim.games.dstbg.house_rules import BY_ID as HOUSE
    from dsim.games.dstbg.house_rules import NOT_SIMULATED

    tables: dict[str, dict[str, str]] = {}
    for item in sets or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise typer.BadParameter(f"expected variant_id=value, got {item!r}", param_hint="--set")
        key = key.strip()
        if key in NOT_SIMULATED:
            raise typer.BadParameter(f"{key!r} is not a battle rule: {NOT_SIMULATED[key]}", param_hint="--set")
        tables.setdefault("house_rules" if key in HOUSE else "variants", {})[key] = value.strip()
    return tables


def parse_loadout(value: str | None) -> str | dict[str, str] | None:
    """``--loadout`` text → the ``loadout`` setting: ``"mid_game"`` or ``{"knight": "mid_game", …}``."""
    if value is None or not value.strip():
        return None
    if "=" not in value:
        return value.strip()
    table: dict[str, str] = {}
    for item in value.split(","):
        key, sep, name = item.partition("=")
        if not sep or not key.strip() or not name.strip():
            raise typer.BadParameter(f"expected NAME or character=NAME,..., got {value!r}", param_hint="--loadout")
        table[key.strip()] = name.strip()
    return table


def _settings(game: str, party: str, encounter: str | None, boss: str | None, gravestones: int | None,
              policy: str, sets: list[str] | None, data: str | None, loadout: str | None = None) -> dict[str, Any]:
    if game != "dstbg":
        raise typer.BadParameter(f"unknown game {game!r} (available: dstbg)", param_hint="--game")
    if (encounter is None) == (boss is None):
        raise typer.BadParameter("give exactly one of --encounter or --boss", param_hint="--encounter/--boss")
    settings: dict[str, Any] = {"party": [p.strip() for p in party.split(",") if p.strip()], "policy": policy}
    if boss is not None:
        settings["boss"] = boss
        if gravestones is not None:
            settings["gravestones"] = gravestones
    else:
        settings["encounter"] = encounter
    settings.update(parse_sets(sets))
    parsed = parse_loadout(loadout)
    if parsed is not None:  # absent = starting equipment, so earlier runs keep their cell stream
        settings["loadout"] = parsed
    if data:
        settings["data"] = data
    return settings


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
    loadout: LoadoutOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
) -> None:
    """Play BATTLES battles of one encounter or boss and report the win rate with its 95% Wilson interval.

    The party uses its starting equipment unless --loadout names a loadout (`dsim data list loadouts`)."""
    from dsim.games.dstbg import engine
    from dsim.games.dstbg.kernel import layout as L

    settings = _settings(game, party, encounter, boss, gravestones, policy, set_, data, loadout)
    cell = _prepare(settings)
    stream = stream_key(json.dumps(settings, sort_keys=True))
    tables = cell.compiled.tables
    engine.play_batch(tables, cell.policy.decide, cell.params, seed, stream, 0, 1)  # compile or load the kernel
    means = MEANS | (BOSS_MEANS if boss else {})
    totals = dict.fromkeys(means.values(), 0) | {"win": 0, "timeouts": 0, "heated": 0, "heatup_rounds": 0}  # per-chunk sums
    chunk = engine.DEFAULT_CHUNK
    start = time.perf_counter()
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                  TimeRemainingColumn(), console=err, disable=as_json or battles <= chunk, transient=True) as bar:
        task = bar.add_task("battles", total=battles)
        for lo in range(0, battles, chunk):
            hi = min(battles, lo + chunk)
            cols = engine.outcome_columns(engine.play_batch(tables, cell.policy.decide, cell.params, seed, stream,
                                                            lo, hi - lo))
            cols["timeouts"] = cols["result"] == L.OUT_TIMEOUT
            cols["heated"] = cols["heatup_round"] >= 0
            cols["heatup_rounds"] = np.where(cols["heated"], cols["heatup_round"], 0)
            for name in totals:
                totals[name] += int(cols[name].sum())
            bar.update(task, advance=hi - lo)
    elapsed = time.perf_counter() - start
    wins = totals["win"]
    low, high = (float(x) for x in wilson_interval(wins, battles))
    summary = {
        "game": game, "settings": settings, "loadout": settings.get("loadout", "starting"), "battles": battles, "wins": wins, "win_rate": wins / battles,
        "ci95": [low, high], "mean_rounds": totals["rounds"] / battles, "seed": seed, "timeouts": totals["timeouts"],
        **{key: totals[column] / battles for key, column in means.items() if key != "mean_rounds"},
        "battles_per_s": battles / elapsed if elapsed > 0 else None,
    }
    if boss:  # how often the boss heated up, and in which round on average
        summary["heatup_rate"] = totals["heated"] / battles
        summary["mean_heatup_round"] = totals["heatup_rounds"] / totals["heated"] if totals["heated"] else None
    if as_json:
        typer.echo(json.dumps(summary))
        return
    gear = _loadout_text(settings.get("loadout"))
    table = Table(title=f"{', '.join(settings['party'])} vs {boss or encounter} — {battles:,} battles, policy {policy}, "
                        f"loadout {gear}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("win rate", f"{summary['win_rate']:.4f}  (95% CI {low:.4f} – {high:.4f})")
    for key in means:
        table.add_row(key.replace("_", " "), f"{summary[key]:.3f}")
    if boss:
        when = f", mean round {summary['mean_heatup_round']:.2f}" if summary["mean_heatup_round"] is not None else ""
        table.add_row("heat-up reached", f"{summary['heatup_rate']:.4f}{when}")
    table.add_row("timeouts", str(summary["timeouts"]))
    table.add_row("throughput", f"{summary['battles_per_s']:,.0f} battles/s")
    console.print(table)


def _loadout_text(loadout: str | dict[str, str] | None) -> str:
    if loadout is None:
        return "starting (starting equipment)"
    if isinstance(loadout, str):
        return loadout
    return ", ".join(f"{cid}={name}" for cid, name in loadout.items())


def first_match(cols: dict[str, np.ndarray], where: str) -> int | None:
    """Index of the first battle whose outcome columns satisfy ``where`` (pandas syntax), or None.

    Besides the outcome columns, ``won``, ``lost`` and ``timeout`` (booleans) and ``boss_health``
    (= ``boss_health_left``) may be used, e.g. ``"lost and rounds > 10"``.
    """
    import pandas as pd

    from dsim.games.dstbg.kernel import layout as L

    frame = pd.DataFrame(cols)
    frame["won"] = frame["result"] == L.OUT_WIN
    frame["lost"] = frame["result"] == L.OUT_LOSS
    frame["timeout"] = frame["result"] == L.OUT_TIMEOUT
    if "boss_health_left" in frame:
        frame["boss_health"] = frame["boss_health_left"]
    try:
        mask = np.asarray(frame.eval(where), dtype=bool)
    except Exception as exc:  # pandas raises many kinds for a bad expression: report them all as one message
        raise ValueError(f"cannot evaluate --where {where!r}: {exc} (columns: {', '.join(frame.columns)})") from None
    if mask.shape != (len(frame),):
        raise ValueError(f"--where {where!r} must give one true/false value per battle")
    hits = np.flatnonzero(mask)
    return int(hits[0]) if hits.size else None


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
    where: Annotated[str | None, typer.Option(
        "--where", help="Replay the first battle (from --index on) whose outcome matches, e.g. \"lost and rounds > 8\" "
                        "(columns of `dsim run`, plus won/lost/timeout).")] = None,
    search: Annotated[int, typer.Option("--search", min=1, help="How many battles --where may scan.")] = 100_000,
    as_json: Annotated[bool, typer.Option("--json", help="JSON Lines: one event per line with the resulting state.")] = False,
    decisions: Annotated[bool, typer.Option("--decisions", help="Also show every policy decision.")] = False,
    loadout: LoadoutOpt = None,
) -> None:
    """Replay one battle of `dsim run` (same settings, seed and index) step by step, citing rule IDs."""
    from dsim.games.dstbg import engine
    from dsim.games.dstbg.trace import describe, events

    settings = _settings(game, party, encounter, boss, gravestones, policy, set_, data, loadout)
    cell = _prepare(settings)
    stream = stream_key(json.dumps(settings, sort_keys=True))
    if not as_json and loadout is not None:
        from dsim.games.dstbg.kernel import context as X

        comp, equip = cell.compiled, cell.compiled.tables.scen[X.SC_EQUIP:]
        console.print(f"loadout {_loadout_text(settings.get('loadout'))}", markup=False, highlight=False)
        for c, cid in enumerate(comp.char_ids):
            gear = [comp.item_ids[i] for i in equip[5 * c : 5 * c + 5] if i >= 0]
            console.print(f"  {cid}: {', '.join(gear)}", markup=False, highlight=False)
    if where is not None:
        hit = None
        for lo in range(index, index + search, 4096):  # scan in chunks: stop at the first match
            count = min(4096, index + search - lo)
            rows = engine.play_batch(cell.compiled.tables, cell.policy.decide, cell.params, seed, stream, lo, count)
            try:
                hit = first_match(engine.outcome_columns(rows), where)
            except ValueError as exc:
                err.print(f"[red]Error:[/red] {exc}")
                raise typer.Exit(1) from None
            if hit is not None:
                index = lo + hit
                break
        if hit is None:
            err.print(f"[red]Error:[/red] no battle in {index}..{index + search - 1} matches --where {where!r}")
            raise typer.Exit(1)
        (err if as_json else console).print(f"battle {index} (seed {seed}) is the first where {where}", markup=False)
    b = engine.play_one(cell.compiled.tables, cell.policy.decide, cell.params, seed, stream, index)
    for ev in events(b, cell.compiled):
        if as_json:
            typer.echo(json.dumps(ev))
        elif decisions or ev["event"] != "decision":
            console.print(describe(ev, cell.compiled), markup=False, highlight=False)
