"""Progress reaches a log or a pipe too (issue 47): where no bar can be drawn, a plain line every few seconds."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.progress import BarColumn, TextColumn

from dsim import clikit


def _progress(console: Console) -> clikit.LoggedProgress:
    return clikit.LoggedProgress(TextColumn("{task.description}"), BarColumn(), console=console)


def test_a_non_terminal_gets_a_line_with_count_and_share(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clikit, "LOG_EVERY_S", 0.0)
    out = io.StringIO()
    with _progress(Console(file=out, force_terminal=False)) as bar:
        task = bar.add_task("battles", total=4_000)
        bar.advance(task, 1_000)
        bar.update(task, completed=3_000)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("battles 1,000/4,000 (25%)")
    assert lines[1].startswith("battles 3,000/4,000 (75%)")


def test_lines_are_spaced_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clikit, "LOG_EVERY_S", 3_600.0)
    out = io.StringIO()
    with _progress(Console(file=out, force_terminal=False)) as bar:
        task = bar.add_task("games", total=10)
        for _ in range(10):
            bar.advance(task)
    assert "/10 (" not in out.getvalue()  # no line (rich draws its bar once, at the end)


def test_a_terminal_gets_the_bar_not_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clikit, "LOG_EVERY_S", 0.0)
    out = io.StringIO()
    with _progress(Console(file=out, force_terminal=True, width=80)) as bar:
        task = bar.add_task("battles", total=4)
        bar.advance(task, 2)
    assert "2/4 (50%)" not in out.getvalue()


def test_a_disabled_bar_stays_silent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clikit, "LOG_EVERY_S", 0.0)
    out = io.StringIO()
    progress = clikit.LoggedProgress(TextColumn("{task.description}"), console=Console(file=out), disable=True)
    with progress as bar:
        bar.advance(bar.add_task("battles", total=4), 2)
    assert out.getvalue() == ""
