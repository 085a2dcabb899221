"""Names and labels wrapped between their words, for terminal tables and figures alike (no heavy imports)."""

from __future__ import annotations

import re

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
