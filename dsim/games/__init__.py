"""The built-in games' catalogue: each registers a lazy factory in :mod:`dsim.registry` (the lookup by name,
which knows no game). A factory imports its game only when the game is first asked for, so importing
``dsim.games`` (or the contract, ``dsim.games.base``) imports no game code and compiles nothing.

Only the command line and the registry (by name) read this module; a game never imports it, nor does any
shared module (``tests/test_import_graph.py``). The lookup functions are re-exported here for scripts and tests.
"""

from __future__ import annotations

from dsim.games.base import Game
from dsim.registry import game_names, get_game, load_game, register_game

__all__ = ["DEFAULT_GAME", "game_names", "get_game", "listing", "load_game", "register_game"]

DEFAULT_GAME = "dstbg"  # what --game means when not given


def listing(game: str) -> str:
    """``dsim variants list``, with ``--game NAME`` for any game but the default (for hints in error messages)."""
    return "dsim variants list" + ("" if game == DEFAULT_GAME else f" --game {game}")


def _make_dstbg() -> Game:
    from dsim.games.dstbg.game import DSTBG

    return DSTBG()


def _make_bloodborne() -> Game:
    from dsim.games.bloodborne.game import Bloodborne

    return Bloodborne()


def _make_dark_maiden() -> Game:
    from dsim.games.dark_maiden.game import DarkMaiden

    return DarkMaiden()


def _make_dstbg_game() -> Game:
    from dsim.games.dstbg_game.game import DSTBGGame

    return DSTBGGame()


register_game("dstbg", _make_dstbg)
register_game("bloodborne", _make_bloodborne)
register_game("dark_maiden", _make_dark_maiden)
register_game("dstbg_game", _make_dstbg_game)
