"""Regenerate ``docs/dstbg-game.md``: DS:TBG played whole (``--game dstbg_game``) — the game win rate of every
party against every mini boss × main boss pair, how far parties get (the funnel), and what the strategy changes.

Every cell is played through the generic Python API (``get_game("dstbg_game").play``) on the random stream of
its settings (``dsim.play.cell_stream``), with exactly the settings ``dsim game`` builds, so any cell can be
checked with the ``dsim game … --json`` command printed on the page (same seed, same games):

    python docs/make_game_tables.py [--games 5000] [--seed 1]
"""

from __future__ import annotations

import argparse
import itertools
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np

from dsim.games import get_game
from dsim.play import CHUNK, cell_stream
from dsim.stats import mean_interval, paired_difference_interval, wilson_interval

PAGE = Path(__file__).with_name("dstbg-game.md")
CLASSES = ("knight", "warrior", "assassin", "herald")
PARTIES = [list(c) for size in range(1, 5) for c in itertools.combinations(CLASSES, size)]
"""Every party of 1–4 core classes, seats in the order of CLASSES (15 parties)."""
MINI_BOSSES = ("gargoyle", "titanite_demon", "boreal_outrider_knight", "winged_knight")
MAIN_BOSSES = ("ornstein_and_smough", "dancer_of_the_boreal_valley")
SHORT = {"gargoyle": "Gargoyle", "titanite_demon": "Titanite Demon", "boreal_outrider_knight": "Boreal Outrider",
         "winged_knight": "Winged Knight", "ornstein_and_smough": "O&S", "dancer_of_the_boreal_valley": "Dancer"}
PAIRS = [(mini, main) for main in MAIN_BOSSES for mini in MINI_BOSSES]
DEFAULT_PAIR = ("gargoyle", "ornstein_and_smough")
STRATEGIES = ("balanced", "rush", "farmer", "random_legal")
STRATEGY_PARTIES = (["knight", "warrior"], ["knight", "warrior", "assassin"], list(CLASSES))
BATTLE_POLICY = "tactician"
FUNNEL = (("reached_mini", "reached the mini boss"), ("beat_mini", "beat the mini boss"),
          ("reached_main", "reached the main boss"), ("win", "won"))


def settings_of(party: list[str], mini: str, main: str, strategy: str = "balanced") -> dict[str, Any]:
    """The cell's settings exactly as ``dsim game`` builds them (so its stream, hence its games, match)."""
    return {"party": list(party), "mini_boss": mini, "main_boss": main, "policy": strategy,
            "battle_policy": BATTLE_POLICY}


def command(party: list[str], mini: str, main: str, strategy: str, games: int, seed: int) -> str:
    """The ``dsim game`` command that plays the same games as the cell."""
    return (f"dsim game --party {','.join(party)} --mini-boss {mini} --main-boss {main} --strategy {strategy} "
            f"--games {games} --seed {seed} --json")


def play_cell(settings: dict[str, Any], games: int, seed: int, stream: int | None = None) -> dict[str, Any]:
    """Games ``0 .. games-1`` of one cell (on its own stream unless ``stream`` is given): the funnel with Wilson
    intervals, the mean stage reached, means, and every game's stage (``stages``)."""
    game = get_game("dstbg_game")
    stream = cell_stream(settings) if stream is None else stream
    stage, counts = [], {"win": 0, "capped": 0}
    sums = {"battles": 0.0, "battles_lost": 0.0, "souls_earned": 0.0, "rests": 0.0}
    for lo in range(0, games, CHUNK):
        cols = game.play(settings, seed, stream, lo, min(CHUNK, games - lo))
        derived = game.derive(cols, settings)
        stage.append(np.asarray(cols["stage"], np.int64))
        counts["win"] += int(np.sum(cols["win"]))
        counts["capped"] += int(np.sum(derived["capped"]))
        for name in sums:
            sums[name] += float(np.sum(cols[name]))
    stages = np.concatenate(stage)
    counts["reached_mini"] = int(np.sum(stages >= 1))
    counts["beat_mini"] = int(np.sum(stages >= 2))
    counts["reached_main"] = int(np.sum(stages >= 3))
    out: dict[str, Any] = {"games": games, "capped": counts["capped"], "stages": stages}
    for key, _ in FUNNEL:
        low, high = wilson_interval(counts[key], games)
        out[key] = (counts[key] / games, float(low), float(high), counts[key])
    out["stage"] = mean_interval(stages)
    out |= {f"mean_{name}": total / games for name, total in sums.items()}
    return out


def pct(x: float) -> str:
    """A share as a percentage: two decimals below 1%, one above."""
    return f"{100 * x:.2f}%" if x < 0.01 else f"{100 * x:.1f}%"


def conditional(hits: int, n: int) -> tuple[float, float, float, int]:
    """A share of a subset (``hits`` of ``n``) with its Wilson interval, as the cells store it."""
    if n == 0:
        return (float("nan"), float("nan"), float("nan"), 0)
    low, high = wilson_interval(hits, n)
    return (hits / n, float(low), float(high), hits)


def with_ci(value: tuple[float, float, float, int], small: bool = True) -> str:
    """``3.4% <sub>2.9–4.0</sub>``: a share and its 95% interval (in percent)."""
    p, low, high, _ = value
    if p != p:  # no game in the subset
        return "—"
    digits = 2 if p < 0.01 else 1
    lo, hi = f"{100 * low:.{digits}f}", f"{100 * high:.{digits}f}"
    return f"{pct(p)} <sub>{lo}–{hi}</sub>" if small else f"{pct(p)} ({lo}–{hi}%)"


def label(party: list[str]) -> str:
    return "+".join(party)


def pair_label(mini: str, main: str) -> str:
    return f"{SHORT[mini]} → {SHORT[main]}"


def grid_table(results: dict[tuple[str, str, str], dict], key: str) -> str:
    """Parties as rows, boss pairs as columns: one funnel measure with its interval."""
    rows = ["| party | " + " | ".join(pair_label(*p) for p in PAIRS) + " |", "|---|" + "---:|" * len(PAIRS)]
    for party in PARTIES:
        cells = [with_ci(results[(label(party), mini, main)][key]) for mini, main in PAIRS]
        rows.append(f"| {label(party)} | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def funnel_table(results: dict[tuple[str, str, str], dict]) -> str:
    """The funnel for the default pair, one party per row."""
    head = " | ".join(name for _, name in FUNNEL)
    rows = [f"| party | {head} | beat the mini boss, of those that reached it | mean battles | battles lost | "
            "souls earned |", "|---|" + "---:|" * (len(FUNNEL) + 4)]
    for party in PARTIES:
        r = results[(label(party), *DEFAULT_PAIR)]
        rows.append(f"| {label(party)} | " + " | ".join(with_ci(r[k]) for k, _ in FUNNEL)
                    + f" | {with_ci(conditional(r['beat_mini'][3], r['reached_mini'][3]))} | {r['mean_battles']:.1f} | "
                    f"{r['mean_battles_lost']:.1f} | {r['mean_souls_earned']:.1f} |")
    return "\n".join(rows) + "\n"


def order_chain(by_strategy: dict[str, dict], key: str) -> tuple[str, bool, bool]:
    """Strategies from best to worst on one measure (ties keep the given order): ``a > b`` where their 95%
    intervals do not overlap, ``a ≈ b`` where they do; also whether every neighbour pair is separated and
    whether any is."""
    def value(s: str) -> tuple[float, float, float]:
        v = by_strategy[s][key]
        return (v[0], v[1], v[2])

    order = sorted(by_strategy, key=lambda s: -value(s)[0])  # stable: ties stay in the table's order
    text, seps = order[0], []
    for better, worse in itertools.pairwise(order):
        separated = value(worse)[2] < value(better)[1]
        seps.append(separated)
        text += (" **>** " if separated else " ≈ ") + worse
    return text, all(seps), any(seps)


def strategy_section(games: int, seed: int) -> tuple[str, str]:
    """Per party: every strategy's funnel and mean stage, ordered, with where the order holds beyond the intervals."""
    parts, summary = [], []
    for party in STRATEGY_PARTIES:
        by = {s: play_cell(settings_of(party, *DEFAULT_PAIR, s), games, seed) for s in STRATEGIES}
        order = sorted(STRATEGIES, key=lambda s: -by[s]["stage"][0])
        head = " | ".join(name for _, name in FUNNEL)
        rows = [f"| strategy | {head} | mean stage (0–4) | mean battles |", "|---|" + "---:|" * (len(FUNNEL) + 2)]
        for s in order:
            mean, low, high = by[s]["stage"]
            rows.append(f"| {s} | " + " | ".join(with_ci(by[s][k]) for k, _ in FUNNEL)
                        + f" | {mean:.3f} <sub>{low:.3f}–{high:.3f}</sub> | {by[s]['mean_battles']:.1f} |")
        lines = []
        for key, name in (*FUNNEL, ("stage", "mean stage")):
            chain, every, some = order_chain({s: by[s] for s in order}, key)
            if key != "stage" and all(by[s][key][3] == 0 for s in STRATEGIES):
                lines.append(f"- {name}: no game got there with any strategy")
                continue
            if every:
                verdict = "every step beyond the intervals"
            elif some:
                verdict = "only the steps marked **>** are beyond the intervals"
            else:
                verdict = "no step is beyond the intervals"
            lines.append(f"- {name}: {chain} ({verdict})")
        parts.append(f"### {label(party)}\n\n" + "\n".join(rows) + "\n\n" + "\n".join(lines) + "\n")
        summary.append((label(party), order, by))
    return "\n".join(parts), _strategy_summary(summary)


def rest_check(games: int, seed: int) -> str:
    """``balanced`` as it is, and never resting of its own accord (``rest_sparks`` = 5), on the same games: a rest
    turns the cleared tiles face down (R-6.5), fog gate included, so the map must be won again before the boss."""
    rows = ["| party | measure | as is | never rests of its own accord | difference (paired, 95% CI) |",
            "|---|---|---:|---:|---:|"]
    for party in STRATEGY_PARTIES[:2]:
        base = settings_of(party, *DEFAULT_PAIR)
        stream = cell_stream(base)  # common random numbers: game i is the same deal and dice under both settings
        plain = play_cell(base, games, seed, stream)
        never = play_cell(base | {"policy_params": {"rest_sparks": 5.0}}, games, seed, stream)
        for key, stage in (("reached_mini", 1), ("beat_mini", 2)):
            a, b = plain["stages"] >= stage, never["stages"] >= stage
            low, high = paired_difference_interval(int(np.sum(b & ~a)), int(np.sum(a & ~b)), games)
            diff = float(np.mean(b) - np.mean(a))
            rows.append(f"| {label(party)} | {dict(FUNNEL)[key]} | {with_ci(plain[key])} | {with_ci(never[key])} | "
                        f"{100 * diff:+.2f} points ({100 * low:+.2f} to {100 * high:+.2f}) |")
        rows.append(f"| {label(party)} | voluntary rests per game | {plain['mean_rests']:.2f} | "
                    f"{never['mean_rests']:.2f} | |")
    return "\n".join(rows) + "\n"


def _strategy_summary(summary: list[tuple[str, list[str], dict]]) -> str:
    """One sentence per party: the best and worst strategy by mean stage, and whether the gap is beyond the
    intervals."""
    out = ["Strategy (mean stage reached, 0–4, on the default pair; details at the end):\n"]
    for party, order, by in summary:
        best, worst = order[0], order[-1]
        runner = order[1]
        clear = by[runner]["stage"][2] < by[best]["stage"][1]
        out.append(f"- {party}: `{best}` goes furthest (mean stage {by[best]['stage'][0]:.3f}), "
                   f"{'clearly ahead of' if clear else 'not separable from'} `{runner}` "
                   f"({by[runner]['stage'][0]:.3f}); the default `balanced` ranks {order.index('balanced') + 1} of "
                   f"{len(order)} ({by['balanced']['stage'][0]:.3f}); `{worst}` is last ({by[worst]['stage'][0]:.3f}).")
    return "\n".join(out) + "\n"


def strategies_described() -> str:
    from dsim.games.dstbg_game.strategy import REGISTRY

    def text(name: str) -> str:
        description = REGISTRY.get(name).description
        head, _, rest = description.partition(": ")  # "Rush: the tiles …" → "the tiles …"
        return rest if rest and head.lower().replace(" ", "_") == name else description

    return "\n".join(f"- `{name}`: {text(name)}" for name in STRATEGIES) + "\n"


def not_simulated() -> str:
    from dsim.games.dstbg_game.game import NOT_SIMULATED

    return "\n".join(f"- **{rule}**: {why}" for rule, why in NOT_SIMULATED.items()) + "\n"


def map_levels(bosses: tuple[str, ...]) -> str:
    """Each boss's map as the levels of its encounter cards (data/dstbg/bosses/*.yaml)."""
    from dsim.games.dstbg.game import game_data

    data = game_data(None)
    return "; ".join(f"{SHORT[b]} {', '.join(map(str, sorted(data.bosses[b].encounter_levels)))}" for b in bosses)


def headline(results: dict[tuple[str, str, str], dict], games: int) -> str:
    """What the big table says in one paragraph (written from the numbers, so it stays true)."""
    wins = sum(r["win"][3] for r in results.values())
    total = games * len(results)
    best_key = max(results, key=lambda k: results[k]["win"][0])
    best = results[best_key]
    beat = {k: r["beat_mini"][0] for k, r in results.items()}
    top_beat = max(beat, key=beat.get)
    reached = [r["reached_mini"][0] for r in results.values()]
    reached_n = sum(r["reached_mini"][3] for r in results.values())
    beat_n = sum(r["beat_mini"][3] for r in results.values())
    main_n = sum(r["reached_main"][3] for r in results.values())
    text = (f"Over all {len(results)} cells, {wins:,} of {total:,} games {'was' if wins == 1 else 'were'} won "
            f"({pct(wins / total)}); the best cell is {best_key[0]} against {pair_label(best_key[1], best_key[2])} "
            f"at {with_ci(best['win'], small=False)}. Wins by main boss: "
            + ", ".join(f"{SHORT[m]} {sum(r['win'][3] for k, r in results.items() if k[2] == m):,}"
                        for m in MAIN_BOSSES)
            + "; by party size: "
            + ", ".join(f"{n} character{'s' if n > 1 else ''} "
                        f"{sum(r['win'][3] for k, r in results.items() if k[0].count('+') + 1 == n):,}"
                        for n in range(1, 5)) + ". ")
    if best["win"][0] < 0.01:
        text += ("**Whole games are almost never won in this model**, so the win-rate table is all but zeros and its "
                 "intervals only bound how rare a win is. The battle model is harsh: with the starting kits, the "
                 "`tactician` in every battle and 6 − party size sparks, most games end in the first exploration, "
                 "and few of the parties that reach the mini boss beat it. The informative part is how far the "
                 "parties get (the funnel below). ")
    text += (f"Per cell, between {pct(min(reached))} and {pct(max(reached))} of games reach the mini boss and at "
             f"most {pct(beat[top_beat])} beat it ({top_beat[0]} against {SHORT[top_beat[1]]}); over all cells, "
             f"{beat_n:,} of the {reached_n:,} games that reached a mini boss beat it "
             f"({pct(beat_n / max(reached_n, 1))}); of those, {main_n:,} ({pct(main_n / max(beat_n, 1))}) cleared the "
             f"main boss's map (encounter levels 2–3) "
             f"to reach the main boss, and {wins:,} won. The share of games reaching the mini boss follows its map's "
             f"encounter levels ({map_levels(MINI_BOSSES)}): the more level-2 cards, the fewer get there.\n")
    return text


def code_version() -> str:
    """The commit the page was made from (and whether the engine or the data had uncommitted changes)."""
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                                check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "dsim", "policies", "data"], cwd=root,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return f"commit {commit}" + (" with uncommitted changes to the engine or data" if dirty else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="games per cell of the party × boss tables")
    parser.add_argument("--strategy-games", type=int, default=None,
                        help="games per cell of the strategy tables (default: 4 × --games)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sgames = args.strategy_games or 4 * args.games
    version = code_version()  # before playing: the code imported is the code of this moment
    started = time.perf_counter()
    results = {}
    for party in PARTIES:
        for mini, main in PAIRS:
            results[(label(party), mini, main)] = play_cell(settings_of(party, mini, main), args.games, args.seed)
        print(f"{label(party)}: {time.perf_counter() - started:.0f} s", flush=True)
    strategies, strategy_summary = strategy_section(sgames, args.seed)
    capped = sum(r["capped"] for r in results.values())
    regen = "python docs/make_game_tables.py" + (f" --games {args.games}" if args.games != 5000 else "") \
        + (f" --strategy-games {sgames}" if args.strategy_games else "") \
        + (f" --seed {args.seed}" if args.seed != 1 else "")
    page = [
        "# DS:TBG played whole: win rates, how far parties get, and strategies\n",
        f"Generated by `{regen}`{f' at {version}' if version else ''} (seed {args.seed}; {args.games:,} games per "
        "party × boss cell, "
        f"{sgames:,} per strategy cell; {time.perf_counter() - started:.0f} s on the machine that wrote it). "
        "Every cell is `--game dstbg_game` with the settings `dsim game` builds, so each one can be checked with "
        f"the same games, e.g. `{command(['knight', 'warrior'], *DEFAULT_PAIR, 'balanced', args.games, args.seed)}`. "
        "Intervals are 95% Wilson intervals (in percent, in small print after each share).\n",
        "**A game** (R-1.1): the party (1–4 characters, starting kits) starts at the bonfire with the spark dial at "
        "6 − party size (a lone character also gets 16 souls). It explores the mini boss's map tile by tile: each "
        "tile is an encounter battle; a won battle pays souls and opens the tile's chests; at the bonfire the party "
        "spends souls on treasure cards, stat levels and luck, equips what it found and puts upgrade cards on its "
        "items (R-4.7, R-5.6). A lost battle drops the "
        "souls and forces a rest (a spark; rested tiles must be fought again); a defeat at 0 sparks loses the game "
        "(R-5.10). Past the fog gate the party fights the mini boss; beating it deals a new map for the main boss "
        "and resets the dial (R-1.12); beating the main boss wins. Between battles a *strategy* decides "
        "(`balanced` by default; `rush`, `farmer`, `random_legal`: `dsim policies list --game dstbg_game`); in "
        f"battle the `{BATTLE_POLICY}` battle policy plays every character.\n",
        "**Not simulated** (`NOT_SIMULATED` in `dsim/games/dstbg_game/game.py`), so the figures are this model's, "
        "not the printed game's:\n",
        not_simulated(),
        "Parties are the 15 sets of 1–4 core classes, seats in the order knight, warrior, assassin, herald. "
        "Boss pairs: Gargoyle, Titanite Demon, Boreal Outrider Knight, Winged Knight (mini) then Ornstein & Smough "
        f"(O&S) or the Dancer of the Boreal Valley (main); the encounter levels of each boss's map: "
        f"{map_levels(MINI_BOSSES + MAIN_BOSSES)}. "
        + (f"{capped} games hit the battle cap (counted as losses).\n" if capped else
           "No game hit the battle cap (`max_battles`).\n"),
        "## In short\n",
        headline(results, args.games),
        strategy_summary,
        "## Game win rate per party and boss pair\n",
        "Share of games won (the main boss beaten), `balanced` strategy.\n",
        grid_table(results, "win"),
        "## How far they get: beating the mini boss\n",
        "Share of games in which the party beat the mini boss (the first half of the game), same cells.\n",
        grid_table(results, "beat_mini"),
        "## How far they get: reaching the mini boss\n",
        "Share of games in which the party cleared the way to the mini boss (won the fog-gate tile and entered "
        "the boss battle at least once), same cells.\n",
        grid_table(results, "reached_mini"),
        f"## The funnel: {pair_label(*DEFAULT_PAIR)} (the default pair)\n",
        "Share of games that reach each stage, with the means per game. Each column is a subset of the one before.\n",
        funnel_table(results),
        "## Strategy: what the choices between battles change\n",
        f"The four strategies on {pair_label(*DEFAULT_PAIR)}, {sgames:,} games each (its own random stream per "
        "cell, as `dsim game --strategy S` plays it). Rows are ordered by the mean stage reached (0 = lost in the "
        "first exploration, 1 = reached the mini boss, 2 = beat it, 3 = reached the main boss, 4 = won; the sum of "
        "the funnel's shares). Under each table the order on every measure: **>** between neighbours whose 95% "
        "intervals do not overlap (the order is beyond the noise), ≈ where they overlap (not established by "
        "these games).\n",
        strategies_described(),
        strategies,
        "### `balanced`'s rest before the boss\n",
        "Once every tile is won, `balanced` rests before the boss whenever a character has spent the estus and more "
        "than one spark is left. A rest refills the estus but turns the cleared tiles face down again (R-6.5), the "
        "fog gate's included, so the whole map must be won again before the boss. The same games with that rest "
        f"switched off (`policy_params = {{rest_sparks = 5}}`; {sgames:,} games each, the same deals and dice in both "
        "columns, so the difference is paired). Compare the *never rests* column with `farmer` and `rush` above; "
        "whether the rest pays back in the boss fight (full estus) is each party's second row.\n",
        rest_check(sgames, args.seed),
    ]
    PAGE.write_text("\n".join(page))
    print(f"wrote {PAGE} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
