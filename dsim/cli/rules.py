"""``dsim compare`` and ``dsim tune``: answer rules questions with paired (CRN) simulations."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from dsim.cli.battle import DataOpt, LoadoutOpt, PolicyOpt, Seed, SetOpt, parse_loadout, parse_sets

console = Console()
err = Console(stderr=True, highlight=False)

PartyList = Annotated[list[str], typer.Option("--party", help="Comma-separated character ids (repeatable: one grid row per party).")]
EncounterList = Annotated[list[str] | None, typer.Option(
    "--encounter", help="Encounter id (repeatable), `all`, or `level:N` (see `dsim data list encounters`).")]
BossList = Annotated[list[str] | None, typer.Option("--boss", help="Boss id (repeatable) or `all` (see `dsim data list bosses`).")]
Battles = Annotated[int, typer.Option("--battles", min=1, help="Battles per cell and setting (the same battles under every setting).")]
AsJson = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]


def _fail(message: str) -> None:
    err.print(f"Error: {message}", markup=False)
    raise typer.Exit(1)


def _game():
    from dsim.games.dstbg.game import DSTBG

    return DSTBG()


def _named(kind: str, names: list[str], data: str | None) -> list[str]:
    """Expand ``all`` and ``level:N`` into ids of encounters or bosses."""
    from pathlib import Path

    from dsim.games.dstbg.loader import load_game_data

    if not any(n == "all" or n.startswith("level:") for n in names):
        return names
    table = getattr(load_game_data(overlay=Path(data) if data else None), kind)
    out: list[str] = []
    for name in names:
        if name == "all":
            out.extend(sorted(table))
        elif name.startswith("level:"):
            out.extend(sorted(k for k, v in table.items() if str(getattr(v, "level", "")) == name[6:]))
        else:
            out.append(name)
    return out


def grid_cells(parties: list[str], sizes: str | None, encounters: list[str] | None, bosses: list[str] | None,
               policy: str, sets: list[str] | None, data: str | None, loadout: str | None = None) -> list[dict[str, Any]]:
    """One cell per (party, encounter or boss); ``sizes`` takes the first N characters of each party;
    ``loadout`` is the party's gear (``--loadout`` text; none = starting equipment)."""
    rosters = [[c.strip() for c in p.split(",") if c.strip()] for p in parties]
    if sizes:
        try:
            wanted = [int(s) for s in sizes.split(",")]
        except ValueError:
            raise typer.BadParameter(f"expected sizes like 1,2,3,4, got {sizes!r}", param_hint="--sizes") from None
        rosters = [r[:n] for r in rosters for n in wanted if 1 <= n <= len(r)]
    places = [("encounter", e) for e in _named("encounters", encounters or [], data)]
    places += [("boss", b) for b in _named("bosses", bosses or [], data)]
    if not places:
        raise typer.BadParameter("name at least one --encounter or --boss")
    common: dict[str, Any] = parse_sets(sets)
    gear = parse_loadout(loadout)
    if gear is not None:  # absent = starting equipment, so earlier runs keep their cell stream
        common["loadout"] = gear
    cells = []
    for roster in rosters:
        for key, name in places:
            cell: dict[str, Any] = {"party": roster, key: name, "policy": policy, **common}
            if data:
                cell["data"] = data
            cells.append(cell)
    return cells


def rule_settings(variant: str | None, settings: list[str] | None) -> list[dict[str, dict[str, str]]]:
    """The settings to compare: every reading of ``variant`` (default first), or the ``--setting`` lists."""
    from dsim.games.dstbg.variants import BY_ID

    if variant:
        if variant not in BY_ID or not BY_ID[variant].readings:
            raise typer.BadParameter(f"unknown or numeric variant {variant!r} (see `dsim variants list`)", param_hint="--variant")
        return [{"variants": {variant: r}} for r in BY_ID[variant].readings]
    chosen = [parse_sets(s.split()) for s in settings or []]
    if len(chosen) == 1:
        chosen.insert(0, {})  # one setting: compare it against the defaults
    if len(chosen) < 2:
        raise typer.BadParameter("give --variant ID or at least one --setting 'id=value …'")
    return chosen


def compare(
    party: PartyList,
    encounter: EncounterList = None,
    boss: BossList = None,
    variant: Annotated[str | None, typer.Option("--variant", help="Compare every reading of this variant (default first).")] = None,
    setting: Annotated[list[str] | None, typer.Option(
        "--setting", help="One rule setting as space-separated id=value items (repeatable; the first is A, others B; "
                          "a single one is compared with the defaults).")] = None,
    sizes: Annotated[str | None, typer.Option("--sizes", help="Party sizes, e.g. 1,2,3,4: the first N characters of each --party.")] = None,
    battles: Battles = 20_000,
    seed: Seed = 1,
    policy: PolicyOpt = "baseline",
    set_: SetOpt = None,
    data: DataOpt = None,
    loadout: LoadoutOpt = None,
    adjust: Annotated[str, typer.Option("--adjust", help="Multiple-testing adjustment over the grid: holm or bh.")] = "holm",
    as_json: AsJson = False,
) -> None:
    """Play the same battles under two or more rule settings (common random numbers) and test the difference."""
    from dsim.compare import compare as run_compare
    from dsim.compare import describe_rules, verdict
    from dsim.validation import exit_on_data_error

    if adjust not in ("holm", "bh"):
        raise typer.BadParameter("expected holm or bh", param_hint="--adjust")
    with exit_on_data_error():
        cells = grid_cells(party, sizes, encounter, boss, policy, set_, data, loadout)
        rules = rule_settings(variant, setting)
        try:
            records = run_compare(_game(), cells, rules, battles, seed, adjust=adjust)  # type: ignore[arg-type]
        except ValueError as exc:
            _fail(str(exc))
    for rec in records:
        rec["verdict"] = verdict(rec)
    if as_json:
        out: dict[str, Any] = {"seed": seed, "battles": battles, "adjust": adjust, "cells": records}
        if len(records) == 1:
            out.update({k: v for k, v in records[0].items() if k not in out})
        typer.echo(json.dumps(out))
        return
    table = Table(title=f"Paired comparison (A = {describe_rules(rules[0])}), {battles:,} battles per cell, seed {seed}")
    for col in ("cell", "B", "win A → B", "B − A (95% CI)", "p", f"p {adjust}"):
        table.add_column(col, justify="left" if col in ("cell", "B") else "right", overflow="fold")
    for rec in records:
        cell = rec["cell"]
        low, high = rec["ci95"]
        table.add_row(f"{','.join(cell['party'])} vs {cell.get('encounter') or cell.get('boss')}", describe_rules(rec["b"]),
                      f"{rec['win_rate_a']:.3f} → {rec['win_rate_b']:.3f}", f"{rec['diff']:+.3f} ({low:+.3f}, {high:+.3f})",
                      f"{rec['p_value']:.2g}", f"{rec['p_adjusted']:.2g}")
    console.print(table)
    if len(records) == 1:
        effects = Table(title="Other effects (mean per battle, B − A with 95% CI)")
        for col in ("measure", "A", "B", "B − A (95% CI)"):
            effects.add_column(col, justify="right" if col != "measure" else "left")
        for name, m in records[0]["measures"].items():
            effects.add_row(name.replace("_", " "), f"{m['a']:.3f}", f"{m['b']:.3f}",
                            f"{m['diff']:+.3f} ({m['ci95'][0]:+.3f}, {m['ci95'][1]:+.3f})")
        console.print(effects)
    for rec in records:
        console.print(rec["verdict"], markup=False, highlight=False)


def tune(
    party: Annotated[str, typer.Option("--party", help="Comma-separated character ids, e.g. knight,warrior.")],
    rule: Annotated[str, typer.Option("--rule", help="Whole-number house rule or variant to tune, e.g. enemy_health_delta.")],
    target: Annotated[float, typer.Option("--target", min=0.0, max=1.0, help="Target win rate, e.g. 0.5.")] = 0.5,
    low: Annotated[int, typer.Option("--low", help="Smallest value to try.")] = -3,
    high: Annotated[int, typer.Option("--high", help="Largest value to try.")] = 6,
    tolerance: Annotated[float, typer.Option("--tolerance", min=0.0, help="Accept a win rate this close to the target.")] = 0.02,
    encounter: Annotated[str | None, typer.Option("--encounter", help="Encounter id (see `dsim data list encounters`).")] = None,
    boss: Annotated[str | None, typer.Option("--boss", help="Boss id (see `dsim data list bosses`).")] = None,
    battles: Battles = 20_000,
    seed: Seed = 1,
    policy: PolicyOpt = "baseline",
    set_: SetOpt = None,
    data: DataOpt = None,
    loadout: LoadoutOpt = None,
    as_json: AsJson = False,
) -> None:
    """Find the value of a whole-number house rule that brings the party's win rate to TARGET (bisection with CRN)."""
    from dsim.games.dstbg import house_rules as H
    from dsim.games.dstbg.variants import BY_ID
    from dsim.tune import tune as run_tune
    from dsim.validation import exit_on_data_error

    if rule in H.BY_ID and H.BY_ID[rule].numeric:
        table = "house_rules"
    elif rule in BY_ID and BY_ID[rule].numeric_default is not None:
        table = "variants"
    else:
        numeric = [r.id for r in H.HOUSE_RULES if r.numeric] + [v.id for v in BY_ID.values() if v.numeric_default is not None]
        _fail(f"{rule!r} is not a whole-number rule (tunable: {', '.join(numeric)})")
    with exit_on_data_error():
        cells = grid_cells([party], None, [encounter] if encounter else None, [boss] if boss else None, policy, set_, data,
                           loadout)
        if len(cells) != 1:
            _fail("name exactly one --encounter or --boss")
        try:
            result = run_tune(_game(), cells[0], rule, table, target, low, high, battles, seed, tolerance)
        except ValueError as exc:
            _fail(str(exc))
    rec = {"cell": cells[0], "battles": battles, "seed": seed, **result.as_dict()}
    if as_json:
        typer.echo(json.dumps(rec))
        return
    steps = Table(title=f"{rule}: win rate per value ({battles:,} common battles each)")
    for col in ("value", "win rate", "95% CI"):
        steps.add_column(col, justify="right")
    for ev in rec["evaluations"]:
        steps.add_row(str(ev["value"]), f"{ev['win_rate']:.4f}", f"{ev['ci95'][0]:.4f} – {ev['ci95'][1]:.4f}")
    console.print(steps)
    status = "within" if result.hit else "NOT within"
    frac = f"; the win rate crosses {target:.2f} near {rule} = {result.interpolated:.2f}" if result.interpolated is not None else ""
    console.print(f"{rule} = {result.value}: win rate {result.win_rate:.4f} (95% CI {result.ci95[0]:.4f} – "
                  f"{result.ci95[1]:.4f}), {status} ±{tolerance} of the target {target:.2f}{frac}.", markup=False)
