"""`dsim tune` on boss battles: boss health brought to a 50% win rate for two core bosses (issue 7)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from dsim.cli import app

runner = CliRunner()


@pytest.mark.parametrize("boss", ["gargoyle", "winged_knight"])
def test_tune_boss_health_hits_half_win_rate_within_tolerance(boss):
    out = runner.invoke(app, ["tune", "--policy", "baseline", "--party", "knight,warrior,herald,assassin", "--boss", boss,
                              "--rule", "boss_health_delta", "--low", "-25", "--high", "0", "--target", "0.5",
                              "--tolerance", "0.06", "--battles", "1500", "--seed", "3", "--json"])
    assert out.exit_code == 0, out.stdout
    res = json.loads(out.stdout)
    assert res["hit"] and abs(res["win_rate"] - 0.5) <= 0.06
    assert -25 <= res["value"] < 0  # starting gear needs a weaker boss to win half the time
