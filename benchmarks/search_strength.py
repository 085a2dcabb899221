"""How strong the DS:TBG expert is for its budget: win rates of budget variants on common battles, paired.

    python benchmarks/search_strength.py [battles] ['{"name": {"policy": …, "policy_params": {…}}, …}']

Plays Knight + Warrior against the Gargoyle with mid_game gear (seed 1) under each variant through the game's
evaluator (the same battles for every variant), and prints each win rate with its 95% Wilson interval and each
variant's paired difference from the first with Tango's interval. The default compares the default expert with
the unscreened one, with 64 rollouts and with the tactician (policies/dstbg/README.md quotes the result).
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np

from dsim.games.dstbg.game import DSTBG
from dsim.stats import paired_difference_interval, wilson_interval

CELL = {"party": ["knight", "warrior"], "boss": "gargoyle", "loadout": "mid_game"}
VARIANTS = {"expert": {"policy": "expert"},
            "expert screen=0": {"policy": "expert", "policy_params": {"screen": 0}},
            "expert rollouts=64": {"policy": "expert", "policy_params": {"rollouts": 64}},
            "tactician": {"policy": "tactician"}}
CHUNK = 64  # battles a call: the variants' interval figures print as soon as each is done


def main(battles: int = 300, variants: dict | None = None) -> None:
    game = DSTBG()
    won = {}
    for name, params in (variants or VARIANTS).items():
        settings = {**CELL, **params}
        chosen, evaluate = game.evaluator(settings, 1)
        vector = chosen.vector(settings.get("policy_params"))
        start = time.perf_counter()
        won[name] = np.concatenate([np.asarray(evaluate(vector, lo, min(CHUNK, battles - lo)), bool)
                                    for lo in range(0, battles, CHUNK)])
        low, high = wilson_interval(int(won[name].sum()), battles)
        print(f"{name}: {won[name].mean():.3f} ({low:.3f}-{high:.3f}) in {time.perf_counter() - start:.0f} s",
              flush=True)
    first, *others = won
    for name in others:
        a, b = won[name], won[first]
        low, high = paired_difference_interval(int((a & ~b).sum()), int((~a & b).sum()), battles)
        print(f"{name} - {first}: {a.mean() - b.mean():+.3f} ({low:+.3f} to {high:+.3f})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300, json.loads(sys.argv[2]) if len(sys.argv) > 2 else None)
