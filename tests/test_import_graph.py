"""Imports run one way: the command line → the games' catalogue → games → shared infrastructure.

An AST scan of ``dsim/`` and ``policies/`` (no import runs) builds the graph of every import between their
modules, at module level and inside functions alike (a lazy import is still a dependency; only type-only
imports under ``if TYPE_CHECKING:`` are left out, as they never run), and checks the layers below:

* **cli** — ``dsim.cli`` and its modules, and ``python -m dsim``: the top; may import anything.
* **catalogue** — ``dsim.games`` (the package ``__init__``): registers the built-in games' factories in
  ``dsim.registry``; only the command line imports it (the registry finds it by name, as a ``game_module``).
* **games** — ``dsim.games.<game>…`` and ``policies…``: one game's rules, data, kernel, policies, own commands.
* **shared** — every other module of ``dsim`` (``dsim.registry``, ``dsim.clikit``, sweeps, stats, plots …) and
  the game contract ``dsim.games.base``/``data``/``loading``: knows no game.

Rules: no cycle at all; a game never imports ``dsim.cli`` (its commands use ``dsim.clikit``) nor the catalogue;
a shared module never imports the catalogue, a game or a policy.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("dsim", "policies")
CONTRACT = ("dsim.games.base", "dsim.games.data", "dsim.games.loading")  # shared modules living under dsim/games


def modules(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Dotted module name → source file, for every ``.py`` under the packages."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """Every module of ``known`` that module ``name`` imports (the longest known prefix of each imported name)."""

    def resolve(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    stack: list[ast.AST] = [ast.parse(path.read_text(), str(path))]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            yield from filter(None, (resolve(alias.name) for alias in node.names))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            for alias in node.names:
                target = resolve(f"{base}.{alias.name}") if f"{base}.{alias.name}" in known else resolve(base)
                if target:
                    yield target
        stack.extend(ast.iter_child_nodes(node))


def import_graph(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Module → the modules it imports (itself left out)."""
    known = modules(root, packages)
    return {name: set(_imported(name, path, known)) - {name} for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import loops: strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph) + 100))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def layer(module: str) -> str:
    """``cli``, ``catalogue``, ``games`` or ``shared`` (the layers of this file's docstring)."""
    if module in ("dsim.cli", "dsim.__main__") or module.startswith("dsim.cli."):
        return "cli"
    if module == "dsim.games":
        return "catalogue"
    if module in CONTRACT:
        return "shared"
    if module.startswith(("dsim.games.", "policies")):
        return "games"
    return "shared"


def violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import that breaks a layer rule, as ``importer -> imported: rule``."""
    found = []
    for importer, targets in sorted(graph.items()):
        for target in sorted(targets):
            source, dest = layer(importer), layer(target)
            if source == "games" and dest == "cli":
                found.append(f"{importer} -> {target}: a game imports the command line (use dsim.clikit)")
            elif source in ("games", "shared") and dest == "catalogue":
                found.append(f"{importer} -> {target}: only the command line imports the games' catalogue")
            elif source == "shared" and dest in ("games", "cli"):
                found.append(f"{importer} -> {target}: a shared module imports a {dest} module")
    return found


def test_the_import_graph_has_no_cycle() -> None:
    graph = import_graph(ROOT)
    assert len(graph) > 100 and sum(map(len, graph.values())) > 300  # the scan saw the tree
    assert cycles(graph) == []


def test_imports_run_one_way_between_layers() -> None:
    graph = import_graph(ROOT)
    assert {layer(m) for m in graph} == {"cli", "catalogue", "games", "shared"}
    assert violations(graph) == []


def game_names_in_code(root: Path) -> list[str]:
    """Where a shared module's code names a game (its folder under ``dsim/games``, or ``dstbg_game``): string
    constants only, docstrings and other bare string statements (documentation) left out."""
    names = sorted(p.name for p in (root / "dsim" / "games").iterdir() if (p / "__init__.py").exists())
    word = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, [*names, "dstbg_game"])) + r")(?![A-Za-z0-9_])")
    found = []
    for module, path in modules(root).items():
        if layer(module) != "shared":
            continue
        tree = ast.parse(path.read_text())
        documentation = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documentation:
                found += [f"{module}:{node.lineno}: {match}" for match in word.findall(node.value)]
    return found


def test_no_shared_module_names_a_game() -> None:
    assert game_names_in_code(ROOT) == []


def _fake_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


CLEAN = {
    "dsim/__init__.py": "",
    "dsim/rng.py": "import numpy\n",
    "dsim/registry.py": "import importlib\n",
    "dsim/clikit.py": "from dsim import rng\n",
    "dsim/cli/__init__.py": "from dsim.games import get_game\n\ndef main():\n    from dsim.games.toy import game\n",
    "dsim/games/__init__.py": "from dsim.registry import register_game\n\ndef make():\n    from dsim.games.toy.game import Toy\n",
    "dsim/games/base.py": "from dsim.rng import randint\n",
    "dsim/games/toy/__init__.py": "",
    "dsim/games/toy/game.py": "from dsim.games.base import Game\nfrom . import kernel\nfrom dsim.clikit import fail\n",
    "dsim/games/toy/kernel.py": "from ..base import Game\nfrom typing import TYPE_CHECKING\n"
                                "if TYPE_CHECKING:\n    from dsim.games.toy.game import Toy\n",
    "policies/__init__.py": "",
    "policies/toy/__init__.py": "from dsim.games.toy import kernel\n",
}


def test_the_checker_passes_a_clean_tree(tmp_path: Path) -> None:
    _fake_tree(tmp_path, CLEAN)
    graph = import_graph(tmp_path)
    assert graph["dsim.games.toy.kernel"] == {"dsim.games.base"}  # relative import; the type-only one left out
    assert graph["dsim.games.toy.game"] == {"dsim.games.base", "dsim.games.toy.kernel", "dsim.clikit"}
    assert graph["dsim.cli"] == {"dsim.games", "dsim.games.toy.game"}  # a lazy import counts
    assert cycles(graph) == [] and violations(graph) == [] and game_names_in_code(tmp_path) == []


def test_the_checker_finds_planted_violations(tmp_path: Path) -> None:
    planted = CLEAN | {
        "dsim/games/toy/cli.py": "def command():\n    from dsim.cli import main\n",  # a game → the command line
        "dsim/rng.py": "import numpy\nfrom dsim.games.toy import kernel\n",  # shared → a game
        "dsim/registry.py": "def find():\n    import dsim.games\n",  # shared → the catalogue
        "policies/toy/__init__.py": "from dsim.games import get_game\n",  # a policy → the catalogue
        "dsim/plots.py": '"""Shares, e.g. of --game toy."""\n\ndef f():\n    raise ValueError("only --game toy has shares")\n',
    }
    _fake_tree(tmp_path, planted)
    assert game_names_in_code(tmp_path) == ["dsim.plots:4: toy"]  # the message, not the docstring
    graph = import_graph(tmp_path)
    assert violations(graph) == [
        "dsim.games.toy.cli -> dsim.cli: a game imports the command line (use dsim.clikit)",
        "dsim.registry -> dsim.games: only the command line imports the games' catalogue",
        "dsim.rng -> dsim.games.toy.kernel: a shared module imports a games module",
        "policies.toy -> dsim.games: only the command line imports the games' catalogue",
    ]
    assert sorted(cycles(graph)) == [["dsim.games", "dsim.registry"],  # the catalogue registers in the registry
                                     ["dsim.games.base", "dsim.games.toy.kernel", "dsim.rng"]]


def test_the_checker_finds_a_loop_made_by_a_lazy_import(tmp_path: Path) -> None:
    _fake_tree(tmp_path, CLEAN | {"dsim/games/toy/kernel.py": "from ..base import Game\n\n"
                                                               "def f():\n    from dsim.games.toy.game import Toy\n"})
    assert cycles(import_graph(tmp_path)) == [["dsim.games.toy.game", "dsim.games.toy.kernel"]]
