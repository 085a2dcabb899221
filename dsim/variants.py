"""Rule variants shared by every game: one declaration per variant gives its kernel index and its docs.

A game lists its variants once, in kernel order, as :class:`Variant` entries in a
:class:`VariantSet`. The set numbers them (the index into the kernel's int32 variant vector),
builds that vector from a cell's ``variants`` table, and lists them for ``dsim variants``. The
kernel's index constants are read from the set (``V = SET.index``), so the readings are written
down in one place only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dsim.games.base import RuleSwitch

if TYPE_CHECKING:
    import numpy as np

INT32 = (-(2**31), 2**31 - 1)


@dataclass(frozen=True)
class Variant:
    """One switch: id, rule reference, readings (default first) or a numeric default, and its sources."""

    id: str
    ref: str
    doc: str
    readings: tuple[str, ...] = ()
    reading_docs: tuple[str, ...] = ()
    seed: str = ""
    numeric_default: int | None = None  # numeric switches take any whole number in [low, high]
    low: int = INT32[0]
    high: int = INT32[1]
    listed: bool = True  # False: a slot the kernel reads but users set elsewhere (e.g. a house rule)
    unset: str = ""  # a numeric default outside [low, high] that means "not set": what it means, as listed

    @property
    def default(self) -> str | int:
        """The documented default reading (or number)."""
        return self.numeric_default if self.numeric_default is not None else self.readings[0]

    def switch(self) -> RuleSwitch:
        """The variant as ``dsim variants`` lists it."""
        readings = tuple(zip(self.readings or ("<whole number>",), self.reading_docs, strict=True))
        numeric = self.numeric_default is not None
        return RuleSwitch(self.id, "variant", self.ref, self.doc, self.unset or self.default, readings, self.seed,
                          numeric=numeric, bounds=(self.low, self.high) if numeric else None)


def reading(vid: str, ref: str, doc: str, seed: str, **readings: str) -> Variant:
    """A categorical variant whose keyword arguments are its readings (default first) and their effects."""
    return Variant(vid, ref, doc, tuple(readings), tuple(readings.values()), seed)


def number(vid: str, ref: str, doc: str, default: int, effect: str, seed: str = "", low: int = INT32[0],
           high: int = INT32[1], listed: bool = True, unset: str = "") -> Variant:
    """A numeric variant (any whole number in ``[low, high]``); ``unset`` names a default outside that range (the
    game's own value when the user sets none), which listings show instead of the number nobody can type."""
    return Variant(vid, ref, doc, (), (effect,), seed, default, low, high, listed, unset)


class VariantSet:
    """A game's variants in kernel order: indices, the int32 vector of a cell, the listing."""

    def __init__(self, variants: Sequence[Variant], listing: str) -> None:
        """``listing``: the command that lists these variants, for hints in error messages (``dsim variants list
        --game NAME``; the game knows its name, this module knows none)."""
        self.variants, self.listing = tuple(variants), listing
        self.by_id = {v.id: v for v in self.variants}
        if len(self.by_id) != len(self.variants):
            raise ValueError("variant ids must be unique")
        self.index = {v.id: i for i, v in enumerate(self.variants)}

    def __len__(self) -> int:
        return len(self.variants)

    def listed(self) -> list[Variant]:
        """The variants users switch with ``--set`` (not the internal slots)."""
        return [v for v in self.variants if v.listed]

    def vector(self, settings: Mapping[str, Any] | None = None) -> np.ndarray:
        """The kernel's int32 variant vector: defaults, overridden by ``{id: reading or number}``."""
        import numpy as np
        vec = np.zeros(len(self.variants), np.int32)
        for i, v in enumerate(self.variants):
            if v.numeric_default is not None:
                vec[i] = v.numeric_default
        for key, value in (settings or {}).items():
            v = self.by_id.get(key)
            if v is None or not v.listed:
                raise ValueError(f"unknown variant {key!r} (see `{self.listing}`)")
            vec[self.index[key]] = self.value(v, value)
        return vec

    @staticmethod
    def value(v: Variant, value: Any) -> int:
        """The kernel value of one setting (``ValueError`` naming the variant and what it takes)."""
        if v.numeric_default is not None:
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise ValueError(f"variant {v.id!r} takes a whole number, got {value!r}") from None
            if isinstance(value, float) and value != number or not v.low <= number <= v.high:
                raise ValueError(f"variant {v.id!r} takes a whole number from {v.low} to {v.high}, got {value!r}")
            return number
        if str(value) in v.readings:
            return v.readings.index(str(value))
        raise ValueError(f"variant {v.id!r} has no reading {value!r} (expected one of {', '.join(v.readings)})")
