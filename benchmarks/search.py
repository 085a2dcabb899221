"""What the DS:TBG searchers cost: battles/s, searched decisions/s and replays/s of `expert` (dsim.search).

    python benchmarks/search.py [battles] [rollouts]

Plays a level-1 encounter and the Gargoyle (Knight + Warrior, mid_game gear) under `expert` with the tactician as
base, on all Numba threads, after a warm-up call (compiles excluded), and prints one line per cell. A replay is one
battle played from its start with a forced prefix of decisions (the searcher's unit of work).
"""

from __future__ import annotations

import sys
import time

import numba
import numpy as np

from dsim.games.dstbg import engine
from dsim.games.dstbg.game import prepare
from dsim.games.dstbg.policy import get_policy
from dsim.search import Budget, search

CELLS = {
    "l1-2p (the_forgotten)": {"party": ["knight", "warrior"], "encounter": "the_forgotten"},
    "gargoyle mid_game": {"party": ["knight", "warrior"], "boss": "gargoyle", "loadout": "mid_game"},
}


def main(battles: int = 100, rollouts: int = 16) -> None:
    base = get_policy("tactician")
    for name, settings in CELLS.items():
        cell = prepare({**settings, "policy": "tactician"})
        replayer = engine.BattleReplayer(cell.compiled.tables, base.decide, base.vector(), 7, 1)
        search(replayer, np.arange(2), Budget(rollouts=2, decisions=4), seed=1)  # warm-up: compile or load
        start = time.perf_counter()
        found = search(replayer, np.arange(battles), Budget(rollouts=rollouts), seed=1)
        seconds = time.perf_counter() - start
        wins = float((found.values == 1.0).mean())
        print(f"{name}: {battles} battles, {rollouts} rollouts an option, {numba.get_num_threads()} threads: "
              f"{battles / seconds:.1f} battles/s, {found.decisions / seconds:,.0f} decisions/s, "
              f"{found.replays / seconds:,.0f} replays/s ({found.replays / battles:,.0f} replays a battle), "
              f"expert win rate {wins:.3f}", flush=True)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
