"""The ``dsim data`` capability of Dark Maiden: kinds, list tables and coverage notes.

Coverage lists every placeholder (a whole invented entry or one guessed figure) and every card text the
kernel does not simulate: a special with a machine id (``reroll_on_double``, ``reinforcements_on_red_1`` …) is
played by the kernel, a text-only one (a site's ability side beyond the Forest's go value) is not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from dsim.games.dark_maiden.loader import KINDS, DarkMaidenData, load_data
from dsim.games.dark_maiden.schema import DIE_DAMAGE, Entry
from dsim.games.data import BaseDataSupport, CoverageItem, LoadedData
from dsim.validation import display_path

_COLUMNS: dict[str, tuple[str, ...]] = {
    "heroes": ("id", "name", "vitality", "faces", "potions", "special", "placeholders"),
    "enemies": ("id", "name", "level", "vitality", "faces", "armour", "points", "special", "placeholders"),
    "bosses": ("id", "name", "copies", "vitality", "faces", "armour", "sub-boss pts", "special", "placeholders"),
    "mounts": ("id", "name", "level", "vitality", "attack", "placeholders"),
    "goblins": ("id", "name", "level", "dice", "potions", "steals", "heals", "placeholders"),
    "sites": ("id", "name", "order", "go", "ability go", "target", "goblin", "bosses", "placeholders"),
    "piles": ("id", "name", "level", "cards", "contents", "placeholders"),
    "difficulties": ("id", "name", "lives", "items", "placeholders"),
    "items": ("id", "name", "effect", "placeholders"),
}


def _faces(faces: Sequence[int]) -> str:
    """``(1, 2, 3)`` → ``1,2,3``; empty → ``–``."""
    return ",".join(map(str, faces)) or "–"


def _guessed(entry: Entry) -> str:
    """``all`` when the entry is invented, else the fields holding placeholder figures (``–`` for none)."""
    if entry.placeholder:
        return "all"
    return ",".join(entry.placeholders) or "–"


def _card(card: Any) -> str:
    return f"{card.count}×{card.ref or card.kind}"


def _special(entry: Any) -> str:
    """The special's id, ``text`` for a text-only special, ``–`` for none."""
    return getattr(entry, "special", None) or ("text" if getattr(entry, "special_text", None) else "–")


def _or_dash(value: object) -> object:
    return "–" if value is None else value


_CELLS: dict[str, Callable[[Any], list[object]]] = {
    "heroes": lambda e: [e.vitality, _faces(e.success_faces), e.max_potions, _special(e)],
    "enemies": lambda e: [e.level, e.vitality, _faces(e.success_faces), e.armour, e.advance_points, _special(e)],
    "bosses": lambda e: [
        e.copies, e.vitality, _faces(e.success_faces), e.armour, _or_dash(e.sub_boss_points), _special(e),
    ],
    "mounts": lambda e: [
        e.level, e.vitality, f"{'die' if e.damage == DIE_DAMAGE else e.damage} on {_faces(e.attack_faces)}",
    ],
    "goblins": lambda e: [
        e.level, f"{e.dice}d6", _faces(e.potion_faces), _faces(e.steal_faces), _faces(e.heal_faces),
    ],
    "sites": lambda e: [
        e.order, e.go_value, _or_dash(e.ability_go_value), e.advance_target, _or_dash(e.goblin),
        ",".join(e.bosses) + "".join(f" (or {b})" for b in e.alternate_bosses),
    ],
    "piles": lambda e: [e.level, e.size(), " ".join(_card(c) for c in e.cards)],
    "difficulties": lambda e: [e.lives, e.items],
    "items": lambda e: [_or_dash(e.special_text)],
}
"""The cells of ``dsim data list KIND`` between the id/name and the placeholders columns."""


class DarkMaidenDataSupport(BaseDataSupport):
    """What ``dsim data`` needs for Dark Maiden (the :class:`~dsim.games.data.GameDataSupport` protocol)."""

    kinds: Sequence[str] = KINDS

    def load(self, overlay: Path | None = None) -> DarkMaidenData:
        """Load and validate the shipped data with the overlay (``DataError`` listing every problem)."""
        return load_data(overlay)

    def columns(self, kind: str) -> Sequence[str]:
        """Column headings of ``dsim data list KIND``."""
        return _COLUMNS[kind]

    def row(self, kind: str, entry: Any) -> Sequence[str]:
        """One entry's compact cells, in the order of :meth:`columns`."""
        return [str(v) for v in [entry.id, entry.name, *_CELLS[kind](entry), _guessed(entry)]]

    def coverage(self, data: LoadedData) -> Sequence[CoverageItem]:
        """Every placeholder (entry or figure; text = its reason) and every text-only effect (not simulated)."""
        items: list[CoverageItem] = []
        for kind in KINDS:
            for entry_id, entry in data.entries(kind).items():
                where = display_path(data.origin(kind, entry_id))
                note = (kind, entry_id, entry.name)
                if entry.placeholder:
                    items.append(CoverageItem("placeholder", *note, where, entry.placeholder_reason or ""))
                for name, mark in entry.placeholders.items():
                    items.append(CoverageItem("placeholder", *note, f"{where}: {name}", mark.placeholder_reason))
                if getattr(entry, "special_text", None) is not None and getattr(entry, "special", None) is None:
                    items.append(CoverageItem(_special(entry), *note, where, entry.special_text))
        return items
