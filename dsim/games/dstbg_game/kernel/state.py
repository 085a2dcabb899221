"""A whole game's buffers (:class:`GameState`), the bundles its entries take (:class:`Battles`,
:class:`BattleBuffers`) and what every phase shares: the event log, the option rows and the strategy's call."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.kernel.jit import gk
from dsim.rng import draw_at


class GameState(NamedTuple):
    """Mutable buffers of one game."""

    pub: np.ndarray  # int32 (ROWS, WIDTH): game row, party rows, tile rows, option rows (layout.R_*)
    where: np.ndarray  # int32 (n_cards, W_FIELDS): where each card is
    deck: np.ndarray  # int32 (n_cards,): the treasure deck's draw pile, top last
    used: np.ndarray  # int32 (n_encounters,): 1 = dealt before
    rng: np.ndarray  # uint64 (2,): key, counter
    log: np.ndarray  # int32 (max_events, EV_FIELDS [+ SNAP_LEN in replays]), (0, EV_FIELDS) when off
    cursor: np.ndarray  # int32 (4,): events logged, battles fought, stop after this battle (-1 never), deck size
    out: np.ndarray  # int32 (N_OUT,): the game's outcome row, filled as it goes
    traps: np.ndarray  # int32 (MAX_TILES, TRAP_NODES): each tile's trap tokens as they lie, read only once the tile's
    # TL_TRAPS_SET says its battle wrote them (so setup and deal need not clear it); strategies see only pub


class Battles(NamedTuple):
    """The battle tables a game plays on; a thread's own copies, since each battle writes its scenario."""

    encounters: X.BossTables  # the encounter cards' shared tables (scenario and walk distances filled per battle)
    bosses: tuple[X.BossTables, ...]  # layout.MAX_BOSSES: each boss's (a game of fewer bosses repeats its last)


class BattleBuffers(NamedTuple):
    """The battle buffers a game plays in: ``tile`` fits an encounter's board, ``arena`` the largest boss's."""

    tile: X.Battle
    arena: X.Battle


C_EVENTS = 0
C_BATTLES = 1
C_STOP = 2
C_DECK = 3


@gk
def glog(s, ev: int, a: int, b: int, c: int, d: int) -> None:
    """Record one game event when the log is on; a log wide enough (replays) also keeps the game, party and
    tile rows as they are after the event (``layout.SNAP_LEN``)."""
    k = s.cursor[C_EVENTS]
    if k < s.log.shape[0]:
        row = s.log[k]
        row[0], row[1], row[2], row[3], row[4], row[5] = ev, a, b, c, d, s.cursor[C_BATTLES]
        if row.shape[0] >= G.EV_FIELDS + G.SNAP_LEN:
            for r in range(G.R_OPTS):
                for col in range(G.WIDTH):
                    row[G.EV_FIELDS + r * G.WIDTH + col] = s.pub[r, col]
        s.cursor[C_EVENTS] = k + 1


@gk
def opt(s, i: int, kind: int, seat: int, arg: int, cost: int, card: int, attack: int, defence: int,
        old_attack: int, old_defence: int, level: int) -> None:
    """Fill option row ``i`` (columns ``layout.O_*``)."""
    row = s.pub[G.R_OPTS + i]
    row[G.O_KIND], row[G.O_SEAT], row[G.O_ARG], row[G.O_COST], row[G.O_CARD] = kind, seat, arg, cost, card
    row[G.O_ATTACK], row[G.O_DEFENCE], row[G.O_OLD_ATTACK], row[G.O_OLD_DEFENCE] = attack, defence, old_attack, old_defence
    row[G.O_LEVEL] = level


@gk
def ask(s, strategy, params, hook: int, n: int) -> int:
    """The strategy's choice among ``n`` option rows (an answer out of range counts as row 0); the reason it may
    give (``G_WHY``) is cleared first, so explain never shows an older question's."""
    game = s.pub[G.R_GAME]
    game[G.G_WHY] = 0
    if n <= 1:
        return 0
    game[G.G_DECK_LEFT] = s.cursor[C_DECK]  # public: the deck's size (its order stays hidden)
    game[G.G_DECISIONS] += 1  # a nonce from the game's key and the decision count: the game's stream stays untouched
    game[G.G_NONCE] = np.int32(draw_at(s.rng, game[G.G_DECISIONS]) >> np.uint64(34))
    k = strategy(hook, s.pub, n, params)
    return k if 0 <= k < n else 0
