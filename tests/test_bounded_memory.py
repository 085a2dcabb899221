"""`compare`, `tune`, `policies compare` and `tune-policy` play in chunks: the same figures as when they held
every play (pinned in tests/golden/chunked_figures.json, written by make_chunked_figures.py before the change)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dsim.cli import app

runner = CliRunner()
DS = ("--party", "knight,warrior", "--encounter", "the_forgotten", "--seed", "4")
BB = ("--game", "bloodborne", "--seed", "4")
DM = ("--game", "dark_maiden", "--policy", "random_legal", "--seed", "4")
CASES: dict[str, tuple[str, ...]] = {
    "dstbg compare": ("compare", *DS, "--setting", "enemy_health_delta=1", "--setting", "enemy_health_delta=-1",
                      "--battles", "300"),
    "dstbg tune": ("tune", *DS, "--rule", "enemy_health_delta", "--target", "0.5", "--battles", "300"),
    "dstbg tune rounds": ("tune", *DS, "--rule", "enemy_health_delta", "--measure", "rounds", "--target", "6",
                          "--tolerance", "0.2", "--battles", "300"),
    "dstbg policies compare": ("policies", "compare", *DS, "--battles", "300"),
    "dstbg tune-policy": ("tune-policy", *DS, "--policy", "careful", "--budget", "1200", "--candidates", "4",
                          "--eta", "2"),
    "bloodborne compare": ("compare", *BB, "--setting", "dream_heals_full=no", "--measure", "first_player_won",
                           "--games", "200"),
    "bloodborne tune": ("tune", *BB, "--rule", "final_boss_health", "--measure", "rounds", "--target", "23",
                        "--low", "0", "--high", "40", "--tolerance", "0.3", "--games", "200"),
    "bloodborne policies compare": ("policies", "compare", *BB, "--policies", "greedy,banker", "--games", "100"),
    "bloodborne tune-policy": ("tune-policy", *BB, "--policy", "banker", "--budget", "600", "--candidates", "4",
                               "--eta", "2"),
    "dark_maiden compare": ("compare", *DM, "--variant", "final_boss", "--games", "300"),
    "dark_maiden tune": ("tune", *DM, "--rule", "lives", "--target", "0.5", "--low", "0", "--high", "40",
                         "--games", "300"),
    "dark_maiden policies compare": ("policies", "compare", "--game", "dark_maiden", "--seed", "4", "--games", "200"),
    "dark_maiden tune-policy": ("tune-policy", "--game", "dark_maiden", "--seed", "4", "--policy", "cautious",
                                "--budget", "600", "--candidates", "4", "--eta", "2"),
}
GOLDEN = Path(__file__).parent / "golden" / "chunked_figures.json"


def _figures(args: tuple[str, ...]) -> dict:
    out = runner.invoke(app, [*args, "--json"])
    assert out.exit_code == 0, out.output + str(out.exception)
    return json.loads(out.stdout)


@pytest.mark.parametrize("name", CASES)
def test_small_counts_give_the_figures_pinned_before_chunking(name):
    assert _figures(CASES[name]) == json.loads(GOLDEN.read_text())[name]
