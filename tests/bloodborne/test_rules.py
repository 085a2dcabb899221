"""One test per rule the Bloodborne kernel implements (BB-2 … BB-13 of /work/shared/rules/bloodborne.md).

Each test hand-sets a table with :mod:`tests.bloodborne.kit` (forced monster-die faces, scripted choices),
plays one round (or a few) and asserts the resulting state and trace, chosen so that the test fails when the
rule is broken (the docstrings say which wrong reading each assertion rules out).
"""

from __future__ import annotations

import numpy as np
import pytest

from dsim.games.bloodborne import engine, trace
from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.policy import policy_function, public_views
from dsim.policy import compiled
from tests.bloodborne import kit as K
from tests.bloodborne.kit import card, dungeon, face, track

G3B = "monster_green_3_beast"
G0, G1, G2 = face("green", 0), face("green", 1), face("green", 2)
Y0, Y1, Y3 = face("yellow", 0), face("yellow", 1), face("yellow", 3)
R0, R1C, R2C, R3 = face("red", 0), face("red", "1+"), face("red", "2+"), face("red", 3)
STARTERS = ["saw_cleaver", "hunter_axe", "hunter_pistol", "transform", "hunters_dream"]
DREAM, AXE, CLEAVER, PISTOL, TRANSFORM = (card(x) for x in
                                          ("hunters_dream", "hunter_axe", "saw_cleaver", "hunter_pistol", "transform"))


def hand_of(s, h):
    """Hunter ``h``'s hand as {card id: copies}."""
    return {K.comp().card_ids[c]: int(k) for c, k in enumerate(s.hand[h]) if k}


def used_of(s, h):
    return {K.comp().card_ids[c]: int(k) for c, k in enumerate(s.used[h]) if k}


def plays(*cards):
    """``{seat: {"play": card}}`` for seats 0, 1, ... in turn."""
    return {h: {"play": c} for h, c in enumerate(cards)}


# ---------------------------------------------------------------- BB-2 setup
@pytest.mark.parametrize("hunters", [3, 4, 5])
def test_BB_2_2_dungeon_deck_is_7_monsters_and_3_bosses_and_its_top_card_is_revealed(hunters):
    c = K.comp()
    t = c.tables
    finals = set()
    for index in range(12):
        s = engine.setup_game(t, K.POLICIES, K.script(hunters), K.variants(), hunters, seed=3, index=index)
        classes = t.dungeon[s.deck, L.DG_CLASS]
        assert len(set(s.deck.tolist())) == L.DECK_SIZE == 10
        assert (classes == L.MONSTER).sum() == 7 and (classes == L.BOSS).sum() == 3  # BB-2.2
        assert s.table[L.T_MONSTER] == s.deck[0] and s.table[L.T_DECK_NEXT] == 1  # BB-2.9
        assert t.dungeon[s.table[L.T_FINAL], L.DG_CLASS] == L.FINAL_BOSS  # BB-2.1
        finals.add(int(s.table[L.T_FINAL]))
        assert s.table[L.T_ROUND] == 0 and s.table[L.T_OVER] == L.OVER_RUNNING
    assert len(finals) > 1  # the Final Boss is drawn at random


@pytest.mark.parametrize("hunters", [3, 4, 5])
def test_BB_2_3_one_available_upgrade_per_hunter_from_the_shuffled_upgrade_deck(hunters):
    t = K.comp().tables
    s = engine.setup_game(t, K.POLICIES, K.script(hunters), K.variants(), hunters, seed=1)
    assert (s.display >= 0).sum() == hunters and (s.display[hunters:] == -1).all()
    assert s.table[L.T_UPDECK_NEXT] == hunters
    assert sorted(s.updeck.tolist()) == sorted(t.upgrades.tolist()) and len(s.updeck) == 32  # BB-1.1
    assert s.display[:hunters].tolist() == s.updeck[:hunters].tolist()
    other = engine.setup_game(t, K.POLICIES, K.script(hunters), K.variants(), hunters, seed=1, index=1)
    assert s.updeck.tolist() != other.updeck.tolist()  # shuffled per game


@pytest.mark.parametrize("hunters", [3, 4, 5])
def test_BB_2_5_and_2_7_hunters_start_with_the_five_starters_health_8_and_nothing_else(hunters):
    t = K.comp().tables
    s = engine.setup_game(t, K.POLICIES, K.script(hunters), K.variants(), hunters, seed=2)
    starters = [card(x) for x in STARTERS]
    for h in range(hunters):
        assert hand_of(s, h) == {x: 1 for x in STARTERS}
        assert s.used[h].sum() == 0 and s.hunters[h, L.H_OWNED] == 5
        assert s.hunters[h, L.H_COLLECTED] == 0 and s.hunters[h, L.H_BANKED] == 0 and s.trophies[h].sum() == 0
        on_reveal = t.dungeon[s.table[L.T_MONSTER], L.DG_REVEAL_DAMAGE]
        assert s.hunters[h, L.H_HEALTH] == L.START_HEALTH - on_reveal == 8 - on_reveal
    assert sorted(starters) == list(range(5)) and (t.cards[starters, L.C_STARTER] == 1).all()
    assert (s.hand[hunters:] == 0).all()  # empty seats hold nothing


def test_BB_2_8_the_first_player_is_chosen_at_random():
    t = K.comp().tables
    firsts = set()
    for index in range(30):
        s = engine.setup_game(t, K.POLICIES, K.script(4), K.variants(), 4, seed=5, index=index)
        assert s.table[L.T_FIRST] == s.table[L.T_START_FIRST]
        firsts.add(int(s.table[L.T_FIRST]))
    assert firsts == {0, 1, 2, 3}


# ---------------------------------------------------------------- BB-3 cards
@pytest.mark.parametrize(("hunters", "extra"), [(3, 0), (4, 1), (5, 2)])
def test_BB_3_1_a_revealed_card_gets_its_health_in_echoes_plus_1_with_4_and_2_with_5(hunters, extra):
    t = K.comp().tables
    s = engine.setup_game(t, K.POLICIES, K.script(hunters), K.variants(), hunters, seed=4)
    top = s.deck[0]
    assert s.table[L.T_ECHOES] == t.dungeon[top, L.DG_HEALTH] + extra
    s = K.scene(hunters, G3B, echoes=1, deck=["boss_red_7_beast"], forced=(G0,))
    total = K.echo_total(s)
    K.play(s, plays(*["hunter_axe"] * hunters))  # kill, then step 8 reveals the boss (BB-12.3)
    assert s.table[L.T_MONSTER] == dungeon("boss_red_7_beast") and s.table[L.T_ECHOES] == 7 + extra
    assert s.table[L.T_MONSTER_CLASS] == L.BOSS and s.table[L.T_MONSTER_DIE] == K.comp().die_ids.index("red")
    assert K.echo_total(s) == total  # the echoes came out of the reserve


def test_BB_3_4_on_reveal_damage_hits_every_hunter_when_the_card_is_flipped():
    s = K.scene(3, G3B, echoes=1, deck=["monster_green_4_beast"], forced=(G0,))
    K.play(s, plays("hunter_axe", "saw_cleaver", "hunter_pistol"))
    assert s.table[L.T_MONSTER] == dungeon("monster_green_4_beast")
    assert s.hunters[:3, L.H_HEALTH].tolist() == [7, 7, 7]


def test_BB_3_4_on_reveal_damage_also_hits_a_hunter_who_died_and_revived_this_round():
    """Seat 0 dies in step 4 and is back at 8 in step 7; the step-8 reveal then wounds it like everyone (7),
    and it takes only the one upgrade for dying (not a second 'revival')."""
    s = K.scene(3, G3B, echoes=3, deck=["monster_green_4_beast"], forced=(G2,), health={0: 1},
                display=["heavy_melee", "blood_vial", "bank_now"])
    K.play(s, plays("saw_cleaver", "hunters_dream", "hunters_dream"))
    assert s.hunters[0, L.H_DEATHS] == 1 and s.hunters[0, L.H_UPGRADES] == 1
    assert s.hunters[:3, L.H_HEALTH].tolist() == [7, 7, 7]


def test_BB_3_4_a_hunter_killed_by_an_on_reveal_ability_revives_at_once_with_an_upgrade():
    s = K.scene(3, G3B, echoes=1, deck=["monster_green_4_beast"], forced=(G0,), health={2: 1},
                display=["heavy_melee", "blood_vial", "bank_now"], collected={2: 4})
    total = K.echo_total(s)
    K.play(s, plays("hunter_axe", "saw_cleaver", "hunter_pistol") | {2: {"play": "saw_cleaver", "upgrade": 1}})
    evs = K.events(s)
    assert K.first(evs, "death", seat=2)["lost"] == 4 and s.hunters[2, L.H_COLLECTED] == 0  # BB-8.6
    assert s.hunters[2, L.H_HEALTH] == 8 and s.hunters[2, L.H_UPGRADES] == 1
    assert s.hand[2, card("blood_vial")] == 1
    assert K.echo_total(s) == total


def test_BB_3_4_while_in_play_abilities_change_the_fight_and_only_while_the_card_is_current():
    """monster_attack_bonus, dream_no_halve, instant_damage_bonus and cap_damage on the current card (no
    shipped card has them: the table is edited)."""
    tables = K.edited(dungeon={G3B: {L.DG_ATTACK_BONUS: 1, L.DG_NO_HALVE: 1, L.DG_INSTANT_BONUS: 1,
                                     L.DG_CAP: 1, L.DG_CAP_TYPE: L.MELEE}})
    s = K.scene(3, G3B, echoes=6, forced=(G2,))
    K.play(s, plays("hunter_axe", "hunter_pistol", "hunters_dream"), tables=tables)
    evs = K.events(s)
    assert K.first(evs, "roll")["damage"] == 3  # 2 rolled + 1
    assert K.first(evs, "wound", seat=2)["damage"] == 3  # the Dream does not halve here
    assert K.first(evs, "instant", seat=1)["taken"] == 2  # pistol 1 + 1
    assert K.first(evs, "attack", seat=0)["taken"] == 1  # the axe (2) capped to 1 (melee)
    s = K.scene(3, "monster_green_3_kin", echoes=6, forced=(G2,))  # another card: printed values again
    K.play(s, plays("hunter_axe", "hunter_pistol", "hunters_dream"), tables=tables)
    evs = K.events(s)
    assert K.first(evs, "roll")["damage"] == 2 and K.first(evs, "wound", seat=2)["damage"] == 1
    assert K.first(evs, "instant", seat=1)["taken"] == 1 and K.first(evs, "attack", seat=0)["taken"] == 2


def test_BB_3_6_a_final_boss_ability_holds_for_the_whole_game_from_setup_on(tmp_path):
    """An overlay Final Boss whose whole-game rules add 1 to every monster roll and 1 to every instant,
    deal 1 to each hunter at each escape and triple its kill trophies — fighting an ordinary monster."""
    (tmp_path / "final_bosses.yaml").write_text("""
final_bosses:
  - id: final_boss_1
    name: Test Final Boss
    health: 10
    die: red
    trophy: beast
    source: test overlay
    effects:
      - {when: whole_game, op: monster_attack_bonus, amount: 1}
      - {when: whole_game, op: instant_damage_bonus, amount: 1}
      - {when: whole_game, op: escape_damage_hunters, amount: 1}
      - {when: whole_game, op: final_boss_trophy_multiplier, amount: 3}
""")
    c = K.comp(tmp_path)
    fb = dungeon("final_boss_1", c)
    s = K.scene(3, "monster_green_4_kin", echoes=5, forced=(face("green", 1, c),), c=c)
    s.table[L.T_FINAL] = fb
    K.play(s, plays("hunter_pistol", "saw_cleaver", "hunters_dream"), c=c)
    evs = K.events(s)
    assert K.first(evs, "roll")["damage"] == 2  # 1 + 1
    assert K.first(evs, "instant", seat=0)["taken"] == 2  # 1 + 1
    assert K.first(evs, "escape")["returned"] == 2  # 5 - 2 - 1
    assert K.named(evs, "wound", seat=0)[-1]["damage"] == 1  # the escape damage
    assert s.hunters[0, L.H_HEALTH] == 8 - 2 - 1
    s = K.scene(3, "final_boss_1", echoes=2, forced=(face("red", 0, c),), c=c)
    s.table[L.T_FINAL] = fb
    K.play(s, plays("hunter_axe", "saw_cleaver", "saw_cleaver"), c=c)
    assert s.table[L.T_OVER] == L.OVER_FINAL_BOSS_DEAD and s.trophies[0, track("beast", c)] == 3


# ---------------------------------------------------------------- BB-4, BB-5 step 1
def test_BB_4_1_a_round_runs_its_eight_steps_in_order():
    s = K.scene(3, G3B, echoes=9, forced=(G1,), display=["heavy_melee", "blood_vial", "bank_now"])
    K.play(s, plays("transform", "hunter_pistol", "hunters_dream") | {0: {"play": "transform",
                                                                          "transform": "hunter_axe"}})
    kinds = [e["event"] for e in K.events(s) if e["event"] != "decision"]
    steps = ["play", "transform", "instant", "roll", "attack", "escape", "recover", "upgrade", "first", "reveal"]
    assert [kinds.index(k) for k in steps] == sorted(kinds.index(k) for k in steps)


@policy_function
def peeker(hook, seat, public, n, params):
    """Plays the card ``params[0]`` — unless it can see another hunter's choice of this step, then the last
    row. At Transform it expects to see every step-1 card but no other weapon pick."""
    table, hunters, hand, used, opts = public_views(public)
    leak = False
    for h in range(table[0]):  # T_HUNTERS
        if h != seat:
            cards = 0
            for c in range(hand.shape[1]):
                cards += hand[h, c] + used[h, c]
            if hook == 0 and (hunters[h, 3] >= 0 or cards != 5):  # H_PLAYED
                leak = True
            if hook == 1 and (hunters[h, 4] >= 0 or hunters[h, 3] < 0):  # H_WEAPON / H_PLAYED
                leak = True
    if leak:
        return n - 1
    for k in range(n):
        if hook == 0 and opts[k, 0] == params[0]:
            return k
    return 0


def test_BB_5_1_cards_are_chosen_secretly_and_revealed_together():
    """Each policy is asked before any pick is revealed (hands and H_PLAYED unchanged); Transform hunters
    see every step-1 card but not each other's weapon (BB-6.1)."""
    t = K.comp().tables
    s = K.scene(3, G3B, echoes=9, forced=(G0,))
    rows = np.array([[TRANSFORM], [TRANSFORM], [AXE]], np.float64)
    engine.play_round(t, s, (compiled(peeker),), rows)
    evs = K.events(s)
    assert [e["card_id"] for e in K.named(evs, "play")] == ["transform", "transform", "hunter_axe"]
    assert [e["card_id"] for e in K.named(evs, "transform")] == ["saw_cleaver", "saw_cleaver"]


def test_BB_5_3_exactly_one_card_is_played_even_if_it_is_the_only_dream():
    s = K.scene(3, G3B, echoes=9, forced=(G0,), hands={0: ["hunters_dream"]}, display=[])
    K.set_used(s, 0, ["saw_cleaver", "hunter_axe", "hunter_pistol", "transform"])
    before = s.hand[:3].sum(axis=1).copy()
    K.play(s, plays("saw_cleaver", "hunter_axe", "hunter_pistol"))
    evs = K.events(s)
    assert [(e["seat"], e["card_id"]) for e in K.named(evs, "play")] == [
        (0, "hunters_dream"), (1, "hunter_axe"), (2, "hunter_pistol")]
    assert hand_of(s, 0) == {x: 1 for x in STARTERS}  # the Dream took everything back
    assert (s.hand[1:3].sum(axis=1) == before[1:3] - 1).all()


# ---------------------------------------------------------------- BB-6 Transform
def test_BB_6_1_and_6_6_transform_picks_a_weapon_that_resolves_normally_and_both_go_to_the_used_pile():
    s = K.scene(3, G3B, echoes=9, forced=(G0,))
    K.play(s, plays("transform", "hunters_dream", "hunters_dream") | {0: {"play": "transform",
                                                                          "transform": "hunter_axe"}})
    evs = K.events(s)
    assert K.first(evs, "transform", seat=0)["card_id"] == "hunter_axe"
    assert K.first(evs, "attack", seat=0)["card_id"] == "hunter_axe" and s.hunters[0, L.H_COLLECTED] == 2
    assert used_of(s, 0) == {"transform": 1, "hunter_axe": 1}
    assert hand_of(s, 0) == {"saw_cleaver": 1, "hunter_pistol": 1, "hunters_dream": 1}
    assert s.hunters[0, L.H_OWNED] == 5


def test_BB_6_2_transform_cannot_pick_the_dream_so_the_hunter_takes_full_damage():
    s = K.scene(3, G3B, echoes=9, forced=(G2,), health={0: 5})
    K.play(s, plays("transform", "saw_cleaver", "saw_cleaver") | {0: {"play": "transform",
                                                                      "transform": "hunters_dream"}})
    evs = K.events(s)
    assert K.first(evs, "transform", seat=0)["card_id"] != "hunters_dream"
    assert t_type(K.first(evs, "transform", seat=0)["card"]) != L.UTILITY
    assert K.first(evs, "wound", seat=0)["damage"] == 2 and s.hunters[0, L.H_HEALTH] == 3  # not halved, no heal
    assert not K.named(evs, "recover", seat=0) and s.hand[0, DREAM] == 1


def t_type(c):
    return K.comp().tables.cards[c, L.C_TYPE]


def test_BB_6_3_a_pistol_chosen_with_transform_is_an_instant_that_clashes_with_other_pistols():
    s = K.scene(3, G3B, echoes=9, forced=(G0,))
    K.play(s, plays("transform", "hunter_pistol", "hunter_axe") | {0: {"play": "transform",
                                                                       "transform": "hunter_pistol"}})
    evs = K.events(s)
    assert sorted(K.order(evs, "clash")) == [0, 1] and not K.named(evs, "instant")
    assert s.hunters[:3, L.H_COLLECTED].tolist() == [0, 0, 2]
    s = K.scene(3, G3B, echoes=9, forced=(G0,))  # alone, it fires in step 3
    K.play(s, plays("transform", "hunter_axe", "hunter_axe") | {0: {"play": "transform",
                                                                    "transform": "hunter_pistol"}})
    evs = K.events(s)
    assert K.first(evs, "instant", seat=0)["taken"] == 1 and not K.named(evs, "attack", seat=0)


def test_BB_6_4_transform_with_no_weapon_in_hand_does_nothing():
    s = K.scene(3, G3B, echoes=9, forced=(G0,), hands={0: ["transform", "hunters_dream"]})
    K.set_used(s, 0, ["saw_cleaver", "hunter_axe", "hunter_pistol"])
    K.play(s, plays("transform", "saw_cleaver", "saw_cleaver"))
    evs = K.events(s)
    assert not K.named(evs, "transform") and not K.named(evs, "attack", seat=0)
    assert hand_of(s, 0) == {"hunters_dream": 1} and s.hunters[0, L.H_COLLECTED] == 0


# ---------------------------------------------------------------- BB-7 Instants
def test_BB_7_1_and_7_2_instants_resolve_from_the_first_player_clockwise_capped_by_echoes_left():
    hands = {h: STARTERS + ["ranged_instant"] for h in range(3)}
    s = K.scene(3, G3B, echoes=3, first=2, forced=(G0,), hands=hands)
    K.play(s, plays("ranged_instant", "saw_cleaver", "ranged_instant"))
    evs = K.events(s)
    assert K.order(evs, "instant") == [2, 0]
    assert s.hunters[:3, L.H_COLLECTED].tolist() == [1, 0, 2]  # seat 2 first takes 2, seat 0 the last 1


def test_BB_7_3_a_hunter_who_dealt_instant_damage_does_not_attack_again_in_step_5():
    s = K.scene(3, G3B, echoes=9, forced=(G0,))
    K.play(s, plays("hunter_pistol", "saw_cleaver", "hunters_dream"))
    evs = K.events(s)
    assert K.order(evs, "instant") == [0] and K.order(evs, "attack") == [1]
    assert s.hunters[0, L.H_COLLECTED] == 1


def test_BB_7_4_two_hunter_pistols_cancel_each_other_by_default():
    s = K.scene(3, G3B, echoes=9, forced=(G0,))
    K.play(s, plays("hunter_pistol", "hunter_pistol", "hunter_axe"))
    evs = K.events(s)
    assert sorted(K.order(evs, "clash")) == [0, 1] and not K.named(evs, "instant")
    assert s.hunters[:3, L.H_COLLECTED].tolist() == [0, 0, 2]


def test_BB_7_5_and_4_3_an_instant_kill_skips_steps_4_to_6_but_not_the_dream_and_the_end_of_round():
    hands = {0: STARTERS + ["ranged_instant"]}
    s = K.scene(3, G3B, echoes=2, forced=(G2,), hands=hands, collected={2: 3}, health={1: 4},
                display=["heavy_melee", "blood_vial", "bank_now"])
    K.play(s, plays("ranged_instant", "hunter_axe", "hunters_dream"))
    evs = K.events(s)
    assert not K.named(evs, "roll") and s.table[L.T_FORCED_NEXT] == 0  # no monster attack
    assert not K.named(evs, "wound") and s.hunters[1, L.H_HEALTH] == 4
    assert not K.named(evs, "attack") and not K.named(evs, "escape")
    assert s.table[L.T_KILLED] == 1 and s.trophies[:3, track("beast")].tolist() == [1, 0, 0]
    assert s.hunters[2, L.H_BANKED] == 3 and s.hand[2, DREAM] == 1  # step 7 happened
    assert s.table[L.T_FIRST] == 1 and s.table[L.T_MONSTER] == dungeon(K.PLAIN)  # step 8 happened


def test_BB_7_5_instants_after_the_killing_one_still_resolve():
    """The kill skips steps 4-6 only: a later Blood Vial still heals, a later Safe passage still banks."""
    hands = {0: STARTERS + ["ranged_instant"], 1: STARTERS + ["blood_vial"], 2: STARTERS + ["bank_now"]}
    s = K.scene(3, G3B, echoes=2, forced=(G0,), hands=hands, health={1: 3}, collected={2: 4})
    K.play(s, plays("ranged_instant", "blood_vial", "bank_now"))
    assert s.table[L.T_KILLED] == 1
    assert s.hunters[1, L.H_HEALTH] == 8
    assert s.hunters[2, L.H_BANKED] == 4 and s.hunters[2, L.H_COLLECTED] == 0


def test_BB_3_8_explain_cites_a_blood_vial_and_a_bank_card_as_instants_and_the_dream_as_BB_11_1():
    """The trace decoder names the rule of each heal and bank by its step (a Blood Vial, an Instant bank: BB-3.8;
    the Dream's: BB-11.1) and of each decision by its hook."""
    hands = {1: STARTERS + ["blood_vial"], 2: STARTERS + ["bank_now"]}
    s = K.scene(3, G3B, echoes=9, forced=(G0,), hands=hands, health={0: 3, 1: 3}, collected={0: 2, 2: 4},
                display=["heavy_melee", "blood_vial", "bank_now"])
    K.play(s, plays("hunters_dream", "blood_vial", "bank_now"))
    evs = trace.events(s.trace[: s.table[L.T_NEV]], K.comp())
    rules = {(e["event"], e["seat"]): e["rule"] for e in evs if e["event"] in ("heal", "bank")}
    assert rules == {("heal", 1): "BB-3.8", ("bank", 2): "BB-3.8", ("heal", 0): "BB-11.1", ("bank", 0): "BB-11.1"}
    decisions = {e["hook"]: e["rule"] for e in evs if e["event"] == "decision"}
    assert decisions == {"play": "BB-5.1", "upgrade": "BB-11.1"}


def test_BB_7_cancel_melee_stops_the_chosen_hunters_melee_attack():
    hands = {0: STARTERS + ["ranged_interrupt"]}
    s = K.scene(3, G3B, echoes=9, forced=(G0,), hands=hands)
    K.play(s, plays("ranged_interrupt", "hunter_axe", "saw_cleaver") | {0: {"play": "ranged_interrupt",
                                                                            "cancel": 2}})
    evs = K.events(s)
    assert K.first(evs, "cancel", seat=0)["target"] == 2
    assert K.order(evs, "attack") == [1] and s.hunters[:3, L.H_COLLECTED].tolist() == [1, 2, 0]


# ---------------------------------------------------------------- BB-8 Monster attack
def test_BB_8_1_one_shared_roll_hits_every_hunter():
    s = K.scene(3, G3B, echoes=9, forced=(G2, G0, G0))
    K.play(s, plays("saw_cleaver", "hunter_axe", "hunter_pistol"))
    evs = K.events(s)
    assert len(K.named(evs, "roll")) == 1 and s.table[L.T_FORCED_NEXT] == 1
    assert [e["damage"] for e in K.named(evs, "wound")] == [2, 2, 2]
    assert s.hunters[:3, L.H_HEALTH].tolist() == [6, 6, 6] and s.table[L.T_ROLL] == 2


@pytest.mark.parametrize(("faces", "total"), [((R2C, R0), 2), ((R1C, R2C, R3), 6), ((R3,), 3)])
def test_BB_8_2_a_combo_face_adds_its_value_and_rolls_again(faces, total):
    s = K.scene(3, "scourge_beast", echoes=9, forced=faces)
    K.play(s, plays("saw_cleaver", "saw_cleaver", "saw_cleaver"))
    assert K.first(K.events(s), "roll")["rolled"] == total and s.table[L.T_FORCED_NEXT] == len(faces)
    assert s.hunters[:3, L.H_HEALTH].tolist() == [8 - total] * 3


@pytest.mark.parametrize(("roll", "halved"), [(Y3, 1), (Y1, 0)])
def test_BB_8_3_dream_hunter_takes_half_the_roll_rounded_down(roll, halved):
    s = K.scene(3, "monster_yellow_3_beast", echoes=9, forced=(roll,))
    K.play(s, plays("hunters_dream", "saw_cleaver", "hunter_axe"))
    evs = K.events(s)
    full = K.first(evs, "roll")["damage"]
    assert [e["damage"] for e in K.named(evs, "wound", seat=1)] == [full]
    assert [e["damage"] for e in K.named(evs, "wound", seat=0)] == ([halved] if halved else [])


def test_BB_8_3_a_dream_hunter_can_still_die_from_the_halved_damage():
    s = K.scene(3, "scourge_beast", echoes=9, forced=(face("red", 4),), health={0: 2})
    K.play(s, plays("hunters_dream", "saw_cleaver", "hunter_axe"))
    assert s.hunters[0, L.H_DEATHS] == 1 and K.first(K.events(s), "wound", seat=0)["damage"] == 2


def test_BB_8_4_a_protecting_card_takes_no_monster_damage():
    hands = {0: STARTERS + ["ranged_guard"]}
    s = K.scene(3, G3B, echoes=9, forced=(G2,), hands=hands)
    K.play(s, plays("ranged_guard", "saw_cleaver", "hunter_axe"))
    assert s.hunters[:3, L.H_HEALTH].tolist() == [8, 6, 6]
    assert not K.named(K.events(s), "wound", seat=0)


def test_BB_8_5_a_hunter_at_0_health_is_dead_and_does_not_attack():
    s = K.scene(3, G3B, echoes=9, forced=(G2,), health={0: 2, 1: 3})
    K.play(s, plays("hunter_axe", "saw_cleaver", "hunters_dream"))
    evs = K.events(s)
    assert K.order(evs, "death") == [0] and K.order(evs, "attack") == [1]
    assert s.hunters[0, L.H_COLLECTED] == 0 and s.hunters[0, L.H_DEATHS] == 1


def test_BB_8_6_a_dead_hunter_loses_collected_echoes_but_keeps_banked_and_trophies():
    s = K.scene(3, G3B, echoes=9, forced=(G1,), health={0: 1}, collected={0: 5}, banked={0: 3})
    K.set_trophies(s, 0, {"kin": 2})
    total, reserve = K.echo_total(s), int(s.table[L.T_RESERVE])
    K.play(s, plays("hunter_axe", "hunters_dream", "hunters_dream"))
    assert s.hunters[0, L.H_COLLECTED] == 0 and s.hunters[0, L.H_BANKED] == 3
    assert s.trophies[0, track("kin")] == 2
    assert K.first(K.events(s), "death", seat=0)["lost"] == 5
    assert s.table[L.T_RESERVE] == reserve + 5 + 9 - 3  # + 5 lost, + 9 escaped, - 3 onto the next card
    assert K.echo_total(s) == total


def test_BB_8_7_and_8_8_a_dead_hunter_revives_at_8_and_takes_one_upgrade():
    s = K.scene(3, G3B, echoes=9, forced=(G2,), health={0: 1}, display=["heavy_melee", "blood_vial", "bank_now"])
    K.play(s, plays("hunter_axe", "saw_cleaver", "saw_cleaver") | {0: {"play": "hunter_axe", "upgrade": 2}})
    assert s.hunters[0, L.H_HEALTH] == 8 and s.hunters[0, L.H_UPGRADES] == 1
    assert s.hand[0, card("bank_now")] == 1 and s.hunters[0, L.H_OWNED] == 6
    assert s.hunters[1, L.H_UPGRADES] == 0 and s.hunters[1, L.H_HEALTH] == 6


# ---------------------------------------------------------------- BB-9 Hunters attack
def test_BB_9_1_hunters_attack_from_the_first_player_clockwise():
    s = K.scene(3, G3B, echoes=9, first=1, forced=(G0,))
    K.play(s, plays("saw_cleaver", "hunter_axe", "saw_cleaver"))
    evs = K.events(s)
    assert K.order(evs, "attack") == [1, 2, 0]
    assert [e["left"] for e in K.named(evs, "attack")] == [7, 6, 5]


def test_BB_9_2_damage_is_capped_by_the_echoes_left_on_the_monster():
    """Three axes (2 each) on 3 echoes from seat 0: 2, 1, then nothing (never 2, 2, 2 or more than 3)."""
    s = K.scene(3, G3B, echoes=3, forced=(G0,))
    total = K.echo_total(s)
    K.play(s, plays("hunter_axe", "hunter_axe", "hunter_axe"))
    assert s.hunters[:3, L.H_COLLECTED].tolist() == [2, 1, 0] and K.echo_total(s) == total


def test_BB_9_3_and_9_4_the_kill_gives_a_trophy_to_everyone_who_dealt_damage_this_round():
    """Seat 0's instant and seat 1's attack both count; seat 2 (nothing left) and the Dream hunter do not."""
    s = K.scene(4, G3B, echoes=3, forced=(G0,), display=["heavy_melee"] * 4)
    K.play(s, plays("hunter_pistol", "hunter_axe", "saw_cleaver", "hunters_dream"))
    beast = track("beast")
    assert s.trophies[:4, beast].tolist() == [1, 1, 0, 0] and s.trophies[:4].sum() == 2
    assert s.hunters[:4, L.H_TROPHIES].tolist() == [1, 1, 0, 0]
    assert s.hunters[:4, L.H_BONUS].tolist() == [1, 1, 0, 0]  # BB-13.3: 1 trophy = 1 echo
    assert s.table[L.T_KILLED] == 1 and s.table[L.T_ESCAPED] == 0
    assert s.table[L.T_MONSTER] == dungeon(K.PLAIN)  # removed; the next card is revealed


def test_BB_9_4_a_boss_gives_trophies_only_for_damage_in_the_killing_round():
    s = K.scene(3, "boss_yellow_6_beast", forced=(Y0, Y0), display=["heavy_melee"] * 3)
    K.play(s, plays("hunter_axe", "hunters_dream", "hunters_dream"))
    assert s.table[L.T_ECHOES] == 4
    K.play(s, plays("hunters_dream", "hunter_axe", "hunter_axe"))
    assert s.table[L.T_KILLED] == 1
    assert s.trophies[:3, track("beast")].tolist() == [0, 1, 1]


def test_BB_9_5_and_3_5_a_surviving_boss_keeps_its_damage_and_stays():
    s = K.scene(3, "boss_red_7_kin", forced=(R0, R0))
    deck_next = int(s.table[L.T_DECK_NEXT])
    K.play(s, plays("hunter_axe", "saw_cleaver", "hunter_pistol"))
    assert s.table[L.T_MONSTER] == dungeon("boss_red_7_kin") and s.table[L.T_ECHOES] == 7 - 4
    assert s.table[L.T_ESCAPED] == 0 and s.table[L.T_DECK_NEXT] == deck_next
    assert not K.named(K.events(s), "reveal") and not K.named(K.events(s), "escape")
    K.play(s, plays("hunters_dream", "hunters_dream", "hunter_axe"))
    assert s.table[L.T_MONSTER] == dungeon("boss_red_7_kin") and s.table[L.T_ECHOES] == 1  # not refilled


# ---------------------------------------------------------------- BB-10 Escape
def test_BB_10_1_and_10_3_a_surviving_monster_escapes_without_trophies_its_echoes_back_to_the_reserve():
    s = K.scene(3, "monster_green_4_kin", forced=(G0,))
    total, reserve = K.echo_total(s), int(s.table[L.T_RESERVE])
    K.play(s, plays("saw_cleaver", "hunters_dream", "hunters_dream"))
    assert s.table[L.T_ESCAPED] == 1 and s.table[L.T_KILLED] == 0 and s.trophies.sum() == 0
    assert K.first(K.events(s), "escape")["returned"] == 3 and s.hunters[0, L.H_COLLECTED] == 1
    assert s.table[L.T_RESERVE] == reserve + 3 - 3  # 3 back, then 3 onto the next card
    assert s.table[L.T_MONSTER] == dungeon(K.PLAIN) and K.echo_total(s) == total


def test_BB_10_2_an_on_escape_ability_fires_when_the_monster_escapes():
    s = K.scene(3, "monster_yellow_4_beast", forced=(Y0,))
    K.play(s, plays("saw_cleaver", "saw_cleaver", "saw_cleaver"))
    assert s.table[L.T_ESCAPED] == 1 and s.hunters[:3, L.H_HEALTH].tolist() == [6, 6, 6]
    s = K.scene(3, "monster_yellow_4_beast", echoes=3, forced=(Y0,))  # killed: no escape, no damage
    K.play(s, plays("saw_cleaver", "saw_cleaver", "saw_cleaver"))
    assert s.table[L.T_KILLED] == 1 and s.hunters[:3, L.H_HEALTH].tolist() == [8, 8, 8]


def test_BB_10_4_the_final_boss_never_escapes():
    s = K.scene(3, "final_boss_1", forced=(R0,))
    K.play(s, plays("saw_cleaver", "saw_cleaver", "saw_cleaver"))
    assert s.table[L.T_MONSTER] == dungeon("final_boss_1") and s.table[L.T_ECHOES] == 7
    assert s.table[L.T_ESCAPED] == 0 and s.table[L.T_OVER] == L.OVER_RUNNING


# ---------------------------------------------------------------- BB-11 Hunter's Dream
def test_BB_11_1_and_11_2_the_dream_banks_recovers_heals_and_upgrades_in_that_order():
    s = K.scene(3, G3B, echoes=9, forced=(G2,), health={0: 3}, collected={0: 4},
                hands={0: ["hunter_pistol", "transform", "hunters_dream"]},
                display=["heavy_melee", "blood_vial", "bank_now"])
    K.set_used(s, 0, ["hunter_axe", "saw_cleaver"])
    refill = int(s.updeck[s.table[L.T_UPDECK_NEXT]])
    K.play(s, {0: {"play": "hunters_dream", "upgrade": 1}, 1: {"play": "saw_cleaver"}, 2: {"play": "hunter_axe"}})
    assert s.hunters[0, L.H_BANKED] == 4 and s.hunters[0, L.H_COLLECTED] == 0
    assert hand_of(s, 0) == {x: 1 for x in STARTERS} | {"blood_vial": 1} and s.used[0].sum() == 0
    assert s.hunters[0, L.H_HEALTH] == 8 and s.hunters[0, L.H_OWNED] == 6
    assert s.display[:3].tolist() == [card("heavy_melee"), refill, card("bank_now")]  # BB-12.2 refill
    mine = [e["event"] for e in K.events(s) if e["seat"] == 0 and e["event"] in ("bank", "recover", "heal",
                                                                                  "upgrade")]
    assert mine == ["bank", "recover", "heal", "upgrade"]


def test_BB_11_3_only_the_dream_takes_the_used_pile_back():
    s = K.scene(3, G3B, echoes=9, forced=(G0, Y0))
    K.play(s, plays("hunter_axe", "saw_cleaver", "hunters_dream"))
    K.play(s, plays("saw_cleaver", "hunter_axe", "hunter_axe"))
    assert used_of(s, 0) == {"hunter_axe": 1, "saw_cleaver": 1}
    assert used_of(s, 1) == {"hunter_axe": 1, "saw_cleaver": 1}
    assert used_of(s, 2) == {"hunter_axe": 1}


def test_BB_11_4_a_dream_hunter_who_died_recovers_but_does_not_bank():
    s = K.scene(3, G3B, echoes=9, forced=(G2,), health={0: 1}, collected={0: 3}, banked={0: 2},
                display=["heavy_melee", "blood_vial", "bank_now"])
    K.set_used(s, 0, ["hunter_axe"])
    K.set_hand(s, 0, ["saw_cleaver", "hunter_pistol", "transform", "hunters_dream"])
    total = K.echo_total(s)
    K.play(s, plays("hunters_dream", "saw_cleaver", "saw_cleaver"))
    assert s.hunters[0, L.H_DEATHS] == 1
    assert s.hunters[0, L.H_BANKED] == 2 and s.hunters[0, L.H_COLLECTED] == 0
    assert s.used[0].sum() == 0 and s.hand[0, AXE] == 1 and s.hand[0, DREAM] == 1
    assert s.hunters[0, L.H_UPGRADES] == 1  # BB-11.5: one upgrade in all
    assert s.hunters[0, L.H_HEALTH] == 8 and K.echo_total(s) == total


def test_BB_11_5_dead_hunters_keep_their_used_pile_and_pick_upgrades_from_the_first_player_clockwise():
    s = K.scene(3, G3B, echoes=9, first=1, forced=(G2,), health={0: 1, 1: 1},
                display=["heavy_melee", "blood_vial", "bank_now"])
    for h in (0, 1):
        K.set_used(s, h, ["hunter_axe"])
        K.set_hand(s, h, ["saw_cleaver", "hunter_pistol", "transform", "hunters_dream"])
    K.play(s, {h: {"play": c, "upgrade": 0} for h, c in enumerate(["saw_cleaver", "saw_cleaver", "hunters_dream"])})
    evs = K.events(s)
    assert [(e["seat"], e["card_id"]) for e in K.named(evs, "upgrade")] == [
        (1, "heavy_melee"), (2, "blood_vial"), (0, "bank_now")]
    for h in (0, 1):
        assert used_of(s, h) == {"hunter_axe": 1, "saw_cleaver": 1} and s.hand[h, AXE] == 0
        assert s.hunters[h, L.H_UPGRADES] == 1 and s.hunters[h, L.H_HEALTH] == 8


def test_BB_11_5_a_dead_hunter_with_an_extra_upgrade_card_takes_both_upgrades():
    """Insight: "take 1 extra Available Upgrade" (one on top of any taken in step 7): dying gives one, so a
    dead Insight player takes two; the one-in-all default of BB-11.5 is for the Hunter's Dream."""
    s = K.scene(3, G3B, echoes=9, forced=(G2,), health={0: 1}, hands={0: STARTERS + ["extra_upgrade"]},
                display=["heavy_melee", "blood_vial", "bank_now"])
    K.play(s, plays("extra_upgrade", "saw_cleaver", "saw_cleaver"))
    assert s.hunters[0, L.H_DEATHS] == 1 and s.hunters[0, L.H_UPGRADES] == 2
    s = K.scene(3, G3B, echoes=9, forced=(G0,), hands={0: STARTERS + ["extra_upgrade"]},
                display=["heavy_melee", "blood_vial", "bank_now"])
    K.play(s, plays("extra_upgrade", "saw_cleaver", "saw_cleaver"))  # alive: just the one
    assert s.hunters[0, L.H_UPGRADES] == 1 and s.hunters[0, L.H_BANKED] == 0 and s.used[0, card("extra_upgrade")]


def test_BB_11_7_above_7_cards_the_hunter_discards_cards_of_its_choice_out_of_the_game():
    hand = STARTERS + ["heavy_melee", "ranged_instant"]
    s = K.scene(3, G3B, echoes=9, forced=(G0,), hands={0: hand}, display=["blood_vial", "bank_now", "heavy_melee"])
    K.play(s, {0: {"play": "hunters_dream", "discard": "saw_cleaver"}, 1: {"play": "hunter_axe"}})
    assert s.hand[0].sum() == 7 and s.hand[0, CLEAVER] == 0 and s.used[0, CLEAVER] == 0
    assert s.hand[0, card("blood_vial")] == 1
    assert s.hunters[0, L.H_OWNED] == 7 and s.hunters[0, L.H_DISCARDED] == 1
    assert K.first(K.events(s), "discard", seat=0)["card_id"] == "saw_cleaver"


def test_BB_11_7_the_last_dream_cannot_be_discarded():
    hand = STARTERS + ["heavy_melee", "ranged_instant"]
    s = K.scene(3, G3B, echoes=9, forced=(G0,), hands={0: hand}, display=["blood_vial", "bank_now", "heavy_melee"])
    K.play(s, {0: {"play": "hunters_dream", "discard": "hunters_dream"}})
    assert s.hand[0, DREAM] == 1 and s.hand[0].sum() == 7 and s.hunters[0, L.H_DISCARDED] == 1


# ---------------------------------------------------------------- BB-12 End of round
def test_BB_12_1_played_cards_go_to_the_used_pile():
    s = K.scene(3, G3B, echoes=9, forced=(G0,))
    K.play(s, plays("saw_cleaver", "hunter_pistol", "transform") | {2: {"play": "transform",
                                                                        "transform": "hunter_axe"}})
    assert [used_of(s, h) for h in range(3)] == [{"saw_cleaver": 1}, {"hunter_pistol": 1},
                                                 {"transform": 1, "hunter_axe": 1}]
    assert (s.hunters[:3, L.H_PLAYED] == -1).all() and (s.hunters[:3, L.H_WEAPON] == -1).all()
    assert (s.hand[:3].sum(axis=1) + s.used[:3].sum(axis=1) == s.hunters[:3, L.H_OWNED]).all()


def test_BB_12_2_the_display_is_refilled_to_one_per_hunter():
    s = K.scene(4, G3B, echoes=9, forced=(G0,), display=["heavy_melee", "blood_vial", "bank_now", "heavy_melee"])
    nxt = int(s.table[L.T_UPDECK_NEXT])
    K.play(s, plays("hunters_dream", "hunters_dream", "saw_cleaver", "saw_cleaver"))
    assert (s.display[:4] >= 0).all() and s.table[L.T_UPDECK_NEXT] == nxt + 2
    s.table[L.T_UPDECK_NEXT] = 32  # the deck is empty: play on with fewer
    K.play(s, plays("saw_cleaver", "saw_cleaver", "hunters_dream", "hunters_dream"))
    assert (s.display[:4] >= 0).sum() == 2


def test_BB_12_3_after_the_ten_dungeon_cards_the_final_boss_is_revealed_with_its_bonus():
    s = K.scene(5, G3B, echoes=1, forced=(G0,))
    s.table[L.T_DECK_NEXT] = L.DECK_SIZE
    fb = int(s.table[L.T_FINAL])
    K.play(s, plays(*["saw_cleaver"] * 5))
    assert s.table[L.T_MONSTER] == fb and s.table[L.T_MONSTER_CLASS] == L.FINAL_BOSS
    assert s.table[L.T_ECHOES] == K.comp().tables.dungeon[fb, L.DG_HEALTH] + 2


@pytest.mark.parametrize(("first", "after"), [(0, 1), (2, 0)])
def test_BB_12_4_the_first_player_token_passes_to_the_left(first, after):
    s = K.scene(3, G3B, echoes=9, first=first, forced=(G0, G0))
    K.play(s, plays("saw_cleaver", "saw_cleaver", "saw_cleaver"))
    assert s.table[L.T_FIRST] == after
    K.play(s, plays("hunter_axe", "hunter_axe", "hunter_axe"))
    assert s.table[L.T_FIRST] == (after + 1) % 3 and K.named(K.events(s), "attack", round=2)[0]["seat"] == after


def test_BB_12_5_and_4_2_killing_the_final_boss_ends_the_game():
    s = K.scene(3, "final_boss_2", echoes=3, first=1, forced=(R0,))
    out = K.play(s, plays("hunter_axe", "saw_cleaver", "hunters_dream"))
    assert s.table[L.T_OVER] == L.OVER_FINAL_BOSS_DEAD and out[L.OUT_OVER] == L.OVER_FINAL_BOSS_DEAD
    assert s.table[L.T_FIRST] == 1 and not K.named(K.events(s), "reveal")  # no step 8 reveal or pass
    assert out[L.OUT_ROUNDS] == 1 and out[L.OUT_KILLED] == 1
    assert s.trophies[:3, track("kin")].tolist() == [1, 1, 0]  # BB-13.5: its printed type


def test_BB_12_5_the_game_goes_on_while_the_final_boss_lives():
    s = K.scene(3, "final_boss_2", echoes=9, forced=(R0,))
    out = K.play(s, plays("hunter_axe", "saw_cleaver", "hunters_dream"))
    assert s.table[L.T_OVER] == L.OVER_RUNNING and (out == 0).all()


# ---------------------------------------------------------------- BB-13 Scoring
def finale(collected=None, banked=None, trophies=None, variants=None, killer_echoes=0):
    """A 3-hunter table where seat 0's pistol takes the Final Boss's last echo in step 3 (1 beast trophy);
    everyone's echoes and trophies hand-set. Returns (state, outcome row)."""
    s = K.scene(3, "final_boss_1", echoes=1, forced=(R0,), collected=collected, banked=banked, variants=variants)
    for h, counts in (trophies or {}).items():
        K.set_trophies(s, h, counts)
    out = K.play(s, plays("hunter_pistol", "saw_cleaver", "saw_cleaver"))
    assert s.table[L.T_OVER] == L.OVER_FINAL_BOSS_DEAD
    return s, out


def scores(out):
    return out[L.OUT_SEAT + L.S_SCORE * L.MAX_HUNTERS: L.OUT_SEAT + L.S_SCORE * L.MAX_HUNTERS + 3].tolist()


def wins(out):
    return out[L.OUT_SEAT + L.S_WIN * L.MAX_HUNTERS: L.OUT_SEAT + L.S_WIN * L.MAX_HUNTERS + 3].tolist()


def test_BB_13_1_and_13_3_score_is_banked_plus_collected_plus_trophy_bonuses():
    """Triangular bonuses per track (placeholder data): 3 kin = 6, 1 beast + 1 humanoid = 2; seat 0's kill
    adds 1 echo and a 2nd beast trophy (1 → 3 points)."""
    s, out = finale(collected={0: 2, 1: 1, 2: 4}, banked={0: 1, 1: 3, 2: 5},
                    trophies={0: {"beast": 1}, 1: {"kin": 3}, 2: {"beast": 1, "humanoid": 1}})
    assert scores(out) == [1 + 3 + 3, 3 + 1 + 6, 5 + 4 + 2]
    assert out[L.OUT_WINNER] == 2 and wins(out) == [0, 0, 1]
    assert out[L.OUT_SEAT + L.S_TROPHIES * L.MAX_HUNTERS] == 2
    assert K.first(K.events(s), "end")["seat"] == 2  # the winner


def test_BB_13_4_a_tie_goes_to_more_banked_echoes_then_is_shared():
    _, out = finale(collected={1: 0, 2: 5}, banked={1: 10, 2: 5})
    assert scores(out) == [1 + 1, 10, 10] and out[L.OUT_WINNER] == 1 and wins(out) == [0, 1, 0]
    _, out = finale(collected={1: 2, 2: 2}, banked={1: 8, 2: 8})
    assert out[L.OUT_WINNER] == -1 and wins(out) == [0, 1, 1]


def test_BB_13_5_the_final_boss_trophy_multiplier_scales_its_kill_trophies():
    tables = K.edited(dungeon={"final_boss_1": {L.DG_GAME_TROPHY_MULT: 2}})
    s = K.scene(3, "final_boss_1", echoes=1, forced=(R0,))
    s.table[L.T_FINAL] = dungeon("final_boss_1")
    K.play(s, plays("hunter_pistol", "saw_cleaver", "saw_cleaver"), tables=tables)
    assert s.trophies[0, track("beast")] == 2 and s.hunters[0, L.H_BONUS] == 3
