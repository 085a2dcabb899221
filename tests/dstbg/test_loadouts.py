"""Loadouts (issue 6): ``data/dstbg/loadouts.yaml`` is validated like the other files, compile equips
a loadout's kits with upgrades applied to the item and line rows (R-4.7), and the ``loadout``
setting reaches the CLI, sweeps and the battle results."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from dsim.cli import app
from dsim.games.dstbg.compile import compile_boss, compile_encounter, party_gear
from dsim.games.dstbg.game import DSTBG, prepare
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.loader import load_game_data
from dsim.stats import wilson_interval
from dsim.sweep import Experiment, expand, make_cell
from tests.test_data_errors import assert_reported, validate, write

runner = CliRunner()
PARTY = ["knight", "warrior", "assassin", "herald"]


def overlay_loadout(tmp_path: Path, cid: str, kit: dict[str, Any], loadout_id: str = "test_kit") -> Path:
    """An overlay folder holding one extra loadout with one kit; the shipped loadouts stay."""
    entry = {"id": loadout_id, "name": "Test", "source": "test", "characters": {cid: kit}}
    return write(tmp_path / "loadouts.yaml", {"loadouts": [entry]})


def lines_of(compiled: Any, item_id: str) -> np.ndarray:
    rows = [i for i, name in enumerate(compiled.line_names) if name.rpartition(" #")[0] == item_id]
    return compiled.tables.lines[rows]


def dice(row: np.ndarray) -> tuple[int, ...]:
    return tuple(int(x) for x in row[[L.L_STAMINA, L.L_K, L.L_U, L.L_O, L.L_MOD]])


# ---------------------------------------------------------------- validation (one line: file, entry, field)


def test_unknown_item_in_a_kit_is_reported(tmp_path: Path) -> None:
    path = overlay_loadout(tmp_path, "knight", {"armour": "knight_armour", "hands": ["longsword"]})
    assert_reported(validate(tmp_path), str(path), 'loadout "test_kit"', 'field "characters.knight.hands[0]"',
                    "unknown item 'longsword'")


def test_armour_in_a_hand_slot_is_reported(tmp_path: Path) -> None:
    overlay_loadout(tmp_path, "knight", {"armour": "long_sword", "hands": ["knight_armour"]})
    result = validate(tmp_path)
    assert_reported(result, 'field "characters.knight.armour"', "expected an armour, got weapon 'long_sword'")
    assert_reported(result, 'field "characters.knight.hands[0]"', "expected a hand item", "armour 'knight_armour'")


def test_R_3_10_missing_stat_tier_is_reported_with_the_stat_to_raise(tmp_path: Path) -> None:
    kit = {"levels": {"strength": 1, "dexterity": 1}, "armour": "knight_armour", "hands": ["broadsword"]}
    overlay_loadout(tmp_path, "knight", kit)
    assert_reported(validate(tmp_path), 'field "characters.knight.hands[0]"',
                    "'broadsword' needs strength 30, knight has 21 at tier 1; raise levels.strength (R-3.10)")
    kit["levels"] = {"strength": 2, "dexterity": 1}  # Knight Str 30 at tier 2, Dex 28 needs tier 1 (19): still short
    overlay_loadout(tmp_path, "knight", kit)
    assert_reported(validate(tmp_path), "'broadsword' needs dexterity 28, knight has 19 at tier 1")
    kit["levels"] = {"strength": 2, "dexterity": 2}
    overlay_loadout(tmp_path, "knight", kit)
    assert validate(tmp_path).exit_code == 0


def test_R_4_5_upgrade_requirements_count_too(tmp_path: Path) -> None:
    kit = {"armour": "knight_armour", "hands": ["long_sword"], "levels": {"strength": 1, "dexterity": 1},
           "upgrades": {"long_sword": ["heavy_gem"]}}
    overlay_loadout(tmp_path, "knight", kit)
    result = validate(tmp_path)
    assert_reported(result, 'field "characters.knight.upgrades.long_sword"', "0 upgrade slot(s) (R-4.7)")
    assert_reported(result, 'field "characters.knight.upgrades.long_sword[0]"', "'heavy_gem' needs strength 25")


def test_R_4_7_upgrade_kind_and_target_are_checked(tmp_path: Path) -> None:
    kit = {"armour": "sunless_armour", "hands": ["thrall_axe"], "levels": {"strength": 1, "dexterity": 1, "faith": 1},
           "upgrades": {"thrall_axe": ["chloranthy_ring"], "sunless_armour": ["titanite_shard"], "kite_shield": []}}
    overlay_loadout(tmp_path, "knight", kit)
    result = validate(tmp_path)
    assert_reported(result, "upgrades.thrall_axe[0]", "expected a weapon_upgrade", "armour_upgrade 'chloranthy_ring'")
    assert_reported(result, "upgrades.sunless_armour[0]", "expected a armour_upgrade", "'titanite_shard'")
    assert_reported(result, "upgrades.kite_shield", "'kite_shield' is not in this kit")


def test_R_4_2_two_handed_weapon_and_a_shield_do_not_fit(tmp_path: Path) -> None:
    kit = {"armour": "northern_armour", "hands": ["great_wooden_hammer", "round_shield"], "levels": {"strength": 2}}
    overlay_loadout(tmp_path, "warrior", kit)
    assert_reported(validate(tmp_path), 'field "characters.warrior.hands"', "the items need 3 hands")


def test_bad_tier_is_a_schema_error(tmp_path: Path) -> None:
    overlay_loadout(tmp_path, "knight", {"armour": "knight_armour", "hands": [], "levels": {"strength": 4}})
    assert_reported(validate(tmp_path), 'loadout "test_kit"', "characters.knight.levels.strength",
                    "expected a value ≤ 3, got 4")


# ---------------------------------------------------------------- shipped data


def test_starting_loadout_is_the_starting_equipment_R_1_7() -> None:
    data = load_game_data()
    assert set(data.loadouts) >= {"starting", "mid_game"}
    for cid, character in data.characters.items():
        kit, start = data.loadouts["starting"].characters[cid], character.starting_equipment
        assert (kit.armour, kit.hands, kit.backup, kit.upgrades) == (start.armour, start.hands, start.backup, {})
        assert kit.levels.souls() == 0
    default = compile_boss(data, PARTY, "gargoyle")
    starting = compile_boss(data, PARTY, "gargoyle", loadout="starting")
    for name in ("chars", "items", "lines", "lstat", "scen"):
        assert np.array_equal(getattr(default.tables, name), getattr(starting.tables, name)), name


def test_mid_game_kits_cover_every_class_and_fit_the_soul_budget_R_5_7() -> None:
    data = load_game_data()
    mid = data.loadouts["mid_game"]
    assert set(mid.characters) == set(data.characters)
    for kit in mid.characters.values():
        assert 0 < kit.levels.souls() <= 8  # about 8 souls per character before the mini boss (file header)
        assert kit.decision and kit.source
        for item_id in (kit.armour, *kit.hands, *kit.backup, *(u for ups in kit.upgrades.values() for u in ups)):
            assert data.items[item_id].treasure in ("starter", "generic", "class")  # no post-mini-boss treasure


def test_level_souls_follow_R_5_7() -> None:
    from dsim.games.dstbg.schema import StatLevels

    assert StatLevels(strength=1, dexterity=1, faith=3).souls() == 18  # the rulebook's worked example
    assert StatLevels(strength=2).souls() == 6


# ---------------------------------------------------------------- compile


def test_mid_game_knight_has_the_thrall_axe_with_a_titanite_shard() -> None:
    data = load_game_data()
    compiled = compile_encounter(data, ["knight", "warrior"], "the_forgotten", loadout="mid_game")
    assert compiled.item_ids[:3] == ("lothric_knight_armour", "thrall_axe+titanite_shard", "silver_eagle_kite_shield")
    # Thrall Axe: 0 stamina KK, 3 stamina KU; the shard adds +1 damage to both (R-4.7 example)
    assert [dice(r) for r in lines_of(compiled, "thrall_axe")] == [(0, 2, 0, 0, 1), (3, 1, 1, 0, 1)]
    assert "long_sword" not in compiled.item_ids
    items = compiled.tables.items
    assert tuple(items[2, L.IT_BLOCK_K : L.IT_BLOCK_O + 1]) == (0, 1, 0)  # Silver Eagle Kite Shield: block U
    assert tuple(items[0, L.IT_RESIST_K : L.IT_RESIST_O + 1]) == (0, 1, 0)  # Lothric Knight Armour: resist U


def test_mid_game_warrior_hammer_gets_the_heavy_gems_extra_die_and_line_stats_follow() -> None:
    data = load_game_data()
    mid = compile_encounter(data, ["warrior"], "the_forgotten", loadout="mid_game")
    hammer = lines_of(mid, "great_wooden_hammer")
    assert [dice(r) for r in hammer] == [(0, 4, 0, 0, 0), (3, 4, 0, 0, 0)]  # KKK + 1 black die
    assert list(hammer[:, L.L_NODE]) == [0, 1]
    row = [i for i, n in enumerate(mid.line_names) if n == "great_wooden_hammer #1"][0]
    assert mid.tables.lstat[row, 0, 0, 0] == round(100 * 4 * 7 / 6)  # E[4 black dice] = 4 x 7/6
    equip = mid.tables.scen  # two-handed: the second hand is empty, battle axe and round shield in backup
    from dsim.games.dstbg.kernel import context as X

    assert list(equip[X.SC_EQUIP : X.SC_EQUIP + 5]) == [0, 1, -1, 2, 3]


def test_poison_gem_and_armour_ring_apply_to_lines(tmp_path: Path) -> None:
    mid = compile_encounter(load_game_data(), ["assassin"], "the_forgotten", loadout="mid_game")
    assert all(r[L.L_COND] == L.COND_POISON for r in lines_of(mid, "scimitar"))
    # Hornet Ring (armour upgrade, "your attacks"): +1 orange die and -2 damage on every hand item's dice lines
    kit = {"levels": {"dexterity": 2, "intelligence": 1}, "armour": "masters_attire", "hands": ["estoc", "target_shield"],
           "upgrades": {"masters_attire": ["hornet_ring"]}}
    data = load_game_data(overlay=overlay_loadout(tmp_path, "assassin", kit).parent)
    ringed = compile_encounter(data, ["assassin"], "the_forgotten", loadout="test_kit")
    assert [dice(r) for r in lines_of(ringed, "estoc")] == [(0, 2, 0, 1, -3), (3, 3, 0, 1, -3)]


def test_simple_gem_lowers_the_most_expensive_line_only(tmp_path: Path) -> None:
    kit = {"levels": {"strength": 1, "faith": 1}, "armour": "herald_armour", "hands": ["morning_star"],
           "upgrades": {"morning_star": ["simple_gem"]}}
    data = load_game_data(overlay=overlay_loadout(tmp_path, "herald", kit).parent)
    compiled = compile_encounter(data, ["herald"], "the_forgotten", loadout="test_kit")
    assert [int(r[L.L_STAMINA]) for r in lines_of(compiled, "morning_star")] == [0, 2]


def test_loadout_table_per_character_and_its_errors() -> None:
    data = load_game_data()
    gear = party_gear(data, ["knight", "warrior"], {"knight": "mid_game", "warrior": "starting"})
    assert [g.hands for g in gear] == [("thrall_axe", "silver_eagle_kite_shield"), ("battle_axe", "round_shield")]
    with pytest.raises(ValueError, match="no loadout for 'warrior'"):
        party_gear(data, ["knight", "warrior"], {"knight": "mid_game"})
    from dsim.games.base import SettingsError
    from dsim.games.dstbg.game import DSTBG, parse_loadout

    with pytest.raises(SettingsError, match="--loadout names 'nobody', who is in no --party"):
        DSTBG().settings_from_options({"party": "knight,warrior", "encounter": "the_forgotten",
                                       "loadout": "knight=mid_game,warrior=starting,nobody=late_game"})
    table = "knight=mid_game,warrior=mid_game"  # a grid of sizes: each cell takes its own members' kits
    cells = DSTBG().grid({"party": ["knight,warrior"], "sizes": ["1,2"], "encounter": ["the_forgotten"],
                          "loadout": [table]})
    assert [c["party"] for c in cells] == [["knight"], ["knight", "warrior"]]
    assert [len(party_gear(data, c["party"], c["loadout"])) for c in cells] == [1, 2]

    with pytest.raises(SettingsError, match="knight is given twice"):
        parse_loadout("knight=mid_game,knight=late_game")
    with pytest.raises(ValueError, match="unknown loadout 'endgame'"):
        prepare({"party": ["knight"], "encounter": "the_forgotten", "loadout": "endgame"})


def test_run_loadout_option_reaches_the_settings_and_the_json() -> None:
    from dsim.games.dstbg.game import parse_loadout

    assert parse_loadout("mid_game") == "mid_game"
    assert parse_loadout("knight=mid_game, warrior=starting") == {"knight": "mid_game", "warrior": "starting"}
    result = runner.invoke(app, ["run", "--party", "knight", "--encounter", "the_forgotten", "--battles", "50",
                                 "--loadout", "mid_game", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["loadout"] == "mid_game" and summary["settings"]["loadout"] == "mid_game"
    bad = runner.invoke(app, ["run", "--party", "knight", "--encounter", "the_forgotten", "--loadout", "nope"])
    assert bad.exit_code == 1 and "unknown loadout 'nope'" in bad.stderr


def test_data_show_kind_and_id_gives_the_loadout_and_its_souls() -> None:
    result = runner.invoke(app, ["data", "show", "loadout", "mid_game"])
    assert result.exit_code == 0, result.output
    assert "loadouts: mid_game" in result.stdout and "great_wooden_hammer" in result.stdout
    assert "assassin 4, herald 4, knight 6, warrior 6" in result.stdout
    coverage = json.loads(runner.invoke(app, ["data", "coverage", "--json"]).stdout)
    gaps = {(u["owner_id"], u["where"], u["kind"]) for u in coverage if u["owner_kind"] == "loadouts"}
    assert ("mid_game", "knight kit: lothric_knight_armour", "heal_per_enemy_on_node") in gaps
    assert not any(u["owner_id"] in ("titanite_shard", "heavy_gem", "poison_gem") for u in coverage)


def test_explain_header_lists_each_characters_loadout_gear() -> None:
    result = runner.invoke(app, ["explain", "--party", "knight,warrior", "--boss", "gargoyle",
                                 "--loadout", "knight=mid_game,warrior=starting"])
    assert result.exit_code == 0, result.output
    head = " ".join(result.stdout.split()[:12])
    assert head.startswith("loadout knight=mid_game, warrior=starting knight: lothric_knight_armour,"), head
    assert "warrior: northern_armour, battle_axe, round_shield" in " ".join(result.stdout.split())


# ---------------------------------------------------------------- sweeps and battles


def test_sweep_grid_over_loadout_gives_stable_cell_ids() -> None:
    grid = {"party": [["knight", "warrior"]], "loadout": ["starting", "mid_game"]}
    exp = Experiment(game="dstbg", name="t", seed=1, battles=10, fixed={"boss": "gargoyle"}, grid=grid)
    cells = expand(exp)
    assert [c.settings["loadout"] for c in cells] == ["starting", "mid_game"]
    reordered = expand(Experiment(game="dstbg", name="t", seed=1, battles=10, fixed={"boss": "gargoyle"},
                                  grid={"loadout": ["mid_game", "starting"], "party": [["knight", "warrior"]]}))
    assert {c.id for c in cells} == {c.id for c in reordered}
    assert cells[1].id == make_cell({"boss": "gargoyle", "party": ["knight", "warrior"], "loadout": "mid_game"}).id
    assert cells[1].id == "47fc56c2e2e65fd3"  # canonical-JSON hash: a change here would orphan stored results
    # no loadout key = starting equipment under the old cell id, so earlier results stay comparable
    assert make_cell({"boss": "gargoyle", "party": ["knight", "warrior"]}).id != cells[0].id


def test_mid_game_loadout_raises_the_win_rate_beyond_the_intervals() -> None:
    game, n = DSTBG(), 1500
    rates = {}
    for loadout in ("starting", "mid_game"):
        settings = {"party": ["knight", "warrior"], "boss": "gargoyle", "loadout": loadout}
        wins = int(game.play(settings, 7, 11, 0, n)["win"].sum())
        rates[loadout] = wilson_interval(wins, n)
    assert rates["mid_game"][0] > rates["starting"][1], rates


def test_late_game_kits_need_more_souls_than_mid_game_and_no_boss_treasure() -> None:
    data = load_game_data()
    mid, late = data.loadouts["mid_game"], data.loadouts["late_game"]
    for cid, kit in late.characters.items():
        assert mid.characters[cid].levels.souls() < kit.levels.souls() <= 14  # about 19 souls per character
        cards = (kit.armour, *kit.hands, *kit.backup, *(u for ups in kit.upgrades.values() for u in ups))
        assert all(data.items[i].treasure != "boss" for i in cards)
    # the Hornet Ring on the late assassin's armour reaches the Murakumo's lines: K+K(gem)+O-2
    compiled = compile_encounter(data, ["assassin"], "the_forgotten", loadout="late_game")
    assert [dice(r) for r in lines_of(compiled, "murakumo")] == [(0, 2, 0, 1, -2), (3, 4, 0, 1, -2)]
