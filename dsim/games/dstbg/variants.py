"""Rule variants (rules §16): ids, readings, defaults, seed texts, and the kernel's variant vector.

Each variant is a parameter, never a fork of the code: the kernel reads ``variants[index]``.
Reading 0 is always the documented default (rulebook + FAQ). ``seed`` summarises what the
source texts say (rules §16, sources 000 / JP / FAQ of §0.1); ``reading_docs`` says what each
reading does to the battle. §16 entries the battle engine cannot express are in ``NOT_SIMULATED``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dsim.games.dstbg.kernel import layout as L


@dataclass(frozen=True)
class Variant:
    """One switch: its id (rules §16), ambiguity number, kernel index, readings and their sources."""

    id: str
    ref: str
    index: int
    readings: tuple[str, ...]
    doc: str
    numeric_default: int | None = None  # numeric settings take any int; readings is empty
    seed: str = ""  # what the seed texts say (rules §16)
    reading_docs: tuple[str, ...] = ()  # one line per reading: its effect on the battle

    @property
    def default(self) -> str | int:
        """The documented default reading (or number)."""
        return self.numeric_default if self.numeric_default is not None else self.readings[0]


def _v(vid: str, ref: str, index: int, doc: str, seed: str, **readings: str) -> Variant:
    """A categorical variant whose keyword arguments are its readings (default first) and their effects."""
    return Variant(vid, ref, index, tuple(readings), doc, seed=seed, reading_docs=tuple(readings.values()))


VARIANTS: tuple[Variant, ...] = (
    _v("first_side", "A-2", L.V_FIRST_SIDE, "who acts first in a battle (R-8.1)",
       "000: enemies first; JP: enemies, corrected 24 Oct 2017 (earlier: characters).",
       enemies_first="every enemy activates (R-11.1) before the first character turn",
       characters_first="one character activates before the enemies' first turn (superseded JP)"),
    _v("initial_aggro", "A-3", L.V_INITIAL_AGGRO, "who holds aggro at the start (R-7.9)",
       "000: the character who led the party in; JP: any character, corrected 1 Nov 2017 from the first to act.",
       players_choice="the policy gives the aggro token (D-15)",
       first_activating="the character who activates first holds aggro from the start",
       random="a uniformly random character holds aggro"),
    _v("ember_scope", "A-10", L.V_EMBER_SCOPE, "which damage the ember reduces (R-3.8)",
       "000: 3+ damage suffered in an attack; FAQ: not traps, not conditions; JP: any 3+ damage.",
       attacks_only="attack and push damage of 3+ is reduced by 1 (F-9.8)",
       any_damage="bleed, poison and trap damage of 3+ is reduced too"),
    _v("ember_threshold", "A-11", L.V_EMBER_THRESHOLD, "ember's 3+ measured after defence or on the printed value",
       "000: damage the character 'suffers'; FAQ example: 'a hit that deals 2'.",
       after_defence="the ember needs 3+ damage left after block/resist",
       printed_value="the ember needs a printed attack value of 3+, whatever is blocked"),
    _v("ember_bleed", "A-12", L.V_EMBER_BLEED, "attack and bleed damage as one source for the ember (F-3.4)",
       "FAQ: attack damage and bleed damage are separate sources.",
       separate="bleed's 2 is not added to the hit for the ember's 3+ test",
       combined="a hit on a bleeding character counts its +2 toward the ember's 3+"),
    _v("stamina_last_slot", "A-13", L.V_STAMINA_LAST_SLOT, "may a cost fill the 10th slot (R-3.3)",
       "000: only says that a full bar kills.",
       fatal="a cost may fill the last free slot; the character dies",
       forbidden="a cost is payable only if one slot stays free"),
    _v("luck_rolls", "A-14", L.V_LUCK_ROLLS, "which rolls luck may reroll (R-3.6)",
       "Seeds: luck rerolls one die 'when attacking, blocking or dodging'.",
       attack_defence_dodge_incl_traps="trap dodges may be rerolled with luck",
       no_traps="luck is never offered on a trap dodge"),
    _v("estus_timing", "A-15", L.V_ESTUS_TIMING, "when a character may drink the estus (R-3.5)",
       "000: during the character's activation; JP: any time in its own activation.",
       own_activation="the estus is offered at the start and end of the character's own activation",
       also_enemy_turn="house rule: also offered (D-23) before the character defends against an attack"),
    _v("range_metric", "A-17", L.V_RANGE_METRIC, "how range is counted (R-2.5)",
       "Seeds: 'up to N nodes'.",
       steps_ignore_terrain="range counts adjacency steps through any node",
       steps_avoid_blocking_terrain="range counts the walking path round gravestones, chests and barrels"),
    _v("move_metric", "A-18", L.V_MOVE_METRIC, "distance for closer/farther/nearest moves (R-11.6)",
       "Not covered; F-11.4 has a blocked enemy stay put.",
       walkable_path="enemies route round blocking terrain",
       steps_ignore_terrain="an enemy whose only closer node is blocked stays put"),
    _v("nearest_for_attacks", "A-19", L.V_NEAREST_FOR_ATTACKS, "distance deciding the nearest attack target",
       "Not covered.",
       same_as_range="the nearest attack target is measured like range (A-17)",
       same_as_move="the nearest attack target is measured like movement (A-18)"),
    _v("push_into_full_node", "A-20", L.V_PUSH_INTO_FULL, "a push into a node holding three figures",
       "Not covered.",
       chain_push="a push into a full node pushes a figure on (R-2.6 again)",
       forbidden="full nodes are not legal push destinations"),
    _v("push_no_legal_node", "A-21", L.V_PUSH_NO_LEGAL, "a push with no legal destination",
       "Not covered.",
       stay="the pushed figure is not moved",
       any_adjacent_ignoring_terrain="the pushed figure goes to any adjacent node, terrain and full nodes included (node-limit pushes still stay)"),
    _v("node_limit_push_destination", "A-22", L.V_NODE_LIMIT_DEST, "where the node-limit push goes (R-2.6)",
       "000: silent; JP: any adjacent node the players choose.",
       any_adjacent="the displaced figure goes to any adjacent node",
       away_from_entrant="only nodes farther from where the entrant came from"),
    _v("trap_trigger_moves", "A-23", L.V_TRAP_TRIGGER, "which moves spring traps (R-7.7)",
       "000: 'moves into'; FAQ shows a dodge move springing one.",
       any_move="walks, runs, dodges, shifts and pushes spring traps",
       voluntary_only="pushes (attack, move and node-limit) never spring traps"),
    _v("shift_into_barrel", "A-24", L.V_SHIFT_INTO_BARREL, "may a shift enter a barrel node",
       "Seeds: shifts are not listed among the moves that may enter a barrel.",
       forbidden="a shift never enters a barrel node",
       pay_one="a shift may enter a barrel node for 1 stamina, breaking it"),
    _v("attacks_per_activation", "A-27", L.V_ATTACKS_PER_ACT, "attacks per activation (R-10.5)",
       "000 and FAQ: one attack per weapon in a hand slot; an unfinished JP sentence: at most one attack.",
       per_hand_weapon="each hand weapon may attack once per activation",
       one_total="a character attacks at most once per activation"),
    _v("repeat_icon", "A-28", L.V_REPEAT_ICON, "cost of a repeat icon on a character option",
       "000: the whole option N times; JP: each time an attack is chosen and rolled.",
       same_option_pay_each="each repetition pays the cost, picks a target and rolls",
       pay_once_roll_each="the cost is paid once; each repetition rolls",
       any_option_each="each repetition may be any option of the same weapon, paid each time"),
    _v("bleed_zero_damage", "A-29", L.V_BLEED_ZERO, "does a 0-damage hit trigger bleed (R-9.10)",
       "000: bleed triggers when the character 'suffers damage'; JP concludes a 0-damage hit does not.",
       no_trigger="a hit fully blocked leaves the bleed token in place",
       trigger_on_hit="a fully blocked hit on a bleeding character deals bleed's 2 and removes the token"),
    _v("bleed_same_attack", "A-30", L.V_BLEED_SAME, "does a bleed token placed by an attack add +2 to that same attack",
       "F-9.5 orders 'damage, then conditions'.",
       next_damage_only="the new bleed token waits for the next damage",
       same_attack="the attack's tokens land before its damage: a new bleed adds its 2 at once and goes"),
    _v("stagger_on_push_damage", "A-31", L.V_STAGGER_PUSH_DMG, "stagger lowers push damage too",
       "Stagger lowers 'the damage of attack icons'; FAQ: push damage is an attack.",
       no="a staggered enemy's push damage is unchanged",
       yes="a staggered enemy's push damage is 1 lower"),
    _v("stagger_repeat", "A-32", L.V_STAGGER_REPEAT, "stagger's +1 stamina on a repeated option (R-9.10)",
       "Stagger: +1 stamina 'to use a weapon action'; silent on repeat icons.",
       per_use="each paid repetition costs stagger's +1 again (follows A-28)",
       once="stagger's +1 is paid on the option's first use only"),
    _v("dodge_move", "A-33", L.V_DODGE_MOVE, "is the dodge move optional (R-9.5)",
       "000 and JP: optional; FAQ once: 'you must spend 1 and move'.",
       optional="a dodging character may stay in its node",
       mandatory="a dodging character must move to an adjacent node if it can"),
    _v("attack_push_cornered", "A-34", L.V_ATTACK_PUSH_CORNERED, "attack push with no farther node",
       "Seeds: silent (the boss case uses 'along the wall').",
       wall_slide="pushed along the wall to a node not closer to the attacker, else stays",
       no_push="a cornered character is not pushed",
       any_adjacent="a cornered character is pushed to any adjacent node"),
    _v("move_push_direction", "A-35", L.V_MOVE_PUSH_DIR, "where a move push sends a character (R-9.8)",
       "000, FAQ, JP: an adjacent node chosen by the players; JP memo: away from the enemy.",
       any_adjacent="any adjacent node the players choose",
       away_from_enemy="only adjacent nodes farther from the node the enemy came from (on along its path)"),
    _v("push_damage_order", "A-36", L.V_PUSH_DMG_ORDER, "order of defence and push for push damage",
       "FAQ step 5: push, then damage; FAQ dodge ruling and JP: defence first, push after a failed defence.",
       defend_then_push="the character defends in the enemy's node, then is pushed if hit",
       push_then_defend="the character is pushed first, then defends in its new node"),
    _v("push_damage_dodged", "A-37", L.V_PUSH_DMG_DODGED, "is a character who dodged push damage pushed",
       "R-9.2: a dodged attack does not hit; F-9.8: push without damage cannot be dodged.",
       not_pushed="a successful dodge avoids the push too",
       still_pushed="a character still in the enemy's node is pushed even after dodging"),
    _v("frostbite_zero_move_push", "A-38", L.V_FROST_ZERO_PUSH, "push of a move reduced to 0 by frostbite",
       "JP: an enemy whose move is reduced to 0 still pushes the characters in its node.",
       push_anyway="the characters in the enemy's node are pushed",
       no_move_no_push="no move, no push"),
    _v("taunt_tiebreak_pool", "A-39", L.V_TAUNT_POOL, "which characters the taunt tie-break considers (R-11.4)",
       "Seeds: 'if the aggro holder is not among the nearest, go for the highest taunt'.",
       among_tied="the highest taunt among the tied nearest characters",
       all_characters="the highest taunt among all characters, nearest or not"),
    _v("taunt_equal", "A-40", L.V_TAUNT_EQUAL, "tie with equal taunt",
       "Not covered.",
       players_choice="the players pick among the tied characters (D-34)",
       random="a random tied character"),
    _v("players_choice_policy", "A-41", L.V_PLAYERS_CHOICE, "how players' choices for enemies are made",
       "The rules give these choices to the players; the FAQ says herding enemies is legal.",
       favourable="the policy answers in the party's favour",
       random="uniformly random answers",
       adversarial="answers against the party (stress test)"),
    _v("boss_initial_facing", "A-42", L.V_BOSS_FACING, "the boss's facing at setup (R-12.4)",
       "Not stated in the seeds.",
       toward_entry_door="front arc toward the adjacent node closest to the party's entry door",
       toward_nearest_character="front arc toward the nearest character after placement",
       random="a uniformly random facing"),
    _v("boss_toward_rotation", "A-44", L.V_BOSS_TOWARD, "how a boss turns to move toward a character (R-12.14)",
       "000 and FAQ: centre the front arc on the adjacent node closest to the target; JP: the target's node in the front arc.",
       face_closer_adjacent="the boss turns its front arc onto an adjacent node closer to the target",
       target_in_front_arc="a boss whose front arc already holds the target's node keeps its facing"),
    _v("boss_attack_arc_limit", "A-45", L.V_BOSS_ARC_LIMIT, "single-target boss attacks only hit characters in the shown arcs",
       "000 spells out arcs only for the AoE icon but warns an attack may miss by position; JP: green arcs are attacked.",
       arc_limited="a single-target attack whose card shows arcs fails on a target outside them",
       aoe_only="only area attacks look at the arcs"),
    _v("heatup_shuffle_scope", "A-46", L.V_HEATUP_SCOPE, "what is shuffled when the heat-up card joins (R-12.6)",
       "000: add a heat-up card to the deck and shuffle; FAQ: prepare 'the new behaviour deck'.",
       whole_deck="draw pile and discards are shuffled together with the heat-up card",
       draw_pile_only="only the remaining draw pile is shuffled with the heat-up card"),
    _v("gravestone_reveal_info", "A-48", L.V_GRAVESTONE_INFO, "whether cards revealed by gravestones are known to the policy",
       "Simulator: R-12.5 reveals one card per gravestone.",
       known="the revealed cards are in the state for the policy",
       ignored="the policy is told nothing"),
    _v("boss_repeat_scope", "sim", L.V_BOSS_REPEAT_SCOPE, "a boss card's repeat icon",
       "000: the boss 'repeats its whole action' (R-12.7); [E] counts repeated attacks only.",
       whole_half="the whole card (its half, for O&S) is resolved again",
       attacks_only="only the card's attack icons are resolved again"),
    Variant("max_rounds", "sim", L.V_MAX_ROUNDS, (), "simulator cap on rounds; a battle still running is a timeout (not a win)",
            60, seed="Simulator setting: the rules have no round limit.",
            reading_docs=("battles still running after this many rounds end as timeouts",)),
)

BY_ID: dict[str, Variant] = {v.id: v for v in VARIANTS}

# §16 entries (and readings) the battle engine cannot express yet, with the reason (rules §16 ids).
NOT_SIMULATED: dict[str, str] = {
    "A-1 spark_table": "campaign/bonfire rule: no effect inside one battle",
    "A-4 boss_choice": "sweep parameter (the settings name the boss)",
    "A-5 tile_layout": "exploration layer, not simulated",
    "A-6 post_miniboss_dropped_souls": "campaign layer, not simulated",
    "A-7 post_miniboss_chests": "campaign layer, not simulated",
    "A-8 treasure_deck_empty": "campaign layer, not simulated",
    "A-9 encounter_redraw_after_miniboss": "campaign layer, not simulated",
    "A-10..A-12 ember_*": "registered, but inert: no character holds an ember at a battle's start (the kernel never sets one)",
    "A-16 entry_nodes": "only door_wall is compiled (compile step)",
    "A-25 soul_retrieval_moves": "campaign layer (souls), not simulated",
    "A-26 multi_death_soul_node": "campaign layer (souls), not simulated",
    "A-43 boss_arc_shift_in_node": "needs kernel code: stepping round the boss inside its node is not offered, so "
                                   "every reading plays as `forbidden`; the default `allowed` would change default results",
    "A-47 heatup_timing": "equivalent readings here: nothing reads the deck between the two moments",
    "A-49 chest_equip": "campaign layer, not simulated",
    "A-50 defeat_clears_cubes": "cubes are per battle here",
    "A-51..A-56 campaign variants": "campaign layer, not simulated",
}


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
            try:
                vec[v.index] = int(value)
            except (TypeError, ValueError):
                raise ValueError(f"variant {key!r} takes a whole number, got {value!r}") from None
        elif value in v.readings:
            vec[v.index] = v.readings.index(str(value))
        else:
            raise ValueError(f"variant {key!r} has no reading {value!r} (expected one of {', '.join(v.readings)})")
    return vec
