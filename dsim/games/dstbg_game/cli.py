"""``dsim game``: whole DS:TBG games of one party — the win rate with its interval, the funnel (the share reaching
and beating each stage), the gear at the bosses; ``--explain`` replays one game, ``--battle`` one of its battles.
``dsim area``: the same games read up to the mini boss — the chance to beat its area per spark dial value."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from typing import Annotated, Any

import typer
from rich.table import Table

from dsim.clikit import DataOpt, Seed, SetOpt, console, err, fail, parse_sets, say_played_with, user_errors
from dsim.games.base import SettingsError
from dsim.games.dstbg_game.cell import (DEFAULT_BATTLE_POLICY, DEFAULT_MAIN, DEFAULT_MINI, DEFAULT_PARTY,
                                        DEFAULT_STRATEGY)
from dsim.text import count, repeated

NAME = "dstbg_game"  # the game these commands play

GEAR_SHOWN = 8
SPARKS = range(6)


def game(
    games: Annotated[int | None, typer.Option("--games", min=1, max=10**9, help="Number of games to play "
                                              "(default 10,000).")] = None,
    strategy: Annotated[str, typer.Option("--strategy", help="Strategy between battles (`dsim policies list --game "
                                                             "dstbg_game`): balanced, rush, farmer, steward, "
                                                             "random_legal.")] = DEFAULT_STRATEGY,
    explain: Annotated[int | None, typer.Option("--explain", min=0, max=10**9, help="Replay game INDEX event by "
                                                "event instead of playing many.")] = None,
    battle: Annotated[int | None, typer.Option("--battle", min=0, max=10_000, help="With --explain: replay that "
                                               "game's battle K (0-based) event by event.")] = None,
    seed: Seed = 1,
    set_: SetOpt = None,
    data: DataOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object; with --explain, one JSON line per "
                                          "event, with the game, party and tiles after it.")] = False,
    *,
    options: dict[str, Any],
) -> None:
    """Play whole DS:TBG games (R-1.1): explore, rest, buy, level, the mini boss, the main boss.

    Reports the game win rate with its 95% interval, the funnel and the gear the party brought to each boss.
    The same cells run in sweeps as `--game dstbg_game` (`dsim run/compare/tune/sweep --game dstbg_game`), whose
    options (--party, --mini-boss, --main-boss, --scenario, --mode, --battle-policy) this command shares."""
    from dsim.clikit import run_with_progress
    from dsim.registry import get_game
    from dsim.play import cell_stream

    chosen = get_game(NAME)  # the registered instance (a lookup: game.py imports this module for its commands)
    try:
        given = chosen.settings_from_options(options)
    except SettingsError as exc:
        fail(str(exc))
    # every cell names its party, bosses and both policies: `dsim game`'s settings (and so its streams) as before
    settings: dict[str, Any] = {"party": given.get("party", DEFAULT_PARTY), "policy": strategy,
                                "battle_policy": given.get("battle_policy", DEFAULT_BATTLE_POLICY)}
    scenario = given.get("scenario")
    if scenario and ("mini_boss" in given or "main_boss" in given):
        fail(f"--scenario {scenario} names its own bosses: drop --mini-boss and --main-boss")
    settings |= {"scenario": scenario} if scenario else {"mini_boss": given.get("mini_boss", DEFAULT_MINI),
                                                         "main_boss": given.get("main_boss", DEFAULT_MAIN)}
    mode = given.get("mode")
    if mode is not None and (mode != "standard" or scenario):
        settings["mode"] = mode
    settings.update(parse_sets(chosen, set_))
    if data:
        settings["data"] = data
    if battle is not None and explain is None:
        fail("--battle replays a battle of one game: give the game with --explain INDEX")
    if games is not None and explain is not None:
        fail("--explain replays one game: drop --games")
    games = games or 10_000
    with user_errors():
        chosen.check_settings(settings)
        if explain is not None:
            _explain(chosen, settings, seed, cell_stream(settings), explain, battle, as_json)
            return
        summary = run_with_progress(chosen, settings, games, seed, quiet=as_json)
        summary["gear_at_boss"] = _gear(chosen, settings, seed, min(games, 20_000))
    if as_json:
        typer.echo(json.dumps(summary))
        return
    _print(chosen, settings, summary)


def _gear(chosen: Any, settings: dict[str, Any], seed: int, count: int) -> dict[str, list[dict[str, Any]]]:
    """The most common hand items and armour each character brought to each boss's first fight."""
    from dsim.games.dstbg_game.cell import prepare
    from dsim.play import cell_stream

    cg = prepare(settings).compiled
    cols = chosen.play(settings, seed, cell_stream(settings), 0, count)
    out: dict[str, list[dict[str, Any]]] = {}
    for boss, fights in (("mini", "mini_boss_fights"), ("main", "main_boss_fights")):
        reached = cols[fights] > 0
        rows = []
        for seat, cid in enumerate(cg.party):
            kit = Counter()
            for slot in ("hand0", "hand1", "armour"):
                kit.update(cg.item_ids[i] for i in cols[f"{boss}_gear_{seat}_{slot}"][reached] if i >= 0)
            n = int(reached.sum())
            rows += [{"character": cid, "item": item, "share": k / n} for item, k in kit.most_common(GEAR_SHOWN)]
        out[boss] = rows
    return out


def _print(chosen: Any, settings: dict[str, Any], s: dict[str, Any]) -> None:
    table = Table(title=f"{chosen.heading(settings)} — {count(s['games'], 'game')}, strategy {settings['policy']}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    low, high = s["ci95"]
    table.add_row("game win rate", f"{s['win_rate']:.4f}  (95% CI {low:.4f} – {high:.4f})")
    for key, label in (("reached_mini_boss", "reached the mini boss"), ("beat_mini_boss", "beat the mini boss"),
                       ("reached_main_boss", "reached the main boss")):
        table.add_row(label, f"{s[key]:.4f}")
    for key in chosen.outcome.means:
        table.add_row(f"mean {key.replace('_', ' ')}", f"{s[f'mean_{key}']:.2f}")
    if s["capped"]:
        table.add_row("games cut off (max_battles)", str(s["capped"]))
    rate = s["games_per_s"]  # a searched game takes seconds: its rate would read 0 whole
    table.add_row("games per second", f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}")
    console.print(table)
    say_played_with(chosen, [settings])
    for boss, rows in s["gear_at_boss"].items():
        if not rows:
            continue
        gear = Table(title=f"gear at the {boss} boss's first fight (share of games that reached it)")
        gear.add_column("character")
        gear.add_column("item")
        gear.add_column("share", justify="right")
        for row in rows:
            gear.add_row(row["character"], row["item"], f"{row['share']:.2f}")
        console.print(gear)


def _explain(chosen: Any, settings: dict[str, Any], seed: int, stream: int, index: int, battle: int | None,
             as_json: bool) -> None:
    """Game ``index`` event by event; with ``battle``, that battle's own events (the DS:TBG trace)."""
    from dsim.games.dstbg_game import layout as G
    from dsim.games.dstbg_game.cell import prepare
    from dsim.games.dstbg_game.trace import describe, explained, game_events

    cell = prepare(settings)
    events = game_events(cell, seed, stream, index)
    if battle is None:
        for ev in events:
            typer.echo(json.dumps(ev)) if as_json else console.print(explained(ev, cell.compiled), markup=False,
                                                                       highlight=False)
        return
    fought = [ev for ev in events if ev["event"] == "battle"]
    if battle >= len(fought):
        fail(f"game {index} has {len(fought)} battles (0 to {len(fought) - 1}); --battle {battle} is not one of them")
    cards = {}  # the card on each tile as of the battle
    for ev in events:
        if ev["event"] == "deal":
            cards[ev["a"]] = ev["b"]
        elif ev["event"] == "battle" and ev["c"] == battle:
            err.print(describe(ev, cell.compiled), markup=False)
            boss = ev["a"] - G.TILE_BOSS if ev["a"] >= G.TILE_BOSS else None
            comp, b, estimates = _battle_replay(cell, seed, stream, index, battle, cards.get(ev["a"]), boss)
            break
    from dsim.games.dstbg.trace import describe as describe_battle, events as battle_events

    for ev in battle_events(b, comp) if estimates is None else _with_estimates(battle_events(b, comp), *estimates):
        if as_json:
            typer.echo(json.dumps(ev))
        elif ev.get("event") != "decision" or "estimates" in ev:
            console.print(describe_battle(ev, comp) + _values(ev), markup=False, highlight=False)


def _with_estimates(events: list[dict[str, Any]], used: int, by_depth: dict[int, Any]) -> list[dict[str, Any]]:
    """A searched battle's events, each of its decisions with the searcher's option values: the battle's decisions
    are the game's last ``k`` of the ``used`` forced up to its end (``k`` the decision events)."""
    from dsim.games.dstbg_game.searched import estimate_record

    asked = [ev for ev in events if ev.get("event") == "decision"]
    for depth, ev in enumerate(asked, used - len(asked)):
        if depth in by_depth:
            ev.update(estimate_record(by_depth[depth]))
    return events


def _values(event: dict[str, Any]) -> str:
    """A searched decision's option values in words, as `dsim explain` shows a battle's."""
    if "estimates" not in event:
        return ""
    return "; values " + ", ".join(f"{e['option']}: {e['value']:.3f} [{e['ci95'][0]:.3f}, {e['ci95'][1]:.3f}] "
                                   f"n={e['rollouts']}" for e in event["estimates"]) + \
        f" (base policy: {event['base_choice']})"


def _battle_replay(cell: Any, seed: int, stream: int, index: int, battle: int, card: int | None, boss: int | None):
    """Replay the game up to battle ``battle`` with the battle trace on: the battle's compiled names and buffers
    (``boss`` the boss's index for a boss battle, else ``card`` the tile's encounter card), and under a searching
    battle player the decisions used up to the battle's end with the searched decisions' estimates (else None)."""
    from dsim.games.dstbg_game import engine
    from dsim.games.dstbg_game.searched import battle_player

    cg = cell.compiled
    policy, params, decisions, by_depth = battle_player(cell, seed, stream, index)
    _, buffers, battles = engine.play_one(cg, policy, cell.strategy.decide, params, cell.strategy_params, seed, stream,
                                          index, stop_after=battle, trace_events=4000, decisions=decisions)
    # a searcher's: the decisions its battles used up to this one's end, and the estimates by position
    estimates = None if decisions is None else (int(buffers.tile.search[engine.game_log_used(buffers.tile.search)]),
                                                by_depth)
    if boss is None:
        return dataclasses.replace(cg.encounter_compiled, tables=battles.encounters,
                                   enemy_ids=cg.encounter_enemies[card]), buffers.tile, estimates
    tables = battles.bosses[boss]
    fits = tables.steps.shape[0] == battles.encounters.steps.shape[0]
    return (dataclasses.replace(cg.boss_compiled[boss], tables=tables), buffers.tile if fits else buffers.arena,
            estimates)


AREA_OPTIONS = ("party", "mini_boss", "battle_policy")  # the game's declared options `dsim area` takes (an area
# ends at its mini boss: the main boss, a scenario and the campaign's purchases play no part in it)


def area(
    sparks: Annotated[list[int] | None, typer.Option(
        "--sparks", min=0, max=99, help="Spark dial values to report (repeatable; default 0 to 5). House rule: more "
                                        "or fewer sparks than R-1.4's 6 − party size.")] = None,
    games: Annotated[int, typer.Option("--games", min=1, max=10**9, help="Games per spark dial value.")] = 20_000,
    strategy: Annotated[str, typer.Option("--strategy", help="Strategy between battles (`dsim policies list --game "
                                                             "dstbg_game`).")] = DEFAULT_STRATEGY,
    seed: Seed = 1,
    set_: SetOpt = None,
    data: DataOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")] = False,
    *,
    options: dict[str, Any],
) -> None:
    """Chance to beat a mini boss's area within the sparks (R-1.4, R-5.9, R-5.10, R-6.5, R-12.27).

    Whole games (`dsim game`) read up to the mini boss: the party explores the boss's map, rests, buys, levels
    and retries after each defeat while sparks last; the chance is the share of games that beat the mini boss,
    for each spark dial value (house rule `sparks_delta`), with 95% Wilson intervals. --party, --mini-boss and
    --battle-policy are the options of `--game dstbg_game` (`dsim run`), with their defaults."""
    from dsim.clikit import progress
    from dsim.registry import get_game
    from dsim.play import cell_stream, play_sums
    from dsim.stats import wilson_interval

    chosen = get_game(NAME)  # the registered instance (a lookup: game.py imports this module for its commands)
    try:
        given = chosen.settings_from_options(options)
    except SettingsError as exc:
        fail(str(exc))
    base: dict[str, Any] = {"party": given.get("party", DEFAULT_PARTY), "policy": strategy,
                            "mini_boss": given.get("mini_boss", DEFAULT_MINI),
                            "battle_policy": given.get("battle_policy", DEFAULT_BATTLE_POLICY)}
    boss = base["mini_boss"]
    base.update(parse_sets(chosen, set_))
    if "sparks_delta" in base.get("variants", {}):
        fail("--set sparks_delta: `dsim area` sets the spark dial per row; give the dial values with --sparks")
    if data:
        base["data"] = data
    rows = []
    with user_errors():
        from dsim.games.dstbg.game import game_data
        from dsim.games.dstbg_game.variants import GAME_VARIANTS

        if game_data(data).bosses.get(boss) is not None and game_data(data).bosses[boss].kind != "mini":
            fail(f"--mini-boss {boss}: a main boss, whose area comes after a mini boss; play whole games with `dsim game "
                 f"--main-boss {boss}`")
        default = 6 - len(base["party"])
        values = list(sparks or SPARKS)
        twice = repeated(values)
        if twice is not None:  # it would be one row, not two: say so rather than drop it
            fail(f"--sparks {values[twice]} is given twice; give each dial value once")
        most = default + GAME_VARIANTS.by_id["sparks_delta"].high  # the house rule's range, as a dial value
        if max(values) > most:
            fail(f"--sparks {max(values)}: a party of {len(base['party'])} starts with at most {most} sparks")
        with progress("games", games * len(values), as_json) as on_chunk:
            for value in values:  # an absolute dial value as the house rule's offset from
                settings = base | {"variants": {**base.get("variants", {}), "sparks_delta": value - default}}
                chosen.check_settings(settings)
                totals = play_sums(chosen, settings, games, seed, cell_stream(settings), on_chunk)
                won = int(totals["beat_mini_boss"])
                low, high = wilson_interval(won, games)
                rows.append({"sparks": value, "default": value == default, "chance": won / games,
                             "ci95": [float(low), float(high)], "mean_battles": totals["battles"] / games,
                             "capped": int(totals["capped"])})
    summary = {"game": "dstbg_game", "settings": base, "games": games, "seed": seed, "sparks": rows}
    if as_json:
        typer.echo(json.dumps(summary))
        return
    table = Table(title=f"{', '.join(base['party'])} — the {boss} area: share of whole games that beat it "
                        f"({count(games, 'game')} per row, strategy {strategy})")
    for col in ("sparks", "chance to beat the area", "95% interval", "mean battles"):
        table.add_column(col, justify="right")
    for row in rows:
        table.add_row(f"{row['sparks']}{' (R-1.4)' if row['default'] else ''}", f"{row['chance']:.4f}",
                      f"{row['ci95'][0]:.4f} – {row['ci95'][1]:.4f}", f"{row['mean_battles']:.1f}")
    console.print(table)
    for row in rows:  # a game the battle cap cut off did not beat the area: say so, or the chance reads low
        if row["capped"]:
            console.print(f"{row['sparks']} sparks: {count(row['capped'], 'game')} of {games:,} reached the battle "
                          f"cap (house rule max_battles) before beating the area or losing; they count as not "
                          f"beating it (raise the cap with --set max_battles=N)")
