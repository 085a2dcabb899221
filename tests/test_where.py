"""``explain --where`` is parsed against a whitelist, never evaluated: comparisons and boolean logic of outcome columns
only (issue 41: pandas' ``eval`` let ``@`` reach the caller's locals and run a shell command)."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from dsim.cli import app
from dsim.where import WhereError, where_mask

runner = CliRunner()
ROWS = 12
NUMBERS, FLAGS = ("rounds", "score"), ("won", "lost")
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def _columns(seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"rounds": rng.integers(0, 10, ROWS), "score": rng.integers(-3, 4, ROWS),
            "won": rng.random(ROWS) < 0.5, "lost": rng.random(ROWS) < 0.5}


constants = st.integers(-4, 11).map(str)
comparison = st.one_of(
    st.tuples(st.sampled_from(NUMBERS), st.sampled_from(COMPARISONS), constants).map(" ".join),
    st.tuples(constants, st.sampled_from(COMPARISONS), st.sampled_from(NUMBERS)).map(" ".join),
    st.tuples(st.sampled_from(NUMBERS), st.sampled_from(COMPARISONS), st.sampled_from(NUMBERS)).map(" ".join),
    st.tuples(constants, st.sampled_from(NUMBERS), constants).map(lambda t: f"{t[0]} < {t[1]} <= {t[2]}"),
    st.tuples(st.sampled_from(NUMBERS), st.sampled_from(("in", "not in")), st.lists(constants, min_size=1, max_size=4))
    .map(lambda t: f"{t[0]} {t[1]} [{', '.join(t[2])}]"),
    st.sampled_from(FLAGS),
)
benign = st.recursive(comparison, lambda inner: st.one_of(
    st.tuples(inner, st.sampled_from(("and", "or", "&", "|")), inner).map(lambda t: f"({t[0]}) {t[1]} ({t[2]})"),
    inner.map(lambda e: f"not ({e})"),
    inner.map(lambda e: f"~({e})"),
), max_leaves=6)
FORBIDDEN = [
    '@pd.io.common.os.system("id > pwned.txt")', "__import__('os').system('id')", "rounds.sum() > 0",
    "abs(rounds) > 1", "rounds + 1 > 2", "rounds[0] > 1", "(lambda: 1)()", "rounds if won else lost",
    "won is True", "(x := 1) > 0", "rounds @ score", "{1} == won", "[n for n in rounds]", "f'{rounds}' == 'x'",
    "won.__class__", "rounds ** 2 > 1", "rounds",
]
not_columns = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True).filter(
    lambda n: n not in {*NUMBERS, *FLAGS, "and", "or", "not", "in", "is", "if", "else", "for", "lambda", "None",
                        "True", "False"} and not __import__("keyword").iskeyword(n))


@settings(max_examples=300, deadline=None)
@given(benign, st.integers(0, 2**32 - 1))
def test_comparisons_and_boolean_logic_give_pandas_mask(expression: str, seed: int) -> None:
    columns = _columns(seed)
    expected = np.asarray(pd.DataFrame(columns).eval(expression), dtype=bool)
    assert np.array_equal(where_mask(expression, columns), np.broadcast_to(expected, (ROWS,)))


@settings(max_examples=300, deadline=None)
@given(benign, st.one_of(st.sampled_from(FORBIDDEN), not_columns.map(lambda n: f"{n} > 1")), st.booleans())
def test_anything_else_is_refused_with_one_line(expression: str, bad: str, left: bool) -> None:
    text = f"({bad}) and ({expression})" if left else f"({expression}) or ({bad})"
    with pytest.raises(WhereError) as refused:
        where_mask(text, _columns(0))
    message = str(refused.value)
    assert "\n" not in message and message.startswith("cannot evaluate --where")
    assert "of the columns rounds, score, won, lost" in message


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_any_text_is_a_mask_or_one_line(text: str) -> None:
    try:
        mask = where_mask(text, _columns(1))
    except WhereError as exc:
        assert "\n" not in str(exc)
    else:
        assert mask.shape == (ROWS,) and mask.dtype == bool


def test_the_issue_41_exploit_runs_nothing(tmp_path, monkeypatch) -> None:
    """The issue's command ran `id > pwned.txt` through pandas' `@` locals; now it is refused before anything runs."""
    monkeypatch.chdir(tmp_path)
    calls: list[str] = []
    monkeypatch.setattr(os, "system", lambda command: calls.append(command) or 0)
    out = runner.invoke(app, ["explain", "--party", "knight", "--encounter", "the_forgotten",
                              "--where", '@pd.io.common.os.system("id > pwned.txt")'])
    assert out.exit_code == 1 and isinstance(out.exception, SystemExit), out.output
    assert "'@' (the caller's variables) is not allowed" in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert calls == [] and not (tmp_path / "pwned.txt").exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("where, words", [
    ("rounds.__class__", "attribute access (.) is not allowed"),
    ("open('x').read() == 'y'", "a function call is not allowed"),
    ("lost and nonsense > 1", "'nonsense' is not a column"),
])
def test_explain_where_refuses_code_with_one_line(where: str, words: str) -> None:
    out = runner.invoke(app, ["explain", "--party", "knight", "--encounter", "the_forgotten", "--where", where])
    assert out.exit_code == 1 and words in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.output
