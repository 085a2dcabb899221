"""``dsim variants list|show``: the rule variants and house rules a game's cells can switch."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from dsim.cli.common import GameOpt, fail, game_named
from dsim.cli.tables import fitted_table
from dsim.games import DEFAULT_GAME, listing
from dsim.text import wrap_label

app = typer.Typer(help="Rule variants (the rules' ambiguities) and house rules, for --set id=value.", no_args_is_help=True)
console = Console()
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on stdout.")]


def all_records(game: str) -> list[dict[str, Any]]:
    """Every switchable variant and house rule of a game, variants first."""
    return [rule.record() for rule in game_named(game).rules()]


@app.command("list")
def list_(
    as_json: JsonOption = False,
    missing: Annotated[bool, typer.Option("--missing", help="Also list ambiguities and house rules not simulated yet.")] = False,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """List every variant id with its ambiguity number, default and other readings."""
    records = all_records(game)
    not_simulated = dict(game_named(game).rules_not_simulated())
    if as_json:
        typer.echo(json.dumps({"switches": records, "not_simulated": not_simulated if missing else {}}))
        return
    others = [", ".join(str(r["value"]) for r in rec["readings"] if r["value"] != rec["default"]) for rec in records]
    names = [("id", [rec["id"] for rec in records]), ("default", [str(rec["default"]) for rec in records]),
             ("other values", others), ("question", [rec["question"] for rec in records])]
    title = "Rule variants and house rules (use --set id=value)"
    whole = max([len(n) for _, values in names[:3] for value in values for n in value.split(", ")], default=1)
    console.print(fitted_table(title, names, [("ref", [rec["ref"] for rec in records])], console.width, whole, prose=1)
                  or _stacked(title, records, others, console.width))
    if missing:
        gaps = Table(title="Not simulated yet")
        gaps.add_column("entry")
        gaps.add_column("why")
        for key, why in not_simulated.items():
            gaps.add_row(key, why)
        console.print(gaps)


def _stacked(title: str, records: list[dict[str, Any]], others: list[str], width: int) -> Table:
    """The listing in two columns for a terminal too narrow for five: the id over its rule reference, then the
    values over the question; the ids and values a user types into --set never break across lines."""
    table = Table(title=wrap_label(title, width))
    table.add_column("id\nrule", no_wrap=True, min_width=max(len(rec["id"]) for rec in records))
    table.add_column("default; other values\nquestion")
    for rec, other in zip(records, others):
        values = f"{rec['default']}" + (f"; {other}" if other else "")
        table.add_row(f"{rec['id']}\n{rec['ref']}", f"{values}\n{rec['question']}", end_section=True)
    return table


@app.command("show")
def show(
    variant_id: Annotated[str, typer.Argument(help="Variant or house-rule id (see `dsim variants list`), or an A-number.")],
    as_json: JsonOption = False,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Show one variant: the question, what the seed texts say, and what each reading does."""
    records = all_records(game)
    by_key = {rec["id"]: rec for rec in records}
    by_key.update({rec["ref"]: rec for rec in records if rec["ref"] not in ("house", "sim")})
    rec = by_key.get(variant_id)
    if rec is None:
        fail(f"unknown variant {variant_id!r} (see `{listing(game)}`)")
    if as_json:
        typer.echo(json.dumps(rec))
        return
    console.print(f"[bold]{rec['id']}[/bold] ({rec['ref']}): {rec['question']}")
    console.print(f"seed text: {rec['seed']}", markup=False)
    for r in rec["readings"]:
        mark = " (default)" if r["value"] == rec["default"] else ""
        console.print(f"  {r['value']}{mark}: {r['effect']}", markup=False)
    if "example" in rec:
        console.print(f"example: --set {rec['example']}", markup=False)
