"""Events of one replayed Bloodborne game: the kernel's trace rows decoded and described for ``dsim explain``."""

from __future__ import annotations

from typing import Any

import numpy as np

from dsim.games.bloodborne.compile import Compiled
from dsim.games.bloodborne.kernel import layout as L

# kind → (event name, rule, names of the a, b, c fields); a field named "card" is an action card,
# "monster" a dungeon card, "track" a trophy track, "hook" a decision hook, "target" a seat.
EVENTS: dict[int, tuple[str, str, tuple[str, ...]]] = {
    L.E_SETUP: ("setup", "BB-2", ("final_boss", "hunters")),
    L.E_REVEAL: ("reveal", "BB-3.1", ("monster", "echoes", "class")),
    L.E_PLAY: ("play", "BB-5.1", ("card",)),
    L.E_TRANSFORM: ("transform", "BB-6.1", ("card",)),
    L.E_CLASH: ("clash", "BB-7.4", ("card",)),
    L.E_CANCEL: ("cancel", "BB-7", ("target",)),
    L.E_INSTANT: ("instant", "BB-7.2", ("card", "echoes_taken", "echoes_left")),
    L.E_HEAL: ("heal", "BB-11.1", ("in_dream",)),
    L.E_BANK: ("bank", "BB-11.1", ("echoes", "banked", "in_dream")),
    L.E_ROLL: ("monster_roll", "BB-8.1", ("rolled", "damage")),
    L.E_WOUND: ("wound", "BB-8.5", ("damage", "health")),
    L.E_DEATH: ("death", "BB-8.6", ("echoes_lost",)),
    L.E_ATTACK: ("attack", "BB-9.2", ("card", "echoes_taken", "echoes_left")),
    L.E_KILL: ("kill", "BB-9.3", ("monster",)),
    L.E_TROPHY: ("trophy", "BB-9.4", ("track", "count")),
    L.E_ESCAPE: ("escape", "BB-10.1", ("monster", "echoes_returned")),
    L.E_RECOVER: ("recover", "BB-11.1", ("cards",)),
    L.E_REVIVE: ("revive", "BB-11.6", ()),
    L.E_UPGRADE: ("upgrade", "BB-11.1", ("card",)),
    L.E_DISCARD: ("discard", "BB-11.7", ("card",)),
    L.E_FIRST: ("first_player", "BB-12.4", ()),
    L.E_SCORE: ("score", "BB-13.1", ("score", "banked", "win")),
    L.E_END: ("end", "BB-13", ("over",)),
    L.E_DECISION: ("decision", "BB-5.1", ("hook", "card", "target")),
    L.E_LOSE_HEALTH: ("lose_health", "card text", ("health_lost",)),
}
DECISION_RULES = {L.HOOK_PLAY: "BB-5.1", L.HOOK_TRANSFORM: "BB-6.1", L.HOOK_CANCEL: "BB-3.7",
                  L.HOOK_UPGRADE: "BB-11.1", L.HOOK_DISCARD: "BB-11.7"}
"""The rule each decision hook answers (cancel: a ranged card stopping melee, seed L44)."""
INSTANT = "BB-3.8"
"""A heal or bank outside the Dream is an Instant card's effect in step 3 (a Blood Vial, a bank card)."""


def rule_of(kind: int, row: np.ndarray) -> str:
    """The rule an event cites: by hook for a decision, by step for a heal or a bank, else the event's own."""
    if kind == L.E_DECISION:
        return DECISION_RULES[int(row[L.EV_A])]
    if kind in (L.E_HEAL, L.E_BANK):
        in_dream = row[L.EV_A] if kind == L.E_HEAL else row[L.EV_C]
        return EVENTS[kind][1] if in_dream else INSTANT
    return EVENTS[kind][1]
CLASSES = ("monster", "boss", "final boss")
OVER = ("running", "final boss dead", "timeout")


def _value(field: str, value: int, comp: Compiled) -> Any:
    """A field's value with ids for cards, monsters, tracks and hooks."""
    if field == "card":
        return comp.card_ids[value] if value >= 0 else None
    if field in ("monster", "final_boss"):
        return comp.dungeon_ids[value]
    if field == "track":
        return comp.track_ids[value]
    if field == "hook":
        return L.HOOK_NAMES[value]
    if field == "class":
        return CLASSES[value]
    if field == "over":
        return OVER[value]
    if field in ("in_dream", "win"):
        return bool(value)
    return int(value)


def events(trace: np.ndarray, comp: Compiled) -> list[dict[str, Any]]:
    """Every trace row as ``{"event", "rule", "round", "seat", <named fields>}`` (seat ``None``: the table)."""
    out = []
    for row in trace:
        kind = int(row[L.EV_KIND])
        name, _, fields = EVENTS[kind]
        seat = int(row[L.EV_SEAT])
        item: dict[str, Any] = {"event": name, "rule": rule_of(kind, row), "round": int(row[L.EV_ROUND]),
                                "seat": seat if seat >= 0 else None}
        for field, value in zip(fields, row[L.EV_A: L.EV_C + 1]):
            item[field] = _value(field, int(value), comp)
        if name == "decision" and item["hook"] not in ("cancel", "upgrade"):
            del item["target"]
        out.append(item)
    return out


def describe(event: dict[str, Any], comp: Compiled) -> str:
    """One readable line of an event, e.g. ``round 3  seat 1  attack: saw_cleaver takes 3 echoes (2 left)``."""
    who = "table" if event["seat"] is None else f"seat {event['seat']}"
    head = f"round {event['round']:>3}  {who:<7} {event['event']} ({event['rule']})"
    names = {**dict(zip(comp.card_ids, comp.card_names)), **dict(zip(comp.dungeon_ids, comp.dungeon_names))}
    rest = [f"{k}={names.get(v, v) if isinstance(v, str) else v}" for k, v in event.items()
            if k not in ("event", "rule", "round", "seat")]
    return head + (": " + ", ".join(rest) if rest else "")
