"""Every Bloodborne rule variant (``dsim.games.bloodborne.variants.VARIANTS``) on a hand-placed table: the
default reading does the default, each other reading changes exactly what it should.

Test names start with ``test_<variant id>_``; :func:`test_every_variant_has_a_placed_test` checks that none
is missing.
"""

from __future__ import annotations

import numpy as np
import pytest

from dsim.games.bloodborne import engine
from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.variants import VARIANTS
from dsim.policy import compiled
from policies.bloodborne import random_legal
from tests.bloodborne import kit as K
from tests.bloodborne.kit import card, dungeon, face, track

G3B = "monster_green_3_beast"
G0, G2 = face("green", 0), face("green", 2)
R0 = face("red", 0)
STARTERS = ["saw_cleaver", "hunter_axe", "hunter_pistol", "transform", "hunters_dream"]
UPGRADES3 = ["heavy_melee", "blood_vial", "bank_now"]


def plays(*cards):
    return {h: {"play": c} for h, c in enumerate(cards)}


def seat_block(out, field, n=3):
    base = L.OUT_SEAT + field * L.MAX_HUNTERS
    return out[base: base + n].tolist()


def test_every_variant_has_a_placed_test():
    names = [name for name in globals() if name.startswith("test_")]
    missing = [v.id for v in VARIANTS.variants if not any(n.startswith(f"test_{v.id}_") for n in names)]
    assert not missing


# ---------------------------------------------------------------- BB-1.2
def test_echo_pool_finite_75_gives_a_revealed_card_only_what_is_left_in_the_reserve():
    t = K.comp().tables
    s = engine.setup_game(t, K.POLICIES, K.script(3), K.variants(echo_pool="finite_75"), 3, seed=1)
    assert s.table[L.T_RESERVE] == 75 - s.table[L.T_ECHOES]
    s = engine.setup_game(t, K.POLICIES, K.script(3), K.variants(), 3, seed=1)
    assert s.table[L.T_RESERVE] == L.UNLIMITED_POOL - s.table[L.T_ECHOES]
    s = K.scene(3, G3B, echoes=1, forced=(G0,), deck=["boss_red_7_beast"], variants={"echo_pool": "finite_75"})
    assert K.echo_total(s) == 75
    s.hunters[1, L.H_BANKED] += int(s.table[L.T_RESERVE]) - 2  # all but 2 echoes are with the hunters
    s.table[L.T_RESERVE] = 2
    K.play(s, plays("hunter_axe", "saw_cleaver", "saw_cleaver"))
    assert s.table[L.T_MONSTER] == dungeon("boss_red_7_beast") and s.table[L.T_ECHOES] == 2  # not 7
    assert s.table[L.T_RESERVE] == 0 and K.echo_total(s) == 75
    s = K.scene(3, G3B, echoes=1, forced=(G0,), deck=["boss_red_7_beast"])  # unlimited: the printed health
    K.play(s, plays("hunter_axe", "saw_cleaver", "saw_cleaver"))
    assert s.table[L.T_ECHOES] == 7 and K.echo_total(s) == L.UNLIMITED_POOL


def test_echo_pool_finite_75_a_dry_reserve_leaves_nothing_to_fight_and_the_card_goes_without_trophies():
    s = K.scene(3, G3B, echoes=1, forced=(G0,), variants={"echo_pool": "finite_75"})
    s.hunters[2, L.H_BANKED] += int(s.table[L.T_RESERVE])
    s.table[L.T_RESERVE] = 0
    K.play(s, plays("hunter_axe", "saw_cleaver", "saw_cleaver"))
    assert s.table[L.T_OVER] == L.OVER_FINAL_BOSS_DEAD  # every later card, the Final Boss too, got 0 echoes
    assert s.trophies[:3].sum() == 1 and s.table[L.T_KILLED] == 1 + 9 + 1


# ---------------------------------------------------------------- BB-7.4
@pytest.mark.parametrize(("reading", "fired", "clashed"), [
    ("mutual_cancel", [], [2, 0]),
    ("transform_cancels", [], [2, 0]),  # both played in step 1, at the same moment: they cancel each other
    ("none", [2, 0], []),
])
def test_pistol_clash_readings(reading, fired, clashed):
    s = K.scene(3, G3B, echoes=9, first=1, forced=(G0,), variants={"pistol_clash": reading})
    K.play(s, plays("hunter_pistol", "hunter_axe", "hunter_pistol"))
    evs = K.events(s)
    assert K.order(evs, "instant") == fired and K.order(evs, "clash") == clashed
    assert [s.hunters[h, L.H_COLLECTED] for h in (0, 2)] == [int(0 in fired), int(2 in fired)]


@pytest.mark.parametrize(("reading", "fired", "clashed"), [
    ("transform_cancels", [0], [1]),  # seed L69: Henryk's Transform pistol cancels Eileen's and fires
    ("mutual_cancel", [], [0, 1]),
])
def test_pistol_clash_transform_cancels_follows_the_seed_example_L69(reading, fired, clashed):
    """Henryk, the first player (seat 0, seed L82), picks his Hunter Pistol through Transform; Eileen (seat 1)
    played hers in step 1; Ludwig (seat 2) his Hunter Axe."""
    s = K.scene(3, G3B, echoes=9, first=0, forced=(G0,), variants={"pistol_clash": reading})
    K.play(s, plays("transform", "hunter_pistol", "hunter_axe") | {0: {"play": "transform",
                                                                       "transform": "hunter_pistol"}})
    evs = K.events(s)
    assert K.order(evs, "instant") == fired and K.order(evs, "clash") == clashed
    assert s.hunters[:3, L.H_COLLECTED].tolist() == [len(fired), 0, 2]


def test_pistol_clash_no_reading_reverses_the_seed_example_and_none_says_it_is_a_house_rule():
    clash = VARIANTS.by_id["pistol_clash"]
    assert "last_cancels" not in clash.readings
    assert "house rule" in dict(zip(clash.readings, clash.reading_docs))["none"]


# ---------------------------------------------------------------- BB-7.5
@pytest.mark.parametrize(("reading", "trophies"), [("as_kill", [1, 1, 0]), ("none", [0, 0, 0])])
def test_instant_kill_trophies_readings(reading, trophies):
    hands = {h: STARTERS + ["ranged_instant"] for h in range(3)}
    s = K.scene(3, G3B, echoes=3, forced=(G0,), hands=hands, variants={"instant_kill_trophies": reading})
    K.play(s, plays("ranged_instant", "ranged_instant", "hunter_axe"))
    assert s.table[L.T_KILLED] == 1 and s.hunters[:3, L.H_COLLECTED].tolist() == [2, 1, 0]
    assert s.trophies[:3, track("beast")].tolist() == trophies


def test_instant_kill_trophies_none_leaves_step_5_kills_alone():
    s = K.scene(3, G3B, echoes=3, forced=(G0,), variants={"instant_kill_trophies": "none"})
    K.play(s, plays("hunter_axe", "hunter_axe", "hunters_dream"))
    assert s.trophies[:3, track("beast")].tolist() == [1, 1, 0]


# ---------------------------------------------------------------- BB-9.4
@pytest.mark.parametrize(("reading", "trophies"), [("no_trophy", [1, 1, 0, 0]), ("trophy", [1, 1, 1, 0])])
def test_zero_damage_trophy_readings(reading, trophies):
    """Seed L87-L88: trophies go to hunters who dealt damage (the echoes taken); ``trophy`` is a house rule."""
    docs = dict(zip(VARIANTS.by_id["zero_damage_trophy"].readings, VARIANTS.by_id["zero_damage_trophy"].reading_docs))
    assert docs["trophy"].startswith("house rule") and "house rule" not in docs["no_trophy"]
    """Axes from seat 0 on 3 echoes: 2, 1, then seat 2 attacks for 0; seat 3 dreams (no weapon, no trophy)."""
    s = K.scene(4, G3B, echoes=3, forced=(G0,), variants={"zero_damage_trophy": reading}, display=["heavy_melee"] * 4)
    K.play(s, plays("hunter_axe", "hunter_axe", "hunter_axe", "hunters_dream"))
    assert s.hunters[:4, L.H_COLLECTED].tolist() == [2, 1, 0, 0]
    assert s.trophies[:4, track("beast")].tolist() == trophies


def test_zero_damage_trophy_trophy_does_not_reward_a_cancelled_hunter():
    hands = {0: STARTERS + ["ranged_interrupt"]}
    s = K.scene(3, G3B, echoes=2, forced=(G0,), hands=hands, variants={"zero_damage_trophy": "trophy"})
    K.play(s, {0: {"play": "ranged_interrupt", "cancel": 2}, 1: {"play": "saw_cleaver"}, 2: {"play": "hunter_axe"}})
    assert s.trophies[:3, track("beast")].tolist() == [1, 1, 0]


# ---------------------------------------------------------------- BB-9.4 count
@pytest.mark.parametrize(("setting", "printed", "expected"), [(0, 1, 1), (0, 2, 2), (3, 1, 3), (3, 2, 3)])
def test_trophies_per_kill_printed_count_or_a_fixed_number(setting, printed, expected):
    tables = K.edited(dungeon={G3B: {L.DG_TROPHIES: printed}})
    s = K.scene(3, G3B, echoes=2, forced=(G0,), variants={"trophies_per_kill": setting})
    K.play(s, plays("hunter_axe", "hunters_dream", "hunters_dream"), tables=tables)
    assert s.trophies[0, track("beast")] == expected and s.hunters[0, L.H_TROPHIES] == expected


# ---------------------------------------------------------------- BB-11.5
@pytest.mark.parametrize("reading", ["no", "yes"])
def test_dead_recover_used_readings(reading):
    s = K.scene(3, G3B, echoes=9, forced=(G2,), health={0: 1}, display=UPGRADES3,
                variants={"dead_recover_used": reading})
    K.set_hand(s, 0, ["saw_cleaver", "hunter_pistol", "transform", "hunters_dream"])
    K.set_used(s, 0, ["hunter_axe"])
    K.play(s, plays("saw_cleaver", "hunter_axe", "hunter_axe"))
    assert s.hunters[0, L.H_DEATHS] == 1
    axe, cleaver = card("hunter_axe"), card("saw_cleaver")
    if reading == "no":
        assert s.used[0, axe] == 1 and s.hand[0, axe] == 0
    else:
        assert s.used[0, axe] == 0 and s.hand[0, axe] == 1
    assert s.used[0, cleaver] == 1  # this round's card goes to the used pile either way (BB-12.1)
    assert s.hand[0].sum() + s.used[0].sum() == s.hunters[0, L.H_OWNED] == 6


def test_dead_recover_used_yes_does_not_touch_living_hunters():
    s = K.scene(3, G3B, echoes=9, forced=(G0,), variants={"dead_recover_used": "yes"})
    K.set_hand(s, 0, ["saw_cleaver", "hunter_pistol", "transform", "hunters_dream"])
    K.set_used(s, 0, ["hunter_axe"])
    K.play(s, plays("saw_cleaver", "hunter_axe", "hunter_axe"))
    assert s.used[0, card("hunter_axe")] == 1


@pytest.mark.parametrize(("reading", "ups"), [("one", 1), ("two", 2)])
def test_dead_dream_upgrades_readings(reading, ups):
    s = K.scene(3, G3B, echoes=9, forced=(G2,), health={0: 1}, display=UPGRADES3,
                variants={"dead_dream_upgrades": reading})
    K.play(s, plays("hunters_dream", "saw_cleaver", "saw_cleaver"))
    assert s.hunters[0, L.H_DEATHS] == 1 and s.hunters[0, L.H_UPGRADES] == ups
    assert s.hunters[1, L.H_UPGRADES] == 0  # the living non-Dream hunters take none either way


# ---------------------------------------------------------------- BB-11.8
@pytest.mark.parametrize("cost", [0, 2])
def test_upgrade_cost_pays_banked_echoes_or_takes_nothing(cost):
    s = K.scene(3, G3B, echoes=9, forced=(G0,), banked={0: 5, 1: 1}, collected={0: 1}, display=UPGRADES3,
                variants={"upgrade_cost": cost})
    total, reserve = K.echo_total(s), int(s.table[L.T_RESERVE])
    K.play(s, plays("hunters_dream", "hunters_dream", "saw_cleaver"))
    if cost == 0:
        assert s.hunters[:2, L.H_UPGRADES].tolist() == [1, 1] and s.hunters[:2, L.H_BANKED].tolist() == [6, 1]
    else:  # seat 0 banks 1 then pays 2; seat 1 cannot pay
        assert s.hunters[:2, L.H_UPGRADES].tolist() == [1, 0] and s.hunters[:2, L.H_BANKED].tolist() == [4, 1]
    escaped = 9 - 1
    assert s.table[L.T_RESERVE] == reserve + cost + escaped - 3 and K.echo_total(s) == total


# ---------------------------------------------------------------- BB-13.2
@pytest.mark.parametrize(("reading", "score"), [("banked_and_collected", 3 + 4 + 1), ("banked_only", 3 + 1)])
def test_score_collected_at_end_readings(reading, score):
    """Seat 0's pistol takes the Final Boss's last echo (1 Collected echo, 1 trophy = 1 point)."""
    s = K.scene(3, "final_boss_1", echoes=1, forced=(R0,), banked={0: 3}, collected={0: 3},
                variants={"score_collected_at_end": reading})
    out = K.play(s, plays("hunter_pistol", "saw_cleaver", "saw_cleaver"))
    assert out[L.OUT_OVER] == L.OVER_FINAL_BOSS_DEAD and seat_block(out, L.S_SCORE)[0] == score
    assert seat_block(out, L.S_COLLECTED)[0] == 4 and seat_block(out, L.S_BANKED)[0] == 3


# ---------------------------------------------------------------- BB-11.1 heal
@pytest.mark.parametrize(("reading", "health"), [("yes", 8), ("no", 4)])
def test_dream_heals_full_readings(reading, health):
    s = K.scene(3, G3B, echoes=9, forced=(G2,), health={0: 5, 1: 5}, display=UPGRADES3,
                variants={"dream_heals_full": reading})
    K.play(s, plays("hunters_dream", "saw_cleaver", "saw_cleaver"))
    assert s.hunters[0, L.H_HEALTH] == health and s.hunters[1, L.H_HEALTH] == 3
    assert s.hunters[0, L.H_UPGRADES] == 1 and s.hand[0, card("hunters_dream")] == 1  # the rest of the Dream holds


def test_dream_heals_full_no_still_revives_the_dead():
    s = K.scene(3, G3B, echoes=9, forced=(G2,), health={0: 1}, display=UPGRADES3, variants={"dream_heals_full": "no"})
    K.play(s, plays("hunters_dream", "saw_cleaver", "saw_cleaver"))
    assert s.hunters[0, L.H_DEATHS] == 1 and s.hunters[0, L.H_HEALTH] == 8


# ---------------------------------------------------------------- BB-12.2
@pytest.mark.parametrize(("reading", "filled"), [("per_round", 3), ("never", 1)])
def test_upgrade_display_refill_readings(reading, filled):
    s = K.scene(3, G3B, echoes=9, forced=(G0,), display=UPGRADES3, variants={"upgrade_display_refill": reading})
    nxt = int(s.table[L.T_UPDECK_NEXT])
    K.play(s, plays("hunters_dream", "hunters_dream", "saw_cleaver"))
    assert (s.display[:3] >= 0).sum() == filled and s.table[L.T_UPDECK_NEXT] == nxt + filled - 1


# ---------------------------------------------------------------- BB-10.3
def test_escaped_echoes_to_reserve_is_the_only_reading_and_returns_them():
    assert VARIANTS.by_id["escaped_echoes_to"].readings == ("reserve",)
    s = K.scene(3, G3B, echoes=9, forced=(G0,), variants={"escaped_echoes_to": "reserve"})
    reserve = int(s.table[L.T_RESERVE])
    K.play(s, plays("saw_cleaver", "hunters_dream", "hunters_dream"))
    assert K.first(K.events(s), "escape")["returned"] == 8 and s.table[L.T_RESERVE] == reserve + 8 - 3


# ---------------------------------------------------------------- BB-11.7
@pytest.mark.parametrize(("limit", "kept", "discarded"), [(7, 6, 0), (5, 5, 1)])
def test_hand_limit_readings(limit, kept, discarded):
    s = K.scene(3, G3B, echoes=9, forced=(G0,), display=UPGRADES3, variants={"hand_limit": limit})
    assert s.table[L.T_HAND_LIMIT] == limit
    K.play(s, {0: {"play": "hunters_dream", "discard": "transform"}, 1: {"play": "saw_cleaver"}})
    assert s.hand[0].sum() == kept and s.hunters[0, L.H_DISCARDED] == discarded
    assert s.hand[0, card("transform")] == 1 - discarded and s.hunters[0, L.H_OWNED] == kept


@pytest.mark.parametrize(("reading", "kept", "discarded"), [("upgrade_taken", 8, 0), ("upgrade_due", 7, 1)])
def test_hand_limit_when_readings_with_the_upgrade_deck_and_display_empty(reading, kept, discarded):
    """BB-11.7: 'if taking an upgrade puts a hunter above 7'. Seat 0 holds 7 cards, Hunter's Dream among them,
    with 1 card used; the Dream brings the hand to 8 with no upgrade left to take."""
    hands = {0: STARTERS + ["heavy_melee", "blood_vial"]}
    s = K.scene(3, G3B, echoes=9, forced=(G0,), hands=hands, display=[], variants={"hand_limit_when": reading})
    K.set_used(s, 0, ["bank_now"])
    s.table[L.T_UPDECK_NEXT] = s.updeck.shape[0]  # the upgrade deck is empty too
    K.play(s, {0: {"play": "hunters_dream", "discard": "transform"}, 1: {"play": "saw_cleaver"}})
    assert not K.named(K.events(s), "upgrade", seat=0)
    assert s.hand[0].sum() == kept and s.hunters[0, L.H_DISCARDED] == discarded and s.used[0].sum() == 0


def test_hand_limit_when_an_upgrade_taken_above_the_limit_discards_in_both_readings():
    for reading in ("upgrade_taken", "upgrade_due"):
        hands = {0: STARTERS + ["heavy_melee", "blood_vial"]}
        s = K.scene(3, G3B, echoes=9, forced=(G0,), hands=hands, display=["bank_now"],
                    variants={"hand_limit_when": reading})
        K.play(s, {0: {"play": "hunters_dream", "discard": "transform"}, 1: {"play": "saw_cleaver"}})
        assert K.named(K.events(s), "upgrade", seat=0)
        assert s.hand[0].sum() == 7 and s.hunters[0, L.H_DISCARDED] == 1


# ---------------------------------------------------------------- BB-12.4
@pytest.mark.parametrize(("reading", "after"), [("left", 1), ("right", 2)])
def test_first_player_pass_readings(reading, after):
    s = K.scene(3, G3B, echoes=9, first=0, forced=(G0, face("yellow", 0)), variants={"first_player_pass": reading})
    K.play(s, plays("saw_cleaver", "saw_cleaver", "saw_cleaver"))
    assert s.table[L.T_FIRST] == after
    K.play(s, plays("hunter_axe", "hunter_axe", "hunter_axe"))
    assert K.named(K.events(s), "attack", round=2)[0]["seat"] == after  # the next round starts there


# ---------------------------------------------------------------- BB-13.4
@pytest.mark.parametrize(("reading", "winner", "wins"), [("banked_then_shared", 1, [0, 1, 0]),
                                                         ("shared", -1, [0, 1, 1])])
def test_tie_break_readings(reading, winner, wins):
    s = K.scene(3, "final_boss_1", echoes=1, forced=(R0,), banked={1: 10, 2: 5}, collected={2: 5},
                variants={"tie_break": reading})
    out = K.play(s, plays("hunter_pistol", "saw_cleaver", "saw_cleaver"))
    assert seat_block(out, L.S_SCORE) == [2, 10, 10]
    assert out[L.OUT_WINNER] == winner and seat_block(out, L.S_WIN) == wins


# ---------------------------------------------------------------- house rule and simulation cap
@pytest.mark.parametrize(("setting", "hunters", "echoes"), [(0, 3, 10), (5, 3, 15), (5, 5, 17), (-20, 3, 1)])
def test_final_boss_health_adds_to_the_final_boss_only(setting, hunters, echoes):
    s = K.scene(hunters, G3B, echoes=1, forced=(G0,), variants={"final_boss_health": setting})
    s.table[L.T_DECK_NEXT] = L.DECK_SIZE
    s.table[L.T_FINAL] = dungeon("final_boss_1")
    K.play(s, plays(*["hunter_axe"] * hunters))
    assert s.table[L.T_MONSTER] == dungeon("final_boss_1") and s.table[L.T_ECHOES] == echoes
    s = K.scene(hunters, G3B, echoes=1, forced=(G0,), deck=["boss_red_7_beast"],
                variants={"final_boss_health": setting})
    K.play(s, plays(*["hunter_axe"] * hunters))
    assert s.table[L.T_ECHOES] == 7 + hunters - 3  # other cards keep their health


@pytest.mark.parametrize(("rounds", "over"), [(10, L.OVER_TIMEOUT), (200, L.OVER_FINAL_BOSS_DEAD)])
def test_max_rounds_stops_a_game_as_a_timeout(rounds, over):
    """Eleven cards need at least eleven rounds (one card leaves per round at most), so a cap of 10 always
    times out, at round 10; the default cap never does here."""
    pol = compiled(random_legal.decide)
    for index in range(5):
        _, out = engine.play_one(K.comp().tables, (pol,), np.zeros((3, 1)), K.variants(max_rounds=rounds), 3,
                                 seed=2, stream=0, index=index, trace_events=0)
        assert out[L.OUT_OVER] == over
        if over == L.OVER_TIMEOUT:
            assert out[L.OUT_ROUNDS] == 10
        else:
            assert 11 <= out[L.OUT_ROUNDS] < rounds
