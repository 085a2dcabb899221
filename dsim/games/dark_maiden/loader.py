"""Load the Dark Maiden data set: the shipped ``data/dark_maiden`` folder plus an optional overlay.

Every file is validated entry by entry against :mod:`dsim.games.dark_maiden.schema`, then the merged
set is cross-checked (references by id, pile sizes). All problems are raised as one
:class:`~dsim.validation.DataError`, one line each.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError

from dsim.games.dark_maiden.schema import Boss, Difficulty, Enemy, Goblin, Hero, Item, Mount, Pile, Site
from dsim.games.loading import EntriesByKind, FolderLoader
from dsim.paths import game_data_dir
from dsim.validation import DataError, Problem, display_path, entry_label, problems_from_validation, read_yaml

GAME = "dark_maiden"
MODELS: dict[str, type[BaseModel]] = {
    "heroes": Hero,
    "enemies": Enemy,
    "bosses": Boss,
    "mounts": Mount,
    "goblins": Goblin,
    "sites": Site,
    "piles": Pile,
    "difficulties": Difficulty,
    "items": Item,
}
"""Kinds, each stored as ``<kind>.yaml`` holding a list under the key ``<kind>``."""
KINDS = tuple(MODELS)
PILE_SIZES = {2: 5, 3: 5}  # DM-2.5: the level-2 and level-3 piles hold 5 cards each (seed L74)
CARD_KINDS = {"goblin": "goblins", "mount": "mounts", "enemy": "enemies"}
"""Pile card kind → the data kind its ``ref`` names."""


@dataclass(frozen=True)
class DarkMaidenData(EntriesByKind):
    """The validated data set: entries by id for every kind, and the file each came from."""

    KINDS: ClassVar[tuple[str, ...]] = KINDS

    heroes: dict[str, Hero]
    enemies: dict[str, Enemy]
    bosses: dict[str, Boss]
    mounts: dict[str, Mount]
    goblins: dict[str, Goblin]
    sites: dict[str, Site]
    piles: dict[str, Pile]
    difficulties: dict[str, Difficulty]
    items: dict[str, Item]




def _label(kind: str, entry_id: object, index: int | None = None) -> str:
    """:func:`entry_label` with the singular ``hero`` (the shared rule would give ``heroe``)."""
    return entry_label("hero" if kind == "heroes" else kind, entry_id, index)


def _read(path: Path) -> tuple[bool, Any, list[Problem]]:
    """``(ok, content, problems)`` of one YAML file; directories, pipes and non-UTF-8 bytes are problems too."""
    try:
        return True, read_yaml(path), []
    except DataError as err:
        return False, None, err.problems


def _entry_problems(err: ValidationError, file: str, raw: Any, label: str) -> list[Problem]:
    """Pydantic errors as problems; notes of placeholder figures are named by the figure's field."""
    problems = problems_from_validation(err, file, raw, label)
    return [
        Problem(p.file, p.entry, p.field.removeprefix("placeholders."), p.message)
        if p.field.startswith("placeholders.") and not (isinstance(raw, dict) and "placeholders" in raw)
        else p
        for p in problems
    ]


class _Loader(FolderLoader):
    """Reads folders in order (shipped, then overlay), collecting entries and problems."""

    def __init__(self) -> None:
        super().__init__(KINDS)

    def load_folder(self, root: Path, shipped: bool) -> None:
        """Load every data file of ``root``; a shipped folder must be complete, an overlay need not."""
        for kind, model in MODELS.items():
            path = root / f"{kind}.yaml"
            if path.exists():
                self._load_file(path, kind, model, shipped)
            elif shipped:
                self.problems.append(Problem(display_path(path), message="file not found"))
        if not shipped:
            self.check_overlay_names(root, (f"{kind}.yaml" for kind in KINDS), {})

    def _load_file(self, path: Path, kind: str, model: type[BaseModel], shipped: bool) -> None:
        ok, raw, problems = _read(path)
        self.problems.extend(problems)
        if not ok:
            self.kinds[kind].broken = True
            return
        file = display_path(path)
        if not isinstance(raw, dict):
            self.problems.append(Problem(file, message=f"expected a mapping with the key '{kind}'"))
            return
        for key in raw.keys() - {kind}:
            self.problems.append(Problem(file, field=str(key), message=f"unknown top-level key; expected '{kind}'"))
        if kind not in raw:
            if shipped:
                self.problems.append(Problem(file, field=kind, message="required top-level key is missing"))
            return
        entries = raw[kind]
        if not isinstance(entries, list):
            self.problems.append(Problem(file, field=kind, message="expected a list of entries"))
            return
        seen: dict[tuple[str, str], str] = {}
        for index, entry in enumerate(entries):
            label = _label(kind, entry.get("id") if isinstance(entry, dict) else None, index)
            self.add(kind, model, path, entry, label, f"entry #{index}", seen)

    def entry_problems(self, err: ValidationError, file: str, raw: Any, label: str) -> list[Problem]:
        """Problems of an entry whose guessed figures are written as ``{value:, placeholder:}``."""
        return _entry_problems(err, file, raw, label)



def load_data(overlay: Path | None = None, data_dir: Path | None = None) -> DarkMaidenData:
    """Load, validate and cross-check the data set; ``overlay`` entries replace or add entries by id.

    Raises :class:`~dsim.validation.DataError` listing every problem found.
    """
    data_dir = data_dir or game_data_dir(GAME)
    loader = _Loader()
    loader.load(data_dir, overlay)
    return loader.finish(loader.build(DarkMaidenData, data_dir, overlay, **loader.models()), cross_check)


def _where(data: DarkMaidenData, kind: str, entry_id: str) -> tuple[str, str]:
    return display_path(data.origin(kind, entry_id)), _label(kind, entry_id)


def cross_check(data: DarkMaidenData, known: dict[str, set[str]], broken: set[str]) -> Iterator[Problem]:
    """Problems spanning entries: references by id, site order, goblin levels, pile sizes.

    ``known`` holds every id seen per kind (also of invalid entries); checks over a whole kind skip
    the kinds in ``broken``.
    """
    yield from _check_sites(data, known)
    yield from _check_piles(data, known, broken)


def _check_sites(data: DarkMaidenData, known: dict[str, set[str]]) -> Iterator[Problem]:
    """Bosses and goblins exist; orders are distinct (DM-1.1); site N prints the level-N goblin (DM-5.3.5)."""
    orders: dict[int, str] = {}
    for site in sorted(data.sites.values(), key=lambda s: s.id):
        file, label = _where(data, "sites", site.id)
        if site.order in orders:
            yield Problem(file, label, "order", f"order {site.order} is also used by site {orders[site.order]!r}")
        orders.setdefault(site.order, site.id)
        for name in ("bosses", "alternate_bosses"):
            for i, boss_id in enumerate(getattr(site, name)):
                if boss_id not in known["bosses"]:
                    yield Problem(file, label, f"{name}[{i}]", f"unknown boss {boss_id!r}")
        if site.goblin is None:
            continue
        goblin = data.goblins.get(site.goblin)
        if goblin is None:
            if site.goblin not in known["goblins"]:
                yield Problem(file, label, "goblin", f"unknown goblin {site.goblin!r}")
        elif goblin.level != site.order:
            yield Problem(
                file, label, "goblin", f"site {site.order} prints the level-{site.order} goblin, "
                f"{site.goblin!r} is level {goblin.level} (DM-5.3.5)",
            )


def _check_piles(data: DarkMaidenData, known: dict[str, set[str]], broken: set[str]) -> Iterator[Problem]:
    """Cards name existing entries; one pile per level; levels 2 and 3 hold 5 cards (DM-2.5)."""
    levels: dict[int, str] = {}
    for pile in sorted(data.piles.values(), key=lambda p: p.id):
        file, label = _where(data, "piles", pile.id)
        if pile.level in levels:
            yield Problem(file, label, "level", f"level {pile.level} is also the level of pile {levels[pile.level]!r}")
        levels.setdefault(pile.level, pile.id)
        for i, card in enumerate(pile.cards):
            target = CARD_KINDS.get(card.kind)
            if target is not None and card.ref not in known[target]:
                yield Problem(file, label, f"cards[{i}].ref", f"unknown {card.kind} {card.ref!r}")
        size = PILE_SIZES.get(pile.level)
        if size is not None and pile.size() != size:
            yield Problem(
                file, label, "cards", f"the level-{pile.level} pile holds {size} cards, got {pile.size()} (DM-2.5)"
            )
    if "piles" not in broken:
        for level in sorted({1, *PILE_SIZES} - set(levels)):
            yield Problem(display_path(data.data_dir / "piles.yaml"), field="piles", message=f"no level-{level} pile")
