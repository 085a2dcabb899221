"""Validated game data → the flat int32 tables the kernel reads (design §1, §5).

One cell (party, encounter or boss, variants) compiles to a :class:`Compiled`: the kernel's
``Tables`` plus the names needed to render a trace. Nothing downstream of this module reads YAML.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from dataclasses import dataclass
from typing import Any

import numpy as np

from dsim.dice import Pool, dodge_pool, expected_damage_taken, pmf_array, survival_array
from dsim.games.dstbg import board as B
from dsim.games.dstbg.coverage import UPGRADE_LINE_EFFECTS
from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.schema import INF_RANGE
from dsim.games.dstbg.variants import variant_vector
from dsim.text import unknown

COND_BITS = {"bleed": L.COND_BLEED, "poison": L.COND_POISON, "frostbite": L.COND_FROSTBITE, "stagger": L.COND_STAGGER}
TERRAIN = {None: L.TERRAIN_NONE, "barrel": L.TERRAIN_BARREL, "chest": L.TERRAIN_CHEST, "gravestone": L.TERRAIN_GRAVESTONE}
HEROIC = {
    "backstab": L.HEROIC_BACKSTAB,
    "perseverance": L.HEROIC_PERSEVERANCE,
    "knight_block_die": L.HEROIC_KNIGHT_BLOCK,
    "berserk_charge": L.HEROIC_BERSERK,
}
TARGETS = {"nearest": L.TGT_NEAREST, "aggro": L.TGT_AGGRO, "area": L.TGT_AREA, None: L.TGT_NONE}
WALL_ROWS = {"bottom": ("row", 4), "top": ("row", 0), "left": ("col", 0), "right": ("col", 4)}
DIE_LETTERS = "KUO"


@dataclass(frozen=True)
class Compiled:
    """A compiled cell: kernel tables and the names that make a trace readable."""

    tables: X.Tables
    board: B.Board
    char_ids: tuple[str, ...]
    enemy_ids: tuple[str, ...]  # per enemy slot
    item_ids: tuple[str, ...]  # per item instance
    line_names: tuple[str, ...]  # per attack line, e.g. "estoc #2"
    card_ids: tuple[str, ...] = ()  # boss behaviour cards, by card-table row


def _dice_counts(text: str) -> tuple[int, int, int]:
    return text.count("K"), text.count("U"), text.count("O")


def _range(value: Any) -> int:
    return INF_RANGE if value is None or value == "inf" else int(value)


def _cond_mask(conditions: list[str]) -> int:
    mask = 0
    for c in conditions:
        mask |= COND_BITS[c]
    return mask


def _item_flags(item: Any) -> int:
    flags = 0
    for eff in item.effects:
        if eff.kind == "immune_condition":
            flags |= {"poison": L.ITF_IMMUNE_POISON, "bleed": L.ITF_IMMUNE_BLEED, "frostbite": L.ITF_IMMUNE_FROSTBITE}.get(
                eff.condition or "", 0
            )
        elif eff.kind == "ignore_attack_push":
            flags |= L.ITF_IGNORE_ATTACK_PUSH
        elif eff.kind == "cannot_dodge_or_run":
            flags |= L.ITF_NO_DODGE_RUN
    return flags


def _support(line: Any) -> tuple[int, int, int]:
    """(kind, amount, scope) of a dice-less line's first gain effect (SUP_NONE if it has none)."""
    for eff in line.effects:
        if eff.kind in ("gain_stamina", "gain_health"):
            kind = L.SUP_STAMINA if eff.kind == "gain_stamina" else L.SUP_HEALTH
            scope = {"self": L.SCOPE_SELF, "all_in_range": L.SCOPE_ALL, "party": L.SCOPE_ALL}.get(eff.scope or "", L.SCOPE_ONE)
            return kind, int(eff.amount or 0), scope
    return L.SUP_NONE, 0, 0


def _line_stats(k: int, u: int, o: int, mod: int, faces: dict[str, list[int]]) -> np.ndarray:
    """E[damage]×100 and P(damage ≥ need)×1000 per weak-arc bonus and block/resist value."""
    return _line_stats_of(k, u, o, mod, tuple((letter, tuple(values)) for letter, values in sorted(faces.items()))).copy()


@lru_cache(maxsize=1024)
def _line_stats_of(k: int, u: int, o: int, mod: int, face_key: tuple[tuple[str, tuple[int, ...]], ...]) -> np.ndarray:
    """:func:`_line_stats` for hashable faces, memoised: a whole game compiles hundreds of item instances."""
    faces = {letter: list(values) for letter, values in face_key}
    out = np.zeros((2, X.LSTAT_THRESHOLDS, X.LSTAT_NEEDS), np.int32)
    if k + u + o == 0:
        return out
    for bonus in (0, 1):
        pool = Pool(counts=(("K", k + bonus), ("U", u), ("O", o)), modifier=mod)
        pmf = pmf_array(pool, faces)
        totals = np.arange(pmf.size)
        for th in range(X.LSTAT_THRESHOLDS):
            dmg = np.maximum(totals - th, 0)
            out[bonus, th, 0] = int(round(100 * float(pmf @ dmg)))
            for need in range(1, X.LSTAT_NEEDS):
                out[bonus, th, need] = int(round(1000 * float(pmf[dmg >= need].sum())))
    return out


@lru_cache(maxsize=8)
def _defence_tables(faces: tuple[tuple[str, tuple[int, ...]], ...]) -> tuple[np.ndarray, np.ndarray]:
    """Exact option features of a defence, looked up by the kernel instead of convolving dice each time:
    E[damage taken]×100 blocking with (black, blue, orange) dice against each damage (R-9.5), and
    P(dodge symbols ≥ difficulty)×1000 by green dice."""
    face_map = {letter: list(values) for letter, values in faces}
    k_max, d_max = X.DEFENCE_DICE, X.DEFENCE_DAMAGE
    taken = np.zeros((k_max + 1, k_max + 1, k_max + 1, d_max + 1), np.int32)
    damages = np.arange(d_max + 1)
    for k in range(k_max + 1):
        for u in range(k_max + 1):
            for o in range(k_max + 1):
                pool = Pool(counts=tuple((c, n) for c, n in (("K", k), ("U", u), ("O", o)) if n))
                taken[k, u, o] = np.floor(100 * expected_damage_taken(pool, face_map, damages) + 0.5)
    difficulties = np.arange(X.DODGE_DIFFICULTY + 1)
    dodge = np.zeros((X.DEFENCE_DICE + 1, X.DODGE_DIFFICULTY + 1), np.int32)
    for g in range(X.DEFENCE_DICE + 1):
        p = survival_array(dodge_pool(g), face_map, difficulties)
        dodge[g] = np.floor(1000 * np.where(difficulties <= 0, 1.0, p) + 0.5)  # F-9.3: no dice never dodge
    return taken, dodge


def _wall_nodes(board: B.Board, wall: str, col_shift: int = 0) -> list[int]:
    axis, value = WALL_ROWS[wall]
    nodes = []
    for n, (r, c) in enumerate(board.coords):
        if (axis == "row" and r == value) or (axis == "col" and c - col_shift == value):
            nodes.append(n)
    return nodes


@dataclass(frozen=True)
class Gear:
    """One character's equipment for a battle: slots, upgrades per item id (R-4.2, R-4.7)."""

    armour: str
    hands: tuple[str, ...]
    backup: tuple[str, ...] = ()
    upgrades: tuple[tuple[str, tuple[str, ...]], ...] = ()
    loadout: str | None = None

    def upgrades_of(self, item_id: str) -> tuple[str, ...]:
        return next((ups for target, ups in self.upgrades if target == item_id), ())


def party_gear(data: Any, party: list[str], loadout: str | dict[str, str] | None = None) -> list[Gear]:
    """Each party member's gear: its starting equipment (R-1.7) without a loadout, else the kit of the
    named loadout (one name for everybody, or a table character id → loadout name)."""
    gear = []
    for cid in party:
        if loadout is None:
            kit = data.characters[cid].starting_equipment
            gear.append(Gear(kit.armour, tuple(kit.hands), tuple(kit.backup)))
            continue
        if isinstance(loadout, str):
            name = loadout
        elif isinstance(loadout, dict):
            if cid not in loadout:
                raise ValueError(f"setting 'loadout' names no loadout for {cid!r} (give one for every party member)")
            name = loadout[cid]
        else:
            raise ValueError("setting 'loadout' must be a loadout name or a table character id → loadout name")
        entry = getattr(data, "loadouts", {}).get(name)
        if entry is None:
            raise ValueError(unknown("loadout", name, getattr(data, "loadouts", {})) + "; see `dsim data list loadouts`")
        kit = entry.characters.get(cid)
        if kit is None:
            raise ValueError(f"loadout {name!r} has no kit for {cid!r} (it has: {', '.join(entry.characters)})")
        upgrades = tuple((target, tuple(ids)) for target, ids in kit.upgrades.items())
        gear.append(Gear(kit.armour, tuple(kit.hands), tuple(kit.backup), upgrades, name))
    return gear


def _upgraded_line(line: Any, effects: list[Any], most_expensive: bool) -> dict[str, Any]:
    """Dice, modifier, magic, conditions and cost of one attack line with upgrade effects applied.

    Only lines that roll dice take dice, damage and condition effects (F-4.2); the cost reduction
    applies to the item's most expensive line (Simple Gem text)."""
    k, u, o = _dice_counts(line.dice)
    out = {"k": k, "u": u, "o": o, "mod": line.modifier, "magic": line.magic,
           "cond": _cond_mask(line.conditions), "stamina": line.stamina}
    rolls = k + u + o > 0
    for eff in effects:
        if eff.kind == "cost_reduction" and most_expensive:
            out["stamina"] = max(0, out["stamina"] - int(eff.amount or 0))
        if not rolls:
            continue
        if eff.kind == "extra_die":
            out[{"K": "k", "U": "u", "O": "o"}[eff.die]] += 1
        elif eff.kind == "damage_bonus":
            out["mod"] += int(eff.amount or 0)
        elif eff.kind == "damage_malus":
            out["mod"] -= int(eff.amount or 0)
        elif eff.kind == "attacks_become_magic":
            out["magic"] = True
        elif eff.kind == "inflict_condition":
            out["cond"] |= COND_BITS[eff.condition]
    return out


class ItemTables:
    """Item-instance and attack-line rows built one instance at a time (R-4.1, R-4.7): what a party's
    kit compiles to, and the whole treasure deck of a game played whole (:mod:`dsim.games.dstbg_game`)."""

    def __init__(self, data: Any, faces: dict[str, list[int]]) -> None:
        self.data, self.faces = data, faces
        self.items: list[list[int]] = []
        self.lines: list[list[int]] = []
        self.lstat: list[np.ndarray] = []
        self.item_ids: list[str] = []
        self.line_names: list[str] = []

    def instance(self, item_id: str, upgrade_ids: tuple[str, ...] = (), worn: tuple[str, ...] = ()) -> int:
        """Add one item instance and return its row; ``worn`` are the armour's upgrades whose "your attacks"
        effects (scope self, e.g. Hornet Ring) apply to every attack of the character."""
        data, lines = self.data, self.lines
        item = data.items[item_id]
        upgrades = [data.items[u] for u in upgrade_ids]
        line_effects = [e for up in upgrades for e in up.effects if e.kind in UPGRADE_LINE_EFFECTS]
        if item.kind != "armour":
            line_effects += [e for u in worn for e in data.items[u].effects
                             if e.kind in UPGRADE_LINE_EFFECTS and e.scope == "self"]
        row = [0] * L.IT_FIELDS
        row[L.IT_BLOCK_K : L.IT_BLOCK_O + 1] = _dice_counts(item.block)
        row[L.IT_RESIST_K : L.IT_RESIST_O + 1] = _dice_counts(item.resist)
        row[L.IT_DODGE] = item.dodge
        row[L.IT_HANDS] = item.hands or 0
        row[L.IT_LINE0] = len(lines)
        row[L.IT_N_LINES] = len(item.attacks)
        row[L.IT_IS_ARMOUR] = 1 if item.kind == "armour" else 0
        row[L.IT_FLAGS] = _item_flags(item)
        for up in upgrades:
            row[L.IT_FLAGS] |= _item_flags(up)
        top = max((line.stamina for line in item.attacks), default=0)
        for j, line in enumerate(item.attacks):
            up = _upgraded_line(line, line_effects, line.stamina == top)
            k, u, o = up["k"], up["u"], up["o"]
            sup, amount, scope = _support(line) if k + u + o == 0 else (L.SUP_NONE, 0, 0)
            lrow = [0] * L.L_FIELDS
            lrow[L.L_STAMINA] = up["stamina"]
            lrow[L.L_K], lrow[L.L_U], lrow[L.L_O] = k, u, o
            lrow[L.L_MOD] = up["mod"]
            lrow[L.L_MAGIC] = int(up["magic"])
            lrow[L.L_NODE] = int(line.node)
            lrow[L.L_REACH] = int(line.reach)
            lrow[L.L_RANGE] = _range(line.range if line.range is not None else item.range)
            lrow[L.L_SHIFT_BEFORE] = line.shift_before
            lrow[L.L_SHIFT_AFTER] = line.shift_after
            lrow[L.L_REPEAT] = line.repeat
            lrow[L.L_PUSH] = int(line.push)
            lrow[L.L_COND] = up["cond"]
            lrow[L.L_FROM_BACKUP] = int(line.usable_from_backup)
            lrow[L.L_SUPPORT], lrow[L.L_SUPPORT_AMT], lrow[L.L_SUPPORT_SCOPE] = sup, amount, scope
            lines.append(lrow)
            self.lstat.append(_line_stats(k, u, o, up["mod"], self.faces))
            self.line_names.append(f"{item_id} #{j + 1}")
        self.items.append(row)
        self.item_ids.append("+".join((item_id, *upgrade_ids)))
        return len(self.items) - 1

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The kernel's ``items``, ``lines`` and ``lstat`` tables."""
        return (
            np.array(self.items, np.int32).reshape(-1, L.IT_FIELDS),
            np.array(self.lines, np.int32).reshape(-1, L.L_FIELDS),
            np.array(self.lstat, np.int32).reshape(-1, 2, X.LSTAT_THRESHOLDS, X.LSTAT_NEEDS),
        )


def _party_tables(data: Any, party: list[str], faces: dict[str, list[int]], loadout: Any = None):
    """Character, item-instance and line tables for the party's equipment: the starting kits (R-1.7)
    or a loadout's kits, with upgrades applied to the item-instance and line rows (R-4.7)."""
    chars = party_chars(data, party)
    built = ItemTables(data, faces)
    equip = np.full((L.MAX_CHARS, 5), -1, np.int32)
    for c, gear in enumerate(party_gear(data, party, loadout)):
        worn = gear.upgrades_of(gear.armour)
        equip[c, 0] = built.instance(gear.armour, worn, ())
        for h, item_id in enumerate(gear.hands[:2]):
            equip[c, 1 + h] = built.instance(item_id, gear.upgrades_of(item_id), worn)
        for j, item_id in enumerate(gear.backup[:2]):
            equip[c, 3 + j] = built.instance(item_id, gear.upgrades_of(item_id), worn)
    items, lines, lstat = built.arrays()
    return chars, items, lines, lstat, equip, tuple(built.item_ids), tuple(built.line_names)


def party_chars(data: Any, party: list[str]) -> np.ndarray:
    """The kernel's character table: taunt (R-3.9) and heroic action (R-3.7) per seat."""
    chars = np.zeros((L.MAX_CHARS, L.CT_FIELDS), np.int32)
    for c, cid in enumerate(party):
        ch = data.characters[cid]
        chars[c, L.CT_TAUNT] = ch.taunt
        chars[c, L.CT_HEROIC] = HEROIC.get(ch.heroic_action.id, L.HEROIC_NONE)
    return chars


def _enemy_program(enemy: Any) -> list[list[int]]:
    """An enemy's behaviour icons as program steps (R-11.2); range and dodge copied into each step."""
    steps = []
    for icon in enemy.behaviour:
        row = [0] * L.S_FIELDS
        row[L.S_TARGET] = TARGETS[icon.target]
        row[L.S_RANGE] = _range(enemy.range) if enemy.range is not None else -1
        row[L.S_DODGE] = enemy.dodge
        row[L.S_REPEAT] = 1
        if icon.op == "move":
            row[L.S_OP] = L.OP_MOVE
            row[L.S_DIR] = L.DIR_TOWARD if icon.direction == "toward" else L.DIR_AWAY
            row[L.S_DIST] = icon.distance
            row[L.S_PUSH] = int(icon.push)
            row[L.S_PUSH_DMG] = icon.push_damage
        else:
            row[L.S_OP] = L.OP_ATTACK
            row[L.S_MAGIC] = int(icon.type == "magic")
            row[L.S_DAMAGE] = icon.damage
            row[L.S_NODE] = int(icon.node)
            row[L.S_PUSH] = int(icon.push)
            row[L.S_COND] = _cond_mask(icon.conditions)
        steps.append(row)
    return steps


def _check_party(data: Any, party: list[str]) -> None:
    if not 1 <= len(party) <= L.MAX_CHARS:
        raise ValueError(f"a party has 1 to {L.MAX_CHARS} characters, got {len(party)}")
    if len(set(party)) != len(party):
        raise ValueError("each character can be in the party only once (R-1.7)")
    for cid in party:
        if cid not in data.characters:
            raise ValueError(unknown("character", cid, data.characters))


def _entry_and_equipment(scen: np.ndarray, entry: list[int], equip: np.ndarray) -> None:
    scen[X.SC_N_ENTRY] = len(entry)
    scen[X.SC_ENTRY : X.SC_ENTRY + len(entry)] = entry
    scen[X.SC_EQUIP : X.SC_EQUIP + 5 * L.MAX_CHARS] = equip.reshape(-1)


def compile_encounter(
    data: Any, party: list[str], encounter_id: str, variants: dict[str, Any] | None = None,
    loadout: str | dict[str, str] | None = None,
) -> Compiled:
    """Compile one encounter battle (R-7) for a party with its starting equipment or a loadout."""
    _check_party(data, party)
    if encounter_id not in data.encounters:
        raise ValueError(unknown("encounter", encounter_id, data.encounters, "dsim data list encounters"))
    enc = data.encounters[encounter_id]
    tile = data.tiles["exploration"]
    board = B.standard_tile()
    faces = {d.letter: list(d.faces) for d in data.dice.values()}
    chars, items, lines, lstat, equip, item_ids, line_names = _party_tables(data, party, faces, loadout)

    type_ids: list[str] = []
    prog: list[list[int]] = []
    etypes: list[list[int]] = []
    scen = np.zeros(X.SC_LEN, np.int32)
    scen[X.SC_ESTUS] = 1  # one full estus flask
    slots: list[tuple[int, int]] = []
    enemy_ids: list[str] = []
    for spawn, node_rc in ((enc.spawn_1, tile.spawn_1), (enc.spawn_2, tile.spawn_2)):
        for eid in spawn:
            if eid not in type_ids:
                enemy = data.enemies[eid]
                row = [0] * L.ET_FIELDS
                row[L.ET_THREAT] = enemy.threat
                row[L.ET_HEALTH] = enemy.health
                row[L.ET_BLOCK] = enemy.block
                row[L.ET_RESIST] = enemy.resist
                row[L.ET_PROG] = len(prog)
                program = _enemy_program(enemy)
                row[L.ET_PROG_LEN] = len(program)
                row[L.ET_HEATUP] = -1
                prog.extend(program)
                etypes.append(row)
                type_ids.append(eid)
            slots.append((type_ids.index(eid), board.node(*node_rc)))
            enemy_ids.append(eid)
    if len(slots) > L.MAX_ENEMIES:
        raise ValueError(f"encounter {encounter_id!r} has more than {L.MAX_ENEMIES} enemies")

    n_nodes = board.n_nodes
    special = set()
    for name in ("spawn_1", "spawn_2", "terrain_1", "terrain_2"):
        special.add(board.node(*getattr(tile, name)))
    scen[X.SC_N_CHARS] = len(party)
    scen[X.SC_N_ENEMIES] = len(slots)
    scen[X.SC_N_NODES] = n_nodes
    scen[X.SC_TRAPS] = int(enc.traps)
    for e, (etype, node) in enumerate(slots):
        scen[X.SC_ENEMY + 2 * e] = etype
        scen[X.SC_ENEMY + 2 * e + 1] = node
    scen[X.SC_TERRAIN + board.node(*tile.terrain_1)] = TERRAIN[enc.terrain_1]
    scen[X.SC_TERRAIN + board.node(*tile.terrain_2)] = TERRAIN[enc.terrain_2]
    entry_door = getattr(data, "entry_door", "bottom")
    door_walls = set()
    for wall in tile.doors:
        door_walls.update(_wall_nodes(board, wall))
    for n in range(n_nodes):  # basic nodes except along a wall with a door
        scen[X.SC_TRAP_OK + n] = int(n not in special and n not in door_walls)
    entry = [n for n in _wall_nodes(board, entry_door) if n not in special]  # door_wall
    tokens = [trap.damage * 8 + trap.dodge for trap in data.traps.values() for _ in range(trap.count)]
    tokens = tokens[: X.MAX_TRAP_TOKENS]
    scen[X.SC_N_TRAP_TOKENS] = len(tokens)
    scen[X.SC_TRAP_TOKENS : X.SC_TRAP_TOKENS + len(tokens)] = tokens
    _entry_and_equipment(scen, entry, equip)
    scen[X.SC_BOSS_FACING] = -1

    party_tables = (chars, items, lines, lstat)
    return _finish(data, board, party, party_tables, etypes, prog, np.zeros((1, X.CARD_FIELDS), np.int32),
                   scen, variants, enemy_ids, item_ids, line_names)


def _node_columns(a: np.ndarray, axes: int, fill: int) -> np.ndarray:
    """``a`` with its last ``axes`` dimensions widened to ``NODE_COLS`` (``fill`` in the new places): the kernel's
    node-by-node tables have rows of that constant width (``context.fixed_trailing_dims``)."""
    out = np.full(a.shape[:-axes] + (L.NODE_COLS,) * axes, fill, np.int32)
    out[tuple(slice(0, s) for s in a.shape)] = a
    return out


def _setup_walk(board: B.Board, scen: np.ndarray) -> np.ndarray:
    """Walk distances around the terrain placed at setup (gravestones, chests, barrels block)."""
    n = board.neighbour.shape[0]
    terrain = scen[X.SC_TERRAIN : X.SC_TERRAIN + n]
    blocked = np.isin(terrain, (L.TERRAIN_GRAVESTONE, L.TERRAIN_CHEST, L.TERRAIN_BARREL))
    walk = B.walk_distances_nb(np.ascontiguousarray(board.neighbour, np.int32), blocked)
    return _node_columns(walk, 1, L.UNREACHABLE)


def _finish(data: Any, board: B.Board, party: list[str], party_tables: tuple, etypes: list, prog: list,
            cards: np.ndarray, scen: np.ndarray, variants: dict[str, Any] | None, enemy_ids: list[str],
            item_ids: tuple[str, ...], line_names: tuple[str, ...]) -> Compiled:
    """Assemble the kernel tables of a cell (:class:`~dsim.games.dstbg.kernel.context.BossTables` for a boss battle)."""
    chars, items, lines, lstat = party_tables
    face_rows = np.array([data.dice[k].faces for k in ("black", "blue", "orange", "green")], np.int32)
    taken, dodge = _defence_tables(tuple((d.letter, tuple(d.faces)) for d in data.dice.values()))
    tables = (X.BossTables if scen[X.SC_IS_BOSS] == 1 else X.Tables)(
        neighbour=np.ascontiguousarray(board.neighbour, np.int32),
        adjacent_nodes=np.ascontiguousarray(board.adjacent_nodes, np.int32),
        steps=_node_columns(board.steps, 1, L.UNREACHABLE),
        dwalk0=_setup_walk(board, scen),
        arcs=_node_columns(board.arc_mask, 2, 0),
        chars=chars,
        items=items,
        lines=lines,
        lstat=lstat,
        etypes=np.array(etypes, np.int32).reshape(-1, L.ET_FIELDS),
        prog=np.array(prog, np.int32).reshape(-1, L.S_FIELDS),
        cards=cards,
        faces=face_rows,
        taken=taken,
        dodge=dodge,
        variants=variant_vector(variants),
        scen=scen,
    )
    return Compiled(tables, board, tuple(party), tuple(enemy_ids), item_ids, line_names)



ARC_BITS = {"front": L.ARC_FRONT, "right": L.ARC_RIGHT, "back": L.ARC_BACK, "left": L.ARC_LEFT}
SPECIALS = {
    "frostbite_and_stagger_immunity": L.SP_NO_FROST_STAGGER,
    "heat_up_stamina_tax": L.SP_HEATUP_TAX,
    "damage_reduction": L.SP_DAMAGE_REDUCTION,
    "block_stamina_penalty": L.SP_BLOCK_PENALTY,
    "reshuffle_after_heat_up_card": L.SP_RESHUFFLE_AFTER_HEATUP,
    "pair_survivor_ornstein": L.SP_PAIR,
    "pair_survivor_smough": L.SP_PAIR,
}
BOSS_DIRS = {"forward": L.DIR_FORWARD, "backward": L.DIR_BACKWARD, "left": L.DIR_LEFT, "right": L.DIR_RIGHT}


def _arc_mask(arcs: list[str]) -> int:
    mask = 0
    for a in arcs:
        mask |= ARC_BITS[a]
    return mask


def _half_program(half: Any) -> list[list[int]]:
    """One card half's icons as program steps, with the card's range and dodge difficulty (R-12.3)."""
    steps = []
    for icon in half.steps:
        row = [0] * L.S_FIELDS
        row[L.S_RANGE] = _range(half.range) if half.range is not None else -1
        row[L.S_DODGE] = half.dodge
        row[L.S_REPEAT] = 1
        if icon.op == "move":
            row[L.S_OP] = L.OP_MOVE
            row[L.S_DIR] = BOSS_DIRS[icon.direction]
            row[L.S_FACE] = TARGETS[icon.face]
            row[L.S_DIST] = icon.distance
            row[L.S_PUSH] = int(icon.push)
            row[L.S_PUSH_DMG] = icon.push_damage
        elif icon.op == "leap":
            row[L.S_OP] = L.OP_LEAP
            row[L.S_TARGET] = TARGETS[icon.target]
            row[L.S_PUSH] = 1
            row[L.S_PUSH_DMG] = icon.push_damage
        elif icon.op == "turn":
            row[L.S_OP] = L.OP_TURN
            row[L.S_DEGREES] = icon.degrees
        else:
            row[L.S_OP] = L.OP_ATTACK
            row[L.S_MAGIC] = int(icon.type == "magic")
            row[L.S_DAMAGE] = icon.damage
            row[L.S_TARGET] = TARGETS[icon.target]
            row[L.S_NODE] = int(icon.node)
            row[L.S_PUSH] = int(icon.push)
            row[L.S_ARCS] = _arc_mask(icon.arcs)
            row[L.S_COND] = _cond_mask(icon.conditions)
        steps.append(row)
    return steps


def default_gravestones(data: Any, boss: Any) -> int:
    """Expected gravestones on the explored tiles (R-7.4, R-12.5): for each encounter level the
    boss card lists, the share of that level's encounter cards that have one; rounded."""
    expected = 0.0
    for level in boss.encounter_levels:
        cards = [e for e in data.encounters.values() if e.level == level]
        expected += sum("gravestone" in (e.terrain_1, e.terrain_2) for e in cards) / max(len(cards), 1)
    return int(round(expected))


def compile_boss(
    data: Any, party: list[str], boss_id: str, gravestones: int | None = None, variants: dict[str, Any] | None = None,
    loadout: str | dict[str, str] | None = None,
) -> Compiled:
    """Compile one boss battle (R-12.4): a mini boss on its tile, a main boss on the joined arena."""
    _check_party(data, party)
    if boss_id not in data.bosses:
        raise ValueError(unknown("boss", boss_id, data.bosses))
    boss = data.bosses[boss_id]
    if gravestones is None:
        gravestones = default_gravestones(data, boss)
    if not 0 <= gravestones <= boss.deck_size:
        raise ValueError(f"gravestones must be between 0 and the deck size {boss.deck_size}, got {gravestones}")
    faces = {d.letter: list(d.faces) for d in data.dice.values()}
    chars, items, lines, lstat, equip, item_ids, line_names = _party_tables(data, party, faces, loadout)
    if boss.kind == "mini":
        board = B.standard_tile()
        spawn = board.node(*data.tiles["mini_boss"].boss_spawn)
    else:
        board = B.joined_tiles()
        r, c = data.tiles["main_boss"].boss_spawn
        spawn = board.node(r, c + B.SEAM_SHIFT)
    entry_door = getattr(data, "entry_door", "bottom")
    entry = [n for n in _wall_nodes(board, entry_door) if board.coords[n][1] <= 4 and n != spawn]

    etypes: list[list[int]] = []
    slots: list[int] = []
    figure_slot = {}
    for i, fig in enumerate(boss.figures):
        row = [0] * L.ET_FIELDS
        row[L.ET_THREAT] = fig.threat
        row[L.ET_HEALTH] = fig.health
        row[L.ET_BLOCK] = fig.block
        row[L.ET_RESIST] = fig.resist
        row[L.ET_IS_BOSS] = 1
        row[L.ET_HEATUP] = -1 if fig.heat_up is None else fig.heat_up
        row[L.ET_SPECIAL] = SPECIALS.get(fig.special.id, L.SP_NONE)
        row[L.ET_HEAL] = getattr(fig, "survivor_heal", None) or 0
        etypes.append(row)
        figure_slot[fig.id] = i
        if i == 0:
            slots.append(spawn)
        else:  # one boss per node: the second figure starts beside the first (data gap)
            slots.append(next(int(z) for z in board.neighbour[spawn] if z >= 0 and z not in entry and z not in slots))

    prog: list[list[int]] = []
    cards = np.zeros((len(boss.cards), X.CARD_FIELDS), np.int32)
    for k, card in enumerate(boss.cards):
        cards[k, X.CARD_HEATUP] = int(card.heat_up)
        cards[k, X.CARD_OWNER] = figure_slot[card.figure] if card.figure is not None and len(boss.figures) > 1 else -1
        cards[k, X.CARD_HALVES] = len(card.halves)
        for h, half in enumerate(card.halves):
            base = X.CARD_HALF + h * X.HALF_FIELDS
            steps = _half_program(half)
            cards[k, base + X.HALF_SLOT] = figure_slot[half.figure]
            cards[k, base + X.HALF_PROG] = len(prog)
            cards[k, base + X.HALF_LEN] = len(steps)
            cards[k, base + X.HALF_WEAK] = _arc_mask(half.weak_arcs)
            cards[k, base + X.HALF_REPEAT] = half.repeat
            prog.extend(steps)

    scen = np.zeros(X.SC_LEN, np.int32)
    scen[X.SC_ESTUS] = 1  # one full estus flask
    scen[X.SC_N_CHARS] = len(party)
    scen[X.SC_N_ENEMIES] = len(slots)
    scen[X.SC_N_NODES] = board.n_nodes
    scen[X.SC_IS_BOSS] = 1
    for e, node in enumerate(slots):
        scen[X.SC_ENEMY + 2 * e] = e
        scen[X.SC_ENEMY + 2 * e + 1] = node
    _entry_and_equipment(scen, entry, equip)
    entry_mid = min(entry, key=lambda n: abs(board.coords[n][1] - 2))
    scen[X.SC_BOSS_FACING] = int(board.toward[spawn, entry_mid])  # A-42 toward_entry_door
    scen[X.SC_GRAVESTONES] = gravestones
    scen[X.SC_DECK_SIZE] = boss.deck_size
    enemy_ids = [fig.id for fig in boss.figures]
    compiled = _finish(data, board, party, (chars, items, lines, lstat), etypes, prog, cards, scen, variants,
                       enemy_ids, item_ids, line_names)
    return dataclasses.replace(compiled, card_ids=tuple(card.id for card in boss.cards))
