"""Values a user can type get a one-line error, never a traceback (the cases the shared options now bound)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from dsim.cli import app

runner = CliRunner()
BASE = ["run", "--party", "knight", "--encounter", "the_forgotten", "--battles", "10"]


@pytest.mark.parametrize("extra, words", [
    (["--seed", "-1"], "--seed"),
    (["--seed", "99999999999999999999999"], "--seed"),
    (["--battles", "100000000000000"], "--battles"),
    (["--gravestones", "2"], "--gravestones counts a boss's revealed behaviour cards: it needs --boss"),
    (["--set", "boss_health_delta=100000000000"], "house rule 'boss_health_delta' takes a whole number from -10,000"),
    (["--set", "max_rounds=99999"], "variant 'max_rounds' takes a whole number from 0 to 10000"),
    (["--set", "nonsense"], "--set: expected variant_id=value"),
    (["--set", "enemy_health_delta=1", "--set", "enemy_health_delta=2"], "--set enemy_health_delta is given twice"),
    (["--data", ""], "expected an overlay folder, got an empty name"),
    (["--data", "/etc/passwd"], "/etc/passwd: is a file, not an overlay folder"),
])
def test_bad_values_end_with_a_clear_error(extra: list[str], words: str) -> None:
    out = runner.invoke(app, [*BASE, *extra])
    assert out.exit_code in (1, 2), out.output  # 1: our error line, 2: Typer's usage error
    assert isinstance(out.exception, SystemExit) and "Traceback" not in out.output
    assert words in " ".join(out.output.split()), out.output


@pytest.mark.parametrize("args, words", [
    (["run", "--policy", "", "--party", "knight", "--encounter", "the_forgotten"], "'--policy': empty name"),
    (["run", "--encounter", "the_forgotten"], "a party is required: --party knight,warrior on the command line"),
    (["run", "--party", "knigt", "--encounter", "the_forgotten"], "unknown character 'knigt' (did you mean knight?"),
    (["run", "--party", "knight", "--boss", "gargoyl"], "unknown boss 'gargoyl' (did you mean gargoyle?"),
    (["run", "--party", "knight", "--encounter", "the_forgoten"],
     "unknown encounter 'the_forgoten' (did you mean the_forgotten? see `dsim data list encounters`)"),
    (["compare", "--party", "knight", "--boss", "gargoyle", "--boss", "gargoyle", "--variant", "bleed_zero_damage"],
     "--boss gargoyle: given twice"),
    (["compare", "--party", "knight", "--encounter", "the_forgotten", "--gravestones", "2", "--variant",
      "bleed_zero_damage"], "--gravestones counts a boss's revealed behaviour cards: it needs --boss"),
    (["compare", "--party", "knight", "--boss", "all", "--boss", "gargoyle", "--variant", "bleed_zero_damage"],
     "knight vs gargoyle would be played and tested twice"),
    (["compare", "--party", "knight,warrior", "--boss", "gargoyle", "--sizes", "1,1", "--variant", "bleed_zero_damage"],
     "knight vs gargoyle would be played and tested twice"),
    (["compare", "--party", "knight", "--encounter", "the_forgotten", "--setting", "first_side=characters_first",
      "--setting", "first_side=characters_first"], "the same rules as an earlier --setting"),
    (["tune", "--party", "knight", "--encounter", "the_forgotten", "--rule", "enemy_health_delta",
      "--set", "enemy_health_delta=2"], "tune tries the values of --rule enemy_health_delta itself"),
    (["bench", "--workloads", "", "--quick"], "--workloads: expected a comma-separated list, got ''"),
    (["game", "--party", ",knight", "--games", "5"], "--party: item 1 of ',knight' is empty"),
    (["game", "--mini-boss", "", "--games", "5"], "'--mini-boss': empty name"),
    (["area", "--party", "knight", "--mini-boss", "", "--games", "5"], "'--mini-boss': empty name"),
    (["policies", "compare", "--policies", "naive,,naive", "--party", "knight", "--encounter", "the_forgotten"],
     "--policies: item 2 of 'naive,,naive' is empty"),
    (["tune", "--party", "knight", "--encounter", "the_forgotten", "--rule", "enemy_health_delta", "--measure",
      "rounds", "--target", "nan"], "the target and the tolerance must be finite numbers, got nan"),
    (["tune", "--party", "knight", "--encounter", "the_forgotten", "--rule", "enemy_health_delta", "--tolerance",
      "5", "--battles", "50"], "a tolerance of 5.0 accepts every rate of 'win'"),
    (["report", "nowhere", "--compare", "--all"], "--all shapes the table of cells, not --compare's"),
    (["report", "nowhere", "--compare", "--battles-needed", "0.01"], "--battles-needed shapes the table of cells"),
])
def test_ignored_or_doubled_options_and_mistyped_ids_get_a_clear_error(args: list[str], words: str) -> None:
    """An empty --policy played the default, a repeated --boss played (and Holm-counted) its cells twice, a
    --set of the tuned rule was overridden, --workloads "" ran every workload, --compare dropped --all; a
    mistyped id now gets the closest ones (audit, session 12)."""
    out = runner.invoke(app, args)
    assert out.exit_code in (1, 2) and isinstance(out.exception, SystemExit), out.output
    assert words in " ".join(out.output.split()), out.output


@pytest.mark.parametrize("command, party, words", [
    ("run", "knight,,warrior", "--party: item 2 of 'knight,,warrior' is empty"),
    ("run", "knight,", "--party: item 2 of 'knight,' is empty"),
    ("run", " , ", "--party: expected a comma-separated list"),
    ("compare", ",knight", "--party: item 1 of ',knight' is empty"),
])
def test_an_empty_party_member_is_refused_not_dropped(command: str, party: str, words: str) -> None:
    """`knight,,warrior` was played as a two-character party: a doubled comma is a typo to point out."""
    out = runner.invoke(app, [command, "--party", party, "--encounter", "the_forgotten", "--battles", "10"])
    assert out.exit_code == 1 and isinstance(out.exception, SystemExit), out.output
    assert words in " ".join(out.output.split()), out.output


def test_an_experiment_party_with_an_empty_member_is_refused(tmp_path) -> None:
    path = tmp_path / "e.toml"
    path.write_text('game = "dstbg"\nname = "x"\nseed = 1\nbattles = 10\n[fixed]\n'
                    'party = "knight,,warrior"\nencounter = "the_forgotten"\n', "utf-8")
    out = runner.invoke(app, ["sweep", str(path), "--out", str(tmp_path / "out")])
    assert out.exit_code == 1 and isinstance(out.exception, SystemExit), out.output
    assert "setting 'party': item 2 of 'knight,,warrior' is empty" in " ".join(out.output.split())


def test_a_shared_option_s_help_leads_with_the_default_game_and_names_the_others() -> None:
    """`--party` is declared by three games in different words: `run --help` once showed Dark Maiden's heroes
    (amazona,barbara) as if they were the default game's."""
    text = " ".join(runner.invoke(app, ["run", "--help"], env={"COLUMNS": "300"}).output.split())
    party = text[text.index("--party"):]
    assert party.index("knight,warrior (`dsim data list characters`)") < party.index("dark_maiden:") \
        < party.index("amazona,barbara") < party.index("dstbg_game:")


# --- files and folders a user names (issue 13's cases) ------------------------------------------------
def _clean_error(out, words: str) -> None:
    assert out.exit_code == 1, out.output
    assert "Traceback" not in out.output and isinstance(out.exception, SystemExit)
    assert words in " ".join(out.output.split()), out.output


def test_a_data_figure_beyond_what_the_kernel_holds_is_refused_at_validation(tmp_path):
    from dsim.paths import REPO_ROOT

    text = (REPO_ROOT / "data" / "dstbg" / "enemies.yaml").read_text("utf-8")
    (tmp_path / "enemies.yaml").write_text(text.replace("health: 1\n", "health: 99999999999\n", 1), "utf-8")
    for command in (["data", "validate"], BASE):
        out = runner.invoke(app, [*command, "--data", str(tmp_path)])
        _clean_error(out, 'enemies.yaml: enemy "crossbow_hollow": field "health": expected a value ≤ 10000')


def _experiment(folder, fixed: str) -> str:
    path = folder / "exp.toml"
    path.write_text(f'game = "dstbg"\nname = "x"\nseed = 1\nbattles = 20\n[fixed]\npolicy = "baseline"\n'
                    f'encounter = "the_forgotten"\nparty = ["knight"]\n{fixed}\n', "utf-8")
    return str(path)


def test_an_experiment_naming_a_missing_overlay_folder_is_one_error(tmp_path):
    out = runner.invoke(app, ["sweep", _experiment(tmp_path, 'data = "/nonexistent/overlay"'),
                              "--out", str(tmp_path / "out")])
    _clean_error(out, "/nonexistent/overlay: overlay folder not found")


def test_sweep_out_that_is_a_file_is_one_error(tmp_path):
    (tmp_path / "taken").write_text("", "utf-8")
    out = runner.invoke(app, ["sweep", _experiment(tmp_path, ""), "--out", str(tmp_path / "taken")])
    _clean_error(out, "taken: is a file, not a results folder")


def test_sweep_out_below_a_file_is_one_error(tmp_path):
    (tmp_path / "taken").write_text("", "utf-8")
    out = runner.invoke(app, ["sweep", _experiment(tmp_path, ""), "--out", str(tmp_path / "taken" / "out")])
    _clean_error(out, "cannot create the results folder")


def test_plot_into_a_missing_folder_is_one_error(tmp_path):
    folder = tmp_path / "out"
    assert runner.invoke(app, ["sweep", _experiment(tmp_path, ""), "--out", str(folder)]).exit_code == 0
    out = runner.invoke(app, ["plot", str(folder), "--kind", "forest", "--out", "/nonexistent/dir/x.png"])
    _clean_error(out, "/nonexistent/dir/x.png: the folder /nonexistent/dir does not exist")


def test_a_run_longer_than_a_minute_says_how_long_before_it_goes_on(monkeypatch):
    import time

    from dsim.cli.common import LongRunNotice

    said: list[str] = []
    clock = iter([100.0, 101.0, 102.0])
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))
    notice = LongRunNotice("battles", said.append)
    notice(65_536, 10**9)  # the first chunk only starts the clock (it may include compiling)
    notice(131_072, 10**9)  # 65,536 battles a second from here: about 4 hours left
    notice(196_608, 10**9)  # said once
    assert said == ["This will take about 4 hours (999,868,928 battles left at 65,536 battles/s); Ctrl-C stops it."]


def test_a_short_run_says_nothing(monkeypatch):
    import time

    from dsim.cli.common import LongRunNotice

    said: list[str] = []
    clock = iter([0.0, 0.1])
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))
    notice = LongRunNotice("games", said.append)
    notice(10, 1_000)
    notice(20, 1_000)
    assert said == []


@pytest.mark.parametrize("game, name", [("dstbg", "enemies.yaml"), ("bloodborne", "monsters.yaml"),
                                        ("dark_maiden", "enemies.yaml")])
def test_a_data_file_that_is_a_folder_is_named_once_not_ignored(tmp_path, game, name):
    (tmp_path / name).mkdir()
    out = runner.invoke(app, ["data", "--game", game, "validate", "--data", str(tmp_path)])
    _clean_error(out, f"{name}: ")
    assert out.output.count("directory") == 1  # one line, whichever loader said it


def test_a_data_file_that_is_not_utf8_names_the_file(tmp_path):
    (tmp_path / "encounters.yaml").write_bytes(b"\x89PNG\xff\xfe\x00garbage")
    out = runner.invoke(app, [*BASE, "--data", str(tmp_path)])
    _clean_error(out, "encounters.yaml: not UTF-8 text: byte 0x89 at offset 0")


def _swept(tmp_path, body: str):
    """A finished DS:TBG sweep of the experiment ``body`` (after its game, name and seed lines)."""
    folder, exp = tmp_path / "out", tmp_path / "exp.toml"
    exp.write_text(f'game = "dstbg"\nname = "x"\nseed = 1\n{body}', "utf-8")
    assert runner.invoke(app, ["sweep", str(exp), "--out", str(folder)]).exit_code == 0
    return folder


def test_a_results_folder_with_a_deleted_chunk_names_the_unfinished_cell(tmp_path):
    import json

    folder = _swept(tmp_path, 'battles = 20\nchunk = 10\n[fixed]\npolicy = "baseline"\n'
                              'encounter = "the_forgotten"\nparty = ["knight"]\n')
    chunk = sorted(folder.glob("*.parquet"))[0]
    cell = chunk.name.split("-")[0]
    chunk.unlink()
    out = runner.invoke(app, ["report", str(folder)])
    assert out.exit_code == 0 and f"not finished ({cell})" in " ".join(out.output.split()), out.output
    rows = json.loads(runner.invoke(app, ["report", str(folder), "--json"]).stdout)
    assert [(r["battles"], r["complete"]) for r in rows] == [(10, False)]


def test_a_cell_with_no_finished_chunk_is_named_not_dropped_silently(tmp_path):
    """A cell whose chunks are all gone vanished from the report without a word (audit, session 12)."""
    folder = _swept(tmp_path, 'battles = 10\n[fixed]\nencounter = "the_forgotten"\n'
                              '[grid]\nparty = [["knight"], ["warrior"]]\n')
    gone = sorted(folder.glob("*.parquet"))[0]
    gone.unlink()
    for args in ([], ["--json"], ["--csv"]):
        out = runner.invoke(app, ["report", str(folder), *args])
        assert out.exit_code == 0 and gone.name.split("-")[0] not in out.stdout
        assert f"1 cell(s) without a finished chunk, not shown ({gone.name.split('-')[0]})" in out.stderr


def test_battles_needed_for_an_interval_too_narrow_to_count_is_refused():
    """`--battles-needed 1e-20` overflowed int64 and printed 1 battle per cell, with numpy warnings."""
    out = runner.invoke(app, ["report", "nowhere", "--battles-needed", "1e-20"])
    _clean_error(out, "--battles-needed: expected an interval width between 0.0001 and 1")


@pytest.mark.parametrize("text, words", [
    (b"this is not python (\n", "bad.py: line 1: '(' was never closed"),
    (b"raise RuntimeError('boom')\n", "bad.py: RuntimeError: boom"),
    (b"x = 1\x00\n", "bad.py: source code string cannot contain null bytes"),
    (b"x = '\xff\xfe'\n", "bad.py: line 1: "),
])
def test_a_policy_file_that_does_not_import_is_one_line(tmp_path, text, words):
    (tmp_path / "bad.py").write_bytes(text)
    out = runner.invoke(app, [*BASE, "--policy", f"{tmp_path / 'bad.py'}:x"])
    _clean_error(out, words)


def test_a_policy_path_that_is_a_folder_or_lacks_its_name_says_so(tmp_path):
    (tmp_path / "adir.py").mkdir()
    _clean_error(runner.invoke(app, [*BASE, "--policy", f"{tmp_path / 'adir.py'}:x"]), "adir.py is a directory")
    (tmp_path / "p.py").write_text("", "utf-8")
    _clean_error(runner.invoke(app, [*BASE, "--policy", str(tmp_path / "p.py")]),
                 "(a policy file is named as path/to/module.py:name)")


def test_a_folder_of_other_files_is_refused_without_leaving_a_lock_file(tmp_path):
    folder = tmp_path / "nonempty"
    folder.mkdir()
    (folder / "keep.txt").write_text("x", "utf-8")
    out = runner.invoke(app, ["sweep", _experiment(tmp_path, ""), "--out", str(folder)])
    _clean_error(out, "not empty and has no _manifest.json (found keep.txt)")
    assert sorted(p.name for p in folder.iterdir()) == ["keep.txt"]


def test_a_plot_by_default_goes_where_parquet_readers_of_the_folder_skip_it(tmp_path):
    import pandas as pd

    folder = tmp_path / "out"
    assert runner.invoke(app, ["sweep", _experiment(tmp_path, ""), "--out", str(folder)]).exit_code == 0
    out = runner.invoke(app, ["plot", str(folder), "--kind", "forest"])
    assert out.exit_code == 0, out.output
    assert (folder / "_plots" / "forest.png").stat().st_size > 1000
    assert len(pd.read_parquet(folder)) == 1  # one chunk; the image is not read as Parquet
    _clean_error(runner.invoke(app, ["plot", str(folder), "--kind", "forest", "--out", str(tmp_path)]),
                 f"--out {tmp_path} is a folder; name an image file in it")


def test_every_command_summary_is_one_paragraph_without_a_source_line_break() -> None:
    """`dsim --help` listed 'tune-policy … common / random numbers)' with the docstring's line break kept."""
    def helps(group):
        yield from ((info.name, info.help) for info in group.registered_commands)
        for sub in group.registered_groups:
            yield from helps(sub.typer_instance)

    summaries = {name: (help or "").split("\n\n")[0] for name, help in helps(app)}
    assert summaries and all(text and "\n" not in text for text in summaries.values()), summaries
    listing = runner.invoke(app, ["--help"], env={"COLUMNS": "200"}).stdout
    assert "(successive halving, common random numbers)" in listing
