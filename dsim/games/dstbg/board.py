"""DS:TBG board geometry: nodes, adjacency, walking distances and boss arcs, as numpy arrays for the kernel.

Nodes sit on a checkerboard: ``(row, col)`` with ``row + col`` even. A standard tile has rows and
cols 0..4 (13 nodes); the main-boss arena joins two tiles with the second shifted by 6 columns.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numba import njit

DIRECTIONS: tuple[tuple[int, int], ...] = ((-2, 0), (-1, 1), (0, 2), (1, 1), (2, 0), (1, -1), (0, -2), (-1, -1))
"""The 8 steps to an adjacent node (R-2.4), as ``(drow, dcol)``: index 0 = up/north, then clockwise by 45°,
so turning 90° clockwise is ``+2 (mod 8)`` and 180° is ``+4``."""

N_DIRECTIONS = len(DIRECTIONS)

UNREACHABLE = 999
"""Walking distance to a node that cannot be reached."""

# Arc bits: a node on a dividing line carries two of them.
FRONT, RIGHT, BACK, LEFT = 1, 2, 4, 8

# Sides relative to a facing, for directional moves and turns.
FORWARD, RIGHTWARD, BACKWARD, LEFTWARD = 0, 1, 2, 3

# Wall bits: which edge of the room a node lies against.
WALL_TOP, WALL_RIGHT, WALL_BOTTOM, WALL_LEFT = 1, 2, 4, 8

TILE_SIZE = 5
SEAM_SHIFT = 6
"""Column shift of the second tile of the main-boss arena (no column 5; (r, 4) and (r, 6) are adjacent)."""


@njit(cache=True)
def relative_direction(facing: int, side: int) -> int:
    """Direction of ``side`` (FORWARD/RIGHTWARD/BACKWARD/LEFTWARD) for a figure facing ``facing``.

    The centre of that arc (F-12.7, directional moves) and also the facing after a turn to that side (R-12.19).
    """
    return (facing + 2 * side) % N_DIRECTIONS


@njit(cache=True)
def walk_distances_nb(neighbour: np.ndarray, blocked: np.ndarray) -> np.ndarray:
    """All-pairs BFS step distances that never pass through or into a ``blocked`` node.

    A blocked start node can still be left. Unreachable pairs get :data:`UNREACHABLE`. The kernel calls
    this again when terrain changes (e.g. a barrel is destroyed).
    """
    n = neighbour.shape[0]
    dist = np.full((n, n), UNREACHABLE, dtype=np.int16)
    queue = np.empty(n, dtype=np.int64)
    for source in range(n):
        dist[source, source] = 0
        queue[0] = source
        head, tail = 0, 1
        while head < tail:
            node = queue[head]
            head += 1
            for d in range(neighbour.shape[1]):
                nxt = neighbour[node, d]
                if nxt < 0 or blocked[nxt] or dist[source, nxt] != UNREACHABLE:
                    continue
                dist[source, nxt] = dist[source, node] + 1
                queue[tail] = nxt
                tail += 1
    return dist


def _readonly(array: np.ndarray) -> np.ndarray:
    """Mark a precomputed table read-only so a shared board cannot be altered by accident."""
    array.flags.writeable = False
    return array


def _arc_masks(coords: np.ndarray) -> np.ndarray:
    """``[facing, boss, node]`` arc bits from the bearing of ``node − boss`` against the facing (R-12.8).

    front iff ``dot ≥ |cross|``, back iff ``−dot ≥ |cross|``, right/left iff ``|cross| ≥ |dot|`` by the sign
    of the cross product; the inequalities are inclusive, so nodes on a dividing line get both arcs.
    """
    v = (coords[None, :, :] - coords[:, None, :]).astype(np.int32)  # [boss, node, (drow, dcol)]
    masks = np.zeros((N_DIRECTIONS, len(coords), len(coords)), dtype=np.uint8)
    for facing, (fr, fc) in enumerate(DIRECTIONS):
        dot = v[..., 0] * fr + v[..., 1] * fc
        cross = v[..., 0] * fc - v[..., 1] * fr  # > 0: clockwise of the facing, i.e. to the right
        masks[facing] = (
            FRONT * (dot >= np.abs(cross))
            + BACK * (-dot >= np.abs(cross))
            + RIGHT * ((cross > 0) & (cross >= np.abs(dot)))
            + LEFT * ((cross < 0) & (-cross >= np.abs(dot)))
        )
        np.fill_diagonal(masks[facing], 0)  # the boss's own node: characters there carry their own arc
    return masks


def _toward(coords: np.ndarray) -> np.ndarray:
    """``[from, to]`` direction whose step best points at ``to`` (largest cosine); −1 on the diagonal."""
    v = (coords[None, :, :] - coords[:, None, :]).astype(np.float64)
    steps = np.asarray(DIRECTIONS, dtype=np.float64)
    cosine = (v @ steps.T) / np.linalg.norm(steps, axis=1)  # |v| is common to all directions
    toward = np.argmax(cosine, axis=-1).astype(np.int8)
    np.fill_diagonal(toward, -1)
    return toward


@dataclass(frozen=True, eq=False)
class Board:
    """One battle room (R-2): node coordinates and the precomputed tables the kernel reads.

    ``index[r, c]`` is the node id at ``(r, c)`` or −1; ``neighbour[n, d]`` the node one step in
    ``DIRECTIONS[d]`` or −1; ``adjacent_nodes[n]`` the same nodes without the gaps (those in direction order,
    then −1), for loops over the nodes around ``n`` whose direction does not matter; ``walls[n]`` the WALL_*
    bits of the room edges node ``n`` lies against;
    ``arc_mask[f, b, n]`` the arc bits of node ``n`` for a boss on ``b`` facing ``f``; ``toward[b, n]``
    the facing from ``b`` that best points at ``n``.
    """

    coords: np.ndarray
    index: np.ndarray
    neighbour: np.ndarray
    adjacent_nodes: np.ndarray
    adjacent: np.ndarray
    steps: np.ndarray
    walls: np.ndarray
    arc_mask: np.ndarray
    toward: np.ndarray

    @property
    def n_nodes(self) -> int:
        """Number of nodes."""
        return len(self.coords)

    def node(self, row: int, col: int) -> int:
        """Node id at ``(row, col)``; ``KeyError`` if there is no node there."""
        rows, cols = self.index.shape
        if not (0 <= row < rows and 0 <= col < cols) or self.index[row, col] < 0:
            raise KeyError(f"no node at ({row}, {col})")
        return int(self.index[row, col])

    def door_wall_nodes(self, wall: int) -> np.ndarray:
        """Ids of the nodes along one wall (a WALL_* bit), e.g. WALL_BOTTOM = the bottom row."""
        return np.flatnonzero(self.walls & wall)

    def facing_toward(self, boss: int, node: int) -> int:
        """Direction index whose step from ``boss`` best points at ``node`` (initial facing, turns)."""
        if boss == node:
            raise ValueError("a node has no direction toward itself")
        return int(self.toward[boss, node])

    @classmethod
    def from_coords(cls, coords: Iterable[tuple[int, int]]) -> Board:
        """Build a board from node coordinates (``row + col`` even, non-negative), in node-id order."""
        xy = np.array(list(coords), dtype=np.int16).reshape(-1, 2)
        if len(xy) == 0:
            raise ValueError("a board needs at least one node")
        if (xy < 0).any() or ((xy[:, 0] + xy[:, 1]) % 2).any():
            raise ValueError("node coordinates must be non-negative with row + col even")
        if len({tuple(c) for c in xy.tolist()}) != len(xy):
            raise ValueError("duplicate node coordinates")
        n = len(xy)
        rows, cols = xy.max(axis=0) + 1
        index = np.full((rows + 4, cols + 4), -1, dtype=np.int16)  # 2-node margin: every step stays in bounds
        index[xy[:, 0] + 2, xy[:, 1] + 2] = np.arange(n)
        steps = np.asarray(DIRECTIONS, dtype=np.int16)
        neighbour = index[xy[:, None, 0] + 2 + steps[None, :, 0], xy[:, None, 1] + 2 + steps[None, :, 1]]
        adjacent = np.zeros((n, n), dtype=bool)
        has = neighbour >= 0
        adjacent[np.repeat(np.arange(n), N_DIRECTIONS)[has.ravel()], neighbour[has]] = True
        low, high = xy.min(axis=0), xy.max(axis=0)
        walls = (
            WALL_TOP * (xy[:, 0] == low[0])
            + WALL_RIGHT * (xy[:, 1] == high[1])
            + WALL_BOTTOM * (xy[:, 0] == high[0])
            + WALL_LEFT * (xy[:, 1] == low[1])
        ).astype(np.uint8)
        neighbour = np.ascontiguousarray(neighbour, dtype=np.int16)
        on_board_first = np.argsort(neighbour < 0, axis=1, kind="stable")
        return cls(
            coords=_readonly(xy),
            index=_readonly(index[2:-2, 2:-2].copy()),
            neighbour=_readonly(neighbour),
            adjacent_nodes=_readonly(np.take_along_axis(neighbour, on_board_first, axis=1)),
            adjacent=_readonly(adjacent),
            steps=_readonly(walk_distances_nb(neighbour, np.zeros(n, dtype=np.bool_))),
            walls=_readonly(walls),
            arc_mask=_readonly(_arc_masks(xy)),
            toward=_readonly(_toward(xy)),
        )


def tile_coords(col_shift: int = 0) -> list[tuple[int, int]]:
    """The 13 node coordinates of one 5×5 tile, row by row, shifted right by ``col_shift`` columns."""
    return [(r, c + col_shift) for r in range(TILE_SIZE) for c in range(TILE_SIZE) if (r + c) % 2 == 0]


def standard_tile() -> Board:
    """One standard tile: 13 nodes (R-2.4)."""
    return Board.from_coords(tile_coords())


def joined_tiles() -> Board:
    """The main-boss arena: mini-boss tile (cols 0..4) joined to the main-boss tile (cols 6..10) (F-2.3)."""
    return Board.from_coords(tile_coords() + tile_coords(SEAM_SHIFT))


def walk_distances(board: Board, blocked: np.ndarray) -> np.ndarray:
    """All-pairs walking distances on ``board`` avoiding ``blocked`` nodes (see :func:`walk_distances_nb`)."""
    blocked = np.asarray(blocked, dtype=np.bool_)
    if blocked.shape != (board.n_nodes,):
        raise ValueError(f"blocked must have shape ({board.n_nodes},), got {blocked.shape}")
    return walk_distances_nb(board.neighbour, blocked)
