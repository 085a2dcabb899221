"""Terminal tables that fit their width: figures never cut, names wrapped between their words.

Rich shrinks a too-wide table by folding any column, inside a word or a number, and crops what still does
not fit; these helpers decide every column's width first.
"""

from __future__ import annotations

import textwrap

from rich.table import Table

from dsim.text import wrap_label

Columns = list[tuple[str, list[str]]]  # (header, one value per row) per column
PROSE_LEAST = 20  # a sentence column keeps this width (a few words a line) before the names give up theirs


def _fit(natural: list[int], least: list[int], room: int, first: int = 0) -> list[int] | None:
    """Column widths summing to at most ``room``: the natural ones, the widest cut first (among the last ``first``
    columns while they can give), none below its least; ``None`` when even the least widths do not fit."""
    if sum(least) > room:
        return None
    widths = list(natural)
    while sum(widths) > room:
        cut = [k for k in range(len(widths)) if widths[k] > least[k]]
        cut = [k for k in cut if k >= len(widths) - first] or cut
        i = max(cut, key=lambda k: widths[k])
        widths[i] -= 1
    return widths


def fitted_table(title: str, names: Columns, figures: Columns, width: int, least: int,
                 prose: int = 0, prose_least: int = PROSE_LEAST) -> Table | None:
    """A table that fits ``width`` columns without cutting anything, or ``None``: ``figures`` columns keep the width
    of their widest value (headers wrap between words), ``names`` columns (settings, measures) give up width,
    the widest first, down to ``least`` and wrap between the words of a name; the last ``prose`` names (sentences,
    not ids to type) give up their width first, down to ``prose_least``. Each column is a (header, values)."""
    def natural(header: str, values: list[str], words: bool) -> int:
        parts = [len(w) for w in header.split()] if words else [len(header)]
        return max(parts + [len(line) for value in values for line in value.split("\n")])

    room = width - 1 - 3 * (len(names) + len(figures))  # a border and two spaces of padding each
    wanted = [natural(h, v, False) for h, v in names]
    fixed = [natural(h, v, False) for h, v in figures]  # each header on one line, if everything fits so
    widths = wanted if sum(wanted) + sum(fixed) <= room else None
    if widths is None:
        fixed = [natural(h, v, True) for h, v in figures]
        floor = [prose_least if k >= len(wanted) - prose else least for k in range(len(wanted))]
        widths = _fit(wanted, [min(w, f) for w, f in zip(wanted, floor)], room - sum(fixed), prose)
    if widths is None:
        return None
    if widths == wanted:  # width left over: the fewest header lines it buys, the same for every figure
        for lines in range(1, max((len(h.split()) for h, _ in figures), default=1)):
            need = [next(w for w in range(f, max(f, len(h)) + 1) if len(textwrap.wrap(h, w)) <= lines)
                    for (h, _), f in zip(figures, fixed)]
            if sum(need) <= room - sum(widths):
                fixed = need
                break
    table = Table(title=wrap_label(title, width))
    for (header, _), w in zip(names, widths):
        table.add_column(wrap_label(header, w), width=w, overflow="fold")
    for (header, _), w in zip(figures, fixed):
        table.add_column(header, justify="right", width=w, overflow="fold")
    columns = [[wrap_label(v, w) for v in values] for (_, values), w in zip(names, widths)] + [v for _, v in figures]
    for row in zip(*columns):
        table.add_row(*row)
    return table


def squeezed(title: str, names: Columns, figures: Columns, width: int, prose: int = 0) -> Table:
    """:func:`fitted_table` with names cut to 4 columns, or to 1 (with ``prose``: ids kept 12 wide while the
    sentences go down to 8 first); on a terminal narrower still, rich folds what it must."""
    floors = ((12, PROSE_LEAST), (12, 8), (6, 8), (4, 4), (1, 1)) if prose else ((4, 4), (1, 1))  # (names, prose)
    table = next((t for least, prose_least in floors
                  if (t := fitted_table(title, names, figures, width, least, prose, prose_least)) is not None), None)
    if table is None:
        table = Table(title=title)
        for header, _ in names + figures:
            table.add_column(header, overflow="fold")
        for row in zip(*(values for _, values in names + figures)):
            table.add_row(*row)
    return table
