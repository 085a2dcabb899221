"""The variant registry against rules §16 and the kernel: ids, defaults, seeds, readings, CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from dsim.cli import app
from dsim.games import get_game
from dsim.games.dstbg import variants as V
from dsim.games.dstbg.kernel import layout as L

RULES = Path("/work/shared/rules/dstbg.md")
KERNEL = Path(L.__file__).parent


def _index_table() -> dict[str, tuple[str, list[str]]]:
    """§16 variant index: id → (A-number, [default, other values…])."""
    rows = {}
    for line in RULES.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| (A-\d+) \| `(\w+)` \| `(\w+)` \| (.*) \|$", line)
        if m:
            rows[m.group(2)] = (m.group(1), [m.group(3), *re.findall(r"`(\w+)`", m.group(4))])
    return rows


def test_registry_matches_rules_index_and_defaults():
    index = _index_table() if RULES.exists() else {}
    for v in V.VARIANTS.variants:
        assert v.seed and len(v.reading_docs) == max(1, len(v.readings)), v.id
        if v.ref.startswith("A-") and index:
            ref, values = index[v.id]
            assert v.ref == ref, v.id
            assert v.readings[0] == values[0], f"{v.id}: reading 0 must be the §16 default"
            assert set(v.readings) <= set(values), v.id


def test_every_multi_reading_variant_is_read_by_the_kernel():
    source = "".join(p.read_text(encoding="utf-8") for p in KERNEL.glob("*.py") if p.name != "layout.py")
    names = {val: name for name, val in vars(L).items() if name.startswith("V_")}
    for v in V.VARIANTS.variants:
        if len(v.readings) != 1:
            assert f"L.{names[V.VARIANTS.index[v.id]]}" in source, f"{v.id} is registered but the kernel never reads it"


def test_variant_vector_rejects_unknown_readings():
    vec = V.variant_vector({"bleed_zero_damage": "trigger_on_hit", "max_rounds": "12"})
    assert vec[L.V_BLEED_ZERO] == 1 and vec[L.V_MAX_ROUNDS] == 12
    for bad in ({"nope": "x"}, {"first_side": "nobody"}, {"max_rounds": "many"}):
        try:
            V.variant_vector(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad} accepted")


def test_cli_variants_list_and_show():
    runner = CliRunner()
    out = runner.invoke(app, ["variants", "list", "--json", "--missing"])
    assert out.exit_code == 0
    listed = json.loads(out.stdout)
    ids = {s["id"] for s in listed["switches"]}
    assert {"bleed_zero_damage", "push_damage_order", "enemy_health_delta", "dice_substitution"} <= ids
    assert "extra_estus" in ids and "sparks" in listed["not_simulated"]
    show = runner.invoke(app, ["variants", "show", "A-29", "--json"])
    rec = json.loads(show.stdout)
    assert rec["id"] == "bleed_zero_damage" and rec["default"] == "no_trigger"
    assert [r["value"] for r in rec["readings"]] == ["no_trigger", "trigger_on_hit"]
    text = runner.invoke(app, ["variants", "show", "push_damage_order"])
    assert "defend_then_push (default)" in text.stdout and "seed text" in text.stdout
    missing = runner.invoke(app, ["variants", "show", "no_such_thing"])
    assert missing.exit_code == 1 and "unknown variant" in missing.stderr


def test_cli_variants_list_at_80_columns_never_breaks_an_id():
    """`characters_firs|t`, `first_activatin|g`: the table folded ids inside a word at 80 columns, and then
    (issue 47) between their words (`ember_` / `threshold`): every id and value a user types stays on one line."""
    from dsim.cli import variants

    before = variants.console._width  # None: read COLUMNS at each print (the setter would freeze it)
    try:
        variants.console.width = 80
        table = CliRunner().invoke(app, ["variants", "list"]).stdout
    finally:
        variants.console._width = before
    assert max(len(line) for line in table.splitlines()) <= 80
    words = {w for line in table.splitlines() for w in line.replace(",", " ").replace(";", " ").split()}
    for rec in (r.record() for r in get_game("dstbg").rules()):
        assert rec["id"] in words, rec["id"]
        assert all(any(str(r["value"]) in line for line in table.splitlines()) for r in rec["readings"]), rec["id"]


def test_an_unknown_variant_names_the_listing_of_its_own_game():
    """`dsim run --game bloodborne --set nope=1` pointed to `dsim variants list`, which lists DS:TBG's."""
    runner = CliRunner()
    for game, hint in (("bloodborne", "--game bloodborne"), ("dark_maiden", "--game dark_maiden"),
                       ("dstbg_game", "--game dstbg_game")):
        out = runner.invoke(app, ["run", "--game", game, "--set", "nope=1", "--battles", "1"])
        assert out.exit_code == 1 and f"dsim variants list {hint}`" in out.stderr, out.output
        shown = runner.invoke(app, ["variants", "show", "nope", "--game", game])
        assert shown.exit_code == 1 and f"dsim variants list {hint}`" in shown.stderr, shown.output
    out = runner.invoke(app, ["run", "--party", "knight", "--encounter", "the_forgotten", "--set", "nope=1"])
    assert out.exit_code == 1 and "(see `dsim variants list`)" in out.stderr


def test_a_default_nobody_can_type_is_listed_by_its_meaning():
    """Dark Maiden's ``lives`` defaults to −1, "the difficulty's count", outside the 0–99 users may set: the listing
    showed −1, which `--set lives=-1` then refused. It now shows what the default means."""
    runner = CliRunner()
    listed = json.loads(runner.invoke(app, ["variants", "list", "--game", "dark_maiden", "--json"]).stdout)
    lives = next(rec for rec in listed["switches"] if rec["id"] == "lives")
    assert lives["default"] == "difficulty's (15/12/9)"
    refused = runner.invoke(app, ["run", "--game", "dark_maiden", "--set", "lives=-1", "--games", "10"])
    assert refused.exit_code == 1 and "from 0 to 99" in refused.stderr
    from dsim.games.dark_maiden.variants import DIFFICULTY_LIVES, V_LIVES, VARIANTS as DM

    assert DM.vector({})[V_LIVES] == DIFFICULTY_LIVES  # the kernel still reads "unset" as before
