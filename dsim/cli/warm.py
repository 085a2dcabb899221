"""``dsim warm``: compile ahead, once, what runs are likely to need, so later commands start in a second.

Each kind of play (a game's kernel under one policy) is compiled the first time it runs and then cached on
disk. ``warm`` plays one play of every bench workload of each game under each of its scripted policies (and the
searchers when asked), showing which are compiled and which already load from the cache.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from dsim.cli.common import LoggedProgress, console, err, fail, listed
from dsim.cli.tables import squeezed
from dsim.games import game_names, get_game


@dataclass(frozen=True)
class Item:
    """One kind of play to compile: a game's cell (a bench workload's settings) under one policy."""

    game: str
    policy: str
    settings: dict[str, Any]

    @property
    def label(self) -> str:
        return f"{self.game} · {self.policy}"


def plan(games: list[str], policies: list[str] | None, searchers: bool) -> list[Item]:
    """Every (game, policy) to compile, each on the game's first bench workload that accepts the policy (the same
    kernel serves the game's other cells): each scripted policy, or ``policies``, plus the searchers if asked."""
    items = []
    for name in games:
        game = get_game(name)
        registry = game.policies()
        known = [p.name for p in registry.all()] if registry is not None else [game.default_policy]
        chosen = known + list(game.searchers()) * searchers if policies is None else \
            [p for p in policies if p in known or p in game.searchers()]
        cells = [dict(w.settings) for w in game.workloads] or [game.settings_from_options({})]
        for policy in chosen:
            for settings in cells:
                cell = {**settings, "policy": policy}
                try:
                    game.check_settings(cell)
                except ValueError:
                    continue
                items.append(Item(name, policy, cell))
                break
    return items


def estimate_cpu_s(items: list[Item]) -> float | None:
    """CPU seconds (quiet 2-core machine) to compile ``items`` when nothing is cached yet: each game's first kind of
    play at its :attr:`~dsim.games.base.Game.compile_cpu_s` first figure, each further one at its second; ``None``
    when a game has no figure."""
    total, seen = 0.0, set()
    for item in items:
        figures = get_game(item.game).compile_cpu_s
        if figures is None:
            return None
        total += figures[item.game in seen]
        seen.add(item.game)
    return total


def compile_item(item: Item) -> tuple[float, float]:
    """Play one play of ``item`` (compiling or loading its kernel): the seconds it took and those spent compiling."""
    from dsim import compile_notice

    before = compile_notice.seconds_compiling()
    start = time.perf_counter()
    get_game(item.game).play(item.settings, seed=0, stream=0, start=0, count=1)
    return time.perf_counter() - start, compile_notice.seconds_compiling() - before


def warm(
    game: Annotated[str | None, typer.Option(
        "--game", help="Comma-separated games to compile for (default: every game; `dsim games`).")] = None,
    policy: Annotated[str | None, typer.Option(
        "--policy", help="Comma-separated policies (default: every scripted policy of each game).")] = None,
    searchers: Annotated[bool, typer.Option(
        "--searchers", help="Also the searching players (expert, oracle): their search entries.")] = False,
) -> None:
    """Compile ahead every kernel a run is likely to need (each game's bench workloads under each scripted
    policy), cached on disk: afterwards each run starts in about a second. It says up front how long the
    compiles take on a quiet 2-core machine (one to two minutes a game); kernels compiled already load at once."""
    games = listed("--game", game) if game is not None else game_names()
    unknown = [g for g in games if g not in game_names()]
    if unknown:
        fail(f"--game: unknown game {unknown[0]!r} (games: {', '.join(game_names())})")
    items = plan(games, listed("--policy", policy) if policy is not None else None, searchers)
    if not items:
        fail(f"--policy: none of {policy!r} is a policy of {', '.join(games)} (`dsim policies list --game NAME`)")
    from dsim import compile_notice

    compile_notice.announce(lambda line: err.print(line, markup=False, style="dim"), first_line=False)
    cpu_s = estimate_cpu_s(items)
    cost = "half a minute to a minute each" if cpu_s is None else compile_notice.estimate_text(cpu_s)
    err.print(f"Compiling ahead {len(items)} kinds of play for {len(games)} game(s): {cost} if none is cached yet, a "
              "second each once cached.", markup=False)
    rows = []
    with LoggedProgress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                        TimeElapsedColumn(), TimeRemainingColumn(), console=err, transient=True) as bar:
        task = bar.add_task("", total=len(items))
        for item in items:
            bar.update(task, description=item.label)
            seconds, compiling = compile_item(item)
            rows.append((item, seconds, "compiled" if compiling > 0 else "cached"))
            bar.advance(task)
    names = [("game", [r[0].game for r in rows]), ("policy", [r[0].policy for r in rows])]
    figures = [("seconds", [f"{r[1]:,.1f}" for r in rows]), ("kernel", [r[2] for r in rows])]
    console.print(squeezed("Compiled ahead (cached on disk for later runs)", names, figures, console.width))
