"""Schema rules of single entries, and the one-line problem format of ``dsim.validation``."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from dsim.games.dstbg.schema import INF_RANGE, BossAttack, Effect, Item, StatTiers, Tile
from dsim.validation import Problem, entry_label, problems_from_validation, singular


def weapon(**fields: Any) -> dict[str, Any]:
    return {
        "id": "club",
        "name": "Club",
        "kind": "weapon",
        "treasure": "generic",
        "hands": 1,
        "source": "test",
        **fields,
    }


def test_R_2_5_inf_range_is_stored_as_a_big_int_and_written_back_as_inf() -> None:
    item = Item.model_validate(weapon(range="inf", attacks=[{"stamina": 0, "dice": "K", "range": "∞"}]))
    assert item.range == item.attacks[0].range == INF_RANGE
    dumped = item.model_dump(mode="json")
    assert dumped["range"] == "inf" and dumped["attacks"][0]["range"] == "inf"
    assert Item.model_validate(dumped) == item
    with pytest.raises(ValidationError):
        Item.model_validate(weapon(range=-1))


def test_attack_line_defaults_fill_omitted_fields() -> None:
    line = Item.model_validate(weapon(attacks=[{"stamina": 2, "dice": "KU"}])).attacks[0]
    assert (line.modifier, line.magic, line.node, line.reach, line.range, line.repeat, line.conditions) == (
        0, False, False, False, None, 1, [],
    )  # fmt: skip


@pytest.mark.parametrize(
    "fields",
    [
        {"hands": None},  # a weapon needs hands
        {"kind": "armour"},  # armour has no hands
        {"kind": "spell"},  # a spell needs its school
        {"treasure": "class"},  # class treasure needs class_of
        {"boss_of": "gargoyle"},  # boss_of only on boss treasure
        {"block": "KG"},  # the green die is not a block die
        {"block": "K\n"},
        {"id": "Club Sword"},
        {"attacks": [{"stamina": 0, "conditions": ["burn"]}]},
        {"attacks": [{"stamina": 0, "repeat": 0}]},
    ],
)
def test_inconsistent_items_are_rejected(fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        Item.model_validate(weapon(**fields))


def test_effects_that_need_a_detail_require_it() -> None:
    with pytest.raises(ValidationError, match="needs the field 'condition'"):
        Effect.model_validate({"kind": "immune_condition", "text": "Immune."})
    assert Effect.model_validate({"kind": "extra_die", "die": "O", "text": "+1 orange die."}).die == "O"
    with pytest.raises(ValidationError):
        Effect.model_validate({"kind": "teleport", "text": "Not a card effect."})


def test_R_12_22_area_attacks_have_arcs_and_single_target_attacks_none() -> None:
    base = {"op": "attack", "type": "physical", "damage": 5}
    assert BossAttack.model_validate({**base, "target": "area", "arcs": ["front"]}).arcs == ["front"]
    with pytest.raises(ValidationError):
        BossAttack.model_validate({**base, "target": "area"})
    with pytest.raises(ValidationError):
        BossAttack.model_validate({**base, "target": "aggro", "arcs": ["back"]})


def test_R_3_10_stat_tiers_never_decrease() -> None:
    with pytest.raises(ValidationError, match="must not decrease"):
        StatTiers.model_validate({s: [10, 12, 11, 20] for s in ("strength", "dexterity", "intelligence", "faith")})


def test_tile_nodes_lie_on_the_checkerboard_and_kinds_need_their_nodes() -> None:
    tile = {"id": "t", "name": "T", "source": "test", "kind": "mini_boss", "doors": ["bottom"]}
    assert Tile.model_validate({**tile, "boss_spawn": [0, 2]}).boss_spawn == (0, 2)
    for bad in ([0, 1], [5, 1], [-1, 1]):
        with pytest.raises(ValidationError, match="row\\+col even"):
            Tile.model_validate({**tile, "boss_spawn": bad})
    with pytest.raises(ValidationError, match="needs boss_spawn"):
        Tile.model_validate(tile)


def test_problem_renders_file_entry_field_and_message_on_one_line() -> None:
    problem = Problem(
        "data/dstbg/bosses/gargoyle.yaml", 'card "tail_whip"', "halves[0].dodge", "expected an integer, got 'two'"
    )
    assert str(problem) == (
        'data/dstbg/bosses/gargoyle.yaml: card "tail_whip": field "halves[0].dodge": expected an integer, got \'two\''
    )
    assert str(Problem("x.yaml", message="file not found")) == "x.yaml: file not found"


def test_entry_labels_use_the_singular_kind() -> None:
    assert [singular(k) for k in ("items", "enemies", "bosses", "dice", "halves", "cards")] == [
        "item", "enemy", "boss", "die", "half", "card",
    ]  # fmt: skip
    assert entry_label("items", "long_sword") == 'item "long_sword"'
    assert entry_label("items", None, 3) == "item #3"


def test_pydantic_errors_are_attributed_to_the_innermost_entry_with_an_id() -> None:
    raw = weapon(attacks=[{"stamina": "lots"}], effects=[{"kind": "extra_die", "text": "x"}])
    with pytest.raises(ValidationError) as caught:
        Item.model_validate(raw)
    problems = problems_from_validation(caught.value, "items.yaml", raw, 'item "club"')
    assert {(p.entry, p.field, p.message) for p in problems} == {
        ('item "club"', "attacks[0].stamina", "expected an integer, got 'lots'"),
        ('item "club"', "effects[0]", "effect kind 'extra_die' needs the field 'die'"),
    }
