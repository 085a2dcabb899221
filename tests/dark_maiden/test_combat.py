"""Dark Maiden's attack roll (DM-7) and the enemies' specials and bosses (DM-9), one hand-set exchange per test.

Every exchange takes forced dice (white before red) and checks exact damage; ``attack`` also checks that no die
beyond the forced ones was rolled. The seed's worked turn (L141–L189) is replayed as one scenario at the end.
"""

from __future__ import annotations

import numpy as np
import pytest

from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.kernel.state import State
from tests.dark_maiden import kit

attack, foes = kit.attack, kit.foe_damage


def damage(s: State) -> list[int]:
    """Damage on each hero."""
    return [int(s.heroes[h, L.H_DAMAGE]) for h in range(s.table[L.T_HEROES])]


def names(s: State, *wanted: str) -> list[str]:
    """The trace's event names, only those in ``wanted``."""
    return [e["event"] for e in kit.events(s) if e["event"] in wanted]


def discarded(s: State) -> list[str]:
    """Names of the cards on the discard pile, bottom first."""
    return [kit.comp().card_names[c] for c in s.discard[: s.table[L.T_DISCARD]]]


def ride(s: State, f: int, mount: str = "mount_1") -> None:
    """Riding amazon ``f`` rides ``mount`` (undamaged)."""
    s.foes[f, L.F_MOUNT] = kit.comp().mount_ids.index(mount)
    s.foes[f, L.F_MOUNT_CARD] = kit.card(mount)
    s.foes[f, L.F_MOUNT_DAMAGE] = 0


# ---------------------------------------------------------------- DM-7.1–7.4 the exchange
def test_DM_7_1_white_die_is_the_hero_red_die_is_every_enemy() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "asesino")
    kit.add_foe(s, "mercenaria")
    attack(s, 0, 4, 2)  # white 4 misses (faces 1-3); red 2 is on both enemies' faces
    assert [(e["white"], e["red"], e["roll"]) for e in kit.events(s, "roll")] == [(4, 2, "attack")]
    assert damage(s) == [4] and foes(s) == [("asesino", 0), ("mercenaria", 0)]


@pytest.mark.parametrize("target,left", [("asesino", [("asesino", 2), ("mercenaria", 0)]),
                                         ("mercenaria", [("asesino", 0)])])
def test_DM_7_2_damage_is_the_white_value_to_one_chosen_enemy(target: str, left: list) -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "asesino")
    kit.add_foe(s, "mercenaria")
    attack(s, 0, 2, 6, target=target)
    assert foes(s) == left and damage(s) == [0]


@pytest.mark.parametrize("hero,white,dealt", [("amazona", 1, 1), ("amazona", 4, 0), ("barbara", 4, 4),
                                              ("barbara", 1, 0), ("guerrero", 5, 5), ("guerrero", 6, 0)])
def test_DM_7_2_only_the_heroes_success_faces_hit(hero: str, white: int, dealt: int) -> None:
    s = kit.scene((hero,))
    kit.add_foe(s, "paladin", role=L.ROLE_FINAL)  # vitality 10, strikes on 3-6: not on the red 2
    attack(s, 0, white, 2)
    assert foes(s) == [("paladin", dealt)]


@pytest.mark.parametrize("red,taken", [(1, 1), (2, 4), (3, 3), (4, 0)])
def test_DM_7_3_each_enemy_on_its_faces_deals_the_red_value_to_the_attacker_only(red: int, taken: int) -> None:
    s = kit.scene(("amazona", "barbara"))
    kit.add_foe(s, "asesino")     # faces 2, 3
    kit.add_foe(s, "mercenaria")  # faces 1, 2
    attack(s, 0, 6, red)
    assert damage(s) == [taken, 0]


def test_DM_7_4_lower_white_lands_first_and_its_kill_does_not_strike() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "asesino", damage=1)
    attack(s, 0, 2, 3)
    assert kit.foe_units(s) == [] and damage(s) == [0]


def test_DM_7_4_lower_red_strikes_first_then_the_surviving_hero() -> None:
    s = kit.scene(("barbara",))
    kit.add_foe(s, "asesino")
    attack(s, 0, 4, 2)
    assert names(s, "enemies_hit", "hero_hits") == ["enemies_hit", "hero_hits"]
    assert damage(s) == [2] and foes(s) == []


def test_DM_7_4_lower_red_kills_the_hero_before_her_damage_lands() -> None:
    s = kit.scene(("barbara",))
    kit.add_foe(s, "asesino")
    s.heroes[0, L.H_DAMAGE] = 4  # vitality 6: the asesino's 2 kills her
    attack(s, 0, 4, 2, 5)  # the bonus attack's white 5 misses (faces 2-4)
    assert names(s, "enemies_hit", "death", "hero_hits") == ["enemies_hit", "death"]
    assert foes(s) == [("asesino", 0)] and s.table[L.T_LIVES] == 11


@pytest.mark.parametrize("before,after,deaths", [(0, 2, 0), (4, 0, 1)])
def test_DM_7_4_equal_values_land_together_even_from_the_killed(before: int, after: int, deaths: int) -> None:
    s = kit.scene(("barbara",))
    kit.add_foe(s, "asesino", damage=1)
    s.heroes[0, L.H_DAMAGE] = before
    attack(s, 0, 2, 2)  # a double: Bárbara accepts it (row 0)
    assert foes(s) == [] and damage(s) == [after] and s.heroes[0, L.H_DEATHS] == deaths


# ---------------------------------------------------------------- DM-7.5 doubles and the heroes' specials
@pytest.mark.parametrize("exhausted,taken", [(0, 0), (1, 3)])
def test_DM_7_5_amazona_successful_double_lands_first(exhausted: int, taken: int) -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "asesino")
    s.heroes[0, L.H_EXHAUSTED] = exhausted  # exhausted: no special, so the double lands together
    attack(s, 0, 3, 3)
    assert foes(s) == [] and damage(s) == [taken]


def test_DM_7_5_barbara_rerolls_both_dice_once_per_attack() -> None:
    s = kit.scene(("barbara",))
    kit.add_foe(s, "asesino")
    attack(s, 0, 2, 2, 3, 3, double="reroll")  # the second double offers no reroll: accepted together
    doubles = [e["action"] for e in kit.events(s, "decision") if e["hook"] == "double"]
    assert doubles == ["reroll", "accept"] and len(kit.events(s, "reroll")) == 1
    assert foes(s) == [] and damage(s) == [3]


@pytest.mark.parametrize("double,left", [("accept", [("asesino", 0)]), ("reroll", [])])
def test_DM_7_5_barbara_rerolls_a_failed_double_too(double: str, left: list) -> None:
    s = kit.scene(("barbara",))
    kit.add_foe(s, "asesino")
    faces = (5, 5, 3, 1) if double == "reroll" else (5, 5)
    attack(s, 0, *faces, double=double)  # 5 misses; the reroll's white 3 kills, its red 1 misses
    assert foes(s) == left and damage(s) == [0]


@pytest.mark.parametrize("hero", ["amazona", "guerrero"])
def test_DM_7_5_only_barbara_may_reroll(hero: str) -> None:
    s = kit.scene((hero,))
    kit.add_foe(s, "paladin", role=L.ROLE_FINAL)
    attack(s, 0, 1, 1, double="reroll")
    assert [e["action"] for e in kit.events(s, "decision") if e["hook"] == "double"] == ["accept"]
    assert kit.events(s, "reroll") == []


@pytest.mark.parametrize("hero,taken,left", [("guerrero", 0, []), ("barbara", 3, [("asesino", 0)])])
def test_DM_7_5_guerrero_grab_needs_only_to_equal_the_red_die(hero: str, taken: int, left: list) -> None:
    s = kit.scene((hero,))
    kit.add_foe(s, "asesino")
    attack(s, 0, 3, 3, 3, double="grab", split="asesino")
    assert [e["succeeded"] for e in kit.events(s, "grab")] == [hero == "guerrero"]
    assert foes(s) == left and damage(s) == [taken]


@pytest.mark.parametrize("hero,double", [("barbara", "reroll"), ("guerrero", "grab"), ("amazona", "grab")])
def test_DM_7_5_specials_need_a_hero_not_exhausted(hero: str, double: str) -> None:
    s = kit.scene((hero,))
    kit.add_foe(s, "asesino")
    s.heroes[0, L.H_EXHAUSTED] = 1
    attack(s, 0, 3, 3, double=double, split="asesino")  # no double hook: the 3s land together
    assert [e for e in kit.events(s, "decision") if e["hook"] == "double"] == []
    assert foes(s) == [] and damage(s) == [3]


# ---------------------------------------------------------------- DM-7.6 quick strike
@pytest.mark.parametrize("target,left,taken", [
    ("mercenaria", [("amazona_jinete", 0)], 3),                   # the amazon uses the 3
    ("amazona_jinete", [("mercenaria", 0), ("amazona_jinete", 2)], 0)])  # the mercenaria (1-2) misses
def test_DM_7_6_quick_strike_seed_example_L98(target: str, left: list, taken: int) -> None:
    s = kit.scene(("guerrero",))
    kit.add_foe(s, "mercenaria")
    kit.add_foe(s, "amazona_jinete")
    attack(s, 0, 3, 4, attack="quick strike", target=target)
    assert [e["roll"] for e in kit.events(s, "roll")] == ["quick strike"]
    assert foes(s) == left and damage(s) == [taken] and s.heroes[0, L.H_EXHAUSTED] == 1


def test_DM_7_6_failed_quick_strike_seed_example_L180() -> None:
    s = kit.scene(("guerrero",))
    kit.add_foe(s, "mercenaria")
    attack(s, 0, 3, 2, attack="quick strike")  # 5 < 7 fails; the mercenaria strikes with the 2
    assert foes(s) == [("mercenaria", 0)] and damage(s) == [2] and s.heroes[0, L.H_EXHAUSTED] == 1


@pytest.mark.parametrize("how,taken,left", [("roll", 2, []), ("quick strike", 3, [("asesino", 0)])])
def test_DM_7_6_enemies_use_the_higher_die_on_their_faces(how: str, taken: int, left: list) -> None:
    s = kit.scene(("guerrero",))
    kit.add_foe(s, "asesino")  # faces 2, 3
    attack(s, 0, 3, 2, attack=how)  # a normal roll: red 2 first, then the white 3 kills
    assert damage(s) == [taken] and foes(s) == left


def test_DM_7_6_quick_strike_deals_2_whatever_the_faces_and_its_target_cannot_strike() -> None:
    s = kit.scene(("guerrero",))  # faces 3-5: the 5 would deal 5 in a normal attack
    kit.add_foe(s, "asesino")
    kit.add_foe(s, "mercenaria")
    attack(s, 0, 5, 2, attack="quick strike", target="asesino")
    assert foes(s) == [("asesino", 2), ("mercenaria", 0)]
    assert damage(s) == [2]  # the mercenaria's 2 only: the stunned asesino would add 2


def test_DM_7_6_quick_strike_lands_first_even_if_the_hero_then_dies() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "mercenaria")
    kit.add_foe(s, "amazona_jinete")
    s.heroes[0, L.H_DAMAGE] = 4
    attack(s, 0, 3, 4, 6, attack="quick strike", target="mercenaria")  # the bonus attack's 6 misses
    assert foes(s) == [("amazona_jinete", 0)] and s.heroes[0, L.H_DEATHS] == 1


@pytest.mark.parametrize("white,red,taken,units", [
    (5, 1, 5, ["dama_negra"]),             # she strikes with the higher die, 5 (it was: 0 and a call)
    (1, 1, 0, ["dama_negra", "asesino"]),  # her die is 1 only on a double 1: she calls reinforcements
    (3, 2, 3, ["dama_negra"])])
def test_DM_7_6_quick_strike_the_dark_maiden_uses_the_higher_die_and_calls_only_on_double_1(
        white: int, red: int, taken: int, units: list) -> None:
    """Seed L95: in a quick strike the enemies use «siempre el de mayor valor»; the Dark Maiden calls reinforcements
    when her die shows 1 (DM-9.4, L55), so only when both dice do. A total below 7: the strike fails."""
    s = kit.scene(("guerrero",), site=3, deck=(kit.card("asesino"),))
    kit.add_foe(s, "dama_negra", role=L.ROLE_FINAL)
    attack(s, 0, white, red, attack="quick strike")
    assert damage(s) == [taken] and kit.foe_units(s) == units
    assert len(kit.events(s, "reinforcements")) == (1 if units[1:] else 0)


def test_DM_7_6_a_dark_maiden_disabled_by_a_quick_strike_neither_strikes_nor_calls() -> None:
    """White 6 / red 1 totals 7: the quick strike hits her for 2 and «deshabilita al enemigo … (este enemigo no hace
    daño)» (seed L94); the engine still drew reinforcements on the red 1."""
    s = kit.scene(("guerrero",), site=3, deck=(kit.card("asesino"),))
    kit.add_foe(s, "dama_negra", role=L.ROLE_FINAL)
    attack(s, 0, 6, 1, attack="quick strike")
    assert damage(s) == [0] and foes(s) == [("dama_negra", 2)] and kit.events(s, "reinforcements") == []
    assert s.table[L.T_DECK] == 1


def test_DM_7_1_site_bosses_called_by_the_hit_do_not_strike_with_the_dice_rolled_before_they_came() -> None:
    """Seed L165: the red die strikes for the enemies «en juego en ese momento». The quick strike's 2 kills the
    riding amazon (+1: the Village's 12) and the Lords enter; the higher die, 4, is on their faces but was rolled
    before them."""
    s = kit.scene(("guerrero",))
    s.table[L.T_ADVANCE] = 11
    kit.add_foe(s, "amazona_jinete", damage=1)
    attack(s, 0, 3, 4, attack="quick strike", target="amazona_jinete")
    assert kit.foe_units(s) == ["lord", "lord"] and damage(s) == [0]
    attack(s, 0, 6, 4)  # the next roll is theirs: 4 each
    assert damage(s) == [0] and s.heroes[0, L.H_DEATHS] == 1


def test_DM_7_6_an_exhausted_hero_cannot_quick_strike() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "asesino")
    s.heroes[0, L.H_EXHAUSTED] = 1
    attack(s, 0, 3, 4, attack="quick strike")
    assert [e["roll"] for e in kit.events(s, "roll")] == ["attack"]
    assert foes(s) == [] and damage(s) == [0]


# ---------------------------------------------------------------- DM-7.7 grab
def test_DM_7_7_grab_rerolls_the_white_die_only_and_beating_red_cancels_it() -> None:
    s = kit.scene(("barbara",))
    kit.add_foe(s, "asesino")
    kit.add_foe(s, "mercenaria")
    attack(s, 0, 2, 2, 3, double="grab", split="asesino")  # one new die: white 3 beats the red 2
    assert [(e["white"], e["red"], e["succeeded"]) for e in kit.events(s, "grab")] == [(3, 2, True)]
    assert foes(s) == [("mercenaria", 0)] and damage(s) == [0] and s.heroes[0, L.H_EXHAUSTED] == 0


def test_DM_7_7_grab_splits_its_3_points() -> None:
    s = kit.scene(("barbara",))
    kit.add_foe(s, "asesino")
    kit.add_foe(s, "mercenaria")
    attack(s, 0, 2, 2, 6, double="grab", split="mercenaria")  # 2 kill her, the third goes to the asesino
    assert foes(s) == [("asesino", 1)] and damage(s) == [0]


@pytest.mark.parametrize("white", [1, 2])
def test_DM_7_7_failed_grab_only_the_enemies_strike(white: int) -> None:
    s = kit.scene(("barbara",))
    kit.add_foe(s, "asesino")
    kit.add_foe(s, "mercenaria")
    attack(s, 0, 2, 2, white, double="grab", split="asesino")
    assert foes(s) == [("asesino", 0), ("mercenaria", 0)] and damage(s) == [4]


# ---------------------------------------------------------------- DM-7.8 bonus attack, DM-7.9 death
@pytest.mark.parametrize("bonus,left", [(3, [("mercenaria", 0)]), (4, [("asesino", 0), ("mercenaria", 0)])])
def test_DM_7_8_a_hero_killed_in_the_exchange_makes_a_bonus_attack(bonus: int, left: list) -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "asesino")
    kit.add_foe(s, "mercenaria")
    s.heroes[0, L.H_DAMAGE] = 3
    attack(s, 0, 4, 2, bonus, target="asesino")  # 4 damage kills her; the white die alone again
    assert [(e["white"], e["red"], e["roll"]) for e in kit.events(s, "roll")][1:] == [(bonus, 0, "bonus attack")]
    assert foes(s) == left
    assert len(kit.events(s, "enemies_hit")) == 1 and damage(s) == [0]  # nothing strikes the bonus attack back


def test_DM_7_9_death_clears_damage_and_exhaustion_and_costs_a_life() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "asesino")
    s.heroes[0, L.H_DAMAGE], s.heroes[0, L.H_EXHAUSTED] = 4, 1
    attack(s, 0, 6, 3, 6)
    row = s.heroes[0]
    assert (row[L.H_DAMAGE], row[L.H_EXHAUSTED], row[L.H_DEATHS], row[L.H_OUT], row[L.H_POTIONS]) == (0, 0, 1, 0, 1)
    assert s.table[L.T_LIVES] == 11 and s.table[L.T_OVER] == L.OVER_RUNNING


@pytest.mark.parametrize("party,faces,over", [(("amazona",), (6, 3), L.OVER_LOST),
                                              (("amazona", "barbara"), (6, 3, 6), L.OVER_RUNNING)])
def test_DM_7_9_death_with_no_life_left_puts_the_hero_out(party: tuple, faces: tuple, over: int) -> None:
    s = kit.scene(party, lives=0)
    kit.add_foe(s, "asesino")
    s.heroes[0, L.H_DAMAGE] = 4
    attack(s, 0, *faces)  # a lost game has no bonus attack
    assert s.heroes[0, L.H_OUT] == 1 and s.heroes[0, L.H_POTIONS] == 0 and s.table[L.T_OVER] == over


def test_DM_7_9_a_mounted_hero_killed_by_the_hit_leaves_the_mount_in_play() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "asesino")
    kit.mount_hero(s, 0, level=1)
    s.heroes[0, L.H_DAMAGE] = 4
    attack(s, 0, 6, 3, 6)  # the mounted hero's 1 damage kills her
    assert s.heroes[0, L.H_DEATHS] == 1 and s.heroes[0, L.H_MOUNT] == -1
    assert s.table[L.T_MIDDLE] == 1 and s.middle[0, L.M_DAMAGE] == 1


# ---------------------------------------------------------------- DM-7.10 mounted hero hit, DM-7.11 mounted attack
def test_DM_7_10_mounted_hero_takes_1_and_the_mount_1_then_is_dismounted_and_exhausted() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "asesino")
    kit.add_foe(s, "mercenaria")
    kit.mount_hero(s, 0, level=1)
    attack(s, 0, 5, 2)  # two enemies hit for 2 each
    assert damage(s) == [1] and s.heroes[0, L.H_MOUNT] == -1 and s.heroes[0, L.H_EXHAUSTED] == 1
    assert s.table[L.T_MIDDLE] == 1 and s.middle[0, L.M_MOUNT] == 0 and s.middle[0, L.M_DAMAGE] == 1


def test_DM_7_10_a_riding_amazon_in_play_takes_the_mount_at_once() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "asesino")
    f = kit.add_foe(s, "amazona_jinete")
    kit.mount_hero(s, 0, level=1)
    attack(s, 0, 5, 2)
    assert s.table[L.T_MIDDLE] == 0 and s.foes[f, L.F_MOUNT] == 0 and s.foes[f, L.F_MOUNT_DAMAGE] == 1


def test_DM_7_10_a_sub_boss_dismounting_discards_the_mount() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "lord", role=L.ROLE_SUB_BOSS)  # faces 3-5
    kit.mount_hero(s, 0, level=1)
    attack(s, 0, 5, 3)
    assert damage(s) == [1] and s.table[L.T_MIDDLE] == 0 and discarded(s) == ["mount_1"]


def test_DM_7_10_a_riding_amazon_takes_the_mount_even_from_a_boss_seed_L36() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "lord", role=L.ROLE_BOSS)
    f = kit.add_foe(s, "amazona_jinete")
    kit.mount_hero(s, 0, level=1)
    attack(s, 0, 6, 4)  # the lord hits, the amazon (3, 5) does not
    assert discarded(s) == [] and s.foes[f, L.F_MOUNT] == 0 and s.foes[f, L.F_MOUNT_DAMAGE] == 1


def test_DM_7_10_a_mount_whose_damage_reaches_its_vitality_is_discarded() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "asesino")
    kit.mount_hero(s, 0, level=1, damage=1)  # vitality 2
    attack(s, 0, 5, 2)
    assert s.table[L.T_MIDDLE] == 0 and discarded(s) == ["mount_1"]


@pytest.mark.parametrize("level,hero,white,dealt", [
    (1, "guerrero", 1, 2), (1, "guerrero", 5, 0), (2, "amazona", 3, 3), (2, "barbara", 4, 0),
    (3, "amazona", 4, 4), (3, "amazona", 1, 1), (3, "guerrero", 5, 0)])
def test_DM_7_11_a_mounted_hero_deals_the_mounts_damage_on_its_faces(level: int, hero: str, white: int,
                                                                      dealt: int) -> None:
    s = kit.scene((hero,))
    kit.add_foe(s, "paladin", role=L.ROLE_FINAL)
    kit.mount_hero(s, 0, level=level)
    attack(s, 0, white, 2)
    assert foes(s) == [("paladin", dealt)] and s.heroes[0, L.H_MOUNT] >= 0


def test_DM_7_11_mounted_strike_order_compares_the_white_value() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "asesino", damage=1)
    kit.mount_hero(s, 0, level=1)
    attack(s, 0, 1, 2)  # white 1 < red 2: the mount's 2 lands first and the asesino never strikes
    assert foes(s) == [] and damage(s) == [0] and s.heroes[0, L.H_MOUNT] >= 0


# ---------------------------------------------------------------- DM-9 enemy specials and bosses
@pytest.mark.parametrize("white,left,middle", [(2, 1, 1), (4, 3, 0)])
def test_DM_9_1_a_successful_attack_dismounts_the_riding_amazon(white: int, left: int, middle: int) -> None:
    s = kit.scene(("amazona",))
    f = kit.add_foe(s, "amazona_jinete")
    ride(s, f)
    attack(s, 0, white, 6)
    assert s.foes[f, L.F_VITALITY] - s.foes[f, L.F_DAMAGE] == left
    assert s.table[L.T_MIDDLE] == middle and (s.foes[f, L.F_MOUNT] < 0) == (middle == 1)


def test_DM_9_1_her_mount_is_taken_only_once_she_is_dismounted_in_the_bonus_phase() -> None:
    s = kit.scene(("amazona",))
    f = kit.add_foe(s, "amazona_jinete")
    ride(s, f)
    kit.step(s, "bonus", 0, kit.script(bonus="mount"))  # no free mount: row 0, pass
    assert s.heroes[0, L.H_MOUNT] == -1
    attack(s, 0, 1, 6)
    kit.step(s, "bonus", 0, kit.script(bonus="mount"))
    assert s.heroes[0, L.H_MOUNT] == 0 and s.table[L.T_MIDDLE] == 0


def test_DM_9_1_riding_amazon_is_worth_1_point_when_killed() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "amazona_jinete", damage=2)
    attack(s, 0, 1, 6)
    assert foes(s) == [] and s.table[L.T_ADVANCE] == 1


def test_DM_9_1_a_mounted_amazon_thrown_off_a_precipice_takes_her_mount_and_gives_her_point() -> None:
    s = kit.scene(("amazona",))
    f = kit.add_foe(s, "amazona_jinete")
    ride(s, f)
    kit.force(s, 6, 6, 1, 1)  # the hero passes, the enemies' test fails
    kit.step(s, "precipice")
    assert foes(s) == [] and s.table[L.T_ADVANCE] == 1 and discarded(s) == ["mount_1", "amazona_jinete"]


def test_DM_9_2_a_drawn_skeleton_draws_again() -> None:
    s = kit.scene(("amazona",), deck=(kit.card("esqueleto"), kit.card("esqueleto", 1), kit.card("go"),
                                      kit.card("asesino")))
    kit.step(s, "draw", 0)
    assert kit.foe_units(s) == ["esqueleto", "esqueleto"] and s.table[L.T_ADVANCE] == 1  # the go card ends it
    assert s.table[L.T_DECK] == 1


@pytest.mark.parametrize("boss,points", [("lord", 1), ("armadura_2", 2), ("armadura_3", 3)])
def test_DM_9_3_a_beaten_boss_drawn_again_is_a_sub_boss_worth_points(boss: str, points: int) -> None:
    s = kit.scene(("amazona",), deck=(kit.card(boss),))
    kit.step(s, "draw", 0)
    assert s.foes[0, L.F_ROLE] == L.ROLE_SUB_BOSS and s.foes[0, L.F_POINTS] == points
    s.foes[0, L.F_DAMAGE] = s.foes[0, L.F_VITALITY] - 1
    attack(s, 0, 2, 1)  # 2 damage (1 through armour) finishes it; nothing strikes on a 1
    assert foes(s) == [] and s.table[L.T_ADVANCE] == points


def test_DM_9_3_a_site_boss_is_worth_nothing_and_goes_to_the_discard_pile() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "lord", role=L.ROLE_BOSS, damage=4)
    attack(s, 0, 2, 1)
    assert foes(s) == [] and s.table[L.T_ADVANCE] == 0 and discarded(s) == ["lord"]


@pytest.mark.parametrize("role,fallen,advance", [(L.ROLE_BOSS, "asesino", 0), (L.ROLE_SUB_BOSS, "lord", 1)])
def test_DM_9_3_a_boss_falls_off_a_precipice_only_as_a_sub_boss(role: int, fallen: str, advance: int) -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "lord", role=role)
    kit.add_foe(s, "asesino")
    kit.force(s, 6, 6, 1, 1)
    kit.step(s, "precipice", 0, kit.script(fall="lord"))
    assert [e["unit"] for e in kit.events(s, "foe_falls")] == [fallen] and s.table[L.T_ADVANCE] == advance


@pytest.mark.parametrize("role,bonus", [(L.ROLE_ENEMY, 1), (L.ROLE_SUB_BOSS, 0)])
def test_DM_9_3_a_sub_boss_in_play_blocks_the_bonus_phase(role: int, bonus: int) -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "lord", role=role)
    kit.force(s, 6)
    kit.step(s, "bonus", 0, kit.script(bonus="strike"))
    assert len(kit.events(s, "bonus")) == bonus


@pytest.mark.parametrize("deck,units,pile", [
    (("asesino", "mercenaria"), ["dama_negra", "asesino"], []),
    (("go", "asesino"), ["dama_negra"], ["go"]),
    (("mount_1", "asesino"), ["dama_negra"], ["mount_1"]),
    (("goblin_1", "asesino"), ["dama_negra"], ["goblin_1"]),
    (("precipice", "asesino"), ["dama_negra"], ["precipice"]),
    (("esqueleto", "mercenaria", "asesino"), ["dama_negra", "esqueleto", "mercenaria"], []),
    (("esqueleto", "go", "asesino"), ["dama_negra", "esqueleto"], ["go"])])
def test_DM_9_4_the_dark_maiden_calls_reinforcements_on_red_1(deck: tuple, units: list, pile: list) -> None:
    s = kit.scene(("amazona",), site=3, deck=tuple(kit.card(c) for c in deck))
    kit.add_foe(s, "dama_negra", role=L.ROLE_FINAL)
    s.foes[0, L.F_FACES] |= 1 << 1  # even a 1 on her faces deals nothing: she calls instead
    attack(s, 0, 6, 1)
    assert kit.foe_units(s) == units and discarded(s) == pile and s.table[L.T_DECK] == 1
    assert damage(s) == [0] and s.table[L.T_ADVANCE] == 0


def test_DM_9_4_other_enemies_strike_on_the_1_and_she_strikes_on_other_faces() -> None:
    s = kit.scene(("guerrero",), site=3, deck=(kit.card("go"),))
    kit.add_foe(s, "dama_negra", role=L.ROLE_FINAL)
    kit.add_foe(s, "mercenaria")
    attack(s, 0, 6, 1)  # the mercenaria's 1; the Dark Maiden's call draws the go card
    assert damage(s) == [1] and discarded(s) == ["go"]
    attack(s, 0, 6, 2)  # 2 from each, no call
    assert damage(s) == [5] and len(kit.events(s, "reinforcements")) == 1


@pytest.mark.parametrize("before,white,after", [(5, 6, 1), (2, 6, 0), (2, 3, 1)])
def test_DM_9_5_the_paladin_heals_by_the_damage_she_deals_never_above_her_vitality(before: int, white: int,
                                                                                   after: int) -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "paladin", role=L.ROLE_FINAL, damage=before)
    attack(s, 0, white, 4)  # she deals 4; a white 3 lands first
    assert damage(s) == [4] and foes(s) == [("paladin", after)]


@pytest.mark.parametrize("party,finals", [(("amazona", "barbara", "guerrero", "amazona"), ["dama_negra", "paladin"]),
                                          (("amazona", "barbara", "guerrero"), ["dama_negra"])])
def test_DM_9_6_four_heroes_face_both_final_bosses(party: tuple, finals: list) -> None:
    s = kit.scene(party, site=3, deck=(kit.card("go"),))
    s.table[L.T_ADVANCE] = 23  # the Castle's go card (4) reaches 24
    kit.step(s, "draw", 0)
    assert kit.foe_units(s) == finals and all(s.foes[f, L.F_ROLE] == L.ROLE_FINAL for f in range(len(finals)))
    for _ in finals:
        s.foes[0, L.F_DAMAGE] = s.foes[0, L.F_VITALITY] - 1
        kit.step(s, "check_site")
        assert s.table[L.T_OVER] == L.OVER_RUNNING
        attack(s, 0, 1, 2)  # white 1 first: a final boss dies before striking
    assert kit.foe_units(s) == []
    assert kit.step(s, "check_site")[L.OUT_WIN] == 1


def test_DM_9_7_armour_takes_1_off_a_normal_hit() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "armadura_2", role=L.ROLE_SUB_BOSS)  # faces 4-6
    attack(s, 0, 3, 2)
    attack(s, 0, 1, 2)
    assert foes(s) == [("armadura_2", 2)] and [e["damage"] for e in kit.events(s, "hero_hits")] == [2]


def test_DM_9_7_armour_takes_1_off_a_quick_strike() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "armadura_3", role=L.ROLE_SUB_BOSS)
    attack(s, 0, 3, 4, attack="quick strike")
    assert foes(s) == [("armadura_3", 1)] and damage(s) == [0]


@pytest.mark.parametrize("potions,armoured,plain", [(1, 0, 1), (2, 1, 2)])
def test_DM_9_7_armour_takes_1_off_each_potion_use(potions: int, armoured: int, plain: int) -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "armadura_2", role=L.ROLE_SUB_BOSS)
    kit.add_foe(s, "asesino")
    s.heroes[0, L.H_POTIONS] = potions
    attack(s, 0, 6, 1, potions="drink")
    assert foes(s) == [("armadura_2", armoured), ("asesino", plain)]


def test_DM_9_7_armour_takes_1_off_a_grab_once_per_armoured_enemy() -> None:
    s = kit.scene(("barbara",))
    kit.add_foe(s, "armadura_2", role=L.ROLE_SUB_BOSS)
    attack(s, 0, 2, 2, 3, double="grab", split="armadura_2")
    assert foes(s) == [("armadura_2", 2)]


def test_DM_9_7_armour_takes_1_off_a_bonus_attack() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "armadura_2", role=L.ROLE_SUB_BOSS)
    s.heroes[0, L.H_DAMAGE] = 1
    attack(s, 0, 6, 4, 3)  # the armour's 4 kills her; the bonus attack's 3 deals 2
    assert foes(s) == [("armadura_2", 2)]


# ---------------------------------------------------------------- the seed's worked turn (L141–L189)
def test_DM_7_seed_worked_turn_L141_to_L189() -> None:
    """Amazona walks (a go card), Bárbara runs (asesino, mercenaria), Guerrero walks (a goblin); goblin 2, 4, 5;
    Amazona 1/3 hits the asesino first and takes 3; Bárbara's double 2 lands together (the asesino dies, she takes
    4); Guerrero's quick strike 3+2 fails and the mercenaria hits him for 2; in the bonus phase Amazona's 1 hits the
    mercenaria, Bárbara's 1 misses, Guerrero recovers; the turn-sequence card passes to Bárbara."""
    s = kit.scene(("amazona", "barbara", "guerrero"),
                  deck=tuple(kit.card(c) for c in ("go", "asesino", "mercenaria", "goblin_1")))
    params = np.concatenate([
        kit.script(move="walk", target="asesino", double="accept", bonus="strike"),
        kit.script(move="run", target="asesino", double="accept", bonus="strike"),
        kit.script(move="walk", attack="quick strike", bonus="recover"),
    ])
    kit.force(s, 2, 4, 5, 1, 3, 2, 2, 3, 2, 1, 1)
    kit.step(s, "turn", 0, params)  # one block of choices per seat
    assert s.table[L.T_FORCED_NEXT] == 11
    assert s.table[L.T_ADVANCE] == 5  # 1 + the go card's 1 + 2 + 1
    assert [int(s.heroes[h, L.H_POTIONS]) for h in range(3)] == [3, 3, 1]
    assert damage(s) == [3, 4, 2] and [int(s.heroes[h, L.H_EXHAUSTED]) for h in range(3)] == [0, 0, 0]
    assert foes(s) == [("mercenaria", 1)]
    assert discarded(s) == ["go", "goblin_1", "asesino"]
    assert [(e["seat"], e["white"], e["red"], e["roll"]) for e in kit.events(s, "roll")] == [
        (0, 1, 3, "attack"), (1, 2, 2, "attack"), (2, 3, 2, "quick strike"),
        (0, 1, 0, "bonus strike"), (1, 1, 0, "bonus strike")]
    assert s.table[L.T_FIRST] == 1
