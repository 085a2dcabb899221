"""Regenerate ``docs/dark-maiden.md``: Dark Maiden's win rate per party size and difficulty, where parties die,
play styles, and the lives that make each party size a 50% game.

Every number on the page comes from the `dsim … --json` command printed beside it (the default policy,
``tactician``, plays every hero unless a row says otherwise):

    python docs/make_dark_maiden_tables.py [--games 100000] [--ladder-games 200]

The skill ladder (every scripted policy, the ``expert`` searcher and the ``oracle`` ceiling on each party size and
difficulty) costs thousands of replayed games a searched game, so it has its own budget; ``--ladder-only``
rewrites just that section of the page (``--cells 3:normal,1:hard`` for some cells: heroes:difficulty).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from make_rules_questions import dsim, interval, pct

PAGE = Path(__file__).with_name("dark-maiden.md")
PARTIES = ("amazona", "amazona,barbara", "amazona,barbara,guerrero", "amazona,barbara,guerrero,amazona")
"""One party per size: the basic heroes in turn order; the data has no extra heroes, so 4 repeats Amazona."""
DIFFICULTIES = ("easy", "normal", "hard")
SITES = ("aldea", "bosque", "montanas", "castillo")
POLICIES = ("random_legal", "cautious", "bold", "tactician")


def _run(party: str, difficulty: str, games: int, seed: int, *extra: str) -> tuple[str, dict]:
    return dsim(["run", "--game", "dark_maiden", "--party", party, "--difficulty", difficulty, "--games", str(games),
                 "--seed", str(seed), *extra])


def win_rates(games: int, seed: int) -> tuple[str, dict[str, dict]]:
    """The win rate of each party size on each difficulty; also returns the normal-difficulty runs."""
    rows = ["| heroes | party | " + " | ".join(DIFFICULTIES) + " |", "|---|---|" + "---|" * len(DIFFICULTIES)]
    normal: dict[str, dict] = {}
    commands = []
    for party in PARTIES:
        cells = []
        for difficulty in DIFFICULTIES:
            cmd, res = _run(party, difficulty, games, seed)
            commands.append(cmd)
            cells.append(f"{pct(res['win_rate'])} ({interval(res['ci95'])}), {res['lives_at_start']} lives")
            if difficulty == "normal":
                normal[party] = res
        rows.append(f"| {party.count(',') + 1} | {party} | " + " | ".join(cells) + " |")
    return "\n".join(rows) + f"\n\nCommands (one per cell): `{commands[0]}`, and so on.\n", normal


def where_they_die(normal: dict[str, dict]) -> str:
    """The funnel on normal: the share of games that clear each site, and the share lost at each site."""
    head = " | ".join(f"clears {s}" for s in SITES) + " | " + " | ".join(f"lost at {s}" for s in SITES)
    rows = [f"| party | {head} | mean turns | lives used | deaths | potions drunk | lost most to |",
            "|---|" + "---|" * (2 * len(SITES) + 5)]
    for party, res in normal.items():
        cleared = " | ".join(pct(res[f"cleared_{s}"]) for s in SITES)
        lost = " | ".join(pct(res[f"lost_at_{s}"]) for s in SITES)
        killers = sorted(((k.removeprefix("lost_to_"), v) for k, v in res.items() if k.startswith("lost_to_")),
                         key=lambda kv: -kv[1])
        worst = ", ".join(f"{name} {pct(share)}" for name, share in killers[:2]) or "—"
        rows.append(f"| {party} | {cleared} | {lost} | {res['mean_turns']:.1f} | {res['lives_used']:.1f} | "
                    f"{res['deaths']:.1f} | {res['potions_used']:.1f} | {worst} |")
    return "\n".join(rows) + "\n"


def play_styles(games: int, seed: int) -> str:
    """Every policy on the same games (common random numbers): is walking or running the better habit?"""
    rows = ["| party | " + " | ".join(POLICIES) + " |", "|---|" + "---|" * len(POLICIES)]
    commands = []
    for party in PARTIES[1:3]:
        cmd, res = dsim(["policies", "compare", "--game", "dark_maiden", "--party", party, "--difficulty", "normal",
                         "--policies", ",".join(POLICIES), "--games", str(games), "--seed", str(seed)])
        commands.append(cmd)
        by_name = {r["policy"]: r for r in res}
        rows.append(f"| {party} | " + " | ".join(f"{pct(by_name[p]['win_rate'])} ({interval(by_name[p]['ci95'])})"
                                                   for p in POLICIES) + " |")
    return "\n".join(rows) + f"\n\nCommands: `{commands[0]}`, and the same for the other party.\n"


def lives_for_half(games: int, seed: int) -> str:
    """`dsim tune` on the house rule ``lives``: the life counter that makes each party size a 50% game on normal."""
    rows = ["| heroes | party | lives | win rate (95% CI) | crosses 50% near | values tried |", "|---|---|---|---|---|---|"]
    commands = []
    for party in PARTIES:
        cmd, res = dsim(["tune", "--game", "dark_maiden", "--party", party, "--difficulty", "normal", "--rule", "lives",
                         "--target", "0.5", "--games", str(games), "--seed", str(seed)])
        commands.append(cmd)
        cross = f"{res['interpolated']:.1f}" if res["interpolated"] is not None else "—"
        hit = ("" if res["hit"] else " (the nearest whole value; none is within ±2 points of 50%)" if res["bracketed"]
               else " (not within ±2 points of 50%)")
        rows.append(f"| {party.count(',') + 1} | {party} | {res['value']}{hit} | {pct(res['win_rate'])} "
                    f"({interval(res['ci95'])}) | {cross} | {res['searched'][0]}–{res['searched'][1]} |")
    return "\n".join(rows) + f"\n\nCommands: `{commands[0]}`, and so on per party.\n"


LADDER_HEAD = "## The skill ladder: scripted policies, the expert searcher and the oracle ceiling\n"


def ladder(games: int, seed: int, cells: list[tuple[str, str]], done: Callable[[str], None] | None = None) -> str:
    """`dsim policies ladder` on each cell (party size × difficulty): every policy on the same games. ``done`` is
    given the section so far after each cell (a long run keeps what it measured)."""
    out = ["Every policy plays the same games. `expert` plays each option of each decision 16 times to the end under "
           "the tactician, with the undrawn cards' order and the future dice redrawn, and leaves the tactician's "
           "answer only for an option better by more than 2 standard errors of the paired difference; `oracle` runs "
           "the same search once per option on the true deck and dice: a ceiling for one-step searchers over the "
           "tactician, not a player. The gain is paired over the best scripted policy (Tango's 95% interval).\n"]
    for party, difficulty in cells:
        cmd, rows = dsim(["policies", "ladder", "--game", "dark_maiden", "--party", party, "--difficulty", difficulty,
                          "--games", str(games), "--seed", str(seed)])
        lines = ["| policy | win rate | 95% CI | paired gain over the best scripted policy (95% CI) |",
                 "|---|---|---|---|"]
        for r in sorted(rows, key=lambda r: r["win_rate"]):
            label = r["policy"] + (" (ceiling: sees the deck's order and future dice)" if r["ceiling"] else "")
            gain = (f"{100 * r['gain']:+.1f} points over {r['gain_over']} ({interval(r['gain_ci95'], True)})"
                    if "gain" in r else "")
            lines.append(f"| {label} | {pct(r['win_rate'])} | {interval(r['ci95'])} | {gain} |")
        out.append(f"### {party.count(',') + 1} heroes ({party}), {difficulty}\n\n```\n{cmd}\n```\n\n"
                   + "\n".join(lines) + "\n")
        if done is not None:
            done("\n".join(out))
    return "\n".join(out)


def _cells(text: str | None) -> list[tuple[str, str]]:
    """``heroes:difficulty`` items (default: every party size on each difficulty)."""
    if not text:
        return [(party, d) for d in DIFFICULTIES for party in PARTIES]
    chosen = []
    for item in text.split(","):
        size, _, difficulty = item.partition(":")
        if not size.isdigit() or not 1 <= int(size) <= len(PARTIES) or difficulty not in DIFFICULTIES:
            raise SystemExit(f"--cells: expected heroes:difficulty such as 3:normal, got {item!r}")
        chosen.append((PARTIES[int(size) - 1], difficulty))
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games per cell")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ladder-games", type=int, default=200, help="games per policy in each ladder cell")
    parser.add_argument("--cells", default=None, help="ladder cells heroes:difficulty, e.g. 3:normal,1:hard "
                                                      "(default: every party size on each difficulty)")
    parser.add_argument("--ladder-only", action="store_true", help="rewrite only the ladder section of the page")
    args = parser.parse_args()
    cells = f" --cells {args.cells}" if args.cells else ""
    note = (f"Generated by `python docs/make_dark_maiden_tables.py --ladder-games {args.ladder_games}{cells}` (seed "
            f"{args.seed}).\n\n")
    if args.ladder_only:
        kept = PAGE.read_text(encoding="utf-8").split(LADDER_HEAD)[0].rstrip("\n") + "\n"

        def write(section: str) -> None:
            PAGE.write_text(kept + "\n" + LADDER_HEAD + "\n" + note + section, encoding="utf-8")
            print(f"wrote the ladder of {PAGE}", flush=True)

        ladder(args.ladder_games, args.seed, _cells(args.cells), write)
        return
    ladder_text = note + ladder(args.ladder_games, args.seed, _cells(args.cells))
    rates, normal = win_rates(args.games, args.seed)
    page = [
        "# Dark Maiden: win rates, where parties die, play styles, and lives for a 50% game\n",
        f"Generated by `python docs/make_dark_maiden_tables.py --games {args.games}` (seed {args.seed}). The default "
        "readings (`dsim variants list --game dark_maiden`: the digest's, or the seed's where they differ); "
        "**most figures are placeholders** "
        "(hero vitality, boss statistics, site targets, the deck's mix: `dsim data --game dark_maiden coverage` "
        "lists every one), so these numbers show what the rules do with those guesses, not the printed game. "
        "The `tactician` policy plays every hero unless a row says otherwise; intervals are 95% Wilson intervals. "
        "The three extra heroes of the new edition are not in the data, so the 4-hero party repeats Amazona "
        "(and faces both final bosses, DM-9.6).\n",
        "## Win rate per party size and difficulty\n",
        rates,
        "## Where do we die (normal)\n",
        "The share of games that clear each site, and that are lost at each site (the rest are won). "
        "'Lost most to' is the card that dealt the last hero's last death (a precipice is a fall).\n",
        where_they_die(normal),
        "## Walk or run? Play styles on the same games (normal)\n",
        "`cautious` walks, drinks early and recovers; `bold` runs, quick-strikes and grabs; `tactician` decides by "
        "thresholds (`dsim policies show tactician --game dark_maiden`); `random_legal` is the floor.\n",
        play_styles(args.games, args.seed),
        "## The lives that make a 50% game (normal)\n",
        "`dsim tune` searches the house rule `lives` (the life counter at setup; DM-2.6 lets players choose it) "
        "with common random numbers: every value plays the same games.\n",
        lives_for_half(args.games // 5, args.seed),
        LADDER_HEAD,
        ladder_text,
    ]
    PAGE.write_text("\n".join(page))
    print(f"wrote {PAGE}")


if __name__ == "__main__":
    main()
