"""Instructions per battle of a ``dsim bench`` workload, by compiled function, counted by valgrind's callgrind.

Wall-clock rates on a shared 2-core machine move by 10–20% from run to run; instruction counts do not
(the same code, seed and battles give the same count). So this is the measure for a change to the kernel's
speed: compare the totals before and after. It does not see cache misses or branch mispredictions, which
``dsim bench`` does.

Run: ``python benchmarks/instructions.py l1-2p [--battles 2000]`` (about three minutes: Python runs under
valgrind; only the battles themselves are counted, on one thread, with the kernel loaded from the Numba
cache, which a native run fills first). Needs ``valgrind`` (Debian's package).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dsim.bench import Workload

_MANGLED_PART = re.compile(r"(\d+)")


def demangle(symbol: str) -> str:
    """``module.function`` of a Numba symbol (``_ZN4dsim…4core6decideB3v90…`` → ``core.decide``); a
    ``cfunc.``/``cpython.`` wrapper keeps that prefix; anything else is returned as it is."""
    prefix = ""
    if symbol.startswith("cfunc."):
        prefix, symbol = "cfunc ", symbol[len("cfunc."):]
    if not symbol.startswith("_ZN"):
        return prefix + symbol
    parts, i, text = [], 3, symbol
    while i < len(text) and text[i].isdigit():
        digits = _MANGLED_PART.match(text, i).group(1)
        start = i + len(digits)
        parts.append(text[start:start + int(digits)])
        i = start + int(digits)
    if parts and parts[0] == "cpython":
        prefix, parts = "cpython ", parts[1:]
    return prefix + ".".join(parts[-2:]) if parts else symbol


def _compiled_symbols() -> dict[int, str]:
    """Entry address → demangled name of every function of every compiled Numba function in this process
    (loaded from the cache or compiled now)."""
    import gc

    from numba.core.dispatcher import Dispatcher

    found: dict[int, str] = {}
    for dispatcher in [o for o in gc.get_objects() if isinstance(o, Dispatcher)]:
        for result in dispatcher.overloads.values():
            library = result.library
            module = getattr(library, "_shared_module", None) or getattr(library, "_final_module", None)
            if module is None:
                continue
            engine = library._codegen._engine
            for function in module.functions:
                if not function.is_declaration:
                    address = engine.get_function_address(function.name)
                    if address:
                        found[address] = demangle(function.name)
    return found


def _warm(workload: Workload, battles: int) -> tuple[Any, int]:
    """The workload's game and stream after ``battles`` battles, so its kernel is compiled (or loaded)."""
    from dsim.bench import SEED
    from dsim.games import load_game
    from dsim.rng import stream_key

    game = load_game(workload.game, workload.game_module)
    stream = stream_key(json.dumps(workload.settings, sort_keys=True))  # as `dsim bench` and `dsim run`
    game.play(workload.settings, SEED, stream, 0, battles)
    return game, stream


def _child(workload: Workload, battles: int, symbols_file: str) -> None:
    """Under callgrind: load the workload's kernel, write the symbol map, count ``battles`` battles only."""
    import numba

    from dsim.bench import SEED

    numba.set_num_threads(1)
    game, stream = _warm(workload, 10)
    Path(symbols_file).write_text(json.dumps({str(a): n for a, n in _compiled_symbols().items()}))
    control = ["callgrind_control", "-i"]
    subprocess.run([*control, "on", str(os.getpid())], check=True, capture_output=True)
    cols = game.play(workload.settings, SEED, stream, 0, battles)
    subprocess.run([*control, "off", str(os.getpid())], check=True, capture_output=True)
    print(json.dumps({"rounds": float(cols[game.outcome.rounds].mean())}))


def _self_costs(out_file: Path) -> dict[str, int]:
    """Instructions spent in each function itself (``callgrind_annotate``'s table)."""
    text = subprocess.run(["callgrind_annotate", "--threshold=100", str(out_file)], capture_output=True,
                          text=True, check=True).stdout
    costs: dict[str, int] = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)", line)
        if m:
            costs[m.group(2).strip()] = int(m.group(1).replace(",", ""))
    return costs


def _calls(out_file: Path) -> Counter[str]:
    """Calls into each function (the ``calls=`` lines after each ``cfn=`` of the callgrind file)."""
    names: dict[str, str] = {}
    calls: Counter[str] = Counter()
    callee = ""
    for line in out_file.read_text(errors="replace").splitlines():
        m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
        if m:
            if m.group(2):
                names[m.group(1)] = m.group(2).strip()
            if line.startswith("cfn="):
                callee = names.get(m.group(1), m.group(1))
        elif line.startswith("calls="):
            calls[callee] += int(line[6:].split()[0])
    return calls


def _name(label: str, symbols: dict[int, str]) -> str:
    """A function label of callgrind (``???:0x…`` for JIT code) as a readable name."""
    m = re.search(r"0x([0-9a-f]+)", label)
    if m and int(m.group(1), 16) in symbols:
        return symbols[int(m.group(1), 16)]
    return label.split(" [")[0].rsplit(":", 1)[-1]


def count(workload: Workload, battles: int) -> tuple[float, dict[str, int], Counter[str], int]:
    """Count ``battles`` battles under callgrind: (rounds per battle, instructions by function, calls by
    function, total instructions)."""
    _warm(workload, 1)  # compile natively if the cache is cold: under valgrind it would take an hour
    with tempfile.TemporaryDirectory() as tmp:
        out, symbols_file = Path(tmp) / "callgrind.out", Path(tmp) / "symbols.json"
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
             sys.executable, __file__, workload.name, "--battles", str(battles), "--child", str(symbols_file)],
            capture_output=True, text=True)
        if run.returncode != 0 or not out.exists():
            raise RuntimeError(f"the counted run failed:\n{run.stderr[-2000:]}")
        rounds = json.loads(run.stdout.strip().splitlines()[-1])["rounds"]
        symbols = {int(a): n for a, n in json.loads(symbols_file.read_text()).items()}
        costs, calls = _self_costs(out), _calls(out)
    total = costs.pop("PROGRAM TOTALS", sum(costs.values()))
    named: Counter[str] = Counter()
    for label, cost in costs.items():
        named[_name(label, symbols)] += cost
    named_calls: Counter[str] = Counter()
    for label, n in calls.items():
        named_calls[_name(label, symbols)] += n
    return rounds, dict(named), named_calls, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workload", help="a `dsim bench` workload, e.g. l1-2p")
    parser.add_argument("--battles", type=int, default=2000, help="battles counted (default 2000)")
    parser.add_argument("--top", type=int, default=30, help="functions listed (default 30)")
    parser.add_argument("--child", metavar="SYMBOLS_FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    from dsim.bench import BenchError, select_workloads

    try:
        matched = select_workloads([args.workload])
    except BenchError as err:
        parser.error(str(err))
    if len(matched) != 1:
        parser.error(f"{args.workload!r} names {len(matched)} workloads; give one")
    if args.battles < 1:
        parser.error("--battles must be at least 1")
    if args.child:
        _child(matched[0], args.battles, args.child)
        return 0
    if not shutil.which("valgrind"):
        parser.error("valgrind is not installed (Debian: apt-get install valgrind)")
    try:
        rounds, costs, calls, total = count(matched[0], args.battles)
    except RuntimeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    per_battle = total / args.battles
    print(f"{args.workload}: {per_battle:,.0f} instructions per battle ({per_battle / rounds:,.0f} per round; "
          f"{args.battles:,} battles, {rounds:.2f} rounds each)")
    print(f"{'instr/battle':>12} {'share':>6} {'calls/battle':>12}  function")
    for name, cost in Counter(costs).most_common(args.top):
        print(f"{cost / args.battles:12,.0f} {100 * cost / total:5.1f}% {calls[name] / args.battles:12.1f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
