"""What every game's data loader shares: entries gathered per kind, shipped data then an overlay.

A game's loader subclasses :class:`FolderLoader` and reads one folder in ``load_folder``;
:meth:`FolderLoader.load` reads the shipped folder, then the overlay (entries replace or add by
id), collecting :class:`~dsim.validation.Problem` s instead of stopping at the first. Loaded
data sets subclass :class:`EntriesByKind` for the ``LoadedData`` protocol of ``dsim data``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError

from dsim.files import what_is
from dsim.validation import DataError, Problem, display_path, problems_from_validation, read_yaml

BROKEN_LINK = "a broken symbolic link (its target is missing, or it loops)"


@dataclass
class Gathered:
    """Entries of one kind so far; ``known`` also holds ids of entries that failed validation (no cascade)."""

    models: dict[str, Any] = field(default_factory=dict)
    origins: dict[str, Path] = field(default_factory=dict)
    known: set[str] = field(default_factory=set)
    broken: bool = False


class FolderLoader:
    """Reads folders in order (shipped, then overlay), collecting entries per kind and problems."""

    def __init__(self, kinds: Sequence[str]) -> None:
        self.problems: list[Problem] = []
        self.kinds = {kind: Gathered() for kind in kinds}

    def load_folder(self, root: Path, shipped: bool) -> None:
        """Read one folder's files into :attr:`kinds` (the game's own layout)."""
        raise NotImplementedError

    def read(self, path: Path) -> tuple[bool, Any]:
        """``(ok, content)`` of one YAML file; an empty, unreadable, non-UTF-8 or broken one (or a pipe, a device, a
        folder in its place) is recorded as a problem."""
        try:
            return True, read_yaml(path)
        except DataError as err:
            self.problems.extend(err.problems)
            return False, None

    def load(self, data_dir: Path, overlay: Path | None) -> None:
        """The shipped folder, then the overlay folder if given (a missing one is a problem)."""
        self.load_folder(data_dir, shipped=True)
        if overlay is not None:
            if overlay.is_dir():
                self.load_folder(overlay, shipped=False)
            else:
                found = f"is {what_is(overlay)}, not an overlay folder" if overlay.exists() else \
                    BROKEN_LINK if overlay.is_symlink() else "overlay folder not found"
                self.problems.append(Problem(display_path(overlay), message=found))

    def check_overlay_names(self, root: Path, files: Iterable[str], folders: Mapping[str, Iterable[str]]) -> None:
        """Name what an overlay holds that would be skipped: a data file of an unknown name, a folder of an unknown
        name holding data files, a file of the wrong name inside a known folder (``folders`` maps each to its
        files' suffixes) and a broken or looping symbolic link. Hidden files, notes and folders of notes (no
        YAML) are left alone."""
        files = set(files)
        expected = sorted(files) + [f"{name}/" for name in folders]
        for path in sorted(root.iterdir()):
            if path.name.startswith("."):
                continue
            if path.is_symlink() and not path.exists():
                self.problems.append(Problem(display_path(path), message=BROKEN_LINK))
            elif path.is_dir() and path.name in folders:
                suffixes = tuple(folders[path.name])
                for inner in sorted(path.iterdir()):
                    if inner.is_symlink() and not inner.exists():
                        self.problems.append(Problem(display_path(inner), message=BROKEN_LINK))
                    elif inner.is_dir() or inner.suffix in (".yaml", ".yml") and not inner.name.endswith(suffixes):
                        self.problems.append(Problem(display_path(inner), message=f"not read: only <id>"
                                                     f"{' or <id>'.join(suffixes)} files are read in {path.name}/"))
            elif path.is_dir() and path.name not in files and _holds_yaml(path):  # a misnamed data folder
                self.problems.append(Problem(display_path(path), message=f"data files in an unknown folder; "
                                                                         f"expected one of {expected}"))
            elif path.suffix in (".yaml", ".yml") and path.name not in files:
                self.problems.append(Problem(display_path(path), message=f"unknown data file; expected one of {expected}"))

    def entry_problems(self, err: ValidationError, file: str, raw: Any, label: str) -> list[Problem]:
        """One problem line per field of an invalid entry (a game may unwrap its own notations first)."""
        return problems_from_validation(err, file, raw, label)

    def add(self, kind: str, model: type[BaseModel], path: Path, raw: Any, label: str, where: str,
            seen: dict[tuple[str, str], str]) -> None:
        """Validate one entry; a later folder's entry replaces an earlier one with the same id, while
        the same id twice in one folder is a problem (``seen`` is that folder's record)."""
        gathered, file = self.kinds[kind], display_path(path)
        if isinstance(raw, dict) and isinstance(raw.get("id"), str):
            gathered.known.add(raw["id"])
        try:
            entry: Any = model.model_validate(raw)
        except ValidationError as err:
            self.problems.extend(self.entry_problems(err, file, raw, label))
            gathered.broken = True
            return
        key = (kind, entry.id)
        if key in seen:
            self.problems.append(Problem(file, label, "id", f"duplicate id: used by {seen[key]} and by {where} of {file}"))
            gathered.broken = True
            return
        seen[key] = f"{where} of {file}"
        gathered.models[entry.id] = entry
        gathered.origins[entry.id] = path

    def known(self) -> dict[str, set[str]]:
        """Ids per kind, invalid entries included (so a reference to one is not reported again)."""
        return {kind: set(g.models) | g.known for kind, g in self.kinds.items()}

    def broken(self) -> set[str]:
        """Kinds with an invalid entry (cross-checks skip what they cannot trust)."""
        return {kind for kind, g in self.kinds.items() if g.broken}

    def build(self, data_type: type, data_dir: Path, overlay: Path | None, **fields: Any) -> Any:
        """The data set of type ``data_type`` (an :class:`EntriesByKind`) from what was read."""
        return data_type(**fields, data_dir=data_dir, overlay=overlay, origins=self.origins())

    def finish(self, data: Any, cross_check: Callable[[Any, dict[str, set[str]], set[str]], Iterable[Problem]],
               broken: Iterable[str] = ()) -> Any:
        """``data`` if neither reading nor ``cross_check`` found a problem, else one ``DataError`` listing all
        (``broken`` adds kinds the cross-check must not trust)."""
        problems = self.problems + list(cross_check(data, self.known(), self.broken() | set(broken)))
        if problems:
            raise DataError(problems)
        return data

    def models(self) -> dict[str, dict[str, Any]]:
        """Valid entries by kind and id."""
        return {kind: g.models for kind, g in self.kinds.items()}

    def origins(self) -> dict[tuple[str, str], Path]:
        """The file of every valid entry, by (kind, id)."""
        return {(kind, i): p for kind, g in self.kinds.items() for i, p in g.origins.items()}


def _holds_yaml(folder: Path, depth: int = 3) -> bool:
    """Whether ``folder`` holds a YAML file, directly or up to ``depth`` folders down (an overlay copied one
    folder too deep, ``ov/dstbg/bosses/…``); symbolic links to folders are not followed."""
    for path in folder.iterdir():
        if path.suffix in (".yaml", ".yml") and not path.is_dir():
            return True
        if depth > 1 and path.is_dir() and not path.is_symlink() and _holds_yaml(path, depth - 1):
            return True
    return False


@dataclass(frozen=True)
class EntriesByKind:
    """A loaded data set: where it came from, and ``entries``, ``counts`` and ``origin`` over the kinds
    named in ``KINDS`` (each an attribute of the subclass: entries by id)."""

    KINDS: ClassVar[tuple[str, ...]] = ()
    data_dir: Path
    overlay: Path | None
    origins: dict[tuple[str, str], Path]

    def entries(self, kind: str) -> dict[str, Any]:
        """The entries of one kind, by id (``KeyError`` for an unknown kind)."""
        if kind not in self.KINDS:
            raise KeyError(kind)
        return getattr(self, kind)

    def counts(self) -> dict[str, int]:
        """Number of entries per kind."""
        return {kind: len(self.entries(kind)) for kind in self.KINDS}

    def origin(self, kind: str, entry_id: str) -> Path:
        """The file an entry was loaded from (the overlay's when it replaces a shipped entry)."""
        return self.origins[(kind, entry_id)]


HELD_PREFIX = "held:"
"""The ``data`` setting of a cell whose data set lives in this process (a nudged copy, ``dsim sensitivity``)."""

_HELD: dict[str, Any] = {}
_HELD_COUNT = [0]


def hold(data: Any) -> str:
    """Keep a loaded data set in this process and return the ``data`` setting naming it: a game's data loading
    (:func:`held`) returns it instead of reading folders. Names are never reused, so games' caches keyed by the
    ``data`` setting never mix two held sets up."""
    _HELD_COUNT[0] += 1
    token = f"{HELD_PREFIX}{_HELD_COUNT[0]}"
    _HELD[token] = data
    return token


def release(token: str) -> None:
    """Forget a held data set (cells compiled from it may stay in a game's bounded cache)."""
    _HELD.pop(token, None)


def held(overlay: str | None) -> Any | None:
    """The held data set a ``data`` setting names, ``None`` for a folder (or none); a released or unknown name is
    an error (it would otherwise read as a missing overlay folder)."""
    if overlay is None or not str(overlay).startswith(HELD_PREFIX):
        return None
    if overlay not in _HELD:
        raise ValueError(f"data set {overlay!r} is not held in this process (held sets live only inside the "
                         "command that made them)")
    return _HELD[overlay]
