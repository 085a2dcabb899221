"""The public command-line kit for games: what a game's own commands (``Game.commands()``) may use.

A game never imports ``dsim.cli`` (the command line sits above the games and registers their commands):
options, the one-line error, the progress bar and the dice table live here, and ``dsim.cli`` uses the same
ones. A user error is one line on stderr and exit status 1 (:func:`fail`), never a traceback.
"""

from __future__ import annotations

import inspect
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from dsim import dice
from dsim.games.base import Option, SettingsError, split_list
from dsim.text import wrap_sentence

if TYPE_CHECKING:
    from dsim.games.base import Game

console = Console()
err = Console(stderr=True, highlight=False, soft_wrap=True)


def named(value: str | None) -> str | None:
    """Typer callback of an option that names something: empty text is a mistake, not "the default"."""
    if value is not None and not value.strip():
        raise typer.BadParameter("empty name (leave the option out for the default)")
    return value


Seed = Annotated[int, typer.Option("--seed", min=0, max=2**63 - 1, help="Random seed; play i uses the stream (seed, cell, i).")]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="Rule variant or house rule id=value (repeatable; `dsim variants list`).")]


def _folder_name(text: str) -> str:
    """``--data``'s value: an empty name is an error (it would silently mean no overlay, or this folder)."""
    if not text.strip():
        raise typer.BadParameter("expected an overlay folder, got an empty name")
    return text


_DATA_HELP = "Your data folder (same layout as data/<game>/): its entries replace or add to the shipped ones by id."
DataOpt = Annotated[str | None, typer.Option("--data", parser=_folder_name, help=_DATA_HELP, show_default=False)]
DataPath = Annotated[Path | None, typer.Option("--data", parser=lambda text: Path(_folder_name(text)), help=_DATA_HELP,
                                               show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on stdout.")]


JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout instead of a table.")]
ExactOption = Annotated[bool, typer.Option("--exact", help="Show probabilities and means as exact fractions (e.g. 5/36).")]


def _number(value: Fraction, exact: bool) -> str | float:
    """A probability or mean as a fraction string (``--exact``) or a float."""
    return str(value) if exact else float(value)


def _format(value: Fraction, exact: bool) -> str:
    """Table text of a probability or mean."""
    return str(value) if exact else f"{float(value):.6g}"


def show_distribution(
    title: str,
    pool: dice.Pool | str,
    pmf: Mapping[int, Fraction],
    exact: bool,
    as_json: bool,
    params: Mapping[str, int] | None = None,
    p_success: Fraction | None = None,
    beyond: Fraction = Fraction(0),
    mean: Fraction | None = None,
) -> None:
    """Print a distribution (value, probability, P(≥ value)) and its mean, as a rich table or one JSON object. A
    truncated pmf gives the exact mass ``beyond`` its last value (added to every P(≥ value)) and its exact mean."""
    params = dict(params or {})
    mean = dice.mean(pmf) if mean is None else mean
    if as_json:
        payload: dict[str, Any] = {"pool": str(pool), **params}
        payload["pmf"] = [[value, _number(p, exact)] for value, p in pmf.items()]
        payload["mean"] = _number(mean, exact)
        if p_success is not None:
            payload["p_success"] = _number(p_success, exact)
        typer.echo(json.dumps(payload))
        return
    tail = {value: p + beyond for value, p in dice.survival(pmf).items()}
    heading = ", ".join([str(pool), *(f"{key} {value}" for key, value in params.items())])
    table = Table(title=f"{title}: {heading}")
    for column in ("value", "probability", "P(≥ value)"):
        table.add_column(column, justify="right")
    for value, p in pmf.items():
        table.add_row(str(value), _format(p, exact), _format(tail[value], exact))
    console = Console()
    console.print(table)
    console.print(f"mean: {_format(mean, exact)}")
    if p_success is not None:
        console.print(f"P(success): {_format(p_success, exact)}")


def say_played_with(game: Game, cells: Sequence[Mapping[str, Any]]) -> None:
    """Print what produced the figures besides the cell (policy, gear…) and the hints a flag away, once for cells
    that agree on it (a grid over loadouts names them in its rows instead)."""
    said = {tuple(game.played_with(settings)) for settings in cells}
    if len(said) == 1:
        for line in next(iter(said)):
            style = "dim" if line.startswith("hint:") else None
            for part in wrap_sentence(line, console.width - 1, indent=len(line.split(":")[0]) + 2):
                console.print(part, markup=False, highlight=False, style=style, soft_wrap=True)


def fail(message: str) -> NoReturn:
    """A user error: one line on stderr, exit status 1."""
    err.print(f"Error: {message}", markup=False)
    raise typer.Exit(1)


LONG_RUN_SECONDS = 60.0


class LongRunNotice:
    """Says once how long a run will take when that is over a minute (the progress bar then shows how
    far it is). Call ``notice(done, total)`` after each chunk: the rate is measured between the first
    two calls, so compiling and loading do not count."""

    def __init__(self, unit: str, say: Callable[[str], None] | None = None) -> None:
        self.unit, self.first, self.said = unit, None, False
        self.say = say or err.print  # the console that shows the progress bar, so the line prints above it

    def __call__(self, done: int, total: int) -> None:
        import time

        now = time.perf_counter()
        if self.first is None:
            self.first = (done, now)
            return
        if self.said or done <= self.first[0]:
            return
        self.said = True
        rate = (done - self.first[0]) / max(now - self.first[1], 1e-9)
        seconds = (total - done) / rate
        if seconds > LONG_RUN_SECONDS:
            self.say(f"This will take about {_duration(seconds)} ({total - done:,} {self.unit} left at "
                      f"{rate:,.0f} {self.unit}/s); Ctrl-C stops it.")


def _duration(seconds: float) -> str:
    """``95 s`` → ``2 min``; hours and days for longer runs."""
    for size, name in ((86_400, "days"), (3_600, "hours"), (60, "min")):
        if seconds >= 2 * size:
            return f"{seconds / size:,.0f} {name}"
    return f"{seconds:,.0f} s"


@contextmanager
def user_errors() -> Iterator[None]:
    """Data problems, bad settings and bad values end the command with a clear message and status 1."""
    from dsim.validation import exit_on_data_error

    with exit_on_data_error():
        try:
            yield
        except (ValueError, KeyError, OverflowError) as exc:
            fail(str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc))


def parse_sets(game: Game, sets: list[str] | None, option: str = "--set") -> dict[str, dict[str, str]]:
    """``id=value`` items (of ``option``) → the game's rule tables (only the non-empty ones)."""
    tables: dict[str, dict[str, str]] = {}
    for item in sets or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            fail(f"{option}: expected variant_id=value, got {item!r}")
        try:
            table, key, parsed = game.parse_set(key.strip(), value.strip())
        except SettingsError as exc:
            fail(f"{option}: {exc}")
        given = tables.setdefault(table, {})
        if key in given and given[key] != parsed:
            fail(f"{option} {key} is given twice ({given[key]} and {parsed}); give it once")
        given[key] = parsed
    return tables


def listed(flag: str, text: str) -> list[str]:
    """A comma-separated option of a command that parses it itself (``dsim game --party``, ``policies compare
    --policies``): :func:`~dsim.games.base.split_list`, its empty items a one-line error as everywhere."""
    try:
        return split_list(flag, text)
    except SettingsError as exc:
        fail(str(exc))


LOG_EVERY_S = 10.0


class LoggedProgress(Progress):
    """Rich's progress bar; where it cannot be drawn (output to a log file or a pipe) a plain line every
    :data:`LOG_EVERY_S` seconds instead (each task's count, share and time left), so a long run is never silent."""

    def __init__(self, *columns: Any, **options: Any) -> None:
        super().__init__(*columns, **options)
        self._logged_at = time.perf_counter()

    def update(self, task_id: Any, **changes: Any) -> None:
        super().update(task_id, **changes)
        self._log()

    def advance(self, task_id: Any, advance: float = 1) -> None:
        super().advance(task_id, advance)
        self._log()

    def _log(self) -> None:
        now = time.perf_counter()
        if self.disable or self.console.is_terminal or now - self._logged_at < LOG_EVERY_S:
            return
        self._logged_at = now
        parts = []
        for task in self.tasks:
            part = f"{task.description.strip()} {task.completed:,.0f}/{task.total:,.0f}"
            if task.total:
                part += f" ({100 * task.completed / task.total:.0f}%)"
            if task.time_remaining is not None and not task.finished:
                part += f", about {_duration(task.time_remaining)} left"
            parts.append(part)
        self.console.print("; ".join(parts), markup=False, highlight=False)


@contextmanager
def progress(unit: str, total: int, quiet: bool = False, threshold: int = 0, grow: int = 0,
             ) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr over ``total`` plays and, for a run over a minute, how long it will take (neither when
    ``quiet`` or for ``threshold`` plays or fewer); yields the callback that counts each finished chunk. ``grow``: a
    search that does not know how many plays it needs (``tune``) adds that many to the total when it runs past it."""
    with LoggedProgress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                        TimeRemainingColumn(), console=err, disable=quiet or total <= threshold, transient=True) as bar:
        task = bar.add_task(unit, total=total)
        notice = LongRunNotice(unit)

        def on_chunk(n: int) -> None:
            done = int(bar.tasks[task].completed) + n
            while grow and done > bar.tasks[task].total:
                bar.update(task, total=bar.tasks[task].total + grow)
            bar.update(task, advance=n)
            if not quiet:
                notice(done, int(bar.tasks[task].total))

        yield on_chunk


def run_with_progress(chosen: Any, settings: dict[str, Any], count: int, seed: int, quiet: bool = False) -> dict[str, Any]:
    """:func:`dsim.play.run_cell` with :func:`progress`; values the kernel cannot hold end with one line."""
    from dsim.play import chunk_size, run_cell

    with progress(f"{chosen.outcome.unit}s", count, quiet, chunk_size(chosen, settings)) as on_chunk, play_errors():
        return run_cell(chosen, settings, count, seed, on_chunk)


@contextmanager
def play_errors() -> Iterator[None]:
    """Values the kernel cannot hold (a ValueError or OverflowError while playing) end with one line."""
    try:
        yield
    except (ValueError, OverflowError) as exc:
        fail(str(exc))


@contextmanager
def value_errors() -> Iterator[None]:
    """Turn a ``ValueError`` from a bad pool or a negative number into a one-line error and exit 1."""
    try:
        yield
    except ValueError as error:
        fail(str(error))


def option_parameter(option: Option, help: str | None = None, repeatable: bool = False) -> inspect.Parameter:
    """The Typer parameter of a game's declared option (:class:`~dsim.games.base.Option`): its flag, help (``help``
    instead when given), kind and minimum; a list of values when ``repeatable``; ``None`` when left out."""
    kind = str if option.kind == "list" or option.parse is not None else option.kind
    text = kind is str and not repeatable  # an empty name is a mistake, not "the default" (:func:`named`)
    kind = list[kind] if repeatable else kind
    info = typer.Option(option.flag, help=option.help if help is None else help, min=option.minimum,
                        show_default=False, callback=named if text else None)
    return inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                             annotation=Annotated[kind | None, info])


class _WithOptions:
    """``command(…, options)``: the command's own parameters, then a ``--flag`` per declared option, whose values
    (``None`` when left out) the command receives as one dict ``options``."""

    def __init__(self, command: Callable[..., Any], options: Sequence[Option]) -> None:
        self.command, self.options = command, tuple(options)
        self.__name__, self.__doc__ = command.__name__, command.__doc__

    def _params(self) -> list[inspect.Parameter]:
        own = [p for p in inspect.signature(self.command, eval_str=True).parameters.values() if p.name != "options"]
        return own + [option_parameter(o) for o in self.options]

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.Signature(self._params())

    @property
    def __annotations__(self) -> dict[str, Any]:  # type: ignore[override]  (Typer reads the hints here)
        return {p.name: p.annotation for p in self._params()}

    def __call__(self, **kwargs: Any) -> Any:
        options = {o.name: kwargs.pop(o.name) for o in self.options}
        return self.command(**kwargs, options=options)


def with_options(command: Callable[..., Any], options: Sequence[Option]) -> Any:
    """A game's own command built from the game's declared options (``dsim game`` from ``dstbg_game``'s), so that its
    flags, help and parsing are the ones ``dsim run --game …`` offers, declared once."""
    return _WithOptions(command, options)
