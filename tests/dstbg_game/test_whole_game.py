"""Rules of a DS:TBG game played whole (R-1, R-3.8, R-4.2, R-5, R-6, R-8.3–R-8.7, R-12.27, R-13), each on a
hand-set game state (``engine.Table``), named after its rule ID; then properties of whole games."""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np
import pytest

from dsim.games.dstbg.game import game_data
from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as BL
from dsim.games.dstbg.policy import get_policy
from dsim.games.dstbg_game import engine
from dsim.games.dstbg_game import kernel as K
from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.compile import compile_game, standard_areas
from dsim.games.dstbg_game.strategy import REGISTRY
from tests.dstbg_game.scripted_strategy import SCRIPTED, script

AREAS = standard_areas(game_data(None), "gargoyle", "ornstein_and_smough")  # mini boss, then main boss

PARTY = ["knight", "warrior"]


@lru_cache(maxsize=None)
def compiled(party: tuple[str, ...] = tuple(PARTY), campaign: bool = False, layout: str = "chain"):
    return compile_game(game_data(None), list(party), AREAS,
                        {"tile_layout": layout} if layout != "chain" else None, None, campaign)


def table(party=tuple(PARTY), campaign=False, layout="chain", strategy=None, sparams=None, setup=True) -> engine.Table:
    """A game after setup (R-1) with the scripted strategy (answers ``sparams``) unless another is named."""
    cg = compiled(tuple(party), campaign, layout)
    battle = get_policy("tactician")
    if strategy is None:
        strategy, sparams = SCRIPTED, (script() if sparams is None else sparams)
    else:
        strategy = REGISTRY.get(strategy)
        sparams = strategy.vector() if sparams is None else sparams
    t = engine.Table(cg, battle.decide, strategy.decide, battle.vector(), sparams)
    if setup:
        t.step(K.STEP_SETUP, len(party))
    return t


def game(t):
    return t.s.pub[G.R_GAME]


def party_row(t, seat):
    return t.s.pub[G.R_PARTY + seat]


def tile(t, k):
    return t.s.pub[G.R_TILES + k]


def cards_where(t, place):
    return set(np.flatnonzero(t.s.where[:, G.W_PLACE] == place).tolist())


def deck(t):
    return t.s.deck[: t.s.cursor[K.C_DECK]].tolist()


# ------------------------------------------------------------------ setup

@pytest.mark.parametrize(("size", "sparks"), [(1, 5), (2, 4), (3, 3), (4, 2)])
def test_R_1_4_sparks_by_party_size(size, sparks):
    party = ("knight", "warrior", "assassin", "herald")[:size]
    t = table(party)
    assert game(t)[G.G_SPARKS] == sparks and game(t)[G.G_START_SPARKS] == sparks


@pytest.mark.parametrize(("size", "souls"), [(1, 16), (2, 0)])
def test_R_1_10_soul_cache_starts_at_16_for_one_player(size, souls):
    assert game(table(("knight", "warrior")[:size]))[G.G_SOULS] == souls


def test_R_1_7_starting_kits_equipped_and_tokens_ready():
    t = table()
    g = t.cg.game
    for seat in range(2):
        p = party_row(t, seat)
        assert list(p[G.P_SLOT:G.P_SLOT + G.N_SLOTS]) == list(g.kits[seat])
        assert p[G.P_ESTUS] == 1 and p[G.P_LUCK] == 1 and p[G.P_HEROIC] == 1 and p[G.P_EMBER] == 0
        assert list(p[G.P_TIER:G.P_TIER + 4]) == [0, 0, 0, 0]
        for card in g.kits[seat][g.kits[seat] >= 0]:
            assert t.s.where[card, G.W_PLACE] == G.LOC_EQUIPPED and t.s.where[card, G.W_SEAT] == seat


def test_R_1_8_deck_is_common_and_class_cards_of_the_party():
    t = table()
    g = t.cg.game
    groups = {int(g.cards[c, G.K_GROUP]) for c in deck(t)}
    assert groups == {G.GROUP_COMMON, G.GROUP_CLASS, G.GROUP_EMBER}
    for c in deck(t):
        if g.cards[c, G.K_GROUP] == G.GROUP_CLASS:
            assert t.cg.party[g.cards[c, G.K_SEAT]] in PARTY
    boxed = cards_where(t, G.LOC_BOX)
    assert {int(g.cards[c, G.K_GROUP]) for c in boxed} == {G.GROUP_ADVANCED, G.GROUP_LEGENDARY, G.GROUP_BOSS}
    assert len(deck(t)) == len(set(deck(t))) == len(cards_where(t, G.LOC_DECK))


def test_R_1_6_deal_follows_the_boss_card_lower_levels_nearer_and_R_1_3_fog_gate_farthest():
    t = table()
    levels = [tile(t, k)[G.TL_LEVEL] for k in range(game(t)[G.G_N_TILES])]
    assert levels == sorted(game_data(None).bosses["gargoyle"].encounter_levels)
    cards = [tile(t, k)[G.TL_CARD] for k in range(len(levels))]
    assert len(set(cards)) == len(cards)  # a different card on each tile
    for k, card in enumerate(cards):
        assert t.cg.game.enc_info[card, 0] == levels[k]
        assert tile(t, k)[G.TL_DIST] == k + 1  # A-5 chain
    assert [tile(t, k)[G.TL_FOG] for k in range(len(levels))] == [0, 0, 0, 1]
    assert game(t)[G.G_GRAVESTONES] == sum(t.cg.game.enc_info[c, 2] for c in cards)


def test_A_5_star_layout_puts_every_tile_next_to_the_bonfire():
    t = table(layout="star")
    assert all(tile(t, k)[G.TL_DIST] == 1 for k in range(4))
    assert tile(t, 0)[G.TL_FOG] == 1  # D-2: the fog gate on the lowest-level tile
    t.step(K.STEP_ROUTE)
    n = t.s.cursor[K.C_EVENTS]
    kinds = [t.s.pub[G.R_OPTS + i, G.O_KIND] for i in range(n)]
    assert kinds.count(G.OPT_EXPLORE) == 4  # every face-down tile is reachable


def test_R_6_2_chain_reaches_only_the_next_face_down_tile_and_R_6_4_boss_after_fog_gate():
    t = table()
    t.step(K.STEP_ROUTE)
    rows = t.s.pub[G.R_OPTS:G.R_OPTS + t.s.cursor[K.C_EVENTS]]
    assert [(r[G.O_KIND], r[G.O_ARG]) for r in rows] == [(G.OPT_EXPLORE, 0), (G.OPT_REST, -1)]
    for k in range(4):
        tile(t, k)[G.TL_CLEARED] = 1
    game(t)[G.G_FOG] = 1
    game(t)[G.G_SPARKS] = 0  # no rest at 0 sparks
    t.step(K.STEP_ROUTE)
    rows = t.s.pub[G.R_OPTS:G.R_OPTS + t.s.cursor[K.C_EVENTS]]
    assert [r[G.O_KIND] for r in rows] == [G.OPT_BOSS]


# ------------------------------------------------------------------ rest and defeat

def test_R_5_9_rest_spends_a_spark_refills_tokens_and_turns_cards_face_down():
    t = table()
    for k in range(4):
        tile(t, k)[G.TL_CLEARED] = 1
    tile(t, 1)[G.TL_OPENED] = 1
    game(t)[G.G_FOG] = 1
    for seat in range(2):
        p = party_row(t, seat)
        p[G.P_ESTUS] = p[G.P_LUCK] = p[G.P_HEROIC] = 0
        p[G.P_EMBER] = 1
    t.step(K.STEP_REST, 1)
    assert game(t)[G.G_SPARKS] == 3 and game(t)[G.G_RESTS] == 1
    assert all(tile(t, k)[G.TL_CLEARED] == 0 for k in range(4)) and game(t)[G.G_FOG] == 0
    assert tile(t, 1)[G.TL_OPENED] == 1  # opened chests stay open
    for seat in range(2):
        p = party_row(t, seat)
        assert (p[G.P_ESTUS], p[G.P_LUCK], p[G.P_HEROIC], p[G.P_EMBER]) == (1, 1, 1, 1)  # a rest keeps embers


def test_R_1_12_the_rest_after_the_mini_boss_spends_no_spark():
    t = table()
    t.step(K.STEP_REST, 0)
    assert game(t)[G.G_SPARKS] == 4


def test_R_8_5_defeat_drops_the_souls_removes_embers_and_forces_a_rest():
    t = table()
    game(t)[G.G_SOULS] = 7
    party_row(t, 0)[G.P_EMBER] = 1
    tile(t, 0)[G.TL_CLEARED] = 1
    t.step(K.STEP_DEFEAT, 1)
    g = game(t)
    assert g[G.G_SOULS] == 0 and g[G.G_DROPPED] == 7 and g[G.G_DROPPED_TILE] == 1 and tile(t, 1)[G.TL_SOULS] == 7
    assert party_row(t, 0)[G.P_EMBER] == 0
    assert g[G.G_SPARKS] == 3 and tile(t, 0)[G.TL_CLEARED] == 0 and g[G.G_OVER] == G.RESULT_NONE


def test_R_8_5_JP_souls_already_on_the_map_are_lost_at_the_next_defeat():
    t = table()
    game(t)[G.G_SOULS] = 5
    t.step(K.STEP_DEFEAT, 0)
    game(t)[G.G_SOULS] = 2
    t.step(K.STEP_DEFEAT, 2)
    assert game(t)[G.G_DROPPED] == 2 and game(t)[G.G_DROPPED_TILE] == 2 and tile(t, 0)[G.TL_SOULS] == 0


def test_R_5_10_a_defeat_at_zero_sparks_loses_the_game():
    t = table()
    game(t)[G.G_SPARKS] = 0
    t.step(K.STEP_DEFEAT, 0)
    assert game(t)[G.G_OVER] == G.RESULT_LOST


def test_A_56_campaign_dial_reaches_zero_ends_it_at_once():
    t = table(campaign=False)
    game(t)[G.G_SPARKS] = 1
    t.step(K.STEP_DEFEAT, 0)
    assert game(t)[G.G_OVER] == G.RESULT_NONE  # standard (and campaign default): the next defeat loses
    cg = compile_game(game_data(None), PARTY, AREAS,
                      {"campaign_end_at_zero": "dial_reaches_zero"}, None, True)
    battle = get_policy("tactician")
    t = engine.Table(cg, battle.decide, SCRIPTED.decide, battle.vector(), script())
    t.step(K.STEP_SETUP, 2)
    game(t)[G.G_SPARKS] = 1
    t.step(K.STEP_DEFEAT, 0)
    assert game(t)[G.G_OVER] == G.RESULT_LOST


# ------------------------------------------------------------------ battles

def _explore_until(t_factory, want_win: bool, tries: int = 40):
    """Explore tile 0 with seeds 0, 1, … until the battle's result is ``want_win``; the table after it."""
    for seed in range(tries):
        t = t_factory()
        before = game(t)[G.G_LOST]
        t.step(K.STEP_EXPLORE, 0, seed)
        if (game(t)[G.G_LOST] == before) == want_win:
            return t
    raise AssertionError("no battle with the wanted result in the seeds tried")


def test_R_8_4_a_won_battle_pays_two_souls_per_character_and_clears_the_tile():
    t = _explore_until(table, True)
    assert game(t)[G.G_SOULS] == 4 and game(t)[G.G_SOULS_EARNED] == 4 and tile(t, 0)[G.TL_CLEARED] == 1
    assert game(t)[G.G_BATTLES] == 1


def test_R_8_5_a_lost_battle_is_a_defeat():
    t = _explore_until(table, False)
    assert game(t)[G.G_SPARKS] == 3 and tile(t, 0)[G.TL_CLEARED] == 0 and game(t)[G.G_LOST] == 1


def test_R_8_6_dropped_souls_come_back_when_the_tile_is_won_again():
    def dropped():
        t = table()
        game(t)[G.G_DROPPED], game(t)[G.G_DROPPED_TILE], tile(t, 0)[G.TL_SOULS] = 6, 0, 6
        return t

    won = _explore_until(dropped, True)
    assert game(won)[G.G_SOULS] == 4 + 6 and game(won)[G.G_DROPPED] == 0 and tile(won, 0)[G.TL_SOULS] == 0
    lost = _explore_until(dropped, False)
    assert game(lost)[G.G_DROPPED] == 0 and game(lost)[G.G_SOULS] == 0  # JP: lost at the next defeat


def test_R_5_9_R_8_7_tokens_carry_from_battle_to_battle_until_a_rest():
    used_estus = won = 0
    for seed in range(12):
        t = table()
        for seat in range(2):
            p = party_row(t, seat)
            p[G.P_ESTUS], p[G.P_LUCK], p[G.P_HEROIC], p[G.P_EMBER] = 0, 0, 0, 1
        t.step(K.STEP_EXPLORE, 0, seed)
        if game(t)[G.G_LOST]:
            continue  # a defeat rests, which refills them
        won += 1
        sc = t.battles.encounters.scen
        assert sc[X.SC_CARRY] == 1
        for seat in range(2):
            tokens = X.SC_TOKENS + X.TOKEN_FIELDS * seat
            assert list(sc[tokens: tokens + 4]) == [0, 0, 0, 1]
            p = party_row(t, seat)
            assert (p[G.P_ESTUS], p[G.P_LUCK], p[G.P_HEROIC]) == (0, 0, 0)  # nothing refills them in a battle
        t2 = table()
        t2.step(K.STEP_EXPLORE, 0, seed)
        used_estus += sum(1 - party_row(t2, seat)[G.P_ESTUS] for seat in range(2))
    assert won > 0 and used_estus > 0  # with full tokens the same battles do drink: the carried zeros made the difference


def test_R_1_11_the_players_pick_the_first_character_of_the_game_only():
    t = table()
    assert game(t)[G.G_NEXT_CHAR] == -1  # no token before the first battle
    t.step(K.STEP_EXPLORE, 0, 3)
    assert t.battles.encounters.scen[X.SC_FIRST] == -1  # the first battle asks the battle policy (D-5)
    assert game(t)[G.G_NEXT_CHAR] in (0, 1)


def test_R_8_7_cubes_and_conditions_do_not_carry_after_a_battle_that_ends():
    for seed in range(6):
        t = table()
        t.step(K.STEP_EXPLORE, 0, seed)
        for seat in range(2):
            p = party_row(t, seat)
            assert (p[G.P_DAMAGE], p[G.P_STAMINA], p[G.P_COND]) == (0, 0, 0)
        t.step(K.STEP_EXPLORE, 0 if game(t)[G.G_LOST] else 1, seed + 100)  # the next battle
        sc = t.battles.encounters.scen
        for seat in range(2):
            tokens = X.SC_TOKENS + X.TOKEN_FIELDS * seat
            assert list(sc[tokens + 4: tokens + 7]) == [0, 0, 0]  # the next battle starts without cubes


def test_R_8_3_the_first_activation_token_passes_to_the_next_battle():
    t = table()
    t.step(K.STEP_EXPLORE, 0, 3)
    holder = game(t)[G.G_NEXT_CHAR]
    assert holder == t.buffers.tile.glob[BL.G_NEXT_CHAR]
    t.step(K.STEP_REST, 1)
    t.step(K.STEP_EXPLORE, 0, 4)
    assert t.battles.encounters.scen[X.SC_FIRST] == holder


def test_R_8_4_boss_win_pays_one_soul_per_character_per_spark_and_R_12_27_then_the_main_map():
    cg = compile_game(game_data(None), PARTY, AREAS, None, {"boss_health_delta": -100})
    battle = get_policy("tactician")
    for seed in range(30):  # a boss of 1 health: some seed beats it
        t = engine.Table(cg, battle.decide, SCRIPTED.decide, battle.vector(), script())
        t.step(K.STEP_SETUP, 2)
        game(t)[G.G_SPARKS] = 3
        t.step(K.STEP_BOSS, 0, seed)  # area 0: the mini boss
        if game(t)[G.G_LOST] == 0:
            assert game(t)[G.G_SOULS_EARNED] == 2 * 3 and game(t)[G.G_STAGE] == G.STAGE_EXPLORE_2
            assert game(t)[G.G_SPARKS] == 4  # the dial back to its start
            return
    raise AssertionError("a one-health boss was never beaten")


def test_R_12_27_beating_the_main_boss_wins_the_game():
    cg = compile_game(game_data(None), PARTY, AREAS, None, {"boss_health_delta": -100})
    battle = get_policy("tactician")
    for seed in range(30):
        t = engine.Table(cg, battle.decide, SCRIPTED.decide, battle.vector(), script())
        t.step(K.STEP_SETUP, 2)
        game(t)[G.G_STAGE], game(t)[G.G_AREA] = G.STAGE_EXPLORE_2, 1
        t.step(K.STEP_BOSS, 0, seed)  # area 1: the main boss
        if game(t)[G.G_LOST] == 0:
            assert game(t)[G.G_OVER] == G.RESULT_WON and game(t)[G.G_REACHED] == G.STAGE_WON
            return
    raise AssertionError("a one-health boss was never beaten")


# ------------------------------------------------------------------ the mini boss

def test_R_1_12_R_12_27_the_mini_boss_gives_its_treasure_redeals_resets_sparks_and_adds_treasure():
    t = table()
    g = t.cg.game
    game(t)[G.G_SPARKS] = 1
    party_row(t, 0)[G.P_ESTUS] = 0
    old_deck = len(deck(t))
    t.step(K.STEP_AREA_WON)
    gm = game(t)
    assert gm[G.G_SPARKS] == 4 and gm[G.G_STAGE] == G.STAGE_EXPLORE_2 and party_row(t, 0)[G.P_ESTUS] == 1
    inventory = cards_where(t, G.LOC_INVENTORY)
    mini_treasure = {c for c in range(len(g.cards)) if g.cards[c, G.K_GROUP] == G.GROUP_BOSS and g.cards[c, G.K_BOSS] == 0}
    assert mini_treasure and mini_treasure <= inventory
    in_deck = deck(t)
    legendary = [c for c in in_deck if g.cards[c, G.K_GROUP] == G.GROUP_LEGENDARY]
    advanced = [c for c in in_deck if g.cards[c, G.K_GROUP] == G.GROUP_ADVANCED]
    assert len(legendary) == 5 and len(advanced) == 10  # five of ten legendary; five advanced per class
    assert len(in_deck) == old_deck + 15
    levels = [tile(t, k)[G.TL_LEVEL] for k in range(gm[G.G_N_TILES])]
    assert levels == sorted(game_data(None).bosses["ornstein_and_smough"].encounter_levels)


def test_R_13_5_campaign_mini_boss_gives_one_spark_capped_A_54():
    t = table(campaign=True)
    game(t)[G.G_SPARKS] = 1
    t.step(K.STEP_AREA_WON)
    assert game(t)[G.G_SPARKS] == 2
    t = table(campaign=True)
    t.step(K.STEP_AREA_WON)
    assert game(t)[G.G_SPARKS] == 4  # capped at the start


# ------------------------------------------------------------------ the bonfire

def _spend_rows(t):
    t.step(K.STEP_SPEND)
    return t.s.pub[G.R_OPTS:G.R_OPTS + t.s.cursor[K.C_EVENTS]].copy()


@pytest.mark.parametrize(("campaign", "price", "costs"), [(False, 1, (2, 4, 8)), (True, 2, (4, 8, 16, 20))])
def test_R_5_4_R_5_7_R_13_8_R_13_9_prices_of_treasure_and_levels(campaign, price, costs):
    t = table(campaign=campaign)
    game(t)[G.G_SOULS] = 100
    for tier, cost in enumerate(costs):
        party_row(t, 0)[G.P_TIER] = tier  # strength
        rows = _spend_rows(t)
        buy = [r for r in rows if r[G.O_KIND] == G.OPT_BUY]
        assert buy and buy[0][G.O_COST] == price
        level = [r for r in rows if r[G.O_KIND] == G.OPT_LEVEL and r[G.O_SEAT] == 0 and r[G.O_ARG] == 0]
        assert level and level[0][G.O_COST] == cost
    party_row(t, 0)[G.P_TIER] = len(costs)
    assert not [r for r in _spend_rows(t) if r[G.O_KIND] == G.OPT_LEVEL and r[G.O_SEAT] == 0 and r[G.O_ARG] == 0]


def test_R_5_8_luck_is_restored_for_one_soul_only_when_used():
    t = table()
    game(t)[G.G_SOULS] = 1
    assert not [r for r in _spend_rows(t) if r[G.O_KIND] == G.OPT_LUCK]
    party_row(t, 1)[G.P_LUCK] = 0
    luck = [r for r in _spend_rows(t) if r[G.O_KIND] == G.OPT_LUCK]
    assert len(luck) == 1 and luck[0][G.O_SEAT] == 1 and luck[0][G.O_COST] == 1


def test_R_13_5_R_13_8_campaign_sells_cards_and_sparks():
    t = table(campaign=True)
    game(t)[G.G_SOULS] = 10
    game(t)[G.G_SPARKS] = 3
    card = deck(t)[0]
    t.s.where[card, G.W_PLACE] = G.LOC_INVENTORY
    rows = _spend_rows(t)
    spark = [r for r in rows if r[G.O_KIND] == G.OPT_SPARK]
    assert spark and spark[0][G.O_COST] == 4  # 2 souls per character
    assert [r[G.O_CARD] for r in rows if r[G.O_KIND] == G.OPT_SELL] == [card]
    assert not [r for r in _spend_rows(table()) if r[G.O_KIND] in (G.OPT_SPARK, G.OPT_SELL)]


def test_R_5_4_buying_pays_draws_the_top_card_and_places_it():
    t = table(sparams=script(spend=(G.OPT_BUY, -1, -1)))
    game(t)[G.G_SOULS] = 3
    t.step(K.STEP_BONFIRE)
    assert game(t)[G.G_SOULS] == 0 and game(t)[G.G_SOULS_SPENT] == 3 and game(t)[G.G_DRAWN] >= 3


def test_R_3_8_an_ember_goes_to_a_character_without_one_then_leaves_the_game():
    t = table(sparams=script(ember=(G.OPT_EMBER, 1, -1)))
    g = t.cg.game
    ember = next(c for c in deck(t) if g.cards[c, G.K_SLOT] == G.KIND_EMBER)
    pile = [c for c in deck(t) if c != ember] + [ember]  # the ember on top
    t.s.deck[: len(pile)] = pile
    t.step(K.STEP_DRAW)
    assert party_row(t, 1)[G.P_EMBER] == 1 and t.s.where[ember, G.W_PLACE] == G.LOC_GONE


def test_R_3_8_an_ember_when_everyone_has_one_is_shuffled_back_and_replaced():
    t = table()
    g = t.cg.game
    for seat in range(2):
        party_row(t, seat)[G.P_EMBER] = 1
    ember = next(c for c in deck(t) if g.cards[c, G.K_SLOT] == G.KIND_EMBER)
    pile = [c for c in deck(t) if c != ember] + [ember]
    t.s.deck[: len(pile)] = pile
    size = len(pile)
    t.step(K.STEP_DRAW)
    assert t.s.where[ember, G.W_PLACE] == G.LOC_DECK and ember in deck(t)
    assert len(deck(t)) == size - 1  # one replacement card drawn, no soul paid
    assert game(t)[G.G_SOULS_SPENT] == 0


def _top(t, predicate):
    """Put the first deck card matching ``predicate`` on top and return it."""
    g = t.cg.game
    card = next(c for c in deck(t) if predicate(g.cards[c]))
    pile = [c for c in deck(t) if c != card] + [card]
    t.s.deck[: len(pile)] = pile
    return card


def test_R_4_2_a_two_handed_weapon_empties_the_other_hand():
    t = table(sparams=script(place=(G.OPT_EQUIP, 0, G.SLOT_HAND0)))
    for k in range(4):
        party_row(t, 0)[G.P_TIER + k] = 3
    card = _top(t, lambda row: row[G.K_SLOT] == G.KIND_TWO_HANDS)
    shield = party_row(t, 0)[G.P_SLOT + G.SLOT_HAND1]
    t.step(K.STEP_DRAW)
    p = party_row(t, 0)
    assert p[G.P_SLOT + G.SLOT_HAND0] == card and p[G.P_SLOT + G.SLOT_HAND1] == -1
    assert t.s.where[shield, G.W_PLACE] == G.LOC_INVENTORY


def test_R_3_10_a_card_above_the_characters_stats_cannot_be_equipped():
    t = table(sparams=script(place=(G.OPT_EQUIP, -1, -1)))
    stats = t.cg.game.stats
    card = _top(t, lambda row: row[G.K_ITEM] >= 0
                and all(any(row[G.K_REQ + k] > stats[s, k, 0] for k in range(4)) for s in range(2)))
    t.step(K.STEP_DRAW)
    assert t.s.where[card, G.W_PLACE] == G.LOC_INVENTORY


@pytest.mark.parametrize("reading", ["allow_swap", "free_slot_only"])
def test_A_49_chest_cards_displace_an_item_only_under_allow_swap(reading):
    cg = compile_game(game_data(None), PARTY, AREAS, {"chest_equip": reading})
    battle = get_policy("tactician")
    t = engine.Table(cg, battle.decide, SCRIPTED.decide, battle.vector(), script(place=(G.OPT_EQUIP, 0, -1)))
    t.step(K.STEP_SETUP, 2)
    party_row(t, 0)[G.P_TIER: G.P_TIER + 4] = 3  # every card fits
    card = _top(t, lambda row: row[G.K_SLOT] == G.KIND_ONE_HAND)
    hands = list(party_row(t, 0)[G.P_SLOT + G.SLOT_HAND0: G.P_SLOT + G.SLOT_HAND1 + 1])
    t.step(K.STEP_DRAW, 1)  # from a chest
    p = party_row(t, 0)
    if reading == "allow_swap":
        assert p[G.P_SLOT + G.SLOT_HAND0] == card and t.s.where[hands[0], G.W_PLACE] == G.LOC_INVENTORY
    else:  # the hands are full: only the empty backup slot takes it
        assert list(p[G.P_SLOT + G.SLOT_HAND0: G.P_SLOT + G.SLOT_HAND1 + 1]) == hands
        assert p[G.P_SLOT + G.SLOT_BACKUP0] == card


# ------------------------------------------------------------------ upgrades

def _an_upgrade(t, kind: str):
    """A deck card of ``kind`` (weapon_upgrade / armour_upgrade), moved to the inventory."""
    data = game_data(None)
    card = next(c for c in deck(t) if t.cg.game.cards[c, G.K_SLOT] == G.KIND_UPGRADE
                and data.items[t.cg.card_names[c]].kind == kind)
    pile = [c for c in deck(t) if c != card]
    t.s.deck[: len(pile)] = pile
    t.s.cursor[K.C_DECK] = len(pile)
    t.s.where[card, G.W_PLACE] = G.LOC_INVENTORY
    return card


def _give(t, seat, slot, predicate):
    """Equip the first deck card matching ``predicate`` in ``slot`` of ``seat`` by hand; the old card to the box."""
    g = t.cg.game
    card = next(c for c in deck(t) if predicate(g.cards[c]))
    pile = [c for c in deck(t) if c != card]
    t.s.deck[: len(pile)] = pile
    t.s.cursor[K.C_DECK] = len(pile)
    old = party_row(t, seat)[G.P_SLOT + slot]
    t.s.where[old, G.W_PLACE] = G.LOC_BOX
    party_row(t, seat)[G.P_SLOT + slot] = card
    t.s.where[card, G.W_PLACE], t.s.where[card, G.W_SEAT] = G.LOC_EQUIPPED, seat
    return card


def test_R_4_7_a_weapon_upgrade_goes_on_a_weapon_and_changes_what_the_battle_plays():
    t = table(sparams=script(upgrade=(G.OPT_UPGRADE, 0, -1)))
    for k in range(4):
        party_row(t, 0)[G.P_TIER + k] = 3  # the holder meets the upgrade's requirements
    _give(t, 0, G.SLOT_HAND0, lambda row: row[G.K_SLOT] == G.KIND_ONE_HAND and row[G.K_UPGRADE_SLOTS] >= 1)
    up = _an_upgrade(t, "weapon_upgrade")
    t.step(K.STEP_UPGRADE, up)
    host = t.s.where[up, G.W_LINK]
    assert t.s.where[up, G.W_PLACE] == G.LOC_ATTACHED and host >= 0 and t.s.where[host, G.W_LINK] == up
    g = t.cg.game
    assert g.cards[host, G.K_SLOT] in (G.KIND_ONE_HAND, G.KIND_TWO_HANDS) and g.cards[host, G.K_UPGRADE_SLOTS] >= 1
    upgraded = g.upgraded[g.cards[host, G.K_ITEM], g.cards[up, G.K_UPGRADE]]
    assert upgraded >= 0 and t.cg.item_ids[upgraded] == f"{t.cg.card_names[host]}+{t.cg.card_names[up]}"
    t.step(K.STEP_EXPLORE, 0, 1)
    assert upgraded in t.battles.encounters.scen[X.SC_EQUIP: X.SC_EQUIP + 5].tolist()  # the battle plays the upgraded item
    t.step(K.STEP_DEFEAT, 0)  # a weapon upgrade never comes off
    assert t.s.where[up, G.W_PLACE] == G.LOC_ATTACHED


def test_R_4_7_an_armour_upgrade_comes_off_with_its_armour_and_can_go_on_another():
    t = table(sparams=script(upgrade=(G.OPT_UPGRADE, 0, -1), place=(G.OPT_EQUIP, 0, G.SLOT_ARMOUR)))
    party_row(t, 0)[G.P_TIER: G.P_TIER + 4] = 3
    armour = _give(t, 0, G.SLOT_ARMOUR, lambda row: row[G.K_SLOT] == G.KIND_ARMOUR and row[G.K_UPGRADE_SLOTS] >= 1)
    up = _an_upgrade(t, "armour_upgrade")
    t.step(K.STEP_UPGRADE, up)
    assert t.s.where[up, G.W_LINK] == armour
    new = _top(t, lambda row: row[G.K_SLOT] == G.KIND_ARMOUR)
    t.step(K.STEP_DRAW)  # the new armour displaces the old one to the inventory
    assert party_row(t, 0)[G.P_SLOT + G.SLOT_ARMOUR] == new
    assert t.s.where[up, G.W_PLACE] == G.LOC_INVENTORY and t.s.where[armour, G.W_LINK] == -1


def test_R_4_5_an_upgraded_item_taken_from_the_inventory_needs_the_requirements_of_both():
    t = table(sparams=script(place=(G.OPT_EQUIP, 1, -1)))  # the warrior takes what it can at Andre
    g = t.cg.game
    gem = next(c for c, name in enumerate(t.cg.card_names) if name == "heavy_gem")  # strength 25
    u = g.cards[gem, G.K_UPGRADE]
    warrior = party_row(t, 1)
    warrior[G.P_TIER: G.P_TIER + 4] = 3
    warrior[G.P_TIER] = 0  # strength at base: below the gem's 25
    assert g.stats[1, 0, 0] < 25 <= g.stats[1, 0, 3]
    weapon = next(c for c in deck(t) if g.cards[c, G.K_SLOT] == G.KIND_ONE_HAND and g.upgraded[g.cards[c, G.K_ITEM], u] >= 0
                  and g.cards[c, G.K_REQ] <= g.stats[1, 0, 0])
    t.s.cursor[K.C_DECK] = 0
    for card, place in ((weapon, G.LOC_INVENTORY), (gem, G.LOC_ATTACHED)):
        t.s.where[card, G.W_PLACE] = place
    t.s.where[weapon, G.W_LINK], t.s.where[gem, G.W_LINK] = gem, weapon
    t.step(K.STEP_BONFIRE)
    assert t.s.where[weapon, G.W_PLACE] == G.LOC_INVENTORY  # the weapon alone would fit; with the gem it does not
    warrior[G.P_TIER] = 3
    t.step(K.STEP_BONFIRE)
    assert t.s.where[weapon, G.W_PLACE] == G.LOC_EQUIPPED and t.s.where[weapon, G.W_SEAT] == 1


# ------------------------------------------------------------------ whole games: properties

def _check_places(t):
    """Every card in exactly one place: the deck list, the inventory, a character's slot, the box or gone."""
    s = t.s
    held = {}
    for seat in range(game(t)[G.G_N_CHARS]):
        for slot in range(G.N_SLOTS):
            card = party_row(t, seat)[G.P_SLOT + slot]
            if card >= 0:
                assert card not in held
                held[card] = seat
    for card in range(len(s.where)):
        place = s.where[card, G.W_PLACE]
        assert (place == G.LOC_EQUIPPED) == (card in held)
        link = s.where[card, G.W_LINK]
        if place == G.LOC_ATTACHED:  # an upgrade on exactly one item, which names it back
            assert link >= 0 and s.where[link, G.W_LINK] == card and s.where[link, G.W_PLACE] != G.LOC_ATTACHED
        elif link >= 0:
            assert s.where[link, G.W_PLACE] == G.LOC_ATTACHED and s.where[link, G.W_LINK] == card
        if card in held:
            assert s.where[card, G.W_SEAT] == held[card]
        assert (place == G.LOC_DECK) == (card in deck(t))
    assert len(deck(t)) == len(set(deck(t)))


@pytest.mark.parametrize("strategy", ["balanced", "rush", "farmer", "random_legal"])
def test_properties_souls_sparks_cards_and_ends(strategy):
    cg = compiled()
    battle = get_policy("tactician")
    st = REGISTRY.get(strategy)
    for index in range(25):
        s, *_ = engine.play_one(cg, battle.decide, st.decide, battle.vector(), st.vector(), 7, 11, index)
        gm = s.pub[G.R_GAME]
        assert gm[G.G_OVER] != G.RESULT_NONE  # every game ends
        assert gm[G.G_SOULS] >= 0 and 0 <= gm[G.G_SPARKS] <= gm[G.G_START_SPARKS]
        log = s.log[: s.cursor[K.C_EVENTS]]
        assert (log[log[:, 0] == G.EV_SOULS][:, 2] >= 0).all()  # the cache after each gain
        assert (log[log[:, 0] == G.EV_DEFEAT][:, 2] >= 0).all()  # sparks at each defeat
        t = engine.Table(cg, battle.decide, st.decide, battle.vector(), st.vector())
        t.s = s
        _check_places(t)


def test_games_are_bit_identical_for_one_and_two_threads_and_any_cutting():
    cg = compiled()
    battle, st = get_policy("tactician"), REGISTRY.get("balanced")
    args = (cg, battle.decide, st.decide, battle.vector(), st.vector(), 3, 5, 0, 300)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = engine.play_batch(*args)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = engine.play_batch(*args, piece=7)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, two)
    later = engine.play_batch(cg, battle.decide, st.decide, battle.vector(), st.vector(), 3, 5, 100, 50)
    assert np.array_equal(later, one[100:150])  # game i depends only on (seed, stream, i)


def test_whole_games_sum_up_consistently():
    cg = compiled()
    battle, st = get_policy("tactician"), REGISTRY.get("balanced")
    cols = engine.outcome_columns(engine.play_batch(cg, battle.decide, st.decide, battle.vector(), st.vector(), 1, 2,
                                                    0, 400))
    assert (cols["result"] != G.RESULT_NONE).all()
    assert (cols["battles_lost"] <= cols["battles"]).all()
    assert (cols["souls_spent"] <= cols["souls_earned"]).all()  # two characters start with no souls
    lost = cols["result"] == G.RESULT_LOST
    assert lost.any() and (cols["sparks_left"][lost] == 0).all()  # lost only at 0 sparks
    assert (cols["win"] == (cols["stage"] == G.STAGE_WON)).all()


@pytest.mark.parametrize("cleared", [(0,), (0, 1, 2, 3)])
def test_R_12_5_only_gravestones_on_face_up_cards_reveal_behaviour_cards(cleared):
    """Star layout: the fog gate's tile can be won alone. Its card (no gravestone) is face up; the other three
    (cards with gravestones, set by hand) stay face down and reveal nothing. Once all four are won, every
    gravestone counts, as in a chain, where the way to the fog gate wins every tile. The boss battle's scenario
    shows how many behaviour cards the gravestones reveal (every card's count was revealed before)."""
    t = table(layout="star")
    g = t.cg.game
    bare = [c for c in range(g.enc_info.shape[0]) if g.enc_info[c, 2] == 0]
    graved = [c for c in range(g.enc_info.shape[0]) if g.enc_info[c, 2] > 0]
    cards = [bare[0], *graved[:3]]
    assert len(graved) >= 3
    for k in range(4):
        tile(t, k)[G.TL_CARD] = cards[k]
        tile(t, k)[G.TL_CLEARED] = int(k in cleared)
    game(t)[G.G_FOG] = 1
    t.step(K.STEP_BOSS, 0, 1)
    shown = int(t.battles.bosses[g.area_bosses[0, 0]].scen[X.SC_GRAVESTONES])
    assert shown == sum(int(g.enc_info[c, 2]) for k, c in enumerate(cards) if k in cleared)
    assert (shown > 0) == (len(cleared) == 4)


def _traps(t) -> list[int]:
    """The trap token on each node of the last encounter battle's board (−1 none)."""
    return [int(t.buffers.tile.nodes[n, BL.N_TRAP]) for n in range(G.TRAP_NODES)]


def _sprung(t) -> list[bool]:
    """Whether the trap on each node of the last encounter battle's board was sprung (turned face up)."""
    return [bool(t.buffers.tile.nodes[n, BL.N_TRAP_UP]) for n in range(G.TRAP_NODES)]


def _shown(t, k: int) -> list[int]:
    """Tile ``k``'s traps as strategies see them (``TL_TRAP0``…)."""
    return [int(x) for x in tile(t, k)[G.TL_TRAP0:G.TL_TRAP0 + G.TRAP_NODES]]


def test_R_7_7_the_trace_shows_a_tiles_traps_as_the_players_know_them():
    from dsim.games.dstbg_game.trace import _trap

    assert _trap(-1) is None
    assert _trap(G.TRAP_HIDDEN) == "?"
    assert _trap(3 * 8 + 2) == {"damage": 3, "dodge": 2}  # a token sprung: damage × 8 + dodge difficulty


def test_R_7_7_traps_stay_on_their_nodes_when_a_tile_is_fought_again():
    """Tile 0 holds Ash Gardens (traps). Its first battle shuffles the tokens onto the nodes; the tile keeps that
    layout, and fought again (a rest turned its card face down) the battle finds every token where it was, face
    down, instead of a fresh shuffle (which the same seed gives on a tile fought for the first time). Strategies
    see where the tokens lie and the value of those sprung, never a face-down token's value."""
    def fresh():
        t = table()
        tile(t, 0)[G.TL_CARD] = t.cg.encounter_ids.index("ash_gardens")
        return t

    t = fresh()
    t.step(K.STEP_EXPLORE, 0, 3)
    first, sprung = _traps(t), _sprung(t)
    assert tile(t, 0)[G.TL_TRAPS_SET] == 1
    assert [int(x) for x in t.s.traps[0]] == first
    assert sorted(n for n, tok in enumerate(first) if tok >= 0) == [6, 8, 9]
    seen = [-1 if tok < 0 else tok if up else G.TRAP_HIDDEN for tok, up in zip(first, sprung)]
    assert _shown(t, 0) == seen
    assert G.TRAP_HIDDEN in seen  # a token no one sprang keeps its value to itself
    assert any(sprung) and any(tok >= 0 for tok in seen)  # … and one sprung shows what it was
    hidden = seen.index(G.TRAP_HIDDEN)
    tile(t, 0)[G.TL_TRAP0 + hidden], sprung[hidden] = first[hidden], True  # as if that one had been sprung too
    tile(t, 0)[G.TL_CLEARED] = 0
    t.step(K.STEP_EXPLORE, 0, 11)
    assert _traps(t) == first
    again = _sprung(t)
    assert not again[hidden]
    assert _shown(t, 0) == [-1 if tok < 0 else tok if up or up2 else G.TRAP_HIDDEN
                            for tok, up, up2 in zip(first, sprung, again)]  # the players remember what they saw
    control = fresh()
    control.step(K.STEP_EXPLORE, 0, 11)
    assert _traps(control) != first  # a first battle with that seed deals them differently
