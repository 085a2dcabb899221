"""Experiment files: schema errors, grid expansion, stable cell ids, validation by the game."""

import hashlib

import pytest
from typer.testing import CliRunner

from dsim.cli import app
from dsim.executors import LocalExecutor
from dsim.sweep import Experiment, ExperimentError, expand, load_experiment, run_sweep
from tests.toygame import write_experiment

GOLDEN = """
game = "dstbg"
name = "golden"
seed = 1
battles = 10
[fixed]
boss = "gargoyle"
gravestones = 2
[grid]
party = [["knight", "warrior"], ["assassin"]]
[grid.variants]
bleed_zero_damage = ["trigger_on_hit", "no_damage"]
"""

# The same experiment with keys, tables and grid values in another order.
GOLDEN_SHUFFLED = """
name = "golden"
battles = 10
seed = 1
game = "dstbg"
[grid]
variants = { bleed_zero_damage = ["no_damage", "trigger_on_hit"] }
party = [["assassin"], ["knight", "warrior"]]
[fixed]
gravestones = 2
boss = "gargoyle"
"""


def _load(tmp_path, text, name="e.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_experiment(path)


def test_grid_expands_to_the_product_over_fixed_settings(tmp_path):
    cells = expand(_load(tmp_path, GOLDEN).experiment)
    assert [c.settings for c in cells] == [
        {"boss": "gargoyle", "gravestones": 2, "party": party, "variants": {"bleed_zero_damage": bleed}}
        for party in (["knight", "warrior"], ["assassin"])
        for bleed in ("trigger_on_hit", "no_damage")
    ]


def test_cell_ids_are_golden_and_independent_of_key_and_grid_order(tmp_path):
    cells = expand(_load(tmp_path, GOLDEN).experiment)
    shuffled = expand(_load(tmp_path, GOLDEN_SHUFFLED, "s.toml").experiment)
    assert [c.id for c in cells] == [c.id for c in expand(_load(tmp_path, GOLDEN).experiment)]
    assert sorted(c.id for c in cells) == sorted(c.id for c in shuffled)
    assert [c.id for c in cells] == ["a13952e1353b2c81", "34a9e931e1bd4a69", "d562f6c6567749c4", "2f0c4d4a1486f871"]
    canonical = ('{"boss":"gargoyle","gravestones":2,"party":["knight","warrior"],'
                 '"variants":{"bleed_zero_damage":"trigger_on_hit"}}')
    assert cells[0].id == hashlib.sha256(canonical.encode()).hexdigest()[:16]
    assert cells[0].stream == int(cells[0].id, 16) >> 1 < 2**63


def test_explicit_cells_merge_over_fixed_and_duplicates_are_kept_once():
    exp = Experiment(game="toy", name="x", seed=1, battles=1, fixed={"p": 0.5, "variants": {"a": 1}},
                     grid={"max_rounds": [3, 4]},
                     cells=[{"max_rounds": 3}, {"variants": {"b": 2}, "p": 0.9}])
    settings = [c.settings for c in expand(exp)]
    assert settings == [
        {"p": 0.5, "variants": {"a": 1}, "max_rounds": 3},
        {"p": 0.5, "variants": {"a": 1}, "max_rounds": 4},
        {"p": 0.9, "variants": {"a": 1, "b": 2}},
    ]


def test_explicit_cells_without_grid_replace_the_fixed_only_cell():
    exp = Experiment(game="toy", name="x", seed=1, battles=1, fixed={"p": 0.5}, cells=[{"max_rounds": 3}])
    assert [c.settings for c in expand(exp)] == [{"p": 0.5, "max_rounds": 3}]
    fixed_only = Experiment(game="toy", name="x", seed=1, battles=1, fixed={"p": 0.5})
    assert [c.settings for c in expand(fixed_only)] == [{"p": 0.5}]


def test_grid_table_of_lists_sets_nested_settings_beside_fixed_ones():
    exp = Experiment(game="toy", name="x", seed=1, battles=1, fixed={"variants": {"a": 1}},
                     grid={"variants": {"b": [1, 2]}})
    assert [c.settings["variants"] for c in expand(exp)] == [{"a": 1, "b": 1}, {"a": 1, "b": 2}]


@pytest.mark.parametrize("body,message", [
    ('seed = -1\nbattles = 5', 'field "seed": expected a value ≥ 0, got -1'),
    ('seed = 1\nbattles = "many"', 'field "battles": expected an integer, got \'many\''),
    ('seed = 1\nbattles = 0', 'field "battles": expected a value ≥ 1, got 0'),
    ('seed = 1\nbattles = 5\nchunk = 0', 'field "chunk": expected a value ≥ 1, got 0'),
    ('seed = 1\nbattles = 1_000_000_000_001', 'field "battles": expected a value ≤ 1000000000000'),
    ('seed = 1\nbattles = 5\nchunk = 10_000_001', 'field "chunk": expected a value ≤ 10000000'),
    ('seed = 1\nbattles = 5\nbogus = 1', 'field "bogus": unknown field'),
    ('battles = 5', 'field "seed": required field is missing'),
    ('seed = 1\nbattles = 5\n[grid]\nparty = "knight"', 'field "grid.party": expected a non-empty list of values'),
    ('seed = 1\nbattles = 5\n[grid]\nparty = []', 'field "grid.party": expected a non-empty list of values'),
    ('seed = 1\nbattles = 5\n[fixed]\np = 0.5\n[grid]\np = [0.1]', 'field "grid.p": also set in [fixed]'),
    ('seed = 1\nbattles = 5\n[fixed]\nwhen = 1979-05-27', 'field "fixed.when": expected a string, number'),
    ('seed = 1\nbattles = 5\n[fixed]\np = nan', 'field "fixed.p": expected a finite number'),
    ('seed = 1\nbattles = 5\n[grid]\np = [0.3, 0.7, 0.3]', 'field "grid.p": lists 0.3 twice'),
    ('seed = 1\nbattles = 5\n[grid]\nparty = [["a", "b"], ["a", "b"]]', 'field "grid.party": lists ["a","b"] twice'),
])
def test_schema_errors_name_file_field_and_expectation(tmp_path, body, message):
    with pytest.raises(ExperimentError) as caught:
        _load(tmp_path, f'game = "toy"\nname = "x"\n{body}\n')
    assert f"e.toml: {message}" in str(caught.value)


def test_toml_syntax_error_and_missing_file(tmp_path):
    with pytest.raises(ExperimentError, match=r"e\.toml: TOML syntax error"):
        _load(tmp_path, "game = \n")
    with pytest.raises(ExperimentError, match="cannot read file"):
        load_experiment(tmp_path / "missing.toml")


def test_every_cell_is_checked_by_the_game_before_anything_runs(tmp_path):
    path = write_experiment(tmp_path, fixed="", grid="p = [0.5, 1.5]\nmax_rounds = [0, 3]")
    with pytest.raises(ExperimentError) as caught:
        run_sweep(load_experiment(path), tmp_path / "out", LocalExecutor())
    lines = str(caught.value).splitlines()
    assert len(lines) == 3  # (1.5, 0), (1.5, 3), (0.5, 0)
    assert all(line.startswith(f"{path}: cell ") for line in lines)
    assert "p must be a number in [0, 1], got 1.5" in caught.value.args[0]
    assert not (tmp_path / "out").exists()


def test_unknown_game_and_unimportable_game_module(tmp_path):
    path = tmp_path / "g.toml"
    path.write_text('game = "nope"\nname = "x"\nseed = 1\nbattles = 5\n', encoding="utf-8")
    with pytest.raises(ExperimentError, match=r'field "game": unknown game \'nope\''):
        run_sweep(load_experiment(path), tmp_path / "out", LocalExecutor())
    path.write_text('game = "toy"\nname = "x"\nseed = 1\nbattles = 5\n', encoding="utf-8")
    with pytest.raises(ExperimentError, match=r"--game-module: cannot import 'tests.nope'"):
        run_sweep(load_experiment(path), tmp_path / "out", LocalExecutor(), game_module="tests.nope")


def test_cli_reports_experiment_errors_in_one_line_without_traceback(tmp_path):
    path = write_experiment(tmp_path, grid="p = [2.0]")
    result = CliRunner().invoke(app, ["sweep", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and "p must be a number in [0, 1]" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args, message", [
    (["--battles", "9200000000000000000"], "--battles"),
    (["--battles", "1000000000000"], "1,000,000,000,000 battles in chunks of 100 make 10,000,000,000 chunk files "
                                     "per cell (at most 100,000); use --chunk (or chunk = in the file) ≥ 10,000,000"),
    (["--chunk", "10000001"], "chunk: at most 10,000,000 battles per chunk file, got 10,000,001"),
])
def test_sweep_sizes_beyond_what_a_folder_holds_are_refused_before_anything_runs(tmp_path, args, message):
    """A huge --battles once planned billions of chunks in memory with no output (audit, session 12)."""
    path = write_experiment(tmp_path)
    result = CliRunner().invoke(app, ["sweep", str(path), "--out", str(tmp_path / "out"), *args])
    assert result.exit_code in (1, 2) and message in result.stderr, result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


@pytest.mark.parametrize("game, setting, message", [
    ("dstbg", "party = 5", """setting 'party': expected a list of names, e.g. ["a", "b"], or "a,b", got 5"""),
    ("dstbg", "policy = 5", "setting 'policy': expected a string, got 5"),
    ("dstbg", 'policy = ["baseline"]', "setting 'policy': expected a string, got ['baseline']"),
    ("dstbg", 'gravestones = "x"', "setting 'gravestones': expected a whole number, got 'x'"),
    ("dstbg", "gravestones = true", "setting 'gravestones': expected a whole number, got True"),
    ("dstbg", "data = 5", "setting 'data': expected a string, got 5"),
    ("dstbg", 'party = ["knight"]\nencounter = "the_forgotten"\ngravestones = 3',
     "gravestones count a boss's revealed behaviour cards (R-12.5): an encounter has none"),
    ("dstbg", "policy_params = 5", "setting 'policy_params': expected a table of name = value, got 5"),
    ("dstbg", "house_rules = 5", "setting 'house_rules': expected a table of name = value, got 5"),
    ("dstbg", "variants = 5", "setting 'variants': expected a table of name = value, got 5"),
    ("dark_maiden", "party = 5", "setting 'party': expected a list of names"),
    ("bloodborne", 'hunters = "x"', "setting 'hunters': expected a whole number, got 'x'"),
    ("bloodborne", 'policy = ["greedy", 5]', "setting 'policy': expected a list of names"),
    ("dstbg_game", "mini_boss = 5", "setting 'mini_boss': expected a string, got 5"),
    ("dstbg", "variants = {enemy_health_delta = 1}",
     "setting 'variants.enemy_health_delta': enemy_health_delta belongs under house_rules"),
    ("dstbg", 'house_rules = {bleed_zero_damage = "no_trigger"}',
     "setting 'house_rules.bleed_zero_damage': bleed_zero_damage belongs under variants"),
])
def test_settings_of_the_wrong_type_are_named_not_a_traceback(tmp_path, game, setting, message):
    """`party = 5` in [fixed] once raised TypeError from deep in the game (audit, session 12)."""
    path = tmp_path / "e.toml"
    path.write_text(f'game = "{game}"\nname = "x"\nseed = 1\nbattles = 5\n[fixed]\n{setting}\n', encoding="utf-8")
    with pytest.raises(ExperimentError) as caught:
        run_sweep(load_experiment(path), tmp_path / "out", LocalExecutor())
    assert message in str(caught.value)


@pytest.mark.parametrize("errno_, words", [(28, "No space left on device"), (30, "Read-only file system")])
def test_a_full_disk_or_read_only_folder_is_one_line_and_the_sweep_resumes(tmp_path, monkeypatch, errno_, words):
    """Writing a chunk into a full or read-only place raised an OSError traceback (audit, session 15): it is now
    one line saying how to go on, and the same sweep resumes once the place is writable."""
    import os

    from dsim import results

    path = write_experiment(tmp_path)
    out = tmp_path / "out"
    write_chunk = results.write_chunk
    written = []

    def fails_after_one(folder, row):
        if written:
            raise OSError(errno_, os.strerror(errno_))
        written.append(write_chunk(folder, row))

    monkeypatch.setattr(results, "write_chunk", fails_after_one)
    result = CliRunner().invoke(app, ["sweep", str(path), "--out", str(out)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"Error: {out}: cannot write the results ({words}); the finished chunks are kept" in result.stderr
    monkeypatch.setattr(results, "write_chunk", write_chunk)
    again = CliRunner().invoke(app, ["sweep", str(path), "--out", str(out)])
    assert again.exit_code == 0 and "were already there" in again.stderr


def test_a_sweep_hashes_the_data_once_per_overlay(tmp_path, monkeypatch):
    """Every cell's manifest entry carries its data digest, computed once per ``data`` overlay (hashing the files
    for each cell of a 4,000-cell grid took seconds before the first battle)."""
    import json

    from tests.toygame import ToyGame

    calls = []
    monkeypatch.setattr(ToyGame, "data_hash", lambda self, settings: calls.append(settings.get("data")) or
                        f"digest-{settings.get('data')}")
    grid = 'p = [0.1, 0.2, 0.3, 0.4]\ndata = ["a", "b"]'
    run_sweep(load_experiment(write_experiment(tmp_path, grid=grid)), tmp_path / "out", LocalExecutor())
    assert sorted(calls) == ["a", "b"]
    manifest = json.loads((tmp_path / "out" / "_manifest.json").read_text())
    hashes = [entry["data_hash"] for entry in manifest["cells"].values()]
    assert sorted(hashes) == ["digest-a"] * 4 + ["digest-b"] * 4


def test_a_plain_rerun_keeps_what_the_folder_was_grown_to(tmp_path):
    """A folder grown with --battles (and written with --chunk) resumes with a plain re-run: it asked for
    --battles again before. An explicit smaller --battles is still refused."""
    import json

    path = write_experiment(tmp_path, battles=200, chunk=100)
    out = tmp_path / "out"
    runner = CliRunner()
    assert runner.invoke(app, ["sweep", str(path), "--out", str(out), "--chunk", "50"]).exit_code == 0
    assert runner.invoke(app, ["sweep", str(path), "--out", str(out), "--battles", "400"]).exit_code == 0
    (next(out.glob("*-000007.parquet"))).unlink()  # an interrupted growth: one chunk of the last 200 missing
    again = runner.invoke(app, ["sweep", str(path), "--out", str(out)])
    assert again.exit_code == 0, again.output
    assert "1 chunks played" in " ".join(again.stderr.split()) and "× 400 battles" in again.stderr
    manifest = json.loads((out / "_manifest.json").read_text())
    assert (manifest["battles"], manifest["chunk"]) == (400, 50)
    smaller = runner.invoke(app, ["sweep", str(path), "--out", str(out), "--battles", "300"])
    assert smaller.exit_code == 1 and "already targets 400" in smaller.stderr
