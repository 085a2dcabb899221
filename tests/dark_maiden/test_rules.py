"""One or more tests per Dark Maiden rule (DM-1 … DM-10 of /work/shared/rules/dark_maiden.md; the seed wins).

Each test hand-sets a table with :mod:`tests.dark_maiden.kit` (forced die faces, a scripted team), plays one
step and asserts exact numbers, so that it fails when its rule is broken (both sides of a threshold where
there is one).
"""

from __future__ import annotations

import pytest

from dsim.games.dark_maiden import engine
from dsim.games.dark_maiden.kernel import layout as L
from tests.dark_maiden import kit

GO, PRECIPICE = kit.card("go"), kit.card("precipice")
GOBLIN_1, GOBLIN_2 = kit.comp().goblin_ids.index("goblin_1"), kit.comp().goblin_ids.index("goblin_2")
MOUNT_1 = kit.comp().mount_ids.index("mount_1")
ITEMS_ON = {"special_items": "on"}


def names(s, *only):
    """The trace's event names in order (only those in ``only`` if given)."""
    return [e["event"] for e in kit.events(s) if not only or e["event"] in only]


def discarded(s):
    """The discard pile's card names, bottom first."""
    return [kit.comp().card_names[c] for c in s.discard[: s.table[L.T_DISCARD]]]


def deck_names(s):
    """The deck's card names (any order)."""
    return sorted(kit.comp().card_names[c] for c in s.deck[: s.table[L.T_DECK]])


def mount_foe(s, f, damage=0):
    """Riding amazon ``f`` rides the level-1 mount."""
    s.foes[f, L.F_MOUNT], s.foes[f, L.F_MOUNT_CARD], s.foes[f, L.F_MOUNT_DAMAGE] = MOUNT_1, kit.card("mount_1"), damage


def slay(s, h=0):
    """Hero ``h``, 1 vitality short of death, attacks an asesino: white 6 misses, red 3 hits for 3 and kills; the
    bonus attack's white 6 misses (DM-7.8)."""
    s.heroes[h, L.H_DAMAGE] = s.heroes[h, L.H_VITALITY] - 1
    kit.add_foe(s, "asesino")
    kit.force(s, 6, 3, 6)
    return kit.step(s, "attack", h)


# ---------------------------------------------------------------- DM-1, DM-2.6, DM-7.9: lives, death, the end
def test_DM_7_9_death_clears_damage_and_exhaustion_and_costs_one_life() -> None:
    s = kit.scene(("amazona",), lives=12)
    s.heroes[0, L.H_EXHAUSTED] = 1
    slay(s)
    assert s.heroes[0, L.H_DAMAGE] == 0 and s.heroes[0, L.H_EXHAUSTED] == 0
    assert s.heroes[0, L.H_DEATHS] == 1 and s.table[L.T_LIVES] == 11 and s.heroes[0, L.H_OUT] == 0
    assert [(e["deaths"], e["lives"], e["out"]) for e in kit.events(s, "death")] == [(1, 11, False)]


def test_DM_7_9_one_short_of_vitality_is_not_a_death() -> None:
    s = kit.scene(("amazona",))
    s.heroes[0, L.H_DAMAGE] = 1  # 1 + 3 = 4 < vitality 5
    kit.add_foe(s, "asesino")
    kit.force(s, 6, 3)
    kit.step(s, "attack", 0)
    assert s.heroes[0, L.H_DAMAGE] == 4 and s.heroes[0, L.H_DEATHS] == 0 and s.table[L.T_LIVES] == 12


def test_DM_2_6_spare_lives_a_death_at_1_plays_on_a_death_at_0_is_out() -> None:
    s = kit.scene(("amazona", "barbara"), lives=1)
    slay(s, 0)
    assert s.table[L.T_LIVES] == 0 and s.heroes[0, L.H_OUT] == 0
    slay(s, 0)
    assert s.table[L.T_LIVES] == 0 and s.heroes[0, L.H_OUT] == 1 and s.heroes[0, L.H_DEATHS] == 2
    assert s.table[L.T_OVER] == L.OVER_RUNNING  # Bárbara is still in the game


def test_DM_2_6_reading_total_counts_the_lives_in_play() -> None:
    s = kit.scene(("amazona", "barbara"), lives=3, vary={"life_counter": "total"})
    slay(s, 0)  # 3 lives, 2 in play: one spare
    assert s.table[L.T_LIVES] == 2 and s.heroes[0, L.H_OUT] == 0
    slay(s, 0)  # 2 lives, 2 in play: none spare
    assert s.table[L.T_LIVES] == 1 and s.heroes[0, L.H_OUT] == 1


def test_DM_1_3_defeat_when_every_hero_is_out() -> None:
    s = kit.scene(("amazona", "barbara"), lives=0)
    s.heroes[1, L.H_OUT] = 1
    out = slay(s, 0)
    assert s.heroes[0, L.H_OUT] == 1 and s.table[L.T_OVER] == L.OVER_LOST
    assert out[L.OUT_WIN] == 0 and out[L.OUT_OVER] == L.OVER_LOST and out[L.OUT_END_CARD] == kit.unit("asesino")


def test_DM_1_3_no_defeat_while_a_hero_is_in() -> None:
    s = kit.scene(("amazona", "barbara"), lives=0)
    out = slay(s, 0)
    assert s.heroes[0, L.H_OUT] == 1 and s.table[L.T_OVER] == L.OVER_RUNNING and out[L.OUT_OVER] == 0


def castle(party=("amazona",)):
    """The Castle reached, its final boss in: the Dark Maiden (vitality 12) with 10 damage."""
    s = kit.scene(party, site=3)
    s.table[L.T_BOSSES_IN] = 1
    kit.add_foe(s, "dama_negra", role=L.ROLE_FINAL, damage=10)
    return s


def test_DM_1_2_victory_when_the_dark_maiden_dies_with_a_hero_in() -> None:
    s = castle(("amazona", "barbara"))
    s.heroes[1, L.H_OUT] = 1
    kit.force(s, 2, 3)  # white 2 lands before red 3 (DM-7.4): 10 + 2 = 12
    out = kit.step(s, "turn")
    assert kit.foe_units(s) == [] and s.table[L.T_OVER] == L.OVER_WON
    assert out[L.OUT_WIN] == 1 and out[L.OUT_SITES] == 1 and names(s, "move") == []  # DM-4.5: no phase 1


def test_DM_1_2_no_victory_while_another_enemy_is_in_play() -> None:
    s = castle()
    kit.add_foe(s, "mercenaria")  # a reinforcement (DM-9.4)
    kit.force(s, 2, 3)  # the Amazona's 2 kills the Dark Maiden first; the mercenaria misses a 3
    kit.step(s, "attack", 0, kit.script(target="dama_negra"))
    kit.step(s, "check_site")
    assert kit.foe_units(s) == ["mercenaria"] and s.table[L.T_OVER] == L.OVER_RUNNING
    kit.force(s, 2, 6)
    kit.step(s, "attack", 0)
    out = kit.step(s, "check_site")
    assert kit.foe_units(s) == [] and s.table[L.T_OVER] == L.OVER_WON and out[L.OUT_WIN] == 1


def test_DM_1_2_no_victory_when_the_last_hero_dies_with_her() -> None:
    s = castle(("barbara",))
    s.table[L.T_LIVES] = 0
    s.heroes[0, L.H_DAMAGE] = 5
    kit.force(s, 2, 2)  # a double: both 2s land together (DM-7.4); Bárbara accepts it
    out = kit.step(s, "turn")
    assert kit.foe_units(s) == [] and s.heroes[0, L.H_OUT] == 1
    assert s.table[L.T_OVER] == L.OVER_LOST and out[L.OUT_WIN] == 0


def test_DM_1_1_four_sites_in_order_then_the_castle_boss_wins() -> None:
    c = kit.comp()
    assert c.site_ids == ("aldea", "bosque", "montanas", "castillo")
    s = kit.scene(("amazona",))
    sites = []
    for _ in range(4):
        sites.append(int(s.table[L.T_SITE]))
        s.table[L.T_BOSSES_IN] = 1
        kit.force(s, 5, 5)
        kit.step(s, "check_site")
    assert sites == [0, 1, 2, 3] and s.table[L.T_OVER] == L.OVER_WON and s.table[L.T_SITES_DONE] == 4


def test_DM_1_4_four_heroes_take_their_turns() -> None:
    s = kit.scene(("amazona", "barbara", "guerrero", "amazona"), first=3)
    kit.step(s, "turn")
    assert s.table[L.T_HEROES] == 4 and [e["seat"] for e in kit.events(s, "move")] == [3, 0, 1, 2]
    assert s.table[L.T_ADVANCE] == 4 and s.table[L.T_FIRST] == 0


# ---------------------------------------------------------------- DM-2.1–2.5: setup
def fresh_game(party=("amazona", "barbara", "guerrero"), lives=12, items=-1, index=0):
    """Game ``index`` just set up (DM-2), not cleared for a scene."""
    c = kit.comp()
    vary = ITEMS_ON if items >= 0 else {}
    return engine.new_game(c.tables, kit.variants(**vary), [c.hero_ids.index(p) for p in party], lives, items,
                           index=index)


def test_DM_2_1_to_2_4_the_village_on_top_the_track_at_0_the_first_seat_holds_the_card_1_potion_each() -> None:
    s = fresh_game(lives=15)
    assert s.table[L.T_SITE] == 0 and s.table[L.T_TARGET] == 12 and s.table[L.T_GO] == 1
    assert s.table[L.T_ADVANCE] == 0 and s.table[L.T_FIRST] == 0 and s.table[L.T_LIVES] == 15
    assert list(s.heroes[:3, L.H_POTIONS]) == [1, 1, 1] and list(s.heroes[:3, L.H_DAMAGE]) == [0, 0, 0]
    assert s.table[L.T_FOES] == 0 and s.table[L.T_MIDDLE] == 0


def test_DM_2_5_the_deck_is_the_shuffled_level_1_cards_the_discard_pile_empty() -> None:
    c = kit.comp()
    level_1 = sorted(n for n, row in zip(c.card_names, c.tables.cards) if row[L.CD_PILE] == 1)
    s, other = fresh_game(), fresh_game(index=1)
    assert s.table[L.T_DECK] == 30 and deck_names(s) == level_1 and s.table[L.T_DISCARD] == 0
    assert not {"lord", "level_2_enemy", "level_3_enemy", "item_a"} & set(deck_names(s))
    assert list(s.deck[:30]) != list(other.deck[:30])


# ---------------------------------------------------------------- DM-2.8: the turn-sequence card
def test_DM_2_8_turn_order_starts_at_the_card_and_the_card_passes_left() -> None:
    s = kit.scene(("amazona", "barbara", "guerrero"), first=1)
    kit.step(s, "turn")
    assert [e["seat"] for e in kit.events(s, "move")] == [1, 2, 0]
    assert s.table[L.T_FIRST] == 2


def test_DM_2_8_the_card_skips_a_hero_out_of_the_game() -> None:
    s = kit.scene(("amazona", "barbara", "guerrero"), first=0)
    s.heroes[1, L.H_OUT] = 1
    kit.step(s, "turn")
    assert [e["seat"] for e in kit.events(s, "move")] == [0, 2]
    assert s.table[L.T_FIRST] == 2


# ---------------------------------------------------------------- DM-2.9: special items
def test_DM_2_9_easy_items_held_from_the_start_and_kept_on_death() -> None:
    s = kit.scene(("amazona",), items=L.ITEMS_KEPT, vary=ITEMS_ON)
    assert s.heroes[0, L.H_ITEMS] == 0b11 and s.heroes[0, L.H_MAX_POTIONS] == 6  # item B: +1 potion maximum
    slay(s, 0)
    assert s.heroes[0, L.H_DEATHS] == 1 and s.heroes[0, L.H_ITEMS] == 0b11 and discarded(s) == []


def test_DM_2_9_two_players_get_one_item_each() -> None:
    s = kit.scene(("amazona", "barbara"), items=L.ITEMS_LOST_ON_DEATH, vary=ITEMS_ON)
    assert s.heroes[0, L.H_ITEMS] == 1 << L.ITEM_A and s.heroes[1, L.H_ITEMS] == 1 << L.ITEM_B


def test_DM_2_9_normal_items_lost_on_death_and_won_again_from_the_next_deck() -> None:
    s = kit.scene(("amazona",), items=L.ITEMS_LOST_ON_DEATH, vary=ITEMS_ON)
    s.heroes[0, L.H_POTIONS] = 6
    assert s.heroes[0, L.H_ITEMS] == 0b11
    slay(s, 0)
    assert s.heroes[0, L.H_DEATHS] == 1 and s.heroes[0, L.H_ITEMS] == 0
    assert s.heroes[0, L.H_MAX_POTIONS] == 5 and s.heroes[0, L.H_POTIONS] == 5
    assert discarded(s) == ["item_a", "item_b"]
    s.table[L.T_FOES] = 0
    s.table[L.T_BOSSES_IN] = 1
    kit.force(s, 5)  # the Village's goblin: nothing
    kit.step(s, "check_site")  # DM-10.3: the discard pile goes into the next deck
    assert {"item_a", "item_b"} <= set(deck_names(s)) and discarded(s) == []
    kit.set_deck(s, (kit.card("item_a"),))
    kit.step(s, "draw", 0)
    assert s.heroes[0, L.H_ITEMS] == 1 << L.ITEM_A


def test_DM_2_9_hard_items_shuffled_into_the_deck_gained_when_drawn_lost_on_death() -> None:
    fresh = fresh_game(("amazona",), 9, L.ITEMS_IN_DECK)
    assert fresh.table[L.T_DECK] == 32 and fresh.heroes[0, L.H_ITEMS] == 0
    assert {"item_a", "item_b"} <= set(deck_names(fresh))
    s = kit.scene(("amazona", "barbara"), items=L.ITEMS_IN_DECK, vary=ITEMS_ON, deck=(kit.card("item_b"),))
    assert list(s.heroes[:2, L.H_ITEMS]) == [0, 0]
    kit.step(s, "draw", 1)  # the drawer gets it
    assert list(s.heroes[:2, L.H_ITEMS]) == [0, 1 << L.ITEM_B] and s.heroes[1, L.H_MAX_POTIONS] == 4
    assert s.table[L.T_DECK] == 0 and s.table[L.T_DRAWN] == 0
    slay(s, 1)  # item B ignores the first point: 5 + (3 - 1) ≥ 6 still kills
    assert s.heroes[1, L.H_DEATHS] == 1 and s.heroes[1, L.H_ITEMS] == 0 and discarded(s) == ["item_b"]


def test_DM_2_9_items_off_none_held() -> None:
    s = kit.scene(("amazona",))
    assert s.table[L.T_ITEMS] == -1 and s.heroes[0, L.H_ITEMS] == 0 and s.heroes[0, L.H_MAX_POTIONS] == 5


# ---------------------------------------------------------------- DM-3: the turn
def test_DM_3_1_advance_and_draw_then_cards_and_attacks_then_bonus() -> None:
    s = kit.scene(("amazona",), deck=(kit.card("goblin_1"),))
    s.heroes[0, L.H_EXHAUSTED] = 1
    kit.add_foe(s, "mercenaria")
    kit.force(s, 5, 6, 4)  # goblin nothing; the attack misses on both sides
    kit.step(s, "turn", 0, kit.script(bonus="recover"))
    assert names(s, "turn", "move", "draw", "goblin", "roll", "bonus") == ["turn", "move", "draw", "goblin", "roll",
                                                                            "bonus"]
    assert s.heroes[0, L.H_EXHAUSTED] == 0 and s.table[L.T_TURN] == 1


# ---------------------------------------------------------------- DM-4: advance and draw
MOUNTS = (kit.card("mount_1", 0), kit.card("mount_1", 1), kit.card("mount_2"))
"""Cards with no roll in phase 2: with no riding amazon they wait in the middle (DM-5.4.2)."""


@pytest.mark.parametrize(("move", "steps"), [("walk", 1), ("run", 2)])
def test_DM_4_1_walk_is_one_point_and_one_card_run_two_and_two(move: str, steps: int) -> None:
    s = kit.scene(("amazona",), deck=MOUNTS)
    kit.step(s, "turn", 0, kit.script(move=move))
    assert s.table[L.T_ADVANCE] == steps and s.table[L.T_DECK] == 3 - steps
    assert len(kit.events(s, "draw")) == steps and s.table[L.T_MIDDLE] == steps
    assert [(e["action"], e["steps"]) for e in kit.events(s, "move")] == [(move, steps)]


def test_DM_4_2_an_exhausted_hero_cannot_run() -> None:
    s = kit.scene(("amazona",), deck=MOUNTS)
    s.heroes[0, L.H_EXHAUSTED] = 1
    kit.step(s, "turn", 0, kit.script(move="run"))
    assert [e["action"] for e in kit.events(s, "move")] == ["walk"]
    assert [e for e in kit.events(s, "decision") if e["hook"] == "move"] == []  # one row: no choice offered
    assert s.table[L.T_ADVANCE] == 1 and s.table[L.T_DECK] == 2


@pytest.mark.parametrize(("site", "go"), [(0, 1), (1, 2), (2, 3), (3, 4)])
def test_DM_4_3_a_go_card_moves_the_site_value_at_once_and_is_discarded(site: int, go: int) -> None:
    s = kit.scene(("amazona",), site=site, deck=(GO,))
    kit.step(s, "turn")
    assert s.table[L.T_ADVANCE] == 1 + go  # the walk's point and the go card
    assert [e["points"] for e in kit.events(s, "advance")] == [1, go]
    assert discarded(s) == ["go"] and s.table[L.T_DRAWN] == 0


def forest(**vary: str):
    """The Village completed (its printed goblin rolls 5: nothing) under ``vary``: the Forest on top, a go card
    as its deck."""
    s = kit.scene(("amazona",), vary=vary)
    s.table[L.T_BOSSES_IN] = 1
    kit.force(s, 5)
    kit.step(s, "check_site")
    kit.set_deck(s, (GO,))
    return s


@pytest.mark.parametrize(("side", "go"), [("basic", 2), ("ability", -2)])
def test_DM_10_4_forest_go_cards_are_minus_2_on_its_ability_side(side: str, go: int) -> None:
    s = forest(site_side=side)
    assert s.table[L.T_SITE] == 1 and s.table[L.T_GO] == go
    s.table[L.T_ADVANCE] = 5
    kit.step(s, "turn")
    assert s.table[L.T_ADVANCE] == 5 + 1 + go


@pytest.mark.parametrize(("floor", "after"), [("zero", 0), ("none", -1)])
def test_DM_4_3_the_advance_total_stops_at_0(floor: str, after: int) -> None:
    s = forest(site_side="ability", advance_floor=floor)
    kit.step(s, "turn")  # 0 + 1 - 2
    assert s.table[L.T_ADVANCE] == after


def test_DM_4_4_a_skeleton_draws_again_while_skeletons_come() -> None:
    s = kit.scene(("amazona",), deck=(kit.card("esqueleto", 0), kit.card("esqueleto", 1), kit.card("goblin_1"),
                                      kit.card("mercenaria")))
    kit.step(s, "draw", 0)
    assert kit.foe_units(s) == ["esqueleto", "esqueleto"]
    assert [e["card"] for e in kit.events(s, "draw")] == ["esqueleto", "esqueleto", "goblin_1"]
    assert s.table[L.T_DRAWN] == 1 and s.table[L.T_DECK] == 1  # the mercenaria stays in the deck


def test_DM_4_4_a_go_card_drawn_by_a_skeleton_resolves_at_once() -> None:
    s = kit.scene(("amazona",), deck=(kit.card("esqueleto"), GO, kit.card("mercenaria")))
    kit.step(s, "draw", 0)
    assert kit.foe_units(s) == ["esqueleto"] and s.table[L.T_ADVANCE] == 1 and discarded(s) == ["go"]
    assert s.table[L.T_DECK] == 1


def test_DM_4_4_another_enemy_does_not_draw_again() -> None:
    s = kit.scene(("amazona",), deck=(kit.card("mercenaria"), kit.card("asesino")))
    kit.step(s, "draw", 0)
    assert kit.foe_units(s) == ["mercenaria"] and s.table[L.T_DECK] == 1


def test_DM_4_6_an_empty_deck_is_the_shuffled_discard_pile() -> None:
    s = kit.scene(("amazona",), deck=(kit.card("mercenaria"),))
    s.discard[:3] = [kit.card("goblin_1", k) for k in range(3)]
    s.table[L.T_DISCARD] = 3
    kit.step(s, "draw", 0)
    assert names(s, "reshuffle") == [] and s.table[L.T_DISCARD] == 3
    kit.step(s, "draw", 0)
    assert [e["cards"] for e in kit.events(s, "reshuffle")] == [3]
    assert s.table[L.T_DECK] == 2 and s.table[L.T_DISCARD] == 0 and s.table[L.T_DRAWN] == 1
    assert deck_names(s) == ["goblin_1", "goblin_1"]


def test_DM_4_6_nothing_to_draw_when_deck_and_discard_are_empty() -> None:
    s = kit.scene(("amazona",))
    kit.step(s, "draw", 0)
    assert names(s, "draw") == [] and s.table[L.T_DECK] == 0 and s.table[L.T_DRAWN] == 0


def village_end(vary: dict[str, str] | None = None):
    """Two heroes one point short of the Village's 12; the Amazona (turn-sequence card) draws a precipice and
    holds 5 potions (the Lords have vitality 5); the Guerrero, exhausted, would draw an asesino and would
    recover in a bonus phase."""
    s = kit.scene(("amazona", "guerrero"), deck=(PRECIPICE, kit.card("asesino")), vary=vary)
    s.table[L.T_ADVANCE] = 11
    s.heroes[0, L.H_POTIONS] = 5
    s.heroes[1, L.H_EXHAUSTED] = 1
    return s


def test_DM_4_5_the_target_reached_in_phase_1_the_others_skip_it_and_the_bosses_enter_at_once() -> None:
    s = village_end()
    kit.force(s, 4, 3, 4, 3, 3, 3, 5, 5)  # both pass the precipice, the enemies' test fails, goblin nothing ×2
    kit.step(s, "turn", 0, kit.script(potions="drink", bonus="recover"))
    assert [e["seat"] for e in kit.events(s, "move")] == [0]
    assert [e["card"] for e in kit.events(s, "draw")] == ["precipice"]
    order = names(s, "site_reached", "boss_enters", "precipice", "enemy_precipice", "drink", "site_complete")
    assert order == ["site_reached", "boss_enters", "boss_enters", "precipice", "precipice", "enemy_precipice",
                     "drink", "site_complete"]
    assert names(s, "foe_falls") == []  # a boss being fought cannot be thrown (DM-5.2.4)
    assert s.table[L.T_SITE] == 1 and s.table[L.T_FORCED_NEXT] == 8
    assert [e["deck"] for e in kit.events(s, "site_complete")] == [1 + 3 + 5]  # asesino; precipice, 2 lords; level 2
    # DM-8.4 (seed L36, L110): the bosses came in phase 1, not by enemy points: a bonus phase follows their defeat
    assert [e["seat"] for e in kit.events(s, "bonus")] == [1] and s.heroes[1, L.H_EXHAUSTED] == 0


def test_DM_4_5_reading_after_cards_the_bosses_enter_after_the_drawn_cards() -> None:
    s = village_end({"bosses_enter": "after_cards"})
    kit.force(s, 4, 3, 4, 3, 5, 5)  # no enemy in play at the precipice: no enemies' test
    kit.step(s, "turn", 0, kit.script(potions="drink"))
    assert [e["seat"] for e in kit.events(s, "move")] == [0]
    assert names(s, "boss_enters", "precipice", "enemy_precipice", "drink") == [
        "precipice", "precipice", "boss_enters", "boss_enters", "drink"]
    assert s.table[L.T_SITE] == 1 and s.table[L.T_FORCED_NEXT] == 6


# ---------------------------------------------------------------- DM-5.1: the order of card resolution
def test_DM_5_1_precipice_then_goblin_then_mount_then_attacks_whatever_the_draw_order() -> None:
    s = kit.scene(("amazona", "barbara"), deck=(kit.card("mount_1"), kit.card("goblin_1"), PRECIPICE,
                                                kit.card("amazona_jinete")))
    kit.force(s, 4, 3, 4, 3, 4, 3,  # both heroes and the enemies pass the precipice
              5, 5,  # goblin: nothing
              6, 4, 6, 4)  # one attack each: white 6 and red 4 miss on both sides
    kit.step(s, "turn", 0, kit.script(move="run"))
    assert [e["kind"] for e in kit.events(s, "draw")] == ["mount", "goblin", "precipice", "enemy"]
    order = names(s, "move", "precipice", "enemy_precipice", "goblin", "mount_taken", "roll", "bonus")
    assert order == ["move", "move", "precipice", "precipice", "enemy_precipice", "goblin", "goblin", "mount_taken",
                     "roll", "roll", "bonus", "bonus"]
    assert s.foes[0, L.F_MOUNT] == MOUNT_1 and s.table[L.T_MIDDLE] == 0
    assert sorted(discarded(s)) == ["goblin_1", "precipice"]  # DM-5.2.5, DM-5.3.4
    assert s.table[L.T_FORCED_NEXT] == 12 and s.table[L.T_DRAWN] == 0


# ---------------------------------------------------------------- DM-5.2: precipices
@pytest.mark.parametrize(("a", "b", "falls"), [(3, 3, True), (1, 5, True), (4, 3, False), (6, 6, False)])
def test_DM_5_2_1_a_hero_falls_below_7_and_loses_a_life(a: int, b: int, falls: bool) -> None:
    s = kit.scene(("amazona",))
    s.heroes[0, L.H_DAMAGE] = 2
    kit.force(s, a, b)
    kit.step(s, "precipice")
    assert [e["passed"] for e in kit.events(s, "precipice")] == [not falls]
    assert s.table[L.T_LIVES] == (11 if falls else 12) and s.heroes[0, L.H_DEATHS] == int(falls)
    assert s.heroes[0, L.H_DAMAGE] == (0 if falls else 2)  # DM-5.2.3: a fall is a death


def test_DM_5_2_1_heroes_test_in_turn_order_then_the_card_holder_for_the_enemies() -> None:
    s = kit.scene(("amazona", "barbara", "guerrero"), first=1)
    kit.add_foe(s, "mercenaria")
    kit.force(s, 4, 3, 4, 3, 4, 3, 4, 3)
    kit.step(s, "precipice")
    assert [e["seat"] for e in kit.events(s, "precipice")] == [1, 2, 0]
    assert [e["seat"] for e in kit.events(s, "enemy_precipice")] == [1]


def test_DM_5_2_2_a_mounted_hero_who_falls_loses_the_mount_to_the_discard_pile() -> None:
    s = kit.scene(("amazona",))
    kit.mount_hero(s, 0)
    kit.force(s, 1, 1)
    kit.step(s, "precipice")
    assert s.heroes[0, L.H_MOUNT] == -1 and discarded(s) == ["mount_1"] and s.table[L.T_LIVES] == 11
    assert s.table[L.T_MIDDLE] == 0


def test_DM_5_2_2_a_mounted_hero_who_passes_keeps_the_mount() -> None:
    s = kit.scene(("amazona",))
    kit.mount_hero(s, 0)
    kit.force(s, 1, 6)
    kit.step(s, "precipice")
    assert s.heroes[0, L.H_MOUNT] == MOUNT_1 and discarded(s) == [] and s.table[L.T_LIVES] == 12


def test_DM_5_2_3_a_fall_is_a_death_without_a_bonus_attack() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "mercenaria", damage=1)
    kit.force(s, 1, 2, 6, 6, 1)  # the hero falls; the enemies pass; a bonus attack's white 1 would kill
    kit.step(s, "precipice")
    assert s.heroes[0, L.H_DEATHS] == 1 and names(s, "roll") == [] and kit.foe_units(s) == ["mercenaria"]
    assert s.table[L.T_FORCED_NEXT] == 4


def test_DM_5_2_3_a_fall_at_0_lives_puts_the_hero_out() -> None:
    s = kit.scene(("amazona",), lives=0)
    kit.force(s, 1, 2)
    out = kit.step(s, "precipice")
    assert s.heroes[0, L.H_OUT] == 1 and out[L.OUT_OVER] == L.OVER_LOST and out[L.OUT_END_CARD] == -1


def test_DM_5_2_3_reading_life_only_a_fall_keeps_the_damage_and_never_removes() -> None:
    s = kit.scene(("amazona",), lives=0, vary={"precipice_fall": "life_only"})
    s.heroes[0, L.H_DAMAGE] = 2
    kit.force(s, 1, 2)
    kit.step(s, "precipice")
    assert s.heroes[0, L.H_OUT] == 0 and s.heroes[0, L.H_DAMAGE] == 2 and s.table[L.T_OVER] == L.OVER_RUNNING


def test_DM_5_2_4_no_enemies_no_enemy_test() -> None:
    s = kit.scene(("amazona",))
    kit.force(s, 4, 3, 1, 1)
    kit.step(s, "precipice")
    assert names(s, "enemy_precipice") == [] and s.table[L.T_FORCED_NEXT] == 2


@pytest.mark.parametrize(("a", "b"), [(4, 3), (6, 5)])
def test_DM_5_2_4_the_enemies_pass_on_7_and_nothing_happens(a: int, b: int) -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "mercenaria")
    kit.add_foe(s, "amazona_jinete")
    kit.force(s, 4, 3, a, b)
    kit.step(s, "precipice", 0, kit.script(fall="amazona_jinete"))
    assert kit.foe_units(s) == ["mercenaria", "amazona_jinete"] and s.table[L.T_ADVANCE] == 0


def test_DM_5_2_4_the_enemies_fail_below_7_the_player_throws_one_and_gains_its_points() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "mercenaria")
    kit.add_foe(s, "amazona_jinete")
    kit.force(s, 4, 3, 3, 3)
    kit.step(s, "precipice", 0, kit.script(fall="amazona_jinete"))
    assert kit.foe_units(s) == ["mercenaria"] and s.table[L.T_ADVANCE] == 1
    assert [(e["unit"], e["points"]) for e in kit.events(s, "foe_falls")] == [("amazona_jinete", 1)]
    assert discarded(s) == ["amazona_jinete"]


def test_DM_5_2_4_a_boss_being_fought_cannot_be_thrown() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "lord", role=L.ROLE_BOSS)
    kit.add_foe(s, "mercenaria")
    kit.force(s, 4, 3, 1, 1)
    kit.step(s, "precipice", 0, kit.script(fall="lord"))
    assert kit.foe_units(s) == ["lord"] and [e["unit"] for e in kit.events(s, "foe_falls")] == ["mercenaria"]


def test_DM_5_2_4_a_boss_alone_the_failed_test_throws_nothing() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "lord", role=L.ROLE_BOSS)
    kit.force(s, 4, 3, 1, 1)
    kit.step(s, "precipice", 0, kit.script(fall="lord"))
    assert kit.foe_units(s) == ["lord"] and names(s, "foe_falls") == []


def test_DM_5_2_4_a_sub_boss_can_be_thrown_and_gives_its_points() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "mercenaria")
    kit.add_foe(s, "armadura_2", role=L.ROLE_SUB_BOSS)
    kit.force(s, 4, 3, 1, 1)
    kit.step(s, "precipice", 0, kit.script(fall="armadura_2"))
    assert kit.foe_units(s) == ["mercenaria"] and s.table[L.T_ADVANCE] == 2
    assert discarded(s) == ["armadura_2"]  # it comes back as a sub-boss later (DM-9.3)


def test_DM_5_2_4_a_mounted_riding_amazon_falls_with_her_mount() -> None:
    s = kit.scene(("amazona",))
    mount_foe(s, kit.add_foe(s, "amazona_jinete"))
    kit.force(s, 4, 3, 1, 1)
    kit.step(s, "precipice")
    assert kit.foe_units(s) == [] and sorted(discarded(s)) == ["amazona_jinete", "mount_1"]
    assert s.table[L.T_MIDDLE] == 0 and s.table[L.T_ADVANCE] == 1


# ---------------------------------------------------------------- DM-5.3: goblins
def goblin(party, potions, damage=(), vary=None):
    """``party`` with ``potions`` each (and ``damage``), before a goblin is resolved."""
    s = kit.scene(party, vary=vary)
    for h, p in enumerate(potions):
        s.heroes[h, L.H_POTIONS] = p
    for h, d in enumerate(damage):
        s.heroes[h, L.H_DAMAGE] = d
    return s


@pytest.mark.parametrize(("before", "die", "after"), [(1, 1, 2), (1, 4, 5), (3, 4, 5), (4, 3, 5), (1, 5, 1),
                                                      (1, 6, 1)])
def test_DM_5_3_1_goblin_1_to_4_gives_potions_up_to_the_maximum_5_6_nothing(before, die, after) -> None:
    s = goblin(("amazona",), (before,))  # maximum 5
    kit.force(s, die)
    kit.step(s, "goblin", GOBLIN_1)
    assert s.heroes[0, L.H_POTIONS] == after and s.table[L.T_FORCED_NEXT] == 1


def test_DM_5_3_1_the_seed_example_each_hero_in_turn_order() -> None:
    s = goblin(("amazona", "barbara", "guerrero"), (1, 1, 1))
    kit.force(s, 2, 4, 5)
    kit.step(s, "goblin", GOBLIN_1)
    assert list(s.heroes[:3, L.H_POTIONS]) == [3, 3, 1]  # seed L151–L153
    assert [e["seat"] for e in kit.events(s, "goblin")] == [0, 1, 2]


@pytest.mark.parametrize(("die", "after"), [(1, 4), (2, 3), (4, 1), (5, 5), (6, 5)])
def test_DM_5_3_2_at_the_maximum_the_goblin_steals_1_to_4(die: int, after: int) -> None:
    s = goblin(("amazona",), (5,))
    kit.force(s, die)
    kit.step(s, "goblin", GOBLIN_1)
    assert s.heroes[0, L.H_POTIONS] == after


def test_DM_5_3_2_stealing_stops_at_0() -> None:
    s = goblin(("barbara",), (3,))  # maximum 3
    kit.force(s, 4)
    kit.step(s, "goblin", GOBLIN_1)
    assert s.heroes[0, L.H_POTIONS] == 0
    assert [(e["change"], e["potions"]) for e in kit.events(s, "potions")] == [(-3, 0)]


def test_DM_5_3_3_goblin_2_white_gives_potions_red_heals() -> None:
    s = goblin(("guerrero",), (1,), damage=(4,))
    kit.force(s, 2, 3)
    kit.step(s, "goblin", GOBLIN_2)
    assert s.heroes[0, L.H_POTIONS] == 3 and s.heroes[0, L.H_DAMAGE] == 1


@pytest.mark.parametrize(("heal", "red", "after"), [("die_value", 6, 0), ("die_value", 5, 1), ("one_to_four", 5, 6),
                                                    ("one_to_four", 4, 2)])
def test_DM_5_3_3_the_heal_die_heals_its_value_never_below_0(heal: str, red: int, after: int) -> None:
    s = goblin(("guerrero",), (4,), damage=(6,), vary={"goblin_heal": heal})
    kit.force(s, 5, red)
    kit.step(s, "goblin", GOBLIN_2)
    assert s.heroes[0, L.H_DAMAGE] == after and s.heroes[0, L.H_POTIONS] == 4


def test_DM_5_3_3_reading_choose_the_player_picks_the_potion_die() -> None:
    s = goblin(("guerrero",), (1,), damage=(4,), vary={"goblin_dice": "choose"})
    kit.force(s, 2, 3)
    kit.step(s, "goblin", GOBLIN_2, kit.script(goblin="red for potions"))
    assert s.heroes[0, L.H_POTIONS] == 4 and s.heroes[0, L.H_DAMAGE] == 2


@pytest.mark.parametrize(("site", "level", "dice"), [(0, 1, 2), (1, 2, 4), (2, 3, 4)])
def test_DM_5_3_5_the_site_goblin_for_everyone_once_its_bosses_are_dead(site: int, level: int, dice: int) -> None:
    s = goblin(("amazona", "barbara"), (1, 1))
    s.table[L.T_SITE] = site
    s.table[L.T_BOSSES_IN] = 1
    kit.force(s, 1, 1, 1, 1)
    kit.step(s, "check_site")
    assert [(e["seat"], e["level"]) for e in kit.events(s, "goblin")] == [(0, level), (1, level)]
    assert list(s.heroes[:2, L.H_POTIONS]) == [2, 2] and s.table[L.T_FORCED_NEXT] == dice


def test_DM_5_3_5_no_site_goblin_before_the_bosses_are_dead() -> None:
    s = goblin(("amazona",), (1,))
    s.table[L.T_BOSSES_IN] = 1
    kit.add_foe(s, "lord", role=L.ROLE_BOSS)
    kit.force(s, 1)
    kit.step(s, "check_site")
    assert names(s, "goblin") == [] and s.heroes[0, L.H_POTIONS] == 1 and s.table[L.T_SITE] == 0


# ---------------------------------------------------------------- DM-5.4: mounts
def test_DM_5_4_1_a_riding_amazon_in_play_takes_a_drawn_mount_at_once() -> None:
    s = kit.scene(("amazona",), deck=(kit.card("mount_1"),))
    kit.add_foe(s, "amazona_jinete")  # left over from an earlier turn
    kit.force(s, 6, 4)  # the attack misses on both sides
    kit.step(s, "turn", 0, kit.script(bonus="pass"))
    assert [e["unit"] for e in kit.events(s, "mount_taken")] == ["amazona_jinete"]
    assert s.foes[0, L.F_MOUNT] == MOUNT_1 and s.table[L.T_MIDDLE] == 0


def test_DM_5_4_2_without_a_riding_amazon_the_mount_waits_for_the_bonus_phase() -> None:
    s = kit.scene(("amazona",), deck=(kit.card("mount_1"),))
    kit.add_foe(s, "mercenaria")
    kit.force(s, 6, 4)
    kit.step(s, "turn", 0, kit.script(bonus="mount"))
    assert names(s, "mount_to_middle", "roll", "mount_taken") == ["mount_to_middle", "roll", "mount_taken"]
    assert s.heroes[0, L.H_MOUNT] == MOUNT_1 and s.table[L.T_MIDDLE] == 0


def test_DM_5_4_1_each_unmounted_riding_amazon_takes_the_next_mount_in_draw_order() -> None:
    s = kit.scene(("amazona", "barbara"), deck=(kit.card("mount_2"), kit.card("mount_1")))
    kit.add_foe(s, "amazona_jinete", nth=0)
    kit.add_foe(s, "amazona_jinete", nth=1)
    kit.force(s, 6, 4, 6, 4)
    kit.step(s, "turn")
    assert list(s.foes[:2, L.F_MOUNT]) == [kit.comp().mount_ids.index("mount_2"), MOUNT_1]
    assert s.table[L.T_MIDDLE] == 0


def test_DM_5_4_3_a_mount_whose_damage_reaches_its_vitality_is_discarded() -> None:
    s = kit.scene(("amazona",))
    kit.mount_hero(s, 0, damage=1)  # vitality 2
    kit.add_foe(s, "mercenaria")
    kit.force(s, 6, 2)
    kit.step(s, "attack", 0)
    assert s.heroes[0, L.H_MOUNT] == -1 and s.heroes[0, L.H_DAMAGE] == 1 and discarded(s) == ["mount_1"]
    assert s.table[L.T_MIDDLE] == 0


# ---------------------------------------------------------------- DM-5.5: one attack each, bosses fight on
def test_DM_5_5_1_exactly_one_attack_each_in_turn_order_against_normal_enemies() -> None:
    s = kit.scene(("amazona", "barbara"), first=1)
    kit.add_foe(s, "asesino")
    kit.force(s, 6, 4, 6, 4, 2, 2)  # both miss and the asesino misses; a third attack would kill with a 2
    kit.step(s, "fight")
    assert [e["seat"] for e in kit.events(s, "roll")] == [1, 0]
    assert kit.foe_units(s) == ["asesino"] and s.table[L.T_FORCED_NEXT] == 4


def test_DM_5_5_2_while_a_sub_boss_is_in_play_the_rounds_go_on_until_it_dies() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "mercenaria")
    kit.add_foe(s, "lord", role=L.ROLE_SUB_BOSS, damage=3)
    kit.force(s, 6, 6, 2, 6, 2, 1)  # round 1 misses all round; round 2 kills the lord first (2 < 6)
    kit.step(s, "fight", 0, kit.script(target="lord"))
    assert [(e["white"], e["red"]) for e in kit.events(s, "roll")] == [(6, 6), (2, 6)]
    assert kit.foe_units(s) == ["mercenaria"] and s.table[L.T_ADVANCE] == 1  # the mercenaria waits for next turn
    assert s.table[L.T_FORCED_NEXT] == 4


def test_DM_5_5_2_site_bosses_are_fought_to_the_end() -> None:
    s = kit.scene(("amazona", "barbara"))
    s.table[L.T_BOSSES_IN] = 1
    kit.add_foe(s, "lord", role=L.ROLE_BOSS, damage=2)
    kit.force(s, 6, 1, 6, 1, 3, 6)  # round 1: two misses; round 2: the Amazona's 3 lands first
    kit.step(s, "fight")
    assert [e["seat"] for e in kit.events(s, "roll")] == [0, 1, 0] and kit.foe_units(s) == []
    assert s.table[L.T_FIGHT_ROUNDS] == 2


# ---------------------------------------------------------------- DM-6: potions
def test_DM_6_1_and_6_2_every_potion_at_once_each_deals_its_count_to_every_enemy() -> None:
    s = kit.scene(("amazona",))
    s.heroes[0, L.H_POTIONS] = 2
    for uid in ("asesino", "mercenaria", "esqueleto"):
        kit.add_foe(s, uid)
    kit.force(s, 6, 4)  # the attack roll after the potions misses on both sides
    kit.step(s, "attack", 0, kit.script(potions="drink"))
    assert s.heroes[0, L.H_POTIONS] == 0 and s.heroes[0, L.H_POTIONS_USED] == 2
    assert kit.foe_units(s) == ["asesino"] and s.foes[0, L.F_DAMAGE] == 2  # vitality 3; 2 and 2 killed the others
    assert names(s, "drink", "roll") == ["drink", "roll"] and s.heroes[0, L.H_DAMAGE] == 0


def test_DM_6_1_kept_potions_stay() -> None:
    s = kit.scene(("amazona",))
    s.heroes[0, L.H_POTIONS] = 3
    kit.add_foe(s, "mercenaria")
    kit.force(s, 6, 4)
    kit.step(s, "attack", 0, kit.script(potions="keep"))
    assert s.heroes[0, L.H_POTIONS] == 3 and s.foes[0, L.F_DAMAGE] == 0


def test_DM_6_1_no_potions_no_choice() -> None:
    s = kit.scene(("amazona",))
    s.heroes[0, L.H_POTIONS] = 0
    kit.add_foe(s, "mercenaria")
    kit.force(s, 6, 4)
    kit.step(s, "attack", 0, kit.script(potions="drink"))
    assert [e["hook"] for e in kit.events(s, "decision")] == ["attack"] and names(s, "drink") == []


@pytest.mark.parametrize(("potions", "damage"), [(1, 0), (2, 1), (3, 2)])
def test_DM_6_3_armour_takes_1_off_each_potion_use(potions: int, damage: int) -> None:
    s = kit.scene(("amazona",))
    s.heroes[0, L.H_POTIONS] = potions
    kit.add_foe(s, "armadura_2", role=L.ROLE_SUB_BOSS)
    kit.add_foe(s, "level_3_enemy")  # vitality 5, no armour
    kit.force(s, 6, 1)  # a red 1 misses both
    kit.step(s, "attack", 0, kit.script(potions="drink"))
    assert kit.foe_units(s) == ["armadura_2", "level_3_enemy"]
    assert s.foes[0, L.F_DAMAGE] == damage and s.foes[1, L.F_DAMAGE] == potions


def test_DM_6_4_a_mounted_riding_amazon_takes_the_potions_and_loses_her_mount() -> None:
    s = kit.scene(("amazona", "barbara"))
    kit.mount_hero(s, 1)
    mount_foe(s, kit.add_foe(s, "amazona_jinete"), damage=1)
    s.heroes[0, L.H_POTIONS] = 2
    kit.force(s, 6, 4)
    kit.step(s, "attack", 0, kit.script(potions="drink"))
    assert s.foes[0, L.F_DAMAGE] == 2 and s.foes[0, L.F_MOUNT] == -1
    assert s.table[L.T_MIDDLE] == 1 and s.middle[0, L.M_MOUNT] == MOUNT_1 and s.middle[0, L.M_DAMAGE] == 1
    assert s.heroes[1, L.H_MOUNT] == MOUNT_1 and s.heroes[1, L.H_MOUNT_DAMAGE] == 0  # heroes' mounts untouched
    kit.step(s, "bonus", 0, kit.script(bonus="mount"))
    assert s.heroes[0, L.H_MOUNT] == MOUNT_1 and s.heroes[0, L.H_MOUNT_DAMAGE] == 1 and s.table[L.T_MIDDLE] == 0


@pytest.mark.parametrize(("lives", "kept"), [(1, 3), (0, 0)])
def test_DM_6_5_a_hero_who_dies_keeps_the_potions_unless_it_was_the_last_life(lives: int, kept: int) -> None:
    s = kit.scene(("amazona", "barbara"), lives=lives)
    s.heroes[0, L.H_POTIONS] = 3
    slay(s, 0)
    assert s.heroes[0, L.H_DEATHS] == 1 and s.heroes[0, L.H_POTIONS] == kept


def test_DM_6_6_potion_maximums_are_per_hero() -> None:
    s = goblin(("amazona", "barbara", "guerrero"), (1, 1, 1))
    kit.force(s, 4, 4, 4)
    kit.step(s, "goblin", GOBLIN_1)
    assert list(s.heroes[:3, L.H_POTIONS]) == [5, 3, 4] and list(s.heroes[:3, L.H_MAX_POTIONS]) == [5, 3, 4]


# ---------------------------------------------------------------- DM-8: the bonus phase
def test_DM_8_1_strike_the_white_die_alone_on_a_chosen_enemy() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "asesino")
    kit.add_foe(s, "mercenaria")
    kit.force(s, 2, 3)
    kit.step(s, "bonus", 0, kit.script(bonus="strike", target="mercenaria"))
    assert kit.foe_units(s) == ["asesino"] and s.table[L.T_FORCED_NEXT] == 1
    assert [e["action"] for e in kit.events(s, "bonus")] == ["strike"]


def test_DM_8_2_enemies_never_strike_in_the_bonus_phase() -> None:
    s = kit.scene(("amazona",))
    kit.add_foe(s, "asesino")
    kit.force(s, 3, 3)  # a 3 would be the asesino's hit if a red die were rolled
    kit.step(s, "bonus", 0, kit.script(bonus="strike"))
    assert s.heroes[0, L.H_DAMAGE] == 0 and names(s, "enemies_hit") == [] and kit.foe_units(s) == []


def test_DM_8_1_a_mounted_strike_deals_the_mounts_damage() -> None:
    s = kit.scene(("amazona",))
    kit.mount_hero(s, 0)  # level 1: 2 damage on 1–3
    kit.add_foe(s, "asesino")
    kit.force(s, 1)
    kit.step(s, "bonus", 0, kit.script(bonus="strike"))
    assert s.foes[0, L.F_DAMAGE] == 2


def test_DM_8_1_recover_unexhausts() -> None:
    s = kit.scene(("amazona",))
    s.heroes[0, L.H_EXHAUSTED] = 1
    kit.add_foe(s, "asesino")
    kit.step(s, "bonus", 0, kit.script(bonus="recover"))
    assert s.heroes[0, L.H_EXHAUSTED] == 0 and s.foes[0, L.F_DAMAGE] == 0 and s.table[L.T_FORCED_NEXT] == 0


def test_DM_8_1_an_exhausted_hero_may_take_a_mount_and_does_nothing_else() -> None:
    s = kit.scene(("amazona",), deck=(kit.card("mount_1"),))
    s.heroes[0, L.H_EXHAUSTED] = 1
    kit.step(s, "turn", 0, kit.script(bonus="mount"))
    assert s.heroes[0, L.H_MOUNT] == MOUNT_1 and s.heroes[0, L.H_EXHAUSTED] == 1 and s.table[L.T_MIDDLE] == 0
    assert [e["action"] for e in kit.events(s, "bonus")] == ["mount"]


def test_DM_8_1_each_hero_in_turn_order_does_one_thing() -> None:
    s = kit.scene(("amazona", "barbara"), first=1)
    s.heroes[:2, L.H_EXHAUSTED] = 1
    kit.add_foe(s, "asesino")
    kit.step(s, "bonus", 0, kit.script(bonus="recover"))
    assert [e["seat"] for e in kit.events(s, "bonus")] == [1, 0] and list(s.heroes[:2, L.H_EXHAUSTED]) == [0, 0]


def test_DM_8_3_no_bonus_phase_while_a_sub_boss_is_in_play() -> None:
    s = kit.scene(("amazona",))
    s.heroes[0, L.H_EXHAUSTED] = 1
    kit.add_foe(s, "lord", role=L.ROLE_SUB_BOSS)
    kit.step(s, "bonus", 0, kit.script(bonus="recover"))
    assert names(s, "bonus") == [] and s.heroes[0, L.H_EXHAUSTED] == 1


def test_DM_8_4_enemy_points_complete_the_site_the_bosses_come_at_once_and_no_bonus_phase() -> None:
    s = kit.scene(("amazona",))
    s.table[L.T_ADVANCE] = 10
    s.heroes[0, L.H_EXHAUSTED] = 1  # walks to 11; would recover in a bonus phase
    s.heroes[0, L.H_POTIONS] = 5
    kit.add_foe(s, "amazona_jinete")
    kit.force(s, 6, 6,  # the potions kill the amazon (12), the Lords come in; the roll misses all round
              3, 6, 2, 6, 3, 6, 2, 6,  # 3 + 2 kill each Lord, landing first
              5)  # the Village's goblin: nothing
    kit.step(s, "turn", 0, kit.script(potions="drink", bonus="recover"))
    assert names(s, "kill", "site_reached", "boss_enters", "roll")[:4] == ["kill", "site_reached", "boss_enters",
                                                                          "boss_enters"]
    assert [e["unit"] for e in kit.events(s, "kill")] == ["amazona_jinete", "lord", "lord"]
    assert s.table[L.T_SITE] == 1 and s.table[L.T_FORCED_NEXT] == 11
    assert names(s, "bonus") == [] and s.heroes[0, L.H_EXHAUSTED] == 1


def test_DM_8_4_a_bonus_strike_that_completes_the_site_ends_the_bonus_phase() -> None:
    s = kit.scene(("amazona", "barbara"))
    s.table[L.T_ADVANCE] = 11
    kit.add_foe(s, "amazona_jinete", damage=2)
    kit.force(s, 1, 2)  # the Amazona's 1 kills the riding amazon (12); Bárbara's 2 would hit a Lord
    kit.step(s, "bonus", 0, kit.script(bonus="strike"))
    assert kit.foe_units(s) == ["lord", "lord"] and list(s.foes[:2, L.F_DAMAGE]) == [0, 0]
    assert [e["seat"] for e in kit.events(s, "bonus")] == [0] and s.table[L.T_FORCED_NEXT] == 1


def test_DM_8_1_explain_names_the_mount_taken_not_its_slot_in_the_middle() -> None:
    """The bonus event records the mount taken (mount_3, in middle slot 0), which the trace decoder names; it
    recorded the slot, which the decoder read as a mount id (slot 0 printed mount_1; a slot past the mount ids
    raised IndexError)."""
    s = kit.scene(("amazona",))
    for slot, mount in enumerate(("mount_3", "mount_1")):
        s.middle[slot, L.M_MOUNT], s.middle[slot, L.M_CARD] = kit.comp().mount_ids.index(mount), kit.card(mount)
    s.table[L.T_MIDDLE] = 2
    kit.step(s, "bonus", 0, kit.script(bonus="mount"))
    (bonus,) = kit.events(s, "bonus")
    assert bonus["action"] == "mount" and bonus["mount"] == "mount_3"
    assert kit.comp().mount_ids[s.heroes[0, L.H_MOUNT]] == "mount_3" and s.table[L.T_MIDDLE] == 1


def test_DM_8_5_nothing_useful_to_do_no_bonus_phase() -> None:
    s = kit.scene(("amazona",))
    kit.step(s, "bonus", 0, kit.script(bonus="strike"))
    assert names(s, "bonus", "decision") == []


# ---------------------------------------------------------------- DM-10: site completion and progression
def finished(site: int, deck=(GO, GO), beaten=("lord", "lord")):
    """Site ``site`` with its bosses in and dead (``beaten`` on the discard pile), ``deck`` left, advance 14."""
    s = kit.scene(("amazona",), site=site, deck=deck)
    s.table[L.T_BOSSES_IN] = 1
    s.table[L.T_ADVANCE] = 14
    for k, uid in enumerate(beaten):
        s.discard[k] = kit.card(uid, k)
    s.table[L.T_DISCARD] = len(beaten)
    return s


def test_DM_10_3_the_village_done_the_forest_with_deck_discard_and_the_level_2_pile() -> None:
    s = finished(0)
    kit.force(s, 5)
    kit.step(s, "check_site")
    assert s.table[L.T_SITE] == 1 and s.table[L.T_ADVANCE] == 0 and s.table[L.T_TARGET] == 16
    assert s.table[L.T_GO] == 2 and s.table[L.T_BOSSES_IN] == 0 and s.table[L.T_SITES_DONE] == 1
    assert s.table[L.T_DISCARD] == 0 and deck_names(s) == sorted(
        ["go", "go", "lord", "lord", "goblin_2", "mount_2", "level_2_enemy", "level_2_enemy", "level_2_enemy"])
    assert names(s, "goblin", "site_complete") == ["goblin", "site_complete"]


def test_DM_10_3_the_forest_done_the_mountains_with_the_level_3_pile() -> None:
    s = finished(1, deck=(), beaten=("armadura_2", "armadura_2"))
    kit.force(s, 5, 1)
    kit.step(s, "check_site")
    assert s.table[L.T_SITE] == 2 and s.table[L.T_TARGET] == 20 and s.table[L.T_GO] == 3
    assert deck_names(s) == sorted(["armadura_2", "armadura_2", "goblin_3", "mount_3", "level_3_enemy",
                                    "level_3_enemy", "level_3_enemy"])


def test_DM_10_3_the_mountains_done_the_castle_with_a_reshuffle_only() -> None:
    s = finished(2, deck=(GO,), beaten=("armadura_3",))
    kit.force(s, 5, 1)
    kit.step(s, "check_site")
    assert s.table[L.T_SITE] == 3 and s.table[L.T_TARGET] == 24 and s.table[L.T_GO] == 4
    assert deck_names(s) == ["armadura_3", "go"]


def test_DM_10_3_the_site_stays_while_an_enemy_is_in_play() -> None:
    s = finished(0)
    kit.add_foe(s, "mercenaria")
    kit.force(s, 1)
    kit.step(s, "check_site")
    assert s.table[L.T_SITE] == 0 and s.table[L.T_ADVANCE] == 14 and names(s, "goblin") == []


def test_DM_10_2_the_site_stays_until_its_bosses_have_entered() -> None:
    s = finished(0)
    s.table[L.T_BOSSES_IN] = 0
    kit.step(s, "check_site")
    assert s.table[L.T_SITE] == 0 and names(s, "site_complete") == []


@pytest.mark.parametrize(("before", "reached"), [(10, False), (11, True)])
def test_DM_10_1_the_target_brings_the_site_bosses(before: int, reached: bool) -> None:
    s = kit.scene(("amazona",))
    s.table[L.T_ADVANCE] = before
    kit.add_foe(s, "amazona_jinete", damage=2)
    kit.force(s, 1, 6)  # the Amazona's 1 kills the riding amazon: +1 point
    kit.step(s, "attack", 0)
    assert s.table[L.T_ADVANCE] == before + 1
    assert kit.foe_units(s) == (["lord", "lord"] if reached else [])
    assert [e["role"] for e in kit.events(s, "boss_enters")] == (["boss", "boss"] if reached else [])
    assert s.table[L.T_BOSSES_IN] == int(reached) and s.table[L.T_NO_BONUS] == int(reached)


def test_DM_10_3_reading_fight_on_enemies_left_after_the_bosses_are_fought_on_at_once() -> None:
    s = kit.scene(("amazona",), vary={"leftover_enemies": "fight_on"})
    s.table[L.T_BOSSES_IN] = 1
    kit.add_foe(s, "mercenaria")
    kit.force(s, 6, 4, 2, 6)  # round 1 misses all round; round 2 kills
    kit.step(s, "fight")
    assert [(e["white"], e["red"]) for e in kit.events(s, "roll")] == [(6, 4), (2, 6)] and kit.foe_units(s) == []


def test_DM_10_3_and_5_5_1_enemies_left_after_the_bosses_get_one_round_and_the_bonus_phase_a_turn() -> None:
    """Seed L39 «SOLO UN ATAQUE POR JUGADOR»: only bosses and sub-bosses are attacked more than once a turn."""
    s = kit.scene(("amazona",), deck=(GO,))
    s.table[L.T_BOSSES_IN] = 1
    kit.add_foe(s, "mercenaria")
    kit.force(s, 6, 4, 6)  # one round misses all round; the bonus strike misses
    kit.step(s, "turn", 0, kit.script(bonus="strike"))
    assert names(s, "move", "roll", "bonus") == ["roll", "bonus", "roll"]  # the site is reached: no phase 1
    assert kit.foe_units(s) == ["mercenaria"] and s.table[L.T_SITE] == 0 and s.table[L.T_DECK] == 1
