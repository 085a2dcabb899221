"""The README cannot drift (issue 47): every code block marked ``<!-- checked by tests/test_readme.py -->`` is run
command by command with the counts and seeds it shows, and each output line it shows (``#   …`` under a command)
must be printed by that command, table borders and column padding aside."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dsim.cli import app

README = Path(__file__).resolve().parents[1] / "README.md"
MARK = "<!-- checked by tests/test_readme.py -->"


def shown_examples(text: str) -> list[tuple[str, list[str]]]:
    """(command, the output lines shown under it) of every marked block; a command's own comment (two spaces and a
    ``#``) is not part of it."""
    examples: list[tuple[str, list[str]]] = []
    for block in re.findall(re.escape(MARK) + r"\s*```bash\n(.*?)```", text, re.S):
        for line in block.splitlines():
            if line.startswith("#   ") and examples:
                examples[-1][1].append(line[4:])
            elif line.startswith("dsim "):
                examples.append((re.split(r"\s{2,}#", line)[0].strip(), []))
    return examples


def normal(line: str) -> str:
    """A table row as its cells' text: ``│ a   │ 0.5 │`` and ``a │ 0.5`` both read ``a │ 0.5``."""
    cells = [" ".join(cell.split()) for cell in line.split("│")]
    return " │ ".join(cell for cell in cells if cell)


EXAMPLES = [(command, lines) for command, lines in shown_examples(README.read_text(encoding="utf-8")) if lines]


def test_the_readme_marks_examples_to_check():
    assert len(EXAMPLES) >= 3 and all(command.startswith("dsim ") for command, _ in EXAMPLES)


@pytest.mark.parametrize("command, lines", EXAMPLES, ids=[command for command, _ in EXAMPLES])
def test_a_readme_example_prints_what_the_readme_shows(command: str, lines: list[str]):
    out = CliRunner().invoke(app, shlex.split(command)[1:], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    printed = {normal(line) for line in out.stdout.splitlines()}
    printed_text = " ".join(out.stdout.split())
    for line in lines:
        assert normal(line) in printed or " ".join(line.split()) in printed_text, (line, out.stdout)
