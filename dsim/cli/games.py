"""``dsim games``: the registered games, their options, outcome measures, capabilities and bench workloads."""

from __future__ import annotations

import dataclasses
import json

import typer
from rich.table import Table

from dsim.cli.common import JsonOpt, console
from dsim.cli.tables import squeezed
from dsim.games import game_names, get_game


def games(as_json: JsonOpt = False) -> None:
    """List every game dsim plays with its command-line options, what it reports and its bench workloads."""
    records = []
    for name in game_names():
        game = get_game(name)
        records.append({
            "name": name, "title": game.title,
            "options": [{"flag": o.flag, "setting": o.key, "help": o.help, "grid_only": o.grid_only}
                        for o in game.options],
            "outcome": dataclasses.asdict(game.outcome),
            **{capability: game.offers(capability) for capability in ("policies", "data", "dice")},
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
    workloads = [(w.name, name, w.description) for name in game_names() for w in get_game(name).workloads]
    if workloads:
        names = [("workload", [w[0] for w in workloads]), ("game", [w[1] for w in workloads]),
                 ("what it plays", [w[2] for w in workloads])]
        console.print(squeezed("Bench workloads (dsim bench --workloads NAME)", names, [], console.width, prose=1))
