"""A report taller than the terminal goes through the pager; a short one, a file or a pipe is written as it is."""

from __future__ import annotations

import io

import click
import pytest
from rich.console import Console

from dsim.cli import reporting


@pytest.fixture
def paged_text(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    pages: list[str] = []
    monkeypatch.setattr(click, "echo_via_pager", lambda text, color=None: pages.append(text))
    return pages


def _lines(console: Console, n: int) -> None:
    for i in range(n):
        console.print(f"cell {i}", highlight=False)


def test_a_tall_report_on_a_terminal_is_paged(monkeypatch: pytest.MonkeyPatch, paged_text: list[str]) -> None:
    console = Console(file=io.StringIO(), force_terminal=True, height=24, width=80)
    monkeypatch.setattr(reporting, "out_console", console)
    with reporting.paged():
        _lines(reporting.out_console, 300)
    assert len(paged_text) == 1 and "cell 299" in paged_text[0]
    assert console.file.getvalue() == ""


def test_a_short_report_is_printed(monkeypatch: pytest.MonkeyPatch, paged_text: list[str],
                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(reporting, "out_console", Console(file=io.StringIO(), force_terminal=True, height=24))
    with reporting.paged():
        _lines(reporting.out_console, 5)
    assert paged_text == [] and "cell 4" in capsys.readouterr().out


def test_a_file_or_pipe_is_never_paged(monkeypatch: pytest.MonkeyPatch, paged_text: list[str]) -> None:
    out = io.StringIO()
    monkeypatch.setattr(reporting, "out_console", Console(file=out, force_terminal=False, height=24))
    with reporting.paged():
        _lines(reporting.out_console, 300)
    assert paged_text == [] and "cell 299" in out.getvalue()
