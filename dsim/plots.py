"""Figures of a results folder: heat map, forest plot, rounds distributions, survival, variant effects.

Every function takes the per-cell table of :func:`dsim.results.load` (filter it first to
plot a subset) and returns a :class:`matplotlib.figure.Figure` built without pyplot, so no
global backend or state is touched; :func:`save` writes PNG, SVG or PDF. Colours are
colour-blind safe: ``cividis`` for heat maps, the Okabe–Ito palette for lines.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator, PercentFormatter

from dsim.analysis import cell_labels, fixed_settings, format_value, spelled, variant_effects, varying_keys
from dsim.results import HIST_VALUES, flatten_settings
from dsim.text import wrap_label

OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#000000"]
FORMATS = (".png", ".svg", ".pdf")


class PlotError(Exception):
    """The cells cannot be drawn as asked (message is user-facing)."""


def _colors(n: int) -> list:
    """``n`` distinguishable colour-blind-safe colours (Okabe–Ito, then viridis beyond eight)."""
    if n <= len(OKABE_ITO):
        return OKABE_ITO[:n]
    return list(matplotlib.colormaps["viridis"](np.linspace(0, 0.9, n)))


def _percent(rate: float) -> str:
    """A rate as a percentage: whole numbers, with one or two decimals below 10% so that small
    rates and their intervals are not rounded to 0%."""
    pct = 100 * rate
    if pct == 0 or pct >= 10:
        return f"{pct:.0f}%"
    return f"{pct:.1f}%" if pct >= 1 else f"{pct:.2f}%"


def _values(cells: pd.DataFrame, key: str) -> list:
    """Each cell's value of setting ``key`` (``None`` when unset)."""
    return [flatten_settings(s).get(key) for s in cells["settings"]]


def _pick(keys: list[str], wanted: str | None, preferred: tuple[str, ...], avoid: str | None = None) -> str:
    """The axis setting: ``wanted`` if given, else the first preferred varying key, else any."""
    if wanted is not None:
        if wanted not in keys:
            raise PlotError(f"setting {wanted!r} does not vary between cells (varying: {', '.join(keys) or 'none'})")
        return wanted
    candidates = [k for k in preferred if k in keys and k != avoid] + [k for k in keys if k != avoid]
    if not candidates:
        raise PlotError("a heat map needs two settings that vary between cells; "
                        f"varying: {', '.join(keys) or 'none'}")
    return candidates[0]


def heatmap(cells: pd.DataFrame, x: str | None = None, y: str | None = None,
            axes: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())) -> Figure:
    """Win rate per (x, y) pair of settings (default: the game's preferred ``axes``, rows then columns,
    else the first varying settings), interval in each box."""
    keys = varying_keys(cells)
    y = _pick(keys, y, axes[0], avoid=x)  # a default axis avoids the one the user chose
    x = _pick(keys, x, axes[1], avoid=y)
    if x == y:
        raise PlotError(f"--x and --y both name {x}: a heat map needs two different settings")
    others = [k for k in keys if k not in (x, y)]
    if others:  # no choice of --x/--y helps: 3 or more settings vary
        raise PlotError(f"{len(keys)} settings vary ({', '.join(keys)}) but a heat map shows two, so its boxes "
                        f"would hold several cells; use --kind forest, or plot a subset of the cells "
                        f"(dsim.plots.heatmap on dsim.results.load(FOLDER) filtered)")
    xs, ys = [format_value(v) for v in _values(cells, x)], [format_value(v) for v in _values(cells, y)]
    cols, rows = list(dict.fromkeys(xs)), list(dict.fromkeys(ys))
    rate = np.full((len(rows), len(cols)), np.nan)
    label_width = 0.085 * max(len(r) for r in rows)  # the row labels take this much of the width (10-point text)
    fig = Figure(figsize=(1.6 + label_width + 1.3 * len(cols), 1.2 + 0.7 * len(rows)), layout="constrained")
    ax = fig.add_subplot()
    for xv, yv, r, lo, hi in zip(xs, ys, cells["win_rate"], cells["ci_low"], cells["ci_high"]):
        i, j = rows.index(yv), cols.index(xv)
        rate[i, j] = r
        ax.text(j, i, f"{_percent(r)}\n{_percent(lo)}–{_percent(hi)}", ha="center", va="center",
                fontsize=8, color="white" if r < 0.5 else "black")
    image = ax.imshow(np.ma.masked_invalid(rate), cmap="cividis", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(len(cols)), cols, rotation=30, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title("Win rate (95% Wilson interval below)")
    fig.colorbar(image, ax=ax, label="win rate", format=PercentFormatter(1.0))
    return fig


def forest(cells: pd.DataFrame) -> Figure:
    """Win rate of every cell with its 95 % interval, best at the top."""
    order = cells.assign(label=cell_labels(cells)).sort_values("win_rate")
    rate = order["win_rate"].to_numpy()
    err = np.vstack([rate - order["ci_low"].to_numpy(), order["ci_high"].to_numpy() - rate])
    fig = Figure(figsize=(_row_plot_width(order["label"]), 1.2 + 0.3 * len(order)), layout="constrained")
    ax = fig.add_subplot()
    ax.errorbar(rate, range(len(order)), xerr=err, fmt="o", color=OKABE_ITO[0], capsize=3,
                clip_on=False)  # a marker at 0% or 100% drawn whole, not halved by the axis
    ax.set_yticks(range(len(order)), order["label"])
    high = float(order["ci_high"].max()) if len(order) else 1.0
    ax.set_xlim(0, 1 if high > 0.5 else max(1.15 * high, 0.01))  # near-zero rates on a scale they can be read on
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("win rate (95% Wilson interval)" + ("" if high > 0.5 else "\nthe axis ends near the highest bound"))
    ax.set_title("Win rate per cell")
    ax.grid(axis="x", alpha=0.3)
    return fig


def seat_forest(cells: pd.DataFrame, unit: str = "game") -> Figure:
    """A competitive game's win share of every seat in play, per cell, with 95 % intervals; the tick on each
    row is the fair share (one over the seats)."""
    labels = cell_labels(cells)
    seats = sorted(int(c[len("win_seat_"):-len("_mean")]) for c in cells.columns
                   if c.startswith("win_seat_") and c.endswith("_mean"))
    taken = cells["seats_taken"].to_numpy() if "seats_taken" in cells else np.full(len(cells), len(seats))
    fig = Figure(figsize=(max(7.5, _row_plot_width(labels)), 1.8 + 0.45 * len(cells) + 0.22 * -(-len(seats) // 5)),
                 layout="constrained")
    ax = fig.add_subplot()
    offsets = np.linspace(-0.3, 0.3, len(seats)) if len(seats) > 1 else np.zeros(1)
    for k, color, dy in zip(seats, _colors(len(seats)), offsets):
        rows = np.flatnonzero((taken == 0) | (taken > k))  # the cells with somebody in seat k
        if rows.size == 0:  # no table this large: no legend entry for a seat nobody sat in
            continue
        share = cells[f"win_seat_{k}_mean"].to_numpy()[rows]
        err = np.vstack([share - cells[f"win_seat_{k}_ci_low"].to_numpy()[rows],
                         cells[f"win_seat_{k}_ci_high"].to_numpy()[rows] - share])
        ax.errorbar(share, rows + dy, xerr=err, fmt="o", ms=4, color=color, capsize=2, label=f"seat {k}")
    fair = [1 / t for t in np.where(taken > 0, taken, len(seats))]
    ax.scatter(fair, range(len(cells)), marker="|", s=400, color="grey", label="fair share", zorder=0)
    ax.set_yticks(range(len(cells)), labels)
    ax.set_ylim(-0.6, len(cells) - 0.4)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel(textwrap.fill(f"share of {unit}s won by the seat (95% Wilson interval; ties credit every "
                                "tied seat)", 44))  # narrow enough for the axes beside long cell labels
    ax.set_title("Win share per seat")
    ax.grid(axis="x", alpha=0.3)
    ax.invert_yaxis()  # the grid's first cell at the top, read downwards
    if len(cells) > 8:  # a tall plot is read from the top: its legend beside the first rows
        fig.legend(loc="outside right upper", fontsize=8, frameon=False)
    else:
        fig.legend(loc="outside lower center", ncols=min(len(seats) + 1, 6), fontsize=8, frameon=False)
    return fig


def scores(cells: pd.DataFrame, unit: str = "game") -> Figure:
    """A competitive game's final scores (``score_seat_k``): one panel per cell, a line per seat in play."""
    seats = sorted(int(c[len("score_seat_"):-len("_hist_loss")]) for c in cells.columns
                   if c.startswith("score_seat_") and c.endswith("_hist_loss"))
    if not seats:
        raise PlotError("no score_seat_k outcomes in these results (the game reports no scores)")
    taken = cells["seats_taken"].to_numpy() if "seats_taken" in cells else np.full(len(cells), len(seats))
    hists = {k: [w + lost for w, lost in zip(cells[f"score_seat_{k}_hist_win"], cells[f"score_seat_{k}_hist_loss"])]
             for k in seats}
    keep = _round_range([h for k in seats for h in hists[k]])
    fig, axes = _panels(len(cells), f"Final scores per seat (share of each cell's {unit}s)")
    labelled: set[int] = set()
    for n, (ax, label) in enumerate(zip(axes, cell_labels(cells))):
        for k, color in zip(seats, _colors(len(seats))):
            if taken[n] == 0 or k < taken[n]:
                hist = hists[k][n]
                _bars(ax, keep, hist[keep] / max(hist.sum(), 1), color=color,
                      label=None if k in labelled else f"seat {k}")
                labelled.add(k)
        _panel_title(ax, label)
    _floor_at_zero(axes)
    capped = any(h[-1] for k in seats for h in hists[k])  # the histograms' last bin holds every higher score too
    fig.supxlabel("final score" + (f" (the last bar: {HIST_VALUES[-1]} or more)" if capped else ""))
    fig.legend(loc="outside right upper", fontsize=8, frameon=False)  # one column beside the panels
    return fig


def game_lengths(cells: pd.DataFrame, unit: str = "game") -> Figure:
    """A competitive game's rounds: the distribution of the round each play ends in (no won/lost split),
    a line per cell or (more than :data:`MAX_LINES` cells) a panel per cell."""
    hists = [w + lost for w, lost in zip(cells["rounds_hist_win"], cells["rounds_hist_loss"])]
    keep, labels = _round_range(hists), cell_labels(cells)
    title = f"Rounds a {unit} lasts (share of each cell's {unit}s)"
    if len(cells) > MAX_LINES:
        fig, axes = _panels(len(cells), title)
        pairs = [(ax, hist, label, OKABE_ITO[0]) for ax, hist, label in zip(axes, hists, labels)]
    else:
        fig = Figure(figsize=(7, 4.5 + 0.22 * -(-len(cells) // 3)), layout="constrained")
        ax = fig.add_subplot()
        pairs = [(ax, hist, label, color) for hist, label, color in zip(hists, labels, _colors(len(cells)))]
        ax.set_title(title)
        ax.set_ylabel(f"fraction of {unit}s")
    for ax, hist, label, color in pairs:
        _bars(ax, keep, hist[keep] / max(hist.sum(), 1), color=color, label=label)
        if len(cells) > MAX_LINES:
            _panel_title(ax, label)
    _floor_at_zero([p[0] for p in pairs])
    if len(cells) > MAX_LINES:
        fig.supxlabel(f"round the {unit} ended")
    else:
        ax.set_xlabel(f"round the {unit} ended")
        _legend_below(fig, len(cells))
    return fig


def still_running(cells: pd.DataFrame, unit: str = "game") -> Figure:
    """A competitive game's survival curve: the share of plays still running after each round."""
    hists = [w + lost for w, lost in zip(cells["rounds_hist_win"], cells["rounds_hist_loss"])]
    return _survival_curves(cells, hists, f"share of {unit}s still running", f"{unit.title()}s still running by round")


def _row_plot_width(labels) -> float:
    """Inches for a plot with one labelled row per cell: a 4.5-inch plot area beside the longest label."""
    return 4.5 + 0.075 * max((len(str(label)) for label in labels), default=10)


def _bars(ax, keep: slice, shares: np.ndarray, **style: Any) -> None:
    """A histogram's outline over the values of the bins ``keep``: every bin one unit wide, the first and last too
    (a mid-point step drew them half as wide)."""
    values = HIST_VALUES[keep]
    ax.stairs(shares, np.append(values - 0.5, values[-1] + 0.5), **style)


def _round_range(hists: list[np.ndarray]) -> slice:
    """Histogram bins from the first to the last that holds any battle."""
    used = np.flatnonzero(np.sum(hists, axis=0))
    return slice(used[0], used[-1] + 1) if used.size else slice(0, 1)


MAX_LINES = 8  # more cells than this get one small panel each instead of lines that a legend cannot name
MAX_PANELS = 50  # ten rows of five: more panels would be too small to read, so a plot draws the first ones


def _panels(n: int, title: str) -> tuple[Figure, list]:
    """A grid of ``n`` small panels sharing their axes (at most five across), with a figure title."""
    cols = min(5, n)
    rows = -(-n // cols)
    fig = Figure(figsize=(2.5 * cols, 0.8 + 2.0 * rows), layout="constrained")
    axes = fig.subplots(rows, cols, sharex=True, sharey=True, squeeze=False).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    fig.suptitle(title)
    return fig, list(axes[:n])


def _floor_at_zero(axes: list) -> None:
    """Start the y axis of ``axes`` at zero, keeping the top that fits every line. Call it once, after every line of
    every panel is drawn: fixing a limit ends autoscaling, and panels share their y axis, so a limit fixed earlier
    would cut off the peaks of the panels drawn later."""
    for ax in {id(ax): ax for ax in axes}.values():
        ax.set_ylim(bottom=0)


PANEL_TITLE_WIDTH = 34  # characters of a 7-point panel title across a 2.5-inch panel


def _panel_title(ax, label: str) -> None:
    """A cell's label above its panel, wrapped to the panel's width between names."""
    ax.set_title(wrap_label(label, PANEL_TITLE_WIDTH), fontsize=7)


def _legend_below(fig: Figure, n: int) -> None:
    """The figure's legend under the panels, in as many columns (at most 3) as its longest label leaves room
    for across the figure, so it covers no data and no label runs off the edge."""
    labels = {label for ax in fig.axes for label in ax.get_legend_handles_labels()[1]}
    longest = max((len(label) for label in labels), default=1)
    fits = int(fig.get_figwidth() * 72 / 5.2 // (longest + 6))  # 8-point text: about 5.2 points a character
    fig.legend(loc="outside lower center", ncols=max(1, min(n, 3, fits)), fontsize=8, frameon=False)


def _rounds_words(unit: str, rounds_name: str | None) -> tuple[str, str | None]:
    """What the rounds histograms count, from the game's own rounds column ``rounds_name`` (``Outcome.rounds``:
    "rounds", "turns", "battles" a whole game fought) and its play ``unit``: the axis label of the value a play
    ended at, and the count's name for titles ("Rounds", "Turns", "Battles"; ``None`` when the column is not
    known and a play is not a battle, whose count is always rounds)."""
    if rounds_name == "rounds" or (rounds_name is None and unit == "battle"):
        return f"round the {unit} ended", "Rounds"
    if rounds_name is None:
        return f"{unit} length", None
    return f"{rounds_name.replace('_', ' ')} per {unit}", rounds_name.replace("_", " ").capitalize()


def _nothing_here(ax, text: str, xs: np.ndarray) -> None:
    """An empty panel that says why it is empty, over the same values as the panels with data."""
    ax.set_xlim(xs[0] - 0.5, xs[-1] + 0.5)
    ax.set_ylim(0, 1)
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center", color="grey")


def rounds(cells: pd.DataFrame, unit: str = "battle", rounds_name: str | None = None) -> Figure:
    """Distribution of the round a ``unit`` (play) ends in, for won and for lost plays: per cell as lines
    in two panels, or (more than :data:`MAX_LINES` cells) one panel per cell with both outcomes. ``rounds_name`` is
    the game's own rounds column (``Outcome.rounds``; e.g. a whole game counts its battles), which names the axis."""
    labels, hists = cell_labels(cells), {"won": list(cells["rounds_hist_win"]), "lost": list(cells["rounds_hist_loss"])}
    keep = _round_range(hists["won"] + hists["lost"])
    xlabel, count = _rounds_words(unit, rounds_name)
    empty = {"won": "no wins", "lost": "no losses"}

    def title(outcome: str) -> str:
        return f"{count} to {'win' if outcome == 'won' else 'lose'}" if count else f"Length of {outcome} {unit}s"

    def draw(ax, hist: np.ndarray, **style) -> bool:
        if hist.sum():
            _bars(ax, keep, hist[keep] / hist.sum(), **style)
        return bool(hist.sum())

    if len(cells) > MAX_LINES:
        what = f"{count} to win and to lose" if count else f"Length of won and lost {unit}s"
        missing = [empty[o] for o in ("won", "lost") if not any(h.sum() for h in hists[o])]
        fig, axes = _panels(len(cells), f"{what} (share of each cell's won / lost {unit}s"
                                        f"{'; ' + ', '.join(missing) + ' in any cell' if missing else ''})")
        labelled: set[str] = set()
        for n, (ax, label) in enumerate(zip(axes, labels)):
            for outcome, color in (("won", OKABE_ITO[0]), ("lost", OKABE_ITO[1])):
                if draw(ax, hists[outcome][n], color=color, label=None if outcome in labelled else outcome):
                    labelled.add(outcome)  # the first line of each outcome names it in the legend
            _panel_title(ax, label)
        _floor_at_zero(axes)
        fig.supxlabel(xlabel)
        if labelled:
            fig.legend(loc="outside upper right", ncols=2, fontsize=8, frameon=False)  # beside the title, not on it
        return fig
    fig = Figure(figsize=(10, 4.2 + 0.22 * -(-len(cells) // 3)), layout="constrained")
    named: set[int] = set()  # cells already in the legend: each is named on its first line, won or lost
    for n, outcome in enumerate(("won", "lost")):
        ax = fig.add_subplot(1, 2, n + 1)
        drawn = False
        for k, (hist, label, color) in enumerate(zip(hists[outcome], labels, _colors(len(cells)))):
            if draw(ax, hist, color=color, label=None if k in named else label):
                named.add(k)
                drawn = True
        if drawn:
            ax.set_ylim(bottom=0)  # after every line of this panel: fixing a limit ends autoscaling
        else:
            _nothing_here(ax, f"{empty[outcome]} in {'this cell' if len(cells) == 1 else 'these cells'}",
                          HIST_VALUES[keep])
        ax.set_xlabel(xlabel)
        ax.set_ylabel(f"fraction of {outcome} {unit}s")
        ax.set_title(title(outcome))
    if named:
        _legend_below(fig, len(cells))
    return fig


def survival(cells: pd.DataFrame, unit: str = "battle", rounds_name: str | None = None) -> Figure:
    """Fraction of plays not yet lost by the end of each round (or the game's own count, ``rounds_name``): a line
    per cell, or (more than :data:`MAX_LINES` cells) one panel per cell."""
    _, count = _rounds_words(unit, rounds_name)
    xlabel = "round" if count == "Rounds" else count.lower() if count else f"{unit} length"
    return _survival_curves(cells, list(cells["rounds_hist_loss"]), "share not yet lost", f"Survival by {xlabel}",
                            list(cells["rounds_hist_win"]), xlabel)


def _survival_curves(cells: pd.DataFrame, hists: list[np.ndarray], ylabel: str, title: str,
                     others: list[np.ndarray] | None = None, xlabel: str = "round") -> Figure:
    """One minus the cumulative share of ``hists`` (ended plays per round) per cell: lines, or panels."""
    keep = _round_range(hists + (others or []))
    x = np.concatenate([[HIST_VALUES[keep][0] - 1], HIST_VALUES[keep]])  # every curve starts at 1: none ended yet
    curves = [np.concatenate([[1.0], (1.0 - np.cumsum(hist) / battles)[keep]])
              for hist, battles in zip(hists, cells["battles"])]
    labels = cell_labels(cells)
    if len(cells) > MAX_LINES:
        fig, axes = _panels(len(cells), f"{title} ({ylabel})")
        for ax, alive, label in zip(axes, curves, labels):
            ax.step(x, alive, where="post", color=OKABE_ITO[0])
            ax.set_ylim(0, 1.02)
            _panel_title(ax, label)
        fig.supxlabel(xlabel)
        return fig
    fig = Figure(figsize=(7, 4.5 + 0.22 * -(-len(cells) // 3)), layout="constrained")
    ax = fig.add_subplot()
    for alive, label, color in zip(curves, labels, _colors(len(cells))):
        ax.step(x, alive, where="post", label=label, color=color)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    _legend_below(fig, len(cells))
    return fig


VARIANT_TICKS = 6  # at most this many intervals on a variant plot's x axis, so "−10.0%" labels do not touch
VARIANT_WIDTH = 48  # characters of 10-point text in the variant plot's 4.5-inch plot area, less the constrained margins


def variant(cells: pd.DataFrame, key: str | None = None) -> Figure:
    """Win-rate change made by a rule variant (or any setting ``key``) in each context, with 95 % intervals."""
    if key is None:
        varying = varying_keys(cells)
        candidates = [k for k in varying if k.startswith("variants.")]
        if len(candidates) != 1:
            raise PlotError(f"choose the variant or setting to compare with --x (varying: "
                            f"{', '.join(candidates or varying) or 'none'})")
        key = candidates[0]
    try:
        effects = variant_effects(cells, key)
    except ValueError as exc:
        raise PlotError(str(exc)) from None
    short = key.rsplit(".", 1)[-1]
    labels = [f"{c}: {short}={v}" if c else f"{short}={v}" for c, v in zip(effects["context"], effects["value"])]
    diff = effects["difference"].to_numpy()
    err = np.vstack([diff - effects["ci_low"].to_numpy(), effects["ci_high"].to_numpy() - diff])
    fig = Figure(figsize=(_row_plot_width(labels), 1.6 + 0.35 * len(effects)), layout="constrained")
    ax = fig.add_subplot()
    ax.axvline(0, color="grey", lw=1)
    ax.errorbar(diff, range(len(effects)), xerr=err, fmt="o", color=OKABE_ITO[3], capsize=3)
    ax.set_yticks(range(len(effects)), labels)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=VARIANT_TICKS, steps=[1, 2, 2.5, 5, 10]))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{100 * v:+.3g} pp" if v else "0"))  # points, not %
    baselines = ", ".join(dict.fromkeys(effects["baseline"]))
    ax.set_xlabel(wrap_label(f"win-rate difference vs {key}={baselines}", VARIANT_WIDTH) + "\n(95% Newcombe interval)")
    ax.set_title(wrap_label(f"Effect of {key} on win rate", 60))
    ax.grid(axis="x", alpha=0.3)
    return fig


def shares(cells: pd.DataFrame, names: tuple[str, ...], unit: str = "game") -> Figure:
    """A game's shares (``Outcome.shares``, e.g. how far whole games got) and its win rate per cell, each with its
    95 % interval, one row per cell (best win rate at the top), the legend below the plot (beside the top rows of a tall one)."""
    names = tuple(n for n in names if f"{n}_ci_low" in cells)
    if not names:
        raise PlotError("--kind shares: this game reports no shares (yes/no columns its outcome declares as `shares`)")
    deepest_first = ["win_rate", *(f"{n}_mean" for n in reversed(names))]  # the furthest stage decides the order
    order = cells.assign(label=cell_labels(cells)).sort_values(deepest_first)
    fig = Figure(figsize=(max(7.5, _row_plot_width(order["label"])), 1.8 + 0.45 * len(order)), layout="constrained")
    ax = fig.add_subplot()
    series = [(f"{n}_mean", f"{n}_ci_low", f"{n}_ci_high", n.replace("_", " ")) for n in names]
    series.append(("win_rate", "ci_low", "ci_high", "won"))
    offsets = np.linspace(-0.3, 0.3, len(series))
    rows = np.arange(len(order))
    for (mean, low, high, label), color, dy in zip(series, _colors(len(series)), offsets):
        rate = order[mean].to_numpy()
        err = np.vstack([rate - order[low].to_numpy(), order[high].to_numpy() - rate])
        ax.errorbar(rate, rows + dy, xerr=np.maximum(err, 0), fmt="o", ms=4, color=color, capsize=2, label=label,
                    clip_on=False)
    ax.set_yticks(rows, order["label"])
    ax.set_ylim(-0.6, len(order) - 0.4)
    top = max(float(order[high].max()) for _, _, high, _ in series)
    ax.set_xlim(0, min(1.0, max(0.05, 1.1 * top)))  # shares of a few percent stay readable
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel(f"share of {unit}s (95% Wilson interval)")
    ax.set_title(f"How far the {unit}s got")
    ax.grid(axis="x", alpha=0.3)
    if len(order) > 8:  # a tall plot is read from the top: its legend beside the first rows
        fig.legend(loc="outside right upper", fontsize=8, frameon=False)
    else:
        _legend_below(fig, len(series))
    return fig


PLOTS: dict[str, Callable[..., Figure]] = {
    "heatmap": heatmap, "forest": forest, "rounds": rounds, "survival": survival, "variant": variant,
}


COMPETITIVE: dict[str, Callable[..., Figure]] = {"forest": seat_forest, "rounds": game_lengths,
                                                "survival": still_running, "scores": scores}


FIXED_CHARS_PER_INCH = 10  # characters of 10-point title text per inch of figure, with room for the margins


def make_plot(kind: str, cells: pd.DataFrame, x: str | None = None, y: str | None = None,
              axes: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()), competitive: bool = False,
              unit: str = "battle", share_names: tuple[str, ...] = (), rounds_name: str | None = None,
              grid: pd.DataFrame | None = None) -> Figure:
    """The figure ``kind`` (a key of :data:`PLOTS`, or ``shares``); ``x``/``y`` choose settings where it uses them,
    ``axes`` are the game's preferred heat-map rows and columns, ``share_names`` its shares, ``unit`` names one play
    and ``rounds_name`` the game's own rounds column (``Outcome.rounds``), which the rounds and survival plots count.
    A ``competitive`` game (no group win) gets its seats' win shares and its game lengths instead. ``grid``: the
    whole grid when ``cells`` is one page of it (:func:`make_pages`), for the settings every cell shares."""
    every = cells if grid is None else grid
    if kind in ("rounds", "survival", "scores") and len(cells) > MAX_PANELS:  # panels too small to read: cap
        cells = cells.iloc[:MAX_PANELS].reset_index(drop=True)
    if kind == "shares":
        fig = shares(cells, share_names, unit)
    elif competitive:
        if kind not in COMPETITIVE:
            raise PlotError(f"--kind {kind} draws a co-operative win rate; this game is competitive "
                            f"(kinds: {', '.join(COMPETITIVE)})")
        fig = COMPETITIVE[kind](cells, unit)
    elif kind == "heatmap":
        fig = heatmap(cells, x, y, axes)
    elif kind == "variant":
        fig = variant(cells, x)
    elif kind not in PLOTS:
        raise PlotError(f"--kind {kind} is for competitive games (per-seat scores)")
    elif kind in ("rounds", "survival"):
        fig = PLOTS[kind](cells, unit, rounds_name)
    else:
        fig = PLOTS[kind](cells)
    fixed = fixed_settings(every)
    notes = [f"in every cell: {spelled(fixed)}"] if fixed else []
    if grid is None and len(cells) < len(every):  # what the drawn cells share beyond that: the labels leave it out
        also = {k: v for k, v in fixed_settings(cells).items() if k not in fixed}
        notes.append(f"the first {len(cells)} of {len(every)} cells{f' (all with {spelled(also)})' if also else ''}; "
                     "for the others, plot a subset of dsim.results.load(FOLDER) with dsim.plots.make_plot")
    if notes:
        _add_note(fig, "\n".join(wrap_label(n, int(fig.get_figwidth() * FIXED_CHARS_PER_INCH)) for n in notes))
    return fig


ROWS_PER_PAGE = 40  # a row plot of more cells comes in pages of this many (a 300-cell grid made one image 16,000
# pixels tall with its legend at the foot)


def make_pages(kind: str, cells: pd.DataFrame, rows_per_page: int = ROWS_PER_PAGE, **options: Any) -> list[Figure]:
    """:func:`make_plot` (``options`` are its keywords) over a grid of any size: a plot of one row per cell
    (``forest``, ``shares``) of more than ``rows_per_page`` cells in pages, the best cells first (a competitive
    game's seats: in the grid's order), one of a panel per cell (``rounds``, ``survival``, ``scores``) in pages of
    :data:`MAX_PANELS`; every row or panel labelled over the whole grid. A heat map or variant plot is one page."""
    names = [n for n in options.get("share_names", ()) if f"{n}_ci_low" in cells]
    competitive = options.get("competitive", False)
    rank = (["win_rate", *(f"{n}_mean" for n in reversed(names))] if kind == "shares"
            else [] if kind in ("rounds", "survival", "scores") or (kind == "forest" and competitive)
            else ["win_rate"] if kind == "forest" else None)
    if kind in ("rounds", "survival", "scores"):
        rows_per_page = MAX_PANELS
    if rank is None or len(cells) <= rows_per_page:
        return [make_plot(kind, cells, **options)]
    ordered = cells.assign(label=cell_labels(cells))
    if rank:
        ordered = ordered.sort_values(rank, ascending=False, kind="stable")
    order = "best first" if rank else "in the grid's order"
    starts = range(0, len(ordered), rows_per_page)
    figures = []
    for number, start in enumerate(starts, 1):
        page = ordered.iloc[start:start + rows_per_page].reset_index(drop=True)
        fig = make_plot(kind, page, grid=cells, **options)
        _add_note(fig, f"page {number} of {len(starts)}: cells {start + 1}–{start + len(page)} of {len(cells)}, {order}")
        figures.append(fig)
    return figures


def _add_note(fig: Figure, note: str) -> None:
    """Put ``note`` (what the axes and legends leave out: the settings every cell shares, a cap on the cells
    drawn) under the figure's title."""
    plots = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    if fig._suptitle is not None:  # panels: under the figure's own title
        fig.suptitle(f"{fig._suptitle.get_text()}\n{note}", fontsize=fig._suptitle.get_fontsize())
    elif len(plots) == 1:  # the plot's title and the note over the whole figure: the plot area may be narrow
        fig.suptitle(f"{plots[0].get_title()}\n{note}", fontsize=plots[0].title.get_fontsize())
        plots[0].set_title("")
    else:  # side by side plots with titles of their own: above them all
        fig.suptitle(note, fontsize=plots[0].title.get_fontsize())


def page_paths(path: str | Path, pages: int) -> list[Path]:
    """Where the pages of a plot go: ``path`` for the first, ``<stem>-2<suffix>`` … for the others."""
    path = Path(path)
    return [path] + [path.with_name(f"{path.stem}-{n}{path.suffix}") for n in range(2, pages + 1)]


def save(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` as PNG, SVG or PDF, chosen by the file suffix."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise PlotError(f"{path}: unsupported format (expected one of: {', '.join(FORMATS)})")
    if not path.parent.is_dir():
        raise PlotError(f"{path}: the folder {path.parent} does not exist")
    try:
        fig.savefig(path, dpi=150)
    except OSError as exc:
        raise PlotError(f"{path}: cannot write the image ({exc.strerror})") from None
    return path


def _short_path(path: str, width: int = 56) -> str:
    """A figure's dotted path cut from the left to ``width`` characters (the end names the figure)."""
    return path if len(path) <= width else "…" + path[-(width - 1):]


def tornado(record: dict[str, Any], label: str, unit: str = "battle", rows: int = 20) -> Figure:
    """The top ``rows`` figures of a ``dsim sensitivity`` record as bars from the baseline to the measure with the
    figure one step down and one step up, each with its paired 95% interval."""
    ranked = [r for r in record["rows"] if any(r[s] and r[s].get("effect") is not None for s in ("down", "up"))][:rows]
    if not ranked:
        raise PlotError("no figure was played: nothing to draw")
    rate = record["kind"] == "rate"
    base = record["baseline"]["value"]
    n = len(ranked)
    small = n > 25
    fig = Figure(figsize=(10, 1.6 + (0.22 if small else 0.36) * n), layout="constrained")
    ax = fig.add_subplot()
    ys = np.arange(n)[::-1]
    height = 0.38
    for side, colour, offset, text in (("down", OKABE_ITO[0], height / 2, "one step down"),
                                       ("up", OKABE_ITO[1], -height / 2, "one step up")):
        played = [r[side] if r[side] and r[side].get("effect") is not None else None for r in ranked]
        eff = np.array([np.nan if e is None else e["effect"] for e in played], float)
        low = np.array([np.nan if e is None else e["ci95"][0] for e in played], float)
        high = np.array([np.nan if e is None else e["ci95"][1] for e in played], float)
        ax.barh(ys + offset, np.nan_to_num(eff), height, left=base, color=colour, label=text)
        ok = ~np.isnan(eff)
        ax.errorbar(base + eff[ok], ys[ok] + offset, xerr=[eff[ok] - low[ok], high[ok] - eff[ok]], fmt="none",
                    ecolor="black", elinewidth=0.8, capsize=2)
    ax.axvline(base, color="black", linewidth=1)
    names = []
    for r in ranked:
        moved = f"{len(r['members'])} figures" if r["group"] else \
            f"{r['value']:g} → " + "/".join(f"{r[s]['to']:g}" if r[s] else "–" for s in ("down", "up"))
        names.append(f"{_short_path(r['name'])}  ({moved}{', ' + r['status'] if r['status'] != 'sourced' else ''})")
    ax.set_yticks(ys, names, fontsize=7 if small else 9)
    ax.set_ylim(-0.7, n - 0.3)
    measure = record["measure"]
    ax.set_xlabel(f"{measure} rate (baseline {_percent(base)})" if rate else f"mean {measure} (baseline {base:.3g})")
    if rate:
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0 if ax.get_xlim()[1] - ax.get_xlim()[0] > 0.1 else 1))
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.suptitle(f"Which figures move the answer: {label}, policy {record['policy']}\n{record['plays']:,} {unit}s "
                 f"on common random numbers, seed {record['seed']}; whiskers: paired 95% intervals", fontsize=10)
    return fig
