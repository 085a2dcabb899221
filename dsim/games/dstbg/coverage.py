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

SIMULATED_EFFECTS: frozenset[str] = frozenset()
"""Effect kinds the battle kernel implements (empty until the kernel issues add them)."""


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


def unsimulated(data: GameData, simulated: frozenset[str] | None = None) -> list[EffectUse]:
    """Card effects whose kind is not simulated (by default: not in :data:`SIMULATED_EFFECTS`)."""
    simulated = SIMULATED_EFFECTS if simulated is None else simulated
    return [use for use in effect_uses(data) if use.effect.kind not in simulated]
