"""Write ``chunked_figures.json``: the JSON of small `compare`, `tune`, `policies compare` and `tune-policy` runs
in every game (tests/test_bounded_memory.py pins them). First written before those commands played in chunks; rewritten
only when a rules change or a new policy changes what they print (the chunked code then prints the pinned figures bit
for bit, but the last bits of normal intervals of numeric measures)."""

import json
import sys
from pathlib import Path

from typer.testing import CliRunner

from dsim.cli import app

sys.path.insert(0, str(Path(__file__).parents[2]))
from tests.test_bounded_memory import CASES  # noqa: E402

runner = CliRunner()
figures = {}
for name, args in CASES.items():
    out = runner.invoke(app, [*args, "--json"])
    assert out.exit_code == 0, (name, out.output)
    figures[name] = json.loads(out.stdout)
Path(__file__).with_name("chunked_figures.json").write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
