"""Fuzzing what a user can type or write (issue 13): command-line values, data overlays, experiment
files and results folders. Whatever the input, a command ends with its result or a clear error
(exit status 0, 1 or 2), never with an uncaught exception. Fixed seeds (``derandomize``) keep CI stable."""

from __future__ import annotations

import shutil
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from dsim.cli import app
from dsim.games import get_game
from dsim.paths import REPO_ROOT

runner = CliRunner()
FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
RULES = [rule.id for rule in get_game("dstbg").rules()]
TEXT = st.text(string.printable + "éß∞√€", max_size=30)
NUMBERS = st.one_of(st.integers(-10**25, 10**25).map(str), st.floats(allow_nan=True).map(str))


def _ends_cleanly(args: list[str]) -> str:
    """Run the CLI; fail the test if anything but a clean exit (a result or an error line) happened."""
    out = runner.invoke(app, args)
    assert out.exit_code in (0, 1, 2), (args, out.output)
    assert out.exception is None or isinstance(out.exception, SystemExit), (args, repr(out.exception))
    return out.output


@FUZZ
@given(key=st.one_of(st.sampled_from(RULES), TEXT), value=st.one_of(NUMBERS, TEXT), seed=NUMBERS,
       battles=NUMBERS, gravestones=st.one_of(st.none(), NUMBERS))
def test_run_with_any_set_seed_and_count_ends_cleanly(key, value, seed, battles, gravestones):
    args = ["run", "--party", "knight", "--boss" if gravestones else "--encounter",
            "gargoyle" if gravestones else "the_forgotten", "--seed", seed, "--set", f"{key}={value}"]
    args += ["--gravestones", gravestones] if gravestones else []
    # a count the CLI accepts is played only when small (a valid huge count would just take long)
    args += ["--battles", battles if not battles.lstrip("-").isdigit() or abs(int(battles)) > 10**12 else "3"]
    _ends_cleanly(args)


@FUZZ
@given(party=TEXT, encounter=TEXT, loadout=TEXT)
def test_run_with_any_cell_options_ends_cleanly(party, encounter, loadout):
    _ends_cleanly(["run", "--party", party, "--encounter", encounter, "--loadout", loadout, "--battles", "3"])


def _yaml_documents() -> st.SearchStrategy[bytes]:
    """Overlay file contents: random bytes, random text, and YAML of random shapes and values."""
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(), TEXT)
    values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
                          max_leaves=8)
    import yaml

    shaped = st.dictionaries(st.sampled_from(["enemies", "id", "health", "x"]), values, max_size=3).map(
        lambda d: yaml.safe_dump(d, allow_unicode=True).encode())
    entry = st.fixed_dictionaries({"id": TEXT, "name": TEXT, "health": scalars, "threat": scalars}).map(
        lambda e: yaml.safe_dump({"enemies": [e]}, allow_unicode=True).encode())
    return st.one_of(st.binary(max_size=200), TEXT.map(str.encode), shaped, entry)


@FUZZ
@given(name=st.sampled_from(["enemies.yaml", "characters.yaml", "encounters.yaml", "bosses/gargoyle.yaml"]),
       content=_yaml_documents())
def test_any_overlay_file_is_validated_or_named_in_one_error(tmp_path_factory, name, content):
    overlay = tmp_path_factory.mktemp("overlay")
    (overlay / name).parent.mkdir(parents=True, exist_ok=True)
    (overlay / name).write_bytes(content)
    _ends_cleanly(["data", "validate", "--data", str(overlay)])


@FUZZ
@given(content=st.one_of(st.binary(max_size=120), TEXT.map(str.encode),
                         st.sampled_from([b"raise SystemError('x')\n", b"import nonexistent_module_zz\n",
                                          b"def f(:\n", b"x = 1\n"])),
       name=st.one_of(st.just("x"), TEXT))
def test_any_policy_file_plays_or_ends_in_one_error(tmp_path_factory, content, name):
    folder = tmp_path_factory.mktemp("policy")
    (folder / "p.py").write_bytes(content)
    _ends_cleanly(["run", "--party", "knight", "--encounter", "the_forgotten", "--battles", "3",
                   "--policy", f"{folder / 'p.py'}:{name}"])


@FUZZ
@given(sizes=st.lists(TEXT, max_size=2), setting=st.lists(st.one_of(TEXT, st.sampled_from(RULES).map(
    lambda r: f"{r}=1")), max_size=2), variant=st.one_of(st.none(), TEXT, st.sampled_from(RULES)))
def test_compare_with_any_sizes_settings_and_variant_ends_cleanly(sizes, setting, variant):
    args = ["compare", "--party", "knight,warrior", "--encounter", "the_forgotten", "--battles", "20"]
    args += [a for s in sizes for a in ("--sizes", s)] + [a for s in setting for a in ("--setting", s)]
    _ends_cleanly(args + (["--variant", variant] if variant is not None else []))


def _experiment_texts() -> st.SearchStrategy[str]:
    """Experiment files: random text, and well-formed TOML with random values in every field."""
    value = st.one_of(st.integers(-10**20, 10**20), st.floats(allow_nan=False), TEXT.map(lambda s: '"' + s.replace("\\", "").replace('"', "") + '"'),
                      st.just("[]"), st.just('["knight"]'), st.just("[[\"knight\"]]"))
    header = st.fixed_dictionaries({"seed": value, "battles": value, "chunk": value, "name": value})
    cell = st.fixed_dictionaries({"policy": value, "encounter": value, "party": value, "data": value})

    def toml(head: dict, fixed: dict) -> str:
        lines = ['game = "dstbg"', *(f"{k} = {v}" for k, v in head.items()), "[fixed]"]
        return "\n".join(lines + [f"{k} = {v}" for k, v in fixed.items()]) + "\n"

    return st.one_of(TEXT, st.builds(toml, header, cell))


@FUZZ
@given(text=_experiment_texts())
def test_any_experiment_file_sweeps_or_ends_in_one_error(tmp_path_factory, text):
    folder = tmp_path_factory.mktemp("experiment")
    path = folder / "exp.toml"
    path.write_text(text, "utf-8")
    _ends_cleanly(["sweep", str(path), "--out", str(folder / "out"), "--battles", "4"])


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A small finished sweep to damage."""
    folder = tmp_path_factory.mktemp("results")
    exp = folder / "exp.toml"
    exp.write_text('game = "dstbg"\nname = "fuzz"\nseed = 1\nbattles = 40\nchunk = 20\n[fixed]\npolicy = "baseline"\n'
                   'party = ["knight"]\n[grid]\nencounter = ["the_forgotten", "ash_gardens"]\n', "utf-8")
    assert runner.invoke(app, ["sweep", str(exp), "--out", str(folder / "out")]).exit_code == 0
    return folder / "out"


@FUZZ
@given(victim=st.integers(0, 10**6), cut=st.integers(0, 10**6), junk=st.binary(max_size=40),
       delete=st.booleans(), command=st.sampled_from([["report"], ["report", "--compare"], ["report", "--json"],
                                                       ["plot", "--kind", "forest"], ["plot", "--kind", "survival"]]))
def test_a_damaged_results_folder_reports_or_says_what_is_wrong(finished, tmp_path_factory, victim, cut, junk,
                                                                delete, command):
    folder = tmp_path_factory.mktemp("damaged") / "out"
    shutil.copytree(finished, folder)
    files = sorted(p for p in folder.iterdir() if p.is_file())
    target = files[victim % len(files)]
    if delete:
        target.unlink()
    else:
        data = target.read_bytes()
        target.write_bytes(data[: cut % (len(data) + 1)] + junk)
    args = [command[0], str(folder), *command[1:]]
    if command[0] == "plot":
        args += ["--out", str(folder / "figure.png")]
    _ends_cleanly(args)


def test_the_fuzzed_data_folder_is_the_shipped_one():
    """The overlay fuzz relies on shipped data that validates (else every case would be an error)."""
    assert (REPO_ROOT / "data" / "dstbg" / "enemies.yaml").is_file()
    assert runner.invoke(app, ["data", "validate"]).exit_code == 0
