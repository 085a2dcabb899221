"""Bloodborne rule variants: every [AMBIG] of the rules digest and every §14 switch, one declaration each.

Reading 0 is the digest's default. The kernel reads ``variants[V_*]``; the ``V_*`` indices below are
taken from :data:`VARIANTS`, so each reading is written down here only. ``final_boss_health`` is the
numeric house rule ``dsim tune`` can search (it lengthens or shortens the Final Boss fight).
"""

from __future__ import annotations

from dsim.variants import VariantSet, number, reading

VARIANTS = VariantSet((
    reading("echo_pool", "BB-1.2", "is the Blood Echo reserve limited",
            "Seed L5-L6 lists 15 and 60 tokens; nothing says the reserve runs out.",
            unlimited="the reserve never runs out (integer counts)",
            finite_75="75 one-point tokens: a revealed card gets only what is left in the reserve"),
    reading("pistol_clash", "BB-7.4", "what happens when two or more Hunter Pistols are played",
            "Seed L69: Henryk (the first player, L82) picking his Hunter Pistol through Transform «anularía la "
            "pistola de Eileen» (would cancel Eileen's pistol). A third reading (a pistol cancels one chosen "
            "opposing ranged or instant card) needs card text we do not have. (A reading in which only the last "
            "pistol in resolution order fires reversed this example and was removed.)",
            mutual_cancel="all clashing pistols cancel: none deals damage",
            transform_cancels="a later pistol cancels the earlier ones (the digest's b, 'later' as seed L69 has it): "
                              "one picked through Transform in step 2 fires and cancels those played in step 1; "
                              "pistols chosen at the same moment cancel each other",
            none="pistols never clash (house rule: against seed L69)"),
    reading("instant_kill_trophies", "BB-7.5", "trophies after a kill in step 3",
            "The seed spells out the kill rule only in step 5.",
            as_kill="hunters who dealt damage this round get trophies exactly as BB-9.4",
            none="a kill by an Instant gives no trophies"),
    reading("zero_damage_trophy", "BB-9.4", "a hunter who attacked but took 0 echoes in the killing round",
            "Seed L88: 'each hunter who dealt damage to the monster that round'.",
            no_trophy="0 echoes taken is no damage: no trophy (seed L87: the echoes taken are the damage dealt)",
            trophy="house rule, against seed L87-L88: attacking with a weapon in the killing round is enough for "
                   "a trophy"),
    number("trophies_per_kill", "BB-9.4", "trophies per kill (0 = each card's printed count, 1 by default)", 0,
           "0: the card's `trophies` (1 unless the data says otherwise); N ≥ 1: every kill gives N",
           seed="One review: 'one or more trophies (based on the strength of the monster)'.", low=0, high=10),
    reading("dead_recover_used", "BB-11.5", "do dead hunters who did not Dream recover their used pile",
            "[PUB:9] describes the Dream recovery as an exception for dead hunters.",
            no="a dead hunter keeps the used pile; only a Dream recovers it",
            yes="a dead hunter takes the used pile back in step 7"),
    reading("dead_dream_upgrades", "BB-11.5", "upgrades of a hunter who both died and played Hunter's Dream",
            "GAP: the default is one upgrade.",
            one="one upgrade in all",
            two="one for dying and one for the Dream"),
    number("upgrade_cost", "BB-11.8", "Banked echoes an Available Upgrade costs (0 = free)", 0,
           "0: upgrades are free (every source but one); N: taking one pays N Banked echoes to the reserve, "
           "a hunter with fewer takes none", seed="One slide deck: echoes 'can be spent to buy better Action Cards'.",
           low=0, high=20),
    reading("score_collected_at_end", "BB-13.2", "which echoes count at the end",
            "Reviews: 'count collected Blood Echoes'; banking only protects against death.",
            banked_and_collected="score = Banked + Collected + trophy bonus",
            banked_only="Collected echoes left at the end score nothing"),
    reading("dream_heals_full", "BB-11.1", "does Hunter's Dream heal",
            "[PUB:7] 'restores health'.",
            yes="a Dream hunter goes back to 8 health in step 7",
            no="the Dream banks, recovers and upgrades, but does not heal"),
    reading("upgrade_display_refill", "BB-12.2", "is the upgrade display refilled",
            "GAP: refill to one per player each round; with an empty deck play on with fewer.",
            per_round="refill to one per hunter at the end of every round",
            never="only the setup display; taken cards are not replaced"),
    reading("escaped_echoes_to", "BB-10.3", "where the echoes left on an escaped monster go",
            "GAP; one fan version reshuffles escaped monsters, treated as non-canonical.",
            reserve="back to the reserve"),
    reading("hand_limit_when", "BB-11.7", "when the hand limit is applied",
            "[PUB:4], [PUB:9] as the digest gives them: 'if taking an upgrade puts a hunter above 7 cards'.",
            upgrade_taken="only after a hunter takes an upgrade: with the upgrade deck and display empty, a Dream "
                          "hunter keeps every recovered card",
            upgrade_due="whenever a hunter is due an upgrade (Dream, death), even with none left to take "
                        "(the engine before issue 41)"),
    number("hand_limit", "BB-11.7", "most cards in hand after taking upgrades", 7,
           "discard down to N (discards leave the game)", seed="[PUB:4], [PUB:9]: hand limit 7.", low=1, high=40),
    reading("first_player_pass", "BB-12.4", "where the First Player token goes",
            "GAP: the seed says it changes every round; left matches the resolution order.",
            left="to the next seat (clockwise, the resolution order)",
            right="to the previous seat"),
    reading("tie_break", "BB-13.4", "breaking a tie for the most points",
            "GAP: the rulebook has a tie rule we could not read.",
            banked_then_shared="the tied hunter with more Banked echoes wins; still tied, the win is shared",
            shared="every tied hunter shares the win"),
    number("final_boss_health", "house", "echoes added to the Final Boss's health (house rule; tunable)", 0,
           "the Final Boss gets printed + 4/5-player bonus + N echoes (at least 1)", low=-20, high=100),
    number("max_rounds", "sim", "round cap: a game still running after this many rounds is a timeout", 200,
           "the game stops and counts as a timeout, won by nobody (scores still kept)", low=10, high=10_000),
), listing="dsim variants list --game bloodborne")

V_ECHO_POOL = VARIANTS.index["echo_pool"]
V_PISTOL_CLASH = VARIANTS.index["pistol_clash"]
V_INSTANT_KILL_TROPHIES = VARIANTS.index["instant_kill_trophies"]
V_ZERO_DAMAGE_TROPHY = VARIANTS.index["zero_damage_trophy"]
V_TROPHIES_PER_KILL = VARIANTS.index["trophies_per_kill"]
V_DEAD_RECOVER_USED = VARIANTS.index["dead_recover_used"]
V_DEAD_DREAM_UPGRADES = VARIANTS.index["dead_dream_upgrades"]
V_UPGRADE_COST = VARIANTS.index["upgrade_cost"]
V_SCORE_COLLECTED = VARIANTS.index["score_collected_at_end"]
V_DREAM_HEALS = VARIANTS.index["dream_heals_full"]
V_DISPLAY_REFILL = VARIANTS.index["upgrade_display_refill"]
V_HAND_LIMIT = VARIANTS.index["hand_limit"]
V_HAND_LIMIT_WHEN = VARIANTS.index["hand_limit_when"]
V_FIRST_PASS = VARIANTS.index["first_player_pass"]
V_TIE_BREAK = VARIANTS.index["tie_break"]
V_FINAL_BOSS_HEALTH = VARIANTS.index["final_boss_health"]
V_MAX_ROUNDS = VARIANTS.index["max_rounds"]

CLASH_MUTUAL, CLASH_TRANSFORM, CLASH_NONE = 0, 1, 2
