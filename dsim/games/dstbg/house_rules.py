"""House rules that are edits of the compiled tables: any cell, any value, no kernel recompile.

A cell's ``house_rules`` setting (``{id: value}``) is applied after compilation, so the kernel
sees ordinary tables (same array types: the cached kernel is reused). Numeric rules are
offsets (0 = the printed game) and can be tuned (``dsim tune``); ``dice_substitution`` swaps
dice colours in block, resist or attack pools (``"block:black>blue"``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from dsim.games.base import RuleSwitch
from dsim.games.dstbg.compile import Compiled, _line_stats
from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.schema import LIMIT  # a house rule's offset is bounded like a data figure
COLOURS = {"black": 0, "blue": 1, "orange": 2}
POOLS = {
    "block": ("items", L.IT_BLOCK_K),
    "resist": ("items", L.IT_RESIST_K),
    "attack": ("lines", L.L_K),
}


@dataclass(frozen=True)
class HouseRule:
    """One table-edit house rule: id, meaning, default (no change) and the edit itself."""

    id: str
    doc: str
    default: int | str
    apply: Callable[[X.Tables, Any], X.Tables]
    example: str
    minimum: int | None = None  # numeric rules: the smallest value that makes sense
    check: Callable[[str], Any] | None = None  # text rules: parses the value, ValueError with a user-facing message

    @property
    def numeric(self) -> bool:
        """Whether the rule takes a whole number (and so can be tuned)."""
        return isinstance(self.default, int)

    def switch(self) -> RuleSwitch:
        """The house rule as ``dsim variants`` lists it."""
        return RuleSwitch(self.id, "house_rule", "house", self.doc, self.default,
                          (("<whole number>" if self.numeric else "<text>", self.doc),),
                          "House rule (not in the rules).", self.example, self.numeric,
                          (-LIMIT if self.minimum is None else max(-LIMIT, self.minimum), LIMIT) if self.numeric else None)


def _enemy_health(tables: X.Tables, delta: int, bosses: bool) -> X.Tables:
    et = tables.etypes.copy()
    rows = (et[:, L.ET_IS_BOSS] == 1) if bosses else (et[:, L.ET_IS_BOSS] == 0)
    et[rows, L.ET_HEALTH] = np.maximum(et[rows, L.ET_HEALTH] + delta, 1)
    return tables._replace(etypes=et)


def _heatup(tables: X.Tables, delta: int) -> X.Tables:
    et = tables.etypes.copy()
    rows = (et[:, L.ET_IS_BOSS] == 1) & (et[:, L.ET_HEATUP] >= 0)  # only bosses that heat up
    et[rows, L.ET_HEATUP] = np.clip(et[rows, L.ET_HEATUP] + delta, 0, et[rows, L.ET_HEALTH])
    return tables._replace(etypes=et)


def _enemy_damage(tables: X.Tables, delta: int) -> X.Tables:
    prog = tables.prog.copy()
    attacks = (prog[:, L.S_OP] == L.OP_ATTACK) & (prog[:, L.S_DAMAGE] > 0)
    prog[attacks, L.S_DAMAGE] = np.maximum(prog[attacks, L.S_DAMAGE] + delta, 0)
    pushes = prog[:, L.S_PUSH_DMG] > 0  # push damage is an attack (F-9.8)
    prog[pushes, L.S_PUSH_DMG] = np.maximum(prog[pushes, L.S_PUSH_DMG] + delta, 0)
    return tables._replace(prog=prog)


def _extra_dodge(tables: X.Tables, extra: int) -> X.Tables:
    items = tables.items.copy()
    armour = items[:, L.IT_IS_ARMOUR] == 1  # dodge dice come from the equipped items
    items[armour, L.IT_DODGE] = np.maximum(items[armour, L.IT_DODGE] + extra, 0)
    return tables._replace(items=items)


def _extra_estus(tables: X.Tables, extra: int) -> X.Tables:
    scen = tables.scen.copy()
    scen[X.SC_ESTUS] = 1 + extra  # one flask use per battle in the printed game
    return tables._replace(scen=scen)


def parse_substitutions(text: str) -> list[tuple[str, int, int]]:
    """``"block:black>blue, attack:blue>orange"`` → ``[(pool, from colour, to colour), …]``."""
    subs = []
    for part in (p.strip() for p in str(text).split(",")):
        if not part:
            continue
        pool, _, swap = part.partition(":")
        old, _, new = swap.partition(">")
        pool, old, new = pool.strip(), old.strip(), new.strip()
        if pool not in POOLS or old not in COLOURS or new not in COLOURS:
            raise ValueError(
                f"dice_substitution {part!r}: expected POOL:FROM>TO with POOL in {', '.join(POOLS)} "
                f"and colours in {', '.join(COLOURS)}, e.g. block:black>blue"
            )
        subs.append((pool, COLOURS[old], COLOURS[new]))
    return subs


def parse_forbid(text: str) -> int:
    """``"dodge, estus"`` → the kernel's FORBID_* bits (``layout.FORBID_NAMES``)."""
    bits = 0
    for part in (p.strip() for p in str(text).split(",")):
        if not part:
            continue
        if part not in L.FORBID_NAMES:
            raise ValueError(f"forbid {part!r}: expected a comma-separated list of {', '.join(L.FORBID_NAMES)}, "
                             "e.g. forbid=dodge,estus")
        bits |= 1 << L.FORBID_NAMES.index(part)
    return bits


def _forbid(tables: X.Tables, text: str) -> X.Tables:
    variants = tables.variants.copy()
    variants[L.V_FORBID] = parse_forbid(text)  # the kernel never lists a forbidden option
    return tables._replace(variants=variants)


def _dice_substitution(tables: X.Tables, text: str) -> X.Tables:
    arrays = {"items": tables.items.copy(), "lines": tables.lines.copy()}
    for pool, old, new in parse_substitutions(text):
        name, first = POOLS[pool]
        arr = arrays[name]
        arr[:, first + new] += arr[:, first + old]
        arr[:, first + old] = 0
    lines = arrays["lines"]
    faces = {letter: tables.faces[i].tolist() for i, letter in enumerate("KUO")}
    lstat = tables.lstat.copy()
    for i, r in enumerate(lines):  # the policy's damage statistics follow the new attack dice
        lstat[i] = _line_stats(int(r[L.L_K]), int(r[L.L_U]), int(r[L.L_O]), int(r[L.L_MOD]), faces)
    return tables._replace(items=arrays["items"], lines=lines, lstat=lstat)


HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule("enemy_health_delta", "added to every regular enemy's health (at least 1)", 0,
              lambda t, v: _enemy_health(t, v, bosses=False), "enemy_health_delta=1"),
    HouseRule("boss_health_delta", "added to every boss figure's health (at least 1)", 0,
              lambda t, v: _enemy_health(t, v, bosses=True), "boss_health_delta=-4"),
    HouseRule("heatup_delta", "added to the boss's heat-up health threshold (higher = heats up sooner, R-12.6)", 0,
              _heatup, "heatup_delta=2"),
    HouseRule("enemy_damage_delta", "added to the damage of every enemy attack and push damage (at least 0)", 0,
              _enemy_damage, "enemy_damage_delta=-1"),
    HouseRule("extra_dodge_dice", "green dodge dice added to every character's armour (R-9.5)", 0,
              _extra_dodge, "extra_dodge_dice=1", minimum=0),
    HouseRule("extra_estus", "extra uses of every character's estus flask per battle (R-3.5: one)", 0,
              _extra_estus, "extra_estus=1", minimum=0),
    HouseRule("dice_substitution", "swap dice colours in block, resist or attack pools, e.g. blue instead of black on block",
              "", _dice_substitution, "dice_substitution=block:black>blue", check=parse_substitutions),
    HouseRule("forbid", "restricted play: what the party may not use, any of dodge (attacks and traps), estus, luck, "
              "heroic (the heroic action): compare with and without to measure what a choice is worth",
              "", _forbid, "forbid=dodge,estus", check=parse_forbid),
)

BY_ID: dict[str, HouseRule] = {r.id: r for r in HOUSE_RULES}

# House rules asked for that a single battle cannot express, and where they are answered instead.
NOT_SIMULATED: dict[str, str] = {
    "sparks": "a bonfire resource (R-1.4) with no effect inside one battle; whole games play it (`--game dstbg_game "
              "--set sparks_delta=N`; `dsim area --sparks N` gives the chance to beat a mini boss's area with N sparks)",
    "starting_souls": "a bonfire resource with no effect inside one battle; whole games play it (`--game dstbg_game "
                      "--set starting_souls=16`, the community's '16 Starting Souls')",
}


def coerce(rule_id: str, value: Any) -> int | str:
    """Validate one house-rule value (``ValueError`` with a user-facing message)."""
    if rule_id not in BY_ID:
        raise ValueError(f"unknown house rule {rule_id!r} (see `dsim variants list`)")
    rule = BY_ID[rule_id]
    if not rule.numeric:
        rule.check(value)
        return str(value)
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"house rule {rule_id!r} takes a whole number, got {value!r}") from None
    if rule.minimum is not None and number < rule.minimum:
        raise ValueError(f"house rule {rule_id!r} must be at least {rule.minimum}, got {number}")
    if abs(number) > LIMIT:  # the tables are int32; no card figure comes near this
        raise ValueError(f"house rule {rule_id!r} takes a whole number from -{LIMIT:,} to {LIMIT:,}, got {number}")
    return number


def apply_house_rules(compiled: Compiled, rules: Mapping[str, Any] | None) -> Compiled:
    """The compiled cell with its tables edited by ``{house rule id: value}`` (registry order)."""
    if not rules:
        return compiled
    values = {key: coerce(key, value) for key, value in rules.items()}
    tables = compiled.tables
    for rule in HOUSE_RULES:
        if rule.id in values and values[rule.id] != rule.default:
            tables = rule.apply(tables, values[rule.id])
    return dataclasses.replace(compiled, tables=tables)
