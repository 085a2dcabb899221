"""A whole game's tables: every card of the treasure deck as an item instance, every encounter card and both
bosses as battle tables that share those instances, so equipment drawn mid-game really changes the next battle.

The battle kernel reads a character's gear as item-instance rows named in the scenario vector (``SC_EQUIP``);
the game kernel writes the cards its characters hold there before each battle. Encounter cards share one
enemy-type table (their programs stacked) and differ only in their scenario vector and walk distances.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from dsim.games.dstbg.compile import Compiled, ItemTables, compile_boss, compile_encounter, party_gear
from dsim.games.dstbg.house_rules import apply_house_rules
from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as BL
from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.variants import game_rules, split_variants
from dsim.text import unknown

STATS = ("strength", "dexterity", "intelligence", "faith")
TIER_4_VALUE = 40  # a tier-4 stat counts as 40 (campaign)
GROUPS = {"generic": G.GROUP_COMMON, "class": G.GROUP_CLASS, "transposed": G.GROUP_ADVANCED,
          "legendary": G.GROUP_LEGENDARY, "boss": G.GROUP_BOSS}


class GameTables(NamedTuple):
    """Compiled, read-only data of a whole game (the kernel's ``g``)."""

    cards: np.ndarray  # int32 (n_cards, K_FIELDS): every physical card of the game, starting kits first
    stats: np.ndarray  # int32 (MAX_CHARS, 4 stats, 5 tiers): stat values (R-3.10, tier 4 = R-13.9)
    kits: np.ndarray  # int32 (MAX_CHARS, N_SLOTS): starting cards per slot, -1 empty
    enc_scen: np.ndarray  # int32 (n_encounters, SC_LEN): each encounter card's scenario
    enc_dwalk: np.ndarray  # int32 (n_encounters, n, n): its walk distances around its terrain
    enc_info: np.ndarray  # int32 (n_encounters, 3): level, chests, gravestones
    area_levels: np.ndarray  # int32 (MAX_AREAS, MAX_TILES): each area's encounter levels, -1 pad
    area_bosses: np.ndarray  # int32 (MAX_AREAS, MAX_FIGHTS): the boss (battle table) of each fight closing it, -1 none
    upgraded: np.ndarray  # int32 (n_instances, n_upgrades): the instance of an item with one upgrade, -1 not allowed
    worth: np.ndarray  # int32 (n_instances, 2): attack and defence worth ×100 (option features)
    rules: np.ndarray  # int32 (N_RULES,): game readings (layout.V_*)
    numbers: np.ndarray  # int32 (N_NUMBERS,): campaign flag, legendary cards added, estus per rest


@dataclass(frozen=True)
class CompiledGame:
    """A whole game ready to play: its tables, the three battle tables and names for traces."""

    game: GameTables
    encounters: X.BossTables  # the encounter cards' shared battle tables (scenario filled per battle)
    bosses: tuple[X.BossTables, X.BossTables, X.BossTables]  # each boss's battle tables (the last repeated)
    party: tuple[str, ...]
    boss_ids: tuple[str, ...]  # the game's different bosses, by battle-table index
    areas: tuple[tuple[tuple[int, ...], tuple[str, ...]], ...]  # per area: its levels and its boss fights
    card_names: tuple[str, ...]  # per card: item id or "ember"
    item_ids: tuple[str, ...]  # per item instance
    line_names: tuple[str, ...]
    encounter_ids: tuple[str, ...]
    encounter_enemies: tuple[tuple[str, ...], ...]  # per encounter card: enemy id per slot
    boss_compiled: tuple[Compiled, ...]  # per boss, for traces of boss battles (names of enemies and cards)
    encounter_compiled: Compiled  # an encounter card's, for traces of tile battles (the tile's board)

    @property
    def arena(self) -> X.Tables:
        """The largest board among the bosses' (the main boss's joined tiles): its battle buffers fit every boss."""
        return max(self.bosses, key=lambda t: t.steps.shape[0])


def _worth(built: ItemTables, instance: int, faces: dict[str, list[int]]) -> tuple[int, int]:
    """(attack, defence) worth ×100 of an item instance: the best line's expected damage against block 1
    less half a point per stamina, and the mean block dice plus half the mean resist dice plus half a
    point per dodge die. Option features for strategies, never rule outcomes."""
    row = built.items[instance]
    attack = 0
    for j in range(row[BL.IT_LINE0], row[BL.IT_LINE0] + row[BL.IT_N_LINES]):
        line = built.lines[j]
        if line[BL.L_K] + line[BL.L_U] + line[BL.L_O] > 0:
            attack = max(attack, int(built.lstat[j][0, 1, 0]) - 50 * line[BL.L_STAMINA])
    means = [float(np.mean(faces[letter])) for letter in "KUO"]
    block = sum(n * m for n, m in zip(row[BL.IT_BLOCK_K:BL.IT_BLOCK_O + 1], means, strict=True))
    resist = sum(n * m for n, m in zip(row[BL.IT_RESIST_K:BL.IT_RESIST_O + 1], means, strict=True))
    return attack, int(round(100 * block + 50 * resist + 50 * row[BL.IT_DODGE]))


def _card_row(data: Any, item_id: str | None, group: int, built: ItemTables, instances: dict[str, int],
              faces: dict[str, list[int]]) -> list[int]:
    """One card's static row (``layout.K_*``); ``item_id`` None is an Ember card (R-3.8)."""
    row = [0] * G.K_FIELDS
    row[G.K_GROUP], row[G.K_SEAT], row[G.K_BOSS], row[G.K_ITEM], row[G.K_UPGRADE] = group, -1, -1, -1, -1
    if item_id is None:
        row[G.K_SLOT] = G.KIND_EMBER
        return row
    item = data.items[item_id]
    for s, stat in enumerate(STATS):
        row[G.K_REQ + s] = getattr(item.requirements, stat)
    row[G.K_UPGRADE] = -1
    row[G.K_UPGRADE_SLOTS] = item.upgrade_slots
    if item.kind in ("weapon_upgrade", "armour_upgrade"):
        row[G.K_SLOT] = G.KIND_UPGRADE
        return row
    if item_id not in instances:
        instances[item_id] = built.instance(item_id)
    row[G.K_ITEM] = instances[item_id]
    row[G.K_SLOT] = G.KIND_ARMOUR if item.kind == "armour" else (G.KIND_TWO_HANDS if item.hands == 2 else G.KIND_ONE_HAND)
    row[G.K_ATTACK], row[G.K_DEFENCE] = _worth(built, row[G.K_ITEM], faces)
    return row


def _upgrades(data: Any, cards: list[list[int]], names: list[str], built: ItemTables, instances: dict[str, int],
              faces: dict[str, list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Item instances with one upgrade card applied (R-4.7: weapon upgrades on hand items, armour upgrades on
    armour, an item with an upgrade slot), as a table base instance × upgrade column; and every instance's worth.
    The upgrade's line effects fold into the item's lines (``compile._upgraded_line``); an armour upgrade's
    effects on its wearer's attacks (scope self, e.g. Hornet Ring) are not applied to the weapons here."""
    upgrade_ids = sorted({names[k] for k, row in enumerate(cards) if row[G.K_SLOT] == G.KIND_UPGRADE})
    for k, row in enumerate(cards):
        if row[G.K_SLOT] == G.KIND_UPGRADE:
            row[G.K_UPGRADE] = upgrade_ids.index(names[k])
    bases = dict(instances)
    upgraded = np.full((len(built.items) + len(bases) * max(len(upgrade_ids), 1), max(len(upgrade_ids), 1)), -1,
                       np.int32)
    for item_id, base in sorted(bases.items(), key=lambda kv: kv[1]):
        item = data.items[item_id]
        if item.upgrade_slots < 1:
            continue
        for u, up_id in enumerate(upgrade_ids):
            wanted = "armour_upgrade" if item.kind == "armour" else "weapon_upgrade"
            if data.items[up_id].kind == wanted:
                upgraded[base, u] = built.instance(item_id, (up_id,))
    upgraded = np.ascontiguousarray(upgraded[: len(built.items)])
    worth = np.array([_worth(built, i, faces) for i in range(len(built.items))], np.int32).reshape(-1, 2)
    return upgraded, worth


def _union_encounters(compiled: list[Compiled]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Enemy types and programs of every encounter card in one table; each card's scenario and walk distances
    with its enemy types renumbered into it."""
    etypes, prog, scens, dwalks = [], [], [], []
    for comp in compiled:
        t = comp.tables
        et = t.etypes.copy()
        et[:, BL.ET_PROG] += sum(len(p) for p in prog)
        scen = t.scen.copy()
        offset = sum(len(e) for e in etypes)
        for e in range(scen[X.SC_N_ENEMIES]):
            scen[X.SC_ENEMY + 2 * e] += offset
        etypes.append(et)
        prog.append(t.prog)
        scens.append(scen)
        dwalks.append(t.dwalk0)
    return np.concatenate(etypes), np.concatenate(prog), np.stack(scens), np.stack(dwalks)


def standard_areas(data: Any, mini_boss: str, main_boss: str) -> list[tuple[list[int], list[str]]]:
    """R-1.1, R-1.6: the mini boss's area, then the main boss's, each with the levels its data card lists."""
    for boss_id, kind in ((mini_boss, "mini"), (main_boss, "main")):
        if boss_id not in data.bosses:
            raise ValueError(unknown("boss", boss_id, data.bosses))
        if data.bosses[boss_id].kind != kind:
            known = ", ".join(sorted(b for b, v in data.bosses.items() if v.kind == kind))
            raise ValueError(f"{boss_id!r} is not a {kind} boss (the {kind} bosses: {known})")
    return [(list(data.bosses[b].encounter_levels), [b]) for b in (mini_boss, main_boss)]


def compile_game(data: Any, party: list[str], areas: list[tuple[list[int], list[str]]],
                 variants: dict[str, Any] | None = None, house_rules: dict[str, Any] | None = None,
                 campaign: bool = False) -> CompiledGame:
    """Compile a whole game of ``party`` through ``areas`` (each: encounter levels and the boss fights closing it):
    the mini boss's and the main boss's (:func:`standard_areas`, R-1.1) or a campaign scenario's parts (R-13.10)."""
    if not 1 <= len(areas) <= G.MAX_AREAS:
        raise ValueError(f"a game has 1 to {G.MAX_AREAS} areas, got {len(areas)}")
    boss_ids = list(dict.fromkeys(b for _, fights in areas for b in fights))
    if len(boss_ids) > G.MAX_BOSSES or any(not 1 <= len(f) <= G.MAX_FIGHTS for _, f in areas):
        raise ValueError(f"a game has at most {G.MAX_BOSSES} different bosses and 1 to {G.MAX_FIGHTS} fights per area")
    battle_variants, game_variants = split_variants(variants)
    faces = {d.letter: list(d.faces) for d in data.dice.values()}
    built = ItemTables(data, faces)
    instances: dict[str, int] = {}
    cards: list[list[int]] = []
    names: list[str] = []
    kits = np.full((BL.MAX_CHARS, G.N_SLOTS), -1, np.int32)

    def add(item_id: str | None, group: int, seat: int = -1, boss: int = -1) -> int:
        row = _card_row(data, item_id, group, built, instances, faces)
        row[G.K_SEAT], row[G.K_BOSS] = seat, boss
        cards.append(row)
        names.append(item_id or "ember")
        return len(cards) - 1

    for seat, gear in enumerate(party_gear(data, party)):  # starting kits, equipped
        kits[seat, G.SLOT_ARMOUR] = add(gear.armour, G.GROUP_STARTER, seat)
        for h, item_id in enumerate(gear.hands[:2]):
            kits[seat, G.SLOT_HAND0 + h] = add(item_id, G.GROUP_STARTER, seat)
        for j, item_id in enumerate(gear.backup[:2]):
            kits[seat, G.SLOT_BACKUP0 + j] = add(item_id, G.GROUP_STARTER, seat)
    deck = data.treasure
    for item_id, item in sorted(data.items.items()):
        group = GROUPS.get(item.treasure)
        if group is None:
            continue
        seat, boss = -1, -1
        if group in (G.GROUP_CLASS, G.GROUP_ADVANCED):  # only the classes in play
            if item.class_of not in party:
                continue
            seat = party.index(item.class_of)
        if group == G.GROUP_BOSS:  # the treasure of the bosses of this game
            if item.boss_of not in boss_ids:
                continue
            boss = boss_ids.index(item.boss_of)
        for _ in range(deck.copies.get(item_id, 1)):
            add(item_id, group, seat, boss)
    for _ in range(deck.embers):  # Ember cards among the common treasure
        add(None, G.GROUP_EMBER)

    upgraded, worth = _upgrades(data, cards, names, built, instances, faces)
    stats = np.zeros((BL.MAX_CHARS, len(STATS), 5), np.int32)
    for seat, cid in enumerate(party):
        for s, stat in enumerate(STATS):
            stats[seat, s, :4] = getattr(data.characters[cid].stats, stat)
            stats[seat, s, 4] = TIER_4_VALUE
    item_table, line_table, lstat = built.arrays()

    def universal(comp: Compiled) -> Compiled:
        """A battle's tables with every card's item instance (the scenario's gear is set per battle)."""
        tables = comp.tables._replace(items=item_table, lines=line_table, lstat=lstat)
        comp = dataclasses.replace(comp, tables=tables, item_ids=tuple(built.item_ids), line_names=tuple(built.line_names))
        return apply_house_rules(comp, house_rules)

    enc_ids = sorted(data.encounters)
    enc_compiled = [universal(compile_encounter(data, party, eid, battle_variants)) for eid in enc_ids]
    etypes, prog, enc_scen, enc_dwalk = _union_encounters(enc_compiled)
    encounters = X.BossTables(*enc_compiled[0].tables._replace(  # one kernel plays encounters and bosses
        etypes=etypes, prog=prog, scen=enc_scen[0].copy(), dwalk0=enc_dwalk[0].copy()))
    enc_info = np.array([[e.level, (e.terrain_1 == "chest") + (e.terrain_2 == "chest"),
                          (e.terrain_1 == "gravestone") + (e.terrain_2 == "gravestone")]
                         for e in (data.encounters[i] for i in enc_ids)], np.int32).reshape(-1, 3)
    bosses = tuple(universal(compile_boss(data, party, b, 0, battle_variants)) for b in boss_ids)
    area_levels = np.full((G.MAX_AREAS, G.MAX_TILES), -1, np.int32)
    area_bosses = np.full((G.MAX_AREAS, G.MAX_FIGHTS), -1, np.int32)
    for a, (levels, fights) in enumerate(areas):
        levels = sorted(levels)[: G.MAX_TILES]  # lower levels nearer the bonfire
        area_levels[a, : len(levels)] = levels
        area_bosses[a, : len(fights)] = [boss_ids.index(b) for b in fights]
    numbers = np.zeros(G.N_NUMBERS, np.int32)
    numbers[G.N_CAMPAIGN] = int(campaign)
    numbers[G.N_LEGENDARY] = deck.legendary_added
    numbers[G.N_ESTUS] = encounters.scen[X.SC_ESTUS]
    numbers[G.N_AREAS] = len(areas)
    game = GameTables(np.array(cards, np.int32).reshape(-1, G.K_FIELDS), stats, kits, enc_scen, enc_dwalk, enc_info,
                      area_levels, area_bosses, upgraded, worth, game_rules(game_variants), numbers)
    return CompiledGame(
        game, encounters, tuple(bosses[min(k, len(bosses) - 1)].tables for k in range(G.MAX_BOSSES)), tuple(party),
        tuple(boss_ids), tuple((tuple(levels), tuple(fights)) for levels, fights in areas), tuple(names),
        tuple(built.item_ids), tuple(built.line_names), tuple(enc_ids), tuple(c.enemy_ids for c in enc_compiled),
        bosses, enc_compiled[0],
    )
