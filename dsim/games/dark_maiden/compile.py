"""Loaded Dark Maiden data → the flat tables the kernel reads (named columns in :mod:`.kernel.layout`).

Faces become bit masks (bit f: face f succeeds). Every physical card gets a row of ``cards``: the level-1
deck, the level-2 and level-3 piles, then one row per copy of each boss (the boss pile, DM-2.5), then the two
special items (DM-2.9). Sites are in play order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.loader import DarkMaidenData

_HERO_SPECIALS = {None: L.HS_NONE, "strike_first_on_double": L.HS_STRIKE_FIRST, "reroll_on_double": L.HS_REROLL,
                  "grab_on_equal": L.HS_GRAB_EQUAL}
_UNIT_SPECIALS = {None: L.SP_NONE, "takes_mounts": L.SP_TAKES_MOUNTS, "draws_card": L.SP_DRAWS_CARD,
                  "reinforcements_on_red_1": L.SP_REINFORCEMENTS, "heals_by_damage": L.SP_HEALS}
_KINDS = {"go": L.K_GO, "precipice": L.K_PRECIPICE, "goblin": L.K_GOBLIN, "mount": L.K_MOUNT, "enemy": L.K_ENEMY}


class Tables(NamedTuple):
    """What the kernel knows of the data."""

    heroes: np.ndarray       # int32[heroes, HT_FIELDS]
    units: np.ndarray        # int32[enemies + bosses, U_FIELDS]
    mounts: np.ndarray       # int32[mounts, MT_FIELDS]
    goblins: np.ndarray      # int32[goblins, G_FIELDS]
    sites: np.ndarray        # int32[sites, S_FIELDS]
    cards: np.ndarray        # int32[cards, CD_FIELDS]
    site_bosses: np.ndarray  # int32[sites, MAX_SITE_BOSSES]: boss cards that enter at each site (-1: none)
    alt_bosses: np.ndarray   # int32[sites, MAX_SITE_BOSSES]: the alternate final bosses (Paladin, DM-9.5)


@dataclass(frozen=True)
class Compiled:
    """The tables plus the ids they index (for traces, options and reports)."""

    tables: Tables
    hero_ids: tuple[str, ...]
    unit_ids: tuple[str, ...]
    unit_names: tuple[str, ...]
    mount_ids: tuple[str, ...]
    goblin_ids: tuple[str, ...]
    site_ids: tuple[str, ...]
    site_names: tuple[str, ...]
    card_names: tuple[str, ...]
    difficulties: dict[str, tuple[int, str]]  # id → (lives, how items behave) (DM-2.6, DM-2.9)


def faces_mask(faces: Iterable[int]) -> int:
    """Bit ``f`` set for every face ``f``."""
    return sum(1 << f for f in set(faces))


def _rows(rows: list[list[int]], width: int) -> np.ndarray:
    return np.array(rows, np.int32).reshape(len(rows), width)


def compile_tables(data: DarkMaidenData) -> Compiled:
    """The kernel tables of a validated data set."""
    heroes = sorted(data.heroes.values(), key=lambda h: h.id)
    enemies = sorted(data.enemies.values(), key=lambda e: (e.level, e.id))
    bosses = sorted(data.bosses.values(), key=lambda b: b.id)
    mounts = sorted(data.mounts.values(), key=lambda m: (m.level, m.id))
    goblins = sorted(data.goblins.values(), key=lambda g: (g.level, g.id))
    sites = sorted(data.sites.values(), key=lambda s: s.order)
    unit_index = {e.id: k for k, e in enumerate([*enemies, *bosses])}
    mount_index = {m.id: k for k, m in enumerate(mounts)}
    goblin_index = {g.id: k for k, g in enumerate(goblins)}

    hero_rows = [[h.vitality, h.max_potions, faces_mask(h.success_faces), _HERO_SPECIALS[h.special]] for h in heroes]
    unit_rows = [[e.vitality, faces_mask(e.success_faces), e.armour, e.advance_points, _UNIT_SPECIALS[e.special], 0,
                  e.level] for e in enemies]
    unit_rows += [[b.vitality, faces_mask(b.success_faces), b.armour, b.sub_boss_points or 0,
                   _UNIT_SPECIALS[b.special], 1, 0] for b in bosses]
    mount_rows = [[m.vitality, faces_mask(m.attack_faces), m.damage, m.level] for m in mounts]
    goblin_rows = [[g.dice, faces_mask(g.potion_faces), faces_mask(g.steal_faces), faces_mask(g.heal_faces), g.level]
                   for g in goblins]

    cards: list[list[int]] = []
    names: list[str] = []
    piles = {p.level: p for p in data.piles.values()}
    for level in sorted(piles):  # DM-2.5: the level-1 deck, then the level-2 and level-3 piles
        for card in piles[level].cards:
            ref = {"goblin": goblin_index, "mount": mount_index, "enemy": unit_index}.get(card.kind, {}).get(card.ref, -1)
            cards += [[_KINDS[card.kind], ref, level]] * card.count
            names += [card.ref or card.kind] * card.count
    boss_cards: dict[str, list[int]] = {}
    for boss in bosses:  # the boss pile: one card per copy
        boss_cards[boss.id] = list(range(len(cards), len(cards) + boss.copies))
        cards += [[L.K_BOSS, unit_index[boss.id], L.PILE_BOSSES]] * boss.copies
        names += [boss.id] * boss.copies
    for k, item in enumerate(sorted(data.items.values(), key=lambda i: i.id)[: L.N_ITEMS]):  # DM-2.9
        cards.append([L.K_ITEM, k, L.PILE_ITEMS])
        names.append(item.id)

    site_bosses = np.full((len(sites), L.MAX_SITE_BOSSES), -1, np.int32)
    alt_bosses = np.full((len(sites), L.MAX_SITE_BOSSES), -1, np.int32)
    site_rows = []
    for k, site in enumerate(sites):
        for table, ids in ((site_bosses, site.bosses), (alt_bosses, site.alternate_bosses)):
            entering = [c for b in ids for c in boss_cards[b]][: L.MAX_SITE_BOSSES]
            table[k, : len(entering)] = entering
        next_pile = site.order if site.order in piles and site.order > 1 else 0  # DM-10.3: level N before site N
        site_rows.append([site.go_value, site.go_value if site.ability_go_value is None else site.ability_go_value,
                          site.advance_target, goblin_index[site.goblin] if site.goblin else -1, next_pile])

    tables = Tables(
        _rows(hero_rows, L.HT_FIELDS), _rows(unit_rows, L.U_FIELDS), _rows(mount_rows, L.MT_FIELDS),
        _rows(goblin_rows, L.G_FIELDS), _rows(site_rows, L.S_FIELDS), _rows(cards, L.CD_FIELDS),
        site_bosses, alt_bosses,
    )
    units = [*enemies, *bosses]
    return Compiled(tables, tuple(h.id for h in heroes), tuple(u.id for u in units), tuple(u.name for u in units),
                    tuple(m.id for m in mounts), tuple(g.id for g in goblins), tuple(s.id for s in sites),
                    tuple(s.name for s in sites), tuple(names),
                    {d.id: (d.lives, d.items) for d in data.difficulties.values()})
