"""`dsim policies list/show/compare` and `dsim tune-policy`: document, compare and tune player policies."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from dsim.cli.common import CellArgs, GameOpt, fail, game_named, listed, table, with_game_options
from dsim.cli.run import progress
from dsim.games import DEFAULT_GAME
from dsim.text import count

app = typer.Typer(help="Player policies: list them, show their parameters, compare their win rates.", no_args_is_help=True)
console = Console()

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on stdout.")]


def _registry(game: str):
    """The game's policy registry, or a one-line error if it has none."""
    chosen = game_named(game)
    registry = chosen.policies()
    if registry is None:
        fail(f"{game} has no policies")
    return chosen, registry


def _policy(game: str, name: str):
    _, registry = _registry(game)
    try:
        return registry.get(name)
    except ValueError as exc:
        fail(str(exc))


@app.command("list")
def list_(as_json: JsonOpt = False, game: GameOpt = DEFAULT_GAME) -> None:
    """List every registered policy with its description and parameter names."""
    chosen, registry = _registry(game)
    items = [p.describe() for p in registry.all()]
    if as_json:
        typer.echo(json.dumps(items))
        return
    table = Table(title=f"{chosen.title} policies")
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
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Show one policy: its description and every parameter with bounds, default and meaning."""
    item = _policy(game, name).describe()
    if as_json:
        typer.echo(json.dumps(item))
        return
    console.print(f"[bold]{item['name']}[/bold]\n{item['description']}\n")
    table = Table(title="parameters")
    for col in ("name", "default", "low", "high", "kind", "meaning"):
        table.add_column(col, justify="right" if col in ("default", "low", "high") else "left")
    for p in item["parameters"]:  # whole: a count or a 0/1 switch (tuning and overrides use whole numbers)
        table.add_row(p["name"], f"{p['default']:g}", f"{p['low']:g}", f"{p['high']:g}",
                      "whole" if p["whole"] else "real", p["doc"])
    console.print(table)


def _evaluator(game: Any, settings: dict[str, Any], seed: int, measure: str | None) -> tuple[Any, Any]:
    """The game's evaluator; ``measure`` only when given (a game written before it existed takes two arguments)."""
    return game.evaluator(settings, seed) if measure is None else game.evaluator(settings, seed, measure)


MeasureOpt = Annotated[str | None, typer.Option(
    "--measure", help="A yes/no outcome to count instead of the win, e.g. beat_mini_boss for whole games "
                      "(`dsim games --json` lists each game's outcomes).")]


def _common_heading(names: list[str], headings: list[str]) -> str:
    """One heading for plays of several policies: the one they share, or theirs with "each policy" for the name."""
    template = headings[-1].replace(names[-1], "\0", 1)  # the first: the policy the plays compare
    if len(set(headings)) == 1:
        return headings[0]
    if all(template.replace("\0", name) == h for name, h in zip(names, headings)):
        return template.replace("\0", "each policy")
    return " | ".join(headings)  # the policy changes more of the table than one name (e.g. with --opponents)


def compare(
    policies: Annotated[str | None, typer.Option("--policies", help="Comma-separated policy names (default: all).")] = None,
    measure: MeasureOpt = None,
    battles: Annotated[int, typer.Option("--battles", "--games", min=1, max=10**10, help="Plays per policy (the same for each).")] = 20_000,
    as_json: JsonOpt = False,
    cell: CellArgs | None = None,
) -> None:
    """Play every policy (defaults) on the same battles and report win rates (or the --measure rate) with 95%
    Wilson intervals."""
    from dsim.play import CHUNK, count_true
    from dsim.stats import wilson_interval

    game, registry = _registry(cell.game)
    seed = cell.seed
    if policies is not None and not policies.strip(" ,"):
        fail("--policies: expected comma-separated policy names, got none (leave it out for every policy)")
    names = list(dict.fromkeys(listed("--policies", policies))) if policies else [p.name for p in registry.all()]
    rows, headings, notes = [], [], []
    with progress(f"{game.outcome.unit}s", battles * len(names), as_json, CHUNK) as on_chunk:
        for name in names:
            the_game, settings = cell.one(name)
            headings.append(the_game.heading(settings))  # a heading may name the policy played
            notes.append(the_game.compare_note(settings))
            try:
                chosen, evaluate = _evaluator(the_game, settings, seed, measure)
                wins = count_true(evaluate, chosen.vector(), 0, battles, on_chunk)
            except ValueError as exc:
                fail(str(exc))
            low, high = wilson_interval(wins, battles)
            rows.append({"policy": name, "battles": battles, "wins": wins, "win_rate": wins / battles,
                         "ci95": [float(low), float(high)]})
    if as_json:
        typer.echo(json.dumps(rows))
        return
    heading = _common_heading(names, headings)
    out = table(f"{heading} — {count(battles, 'common play')} per policy, seed {seed}",
                ("policy", f"{measure.replace('_', ' ')} rate" if measure else "win rate", "95% CI"))
    for r in sorted(rows, key=lambda r: -r["win_rate"]):
        out.add_row(r["policy"], f"{r['win_rate']:.4f}", f"{r['ci95'][0]:.4f} – {r['ci95'][1]:.4f}")
    console.print(out)
    for note in dict.fromkeys(n for n in notes if n):  # what a figure means, when not a plain win rate
        console.print(note, markup=False, highlight=False)


def tune(
    policy: Annotated[str, typer.Option("--policy", help="Policy to tune (`dsim policies list`) or path/to/module.py:name.")],
    budget: Annotated[int, typer.Option("--budget", min=100, max=10**11, help="Total plays to spend (search and validation).")] = 200_000,
    candidates: Annotated[int, typer.Option("--candidates", min=2, max=10_000, help="Parameter vectors tried: the defaults plus a Latin hypercube.")] = 27,
    eta: Annotated[int, typer.Option("--eta", min=2, max=100, help="Successive halving keeps 1/eta of the candidates per round.")] = 3,
    stages: Annotated[int, typer.Option("--stages", min=1, max=20, help="Search stages: the whole box, then boxes shrunk around the best so far.")] = 2,
    measure: MeasureOpt = None,
    as_json: JsonOpt = False,
    cell: CellArgs | None = None,
) -> None:
    """Search a policy's parameters for the highest win rate, or --measure rate (successive halving, common
    random numbers).

    The best vector and the defaults are replayed on fresh common battles: their win rates with
    Wilson intervals, and the gain with a paired interval and McNemar's test."""
    from dsim.play import CHUNK
    from dsim.tuning import policy_bounds, tune as run_tuning

    the_game, settings = cell.one(policy)
    seed = cell.seed
    try:  # at most the budget is played (rounding leaves some unspent)
        chosen, evaluate = _evaluator(the_game, settings, seed, measure)
        with progress(f"{the_game.outcome.unit}s", budget, as_json, CHUNK) as on_chunk:
            result = run_tuning(evaluate, policy_bounds(chosen), budget, seed, candidates=candidates, eta=eta,
                                stages=stages, on_chunk=on_chunk)
    except ValueError as exc:
        fail(str(exc))
    summary = {"policy": policy, "settings": settings, "seed": seed, "budget": budget, "measure": measure or "win",
               **result.to_json()}
    if as_json:
        typer.echo(json.dumps(summary))
        return
    out = table(f"tuned {policy}: {the_game.heading(settings)}", ("parameter", "default", "best"))
    for name in result.names:
        out.add_row(name, f"{result.defaults[name]:.3g}", f"{result.best[name]:.3g}")
    console.print(out)
    n = result.validation_battles
    rate = f"{measure} rate" if measure else "win rate"
    console.print(f"validation on {n:,} common {the_game.outcome.unit}s (search used {result.search_battles:,}), {rate}:")
    console.print(f"  best     {result.best_wins / n:.4f}  (95% CI {result.best_ci[0]:.4f} – {result.best_ci[1]:.4f})")
    console.print(f"  defaults {result.default_wins / n:.4f}  (95% CI {result.default_ci[0]:.4f} – {result.default_ci[1]:.4f})")
    console.print(f"  gain     {result.gain:+.4f}  (paired 95% CI {result.gain_ci[0]:+.4f} – {result.gain_ci[1]:+.4f}, "
                  f"McNemar p = {result.mcnemar_p:.3g})")
    if result.best_is_default:
        console.print("  the defaults won the search: no better vector was found")


def ladder(
    battles: Annotated[int, typer.Option("--battles", "--games", min=1, max=10**7, help="Plays per policy (the same for each); searchers cost thousands of replays a play.")] = 500,
    scripted: Annotated[str | None, typer.Option("--policies", help="Comma-separated scripted policies (default: all).")] = None,
    as_json: JsonOpt = False,
    cell: CellArgs | None = None,
) -> None:
    """The skill ladder of one cell: every scripted policy, then the game's searchers (an `expert` and an all-seeing
    `oracle` ceiling), on the same plays, with 95% Wilson intervals and each searcher's paired gain over the best
    scripted policy (Tango's interval). Chunk by chunk, with a progress bar: memory stays flat whatever the count."""
    import numpy as np

    from dsim.play import chunk_size, chunks
    from dsim.stats import paired_difference_interval, wilson_interval

    the_game, registry = _registry(cell.game)
    names = list(dict.fromkeys(listed("--policies", scripted))) if scripted else [p.name for p in registry.all()]
    names += [name for name in the_game.searchers() if name not in names]
    searchers = set(the_game.searchers())
    ceilings: set[str] = set()  # all-seeing searchers (``fair`` False): bounds, not players
    evaluators, headings = {}, []
    for name in names:
        game_, settings = cell.one(name)
        headings.append(game_.heading(settings))
        try:
            evaluators[name] = _evaluator(game_, settings, cell.seed, None)
        except ValueError as exc:
            fail(str(exc))
        if not getattr(evaluators[name][0], "fair", True):
            ceilings.add(name)
    wins = dict.fromkeys(names, 0)
    only = np.zeros((len(names), len(names)), np.int64)  # only[i, j]: plays policy i won and policy j did not
    # every policy plays each chunk in turn, so the bar's ETA holds from the first chunk; a searcher's chunk is a
    # few seconds of search
    size = min(chunk_size(*cell.one(name)) for name in names)
    with progress(f"common {the_game.outcome.unit}s", battles, as_json, 0) as on_chunk:
        for first, n in chunks(battles, 0, size):
            won = np.zeros((len(names), n), bool)
            for i, name in enumerate(names):
                chosen, evaluate = evaluators[name]
                try:
                    won[i] = np.asarray(evaluate(chosen.vector(), first, n), bool)
                except ValueError as exc:
                    fail(str(exc))
                wins[name] += int(won[i].sum())
            only += (won[:, None, :] & ~won[None, :, :]).sum(axis=2)
            on_chunk(n)
    best = max((n for n in names if n not in searchers), key=lambda n: wins[n], default=None)
    rows = []
    for i, name in enumerate(names):
        low, high = wilson_interval(wins[name], battles)
        row = {"policy": name, "searcher": name in searchers, "ceiling": name in ceilings, "wins": wins[name],
               "win_rate": wins[name] / battles, "ci95": [float(low), float(high)]}
        if name in searchers and best is not None:
            j = names.index(best)
            g_low, g_high = paired_difference_interval(int(only[i, j]), int(only[j, i]), battles)
            row["gain_over"] = best
            row["gain"] = (wins[name] - wins[best]) / battles
            row["gain_ci95"] = [float(g_low), float(g_high)]
        rows.append(row)
    if as_json:
        typer.echo(json.dumps(rows))
        return
    heading = _common_heading(names, headings)
    out = table(f"skill ladder: {heading} — {count(battles, 'common play')} per policy, seed {cell.seed}",
                ("policy", "win rate", "95% CI", f"paired gain over {best}"))
    for r in sorted(rows, key=lambda r: r["win_rate"]):
        gain = f"{r['gain']:+.4f} ({r['gain_ci95'][0]:+.4f} – {r['gain_ci95'][1]:+.4f})" if "gain" in r else ""
        label = r["policy"] + (" (ceiling: sees what players cannot)" if r["ceiling"] else "")
        out.add_row(label, f"{r['win_rate']:.4f}", f"{r['ci95'][0]:.4f} – {r['ci95'][1]:.4f}", gain)
    console.print(out)


app.command("compare")(with_game_options(compare))
app.command("ladder")(with_game_options(ladder))
