"""Dark Maiden rule variants: every [AMBIG] reading and [GAP] default of the rules digest, and the house rules.

Reading 0 is the default: the digest's, or the seed's where the seed is clear and the digest says otherwise or
nothing (``bonus_after_bosses``, ``leftover_enemies``, ``late_foes``: the seed text says why). The kernel reads
``variants[V_*]``; the indices below come from :data:`VARIANTS`, so each reading is written down here only.
``lives`` is the numeric house rule ``dsim tune`` searches ("how many lives make normal 50%?"); ``max_turns``
bounds a game.
"""

from __future__ import annotations

from dsim.variants import VariantSet, number, reading

DIFFICULTY_LIVES = -1
"""``lives`` default, meaning the difficulty's count (easy 15, normal 12, hard 9); outside the values users set
(0–99), so ``dsim tune`` never tries it."""

VARIANTS = VariantSet((
    reading("life_counter", "DM-2.6", "what the life counter counts",
            "Seed L9: at the last space 'the players have no more lives than the one they are using'.",
            spare="spare lives: a death with the counter above 0 costs 1 and the hero plays on; at 0 the hero is out",
            total="every life, those in play included: a death costs 1, and the hero is out when no spare life "
                  "is left beyond one per hero still in play"),
    reading("precipice_fall", "DM-5.2.3", "is a fall off a precipice a death",
            "Seed L21: the hero 'falls and loses 1 life'.",
            death="a death: damage cleared, the counter and elimination apply (no bonus attack)",
            life_only="the counter goes down by 1 (if above 0); damage stays and a fall never removes a hero"),
    reading("goblin_dice", "DM-5.3.3", "which die of a level-2/3 goblin gives potions",
            "Seed L27: 'one die is to gain/steal potions and the other to heal'.",
            fixed="the white die gives (or steals) potions, the red die heals",
            choose="the player picks after rolling (HOOK_GOBLIN)"),
    reading("goblin_heal", "DM-5.3.3", "what the heal die heals",
            "Seed L27 gives no numbers for the heal die.",
            die_value="its value, 1 to 6", one_to_four="its value on 1–4 only, like the potion die"),
    reading("bosses_enter", "DM-4.5", "when the site's bosses enter after phase 1 reaches the target",
            "Seed L82: the remaining players skip phase 1; L110 for enemy points.",
            at_once="at once: they join phase 2 with the cards already drawn",
            after_cards="after the drawn cards and the turn's round of attacks are resolved"),
    reading("late_foes", "DM-7.1", "do enemies that enter during an exchange strike with its dice",
            "Seed L165: the red die strikes «dependiendo de qué enemigos están en juego en ese momento» (the "
            "enemies in play at that moment); e.g. a hit whose points complete the site calls the bosses at once (L110).",
            rolled_before="no: only the enemies in play when the dice were rolled strike with them",
            join="yes: they strike at once with the dice already rolled (the engine before issue 41)"),
    reading("bonus_after_bosses", "DM-8.4", "is there a bonus phase once the site's bosses called this turn are beaten",
            "Seed L110: enemy points that complete the site call the bosses «y ya no hay fase de bonus»; L36 «no hay "
            "fase de bonus sino hasta que estos jefes son derrotados» and L109 (after sub-bosses) say nothing stops it "
            "when phase 1 called them (the digest's DM-4.5 a extends L110 to phase 1: the seed does not).",
            after_phase_1="yes when phase 1 reached the target; no when enemy points did (L110)",
            never="no bonus phase in a turn whose site bosses came in, however they came (the digest's DM-4.5 a)",
            always="yes, however they came (L36, L109 read as the rule and L110 as 'not while they are in play')"),
    reading("amazon_takes_middle", "DM-5.4.1", "does an arriving riding amazon take a free mount already in play",
            "Seed L41: she takes a mount «cuando sale alguna en juego» (drawn with her or while she is in play) and "
            "L31 one dismounted while she is in play; a mount already waiting in the middle when she arrives is not "
            "covered (GAP).",
            no="no: she takes only mounts drawn or dismounted while she is in play",
            at_once="yes: she takes the first free mount in the middle as she enters play"),
    reading("barbara_reroll", "DM-7.5", "what Bárbara rerolls on a double",
            "Seed L18, L173: 'puede volver a tirar los dados' (plural).",
            both="both dice", white="only her white die"),
    reading("grab_needs_face", "DM-7.7", "must a grab's new white die also be a success face",
            "Seed L101: 'debe superar el resultado del dado enemigo'.",
            no="beating (Guerrero: equalling) the red die is enough",
            yes="the new white die must also be one of the hero's success faces"),
    reading("grab_armour", "DM-7.7", "how armour meets a grab's split points",
            "GAP: armour is −1 per damage instance (seed L51); a split grab is several.",
            per_enemy="−1 once for each armoured enemy that gets any of the points",
            per_point="−1 on every point: an armoured enemy takes nothing from a split grab"),
    reading("mounted_specials", "DM-7.12", "may a mounted hero quick strike or grab",
            "GAP: the seed does not say.",
            allowed="yes, and the mount is ignored for that attack",
            not_mounted="no: a mounted hero makes normal attacks only"),
    reading("death_clears_exhaustion", "DM-7.9", "does a death clear exhaustion",
            "GAP: seed L13 says a death removes the damage tokens.",
            yes="a hero who dies gets up ready", no="an exhausted hero stays exhausted"),
    reading("mounted_faces", "DM-7.11", "the success faces of a mounted hero",
            "Seed L33–L35 print the mounts' faces; L35 'hasta 4 pts. de daño'.",
            printed="the mount's printed faces and damage, ignoring the hero's",
            hero_faces_level_3="a level-3 mount uses the hero's faces, damage the die capped at 4"),
    reading("mounted_amazon", "DM-9.1", "a successful attack on a mounted riding amazon",
            "Seed L41–L43 say how she takes and loses mounts, not how she takes damage.",
            full_and_dismount="she is dismounted (the mount goes to the middle) and takes the full damage",
            one_and_one="as a mounted hero: she takes 1, the mount 1, and she is dismounted"),
    reading("reinforcement_strikes", "DM-9.4", "do the other enemies strike when the Dark Maiden calls reinforcements",
            "GAP: seed L55 says she deals no damage on a 1; it says nothing of the others.",
            others_strike="the others strike on a red 1 if it is one of their faces",
            nobody_strikes="a red 1 that calls reinforcements is nobody's strike"),
    reading("final_boss", "DM-9.5", "which final boss guards the Castle (1–3 heroes)",
            "Seed L58: the Paladin instead of the Dark Maiden, or a d6 when site 4 is completed.",
            dark_maiden="the Dark Maiden", paladin="the Paladin",
            roll="a d6 when the Castle is completed: 1–3 the Paladin, 4–6 the Dark Maiden"),
    reading("final_4p", "DM-9.6", "how 4 heroes face both final bosses",
            "Seed L128: 'deben enfrentar a ambas'.",
            together="both enter when the Castle is completed",
            sequential="the Dark Maiden first; the Paladin enters when she dies"),
    reading("advance_floor", "DM-4.3", "can the advance total drop below 0",
            "GAP: the Forest's ability side makes go cards −2 (seed L11).",
            zero="no: it stops at 0", none="yes: a negative total must be made up"),
    reading("site_side", "DM-10.4", "which side of the site cards is played",
            "Seed L124: each site has a basic side and an ability side; only the Forest's ability is known.",
            basic="the basic sides", ability="the ability sides (Forest go cards −2; the others as basic, GAP)"),
    reading("leftover_enemies", "DM-10.3", "enemies still in play once the site's bosses are dead",
            "Seed L49: they must be defeated before the team moves on; L39 «SOLO UN ATAQUE POR JUGADOR» and L162 "
            "make more than one attack a turn the exception for bosses and sub-bosses only.",
            next_turns="turns go on without phase 1 (the site is reached): one round of attacks, then the bonus phase, "
                       "until no enemy is in play (seed L39, L162)",
            fight_on="the attacks go on, as against a boss, until every enemy is dead (the engine before issue 41; "
                     "against seed L39)"),
    reading("carry_over", "DM-10.3", "do the heroes' damage and exhaustion carry over to the next site",
            "GAP: the seed resets only the advance track.",
            carry="they carry over", rest="every hero starts the next site unhurt and ready"),
    reading("middle_mounts", "DM-10.3", "what becomes of free mounts in the middle at a new site",
            "GAP: the seed rebuilds the deck from the deck, the discards and the next level.",
            stay="they stay in the middle, to be taken in a bonus phase",
            shuffled="they are shuffled into the next site's deck"),
    reading("special_items", "DM-2.9", "are the 2 special items used",
            "Seed L118–L123: solo and 2-player games use them, 3–4 optionally; both effects are invented "
            "placeholders (data/dark_maiden/items.yaml).",
            off="no special items (the baseline: their effects are a GAP)",
            on="the 2 items, kept / lost on death / shuffled into the deck by the difficulty"),
    reading("lives_by_players", "house", "does the life counter scale with the number of heroes",
            "GAP: seed L67 says difficulty depends on the player count, with no table.",
            same="the difficulty's lives at every player count",
            scaled="the difficulty's lives × heroes / 3, rounded half up (house rule)"),
    number("lives", "house", "lives on the counter (house rule; tunable; unset: the difficulty's)", DIFFICULTY_LIVES,
           "the life counter starts at N (DM-2.6 'custom': seed L117)", seed="Seed L117: players may choose any "
           "number of lives.", low=0, high=99, unset="difficulty's (15/12/9)"),
    number("max_turns", "sim", "turn cap: a game still running after this many turns is a timeout", 300,
           "the game stops and counts as a timeout (a loss)", low=10, high=10_000),
), listing="dsim variants list --game dark_maiden")

V_LIFE_COUNTER = VARIANTS.index["life_counter"]
V_PRECIPICE_FALL = VARIANTS.index["precipice_fall"]
V_GOBLIN_DICE = VARIANTS.index["goblin_dice"]
V_GOBLIN_HEAL = VARIANTS.index["goblin_heal"]
V_BOSSES_ENTER = VARIANTS.index["bosses_enter"]
V_LATE_FOES = VARIANTS.index["late_foes"]
V_BONUS_AFTER_BOSSES = VARIANTS.index["bonus_after_bosses"]
V_AMAZON_TAKES_MIDDLE = VARIANTS.index["amazon_takes_middle"]
V_BARBARA_REROLL = VARIANTS.index["barbara_reroll"]
V_GRAB_NEEDS_FACE = VARIANTS.index["grab_needs_face"]
V_GRAB_ARMOUR = VARIANTS.index["grab_armour"]
V_MOUNTED_SPECIALS = VARIANTS.index["mounted_specials"]
V_DEATH_CLEARS_EXHAUSTION = VARIANTS.index["death_clears_exhaustion"]
V_MOUNTED_FACES = VARIANTS.index["mounted_faces"]
V_MOUNTED_AMAZON = VARIANTS.index["mounted_amazon"]
V_REINFORCEMENT_STRIKES = VARIANTS.index["reinforcement_strikes"]
V_FINAL_BOSS = VARIANTS.index["final_boss"]
V_FINAL_4P = VARIANTS.index["final_4p"]
V_ADVANCE_FLOOR = VARIANTS.index["advance_floor"]
V_SITE_SIDE = VARIANTS.index["site_side"]
V_LEFTOVER = VARIANTS.index["leftover_enemies"]
V_CARRY_OVER = VARIANTS.index["carry_over"]
V_MIDDLE_MOUNTS = VARIANTS.index["middle_mounts"]
V_ITEMS = VARIANTS.index["special_items"]
V_LIVES_BY_PLAYERS = VARIANTS.index["lives_by_players"]
V_LIVES = VARIANTS.index["lives"]
V_MAX_TURNS = VARIANTS.index["max_turns"]

FINAL_DARK_MAIDEN, FINAL_PALADIN, FINAL_ROLL = 0, 1, 2
BONUS_AFTER_PHASE_1, BONUS_NEVER, BONUS_ALWAYS = 0, 1, 2
LEFTOVER_NEXT_TURNS, LEFTOVER_FIGHT_ON = 0, 1
