"""The data and dice capabilities a game offers to ``dsim data`` and ``dsim dice``.

A game's :meth:`~dsim.games.base.Game.data` returns a :class:`GameDataSupport`; its
:meth:`~dsim.games.base.Game.dice` a :class:`DiceSupport`. Both are small protocols so that the
commands stay generic: the game knows its kinds, its table columns and its coverage notes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol


class LoadedData(Protocol):
    """A loaded, validated data set."""

    data_dir: Path

    def counts(self) -> Mapping[str, int]:
        """Entries per kind."""

    def entries(self, kind: str) -> Mapping[str, Any]:
        """Entries of one kind by id (pydantic models)."""

    def origin(self, kind: str, entry_id: str) -> Path:
        """The file an entry was read from."""


@dataclass(frozen=True)
class CoverageItem:
    """One thing the numbers ignore or guess: a placeholder figure or a card text not simulated."""

    kind: str  # "placeholder" or the effect kind
    owner_kind: str
    owner_id: str
    card: str
    where: str
    text: str


class GameDataSupport(Protocol):
    """What ``dsim data`` needs from a game."""

    kinds: Sequence[str]

    def load(self, overlay: Path | None = None) -> LoadedData:
        """Load and validate the shipped data with the overlay (``DataError`` listing every problem)."""

    def columns(self, kind: str) -> Sequence[str]:
        """Column headings of ``dsim data list KIND``."""

    def row(self, kind: str, entry: Any) -> Sequence[str]:
        """One entry's cells of ``dsim data list KIND``."""

    def coverage(self, data: LoadedData) -> Sequence[CoverageItem]:
        """Every placeholder and every card text the engine does not simulate."""


class BaseDataSupport:
    """Defaults of the optional parts of a data capability: lookup by id over every kind, no notes."""

    kinds: Sequence[str] = ()
    extra_kinds: Sequence[str] = ()  # kinds ``dsim data show`` finds inside other entries

    def find(self, data: LoadedData, ident: str, kind: str | None) -> list[tuple[str, str, Any, Path]]:
        """Entries called ``ident`` (in ``kind`` only, if given): (kind, id, entry, file)."""
        kinds = [kind] if kind else list(self.kinds)
        return [(k, ident, data.entries(k)[ident], data.origin(k, ident)) for k in kinds if ident in data.entries(k)]

    def figure_note(self, chain: Sequence[Any], names: Sequence[str], relative: str) -> Any:
        """What the data says of one figure (:class:`dsim.figures.FigureNote`): ``chain`` holds the models from the
        entry down to the one holding the figure, ``names`` the field taken in each, ``relative`` its path inside the
        entry. The default reads the notes every game's data shares (``source``, ``placeholder``, ``decision``,
        ``doubts``); a game with other notes overrides it."""
        from dsim.figures import entry_note

        return entry_note(chain, names, relative)

    def notes(self, kind: str, entry: Any) -> list[str]:
        """Extra lines under ``dsim data show`` for one entry."""
        return []

    def coverage_title(self, items: Sequence[CoverageItem]) -> str:
        """The title of ``dsim data coverage``."""
        kinds = len({item.kind for item in items})
        return f"Placeholders and card texts not simulated: {len(items)} entries of {kinds} kinds"


@dataclass(frozen=True)
class Distribution:
    """An exact (or stated-truncation) distribution for ``dsim dice roll``."""

    title: str
    pmf: Mapping[int, Fraction | float]
    note: str = ""  # e.g. "truncated where the remaining mass is below 1e-12"
    beyond: Fraction = Fraction(0)  # the exact mass of the totals past the listed ones (a truncated pmf)
    mean: Fraction | None = None  # the exact mean when the listed pmf is truncated (its own mean is not)


class DiceSupport(Protocol):
    """What ``dsim dice roll`` needs from a game."""

    def roll(self, pool: str, overlay: Path | None = None) -> Distribution:
        """The distribution of a pool written in the game's notation (``ValueError`` for a bad pool)."""
