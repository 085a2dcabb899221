"""Load the Bloodborne data set: the shipped ``data/bloodborne`` folder plus an optional overlay folder.

Each ``<kind>.yaml`` holds a list under the key ``<kind>``; entries are validated one by one against
:mod:`dsim.games.bloodborne.schema`, overlay entries replace or add entries by id, then the merged set
is cross-checked (references, box minima). Every problem is collected into one
:class:`~dsim.validation.DataError`, one line per problem naming file, entry, field and expected form.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel

from dsim.games.bloodborne.schema import CARD_KINDS, DUNGEON_KINDS, KIND_MODELS, KINDS
from dsim.games.loading import EntriesByKind, FolderLoader
from dsim.paths import game_data_dir
from dsim.validation import Problem, display_path, entry_label

GAME = "bloodborne"
SETUP_MINIMUM = {"monsters": 7, "bosses": 3, "final_bosses": 1, "starters": 1, "dice": 1, "trophy_tracks": 1}
"""Fewest entries a game can be set up with (BB-2.1, BB-2.2: 7 monsters, 3 bosses, 1 Final Boss)."""


@dataclass(frozen=True)
class BloodborneData(EntriesByKind):
    """The validated data set: entries by id per kind (see :data:`~dsim.games.bloodborne.schema.KINDS`)."""

    kinds: dict[str, dict[str, Any]]

    KINDS: ClassVar[tuple[str, ...]] = KINDS

    def entries(self, kind: str) -> dict[str, Any]:
        """The entries of one kind, by id (``KeyError`` for an unknown kind)."""
        return self.kinds[kind]


    def copies(self, kind: str) -> int:
        """Cards of an action-card kind counting copies (the box has 32 upgrade cards, BB-1.1)."""
        return sum(card.copies for card in self.kinds[kind].values())




class _Loader(FolderLoader):
    """Reads folders in order (shipped, then overlay), collecting entries and problems."""

    def __init__(self) -> None:
        super().__init__(KINDS)

    def load_folder(self, root: Path, shipped: bool) -> None:
        """Load every data file of ``root``; a shipped folder must have them all, an overlay any subset."""
        seen: dict[tuple[str, str], str] = {}
        for kind, model in KIND_MODELS.items():
            path = root / f"{kind}.yaml"
            if path.exists():  # a folder, pipe or device in its place is named by the read
                self._load_file(path, kind, model, seen)
            elif shipped:
                self.problems.append(Problem(display_path(path), message="file not found"))
                self.kinds[kind].broken = True
        if not shipped:
            self.check_overlay_names(root, (f"{kind}.yaml" for kind in KINDS), {})

    def _load_file(self, path: Path, kind: str, model: type[BaseModel], seen: dict[tuple[str, str], str]) -> None:
        ok, raw = self.read(path)
        gathered, file = self.kinds[kind], display_path(path)
        if not ok:
            gathered.broken = True
            return
        if not isinstance(raw, dict):
            self.problems.append(Problem(file, message=f"expected a mapping with the key '{kind}'"))
            gathered.broken = True
            return
        for key in raw.keys() - {kind}:
            self.problems.append(Problem(file, field=str(key), message=f"unknown top-level key; expected '{kind}'"))
        entries = raw.get(kind)
        if not isinstance(entries, list):
            message = "required top-level key is missing" if entries is None else "expected a list of entries"
            self.problems.append(Problem(file, field=kind, message=message))
            gathered.broken = True
            return
        for index, entry in enumerate(entries):
            entry_id = entry.get("id") if isinstance(entry, dict) else None
            self.add(kind, model, path, entry, entry_label(kind, entry_id, index), f"entry #{index}", seen)



def load_data(overlay: Path | None = None, data_dir: Path | None = None) -> BloodborneData:
    """Load, validate and cross-check the data set; ``overlay`` entries replace or add entries by id.

    Raises :class:`~dsim.validation.DataError` listing every problem found.
    """
    data_dir = data_dir or game_data_dir(GAME)
    loader = _Loader()
    loader.load(data_dir, overlay)
    return loader.finish(loader.build(BloodborneData, data_dir, overlay, kinds=loader.models()), cross_check)


def _where(data: BloodborneData, kind: str, entry_id: str) -> tuple[str, str]:
    return display_path(data.origin(kind, entry_id)), entry_label(kind, entry_id)


def cross_check(data: BloodborneData, known: dict[str, set[str]], broken: set[str]) -> Iterator[Problem]:
    """Problems spanning entries: die and trophy references, ids shared between kinds, ability texts
    without effects, setup minima. ``known`` has every id seen (also of invalid entries, so one bad
    entry causes no cascade of "unknown id"); minima are not checked for kinds in ``broken``."""
    for kind in DUNGEON_KINDS:
        for entry in data.entries(kind).values():
            file, label = _where(data, kind, entry.id)
            if entry.die not in known["dice"]:
                yield Problem(file, label, "die", f"unknown die {entry.die!r}; expected one of {sorted(known['dice'])}")
            if entry.trophy not in known["trophy_tracks"]:
                yield Problem(
                    file, label, "trophy",
                    f"unknown trophy track {entry.trophy!r}; expected one of {sorted(known['trophy_tracks'])}",
                )
    yield from _shared_ids(data, DUNGEON_KINDS)
    yield from _shared_ids(data, CARD_KINDS)
    for kind in (*DUNGEON_KINDS, *CARD_KINDS):
        for entry in data.entries(kind).values():
            if entry.text.strip() and not entry.effects and entry.unexpressed is None:
                yield Problem(
                    *_where(data, kind, entry.id), "unexpressed",
                    "the text has no effects; add effects or say in 'unexpressed' what they leave out",
                )
    for kind, minimum in SETUP_MINIMUM.items():
        count = len(data.entries(kind))
        if kind not in broken and count < minimum:
            file = display_path(data.data_dir / f"{kind}.yaml")
            yield Problem(file, field=kind, message=f"a game needs at least {minimum} entries, found {count} (BB-2)")


def _shared_ids(data: BloodborneData, kinds: tuple[str, ...]) -> Iterator[Problem]:
    """Cards of kinds that share a deck or a hand need distinct ids (the kernel indexes them together)."""
    first: dict[str, str] = {}
    for kind in kinds:
        for entry_id in data.entries(kind):
            if entry_id in first:
                yield Problem(*_where(data, kind, entry_id), "id", f"id also used by a {first[entry_id]} entry")
            else:
                first[entry_id] = kind
