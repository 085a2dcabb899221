"""Where the shipped game data lives (the repository's ``data/`` folder)."""

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DATA_ROOT = REPO_ROOT / "data"


def game_data_dir(game: str) -> Path:
    """The shipped data folder of one game, e.g. ``data/dstbg``."""
    return DATA_ROOT / game
