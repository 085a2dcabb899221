"""Reading results folders back: per-cell table, guarding against foreign files, `dsim report`."""

import json
import re
import shutil

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from dsim import results
from dsim.cli import app
from dsim.executors import LocalExecutor
from dsim.stats import wilson_interval
from dsim.sweep import load_experiment, run_sweep
from tests.toygame import write_experiment


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished toy sweep: 2 × 2 cells (p × variant), 400 battles each in chunks of 100."""
    folder = tmp_path_factory.mktemp("finished")
    path = write_experiment(folder, grid='p = [0.3, 0.7]\nvariants = [{}, {bleed = "on_hit"}]')
    run_sweep(load_experiment(path), folder / "out", LocalExecutor())
    return folder / "out"


@pytest.fixture
def copy(finished, tmp_path):
    """A scratch copy of the finished sweep to damage."""
    return shutil.copytree(finished, tmp_path / "copy")


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch):
    """Reports print as on a 200-column terminal unless a test says otherwise: the console keeps the width
    another test module left it at, whatever COLUMNS says."""
    from dsim.cli import reporting

    monkeypatch.setattr(reporting.out_console, "_width", 200)  # restored as it was, not pinned


def _report(*args):
    return CliRunner().invoke(app, ["report", *map(str, args)], env={"COLUMNS": "200"})


def test_load_gives_one_row_per_cell_with_counts_interval_and_means(finished):
    cells = results.load(finished)
    raw = pd.read_parquet(finished)
    assert len(cells) == 4 and len(raw) == 16
    assert list(cells.columns[:4]) == ["cell", "max_rounds", "p", "variants.bleed"]
    for _, cell in cells.iterrows():
        rows = raw[raw.cell == cell.cell]
        assert cell.battles == 400 and cell.chunks == 4 and cell.complete
        assert cell.wins == rows.wins.sum() and cell.win_rate == cell.wins / 400
        assert (cell.ci_low, cell.ci_high) == wilson_interval(cell.wins, 400)
        assert cell.rounds_mean == rows.rounds_sum.sum() / 400
        variance = (rows.rounds_sumsq.sum() - 400 * cell.rounds_mean**2) / 399
        assert cell.rounds_std == pytest.approx(np.sqrt(variance))
        assert cell.rounds_hist_win.sum() + cell.rounds_hist_loss.sum() == 400
        assert cell.rounds_hist_win.sum() == cell.wins
    assert cells["p"].tolist() == [0.3, 0.3, 0.7, 0.7]


def test_partial_sweep_loads_with_incomplete_cells(copy):
    for path in sorted(copy.glob("*.parquet"))[:3]:
        path.unlink()
    cells = results.load(copy)
    assert not cells.complete.all() and cells.battles.min() == 100


@pytest.mark.parametrize("damage,message", [
    (lambda d, first: (d / first.name).write_bytes(b"PAR1 garbage"), "not a readable Parquet file"),
    (lambda d, first: pd.DataFrame({"a": [1]}).to_parquet(d / "foreign.parquet"), "not a dsim chunk file"),
    (lambda d, first: shutil.copy(first, d / first.name.replace("-000000", "-000007")), "file name does not match"),
    (lambda d, first: pq.write_table(
        pq.read_table(first).set_column(0, "cell", pa.array(["0123456789abcdef"])),
        d / "0123456789abcdef-000000.parquet"), "unknown cell id '0123456789abcdef'"),
    (lambda d, first: pq.write_table(pq.read_table(first).drop_columns(["deaths_sum"]), d / first.name),
     "columns differ"),
])
def test_corrupt_or_foreign_parquet_files_are_refused_clearly(copy, damage, message):
    damage(copy, sorted(copy.glob("*.parquet"))[0])
    with pytest.raises(results.ResultsError, match=message):
        results.load(copy)
    result = _report(copy)
    assert result.exit_code == 1 and message.split("'")[0] in result.stderr
    assert "Traceback" not in result.output


def test_resume_into_a_damaged_folder_is_refused(copy, tmp_path):
    (copy / "stranger.parquet").write_bytes(b"not parquet")
    path = tmp_path / "toy.toml"
    shutil.copy(results.read_manifest(copy)["experiment"]["path"], path)
    with pytest.raises(results.ResultsError, match=r"stranger\.parquet: not a readable Parquet file"):
        run_sweep(load_experiment(path), copy, LocalExecutor())


def _edit_manifest(folder, edit):
    path = folder / results.MANIFEST
    manifest = json.loads(path.read_text("utf-8"))
    edit(manifest)
    path.write_text(json.dumps(manifest), "utf-8")


@pytest.mark.parametrize("edit, message", [
    (lambda m: m.update(cells=[]), "field 'cells': input should be a valid dictionary"),
    (lambda m: m.pop("cells"), "field 'cells': field required"),
    (lambda m: m.update(cells={}), "field 'cells': dictionary should have at least 1 item"),
    (lambda m: m.update(seed="x"), "field 'seed': input should be a valid integer"),
    (lambda m: m.update(outcome=5), "field 'outcome': input should be a valid dictionary"),
    (lambda m: m["outcome"].update(internal=5), "field 'outcome.internal': input should be a valid list"),
    (lambda m: m.pop("experiment"), "field 'experiment': field required"),
    (lambda m: m.update(runs=None), "field 'runs': input should be a valid list"),
    (lambda m: next(iter(m["cells"].values())).update(settings=None), "settings': input should be a valid dict"),
])
def test_a_damaged_manifest_names_its_bad_field_in_report_plot_and_sweep(copy, tmp_path, edit, message):
    """A hand-edited manifest (`"cells": []`, a deleted key) gave KeyError/AttributeError tracebacks (audit, session 12)."""
    experiment = tmp_path / "toy.toml"
    shutil.copy(results.read_manifest(copy)["experiment"]["path"], experiment)
    _edit_manifest(copy, edit)
    for args in (["report", copy], ["plot", copy, "--kind", "forest", "--out", tmp_path / "f.png"],
                 ["sweep", experiment, "--out", copy]):
        result = CliRunner().invoke(app, list(map(str, args)), env={"COLUMNS": "300"})
        assert result.exit_code == 1 and "_manifest.json: damaged manifest: field '" in result.stderr, result.output
        assert message in result.stderr and "Traceback" not in result.output


def test_folder_is_readable_by_pandas_despite_manifest_and_temporary_files(copy):
    (copy / ".x-000001.parquet.77.tmp").write_bytes(b"partial")
    assert len(pd.read_parquet(copy)) == 16
    assert len(results.load(copy)) == 4


def test_report_json_lists_cells_with_rate_interval_and_settings(finished):
    result = _report(finished, "--json", "--battles-needed", 0.02)
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    cells = results.load(finished)
    assert [r["cell"] for r in records] == list(cells.cell)
    first = records[0]
    assert {"cell", "settings", "battles", "wins", "win_rate", "ci95", "mean", "battles_needed"} <= set(first)
    assert first["settings"] == {"max_rounds": 8, "p": 0.3, "variants": {}}
    assert first["ci95"] == [cells.ci_low[0], cells.ci_high[0]]
    assert first["battles"] == 400 and first["win_rate"] == first["wins"] / 400
    assert first["mean"]["rounds"] == cells.rounds_mean[0] and "deaths" in first["std"]
    assert first["battles_needed"] > 400


def test_report_csv_has_readable_setting_columns(finished):
    result = _report(finished, "--csv")
    assert result.exit_code == 0
    table = pd.read_csv(pd.io.common.StringIO(result.stdout))
    assert list(table.columns[:4]) == ["cell", "max_rounds", "p", "variants.bleed"]
    assert table["variants.bleed"].tolist() == ["(default)", "on_hit"] * 2
    assert table.win_rate.tolist() == pytest.approx(results.load(finished).win_rate.tolist())


def test_report_compare_tests_cells_differing_in_one_setting(finished):
    result = _report(finished, "--compare", "--json")
    assert result.exit_code == 0
    comparisons = json.loads(result.stdout)
    assert sorted((c["setting"], c["context"]) for c in comparisons) == [
        ("p", "variants.bleed=(default)"), ("p", "variants.bleed=on_hit"),
        ("variants.bleed", "p=0.3"), ("variants.bleed", "p=0.7"),
    ]
    ps = sorted(c["p_value"] for c in comparisons)
    holm = sorted(c["p_holm"] for c in comparisons)
    assert holm[0] == pytest.approx(min(1.0, 4 * ps[0]))
    table = _report(finished, "--compare")
    assert table.exit_code == 0 and "variants.bleed" in table.stdout


def test_report_table_and_user_errors(finished, tmp_path):
    table = _report(finished)
    cell = results.load(finished).cell[0]
    assert table.exit_code == 0 and "on_hit" in table.stdout and "win rate (95% CI)" in table.stdout
    assert cell not in table.stdout  # settings name the cells; the ids are on request
    assert "in every cell: max_rounds=8" in table.stdout  # the [fixed] settings were in no title or column
    assert cell in _report(finished, "--all").stdout
    (tmp_path / "afile").write_text("x", "utf-8")
    for args, message in [((tmp_path,), "no _manifest.json"), ((finished, "--json", "--csv"), "one of --json"),
                          ((tmp_path / "afile",), "afile: is a file, not a results folder"),
                          ((finished, "--battles-needed", 2), "between 0.0001 and 1")]:
        result = _report(*args)
        assert result.exit_code == 1 and message in result.stderr


def test_sweep_cli_runs_and_resumes(tmp_path):
    path = write_experiment(tmp_path)
    runner = CliRunner()
    first = runner.invoke(app, ["sweep", str(path), "--out", str(tmp_path / "out")])
    assert first.exit_code == 0, first.output
    assert len(list((tmp_path / "out").glob("*.parquet"))) == 8
    again = runner.invoke(app, ["sweep", str(path), "--out", str(tmp_path / "out"), "--chunk", "50"])
    assert again.exit_code == 1 and "chunks of 100 battles" in again.stderr


def test_local_flags_need_dask(tmp_path):
    result = CliRunner().invoke(app, ["sweep", str(write_experiment(tmp_path)), "--out", str(tmp_path / "o"),
                                      "--workers", "2"])
    assert result.exit_code == 1 and "--executor dask" in result.stderr


def test_report_fits_any_terminal_without_cutting_a_figure_or_a_setting(finished):
    """At 80, 150 and 280 columns every line fits and no figure is cut: intervals go beside or under their rates,
    a table too wide for its figures (`--all` at 80) lists each cell's figures one per row, and comparisons keep
    A → B, the difference with its interval and the Holm p, with setting values such as p=0.3 whole."""
    from dsim.cli import reporting

    cells = results.load(finished)
    before = reporting.out_console._width  # None: read COLUMNS at each print (the setter would freeze it)
    for width in (80, 150, 280):
        try:
            reporting.out_console.width = width
            shown = {args: CliRunner().invoke(app, ["report", str(finished), *args])
                     for args in ((), ("--all",), ("--compare",))}
        finally:
            reporting.out_console._width = before
        for result in shown.values():
            assert result.exit_code == 0 and max(len(line) for line in result.stdout.splitlines()) <= width
            assert "…" not in result.stdout
            rows = [line for line in result.stdout.splitlines() if line[:1] in "┏┃┡│├└"]
            assert all(line[-1] in "┓┃┩│┤┘" for line in rows), (width, result.stdout)  # no column cropped away
        for args in ((), ("--all",)):
            flat = " ".join(shown[args].stdout.split())
            assert all(f"{m:.2f}" in flat for m in cells.rounds_mean), (width, args)
        for args in ((), ("--all",)):
            flat = " ".join(shown[args].stdout.split())
            for _, cell in cells.iterrows():
                assert f"({100 * cell.ci_low:.1f}%–{100 * cell.ci_high:.1f}%)" in flat, (width, args)
                assert f" {cell.p:g} " in flat and "on_hit" in flat  # the settings keep their columns
            assert all(cell in flat for cell in cells.cell) == bool(args)
        assert ("measure" in shown[("--all",)].stdout) == (width == 80) and "measure" not in shown[()].stdout
        comparisons = json.loads(_report(finished, "--compare", "--json").stdout)
        for c in comparisons:
            assert f"{100 * c['difference']:+.1f} pp" in shown[("--compare",)].stdout
        assert "p=0.3" in shown[("--compare",)].stdout and "p Holm" in shown[("--compare",)].stdout


@pytest.mark.parametrize("text, width, lines", [
    ("high_wall_of_lothric", 14, ["high_wall_of_", "lothric"]),
    ("warrior+assassin", 10, ["warrior+", "assassin"]),
    ("encounter=high_wall_of_lothric", 16, ["encounter=high_", "wall_of_lothric"]),
    ("win rate (95% CI)", 3, ["win", "rat", "e", "(95", "%", "CI)"]),
    ("abcdefghij", 4, ["abcd", "efgh", "ij"]),
    ("variants.bleed, needed for ±0.05 pp", 13, ["variants.", "bleed, needed", "for ±0.05 pp"]),
])
def test_report_names_wrap_between_their_words(text, width, lines):
    """`the_forgotte|n`, `warrior+assassi|n`: rich folds a narrow column inside a word; names now break after
    `_`, `+`, `=`, `,` or a space, and only a word wider than the column is folded."""
    from dsim.text import wrap_label

    assert wrap_label(text, width).split("\n") == lines


def _report_at_80(tmp_path, grid: str):
    """Sweep a toy experiment with ``grid`` and report it at 80 columns: (the cells, the printed report)."""
    from dsim.cli import reporting

    run_sweep(load_experiment(write_experiment(tmp_path, grid=grid)), tmp_path / "out", LocalExecutor())
    before = reporting.out_console._width  # None: read COLUMNS at each print (the setter would freeze it)
    try:
        reporting.out_console.width = 80
        shown = CliRunner().invoke(app, ["report", str(tmp_path / "out")]).stdout
    finally:
        reporting.out_console._width = before
    return results.load(tmp_path / "out"), shown


def test_a_narrow_report_keeps_every_figure_and_breaks_names_between_words(tmp_path):
    """At 80 columns the DS:TBG report cut its last column (`mean round`, `3.` for 3.98) and split
    `high_wall_of_lot|hric`: names now give up width first, and wrap only between ids, after `+` (issue 47: an id
    never breaks); the battles, the same in every cell, are said once under the table."""
    grid = 'party = ["warrior+assassin+herald", "knight"]\nplace = ["high_wall_of_lothric", "the_forgotten"]\n'
    cells, shown = _report_at_80(tmp_path, grid + "p = [0.3, 0.7]")
    rows = [line.split("│")[1:-1] for line in shown.splitlines() if line.startswith("│")]
    assert rows and all(len(line) <= 80 and line[-1] == line[0] for line in shown.splitlines() if line[:1] in "┃│")
    cell_rows: list[list[list[str]]] = []
    for row in rows:
        if row[2].strip():  # the p column opens a cell's row
            cell_rows.append([[] for _ in row])
        for column, text in zip(cell_rows[-1], row):
            column += [text.strip()] if text.strip() else []
    for cell, fragments in zip(cells.itertuples(), cell_rows):
        assert fragments[1] == [cell.place]  # an id whole on one line
        assert "".join(fragments[0]) == cell.party and all(f[-1] == "+" for f in fragments[0][:-1])
        assert fragments[-1] == [f"{cell.rounds_mean:.2f}"]
    assert "in every cell: max_rounds=8; battles 400" in " ".join(shown.split())


def test_a_narrow_report_of_many_varying_settings_lists_each_cell_line_by_line(tmp_path):
    """Seven varying settings at 80 columns: as columns each would be cut to a few letters (`ene|my_|hea|lth`);
    each cell is listed instead as one line per setting (name and value whole) then one per figure; a figure the
    same in every cell (the battles) is said once under the table (issue 47: 620 lines of "0.0%")."""
    look = '{ banner_colour = "crimson", shield_pattern = "checkered", helmet_plume = "tall", cloak_length = "long" }'
    grid = f'party = ["warrior+assassin+herald", "knight"]\nplace = ["high_wall_of_lothric", "the_forgotten"]\n' \
           f'look = [{{}}, {look}]\np = [0.3, 0.7]'
    cells, shown = _report_at_80(tmp_path, grid)
    lines = shown.splitlines()
    assert all(len(line) <= 80 for line in lines) and len(cells) == 16
    pairs = [[part.strip() for part in line.split("│")[1:-1]] for line in lines if line.startswith("│")]
    assert len(pairs) == 16 * (7 + 2)  # seven settings, then win rate and mean rounds, per cell
    names = [name for name, _ in pairs[:9]]
    assert sorted(names[:7]) == ["banner_colour", "cloak_length", "helmet_plume", "p", "party", "place", "shield_pattern"]
    assert names[7:] == ["win rate (95% CI)", "mean rounds"]
    assert re.search(rf"in every cell: .*\bbattles {cells['battles'].iloc[0]:,}\b", " ".join(shown.split()))
    assert ["shield_pattern", "checkered"] in pairs and ["place", "high_wall_of_lothric"] in pairs
    assert sum(line.startswith("├") for line in lines) == 15  # a rule between two cells


def test_optional_outcomes_average_only_the_battles_they_apply_to(tmp_path):
    """R-12.6: a boss's health left, its heat-up round and the behaviour cards drawn are −1 where they do not
    apply (an encounter, a boss that never heated up). Their means and spreads count only the battles where they apply, an encounter shows
    no boss figures at all, and `report --all` says "–" rather than averaging the −1s."""
    from dsim.games import load_game

    exp = tmp_path / "mixed.toml"
    exp.write_text('game = "dstbg"\nname = "mixed"\nseed = 3\nbattles = 300\nchunk = 100\n'
                   '[fixed]\nparty = ["knight", "warrior"]\n'
                   '[[cells]]\nencounter = "the_forgotten"\n[[cells]]\nboss = "gargoyle"\n', "utf-8")
    source = load_experiment(exp)
    run_sweep(source, tmp_path / "out", LocalExecutor())
    cells = results.load(tmp_path / "out").set_index("boss", drop=False)
    encounter, boss = cells[cells.boss.isna()].iloc[0], cells.loc["gargoyle"]
    game = load_game("dstbg")
    played = game.play(boss.settings, boss.seed, boss.stream, 0, 300)
    for name in ("boss_health_left", "heatup_round", "cards_drawn"):  # cards_drawn read 0.00 for encounters
        values = played[name][played[name] >= 0]
        assert boss[f"{name}_mean"] == pytest.approx(values.mean())
        assert boss[f"{name}_std"] == pytest.approx(values.std(ddof=1))
        assert np.isnan(encounter[f"{name}_mean"]) and np.isnan(encounter[f"{name}_std"])
    assert (played["boss_health_left"] >= 0).all() and (played["cards_drawn"] > 0).all()  # a boss battle has a boss …
    assert 0 < np.count_nonzero(played["heatup_round"] >= 0) < 300  # … but not always a heat-up: -1s left out
    assert encounter.rounds_mean == pytest.approx(
        game.play(encounter.settings, encounter.seed, encounter.stream, 0, 300)["rounds"].mean())
    shown = _report(tmp_path / "out", "--all")
    assert shown.exit_code == 0, shown.output
    assert "-1.00" not in shown.stdout and "–" in shown.stdout
    words = " ".join(shown.stdout.split())  # at 80 columns the measure wraps: "mean heatup_ │ round (where it"
    assert "heatup_" in words and "(where it applies)" in re.sub(r" │ (│ )*", " ", words)
    records = {r["cell"]: r for r in json.loads(_report(tmp_path / "out", "--json").stdout)}
    assert records[encounter.cell]["mean"]["boss_health_left"] is None
    assert records[boss.cell]["mean"]["boss_health_left"] == pytest.approx(played["boss_health_left"][
        played["boss_health_left"] >= 0].mean())
    for internal in ("result", "next_first_char"):  # the kernel's bookkeeping, not statistics (audit, session 12)
        assert all(internal not in r["mean"] and internal not in r["std"] for r in records.values())
        header = _report(tmp_path / "out", "--csv").stdout.splitlines()[0].split(",")
        assert not any(column.startswith(f"{internal}_") for column in header) and "rounds_mean" in header


def test_a_narrow_report_of_games_never_won_leads_with_how_far_they_got(finished, capsys):
    """Issue 47: a whole-game sweep at 80 columns printed a line of "0.0%" for every cell (620 lines) before the
    funnel that tells the cells apart. A figure equal in every cell is said once, and the shares come first."""
    from dsim.cli import reporting

    cells = results.load(finished).assign(wins=0, win_rate=0.0, ci_low=0.0, ci_high=0.0095)
    cells = cells.assign(reached_mean=[0.1, 0.2, 0.3, 0.4], reached_ci_low=[0.05, 0.15, 0.25, 0.35],
                         reached_ci_high=[0.15, 0.25, 0.35, 0.45])
    outcome = {"success": "won", "unit": "game", "shares": ["reached"]}
    before = reporting.out_console._width  # None: read COLUMNS at each print (the setter would freeze it)
    try:
        reporting.out_console.width = 36  # too narrow for a row per cell
        reporting.print_cells(cells, "table", None, "games", outcome)
    finally:
        reporting.out_console._width = before
    shown = capsys.readouterr().out
    assert not re.search(r"(?<![\d.])0\.0%", shown.split("in every cell:")[0])  # no line of 0.0% per cell ...
    assert re.search(r"in every cell: .*win rate .*0\.0% \(0\.0%–0\.9%\)", " ".join(shown.split()))  # ... said once
    assert shown.index("share of games") < shown.index("mean rounds")  # the funnel leads
    assert all(f"{100 * x:.1f}%" in shown for x in cells["reached_mean"])
