"""Output read at 80 columns (issue 47): the ids a user types (into --set, `dsim data show`) never break across
lines, long listings lead with what matters, and citations point at files that ship."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dsim.cli import app

REPO = Path(__file__).resolve().parents[1]
runner = CliRunner()
NARROW = {"COLUMNS": "80"}


def words(text: str) -> set[str]:
    """Every whitespace-separated word of the output, with the punctuation a listing puts around an id left off."""
    return {w.strip("(),;:·") for line in text.splitlines() for w in line.split()}


@pytest.mark.parametrize("game", ["dstbg", "bloodborne", "dark_maiden"])
def test_data_coverage_leads_with_a_summary_and_keeps_every_id_whole(game: str):
    uses = json.loads(runner.invoke(app, ["data", "--game", game, "coverage", "--json"]).stdout)
    out = runner.invoke(app, ["data", "--game", game, "coverage"], env=NARROW)
    assert out.exit_code == 0 and uses
    lines = out.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    first_rule = next(i for i, line in enumerate(lines) if line.startswith("─"))
    assert any("uses" in line for line in lines[:first_rule])  # the summary table comes before any detail
    seen = words(out.stdout)
    assert all(use["owner_id"] in seen and use["kind"] in seen for use in uses)


def test_data_notes_cite_only_what_ships():
    """The notes cite the reference tables (facts.md, README GAP N), which do not ship: the coverage listing
    names the shipped page that says what each citation means, and that page lists every gap a note cites."""
    out = runner.invoke(app, ["data", "coverage"], env=NARROW).stdout
    page = re.search(r"docs/\S+\.md", " ".join(out.split())).group(0)
    text = (REPO / page).read_text(encoding="utf-8")
    cited = {int(n) for path in (REPO / "data").rglob("*.yaml") for n in re.findall(r"README GAP (\d+)", path.read_text())}
    assert cited and all(re.search(rf"^{n}\. ", text, re.M) for n in cited)
    sections = {s for path in (REPO / "data").rglob("*.yaml") for s in re.findall(r"facts\.md §(\d+)", path.read_text())}
    assert all(f"§{s}" in text for s in sections)
