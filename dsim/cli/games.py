"""``dsim games``: the registered games, their options, outcome measures and capabilities."""

from __future__ import annotations

import dataclasses
import json

import typer
from rich.table import Table

from dsim.cli.common import JsonOpt, console
from dsim.games import game_names, get_game


def games(as_json: JsonOpt = False) -> None:
    """List every game dsim plays with its command-line options and what it reports."""
    records = []
    for name in game_names():
        game = get_game(name)
        records.append({
            "name": name, "title": game.title,
            "options": [{"flag": o.flag, "setting": o.key, "help": o.help, "grid_only": o.grid_only}
                        for o in game.options],
            "outcome": dataclasses.asdict(game.outcome),
            "policies": game.policies() is not None, "data": game.data() is not None, "dice": game.dice() is not None,
            "workloads": [w.name for w in game.workloads],
        })
    if as_json:
        typer.echo(json.dumps(records))
        return
    table = Table(title="Games (use --game NAME)")
    for column in ("name", "title", "options", "success measure", "capabilities"):
        table.add_column(column, overflow="fold", no_wrap=column == "options",
                         min_width={"options": 17, "capabilities": 12}.get(column))
    for rec in records:
        caps = ", ".join(k for k in ("policies", "data", "dice") if rec[k]) or "—"
        measure = rec["outcome"]["success"] or f"win share per seat (up to {rec['outcome']['seats']})"
        flags = "\n".join(o["flag"] + (" (compare)" if o["grid_only"] else "") for o in rec["options"])
        table.add_row(rec["name"], rec["title"], flags or "—", measure, caps)
    console.print(table)
