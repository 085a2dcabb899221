"""Regenerate ``docs/veteran-study.md``: the ``veteran`` battle policy against the ``tactician`` on the six core bosses
(paired: the same battles), whole games old (``balanced`` + ``tactician``) against new (``steward`` + ``veteran``),
the funnel per party size under the new policies, and what each community house rule and the spark dial do to it.

Every cell is played through the generic Python API (``get_game(...).play``) on the random stream of its settings
without the policy (``dsim.play.cell_stream``): policies are out of the common-random-numbers key, so two policies of
one cell play the same battles (or games) and the difference is paired (Tango's interval, ``dsim.stats``):

    python docs/make_veteran_study.py [--battles 20000] [--games 20000] [--seed 1]
"""

from __future__ import annotations

import argparse
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np

from dsim.games import get_game
from dsim.play import CHUNK, cell_stream
from dsim.stats import paired_difference_interval, wilson_interval

PAGE = Path(__file__).with_name("veteran-study.md")
PARTY = ["knight", "warrior"]
BOSSES = (("gargoyle", "mid_game"), ("boreal_outrider_knight", "mid_game"), ("winged_knight", "mid_game"),
          ("titanite_demon", "mid_game"), ("dancer_of_the_boreal_valley", "late_game"),
          ("ornstein_and_smough", "late_game"))
LOADOUTS = ("mid_game", "late_game")
OLD = ("balanced", "tactician")
NEW = ("steward", "veteran")
PARTIES = {1: ["knight"], 2: ["knight", "warrior"], 3: ["knight", "warrior", "assassin"],
           4: ["knight", "warrior", "assassin", "herald"]}
HOUSE_RULES = (("printed game", {}), ("Double Souls Half Sparks", {"double_souls_half_sparks": "on"}),
               ("16 starting souls", {"starting_souls": 16}), ("Optimal Boss Rewards", {"optimal_boss_rewards": "on"}),
               ("Tiny Shop", {"tiny_shop": "on"}), ("tiered treasure deck", {"treasure_tiers": "on"}),
               ("sparks +2", {"sparks_delta": 2}))
STAGES = (("reached the mini boss", 1), ("beat the mini boss", 2), ("reached the main boss", 3), ("won", 4))
MINI_BOSSES = ("gargoyle", "boreal_outrider_knight", "winged_knight", "titanite_demon")
MAIN_BOSSES = ("dancer_of_the_boreal_valley", "ornstein_and_smough")
SEAT_ORDERS = (["herald", "assassin", "warrior", "knight"], ["warrior", "knight", "herald", "assassin"])


def outcomes(game_name: str, settings: dict[str, Any], policy_keys: dict[str, Any], count: int, seed: int,
             column: str) -> np.ndarray:
    """Column ``column`` of plays ``0 .. count-1`` of the cell, on the stream of its settings without the policies
    (so every policy plays the same battles or games)."""
    game = get_game(game_name)
    stream = cell_stream(settings)
    full = settings | policy_keys
    parts = [np.asarray(game.play(full, seed, stream, lo, min(CHUNK, count - lo))[column])
             for lo in range(0, count, CHUNK)]
    return np.concatenate(parts)


def share(x: np.ndarray) -> str:
    """``3.4% (2.9–4.0)``: a share with its 95% Wilson interval."""
    hits, n = int(np.sum(x)), len(x)
    low, high = wilson_interval(hits, n)
    digits = 2 if hits / n < 0.01 else 1
    return f"{100 * hits / n:.{digits}f}% ({100 * low:.{digits}f}–{100 * high:.{digits}f})"


def paired(a: np.ndarray, b: np.ndarray) -> tuple[str, bool]:
    """``+2.1 (1.4 to 2.8)`` points for ``a - b`` on the same plays, and whether the interval lies above 0."""
    only_a, only_b = int(np.sum(a & ~b)), int(np.sum(b & ~a))
    low, high = paired_difference_interval(only_a, only_b, len(a))
    diff = (only_a - only_b) / len(a)
    return f"{100 * diff:+.2f} ({100 * low:+.2f} to {100 * high:+.2f})", low > 0


def battle_section(battles: int, seed: int) -> str:
    rows = ["| boss | loadout | tactician | veteran | veteran − tactician, points (paired 95% CI) | above 0 |",
            "|---|---|---:|---:|---:|:---:|"]
    for boss, _ in BOSSES:
        for loadout in LOADOUTS:
            cell = {"party": PARTY, "boss": boss, "loadout": loadout}
            old = outcomes("dstbg", cell, {"policy": "tactician"}, battles, seed, "win").astype(bool)
            new = outcomes("dstbg", cell, {"policy": "veteran"}, battles, seed, "win").astype(bool)
            diff, beyond = paired(new, old)
            rows.append(f"| {boss} | {loadout} | {share(old)} | {share(new)} | {diff} | {'yes' if beyond else 'no'} |")
    return "\n".join(rows) + "\n"


def game_stages(party: list[str], strategy: str, battle_policy: str, games: int, seed: int,
                variants: dict[str, Any] | None = None, main: str = "ornstein_and_smough",
                mini: str = "gargoyle") -> np.ndarray:
    cell: dict[str, Any] = {"party": party, "mini_boss": mini, "main_boss": main}
    if variants:
        cell["variants"] = variants
    return outcomes("dstbg_game", cell, {"policy": strategy, "battle_policy": battle_policy}, games, seed, "stage")


def funnel_row(name: str, stages: np.ndarray) -> str:
    return f"| {name} | " + " | ".join(share(stages >= k) for _, k in STAGES) + " |"


def game_section(games: int, seed: int) -> str:
    head = "| policies (strategy + battle policy) | " + " | ".join(s for s, _ in STAGES) + " |\n|---|" + "---:|" * 4
    runs = {combo: game_stages(PARTY, *combo, games, seed) for combo in
            (OLD, NEW, ("balanced", "veteran"), ("steward", "tactician"))}
    rows = [funnel_row(f"{s} + {b}", st) for (s, b), st in runs.items()]
    diff, beyond = paired(runs[NEW] >= 2, runs[OLD] >= 2)
    ratio = np.mean(runs[NEW] >= 2) / max(np.mean(runs[OLD] >= 2), 1e-12)
    text = (f"{head}\n" + "\n".join(rows) + f"\n\nBeat the mini boss, new − old on the same games: {diff} points "
            f"({'beyond' if beyond else 'within'} the interval; {ratio:.1f} times the old share).\n")
    sizes = [funnel_row(f"{size}: {'+'.join(PARTIES[size])}", game_stages(PARTIES[size], *NEW, games, seed))
             for size in PARTIES]
    text += ("\n### The funnel per party size (Gargoyle → O&S, `steward` + `veteran`)\n\n" + head + "\n"
             + "\n".join(sizes) + "\n")
    dancer = ["| party | old: won | new: won | new − old, points (paired) | new: beat the mini boss |", "|---|---:|---:|---:|---:|"]
    for size, party in PARTIES.items():
        old = game_stages(party, *OLD, games, seed, main="dancer_of_the_boreal_valley")
        new = game_stages(party, *NEW, games, seed, main="dancer_of_the_boreal_valley")
        dancer.append(f"| {size}: {'+'.join(party)} | {share(old >= 4)} | {share(new >= 4)} | "
                      f"{paired(new >= 4, old >= 4)[0]} | {share(new >= 2)} |")
    text += ("\n### Gargoyle → Dancer of the Boreal Valley: the game won, per party size (old and new policies)\n\n"
             + "\n".join(dancer) + "\n")
    rules = []
    base = None
    for name, variants in HOUSE_RULES:
        stages = game_stages(PARTY, *NEW, games, seed, variants)
        if base is None:
            base = stages
            rules.append(funnel_row(name, stages) + " — |")
        else:
            rules.append(funnel_row(name, stages) + f" {paired(stages >= 2, base >= 2)[0]} |")
    text += ("\n### Community house rules and the spark dial (knight+warrior, `steward` + `veteran`)\n\n"
             + head.replace(" |\n|---|", " | beat the mini boss vs printed, points (paired) |\n|---|")
             + "---:|\n" + "\n".join(rules) + "\n")
    return text


def four_section(games: int, seed: int) -> str:
    """The funnel of the four core characters on every core boss pair (4 mini × 2 main bosses), the best pair (most
    games reaching the main boss) in two other seat orders (R-3.11: the seat order fixes who activates first) and,
    wins being rare, in the default order on five times the games, under ``steward`` + ``veteran``."""
    head = "| mini boss → main boss (party) | " + " | ".join(s for s, _ in STAGES) + " |\n|---|" + "---:|" * 4
    party = PARTIES[4]
    rows, best, top = [], ("", ""), -1.0
    for mini in MINI_BOSSES:
        for main in MAIN_BOSSES:
            stages = game_stages(party, *NEW, games, seed, main=main, mini=mini)
            rows.append(funnel_row(f"{mini} → {main}", stages))
            if np.mean(stages >= 3) > top:
                best, top = (mini, main), float(np.mean(stages >= 3))
    for order in SEAT_ORDERS:
        stages = game_stages(order, *NEW, games, seed, main=best[1], mini=best[0])
        rows.append(funnel_row(f"{best[0]} → {best[1]} ({'+'.join(order)})", stages))
    stages = game_stages(party, *NEW, 5 * games, seed, main=best[1], mini=best[0])
    rows.append(funnel_row(f"{best[0]} → {best[1]} ({5 * games:,} games)", stages))
    return head + "\n" + "\n".join(rows) + "\n"


def build(battles: int, games: int, seed: int) -> str:
    start = time.time()
    battles_text = battle_section(battles, seed)
    games_text = game_section(games, seed)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    return (
        "# The veteran: counting on the boss, keeping the flask, shopping by improvement\n\n"
        f"Generated by `python docs/make_veteran_study.py` at commit {commit} (seed {seed}; {battles:,} battles per "
        f"boss cell, {games:,} games per game cell; {time.time() - start:.0f} s). Shares with 95% Wilson intervals; "
        "differences are paired (the same battles or games under both policies: policies stay out of the random "
        "stream's key) with Tango's score interval.\n\n"
        "## Battles: `veteran` against `tactician` (knight+warrior)\n\n" + battles_text +
        "\n## Whole games: Gargoyle → Ornstein & Smough, knight+warrior\n\n"
        "Old: `balanced` strategy + `tactician` battle policy (the defaults). New: `steward` + `veteran`: battles "
        "before the boss keep the estus, luck and heroic action (`G_NEED`), the party rests at the gate until "
        "ready while sparks stay above 2, restores luck and shops by improvement.\n\n" + games_text +
        "\n### Four characters on every core boss pair (knight+warrior+assassin+herald, `steward` + `veteran`)\n\n"
        + four_section(games, seed) +
        "\n## Reading it\n\n"
        "- The veteran's defaults (`keep_estus_at`, `death_cost`, `let_boss_come` off, and its own values of two of "
        "the tactician's parameters: `stamina_value` 0.6, `dodge_edge` −50) and the steward's `rest_floor` were chosen "
        "on seed 1; every figure here is seed 2, fresh games and battles. In single battles (no `G_NEED`) the veteran "
        "differs from the tactician by the chance of dying in block-or-dodge and by those two values: on seed 1 the "
        "death rule alone gave +4.3 points against the Gargoyle (`mid_game`) and −0.3 with `late_game` gear, where "
        "the tactician's price of a stamina cube (0.3 damage; a black cube fills the endurance bar as a red one does, "
        "R-3.2) paid for stamina-costly attacks and runs: at 0.6 the `late_game` Gargoyle gains 17 points. The "
        "veteran of commit ccd5e3a plays as `veteran` with `policy_params = {stamina_value = 0.3, dodge_edge = 0}`.\n"
        "- Four characters (the table above): the game is won almost only on the Gargoyle → Dancer pair, two to four "
        "times in 10,000 games (before this change, on seed 1, 19 wins in 240,000 games over the 24 seat orders); where the four "
        "are lost: about two thirds before the mini boss, most of the rest at it, and nearly all who beat it on the "
        "main boss's map (its encounters sized for four), before the main boss.\n"
        "- Neither policy pair wins a game against Ornstein & Smough: the pair beats every policy of ours in battle "
        "(0 wins in the battle table, also with `late_game` gear), so the funnel stops at the main boss. No `expert` "
        "or `oracle` rung exists yet to say whether any play could.\n"
        "- Reading the boss's behaviour deck (`read_deck`, on): once the players know the next card "
        "(`deck.known_next_card`: the repeat after a whole cycle, R-12.7, or a gravestone's reveal, R-12.5; relearned "
        "after a heat-up, R-12.6) the move steps say what it will do, and the veteran, having attacked, steps where "
        "it cannot hit. It seldom applies: the order is known only between the first cycle and the heat-up, and "
        "most core boss cards move before they attack, so only a node beyond their reach is safe (on seed 1, 2,000 "
        "battles each, it changed no Gargoyle battle, `mid_game` or `late_game`; on seed 1, 10,000 battles, switching "
        "it off changed no battle against the Gargoyle, the Boreal Outrider or the Titanite Demon). Predicting where the boss moves "
        "(its card's turn and step toward the aggro holder or the nearest character) is the next step.\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    PAGE.write_text(build(args.battles, args.games, args.seed), encoding="utf-8")
    print(f"wrote {PAGE}")


if __name__ == "__main__":
    main()
