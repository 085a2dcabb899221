"""Games by name: a lookup table of lazy factories that knows no game.

A game registers a zero-argument factory (``register_game("mygame", make_game)``); the factory runs on the
first :func:`get_game` call only, so a lookup never compiles or even imports a Numba kernel. The built-in
games register themselves from their catalogue (:data:`BUILTIN_CATALOGUE`, the ``dsim.games`` package),
which the table imports by name the first time it is consulted, exactly as it imports an outside game's
module (:func:`load_game`: only a module the user named on the command line, ``--game-module``, never one a file
names; sweep tasks carry it, which is how Dask workers find such games): shared
modules (sweeps, executors, benchmarks) find games here without importing any game's code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dsim.games.base import Game

BUILTIN_CATALOGUE = "dsim.games"  # the module whose import registers the built-in games

_FACTORIES: dict[str, Callable[[], Game]] = {}
_INSTANCES: dict[str, Game] = {}


def register_game(name: str, factory: Callable[[], Game]) -> None:
    """Make ``name`` available to :func:`get_game`; re-registering replaces the factory."""
    _FACTORIES[name] = factory
    _INSTANCES.pop(name, None)


def _with_builtins() -> dict[str, Callable[[], Game]]:
    """The factories, after the built-in catalogue has registered its games (an import Python does once)."""
    importlib.import_module(BUILTIN_CATALOGUE)
    return _FACTORIES


def game_names() -> list[str]:
    """Names of all registered games, sorted."""
    return sorted(_with_builtins())


def get_game(name: str) -> Game:
    """The game registered as ``name`` (built once, then cached); ``KeyError`` with the known names."""
    if name not in _INSTANCES:
        factories = _with_builtins()
        if name not in factories:
            known = ", ".join(game_names()) or "none"
            raise KeyError(f"unknown game {name!r} (registered games: {known})")
        _INSTANCES[name] = factories[name]()
    return _INSTANCES[name]


def load_game(name: str, module: str | None = None) -> Game:
    """Import ``module`` (if given: only a module the user named, never one read from a file) so it can register its
    games, then return game ``name``."""
    if module is not None:
        importlib.import_module(module)
    return get_game(name)
