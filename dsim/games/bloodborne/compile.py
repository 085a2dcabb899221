"""Loaded Bloodborne data → the flat tables the kernel reads (named columns in :mod:`.kernel.layout`).

Action cards are indexed starters first, then upgrades; dungeon cards monsters, then bosses, then
Final Bosses. Every effect of the vocabulary (``schema.py``) lands in one column; card texts that no
effect expresses stay out of the game and are listed by ``dsim data coverage --game bloodborne``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.loader import BloodborneData
from dsim.games.bloodborne.schema import ActionCard

_TYPES = {"melee": L.MELEE, "ranged": L.RANGED, "utility": L.UTILITY}
_STEPS = {"transform": L.STEP_TRANSFORM, "instant": L.STEP_INSTANT, "hunter_attack": L.STEP_HUNTER_ATTACK,
          "dream_step": L.STEP_DREAM}
_CLASSES = {"monsters": L.MONSTER, "bosses": L.BOSS, "final_bosses": L.FINAL_BOSS}
_CARD_OPS = {  # (when, op) → column; flags store 1, amounts their amount
    ("transform", "choose_weapon"): L.C_CHOOSE_WEAPON, ("instant", "clash_same_card"): L.C_CLASH,
    ("instant", "cancel_melee"): L.C_CANCEL_MELEE, ("instant", "heal_to_full"): L.C_INSTANT_HEAL,
    ("instant", "bank_collected"): L.C_INSTANT_BANK, ("instant", "lose_health"): L.C_INSTANT_LOSE,
    ("hunter_attack", "lose_health"): L.C_ATTACK_LOSE, ("monster_attack", "prevent_monster_damage"): L.C_PREVENT,
    ("monster_attack", "halve_monster_damage"): L.C_HALVE, ("dream_step", "bank_collected"): L.C_DREAM_BANK,
    ("dream_step", "recover_used_pile"): L.C_DREAM_RECOVER, ("dream_step", "heal_to_full"): L.C_DREAM_HEAL,
    ("dream_step", "take_upgrade"): L.C_DREAM_UPGRADES,
}
_DUNGEON_OPS = {
    ("on_reveal", "damage_hunters"): L.DG_REVEAL_DAMAGE, ("on_escape", "damage_hunters"): L.DG_ESCAPE_DAMAGE,
    ("while_in_play", "monster_attack_bonus"): L.DG_ATTACK_BONUS, ("while_in_play", "dream_no_halve"): L.DG_NO_HALVE,
    ("while_in_play", "instant_damage_bonus"): L.DG_INSTANT_BONUS,
    ("whole_game", "monster_attack_bonus"): L.DG_GAME_ATTACK_BONUS, ("whole_game", "dream_no_halve"): L.DG_GAME_NO_HALVE,
    ("whole_game", "instant_damage_bonus"): L.DG_GAME_INSTANT_BONUS,
    ("whole_game", "escape_damage_hunters"): L.DG_GAME_ESCAPE_DAMAGE,
    ("whole_game", "final_boss_trophy_multiplier"): L.DG_GAME_TROPHY_MULT,
}


class Tables(NamedTuple):
    """What the kernel knows of the data: one row per card, dungeon card, die and trophy track."""

    cards: np.ndarray         # int32[cards, C_FIELDS]
    dungeon: np.ndarray       # int32[dungeon cards, DG_FIELDS]
    die_values: np.ndarray    # int64[dice, 6]
    die_combo: np.ndarray     # bool[dice, 6]
    die_mean10: np.ndarray    # int32[dice]: 10 × expected total
    bonus: np.ndarray         # int32[tracks, MAX_TROPHIES + 1]
    upgrades: np.ndarray      # int32[upgrade copies]: the card kind of each upgrade card (BB-2.3)
    sizes: np.ndarray         # int32[Z_FIELDS]


@dataclass(frozen=True)
class Compiled:
    """The tables plus the ids they index (for traces and reports)."""

    tables: Tables
    card_ids: tuple[str, ...]
    card_names: tuple[str, ...]
    dungeon_ids: tuple[str, ...]
    dungeon_names: tuple[str, ...]
    track_ids: tuple[str, ...]
    die_ids: tuple[str, ...]


def _card_row(card: ActionCard, starter: bool) -> np.ndarray:
    row = np.zeros(L.C_FIELDS, np.int32)
    row[L.C_TYPE], row[L.C_STEP] = _TYPES[card.type], _STEPS[card.resolves]
    row[L.C_DAMAGE], row[L.C_COPIES], row[L.C_STARTER] = card.damage or 0, card.copies, starter
    for e in card.effects:
        col = _CARD_OPS.get((e.when, e.op))
        if col is not None:
            row[col] += 1 if e.amount is None else e.amount
    return row


def compile_tables(data: BloodborneData) -> Compiled:
    """Flatten the validated data set into :class:`Tables`."""
    from dsim.games.bloodborne.dice import die_arrays, die_moments

    starters, upgrades = list(data.entries("starters").values()), list(data.entries("upgrades").values())
    cards = [_card_row(c, True) for c in starters] + [_card_row(c, False) for c in upgrades]
    dice = list(data.entries("dice").values())
    die_index = {d.id: i for i, d in enumerate(dice)}
    tracks = list(data.entries("trophy_tracks").values())
    track_index = {tr.id: i for i, tr in enumerate(tracks)}
    dungeon, d_ids, d_names = [], [], []
    for kind, cls in _CLASSES.items():
        for entry in data.entries(kind).values():
            row = np.zeros(L.DG_FIELDS, np.int32)
            row[L.DG_HEALTH], row[L.DG_DIE] = entry.health, die_index[entry.die]
            row[L.DG_TROPHY], row[L.DG_TROPHIES], row[L.DG_CLASS] = track_index[entry.trophy], entry.trophies, cls
            row[L.DG_CAP], row[L.DG_GAME_TROPHY_MULT] = -1, 1
            for e in entry.effects:
                if e.op == "cap_damage":
                    row[L.DG_CAP], row[L.DG_CAP_TYPE] = e.amount, _TYPES[e.card_type]
                elif e.op == "final_boss_trophy_multiplier":
                    row[L.DG_GAME_TROPHY_MULT] = e.amount
                else:
                    row[_DUNGEON_OPS[(e.when, e.op)]] += 1 if e.amount is None else e.amount
            dungeon.append(row)
            d_ids.append(entry.id)
            d_names.append(entry.name)
    values = np.stack([die_arrays(d)[0] for d in dice])
    combo = np.stack([die_arrays(d)[1] for d in dice])
    mean10 = np.array([round(10 * float(die_moments(d)[0])) for d in dice], np.int32)
    bonus = np.array([[tr.bonus_for(n) for n in range(L.MAX_TROPHIES + 1)] for tr in tracks], np.int32)
    first_upgrade = len(starters)
    deck = np.array([first_upgrade + i for i, c in enumerate(upgrades) for _ in range(c.copies)], np.int32)
    sizes = np.zeros(L.Z_FIELDS, np.int32)
    sizes[[L.Z_MONSTERS, L.Z_BOSSES, L.Z_FINALS]] = [len(data.entries(k)) for k in _CLASSES]
    sizes[L.Z_CARDS], sizes[L.Z_TRACKS], sizes[L.Z_UPGRADES] = len(cards), len(tracks), len(deck)
    tables = Tables(np.ascontiguousarray(np.stack(cards)), np.ascontiguousarray(np.stack(dungeon)),
                    np.ascontiguousarray(values), np.ascontiguousarray(combo), mean10,
                    np.ascontiguousarray(bonus), deck, sizes)
    return Compiled(tables, tuple(c.id for c in starters + upgrades), tuple(c.name for c in starters + upgrades),
                    tuple(d_ids), tuple(d_names), tuple(track_index), tuple(die_index))
