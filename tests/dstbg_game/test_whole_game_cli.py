"""Whole games on the command line: `dsim game` (funnel, gear, --explain, --battle), and the generic commands
(`run`, `sweep` + `report` with the funnel as shares) on `--game dstbg_game`; every bad input a one-line error."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from dsim.cli import app
from dsim.registry import get_game

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args))


def test_dsim_game_reports_the_win_rate_the_funnel_and_the_gear_at_the_bosses():
    result = invoke("game", "--party", "knight,warrior", "--games", "300", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["games"] == 300 and 0 <= out["ci95"][0] <= out["win_rate"] <= out["ci95"][1]
    assert 1 >= out["reached_mini_boss"] >= out["beat_mini_boss"] >= out["reached_main_boss"] >= out["win_rate"]
    assert out["settings"]["battle_policy"] == "tactician" and out["settings"]["policy"] == "balanced"
    mini = out["gear_at_boss"]["mini"]
    assert mini and {row["character"] for row in mini} <= {"knight", "warrior"}
    assert all(0 < row["share"] <= 1 for row in mini)
    table = invoke("game", "--party", "knight,warrior", "--games", "200")
    assert table.exit_code == 0 and "game win rate" in table.output and "reached the mini boss" in table.output


def test_dsim_game_explain_lists_the_game_with_rule_ids_and_replays_a_battle():
    result = invoke("game", "--explain", "0")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("[R-1] setup") and any(line.startswith("[R-8] battle #0") for line in lines)
    battle = invoke("game", "--explain", "0", "--battle", "0")
    assert battle.exit_code == 0, battle.output
    assert "[R-7]" in battle.output and "battle ends" in battle.output
    as_json = invoke("game", "--explain", "0", "--battle", "0", "--json")
    assert as_json.exit_code == 0 and json.loads(as_json.stdout.splitlines()[0])["event"]


@pytest.mark.parametrize(("args", "message"), [
    (("game", "--battle", "1"), "--explain"),
    (("game", "--explain", "0", "--battle", "9999"), "battles"),
    (("game", "--party", "knight,gandalf"), "unknown character"),
    (("game", "--mini-boss", "ornstein_and_smough"), "is not a mini boss"),
    (("game", "--mode", "hard"), "standard or campaign"),
    (("game", "--strategy", "nope"), "unknown policy"),
    (("game", "--set", "tile_layout=circle"), "no reading"),
    (("run", "--game", "dstbg_game", "--party", "knight,warrior,assassin,herald,knight"), "1 to 4"),
])
def test_bad_whole_game_input_is_a_one_line_error(args, message):
    result = invoke(*args)
    assert result.exit_code != 0 and message in result.output and "Traceback" not in result.output


def test_generic_run_compare_and_sweep_report_show_the_funnel(tmp_path):
    run = invoke("run", "--game", "dstbg_game", "--party", "knight,warrior", "--games", "200", "--json")
    assert run.exit_code == 0, run.output
    summary = json.loads(run.stdout)
    assert "beat_mini_boss" in summary and "mean_rounds" not in summary  # a game's length is in battles
    assert summary["mean_battles"] >= 1
    table = invoke("run", "--game", "dstbg_game", "--party", "knight,warrior", "--games", "200")
    measures = [line.split("│")[1].strip() for line in table.stdout.splitlines() if line.startswith("│")]
    assert measures.count("mean battles") == 1, measures  # the rounds column was listed twice
    experiment = tmp_path / "games.toml"
    experiment.write_text('game = "dstbg_game"\nname = "t"\nseed = 1\nbattles = 200\nchunk = 200\n'
                          '[grid]\nparty = [["knight"], ["knight", "warrior"]]\npolicy = ["balanced", "rush"]\n')
    out = tmp_path / "out"
    sweep = invoke("sweep", str(experiment), "--out", str(out))
    assert sweep.exit_code == 0, sweep.output
    report = invoke("report", str(out), "--json")
    assert report.exit_code == 0, report.output
    cells = json.loads(report.stdout)
    assert len(cells) == 4
    for cell in cells:
        low, high = cell["rate_ci95"]["beat_mini_boss"]
        assert low <= cell["mean"]["beat_mini_boss"] <= high
    from dsim.cli import reporting

    before = reporting.out_console._width  # None: read COLUMNS at each print (the setter would freeze it)
    try:
        reporting.out_console.width = 80  # narrow: the funnel in a table of its own
        narrow = invoke("report", str(out))
        reporting.out_console.width = 200  # wide: beside the win rate, with intervals
        wide = invoke("report", str(out))
    finally:
        reporting.out_console._width = before
    assert "share of games" in narrow.output and "beat mini" in narrow.output
    assert "share of games" not in wide.output and "beat mini boss (95% CI)" in wide.output
    figure = invoke("plot", str(out), "--kind", "shares")
    assert figure.exit_code == 0 and (out / "_plots" / "shares.png").stat().st_size > 0


def test_a_shares_plot_of_a_game_without_shares_is_a_clear_error():
    import pandas as pd

    from dsim import plots

    cells = pd.DataFrame({"cell": ["a"], "settings": [{}], "win_rate": [0.5], "ci_low": [0.4], "ci_high": [0.6]})
    with pytest.raises(plots.PlotError, match="no shares"):
        plots.make_plot("shares", cells, share_names=())


def test_tune_policy_and_policies_compare_count_a_measure_such_as_the_funnel():
    compare = invoke("policies", "compare", "--game", "dstbg_game", "--party", "knight,warrior", "--games", "300",
                     "--policies", "rush,random_legal", "--measure", "reached_mini_boss", "--json")
    assert compare.exit_code == 0, compare.output
    rows = {r["policy"]: r for r in json.loads(compare.stdout)}
    assert rows["rush"]["win_rate"] > rows["random_legal"]["win_rate"]  # reached the mini boss, not won
    tune = invoke("tune-policy", "--game", "dstbg_game", "--policy", "rush", "--party", "knight,warrior",
                  "--budget", "2000", "--measure", "beat_mini_boss", "--json")
    assert tune.exit_code == 0, tune.output
    assert json.loads(tune.stdout)["measure"] == "beat_mini_boss"
    for bad, message in (("stage", "not a yes/no outcome"), ("nope", "no outcome 'nope'")):
        result = invoke("policies", "compare", "--game", "dstbg_game", "--games", "10", "--measure", bad)
        assert result.exit_code == 1 and message in result.output


def test_every_game_event_has_a_rule_and_a_readable_line():
    from dsim.games.dstbg_game import layout as G
    from dsim.games.dstbg_game.cell import prepare
    from dsim.games.dstbg_game.trace import RULES, describe

    cg = prepare({"party": ["knight", "warrior"]}).compiled
    assert set(RULES) == set(G.EVENT_NAMES)
    for name in G.EVENT_NAMES:
        line = describe({"event": name, "rule": RULES[name], "battle": 0, "a": 0, "b": 0, "c": 0, "d": 0}, cg)
        assert line.startswith(f"[{RULES[name]}]") and len(line) > len(RULES[name]) + 4


def test_game_event_lines_count_one_soul_spark_and_round_in_the_singular():
    from dsim.games.dstbg_game.cell import prepare
    from dsim.games.dstbg_game.trace import RULES, describe

    cg = prepare({"party": ["knight", "warrior"]}).compiled

    def line(name: str, a: int, b: int, d: int = 0) -> str:
        return describe({"event": name, "rule": RULES[name], "battle": 0, "a": a, "b": b, "c": 1, "d": d}, cg)

    assert line("defeat", 1, 1).endswith("defeat: 1 soul dropped, 1 spark on the dial")
    assert line("defeat", 2, 0).endswith("defeat: 2 souls dropped, 0 sparks on the dial")
    assert line("battle", 0, 0, d=1).endswith("after 1 round") and line("rest", 1, 1).endswith("1 spark left")
    assert line("spark", 3, 1).endswith("spark bought for 1 soul: 3 sparks")


def test_explain_lists_many_games_without_error():
    from dsim.games.dstbg_game.cell import prepare
    from dsim.games.dstbg_game.trace import describe, game_events
    from dsim.play import cell_stream

    settings = {"party": ["knight", "warrior"], "mode": "campaign", "policy": "farmer"}
    cell = prepare(settings)
    seen = set()
    for index in range(150):
        for event in game_events(cell, 1, cell_stream(settings), index):
            seen.add(event["event"])
            assert describe(event, cell.compiled)
    assert {"setup", "deal", "battle", "souls", "buy", "place", "rest", "upgrade"} <= seen


def test_explain_json_of_a_whole_game_says_each_event_in_words():
    """The JSON events were bare codes a–d whose meaning differs by event (audit, session 14); each now carries
    the line the text replay prints."""
    args = ["explain", "--game", "dstbg_game", "--party", "knight", "--index", "2"]
    lines = [json.loads(line) for line in invoke(*args, "--json").stdout.splitlines()]
    text = invoke(*args).stdout
    assert lines and all(ev["text"].startswith(f"[{ev['rule']}] ") and ev["text"] in text for ev in lines)


def test_whole_game_events_carry_the_state_after_them():
    """Each event of a replay holds the game, party and tile rows as the event left them (the battle replay's
    JSON always had its state): the souls and sparks it names, the card it placed, the tier it bought."""
    from dsim.games.dstbg_game.cell import prepare
    from dsim.games.dstbg_game.trace import STATS, game_events
    from dsim.play import cell_stream

    settings = {"party": ["knight", "warrior"], "mode": "campaign", "policy": "farmer"}
    cell = prepare(settings)
    checked = set()
    for index in range(20):
        for ev in game_events(cell, 1, cell_stream(settings), index):
            game, party, a, b, c = ev["state"]["game"], ev["state"]["party"], ev["a"], ev["b"], ev["c"]
            assert len(party) == 2 and [p["character"] for p in party] == ["knight", "warrior"]
            if ev["event"] == "souls":
                assert game["souls"] == b
            elif ev["event"] in ("rest", "spark"):
                assert game["sparks"] == a
            elif ev["event"] == "defeat":
                assert game["sparks"] == b and game["dropped"] == a
            elif ev["event"] == "place" and b >= 0:
                assert party[b]["slots"][c] == cell.compiled.card_names[a]
            elif ev["event"] == "level":
                assert party[a]["tiers"][STATS[b]] == c
            elif ev["event"] == "deal":
                assert ev["state"]["tiles"][a]["encounter"] == cell.compiled.encounter_ids[b]
            else:
                continue
            checked.add(ev["event"])
    assert {"souls", "rest", "place", "level", "deal", "defeat"} <= checked


def test_explain_says_why_the_strategy_rested_bought_and_went_to_the_boss():
    """Issue 44 item 2: between battles `dsim game --explain` shows each choice's reason, which the strategy itself
    gives (``G_WHY``): the steward rests at the gate to get ready (D-7, R-5.9), readies luck (R-5.8), goes in ready or
    when the sparks say so; every route, spending and placement event carries a reason its question can give."""
    from dsim.games.dstbg_game import layout as G
    from dsim.games.dstbg_game.cell import prepare
    from dsim.games.dstbg_game.trace import ROUTE, SPEND, WHY, explained, game_events
    from dsim.play import cell_stream

    settings = {"party": ["knight", "warrior"], "policy": "steward", "battle_policy": "veteran"}
    cell = prepare(settings)
    words = {code: text for code, (_, text) in WHY.items()}
    reasons = {}
    for index in range(200):  # until a game has rested at the gate to get ready and one has gone to the boss
        if words[G.WHY_REST_READY] in reasons.get("rest", set()) and \
                reasons.get("battle", set()) & {words[G.WHY_BOSS_READY], words[G.WHY_BOSS_SPARKS]}:
            break
        for event in game_events(cell, 1, cell_stream(settings), index):
            if event["why"]:
                reasons.setdefault(event["event"], set()).add(event["why"])
                assert explained(event, cell.compiled) == f"{event['text']}\n    why: {event['why']}"
            if event["event"] in ("buy", "level", "luck") or (event["event"] == "rest" and event["b"] == 1):
                assert event["why"], event  # a chosen rest, a purchase: always with its reason
            if event["event"] == "rest" and event["b"] == 0:
                assert event["why"] is None  # forced by a defeat: nobody's choice
    assert words[G.WHY_EXPLORE] in reasons["battle"] and words[G.WHY_REST_READY] in reasons["rest"]
    assert reasons["battle"] & {words[G.WHY_BOSS_READY], words[G.WHY_BOSS_SPARKS]}
    assert reasons["battle"] | reasons["rest"] <= {text for _, (events, text) in WHY.items() if events == ROUTE}
    assert reasons.get("luck", set()) | reasons.get("buy", set()) <= {t for _, (e, t) in WHY.items() if e == SPEND}
    out = invoke("game", "--party", "knight,warrior", "--strategy", "steward", "--explain", "0")
    assert out.exit_code == 0 and "\n    why: every face-down tile first" in out.output


@pytest.mark.parametrize("name", ["game", "area"])
def test_dsim_game_and_area_take_the_games_declared_options(name):
    """`dsim game` and `dsim area` are built from `dstbg_game`'s declared options (issue 46): each one a flag with the
    declared help, none declared again by hand, so they and `dsim run --game dstbg_game` cannot drift apart (`dsim
    area` takes the options an area plays: the party, its mini boss, the battle policy)."""
    import typer.main

    from dsim.games.dstbg_game.cli import AREA_OPTIONS

    command = typer.main.get_command(app).commands[name]
    params = {p.name: p for p in command.params}
    declared = get_game("dstbg_game").options
    taken = [o for o in declared if name == "game" or o.name in AREA_OPTIONS]
    assert len(taken) == (len(declared) if name == "game" else len(AREA_OPTIONS))
    for option in taken:
        assert params[option.name].opts == [option.flag] and params[option.name].help == option.help, option.name
    flags = {flag for p in command.params for flag in p.opts}
    assert not flags & ({o.flag for o in declared} - {o.flag for o in taken}) and "--boss" not in flags
