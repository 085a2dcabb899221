"""The shipped notebooks run end to end (nbclient) on a few hundred battles per cell (issue 6)."""

from __future__ import annotations

import nbformat
import pytest
from nbclient import NotebookClient

from dsim.paths import REPO_ROOT

NOTEBOOKS = REPO_ROOT / "notebooks"


def _execute(name: str, monkeypatch: pytest.MonkeyPatch) -> nbformat.NotebookNode:
    """Run a notebook in a fresh kernel (which inherits the environment) and return it with outputs."""
    monkeypatch.setenv("DSIM_NOTEBOOK_BATTLES", "300")
    book = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    NotebookClient(book, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    return book


def _outputs(book: nbformat.NotebookNode) -> list[dict]:
    return [out for cell in book.cells if cell.cell_type == "code" for out in cell.outputs]


def test_quick_start_runs_a_sweep_and_draws_two_figures(monkeypatch):
    outputs = _outputs(_execute("quick_start", monkeypatch))
    text = "".join(out.get("text", "") for out in outputs)
    assert "45 cells x 300 battles" in text
    assert sum("image/png" in out.get("data", {}) for out in outputs) == 2
    assert any("cemetery_of_ash" in out.get("data", {}).get("text/html", "") for out in outputs)


def test_house_rule_study_pairs_battles_and_checks_the_null_case(monkeypatch):
    outputs = _outputs(_execute("house_rule_study", monkeypatch))
    text = "".join(out.get("text", "") for out in outputs)
    assert "all 300 paired battles end the same way without the overlay" in text
    assert "cells have battles that end differently under the two readings" in text
    assert sum("image/png" in out.get("data", {}) for out in outputs) == 1
