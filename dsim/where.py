"""Row filters typed by users (``explain --where``): parsed, never evaluated as code.

The text is parsed with :mod:`ast` in ``eval`` mode and walked against a whitelist: comparisons (``==``, ``!=``,
``<``, ``<=``, ``>``, ``>=``, ``in [..]``, ``not in [..]``, chained as in ``2 < rounds <= 8``), ``and``/``or``/``not``,
``&``/``|``/``~``, parentheses, column names and number, true/false or text constants. Anything else (calls,
attributes, ``@`` locals, subscripts, lambdas, arithmetic, names that are not columns) is refused with one line.
As in pandas' ``DataFrame.eval``, ``&`` and ``|`` bind like ``and`` and ``or`` and all of them work play by play.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Mapping

import numpy as np

_COMPARE = {ast.Eq: np.equal, ast.NotEq: np.not_equal, ast.Lt: np.less, ast.LtE: np.less_equal,
            ast.Gt: np.greater, ast.GtE: np.greater_equal}
_NAMES = {ast.Attribute: "attribute access (.)", ast.Call: "a function call", ast.Subscript: "a subscript ([..])",
          ast.Lambda: "lambda", ast.BinOp: "arithmetic", ast.IfExp: "if/else", ast.NamedExpr: ":=",
          ast.Starred: "*", ast.Dict: "a table {..}", ast.Set: "a set {..}", ast.ListComp: "a comprehension",
          ast.GeneratorExp: "a comprehension", ast.SetComp: "a comprehension", ast.DictComp: "a comprehension",
          ast.JoinedStr: "an f-string", ast.List: "a list outside 'in [..]'", ast.Tuple: "a tuple outside 'in (..)'"}
MAX_LENGTH = 2_000  # characters: a filter is a line, and the parser's recursion stays far from Python's limit


class WhereError(ValueError):
    """A ``--where`` text that is not a comparison or boolean logic of the given columns (one line)."""


def where_mask(text: str, columns: Mapping[str, np.ndarray]) -> np.ndarray:
    """The plays (rows of equally long ``columns``) for which ``text`` holds, as a boolean array."""
    names = ", ".join(columns)
    try:
        tree = _parse(text)
        value = _Evaluator(columns).boolean(tree.body)
    except WhereError as exc:
        raise WhereError(f"cannot evaluate --where {text!r}: {exc}; it takes comparisons (== != < <= > >= in [..]) "
                         f"joined by and/or/not (&, |, ~) of the columns {names}") from None
    length = len(next(iter(columns.values()))) if columns else 0
    return np.broadcast_to(np.asarray(value, dtype=bool), (length,)).copy()


def _parse(text: str) -> ast.Expression:
    """``text`` as an expression tree, with ``&``/``|`` read as ``and``/``or`` (pandas' precedence: ``rounds > 3 &
    won`` means ``(rounds > 3) and won``, where Python would read ``rounds > (3 & won)``)."""
    if len(text) > MAX_LENGTH:
        raise WhereError(f"longer than {MAX_LENGTH:,} characters")
    text = " ".join(text.splitlines()).strip()  # a filter is one line; a pasted line break is a space
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.OP]
        if any(t.string == "@" for t in tokens):
            raise WhereError("'@' (the caller's variables) is not allowed")
        for t in reversed([t for t in tokens if t.string in ("&", "|")]):  # from the end: earlier offsets stay right
            at = t.start[1]  # one line: the column is the offset
            text = f"{text[:at]} {'and' if t.string == '&' else 'or'} {text[at + 1:]}"
        return ast.parse(text, mode="eval")
    except (SyntaxError, tokenize.TokenError, MemoryError, RecursionError) as exc:
        message = exc.msg if isinstance(exc, SyntaxError) else str(exc.args[0]) if exc.args else type(exc).__name__
        raise WhereError(f"not an expression ({message})") from None


class _Evaluator:
    """Walks a parsed filter: :meth:`boolean` for true/false parts, :meth:`operand` for the sides of a comparison."""

    def __init__(self, columns: Mapping[str, np.ndarray]) -> None:
        self.columns = columns

    def boolean(self, node: ast.AST) -> np.ndarray | bool:
        """A part that is true or false per play: a comparison, a yes/no column, a constant, or logic of them."""
        if isinstance(node, ast.BoolOp):
            parts = [self.boolean(v) for v in node.values]
            combine = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
            result = parts[0]
            for part in parts[1:]:
                result = combine(result, part)
            return result
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.Invert):
            return np.logical_not(self.boolean(node.operand))
        if isinstance(node, ast.Compare):
            return self._compare(node)
        if isinstance(node, ast.Name):
            column = self._column(node)
            if column.dtype != bool:
                raise WhereError(f"{node.id!r} is a number, not yes/no: compare it (e.g. {node.id} > 0)")
            return column
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            return node.value
        raise WhereError(f"{_what(node)} is not allowed here")

    def operand(self, node: ast.AST) -> np.ndarray | bool | int | float | str:
        """A side of a comparison: a column or a constant (``-3`` included)."""
        if isinstance(node, ast.Name):
            return self._column(node)
        if isinstance(node, ast.Constant) and isinstance(node.value, bool | int | float | str):
            return node.value
        if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd)
                and isinstance(node.operand, ast.Constant) and type(node.operand.value) in (int, float)):
            return -node.operand.value if isinstance(node.op, ast.USub) else node.operand.value
        if isinstance(node, ast.Compare | ast.BoolOp | ast.UnaryOp):
            return self.boolean(node)  # (rounds > 3) == won
        raise WhereError(f"{_what(node)} is not allowed here")

    def _column(self, node: ast.Name) -> np.ndarray:
        if node.id not in self.columns:
            raise WhereError(f"{node.id!r} is not a column")
        return np.asarray(self.columns[node.id])

    def _compare(self, node: ast.Compare) -> np.ndarray | bool:
        result: np.ndarray | bool = True
        left = self.operand(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            if isinstance(op, ast.In | ast.NotIn):
                if not isinstance(right_node, ast.List | ast.Tuple):
                    raise WhereError("'in' takes a list of constants, e.g. rounds in [3, 4]")
                values = [self.operand(v) for v in right_node.elts]
                if any(isinstance(v, np.ndarray) for v in values):
                    raise WhereError("'in' takes a list of constants, e.g. rounds in [3, 4]")
                for value in values:
                    _same_kind(left, value)
                hit = np.isin(left, values) if values else np.zeros_like(np.asarray(left), dtype=bool)
                part = np.logical_not(hit) if isinstance(op, ast.NotIn) else hit
                right = None
            elif type(op) in _COMPARE:
                right = self.operand(right_node)
                _same_kind(left, right)
                part = _COMPARE[type(op)](left, right)
            else:
                raise WhereError(f"the comparison {type(op).__name__} ('is') is not allowed")
            result = np.logical_and(result, part)
            if right is None:
                break
            left = right
        return result


def _same_kind(left: object, right: object) -> None:
    """Text compares with text only (numpy would quietly call every play unequal)."""
    if (np.asarray(left).dtype.kind in "US") != (np.asarray(right).dtype.kind in "US"):
        raise WhereError("text is compared with a number (the columns hold numbers and yes/no)")


def _what(node: ast.AST) -> str:
    """What a refused node is, in a user's words."""
    if isinstance(node, ast.Constant):
        return f"the constant {node.value!r}"
    for kind, name in _NAMES.items():
        if isinstance(node, kind):
            return name
    return type(node).__name__
