"""``dsim compare`` and ``dsim tune``: answer rules questions with paired (CRN) simulations."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from dsim.cli.common import CellArgs, PolicyOpt, fail, parse_sets, say_played_with, with_game_options
from dsim.cli.run import progress
from dsim.cli.tables import fitted_table, squeezed
from dsim.games import listing
from dsim.games.base import Game
from dsim.text import count, repeated
from dsim.variants import INT32

console = Console()
err = Console(stderr=True, highlight=False)

Battles = Annotated[int, typer.Option("--battles", "--games", min=1, max=10**10,
                                      help="Plays per cell and setting (the same plays under every setting).")]
AsJson = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]
CompareMeasure = Annotated[str | None, typer.Option(
    "--measure", help="Yes/no outcome column to compare (default: the game's win; a competitive game names one, "
                      "e.g. win_seat_0).")]
TuneMeasure = Annotated[str | None, typer.Option(
    "--measure", help="Outcome column to bring to the target: a yes/no outcome (its rate) or a number (its mean, "
                      "e.g. rounds). Default: the game's win; a competitive game names one.")]


def parse_setting(game: Game, text: str) -> dict[str, dict[str, str]]:
    """One ``--setting`` (space-separated ``id=value`` items) → the game's rule tables."""
    if not text.split():
        fail(f"--setting: expected space-separated id=value items, got {text!r}")
    return parse_sets(game, text.split(), "--setting")


def rule_settings(game: Game, variant: str | None, settings: list[str] | None) -> list[dict[str, dict[str, str]]]:
    """The settings to compare: every reading of ``variant`` (default first), or the ``--setting`` lists."""
    if variant and settings:
        fail("give --variant or --setting, not both (to compare a variant's readings under other rules, fix those "
             "with --set, e.g. --set boss_health_delta=1)")
    if variant:
        rule = next((r for r in game.rules() if r.id == variant and r.kind == "variant"), None)
        if rule is None or rule.numeric:
            raise typer.BadParameter(f"unknown or numeric variant {variant!r} (see `{listing(game.name)}`)",
                                     param_hint="--variant")
        return [{game.rule_tables[0]: {variant: value}} for value, _ in rule.readings]
    chosen = [parse_setting(game, s) for s in settings or []]
    twice = repeated(chosen)  # the same rules twice: the same cells played, and tested, twice
    if twice is not None:
        fail(f"--setting {settings[twice]!r}: the same rules as an earlier --setting")
    if len(chosen) == 1:
        chosen.insert(0, {})  # one setting: compare it against the defaults
    if len(chosen) < 2:
        raise typer.BadParameter("give --variant ID or at least one --setting 'id=value …'")
    return chosen


def compare(
    variant: Annotated[str | None, typer.Option(
        "--variant", help="Compare every reading of this variant (default first); rules fixed with --set apply to "
                          "every reading. Not with --setting.")] = None,
    setting: Annotated[list[str] | None, typer.Option(
        "--setting", help="One rule setting as space-separated id=value items (repeatable; the first is A, others B; "
                          "a single one is compared with the defaults). Not with --variant.")] = None,
    battles: Battles = 20_000,
    policy: PolicyOpt = None,
    adjust: Annotated[str, typer.Option("--adjust", help="Multiple-testing adjustment over the grid: holm or bh.")] = "holm",
    measure: CompareMeasure = None,
    as_json: AsJson = False,
    cell: CellArgs | None = None,
) -> None:
    """Play the same battles under two or more rule settings (common random numbers) and test the difference."""
    from dsim.compare import compare as run_compare
    from dsim.play import CHUNK
    from dsim.compare import describe_rules, played_rules, verdict
    from dsim.validation import exit_on_data_error

    if adjust not in ("holm", "bh"):
        raise typer.BadParameter("expected holm or bh", param_hint="--adjust")
    with exit_on_data_error():
        the_game, cells = cell.grid(policy)
        if not cells:
            fail("the grid has no cells")
        seed = cell.seed
        rules = rule_settings(the_game, variant, setting)
        fixed = {key for t in the_game.rule_tables for key in cells[0].get(t, {})}  # --set: in every cell
        if variant in fixed:
            fail(f"--set {variant}=…: --variant {variant} compares every reading of {variant}; leave it out of --set")
        plays = len(cells) * len(rules) * battles
        try:
            with progress(f"{the_game.outcome.unit}s", plays, as_json, CHUNK) as on_chunk:
                records = run_compare(the_game, cells, rules, battles, seed, adjust=adjust,  # type: ignore[arg-type]
                                      measure=measure, on_chunk=on_chunk)
        except ValueError as exc:
            fail(str(exc))
    for rec in records:
        rec["verdict"] = verdict(the_game, rec)
    if as_json:
        out: dict[str, Any] = {"seed": seed, "battles": battles, "adjust": adjust, "cells": records}
        if len(records) == 1:
            out.update({k: v for k, v in records[0].items() if k not in out})
        typer.echo(json.dumps(out))
        return
    a_rules = describe_rules(played_rules(the_game, cells[0], rules[0]))
    name = "win" if records[0]["measure"] == the_game.outcome.success else records[0]["measure"]
    names = [("cell", [the_game.label(rec["cell"]) for rec in records]), ("B", [describe_rules(rec["b"]) for rec in records])]
    title = f"Paired comparison (A = {a_rules}), {count(battles, the_game.outcome.unit)} per cell, seed {seed}"

    def figures(sep: str) -> list[tuple[str, list[str]]]:  # the interval beside the difference, or under it
        return [(f"{name} A → B", [f"{rec['win_rate_a']:.3f} → {rec['win_rate_b']:.3f}" for rec in records]),
                ("B − A (95% CI)", [f"{rec['diff']:+.3f}{sep}({rec['ci95'][0]:+.3f}, {rec['ci95'][1]:+.3f})"
                                    for rec in records]),
                ("p", [f"{rec['p_value']:.2g}" for rec in records]),
                (f"p {adjust}", [f"{rec['p_adjusted']:.2g}" for rec in records])]

    console.print(fitted_table(title, names, figures(" "), console.width, 12)
                  or squeezed(title, names, figures("\n"), console.width))
    if len(records) == 1:
        effects = Table(title=f"Other effects (mean per {the_game.outcome.unit}, B − A with 95% CI)")
        for col in ("measure", "A", "B", "B − A (95% CI)"):
            effects.add_column(col, justify="right" if col != "measure" else "left")
        for name, m in records[0]["measures"].items():  # one play has no spread to give an interval
            interval = f"({m['ci95'][0]:+.3f}, {m['ci95'][1]:+.3f})" if m["ci95"] else "(no interval from 1 play)"
            effects.add_row(name.replace("_", " "), f"{m['a']:.3f}", f"{m['b']:.3f}", f"{m['diff']:+.3f} {interval}")
        console.print(effects)
    for rec in records:
        console.print(rec["verdict"], markup=False, highlight=False)
    say_played_with(the_game, cells)


def tune(
    rule: Annotated[str, typer.Option("--rule", help="Whole-number house rule or variant to tune, e.g. enemy_health_delta.")],
    target: Annotated[float, typer.Option("--target", help="Target win rate, e.g. 0.5 (or the --measure's mean, "
                                                           "e.g. 15 rounds).")] = 0.5,
    low: Annotated[int | None, typer.Option("--low", min=INT32[0], max=INT32[1], help="Smallest value to try first (the "
                                            "range widens if the target lies outside; default -3, or the rule's least "
                                            "value if higher).")] = None,
    high: Annotated[int | None, typer.Option("--high", min=INT32[0], max=INT32[1], help="Largest value to try first "
                                             "(default 6, or 9 above --low, within the rule's values).")] = None,
    tolerance: Annotated[float, typer.Option("--tolerance", min=0.0, help="Accept a win rate this close to the target.")] = 0.02,
    battles: Battles = 20_000,
    policy: PolicyOpt = None,
    measure: TuneMeasure = None,
    as_json: AsJson = False,
    cell: CellArgs | None = None,
) -> None:
    """Find the value of a whole-number house rule that brings a cell's win rate (or a --measure's mean) to
    TARGET (bisection with CRN)."""
    from dsim.play import CHUNK
    from dsim.tune import tune as run_tune
    from dsim.validation import exit_on_data_error

    the_game, seed = cell.chosen(), cell.seed
    numeric = {r.id: r for r in the_game.rules() if r.numeric}
    if rule not in numeric:
        fail(f"{rule!r} is not a whole-number rule (tunable: {', '.join(numeric)})")
    table = the_game.parse_set(rule, "0")[0]
    least, most = numeric[rule].bounds or INT32
    low = low if low is not None else min(max(-3, least), most)  # the first range fits the rule's values
    high = high if high is not None else min(max(6, low + 9), most) if most > low else low + 1
    with exit_on_data_error():
        cells = [cell.one(policy)[1]]
        if rule in cells[0].get(table, {}):
            fail(f"--set {rule}=…: tune tries the values of --rule {rule} itself; leave the --set out")
        try:  # the two ends of the range first, then as many values as the search needs
            with progress(f"{the_game.outcome.unit}s", 2 * battles, as_json, CHUNK, grow=battles) as on_chunk:
                result = run_tune(the_game, cells[0], rule, table, target, low, high, battles, seed, tolerance,
                                  numeric[rule].bounds, measure=measure, on_chunk=on_chunk)
        except ValueError as exc:
            fail(str(exc))
    rec = {"cell": cells[0], "battles": battles, "seed": seed, **result.as_dict()}
    if as_json:
        typer.echo(json.dumps(rec))
        return
    name = ("win rate" if result.measure == the_game.outcome.success else
            f"{result.measure} rate" if result.rate else f"mean {result.measure}")
    steps = Table(title=f"{rule}: {name} per value ({count(battles, 'common ' + the_game.outcome.unit)} each)")
    for col in ("value", name, "95% CI"):
        steps.add_column(col, justify="right")
    for ev in rec["evaluations"]:
        steps.add_row(str(ev["value"]), f"{ev['win_rate']:.4f}", f"{ev['ci95'][0]:.4f} – {ev['ci95'][1]:.4f}")
    console.print(steps)
    aim = f"{target:.2f}" if round(target, 2) == target else f"{target:g}"  # 0.50 as before; 0.505 not as 0.51
    frac = f"; the {name} crosses {aim} near {rule} = {result.interpolated:.2f}" if result.interpolated is not None else ""
    found = (f"{rule} = {result.value}: {name} {result.win_rate:.4f} "
             f"(95% CI {result.ci95[0]:.4f} – {result.ci95[1]:.4f})")
    if result.hit:
        console.print(f"{found}, within ±{tolerance} of the target {aim}{frac}.", markup=False)
    elif result.bracketed:  # the target falls between two neighbouring whole values: the nearer one is the answer
        pair = _straddle(result.evaluations, target)
        between = f"between {rule} = {pair[0]} and {pair[1]}" if pair else "between two whole values"
        console.print(f"{found}: the nearest whole value to the target {aim}, which lies {between}, so no "
                      f"value comes within ±{tolerance}{frac}.", markup=False)
    if not result.hit and not result.bracketed:
        (lo, at_lo), (hi, at_hi) = ((v, result.evaluations[v][0]) for v in result.searched)
        console.print(f"The target {target:.2f} is not reachable with {rule} from {lo} to {hi}: the {name} is {at_lo:.4f} "
                      f"at {lo} and {at_hi:.4f} at {hi} (tune assumes it moves one way as {rule} grows), and "
                      f"{result.stopped}.", markup=False)


def _straddle(evaluations: dict[int, tuple[float, float, float]], target: float) -> tuple[int, int] | None:
    """Two neighbouring whole values tried whose measures lie on either side of ``target``, if any."""
    for a, b in zip(sorted(evaluations), sorted(evaluations)[1:]):
        if b == a + 1 and (evaluations[a][0] - target) * (evaluations[b][0] - target) <= 0:
            return a, b
    return None


compare_command = with_game_options(compare, repeatable=True)
tune_command = with_game_options(tune)
