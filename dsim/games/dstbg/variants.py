"""Rule variants (rules §16) and house rules: ids, readings, defaults, and the kernel's variant vector.

Each variant is a parameter, never a fork of the code: the kernel reads ``variants[index]``.
Reading 0 is always the documented default (rulebook + FAQ).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dsim.games.dstbg.kernel import layout as L


@dataclass(frozen=True)
class Variant:
    """One switch: its id (rules §16), ambiguity number, kernel index and readings."""

    id: str
    ref: str
    index: int
    readings: tuple[str, ...]
    doc: str
    numeric_default: int | None = None  # numeric house rules take any int; readings is empty

    @property
    def default(self) -> str | int:
        """The documented default reading (or number)."""
        return self.numeric_default if self.numeric_default is not None else self.readings[0]


VARIANTS: tuple[Variant, ...] = (
    Variant("first_side", "A-2", L.V_FIRST_SIDE, ("enemies_first", "characters_first"), "who acts first in a battle (R-8.1)"),
    Variant("initial_aggro", "A-3", L.V_INITIAL_AGGRO, ("players_choice", "first_activating", "random"), "who holds aggro at the start (R-7.9)"),
    Variant("ember_scope", "A-10", L.V_EMBER_SCOPE, ("attacks_only", "any_damage"), "which damage the ember reduces (R-3.8)"),
    Variant("ember_threshold", "A-11", L.V_EMBER_THRESHOLD, ("after_defence", "printed_value"), "ember's 3+ measured after defence or on the printed value"),
    Variant("ember_bleed", "A-12", L.V_EMBER_BLEED, ("separate", "combined"), "attack and bleed damage as one source for the ember (F-3.4)"),
    Variant("stamina_last_slot", "A-13", L.V_STAMINA_LAST_SLOT, ("fatal", "forbidden"), "may a cost fill the 10th slot (R-3.3)"),
    Variant("luck_rolls", "A-14", L.V_LUCK_ROLLS, ("attack_defence_dodge_incl_traps", "no_traps"), "which rolls luck may reroll (R-3.6)"),
    Variant("range_metric", "A-17", L.V_RANGE_METRIC, ("steps_ignore_terrain", "steps_avoid_blocking_terrain"), "how range is counted (R-2.5)"),
    Variant("move_metric", "A-18", L.V_MOVE_METRIC, ("walkable_path", "steps_ignore_terrain"), "distance for closer/farther/nearest moves (R-11.6)"),
    Variant("nearest_for_attacks", "A-19", L.V_NEAREST_FOR_ATTACKS, ("same_as_range", "same_as_move"), "distance deciding the nearest attack target"),
    Variant("push_into_full_node", "A-20", L.V_PUSH_INTO_FULL, ("chain_push", "forbidden"), "a push into a node holding three figures"),
    Variant("push_no_legal_node", "A-21", L.V_PUSH_NO_LEGAL, ("stay",), "a push with no legal destination (only `stay` is simulated)"),
    Variant("node_limit_push_destination", "A-22", L.V_NODE_LIMIT_DEST, ("any_adjacent", "away_from_entrant"), "where the node-limit push goes (R-2.6)"),
    Variant("trap_trigger_moves", "A-23", L.V_TRAP_TRIGGER, ("any_move", "voluntary_only"), "which moves spring traps (R-7.7)"),
    Variant("shift_into_barrel", "A-24", L.V_SHIFT_INTO_BARREL, ("forbidden", "pay_one"), "may a shift enter a barrel node"),
    Variant("attacks_per_activation", "A-27", L.V_ATTACKS_PER_ACT, ("per_hand_weapon", "one_total"), "attacks per activation (R-10.5)"),
    Variant("repeat_icon", "A-28", L.V_REPEAT_ICON, ("same_option_pay_each", "pay_once_roll_each"), "cost of a repeat icon on a character option"),
    Variant("bleed_zero_damage", "A-29", L.V_BLEED_ZERO, ("no_trigger", "trigger_on_hit"), "does a 0-damage hit trigger bleed (R-9.10)"),
    Variant("stagger_on_push_damage", "A-31", L.V_STAGGER_PUSH_DMG, ("no", "yes"), "stagger lowers push damage too"),
    Variant("dodge_move", "A-33", L.V_DODGE_MOVE, ("optional", "mandatory"), "is the dodge move optional (R-9.5)"),
    Variant("attack_push_cornered", "A-34", L.V_ATTACK_PUSH_CORNERED, ("wall_slide", "no_push", "any_adjacent"), "attack push with no farther node"),
    Variant("move_push_direction", "A-35", L.V_MOVE_PUSH_DIR, ("any_adjacent", "away_from_enemy"), "where a move push sends a character (R-9.8)"),
    Variant("push_damage_order", "A-36", L.V_PUSH_DMG_ORDER, ("defend_then_push", "push_then_defend"), "order of defence and push for push damage"),
    Variant("push_damage_dodged", "A-37", L.V_PUSH_DMG_DODGED, ("not_pushed", "still_pushed"), "is a character who dodged push damage pushed"),
    Variant("frostbite_zero_move_push", "A-38", L.V_FROST_ZERO_PUSH, ("push_anyway", "no_move_no_push"), "push of a move reduced to 0 by frostbite"),
    Variant("taunt_tiebreak_pool", "A-39", L.V_TAUNT_POOL, ("among_tied", "all_characters"), "which characters the taunt tie-break considers (R-11.4)"),
    Variant("taunt_equal", "A-40", L.V_TAUNT_EQUAL, ("players_choice", "random"), "tie with equal taunt"),
    Variant("players_choice_policy", "A-41", L.V_PLAYERS_CHOICE, ("favourable", "random", "adversarial"), "how players' choices for enemies are made"),
    Variant("boss_initial_facing", "A-42", L.V_BOSS_FACING, ("toward_entry_door", "toward_nearest_character", "random"), "the boss's facing at setup (R-12.4)"),
    Variant("boss_attack_arc_limit", "A-45", L.V_BOSS_ARC_LIMIT, ("arc_limited", "aoe_only"), "single-target boss attacks only hit characters in the shown arcs"),
    Variant("heatup_shuffle_scope", "A-46", L.V_HEATUP_SCOPE, ("whole_deck", "draw_pile_only"), "what is shuffled when the heat-up card joins (R-12.6)"),
    Variant("gravestone_reveal_info", "A-48", L.V_GRAVESTONE_INFO, ("known", "ignored"), "whether cards revealed by gravestones are known to the policy"),
    Variant("boss_repeat_scope", "sim", L.V_BOSS_REPEAT_SCOPE, ("whole_half", "attacks_only"), "a boss card's repeat icon repeats the whole card (R-12.7) or only its attacks"),
    Variant("max_rounds", "sim", L.V_MAX_ROUNDS, (), "simulator cap on rounds; a battle still running is a timeout (not a win)", 60),
)

BY_ID: dict[str, Variant] = {v.id: v for v in VARIANTS}


def variant_vector(settings: dict[str, str | int] | None = None) -> np.ndarray:
    """The kernel's int32 variant vector: defaults, overridden by ``{id: reading or number}``."""
    vec = np.zeros(L.N_VARIANTS, np.int32)
    for v in VARIANTS:
        if v.numeric_default is not None:
            vec[v.index] = v.numeric_default
    for key, value in (settings or {}).items():
        if key not in BY_ID:
            raise ValueError(f"unknown variant {key!r} (see `dsim variants list`)")
        v = BY_ID[key]
        if v.numeric_default is not None:
            vec[v.index] = int(value)
        elif value in v.readings:
            vec[v.index] = v.readings.index(str(value))
        else:
            raise ValueError(f"variant {key!r} has no reading {value!r} (expected one of {', '.join(v.readings)})")
    return vec
