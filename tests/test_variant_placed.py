"""Each rule-variant reading (rules §16) shown on a hand-placed scene (issue 7).

Every test places a few figures with :mod:`tests.kit`, plays the same position with the same
forced dice and scripted choices under two (or three) readings, and asserts the difference in the
resulting state: the node reached, the cubes and tokens, who was targeted. Each would fail if the
kernel ignored the variant switch. Scenes use a small data overlay (``lab`` encounter) whose test
enemies do one thing each, so the first events of the battle are the ones the reading governs.

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
from dsim.games.dstbg.compile import compile_encounter
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.loader import load_game_data
from dsim.games.dstbg.policy import get_policy
from dsim.games.dstbg.position import Position
from dsim.games.dstbg.trace import events
from tests.kit import first, play
from tests.scenarios import SHIPPED

Event = dict[str, Any]

# enemy slots of the ``lab`` encounter (spawn_1 then spawn_2)
RANGER, WALKER, SHOVER, PUSHER = 0, 1, 2, 3


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
        # shover: range-1 attack with a push
        _enemy(base, "shover", [{"op": "attack", "type": "physical", "damage": 2, "target": "nearest",
                                 "push": True}], 1),
        # pusher: a move with push and no push damage
        _enemy(base, "pusher", [{"op": "move", "direction": "toward", "target": "nearest", "distance": 1,
                                 "push": True}]),
    ]
    chars = {r["id"]: r for r in yaml.safe_load((SHIPPED / "characters.yaml").read_text())["characters"]}
    warrior, herald = copy.deepcopy(chars["warrior"]), copy.deepcopy(chars["herald"])
    items = {r["id"]: r for r in yaml.safe_load((SHIPPED / "items.yaml").read_text())["items"]}
    axe = {**copy.deepcopy(items["battle_axe"]), "id": "hand_axe", "name": "Hand Axe", "source": "test scenario"}
    (folder / "items.yaml").write_text(yaml.safe_dump({"items": [axe]}), encoding="utf-8")
    warrior["starting_equipment"]["hands"] = ["battle_axe", "hand_axe"]  # two hand weapons
    herald["taunt"] = chars["knight"]["taunt"]  # equal taunt with the knight
    (folder / "enemies.yaml").write_text(yaml.safe_dump({"enemies": lab}), encoding="utf-8")
    (folder / "characters.yaml").write_text(yaml.safe_dump({"characters": [warrior, herald]}), encoding="utf-8")
    encounter = {"id": "lab", "name": "Lab", "level": 1, "spawn_1": ["ranger", "walker"],
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
        assert comp.enemy_ids == ("ranger", "walker", "shover", "pusher")
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


# --- A-17 range_metric ----------------------------------------------------------------------------
@pytest.mark.parametrize("reading, in_range", [("steps_ignore_terrain", True), ("steps_avoid_blocking_terrain", False)])
def test_A_17_range_metric_walk_counts_around_blocking_terrain(lab, reading, in_range):
    """A range-2 ranger at (0,0), the knight at (0,4), a gravestone between them at (0,2): two
    steps over the gravestone, three walking round it."""
    pos = lab(["knight"], range_metric=reading)
    pos.enemy(RANGER, (0, 0)).char("knight", (0, 4)).terrain((0, 2), L.TERRAIN_GRAVESTONE)
    _, evs = play(pos, forced=[1, 1, 1])
    ev = next(e for e in evs if e["actor"] == "ranger#0" and e["event"] in ("attack", "attack_fails"))
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
    act = activation(evs, "walker#1")
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
    ev = first(evs, "attack", actor="ranger#0")
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
    hits = [e for e in act if e["event"] == "damage" and e["actor"] == "walker#1"]
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
    act = activation(evs, "shover#2")
    assert any(e["event"] == "attack" for e in act)
    asked = decisions(act, "attack_push")
    assert (asked[0]["values"][2] if asked else 0) == options
    pushes = [e for e in act if e["event"] == "push" and e["actor"] == "knight"]
    assert [p["values"][:2] for p in pushes] == ([[0, lands]] if lands else [])
    assert char_state(act[-1], "knight")["node"] == lands


# --- A-35 move_push_direction ---------------------------------------------------------------------
@pytest.mark.xfail(strict=True, reason=(
    "A-35 away_from_enemy is inert: every move push starts in the enemy's own node, so every adjacent "
    "node is 'farther from the enemy' (steps 1 > 0) and the filter in push_char_any never removes one"))
def test_A_35_move_push_direction_away_from_enemy_limits_destinations(lab):
    """A pusher at (1,1) walks into the knight at (2,2): pushed any adjacent node, or only nodes
    farther from the enemy (it came from (1,1), so (1,1), (0,2) and (2,0) are not farther)."""
    counts = {}
    for reading in ("any_adjacent", "away_from_enemy"):
        pos = lab(["knight", "warrior"], move_push_direction=reading)
        pos.enemy(PUSHER, (1, 1)).char("knight", (2, 2)).char("warrior", (4, 4))
        _, evs = play(pos, H_MOVE_PUSH=0)
        asked = decisions(activation(evs, "pusher#3"), "move_push")
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
    act = activation(evs, "walker#1")
    move = first(act, "move", actor="walker#1")
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
    act = activation(evs, "walker#1")
    return first(act, "move", actor="walker#1")["values"][1], decisions(act, "enemy_step")


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
