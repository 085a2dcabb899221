"""Regenerate ``docs/sensitivity.md``: for each game's headline cell, the ten figures of the data (and house rules)
its answer depends on most, with their source and status, from ``dsim sensitivity --json``:

    python docs/make_sensitivity_tables.py [--budget 400000] [--seed 1] [--game dstbg]

Each figure is nudged one step down and one step up (±1 for whole numbers up to 20, ±10% otherwise) and played
on the baseline's plays; the budget bounds the plays per game (a screen of every figure, then the figures that
moved the answer played longest). ``--game`` rebuilds one game's section and keeps the others'.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from make_rules_questions import dsim, interval, pct

PAGE = Path(__file__).with_name("sensitivity.md")

# (game, title, cell arguments, fields screened, why this cell)
HEADLINES: dict[str, tuple[str, list[str], str, str]] = {
    "dstbg": ("Dark Souls: The Board Game (battles)",
              ["--party", "knight,warrior", "--boss", "gargoyle", "--loadout", "mid_game", "--policy", "baseline"],
              "bosses.gargoyle.*,characters.knight.*,characters.warrior.*,dice.*,loadouts.mid_game.*,rules",
              "the Gargoyle with mid-game gear; screened: the Gargoyle, the two characters, the dice, the loadout "
              "and every whole-number house rule (figures of other bosses and enemies are never read here)"),
    "dark_maiden": ("Dark Maiden", ["--party", "amazona,barbara,guerrero", "--difficulty", "normal", "--exclude",
                                    "*.level,*.order"], "all",
                    "three heroes on normal; every figure of the data and every whole-number rule but the levels and site order "
                    "that say where a pile or site belongs (moving one moves a card to another "
                    "site, a question of structure, not of a figure)"),
    "bloodborne": ("Bloodborne: The Card Game", ["--hunters", "4", "--measure", "rounds"], "all",
                   "four hunters, the mean game length in rounds (a seat's win share barely moves when a figure "
                   "changes for every seat alike); every figure of the data and every whole-number rule"),
}
BEGIN, END = "<!-- sensitivity:{game}:begin -->", "<!-- sensitivity:{game}:end -->"


def _points(entry: dict[str, Any] | None, rate: bool) -> str:
    """One side's change with its interval (percentage points for a rate), or why there is none."""
    if entry is None:
        return "at its bound"
    if "error" in entry:
        return "cannot play"
    star = " *" if entry["p_adjusted"] < 0.05 else ""
    if not rate:
        return f"{entry['effect']:+.2f} ({entry['ci95'][0]:+.2f} to {entry['ci95'][1]:+.2f}){star}"
    return f"{100 * entry['effect']:+.1f} ({interval(entry['ci95'], True).replace(' points', '')}){star}"


def section(game: str, budget: int, seed: int) -> str:
    """One game's table of its ten most influential figures."""
    title, args, fields, why = HEADLINES[game]
    cmd, res = dsim(["sensitivity", "--game", game, *args, "--fields", fields, "--budget", str(budget),
                     "--seed", str(seed)])
    base, rate = res["baseline"], res["kind"] == "rate"
    if rate:
        measure = ("win rate" if res["measure"] == "win" else f"{res['measure']} rate") + \
            f" {pct(base['value'])} ({interval(base['ci95'])})"
        unit = "percentage points"
    else:
        measure = f"mean {res['measure']} {base['value']:.2f} ({base['ci95'][0]:.2f} – {base['ci95'][1]:.2f})"
        unit = res["measure"]
    lines = [f"## {title}", "",
             f"`{cmd}`", "",
             f"Cell: {why}. Policy **{res['policy']}**; {measure} over {base['plays']:,} plays; {res['plays']:,} plays "
             f"in all. Changes in {unit} with their paired 95% intervals; * marks a Holm-adjusted p below 0.05.", "",
             "| # | figure | value → down / up | one step down | one step up | status | source |",
             "|---|---|---|---|---|---|---|"]
    for rec in res["rows"][:10]:
        if rec["group"]:
            moved = f"{len(rec['members'])} figures"
        else:
            moved = f"{rec['value']:g} → " + " / ".join(f"{rec[s]['to']:g}" if rec[s] else "–" for s in ("down", "up"))
        status = rec["status"] + (f", confidence {rec['confidence']}" if rec["confidence"] else "")
        source = (rec["source"] or "").replace("|", "/").replace("\n", " ")
        lines.append(f"| {rec['rank']} | `{rec['name']}` | {moved} | {_points(rec['down'], rate)} | {_points(rec['up'], rate)} | "
                     f"{status} | {source[:120]}{'…' if len(source) > 120 else ''} |")
    if game in UNCERTAIN:
        lines += ["", uncertain(game, args, seed)]
    return "\n".join(lines) + "\n"


UNCERTAIN = ("dstbg", "dark_maiden")  # co-operative: a win rate to spread (a seat's share is symmetric)


def uncertain(game: str, args: list[str], seed: int, draws: int = 30, plays: int = 2000) -> str:
    """The headline's win rate beside its spread when the guessed figures range over their stated values."""
    cell = [a for a in args if a not in ("--exclude", "*.level,*.order")]
    cmd, res = dsim(["run", "--game", game, *cell, "--games", "20000", "--seed", str(seed), "--uncertain", str(draws),
                     "--uncertain-plays", str(plays)])
    drawn = res["uncertain"]
    low, high = (min(max(res["win_rate"] + d, 0.0), 1.0) for d in drawn["shift"])  # paired shifts on the long run
    refused = f"; {len(drawn['refused'])} times a draw broke an entry's schema and the entry kept its values" \
        if drawn["refused"] else ""
    return (f"How sure is the headline? `{cmd}`: win rate {pct(res['win_rate'])} (95% CI {interval(res['ci95'])}); "
            f"with the {len(drawn['figures'])} guessed figures (placeholders) drawn jointly within their stated ranges, "
            f"or one step either side where none is stated, {pct(low)} – {pct(high)} (the central 95% of {draws} "
            f"draws of {plays:,} common plays, each draw's change from the same plays unmoved added to the win rate"
            f"{refused}).")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=400_000, help="plays per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=sorted(HEADLINES), action="append", help="rebuild only these games")
    args = parser.parse_args()
    page = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
    intro = ("# Which figures matter: each game's ten most influential figures\n\n"
             "Generated by `python docs/make_sensitivity_tables.py` (each section names its command, budget and seed). "
             "`dsim sensitivity` nudges every number of the data one step each way on common random numbers and ranks "
             "the figures by how far they move the headline answer; `status` says whether a figure is sourced, a "
             "placeholder (a guess) or a decision between conflicting sources (`dsim data coverage` lists them, and "
             "the doubts the data states). A headline number that hangs on a placeholder near the top of its table "
             "is a guess's answer, not the printed game's.\n")
    parts = {}
    for game in HEADLINES:
        begin, end = BEGIN.format(game=game), END.format(game=game)
        old = re.search(re.escape(begin) + r"\n(.*?)" + re.escape(end), page, re.S)
        if args.game and game not in args.game:
            parts[game] = old.group(1) if old else ""
        else:
            parts[game] = section(game, args.budget, args.seed)
    body = "\n".join(f"{BEGIN.format(game=g)}\n{text}{END.format(game=g)}\n" for g, text in parts.items())
    PAGE.write_text(intro + "\n" + body, encoding="utf-8")


if __name__ == "__main__":
    main()
