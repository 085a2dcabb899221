"""The community's house rules of a DS:TBG game played whole (``dsim variants list --game dstbg_game``), each on a
hand-set game state: the rule changes what its text says, and nothing when it is off."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from dsim.games.dstbg.game import game_data
from dsim.games.dstbg.policy import get_policy
from dsim.games.dstbg_game import engine
from dsim.games.dstbg_game import kernel as K
from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.compile import compile_game, standard_areas
from dsim.games.dstbg_game.strategy import REGISTRY
from dsim.games.dstbg_game.variants import GAME_VARIANTS
from tests.dstbg_game.scripted_strategy import SCRIPTED, script

AREAS = standard_areas(game_data(None), "gargoyle", "ornstein_and_smough")
PARTIES = {1: ("knight",), 2: ("knight", "warrior"), 4: ("knight", "warrior", "assassin", "herald")}
COMMUNITY = ("double_souls_half_sparks", "starting_souls", "optimal_boss_rewards", "tiny_shop", "treasure_tiers")


@lru_cache(maxsize=None)
def compiled(rules: tuple[tuple[str, object], ...] = (), size: int = 2, house: tuple[tuple[str, int], ...] = ()):
    return compile_game(game_data(None), list(PARTIES[size]), AREAS, dict(rules) or None, dict(house) or None)


def table(rules: dict | None = None, size: int = 2, strategy=None, sparams=None, house: dict | None = None):
    cg = compiled(tuple(sorted((rules or {}).items())), size, tuple(sorted((house or {}).items())))
    battle = get_policy("tactician")
    if strategy is None:
        strategy, sparams = SCRIPTED, (script() if sparams is None else sparams)
    else:
        strategy = REGISTRY.get(strategy)
        sparams = strategy.vector()
    t = engine.Table(cg, battle.decide, strategy.decide, battle.vector(), sparams)
    t.step(K.STEP_SETUP, size)
    return t


def game(t):
    return t.s.pub[G.R_GAME]


def deck(t) -> list[int]:
    return t.s.deck[: t.s.cursor[K.C_DECK]].tolist()


def test_community_house_rules_are_listed_with_their_source():
    for rule in COMMUNITY:
        v = GAME_VARIANTS.by_id[rule]
        assert v.listed and v.ref == "house" and "http" in v.seed, rule


@pytest.mark.parametrize(("size", "printed", "halved"), [(1, 5, 3), (2, 4, 2), (4, 2, 1)])
def test_double_souls_half_sparks_halves_the_dial_rounding_up(size, printed, halved):
    assert game(table(size=size))[G.G_START_SPARKS] == printed
    t = table({"double_souls_half_sparks": "on"}, size)
    assert game(t)[G.G_SPARKS] == halved and game(t)[G.G_START_SPARKS] == halved


def _won_tile(rules: dict) -> engine.Table:
    for seed in range(40):
        t = table(rules, house={"enemy_health_delta": -100})  # every enemy at 1 health: some seed wins
        t.step(K.STEP_EXPLORE, 0, seed)
        if game(t)[G.G_LOST] == 0:
            return t
    raise AssertionError("no won battle in the seeds tried")


@pytest.mark.parametrize(("reading", "souls"), [("off", 4), ("on", 8)])
def test_double_souls_half_sparks_doubles_a_tiles_souls_R_8_4(reading, souls):
    t = _won_tile({"double_souls_half_sparks": reading})
    assert game(t)[G.G_SOULS_EARNED] == souls and game(t)[G.G_SOULS] == souls


@pytest.mark.parametrize("size", [1, 2, 4])
def test_sixteen_starting_souls_for_every_party(size):
    assert game(table(size=size))[G.G_SOULS] == (16 if size == 1 else 0)
    assert game(table({"starting_souls": 16}, size))[G.G_SOULS] == 16


def _beat_mini_boss(rules: dict, sparks: int) -> engine.Table:
    cg = compiled(tuple(sorted(rules.items())), 2, (("boss_health_delta", -100),))
    battle = get_policy("tactician")
    for seed in range(30):
        t = engine.Table(cg, battle.decide, SCRIPTED.decide, battle.vector(), script())
        t.step(K.STEP_SETUP, 2)
        game(t)[G.G_SPARKS] = sparks
        t.step(K.STEP_BOSS, 0, seed)
        if game(t)[G.G_LOST] == 0:
            return t
    raise AssertionError("a one-health boss was never beaten")


@pytest.mark.parametrize(("rules", "souls"), [
    ({}, 2 * 3),  # 1 soul per character per spark
    ({"optimal_boss_rewards": "on"}, 3 * 4 * 2 * 2),  # 3 sparks x 4 tiles x 2 souls x 2 characters
    ({"optimal_boss_rewards": "on", "double_souls_half_sparks": "on"}, 2 * 3 * 4 * 2 * 2),
])
def test_optimal_boss_rewards_pay_a_map_cleared_per_spark_left(rules, souls):
    t = _beat_mini_boss(rules, 3)
    assert game(t)[G.G_SOULS_EARNED] == souls


def test_optimal_boss_rewards_quote_sixty_four_souls_for_two_characters_on_four_sparks():
    assert game(_beat_mini_boss({"optimal_boss_rewards": "on"}, 4))[G.G_SOULS_EARNED] == 64  # the source's figure


def _set_top(t, top: int, second: int) -> None:
    d = deck(t)
    rest = [c for c in d if c not in (top, second)]
    order = rest + [second, top]  # top last
    t.s.deck[: len(order)] = order


def test_tiny_shop_off_draws_the_top_card():
    t = table(sparams=script(spend=(G.OPT_BUY, -1, -1)))
    items = [c for c in deck(t) if t.cg.game.cards[c, G.K_ITEM] >= 0]
    _set_top(t, items[0], items[1])
    game(t)[G.G_SOULS] = 1
    t.step(K.STEP_BONFIRE)
    assert t.s.where[items[0], G.W_PLACE] != G.LOC_DECK  # drawn
    assert deck(t)[-1] == items[1]  # the second card is now on top


def test_tiny_shop_keeps_the_picked_card_and_puts_the_other_at_the_bottom():
    t = table({"tiny_shop": "on"}, sparams=script(spend=(G.OPT_BUY, -1, -1)))  # the script picks row 0: the top
    items = [c for c in deck(t) if t.cg.game.cards[c, G.K_ITEM] >= 0]
    _set_top(t, items[0], items[1])
    size = len(deck(t))
    game(t)[G.G_SOULS] = 1
    t.step(K.STEP_BONFIRE)
    assert t.s.where[items[0], G.W_PLACE] != G.LOC_DECK
    assert deck(t)[0] == items[1] and len(deck(t)) == size - 1 and game(t)[G.G_SOULS] == 0


def test_tiny_shop_strategies_pick_the_card_someone_can_use():
    t = table({"tiny_shop": "on"}, strategy="balanced")
    g = t.cg.game
    ember = next(c for c in deck(t) if g.cards[c, G.K_SLOT] == G.KIND_EMBER)
    usable = next(c for c in deck(t) if g.cards[c, G.K_ITEM] >= 0 and g.cards[c, G.K_SLOT] != G.KIND_UPGRADE
                  and any(all(g.stats[p, k, 0] >= g.cards[c, G.K_REQ + k] for k in range(4)) for p in range(2)))
    _set_top(t, ember, usable)  # the top card no character can equip, the second one anybody can
    game(t)[G.G_SOULS] = 2  # balanced keeps 1 soul back: one purchase
    t.step(K.STEP_BONFIRE)
    assert t.s.where[usable, G.W_PLACE] != G.LOC_DECK and deck(t)[0] == ember


def test_treasure_tiers_hold_back_high_requirement_commons_until_the_mini_boss():
    plain, tiered = table(), table({"treasure_tiers": "on"})
    g = tiered.cg.game
    held = sorted(set(deck(plain)) - set(deck(tiered)))
    assert held, "some common card needs more than 20 in two stats or more than 30 in one"
    for c in held:
        req = g.cards[c, G.K_REQ:G.K_REQ + 4]
        assert g.cards[c, G.K_GROUP] == G.GROUP_COMMON and ((req > 20).sum() > 1 or (req > 30).any())
        assert tiered.s.where[c, G.W_PLACE] == G.LOC_BOX
    for c in deck(tiered):
        req = g.cards[c, G.K_REQ:G.K_REQ + 4]
        assert g.cards[c, G.K_GROUP] != G.GROUP_COMMON or ((req > 20).sum() <= 1 and not (req > 30).any())
    tiered.step(K.STEP_AREA_WON)  # shuffled in with the advanced and legendary cards
    assert set(held) <= set(deck(tiered))
    assert len(deck(tiered)) == len(deck(plain)) - len(held) + len(held) + 15


def test_house_rules_off_leave_the_rule_vector_at_the_printed_game():
    vec = GAME_VARIANTS.vector(None)
    assert vec[G.V_DOUBLE_SOULS] == 0 and vec[G.V_STARTING_SOULS] == -1 and vec[G.V_OPTIMAL_BOSS] == 0
    assert vec[G.V_TINY_SHOP] == 0 and vec[G.V_TREASURE_TIERS] == 0
    assert np.array_equal(GAME_VARIANTS.vector({"starting_souls": 16})[G.V_STARTING_SOULS], 16)
