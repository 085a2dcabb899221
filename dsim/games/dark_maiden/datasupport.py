"""The ``dsim data`` capability of Dark Maiden: kinds, list tables and coverage notes.

Coverage lists every placeholder (a whole invented entry or one guessed figure) and every special
or card text; the engine simulates none of the specials yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dsim.games.dark_maiden.loader import KINDS, DarkMaidenData, load_data
from dsim.games.dark_maiden.schema import DIE_DAMAGE, Entry
from dsim.games.data import CoverageItem, LoadedData
from dsim.validation import display_path

_COLUMNS: dict[str, tuple[str, ...]] = {
    "heroes": ("id", "name", "vitality", "faces", "potions", "special", "P"),
    "enemies": ("id", "name", "level", "vitality", "faces", "armour", "points", "special", "P"),
    "bosses": ("id", "name", "copies", "vitality", "faces", "armour", "sub-boss pts", "special", "P"),
    "mounts": ("id", "name", "level", "vitality", "attack", "P"),
    "goblins": ("id", "name", "level", "dice", "potions", "steals", "heals", "P"),
    "sites": ("id", "name", "order", "go", "ability go", "target", "goblin", "bosses", "P"),
    "piles": ("id", "name", "level", "cards", "contents", "P"),
    "difficulties": ("id", "name", "lives", "items", "P"),
    "items": ("id", "name", "effect", "P"),
}


def _faces(faces: Sequence[int]) -> str:
    """``(1, 2, 3)`` → ``1,2,3``; empty → ``–``."""
    return ",".join(map(str, faces)) or "–"


def _flag(entry: Entry) -> str:
    """``P`` when the entry is invented, ``P:field,…`` when some figures are guesses, else empty."""
    if entry.placeholder:
        return "P"
    return f"P:{','.join(entry.placeholders)}" if entry.placeholders else ""


def _card(card: Any) -> str:
    return f"{card.count}×{card.id or card.kind}"


class DarkMaidenDataSupport:
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
        special = entry.special if getattr(entry, "special", None) else ("text" if getattr(entry, "special_text", None) else "–")
        cells: dict[str, Any] = {
            "heroes": lambda e: [e.vitality, _faces(e.success_faces), e.max_potions, special],
            "enemies": lambda e: [e.level, e.vitality, _faces(e.success_faces), e.armour, e.advance_points, special],
            "bosses": lambda e: [
                e.copies, e.vitality, _faces(e.success_faces), e.armour,
                "–" if e.sub_boss_points is None else e.sub_boss_points, special,
            ],
            "mounts": lambda e: [
                e.level, e.vitality, f"{'die' if e.damage == DIE_DAMAGE else e.damage} on {_faces(e.attack_faces)}",
            ],
            "goblins": lambda e: [e.level, f"{e.dice}d6", _faces(e.potion_faces), _faces(e.steal_faces), _faces(e.heal_faces)],
            "sites": lambda e: [
                e.order, e.go_value, "–" if e.ability_go_value is None else e.ability_go_value, e.advance_target,
                e.goblin or "–", ",".join(e.bosses) + "".join(f" (or {b})" for b in e.alternate_bosses),
            ],
            "piles": lambda e: [e.level, e.size(), " ".join(_card(c) for c in e.cards)],
            "difficulties": lambda e: [e.lives, e.items],
            "items": lambda e: [e.special_text or "–"],
        }
        return [str(v) for v in [entry.id, entry.name, *cells[kind](entry), _flag(entry)]]

    def coverage(self, data: LoadedData) -> Sequence[CoverageItem]:
        """Every placeholder (entry or figure; text = its reason) and every special or card text."""
        items: list[CoverageItem] = []
        for kind in KINDS:
            for entry_id, entry in data.entries(kind).items():
                where = display_path(data.origin(kind, entry_id))
                if entry.placeholder:
                    items.append(CoverageItem("placeholder", kind, entry_id, entry.name, where, entry.placeholder_reason or ""))
                for name, mark in entry.placeholders.items():
                    items.append(CoverageItem("placeholder", kind, entry_id, entry.name, f"{where}: {name}", mark.placeholder_reason))
                text = getattr(entry, "special_text", None)
                if text is not None:
                    items.append(CoverageItem(getattr(entry, "special", None) or "text", kind, entry_id, entry.name, where, text))
        return items
