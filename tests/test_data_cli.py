"""``dsim data validate/list/show/coverage`` through Typer's test runner: output, JSON shape, user errors."""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest
from typer.testing import CliRunner

from dsim.cli import app
from dsim.games.dstbg import coverage
from dsim.games.dstbg.loader import KINDS, load_game_data
from dsim.games.dstbg.schema import EffectKind

runner = CliRunner()


def run(*args: str, code: int = 0) -> Any:
    result = runner.invoke(app, ["data", *args])
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def run_json(*args: str) -> Any:
    return json.loads(run(*args, "--json").stdout)


def test_validate_reports_the_counts() -> None:
    out = run("validate").stdout
    assert out.startswith("OK: 4 dice, 4 characters, 133 items, 6 enemies, 6 bosses, 36 encounters")
    assert ", 2 scenarios (" in out
    assert "data/dstbg" in out


@pytest.mark.parametrize("kind", KINDS)
def test_list_json_has_every_entry(kind: str) -> None:
    entries = run_json("list", kind)
    assert [e["id"] for e in entries] == list(load_game_data().entries(kind))


def test_R_2_5_list_json_writes_unlimited_range_as_inf() -> None:
    enemies = {e["id"]: e for e in run_json("list", "enemies")}
    assert enemies["crossbow_hollow"]["range"] == "inf"
    assert enemies["large_hollow_soldier"]["range"] is None
    attack = {"op": "attack", "type": "physical", "damage": 4, "target": "nearest"}
    assert enemies["hollow_soldier"]["behaviour"][1] == {**attack, "node": False, "push": False, "conditions": []}


def test_list_table_marks_placeholders_and_decisions(monkeypatch) -> None:
    from dsim.cli import data as data_cli

    monkeypatch.setattr(data_cli.console, "_width", 200)  # one row per entry
    out = run("list", "tiles").stdout
    assert "exploration" in out and "mini_boss" in out
    assert "P = placeholder" in out
    rows = [line for line in run("list", "characters").stdout.splitlines() if "knight" in line.lower()]
    assert any("PD" in row for row in rows)


@pytest.mark.parametrize("kind", ["characters", "encounters", "items"])
def test_list_table_never_cuts_a_word_at_80_or_200_columns(kind: str, monkeypatch) -> None:
    """At 80 columns a list once printed `leve l`, `Assass in`: now every header and every id or value word is
    whole (the fields of each entry one per row when the columns do not fit side by side)."""
    from dsim.cli import data as data_cli

    entries = run_json("list", kind)
    for width in (80, 200):
        monkeypatch.setattr(data_cli.console, "_width", width)
        out = run("list", kind).stdout
        assert max(map(len, out.splitlines())) <= width
        words = set(out.split())
        assert {e["id"] for e in entries} <= words
        if kind == "encounters":
            assert {"level", "spawn", "silver_knight_greatbowman"} <= words
        if kind == "characters":
            assert {"Assassin", "assassin_armour", "estoc,", "target_shield", "10/14/11/9"} <= words
            assert ("field" in words) == (width == 80)  # 9 columns fit side by side at 200, not at 80


@pytest.mark.parametrize("game, kind", [("bloodborne", "monsters"), ("dark_maiden", "piles"), ("bloodborne", "starters")])
def test_other_games_lists_fold_a_long_value_at_80_columns_instead_of_cutting_it(game: str, kind: str,
                                                                                   monkeypatch) -> None:
    """Bloodborne's monsters at 80 columns showed `on_reveal:damage_hun…`: a value with no space to wrap at was cut.
    Every value now folds onto the next line, so each entry's fields, joined up again, are whole."""
    from dsim.cli import data as data_cli

    entries = json.loads(run("--game", game, "list", kind, "--json").stdout)
    monkeypatch.setattr(data_cli.console, "_width", 80)
    out = run("--game", game, "list", kind).stdout
    assert "…" not in out and max(map(len, out.splitlines())) <= 80
    joined = "".join(line.split("│")[3].strip() for line in out.splitlines() if line.count("│") == 4)
    if kind == "monsters":
        effects = [f"{e['when']}:{e['op']}({e['amount']})" for entry in entries for e in entry.get("effects") or []]
        assert effects and all(effect in joined for effect in effects)


def test_list_unknown_kind_is_a_one_line_error() -> None:
    result = run("list", "monsters", code=1)
    kinds = "dice, characters, items, enemies, bosses, encounters, tiles, traps, loadouts, scenarios, treasure"
    assert result.stderr.strip().splitlines() == [f"Error: unknown kind 'monsters'; expected one of: {kinds}"]


def test_show_json_is_the_object() -> None:
    sword = run_json("show", "long_sword")
    assert sword["name"] == "Long Sword"
    assert [line["dice"] for line in sword["attacks"]] == ["U", "KU"]
    card = run_json("show", "gargoyle/tail_whip")
    assert card["halves"][0]["dodge"] == 2 and card["halves"][0]["weak_arcs"] == ["front"]


def test_show_text_gives_kind_and_file() -> None:
    out = run("show", "gargoyle").stdout
    assert "bosses: gargoyle" in out and "gargoyle.yaml" in out and "tail_whip" in out


def test_show_ambiguous_and_unknown_ids_fail_with_a_hint() -> None:
    ambiguous = run("show", "tail_whip", code=1).stderr
    assert "gargoyle/tail_whip" in ambiguous and "titanite_demon/tail_whip" in ambiguous
    unknown = run("show", "longsword", code=1).stderr
    assert "did you mean long_sword" in unknown


def test_show_takes_a_kind_singular_or_plural_and_hints_within_it() -> None:
    for args in (("show", "mid_game", "--kind", "loadout"), ("show", "mid_game", "--kind", "loadouts"),
                 ("show", "loadout", "mid_game")):
        assert "loadouts: mid_game" in run(*args).stdout
    wrong_kind = run("show", "mid_game", "--kind", "characters", code=1).stderr
    assert "no character with id 'mid_game'; see `dsim data list characters`" in " ".join(wrong_kind.split())


def test_coverage_lists_every_effect_the_kernel_does_not_simulate() -> None:
    uses = [u for u in run_json("coverage") if u["kind"] != "placeholder"]  # the treasure deck's: test_treasure_data
    kinds = {u["kind"] for u in uses}
    assert kinds <= set(get_args(EffectKind)) - coverage.SIMULATED_EFFECTS
    assert {"gain_stamina", "walk_extra_node"} <= kinds
    assert not {"immune_condition", "free_attack_after_dodge", "reduce_big_hit"} & kinds
    owners = {(u["owner_kind"], u["owner_id"]) for u in uses}
    assert {("items", "talisman"), ("items", "dancer_armour")} <= owners
    assert all(u["text"] and u["where"] for u in uses)
    assert "gain_stamina" in run("coverage").stdout


def test_coverage_leaves_out_simulated_kinds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coverage, "SIMULATED_EFFECTS", frozenset({"gain_stamina"}))
    kinds = {u["kind"] for u in run_json("coverage")}
    assert "gain_stamina" not in kinds and "gain_health" in kinds
    monkeypatch.setattr(coverage, "SIMULATED_EFFECTS", frozenset(get_args(EffectKind)))
    assert {u["kind"] for u in run_json("coverage")} == {"placeholder"}  # the treasure deck's (GAP 4) and entries'


def test_coverage_lists_every_entry_that_data_list_marks_as_a_placeholder() -> None:
    """Coverage said "placeholder figures: 1" (the treasure deck) while `data list` marked P on characters,
    tiles, traps, items and bosses (audit, session 14)."""
    listed = {(u["owner_kind"], u["owner_id"]) for u in run_json("coverage") if u["kind"] == "placeholder"}
    for kind in ("characters", "tiles", "traps", "items", "bosses"):
        marked = {(kind, e["id"]) for e in run_json("list", kind) if e.get("placeholder")}
        assert marked and marked <= listed, kind


def test_unknown_game_is_a_one_line_error() -> None:
    result = runner.invoke(app, ["data", "--game", "nosuchgame", "validate"])
    assert result.exit_code == 1
    line = result.stderr.strip()
    assert "\n" not in line and line.startswith("Error: unknown game 'nosuchgame' (available: ") and "dstbg" in line


def test_show_with_a_kind_and_a_different_kind_option_is_an_error() -> None:
    """`data show bosses gargoyle --kind characters` showed the boss, ignoring --kind (audit, session 14)."""
    result = run("show", "bosses", "gargoyle", "--kind", "characters", code=1)
    assert "two kinds given: bosses (before the id) and --kind characters" in result.stderr
    assert "Gargoyle" in run("show", "boss", "gargoyle", "--kind", "bosses").stdout  # the same kind twice is fine


def test_game_may_follow_the_subcommand() -> None:
    """`dsim data list dice --game bloodborne` was "No such option: --game" (it had to come before `list`)."""
    after = run_json("list", "dice", "--game", "bloodborne")
    before = json.loads(run("--game", "bloodborne", "list", "dice", "--json").stdout)
    assert after == before and {d["id"] for d in after} == {"green", "yellow", "red"}
    assert "amazona" in run("show", "amazona", "--game", "dark_maiden").stdout
    assert run("validate", "--game", "bloodborne").stdout.startswith("OK: 3 dice")
    assert "Error: unknown game 'nope'" in run("list", "dice", "--game", "nope", code=1).stderr
