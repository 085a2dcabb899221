"""Rule readings of a DS:TBG game played whole (rules §16: setup, treasure, campaign), in ``layout.V_*`` order.

Battle readings (A-2 …, ``dsim.games.dstbg.variants``) apply to every battle of the game; these apply
between battles. Reading 0 is the documented default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from dsim.games.dstbg.variants import VARIANTS as BATTLE_VARIANTS
from dsim.games.dstbg_game import layout as G
from dsim.variants import VariantSet, number, reading

REDDIT = ("(u/Robyrt, 'House rules megathread', r/DarkSoulsTheBoardGame, 19 May 2017, "
          "https://www.reddit.com/r/DarkSoulsTheBoardGame/comments/6bz1x1/house_rules_megathread/)")
BGG_TIERS = ("(Randall Feineis, 'House Rules - Treasure Deck', BoardGameGeek, Dark Souls: The Board Game forums, "
             "https://boardgamegeek.com/thread/1780370/house-rules-treasure-deck)")
LISTING = "dsim variants list --game dstbg_game"  # where error messages send the user

GAME_VARIANTS = VariantSet((
    reading("tile_layout", "A-5", "how the exploration tiles are laid out (R-1.2, R-1.3)",
       "000: around the bonfire tile in any order; FAQ: total freedom, one bonfire connection suffices.",
       chain="each tile one door farther; levels rise along the chain; the fog gate on the last: every battle "
             "stands between the bonfire and the boss",
       star="every tile on the bonfire tile: any tile is the farthest, so the fog gate is one battle away"),
    reading("post_miniboss_dropped_souls", "A-6", "souls lying on the map when it is re-dealt (R-1.12)",
       "Not covered.", lost="they are collected with their tiles", return_to_cache="they go back to the cache"),
    reading("post_miniboss_chests", "A-7", "chests after the map is re-dealt (R-1.12)",
       "Not covered.", fresh="the new cards' chests are closed",
       keep_opened="a tile whose chest was opened stays opened"),
    reading("treasure_deck_empty", "A-8", "buying from an empty treasure deck (R-5.4)",
       "Not covered.", no_more_draws="nothing more can be bought",
       reshuffle_inventory_unused="the unused inventory cards are shuffled into a new deck"),
    reading("encounter_redraw_after_miniboss", "A-9", "which encounter cards the main boss's map is dealt from",
       "Not covered.", reshuffle_all="every card of the levels, the used ones included",
       exclude_used="only cards not dealt before the mini boss (all of a level if too few are left)"),
    reading("chest_equip", "A-49", "equipping a chest's card at once (R-7.6)",
       "000: characters may equip it at once; changes of gear happen at Andre (R-5.5).",
       allow_swap="the displaced item goes to the inventory", free_slot_only="only into an empty slot"),
    reading("campaign_spark_gain_cap", "A-54", "the campaign's +1 spark after a boss (R-13.5)",
       "000: the party gains 1 spark.", capped="not above the starting dial", uncapped="without a cap"),
    reading("campaign_treasure_progression", "A-55", "advanced and legendary treasure in the campaign (R-1.12, R-13)",
       "Not stated.", after_first_boss="added once, after the first boss", per_standard_rules_each_boss=
       "added after each boss (a card already added stays)", never="never added"),
    reading("campaign_end_at_zero", "A-56", "when the campaign ends for lack of sparks (R-13.6)",
       "000: when the party runs out of sparks.", defeat_at_zero="at a defeat with the dial at 0 (as R-5.10)",
       dial_reaches_zero="as soon as the dial reaches 0"),
    number("max_battles", "sim", "simulator cap on battles in one game; a game still running is cut off", 400,
           "games still running after this many battles end as `capped` (not a win)",
           seed="Simulator setting: the rules have no battle limit (campaign sparks can be bought).", low=1,
           high=100_000),
    number("sparks_delta", "house", "sparks added to the dial's start (R-1.4: 6 minus the characters; 0 = printed)",
           0, "the dial starts this many sparks above (below) R-1.4's value, at least 0, also after the mini boss",
           seed="House rule.", low=-5, high=94),
    reading("retreat_timing", "A-51", "when a campaign party may retreat from a battle (R-13.4)",
       "000: once all enemy actions are resolved.", after_any_enemy_turn="after every enemy turn",
       after_first_enemy_turn="only after the battle's first enemy turn"),
    reading("retreat_stamina", "A-52", "black cubes after a retreat (R-13.4)",
       "000: red cubes stay; black cubes are not mentioned.", clear_black="black cubes are removed",
       keep_black="black cubes stay too"),
    reading("retreat_conditions", "A-53", "condition tokens after a retreat (R-13.4)",
       "Not stated.", clear="conditions are removed", keep="conditions stay"),
    # --- the community's house rules (sources cited in each entry's seed text) -------------------------------------
    reading("double_souls_half_sparks", "house", "Double Souls Half Sparks: every soul received doubled, the spark "
            "dial's start halved (rounded up)",
            f"House rule {REDDIT}: 'Double all souls you receive. Your maximum sparks are cut in half (round up).' "
            "Read here: tile and boss rewards are doubled (souls picked up again are not received anew); the "
            "dial's start (R-1.4, after sparks_delta) is halved, also when it is reset after the mini boss (R-1.12).",
            off="the printed rewards and dial",
            on="2 x the souls of R-8.4 (tiles and bosses); the dial starts at ceil(start / 2)"),
    number("starting_souls", "house", "souls in the cache at setup (R-1.10: 16 for one character, else 0)", -1,
           "the soul cache starts with this many souls for any party size; 16 is the community's '16 Starting Souls'",
           seed=f"House rule '16 Starting Souls' {REDDIT}: 'The party starts with 16 souls regardless of player "
                "count.' Set 16 for it; any other count is a dial of the same rule.",
           low=0, high=10_000, unset="R-1.10"),
    reading("optimal_boss_rewards", "house", "Optimal Boss Rewards: a boss pays what grinding every spark left "
            "would have paid",
            f"House rule {REDDIT}: 'When you defeat a boss, gain souls equal to the total amount you would have "
            "received by grinding to 0 sparks.' The source gives no formula; read here (the most common reading, "
            "ours): each spark left is one more clear of the area's map, 2 souls per character per tile (R-8.4), "
            "instead of R-8.4's 1 soul per character per spark (a boss beaten at 0 sparks pays nothing). Two "
            "characters, 4 sparks, 4 tiles: 64 souls, the figure the source quotes.",
            off="R-8.4: 1 soul per character per spark left",
            on="sparks left x tiles on the area's map x 2 souls per character"),
    reading("tiny_shop", "house", "Tiny Shop: a purchase looks at the top two treasure cards and keeps one",
            f"House rule {REDDIT}: 'When you purchase treasure, look at the top 2 cards. Pick one and put the other "
            "on the bottom of the deck.' Chests still draw the top card (the rule speaks of purchases only).",
            off="R-5.4: a purchase draws the top card",
            on="the strategy picks one of the top two (hook pick); the other goes to the bottom of the deck"),
    reading("treasure_tiers", "house", "tiered treasure deck: common cards of high requirements wait for the "
            "mini boss",
            f"House rule {BGG_TIERS}: 'If more than 1 required attribute was greater than 20 we put it into the "
            "second deck (post mini boss). If any of the attributes were greater than 30 it went into the second "
            "deck.' The thread's other changes (a three-card market, chest limits) are not part of this switch.",
            off="R-1.8: every common card in the deck from the start",
            on="a common card needing more than 20 in two stats, or more than 30 in one, is shuffled in with the "
               "advanced and legendary cards after the mini boss (R-1.12)"),
), listing=LISTING)
assert len(GAME_VARIANTS) == G.N_RULES


def split_variants(settings: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(battle readings, game readings)`` of one ``variants`` table; an id of neither names both lists."""
    battle, game = {}, {}
    for key, value in (settings or {}).items():
        if key in GAME_VARIANTS.by_id:
            game[key] = value
        elif key in BATTLE_VARIANTS.by_id:
            battle[key] = value
        else:
            raise ValueError(f"unknown variant {key!r} (see `{LISTING}`)")
    return battle, game


def game_rules(settings: Mapping[str, Any] | None) -> np.ndarray:
    """The kernel's int32 game-rule vector (``layout.V_*``)."""
    return GAME_VARIANTS.vector(settings)
