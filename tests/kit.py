"""Single-rule test kit: a hand-placed position, forced dice and scripted player choices.

``scene(...)`` compiles a cell and returns a :class:`Position` to place figures on; ``play(...)``
plays on from it with the dice given (used first, then the seeded stream) and the scripted
policy, and returns the battle buffers with the trace as event dicts (each with the state after
it). Hooks not in the script take option 0 (the "first listed" answer the kernel documents).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from dsim.games.dstbg import engine
from dsim.games.dstbg.compile import Compiled, compile_boss, compile_encounter
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.loader import load_game_data
from dsim.games.dstbg.policy import POLICY_SIG
from dsim.games.dstbg.position import Position
from dsim.games.dstbg.trace import events

SCRIPT_LEN = L.H_DODGE_MOVE + 1
_DATA: dict[str, Any] = {}


@njit(POLICY_SIG, cache=True)
def scripted(hook, n, battle):
    """Option ``params[hook]`` when the script sets it (clipped to the options offered), else 0."""
    choice = battle.params[hook]
    if choice < 0:
        return 0
    return min(int(choice), n - 1)


def script(**choices: int) -> np.ndarray:
    """Parameter vector of :func:`scripted`: ``script(H_DEFENCE=1)`` always dodges."""
    params = np.full(SCRIPT_LEN, -1.0)
    for name, option in choices.items():
        params[getattr(L, name)] = option
    return params


def data():
    """The shipped core-set data (loaded once per test session)."""
    if "core" not in _DATA:
        _DATA["core"] = load_game_data()
    return _DATA["core"]


def scene(party: list[str], encounter: str | None = None, boss: str | None = None,
          variants: dict[str, Any] | None = None) -> Position:
    """An empty position for the party against an encounter's enemies or a boss (nobody placed yet)."""
    if boss is not None:
        comp = compile_boss(data(), party, boss, 0, variants)
    else:
        comp = compile_encounter(data(), party, encounter, variants)
    return Position(comp)


def play(pos: Position, forced: list[int] | tuple[int, ...] = (), seed: int = 0,
         **choices: int) -> tuple[Any, list[dict[str, Any]]]:
    """Play on from ``pos`` with ``forced`` dice and scripted choices; (battle buffers, trace events)."""
    comp: Compiled = pos.comp
    b = engine.play_from(comp.tables, scripted, script(**choices), pos.state(), seed,
                         np.asarray(forced, np.int32))
    return b, events(b, comp)


def first(evs: list[dict[str, Any]], event: str, **match: Any) -> dict[str, Any]:
    """The first event of kind ``event`` whose fields equal ``match``."""
    for ev in evs:
        if ev["event"] == event and all(ev.get(k) == v for k, v in match.items()):
            return ev
    raise AssertionError(f"no {event!r} event with {match} in the trace")
