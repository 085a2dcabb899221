"""Hand-placed battle states: put each figure, cube and token where a rule question needs it.

A :class:`Position` starts from a compiled cell (party, enemies, equipment and terrain of its
encounter or boss) with every figure off the board, fresh cubes and tokens; the caller places
figures on nodes (by id or by ``(row, col)``) and sets what the scenario needs. Then
:func:`dsim.games.dstbg.engine.play_from` plays on from it with forced dice and a trace — the
form of the single-rule tests: one small scene, forced dice, the resulting state checked.
"""

from __future__ import annotations

import numpy as np

from dsim.games.dstbg.compile import Compiled
from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L

Node = int | tuple[int, int]


class Position:
    """A battle state under construction; methods return ``self`` so calls chain."""

    def __init__(self, comp: Compiled) -> None:
        self.comp = comp
        sc = comp.tables.scen
        self.st = np.zeros(L.STATE_LEN, np.int32)
        self.glob, self.chars, self.enemies, self.nodes, self.cards, self.known = L.state_views(self.st)
        self.known[:] = -1  # the players have seen no behaviour card yet
        self.glob[L.G_N_CHARS] = sc[X.SC_N_CHARS]
        self.glob[L.G_N_ENEMIES] = sc[X.SC_N_ENEMIES]
        self.glob[L.G_N_NODES] = sc[X.SC_N_NODES]
        self.glob[L.G_IS_BOSS] = sc[X.SC_IS_BOSS]
        self.glob[L.G_AGGRO] = 0
        self.glob[L.G_ACTIVE] = -1
        self.glob[L.G_HEATUP_ROUND] = -1
        for n in range(sc[X.SC_N_NODES]):
            self.nodes[n, L.N_TERRAIN] = sc[X.SC_TERRAIN + n]
            self.nodes[n, L.N_TRAP] = -1
        for c in range(sc[X.SC_N_CHARS]):
            for j, field in enumerate((L.C_ARMOUR, L.C_HAND0, L.C_HAND1, L.C_BACKUP0, L.C_BACKUP1)):
                self.chars[c, field] = sc[X.SC_EQUIP + 5 * c + j]
            for field in (L.C_ALIVE, L.C_LUCK, L.C_HEROIC):
                self.chars[c, field] = 1
            self.chars[c, L.C_ESTUS] = sc[X.SC_ESTUS]
            self.chars[c, L.C_POS] = -1
        for e in range(sc[X.SC_N_ENEMIES]):
            self.enemies[e, L.E_TYPE] = sc[X.SC_ENEMY + 2 * e]
            self.enemies[e, L.E_POS] = -1
            self.enemies[e, L.E_ALIVE] = 1
            self.enemies[e, L.E_FACING] = max(int(sc[X.SC_BOSS_FACING]), 0)
        if sc[X.SC_IS_BOSS] == 1:  # default deck: the standard cards in table order (R-12.5 without the shuffle)
            cards = comp.tables.cards
            self.deck([k for k in range(cards.shape[0]) if cards[k, X.CARD_HEATUP] == 0][: sc[X.SC_DECK_SIZE]])

    def node(self, where: Node) -> int:
        """Node id of ``where``: an id, or ``(row, col)`` on the board grid."""
        return self.comp.board.node(*where) if isinstance(where, tuple) else int(where)

    def char(self, c: int | str, at: Node | None = None, *, stamina: int | None = None, damage: int | None = None,
             conditions: int | None = None, estus: int | None = None, luck: int | None = None,
             heroic: int | None = None, side: int | None = None, alive: int | None = None) -> Position:
        """Place character ``c`` (index or id) and set its cubes (R-3.2), ``conditions`` (``COND_*`` bits)
        and tokens; ``side`` is the boss-base side it stands at inside a boss's node (direction + 1)."""
        c = self.comp.char_ids.index(c) if isinstance(c, str) else c
        values = {L.C_POS: None if at is None else self.node(at), L.C_STAMINA: stamina, L.C_DAMAGE: damage,
                  L.C_COND: conditions, L.C_ESTUS: estus, L.C_LUCK: luck, L.C_HEROIC: heroic, L.C_ARC: side,
                  L.C_ALIVE: alive}
        for field, value in values.items():
            if value is not None:
                self.chars[c, field] = value
        return self

    def enemy(self, e: int, at: Node | None = None, *, wounds: int | None = None, conditions: int | None = None,
              facing: int | None = None, alive: int | None = None) -> Position:
        """Place enemy slot ``e`` (placing brings it back if removed) and set its wounds, conditions and
        (bosses) facing direction."""
        if at is not None and alive is None:
            alive = 1
        values = {L.E_POS: None if at is None else self.node(at), L.E_WOUNDS: wounds, L.E_COND: conditions,
                  L.E_FACING: facing, L.E_ALIVE: alive}
        for field, value in values.items():
            if value is not None:
                self.enemies[e, field] = value
        return self

    def remove_enemy(self, e: int) -> Position:
        """Take enemy slot ``e`` out of the battle (it counts as neither alive nor on the board)."""
        return self.enemy(e, alive=0)

    def terrain(self, at: Node, kind: int, trap: int | None = None) -> Position:
        """Put ``TERRAIN_*`` ``kind`` on a node, and a face-down trap token (−1 none, 0 blank, k damage)."""
        n = self.node(at)
        self.nodes[n, L.N_TERRAIN] = kind
        if trap is not None:
            self.nodes[n, L.N_TRAP] = trap
        return self

    def tokens(self, *, aggro: int | None = None, next_char: int | None = None, round: int | None = None,
               heated: int | None = None) -> Position:
        """Aggro holder, the character whose turn is next, the round just finished, heat-up reached."""
        for field, value in ((L.G_AGGRO, aggro), (L.G_NEXT_CHAR, next_char), (L.G_ROUND, round), (L.G_HEATED, heated)):
            if value is not None:
                self.glob[field] = value
        return self

    def deck(self, cards: list[int], pos: int = 0, cycled: bool = False) -> Position:
        """The boss behaviour deck in draw order (card-table rows) and the next draw position; the players have seen
        the cards before it, or (``cycled``) the whole deck drawn once since it was built (R-12.7: it repeats)."""
        self.cards[:len(cards)] = cards
        self.glob[L.G_DECK_LEN] = len(cards)
        self.glob[L.G_DECK_POS] = pos
        seen = len(cards) if cycled else pos
        self.known[:seen] = cards[:seen]
        if cycled:
            self.glob[L.G_CARDS_DRAWN] = max(int(self.glob[L.G_CARDS_DRAWN]), len(cards))
        return self

    def state(self) -> np.ndarray:
        """A copy of the state vector."""
        return self.st.copy()
