"""`dsim plot`: every kind of figure as PNG and SVG, and clear errors for impossible requests."""

import itertools
import shutil

import pytest
from typer.testing import CliRunner

from dsim import plots, results
from dsim.cli import app
from dsim.cli.sweep import PlotKind
from dsim.executors import LocalExecutor
from dsim.sweep import load_experiment, run_sweep
from tests.toygame import write_experiment


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished toy sweep with a party-like and a variant axis."""
    folder = tmp_path_factory.mktemp("plots")
    grid = 'party = [["knight", "warrior"], ["assassin"]]\np = [0.3, 0.7]\nvariants = [{}, {bleed = "on_hit"}]'
    run_sweep(load_experiment(write_experiment(folder, grid=grid, battles=200)), folder / "out", LocalExecutor())
    return folder / "out"


def _plot(*args):
    return CliRunner().invoke(app, ["plot", *map(str, args)])


def test_plot_kinds_match_the_plot_registry():
    assert {k.value for k in PlotKind} == set(plots.PLOTS) | set(plots.COMPETITIVE) | {"shares"}


@pytest.mark.parametrize("kind,options", [
    ("heatmap", ["--x", "p", "--y", "party"]),
    ("forest", []),
    ("rounds", []),
    ("survival", []),
    ("variant", []),
])
@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_every_kind_is_written_as_png_and_svg(finished, tmp_path, kind, options, suffix):
    out = tmp_path / f"{kind}{suffix}"
    cells = finished
    if kind == "heatmap":  # one cell per box: keep the default-rules cells only
        cells = shutil.copytree(finished, tmp_path / "subset")
        bleed = results.load(cells).loc[lambda df: df["variants.bleed"].notna(), "cell"]
        for cell in bleed:
            for path in cells.glob(f"{cell}-*.parquet"):
                path.unlink()
    result = _plot(cells, "--kind", kind, "--out", out, *options)
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert len(data) > 2000
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data


def test_heatmap_refuses_boxes_holding_several_cells(finished, tmp_path):
    result = _plot(finished, "--kind", "heatmap", "--out", tmp_path / "h.png")
    assert result.exit_code == 1
    assert "settings other than p and party vary (variants.bleed)" in result.stderr


def test_plot_user_errors(finished, tmp_path):
    for args, message in [
        (("--kind", "forest", "--out", tmp_path / "f.jpg"), "unsupported format"),
        (("--kind", "variant", "--out", tmp_path / "v.png", "--x", "variants.nope"), "does not vary"),
        (("--kind", "heatmap", "--out", tmp_path / "h.png", "--x", "boss"), "'boss' does not vary"),
    ]:
        result = _plot(finished, *args)
        assert result.exit_code == 1 and message in result.stderr, result.output


def test_survival_starts_at_one_and_ends_at_the_win_rate(finished):
    cells = results.load(finished)
    figure = plots.survival(cells)
    lines = figure.axes[0].get_lines()
    assert len(lines) == len(cells)
    for line, rate in zip(lines, cells.win_rate):
        alive = line.get_ydata()
        assert alive[0] <= 1 and alive[-1] == pytest.approx(rate)
        assert all(a >= b for a, b in itertools.pairwise(alive))


@pytest.mark.parametrize("kind", ["rounds", "survival"])
def test_line_plots_keep_the_legend_off_the_data_and_facet_many_cells(finished, kind):
    """Up to MAX_LINES cells: one panel set, the legend under it (a figure legend, no axes legend);
    more: one panel per cell, titled by the cell, so no legend has to name 45 lines."""
    import pandas as pd

    cells = results.load(finished)
    few = plots.make_plot(kind, cells)
    assert few.legends and not any(ax.get_legend() for ax in few.axes)
    many = pd.concat([cells.assign(settings=[{**s, "p": s["p"] + k} for s in cells["settings"]]) for k in range(6)],
                     ignore_index=True)
    assert len(many) > plots.MAX_LINES
    fig = plots.make_plot(kind, many)
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert len(panels) == len(many) and not any(ax.get_legend() for ax in panels)
    assert all(ax.get_title() for ax in panels)
