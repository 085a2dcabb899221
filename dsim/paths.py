"""Where the shipped game data lives: the repository's ``data/`` folder in a checkout (where users edit it), or
the package data ``dsim/data`` an installed wheel carries (``pyproject.toml`` maps one to the other)."""

from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent
REPO_ROOT = PACKAGE_ROOT.parent
DATA_ROOT = PACKAGE_ROOT / "data" if (PACKAGE_ROOT / "data").is_dir() else REPO_ROOT / "data"


def game_data_dir(game: str) -> Path:
    """The shipped data folder of one game, e.g. ``data/dstbg``."""
    return DATA_ROOT / game


def data_digest(game: str, overlay: str | None = None) -> str:
    """SHA-256 (16 hex digits) over a game's shipped YAML files and an overlay folder's, names and bytes:
    a resumed sweep compares it to refuse changed data."""
    import hashlib

    digest = hashlib.sha256()
    for folder in [game_data_dir(game)] + ([Path(overlay)] if overlay else []):
        for path in sorted(folder.rglob("*.yaml")):
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(_bytes(path))
    return digest.hexdigest()[:16]


def _bytes(path: Path) -> bytes:
    """A data file's bytes for the digest; a pipe or device in an overlay is a one-line ``DataError``."""
    from dsim.files import NotARegularFile, read_regular
    from dsim.validation import DataError, Problem, display_path

    try:
        return read_regular(path)
    except NotARegularFile as exc:
        raise DataError([Problem(display_path(path), message=str(exc))]) from None
