"""Instructions per battle of a ``dsim bench`` workload, by compiled function, counted by valgrind's callgrind.

Wall-clock rates on a shared 2-core machine move by 10–20% from run to run; instruction counts do not: the
kernel's own functions count the same for the same code, seed and battles, and so does the total (Python's call
around the battles included: counting switches on and off while the process waits, see :func:`_instrument`). So they are the measure for a change to the kernel's speed:
compare the counts before and after. They do not see cache misses or branch mispredictions,
which the rates of ``dsim bench`` do, and valgrind counts a ``rep``-prefixed string instruction once per
element (glibc's ``memset`` of 2 KB counts about 2,300), so a count can overstate a cheap bulk copy or fill.

``dsim bench --instructions`` records the count per battle beside the rates; ``python -m dsim.instructions
l1-2p`` prints where the instructions go, function by function (half a minute: only the battles are counted,
on one thread). A function the entry inlined (most rule steps, ``dsim.numba_linking._EntryLibrary``)
counts as part of its caller. Counts are made in one fixed CPU target, ``x86-64-v3`` (:func:`count_target`), compiled
natively and loaded from the Numba cache, so they compare across hosts. Needs ``valgrind`` (Debian's package).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dsim.workloads import Workload

BATTLES = 2000  # enough that the Python call around the battles is under 2% of the count
TIMEOUT_S = 1800  # a counted run takes half a minute; one that compiled its kernel under valgrind would take an hour

_DIGITS = re.compile(r"\d+")


class InstructionsError(Exception):
    """The count could not be made (message is user-facing)."""


@dataclass(frozen=True)
class Instructions:
    """One counted run: battles, their mean rounds, all instructions, per function its own instructions and the
    calls into it, and the functions the run compiled under valgrind instead of loading them from the Numba cache
    (none when the count is sound)."""

    battles: int
    rounds: float
    total: int
    by_function: dict[str, int]
    calls: dict[str, int]
    compiled: tuple[str, ...]

    @property
    def per_battle(self) -> float:
        """All instructions counted, per battle."""
        return self.total / self.battles

    def compiled_warning(self) -> str:
        """One line naming what the run compiled (the first three), or ``""``."""
        if not self.compiled:
            return ""
        more = f" and {len(self.compiled) - 3} more" if len(self.compiled) > 3 else ""
        return (f"the counted run compiled {', '.join(self.compiled[:3])}{more} under valgrind instead of loading "
                "them from the Numba cache")


def demangle(symbol: str) -> str:
    """``module.function`` of a Numba symbol (``_ZN4dsim…4core6decideB3v90…`` → ``core.decide``); a
    ``cfunc.``/``cpython.`` wrapper keeps that prefix; anything else is returned as it is."""
    prefix = ""
    if symbol.startswith("cfunc."):
        prefix, symbol = "cfunc ", symbol[len("cfunc."):]
    if not symbol.startswith("_ZN"):
        return prefix + symbol
    parts, i = [], 3
    while i < len(symbol) and symbol[i].isdigit():
        digits = _DIGITS.match(symbol, i).group()
        start = i + len(digits)
        parts.append(symbol[start:start + int(digits)])
        i = start + int(digits)
    if parts and parts[0] == "cpython":
        prefix, parts = "cpython ", parts[1:]
    return prefix + ".".join(parts[-2:]) if parts else symbol


def _dispatchers() -> list:
    """Every Numba dispatcher in this process."""
    import gc

    from numba.core.dispatcher import Dispatcher

    return [o for o in gc.get_objects() if isinstance(o, Dispatcher)]


def _compiled_symbols() -> dict[int, str]:
    """Entry address → demangled name of every function of every compiled Numba function in this process
    (loaded from the cache or compiled now)."""
    found: dict[int, str] = {}
    for dispatcher in _dispatchers():
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


def _play(workload: Workload, battles: int, between: Callable[[], None] | None = None) -> float:
    """Load the workload's kernel (10 battles), call ``between()``, play ``battles`` battles on one thread;
    their mean rounds."""
    import numba

    from dsim.workloads import SEED
    from dsim.registry import load_game
    from dsim.rng import stream_key

    numba.set_num_threads(1)
    game = load_game(workload.game, workload.game_module)
    stream = stream_key(json.dumps(workload.settings, sort_keys=True))  # as `dsim bench` and `dsim run`
    game.play(workload.settings, SEED, stream, 0, 10)
    if between is not None:
        between()
    return float(game.play(workload.settings, SEED, stream, 0, battles)[game.outcome.rounds].mean())


def _instrument(state: str) -> None:
    """Turn callgrind's counting of this process ``on`` or ``off``, waiting in one blocking system call
    (``waitpid``) while ``callgrind_control`` does it. The switch lands whenever callgrind serves the request, so
    where it lands must not depend on timing: in the blocked wait it always lands at the same instruction. Reading
    the controller's output instead (``subprocess.run(capture_output=True)``) woke as many times as its output
    came in pieces, so a loaded machine counted a few thousand more of Python's instructions (0.5% of 20 battles)."""
    control = subprocess.Popen(["callgrind_control", "-i", state, str(os.getpid())], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    if control.wait() != 0:
        raise InstructionsError(f"callgrind_control -i {state} failed (exit status {control.returncode})")


def _child(workload: Workload, battles: int, symbols_file: str) -> None:
    """Under callgrind: write the symbol map, count the battles only, print their mean rounds and the functions
    that missed the Numba cache."""

    def start() -> None:
        Path(symbols_file).write_text(json.dumps({str(a): n for a, n in _compiled_symbols().items()}))
        _instrument("on")

    rounds = _play(workload, battles, start)
    _instrument("off")
    compiled = sorted({d.py_func.__qualname__ for d in _dispatchers() if sum(d.stats.cache_misses.values())})
    print(json.dumps({"rounds": rounds, "compiled": compiled}))


def _self_costs(out_file: Path) -> dict[str, int]:
    """Instructions spent in each function itself (``callgrind_annotate``'s table; ``PROGRAM TOTALS`` too)."""
    text = subprocess.run(["callgrind_annotate", "--threshold=100", "--auto=no", str(out_file)], capture_output=True,
                          text=True, check=True).stdout
    costs: dict[str, int] = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(\S.*)", line)
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


def _by_name(counts: dict[str, int], symbols: dict[int, str]) -> dict[str, int]:
    """``counts`` keyed by readable function names (JIT labels of one function summed)."""
    named: Counter[str] = Counter()
    for label, n in counts.items():
        named[_name(label, symbols)] += n
    return dict(named)


def require_valgrind() -> None:
    """Raise :class:`InstructionsError` unless valgrind is on the PATH (checked before any long work)."""
    if not shutil.which("valgrind"):
        raise InstructionsError("counting instructions needs valgrind (Debian: apt-get install valgrind)")


def count_target() -> dict[str, str]:
    """The Numba CPU target counts are made in, as environment variables: ``x86-64-v3`` (AVX2, 2013 on) on any
    x86-64 host that runs it, else the host's own. Valgrind executes no AVX-512 and shows its guest a plainer
    CPU than the host, so the host's own machine code may not run under it and would not be what the guest
    compiles; one fixed target runs everywhere and makes counts from different hosts comparable."""
    from numba.core.registry import cpu_target

    codegen = cpu_target.target_context.codegen()
    host = {"NUMBA_CPU_NAME": codegen._get_host_cpu_name(), "NUMBA_CPU_FEATURES": codegen._tm_features}
    if platform.machine() in ("x86_64", "AMD64") and "+avx2" in host["NUMBA_CPU_FEATURES"].split(","):
        return {"NUMBA_CPU_NAME": "x86-64-v3", "NUMBA_CPU_FEATURES": ""}
    return host


def count(workload: Workload, battles: int = BATTLES) -> Instructions:
    """Count ``battles`` battles of ``workload`` under callgrind, in :func:`count_target`'s machine code,
    compiled natively first (half a minute when that target's kernel is not yet in the Numba cache: compiling
    under valgrind would take the better part of an hour)."""
    require_valgrind()
    env = os.environ | count_target() | {"PYTHONHASHSEED": "0"}
    command = [sys.executable, "-m", "dsim.instructions", workload.name]
    warm = subprocess.run([*command, "--battles", "1", "--warm"], capture_output=True, text=True, env=env)
    if warm.returncode != 0:
        raise InstructionsError(f"compiling {workload.name} for {env['NUMBA_CPU_NAME']} failed:\n"
                                f"{warm.stderr[-2000:]}")
    with tempfile.TemporaryDirectory(prefix="dsim-callgrind-") as tmp:
        out, symbols_file = Path(tmp) / "callgrind.out", Path(tmp) / "symbols.json"
        try:
            run = subprocess.run(
                ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
                 *command, "--battles", str(battles), "--child", str(symbols_file)],
                capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
        except subprocess.TimeoutExpired:
            raise InstructionsError(f"the counted run of {workload.name} took over {TIMEOUT_S // 60} minutes: is "
                                    "NUMBA_CACHE_DIR writable?") from None
        if run.returncode != 0 or not out.exists() or not symbols_file.exists():
            raise InstructionsError(f"the counted run of {workload.name} failed:\n{run.stderr[-2000:]}")
        told = json.loads(run.stdout.strip().splitlines()[-1])
        symbols = {int(a): n for a, n in json.loads(symbols_file.read_text()).items()}
        costs, calls = _self_costs(out), _calls(out)
    if "PROGRAM TOTALS" not in costs:
        raise InstructionsError("callgrind_annotate printed no PROGRAM TOTALS line (an unknown valgrind version?)")
    total = costs.pop("PROGRAM TOTALS")
    return Instructions(battles, told["rounds"], total, _by_name(costs, symbols), _by_name(calls, symbols),
                        tuple(told["compiled"]))


def report(counted: Instructions, name: str, top: int) -> str:
    """The count per battle and round, then the ``top`` functions by their own instructions."""
    per_battle = counted.per_battle
    lines = [f"{name}: {per_battle:,.0f} instructions per battle ({per_battle / counted.rounds:,.0f} per round; "
             f"{counted.battles:,} battles, {counted.rounds:.2f} rounds each)",
             f"{'instr/battle':>12} {'share':>6} {'calls/battle':>12}  function"]
    if counted.compiled:
        lines.insert(1, f"warning: {counted.compiled_warning()}")
    for function, cost in Counter(counted.by_function).most_common(top):
        lines.append(f"{cost / counted.battles:12,.0f} {100 * cost / counted.total:5.1f}% "
                     f"{counted.calls.get(function, 0) / counted.battles:12.1f}  {function}")
    return "\n".join(lines)


def main() -> int:
    """``python -m dsim.instructions WORKLOAD``: the by-function count (or, with ``--child``, the counted run)."""
    parser = argparse.ArgumentParser(prog="python -m dsim.instructions", description=__doc__.split("\n\n")[0])
    parser.add_argument("workload", help="a `dsim bench` workload, e.g. l1-2p")
    parser.add_argument("--battles", type=int, default=BATTLES, help=f"battles counted (default {BATTLES:,})")
    parser.add_argument("--top", type=int, default=30, help="functions listed (default 30)")
    parser.add_argument("--child", metavar="SYMBOLS_FILE", help=argparse.SUPPRESS)
    parser.add_argument("--warm", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    from dsim.workloads import BenchError, select_workloads

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
    if args.warm:
        _play(matched[0], args.battles)
        return 0
    try:
        require_valgrind()
        print(report(count(matched[0], args.battles), args.workload, args.top))
    except InstructionsError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
