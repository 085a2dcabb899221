"""``dsim variants list|show``: the rule variants (rules §16) and house rules a cell can switch."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from dsim.games.dstbg import house_rules as H
from dsim.games.dstbg import variants as V

app = typer.Typer(help="Rule variants (rules §16 ambiguities) and house rules, for --set id=value.", no_args_is_help=True)
console = Console()
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on stdout.")]


def variant_record(v: V.Variant) -> dict[str, Any]:
    """One variant as a JSON-ready dict: id, ambiguity, readings with their effects, default, seed text."""
    readings = list(v.readings) if v.readings else ["<whole number>"]
    return {
        "id": v.id, "kind": "variant", "ref": v.ref, "question": v.doc, "default": v.default,
        "readings": [{"value": r, "effect": doc} for r, doc in zip(readings, v.reading_docs, strict=True)],
        "seed": v.seed,
    }


def house_record(r: H.HouseRule) -> dict[str, Any]:
    """One house rule as a JSON-ready dict."""
    return {"id": r.id, "kind": "house_rule", "ref": "house", "question": r.doc, "default": r.default,
            "readings": [{"value": "<whole number>" if r.numeric else "<text>", "effect": r.doc}],
            "seed": "House rule (not in the rules).", "example": r.example, "tunable": r.numeric}


def all_records() -> list[dict[str, Any]]:
    """Every switchable variant and house rule, variants first."""
    return [variant_record(v) for v in V.VARIANTS] + [house_record(r) for r in H.HOUSE_RULES]


@app.command("list")
def list_(
    as_json: JsonOption = False,
    missing: Annotated[bool, typer.Option("--missing", help="Also list §16 entries and house rules not simulated yet.")] = False,
) -> None:
    """List every variant id with its ambiguity number, default and other readings."""
    records = all_records()
    not_simulated = {**V.NOT_SIMULATED, **H.NOT_SIMULATED}
    if as_json:
        typer.echo(json.dumps({"switches": records, "not_simulated": not_simulated if missing else {}}))
        return
    table = Table(title="Rule variants and house rules (use --set id=value)")
    for col in ("id", "ref", "default", "other values", "question"):
        table.add_column(col, overflow="fold")
    for rec in records:
        others = [r["value"] for r in rec["readings"] if r["value"] != rec["default"]]
        table.add_row(rec["id"], rec["ref"], str(rec["default"]), ", ".join(others), rec["question"])
    console.print(table)
    if missing:
        gaps = Table(title="Not simulated yet")
        gaps.add_column("entry")
        gaps.add_column("why")
        for key, why in not_simulated.items():
            gaps.add_row(key, why)
        console.print(gaps)


@app.command("show")
def show(
    variant_id: Annotated[str, typer.Argument(help="Variant or house-rule id (see `dsim variants list`), or an A-number.")],
    as_json: JsonOption = False,
) -> None:
    """Show one variant: the question, what the seed texts say, and what each reading does."""
    by_key = {rec["id"]: rec for rec in all_records()}
    by_key.update({rec["ref"]: rec for rec in all_records() if rec["ref"].startswith("A-")})
    rec = by_key.get(variant_id)
    if rec is None:
        Console(stderr=True).print(f"Error: unknown variant {variant_id!r} (see `dsim variants list`)", markup=False)
        raise typer.Exit(1)
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
