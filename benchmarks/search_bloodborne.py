"""What Bloodborne's searchers cost: games/s, searched decisions/s and replays/s of `expert` (dsim.search).

    python benchmarks/search_bloodborne.py [games] [rollouts]

Plays `expert` (base greedy, model: the others' actual policies) in one seat of a table of three `greedy` hunters
(4 hunters, rotating seats) on all Numba threads, after a warm-up call (compiles excluded), and prints one line. A
replay is one game played from its start with the searcher's decisions forced (the searcher's unit of work).
"""

from __future__ import annotations

import sys
import time

import numba
import numpy as np

from dsim.games.bloodborne.game import prepare
from dsim.games.bloodborne.searchers import search_games


def main(games: int = 32, rollouts: int = 16) -> None:
    cell = prepare({"hunters": 4, "policy": "expert", "opponents": "greedy", "policy_params": {"rollouts": rollouts}})
    vector = cell.params[0, : len(cell.policies[0].params)]
    search_games(cell, vector, 1, 1, np.arange(2))  # warm-up: compile or load
    start = time.perf_counter()
    found, _ = search_games(cell, vector, 1, 1, np.arange(games))
    seconds = time.perf_counter() - start
    print(f"bloodborne expert vs 3 greedy: {games} games, {rollouts} rollouts an option, {numba.get_num_threads()} "
          f"threads: {games / seconds:.2f} games/s, {found.decisions / seconds:,.0f} decisions/s, "
          f"{found.replays / seconds:,.0f} replays/s ({found.replays / games:,.0f} replays a game, "
          f"{found.decisions / games:.1f} searched decisions a game)", flush=True)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
