"""Single-rule tests on hand-placed scenes with forced dice (issue 3).

Each test builds a tiny position with :mod:`tests.kit` (figures placed by hand, cubes and tokens
set), forces the dice, plays on with scripted answers and checks the resulting state. Test names
carry the rule ID they pin down (``R-…`` rulebook, ``F-…`` FAQ ruling; ``/work/shared/rules/dstbg.md``);
each is built so that the checked number changes if the rule is broken.

Board of an encounter tile (node ids by (row, col))::

    0 . 1 . 2          neighbour order of the kernel: N, NE, E, SE, S, SW, W, NW
    . 3 . 4 .          (the first legal one is option 1 of a move hook; row 0 = stop/stay)
    5 . 6 . 7
    . 8 . 9 .
   10 . 11 . 12

Dice faces: black 0,1,1,1,2,2; blue 1,1,2,2,2,3; green 0,0,0,1,1,1 (dodge symbols).
Starting kits: knight = long sword (0: U; 4: KU) + kite shield (block K), armour block U / resist K,
no dodge dice; assassin = estoc (0: KK−1; 3: KKK−1) + target shield, 2 green dice, block K;
warrior = battle axe (0: KK; 2: KK node) + round shield, block KK; herald = spear (range 1, reach)
+ kite shield, block KK.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from dsim.games.dstbg import engine
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.policy import POLICY_SIG
from dsim.games.dstbg.trace import events
from tests.kit import SCRIPT_LEN, first, play, scene, script, scripted

ROUTE = SCRIPT_LEN  # params[ROUTE:]: route before attacking, then route after attacking (see ``routed``)
ROUTE_SLOTS = 10


@njit(POLICY_SIG, cache=False)  # reads the layout's offsets: a cached build could hold old ones
def routed(hook, n, battle):
    """The kit's scripted policy, except that walks follow a given route: before the active
    character has attacked, the route at ``params[ROUTE]``; after, the one at ``params[ROUTE + 11]``
    (each: length, then node ids). At a node not on the route (or its last node) the walk stops."""
    st, opts, params = battle, battle.opts, battle.params
    if hook == L.H_STEP:
        c = st.glob[L.G_ACTIVE]
        attacked = 0
        if c >= 0:
            attacked = st.chars[c, L.C_USED0] + st.chars[c, L.C_USED1]
        base = ROUTE if attacked == 0 else ROUTE + ROUTE_SLOTS + 1
        m = int(params[base])
        here = opts[0, 0]
        for i in range(m - 1):
            if int(params[base + 1 + i]) == here:
                nxt = int(params[base + 2 + i])
                for k in range(1, n):
                    if opts[k, 0] == nxt:
                        return k
                return 0
        return 0
    choice = params[hook]
    if choice < 0:
        return 0
    return min(int(choice), n - 1)


def play_routed(pos, before=(), after=(), forced=(), **choices):
    """Play on from ``pos`` with the ``routed`` policy: walk ``before`` attacking, ``after`` it."""
    params = np.concatenate([script(**choices), np.full(2 * (ROUTE_SLOTS + 1), -1.0)])
    for base, route in ((ROUTE, before), (ROUTE + ROUTE_SLOTS + 1, after)):
        params[base] = len(route)
        params[base + 1 : base + 1 + len(route)] = route
    b = engine.play_from(pos.comp.tables, routed, params, pos.state(), 0, np.asarray(forced, np.int32))
    return b, events(b, pos.comp)


def empty(party, encounter="the_forgotten", rounds=1, **variants):
    """A scene with no enemy on the board, no terrain, one round unless told (``max_rounds``)."""
    settings = {"max_rounds": rounds}
    settings.update(variants)
    pos = scene(party, encounter=encounter, variants=settings)
    for e in range(len(pos.comp.enemy_ids)):
        pos.remove_enemy(e)
    for n in range(pos.comp.tables.steps.shape[0]):
        if n < 13:
            pos.terrain(n, L.TERRAIN_NONE)
    return pos


def slot(pos, enemy_id, k=0):
    """The k-th enemy slot of type ``enemy_id`` in the scene."""
    return [i for i, e in enumerate(pos.comp.enemy_ids) if e == enemy_id][k]


def ch(ev, cid):
    """A character's state in an event."""
    return next(c for c in ev["state"]["characters"] if c["id"] == cid)


def en(ev, e):
    """Enemy slot ``e``'s state in an event."""
    return ev["state"]["enemies"][e]


def last(evs):
    return evs[-1]


def all_of(evs, event, **match):
    return [ev for ev in evs if ev["event"] == event and all(ev.get(k) == v for k, v in match.items())]


def outcome(b):
    return int(b.glob[L.G_OUTCOME])


# ---------------------------------------------------------------------------------------------
# R-3 endurance bar
# ---------------------------------------------------------------------------------------------
def test_R_3_2_block_damage_fills_red_cubes():
    """R-3.2/R-9.5: a hollow soldier's 4 physical against the knight's block roll K+U = 1+1 → 2 red cubes."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 6)
    b, evs = play(pos, forced=[0, 2])
    ev = first(evs, "defend", actor="knight")
    assert ev["values"][:3] == [0, 2, 2]  # block (physical), rolled 2, takes 2
    assert len(ev["dice"]) == 2  # kite shield K + knight armour U
    assert ch(first(evs, "damage", actor="knight"), "knight")["damage"] == 2
    assert ch(last(evs), "knight")["damage"] == 2


@pytest.mark.parametrize("stamina, dies", [(7, True), (6, False)])
def test_R_3_3_death_when_ten_slots_fill(stamina, dies):
    """R-3.3: 7 black cubes + 3 damage fill all ten slots → death, party defeated at once; 6 + 3 = 9 survives."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 6, stamina=stamina)
    b, evs = play(pos, forced=[0, 1])  # block 1 of 4: 3 damage
    st = ch(first(evs, "damage", actor="knight"), "knight")
    assert st["damage"] == 3
    assert ch(last(evs), "knight")["alive"] is (not dies)
    assert not any(ev["event"] == "activate" and ev["actor"] == "knight" for ev in evs) or not dies
    assert (outcome(b) == L.OUT_LOSS) is dies
    if dies:
        first(evs, "death", actor="knight")


def test_R_3_4_gain_removes_only_existing_cubes():
    """R-3.4/R-10.1: the start-of-activation gain of 2 stamina with 1 black cube removes just that one."""
    pos = empty(["knight"])
    pos.enemy(slot(pos, "hollow_soldier"), 0).char("knight", 12, stamina=1, damage=3)
    b, evs = play(pos)
    g = first(evs, "gain", actor="knight")
    assert g["values"][:2] == [1, 0]
    st = ch(g, "knight")
    assert (st["stamina"], st["damage"]) == (0, 3)  # health is not gained


def test_R_10_1_gain_two_stamina_and_take_aggro():
    """R-10.1: the activating character gains 2 stamina (5 → 3 black cubes) and takes the aggro token."""
    pos = empty(["knight", "herald"])
    pos.enemy(slot(pos, "hollow_soldier"), 0).char("knight", 12, stamina=5).char("herald", 10)
    pos.tokens(aggro=1, next_char=0)
    b, evs = play(pos)
    act = first(evs, "activate", actor="knight")
    assert not ch(act, "knight")["aggro"]
    end = last(evs)
    assert ch(end, "knight")["stamina"] == 3
    assert ch(end, "knight")["aggro"] and not ch(end, "herald")["aggro"]


# ---------------------------------------------------------------------------------------------
# R-8 turn order
# ---------------------------------------------------------------------------------------------
def test_R_8_1_enemies_first_then_one_character_per_turn():
    """R-8.1/R-8.2: each round is an enemy turn then exactly one character, in seat order."""
    pos = empty(["knight", "herald"], rounds=2)
    pos.enemy(slot(pos, "hollow_soldier"), 0).char("knight", 12).char("herald", 12).tokens(next_char=0)
    b, evs = play(pos)
    acts = [(ev["round"], ev["actor"]) for ev in all_of(evs, "activate")]
    hs = f"hollow_soldier#{slot(pos, 'hollow_soldier')}"
    assert acts == [(1, hs), (1, "knight"), (2, hs), (2, "herald")]


def test_R_11_1_enemies_activate_by_threat_high_to_low():
    """R-11.1: in ruined_keep (slots crossbow, hollow soldier, crossbow) the hollow soldier (threat 5)
    activates before both crossbow hollows (threat 2), whatever the slot order."""
    pos = empty(["knight"], encounter="ruined_keep")
    assert pos.comp.enemy_ids == ("crossbow_hollow", "hollow_soldier", "crossbow_hollow")
    pos.enemy(0, 0).enemy(1, 2).enemy(2, 10).char("knight", 12)
    b, evs = play(pos)
    order = [ev["actor"] for ev in all_of(evs, "activate") if "#" in ev["actor"]]
    assert order[0] == "hollow_soldier#1"
    assert sorted(order[1:]) == ["crossbow_hollow#0", "crossbow_hollow#2"]


# ---------------------------------------------------------------------------------------------
# R-11 enemy activation: targets, movement, attacks
# ---------------------------------------------------------------------------------------------
def test_R_11_4_nearest_tie_goes_to_aggro_holder():
    """R-11.4: herald and knight both 1 node from the hollow soldier; the herald holds aggro, so the
    soldier moves onto the herald (not the higher-taunt knight) and attacks it."""
    pos = empty(["knight", "herald"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 1).char("herald", 0).char("knight", 2).tokens(aggro=1, next_char=0)
    b, evs = play(pos, forced=[0, 0])  # herald blocks KK = 0
    mv = first(evs, "move", actor=f"hollow_soldier#{hs}")
    assert mv["values"][:2] == [1, 0]
    att = first(evs, "attack", actor=f"hollow_soldier#{hs}")
    assert att["values"][1] == 1  # target: the herald
    assert ch(last(evs), "herald")["damage"] == 4
    assert ch(last(evs), "knight")["damage"] == 0


def test_R_11_4_nearest_tie_without_aggro_goes_to_highest_taunt():
    """R-11.4: herald (taunt 2) and knight (taunt 4) tie for nearest and the aggro holder (assassin) is
    farther: the soldier moves to the knight."""
    pos = empty(["knight", "herald", "assassin"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 1).char("herald", 0).char("knight", 2).char("assassin", 12).tokens(aggro=2, next_char=0)
    b, evs = play(pos, forced=[0, 1])
    mv = first(evs, "move", actor=f"hollow_soldier#{hs}")
    assert mv["values"][:2] == [1, 2]
    assert first(evs, "attack", actor=f"hollow_soldier#{hs}")["values"][1] == 0  # the knight
    assert ch(last(evs), "knight")["damage"] == 3


def test_R_11_9_attack_out_of_range_fails():
    """R-11.9: a range-0 attack on a character still 1 node away after the move fails: no damage."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 0).char("knight", 6)
    b, evs = play(pos)
    mv = first(evs, "move", actor=f"hollow_soldier#{hs}")
    assert pos.comp.tables.steps[mv["values"][1], 6] == 1  # one node closer
    first(evs, "attack_fails", actor=f"hollow_soldier#{hs}")
    assert not all_of(evs, "defend")
    assert ch(last(evs), "knight")["damage"] == 0


def test_F_11_6_move_toward_stops_on_target_node_and_R_9_7_attack_push():
    """F-11.6: the swordsman (move 2) stops on its target's node after 1 step; R-11.10/R-9.7: its node
    attack (5, push) hits, then the knight is pushed to an adjacent node after the damage."""
    pos = empty(["knight"], encounter="broken_passageway")
    sk = slot(pos, "silver_knight_swordsman")
    pos.enemy(sk, 3).char("knight", 6)
    b, evs = play(pos, forced=[0, 1])
    moves = all_of(evs, "move", actor=f"silver_knight_swordsman#{sk}")
    assert [m["values"][:2] for m in moves] == [[3, 6]]
    dmg = first(evs, "damage", actor="knight")
    assert dmg["values"][0] == 4
    push = first(evs, "push", actor="knight")
    assert evs.index(push) > evs.index(dmg)
    assert push["values"][0] == 6 and pos.comp.tables.steps[push["values"][1], 6] == 1


def test_R_11_6_move_away_and_R_9_5_resist_against_magic_at_range():
    """R-11.6: the crossbow hollow moves 1 node away from the aggro holder; R-11.9/R-9.5: its magic 3
    at range ∞ is resisted with the resist dice only (knight: K), 1 → 2 damage."""
    pos = empty(["knight"], encounter="ruined_keep")
    pos.enemy(0, 6).char("knight", 0).tokens(aggro=0)
    b, evs = play(pos, forced=[1, 2])
    mv = first(evs, "move", actor="crossbow_hollow#0")
    assert pos.comp.tables.steps[mv["values"][1], 0] == 3
    d = first(evs, "defend", actor="knight")
    assert d["values"][0] == 1  # resist (magic)
    assert d["dice"] == [1]  # one black resist die; blocking would roll K+U
    assert ch(last(evs), "knight")["damage"] == 2


def test_R_11_10_enemy_node_attack_hits_everyone_on_node():
    """R-11.10: the greatbowman's node attack (4 physical, aggro's node) hits the knight and the warrior
    on that node; each defends separately."""
    pos = empty(["knight", "warrior"], encounter="the_forgotten")
    gb = slot(pos, "silver_knight_greatbowman")
    pos.enemy(gb, 0).char("knight", 12).char("warrior", 12)
    pos.tokens(aggro=0, next_char=0)
    b, evs = play(pos, forced=[0, 1, 1, 1])  # knight blocks 1, warrior blocks 2
    defs = all_of(evs, "defend")
    assert [d["actor"] for d in defs] == ["knight", "warrior"]
    end = last(evs)
    assert ch(end, "knight")["damage"] == 3
    assert ch(end, "warrior")["damage"] == 2


def test_F_9_6_D_28_characters_hit_together_defend_in_the_order_the_players_choose():
    """The same node attack as above with the warrior chosen to defend first (D-28): the first dice rolled
    are now his, and the knight still defends (F-9.6: simultaneous attacks)."""
    pos = empty(["knight", "warrior"], encounter="the_forgotten")
    gb = slot(pos, "silver_knight_greatbowman")
    pos.enemy(gb, 0).char("knight", 12).char("warrior", 12)
    pos.tokens(aggro=0, next_char=0)
    b, evs = play(pos, forced=[0, 1, 1, 1], H_DEFENCE_ORDER=1)  # warrior blocks 1, knight blocks 2
    order = first(evs, "decision", hook="defence_order")
    assert order["values"][1:3] == [1, 2]  # option 1 of 2: the warrior
    assert [d["actor"] for d in all_of(evs, "defend")] == ["warrior", "knight"]
    end = last(evs)
    assert ch(end, "warrior")["damage"] == 3
    assert ch(end, "knight")["damage"] == 2


# ---------------------------------------------------------------------------------------------
# defence: block, dodge
# ---------------------------------------------------------------------------------------------
def test_R_9_5_block_uses_block_dice_of_armour_and_hands():
    """R-9.5/R-4.6: against 4 physical the knight rolls K (kite shield) + U (armour): 1 + 2 = 3 → 1 damage."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 6)
    b, evs = play(pos, forced=[1, 2, 2])
    d = first(evs, "defend", actor="knight")
    assert d["dice"] == [1, 2] and d["values"][1:3] == [3, 1]
    assert ch(last(evs), "knight")["damage"] == 1


def test_R_9_5_dodge_success_costs_one_stamina_and_takes_nothing():
    """R-9.5: the assassin dodges (1 stamina) with 2 green dice vs difficulty 1: 1 symbol → no damage."""
    pos = empty(["assassin"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("assassin", 6)
    b, evs = play(pos, forced=[1, 0], H_DEFENCE=1)
    d = first(evs, "defend", actor="assassin")
    assert d["values"][0] == 2 and d["values"][2] == 1  # dodge, succeeded
    assert ch(d, "assassin")["stamina"] == 1
    assert not all_of(evs, "damage", actor="assassin")


def test_R_9_5_dodge_failure_takes_full_damage():
    """R-9.5: a failed dodge is all or nothing — full 4 damage, no block roll, stamina still paid."""
    pos = empty(["assassin"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("assassin", 6)
    b, evs = play(pos, forced=[0, 0, 2, 2], H_DEFENCE=1)
    d = first(evs, "defend", actor="assassin")
    assert d["values"][2] == 0 and len(d["dice"]) == 2
    assert len(all_of(evs, "defend", actor="assassin")) == 1
    st = ch(first(evs, "damage", actor="assassin"), "assassin")
    assert (st["stamina"], st["damage"]) == (1, 4)


def test_F_9_3_dodge_with_zero_dice_fails():
    """F-9.3: the knight has no dodge dice; a dodge vs difficulty 1 fails and it takes the full 4."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 6)
    b, evs = play(pos, forced=[2, 3], H_DEFENCE=1)
    d = first(evs, "defend", actor="knight")
    assert d["values"][0] == 2 and d["values"][2] == 0 and d["dice"] == []
    st = ch(first(evs, "damage", actor="knight"), "knight")
    assert (st["stamina"], st["damage"]) == (1, 4)


def test_F_9_5_failed_dodge_resolved_at_the_new_node():
    """F-9.4/F-9.5: the dodge move takes the assassin 1 node away (out of range 0); the dodge fails, and
    the attack still deals its full damage there."""
    pos = empty(["assassin"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("assassin", 6)
    b, evs = play(pos, forced=[0, 0], H_DEFENCE=1, H_DODGE_MOVE=1)
    mv = first(evs, "move", actor="assassin")
    assert mv["values"][:2] == [6, 1]
    st = ch(first(evs, "damage", actor="assassin"), "assassin")
    assert (st["node"], st["damage"]) == (1, 4)


def test_F_9_4_dodge_move_avoids_gravestone_and_pays_for_barrel():
    """F-9.4/F-7.1: the dodge move cannot enter a gravestone node (node 1), and entering a barrel
    node (node 4, next option) costs 1 more stamina and breaks the barrel."""
    pos = empty(["assassin"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("assassin", 6).terrain(1, L.TERRAIN_GRAVESTONE).terrain(4, L.TERRAIN_BARREL)
    b, evs = play(pos, forced=[1, 1], H_DEFENCE=1, H_DODGE_MOVE=1)
    mv = first(evs, "move", actor="assassin")
    assert mv["values"][:2] == [6, 4]
    assert ch(mv, "assassin")["stamina"] == 2
    assert first(evs, "barrel")["values"][0] == 4


def test_R_9_10_frostbite_makes_a_dodge_cost_two():
    """R-9.10: a frostbitten character pays 1 extra stamina for a dodge (2 in all)."""
    pos = empty(["assassin"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("assassin", 6, conditions=L.COND_FROSTBITE)
    b, evs = play(pos, forced=[1, 1], H_DEFENCE=1)
    assert ch(first(evs, "defend", actor="assassin"), "assassin")["stamina"] == 2


# ---------------------------------------------------------------------------------------------
# conditions
# ---------------------------------------------------------------------------------------------
def test_R_9_10_stagger_lowers_enemy_damage_until_end_of_its_activation():
    """R-9.10: a staggered hollow soldier attacks for 3 (not 4); its stagger goes at the end of its activation."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6, conditions=L.COND_STAGGER).char("knight", 6)
    b, evs = play(pos, forced=[0, 1])
    assert first(evs, "attack", actor=f"hollow_soldier#{hs}")["values"][3] == 3
    assert ch(last(evs), "knight")["damage"] == 2
    end = first(evs, "condition_end", actor=f"hollow_soldier#{hs}")
    assert end["values"][0] == L.COND_STAGGER and en(end, hs)["conditions"] == []


def test_R_9_10_frostbite_lowers_enemy_movement():
    """R-9.10: a frostbitten hollow soldier 1 node from the knight moves 1 − 1 = 0 nodes, so its range-0
    attack fails."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 3, conditions=L.COND_FROSTBITE).char("knight", 6)
    b, evs = play(pos)
    assert not all_of(evs, "move", actor=f"hollow_soldier#{hs}")
    first(evs, "attack_fails", actor=f"hollow_soldier#{hs}")
    assert ch(last(evs), "knight")["damage"] == 0


def test_R_11_14_enemy_dies_of_its_own_poison_and_F_8_1_battle_ends_at_once():
    """R-11.14/R-9.10: a poisoned 1-health hollow soldier suffers 1 at the end of its activation and dies;
    F-8.1/R-8.4: the battle is won at once (the knight never activates)."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 0, conditions=L.COND_POISON).char("knight", 12)
    b, evs = play(pos)
    dmg = first(evs, "damage", actor=f"hollow_soldier#{hs}")
    assert dmg["values"][:2] == [1, L.SRC_POISON]
    assert outcome(b) == L.OUT_WIN
    assert not all_of(evs, "activate", actor="knight")


def test_R_9_10_poison_on_character_at_end_of_its_activation():
    """R-9.10/R-10.8: a poisoned knight suffers 1 damage at the end of its activation, then loses the token."""
    pos = empty(["knight"])
    pos.enemy(slot(pos, "hollow_soldier"), 0).char("knight", 12, conditions=L.COND_POISON)
    b, evs = play(pos)
    dmg = first(evs, "damage", actor="knight")
    assert dmg["values"][:2] == [1, L.SRC_POISON]
    assert evs.index(dmg) > evs.index(first(evs, "activate", actor="knight"))
    end = last(evs)
    assert ch(end, "knight")["damage"] == 1 and ch(end, "knight")["conditions"] == []


def test_F_9_11_poison_damage_triggers_bleed():
    """F-9.11/R-9.10: poison's 1 damage on a bleeding knight adds bleed's 2 (3 in all); bleed goes."""
    pos = empty(["knight"])
    pos.enemy(slot(pos, "hollow_soldier"), 0).char("knight", 12, conditions=L.COND_POISON | L.COND_BLEED)
    b, evs = play(pos)
    end = last(evs)
    assert ch(end, "knight")["damage"] == 3
    assert [d["values"][1] for d in all_of(evs, "damage", actor="knight")] == [L.SRC_POISON, L.SRC_BLEED]
    assert ch(end, "knight")["conditions"] == []


def test_R_9_10_bleed_adds_two_when_damaged_then_goes():
    """R-9.10: a bleeding knight that suffers 3 from an attack suffers 2 more, and the token is removed."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 6, conditions=L.COND_BLEED)
    b, evs = play(pos, forced=[0, 1])
    st = ch(last(evs), "knight")
    assert st["damage"] == 5 and "bleed" not in st["conditions"]


def test_R_9_10_bleed_not_triggered_by_zero_damage():
    """R-9.10 (A-29 default no_trigger): a hit fully blocked (2 + 2 ≥ 4) deals nothing and the bleed stays."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 6, conditions=L.COND_BLEED)
    b, evs = play(pos, forced=[2, 2])
    st = ch(last(evs), "knight")
    assert st["damage"] == 0 and "bleed" in st["conditions"]


def test_R_9_10_bleed_on_enemy_adds_two_wounds():
    """R-9.10: the knight's long sword (U = 3) vs the sentinel (block 2) deals 1; the sentinel's bleed adds 2:
    3 wounds, and its token goes."""
    pos = empty(["knight"], encounter="sentinels_wrath", first_side="characters_first")
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 6, conditions=L.COND_BLEED).char("knight", 6)
    b, evs = play(pos, forced=[3, 2, 2], H_ATTACK=1)
    after = first(evs, "attack", actor="knight")
    dmgs = all_of(evs, "damage", actor=f"sentinel#{sn}")
    assert [d["values"][:2] for d in dmgs[:2]] == [[1, L.SRC_ATTACK], [2, L.SRC_BLEED]]
    assert en(dmgs[1], sn)["wounds"] == 3 and en(dmgs[1], sn)["conditions"] == []
    assert evs.index(after) < evs.index(dmgs[0])


def test_R_9_10_stagger_makes_character_attack_cost_one_more():
    """R-9.10: a staggered knight pays 1 stamina for its 0-stamina long-sword attack."""
    pos = empty(["knight"], encounter="sentinels_wrath", first_side="characters_first")
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 6).char("knight", 6, conditions=L.COND_STAGGER)
    b, evs = play(pos, forced=[3, 2, 2], H_ATTACK=1)
    att = first(evs, "attack", actor="knight")
    assert ch(att, "knight")["stamina"] == 1


# ---------------------------------------------------------------------------------------------
# character attacks, R-4.10 icons
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("roll, wounds", [(1, 0), (2, 1)])
def test_R_9_4_damage_is_total_minus_block_and_R_8_4_win(roll, wounds):
    """R-9.4: long sword U vs the hollow soldier's block 1: a 1 deals 0, a 2 deals 1 and kills it
    (health 1, R-9.3); with the last enemy dead the party wins (R-8.4)."""
    pos = empty(["knight"], first_side="characters_first")
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 6)
    b, evs = play(pos, forced=[roll, 0, 1], H_ATTACK=1)
    assert first(evs, "attack", actor="knight")["values"][3] == roll
    dead = wounds >= 1
    assert (not en(last(evs), hs)["alive"]) is dead
    assert (outcome(b) == L.OUT_WIN) is dead


def test_R_10_6_option_stamina_cost_is_paid():
    """R-10.6: the long sword's second option costs 4 stamina (KU); 1 + 3 = 4 − block 2 = 2 sentinel wounds."""
    pos = empty(["knight"], encounter="sentinels_wrath", first_side="characters_first")
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 6).char("knight", 6)
    b, evs = play(pos, forced=[1, 3, 2, 2], H_ATTACK=2)
    att = first(evs, "attack", actor="knight")
    assert att["values"][3] == 4 and ch(att, "knight")["stamina"] == 4
    assert en(first(evs, "damage", actor=f"sentinel#{sn}"), sn)["wounds"] == 2


def test_R_10_5_one_attack_per_hand_weapon():
    """R-10.5: with one weapon in hand (long sword + shield) the knight attacks once, even though the
    0-stamina option stays affordable and the policy keeps asking for it."""
    pos = empty(["knight"], encounter="sentinels_wrath", first_side="characters_first")
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 6).char("knight", 6)
    b, evs = play(pos, forced=[3, 3, 3, 3, 3, 3], H_ATTACK=1)
    assert len(all_of(evs, "attack", actor="knight")) == 1


@pytest.mark.parametrize("who, at, attacks", [
    ("herald", 6, 0),   # spear has reach: no target at range 0
    ("herald", 1, 1),   # range 1: adjacent enemy is a target
    ("herald", 0, 0),   # 2 nodes away: out of range
    ("knight", 1, 0),   # long sword range 0: adjacent is out of range
])
def test_R_4_10_reach_and_R_4_4_range_limit_targets(who, at, attacks):
    """R-4.4/R-4.10: which enemy the character may attack: range caps the distance, reach forbids range 0."""
    pos = empty([who], encounter="sentinels_wrath", first_side="characters_first")
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 6).char(who, at)
    b, evs = play(pos, forced=[1, 1, 1, 1], H_ATTACK=1)
    assert len(all_of(evs, "attack", actor=who)) == attacks


def test_R_4_10_node_attack_hits_every_enemy_on_the_node():
    """R-4.10: the battle axe's node option (2 stamina, KK) rolls once (1+1 = 2) and deals 2 − 1 to each
    hollow soldier on the node: both die; the one elsewhere is untouched."""
    pos = empty(["warrior"], encounter="hollow_cave", first_side="characters_first")
    assert pos.comp.enemy_ids == ("hollow_soldier",) * 3
    pos.enemy(0, 6).enemy(1, 6).enemy(2, 0).char("warrior", 6)
    b, evs = play(pos, forced=[1, 1], H_ATTACK=3)  # rows: axe line 0 × 2 targets, then the node option
    att = first(evs, "attack", actor="warrior")
    assert ch(att, "warrior")["stamina"] == 2 and len(att["dice"]) == 2
    end = first(evs, "activate", actor="hollow_soldier#2")
    assert [en(end, e)["alive"] for e in range(3)] == [False, False, True]


def test_R_4_10_shift_before_the_dice_moves_then_attacks():
    """R-4.10/R-10.6 step 4: the broadsword's shift-1 option lets the knight (late_game kit) step onto the
    sentinel 1 node away for free, then roll (KU + heavy gem K); range is checked after the shift."""
    from dsim.games.dstbg.compile import compile_encounter
    from dsim.games.dstbg.position import Position
    from tests.kit import data

    comp = compile_encounter(data(), ["knight"], "sentinels_wrath",
                             {"max_rounds": 1, "first_side": "characters_first"}, loadout="late_game")
    pos = Position(comp)
    for e in range(len(comp.enemy_ids)):
        pos.remove_enemy(e)
    for n in range(13):
        pos.terrain(n, L.TERRAIN_NONE)
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 6).char("knight", 1).terrain(2, L.TERRAIN_GRAVESTONE).terrain(4, L.TERRAIN_GRAVESTONE)
    b, evs = play(pos, forced=[1, 1, 3, 1, 1, 1], H_ATTACK=1, H_SHIFT=1)
    att = first(evs, "attack", actor="knight")
    mv = first(evs, "move", actor="knight")
    assert mv["values"][:2] == [1, 6] and evs.index(mv) < evs.index(att)
    assert ch(mv, "knight")["stamina"] == 2  # the option's 2 stamina; the shift itself is free
    assert att["values"][3] == 5
    assert en(first(evs, "damage", actor=f"sentinel#{sn}"), sn)["wounds"] == 3


# ---------------------------------------------------------------------------------------------
# moving, R-7 terrain and traps
# ---------------------------------------------------------------------------------------------
def test_R_10_4_walk_is_free_once_then_each_run_costs_one():
    """R-10.4: walk 1 node free, then each further node is a run for 1 stamina (0, 1, 2 black cubes)."""
    pos = empty(["knight"])
    pos.char("knight", 6)
    b, evs = play_routed(pos, before=[6, 1, 2, 7])
    assert [ch(m, "knight")["stamina"] for m in all_of(evs, "move", actor="knight")] == [0, 1, 2]


@pytest.mark.parametrize("stop", [0, 1])
def test_D_18_a_walk_asks_move_on_before_listing_its_steps(stop):
    """D-18 in two questions: ``H_MOVE_ON`` offers this node twice (row 0 look on, row 1 stop). Stop ends
    the walk with no step listed; look on asks ``H_STEP`` among the steps, as a walk did before."""
    pos = empty(["knight"])
    pos.char("knight", 6)
    b, evs = play(pos, H_MOVE_ON=stop, H_STEP=1)
    asked = [ev for ev in evs if ev["event"] == "decision"]
    move_on = [ev for ev in asked if ev["hook"] == "move_on"]
    assert move_on and all(ev["values"][2] == 2 and ev["values"][3] == 6 for ev in move_on[:1])  # 2 rows, node 6
    if stop:
        assert not all_of(evs, "move", actor="knight") and not [ev for ev in asked if ev["hook"] == "step"]
    else:
        moves = all_of(evs, "move", actor="knight")
        assert moves and ch(moves[0], "knight")["node"] != 6
        hooks = [ev["hook"] for ev in asked if ev["hook"] in ("move_on", "step")]
        assert hooks[:4] == ["move_on", "step", "move_on", "step"]  # asked again at every node


def test_R_9_10_frostbite_makes_each_walk_and_run_cost_one_more():
    """R-9.10: frostbitten, the free walk costs 1 and a run 2 (1, 3 black cubes)."""
    pos = empty(["knight"])
    pos.char("knight", 6, conditions=L.COND_FROSTBITE)
    b, evs = play_routed(pos, before=[6, 1, 2])
    assert [ch(m, "knight")["stamina"] for m in all_of(evs, "move", actor="knight")] == [1, 3]


def test_R_7_5_barrel_costs_one_extra_and_is_destroyed():
    """R-7.5: walking into an intact barrel costs 1 more stamina and breaks it."""
    pos = empty(["knight"])
    pos.char("knight", 6).terrain(1, L.TERRAIN_BARREL)
    b, evs = play_routed(pos, before=[6, 1])
    mv = first(evs, "move", actor="knight")
    assert mv["values"][:2] == [6, 1] and ch(mv, "knight")["stamina"] == 1
    assert first(evs, "barrel")["values"][0] == 1
    assert b.nodes[1, L.N_TERRAIN] == L.TERRAIN_BARREL_BROKEN


@pytest.mark.parametrize("kind", [L.TERRAIN_GRAVESTONE, L.TERRAIN_CHEST])
def test_R_7_4_F_7_1_gravestones_and_chests_block_walking(kind):
    """R-7.4/R-7.6/F-7.1: a gravestone or chest node is never offered as a step."""
    pos = empty(["knight"])
    pos.char("knight", 6).terrain(1, kind)
    b, evs = play_routed(pos, before=[6, 1])
    assert not all_of(evs, "move", actor="knight")


def test_R_10_3_move_before_attacking_forbids_moving_after():
    """R-10.3/F-10.1: the knight walks onto the sentinel and attacks; it may not move again afterwards."""
    pos = empty(["knight"], encounter="sentinels_wrath", first_side="characters_first")
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 1).char("knight", 6)
    b, evs = play_routed(pos, before=[6, 1], after=[1, 2], forced=[3, 2, 2], H_ATTACK=1)
    first(evs, "attack", actor="knight")
    assert [m["values"][:2] for m in all_of(evs, "move", actor="knight")] == [[6, 1]]


def test_R_10_3_move_after_attacking():
    """R-10.3: a character that did not move before attacking may move after it."""
    pos = empty(["knight"], encounter="sentinels_wrath", first_side="characters_first")
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 6).char("knight", 6)
    b, evs = play_routed(pos, before=[], after=[6, 7], forced=[3, 2, 2], H_ATTACK=1)
    att = first(evs, "attack", actor="knight")
    mv = first(evs, "move", actor="knight")
    assert mv["values"][:2] == [6, 7] and evs.index(mv) > evs.index(att)


def test_R_7_7_trap_springs_on_first_entry_only_and_cannot_be_blocked():
    """R-7.7: the knight walks onto a face-down 2-damage trap: 2 red cubes, no block roll; the herald
    entering the same node next round springs nothing (a flipped trap stays flipped)."""
    pos = empty(["knight", "herald"], rounds=2)
    pos.char("knight", 2).char("herald", 2).terrain(7, L.TERRAIN_NONE, trap=2 * 8 + 1).tokens(next_char=0)
    b, evs = play_routed(pos, before=[2, 7])
    traps = all_of(evs, "trap")
    assert len(traps) == 1 and traps[0]["actor"] == "knight" and traps[0]["values"][:2] == [7, 2]
    assert [m["actor"] for m in all_of(evs, "move")] == ["knight", "herald"]
    assert not all_of(evs, "defend")
    end = last(evs)
    assert ch(end, "knight")["damage"] == 2 and ch(end, "herald")["damage"] == 0


def test_R_7_7_trap_can_be_dodged():
    """R-7.7/F-7.2: the assassin dodges a 2-damage trap (difficulty 1, 1 stamina): 1 symbol → no damage."""
    pos = empty(["assassin"])
    pos.char("assassin", 2).terrain(7, L.TERRAIN_NONE, trap=2 * 8 + 1)
    b, evs = play_routed(pos, before=[2, 7], forced=[1, 0], H_TRAP=1)
    d = first(evs, "defend", actor="assassin")
    assert d["values"][0] == 2 and d["values"][2] == 1
    end = ch(last(evs), "assassin")
    assert (end["damage"], end["stamina"]) == (0, 1)


def test_R_11_13_enemies_never_spring_traps():
    """R-11.13/R-7.7: a hollow soldier walking onto trap nodes flips nothing."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 0).char("knight", 6)
    for n in (1, 3, 5):
        pos.terrain(n, L.TERRAIN_NONE, trap=3 * 8 + 1)
    b, evs = play(pos)
    assert first(evs, "move", actor=f"hollow_soldier#{hs}")["values"][1] in (1, 3, 5)
    assert not all_of(evs, "trap")
    assert all(b.nodes[n, L.N_TRAP_UP] == 0 for n in (1, 3, 5))


# ---------------------------------------------------------------------------------------------
# node limit, R-9.8 / R-11.7 / R-11.8 move pushes
# ---------------------------------------------------------------------------------------------
def test_R_2_6_node_limit_push_and_F_2_1_pushed_figure_not_hit():
    """R-2.6/F-2.1: the hollow soldier steps onto a node already holding the knight and two crossbow
    hollows; one figure (the players pick the knight) is pushed out at once, so the soldier's range-0
    attack on it then fails."""
    pos = empty(["knight"], encounter="forsaken_depths")
    assert pos.comp.enemy_ids == ("hollow_soldier", "crossbow_hollow", "hollow_soldier", "crossbow_hollow")
    pos.enemy(0, 3).enemy(1, 6).enemy(3, 6).char("knight", 6).tokens(aggro=0)
    b, evs = play(pos)
    mv = first(evs, "move", actor="hollow_soldier#0")
    assert mv["values"][:2] == [3, 6]
    push = first(evs, "push", actor="knight")
    assert evs.index(push) > evs.index(mv) and push["values"][0] == 6
    assert pos.comp.tables.steps[push["values"][1], 6] == 1
    assert sum(1 for e in push["state"]["enemies"] if e["alive"] and e["node"] == 6) == 3
    fail = first(evs, "attack_fails", actor="hollow_soldier#0")
    assert evs.index(fail) > evs.index(push)


def test_R_11_8_push_damage_on_the_node_entered():
    """R-11.8/R-11.7 step 5: the large hollow soldier moves onto the knight's node; the knight defends the
    push damage 5 as a physical attack (block 1 → 4) and is then pushed to an adjacent node."""
    pos = empty(["knight"], encounter="dark_hollow")
    lh = slot(pos, "large_hollow_soldier")
    pos.enemy(lh, 3).char("knight", 6)
    b, evs = play(pos, forced=[0, 1])
    d = first(evs, "defend", actor="knight")
    assert d["values"][0] == 0 and d["values"][2] == 4
    push = first(evs, "push", actor="knight")
    assert evs.index(push) > evs.index(d) and push["values"][0] == 6
    assert ch(last(evs), "knight")["damage"] == 4


def test_R_11_7_push_out_of_start_node_deals_no_damage():
    """R-11.7 step 2 (F-11.5, JP): the knight in the large hollow soldier's own node is pushed out with no
    damage; the soldier follows it 1 node and the push damage is dealt only there (one defence, not two)."""
    pos = empty(["knight"], encounter="dark_hollow")
    lh = slot(pos, "large_hollow_soldier")
    pos.enemy(lh, 6).char("knight", 6)
    b, evs = play(pos, forced=[0, 1])
    pushes = all_of(evs, "push", actor="knight")
    defends = all_of(evs, "defend", actor="knight")
    assert len(pushes) == 2 and len(defends) == 1
    assert evs.index(pushes[0]) < evs.index(defends[0]) < evs.index(pushes[1])
    assert ch(last(evs), "knight")["damage"] == 4


def test_F_9_8_move_push_without_damage_is_not_defended():
    """R-9.8/F-9.8: the sentinel's move push (no damage) moves the knight out of its start node and out of
    the node it enters, with no block or dodge; only its node attack afterwards is defended."""
    pos = empty(["knight"], encounter="sentinels_wrath")
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 6).char("knight", 6)
    b, evs = play(pos, forced=[0, 1])
    pushes = all_of(evs, "push", actor="knight")
    att = first(evs, "attack", actor=f"sentinel#{sn}")
    assert len(pushes) == 2 and all(evs.index(p) < evs.index(att) for p in pushes)
    assert all(evs.index(d) > evs.index(att) for d in all_of(evs, "defend"))
    assert ch(last(evs), "knight")["damage"] == 5


# ---------------------------------------------------------------------------------------------
# estus, R-3.6 luck, R-3.7 heroic actions, R-3.8 ember
# ---------------------------------------------------------------------------------------------
def test_R_3_5_estus_removes_all_cubes():
    """R-3.5: drinking the estus in its own activation clears every black and red cube; the flask is empty."""
    pos = empty(["knight"])
    pos.char("knight", 12, stamina=5, damage=3)
    b, evs = play(pos, H_ESTUS=1)
    es = first(evs, "estus", actor="knight")
    assert es["values"][:2] == [3, 3]  # after the +2 stamina of
    st = ch(last(evs), "knight")
    assert (st["stamina"], st["damage"], st["estus"]) == (0, 0, False)


def test_R_3_6_luck_rerolls_one_die():
    """R-3.6: after a block roll of 0 + 1 the knight flips luck to reroll the black die: 2 + 1 = 3 → 1 damage."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 6)
    b, evs = play(pos, forced=[0, 1, 2], H_LUCK=1)
    lk = first(evs, "luck", actor="knight")
    assert lk["values"][:2] == [0, 2]
    d = first(evs, "defend", actor="knight")
    assert d["values"][1:3] == [3, 1]
    assert ch(last(evs), "knight")["luck"] is False and ch(last(evs), "knight")["damage"] == 1


def test_R_3_7_knight_heroic_adds_a_blue_block_die():
    """R-3.7 (knight): one extra blue die on a block roll: 0 + 1 + 2 = 3 → 1 damage; the token is spent."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 6)
    b, evs = play(pos, forced=[0, 1, 2], H_HEROIC=1)
    first(evs, "heroic", actor="knight")
    d = first(evs, "defend", actor="knight")
    assert d["dice"] == [0, 1, 2] and d["values"][2] == 1
    assert ch(last(evs), "knight")["heroic"] is False


def test_R_3_7_herald_perseverance_gives_party_two_stamina():
    """R-3.7 (herald): Perseverance — every character gains 2 stamina, wherever it is."""
    pos = empty(["knight", "herald"])
    pos.char("knight", 0, stamina=4).char("herald", 12, stamina=5).tokens(next_char=1)
    b, evs = play(pos, H_HEROIC=1)
    first(evs, "heroic", actor="herald")
    end = last(evs)
    assert ch(end, "knight")["stamina"] == 2
    assert ch(end, "herald")["stamina"] == 1  # 5 − 2 (activation) − 2 (heroic)
    assert ch(end, "herald")["heroic"] is False


def test_R_3_7_warrior_berserk_charge_free_node_attack():
    """R-3.7/F-10.2 (warrior): with Berserk Charge the next range-0 attack (axe 0-stamina option) is free and
    a node attack: 1 + 1 = 2 − block 1 kills both hollow soldiers on the node."""
    pos = empty(["warrior"], encounter="hollow_cave", first_side="characters_first")
    pos.enemy(0, 6).enemy(1, 6).enemy(2, 0).char("warrior", 6)
    b, evs = play(pos, forced=[1, 1], H_HEROIC=1, H_ATTACK=1)
    first(evs, "heroic", actor="warrior")
    att = first(evs, "attack", actor="warrior")
    assert ch(att, "warrior")["stamina"] == 0
    end = first(evs, "activate", actor="hollow_soldier#2")
    assert [en(end, e)["alive"] for e in range(3)] == [False, False, True]


def test_R_3_7_warrior_berserk_charge_extra_free_node():
    """R-3.7 (warrior): Berserk Charge gives one more free node: two moves at 0, the third costs 1."""
    pos = empty(["warrior"])
    pos.char("warrior", 6)
    b, evs = play_routed(pos, before=[6, 1, 2, 7], H_HEROIC=1)
    assert [ch(m, "warrior")["stamina"] for m in all_of(evs, "move", actor="warrior")] == [0, 0, 1]


def test_R_3_7_assassin_backstab_after_successful_dodge():
    """R-3.7 (assassin): right after dodging the hollow soldier, a free estoc attack on it (3-stamina option,
    KKK − 1 = 2 + 2 + 1 − 1 = 4 − block 1) kills it; only the dodge's 1 stamina is spent."""
    pos = empty(["assassin"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("assassin", 6)
    b, evs = play(pos, forced=[1, 0, 2, 2, 1], H_DEFENCE=1, H_HEROIC=2)
    first(evs, "heroic", actor="assassin")
    att = first(evs, "attack", actor="assassin")
    assert att["values"][3] == 4 and ch(att, "assassin")["stamina"] == 1
    assert outcome(b) == L.OUT_WIN
    assert ch(last(evs), "assassin")["heroic"] is False


def test_R_3_7_R_10_5_backstab_is_not_blocked_by_the_weapons_used_in_the_last_activation():
    """R-3.7 with R-10.5: the assassin attacked with both hands in its own last activation; the backstab,
    a reaction in the enemy's activation, still gets its free estoc attack and kills the hollow soldier."""
    pos = empty(["assassin"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("assassin", 6)
    pos.chars[0, L.C_USED0] = 1
    pos.chars[0, L.C_USED1] = 1
    b, evs = play(pos, forced=[1, 0, 2, 2, 1], H_DEFENCE=1, H_HEROIC=2)
    first(evs, "heroic", actor="assassin")
    assert first(evs, "attack", actor="assassin")["values"][3] == 4
    assert outcome(b) == L.OUT_WIN


@pytest.mark.parametrize("ember, block, taken", [(1, [0, 1], 2), (0, [0, 1], 3), (1, [1, 1], 2)])
def test_R_3_8_ember_reduces_three_or_more_by_one(ember, block, taken):
    """R-3.8: with an ember, 3 damage from one attack becomes 2; without it stays 3; 2 stays 2."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 6)
    pos.chars[0, L.C_EMBER] = ember
    b, evs = play(pos, forced=block)
    assert ch(last(evs), "knight")["damage"] == taken


def test_F_3_3_ember_does_not_reduce_trap_damage():
    """F-3.3: an ember does not reduce a 3-damage trap."""
    pos = empty(["knight"])
    pos.char("knight", 2).terrain(7, L.TERRAIN_NONE, trap=3 * 8 + 1)
    pos.chars[0, L.C_EMBER] = 1
    b, evs = play_routed(pos, before=[2, 7])
    assert ch(last(evs), "knight")["damage"] == 3


def test_F_8_1_poisoned_character_killing_last_enemy_takes_no_poison():
    """F-8.1: the battle ends the moment the last enemy dies, so the poisoned knight suffers no poison."""
    pos = empty(["knight"], first_side="characters_first")
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 6, conditions=L.COND_POISON)
    b, evs = play(pos, forced=[2], H_ATTACK=1)
    assert outcome(b) == L.OUT_WIN
    assert ch(last(evs), "knight")["damage"] == 0


# ---------------------------------------------------------------------------------------------
# more: stamina at the last slot, hits and pushes, blocked enemy moves, swap
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("reading, dies", [("fatal", True), ("forbidden", False)])
def test_R_3_3_stamina_cost_filling_the_last_slot(reading, dies):
    """R-3.3 (A-13 stamina_last_slot): with 4 free slots the long sword's 4-stamina option kills the
    knight by default (fatal); under ``forbidden`` it is not offered and the 0-stamina option is used."""
    pos = empty(["knight"], encounter="sentinels_wrath", first_side="characters_first",
                stamina_last_slot=reading)
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 6).char("knight", 6, stamina=8)  # 6 after the +2 of
    b, evs = play(pos, forced=[1, 1, 2, 3], H_ATTACK=2)
    if dies:
        death = first(evs, "death", actor="knight")
        assert ch(death, "knight")["stamina"] == 10
        assert not all_of(evs, "attack", actor="knight") and outcome(b) == L.OUT_LOSS
    else:
        att = first(evs, "attack", actor="knight")
        assert ch(att, "knight")["stamina"] == 6 and len(att["dice"]) == 1
        assert ch(last(evs), "knight")["alive"]


def test_R_9_2_zero_damage_hit_still_pushed_and_R_9_6_push_avoids_gravestone():
    """R-9.2: the knight blocks all 5 of the swordsman's attack (2 + 3) but is hit, so it is still pushed;
    R-9.6/F-7.1: the push skips the gravestone on node 1 and ends on node 4."""
    pos = empty(["knight"], encounter="broken_passageway")
    sk = slot(pos, "silver_knight_swordsman")
    pos.enemy(sk, 6).char("knight", 6).terrain(1, L.TERRAIN_GRAVESTONE)
    b, evs = play(pos, forced=[2, 3])
    d = first(evs, "defend", actor="knight")
    assert d["values"][2] == 0
    push = first(evs, "push", actor="knight")
    assert push["values"][:2] == [6, 4]
    assert ch(last(evs), "knight")["damage"] == 0


@pytest.mark.parametrize("kind", [L.TERRAIN_GRAVESTONE, L.TERRAIN_BARREL, L.TERRAIN_CHEST])
def test_F_11_4_enemy_with_no_closer_node_does_not_move(kind):
    """F-11.4/R-11.6/R-7.5: a hollow soldier in a corner whose three neighbours hold gravestones, intact
    barrels or chests has no closer node and stays put (enemies cannot enter them)."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 0).char("knight", 6)
    for n in (1, 3, 5):
        pos.terrain(n, kind)
    b, evs = play(pos)
    assert not all_of(evs, "move", actor=f"hollow_soldier#{hs}")
    assert en(last(evs), hs)["node"] == 0


def test_F_2_1_newcomer_keeps_moving_after_its_pushed_out_target():
    """F-2.1/R-11.3: the swordsman (move 2) enters the knight's full node, the knight is pushed out at once,
    and the swordsman spends its second node following the same target, then hits it there."""
    pos = empty(["knight"], encounter="the_deeps")
    pos.enemy(0, 3).enemy(1, 6).enemy(2, 6).char("knight", 6).tokens(aggro=0)
    b, evs = play(pos, forced=[0, 1])
    moves = [m["values"][:2] for m in all_of(evs, "move", actor="silver_knight_swordsman#0")]
    push = first(evs, "push", actor="knight")
    assert moves[0] == [3, 6] and push["values"][0] == 6
    assert moves[1] == [6, push["values"][1]] and len(moves) == 2
    att = first(evs, "attack", actor="silver_knight_swordsman#0")
    assert att["values"][2] == push["values"][1]
    assert first(evs, "damage", actor="knight")["values"][0] == 4


def test_R_10_1_swap_backup_weapon_into_hand():
    """R-10.1/R-4.3: at the start of its activation the warrior (mid_game kit: great wooden hammer in hand,
    battle axe in backup) swaps the axe into its hand and attacks with it."""
    from dsim.games.dstbg.compile import compile_encounter
    from dsim.games.dstbg.position import Position
    from tests.kit import data

    comp = compile_encounter(data(), ["warrior"], "hollow_cave",
                             {"max_rounds": 1, "first_side": "characters_first"}, loadout="mid_game")
    pos = Position(comp)
    pos.remove_enemy(1).remove_enemy(2)
    for n in range(13):
        pos.terrain(n, L.TERRAIN_NONE)
    pos.enemy(0, 6).char("warrior", 6)
    b, evs = play(pos, forced=[2, 2], H_SWAP=1, H_ATTACK=1)
    sw = first(evs, "swap", actor="warrior")
    att = first(evs, "attack", actor="warrior")
    assert evs.index(sw) < evs.index(att)
    assert comp.line_names[att["values"][0]].startswith("battle_axe")
    assert outcome(b) == L.OUT_WIN


def test_R_7_5_barrel_broken_by_a_dodge_no_longer_blocks_later_enemies():
    """R-7.5: a destroyed barrel blocks nothing. The assassin dodges the swordsman's attack into the barrel
    node (breaking it, 1 + 1 stamina); the hollow soldier activating next in the same enemy turn must then
    move toward the assassin standing there."""
    pos = empty(["assassin"], encounter="the_deeps")
    pos.remove_enemy(2)
    pos.enemy(0, 6).enemy(1, 11).char("assassin", 6).terrain(1, L.TERRAIN_BARREL)
    b, evs = play(pos, forced=[1, 1], H_DEFENCE=1, H_DODGE_MOVE=1)
    dodge = first(evs, "move", actor="assassin")
    assert dodge["values"][:2] == [6, 1] and ch(dodge, "assassin")["stamina"] == 2
    first(evs, "barrel")
    mv = first(evs, "move", actor="hollow_soldier#1")
    assert pos.comp.tables.steps[mv["values"][1], 1] == 1


def test_R_11_7_frostbitten_move_of_zero_still_pushes():
    """R-11.7 (JP; A-38 push_anyway): a frostbitten sentinel's move 1 − 1 = 0 still pushes the knight out of
    its node (step 2), with no damage."""
    pos = empty(["knight"], encounter="sentinels_wrath")
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 6, conditions=L.COND_FROSTBITE).char("knight", 6)
    b, evs = play(pos, forced=[2, 3])
    assert not all_of(evs, "move", actor=f"sentinel#{sn}")
    push = first(evs, "push", actor="knight")
    assert push["values"][0] == 6
    assert evs.index(push) < evs.index(first(evs, "attack", actor=f"sentinel#{sn}"))


def test_R_11_8_dodged_push_damage_means_no_push():
    """R-11.8/R-9.2 (A-37 not_pushed): the assassin dodges the large hollow soldier's push damage and, not
    being hit, stays on the node the soldier entered."""
    pos = empty(["assassin"], encounter="dark_hollow")
    lh = slot(pos, "large_hollow_soldier")
    pos.enemy(lh, 3).char("assassin", 6)
    b, evs = play(pos, forced=[1, 0], H_DEFENCE=1)
    d = first(evs, "defend", actor="assassin")
    assert d["values"][0] == 2 and d["values"][2] == 1
    assert not all_of(evs, "push", actor="assassin")
    assert ch(last(evs), "assassin")["node"] == 6 and ch(last(evs), "assassin")["damage"] == 0


def test_R_11_11_dodged_attack_is_not_pushed():
    """R-11.11/R-9.5: the swordsman's attack push applies to characters hit; a successful dodge (2 symbols
    vs difficulty 2) leaves the assassin unhit and in place."""
    pos = empty(["assassin"], encounter="broken_passageway")
    sk = slot(pos, "silver_knight_swordsman")
    pos.enemy(sk, 6).char("assassin", 6)
    b, evs = play(pos, forced=[1, 1], H_DEFENCE=1)
    assert first(evs, "defend", actor="assassin")["values"][2] == 1
    assert not all_of(evs, "push", actor="assassin")
    assert ch(last(evs), "assassin")["node"] == 6


def test_F_3_4_ember_does_not_combine_attack_and_bleed():
    """F-3.4 (A-12 separate): a bleeding knight with an ember takes 2 from the attack and 2 from bleed —
    two sources, neither ≥ 3, so the ember reduces nothing: 4 in all."""
    pos = empty(["knight"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 6, conditions=L.COND_BLEED)
    pos.chars[0, L.C_EMBER] = 1
    b, evs = play(pos, forced=[1, 1])
    assert [d["values"][0] for d in all_of(evs, "damage", actor="knight")] == [2, 2]
    assert ch(last(evs), "knight")["damage"] == 4


def test_R_11_2_icons_resolve_left_to_right():
    """R-11.2: the greatbowman's card is attack, then move away: the attack comes before the move."""
    pos = empty(["knight"])
    gb = slot(pos, "silver_knight_greatbowman")
    pos.enemy(gb, 6).char("knight", 0).tokens(aggro=0)
    b, evs = play(pos, forced=[1, 1])
    att = first(evs, "attack", actor=f"silver_knight_greatbowman#{gb}")
    mv = first(evs, "move", actor=f"silver_knight_greatbowman#{gb}")
    assert evs.index(att) < evs.index(mv)
    assert pos.comp.tables.steps[mv["values"][1], 0] == 3


# ---------------------------------------------------------------------------------------------
# scenes with other gear (a test-only loadout) and trap interplay
# ---------------------------------------------------------------------------------------------
def kit_scene(kits, encounter="sentinels_wrath", rounds=1, boss=None, **variants):
    """Like :func:`empty`, but each character carries the gear in ``kits`` (id → dict(armour, hands,
    backup)), compiled as a test-only loadout; with ``boss``, that boss's battle (the boss unplaced)."""
    import dataclasses

    from dsim.games.dstbg.compile import compile_boss, compile_encounter
    from dsim.games.dstbg.position import Position
    from dsim.games.dstbg.schema import Kit, Loadout
    from tests.kit import data

    base = data()
    lo = Loadout(id="placed_test", name="Placed test", source="tests/dstbg/test_rules_placed.py",
                 characters={cid: Kit(**k) for cid, k in kits.items()})
    d = dataclasses.replace(base, loadouts={**base.loadouts, "placed_test": lo})
    settings = {"max_rounds": rounds}
    settings.update(variants)
    if boss is None:
        comp = compile_encounter(d, list(kits), encounter, settings, loadout="placed_test")
    else:
        comp = compile_boss(d, list(kits), boss, 0, settings, loadout="placed_test")
    pos = Position(comp)
    for e in range(len(comp.enemy_ids)):
        pos.remove_enemy(e)
    for n in range(13):
        pos.terrain(n, L.TERRAIN_NONE)
    return pos


# ---------------------------------------------------------------------------------------------
# rules pinned by an audit: each had code but no test that fails when it breaks
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("roll, wounds", [(2, 1), (3, 2)])
def test_R_9_4_a_magic_attack_is_reduced_by_resist_not_block(roll, wounds):
    """R-9.4: the Dragonslayer's Axe's free O line is magic; against the sentinel (block 2, resist 1) a 2
    deals 1 and a 3 deals 2 (were block used: 0 and 1)."""
    pos = kit_scene({"knight": {"armour": "knight_armour", "hands": ["dragonslayers_axe"]}}, first_side="characters_first")
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 6).char("knight", 6)
    b, evs = play(pos, forced=[roll], H_ATTACK=1)
    assert first(evs, "attack", actor="knight")["values"][3] == roll
    assert en(first(evs, "damage", actor=f"sentinel#{sn}"), sn)["wounds"] == wounds


def test_R_9_7_R_9_6_a_character_push_moves_an_enemy_farther_but_never_a_boss():
    """Firebombs (range 1, node attack KKK, magic, push) thrown from (4,2) onto (2,2), dice all 0: the hollow
    soldier there is hit (R-9.2) and pushed to one of the five neighbours farther from (4,2), never to
    (3,1), (3,3) or (4,2) itself; the Gargoyle in the same place is not pushed at all (R-9.6)."""
    kits = {"knight": {"armour": "knight_armour", "hands": ["firebombs"]}}
    pos = kit_scene(kits, encounter="the_forgotten", first_side="characters_first")
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 11)
    b, evs = play(pos, forced=[0, 0, 0], H_ATTACK=1)
    assert first(evs, "decision", hook="attack_push")["values"][2] == 5
    assert first(evs, "move", actor=f"hollow_soldier#{hs}")["values"][:2] == [6, 1]  # the first option: (0,2)

    pos = kit_scene(kits, boss="gargoyle", first_side="characters_first")
    pos.enemy(0, 6, facing=0).char("knight", 11)
    b, evs = play(pos, forced=[0, 0, 0], H_ATTACK=1)
    assert first(evs, "attack", actor="knight")["values"][3] == 0
    boss_turn = evs.index(first(evs, "card"))  # what happens before the Gargoyle's own turn
    assert not all_of(evs[:boss_turn], "decision", hook="attack_push") and en(evs[boss_turn], 0)["node"] == 6


@pytest.mark.parametrize("row, dest", [(0, 2), (1, 12)])
def test_F_9_7_an_enemy_attack_push_goes_to_the_adjacent_node_farthest_from_the_attacker(row, dest):
    """F-9.7 with a silver knight swordsman given range 1 and no move (test data): from (2,2) its node attack
    hits the knight on (2,4), who is pushed to (0,4) or (4,4), two steps from the attacker, never to (1,3)
    or (3,3) (one step) nor onto (2,2); R-9.6: the push costs the knight no stamina."""
    import copy

    from dsim.games.dstbg.compile import compile_encounter
    from dsim.games.dstbg.position import Position
    from tests.kit import data

    d = copy.deepcopy(data())
    sk = d.enemies["silver_knight_swordsman"]
    d.enemies[sk.id] = sk.model_copy(update={"range": 1, "behaviour": sk.behaviour[1:]})
    pos = Position(compile_encounter(d, ["knight"], "broken_passageway", {"max_rounds": 1}))
    for e in range(len(pos.comp.enemy_ids)):
        pos.remove_enemy(e)
    for n in range(13):
        pos.terrain(n, L.TERRAIN_NONE)
    sk = slot(pos, "silver_knight_swordsman")
    pos.enemy(sk, 6).char("knight", 7, stamina=2)
    b, evs = play(pos, forced=[1, 1], H_ATTACK_PUSH=row)
    assert first(evs, "decision", hook="attack_push")["values"][2] == 2
    push = first(evs, "push", actor="knight")
    assert push["values"][:2] == [7, dest] and ch(push, "knight")["stamina"] == 2


def _setup_only(comp, index, **choices):
    """Run only the setup of battle ``index`` of a cell compiled with ``max_rounds`` 0; the buffers."""
    return engine.play_one(comp.tables, scripted, script(**choices), 0, 0, index)


def test_R_7_7_traps_go_on_every_basic_node_except_along_walls_with_doors():
    """Ash Gardens has traps; on the exploration tile (doors top and bottom, spawns (1,1) and (1,3), terrain
    (2,0) and (2,4)) the basic nodes off the door walls are (2,2), (3,1) and (3,3): exactly those get a
    face-down token, whatever the shuffle; the shuffle deals different tokens from battle to battle."""
    from dsim.games.dstbg.compile import compile_encounter
    from tests.kit import data

    comp = compile_encounter(data(), ["knight"], "ash_gardens", {"max_rounds": 0})
    deals = set()
    for index in range(6):
        b = _setup_only(comp, index)
        traps = {n: int(b.nodes[n, L.N_TRAP]) for n in range(13)}
        assert {n for n, tok in traps.items() if tok >= 0} == {6, 8, 9}
        deals.add((traps[6], traps[8], traps[9]))
    assert len(deals) > 1


def test_R_7_7_a_tile_fought_again_keeps_its_traps_where_they_lay():
    """With the layout a previous battle left (``SC_TRAPS_GIVEN``, as whole games pass it), setup puts each token
    back on its node, face down, whatever the battle's random stream: no reshuffle."""
    from dsim.games.dstbg.compile import compile_encounter
    from dsim.games.dstbg.kernel import context as X
    from tests.kit import data

    comp = compile_encounter(data(), ["knight"], "ash_gardens", {"max_rounds": 0})
    layout = [-1] * 13
    layout[6], layout[8], layout[9] = 17, 3, 40  # three tokens (damage × 8 + dodge), as a battle left them
    comp.tables.scen[X.SC_TRAPS_GIVEN] = 1
    comp.tables.scen[X.SC_TRAP_LAYOUT:X.SC_TRAP_LAYOUT + 13] = layout
    for index in range(4):
        b = _setup_only(comp, index)
        assert [int(b.nodes[n, L.N_TRAP]) for n in range(13)] == layout
        assert not any(b.nodes[n, L.N_TRAP_UP] for n in range(13))


def test_R_2_8_no_entry_node_gets_more_than_three_figures():
    """Four characters enter by the bottom wall, the players always naming the first entry node offered:
    the first three stand on (4,0); (4,0) is then full, so the fourth goes to (4,2)."""
    comp = scene(["knight", "herald", "warrior", "assassin"], encounter="the_forgotten", variants={"max_rounds": 0}).comp
    b = _setup_only(comp, 0, H_PLACE=0)
    nodes = [int(b.chars[c, L.C_POS]) for c in range(4)]
    assert nodes == [10, 10, 10, 11]


def test_R_8_2_characters_activate_clockwise_from_the_one_whose_turn_it_is():
    """Three characters, the herald's turn first, four rounds: herald, warrior, knight, herald."""
    pos = empty(["knight", "herald", "warrior"], rounds=4, first_side="characters_first")
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 0).char("knight", 12).char("herald", 11).char("warrior", 10).tokens(next_char=1)
    b, evs = play(pos)
    order = [ev["actor"] for ev in evs if ev["event"] == "activate" and "#" not in ev["actor"]]
    assert order == ["herald", "warrior", "knight", "herald"]


def test_R_4_10_repeat_uses_the_whole_option_again():
    """R-4.10 (A-28 same_option_pay_each): Gotthard Twinswords' 1-stamina KK option with repeat 2 attacks
    twice, paying 1 each time (2 black cubes)."""
    pos = kit_scene({"knight": {"armour": "knight_armour", "hands": ["gotthard_twinswords"]}},
                    first_side="characters_first")
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 6).char("knight", 6)
    b, evs = play(pos, forced=[2, 2, 2, 2, 2, 3], H_ATTACK=1)
    atts = all_of(evs, "attack", actor="knight")
    assert len(atts) == 2
    assert [ch(a, "knight")["stamina"] for a in atts] == [1, 2]
    assert en(first(evs, "activate", actor=f"sentinel#{sn}"), sn)["wounds"] == 4


@pytest.mark.parametrize("reading, attacks", [("per_hand_weapon", 2), ("one_total", 1)])
def test_R_10_5_one_attack_with_each_hand_weapon(reading, attacks):
    """R-10.5 (A-27): with a long sword and an estoc in hand the knight attacks once with each (default);
    under ``one_total`` only once."""
    pos = kit_scene({"knight": {"armour": "knight_armour", "hands": ["long_sword", "estoc"]}},
                    first_side="characters_first", attacks_per_activation=reading)
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 6).char("knight", 6)
    b, evs = play(pos, forced=[3, 2, 2, 2, 2, 3], H_ATTACK=1)
    atts = all_of(evs, "attack", actor="knight")
    assert len(atts) == attacks
    names = [pos.comp.line_names[a["values"][0]].split(" ")[0] for a in atts]
    assert names == ["long_sword", "estoc"][:attacks]


def test_R_9_10_weapon_condition_on_enemy_lasts_through_its_next_activation():
    """R-9.10: the Rotten Ghru Dagger's poison goes on the sentinel it hits; at the end of the sentinel's next
    activation it suffers 1 and the token goes."""
    pos = kit_scene({"assassin": {"armour": "assassin_armour", "hands": ["rotten_ghru_dagger", "target_shield"]}},
                    first_side="characters_first")
    sn = slot(pos, "sentinel")
    pos.enemy(sn, 6).char("assassin", 6)
    b, evs = play(pos, forced=[2, 2, 1, 1, 1, 1], H_ATTACK=1)
    cond = first(evs, "condition", actor=f"sentinel#{sn}")
    assert cond["values"][0] == L.COND_POISON
    dmgs = [d["values"][:2] for d in all_of(evs, "damage", actor=f"sentinel#{sn}")]
    assert dmgs == [[1, L.SRC_ATTACK], [1, L.SRC_POISON]]
    end = first(evs, "condition_end", actor=f"sentinel#{sn}")
    assert evs.index(end) > evs.index(first(evs, "activate", actor=f"sentinel#{sn}"))
    assert en(end, sn)["wounds"] == 2 and en(end, sn)["conditions"] == []


def test_F_7_2_trap_met_while_dodging_is_resolved_before_the_dodge_roll():
    """F-7.2: the assassin's dodge move enters a face-down trap: the trap (2 damage, taken) is resolved first,
    then the dodge roll against the original attack."""
    pos = empty(["assassin"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("assassin", 6).terrain(1, L.TERRAIN_NONE, trap=2 * 8 + 1)
    b, evs = play(pos, forced=[1, 0], H_DEFENCE=1, H_DODGE_MOVE=1)
    trap = first(evs, "trap", actor="assassin")
    d = first(evs, "defend", actor="assassin")
    assert evs.index(trap) < evs.index(d) and d["values"][2] == 1
    assert ch(last(evs), "assassin")["damage"] == 2


def test_R_7_7_push_into_a_trap_springs_it():
    """R-7.7 (A-23 any_move): the swordsman's attack pushes the knight onto a face-down trap, which springs."""
    pos = empty(["knight"], encounter="broken_passageway")
    sk = slot(pos, "silver_knight_swordsman")
    pos.enemy(sk, 6).char("knight", 6).terrain(1, L.TERRAIN_NONE, trap=2 * 8 + 1)
    b, evs = play(pos, forced=[2, 3])
    push = first(evs, "push", actor="knight")
    trap = first(evs, "trap", actor="knight")
    assert push["values"][:2] == [6, 1] and evs.index(trap) > evs.index(push)
    assert ch(last(evs), "knight")["damage"] == 2


@pytest.mark.parametrize("dice, total, alive", [([0, 0], 0, True), ([1, 1], 1, True), ([2, 1], 2, False)])
def test_R_4_8_modifier_and_total_never_below_zero(dice, total, alive):
    """R-4.8: the estoc rolls KK − 1; a total below 0 counts as 0; 2 + 1 − 1 = 2 beats block 1 and kills."""
    pos = empty(["assassin"], first_side="characters_first")
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("assassin", 6)
    b, evs = play(pos, forced=dice + [1, 1], H_ATTACK=1)
    att = first(evs, "attack", actor="assassin")
    assert att["values"][3] == total
    assert en(last(evs), hs)["alive"] is alive
    assert (outcome(b) == L.OUT_WIN) is (not alive)


@pytest.mark.parametrize("swap, knight_stamina", [(0, 4), (1, 3)])
def test_F_4_1_backup_item_is_used_only_from_the_hands(swap, knight_stamina):
    """F-4.1/R-4.3: the herald's Talisman in the backup slot gives nothing; swapped into a hand at the start of
    the activation (R-10.1) its 0-stamina option gives every character in range 1 stamina (R-3.4)."""
    pos = empty(["knight", "herald"])
    pos.enemy(slot(pos, "hollow_soldier"), 0).char("knight", 12, stamina=4).char("herald", 12)
    pos.tokens(next_char=1)
    b, evs = play(pos, H_SWAP=swap, H_ATTACK=1)
    assert ch(last(evs), "knight")["stamina"] == knight_stamina
    assert bool(all_of(evs, "swap", actor="herald")) is bool(swap)


def test_F_9_5_failed_dodge_of_push_damage_is_pushed_from_the_new_node():
    """F-9.5/F-9.8/R-11.8 (A-36 defend_then_push): push damage is an attack; the assassin dodges it moving
    1 node (to node 1) and fails: it takes the full 5 and is then pushed from the node it moved to."""
    pos = empty(["assassin"], encounter="dark_hollow")
    lh = slot(pos, "large_hollow_soldier")
    pos.enemy(lh, 3).char("assassin", 6)
    b, evs = play(pos, forced=[0, 0], H_DEFENCE=1, H_DODGE_MOVE=1)
    mv = first(evs, "move", actor="assassin")
    assert mv["values"][:2] == [6, 1]
    d = first(evs, "defend", actor="assassin")
    assert d["values"][2] == 0 and d["values"][3] == 1  # failed, difficulty 1 (the enemy card's)
    dmg = first(evs, "damage", actor="assassin")
    assert dmg["values"][0] == 5
    push = first(evs, "push", actor="assassin")
    assert evs.index(push) > evs.index(dmg) and push["values"][0] == 1


def test_R_2_6_F_2_2_character_entering_full_node_pushes_an_enemy_out():
    """R-2.6/F-2.2: the knight walks onto a node holding three enemies; one of them (the players choose) is
    pushed out at once, leaving three figures there."""
    pos = empty(["knight"], encounter="forsaken_depths", first_side="characters_first")
    pos.enemy(0, 1).enemy(1, 1).enemy(2, 1).char("knight", 6)
    b, evs = play_routed(pos, before=[6, 1], H_NODE_LIMIT=0)
    mv = first(evs, "move", actor="knight")
    assert mv["values"][:2] == [6, 1]
    pushed = [ev for ev in all_of(evs, "push") if "#" in ev["actor"]]
    assert len(pushed) == 1 and pushed[0]["values"][0] == 1 and evs.index(pushed[0]) > evs.index(mv)
    st = pushed[0]["state"]
    assert sum(1 for e in st["enemies"] if e["alive"] and e["node"] == 1) == 2
    assert ch(pushed[0], "knight")["node"] == 1


def test_R_10_6_node_attack_compares_the_total_with_each_enemy_block():
    """R-10.6 step 6/R-4.10: one node-attack total of 2 deals 2 − 1 to the hollow soldier (dies) and
    2 − 2 = 0 to the sentinel on the same node."""
    pos = empty(["warrior"], encounter="perished_depths", first_side="characters_first")
    assert pos.comp.enemy_ids[:2] == ("sentinel", "hollow_soldier")
    pos.enemy(0, 6).enemy(1, 6).char("warrior", 6)
    b, evs = play(pos, forced=[1, 1, 2, 2], H_ATTACK=3)  # rows: axe line 0 × 2 targets, then the node option
    att = first(evs, "attack", actor="warrior")
    assert att["values"][3] == 2 and ch(att, "warrior")["stamina"] == 2
    st = first(evs, "activate", actor="sentinel#0")
    assert en(st, 0)["wounds"] == 0 and en(st, 0)["alive"]
    assert not en(st, 1)["alive"]


def test_R_3_6_luck_rerolls_an_attack_die():
    """R-3.6: the knight rerolls its long sword's 1 (U) with luck: 3 − block 1 kills the hollow soldier."""
    pos = empty(["knight"], first_side="characters_first")
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 6)
    b, evs = play(pos, forced=[1, 3], H_ATTACK=1, H_LUCK=1)
    lk = first(evs, "luck", actor="knight")
    assert lk["values"][:3] == [0, 3, 0]  # die 1 rerolled to 3, on an attack roll
    assert first(evs, "attack", actor="knight")["values"][3] == 3
    assert outcome(b) == L.OUT_WIN


@pytest.mark.parametrize("reading, dest", [("chain_push", 1), ("forbidden", 4)])
def test_R_2_6_attack_push_into_a_full_node(reading, dest):
    """R-2.6 (A-20 push_into_full_node): the swordsman's attack pushes the knight toward node 1, which holds
    three enemies. chain_push: it enters and one of the three is pushed out; forbidden: it goes to node 4."""
    pos = empty(["knight"], encounter="weathered_peak", push_into_full_node=reading)
    assert pos.comp.enemy_ids[:4] == ("silver_knight_swordsman", "silver_knight_swordsman", "crossbow_hollow",
                                      "silver_knight_greatbowman")
    pos.enemy(0, 6).enemy(1, 1).enemy(2, 1).enemy(3, 1).char("knight", 6).tokens(aggro=0)
    b, evs = play(pos, forced=[2, 3])
    push = first(evs, "push", actor="knight")
    assert push["values"][:2] == [6, dest]
    ejected = [ev for ev in all_of(evs, "push") if "#" in ev["actor"] and evs.index(ev) > evs.index(push)]
    if dest == 1:
        assert ejected and ejected[0]["values"][0] == 1
        assert sum(1 for e in ejected[0]["state"]["enemies"] if e["alive"] and e["node"] == 1) == 2
    else:
        later = evs.index(first(evs, "activate", actor="silver_knight_swordsman#1"))
        assert not ejected or evs.index(ejected[0]) > later


def test_R_8_3_first_activation_passes_to_the_player_after_the_last_one():
    """R-8.3: the knight wins the battle in its activation; the next battle starts with the herald."""
    pos = empty(["knight", "herald"], first_side="characters_first")
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("knight", 6).char("herald", 12).tokens(next_char=0)
    b, evs = play(pos, forced=[2], H_ATTACK=1)
    assert outcome(b) == L.OUT_WIN
    assert int(b.glob[L.G_NEXT_CHAR]) == 1


def test_R_4_6_backup_items_add_no_defence_dice():
    """R-4.6/R-4.3: the warrior blocks with its armour (K) and the hammer in hand (K); the round shield in
    the backup slot adds nothing: 2 dice, 1 + 1 = 2 → 2 damage."""
    pos = kit_scene({"warrior": {"armour": "northern_armour", "hands": ["great_wooden_hammer"],
                                 "backup": ["round_shield"]}}, encounter="the_forgotten")
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("warrior", 6)
    b, evs = play(pos, forced=[1, 1, 1])
    d = first(evs, "defend", actor="warrior")
    assert d["dice"] == [1, 1]
    assert ch(last(evs), "warrior")["damage"] == 2


@pytest.mark.parametrize("kind", [L.TERRAIN_BARREL, L.TERRAIN_CHEST])
def test_R_7_5_F_7_1_push_never_ends_on_barrel_or_chest(kind):
    """R-7.5/F-7.1/R-9.6: an intact barrel or a chest on node 1 blocks the swordsman's push; the knight goes
    to node 4 (the next adjacent node) and the barrel stays intact."""
    pos = empty(["knight"], encounter="broken_passageway")
    sk = slot(pos, "silver_knight_swordsman")
    pos.enemy(sk, 6).char("knight", 6).terrain(1, kind)
    b, evs = play(pos, forced=[2, 3])
    assert first(evs, "push", actor="knight")["values"][:2] == [6, 4]
    assert not all_of(evs, "barrel")


def test_R_7_7_blank_trap_flips_without_effect():
    """R-7.7: a blank trap token is flipped (a trap event) and deals nothing."""
    pos = empty(["knight"])
    pos.char("knight", 2).terrain(7, L.TERRAIN_NONE, trap=0)
    b, evs = play_routed(pos, before=[2, 7])
    assert first(evs, "trap", actor="knight")["values"][:2] == [7, 0]
    assert ch(last(evs), "knight")["damage"] == 0
    assert b.nodes[7, L.N_TRAP_UP] == 1


def test_R_3_7_assassin_backstab_needs_the_enemy_in_range():
    """R-3.7 (assassin): after a successful dodge that moved it 1 node away, the estoc (range 0) cannot reach
    the hollow soldier: no backstab, the token stays ready."""
    pos = empty(["assassin"])
    hs = slot(pos, "hollow_soldier")
    pos.enemy(hs, 6).char("assassin", 6)
    b, evs = play(pos, forced=[1, 1], H_DEFENCE=1, H_DODGE_MOVE=1, H_HEROIC=1)
    assert first(evs, "defend", actor="assassin")["values"][2] == 1
    assert not all_of(evs, "heroic") and not all_of(evs, "attack", actor="assassin")
    assert ch(last(evs), "assassin")["heroic"] is True


def test_R_3_7_knight_heroic_is_for_block_rolls_only():
    """R-3.7 (knight, card data: block only): against the crossbow hollow's magic the knight resists with
    its one K die and is not offered the extra blue die."""
    pos = empty(["knight"], encounter="ruined_keep")
    pos.enemy(0, 6).char("knight", 0).tokens(aggro=0)
    b, evs = play(pos, forced=[1, 2, 2], H_HEROIC=1)
    assert first(evs, "defend", actor="knight")["dice"] == [1]
    assert not all_of(evs, "heroic")


def test_R_10_5_a_weapon_that_attacks_from_the_backup_slot_attacks_once_per_activation():
    """R-10.5/R-10.6: each weapon attacks once per activation, a backup one whose card allows it (F-4.1) too: the
    Warrior's Caestus in backup attacked again and again while stamina lasted (rules audit, session 15)."""
    import copy

    from dsim.games.dstbg.compile import compile_encounter
    from dsim.games.dstbg.position import Position
    from tests.kit import data

    gear = copy.deepcopy(data())
    object.__setattr__(gear.characters["warrior"].starting_equipment, "backup", ["caestus"])
    comp = compile_encounter(gear, ["warrior"], "the_forgotten", {"max_rounds": 1, "first_side": "characters_first"})
    pos = Position(comp)
    for e in range(len(comp.enemy_ids)):
        pos.remove_enemy(e)
    pos.enemy(0, 6, wounds=0).char("warrior", 6, stamina=0).tokens(next_char=0)
    _, evs = play(pos, forced=[0] * 40, H_ATTACK=99, H_STEP=0)  # always the last option: the Caestus line
    attacks = all_of(evs, "attack", actor="warrior")
    lines = [comp.line_names[a["values"][0]] for a in attacks]
    assert len(attacks) == 2 and lines[0].startswith("caestus") and lines[1].startswith("battle_axe"), lines
    assert [ch(a, "warrior")["stamina"] for a in attacks] == [3, 5]  # each paid once: 3, then 2
