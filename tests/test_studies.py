"""The shipped experiment files (issue 6): they parse, expand to the intended grids, every DS:TBG
study's cells compile, and the commands their comments suggest are ones `dsim` accepts."""

from __future__ import annotations

from itertools import combinations

import pytest

from dsim.games import get_game
from dsim.games.dstbg.loader import load_game_data
from dsim.paths import REPO_ROOT
from dsim.sweep import check_cells, expand, load_experiment

EXPERIMENTS = REPO_ROOT / "experiments"
CLASSES = ("assassin", "herald", "knight", "warrior")
ALL_PARTIES = {c for n in range(1, 5) for c in combinations(CLASSES, n)}
RUNNABLE = ("parties_vs_encounters", "dodge_vs_block", "house_rule_bleed")
BOSS_STUDIES = ("parties_vs_bosses", "dodge_vs_block_bosses", "parties_vs_bosses_midgame")
DARK_MAIDEN = ("dark_maiden_parties",)
WHOLE_GAMES = ("dstbg_games",)


def _cells(name: str):
    return expand(load_experiment(EXPERIMENTS / f"{name}.toml").experiment)


def test_every_experiment_file_is_covered_here():
    assert {p.stem for p in EXPERIMENTS.glob("*.toml")} == set(RUNNABLE) | set(BOSS_STUDIES) | set(DARK_MAIDEN) | \
        set(WHOLE_GAMES)


def test_parties_vs_encounters_is_every_party_against_one_encounter_per_level():
    cells = _cells("parties_vs_encounters")
    encounters = load_game_data().encounters
    assert {tuple(sorted(c.settings["party"])) for c in cells} == ALL_PARTIES
    assert sorted(encounters[c.settings["encounter"]].level for c in cells) == sorted([1, 2, 3] * len(ALL_PARTIES))
    assert len(cells) == 45


def test_parties_vs_bosses_is_every_party_against_every_core_boss():
    cells = _cells("parties_vs_bosses")
    assert {tuple(sorted(c.settings["party"])) for c in cells} == ALL_PARTIES
    assert {c.settings["boss"] for c in cells} == set(load_game_data().bosses)
    assert len(cells) == len(ALL_PARTIES) * len(load_game_data().bosses)


def test_parties_vs_bosses_midgame_is_the_same_grid_with_the_mid_game_loadout():
    starting, mid = _cells("parties_vs_bosses"), _cells("parties_vs_bosses_midgame")
    assert [c.settings | {"loadout": "mid_game"} for c in starting] == [c.settings for c in mid]
    assert not any("loadout" in c.settings for c in starting)  # starting study keeps its cell ids
    check_cells(get_game("dstbg"), mid, EXPERIMENTS / "parties_vs_bosses_midgame.toml")


@pytest.mark.parametrize("name", ["dodge_vs_block", "dodge_vs_block_bosses"])
def test_dodge_vs_block_spans_always_dodge_to_always_block(name):
    edges = {c.settings["policy_params"]["dodge_edge"] for c in _cells(name)}
    assert edges == {-500.0, 0.0, 500.0}


def test_house_rule_bleed_pairs_each_cell_with_the_house_rule_reading():
    cells = _cells("house_rule_bleed")
    readings = [c.settings["variants"].get("bleed_zero_damage", "default") for c in cells]
    assert readings.count("trigger_on_hit") == readings.count("default") == len(cells) // 2
    assert all((REPO_ROOT / c.settings["data"]).is_dir() for c in cells)


@pytest.mark.parametrize("name", RUNNABLE + BOSS_STUDIES)
def test_study_cells_all_compile(name, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)  # overlay paths in experiment files are relative to the repository
    source = load_experiment(EXPERIMENTS / f"{name}.toml")
    check_cells(get_game("dstbg"), expand(source.experiment), source.path)


@pytest.mark.parametrize("path", sorted(EXPERIMENTS.glob("*.toml")), ids=lambda p: p.stem)
def test_a_study_s_suggested_plot_names_what_varies(path):
    """dodge_vs_block.toml suggested `--kind variant`, which needs `--x policy_params.dodge_edge` there; and
    dodge_vs_block_bosses.toml still said "NOT RUNNABLE YET" long after boss battles landed."""
    text = path.read_text("utf-8")
    assert "NOT RUNNABLE" not in text
    for line in text.splitlines():
        if "--kind variant" in line:
            key = line.split("--x", 1)[1].split()[0] if "--x" in line else None
            flats = [dict(_flat(c.settings)) for c in _cells(path.stem)]
            varying = {k for flat in flats for k in flat if len({repr(f.get(k)) for f in flats}) > 1}
            assert key in varying or key is None and sum(k.startswith("variants.") for k in varying) == 1, line


def _flat(settings, prefix=""):
    """(dotted setting name, value) pairs, the names as `dsim plot --x` takes them."""
    for key, value in settings.items():
        yield from _flat(value, f"{prefix}{key}.") if isinstance(value, dict) else [(f"{prefix}{key}", value)]


def test_bleeding_hollows_overlay_gives_the_hollow_soldier_attack_bleed_R_9_10():
    data = load_game_data(overlay=EXPERIMENTS / "overlays" / "bleeding_hollows")
    attack = data.enemies["hollow_soldier"].behaviour[-1]
    assert attack.op == "attack" and list(attack.conditions) == ["bleed"]
    assert load_game_data().enemies["hollow_soldier"].behaviour[-1].conditions == []


def test_dark_maiden_parties_is_every_basic_party_on_every_difficulty():
    """Every party of the three basic heroes, and one of four (a hero repeated), on easy, normal and hard (DM-2.6):
    24 cells, all playable."""
    source = load_experiment(EXPERIMENTS / "dark_maiden_parties.toml")
    cells = expand(source.experiment)
    basic = ("amazona", "barbara", "guerrero")
    parties = {tuple(c.settings["party"]) for c in cells}
    assert {p for p in parties if len(p) < 4} == {p for n in range(1, 4) for p in combinations(basic, n)}
    assert [len(p) for p in parties].count(4) == 1 and all(set(p) <= set(basic) for p in parties)
    assert {c.settings["difficulty"] for c in cells} == {"easy", "normal", "hard"} and len(cells) == 24
    check_cells(get_game("dark_maiden"), cells, source.path)


def test_dstbg_games_is_every_party_against_every_mini_boss_per_strategy():
    """Whole games (R-1.1): every party of 1-4 core classes x every mini boss x every strategy, all playable."""
    source = load_experiment(EXPERIMENTS / "dstbg_games.toml")
    cells = expand(source.experiment)
    assert {tuple(sorted(c.settings["party"])) for c in cells} == ALL_PARTIES
    minis = {b for b, v in load_game_data().bosses.items() if v.kind == "mini"}
    assert {c.settings["mini_boss"] for c in cells} == minis
    assert {c.settings["policy"] for c in cells} == {p.name for p in get_game("dstbg_game").policies().all()
                                                     if p.name != "scripted_test"}
    assert len(cells) == len(ALL_PARTIES) * len(minis) * 5
    check_cells(get_game("dstbg_game"), cells[:8], source.path)
