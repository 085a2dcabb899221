"""Which card effects the DS:TBG engine simulates, and which card texts it therefore ignores.

Kernel work adds an effect kind (see ``EffectKind`` in :mod:`dsim.games.dstbg.schema`) to
:data:`SIMULATED_EFFECTS` in the same change that implements it. ``dsim data coverage`` lists every
card effect whose kind is not in the set, so users always know what the numbers leave out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from dsim.games.dstbg.loader import GameData
from dsim.games.dstbg.schema import Effect

SIMULATED_EFFECTS: frozenset[str] = frozenset(
    {
        "immune_condition",  # combat.char_conditions / enemy_conditions
        "ignore_attack_push",  # movement.push_char_away
        "cannot_dodge_or_run",  # character.move_cost, enemy.defend
        "free_attack_after_dodge",  # character.backstab
        "free_move",  # character.offer_heroic_start (Berserk Charge)
        "next_attack_free_node",  # character.attack_cost / attack_options (Berserk Charge)
        "extra_block_die",  # combat.roll_block (Knight)
        "stamina_tax_on_node",  # character.boss_tax (Gargoyle)
        "reduce_big_hit",  # combat.enemy_suffer (Titanite Demon)
        "block_roll_stamina_penalty",  # combat.roll_block (Winged Knight)
        "shuffle_after_heat_up_card",  # boss.boss_activation (Dancer)
        "pair_survivor_heat_up",  # deck.pair_survivor (Ornstein & Smough)
    }
)
"""Effect kinds the battle kernel implements. ``gain_stamina``/``gain_health`` are simulated only on
dice-less support lines, so they stay listed until the bonus effects of attack lines are done."""

UPGRADE_LINE_EFFECTS: frozenset[str] = frozenset(
    {"damage_bonus", "damage_malus", "extra_die", "attacks_become_magic", "inflict_condition", "cost_reduction"}
)
"""Effects of upgrade cards that compile folds into the attack lines of the upgraded weapon (or, for an
armour upgrade with scope ``self``, of every hand item of its wearer): ``compile._upgraded_line``."""
UPGRADE_FLAG_EFFECTS: frozenset[str] = frozenset({"immune_condition", "ignore_attack_push", "cannot_dodge_or_run"})
"""Effects of upgrade cards that compile sets as item-instance flags (``IT_FLAGS``)."""
UPGRADE_EFFECTS = UPGRADE_LINE_EFFECTS | UPGRADE_FLAG_EFFECTS
UPGRADE_KINDS = frozenset({"weapon_upgrade", "armour_upgrade"})


@dataclass(frozen=True)
class EffectUse:
    """One effect printed on one card: an item line or passive, a heroic action, a boss ability."""

    owner_kind: str
    owner_id: str
    card: str
    where: str
    effect: Effect


def effect_uses(data: GameData) -> Iterator[EffectUse]:
    """Every card effect in the data set, in data order."""
    for item in data.items.values():
        for effect in item.effects:
            yield EffectUse("items", item.id, item.name, "passive", effect)
        for n, line in enumerate(item.attacks):
            for effect in line.effects:
                yield EffectUse("items", item.id, item.name, f"attack line {n}", effect)
    for character in data.characters.values():
        action = character.heroic_action
        for effect in action.effects:
            yield EffectUse("characters", character.id, character.name, f"heroic action {action.id}", effect)
    for boss in data.bosses.values():
        for figure in boss.figures:
            for effect in figure.special.effects:
                yield EffectUse("bosses", boss.id, figure.name, f"special ability {figure.special.id}", effect)


def _is_simulated(data: GameData, use: EffectUse, simulated: frozenset[str]) -> bool:
    """A kind the kernel simulates, or an upgrade-card effect that compile applies to the tables."""
    if use.effect.kind in simulated:
        return True
    item = data.items.get(use.owner_id) if use.owner_kind == "items" else None
    return item is not None and item.kind in UPGRADE_KINDS and use.effect.kind in UPGRADE_EFFECTS


def loadout_uses(data: GameData) -> Iterator[EffectUse]:
    """Every effect on the cards a loadout equips (armour, hand items, backup, upgrades), per kit."""
    for loadout in data.loadouts.values():
        for cid, kit in loadout.characters.items():
            cards = [kit.armour, *kit.hands, *kit.backup, *(u for ups in kit.upgrades.values() for u in ups)]
            for item_id in cards:
                item = data.items.get(item_id)
                if item is None:
                    continue
                effects = [*item.effects, *(e for line in item.attacks for e in line.effects)]
                for effect in effects:
                    yield EffectUse("loadouts", loadout.id, item.name, f"{cid} kit: {item_id}", effect)


def unsimulated(data: GameData, simulated: frozenset[str] | None = None) -> list[EffectUse]:
    """Card effects whose kind is not simulated (by default: not in :data:`SIMULATED_EFFECTS`), then
    the same for the gear of every loadout (``owner_kind`` ``loadouts``), so a study with a loadout
    knows which texts of its gear the numbers leave out."""
    simulated = SIMULATED_EFFECTS if simulated is None else simulated
    uses = [*effect_uses(data), *loadout_uses(data)]
    out = []
    for use in uses:
        if use.owner_kind == "loadouts":
            item = data.items[use.where.partition(": ")[2]]
            probe = EffectUse("items", item.id, item.name, use.where, use.effect)
            if _is_simulated(data, probe, simulated):
                continue
        elif _is_simulated(data, use, simulated):
            continue
        out.append(use)
    return out
