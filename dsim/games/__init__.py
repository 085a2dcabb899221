"""Registry of games by name, with lazy factories.

A game registers a zero-argument factory (``register_game("dstbg", make_game)``); the factory
runs on the first :func:`get_game` call only, so importing ``dsim`` never compiles or even
imports a Numba kernel. Games living outside ``dsim`` register themselves when their module
is imported; :func:`load_game` imports such a module first: only one the user named on the command line
(``--game-module``), never one a file names. Sweep tasks carry it, which is how Dask workers find them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from dsim.games.base import Game

DEFAULT_GAME = "dstbg"  # what --game means when not given


def listing(game: str) -> str:
    """``dsim variants list``, with ``--game NAME`` for any game but the default (for hints in error messages)."""
    return "dsim variants list" + ("" if game == DEFAULT_GAME else f" --game {game}")


_FACTORIES: dict[str, Callable[[], Game]] = {}
_INSTANCES: dict[str, Game] = {}


def register_game(name: str, factory: Callable[[], Game]) -> None:
    """Make ``name`` available to :func:`get_game`; re-registering replaces the factory."""
    _FACTORIES[name] = factory
    _INSTANCES.pop(name, None)


def game_names() -> list[str]:
    """Names of all registered games, sorted."""
    return sorted(_FACTORIES)


def get_game(name: str) -> Game:
    """The game registered as ``name`` (built once, then cached); ``KeyError`` with the known names."""
    if name not in _INSTANCES:
        if name not in _FACTORIES:
            known = ", ".join(game_names()) or "none"
            raise KeyError(f"unknown game {name!r} (registered games: {known})")
        _INSTANCES[name] = _FACTORIES[name]()
    return _INSTANCES[name]


def load_game(name: str, module: str | None = None) -> Game:
    """Import ``module`` (if given: only a module the user named, never one read from a file) so it can register its
    games, then return game ``name``."""
    if module is not None:
        importlib.import_module(module)
    return get_game(name)


def _make_dstbg() -> Game:
    from dsim.games.dstbg.game import DSTBG

    return DSTBG()


register_game("dstbg", _make_dstbg)


def _make_bloodborne() -> Game:
    from dsim.games.bloodborne.game import Bloodborne

    return Bloodborne()


register_game("bloodborne", _make_bloodborne)


def _make_dark_maiden() -> Game:
    from dsim.games.dark_maiden.game import DarkMaiden

    return DarkMaiden()


register_game("dark_maiden", _make_dark_maiden)


def _make_dstbg_game() -> Game:
    from dsim.games.dstbg.whole.game import DSTBGGame

    return DSTBGGame()


register_game("dstbg_game", _make_dstbg_game)
