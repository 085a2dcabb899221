"""``dsim data`` for Bloodborne: kinds, table columns and rows, and the coverage of guesses and unexpressed text."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dsim.games.bloodborne.loader import BloodborneData, load_data
from dsim.games.bloodborne.schema import CARD_KINDS, DUNGEON_KINDS, KINDS, Effect, Face
from dsim.games.data import BaseDataSupport, CoverageItem

_DUNGEON_COLUMNS = ("id", "name", "health 3/4/5p (= echoes)", "die", "trophy", "effects")
_CARD_COLUMNS = ("id", "name", "type", "resolves", "damage", "copies", "effects")
COLUMNS: dict[str, tuple[str, ...]] = {
    "dice": ("id", "name", "faces", "mean total"),
    "trophy_tracks": ("id", "name", "bonus", "extend"),
    **{kind: _DUNGEON_COLUMNS for kind in DUNGEON_KINDS},
    **{kind: _CARD_COLUMNS for kind in CARD_KINDS},
}


def _effects(effects: Sequence[Effect]) -> str:
    """``on_reveal:damage_hunters(1), …`` or ``-``."""
    parts = []
    for e in effects:
        args = ", ".join(str(a) for a in (e.amount, e.card_type) if a is not None)
        parts.append(f"{e.when}:{e.op}" + (f"({args})" if args else ""))
    return ", ".join(parts) or "-"


def _face(face: Face) -> str:
    return f"{face.value}+" if face.combo else str(face.value)


class BloodborneDataSupport(BaseDataSupport):
    """The :class:`~dsim.games.data.GameDataSupport` of Bloodborne."""

    kinds: Sequence[str] = KINDS

    def load(self, overlay: Path | None = None) -> BloodborneData:
        """The shipped data with the overlay (``DataError`` listing every problem)."""
        return load_data(overlay)

    def columns(self, kind: str) -> Sequence[str]:
        """Column headings of ``dsim data list KIND``."""
        return COLUMNS[kind]

    def row(self, kind: str, entry: Any) -> Sequence[str]:
        """One entry's cells, in the order of :meth:`columns`."""
        if kind == "dice":
            from dsim.games.bloodborne.dice import die_moments

            mean = die_moments(entry)[0]
            return (entry.id, entry.name, " ".join(_face(f) for f in entry.faces), f"{mean} ({float(mean):.3g})")
        if kind == "trophy_tracks":
            return (entry.id, entry.name, " ".join(map(str, entry.bonus)), entry.extend)
        if kind in DUNGEON_KINDS:
            health = "/".join(str(entry.health_for(p)) for p in (3, 4, 5))
            return (entry.id, entry.name, health, entry.die, f"{entry.trophy} ×{entry.trophies}", _effects(entry.effects))
        damage = "-" if entry.damage is None else str(entry.damage)
        return (entry.id, entry.name, entry.type, entry.resolves, damage, str(entry.copies), _effects(entry.effects))

    def coverage(self, data: BloodborneData) -> Sequence[CoverageItem]:
        """Every placeholder entry (with the guessed fields) and every card text no effect expresses."""
        items = []
        for kind in KINDS:
            for entry in data.entries(kind).values():
                if entry.placeholder:
                    where = ", ".join(entry.placeholder_fields) or "whole entry"
                    items.append(CoverageItem("placeholder", kind, entry.id, entry.name, where, entry.placeholder_reason))
                unexpressed = getattr(entry, "unexpressed", None)
                if unexpressed is not None:
                    items.append(CoverageItem("unexpressed_text", kind, entry.id, entry.name, "text", unexpressed))
        return items
