"""The rules of a DS:TBG game played whole (R-1, R-5, R-6, R-8.4–R-8.7, R-12.27, R-13), one module per phase:
``setup`` (R-1), ``exploration`` (the route, a tile's battle, souls and defeat), ``bonfire`` (resting, buying,
levelling, upgrades), ``boss`` (the boss fights and the next area); ``treasure`` (the party's cards and the deck) and
``state`` (buffers, log, options, the strategy's call) serve them all; ``play`` holds the game loop and the entries.

The state machine of R-6.6. Battles are played by the battle kernel (``dsim.games.dstbg.kernel``) on tables
whose scenario vector the game fills before each battle (gear, tokens, first-activation token); every
choice between battles is the strategy's (hooks ``layout.GH_*``), every choice in a battle the battle
policy's. Game ``i`` draws only from ``battle_key(seed, stream, i)``; its battle ``k`` from a key of that
and ``k``: results do not depend on threads or pieces.
"""

from dsim.games.dstbg_game.kernel.jit import GAME_CACHE_DIR, GAME_SOURCES
from dsim.games.dstbg_game.kernel.replay import game_log_len
from dsim.games.dstbg_game.kernel.play import (STEP_AREA_WON, STEP_BONFIRE, STEP_BOSS, STEP_DEAL, STEP_DEFEAT,
                                               STEP_DRAW, STEP_EXPLORE, STEP_REST, STEP_ROUTE, STEP_SETUP, STEP_SPEND,
                                               STEP_UPGRADE, REPLAY_INFO, play_batch_impl, play_one_impl,
                                               replay_impl, rollouts_impl, step_impl)
from dsim.games.dstbg_game.kernel.state import (C_BATTLES, C_DECK, C_EVENTS, C_STOP, BattleBuffers, Battles,
                                                GameState)

__all__ = ["GAME_CACHE_DIR", "GAME_SOURCES", "game_log_len", "STEP_AREA_WON", "STEP_BONFIRE", "STEP_BOSS", "STEP_DEAL", "STEP_DEFEAT",
           "STEP_DRAW", "STEP_EXPLORE", "STEP_REST", "STEP_ROUTE", "STEP_SETUP", "STEP_SPEND", "STEP_UPGRADE",
           "REPLAY_INFO", "play_batch_impl", "play_one_impl", "replay_impl", "rollouts_impl", "step_impl", "C_BATTLES", "C_DECK", "C_EVENTS", "C_STOP",
           "BattleBuffers", "Battles", "GameState"]
