"""What Dark Maiden's searchers cost: games/s, searched decisions/s and replays/s of `expert` and `oracle`
(dsim.search over dsim.games.dark_maiden.engine.GameReplayer).

    python benchmarks/search_dark_maiden.py [games] [rollouts] [base]

Plays the three basic heroes on normal under `expert` (``rollouts`` an option) and `oracle` with ``base`` (default
the tactician) rolled out, on all Numba threads, after a warm-up call (compiles excluded), and prints one line per
searcher. A replay is one game played from its start with a forced prefix of decisions (the searcher's unit of work).

Measured 2026-12-07 22:55 UTC (commit 667e813, 2 × Intel Xeon at load ~24, so every rate is several times low):
`python benchmarks/search_dark_maiden.py 8 16 tactician` — expert: 0.18 games/s, 25.5 decisions/s (144 decisions
a game), 890 replays/s (5,041 replays a game); oracle: 3.92 games/s, 587 decisions/s, 1,851 replays/s (472 a game).
A searched game costs about as many tactician games as it replays, so its speed is the tactician's (issue 43).
"""

from __future__ import annotations

import sys
import time

import numba
import numpy as np

from dsim.games.dark_maiden.game import prepare
from dsim.games.dark_maiden.searchers import replayer
from dsim.search import Budget, search


def main(games: int = 20, rollouts: int = 16, base: str = "tactician") -> None:
    cell = prepare({"party": ["amazona", "barbara", "guerrero"], "difficulty": "normal", "policy": base})
    games_of = replayer(cell, base, 7, 1)
    search(games_of, np.arange(2), Budget(rollouts=2, decisions=4), seed=1)  # warm-up: compile or load
    for name, budget, fair in (("expert", Budget(rollouts=rollouts), True), ("oracle", Budget(rollouts=1), False)):
        start = time.perf_counter()
        found = search(games_of, np.arange(games), budget, seed=1, fair=fair)
        seconds = time.perf_counter() - start
        wins = float((found.values == 1.0).mean())
        print(f"{name} over {base} ({budget.rollouts} rollouts an option), {games} games, {numba.get_num_threads()} "
              f"threads: {games / seconds:.2f} games/s, {found.decisions / seconds:,.1f} decisions/s "
              f"({found.decisions / games:,.0f} decisions a game), {found.replays / seconds:,.0f} replays/s "
              f"({found.replays / games:,.0f} replays a game), win rate {wins:.3f}", flush=True)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]), *sys.argv[3:4])
