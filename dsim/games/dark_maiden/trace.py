"""Events of one replayed Dark Maiden game: the kernel's trace rows decoded and described for ``dsim explain``."""

from __future__ import annotations

from typing import Any

import numpy as np

from dsim.games.dark_maiden.compile import Compiled
from dsim.games.dark_maiden.kernel import layout as L

ROLLS = ("attack", "quick strike", "grab", "bonus strike", "bonus attack")
DISMOUNTED_TO = ("the middle", "the discard pile", "a riding amazon")

# kind → (event name, rule, names of the a, b, c fields). Field names with a meaning: "card" a card id,
# "kind" a card kind, "unit" an enemy or boss, "mount" a mount, "role" a foe's role, "hook" a decision hook,
# "action" the chosen row's action, "site" a site, "over" how the game ended, "item" a special item.
EVENTS: dict[int, tuple[str, str, tuple[str, ...]]] = {
    L.E_SETUP: ("setup", "DM-2", ("lives", "heroes", "items")),
    L.E_TURN: ("turn", "DM-3.1", ("site", "advance", "lives")),
    L.E_MOVE: ("move", "DM-4.1", ("action", "steps")),
    L.E_DRAW: ("draw", "DM-4.1", ("card", "kind")),
    L.E_RESHUFFLE: ("reshuffle", "DM-4.6", ("cards",)),
    L.E_SITE_REACHED: ("site_reached", "DM-10.2", ("site", "advance")),
    L.E_BOSS_ENTERS: ("boss_enters", "DM-10.2", ("card", "unit", "role")),
    L.E_PRECIPICE: ("precipice", "DM-5.2.1", ("white", "red", "passed")),
    L.E_FALL: ("fall", "DM-5.2.3", ("mount",)),
    L.E_ENEMY_TEST: ("enemy_precipice", "DM-5.2.4", ("white", "red", "passed")),
    L.E_FOE_FALLS: ("foe_falls", "DM-5.2.4", ("unit", "points")),
    L.E_GOBLIN: ("goblin", "DM-5.3", ("potion_die", "heal_die", "level")),
    L.E_POTIONS: ("potions", "DM-5.3.1", ("change", "potions", "die")),
    L.E_HEAL: ("heal", "DM-5.3.3", ("healed", "damage", "die")),
    L.E_MOUNT_TAKEN: ("mount_taken", "DM-5.4", ("mount", "unit")),
    L.E_MOUNT_MIDDLE: ("mount_to_middle", "DM-5.4.2", ("mount", "damage")),
    L.E_ENTERS: ("enters", "DM-5.5", ("card", "unit", "role")),
    L.E_DRINK: ("drink", "DM-6.1", ("potions", "enemies")),
    L.E_ROLL: ("roll", "DM-7.1", ("white", "red", "roll")),
    L.E_HERO_HITS: ("hero_hits", "DM-7.2", ("unit", "damage", "left")),
    L.E_FOE_HITS: ("enemies_hit", "DM-7.3", ("damage", "hero_damage", "unit")),
    L.E_KILL: ("kill", "DM-10.1", ("unit", "role", "points")),
    L.E_ADVANCE: ("advance", "DM-10.1", ("points", "advance")),
    L.E_DEATH: ("death", "DM-7.9", ("deaths", "lives", "out")),
    L.E_DISMOUNT: ("dismount", "DM-7.10", ("mount", "mount_damage", "to")),
    L.E_REINFORCE: ("reinforcements", "DM-9.4", ("card", "kind", "entered")),
    L.E_PALADIN_HEALS: ("paladin_heals", "DM-9.5", ("healed", "damage")),
    L.E_BONUS: ("bonus", "DM-8.1", ("action", "mount")),
    L.E_SITE_DONE: ("site_complete", "DM-10.3", ("site", "deck", "pile")),
    L.E_END: ("end", "DM-1", ("over", "site", "lives")),
    L.E_DECISION: ("decision", "DM-3", ("hook", "action", "foe")),
    L.E_ITEM: ("item", "DM-2.9", ("item", "gained")),
    L.E_NO_ROOM: ("no_room", "sim", ("card", "middle")),
    L.E_REROLL: ("reroll", "DM-7.5", ("white", "red")),
    L.E_GRAB: ("grab", "DM-7.7", ("white", "red", "succeeded")),
    L.E_FOE_DISMOUNT: ("foe_dismounted", "DM-9.1", ("unit", "mount", "discarded")),
}
ACTIONS = {
    L.HOOK_MOVE: ("walk", "run"), L.HOOK_POTIONS: ("keep", "drink"), L.HOOK_ATTACK: ("roll", "quick strike"),
    L.HOOK_DOUBLE: ("accept", "reroll", "grab"), L.HOOK_TARGET: ("enemy",), L.HOOK_SPLIT: ("enemy",),
    L.HOOK_FALL: ("enemy",), L.HOOK_BONUS: ("pass", "strike", "recover", "mount"),
    L.HOOK_GOBLIN: ("white for potions", "red for potions"),
}
BONUS = ACTIONS[L.HOOK_BONUS]
ITEM_RULES = {L.ITEMS_KEPT: "kept", L.ITEMS_LOST_ON_DEATH: "lost_on_death", L.ITEMS_IN_DECK: "in_deck"}


def _value(field: str, value: int, comp: Compiled, hook: int) -> Any:
    """A field's value with ids for cards, units, mounts, sites and hooks."""
    if field == "card":
        return comp.card_names[value] if value >= 0 else None
    if field == "unit":
        return comp.unit_ids[value] if value >= 0 else None
    if field == "mount":
        return comp.mount_ids[value] if value >= 0 else None
    if field == "kind":
        return L.KIND_NAMES[value]
    if field == "role":
        return L.ROLE_NAMES[value]
    if field == "site":
        return comp.site_ids[value]
    if field == "over":
        return L.OVER_NAMES[value]
    if field == "items":  # the difficulty's special-item rule (DM-2.9), -1 when the game has none
        return ITEM_RULES[value] if value >= 0 else "none"
    if field == "hook":
        return L.HOOK_NAMES[value]
    if field == "roll":
        return ROLLS[value]
    if field == "to":
        return DISMOUNTED_TO[value]
    if field == "action" and hook >= 0:
        names = ACTIONS[hook]
        return names[value] if value < len(names) else int(value)
    if field in ("passed", "out", "gained", "entered", "succeeded", "discarded", "middle"):
        return bool(value)
    return int(value)


def events(trace: np.ndarray, comp: Compiled) -> list[dict[str, Any]]:
    """Every trace row as ``{"event", "rule", "turn", "seat", <named fields>}`` (seat ``None``: the table)."""
    out = []
    for row in trace:
        kind = int(row[L.EV_KIND])
        name, rule, fields = EVENTS[kind]
        seat = int(row[L.EV_SEAT])
        hook = int(row[L.EV_A]) if kind == L.E_DECISION else L.HOOK_MOVE if kind == L.E_MOVE else (
            L.HOOK_BONUS if kind == L.E_BONUS else -1)
        item: dict[str, Any] = {"event": name, "rule": rule, "turn": int(row[L.EV_TURN]),
                                "seat": seat if seat >= 0 else None}
        for field, value in zip(fields, row[L.EV_A: L.EV_C + 1]):
            item[field] = _value(field, int(value), comp, hook)
        if name == "decision" and item["foe"] < 0:
            del item["foe"]
        if name == "move":
            item["action"] = ("walk", "run")[int(row[L.EV_A])]
        out.append(item)
    return out


def describe(event: dict[str, Any], comp: Compiled, party: list[str]) -> str:
    """One readable line of an event, e.g. ``turn  3  barbara   roll (DM-7.1): white=2, red=2, roll=attack``."""
    seat = event["seat"]
    who = "table" if seat is None else (party[seat] if seat < len(party) else f"seat {seat}")
    head = f"turn {event['turn']:>3}  {who:<9} {event['event']} ({event['rule']})"
    names = {**dict(zip(comp.unit_ids, comp.unit_names)), **dict(zip(comp.site_ids, comp.site_names))}
    rest = [f"{k}={names.get(v, v) if isinstance(v, str) else v}" for k, v in event.items()
            if k not in ("event", "rule", "turn", "seat")]
    return head + (": " + ", ".join(rest) if rest else "")
