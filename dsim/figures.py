"""Every number of a game's data as a named figure, and copies of the data with figures moved (issue 45).

A loaded data set (:class:`dsim.games.data.LoadedData`) is walked generically: each entry's pydantic model,
its nested models, lists and tables, down to every whole or real number (never a yes/no). A figure is named
by a dotted path, ``bosses.gargoyle.cards.tail_whip.halves.0.steps.0.damage``: kind, entry id, then field
names, the ids of listed models (else their positions) and table keys. Its bounds come from the schema's
field constraints (``ge``, ``gt``, ``le``, ``lt``); its status and source from the data's own notes
(:meth:`dsim.games.data.BaseDataSupport.figure_note`). :func:`moved` returns a copy of the data set with
some figures changed; a game plays it through its ordinary compile path when a cell's ``data`` setting
names it (:func:`dsim.games.loading.hold`).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import math
import typing
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import annotated_types as at
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

Step = str | int  # a model's field or a table's key (str), a list's position (int)


class Doubt(BaseModel):
    """How unsure one figure of an entry is (the entry's ``doubts`` table, keyed by the figure's path inside the
    entry or a glob such as ``"*"``): the values a source allows and how far to trust it. An end of ``range`` left
    ``null`` is one the sources do not bound (a lower bound from a worked example, say); it falls back to the
    schema's step."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    range: tuple[float | None, float | None] | None = None
    confidence: Literal["low", "medium", "high"] | None = None
    note: str | None = None  # why: the sources' values, the example that bounds it

    @model_validator(mode="after")
    def _says_something(self) -> Doubt:
        """A doubt gives a range or a confidence, and a range runs low to high."""
        if self.range is None and self.confidence is None:
            raise ValueError("a doubt gives a range: [low, high] or a confidence: low, medium or high")
        if self.range is not None:
            low, high = self.range
            if low is None and high is None:
                raise ValueError("a range needs at least one end")
            if low is not None and high is not None and low > high:
                raise ValueError(f"range [{low:g}, {high:g}] runs backwards")
        return self


def entry_numbers(entry: BaseModel) -> dict[str, float]:
    """Every number of one entry by its path inside the entry (what ``doubts`` keys name)."""
    return {found.path[1:]: found.value for found in _walk(entry, (), "", (), (), ())}


def check_doubts(entry: BaseModel, doubts: Mapping[str, Doubt]) -> None:
    """Each key of an entry's ``doubts`` names numbers of the entry (a path or a glob), and each stated range holds
    the value the data gives (``ValueError``, one line, otherwise)."""
    if not doubts:
        return
    numbers = entry_numbers(entry)
    for key, doubt in doubts.items():
        matched = [path for path in numbers if fnmatch.fnmatchcase(path, key)]
        if not matched:
            sample = ", ".join(list(numbers)[:6])
            raise ValueError(f"doubts: {key!r} names no number of this entry (its numbers: {sample}"
                             f"{', …' if len(numbers) > 6 else ''})")
        if doubt.range is not None:
            low, high = doubt.range
            for path in matched:
                value = numbers[path]
                if (low is not None and value < low) or (high is not None and value > high):
                    raise ValueError(f"doubts: {key!r} range [{low}, {high}] does not hold {path}'s value {value:g}")


@dataclass(frozen=True)
class FigureNote:
    """What the data says of a figure: how sure it is and where it came from."""

    status: str = "sourced"  # "placeholder", "decision" (picked between sources), "sourced" or "rule"
    source: str = ""
    range: tuple[float | None, float | None] | None = None  # the values the data's sources allow (an end may be open)
    confidence: str | None = None
    doubt: str | None = None  # the data's note on the doubt (the sources' values)

    @property
    def doubted(self) -> bool:
        """Whether the data states a range or a confidence for the figure."""
        return self.range is not None or self.confidence is not None


@dataclass(frozen=True)
class Figure:
    """One number of the data (or a numeric house rule): its path, value, schema bounds and note."""

    path: str
    value: float
    whole: bool
    low: float | None
    high: float | None
    note: FigureNote
    address: tuple[Step, ...] = ()  # where it lives in the data set: (kind, entry id, field, …); () for a rule
    table: str | None = None  # a rule's settings table (``house_rules``); None for a data figure

    @property
    def is_rule(self) -> bool:
        """A house rule or variant rather than a data figure."""
        return self.table is not None

    def record(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"path": self.path, "value": self.value, "whole": self.whole, "bounds": [self.low, self.high],
                "status": self.note.status, "source": self.note.source,
                "range": list(self.note.range) if self.note.range else None, "confidence": self.note.confidence,
                "doubt": self.note.doubt}


def _bounds(metadata: Sequence[Any]) -> tuple[float | None, float | None]:
    """The least and greatest value a field's constraints allow (``gt``/``lt`` on whole numbers become ±1)."""
    low = high = None
    for m in metadata:
        if isinstance(m, at.Ge):
            low = m.ge
        elif isinstance(m, at.Gt):
            low = m.gt
        elif isinstance(m, at.Le):
            high = m.le
        elif isinstance(m, at.Lt):
            high = m.lt
        elif isinstance(m, at.Interval):
            low = m.ge if m.ge is not None else m.gt
            high = m.le if m.le is not None else m.lt
    return low, high


def _strict(metadata: Sequence[Any]) -> tuple[bool, bool]:
    """Whether the lower and upper bounds are strict (``gt``/``lt``)."""
    low = any(isinstance(m, at.Gt) or isinstance(m, at.Interval) and m.gt is not None for m in metadata)
    high = any(isinstance(m, at.Lt) or isinstance(m, at.Interval) and m.lt is not None for m in metadata)
    return low, high


def _element_metadata(annotation: Any) -> list[Any]:
    """Constraints on the items of a list or table annotation (``list[Annotated[int, Field(ge=0)]]``)."""
    found: list[Any] = []
    for arg in typing.get_args(annotation):
        if typing.get_origin(arg) is typing.Annotated:
            for extra in typing.get_args(arg)[1:]:
                found.extend(getattr(extra, "metadata", [extra]))
        else:
            found.extend(_element_metadata(arg))
    return found


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _label(step: Step) -> str:
    return str(step)


def _list_keys(items: Sequence[Any]) -> list[Step]:
    """How a list's items are named in a path: their ``id`` when every item has a distinct one, else positions."""
    ids = [getattr(item, "id", None) for item in items]
    if ids and all(isinstance(i, str) for i in ids) and len(set(ids)) == len(ids):
        return ids  # type: ignore[return-value]
    return list(range(len(items)))


@dataclass(frozen=True)
class _Found:
    """A number found in the data: its address, the models above it (nearest last) and their field names."""

    address: tuple[Step, ...]
    path: str
    value: float
    metadata: tuple[Any, ...]
    chain: tuple[BaseModel, ...]
    names: tuple[str, ...]  # the field of each model of ``chain`` on the way down
    root: str = ""  # the path of the entry (or loose model) it belongs to

    @property
    def relative(self) -> str:
        """The path inside the entry (what an entry's ``doubts`` keys name)."""
        return self.path[len(self.root) + 1:]


def _walk(value: Any, address: tuple[Step, ...], path: str, metadata: Sequence[Any],
          chain: tuple[BaseModel, ...], names: tuple[str, ...]) -> Iterator[_Found]:
    if _is_number(value):
        yield _Found(address, path, float(value), tuple(metadata), chain, names)
    elif isinstance(value, Doubt):
        return  # the data's notes on its figures are not figures
    elif isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            child = getattr(value, name)
            meta = (list(info.metadata) or _element_metadata(info.annotation)) if _is_number(child) \
                else _element_metadata(info.annotation)
            yield from _walk(child, (*address, name), f"{path}.{name}", meta, (*chain, value), (*names, name))
    elif isinstance(value, list | tuple):
        for key, item in zip(_list_keys(value), value, strict=True):
            yield from _walk(item, (*address, key if isinstance(key, int) else ("id", key)), f"{path}.{key}",
                             metadata, chain, names)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _walk(item, (*address, ("key", key)), f"{path}.{key}", metadata, chain, names)


def _kind_homes(data: Any, kinds: Sequence[str]) -> dict[str, tuple[str, str | None]]:
    """Where each kind's entries live in the data set: (attribute, key in that attribute's table or None), for
    the kinds whose entries are stored (not computed on demand)."""
    homes: dict[str, tuple[str, str | None]] = {}
    fields = [f.name for f in dataclasses.fields(data)] if dataclasses.is_dataclass(data) else list(vars(data))
    for kind in kinds:
        try:
            entries = data.entries(kind)
        except KeyError:
            continue
        for name in fields:
            held = getattr(data, name)
            if held is entries:
                homes[kind] = (name, None)
            elif isinstance(held, Mapping) and held.get(kind) is entries:
                homes[kind] = (name, kind)
    return homes


def _loose_models(data: Any, homes: Mapping[str, tuple[str, str | None]]) -> list[str]:
    """Attributes of the data set that hold one model outside the kinds (a deck's settings)."""
    if not dataclasses.is_dataclass(data):
        return []
    taken = {name for name, _ in homes.values()}
    return [f.name for f in dataclasses.fields(data) if f.name not in taken and isinstance(getattr(data, f.name), BaseModel)]


class Figures:
    """The figures of one loaded data set, and copies of it with figures moved."""

    def __init__(self, data: Any, kinds: Sequence[str], support: Any) -> None:
        self.data = data
        self.homes = _kind_homes(data, kinds)
        self.loose = _loose_models(data, self.homes)
        self.support = support
        self.figures: dict[str, Figure] = {}
        for found in self._found():
            whole = isinstance(self._value_at(found.address), int)
            low, high = _bounds(found.metadata)
            strict_low, strict_high = _strict(found.metadata)
            if whole:
                low = None if low is None else math.floor(low) + (1 if strict_low and low == math.floor(low) else 0)
                high = None if high is None else math.ceil(high) - (1 if strict_high and high == math.ceil(high) else 0)
            note = getattr(support, "figure_note", entry_note)(found.chain, found.names, found.relative)
            self.figures[found.path] = Figure(found.path, found.value, whole, low, high, note, found.address)

    def _found(self) -> Iterator[_Found]:
        for kind in self.homes:
            for entry_id, model in self.data.entries(kind).items():
                root = f"{kind}.{entry_id}"
                for found in _walk(model, (kind, ("key", entry_id)), root, (), (), ()):
                    yield dataclasses.replace(found, root=root)
        for name in self.loose:
            for found in _walk(getattr(self.data, name), (name,), name, (), (), ()):
                yield dataclasses.replace(found, root=name)

    def _value_at(self, address: tuple[Step, ...]) -> Any:
        value = self._root(address[0])
        for step in address[1:]:
            value = _child(value, step)
        return value

    def _root(self, head: Step, data: Any = None) -> Any:
        data = self.data if data is None else data
        if head in self.homes:
            return data.entries(head)
        return getattr(data, str(head))

    def select(self, patterns: Sequence[str]) -> list[Figure]:
        """Figures whose path matches any glob (``*`` spans dots), or ``placeholders`` / ``all``; in data order."""
        chosen = []
        for figure in self.figures.values():
            for pattern in patterns:
                if pattern == "all" or pattern == "placeholders" and figure.note.status == "placeholder" \
                        or fnmatch.fnmatchcase(figure.path, pattern):
                    chosen.append(figure)
                    break
        return chosen

    def moved(self, changes: Mapping[str, float], refused: list[str] | None = None) -> Any:
        """A copy of the data set with each figure (by path) set to its new value, entries re-validated where the
        schema allows: ``ValueError`` naming the figure if a value breaks it or, given a ``refused`` list, that
        entry left as it was and the reason appended."""
        data = self.data
        by_entry: dict[tuple[Step, ...], dict[str, float]] = {}
        for path, value in changes.items():
            figure = self.figures[path]
            by_entry.setdefault(figure.address[:2] if figure.address[0] in self.homes else figure.address[:1],
                                {})[path] = value
        for head, group in by_entry.items():
            root = self._root(head[0], data)  # the copy so far: entries of one kind moved one after another
            model = root if len(head) == 1 else root[_key(head[1])]
            original = model
            for path, value in group.items():
                figure = self.figures[path]
                model = _set(model, figure.address[len(head):], int(round(value)) if figure.whole else float(value))
            try:
                _revalidate(original, model, ".".join(map(_label, [_key(h) for h in head])))
            except ValueError as exc:
                if refused is None:
                    raise
                refused.append(str(exc))
                continue
            if len(head) == 1:
                data = dataclasses.replace(data, **{str(head[0]): model})
            else:
                attribute, key = self.homes[str(head[0])]
                entries = {**root, _key(head[1]): model}
                if key is None:
                    data = dataclasses.replace(data, **{attribute: entries})
                else:
                    data = dataclasses.replace(data, **{attribute: {**getattr(data, attribute), key: entries}})
        return data


def _key(step: Step) -> Any:
    return step[1] if isinstance(step, tuple) else step


def _child(value: Any, step: Step) -> Any:
    if isinstance(step, int):
        return value[step]
    if isinstance(step, tuple):
        kind, key = step
        if kind == "id":
            return next(item for item in value if getattr(item, "id", None) == key)
        return value[key]
    return getattr(value, step)


def _set(value: Any, steps: tuple[Step, ...], new: Any) -> Any:
    """``value`` with the number at ``steps`` replaced (models copied, never changed in place)."""
    if not steps:
        return new
    step, rest = steps[0], steps[1:]
    if isinstance(value, BaseModel):
        return value.model_copy(update={str(step): _set(getattr(value, str(step)), rest, new)})
    if isinstance(value, list | tuple):
        if isinstance(step, tuple):
            index = next(i for i, item in enumerate(value) if getattr(item, "id", None) == step[1])
        else:
            index = step
        items = list(value)
        items[index] = _set(items[index], rest, new)
        return type(value)(items) if isinstance(value, tuple) else items
    key = _key(step)
    return {**value, key: _set(value[key], rest, new)}


def _revalidate(original: BaseModel, changed: BaseModel, path: str) -> None:
    """Check a changed entry against its schema (cross-field rules too) when the unchanged entry survives the
    same round trip: some schemas read notations that a dump does not write back, and those are trusted."""
    kind = type(original)
    try:
        kind.model_validate(original.model_dump())
    except (ValidationError, ValueError, TypeError):
        return
    try:
        kind.model_validate(changed.model_dump())
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join([path, *map(str, first["loc"])])
        raise ValueError(f"{where}: the moved value breaks the schema ({first['msg']})") from None


def entry_note(chain: Sequence[BaseModel], names: Sequence[str], relative: str = "") -> FigureNote:
    """A figure's note from the conventions every game's data follows: the nearest ``source``; a placeholder where
    a model above it says ``placeholder`` (bool or reason; ``placeholder_fields`` narrows it to the fields named,
    a ``placeholders`` table to its keys); a ``decision`` when the figure was picked between sources; range and
    confidence from the entry's ``doubts`` (the key naming ``relative`` exactly, else the first glob matching it)."""
    source, status = "", "sourced"
    for depth in range(len(chain) - 1, -1, -1):
        model, name = chain[depth], names[depth]
        if not source and isinstance(getattr(model, "source", None), str):
            source = model.source
        marks = getattr(model, "placeholders", None)
        if isinstance(marks, Mapping) and name in marks:
            status = "placeholder"
        flag = getattr(model, "placeholder", None)
        if flag:
            narrowed = getattr(model, "placeholder_fields", None)
            if not narrowed or name in narrowed:
                status = "placeholder"
        if status == "sourced" and getattr(model, "decision", None):
            status = "decision"
    doubt = _doubt(chain[0] if chain else None, relative)
    if doubt is None:
        return FigureNote(status=status, source=source)
    return FigureNote(status=status, source=source, range=doubt.range, confidence=doubt.confidence, doubt=doubt.note)


def _doubt(entry: BaseModel | None, relative: str) -> Doubt | None:
    doubts = getattr(entry, "doubts", None)
    if not isinstance(doubts, Mapping) or not relative:
        return None
    if relative in doubts:
        return doubts[relative]
    return next((d for key, d in doubts.items() if fnmatch.fnmatchcase(relative, key)), None)
