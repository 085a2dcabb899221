"""Regenerate ``docs/bloodborne-policies.md``: Bloodborne's policies in mixed tables, and the seat advantage.

Every number on the page comes from the `dsim run --json` command printed beside it; seats rotate
(game i seats the listed policies from seat i % hunters on), so each policy plays every seat equally
often and the shares compare play styles, not seats:

    python docs/make_bloodborne_tables.py [--games 100000] [--ladder-games 400] [--only ladder]

The skill ladder (the `expert` searcher and the `oracle` bound in one seat of tables of each scripted policy, under
both models of the other hunters) costs thousands of replays a game: it takes its own smaller budget, and
``--only ladder`` regenerates that section alone, keeping the rest of the page.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from make_rules_questions import dsim, interval, pct

PAGE = Path(__file__).with_name("bloodborne-policies.md")
POLICIES = ("random_legal", "greedy", "banker", "aggressor", "spoiler")


def one_vs_three(games: int, seed: int) -> str:
    """Each policy in one seat against three copies of every policy (its share per seat, fair = 25%)."""
    header = "| policy ╲ table of three | " + " | ".join(POLICIES) + " |"
    rows = [header, "|---" * (len(POLICIES) + 1) + "|"]
    commands = []
    for hero in POLICIES:
        cells = []
        for others in POLICIES:
            cmd, res = dsim(["run", "--game", "bloodborne", "--hunters", "4", "--policy", hero, "--opponents", others,
                             "--games", str(games), "--seed", str(seed)])
            commands.append(cmd)
            share = res["policy_share"][0]  # the hero's (listed first)
            cells.append(f"{pct(share['share'])} ({interval(share['ci95'])})")
        rows.append(f"| **{hero}** | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n\nCommands (one per cell): `" + commands[0] + "`, and so on for each pair.\n"


def mixed_table(games: int, seed: int) -> str:
    """The four scripted styles at one table, every seat order in turn (who sits beside whom matters: the
    earlier hunter in resolution order takes the echoes first)."""
    listed = ",".join(POLICIES[1:])
    cmd, res = dsim(["run", "--game", "bloodborne", "--hunters", "4", "--policy", listed, "--seating", "permute",
                     "--games", str(games), "--seed", str(seed)])
    rows = ["| policy | win share per seat (95% CI) |", "|---|---|"]
    for share in sorted(res["policy_share"], key=lambda s: -s["share"]):
        rows.append(f"| {share['policy']} | {pct(share['share'])} ({interval(share['ci95'])}) |")
    return f"`{cmd}`\n\n" + "\n".join(rows) + f"\n\nMean length {res['mean_rounds']:.1f} rounds.\n"


def seat_advantage(games: int, seed: int) -> str:
    """Seat and first-player shares when every seat plays the same policy (fair = 1 / hunters)."""
    rows = ["| hunters | policy | seat 0 | seat 1 | seat 2 | seat 3 | seat 4 | first player won | mean rounds |",
            "|---|---|---|---|---|---|---|---|---|"]
    commands = []
    for hunters in (3, 4, 5):
        for policy in ("random_legal", "greedy"):
            cmd, res = dsim(["run", "--game", "bloodborne", "--hunters", str(hunters), "--policy", policy,
                             "--seating", "fixed", "--games", str(games), "--seed", str(seed)])
            commands.append(cmd)
            seats = [f"{pct(s['share'])} ({interval(s['ci95'])})" for s in res["win_share"]]
            seats += ["—"] * (5 - len(seats))
            rows.append(f"| {hunters} | {policy} | " + " | ".join(seats)
                        + f" | {pct(res['first_player_won'])} | {res['mean_rounds']:.1f} |")
    return "\n".join(rows) + f"\n\nCommands: `{commands[0]}`, and so on.\n"


LADDER_HEAD = "## The skill ladder: the expert searcher and the oracle bound\n"
MODELS = ("actual", "greedy")
"""The searchers' models of the other hunters: their actual policies (assumed known), or greedy for all."""


LADDER_ORDER = ("greedy", "spoiler", "banker", "aggressor", "random_legal")
"""Tables of three in the order the ladder plays them (the strongest fields first)."""


def ladder(games: int, seed: int, write) -> str:
    """`dsim policies ladder` at each table of three copies of a scripted policy, under each model: the scripted
    policies, `expert` and `oracle` in one seat, every one on the same games (fair share 25%). ``write`` gets the
    section so far after every table (a slow run cut short keeps what it measured, saying so)."""
    rows = ["| table of three | model | best scripted (share) | expert | oracle (bound) | expert − best scripted (95% CI) |",
            "|---|---|---|---|---|---|"]
    commands = []
    # at a table of one policy, the model named after it plays the same policies as `actual`: measured once
    tables = [(others, model) for others in LADDER_ORDER for model in MODELS if model != others]
    text = ""
    for done, (others, model) in enumerate(tables, 1):
        cmd, res = dsim(["policies", "ladder", "--game", "bloodborne", "--hunters", "4", "--opponents", others,
                         "--model", model, "--games", str(games), "--seed", str(seed)])
        commands.append(cmd)
        by = {r["policy"]: r for r in res}
        expert, oracle = by["expert"], by["oracle"]
        best = by[expert["gain_over"]]
        shown = f"{model} = {others}" if model == "actual" and others in MODELS else model
        rows.append(f"| {others} | {shown} | {best['policy']} {pct(best['win_rate'])} ({interval(best['ci95'])}) "
                    f"| {pct(expert['win_rate'])} ({interval(expert['ci95'])}) "
                    f"| {pct(oracle['win_rate'])} ({interval(oracle['ci95'])}) "
                    f"| {100 * expert['gain']:+.1f} ({interval(expert['gain_ci95'], points=True)}) |")
        left = "" if done == len(tables) else f" Partial: {done} of {len(tables)} tables measured so far."
        text = ("\n".join(rows) + f"\n\nGenerated by `python docs/make_bloodborne_tables.py --only ladder --ladder-games "
                f"{games}`: {games} games a policy (the same games for each), seed {seed}.{left} "
                "Commands: `" + commands[0] + "`, and so on for each table and model.\n")
        write(text)
    return text


LADDER_TEXT = ("`expert` plays the first listed seat (rotating round the table) against three hunters of one scripted "
               "policy; at each of its decisions it plays every option 16 times to the end with its `base` policy "
               "(greedy) and takes the best unless no option beats the base by one standard error of the paired "
               "difference, redrawing first what no hunter has seen (the unrevealed dungeon cards, the upgrade "
               "deck's order, future dice, the secret picks made before its own). Its model of the others is a "
               "parameter (the `model` column): `actual` assumes it knows their policies, `greedy` plays them all as "
               "greedy; at a table of greedy hunters the two are the same policies, measured once (`actual = "
               "greedy`). `oracle` is the same search on the true hidden state, one rollout an option: a bound for "
               "one-step searchers over the same base and model, not a player (under a wrong model it need not beat "
               "the expert). The best scripted policy is the best of the five in the same seat on the same "
               "games; the gain is paired (Tango's interval).\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ladder-games", type=int, default=400, help="games per policy in the skill ladder")
    parser.add_argument("--only", choices=("ladder",), help="regenerate only this section, keeping the rest")
    args = parser.parse_args()
    if args.only == "ladder":
        kept = PAGE.read_text(encoding="utf-8").split(LADDER_HEAD)[0].rstrip("\n") + "\n"

        def write(text: str) -> None:
            PAGE.write_text(kept + "\n" + "\n".join([LADDER_HEAD, LADDER_TEXT, text]), encoding="utf-8")

        ladder(args.ladder_games, args.seed, write)
        print(f"wrote {PAGE} (the ladder)")
        return
    section = [LADDER_HEAD, LADDER_TEXT, ladder(args.ladder_games, args.seed, lambda text: None)]
    page = [
        "# Bloodborne: play styles in mixed tables, and the seat advantage\n",
        f"Generated by `python docs/make_bloodborne_tables.py --games {args.games}` (seed {args.seed}); base game, "
        "the digest's default readings (`dsim variants list --game bloodborne`), many card figures still "
        "placeholders (`dsim data --game bloodborne coverage`). A share is the policy's wins over games × the "
        "seats it held, with a 95% Wilson interval; ties credit every tied hunter, so shares at a table can sum "
        "to a little over 100%.\n",
        "## One hunter against a table of three\n",
        "Rows: the policy in one seat; columns: the policy of the other three. A fair share is 25%.\n",
        one_vs_three(args.games, args.seed),
        "## The four styles at one table\n",
        "Every order of the four seats in turn (`--seating permute`): rotating alone would keep each policy's "
        "neighbours, and the hunter before you in resolution order takes the echoes first.\n",
        mixed_table(args.games, args.seed),
        "## Seat advantage\n",
        "Every seat plays the same policy, seats fixed (seat 0 first in order; the first player is drawn at "
        "random, BB-2.8, and passes clockwise, BB-12.4).\n",
        seat_advantage(args.games, args.seed),
        *section,
    ]
    PAGE.write_text("\n".join(page), encoding="utf-8")
    print(f"wrote {PAGE}")


if __name__ == "__main__":
    main()
