"""Game-agnostic data validation: collect every problem in data files and report each on one line.

A :class:`Problem` names the file, the entry (by id), the field path and what was expected, e.g.
``data/dstbg/bosses/gargoyle.yaml: card "tail_whip": field "halves[0].dodge": expected an integer, got 'two'``.
Loaders collect problems and raise one :class:`DataError`; the CLI turns it into exit status 1.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

if TYPE_CHECKING:  # pydantic and yaml load on first use: the CLI imports this module and `dsim --help` stays light
    import yaml
    from pydantic import ValidationError

_IRREGULAR_SINGULAR = {"dice": "die", "halves": "half"}
_SCALARS = (str, int, float, bool, type(None))


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a data file."""

    file: str
    entry: str = ""
    field: str = ""
    message: str = ""

    def __str__(self) -> str:
        parts = [self.file]
        if self.entry:
            parts.append(self.entry)
        if self.field:
            parts.append(f'field "{self.field}"')
        parts.append(self.message)
        return ": ".join(parts)


class DataError(Exception):
    """Every problem found while loading a data set; ``str()`` gives one line per problem."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


def display_path(path: Path) -> str:
    """A path as users should see it: relative to the working directory when below it."""
    return _display_path(str(path), os.getcwd())


@lru_cache(maxsize=1024)
def _display_path(path: str, cwd: str) -> str:
    try:
        return str(Path(path).resolve().relative_to(Path(cwd).resolve()))
    except (ValueError, OSError, RuntimeError):  # not below cwd; a symlink loop (RuntimeError before Python 3.13)
        return path


def singular(key: str) -> str:
    """Entry label for an element of a list field: ``items`` → ``item``, ``enemies`` → ``enemy``."""
    if key in _IRREGULAR_SINGULAR:
        return _IRREGULAR_SINGULAR[key]
    if key.endswith("ies"):
        return key[:-3] + "y"
    if key.endswith("sses"):
        return key[:-2]
    return key[:-1] if key.endswith("s") else key


def entry_label(kind: str, entry_id: object, index: int | None = None) -> str:
    """``item "long_sword"``, or ``item #3`` when the entry has no usable id."""
    if isinstance(entry_id, str) and entry_id:
        return f'{singular(kind)} "{entry_id}"'
    return f"{singular(kind)} #{index}" if index is not None else singular(kind)


@lru_cache(maxsize=1)
def _unique_key_loader() -> type:
    """Safe YAML loader (libyaml's when available: ~8x faster) that rejects a key given twice in one mapping
    (a silent overwrite otherwise); built on first use so that importing this module does not import yaml."""
    import yaml

    class UniqueKeyLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
        def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
            seen: set[Any] = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=deep)
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"key {key!r} appears twice in one mapping", key_node.start_mark
                    )
                seen.add(key)
            return super().construct_mapping(node, deep=deep)

    return UniqueKeyLoader


def read_yaml(path: Path) -> Any:
    """Parse one YAML file; syntax errors, a path that is not a regular file (a pipe would block forever) and an
    empty file (no entries: the same refusal in every game) become a :class:`DataError` naming the file."""
    from dsim.files import NotARegularFile, read_regular

    try:
        text = read_regular(path).decode("utf-8")
    except NotARegularFile as err:
        raise DataError([Problem(display_path(path), message=str(err))]) from None
    except UnicodeDecodeError as err:
        raise DataError([Problem(display_path(path), message=f"not UTF-8 text: byte 0x{err.object[err.start]:02x} at offset {err.start} (save it as UTF-8)")]) from None
    import yaml

    try:
        content = yaml.load(text, Loader=_unique_key_loader())  # a SafeLoader subclass: safe
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        what = err.problem or err.context or "invalid YAML"
        raise DataError([Problem(display_path(path), message=f"YAML syntax error at {where}{what}")]) from None
    except yaml.YAMLError as err:
        raise DataError([Problem(display_path(path), message=f"YAML syntax error: {err}")]) from None
    if content is None:
        raise DataError([Problem(display_path(path), message="the file is empty (no entries); add entries, "
                                                                  "or delete the file to keep the shipped ones")])
    return content


def _expected(error: Mapping[str, Any]) -> str:
    """What the field should have been, from one pydantic error."""
    kind, ctx = error["type"], error.get("ctx") or {}
    messages = {
        "missing": "required field is missing",
        "extra_forbidden": "unknown field (check the spelling)",
        "int_parsing": "expected an integer",
        "int_type": "expected an integer",
        "int_from_float": "expected a whole number",
        "float_parsing": "expected a number",
        "bool_parsing": "expected true or false",
        "bool_type": "expected true or false",
        "string_type": "expected text",
        "list_type": "expected a list",
        "tuple_type": "expected a list",
        "dict_type": "expected a mapping",
        "model_type": "expected a mapping",
        "model_attributes_type": "expected a mapping",
        "string_too_short": "expected non-empty text",
        "union_tag_not_found": "required field is missing",
    }
    if kind in messages:
        return messages[kind].format(**ctx)
    if kind == "greater_than_equal":
        return f"expected a value ≥ {ctx['ge']}"
    if kind == "less_than_equal":
        return f"expected a value ≤ {ctx['le']}"
    if kind == "too_short":
        return f"expected at least {ctx['min_length']} element(s)"
    if kind == "too_long":
        return f"expected at most {ctx['max_length']} element(s)"
    if kind == "literal_error":
        return f"expected one of {ctx['expected']}"
    if kind == "union_tag_invalid":
        return f"expected one of {ctx['expected_tags']}, got {ctx['tag']!r}"
    if kind == "string_pattern_mismatch":
        return f"expected text matching {ctx['pattern']}"
    if kind == "value_error":
        return str(ctx.get("error", error["msg"]))
    return str(error["msg"])


def _describe(error: Mapping[str, Any]) -> str:
    """``expected …, got …`` (the input is shown only when it is a plain value)."""
    message = _expected(error)
    value = error.get("input")
    if error["type"] not in ("missing", "extra_forbidden") and isinstance(value, _SCALARS):
        return f"{message}, got {value!r}"
    return message


def _field_path(loc: Sequence[str | int]) -> str:
    """``("halves", 0, "dodge")`` → ``halves[0].dodge``."""
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def _locate(root: Any, loc: Sequence[str | int], label: str) -> tuple[str, str]:
    """Walk ``loc`` through the raw data: the innermost list element with an ``id`` names the entry.

    Union tags that pydantic inserts into ``loc`` (e.g. the ``op`` value of a step) are skipped.
    """
    node, rest = root, []
    for part in loc:
        if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            parent_key = rest[-1] if rest and isinstance(rest[-1], str) else None
            node = node[part]
            element_id = node.get("id") if isinstance(node, dict) else None
            if parent_key is not None and isinstance(element_id, str):
                label, rest = entry_label(parent_key, element_id), []
                continue
            rest.append(part)
        elif isinstance(node, dict) and part in node:
            node = node[part]
            rest.append(part)
        elif isinstance(node, dict) and part in node.values():
            continue  # a discriminated-union tag, not a field
        else:
            node = None
            rest.append(part)
    return label, _field_path(rest)


def problems_from_validation(error: ValidationError, file: str, raw: Any, label: str) -> list[Problem]:
    """Translate a pydantic error raised while validating ``raw`` (one entry) into problems.

    ``label`` names the entry (see :func:`entry_label`); problems inside a nested list element that
    has an ``id`` (e.g. a boss's card) are attributed to that element instead.
    """
    problems = []
    for err in error.errors():
        loc = err["loc"]
        if err["type"] in ("union_tag_invalid", "union_tag_not_found"):
            loc = (*loc, str(err["ctx"]["discriminator"]).strip("'"))  # name the tag field itself
        entry, field = _locate(raw, loc, label)
        problems.append(Problem(file, entry, field, _describe(err)))
    return problems


@contextmanager
def exit_on_data_error() -> Iterator[None]:
    """For CLI commands: print a :class:`DataError`'s problems to stderr and exit with status 1."""
    try:
        yield
    except DataError as err:
        console = Console(stderr=True, soft_wrap=True, highlight=False)
        for problem in err.problems:
            console.print(str(problem), markup=False)
        console.print(f"{len(err.problems)} problem(s) found.", markup=False)
        raise typer.Exit(1) from None


_ID_RE = re.compile(r"[a-z0-9_]+")


def check_id(value: str) -> str:
    """Ids are snake_case so they are stable keys in files, pool strings, CLI arguments and results."""
    if not _ID_RE.fullmatch(value):
        raise ValueError("expected a snake_case id (a-z, 0-9 and _)")
    return value


def __getattr__(name: str) -> Any:
    """``Id``, the id of a data entry shared by every game's schema (a snake_case string), built when a schema
    first imports it: pydantic costs a tenth of a second that commands reading no data should not pay."""
    if name == "Id":
        from pydantic import AfterValidator, Field

        globals()["Id"] = Annotated[str, AfterValidator(check_id), Field(description="snake_case identifier.")]
        return globals()["Id"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
