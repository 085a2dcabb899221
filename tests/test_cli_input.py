"""Values a user can type get a one-line error, never a traceback (the cases the shared options now bound)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from dsim.cli import app

runner = CliRunner()
BASE = ["run", "--party", "knight", "--encounter", "the_forgotten", "--battles", "10"]


@pytest.mark.parametrize("extra, words", [
    (["--seed", "-1"], "--seed"),
    (["--seed", "99999999999999999999999"], "--seed"),
    (["--battles", "100000000000000"], "--battles"),
    (["--gravestones", "2"], "--gravestones counts a boss's revealed behaviour cards: it needs --boss"),
    (["--set", "boss_health_delta=100000000000"], "house rule 'boss_health_delta' takes a whole number from -10,000"),
    (["--set", "max_rounds=99999"], "variant 'max_rounds' takes a whole number from 0 to 10000"),
    (["--set", "nonsense"], "--set: expected variant_id=value"),
])
def test_bad_values_end_with_a_clear_error(extra: list[str], words: str) -> None:
    out = runner.invoke(app, [*BASE, *extra])
    assert out.exit_code in (1, 2), out.output  # 1: our error line, 2: Typer's usage error
    assert isinstance(out.exception, SystemExit) and "Traceback" not in out.output
    assert words in " ".join(out.output.split()), out.output
