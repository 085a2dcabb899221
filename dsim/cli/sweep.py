"""``dsim sweep``, ``dsim report`` and ``dsim plot``: run an experiment, read its results, draw them."""

from __future__ import annotations

from contextlib import ExitStack
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from dsim.cli.common import LoggedProgress, LongRunNotice, fail
from dsim.games.base import MAX_PLAYS
from dsim.validation import display_path

if TYPE_CHECKING:
    from dsim.sweep import SweepStatus

err_console = Console(stderr=True)


class ExecutorKind(str, Enum):
    """Where chunks run."""

    local = "local"
    dask = "dask"


class _PlayRate(ProgressColumn):
    """Plays (battles, games) per second of the plays bar."""

    def render(self, task: Task) -> Text:
        """Speed of the plays task; blank for the others."""
        unit = task.fields.get("unit")
        if not unit or not task.speed:
            return Text("")
        return Text(f"{task.speed:,.0f} {unit}/s", style="cyan")


def _unit(file: Path, game_module: str | None) -> str:
    """What one play of the experiment's game is called, plural ("battles", "games"); "battles" when the file
    or its game cannot be read yet (the sweep then says why)."""
    from dsim.games import load_game
    from dsim.sweep import ExperimentError, load_experiment

    try:
        return f"{load_game(load_experiment(file).experiment.game, game_module).outcome.unit}s"
    except (ExperimentError, KeyError, ImportError):  # run_sweep reports each with its own message
        return "battles"


GameModuleOpt = Annotated[str | None, typer.Option(
    "--game-module", metavar="MODULE",
    help="Import MODULE first: it registers a game from outside dsim (e.g. mypkg.mygame). dsim never imports a module "
         "that a file names (an experiment's or a results folder's game_module): only one you give here.")]


FolderArgument = Annotated[Path, typer.Argument(help="Results folder written by `dsim sweep`.")]
CompareOpt = Annotated[bool, typer.Option(
    "--compare", help="Instead of listing cells, compare cells that differ in one setting "
                      "(two-proportion tests, p-values adjusted by Holm and Benjamini-Hochberg).")]
NeededOpt = Annotated[float | None, typer.Option(
    "--battles-needed", help="Add the battles each cell needs for a 95% interval of this total width at its "
                             "observed win rate (e.g. 0.01 for ±0.5 percentage points).")]


def sweep(
    file: Annotated[Path, typer.Argument(help="Experiment file (TOML) describing the grid of cells.")],
    out: Annotated[Path, typer.Option("--out", help="Results folder; re-running into it resumes the sweep.")],
    battles: Annotated[
        int | None, typer.Option(min=1, max=MAX_PLAYS,
                                 help="Battles per cell (overrides the file; may grow a finished folder).")
    ] = None,
    chunk: Annotated[int | None, typer.Option(min=1, help="Battles per chunk file (overrides the file).")] = None,
    executor: Annotated[
        ExecutorKind, typer.Option(help="local: this process (Numba threads); dask: a Dask cluster.")
    ] = ExecutorKind.local,
    scheduler: Annotated[
        str | None, typer.Option(help="Dask scheduler address tcp://HOST:PORT (default: start a local cluster).")
    ] = None,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Dask workers to start (local cluster) or wait for (scheduler).")
    ] = None,
    game_module: GameModuleOpt = None,
    policy_file: Annotated[list[Path] | None, typer.Option(
        "--policy-file", metavar="PATH",
        help="A policy file (path/to/mine.py) the experiment names as path/to/mine.py:name, which you trust to be "
             "imported (repeatable): dsim imports no policy file that an experiment names otherwise.")] = None,
) -> None:
    """Play every cell of an experiment in chunks, writing one Parquet file per chunk into --out."""
    from dsim import results
    from dsim.executors import DaskExecutor, ExecutorError, LocalExecutor
    from dsim.sweep import ExperimentError, load_experiment, run_sweep

    if executor is ExecutorKind.local and (scheduler or workers):
        fail("--scheduler and --workers need --executor dask")
    runner = LocalExecutor() if executor is ExecutorKind.local else DaskExecutor(scheduler, workers)
    unit = _unit(file, game_module)
    progress = LoggedProgress(TextColumn("{task.description:>8}"), BarColumn(), MofNCompleteColumn(), _PlayRate(),
                        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=err_console)
    ids: dict[str, Any] = {}
    notice = LongRunNotice(unit, err_console.print)
    live = ExitStack()  # the progress display runs from on_start until run_sweep returns or fails
    checking = err_console.status(f"Checking the cells of {display_path(file)} …")  # seconds for a large grid
    live.enter_context(checking)

    def on_start(status: SweepStatus) -> None:
        checking.stop()
        ids["cells"] = progress.add_task("cells", total=status.cells, completed=status.cells_done)
        ids["battles"] = progress.add_task(unit, total=status.battles, completed=status.battles_done, unit=unit)
        live.enter_context(progress)

    def on_chunk(task: Any, cell_finished: bool) -> None:
        ids["played"] = ids.get("played", 0) + 1
        progress.advance(ids["battles"], task.count)
        if cell_finished:
            progress.advance(ids["cells"])
        battles_task = progress.tasks[ids["battles"]]
        notice(int(battles_task.completed), int(battles_task.total))

    try:
        with live:
            status = run_sweep(load_experiment(file), out, runner, battles=battles, chunk=chunk,
                               game_module=game_module, policy_files=policy_file or (), on_start=on_start, on_chunk=on_chunk)
    except (ExperimentError, results.ResultsError, ExecutorError) as exc:
        fail(str(exc))
    except KeyboardInterrupt:  # Ctrl-C: every chunk written is whole (written aside, then renamed) and resumes
        again = f"dsim sweep {file} --out {out}" + (f" --game-module {game_module}" if game_module else "")
        err_console.print(f"Stopped: the {ids.get('played', 0)} chunks finished in this run (and any from before) are "
                          f"kept in {out}; run `{again}` again to resume.", highlight=False, markup=False,
                          soft_wrap=True)
        raise typer.Exit(130) from None
    except OSError as exc:  # a read-only place, a full disk: the chunks written so far stay and resume
        fail(f"{display_path(out)}: cannot write the results ({exc.strerror or exc}); the finished chunks are kept: "
             f"free some space or make the folder writable, then run the same dsim sweep again to resume")
    err_console.print(f"{status.cells} cells × {status.battles // status.cells:,} {unit} in {out} "
                      f"({status.chunks_pending} chunks played, {status.battles_done:,} {unit} were already there). "
                      f"Next: dsim report {out}", highlight=False)


def report(
    folder: FolderArgument,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (a list of objects) instead of a table.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV instead of a table.")] = False,
    compare: CompareOpt = False,
    battles_needed: NeededOpt = None,
    everything: Annotated[bool, typer.Option("--all", help="Also show the cell ids and every outcome's mean.")] = False,
    game_module: GameModuleOpt = None,
) -> None:
    """Win rate with Wilson 95% interval and outcome means per cell, or pairwise comparisons (through the pager
    when taller than the terminal)."""
    from dsim import results
    from dsim.cli import reporting  # scipy and statsmodels load slowly; only reports need them

    if as_json and as_csv:
        fail("choose one of --json and --csv")
    if compare and (everything or battles_needed is not None):
        fail(f"{'--all' if everything else '--battles-needed'} shapes the table of cells, not --compare's; "
             "run them as two reports")
    if battles_needed is not None and not 1e-4 <= battles_needed < 1:  # narrower needs > 10^8 battles
        fail(f"--battles-needed: expected an interval width between 0.0001 and 1 (±0.005 to ±50 percentage "
              f"points), got {battles_needed:g}")
    try:
        cells = _results_of(folder, game_module)
        manifest = results.read_manifest(folder)
    except results.ResultsError as exc:
        fail(str(exc))
    fmt = "json" if as_json else "csv" if as_csv else "table"
    with reporting.paged(fmt == "table"):
        if compare:
            reporting.print_comparisons(cells, fmt)
        else:
            reporting.print_cells(cells, fmt, battles_needed, f"{manifest['name']}: {folder}",
                                  manifest.get("outcome"), everything)
            game = _game_of(folder, game_module)
            if fmt == "table" and game.listed_policies({}) is not None:  # a competitive game of several policies
                reporting.print_policy_shares(cells, game.listed_policies)
    reporting.print_unfinished(cells, list(manifest["cells"]))


class PlotKind(str, Enum):
    """Figures `dsim plot` draws (the keys of ``dsim.plots.PLOTS``)."""

    heatmap = "heatmap"
    forest = "forest"
    rounds = "rounds"
    survival = "survival"
    variant = "variant"
    scores = "scores"
    shares = "shares"


def plot(
    folder: FolderArgument,
    kind: Annotated[
        PlotKind,
        typer.Option("--kind", metavar="KIND", help="heatmap: win rate per x × y; forest: win rates with intervals "
                     "(a competitive game: each seat's win share); rounds: rounds to win and to lose (competitive: game lengths); "
                     "survival: battles not yet lost by round (competitive: games still running); "
                     "variant: win-rate change made by a rule variant; scores: a competitive game's final "
                     "scores per seat; shares: how far the plays got (whole games: reached and beat the mini boss, "
                     "reached the main boss, won) with intervals."),
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Image file to write (.png, .svg or .pdf; default FOLDER/_plots/KIND.png, "
                     "where Parquet readers of the folder skip it)."),
    ] = None,
    x: Annotated[
        str | None,
        typer.Option("--x", help="Setting for the heat map's columns (default: the game's choice), or the "
                     "variant to show (e.g. variants.bleed_zero_damage)."),
    ] = None,
    y: Annotated[str | None, typer.Option("--y", help="Setting for the heat map's rows (default: the game's choice).")] = None,
    game_module: GameModuleOpt = None,
) -> None:
    """Draw a figure of a results folder; a grid of many cells in pages (FILE.png, FILE-2.png …): 40 rows of a
    forest or shares plot, best first, or 50 panels of rounds, survival or scores."""
    from dsim import plots, results  # matplotlib and pandas load slowly; only plots need them

    uses = {"heatmap": ("--x", "--y"), "variant": ("--x",)}.get(kind.value, ())
    for flag, given in (("--x", x), ("--y", y)):
        if given is not None and flag not in uses:
            fail(f"{flag}: --kind {kind.value} has no {flag} (it chooses the setting of --kind heatmap"
                  f"{' and variant' if flag == '--x' else ''})")
    try:
        game = _game_of(folder, game_module)
        if out is None:  # "_" as _manifest.json: pandas.read_parquet(FOLDER) and DuckDB skip it
            out = Path(folder) / "_plots" / f"{kind.value}.png"
            try:
                out.parent.mkdir(exist_ok=True)
            except OSError as exc:
                fail(f"{out.parent}: cannot create the plots folder ({exc.strerror}); choose --out")
        elif out.is_dir():
            fail(f"--out {out} is a folder; name an image file in it, e.g. {out / (kind.value + '.png')}")
        pages = plots.make_pages(kind.value, _results_of(folder, game_module, game), x=x, y=y,
                                 axes=game.heatmap_axes, competitive=game.outcome.success is None,
                                 unit=game.outcome.unit, share_names=game.outcome.shares,
                                 rounds_name=game.outcome.rounds)
        written = [plots.save(fig, path) for fig, path in zip(pages, plots.page_paths(out, len(pages)))]
    except (results.ResultsError, plots.PlotError) as exc:
        fail(str(exc))
    if len(written) == 1:
        err_console.print(f"wrote {out}", highlight=False)
    else:
        err_console.print(f"wrote {len(written)} pages: {', '.join(str(p) for p in written)}", highlight=False)


def _results_of(folder: Path, game_module: str | None, game: Any = None) -> Any:
    """The cells of a results folder (:func:`dsim.results.load`), checked against the outcome schema of the game its
    manifest names (``game``, else loaded by :func:`_game_of`)."""
    from dsim import results

    game = game or _game_of(folder, game_module)
    cells = results.load(folder)
    results.check_outcome_columns(cells, folder, game.name, game.outcome)
    return cells


def _game_of(folder: Path, game_module: str | None) -> Any:
    """The game that wrote a results folder, ``game_module`` (named by the user) imported first: the module the
    manifest names is never imported, only named in the error when its game is unknown."""
    from dsim import results
    from dsim.games import load_game

    manifest = results.read_manifest(folder)
    try:
        return load_game(manifest["game"], game_module)
    except ImportError as exc:
        raise results.ResultsError(f"--game-module: cannot import {game_module!r} ({exc})") from None
    except KeyError as exc:
        named = manifest.get("game_module")
        if named is not None and named != game_module:
            raise results.ResultsError(f"{folder}: written by game {manifest['game']!r} of module {named!r}, which dsim "
                                       f"does not import from a file; if you trust it, pass --game-module {named}") from None
        raise results.ResultsError(f"{folder}: written by game {manifest['game']!r}, which cannot be loaded "
                                   f"({exc.args[0]})") from None


def register(app: typer.Typer) -> None:
    """Add the ``sweep``, ``report`` and ``plot`` commands to the top-level app."""
    app.command("sweep")(sweep)
    app.command("report")(report)
    app.command("plot")(plot)
