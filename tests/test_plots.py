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
    said = " ".join(result.stderr.split())
    assert "3 settings vary (party, p, variants.bleed) but a heat map shows two" in said and "--x/--y" not in said
    same = _plot(finished, "--kind", "heatmap", "--x", "party", "--y", "party", "--out", tmp_path / "h.png")
    assert same.exit_code == 1 and "--x and --y both name party" in same.stderr


def test_plot_user_errors(finished, tmp_path):
    for args, message in [
        (("--kind", "forest", "--out", tmp_path / "f.jpg"), "unsupported format"),
        (("--kind", "variant", "--out", tmp_path / "v.png", "--x", "variants.nope"), "does not vary"),
        (("--kind", "heatmap", "--out", tmp_path / "h.png", "--x", "boss"), "'boss' does not vary"),
        (("--kind", "forest", "--out", tmp_path / "f.png", "--x", "p"), "--x: --kind forest has no --x"),
        (("--kind", "variant", "--out", tmp_path / "v.png", "--y", "p"), "--y: --kind variant has no --y"),
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


# ---------------------------------------------------------------- figures of hand-made cells (no sweep needed)

def _hist(**counts):
    """A rounds/score histogram (bins as in results.HIST_VALUES) holding ``counts[f"r{value}"]`` plays at each value."""
    import numpy as np

    hist = np.zeros(len(results.HIST_VALUES), dtype=np.int64)
    for name, count in counts.items():
        hist[int(name[1:]) - results.HIST_LOW] = count
    return hist


SPREAD = _hist(**{f"r{r}": 5 for r in range(2, 22)})  # 100 plays over 20 rounds: a peak of 5%
PEAKED = _hist(r10=7)  # every play at one round: a peak of 100%


def _cells(won, lost, parties=None, **columns):
    """A results table of hand-made cells, one per (won, lost) histogram pair, told apart by their party."""
    import pandas as pd

    parties = parties or [["knight"] * (k + 1) for k in range(len(won))]
    return pd.DataFrame({
        "cell": [f"c{k}" for k in range(len(won))], "settings": [{"party": p} for p in parties],
        "battles": [int(w.sum() + lost.sum()) for w, lost in zip(won, lost)], "wins": [int(w.sum()) for w in won],
        "rounds_hist_win": list(won), "rounds_hist_loss": list(lost), **columns,
    })


def _drawn(ax) -> list:
    """The y values of every line and histogram outline (``stairs``) of an axes."""
    from matplotlib.patches import StepPatch

    return [line.get_ydata() for line in ax.get_lines()] + \
        [patch.get_data().values for patch in ax.patches if isinstance(patch, StepPatch)]


def _lines_fit(fig) -> None:
    """Every line drawn lies inside its axes' y limits (none runs off the top of a shared axis)."""
    checked = 0
    for ax in fig.axes:
        low, high = ax.get_ylim()
        for ys in _drawn(ax):
            assert low <= min(ys) and max(ys) <= high, f"{ax.get_title()!r}: line up to {max(ys):.3f}, axis {high:.3f}"
            checked += 1
    assert checked


def test_histogram_bins_are_one_round_wide_at_both_ends():
    """The rounds plot drew the first and last bins half as wide (a mid-point step); every bin is now a unit wide."""
    import numpy as np
    from matplotlib.patches import StepPatch

    fig = plots.make_plot("rounds", _cells([SPREAD, PEAKED], [PEAKED, SPREAD]))
    edges = [p.get_data().edges for ax in fig.axes for p in ax.patches if isinstance(p, StepPatch)]
    assert len(edges) == 4 and all(np.allclose(np.diff(e), 1.0) for e in edges)
    assert all(e[0] == 1.5 and e[-1] == 21.5 for e in edges)  # rounds 2 to 21, each bin centred on its round


@pytest.mark.parametrize("kind", ["heatmap", "forest", "rounds", "survival", "variant"])
def test_every_plot_says_which_settings_all_its_cells_share(finished, tmp_path, kind):
    """A plot named only what varied: `max_rounds = 8` of [fixed] appeared nowhere (audit, session 12)."""
    cells = results.load(finished)
    if kind == "heatmap":  # two settings may vary in a heat map
        cells = cells[cells["variants.bleed"].isna()].reset_index(drop=True)
    fig = plots.make_plot(kind, cells, x="variants.bleed" if kind == "variant" else None)
    titles = [fig.get_suptitle()] + [ax.get_title() for ax in fig.axes]
    assert any("in every cell: max_rounds=8" in " ".join(t.split()) for t in titles), titles


@pytest.mark.parametrize("kind", ["rounds", "survival"])
def test_a_plot_of_hundreds_of_cells_draws_the_first_fifty_panels_and_says_so(kind):
    """240 cells made 48 rows of postage-stamp panels nobody could read (audit, session 12)."""
    n = 240
    cells = _cells([SPREAD] * n, [PEAKED] * n, parties=[["knight"] * (1 + k % 4) + [f"p{k}"] for k in range(n)])
    cells["settings"] = [{**s, "side": "enemies" if k < n // 2 else "characters"} for k, s in enumerate(cells.settings)]
    fig = plots.make_plot(kind, cells)
    assert len([ax for ax in fig.axes if ax.get_visible()]) == plots.MAX_PANELS
    title = " ".join(fig.get_suptitle().split())
    assert "the first 50 of 240 cells (all with side=enemies)" in title  # varies overall, not in the panels drawn


def test_survival_curves_start_with_every_play_still_going():
    """The survival curves began at the first round anyone lost (0.85 for the Gargoyle), not at 1."""
    fig = plots.make_plot("survival", _cells([SPREAD, PEAKED], [PEAKED, SPREAD]))
    for line in fig.axes[0].get_lines():
        assert line.get_ydata()[0] == 1.0 and line.get_xdata()[0] == 1  # before round 2, the first that ended


def test_panels_sharing_an_axis_fit_a_later_panels_higher_peak():
    """The shared y limit is set after every panel is drawn: a peak in the last panel is not cut off at the height
    of the first panels' lines."""
    n = plots.MAX_LINES + 2
    cells = _cells([SPREAD] * (n - 1) + [PEAKED], [SPREAD] * n)
    fig = plots.rounds(cells)
    assert len([ax for ax in fig.axes if ax.get_visible()]) == n  # panel mode
    _lines_fit(fig)
    assert fig.axes[0].get_ylim()[1] >= 1.0


def test_score_panels_fit_a_later_panels_higher_peak():
    import numpy as np

    scores = {f"score_seat_{k}_hist_{o}": [SPREAD, SPREAD, PEAKED if k == 1 else SPREAD]
              for k in range(2) for o in ("win", "loss")}
    cells = _cells([SPREAD] * 3, [SPREAD] * 3, seats_taken=np.full(3, 2), **scores)
    fig = plots.make_plot("scores", cells, competitive=True, unit="game")
    _lines_fit(fig)


def _no_warnings(make):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return make()


def test_rounds_of_cells_without_a_win_names_the_cells_and_says_so():
    """Nothing won: the won panel says so, the lost lines carry the legend, and no 'no artists' warning."""
    import numpy as np

    none = np.zeros_like(SPREAD)
    cells = _cells([none] * 3, [SPREAD, PEAKED, SPREAD])
    fig = _no_warnings(lambda: plots.make_plot("rounds", cells))
    won, lost = fig.axes
    assert not _drawn(won) and "no wins" in " ".join(t.get_text() for t in won.texts)
    assert len(_drawn(lost)) == 3
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["party=knight", "party=knight+knight",
                                                          "party=knight+knight+knight"]
    _lines_fit(fig)
    many = _cells([none] * (plots.MAX_LINES + 1), [SPREAD] * (plots.MAX_LINES + 1))
    fig = _no_warnings(lambda: plots.make_plot("rounds", many))
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["lost"]
    assert "no wins" in fig.get_suptitle()


def test_rounds_axis_counts_what_the_game_counts():
    """The x axis names the game's own rounds column: a whole game counts battles, Dark Maiden turns; a battle
    game's rounds stay 'round the battle ended'; an unknown count of a game is no 'round'."""
    cells = _cells([SPREAD, PEAKED], [SPREAD, SPREAD])

    def xlabels(**kw):
        return {ax.get_xlabel() for ax in plots.make_plot("rounds", cells, **kw).axes}

    assert xlabels() == {"round the battle ended"}
    assert xlabels(unit="game", rounds_name="battles") == {"battles per game"}
    assert xlabels(unit="game", rounds_name="turns") == {"turns per game"}
    assert xlabels(unit="game", rounds_name="rounds") == {"round the game ended"}
    assert "round" not in " ".join(xlabels(unit="game"))
    assert plots.make_plot("survival", cells, unit="game", rounds_name="battles").axes[0].get_xlabel() == "battles"
    assert {ax.get_ylabel() for ax in plots.make_plot("rounds", cells, unit="game").axes} == {
        "fraction of won games", "fraction of lost games"}


def test_panel_titles_break_between_names_not_inside_them():
    parties = [["amazona", "barbara", "guerrero", "amazona"], ["amazona", "barbara", "guerrero", "barbara"]]
    parties += [["knight"] * (k + 1) for k in range(plots.MAX_LINES)]
    cells = _cells([SPREAD] * len(parties), [SPREAD] * len(parties), parties)
    cells["settings"] = [{**s, "difficulty": "normal" if k % 2 else "easy"} for k, s in enumerate(cells["settings"])]
    for kind in ("rounds", "survival"):
        titles = [ax.get_title() for ax in plots.make_plot(kind, cells).axes if ax.get_visible()]
        assert titles[0] == "party=amazona+barbara+guerrero+\namazona, difficulty=easy"
        for title in titles:
            lines = title.split("\n")
            assert all(len(line) <= plots.PANEL_TITLE_WIDTH for line in lines), title
            assert all(line.endswith(("+", ",")) for line in lines[:-1]), title


def test_wrap_label_breaks_at_separators_then_inside_long_names():
    assert plots.wrap_label("party=a+b, difficulty=easy", 100) == "party=a+b, difficulty=easy"
    assert plots.wrap_label("party=assassin+herald+knight+warrior, encounter=hollow_cave", 34) == (
        "party=assassin+herald+knight+\nwarrior, encounter=hollow_cave")
    assert plots.wrap_label("variants.bleed_zero_damage=trigger_on_hit", 34) == (
        "variants.bleed_zero_damage=\ntrigger_on_hit")
    assert plots.wrap_label("x" * 40, 34) == "x" * 34 + "\n" + "x" * 6


ENCOUNTERS = ["high_wall_of_lothric", "hollow_cave", "the_forgotten"]
PARTIES = [["assassin", "herald", "knight", "warrior"], ["assassin", "herald"], ["knight", "warrior"]]


def _variant_cells(key):
    """Cells shaped like the auditor's: the encounter against the_forgotten per party (effects of -80% to 0%), or
    a bleed variant per encounter and party (wins out of 500 with and without it: effects of -10% to +10%)."""
    import pandas as pd

    rows = []
    if key == "encounter":
        for party in PARTIES + [["assassin", "knight", "warrior"], ["herald"]]:
            for encounter, wins in zip(["the_forgotten", "high_wall_of_lothric", "cemetery_of_ash"], (900, 700, 100)):
                rows.append({"settings": {"party": party, "encounter": encounter}, "battles": 1000, "wins": wins})
    else:
        pairs = iter([(171, 153), (277, 277), (362, 358), (413, 406), (314, 312), (455, 451), (42, 38), (47, 60),
                      (204, 222)])
        for encounter in ENCOUNTERS:
            for party in PARTIES:
                for wins, variants in zip(next(pairs), ({}, {"bleed_zero_damage": "trigger_on_hit"})):
                    rows.append({"settings": {"encounter": encounter, "party": party, "variants": variants},
                                 "battles": 500, "wins": wins})
    return pd.DataFrame(rows).assign(cell=lambda df: [str(k) for k in df.index])


@pytest.mark.parametrize("key", ["encounter", "variants.bleed_zero_damage"])
def test_variant_plot_labels_fit_the_figure_and_ticks_do_not_touch(key):
    """The x label (a long setting name and its baseline) stays inside the figure; tick labels keep apart."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = plots.variant(_variant_cells(key), key)
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    ax = fig.axes[0]
    for text in (ax.xaxis.label, ax.title):
        box = text.get_window_extent(renderer)
        assert 0 <= box.x0 and box.x1 <= fig.bbox.width, (text.get_text(), box, fig.bbox.width)
    low, high = ax.get_xlim()
    ticks = [t.get_window_extent(renderer) for t, v in zip(ax.get_xticklabels(), ax.get_xticks())
             if low <= v <= high and t.get_text()]
    assert len(ticks) >= 3
    assert all(a.x1 + 5 < b.x0 for a, b in zip(ticks, ticks[1:])), [t.get_text() for t in ax.get_xticklabels()]
    shown = [t.get_text() for t in ax.get_xticklabels() if t.get_text() not in ("", "0")]
    assert shown and all(t.endswith(" pp") for t in shown), shown  # a difference of rates: points, not percent
    short = key.rsplit(".", 1)[-1]
    assert all(f"{short}=" in t.get_text() for t in ax.get_yticklabels())  # "party=…: trigger_on_hit" was ": …"


def test_dsim_plot_passes_the_games_rounds_name(finished, tmp_path, monkeypatch):
    """`dsim plot` tells the figure what the game's rounds column counts (whole games: battles; Dark Maiden: turns)."""
    from dsim.games import get_game

    seen = {}
    make = plots.make_plot
    monkeypatch.setattr(plots, "make_plot", lambda *a, **k: seen.update(k) or make(*a, **k))
    assert _plot(finished, "--kind", "rounds", "--out", tmp_path / "r.png").exit_code == 0
    assert seen["rounds_name"] == get_game("toy").outcome.rounds


def test_heatmap_default_rows_avoid_the_columns_the_user_chose(finished):
    """`--x party` alone: the rows default to another varying setting, not to party as well."""
    cells = results.load(finished)
    plain = cells[[not results.flatten_settings(s).get("variants.bleed") for s in cells["settings"]]]
    fig = plots.heatmap(plain.reset_index(drop=True), x="party", axes=(("party",), ()))
    ax = fig.axes[0]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("party", "p")


def test_a_forest_of_near_zero_rates_reads_them_on_their_own_scale():
    """Issue 47: whole games won a few times in a hundred were all dots at 0% on a 0–100% axis; the axis now ends
    near the highest interval bound, and a rate near one half keeps the whole 0–100% axis."""
    from dsim.stats import wilson_interval

    def rated(cells):
        bounds = [wilson_interval(w, n) for w, n in zip(cells["wins"], cells["battles"])]
        return cells.assign(win_rate=cells["wins"] / cells["battles"], ci_low=[b[0] for b in bounds],
                            ci_high=[b[1] for b in bounds])

    low = plots.make_plot("forest", rated(_cells([PEAKED] * 3, [SPREAD] * 3)))  # 7 wins in 107 plays
    assert 0.1 < low.axes[0].get_xlim()[1] < 0.2 and "axis ends near" in low.axes[0].get_xlabel()
    even = plots.make_plot("forest", rated(_cells([SPREAD] * 2, [SPREAD] * 2)))
    assert even.axes[0].get_xlim() == (0, 1)


def test_a_seat_forest_names_only_the_seats_at_the_table():
    """Issue 47: a sweep of 4-hunter tables (seat columns up to the game's 5) listed "seat 4" in the legend, and
    its x label ran off the figure beside long cell labels."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    import pandas as pd

    seats = {f"win_seat_{k}_{stat}": [0.25 if k < 4 else 0.0] * 2 for k in range(5)
             for stat in ("mean", "ci_low", "ci_high")}
    cells = pd.DataFrame({"cell": ["a", "b"], "settings": [{"policy": "greedy"}, {"policy": "banker,greedy,aggressor,spoiler"}],
                          "seats_taken": [4, 4], **seats})
    fig = plots.seat_forest(cells)
    labels = [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    assert sorted(labels) == ["fair share", "seat 0", "seat 1", "seat 2", "seat 3"]
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    box = fig.axes[0].xaxis.label.get_window_extent(renderer)
    assert 0 <= box.x0 and box.x1 <= fig.bbox.width


def test_a_forest_of_many_cells_comes_in_pages_best_first_labelled_over_the_grid(tmp_path):
    """Issue 47: a 300-cell grid drew one image 16,000 px tall; now pages of 40 rows, the best cells first, each row
    labelled by every setting that varies in the whole grid (not only on its page)."""
    n = 90
    cells = _cells([PEAKED] * n, [SPREAD] * n, parties=[["knight"] * (1 + k % 4) + [f"p{k}"] for k in range(n)])
    cells["settings"] = [{**s, "side": "enemies" if k < 45 else "characters"} for k, s in enumerate(cells.settings)]
    cells = cells.assign(win_rate=[k / n for k in range(n)], ci_low=[max(k / n - 0.01, 0) for k in range(n)],
                         ci_high=[k / n + 0.01 for k in range(n)])
    pages = plots.make_pages("forest", cells)
    assert len(pages) == 3
    first = pages[0].axes[0]
    labels = [t.get_text() for t in first.get_yticklabels()]
    assert len(labels) == 40 and labels[-1].endswith("side=characters")  # top row: the best cell, p89
    assert "p89" in labels[-1] and all("side=" in label for label in labels)
    assert "page 1 of 3: cells 1–40 of 90, best first" in " ".join(pages[0].get_suptitle().split())
    assert len(pages[2].axes[0].get_yticklabels()) == 10
    assert [p.name for p in plots.page_paths(tmp_path / "forest.png", 3)] == ["forest.png", "forest-2.png",
                                                                               "forest-3.png"]
    assert len(plots.make_pages("forest", cells.iloc[:40])) == 1  # a page's worth: one figure, no page note


@pytest.mark.parametrize("kind", ["rounds", "survival"])
def test_panels_of_many_cells_come_in_pages_of_fifty_in_the_grids_order(kind):
    """`dsim plot` drew the first 50 panels of a 240-cell grid and told the user to plot the rest by hand; pages
    now hold them all, each panel named over the whole grid."""
    n = 120
    cells = _cells([SPREAD] * n, [PEAKED] * n, parties=[["knight"] * (1 + k % 4) + [f"p{k}"] for k in range(n)])
    pages = plots.make_pages(kind, cells)
    assert len(pages) == 3
    titles = [ax.get_title() for page in pages for ax in page.axes if ax.get_visible() and ax.get_title()]
    assert len(titles) == n and "p0" in titles[0] and "p119" in titles[-1]
    assert "page 3 of 3: cells 101–120 of 120, in the grid's order" in " ".join(pages[2].get_suptitle().split())


def test_scores_beyond_the_histogram_say_the_last_bar_holds_them():
    """Bloodborne with 10 trophies a kill scores past the histogram's range: the spike at its end is every score
    from there up, and the axis says so."""
    import numpy as np

    high = np.zeros(len(results.HIST_VALUES), dtype=np.int64)
    high[-1] = 9
    cells = _cells([SPREAD], [PEAKED], score_seat_0_hist_win=[high], score_seat_0_hist_loss=[SPREAD])
    assert f"the last bar: {results.HIST_VALUES[-1]} or more" in plots.scores(cells).get_supxlabel()
    plain = _cells([SPREAD], [PEAKED], score_seat_0_hist_win=[SPREAD], score_seat_0_hist_loss=[SPREAD])
    assert plots.scores(plain).get_supxlabel() == "final score"
