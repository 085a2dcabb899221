"""The DS:TBG kernel uses array indices as given, never from the end (``dsim.numba_linking._kernel_integer_index``).

A negative index in kernel code would read outside the array instead of from its end, so two checks: with
``NUMBA_BOUNDSCHECK=1`` such an index raises in kernel code (and still means "from the end" elsewhere), and
every encounter, every boss and whole games play under that check, without an error and with the same results
as the normal build."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = textwrap.dedent(
    """
    import numba, numpy as np
    from dsim.games.dstbg.kernel.jit import kernel

    @kernel
    def item(a, i: int) -> int:
        return a[i]

    @numba.njit
    def through_kernel(a, i):
        return item(a, i)

    @numba.njit
    def plain(a, i):
        return a[i]

    a = np.arange(5, dtype=np.int32)
    print("plain", plain(a, -1))
    print("kernel", through_kernel(a, 3))
    try:
        through_kernel(a, -1)
        print("kernel -1 read")
    except IndexError:
        print("kernel -1 IndexError")
    """
)

PLAYS = textwrap.dedent(
    """
    import json, sys, zlib
    import numpy as np
    from dsim.games import load_game
    from dsim.games.dstbg.game import game_data

    data = game_data(None)
    battles, games = load_game("dstbg", None), load_game("dstbg_game", None)
    out = {}
    cells = [({"encounter": e}, 200) for e in sorted(data.encounters)] + [({"boss": b}, 300) for b in sorted(data.bosses)]
    for party in (["knight", "warrior"], ["assassin", "herald", "knight", "warrior"]):
        for place, count in cells:
            settings = {"party": party, **place, "policy": "tactician"}
            cols = battles.play(settings, 5, 11, 0, count)
            out[json.dumps(settings, sort_keys=True)] = zlib.crc32(np.stack([cols[k] for k in sorted(cols)]).tobytes())
    for settings in ({"party": ["knight", "warrior"]}, {"party": ["knight", "warrior"], "mode": "campaign"}):
        cols = games.play(settings, 5, 11, 0, 100)
        out[json.dumps(settings, sort_keys=True)] = zlib.crc32(np.stack([cols[k] for k in sorted(cols)]).tobytes())
    print(json.dumps(out))
    """
)


def _python(code: str, tmp_path: Path, **env: str) -> str:
    """Run ``code`` as a script file (Numba caches only functions of real files) in a fresh Python."""
    script = tmp_path / f"script_{len(list(tmp_path.iterdir()))}.py"
    script.write_text(code)
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=1800,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env})
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_negative_index_raises_in_kernel_code_only(tmp_path: Path) -> None:
    out = _python(PROBE, tmp_path, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    assert out.split("\n")[:3] == ["plain 4", "kernel 3", "kernel -1 IndexError"]


def test_every_encounter_boss_and_game_plays_with_bounds_checked(tmp_path: Path) -> None:
    """Under ``NUMBA_BOUNDSCHECK=1`` (a fresh cache: checked code) no kernel index is out of range, and the
    results are the normal build's, battle for battle."""
    checked = json.loads(_python(PLAYS, tmp_path, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path / "cache"))
                         .splitlines()[-1])
    normal = json.loads(_python(PLAYS, tmp_path).splitlines()[-1])
    assert len(checked) == 2 * (36 + 6) + 2
    assert checked == normal
    assert len(set(normal.values())) > len(normal) * 0.9  # the cells really differ (a checksum of nothing would not)
