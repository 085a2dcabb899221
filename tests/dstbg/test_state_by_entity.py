"""The DS:TBG battle state is read and written by entity (issue 46): ``b.chars[c, C_*]``, ``b.enemies[e, E_*]``,
``b.nodes[n, N_*]``, ``b.glob[G_*]``, ``b.deck[i]``, views over the one state vector made by
``layout.state_views``. Only the layout module knows where a field lies in the vector."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.numba_ref import check_trailing_dims

ROOT = Path(__file__).resolve().parents[2]
SCANNED = [ROOT / "dsim" / "games" / "dstbg", ROOT / "policies" / "dstbg", ROOT / "policies" / "dstbg_game",
           ROOT / "tests" / "dstbg"]
LAYOUT = ROOT / "dsim" / "games" / "dstbg" / "kernel" / "layout.py"
# address arithmetic on the battle state: an address helper, a block's base offset, a row stride of the vector
ARITHMETIC = re.compile(r"(?<![\w.])(?:ci|ei|ni|_ci|_ei|_ni)\(|\b[CEND]_BASE\b|\*\s*\w+\.[CEN]_FIELDS\b")


def test_no_address_arithmetic_outside_the_layout() -> None:
    found = []
    for folder in SCANNED:
        for path in sorted(folder.rglob("*.py")):
            if path == LAYOUT or path == Path(__file__).resolve():
                continue
            for k, line in enumerate(path.read_text().splitlines(), 1):
                if ARITHMETIC.search(line.split("#")[0]):
                    found.append(f"{path.relative_to(ROOT)}:{k}: {line.strip()}")
    assert not found, "address arithmetic on the battle state outside layout.py:\n" + "\n".join(found)


def test_the_scan_sees_address_arithmetic() -> None:
    for line in ("st[ci(c, L.C_POS)]", "b.st[L.E_BASE + e * L.E_FIELDS + L.E_WOUNDS]", "st[L.D_BASE + i]",
                 "base = L.C_BASE + c * L.C_FIELDS"):
        assert ARITHMETIC.search(line), line
    for line in ("b.chars[c, L.C_POS]", "st.enemies[e, L.E_WOUNDS]", "b.deck[i]", "t.cards[k, X.CARD_HEATUP]"):
        assert not ARITHMETIC.search(line), line


def test_views_share_the_state_vector() -> None:
    """A write through a view is a write to the vector (the trace's snapshots, copies and the one-pointer call
    see it), and the views tile the vector in order without a gap."""
    b = X.new_battle(4, np.zeros(1))
    b.chars[2, L.C_POS] = 7
    b.enemies[1, L.E_WOUNDS] = 5
    b.nodes[3, L.N_TRAP] = 2
    b.glob[L.G_ROUND] = 9
    b.deck[4] = 11
    b.known[4] = 12
    copy = b.st.copy()
    v = L.state_views(copy)
    assert (v.chars[2, L.C_POS], v.enemies[1, L.E_WOUNDS], v.nodes[3, L.N_TRAP], v.glob[L.G_ROUND], v.deck[4],
            v.known[4]) == (7, 5, 2, 9, 11, 12)
    assert sum(a.size for a in v) == L.STATE_LEN and all(np.shares_memory(a, copy) for a in v)
    assert L.state_vector(v) is copy
    check_trailing_dims(b)  # the views lie where compiled code makes them from the vector (layout.STATE_VIEWS)
    assert [(name, a.shape) for name, a in zip(v._fields, v)] == [(n, shape) for n, (_, shape) in L.STATE_VIEWS.items()]
    rebound = X.with_state(b, copy)
    rebound.pub.chars[0, L.C_DAMAGE] = 3  # the policy's view is of the same vector
    assert copy[L.state_views(np.arange(L.STATE_LEN)).chars[0, L.C_DAMAGE]] == 3
