"""`dsim policies list/show/compare` and `dsim tune-policy`: document, compare and tune player policies."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from dsim.cli import battle as _battle

app = typer.Typer(help="Player policies: list them, show their parameters, compare their win rates.", no_args_is_help=True)
console = Console()
err = Console(stderr=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on stdout.")]
EncounterOpt = Annotated[str | None, typer.Option("--encounter", help="Encounter card id (see `dsim data list encounters`).")]
BossOpt = Annotated[str | None, typer.Option("--boss", help="Boss id, for boss battles (instead of --encounter).")]


def _fail(message: str) -> None:
    err.print(f"[red]Error:[/red] {message}")
    raise typer.Exit(1)


def _policy(name: str):
    from dsim.games.dstbg.policy import get_policy

    try:
        return get_policy(name)
    except ValueError as exc:
        _fail(str(exc))


def _describe(policy) -> dict[str, Any]:
    """A policy as plain data: name, description and its parameters with bounds and defaults."""
    return {
        "name": policy.name,
        "description": policy.description,
        "parameters": [
            {"name": p.name, "default": p.default, "low": p.low, "high": p.high, "doc": p.doc} for p in policy.params
        ],
    }


def _cell(party: str, encounter: str | None, boss: str | None, policy: str, sets: list[str] | None, data: str | None,
          loadout: str | None) -> dict[str, Any]:
    """Settings of one cell, naming either an encounter or a boss."""
    if (encounter is None) == (boss is None):
        _fail("give exactly one of --encounter or --boss")
    return _battle._settings("dstbg", party, encounter, boss, None, policy, sets, data, loadout)


@app.command("list")
def list_(as_json: JsonOpt = False) -> None:
    """List every registered policy with its description and parameter names."""
    from dsim.games.dstbg.policy import all_policies

    items = [_describe(p) for p in all_policies()]
    if as_json:
        typer.echo(json.dumps(items))
        return
    table = Table(title="DS:TBG policies")
    table.add_column("name", style="bold")
    table.add_column("style")
    table.add_column("parameters")
    for item in items:
        style = item["description"].split(":")[0]  # the headline; `show` prints the whole paragraph
        table.add_row(item["name"], style, ", ".join(p["name"] for p in item["parameters"]) or "—")
    console.print(table)


@app.command()
def show(
    name: Annotated[str, typer.Argument(help="Policy name, or path/to/module.py:name.")],
    as_json: JsonOpt = False,
) -> None:
    """Show one policy: its description and every parameter with bounds, default and meaning."""
    item = _describe(_policy(name))
    if as_json:
        typer.echo(json.dumps(item))
        return
    console.print(f"[bold]{item['name']}[/bold]\n{item['description']}\n")
    table = Table(title="parameters")
    for col in ("name", "default", "low", "high", "meaning"):
        table.add_column(col, justify="right" if col in ("default", "low", "high") else "left")
    for p in item["parameters"]:
        table.add_row(p["name"], f"{p['default']:g}", f"{p['low']:g}", f"{p['high']:g}", p["doc"])
    console.print(table)


@app.command()
def compare(
    party: _battle.Party,
    encounter: EncounterOpt = None,
    boss: BossOpt = None,
    policies: Annotated[str | None, typer.Option("--policies", help="Comma-separated policy names (default: all).")] = None,
    battles: Annotated[int, typer.Option("--battles", min=1, help="Battles per policy (the same battles for each).")] = 20_000,
    seed: _battle.Seed = 1,
    set_: _battle.SetOpt = None,
    data: _battle.DataOpt = None,
    loadout: _battle.LoadoutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play every policy (defaults) on the same battles and report win rates with 95% Wilson intervals."""
    from dsim.games.dstbg.policy import all_policies
    from dsim.tuning import dstbg_evaluator
    from dsim.stats import wilson_interval

    names = [p.strip() for p in policies.split(",") if p.strip()] if policies else [p.name for p in all_policies()]
    rows = []
    for name in names:
        settings = _cell(party, encounter, boss, name, set_, data, loadout)
        _battle._prepare(settings)  # clean one-line errors for unknown ids
        chosen, evaluate = dstbg_evaluator(settings, seed)
        won = evaluate(chosen.vector(), 0, battles)
        low, high = wilson_interval(int(won.sum()), battles)
        rows.append({"policy": name, "battles": battles, "wins": int(won.sum()), "win_rate": float(won.mean()),
                     "ci95": [float(low), float(high)]})
    if as_json:
        typer.echo(json.dumps(rows))
        return
    cell = encounter or boss
    gear = f", loadout {loadout}" if loadout else ""
    table = Table(title=f"{party} vs {cell}{gear} — {battles:,} common battles per policy, seed {seed}")
    for col in ("policy", "win rate", "95% CI"):
        table.add_column(col, justify="left" if col == "policy" else "right")
    for r in sorted(rows, key=lambda r: -r["win_rate"]):
        table.add_row(r["policy"], f"{r['win_rate']:.4f}", f"{r['ci95'][0]:.4f} – {r['ci95'][1]:.4f}")
    console.print(table)


def tune(
    policy: Annotated[str, typer.Option("--policy", help="Policy to tune (`dsim policies list`) or path/to/module.py:name.")],
    party: _battle.Party,
    encounter: EncounterOpt = None,
    boss: BossOpt = None,
    budget: Annotated[int, typer.Option("--budget", min=100, help="Total battles to spend (search and validation).")] = 200_000,
    candidates: Annotated[int, typer.Option("--candidates", min=2, help="Parameter vectors tried: the defaults plus a Latin hypercube.")] = 27,
    eta: Annotated[int, typer.Option("--eta", min=2, help="Successive halving keeps 1/eta of the candidates per round.")] = 3,
    stages: Annotated[int, typer.Option("--stages", min=1, help="Search stages: the whole box, then boxes shrunk around the best so far.")] = 2,
    seed: _battle.Seed = 1,
    set_: _battle.SetOpt = None,
    data: _battle.DataOpt = None,
    loadout: _battle.LoadoutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Search a policy's parameters for the highest win rate (successive halving, common random numbers).

    The best vector and the defaults are replayed on fresh common battles: their win rates with
    Wilson intervals, and the gain with a paired interval and McNemar's test."""
    from dsim.tuning import dstbg_evaluator, policy_bounds, tune as run_tuning

    settings = _cell(party, encounter, boss, policy, set_, data, loadout)
    _battle._prepare(settings)
    try:
        chosen, evaluate = dstbg_evaluator(settings, seed)
        result = run_tuning(evaluate, policy_bounds(chosen), budget, seed, candidates=candidates, eta=eta, stages=stages)
    except ValueError as exc:
        _fail(str(exc))
    summary = {"policy": policy, "settings": settings, "seed": seed, "budget": budget, **result.to_json()}
    if as_json:
        typer.echo(json.dumps(summary))
        return
    table = Table(title=f"tuned {policy}: {party} vs {encounter or boss}")
    for col in ("parameter", "default", "best"):
        table.add_column(col, justify="left" if col == "parameter" else "right")
    for name in result.names:
        table.add_row(name, f"{result.defaults[name]:.3g}", f"{result.best[name]:.3g}")
    console.print(table)
    n = result.validation_battles
    console.print(f"validation on {n:,} common battles (search used {result.search_battles:,}):")
    console.print(f"  best     {result.best_wins / n:.4f}  (95% CI {result.best_ci[0]:.4f} – {result.best_ci[1]:.4f})")
    console.print(f"  defaults {result.default_wins / n:.4f}  (95% CI {result.default_ci[0]:.4f} – {result.default_ci[1]:.4f})")
    console.print(f"  gain     {result.gain:+.4f}  (paired 95% CI {result.gain_ci[0]:+.4f} – {result.gain_ci[1]:+.4f}, "
                  f"McNemar p = {result.mcnemar_p:.3g})")
    if result.best_is_default:
        console.print("  the defaults won the search: no better vector was found")
