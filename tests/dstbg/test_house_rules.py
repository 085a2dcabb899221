"""House rules as table edits (no kernel run): each rule changes exactly the tables it names."""

from __future__ import annotations

import numpy as np
import pytest

from dsim.games.dstbg import house_rules as H
from dsim.games.dstbg.compile import compile_encounter
from dsim.games.dstbg.game import prepare
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.loader import load_game_data


@pytest.fixture(scope="module")
def compiled():
    return compile_encounter(load_game_data(), ["knight", "warrior"], "burned_gardens")


def _changed(a, b) -> set[str]:
    return {name for name in a._fields if not np.array_equal(getattr(a, name), getattr(b, name))}


def test_defaults_change_nothing(compiled):
    rules = {r.id: r.default for r in H.HOUSE_RULES}
    assert H.apply_house_rules(compiled, rules).tables is compiled.tables


def test_enemy_health_delta_adds_to_regular_enemies_and_keeps_one(compiled):
    t = compiled.tables
    up = H.apply_house_rules(compiled, {"enemy_health_delta": 2}).tables
    down = H.apply_house_rules(compiled, {"enemy_health_delta": -9}).tables
    assert _changed(t, up) == {"etypes"}
    assert np.array_equal(up.etypes[:, L.ET_HEALTH], t.etypes[:, L.ET_HEALTH] + 2)
    assert (down.etypes[:, L.ET_HEALTH] == 1).all()
    assert up.etypes.dtype == np.int32 and up.etypes.flags.c_contiguous  # same Numba type: no recompilation


def test_boss_rules_leave_regular_enemies_alone(compiled):
    t = compiled.tables
    edited = H.apply_house_rules(compiled, {"boss_health_delta": 5, "heatup_delta": 2}).tables
    assert np.array_equal(edited.etypes, t.etypes)  # no boss in an encounter


def test_enemy_damage_delta_changes_attacks_and_push_damage(compiled):
    t = compiled.tables
    edited = H.apply_house_rules(compiled, {"enemy_damage_delta": -1}).tables
    attacks = t.prog[:, L.S_OP] == L.OP_ATTACK
    assert np.array_equal(edited.prog[attacks, L.S_DAMAGE], t.prog[attacks, L.S_DAMAGE] - 1)
    pushes = t.prog[:, L.S_PUSH_DMG] > 0  # large hollow soldier's push damage 5
    assert pushes.any() and np.array_equal(edited.prog[pushes, L.S_PUSH_DMG], t.prog[pushes, L.S_PUSH_DMG] - 1)


def test_extra_dodge_dice_go_on_armour(compiled):
    t = compiled.tables
    edited = H.apply_house_rules(compiled, {"extra_dodge_dice": 1}).tables
    armour = t.items[:, L.IT_IS_ARMOUR] == 1
    assert np.array_equal(edited.items[armour, L.IT_DODGE], t.items[armour, L.IT_DODGE] + 1)
    assert np.array_equal(edited.items[~armour], t.items[~armour])


def test_dice_substitution_blue_for_black_on_block(compiled):
    t = compiled.tables
    edited = H.apply_house_rules(compiled, {"dice_substitution": "block:black>blue"}).tables
    assert _changed(t, edited) == {"items"}
    k, u = L.IT_BLOCK_K, L.IT_BLOCK_U
    assert (edited.items[:, k] == 0).all()
    assert np.array_equal(edited.items[:, u], t.items[:, u] + t.items[:, k])
    assert np.array_equal(edited.items[:, L.IT_RESIST_K], t.items[:, L.IT_RESIST_K])


def test_dice_substitution_on_attack_updates_policy_statistics(compiled):
    t = compiled.tables
    edited = H.apply_house_rules(compiled, {"dice_substitution": "attack:black>orange"}).tables
    black = t.lines[:, L.L_K] > 0
    assert black.any() and (edited.lines[:, L.L_K] == 0).all()
    # orange dice roll higher than black: the expected damage the policy sees goes up on those lines
    assert (edited.lstat[black, 0, 0, 0] > t.lstat[black, 0, 0, 0]).all()


@pytest.mark.parametrize("rules, message", [
    ({"no_such_rule": 1}, "unknown house rule"),
    ({"enemy_health_delta": "lots"}, "whole number"),
    ({"extra_dodge_dice": -1}, "at least 0"),
    ({"dice_substitution": "block:black>pink"}, "POOL:FROM>TO"),
])
def test_bad_house_rules_are_user_errors(compiled, rules, message):
    with pytest.raises(ValueError, match=message):
        H.apply_house_rules(compiled, rules)


def test_game_settings_accept_house_rules():
    cell = prepare({"party": ["knight"], "encounter": "dark_hollow", "house_rules": {"enemy_health_delta": 1}})
    plain = prepare({"party": ["knight"], "encounter": "dark_hollow"})
    assert (cell.compiled.tables.etypes[:, L.ET_HEALTH] == plain.compiled.tables.etypes[:, L.ET_HEALTH] + 1).all()


@pytest.mark.parametrize("extra", [0, 1, 2])
def test_extra_estus_refills_the_flask_in_battle(extra):
    """House rule extra_estus: the flask holds 1 + extra uses per battle (R-3.5 prints one); a party
    that always drinks when offered drinks exactly that often, and the flask ends empty."""
    from dsim.games.dstbg.position import Position
    from tests.kit import play, scene

    comp = H.apply_house_rules(scene(["knight"], encounter="the_forgotten").comp, {"extra_estus": extra})
    pos = Position(comp)
    for e in range(1, len(comp.enemy_ids)):
        pos.remove_enemy(e)
    pos.enemy(0, (0, 0)).char("knight", (4, 4), stamina=4)
    _, evs = play(pos, H_ESTUS=1)
    assert sum(ev["event"] == "estus" and ev["actor"] == "knight" for ev in evs) == 1 + extra
    assert evs[-1]["state"]["characters"][0]["estus"] is False
