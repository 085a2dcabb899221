"""Regenerate ``docs/dark-maiden.md``: Dark Maiden's win rate per party size and difficulty, where parties die,
play styles, and the lives that make each party size a 50% game.

Every number on the page comes from the `dsim … --json` command printed beside it (the default policy,
``tactician``, plays every hero unless a row says otherwise):

    python docs/make_dark_maiden_tables.py [--games 100000] [--ladder-games 200]

The skill ladder (every scripted policy, the ``expert`` searcher and the ``oracle`` ceiling on each party size and
difficulty) costs thousands of replayed games a searched game, so it has its own budget; ``--ladder-only``
rewrites just that section of the page, re-running only the cells named (``--cells 3:normal,1:hard``:
heroes:difficulty; the others are kept) and, with ``--paired-games N``, the paired expert − tactician comparison on
the default cell (3 heroes, normal) that issue 43's acceptance reads.
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
LADDER_INTRO = (
    "Every policy plays the same games. `expert` plays each option of each decision 16 times to the end under the "
    "tactician, with the undrawn cards' order and the future dice redrawn, and leaves the tactician's answer only for "
    "an option better by more than 2 standard errors of the paired difference; `oracle` runs the same search once per "
    "option on the true deck and dice: a ceiling for one-step searchers over the tactician, not a player. The gain is "
    "paired over the best scripted policy (Tango's 95% interval).\n")
PAIRED_HEAD = "### Expert against tactician on the default cell (3 heroes, normal), paired\n"
DEFAULT_CELL = (PARTIES[2], "normal")


def _cell_head(party: str, difficulty: str) -> str:
    return f"### {party.count(',') + 1} heroes ({party}), {difficulty}\n"


def _ladder_rows(rows: list[dict]) -> list[str]:
    """A ladder's table, weakest first: every policy's win rate and each searcher's paired gain."""
    lines = ["| policy | win rate | 95% CI | paired gain over the best scripted policy (95% CI) |", "|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: r["win_rate"]):
        label = r["policy"] + (" (ceiling: sees the deck's order and future dice)" if r["ceiling"] else "")
        gain = (f"{100 * r['gain']:+.1f} points over {r['gain_over']} ({interval(r['gain_ci95'], True)})"
                if "gain" in r else "")
        lines.append(f"| {label} | {pct(r['win_rate'])} | {interval(r['ci95'])} | {gain} |")
    return lines


def ladder(games: int, seed: int, cells: list[tuple[str, str]],
           done: Callable[[dict[str, str]], None] | None = None) -> dict[str, str]:
    """`dsim policies ladder` on each cell (party size × difficulty): every policy on the same games; the blocks by
    heading. ``done`` is given the blocks so far after each cell (a long run keeps what it measured)."""
    blocks: dict[str, str] = {}
    for party, difficulty in cells:
        cmd, rows = dsim(["policies", "ladder", "--game", "dark_maiden", "--party", party, "--difficulty", difficulty,
                          "--games", str(games), "--seed", str(seed)])
        head = _cell_head(party, difficulty)
        blocks[head] = f"{head}\n```\n{cmd}\n```\n\n" + "\n".join(_ladder_rows(rows)) + "\n"
        if done is not None:
            done(blocks)
    return blocks


PAIRED_STORE = Path(__file__).with_name("dark-maiden-ladder")  # per-game outcomes, so a long run resumes
PAIRED_CHUNK = 32  # games a policy plays before its outcomes are stored


def _say(text: str) -> None:
    print(text, flush=True)


def paired(games: int, seed: int, done: Callable[[str], None] | None = None) -> str:
    """The acceptance figure of the default cell: `expert` − `tactician` on the same games (Tango's paired 95%
    interval) and the `oracle` ceiling on them. Outcomes are stored per game (`make_ladder.Store`, the DS:TBG
    ladder's store, in ``docs/dark-maiden-ladder/``) and played chunk by chunk, each policy in turn, so an interrupted
    run resumes and a larger ``games`` plays only the games missing; ``done`` gets the block after each round."""
    from make_ladder import Cell, Store, paired as paired_gain, play_rung, wilson

    party, difficulty = DEFAULT_CELL
    cell = Cell("3p-normal", "dark_maiden", {"party": tuple(party.split(",")), "difficulty": difficulty},
                "3 heroes, normal")
    store = Store.open(PAIRED_STORE)
    names = ("tactician", "expert", "oracle")
    block = ""
    for target in range(min(PAIRED_CHUNK, games), games + PAIRED_CHUNK, PAIRED_CHUNK):
        n = min(target, games)
        won = {name: play_rung(store, cell, name, name, None, seed, n, PAIRED_CHUNK, _say) for name in names}
        gain, low, high = paired_gain(won["expert"], won["tactician"])
        ceiling, c_low, c_high = paired_gain(won["oracle"], won["expert"])
        verdict = "beyond" if low > 0 else "not beyond"
        rows = ["| policy | win rate | 95% CI |", "|---|---|---|"]
        rows += [f"| {name} | {pct(won[name].mean())} | {interval(list(wilson(won[name])))} |" for name in names]
        block = (f"{PAIRED_HEAD}\n"
                 f"The same {n:,} games (seed {seed}; games 0–{n - 1} of `{cell.command()} --policies tactician "
                 f"--games {n} --seed {seed}`, which replays them in one run) under each policy, with its default "
                 f"parameters: **`expert` − `tactician` = {100 * gain:+.1f} points (Tango's paired 95% CI "
                 f"{100 * low:+.1f} to {100 * high:+.1f})**, {verdict} the interval; `oracle` − `expert` = "
                 f"{100 * ceiling:+.1f} points ({100 * c_low:+.1f} to {100 * c_high:+.1f}). The outcomes of every game "
                 f"are in `docs/dark-maiden-ladder/` (`--paired-games N` plays only the games missing).\n\n"
                 + "\n".join(rows) + "\n")
        if done is not None:
            done(block)
    return block


def _ladder_blocks(section: str) -> tuple[str | None, dict[str, str]]:
    """An existing ladder section's paired block and cell blocks (by heading), to keep those not re-run."""
    paired_block, blocks = None, {}
    for part in section.split("\n### ")[1:]:
        block = "### " + part.rstrip("\n") + "\n"
        head = block.split("\n", 1)[0] + "\n"
        if head == PAIRED_HEAD:
            paired_block = block
        else:
            blocks[head] = block
    return paired_block, blocks


def ladder_section(paired_block: str | None, blocks: dict[str, str], note: str) -> str:
    """The ladder section: the note, the paired comparison, then the cells (the default cell first, then by
    difficulty and party size)."""
    order = [_cell_head(*DEFAULT_CELL)] + [_cell_head(p, d) for d in DIFFICULTIES for p in PARTIES]
    cells = [blocks[h] for h in dict.fromkeys(order) if h in blocks]
    return "\n".join([LADDER_HEAD, LADDER_INTRO, note, *([paired_block] if paired_block else []), *cells])


def _cells(text: str | None) -> list[tuple[str, str]]:
    """``heroes:difficulty`` items (default: every party size on each difficulty)."""
    if not text:
        return [(party, d) for d in DIFFICULTIES for party in PARTIES]
    if text == "none":
        return []
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
                                                      "(default: every party size on each difficulty; none: no cell)")
    parser.add_argument("--paired-games", type=int, default=0,
                        help="games of the paired expert − tactician comparison on the default cell (0: keep the "
                             "page's, or leave it out)")
    parser.add_argument("--ladder-only", action="store_true",
                        help="rewrite only the ladder section of the page, keeping the cells not re-run")
    args = parser.parse_args()
    note = (f"Generated by `python docs/make_dark_maiden_tables.py` (seed {args.seed}), in parts with `--ladder-only`: "
            "`--cells heroes:difficulty,…` re-runs those cells and keeps the others, `--paired-games N` plays the "
            "paired comparison's missing games (its outcomes are stored per game); each block's `dsim` command, "
            "with its number of games, is beside it.\n")
    if args.ladder_only:

        def write(new: dict[str, str], block: str | None = None) -> None:
            """Rewrite the ladder section with these blocks, keeping the others the page has now (another run may
            have added some since this one started)."""
            page, _, section = PAGE.read_text(encoding="utf-8").partition(LADDER_HEAD)
            paired_block, blocks = _ladder_blocks(section)
            PAGE.write_text(page.rstrip("\n") + "\n\n" + ladder_section(block or paired_block, blocks | new, note),
                            encoding="utf-8")
            print(f"wrote the ladder of {PAGE}", flush=True)

        if args.paired_games > 0:
            paired(args.paired_games, args.seed, lambda block: write({}, block))
        write({})
        ladder(args.ladder_games, args.seed, _cells(args.cells), write)
        return
    paired_block = paired(args.paired_games, args.seed) if args.paired_games > 0 else None
    ladder_text = ladder_section(paired_block, ladder(args.ladder_games, args.seed, _cells(args.cells)), note)
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
        ladder_text,
    ]
    PAGE.write_text("\n".join(page))
    print(f"wrote {PAGE}")


if __name__ == "__main__":
    main()
