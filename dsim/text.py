"""Names and labels wrapped between their words, for terminal tables and figures alike, and the small helpers of
messages about what a user typed (no heavy imports)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence

BREAKS = (r"(?<=[+, ])", r"(?<==)", r"(?<=[._])")  # where a label may break, best first


def _pieces(text: str, width: int, level: int = 0) -> list[str]:
    """``text`` cut after its separators (``+``, comma, space), and a piece wider than ``width`` cut further after
    ``=``, then after ``.`` or ``_``, and only then inside a name."""
    if len(text.strip()) <= width:
        return [text]
    if level == len(BREAKS):
        return [text[i:i + width] for i in range(0, len(text), width)]
    parts = [p for p in re.split(BREAKS[level], text) if p]
    return [piece for part in parts for piece in _pieces(part, width, level + 1)]


def wrap_label(label: str, width: int) -> str:
    """``label`` in lines of at most ``width`` characters, broken after a ``+``, a comma or a space (``party=a+b,
    difficulty=hard``) rather than inside a name; a name longer than a line breaks after ``=``, ``.`` or ``_``."""
    lines: list[str] = []
    line = ""
    for piece in _pieces(label, width):
        if line.strip() and len(line + piece.rstrip()) > width:
            lines.append(line.rstrip())
            line = piece.lstrip()
        else:
            line += piece if line.strip() else piece.lstrip()
    if line.strip():
        lines.append(line.rstrip())
    return "\n".join(lines)


def wrap_sentence(text: str, width: int, indent: int = 0) -> list[str]:
    """``text`` in lines of at most ``width`` characters (``indent`` spaces before each line but the first),
    broken only between words: a command or id in backticks stays whole on one line, as does a flag and its
    value (``--policy expert``), so a user can copy it. A single unbreakable piece wider than a line stands alone."""
    words = re.findall(r"\S*`[^`]*`\S*|--\S+ (?!-)\S+|\S+", text)
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = " " * indent + word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line] if line else lines


def unknown(what: str, given: object, known: Iterable[str], listing: str = "") -> str:
    """``unknown boss 'gargoyl' (did you mean gargoyle? known: …)``: the message for an id that is not there,
    with the closest ids first; ``listing`` names the command that lists them (for lists too long to print)."""
    known = sorted(known)
    close = difflib.get_close_matches(str(given), known, n=3)
    hints = [f"did you mean {', '.join(close)}?"] if close else []
    hints.append(f"see `{listing}`" if listing else f"known: {', '.join(known)}")
    return f"unknown {what} {given!r} ({' '.join(hints)})"


def count(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1 or −1: ``count(1, "soul")`` is "1 soul", ``count(2, "soul")`` "2 souls"."""
    return f"{n:,} {noun}{'' if abs(n) == 1 else 's'}"


def repeated(items: Sequence[object]) -> int | None:
    """Index of the first item equal to an earlier one (an input given twice), or ``None``."""
    return next((i for i, item in enumerate(items) if item in items[:i]), None)
