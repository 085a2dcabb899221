"""The suite on two cores (README's `pytest -n 2 --dist loadgroup`, pytest-xdist): each test file runs whole in
one worker (its module fixtures built once), and a game's folder (tests/bloodborne, tests/dark_maiden) runs whole in
one worker, so that game's kernels compile once there while the other worker compiles another game's. The workers
share Numba's on-disk cache, so what one has compiled the other loads."""

from __future__ import annotations

import pytest

_GAME_FOLDERS = ("tests/bloodborne/", "tests/dark_maiden/")


def xdist_group(nodeid: str) -> str:
    """The worker group of a test: its game's folder for the games listed above, else its file."""
    path = nodeid.split("::", 1)[0]
    return next((folder.rstrip("/") for folder in _GAME_FOLDERS if path.startswith(folder)), path)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the marks (without xdist the marks are unused)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        item.add_marker(pytest.mark.xdist_group(xdist_group(item.nodeid)))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "xdist_group(name): run in the same pytest-xdist worker as its group")
