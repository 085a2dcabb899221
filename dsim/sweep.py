"""Experiment files → cells, and running those cells chunk by chunk into a results folder.

An experiment file is TOML::

    game = "dstbg"
    name = "gargoyle-parties"
    description = "Two-character parties against the Gargoyle"
    seed = 20240501
    battles = 1_000_000              # per cell (a game played whole may say games = …)
    chunk = 100_000                  # battles per chunk file (default 100 000)
    # game_module = "mypkg.mygame"   # a game outside dsim: which module registers it (never imported from
                                     # here: `dsim sweep --game-module mypkg.mygame` imports it)

    [fixed]                          # settings shared by every cell
    boss = "gargoyle"
    gravestones = 2

    [grid]                           # every combination of these lists is a cell
    party = [["knight", "warrior"], ["assassin", "herald"]]
    variants = [{}, {bleed_zero_damage = "trigger_on_hit"}]

    [grid.policy_params]             # a table of lists: one axis per entry
    aggression = [0.2, 0.8]          # (sets policy_params.aggression)

    [[cells]]                        # explicit extra cells, merged over [fixed]
    party = ["knight"]

Settings are opaque here (the game's ``check_settings`` judges them); a cell's id is a short
hash of their canonical JSON, so it does not depend on key order, grid order or machine.
"""

from __future__ import annotations

import copy
import dataclasses
import fcntl
import hashlib
import importlib.metadata
import itertools
import math
import platform
import subprocess
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

import dsim
from dsim import results
from dsim.executors import ChunkResult, ChunkTask, Executor
from dsim.files import NotARegularFile, read_regular
from dsim.registry import load_game
from dsim.games.base import MAX_PLAYS, Game
from dsim.paths import REPO_ROOT
from dsim.text import repeated
from dsim.validation import DataError, display_path, problems_from_validation

MAX_CHUNK = 10**7  # plays per chunk file: one chunk's columns stay well under a gigabyte
MAX_CHUNKS = 10**5  # chunk files per cell: the plan and the folder listing stay small

LOCK = "_sweep.lock"


class ExperimentError(Exception):
    """An experiment file, its cells or its output folder cannot be used (message is user-facing)."""


# --------------------------------------------------------------------------- experiment files


def _check_json(value: Any, where: str) -> None:
    """Reject values without a JSON spelling (TOML dates and times, NaN, infinities)."""
    if isinstance(value, dict):
        for key, item in value.items():
            _check_json(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_json(item, f"{where}[{i}]")
    elif isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f'field "{where}": expected a finite number, got {value}')
    elif not isinstance(value, str | int | float | bool):
        raise ValueError(f'field "{where}": expected a string, number, boolean, list or table, got {value!r}')


def _grid_axes(grid: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], list[Any]]]:
    """The grid's axes as (settings path, values); a table of lists nests one axis per entry."""
    axes: list[tuple[tuple[str, ...], list[Any]]] = []
    for key, value in grid.items():
        path = (*prefix, key)
        if isinstance(value, dict):
            axes += _grid_axes(value, path)
        elif isinstance(value, list) and value:
            axes.append((path, value))
        else:
            raise ValueError(
                f'field "grid.{".".join(path)}": expected a non-empty list of values '
                f"(or a table of such lists), got {value!r}"
            )
    return axes


def _fixed_conflict(fixed: Mapping[str, Any], path: tuple[str, ...]) -> str | None:
    """The part of ``path`` that [fixed] already sets (so a grid axis would overwrite it), if any."""
    node: Any = fixed
    for i, key in enumerate(path):
        if not isinstance(node, dict) or key not in node:
            return None if isinstance(node, dict) else ".".join(path[:i])
        node = node[key]
    return ".".join(path)


class Experiment(BaseModel):
    """The validated content of an experiment file."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: str = Field(min_length=1)
    game_module: str | None = None
    name: str = Field(min_length=1)
    description: str = ""
    seed: int = Field(ge=0, lt=2**63)
    battles: int | None = Field(default=None, ge=1, le=MAX_PLAYS)
    games: int | None = Field(default=None, ge=1, le=MAX_PLAYS)  # the same count, for a game played whole
    chunk: int = Field(default=100_000, ge=1, le=MAX_CHUNK)
    fixed: dict[str, Any] = {}
    grid: dict[str, Any] = {}
    cells: list[dict[str, Any]] = []

    @model_validator(mode="after")
    def _check_settings_shape(self) -> Experiment:
        """Settings are JSON-like; grid entries are non-empty lists without a repeated value that do not clash
        with [fixed]; the play count is given once, as ``battles`` or (a game played whole) ``games``."""
        if (self.battles is None) == (self.games is None):
            raise ValueError('give the plays per cell once: "battles = N" (or "games = N" for a game played whole)')
        if self.battles is None:
            self.battles = self.games
        _check_json(self.fixed, "fixed")
        _check_json(self.grid, "grid")
        for i, cell in enumerate(self.cells):
            _check_json(cell, f"cells[{i}]")
        for path, values in _grid_axes(self.grid):
            twice = repeated([results.canonical_json(v) for v in values])
            if twice is not None:  # it made no cell of its own: the grid would be smaller than written
                raise ValueError(f'field "grid.{".".join(path)}": lists {results.canonical_json(values[twice])} twice '
                                 "(each value makes its own cells; remove the repeat)")
            clash = _fixed_conflict(self.fixed, path)
            if clash is not None:
                raise ValueError(f'field "grid.{".".join(path)}": also set in [fixed] (as "{clash}")')
        return self


@dataclass(frozen=True)
class ExperimentFile:
    """An experiment as read from disk, with the exact text and its SHA-256 for provenance."""

    path: Path
    text: str
    sha256: str
    experiment: Experiment

    @property
    def content_sha256(self) -> str:
        """SHA-256 of what the file asks for, less its comments, layout, name, description and play counts:
        a sweep resumes after edits that change none of its cells (``battles`` may grow a folder anyway)."""
        content = self.experiment.model_dump(exclude={"name", "description", "battles", "games", "chunk"})
        return hashlib.sha256(results.canonical_json(content).encode()).hexdigest()


def load_experiment(path: str | Path) -> ExperimentFile:
    """Read and validate an experiment file; ``ExperimentError`` with ``file: field: problem`` lines."""
    path = Path(path)
    try:  # a pipe or device in its place is refused before it is opened; a byte-order mark is skipped
        raw = read_regular(path, "an experiment file (TOML)")
        data = tomllib.loads(raw.decode("utf-8").removeprefix("\ufeff"))
    except NotARegularFile as exc:
        raise ExperimentError(f"{display_path(path)}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ExperimentError(f"{display_path(path)}: not UTF-8 text: byte 0x{exc.object[exc.start]:02x} at offset "
                              f"{exc.start} (save it as UTF-8)") from None
    except tomllib.TOMLDecodeError as exc:
        raise ExperimentError(f"{display_path(path)}: TOML syntax error: {exc}") from None
    try:
        experiment = Experiment.model_validate(data)
    except ValidationError as exc:
        problems = problems_from_validation(exc, display_path(path), data, label="")
        raise ExperimentError("\n".join(map(str, problems))) from None
    return ExperimentFile(path, raw.decode("utf-8"), hashlib.sha256(raw).hexdigest(), experiment)


# --------------------------------------------------------------------------- cells


@dataclass(frozen=True)
class Cell:
    """One combination of settings; ``id`` is the first 16 hex digits of its settings' SHA-256."""

    id: str
    settings: dict[str, Any]

    @property
    def stream(self) -> int:
        """The cell's 63-bit random-stream key, derived from its id."""
        return int(self.id, 16) >> 1


def make_cell(settings: dict[str, Any]) -> Cell:
    """The cell of ``settings``, with its stable id."""
    digest = hashlib.sha256(results.canonical_json(settings).encode()).hexdigest()
    return Cell(digest[:16], settings)


def _merged(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``extra`` laid over a deep copy of ``base``; tables merge key by key."""
    merged = copy.deepcopy(dict(base))
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merged(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def _nested(path: tuple[str, ...], value: Any) -> dict[str, Any]:
    """``{"a": {"b": value}}`` for path ``("a", "b")``."""
    for key in reversed(path):
        value = {key: value}
    return value


def expand(experiment: Experiment) -> list[Cell]:
    """The experiment's cells: [fixed] × every grid combination, then the explicit [[cells]].

    With [[cells]] and no [grid], only the explicit cells run. Duplicate cells (same settings)
    are kept once, at their first position.
    """
    axes = _grid_axes(experiment.grid)
    combos = itertools.product(*(values for _, values in axes)) if axes or not experiment.cells else []
    settings = []
    for combo in combos:
        cell = experiment.fixed
        for (path, _), value in zip(axes, combo):
            cell = _merged(cell, _nested(path, value))
        settings.append(copy.deepcopy(cell))
    settings += [_merged(experiment.fixed, extra) for extra in experiment.cells]
    unique: dict[str, Cell] = {}
    for cell_settings in settings:
        cell = make_cell(cell_settings)
        unique.setdefault(cell.id, cell)
    return list(unique.values())


# --------------------------------------------------------------------------- running


@dataclass(frozen=True)
class SweepStatus:
    """What a (possibly resumed) sweep has to do, counted before it starts."""

    cells: int
    cells_done: int
    battles: int
    battles_done: int
    chunks_pending: int


def _load_game(source: ExperimentFile, game_module: str | None) -> Game:
    """The experiment's game, importing first only the module the user named (``--game-module``): a module the file
    names is never imported, and when its game is unknown the error says to pass it on the command line."""
    exp, where = source.experiment, display_path(source.path)
    try:
        return load_game(exp.game, game_module)
    except ImportError as exc:
        raise ExperimentError(f"--game-module: cannot import {game_module!r} ({exc})") from None
    except KeyError as exc:
        if exp.game_module is not None and exp.game_module != game_module:
            raise ExperimentError(f'{where}: field "game_module": dsim imports no module a file names; if you trust '
                                  f"{exp.game_module!r}, pass --game-module {exp.game_module} on the command line") from None
        raise ExperimentError(f'{where}: field "game": {exc.args[0]}') from None


def _data_hashes(game: Game, cells: list[Cell]) -> dict[str, str]:
    """Each cell's data digest, computed once per data overlay (the ``data`` setting): hashing the files for
    every cell of a 4,000-cell grid took two seconds."""
    by_overlay: dict[str, str] = {}
    hashes = {}
    for cell in cells:
        overlay = str(cell.settings.get("data"))
        if overlay not in by_overlay:
            by_overlay[overlay] = game.data_hash(cell.settings)
        hashes[cell.id] = by_overlay[overlay]
    return hashes


def _policy_files(value: Any) -> Iterator[str]:
    """Every ``path/to/module.py:name`` among a cell's settings: a policy the registry would import from its file."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _policy_files(item)
    elif isinstance(value, list):
        for item in value:
            yield from _policy_files(item)
    elif isinstance(value, str) and ".py:" in value:
        yield value


def check_policy_files(cells: list[Cell], path: Path, trusted: Sequence[str | Path]) -> None:
    """Refuse a policy file that the experiment names unless the user named it too (``--policy-file``): dsim imports
    no code that a file names."""
    allowed = {Path(p).resolve() for p in trusted}
    for cell in cells:
        for spec in _policy_files(cell.settings):
            file = Path(spec.rpartition(":")[0])
            if file.resolve() not in allowed:
                raise ExperimentError(f"{display_path(path)}: policy {spec!r}: dsim imports no policy file that a file "
                                      f"names; if you trust {file}, pass --policy-file {file} on the command line")


def check_cells(game: Game, cells: list[Cell], path: Path) -> None:
    """Let the game validate every cell; one ``ExperimentError`` listing the invalid ones."""
    problems = []
    for cell in cells:
        try:
            game.check_types(cell.settings)
            game.check_settings(cell.settings)
        except (ValueError, DataError) as exc:
            problems.append(f"{display_path(path)}: cell {cell.id} {results.canonical_json(cell.settings)}: {exc}")
    if problems:
        more = f"\n… and {len(problems) - 5} more invalid cells" if len(problems) > 5 else ""
        raise ExperimentError("\n".join(problems[:5]) + more)


def _iso(epoch: float | None = None) -> str:
    """UTC timestamp (now, or of ``epoch``) in ISO 8601."""
    moment = datetime.now(UTC) if epoch is None else datetime.fromtimestamp(epoch, UTC)
    return moment.isoformat(timespec="milliseconds")


def _version(package: str) -> str | None:
    """Installed version of ``package``, if any."""
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def _git(*args: str) -> str | None:
    """Output of a git command in dsim's own checkout; ``None`` when not a checkout or git fails."""
    if not (REPO_ROOT / ".git").exists():
        return None
    try:
        done = subprocess.run(["git", "-C", str(REPO_ROOT), *args], capture_output=True, text=True,
                              timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip()


def _run_record(executor: Executor) -> dict[str, Any]:
    """Provenance of one invocation: host, versions, git commit, executor; timings fill in later."""
    status = _git("status", "--porcelain")
    return {
        "started": _iso(),
        "finished": None,
        "host": platform.node(),
        "dsim": dsim.__version__,
        "git_commit": _git("rev-parse", "HEAD"),
        "git_dirty": None if status is None else bool(status),
        "python": platform.python_version(),
        **{package: _version(package) for package in ("numba", "numpy", "pyarrow")},
        **executor.describe(),
        "cells": {},
    }


def _new_manifest(source: ExperimentFile, cells: list[Cell], battles: int, chunk: int,
                  data_hashes: Mapping[str, str | None], seats: Mapping[str, int],
                  game_module: str | None) -> dict[str, Any]:
    """The manifest of a fresh results folder (runs are appended as they happen); ``seats`` are the seats
    each cell of a competitive game fills, ``game_module`` the module the user named (recorded, never imported)."""
    exp = source.experiment
    return {
        "format": results.MANIFEST_FORMAT,
        "name": exp.name,
        "description": exp.description,
        "game": exp.game,
        "game_module": game_module,
        "seed": exp.seed,
        "battles": battles,
        "chunk": chunk,
        "experiment": {"path": str(source.path.resolve()), "sha256": source.sha256, "text": source.text,
                       "content_sha256": source.content_sha256},
        "cells": {c.id: {"settings": c.settings, "stream": c.stream, "data_hash": data_hashes[c.id],
                         "seats": seats[c.id]} for c in cells},
        "runs": [],
    }


def _check_resume(out: Path, old: Mapping[str, Any], new: Mapping[str, Any]) -> None:
    """Refuse to add to a folder written by another experiment, game, chunk size or game data."""
    if old["game"] != new["game"]:  # the manifest names another game (edited, or copied over)
        raise ExperimentError(f"{out}: its {results.MANIFEST} names the game {old['game']!r}, this experiment plays "
                              f"{new['game']!r}; use a new --out folder")
    same = "content_sha256" if "content_sha256" in old["experiment"] else "sha256"  # older folders: the text
    if old["experiment"][same] != new["experiment"][same]:
        raise ExperimentError(
            f"{out}: holds results of a different experiment ({old['experiment']['path']}, "
            f"{same} {old['experiment'][same][:12]}…); use a new --out folder"
        )
    if old["chunk"] != new["chunk"]:
        raise ExperimentError(f"{out}: was written with chunks of {old['chunk']} battles; "
                              f"resume with --chunk {old['chunk']} or use a new --out folder")
    if new["battles"] < old["battles"]:
        raise ExperimentError(f"{out}: already targets {old['battles']} battles per cell; "
                              f"pass --battles ≥ {old['battles']} or use a new --out folder")
    for cell, entry in new["cells"].items():
        if cell not in old["cells"]:
            raise ExperimentError(f"{out}: its {results.MANIFEST} lacks cell {cell} of this experiment; "
                                  "use a new --out folder")
        if old["cells"][cell]["data_hash"] != entry["data_hash"]:
            raise ExperimentError(f"{out}: the game data changed since this folder was written "
                                  f"(cell {cell}); use a new --out folder")


def _existing_manifest(out: Path) -> dict[str, Any] | None:
    """The folder's manifest, ``None`` for an empty folder; refuses a folder of unknown files."""
    if (out / results.MANIFEST).exists():
        return results.read_manifest(out)
    strangers = sorted(p.name for p in out.iterdir() if p.name != LOCK and not p.name.endswith(".tmp"))
    if strangers:
        raise ExperimentError(f"{out}: not empty and has no {results.MANIFEST} (found {strangers[0]}); "
                              f"use a new or empty --out folder")
    return None


@contextmanager
def _locked(out: Path) -> Iterator[None]:
    """Hold an exclusive lock on the folder, so that two sweeps never write into it at once."""
    with open(out / LOCK, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ExperimentError(f"{out}: another dsim sweep is writing to this folder") from None
        yield


def _plan(cells: list[Cell], manifest: Mapping[str, Any], exp: Experiment,
          done: Mapping[tuple[str, int], int]) -> list[ChunkTask]:
    """Chunks not on disk yet; a chunk stored with another battle count (``--battles`` grew) reruns. Each carries
    the module the user named, so that a Dask worker registers the game too."""
    battles, size = manifest["battles"], manifest["chunk"]
    tasks = []
    for cell in cells:
        for index, start in enumerate(range(0, battles, size)):
            count = min(size, battles - start)
            if done.get((cell.id, index)) != count:
                tasks.append(ChunkTask(exp.game, manifest["game_module"], cell.id, cell.settings, exp.seed,
                                       cell.stream, index, start, count))
    return tasks


def run_sweep(
    source: ExperimentFile,
    out: str | Path,
    executor: Executor,
    *,
    battles: int | None = None,
    chunk: int | None = None,
    game_module: str | None = None,
    policy_files: Sequence[str | Path] = (),
    on_start: Callable[[SweepStatus], None] | None = None,
    on_chunk: Callable[[ChunkTask, bool], None] | None = None,
) -> SweepStatus:
    """Play every cell of an experiment into ``out``, resuming from the chunks already there.

    All cells are validated by the game first. ``battles`` / ``chunk`` override the file's
    values (a folder can grow to more battles later, never change chunk size); left out, a folder of this
    experiment keeps its own (grown) battles and chunk size. ``game_module`` is the module that registers a game
    from outside dsim, named by the user (the file's ``game_module`` is never imported); ``policy_files`` the
    policy files (``path.py``) the user trusts, which the experiment may name as ``path.py:name``. ``on_start``
    gets the work to do, ``on_chunk`` each finished chunk and whether it finished its cell.
    Returns the status counted at the start.
    """
    exp = source.experiment
    grown, folder_chunk = _folder_plays(Path(out), source)  # a plain re-run resumes what the folder was grown to
    battles = battles or max(exp.battles, grown)
    chunk = chunk or folder_chunk or exp.chunk
    if chunk > MAX_CHUNK:
        raise ExperimentError(f"chunk: at most {MAX_CHUNK:,} battles per chunk file, got {chunk:,}")
    files = -(-battles // chunk)  # chunk files per cell
    if files > MAX_CHUNKS:
        raise ExperimentError(f"{display_path(source.path)}: {battles:,} battles in chunks of {chunk:,} make "
                              f"{files:,} chunk files per cell (at most {MAX_CHUNKS:,}); "
                              f"use --chunk (or chunk = in the file) ≥ {-(-battles // MAX_CHUNKS):,}")
    game = _load_game(source, game_module)
    if exp.games is not None and game.outcome.unit != "game":
        raise ExperimentError(f'{display_path(source.path)}: field "games": {exp.game} plays {game.outcome.unit}s, '
                              f'not whole games; write "battles = {exp.games}"')
    cells = expand(exp)
    check_policy_files(cells, source.path, policy_files)
    check_cells(game, cells, source.path)
    manifest = _new_manifest(source, cells, battles, chunk, _data_hashes(game, cells),
                             {c.id: game.seats(c.settings) for c in cells}, game_module)
    manifest["outcome"] = dataclasses.asdict(game.outcome)
    out = _results_folder(Path(out))
    _existing_manifest(out)  # a folder of unknown files is refused before the lock file goes into it
    with _locked(out):
        old = _existing_manifest(out)
        if old is not None:
            _check_resume(out, old, manifest)
            manifest["runs"] = old["runs"]
        results.remove_temp_files(out)
        table = results.read_chunks(out, manifest)
        rows = zip(*(table.column(n).to_pylist() for n in ("cell", "chunk", "count"))) if table is not None else []
        tasks = _plan(cells, manifest, exp, {(cell, index): count for cell, index, count in rows})
        pending = Counter(task.cell for task in tasks)
        status = SweepStatus(len(cells), len(cells) - len(pending), battles * len(cells),
                             battles * len(cells) - sum(task.count for task in tasks), len(tasks))
        run = _run_record(executor)
        manifest["runs"].append(run)
        results.write_manifest(out, manifest)
        if on_start:
            on_start(status)
        with closing(executor.run(tasks)) as arrivals:
            for task, result in arrivals:
                results.write_chunk(out, result.row)
                _record(run, task, result)
                pending[task.cell] -= 1
                if pending[task.cell] == 0:
                    results.write_manifest(out, manifest)
                if on_chunk:
                    on_chunk(task, pending[task.cell] == 0)
        run["finished"] = _iso()
        results.write_manifest(out, manifest)
    return status


def _folder_plays(out: Path, source: ExperimentFile) -> tuple[int, int]:
    """(battles per cell, chunk size) of ``out`` when it holds this experiment's results, else (0, 0), so that a
    re-run without ``--battles``/``--chunk`` keeps the folder's; a folder that is not (or is unreadable) is left
    to the checks that follow, which say why."""
    try:
        old = results.read_manifest(out) if (out / results.MANIFEST).is_file() else {}
    except results.ResultsError:
        return 0, 0
    plays = old.get("battles"), old.get("chunk")
    same = isinstance(old.get("experiment"), dict) and old["experiment"].get("content_sha256") == source.content_sha256
    return plays if same and all(isinstance(x, int) and x > 0 for x in plays) else (0, 0)


def _results_folder(out: Path) -> Path:
    """``out``, created if needed: a file in its place or a folder that cannot be made is a ``ResultsError``."""
    if out.exists() and not out.is_dir():
        raise results.ResultsError(f"{display_path(out)}: is a file, not a results folder (choose another --out)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise results.ResultsError(f"{display_path(out)}: cannot create the results folder ({exc.strerror})") from None
    return out


def _record(run: dict[str, Any], task: ChunkTask, result: ChunkResult) -> None:
    """Add a finished chunk to its cell's entry in the run record (ISO UTC times compare as text)."""
    started, finished = _iso(result.started), _iso(result.started + result.seconds)
    entry = run["cells"].setdefault(task.cell, {"started": started, "finished": finished, "chunks": 0,
                                                "battles": 0, "seconds": 0.0})
    entry.update(started=min(entry["started"], started), finished=max(entry["finished"], finished),
                 chunks=entry["chunks"] + 1, battles=entry["battles"] + task.count,
                 seconds=round(entry["seconds"] + result.seconds, 6))
