"""`dsim run` / `dsim explain` end to end, including thread-count independence (design §5)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

ARGS = ["run", "--party", "knight,warrior", "--encounter", "the_forgotten", "--battles", "4000", "--seed", "9", "--json"]


def _run(threads: int) -> dict:
    env = dict(os.environ, NUMBA_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, "-m", "dsim", *ARGS], env=env, capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    result.pop("battles_per_s")
    return result


def test_run_json_bit_identical_across_thread_counts():
    one, two = _run(1), _run(2)
    assert one == two
    assert one["battles"] == 4000 and 0 <= one["ci95"][0] <= one["win_rate"] <= one["ci95"][1] <= 1


def test_explain_json_lines_have_round_actor_event_dice_state():
    out = subprocess.run([sys.executable, "-m", "dsim", "explain", "--party", "knight", "--encounter", "ruined_keep",
                          "--index", "2", "--json"], capture_output=True, text=True, check=True)
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert lines and all({"round", "actor", "event", "dice", "state"} <= set(ev) for ev in lines)
    assert lines[-1]["event"] == "end"


def test_explain_json_writes_the_policy_decisions_only_with_decisions():
    """--json wrote every decision event although --decisions said it "also" shows them (audit, session 14)."""
    from typer.testing import CliRunner

    from dsim.cli import app

    args = ["explain", "--party", "knight", "--encounter", "ruined_keep", "--index", "2", "--json"]
    plain, every = (CliRunner().invoke(app, args + extra).stdout.splitlines() for extra in ([], ["--decisions"]))
    events = [json.loads(line)["event"] for line in every]
    assert "decision" in events and [e for e in events if e != "decision"] == [json.loads(x)["event"] for x in plain]


def test_run_rejects_unknown_character_cleanly():
    out = subprocess.run([sys.executable, "-m", "dsim", *ARGS[:2], "knight,nobody", *ARGS[3:]], capture_output=True, text=True)
    assert out.returncode == 1
    assert "nobody" in out.stderr and "Traceback" not in out.stderr


def test_run_boss_reports_heat_up_boss_health_and_cards():
    """Boss battles add R-12.6 heat-up (share of battles, mean round), boss health left and cards drawn;
    a weakened Gargoyle heats up in more battles and ends with less health than the printed one."""
    def boss_run(delta: int) -> dict:
        out = subprocess.run([sys.executable, "-m", "dsim", "run", "--party", "knight,warrior", "--boss", "gargoyle",
                              "--loadout", "mid_game", "--set", f"boss_health_delta={delta}", "--battles", "3000",
                              "--json"], capture_output=True, text=True, check=True)
        return json.loads(out.stdout)

    printed, weak = boss_run(0), boss_run(-8)
    for res in (printed, weak):
        assert 0 < res["heatup_rate"] <= 1 and res["mean_heatup_round"] >= 1
        assert res["mean_cards_drawn"] >= res["mean_rounds"] - 1  # one card per enemy turn
    assert weak["heatup_rate"] > printed["heatup_rate"]
    assert weak["mean_boss_health_left"] < printed["mean_boss_health_left"]
    plain = json.loads(subprocess.run([sys.executable, "-m", "dsim", *ARGS], capture_output=True, text=True,
                                      check=True).stdout)
    assert "heatup_rate" not in plain and "mean_boss_health_left" not in plain


def test_run_table_names_the_rules_and_overlay_it_played_under(tmp_path):
    from typer.testing import CliRunner

    from dsim.cli import app

    args = ["run", "--party", "knight", "--encounter", "the_forgotten", "--battles", "50"]
    plain = CliRunner().invoke(app, args)
    assert plain.exit_code == 0 and "rules:" not in plain.stdout and "data overlay" not in plain.stdout
    measures = [line.split("│")[1].strip() for line in plain.stdout.splitlines() if line.startswith("│")]
    assert measures.count("mean rounds") == 1, measures  # once: not hidden, not repeated
    ruled = CliRunner().invoke(app, [*args, "--set", "enemy_health_delta=1", "--set", "bleed_zero_damage=no_trigger",
                                     "--data", str(tmp_path)])
    assert ruled.exit_code == 0, ruled.output
    assert "rules: bleed_zero_damage=no_trigger, enemy_health_delta=1" in ruled.stdout
    assert f"data overlay: {tmp_path}" in " ".join(ruled.stdout.split())


def test_titles_count_one_play_in_the_singular():
    """`--games 1` printed "1 games" (audit, session 15)."""
    from typer.testing import CliRunner

    from dsim.cli import app
    from dsim.text import count

    assert (count(1, "game"), count(2, "game"), count(100000, "battle")) == ("1 game", "2 games", "100,000 battles")
    out = CliRunner().invoke(app, ["run", "--party", "knight", "--encounter", "the_forgotten", "--battles", "1"])
    text = " ".join(out.stdout.split())  # the title may wrap
    assert out.exit_code == 0 and "— 1 battle, policy" in text
    assert not re.search(r"(?<![\d,.])1 battles", text)  # (a throughput such as "1,591 battles/s" is fine)


def test_run_says_which_policy_and_gear_produced_the_figure():
    """Issue 47: the policy and the starting gear decide the answer unseen (The Forgotten 0.686 with the baseline,
    0.942 with the tactician), so `dsim run` plays the strongest scripted policy by default, names it and the gear,
    and hints at the flags that change them: a weaker policy hears of the stronger one, the strongest of the
    searcher."""
    from typer.testing import CliRunner

    from dsim.cli import app
    from dsim.games import get_game

    game = get_game("dstbg")
    assert game.default_policy == game.strongest_policy == "veteran"
    runner = CliRunner()
    base = ["run", "--party", "knight,warrior", "--encounter", "the_forgotten", "--battles", "50"]
    plain = " ".join(runner.invoke(app, base, env={"COLUMNS": "80"}).stdout.split())
    assert "policy: veteran (default) · gear: starting equipment (default)" in plain
    assert "hint: --policy expert searches every decision" in plain and "hint: --loadout mid_game or late_game" in plain
    assert "hint: --policy veteran" not in plain
    weaker = " ".join(runner.invoke(app, [*base, "--policy", "baseline"], env={"COLUMNS": "80"}).stdout.split())
    assert "policy: baseline · gear: starting equipment (default)" in weaker
    assert "hint: --policy veteran plays stronger" in weaker and "--policy expert" not in weaker
    geared = " ".join(runner.invoke(app, [*base, "--loadout", "mid_game"], env={"COLUMNS": "80"}).stdout.split())
    assert "gear: mid_game" in geared and "hint: --loadout" not in geared
    replay = " ".join(runner.invoke(app, ["explain", *base[1:5]], env={"COLUMNS": "80"}).stdout.split())
    assert replay.startswith("policy: veteran (default) · gear: starting equipment (default)")


def test_run_hints_keep_commands_and_flags_whole_at_any_width():
    """Issue 47 (fits in 80 columns): a hint wrapped by the terminal broke "(`dsim" / "policies ladder`)"; each
    printed line now holds whole commands in backticks and whole ``--flag value`` pairs, continuation lines
    indented under the hint's text."""
    import re

    from typer.testing import CliRunner

    from dsim.cli import app

    base = ["run", "--party", "knight,warrior", "--encounter", "the_forgotten", "--battles", "50"]
    for columns in ("80", "50"):
        out = CliRunner().invoke(app, base, env={"COLUMNS": columns}).stdout.splitlines()
        hint = next(i for i, line in enumerate(out) if line.startswith("hint: --policy expert"))
        lines = out[hint:hint + 4]
        assert all(len(line) < int(columns) and line.count("`") % 2 == 0 for line in lines), lines
        assert any(re.fullmatch(r" {6}\S.*", line) for line in lines), lines
        assert "(`dsim policies ladder`)" in "\n".join(lines) and "--loadout mid_game" in "\n".join(lines)


def test_wrap_sentence_breaks_between_words_only():
    from dsim.text import wrap_sentence

    text = "hint: --policy expert searches every decision (`dsim policies ladder`)"
    assert wrap_sentence(text, 200) == [text]
    assert wrap_sentence(text, 30, indent=6) == ["hint: --policy expert searches", "      every decision",
                                                 "      (`dsim policies ladder`)"]
    assert wrap_sentence("`a-very-long-command and more`", 5) == ["`a-very-long-command and more`"]


def test_explain_decisions_name_the_option_taken():
    """Issue 47: `explain --decisions` showed "option 1 of 4"; each decision now names what was chosen (a node, a
    character, a weapon slot, block or dodge …), read from the chosen option row (policies/dstbg/README.md)."""
    from typer.testing import CliRunner

    from dsim.cli import app

    out = CliRunner().invoke(app, ["explain", "--policy", "baseline", "--party", "knight,warrior", "--encounter",
                                   "the_forgotten", "--index", "3", "--decisions"], env={"COLUMNS": "120"}).stdout
    decisions = [line for line in out.splitlines() if line.startswith("decision ")]
    assert decisions and not any(re.search(r": option \d", line) for line in decisions)
    placed = [line for line in out.splitlines() if " enters at node " in line]
    for decision, entered in zip([d for d in decisions if d.startswith("decision place:")], placed):
        assert decision.split("node ")[1].split(" (choice")[0] == entered.split("at node ")[1].split("  [")[0]
    assert any(re.match(r"decision defence: (block or resist|dodge) \(choice [12] of 2\)", d) for d in decisions)
