"""Each rule-variant reading (rules §16) shown on a hand-placed scene (issue 7).

Every test places a few figures with :mod:`tests.kit`, plays the same position with the same
forced dice and scripted choices under two (or three) readings, and asserts the difference in the
resulting state: the node reached, the cubes and tokens, who was targeted. Each would fail if the
kernel ignored the variant switch. Scenes use a small data overlay (``lab`` encounter) whose test
enemies do one thing each, so the first events of the battle are the ones the reading governs.
Boss readings use ``kit.scene(..., boss=...)``. Setup readings (A-3, A-42, A-48) act before any
figure could be placed by hand, so they are shown on the state right after a real setup.

Checked by hand: with ``compile.variant_vector`` patched to drop every setting but ``max_rounds``,
every test of a non-default reading fails. A-35 ``away_from_enemy`` is inert in the kernel (xfail).
A-10..A-12 act only on a hand-placed ember (no battle starts with one); A-40 needs equal taunts
and A-45 a single-target card with arcs, neither of which the shipped data has.

Board (5×5 grid of 13 nodes, ``pos.comp.board.index``)::

    (0,0)=0 .  (0,2)=1 .  (0,4)=2
    .  (1,1)=3 .  (1,3)=4 .
    (2,0)=5 .  (2,2)=6 .  (2,4)=7
    .  (3,1)=8 .  (3,3)=9 .
    (4,0)=10 . (4,2)=11 . (4,4)=12
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from dsim.games.dstbg import engine
from dsim.games.dstbg.compile import compile_boss, compile_encounter
from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.loader import load_game_data
from dsim.games.dstbg.policy import get_policy
from dsim.games.dstbg.position import Position
from dsim.games.dstbg.trace import FACINGS, events
from tests.kit import data as kit_data
from tests.kit import first, play, scene, script, scripted
from tests.scenarios import SHIPPED

Event = dict[str, Any]

# enemy slots of the ``lab`` encounter (spawn_1 then spawn_2)
RANGER, WALKER, RAMMER, SHOVER, PUSHER = 0, 1, 2, 3, 4
LAB = ("ranger", "walker", "rammer", "shover", "pusher")


def actor(slot: int) -> str:
    """Trace actor name of a lab enemy slot."""
    return f"{LAB[slot]}#{slot}"


def _enemy(base: dict[str, Any], eid: str, behaviour: list[dict[str, Any]], range_: Any = 0) -> dict[str, Any]:
    row = copy.deepcopy(base)
    row.update(id=eid, name=eid.title(), health=30, block=1, resist=1, range=range_, threat=1,
               behaviour=behaviour, source="test scenario")
    return row


def _write_overlay(folder: Path) -> Path:
    enemies = {r["id"]: r for r in yaml.safe_load((SHIPPED / "enemies.yaml").read_text())["enemies"]}
    base = enemies["hollow_soldier"]
    lab = [
        # ranger: attacks the nearest character at range 2, never moves
        _enemy(base, "ranger", [{"op": "attack", "type": "physical", "damage": 4, "target": "nearest"}], 2),
        # walker: one step toward the nearest character, nothing else
        _enemy(base, "walker", [{"op": "move", "direction": "toward", "target": "nearest", "distance": 1}]),
        # rammer: a move with push and 3 push damage
        _enemy(base, "rammer", [{"op": "move", "direction": "toward", "target": "nearest", "distance": 1,
                                 "push": True, "push_damage": 3}]),
        # shover: range-1 attack with a push
        _enemy(base, "shover", [{"op": "attack", "type": "physical", "damage": 2, "target": "nearest",
                                 "push": True}], 1),
        # pusher: a move with push and no push damage
        _enemy(base, "pusher", [{"op": "move", "direction": "toward", "target": "nearest", "distance": 1,
                                 "push": True}]),
    ]
    chars = {r["id"]: r for r in yaml.safe_load((SHIPPED / "characters.yaml").read_text())["characters"]}
    warrior, herald, assassin = (copy.deepcopy(chars[k]) for k in ("warrior", "herald", "assassin"))
    assassin["starting_equipment"]["hands"] = ["shift_estoc", "target_shield"]
    items = {r["id"]: r for r in yaml.safe_load((SHIPPED / "items.yaml").read_text())["items"]}
    axe = {**copy.deepcopy(items["battle_axe"]), "id": "hand_axe", "name": "Hand Axe", "source": "test scenario",
           "attacks": [{"stamina": 0, "dice": "KK"}, {"stamina": 1, "dice": "KK", "repeat": 2}]}
    estoc = {**copy.deepcopy(items["estoc"]), "id": "shift_estoc", "name": "Shift Estoc", "source": "test scenario",
             "attacks": [{"stamina": 0, "dice": "KK", "modifier": -1, "shift_before": 1}]}
    (folder / "items.yaml").write_text(yaml.safe_dump({"items": [axe, estoc]}), encoding="utf-8")
    warrior["starting_equipment"]["hands"] = ["battle_axe", "hand_axe"]  # two hand weapons
    herald["taunt"] = chars["knight"]["taunt"]  # equal taunt with the knight
    (folder / "enemies.yaml").write_text(yaml.safe_dump({"enemies": lab}), encoding="utf-8")
    (folder / "characters.yaml").write_text(yaml.safe_dump({"characters": [warrior, herald, assassin]}), encoding="utf-8")
    encounter = {"id": "lab", "name": "Lab", "level": 1, "spawn_1": ["ranger", "walker", "rammer"],
                 "spawn_2": ["shover", "pusher"], "terrain_1": None, "terrain_2": None, "traps": False,
                 "source": "test scenario"}
    (folder / "encounters.yaml").write_text(yaml.safe_dump({"encounters": [encounter]}), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def lab_data(tmp_path_factory):
    return load_game_data(overlay=_write_overlay(Path(tmp_path_factory.mktemp("lab"))))


@pytest.fixture(scope="module")
def lab(lab_data):
    """``lab(party, **variants)``: an empty lab position (every enemy removed), one round long."""

    def make(party: list[str], **variants: Any) -> Position:
        comp = compile_encounter(lab_data, party, "lab", {"max_rounds": 1, **variants})
        assert comp.enemy_ids == LAB
        pos = Position(comp)
        for e in range(len(comp.enemy_ids)):
            pos.remove_enemy(e)
        return pos

    return make


def char_state(ev: Event, cid: str) -> dict[str, Any]:
    return next(c for c in ev["state"]["characters"] if c["id"] == cid)


def enemy_state(ev: Event, slot: int) -> dict[str, Any]:
    return next(e for e in ev["state"]["enemies"] if e["slot"] == slot)


def decisions(evs: list[Event], hook: str) -> list[Event]:
    return [e for e in evs if e["event"] == "decision" and e.get("hook") == hook]


def activation(evs: list[Event], actor: str) -> list[Event]:
    """The events of ``actor``'s first activation (up to the next activation)."""
    start = next(i for i, e in enumerate(evs) if e["event"] == "activate" and e["actor"] == actor)
    end = next((i for i in range(start + 1, len(evs)) if evs[i]["event"] in ("activate", "round")), len(evs))
    return evs[start:end]


# --- A-14 luck_rolls ------------------------------------------------------------------------------
@pytest.mark.parametrize("reading, rerolled", [("attack_defence_dodge_incl_traps", True), ("no_traps", False)])
def test_A_14_luck_rolls_trap_dodge_reroll(lab, reading, rerolled):
    """A pusher shoves the assassin onto a face-down trap (2 damage, dodge 1); she dodges, rolls a
    pair of blanks (two green dice) and would reroll one to a 1 with luck: only the default reading offers luck on a trap dodge."""
    pos = lab(["assassin"], luck_rolls=reading)
    pos.enemy(PUSHER, (2, 2)).char("assassin", (2, 2))
    pos.terrain((0, 2), L.TERRAIN_NONE, trap=2 * 8 + 1)  # node 1 = neighbour[6, 0]: first push option
    _, evs = play(pos, forced=[0, 0, 1], H_MOVE_PUSH=0, H_TRAP=1, H_DODGE_MOVE=0, H_LUCK=1)
    push = first(evs, "push", actor="assassin")
    assert push["values"][:2] == [6, 1]
    trap = first(evs, "trap", actor="assassin")
    dodge = next(e for e in evs[evs.index(trap):] if e["event"] == "defend")
    assert bool(decisions(evs[evs.index(trap):evs.index(dodge)], "luck")) == rerolled
    assert char_state(dodge, "assassin")["luck"] == (not rerolled)  # the luck token spent only when offered
    assert dodge["values"][2] == (1 if rerolled else 0)  # rerolled 0 → 1: dodged; else the trap hits
    hurt = char_state(dodge if rerolled else first(evs, "damage", actor="assassin"), "assassin")["damage"]
    assert hurt == (0 if rerolled else 2)


# --- A-15 estus_timing ---------------------------------------------------------------------------
@pytest.mark.parametrize("reading, drinks", [("own_activation", False), ("also_enemy_turn", True)])
def test_A_15_estus_timing_drink_before_defending(lab, reading, drinks):
    """The knight at (0,2) with 4 red cubes is shot by the ranger (4 damage) and always drinks when
    asked: only also_enemy_turn asks before she defends, so she meets the hit with a clear bar."""
    pos = lab(["knight"], estus_timing=reading)
    pos.enemy(RANGER, (0, 0)).char("knight", (0, 2), damage=4, estus=1)
    _, evs = play(pos, forced=[0, 0, 0, 0], H_ESTUS=1, H_DEFENCE=0)
    act = activation(evs, actor(RANGER))
    assert any(e["event"] == "estus" for e in act) == drinks
    taken = first(act, "defend", actor="knight")["values"][2]
    assert taken > 0
    assert char_state(act[-1], "knight")["damage"] == taken + (0 if drinks else 4)


# --- A-17 range_metric ----------------------------------------------------------------------------
@pytest.mark.parametrize("reading, in_range", [("steps_ignore_terrain", True), ("steps_avoid_blocking_terrain", False)])
def test_A_17_range_metric_walk_counts_around_blocking_terrain(lab, reading, in_range):
    """A range-2 ranger at (0,0), the knight at (0,4), a gravestone between them at (0,2): two
    steps over the gravestone, three walking round it."""
    pos = lab(["knight"], range_metric=reading)
    pos.enemy(RANGER, (0, 0)).char("knight", (0, 4)).terrain((0, 2), L.TERRAIN_GRAVESTONE)
    _, evs = play(pos, forced=[1, 1, 1])
    ev = next(e for e in evs if e["actor"] == actor(RANGER) and e["event"] in ("attack", "attack_fails"))
    if in_range:
        assert ev["event"] == "attack" and ev["values"][1:3] == [0, 2]
    else:
        assert ev["event"] == "attack_fails" and ev["values"][2] == 3  # walking distance 3 > range 2
        assert not any(e["event"] == "defend" for e in evs)


# --- A-18 move_metric -----------------------------------------------------------------------------
@pytest.mark.parametrize("reading, reached", [("walkable_path", 3), ("steps_ignore_terrain", 0)])
def test_A_18_move_metric_enemy_routes_round_gravestone_or_stays(lab, reading, reached):
    """A walker at (0,0) heads for the knight at (0,4) with a gravestone on (0,2): walking, (1,1)
    is closer (2 against 3); counting steps nothing open is closer, so it stays put (F-11.4)."""
    pos = lab(["knight"], move_metric=reading)
    pos.enemy(WALKER, (0, 0)).char("knight", (0, 4)).terrain((0, 2), L.TERRAIN_GRAVESTONE)
    _, evs = play(pos)
    act = activation(evs, actor(WALKER))
    moves = [e for e in act if e["event"] == "move"]
    assert [m["values"][:2] for m in moves] == ([[0, reached]] if reached else [])
    assert enemy_state(act[-1], WALKER)["node"] == reached


# --- A-19 nearest_for_attacks ---------------------------------------------------------------------
@pytest.mark.parametrize("reading, target", [("same_as_range", "knight"), ("same_as_move", "warrior")])
def test_A_19_nearest_for_attacks_picks_target_by_range_or_walk(lab, reading, target):
    """The ranger at (0,0); the knight at (0,4) behind a gravestone on (0,2), the warrior at (4,0).
    By steps (the default range metric) both are 2 away and the aggro-holding knight is taken; by
    walking (the default move metric) the knight is 3 away and the warrior is nearest."""
    pos = lab(["knight", "warrior"], nearest_for_attacks=reading)
    pos.enemy(RANGER, (0, 0)).char("knight", (0, 4)).char("warrior", (4, 0))
    pos.terrain((0, 2), L.TERRAIN_GRAVESTONE).tokens(aggro=0)
    _, evs = play(pos, forced=[1, 1, 1, 1])
    ev = first(evs, "attack", actor=actor(RANGER))
    assert pos.comp.char_ids[ev["values"][1]] == target
    assert first(evs, "defend")["actor"] == target


# --- A-27 attacks_per_activation ------------------------------------------------------------------
@pytest.mark.parametrize("reading, attacks", [("per_hand_weapon", 2), ("one_total", 1)])
def test_A_27_attacks_per_activation_second_hand_weapon(lab, reading, attacks):
    """The warrior holds a battle axe and a long sword (both free lines) next to a sturdy walker and
    always takes the first attack offered: one attack per hand weapon, or one in all."""
    pos = lab(["warrior"], attacks_per_activation=reading)
    pos.enemy(WALKER, (2, 2)).char("warrior", (2, 2))
    _, evs = play(pos, forced=[3] * 8, H_ATTACK=1)
    act = activation(evs, "warrior")
    hits = [e for e in act if e["event"] == "damage" and e["actor"] == actor(WALKER)]
    chosen = [e for e in decisions(act, "attack") if e["values"][1] > 0]
    assert len(chosen) == attacks
    assert len(hits) == attacks
    assert enemy_state(act[-1], WALKER)["wounds"] == sum(h["values"][0] for h in hits) > 0


# --- A-34 attack_push_cornered --------------------------------------------------------------------
@pytest.mark.parametrize("reading, options, lands", [("wall_slide", 2, 5), ("no_push", 0, 0), ("any_adjacent", 3, 3)])
def test_A_34_attack_push_cornered_knight_in_corner(lab, reading, options, lands):
    """The shover at (1,1) hits the knight in the corner (0,0): no node is farther from it. Wall
    slide offers (0,2) and (2,0) (not closer); no_push leaves her; any_adjacent adds (1,1) itself.
    The players take the second option offered."""
    pos = lab(["knight"], attack_push_cornered=reading)
    pos.enemy(SHOVER, (1, 1)).char("knight", (0, 0))
    _, evs = play(pos, forced=[0, 0, 0, 0], H_ATTACK_PUSH=1, H_DEFENCE=0)
    act = activation(evs, actor(SHOVER))
    assert any(e["event"] == "attack" for e in act)
    asked = decisions(act, "attack_push")
    assert (asked[0]["values"][2] if asked else 0) == options
    pushes = [e for e in act if e["event"] == "push" and e["actor"] == "knight"]
    assert [p["values"][:2] for p in pushes] == ([[0, lands]] if lands else [])
    assert char_state(act[-1], "knight")["node"] == lands


# --- A-35 move_push_direction ---------------------------------------------------------------------
def test_A_35_move_push_direction_away_from_enemy_limits_destinations(lab):
    """A pusher at (1,1) walks into the knight at (2,2): pushed any adjacent node, or only nodes
    farther from the enemy (it came from (1,1), so (1,1), (0,2) and (2,0) are not farther)."""
    counts = {}
    for reading in ("any_adjacent", "away_from_enemy"):
        pos = lab(["knight", "warrior"], move_push_direction=reading)
        pos.enemy(PUSHER, (1, 1)).char("knight", (2, 2)).char("warrior", (4, 4))
        _, evs = play(pos, H_MOVE_PUSH=0)
        asked = decisions(activation(evs, actor(PUSHER)), "move_push")
        counts[reading] = asked[0]["values"][2] if asked else 0
    assert counts["any_adjacent"] > 0
    assert counts["away_from_enemy"] < counts["any_adjacent"]


# --- A-40 taunt_equal -----------------------------------------------------------------------------
def _taunt_tie(lab, reading: str, seed: int, choice: int) -> tuple[str, int]:
    """The walker at (2,2) between the knight (0,2) and the herald (4,2) (same taunt here); the
    warrior, far off at (0,4)... holds aggro. Returns (who it walked toward, taunt_tie decisions)."""
    pos = lab(["knight", "herald", "warrior"], taunt_equal=reading)
    pos.enemy(WALKER, (2, 2)).char("knight", (0, 2)).char("herald", (4, 2)).char("warrior", (4, 4))
    pos.tokens(aggro=2)
    _, evs = play(pos, seed=seed, H_TAUNT_TIE=choice)
    act = activation(evs, actor(WALKER))
    move = first(act, "move", actor=actor(WALKER))
    toward = {1: "knight", 3: "knight", 4: "knight", 11: "herald", 8: "herald", 9: "herald"}[move["values"][1]]
    return toward, len(decisions(act, "taunt_tie"))


def test_A_40_taunt_equal_players_choice_asks_and_follows_the_answer(lab):
    for choice, who in ((0, "knight"), (1, "herald")):
        for seed in range(4):
            assert _taunt_tie(lab, "players_choice", seed, choice) == (who, 1)


def test_A_40_taunt_equal_random_ignores_the_players(lab):
    seen = set()
    for seed in range(12):
        who, asked = _taunt_tie(lab, "random", seed, 0)
        assert asked == 0
        seen.add(who)
    assert seen == {"knight", "herald"}  # 12 fair draws; the players' answer (0 = knight) is not used


# --- A-41 players_choice_policy -------------------------------------------------------------------
def _enemy_step(lab, reading: str, seed: int = 0) -> tuple[int, list[Event]]:
    """The walker at (0,0) heads for the knight at (4,4); (1,1) is crowded by the ranger, (0,2)
    and (2,0) are empty and as close. The careful policy answers enemy routes in the party's
    favour (the crowded node slows it) or against it (A-41)."""
    pos = lab(["knight"], players_choice_policy=reading)
    pos.enemy(WALKER, (0, 0)).enemy(RANGER, (1, 1)).char("knight", (4, 4))
    policy = get_policy("careful")  # answers enemy hooks with policies/dstbg/common.enemy_choice
    b = engine.play_from(pos.comp.tables, policy.decide, policy.vector(), pos.state(), seed, np.zeros(0, np.int32))
    evs = events(b, pos.comp)
    act = activation(evs, actor(WALKER))
    return first(act, "move", actor=actor(WALKER))["values"][1], decisions(act, "enemy_step")


def test_A_41_players_choice_policy_favourable_vs_adversarial_route(lab):
    fav, asked_fav = _enemy_step(lab, "favourable")
    adv, asked_adv = _enemy_step(lab, "adversarial")
    assert len(asked_fav) == len(asked_adv) == 1 and asked_fav[0]["values"][2] == 3
    assert fav in (1, 5) and adv == 3  # D-31: least crowded node for the party (first of the ties), most crowded against it


def test_A_41_players_choice_policy_random_draws_without_asking(lab):
    reached = set()
    for seed in range(12):
        node, asked = _enemy_step(lab, "random", seed)
        assert asked == []
        reached.add(node)
    assert reached == {1, 3, 5}


# --- A-2 first_side -------------------------------------------------------------------------------
@pytest.mark.parametrize("reading, opener", [("enemies_first", "walker"), ("characters_first", "knight")])
def test_A_2_first_side_who_activates_first(lab, reading, opener):
    """The walker at (0,0), the knight at (4,4): the first activation of round 1 is the side's."""
    pos = lab(["knight"], first_side=reading)
    pos.enemy(WALKER, (0, 0)).char("knight", (4, 4))
    _, evs = play(pos)
    acts = [e for e in evs if e["event"] == "activate"]
    assert acts[0]["actor"] == (actor(WALKER) if opener == "walker" else "knight")
    assert enemy_state(acts[0], WALKER)["node"] == 0  # the walker has not moved before the first activation
    walked = evs.index(first(evs, "move", actor=actor(WALKER)))
    knight = evs.index(first(evs, "activate", actor="knight"))
    assert (walked < knight) == (opener == "walker")


# --- A-10..A-12 ember (no character starts a battle with one; placed here by hand) ------------------
def with_ember(pos: Position, cid: str) -> Position:
    pos.chars[pos.comp.char_ids.index(cid), L.C_EMBER] = 1
    return pos


@pytest.mark.parametrize("reading, taken", [("attacks_only", 3), ("any_damage", 2)])
def test_A_10_ember_scope_trap_damage(lab, reading, taken):
    """The knight, holding an ember, is pushed onto a 3-damage trap and takes it: the ember reduces
    it only when it reduces any damage."""
    pos = with_ember(lab(["knight"], ember_scope=reading), "knight")
    pos.enemy(PUSHER, (2, 2)).char("knight", (2, 2)).terrain((0, 2), L.TERRAIN_NONE, trap=3 * 8 + 1)
    _, evs = play(pos, H_MOVE_PUSH=0, H_TRAP=0)
    first(evs, "trap", actor="knight")
    hurt = first(evs, "damage", actor="knight")
    assert hurt["values"][:2] == [taken, L.SRC_TRAP]
    assert char_state(hurt, "knight")["damage"] == taken


@pytest.mark.parametrize("reading, taken", [("after_defence", 2), ("printed_value", 1)])
def test_A_11_ember_threshold_printed_four_blocked_to_two(lab, reading, taken):
    """The ranger's printed 4 is blocked down to 2 (forced dice 1 + 1): the ember needs 3+ left
    after defence, or only a printed 3+."""
    pos = with_ember(lab(["knight"], ember_threshold=reading), "knight")
    pos.enemy(RANGER, (0, 0)).char("knight", (0, 2))
    _, evs = play(pos, forced=[1, 1], H_DEFENCE=0)
    hurt = first(evs, "damage", actor="knight")
    assert hurt["values"][:2] == [taken, L.SRC_ATTACK]
    assert char_state(hurt, "knight")["damage"] == taken


@pytest.mark.parametrize("reading, total", [("separate", 2 + 2), ("combined", 1 + 2)])
def test_A_12_ember_bleed_counts_bleed_toward_three(lab, reading, total):
    """A bleeding knight with an ember takes a 2-damage hit (4 blocked by 2): alone it is below the
    ember's 3+, with bleed's +2 counted it is 4 and the hit loses 1; bleed's 2 follows."""
    pos = with_ember(lab(["knight"], ember_bleed=reading), "knight")
    pos.enemy(RANGER, (0, 0)).char("knight", (0, 2), conditions=L.COND_BLEED)
    _, evs = play(pos, forced=[1, 1], H_DEFENCE=0)
    hurt = [e for e in evs if e["event"] == "damage" and e["actor"] == "knight"][:2]
    assert [h["values"][:2] for h in hurt] == [[total - 2, L.SRC_ATTACK], [2, L.SRC_BLEED]]
    assert char_state(hurt[1], "knight")["damage"] == total


# --- A-13 stamina_last_slot -----------------------------------------------------------------------
@pytest.mark.parametrize("reading, dies", [("fatal", True), ("forbidden", False)])
def test_A_13_stamina_last_slot_dodge_with_one_free_slot(lab, reading, dies):
    """The knight has 9 stamina cubes (one free slot) and wants to dodge the ranger (cost 1):
    paying fills the bar and kills her, or the dodge is not offered and she blocks."""
    pos = lab(["knight"], stamina_last_slot=reading)
    pos.enemy(RANGER, (0, 0)).char("knight", (0, 2), stamina=9)
    _, evs = play(pos, forced=[2, 2], H_DEFENCE=1)
    asked = decisions(evs, "defence")
    assert (asked[0]["values"][2] if asked else 1) == (2 if dies else 1)  # one option: no decision logged
    assert any(e["event"] == "death" and e["actor"] == "knight" for e in evs) == dies
    assert char_state(evs[-1], "knight")["alive"] == (not dies)


# --- A-20 push_into_full_node ---------------------------------------------------------------------
@pytest.mark.parametrize("reading, lands", [("chain_push", 0), ("forbidden", 3)])
def test_A_20_push_into_full_node_chain_or_stay(lab, reading, lands):
    """The shover at (2,2) hits the knight at (1,1); the only node farther is the corner (0,0),
    holding the three others: chain_push sends her in and pushes the warrior on; forbidden leaves
    her (A-21 stay)."""
    pos = lab(["knight", "warrior", "herald", "assassin"], push_into_full_node=reading)
    pos.enemy(SHOVER, (2, 2)).char("knight", (1, 1))
    for cid in ("warrior", "herald", "assassin"):
        pos.char(cid, (0, 0))
    _, evs = play(pos, forced=[0, 0, 0, 0], H_DEFENCE=0, H_NODE_LIMIT=0)
    act = activation(evs, actor(SHOVER))
    assert first(act, "attack")["values"][1] == 0
    assert char_state(act[-1], "knight")["node"] == lands
    moved_on = [e for e in act if e["event"] == "push" and e["actor"] == "warrior"]
    assert [e["values"][:2] for e in moved_on] == ([[0, 1]] if reading == "chain_push" else [])


# --- A-21 push_no_legal_node ---------------------------------------------------------------------
@pytest.mark.parametrize("reading, lands", [("stay", 0), ("any_adjacent_ignoring_terrain", 1)])
def test_A_21_push_no_legal_node_walled_in_corner(lab, reading, lands):
    """The pusher shares the corner (0,0) with the knight and pushes her out before it moves; all three
    neighbours hold gravestones: she stays, or goes to the first adjacent node, gravestone or not."""
    pos = lab(["knight"], push_no_legal_node=reading)
    pos.enemy(PUSHER, (0, 0)).char("knight", (0, 0))
    for at in ((0, 2), (1, 1), (2, 0)):
        pos.terrain(at, L.TERRAIN_GRAVESTONE)
    _, evs = play(pos)
    act = activation(evs, actor(PUSHER))
    pushes = [e["values"][:2] for e in act if e["event"] == "push" and e["actor"] == "knight"]
    assert pushes == ([[0, lands]] if lands else [])
    assert char_state(act[-1], "knight")["node"] == lands


# --- A-22 node_limit_push_destination -------------------------------------------------------------
@pytest.mark.parametrize("reading, options, moved", [("any_adjacent", 15, ("knight", 9)),
                                                     ("away_from_entrant", 6, ("warrior", 2))])
def test_A_22_node_limit_destination_away_from_entrant(lab, reading, options, moved):
    """The walker steps from (2,2) into (2,4) holding three characters: any of them to any of its 5
    neighbours, or only to (0,4) and (4,4), farther from (2,2). The players take the third option."""
    pos = lab(["knight", "warrior", "herald"], node_limit_push_destination=reading)
    pos.enemy(WALKER, (2, 2)).tokens(aggro=0)
    for cid in ("knight", "warrior", "herald"):
        pos.char(cid, (2, 4))
    _, evs = play(pos, H_NODE_LIMIT=2)
    act = activation(evs, actor(WALKER))
    assert first(act, "move", actor=actor(WALKER))["values"][:2] == [6, 7]
    assert decisions(act, "node_limit")[0]["values"][2] == options
    push = first(act, "push")
    assert (push["actor"], push["values"][1]) == moved
    assert char_state(push, moved[0])["node"] == moved[1]


# --- A-23 trap_trigger_moves ----------------------------------------------------------------------
@pytest.mark.parametrize("reading, springs", [("any_move", True), ("voluntary_only", False)])
def test_A_23_trap_trigger_moves_push_onto_trap(lab, reading, springs):
    """The pusher shoves the knight from (2,2) onto a 2-damage trap at (0,2); she takes it."""
    pos = lab(["knight"], trap_trigger_moves=reading)
    pos.enemy(PUSHER, (2, 2)).char("knight", (2, 2)).terrain((0, 2), L.TERRAIN_NONE, trap=2 * 8 + 1)
    _, evs = play(pos, H_MOVE_PUSH=0, H_TRAP=0)
    act = activation(evs, actor(PUSHER))
    assert first(act, "push", actor="knight")["values"][:2] == [6, 1]
    assert any(e["event"] == "trap" for e in act) == springs
    assert char_state(act[-1], "knight")["damage"] == (2 if springs else 0)


# --- A-24 shift_into_barrel ----------------------------------------------------------------------
@pytest.mark.parametrize("reading, lands, paid", [("forbidden", 4, 0), ("pay_one", 1, 1)])
def test_A_24_shift_into_barrel_first_shift_option(lab, reading, lands, paid):
    """The assassin attacks the walker in her node (2,2) with the shift estoc (shift 1 first) and
    takes the first shift step offered; a barrel stands on (0,2), the first neighbour: a shift
    passes it by (to (1,3)) or enters it for 1 stamina, breaking it."""
    pos = lab(["assassin"], shift_into_barrel=reading)
    pos.enemy(WALKER, (2, 2)).char("assassin", (2, 2)).terrain((0, 2), L.TERRAIN_BARREL)
    _, evs = play(pos, forced=[1] * 8, H_ATTACK=1, H_SHIFT=1)
    act = activation(evs, "assassin")
    asked = decisions(act, "shift")
    assert asked and asked[0]["values"][3] == lands
    assert asked[0]["values"][2] == (8 if reading == "forbidden" else 9)  # stay + 7 open neighbours, or all 8
    assert first(act, "move", actor="assassin")["values"][:2] == [6, lands]
    assert any(e["event"] == "barrel" for e in act) == (paid == 1)
    assert char_state(act[-1], "assassin")["stamina"] == paid


# --- A-28 repeat_icon -----------------------------------------------------------------------------
@pytest.mark.parametrize("reading, paid", [("same_option_pay_each", 2), ("pay_once_roll_each", 1)])
def test_A_28_repeat_icon_cost_of_the_second_roll(lab, reading, paid):
    """The warrior uses the hand axe's repeat-2 line (1 stamina) on the walker in her node and
    repeats it; one attack per activation (A-27) so nothing else is paid."""
    pos = lab(["warrior"], repeat_icon=reading, attacks_per_activation="one_total")
    pos.enemy(WALKER, (2, 2)).char("warrior", (2, 2))
    _, evs = play(pos, forced=[1] * 8, H_ATTACK=4)
    act = activation(evs, "warrior")
    chosen = [e for e in decisions(act, "attack") if e["values"][1] > 0]
    assert len(chosen) == 2 and all(e["values"][3] == 1 for e in chosen)  # hand slot 1 twice
    assert len([e for e in act if e["event"] == "damage" and e["actor"] == actor(WALKER)]) == 2
    assert sum(e["values"][0] for e in act if e["event"] == "stamina" and e["actor"] == "warrior") == paid
    assert char_state(act[-1], "warrior")["stamina"] == paid


def test_A_28_repeat_icon_any_option_each_repeats_with_the_free_line(lab):
    """As above, with room for one more cube only (8 red cubes; A-13 forbidden keeps the last slot
    free): repeating the 1-stamina line is unaffordable, so only any_option_each repeats, with the
    hand axe's free line."""
    hits = {}
    for reading in ("same_option_pay_each", "any_option_each"):
        pos = lab(["warrior"], repeat_icon=reading, attacks_per_activation="one_total", stamina_last_slot="forbidden")
        pos.enemy(WALKER, (2, 2)).char("warrior", (2, 2), damage=8)
        _, evs = play(pos, forced=[1] * 8, H_ATTACK=4)
        act = activation(evs, "warrior")
        chosen = [e for e in decisions(act, "attack") if e["values"][1] > 0]
        assert all(e["values"][3] == 1 for e in chosen)  # hand slot 1 (the hand axe) each time
        assert char_state(act[-1], "warrior")["stamina"] == 1  # the repeat line once, the free line costs 0
        hits[reading] = len([e for e in act if e["event"] == "damage" and e["actor"] == actor(WALKER)])
    assert hits == {"same_option_pay_each": 1, "any_option_each": 2}


# --- A-29 bleed_zero_damage -----------------------------------------------------------------------
@pytest.mark.parametrize("reading, taken", [("no_trigger", 0), ("trigger_on_hit", 2)])
def test_A_29_bleed_zero_damage_fully_blocked_hit(lab, reading, taken):
    """The bleeding knight blocks the ranger's 4 completely (forced 2 + 2)."""
    pos = lab(["knight"], bleed_zero_damage=reading)
    pos.enemy(RANGER, (0, 0)).char("knight", (0, 2), conditions=L.COND_BLEED)
    _, evs = play(pos, forced=[2, 2], H_DEFENCE=0)
    defend = first(evs, "defend", actor="knight")
    assert defend["values"][2] == 0  # nothing got through
    act = activation(evs, actor(RANGER))
    assert char_state(act[-1], "knight")["damage"] == taken
    assert ("bleed" in char_state(act[-1], "knight")["conditions"]) == (taken == 0)


# --- A-30 bleed_same_attack ----------------------------------------------------------------------
def with_bleed_attacks(pos: Position) -> Position:
    """Give every attack of this compiled cell the bleed icon (enemy steps and character lines)."""
    tables = pos.comp.tables
    tables.prog[tables.prog[:, L.S_OP] == L.OP_ATTACK, L.S_COND] = L.COND_BLEED
    tables.lines[:, L.L_COND] = L.COND_BLEED
    return pos


@pytest.mark.parametrize("reading, extra", [("next_damage_only", 0), ("same_attack", 2)])
def test_A_30_bleed_same_attack_ranger_hit(lab, reading, extra):
    """The ranger's 4 (with a bleed icon) gets through the knight's block: the new token waits for
    the next damage, or adds its 2 to this hit and goes."""
    pos = with_bleed_attacks(lab(["knight"], bleed_same_attack=reading))
    pos.enemy(RANGER, (0, 0)).char("knight", (0, 2))
    _, evs = play(pos, forced=[0, 0, 0, 0], H_DEFENCE=0)
    act = activation(evs, actor(RANGER))
    taken = first(act, "defend", actor="knight")["values"][2]
    assert taken > 0
    assert char_state(act[-1], "knight")["damage"] == taken + extra
    assert ("bleed" in char_state(act[-1], "knight")["conditions"]) == (extra == 0)


@pytest.mark.parametrize("reading, extra", [("next_damage_only", 0), ("same_attack", 2)])
def test_A_30_bleed_same_attack_warrior_hit(lab, reading, extra):
    """The warrior hits the walker in her node once (a bleed icon on every line)."""
    pos = with_bleed_attacks(lab(["warrior"], bleed_same_attack=reading, attacks_per_activation="one_total"))
    pos.enemy(WALKER, (2, 2)).char("warrior", (2, 2))
    _, evs = play(pos, forced=[3] * 8, H_ATTACK=1)
    act = activation(evs, "warrior")
    hit = first(act, "damage", actor=actor(WALKER))["values"][0]
    assert hit > 0
    assert enemy_state(act[-1], WALKER)["wounds"] == hit + extra
    assert ("bleed" in enemy_state(act[-1], WALKER)["conditions"]) == (extra == 0)


# --- A-31 stagger_on_push_damage ------------------------------------------------------------------
@pytest.mark.parametrize("reading, taken", [("no", 3), ("yes", 2)])
def test_A_31_stagger_on_push_damage_staggered_rammer(lab, reading, taken):
    """A staggered rammer (push damage 3) walks from (1,1) into the knight at (2,2); she blocks 0."""
    pos = lab(["knight"], stagger_on_push_damage=reading)
    pos.enemy(RAMMER, (1, 1), conditions=L.COND_STAGGER).char("knight", (2, 2))
    _, evs = play(pos, forced=[0, 0], H_DEFENCE=0)
    hurt = first(evs, "damage", actor="knight")
    assert hurt["values"][0] == taken
    assert char_state(hurt, "knight")["damage"] == taken


# --- A-32 stagger_repeat -------------------------------------------------------------------------
@pytest.mark.parametrize("reading, paid", [("per_use", 4), ("once", 3)])
def test_A_32_stagger_repeat_staggered_repeat_line(lab, reading, paid):
    """The staggered warrior uses the hand axe's repeat-2 line (1 stamina) twice on the walker:
    stagger's +1 on both uses, or on the first only."""
    pos = lab(["warrior"], stagger_repeat=reading, attacks_per_activation="one_total")
    pos.enemy(WALKER, (2, 2)).char("warrior", (2, 2), conditions=L.COND_STAGGER)
    _, evs = play(pos, forced=[1] * 8, H_ATTACK=4)
    act = activation(evs, "warrior")
    chosen = [e for e in decisions(act, "attack") if e["values"][1] > 0]
    assert len(chosen) == 2 and all(e["values"][3] == 1 for e in chosen)
    assert char_state(act[-1], "warrior")["stamina"] == paid


# --- A-33 dodge_move ------------------------------------------------------------------------------
@pytest.mark.parametrize("reading, stays", [("optional", True), ("mandatory", False)])
def test_A_33_dodge_move_first_option_stays_or_moves(lab, reading, stays):
    """The assassin at (0,2) dodges the ranger and takes the first dodge-move option: staying put
    is that option only when the move is optional."""
    pos = lab(["assassin"], dodge_move=reading)
    pos.enemy(RANGER, (0, 0)).char("assassin", (0, 2))
    _, evs = play(pos, forced=[1, 1], H_DEFENCE=1, H_DODGE_MOVE=0)
    act = activation(evs, actor(RANGER))
    asked = decisions(act, "dodge_move")
    assert (asked[0]["values"][3] == 1) == stays  # option 0's node
    assert (char_state(act[-1], "assassin")["node"] == 1) == stays
    assert first(act, "defend", actor="assassin")["values"][:3] == [2, 2, 1]  # dodged either way


# --- A-36 push_damage_order -----------------------------------------------------------------------
@pytest.mark.parametrize("reading, defends_at", [("defend_then_push", 6), ("push_then_defend", 1)])
def test_A_36_push_damage_order_where_the_knight_defends(lab, reading, defends_at):
    """The rammer walks from (1,1) into the knight at (2,2) with push damage: she defends in its node
    and is then pushed, or is pushed to (0,2) first and defends there."""
    pos = lab(["knight"], push_damage_order=reading)
    pos.enemy(RAMMER, (1, 1)).char("knight", (2, 2))
    _, evs = play(pos, forced=[0, 0], H_DEFENCE=0, H_MOVE_PUSH=0)
    act = activation(evs, actor(RAMMER))
    kinds = [e["event"] for e in act if e["actor"] == "knight" and e["event"] in ("defend", "push")]
    assert kinds == (["defend", "push"] if defends_at == 6 else ["push", "defend"])
    assert char_state(first(act, "defend", actor="knight"), "knight")["node"] == defends_at
    assert char_state(act[-1], "knight")["node"] == 1


# --- A-37 push_damage_dodged ----------------------------------------------------------------------
@pytest.mark.parametrize("reading, pushed", [("not_pushed", False), ("still_pushed", True)])
def test_A_37_push_damage_dodged_assassin_stays_or_is_pushed(lab, reading, pushed):
    """The rammer walks into the assassin at (2,2); she dodges its push damage and stays in the node."""
    pos = lab(["assassin"], push_damage_dodged=reading)
    pos.enemy(RAMMER, (1, 1)).char("assassin", (2, 2))
    _, evs = play(pos, forced=[1, 1], H_DEFENCE=1, H_DODGE_MOVE=0, H_MOVE_PUSH=0)
    act = activation(evs, actor(RAMMER))
    assert first(act, "defend", actor="assassin")["values"][:3] == [2, 2, 1]
    assert any(e["event"] == "push" and e["actor"] == "assassin" for e in act) == pushed
    assert char_state(act[-1], "assassin")["node"] == (1 if pushed else 6)


# --- A-38 frostbite_zero_move_push ----------------------------------------------------------------
@pytest.mark.parametrize("reading, pushed", [("push_anyway", True), ("no_move_no_push", False)])
def test_A_38_frostbitten_pusher_with_move_zero(lab, reading, pushed):
    """A frostbitten pusher (move 1 − 1 = 0) shares (2,2) with the knight."""
    pos = lab(["knight"], frostbite_zero_move_push=reading)
    pos.enemy(PUSHER, (2, 2), conditions=L.COND_FROSTBITE).char("knight", (2, 2))
    _, evs = play(pos, H_MOVE_PUSH=0)
    act = activation(evs, actor(PUSHER))
    assert not any(e["event"] == "move" and e["actor"] == actor(PUSHER) for e in act)
    assert any(e["event"] == "push" and e["actor"] == "knight" for e in act) == pushed
    assert char_state(act[-1], "knight")["node"] == (1 if pushed else 6)


# --- A-39 taunt_tiebreak_pool ---------------------------------------------------------------------
@pytest.mark.parametrize("reading, toward", [("among_tied", {1}), ("all_characters", {7, 9, 11})])
def test_A_39_taunt_tiebreak_pool_walker_target(lab, reading, toward):
    """The walker at (2,2): the warrior (taunt 3) at (0,2) and the assassin (1) at (4,2) are the
    nearest; the knight (taunt 4) at (4,4) holds aggro. Among the tied the warrior wins; over all
    characters the knight does, and the walker heads for (4,4)."""
    pos = lab(["knight", "warrior", "assassin"], taunt_tiebreak_pool=reading)
    pos.enemy(WALKER, (2, 2)).char("warrior", (0, 2)).char("assassin", (4, 2)).char("knight", (4, 4))
    pos.tokens(aggro=0)
    _, evs = play(pos)
    move = first(activation(evs, actor(WALKER)), "move", actor=actor(WALKER))
    assert move["values"][0] == 6 and move["values"][1] in toward


# --- A-3 initial_aggro (a setup reading: shown on the state right after a real setup) ---------------
def aggro_after_setup(lab_data, reading: str, index: int) -> tuple[int, list[Event]]:
    comp = compile_encounter(lab_data, ["knight", "warrior", "herald"], "lab", {"initial_aggro": reading, "max_rounds": 0})
    b = engine.play_one(comp.tables, scripted, script(H_FIRST_CHAR=2, H_AGGRO=1), 0, 0, index)
    return int(b.glob[L.G_AGGRO]), events(b, comp)


@pytest.mark.parametrize("reading, holder", [("players_choice", 1), ("first_activating", 2)])
def test_A_3_initial_aggro_players_or_first_to_act(lab_data, reading, holder):
    """The players pick the herald (2) to act first and would give aggro to the warrior (1)."""
    aggro, evs = aggro_after_setup(lab_data, reading, 0)
    assert aggro == holder
    assert bool(decisions(evs, "aggro")) == (reading == "players_choice")
    assert first(evs, "aggro")["actor"] == ("knight", "warrior", "herald")[holder]


def test_A_3_initial_aggro_random_ignores_the_players(lab_data):
    holders = set()
    for index in range(12):
        aggro, evs = aggro_after_setup(lab_data, "random", index)
        assert not decisions(evs, "aggro")
        holders.add(aggro)
    assert holders == {0, 1, 2}


# --- max_rounds (simulator setting) ---------------------------------------------------------------
@pytest.mark.parametrize("rounds", [1, 3])
def test_max_rounds_caps_a_stalemate(lab, rounds):
    """The knight and a walker that cannot hurt her: the battle ends as a timeout after the cap, and
    its end event counts the rounds played (not the round that was never started)."""
    pos = lab(["knight"], max_rounds=rounds)
    pos.enemy(WALKER, (0, 0)).char("knight", (4, 4))
    b, evs = play(pos)
    assert [e["values"][0] for e in evs if e["event"] == "round"] == list(range(1, rounds + 1))
    assert first(evs, "end")["values"][:2] == [L.OUT_TIMEOUT, rounds]


# --- boss variants (kit.scene with a boss: slot 0 is the boss) --------------------------------------
def boss_halves(comp, card: int) -> list[tuple[int, int, int, int]]:
    """(figure slot, first step, step count, repeat) of each half of a behaviour card."""
    cards = comp.tables.cards
    out = []
    for h in range(cards[card, X.CARD_HALVES]):
        base = X.CARD_HALF + h * X.HALF_FIELDS
        out.append((int(cards[card, base + X.HALF_SLOT]), int(cards[card, base + X.HALF_PROG]),
                    int(cards[card, base + X.HALF_LEN]), int(cards[card, base + X.HALF_REPEAT])))
    return out


@pytest.mark.parametrize("reading, hits", [("arc_limited", False), ("aoe_only", True)])
def test_A_45_boss_attack_arc_limit_single_target_behind_the_boss(reading, hits):
    """Ornstein's lightning bolt (single target: aggro, range ∞) drawn with a front arc added by hand
    (no shipped single-target card shows arcs); Ornstein at (2,2) faces N, the knight holds aggro
    behind him at (4,2): outside the arcs the attack fails only under arc_limited."""
    pos = scene(["knight"], boss="ornstein_and_smough",
                variants={"boss_attack_arc_limit": reading, "max_rounds": 1})
    card = pos.comp.card_ids.index("lightning_bolt_and_jumping_slam")
    (slot, step, count, _), = [h for h in boss_halves(pos.comp, card) if h[2] == 1]
    prog = pos.comp.tables.prog
    assert prog[step, L.S_OP] == L.OP_ATTACK and prog[step, L.S_TARGET] == L.TGT_AGGRO
    prog[step, L.S_ARCS] = L.ARC_FRONT  # this compiled cell only
    pos.remove_enemy(1 - slot)
    pos.enemy(slot, (2, 2), facing=0).char("knight", (4, 2)).tokens(aggro=0).deck([card])
    assert pos.comp.tables.arcs[0, 6, 11] == L.ARC_BACK
    _, evs = play(pos, forced=[0, 0], H_DEFENCE=0)
    boss = f"{pos.comp.enemy_ids[slot]}#{slot}"
    ev = next(e for e in evs if e["actor"] == boss and e["event"] in ("attack", "attack_fails"))
    assert ev["event"] == ("attack" if hits else "attack_fails")
    assert any(e["event"] == "defend" and e["actor"] == "knight" for e in evs) == hits
    assert char_state(evs[-1], "knight")["damage"] == (5 if hits else 0)


@pytest.mark.parametrize("reading, discard_after", [("whole_deck", 0), ("draw_pile_only", 2)])
def test_A_46_heatup_shuffle_scope_discards_stay_or_return(reading, discard_after):
    """The Gargoyle (26 health, heat-up at 12) has 13 wounds and two cards in its discard pile; the
    knight in its node hits first for 1 (blue 3 − block 2): the heat-up card joins and either the
    whole deck (discards included) or only the draw pile is shuffled."""
    pos = scene(["knight"], boss="gargoyle",
                variants={"heatup_shuffle_scope": reading, "first_side": "characters_first", "max_rounds": 1})
    pos.enemy(0, (2, 2), facing=0, wounds=13).char("knight", (2, 2)).deck([0, 1, 2, 3], pos=2)
    _, evs = play(pos, forced=[3] * 8, H_ATTACK=1)
    heat = evs.index(first(evs, "heat_up", actor="gargoyle#0"))
    card = first(evs[heat:], "card")  # the boss's first draw after the heat-up card joined
    deck = card["state"]["deck"]
    assert deck["heated_up"]
    assert deck["discard"][:-1] == [pos.comp.card_ids[k] for k in (0, 1)][:discard_after]
    assert len(deck["discard"]) == discard_after + 1 and deck["draw_pile"] == 5 - discard_after - 1
    assert card["values"][1:3] == [discard_after + 1, 5]  # deck position after the draw, deck size


@pytest.mark.parametrize("reading, moves", [("whole_half", 2), ("attacks_only", 1)])
def test_boss_repeat_scope_double_swing_moves_again_or_not(reading, moves):
    """The Titanite Demon's Double Swing (move 1 toward the nearest, front-arc attack; repeat 2) from
    (4,4) toward the knight in (0,0) (facing N first: ties go to the first direction), by (2,4) to
    (0,4): the repeat walks it again only when the whole half repeats."""
    pos = scene(["knight"], boss="titanite_demon", variants={"boss_repeat_scope": reading, "max_rounds": 1})
    card = pos.comp.card_ids.index("double_swing")
    assert [h[3] for h in boss_halves(pos.comp, card)] == [2]
    pos.enemy(0, (4, 4), facing=7).char("knight", (0, 0)).deck([card])
    _, evs = play(pos)
    act = activation(evs, "titanite_demon#0")
    walked = [e["values"][:2] for e in act if e["event"] == "move" and e["actor"] == "titanite_demon#0"]
    assert walked == [[12, 7], [7, 2]][:moves]
    assert enemy_state(act[-1], 0)["node"] == (2 if moves == 2 else 7)


@pytest.mark.parametrize("reading, walked", [("face_closer_adjacent", (7, 0)), ("target_in_front_arc", (9, 7))])
def test_A_44_boss_toward_rotation_target_already_in_front_arc(reading, walked):
    """The Titanite Demon at (4,4) faces NW, straight at the knight in (0,0), and moves 1 toward her
    (Double Swing, repeat off): it turns N onto (2,4) (the first closer node), or keeps its facing
    and steps onto (3,3)."""
    pos = scene(["knight"], boss="titanite_demon", variants={"boss_toward_rotation": reading,
                                                            "boss_repeat_scope": "attacks_only", "max_rounds": 1})
    card = pos.comp.card_ids.index("double_swing")
    pos.enemy(0, (4, 4), facing=7).char("knight", (0, 0)).deck([card])
    assert pos.comp.tables.arcs[7, 12, 0] & L.ARC_FRONT
    _, evs = play(pos)
    act = activation(evs, "titanite_demon#0")
    node, facing = walked
    assert [e["values"][:2] for e in act if e["event"] == "move" and e["actor"] == "titanite_demon#0"] == [[12, node]]
    assert enemy_state(act[-1], 0)["node"] == node and enemy_state(act[-1], 0)["facing"] == FACINGS[facing]
    assert [e["values"][0] for e in act if e["event"] == "turn"] == ([] if facing == 7 else [facing])


# --- setup-time boss readings: set at setup, so shown on the state right after a real setup ---------
def setup_only(boss: str, party: list[str], gravestones: int, index: int, place: int = 0, **variants: Any):
    """Compile a boss cell and run only its setup (rounds capped at 0); ``place`` = entry option (D-14)."""
    comp = compile_boss(kit_data(), party, boss, gravestones, {"max_rounds": 0, **variants})
    return comp, engine.play_one(comp.tables, scripted, script(H_PLACE=place), 0, 0, index)


@pytest.mark.parametrize("reading", ["toward_entry_door", "toward_nearest_character"])
def test_A_42_boss_initial_facing_door_or_nearest(reading):
    """The Gargoyle spawns at (0,2); the party enters by the bottom door and both stand on its last
    entry node (4,4). Toward the door it faces S (the door's middle node (4,2)); toward the nearest
    character it faces a direction whose node is a step closer to (4,4), here E."""
    comp, b = setup_only("gargoyle", ["knight", "warrior"], 0, 0, place=2, boss_initial_facing=reading)
    st, board = b, comp.board
    bpos = int(st.enemies[0, L.E_POS])
    nodes = {int(st.chars[c, L.C_POS]) for c in range(2)}
    assert bpos == 1 and nodes == {12}
    facing = int(st.enemies[0, L.E_FACING])
    door = int(comp.tables.scen[X.SC_BOSS_FACING])
    assert board.neighbour[bpos, door] == 6  # S, toward (4,2)
    if reading == "toward_entry_door":
        assert facing == door
    else:
        ahead = board.neighbour[bpos, facing]
        assert facing != door and board.steps[ahead, 12] == board.steps[bpos, 12] - 1


def test_A_42_boss_initial_facing_random_spreads():
    spread = {int(setup_only("gargoyle", ["knight", "warrior"], 0, i, boss_initial_facing="random")[1].enemies[0, L.E_FACING])
              for i in range(16)}
    assert len(spread) >= 4  # 16 draws over 8 facings; the two other readings give one facing here


@pytest.mark.parametrize("reading, known", [("known", True), ("ignored", False)])
def test_A_48_gravestone_reveal_info(reading, known):
    """Two gravestones reveal cards at setup (R-12.5): their ids reach the state only when known."""
    _, b = setup_only("gargoyle", ["knight"], 2, 0, gravestone_reveal_info=reading)
    revealed = int(b.glob[L.G_REVEALED])
    assert (revealed != 0) == known
    if known:
        assert 1 <= bin(revealed).count("1") <= 2
