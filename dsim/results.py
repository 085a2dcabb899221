"""Sweep results on disk: one Parquet file per finished chunk, a provenance manifest, loading back.

A results folder holds

* ``<cell>-<chunk>.parquet`` (e.g. ``3f9a0c2e71d4b8a5-000007.parquet``): ONE row of aggregates for
  battles ``start .. start+count-1`` of one cell, so disk and memory stay flat however many
  battles are played. Columns: ``cell``, ``chunk``, ``start``, ``count``, ``seed``, ``stream``,
  ``settings`` (canonical JSON), ``wins``; for every numeric outcome ``X`` the game returns,
  ``X_sum`` and (non-boolean outcomes) ``X_sumsq``; for every integer outcome two
  histograms ``X_hist_win`` / ``X_hist_loss`` (list columns, bin ``k`` counts value
  ``k + HIST_LOW``; the first and last bins also hold everything below / above).
* ``_manifest.json``: provenance (experiment file text and SHA-256, seed, chunk size, cells with
  settings, stream and data hash, and per run: host, versions, git commit, timings per cell).
  The leading underscore (like temporary files' leading dot) makes pandas, pyarrow and DuckDB
  skip it when they read the folder.

Every file is written atomically (temporary file in the same folder, fsync, ``os.replace``,
fsync of the folder), so a killed sweep leaves only complete chunks behind.

Reading a results folder (README-ready)::

    import dsim.results
    cells = dsim.results.load("out/gargoyle")      # one row per cell: win rate, Wilson CI, means
    raw = pandas.read_parquet("out/gargoyle")      # one row per chunk, straight from the files

    -- DuckDB: win rate per cell, straight from the chunk files
    SELECT cell, sum(wins) / sum(count) AS win_rate, sum(rounds_sum) / sum(count) AS mean_rounds
    FROM read_parquet('out/gargoyle/*.parquet') GROUP BY cell;

Keep other files (plots, notes) out of the folder: ``pandas.read_parquet(DIR)`` tries to read
every file whose name does not start with ``.`` or ``_``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dsim.files import NotARegularFile, read_regular

MANIFEST = "_manifest.json"
MANIFEST_FORMAT = 1
HIST_LOW = -1
HIST_BINS = 128
HIST_VALUES = np.arange(HIST_LOW, HIST_LOW + HIST_BINS)

BASE_COLUMNS: dict[str, pa.DataType] = {
    "cell": pa.string(),
    "chunk": pa.int64(),
    "start": pa.int64(),
    "count": pa.int64(),
    "seed": pa.int64(),
    "stream": pa.int64(),
    "settings": pa.string(),
    "wins": pa.int64(),
    "rounds_sum": pa.int64(),
    "rounds_hist_win": pa.list_(pa.int64()),
    "rounds_hist_loss": pa.list_(pa.int64()),
}


class ResultsError(Exception):
    """A results folder or file that cannot be used as it is (message is user-facing)."""


def canonical_json(value: Any) -> str:
    """The one JSON spelling of a settings value: sorted keys, no spaces, no NaN."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def chunk_name(cell: str, chunk: int) -> str:
    """File name of chunk ``chunk`` of cell ``cell``."""
    return f"{cell}-{chunk:06d}.parquet"


# --------------------------------------------------------------------------- writing


def aggregate_outcomes(outcomes: Mapping[str, np.ndarray], count: int, success: str | None = "win",
                       rounds: str = "rounds") -> dict[str, Any]:
    """Reduce per-play outcome columns to one row of sums, sums of squares and histograms.

    The ``success`` column (a co-op win; none for a competitive game) becomes ``wins``; ``rounds``
    is stored as ``rounds_*`` whatever the game calls it; every column must be 1-D of length
    ``count`` and boolean, integer or floating point. Raises ``ValueError`` naming a bad column.
    Integer histograms are split by success; without a success column every play is in ``_hist_loss``.
    """
    arrays = {name: np.asarray(values) for name, values in outcomes.items()}
    need = ((success, "b"),) if success is not None else ()
    for name, kinds in (*need, (rounds, "iu")):
        if name not in arrays or arrays[name].dtype.kind not in kinds:
            raise ValueError(f"game outcomes need a {'boolean' if kinds == 'b' else 'integer'} column {name!r}")
    if rounds != "rounds":
        arrays["rounds"] = arrays.pop(rounds)
    for name, a in arrays.items():
        if a.shape != (count,) or a.dtype.kind not in "biuf":
            raise ValueError(
                f"game outcome {name!r}: expected a 1-D numeric array of length {count}, "
                f"got shape {a.shape} and dtype {a.dtype}"
            )
    win = arrays[success] if success is not None else np.zeros(count, bool)
    row: dict[str, Any] = {"wins": int(win.sum())}
    for name in sorted(arrays):
        a = arrays[name]
        if name == success:
            continue
        if a.dtype.kind == "b":
            row[f"{name}_sum"] = int(a.sum())
        elif a.dtype.kind == "f":
            a = a.astype(np.float64)
            row[f"{name}_sum"] = float(a.sum())
            row[f"{name}_sumsq"] = float((a * a).sum())
        else:
            a = a.astype(np.int64)
            row[f"{name}_sum"] = int(a.sum())
            row[f"{name}_sumsq"] = int((a * a).sum())
            bins = np.clip(a - HIST_LOW, 0, HIST_BINS - 1)
            row[f"{name}_hist_win"] = np.bincount(bins[win], minlength=HIST_BINS).tolist()
            row[f"{name}_hist_loss"] = np.bincount(bins[~win], minlength=HIST_BINS).tolist()
    return row


def chunk_row(
    cell: str,
    chunk: int,
    start: int,
    count: int,
    seed: int,
    stream: int,
    settings: Mapping[str, Any],
    outcomes: Mapping[str, np.ndarray],
    success: str | None = "win",
    rounds: str = "rounds",
) -> dict[str, Any]:
    """The single row stored for one chunk: identity columns followed by the aggregates."""
    identity = {"cell": cell, "chunk": chunk, "start": start, "count": count, "seed": seed,
                "stream": stream, "settings": canonical_json(settings)}
    return identity | aggregate_outcomes(outcomes, count, success, rounds)


def _fsync_dir(folder: Path) -> None:
    """Make a rename inside ``folder`` durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _atomic_write(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Write ``path`` via a same-folder temporary file, fsync, ``os.replace`` and folder fsync."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    _fsync_dir(path.parent)


def write_chunk(folder: Path, row: Mapping[str, Any]) -> Path:
    """Store one chunk row atomically as ``<cell>-<chunk>.parquet``; returns its path."""
    path = folder / chunk_name(row["cell"], row["chunk"])
    table = pa.Table.from_pylist([dict(row)])
    _atomic_write(path, lambda f: pq.write_table(table, f))
    return path


def write_manifest(folder: Path, manifest: Mapping[str, Any]) -> None:
    """Store the manifest atomically."""
    text = json.dumps(manifest, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    _atomic_write(folder / MANIFEST, lambda f: f.write(text.encode()))


def remove_temp_files(folder: Path) -> int:
    """Delete temporary files left by a killed writer; returns how many were removed."""
    leftovers = list(folder.glob(".*.tmp"))
    for path in leftovers:
        path.unlink(missing_ok=True)
    return len(leftovers)


# --------------------------------------------------------------------------- reading


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of a results folder; ``ResultsError`` if missing or unreadable."""
    path = Path(folder) / MANIFEST
    if Path(folder).exists() and not Path(folder).is_dir():
        raise ResultsError(f"{folder}: is a file, not a results folder (give the folder `dsim sweep --out` wrote)")
    if not path.exists() and not path.is_symlink():
        raise ResultsError(f"{folder}: no {MANIFEST}; not a dsim results folder")
    try:  # a pipe or device in its place is refused before it is opened
        manifest = json.loads(read_regular(path, f"a {MANIFEST} file").decode("utf-8"))
    except NotARegularFile as exc:
        raise ResultsError(f"{path}: {exc}") from None
    except ValueError as exc:
        raise ResultsError(f"{path}: unreadable manifest ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
        raise ResultsError(f"{path}: not a dsim manifest (format {MANIFEST_FORMAT} expected)")
    _check_manifest(path, manifest)
    return manifest


class _Strict(BaseModel):
    """A manifest part as ``dsim sweep`` writes it: exact JSON types, no coercion."""

    model_config = ConfigDict(strict=True)


class _CellEntry(_Strict):
    """One cell of the manifest."""

    settings: dict[str, Any]
    stream: int = Field(ge=0)
    data_hash: str | None
    seats: int = Field(default=0, ge=0)


class _ExperimentEntry(_Strict):
    """The experiment file a folder was swept from."""

    path: str
    sha256: str


class _OutcomeEntry(_Strict):
    """The game's outcome schema (:class:`dsim.games.base.Outcome`) as reports read it."""

    success: str | None = "win"
    rounds: str = "rounds"
    means: list[str] = []
    internal: list[str] = []
    optional: list[str] = []
    seats: int = Field(default=0, ge=0)
    unit: str = "battle"
    success_label: str = "win rate"
    shares: list[str] = []


class _Manifest(_Strict):
    """What reports, plots and resumed sweeps read of a manifest (other keys are provenance)."""

    name: str
    game: str
    game_module: str | None = None
    seed: int = Field(ge=0)
    battles: int = Field(ge=1)
    chunk: int = Field(ge=1)
    experiment: _ExperimentEntry
    cells: dict[str, _CellEntry] = Field(min_length=1)
    runs: list[dict[str, Any]]
    outcome: _OutcomeEntry | None = None


def _check_manifest(path: Path, manifest: dict[str, Any]) -> None:
    """``ResultsError`` naming the first bad field of a damaged manifest (hand-edited, cut short)."""
    try:
        _Manifest.model_validate(manifest)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(map(str, first["loc"]))
        raise ResultsError(f"{path}: damaged manifest: field {field!r}: {first['msg'].lower()}; "
                           "re-run the sweep into a new --out folder") from None


def _read_chunk(path: Path, manifest: Mapping[str, Any]) -> pa.Table:
    """Read and check one chunk file against the manifest; ``ResultsError`` on anything foreign."""
    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError) as exc:
        raise ResultsError(
            f"{path}: not a readable Parquet file ({exc}); delete it and re-run the sweep to recompute it"
        ) from None
    wrong = [name for name, kind in BASE_COLUMNS.items()
             if name not in table.schema.names or table.schema.field(name).type != kind]
    if wrong or table.num_rows != 1:
        problem = f"missing or mistyped columns: {', '.join(wrong)}" if wrong else f"{table.num_rows} rows"
        raise ResultsError(f"{path}: not a dsim chunk file ({problem})")
    row = {name: table.column(name)[0].as_py() for name in ("cell", "chunk", "start", "count", "seed", "stream")}
    cell = manifest["cells"].get(row["cell"])
    if cell is None:
        raise ResultsError(f"{path}: unknown cell id {row['cell']!r} (not in this folder's {MANIFEST})")
    if path.name != chunk_name(row["cell"], row["chunk"]):
        raise ResultsError(f"{path}: file name does not match its content (cell {row['cell']}, chunk {row['chunk']})")
    size = manifest["chunk"]
    if (row["start"] != row["chunk"] * size or not 0 < row["count"] <= size
            or row["seed"] != manifest["seed"] or row["stream"] != cell["stream"]):
        raise ResultsError(f"{path}: does not belong to this sweep "
                           f"(start, count, seed or stream disagree with {MANIFEST})")
    return table


def read_chunks(folder: Path, manifest: Mapping[str, Any]) -> pa.Table | None:
    """All chunk rows of a folder, checked and sorted by cell and chunk; ``None`` if there are none."""
    paths = sorted(Path(folder).glob("*.parquet"))
    if not paths:
        return None
    tables = [_read_chunk(path, manifest) for path in paths]
    first = tables[0].schema
    for path, table in zip(paths, tables):
        if not table.schema.equals(first):
            raise ResultsError(f"{path}: columns differ from {paths[0].name}; "
                               "results of different games or versions are mixed")
    return pa.concat_tables(tables).sort_by([("cell", "ascending"), ("chunk", "ascending")])


def flatten_settings(settings: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested settings as dotted keys (``variants.bleed_zero_damage``); empty tables vanish.

    Lists become tuples so that the values can be compared, hashed and grouped by.
    """
    flat: dict[str, Any] = {}
    for key, value in settings.items():
        if isinstance(value, Mapping):
            flat.update(flatten_settings(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = tuple(value) if isinstance(value, list) else value
    return flat


def _outcome_names(columns: list[str]) -> list[str]:
    """Outcome names present as ``X_sum`` columns."""
    return [c[: -len("_sum")] for c in columns if c.endswith("_sum")]


def check_outcome_columns(cells: pd.DataFrame, folder: str | Path, game: str, outcome: Any) -> None:
    """Refuse results that lack a column of the outcome schema (:class:`dsim.games.base.Outcome`) of ``game``, the
    game their manifest names: a manifest edited or copied to another game's name drew every cell at 0%."""
    rounds = outcome.rounds
    named = {"rounds" if c == rounds else c
             for c in (rounds, *outcome.means, *outcome.optional, *outcome.shares, *outcome.seat_columns())}
    # (not ``internal``: it may name a column the game derives for `dsim run` only, never stored)
    missing = sorted(c for c in named if f"{c}_mean" not in cells.columns)
    if missing:
        raise ResultsError(f"{folder}: its {MANIFEST} names the game {game!r}, but its chunks lack that game's outcome "
                           f"column(s) {', '.join(missing[:4])}{' …' if len(missing) > 4 else ''}: not results of "
                           f"{game!r}; re-run its experiment into a new folder")


def load(folder: str | Path) -> pd.DataFrame:
    """One row per cell of a results folder: settings, battles, wins, Wilson 95 % interval, means.

    Columns: ``cell``, one column per (flattened) setting, ``settings`` (the nested dict),
    ``battles``, ``wins``, ``win_rate``, ``ci_low``, ``ci_high``, ``chunks``, ``complete`` (the
    sweep's target battle count is reached), ``seed``, ``stream``, then ``X_mean`` / ``X_std``
    per outcome (over the plays where it applies for the game's ``optional`` outcomes, NaN when none;
    ``X_ci_low`` / ``X_ci_high``, a Wilson interval, for boolean outcomes such as a
    competitive game's ``win_seat_k``) and the summed histograms ``X_hist_win`` / ``X_hist_loss`` (numpy arrays, bins
    as in :data:`HIST_VALUES`). Rows follow the experiment's cell order; cells without a
    finished chunk are left out. A setting whose name clashes with a column gets a
    ``setting.`` prefix.
    """
    from dsim.stats import wilson_interval  # scipy is slow to import and sweeps never need it

    folder = Path(folder)
    manifest = read_manifest(folder)
    table = read_chunks(folder, manifest)
    if table is None:
        raise ResultsError(f"{folder}: no finished chunks yet")
    cells = table.column("cell").to_numpy(zero_copy_only=False)
    order = {cell: i for i, cell in enumerate(manifest["cells"])}
    ids = sorted(set(cells), key=order.__getitem__)
    summed = ["count", "wins"] + [n for n in table.column_names if n.endswith(("_sum", "_sumsq"))]
    sums = table.select(summed).to_pandas().groupby(cells, sort=False).sum().loc[ids]
    battles = sums["count"].to_numpy()
    wins = sums["wins"].to_numpy()
    low, high = wilson_interval(wins, battles)
    settings = [manifest["cells"][c]["settings"] for c in ids]
    out = pd.DataFrame({"cell": ids})
    flat = pd.DataFrame([flatten_settings(s) for s in settings])
    reserved = {"cell", "settings", "battles", "wins", "win_rate", "ci_low", "ci_high", "chunks",
                "complete", "seed", "stream", "seats_taken"}
    for key in flat.columns:
        out[f"setting.{key}" if key in reserved else key] = flat[key]
    out = out.assign(
        settings=settings,
        battles=battles,
        wins=wins,
        win_rate=wins / battles,
        ci_low=low,
        ci_high=high,
        chunks=pd.Series(cells).value_counts().loc[ids].to_numpy(),
        complete=battles == manifest["battles"],
        seed=manifest["seed"],
        stream=[manifest["cells"][c]["stream"] for c in ids],
        seats_taken=[manifest["cells"][c].get("seats", 0) for c in ids],  # a competitive game's seats in play
    )
    hists: dict[str, Any] = {}
    for name in table.column_names:
        if pa.types.is_list(table.schema.field(name).type):
            matrix = table.column(name).combine_chunks().flatten().to_numpy().reshape(table.num_rows, -1)
            hists[name] = pd.DataFrame(matrix).groupby(cells, sort=False).sum().loc[ids].to_numpy()
    optional = set(manifest.get("outcome", {}).get("optional", ()))
    stats: dict[str, Any] = {}  # every outcome column at once (a competitive game has dozens)
    for name in _outcome_names(summed):
        total = sums[f"{name}_sum"].to_numpy()
        if f"{name}_sumsq" not in sums:  # a boolean outcome (e.g. a seat's win): its rate gets a Wilson interval too
            stats[f"{name}_mean"] = total / battles
            stats[f"{name}_ci_low"], stats[f"{name}_ci_high"] = wilson_interval(total, battles)
            continue
        stats[f"{name}_mean"], stats[f"{name}_std"] = _mean_std(
            total, sums[f"{name}_sumsq"].to_numpy(), battles,
            _absent(hists, name) if name in optional and f"{name}_hist_win" in hists else np.zeros_like(battles))
    stats |= {name: list(matrix) for name, matrix in hists.items()}
    return pd.concat([out, pd.DataFrame(stats, index=out.index)], axis=1)


def _absent(hists: Mapping[str, np.ndarray], name: str) -> np.ndarray:
    """Plays in which the optional outcome ``name`` does not apply: its −1 values, the histograms' first bin."""
    return hists[f"{name}_hist_win"][:, 0] + hists[f"{name}_hist_loss"][:, 0]


def _mean_std(total: np.ndarray, sumsq: np.ndarray, battles: np.ndarray,
              absent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and sample spread per cell over the plays where the outcome applies (each absent play added −1
    to ``total`` and 1 to ``sumsq``); NaN where it never applies."""
    n = battles - absent
    total, sumsq = total + absent, sumsq - absent
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, total / n, np.nan)
        var = np.where(n > 0, (sumsq - n * mean**2) / np.maximum(n - 1, 1), np.nan)
    return mean, np.sqrt(np.maximum(var, 0.0))
