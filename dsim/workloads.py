"""The fixed cells ``dsim bench`` and ``python -m dsim.instructions`` measure: every registered game's workloads.

Below both measuring modules, so neither imports the other to find a workload.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

SEED = 1


class BenchError(Exception):
    """A benchmark could not be run or recorded (message is user-facing)."""


@dataclass(frozen=True)
class Workload:
    """A fixed cell to measure: its game, name, what it is, and its settings."""

    name: str
    description: str
    settings: dict[str, Any]
    game: str
    game_module: str | None = None  # imported first by the measuring process (a game outside dsim)
    plays: int | None = None  # a searcher's workload: its plays, whatever --battles, and no no-JIT run


def all_workloads() -> tuple[Workload, ...]:
    """Every registered game's benchmark workloads."""
    from dsim.registry import game_names, get_game

    return tuple(Workload(w.name, w.description, w.settings, name, type(get_game(name)).__module__,
                          getattr(w, "plays", None))
                 for name in game_names() for w in get_game(name).workloads)


def select_workloads(patterns: Iterable[str] | None) -> list[Workload]:
    """The workloads whose names match any of ``patterns`` (shell globs); all when none are given."""
    patterns = [p.strip() for p in patterns or [] if p.strip()]
    workloads = all_workloads()
    if not patterns:
        return list(workloads)
    unmatched = [p for p in patterns if not any(fnmatch.fnmatchcase(w.name, p) for w in workloads)]
    if unmatched:
        names = ", ".join(w.name for w in workloads)
        raise BenchError(f"no workload matches {unmatched[0]!r} (workloads: {names})")
    return [w for w in workloads if any(fnmatch.fnmatchcase(w.name, p) for p in patterns)]


def unsupported(workload: Workload) -> str | None:
    """Why the game cannot play this workload (its settings fail the game's check), or ``None``."""
    from dsim.registry import load_game

    try:
        load_game(workload.game, workload.game_module).check_settings(workload.settings)
    except ValueError as exc:
        return str(exc)
    return None
