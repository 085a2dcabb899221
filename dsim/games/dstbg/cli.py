"""DS:TBG-only commands. `dsim area`: the chance to clear an area (every encounter, then the boss) with the sparks the party has."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn
from rich.table import Table

from dsim import dice
from dsim.cli.common import DataOpt, Seed, SetOpt, cell_settings, check, fail
from dsim.cli.dice import DataOption, ExactOption, JsonOption, PoolArgument, _show, _user_errors
from dsim.games.dstbg.game import loadout_text
from dsim.validation import exit_on_data_error

console = Console()
err = Console(stderr=True)

DRAWS = 1_000  # posterior draws of every win rate, for the intervals


def area(
    party: Annotated[str, typer.Option("--party", help="Comma-separated character ids, e.g. knight,warrior.")],
    boss: Annotated[str, typer.Option("--boss", help="Boss at the end of the area (see `dsim data list bosses`).")],
    sparks: Annotated[list[int] | None, typer.Option(
        "--sparks", min=0, help="Spark dial values to report (repeatable; default 0 to 5). House rule: more or fewer "
                                "sparks than R-1.4's 6 − party size.")] = None,
    battles: Annotated[int, typer.Option("--battles", min=1, help="Battles per encounter card and per boss cell.")] = 20_000,
    seed: Seed = 1,
    policy: Annotated[str, typer.Option("--policy", help="Policy name (`dsim policies list`).")] = "baseline",
    set_: SetOpt = None,
    data: DataOpt = None,
    loadout: Annotated[str | None, typer.Option("--loadout", help="Gear of the party (see `dsim run --help`).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
) -> None:
    """Chance to beat BOSS's area: win every encounter on the way, then the boss, retrying after each
    defeat while sparks last (R-1.4, R-5.9, R-5.10, R-6.5).

    Plays every encounter card of the boss's levels (R-1.6) and the boss with each number of
    gravestones a deal can reveal (R-12.5), then averages over all deals. Battles are taken as
    independent and each starts with full estus: an upper bound on a real run (see
    dsim/games/dstbg/area.py)."""
    from dsim.games.dstbg import area as A
    from dsim.games.dstbg.game import DSTBG, game_data
    from dsim.stats import wilson_interval

    game = DSTBG()
    settings = cell_settings(game, {"party": party, "boss": boss, "loadout": loadout}, policy, set_, data)
    with exit_on_data_error():
        try:
            levels, card_ids, by_level, graves, deck_size = A.encounter_plan(game_data(data), boss)
            default_sparks = A.starting_sparks(len(settings["party"]))
            dealt = A.deals(levels, by_level)
        except ValueError as exc:
            fail(str(exc))
    revealed = np.minimum(graves[dealt].sum(axis=1), deck_size)
    boss_cells = sorted(set(revealed.tolist()))
    cells = [{k: v for k, v in settings.items() if k != "boss"} | {"encounter": c} for c in card_ids]
    cells += [settings | {"gravestones": g} for g in boss_cells]
    wins = []
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total} cells"),
                  console=err, disable=as_json, transient=True) as bar:
        task = bar.add_task(f"{boss} area", total=len(cells))
        for cell in cells:
            check(game, cell)  # clean one-line errors for unknown ids
            chosen, evaluate = game.evaluator(cell, seed)
            wins.append(int(evaluate(chosen.vector(), 0, battles).sum()))
            bar.update(task, advance=1)
    card_wins = np.array(wins[: len(card_ids)])
    boss_wins = np.zeros(deck_size + 1, dtype=np.int64)  # by cards revealed; unreachable counts stay 0
    boss_wins[boss_cells] = wins[len(card_ids):]
    rows = A.spark_chances(card_wins, boss_wins, battles, dealt, revealed, sparks or range(6), DRAWS,
                           np.random.default_rng(seed))
    summary: dict[str, Any] = {
        "game": "dstbg", "settings": settings, "levels": levels, "battles_per_cell": battles, "seed": seed,
        "deals": int(len(dealt)), "default_sparks": default_sparks,
        "encounters": {c: {"level": lvl, "win_rate": w / battles, "ci95": [float(x) for x in wilson_interval(w, battles)]}
                       for c, lvl, w in zip(card_ids, _levels_of(card_ids, by_level), card_wins)},
        "boss": {str(g): {"win_rate": int(boss_wins[g]) / battles,
                          "ci95": [float(x) for x in wilson_interval(int(boss_wins[g]), battles)]} for g in boss_cells},
        "attempt_win_rate": float(A.area_win_probability(card_wins / battles, boss_wins / battles, dealt, revealed, 1)),
        "sparks": rows,
    }
    if as_json:
        typer.echo(json.dumps(summary))
        return
    _print(summary, settings, boss, by_level)


def _levels_of(card_ids: list[str], by_level: dict[int, list[int]]) -> list[int]:
    """The level of each card, in ``card_ids`` order."""
    level = {i: lvl for lvl, idx in by_level.items() for i in idx}
    return [level[i] for i in range(len(card_ids))]


def _print(summary: dict[str, Any], settings: dict[str, Any], boss: str, by_level: dict[int, list[int]]) -> None:
    """The area summary as two tables: the battles, then the chance per spark dial value."""
    n = summary["battles_per_cell"]
    gear = loadout_text(settings.get("loadout"))
    battles = Table(title=f"{', '.join(settings['party'])} — {boss} area, tiles of level "
                          f"{', '.join(map(str, summary['levels']))} in a chain (A-5); loadout {gear}, "
                          f"policy {settings['policy']}, {n:,} battles per cell")
    battles.add_column("battle")
    battles.add_column("win rate", justify="right")
    for level in sorted(by_level):
        rates = [e["win_rate"] for e in summary["encounters"].values() if e["level"] == level]
        battles.add_row(f"level {level} encounter (mean of {len(rates)} cards)",
                        f"{np.mean(rates):.4f}  (cards {min(rates):.3f} – {max(rates):.3f})")
    for g, rec in summary["boss"].items():
        battles.add_row(f"{boss}, {g} card(s) revealed (R-12.5)",
                        f"{rec['win_rate']:.4f}  (95% CI {rec['ci95'][0]:.4f} – {rec['ci95'][1]:.4f})")
    battles.add_row("one run from the bonfire (every tile, then the boss)", f"{summary['attempt_win_rate']:.4f}")
    console.print(battles)
    chances = Table(title=f"Chance to beat the area, averaged over {summary['deals']:,} deals of the encounter cards")
    for col in ("sparks", "attempts", "win rate", "95% interval"):
        chances.add_column(col, justify="right")
    for row in summary["sparks"]:
        mark = "  (R-1.4 start)" if row["sparks"] == summary["default_sparks"] else ""
        chances.add_row(f"{row['sparks']}{mark}", str(row["attempts"]), f"{row['win_rate']:.4f}",
                        f"{row['ci95'][0]:.4f} – {row['ci95'][1]:.4f}")
    console.print(chances)


def _faces(data: Path | None) -> dict[str, tuple[int, ...]]:
    """Die faces by letter, with the ``--data`` overlay; data problems end the command."""
    from dsim.games.dstbg.datasupport import DSTBGDice

    with exit_on_data_error():
        return DSTBGDice().faces(data)


def _distribution(pool: str, data: Path | None, pmf_of: Any) -> tuple[dice.Pool, Any]:
    """The parsed pool and ``pmf_of(pool, faces)``; a bad pool or value is a one-line error."""
    faces = _faces(data)
    with _user_errors():
        parsed = dice.parse_pool(pool, letters=faces.keys())
        return parsed, pmf_of(parsed, faces)


def attack(
    pool: PoolArgument,
    block: Annotated[int, typer.Option("--block", help="The target's block (physical) or resist (magic).")] = 0,
    json_: JsonOption = False,
    exact: ExactOption = False,
    data: DataOption = None,
) -> None:
    """Damage dealt to an enemy: total minus its block or resist, never below 0 (R-9.4)."""
    parsed, pmf = _distribution(pool, data, lambda p, faces: dice.attack_pmf(p, faces, block))
    _show("Damage dealt", parsed, pmf, exact, json_, {"block": block})


def defend(
    pool: PoolArgument,
    damage: Annotated[int, typer.Option("--damage", help="The enemy attack's damage.")],
    json_: JsonOption = False,
    exact: ExactOption = False,
    data: DataOption = None,
) -> None:
    """Damage taken when blocking or resisting with a pool: damage minus the total, never below 0 (R-9.5)."""
    parsed, pmf = _distribution(pool, data, lambda p, faces: dice.defend_pmf(p, faces, damage))
    _show("Damage taken", parsed, pmf, exact, json_, {"damage": damage})


def dodge(
    n: Annotated[int, typer.Argument(help="Number of green dodge dice.")],
    difficulty: Annotated[int, typer.Option("--difficulty", help="The attack's dodge difficulty.")],
    json_: JsonOption = False,
    exact: ExactOption = False,
    data: DataOption = None,
) -> None:
    """Chance that N dodge dice show at least DIFFICULTY dodge symbols (R-9.5; 0 dice always fail, F-9.3)."""
    faces = _faces(data)
    with _user_errors():
        pool = dice.dodge_pool(n)
        pmf = dice.total_pmf(pool, faces)
        success = dice.dodge_probability(n, difficulty, faces)
    _show("Dodge symbols", pool, pmf, exact, json_, {"difficulty": difficulty}, success)
