"""Numba helpers shared by the whole-game strategies: where a card goes, what the souls buy, who takes an ember.

Everything reads only what ``decide`` receives (``views``: the game row, the party, the tiles and the option
rows), and each writes the reason for its answer to the game row's ``G_WHY`` (``WHY_*``: explain shows it).
Worth is the kernel's option feature (``layout.K_ATTACK``, ``K_DEFENCE``, ×100): a strategy weighs
attack against defence with its parameters. Option columns per hook: ``policies/dstbg_game/README.md``.
No helper makes an array: they compile without reference counting, as the strategies do.
"""

from __future__ import annotations

from pathlib import Path

from numba import njit

from dsim.games.dstbg_game import layout as G
from dsim.numba_cache import cache_folder, cache_under

_HERE = Path(__file__).resolve()
with cache_under(cache_folder("dstbg-strategy-common", [_HERE, Path(G.__file__).resolve()], _HERE.parent / "__pycache__")):

    @njit(cache=True, _nrt=False)
    def first_of(opts, n, kind):
        """The first option row of ``kind``, -1 if there is none."""
        for i in range(n):
            if opts[i, G.O_KIND] == kind:
                return i
        return -1

    @njit(cache=True, _nrt=False)
    def best_place(opts, n, attack_weight, defence_weight, margin):
        """D-9, D-12: the slot whose weighted worth gain is largest and above ``margin`` (×100 worth), else the
        inventory (row 0). A backup slot is worth a little, so a spare weapon is kept at hand."""
        best, value = 0, margin
        for i in range(1, n):
            row = opts[i]
            if row[G.O_KIND] != G.OPT_EQUIP:
                continue
            if row[G.O_ARG] >= G.SLOT_BACKUP0:
                gain = 1.0
            else:
                gain = attack_weight * (row[G.O_ATTACK] - row[G.O_OLD_ATTACK]) + \
                    defence_weight * (row[G.O_DEFENCE] - row[G.O_OLD_DEFENCE])
            if gain > value:
                best, value = i, gain
        return best

    @njit(cache=True, _nrt=False)
    def best_upgrade(opts, n, attack_weight, defence_weight):
        """D-9, R-4.7: the item whose weighted worth the upgrade raises most (held items before the inventory's
        on ties), else none (row 0)."""
        best, value = 0, 0.0
        for i in range(1, n):
            row = opts[i]
            gain = attack_weight * (row[G.O_ATTACK] - row[G.O_OLD_ATTACK]) + \
                defence_weight * (row[G.O_DEFENCE] - row[G.O_OLD_DEFENCE])
            gain += 0.5 if row[G.O_SEAT] >= 0 else 0.0
            if gain > value:
                best, value = i, gain
        return best

    @njit(cache=True, _nrt=False)
    def spend(game, opts, n, reserve, attack_weight, defence_weight, level_margin, luck):
        """D-13: first a level toward an inventory card worth ``level_margin`` or more per tier it still needs,
        then the luck tokens (if ``luck``), then treasure while the souls left stay at or above ``reserve``;
        else stop."""
        souls = game[G.G_SOULS]
        best, value = -1, level_margin
        for i in range(n):
            row = opts[i]
            if row[G.O_KIND] == G.OPT_LEVEL and row[G.O_CARD] >= 0:
                gain = (attack_weight * row[G.O_ATTACK] + defence_weight * row[G.O_DEFENCE]) / max(row[G.O_LEVEL], 1)
                if gain >= value:
                    best, value = i, gain
        if best >= 0:
            game[G.G_WHY] = G.WHY_LEVEL
            return best
        if luck:
            k = first_of(opts, n, G.OPT_LUCK)
            if k >= 0:
                game[G.G_WHY] = G.WHY_LUCK
                return k
        k = first_of(opts, n, G.OPT_BUY)
        if k >= 0 and souls - opts[k, G.O_COST] >= reserve:
            game[G.G_WHY] = G.WHY_BUY
            return k
        return 0

    @njit(cache=True, _nrt=False)
    def spend_by_improvement(game, party, opts, n, reserve, attack_weight, defence_weight, level_margin):
        """D-13, as a veteran shops: first the used luck tokens (1 soul each, R-5.8: they are the boss's), then a
        level toward the inventory card that improves its character's kit most per tier it still needs (attack
        over the best hand held, defence over half the kit's), if worth ``level_margin`` or more, then treasure
        while the souls left stay at or above ``reserve``; else stop."""
        k = first_of(opts, n, G.OPT_LUCK)
        if k >= 0:
            game[G.G_WHY] = G.WHY_LUCK
            return k
        best, value = -1, level_margin
        for i in range(n):
            row = opts[i]
            if row[G.O_KIND] == G.OPT_LEVEL and row[G.O_CARD] >= 0:
                p = party[row[G.O_SEAT]]
                gain = attack_weight * max(row[G.O_ATTACK] - p[G.P_ATTACK], 0) + \
                    defence_weight * max(row[G.O_DEFENCE] - p[G.P_DEFENCE] // 2, 0)
                gain /= max(row[G.O_LEVEL], 1)
                if gain >= value:
                    best, value = i, gain
        if best >= 0:
            game[G.G_WHY] = G.WHY_LEVEL
            return best
        k = first_of(opts, n, G.OPT_BUY)
        if k >= 0 and game[G.G_SOULS] - opts[k, G.O_COST] >= reserve:
            game[G.G_WHY] = G.WHY_BUY
            return k
        return 0

    @njit(cache=True, _nrt=False)
    def ready_for_boss(game, party):
        """Every character holds its full estus, its luck and its heroic action (only a rest readies them, R-5.9)."""
        for c in range(game[G.G_N_CHARS]):
            p = party[c]
            if p[G.P_LUCK] == 0 or p[G.P_HEROIC] == 0:
                return False
        return estus_left(game, party) >= game[G.G_N_CHARS]

    @njit(cache=True, _nrt=False)
    def ember_seat(party, opts, n):
        """D-11: the ember to the character with the least defence (the one hurt most by big hits)."""
        best, low = 0, 1 << 30
        for i in range(n):
            d = party[opts[i, G.O_SEAT], G.P_DEFENCE]
            if d < low:
                best, low = i, d
        return best

    @njit(cache=True, _nrt=False)
    def estus_left(game, party):
        """Estus uses left in the party."""
        total = 0
        for c in range(game[G.G_N_CHARS]):
            total += party[c, G.P_ESTUS]
        return total

    @njit(cache=True, _nrt=False)
    def wounded(game, party, cubes):
        """Whether a character carries at least ``cubes`` red cubes out of a retreat (campaign, R-13.4) with its
        estus spent: only the estus removes them before a battle ends (R-3.5, R-8.7), and a rest refills it."""
        for c in range(game[G.G_N_CHARS]):
            if party[c, G.P_DAMAGE] >= cubes and party[c, G.P_ESTUS] == 0:
                return True
        return False

    @njit(cache=True, _nrt=False)
    def explore_lowest(opts, n):
        """D-6: the reachable face-down tile of the lowest level, -1 if none."""
        best, level = -1, 1 << 30
        for i in range(n):
            if opts[i, G.O_KIND] == G.OPT_EXPLORE and opts[i, G.O_LEVEL] < level:
                best, level = i, opts[i, G.O_LEVEL]
        return best

    @njit(cache=True, _nrt=False)
    def explore_then(game, opts, n, rest_why, boss_why):
        """D-6, D-7: every face-down tile first (the lowest level first); then a rest when one is offered and
        wanted (``rest_why``, its reason ``WHY_*``; 0: not wanted); else the boss, for ``boss_why`` (row 0 when
        neither is offered). The reason goes to ``G_WHY`` for explain."""
        k = explore_lowest(opts, n)
        if k >= 0:
            game[G.G_WHY] = G.WHY_EXPLORE
            return k
        rest = first_of(opts, n, G.OPT_REST)
        if rest >= 0 and rest_why > 0:
            game[G.G_WHY] = rest_why
            return rest
        boss = first_of(opts, n, G.OPT_BOSS)
        if boss < 0:
            return 0
        game[G.G_WHY] = G.WHY_NOT_OFFERED if rest_why > 0 else boss_why
        return boss

    @njit(cache=True, _nrt=False)
    def explore_fog(tiles, opts, n):
        """D-6: the option that enters the fog-gate tile, else the first tile on the way, -1 if none."""
        first = -1
        for i in range(n):
            if opts[i, G.O_KIND] == G.OPT_EXPLORE:
                if tiles[opts[i, G.O_ARG], G.TL_FOG] == 1:
                    return i
                if first < 0:
                    first = i
        return first

    @njit(cache=True, _nrt=False)
    def best_pick(opts, n, attack_weight, defence_weight):
        """House rule tiny_shop: the card that improves its nearest user's kit most (attack over its best hand,
        defence as added), per tier it still needs plus one; a card nobody can ever use comes last."""
        best, value = 0, -1.0
        for i in range(n):
            row = opts[i]
            if row[G.O_SEAT] < 0:
                continue
            gain = attack_weight * max(row[G.O_ATTACK] - row[G.O_OLD_ATTACK], 0) + defence_weight * row[G.O_DEFENCE]
            gain /= 1.0 + row[G.O_LEVEL]
            if gain > value:
                best, value = i, gain
        return best

    @njit(cache=True, _nrt=False)
    def between_battles(hook, game, party, opts, n, reserve, attack_weight, defence_weight, level_margin, luck,
                        equip_margin, heal_at):
        """The answers the scripted strategies share: every hook but the route, and on the route a rest when a
        campaign retreat's wounds need the estus refilled; -1 leaves the route to the strategy."""
        if hook == G.GH_PLACE:
            k = best_place(opts, n, attack_weight, defence_weight, equip_margin)
            game[G.G_WHY] = G.WHY_EQUIP if k > 0 else G.WHY_INVENTORY
            return k
        if hook == G.GH_SPEND:
            return spend(game, opts, n, reserve, attack_weight, defence_weight, level_margin, luck)
        if hook == G.GH_EMBER:
            return ember_seat(party, opts, n)
        if hook == G.GH_CHEST:
            return max(first_of(opts, n, G.OPT_OPEN), 0)
        if hook == G.GH_UPGRADE:
            return best_upgrade(opts, n, attack_weight, defence_weight)
        if hook == G.GH_PICK:
            return best_pick(opts, n, attack_weight, defence_weight)
        rest = first_of(opts, n, G.OPT_REST)
        if rest >= 0 and wounded(game, party, heal_at):  # campaign: refill the estus a retreat's wounds need
            game[G.G_WHY] = G.WHY_REST_WOUNDS
            return rest
        return -1
