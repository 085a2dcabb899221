"""DS:TBG board geometry: adjacency (R-2.4), distances (R-2.5), walls, walking BFS, arcs (R-12.8), moves (F-12.7)."""

from __future__ import annotations

import numpy as np
import pytest

from dsim.games.dstbg.board import (
    BACK,
    BACKWARD,
    DIRECTIONS,
    FORWARD,
    FRONT,
    LEFT,
    LEFTWARD,
    RIGHT,
    RIGHTWARD,
    UNREACHABLE,
    WALL_BOTTOM,
    WALL_LEFT,
    WALL_RIGHT,
    WALL_TOP,
    Board,
    joined_tiles,
    relative_direction,
    standard_tile,
    walk_distances,
    walk_distances_nb,
)

TILE = standard_tile()
ARENA = joined_tiles()


def test_R_2_4_standard_tile_has_13_checkerboard_nodes() -> None:
    assert TILE.n_nodes == 13
    assert ((TILE.coords.sum(axis=1) % 2) == 0).all()
    assert TILE.index.shape == (5, 5)
    assert TILE.node(2, 2) == 6
    with pytest.raises(KeyError):
        TILE.node(0, 1)
    with pytest.raises(KeyError):
        TILE.node(5, 5)


@pytest.mark.parametrize(
    ("row", "col", "degree"),
    [
        (0, 0, 3), (0, 4, 3), (4, 0, 3), (4, 4, 3),  # corners
        (0, 2, 5), (2, 0, 5), (2, 4, 5), (4, 2, 5),  # middle of an edge
        (1, 1, 6), (1, 3, 6), (3, 1, 6), (3, 3, 6),  # inner diagonal nodes
        (2, 2, 8),  # centre
    ],
)
def test_R_2_4_adjacency_counts(row: int, col: int, degree: int) -> None:
    node = TILE.node(row, col)
    assert TILE.adjacent[node].sum() == degree
    assert (TILE.neighbour[node] >= 0).sum() == degree


def test_R_2_4_adjacency_is_symmetric_and_matches_directions() -> None:
    assert (TILE.adjacent == TILE.adjacent.T).all()
    assert not TILE.adjacent.diagonal().any()
    for node in range(TILE.n_nodes):
        for d, (dr, dc) in enumerate(DIRECTIONS):
            other = TILE.neighbour[node, d]
            if other >= 0:
                assert tuple(TILE.coords[other] - TILE.coords[node]) == (dr, dc)
                assert TILE.neighbour[other, (d + 4) % 8] == node


@pytest.mark.parametrize("board", [TILE, ARENA], ids=["tile", "arena"])
def test_R_2_4_adjacent_nodes_list_each_nodes_neighbours_in_direction_order_then_gaps(board: Board) -> None:
    for node in range(board.n_nodes):
        around = board.neighbour[node][board.neighbour[node] >= 0]
        row = board.adjacent_nodes[node]
        assert row[: len(around)].tolist() == around.tolist()  # the kernel's option rows keep direction order
        assert (row[len(around):] == -1).all()


def test_R_2_5_step_distances() -> None:
    corner, opposite = TILE.node(0, 0), TILE.node(4, 4)
    assert TILE.steps[corner, opposite] == 4
    assert TILE.steps[corner, TILE.node(0, 4)] == 2  # two orthogonal steps along the wall
    assert TILE.steps[corner, TILE.node(4, 0)] == 2
    assert TILE.steps[corner, TILE.node(2, 2)] == 2
    assert TILE.steps[corner, TILE.node(1, 3)] == 2
    assert (TILE.steps == TILE.steps.T).all()
    # range 0 = same node, range 1 = adjacent or closer, the centre reaches every node at range 2
    assert (np.diag(TILE.steps) == 0).all()
    assert ((TILE.steps == 1) == TILE.adjacent).all()
    assert TILE.steps[TILE.node(2, 2)].max() == 2
    assert TILE.steps.max() == 4


def test_joined_arena_seam_adjacency() -> None:
    assert ARENA.n_nodes == 26
    assert ARENA.index.shape == (5, 11)
    assert (ARENA.index[:, 5] == -1).all()
    for row in (0, 2, 4):
        left, right = ARENA.node(row, 4), ARENA.node(row, 6)
        assert ARENA.adjacent[left, right]
        assert ARENA.neighbour[left, 2] == right  # east
        assert ARENA.neighbour[right, 6] == left  # west
    # no diagonal adjacency across the seam: only the three orthogonal pairs join the tiles
    left_tile = ARENA.coords[:, 1] <= 4
    assert ARENA.adjacent[np.ix_(left_tile, ~left_tile)].sum() == 3
    assert ARENA.steps[ARENA.node(0, 0), ARENA.node(4, 10)] == 7
    assert ARENA.steps[ARENA.node(2, 2), ARENA.node(2, 8)] == 3


def test_walls_and_door_wall_nodes() -> None:
    assert TILE.walls[TILE.node(0, 0)] == WALL_TOP | WALL_LEFT
    assert TILE.walls[TILE.node(4, 2)] == WALL_BOTTOM
    assert TILE.walls[TILE.node(1, 1)] == 0
    assert TILE.walls[TILE.node(2, 2)] == 0
    assert [tuple(TILE.coords[n]) for n in TILE.door_wall_nodes(WALL_BOTTOM)] == [(4, 0), (4, 2), (4, 4)]
    assert [tuple(TILE.coords[n]) for n in TILE.door_wall_nodes(WALL_RIGHT)] == [(0, 4), (2, 4), (4, 4)]
    # the seam of the arena is not a wall; the arena's right wall is the main-boss tile's
    assert ARENA.walls[ARENA.node(2, 4)] == 0
    assert ARENA.walls[ARENA.node(2, 6)] == 0
    assert [tuple(ARENA.coords[n]) for n in ARENA.door_wall_nodes(WALL_RIGHT)] == [(0, 10), (2, 10), (4, 10)]


def test_R_2_5_walk_goes_round_a_blocking_node() -> None:
    blocked = np.zeros(TILE.n_nodes, dtype=bool)
    blocked[TILE.node(2, 2)] = True
    walk = walk_distances(TILE, blocked)
    top, bottom = TILE.node(0, 2), TILE.node(4, 2)
    assert TILE.steps[top, bottom] == 2
    assert walk[top, bottom] == 3  # round the centre: (0,2) → (1,1) → (3,1) → (4,2)
    assert walk[top, TILE.node(2, 2)] == UNREACHABLE  # never into a blocked node
    assert walk[TILE.node(2, 2), top] == 1  # a blocked start can still be left
    assert walk[TILE.node(2, 2), TILE.node(2, 2)] == 0
    unblocked = walk_distances(TILE, np.zeros(TILE.n_nodes, dtype=bool))
    assert (unblocked == TILE.steps).all()


def test_walk_unreachable_sentinel_when_cut_off() -> None:
    corner = TILE.node(0, 0)
    blocked = np.zeros(TILE.n_nodes, dtype=bool)
    blocked[TILE.neighbour[corner][TILE.neighbour[corner] >= 0]] = True  # wall the corner in
    walk = walk_distances(TILE, blocked)
    assert walk[corner, TILE.node(4, 4)] == UNREACHABLE
    assert walk[TILE.node(4, 4), corner] == UNREACHABLE
    assert walk[TILE.node(4, 4), TILE.node(0, 4)] == 2  # the rest of the tile is unaffected
    assert walk[TILE.node(4, 4), TILE.node(1, 1)] == UNREACHABLE
    with pytest.raises(ValueError, match="shape"):
        walk_distances(TILE, np.zeros(3, dtype=bool))


def test_walk_distances_nb_is_callable_from_numba_style_inputs() -> None:
    blocked = np.zeros(ARENA.n_nodes, dtype=np.bool_)
    for row in (0, 2, 4):
        blocked[ARENA.node(row, 6)] = True  # the whole seam is blocked: the tiles are cut apart
    walk = walk_distances_nb(ARENA.neighbour, blocked)
    assert walk.dtype == np.int16
    assert walk[ARENA.node(2, 2), ARENA.node(2, 8)] == UNREACHABLE
    assert walk[ARENA.node(2, 6), ARENA.node(2, 8)] == 1


def _arc_table(board: Board, boss: tuple[int, int], facing: int) -> list[str]:
    """The arcs of every node of a tile as a grid of letters (F/R/B/L), '*' for the boss, '.' for no node."""
    masks = board.arc_mask[facing, board.node(*boss)]
    rows = []
    for r in range(5):
        cells = []
        for c in range(5):
            n = board.index[r, c]
            if n < 0:
                cells.append(".")
            elif (r, c) == boss:
                assert masks[n] == 0
                cells.append("*")
            else:
                cells.append("".join(letter for bit, letter in ((FRONT, "F"), (RIGHT, "R"), (BACK, "B"), (LEFT, "L"))
                                     if masks[n] & bit))
        rows.append(" ".join(cells))
    return rows


def test_R_12_8_arcs_orthogonal_facing_from_centre() -> None:
    # boss on the centre facing up: the diagonals through the centre are the dividing lines
    assert _arc_table(TILE, (2, 2), 0) == [
        "FL . F . FR",
        ". FL . FR .",
        "L . * . R",
        ". BL . RB .",
        "BL . B . RB",
    ]


def test_R_12_8_arcs_orthogonal_facing_from_edge() -> None:
    # boss on (0,2) facing down (south): right is to the west, left to the east
    assert _arc_table(TILE, (0, 2), 4) == [
        "R . * . L",
        ". FR . FL .",
        "FR . F . FL",
        ". F . F .",
        "F . F . F",
    ]


def test_R_12_8_arcs_diagonal_facing() -> None:
    # boss on (1,1) facing north-east: dividing lines are the row and column through the boss
    assert _arc_table(TILE, (1, 1), 1) == [
        "L . F . F",
        ". * . FR .",
        "B . R . R",
        ". RB . R .",
        "B . R . R",
    ]


def test_R_12_8_right_of_an_upward_boss_is_right() -> None:
    boss = TILE.node(2, 2)
    assert TILE.arc_mask[0, boss, TILE.node(2, 4)] == RIGHT
    assert TILE.arc_mask[0, boss, TILE.node(2, 0)] == LEFT


@pytest.mark.parametrize("board", [TILE, ARENA], ids=["tile", "arena"])
def test_R_12_8_every_node_in_an_arc_and_centres_in_exactly_one(board: Board) -> None:
    n = board.n_nodes
    off_diagonal = ~np.eye(n, dtype=bool)
    for facing in range(8):
        masks = board.arc_mask[facing]
        assert (masks[off_diagonal] > 0).all()
        assert (masks.diagonal() == 0).all()
        assert ((masks & FRONT > 0) & (masks & BACK > 0)).sum() == 0  # never front and back at once
        for boss in range(n):
            for side, arc in ((FORWARD, FRONT), (RIGHTWARD, RIGHT), (BACKWARD, BACK), (LEFTWARD, LEFT)):
                centre = board.neighbour[boss, relative_direction(facing, side)]
                if centre >= 0:
                    assert masks[boss, centre] == arc
        # turning 180° swaps front with back and left with right
        turned = board.arc_mask[(facing + 4) % 8]
        swap = ((masks & FRONT) << 2) | ((masks & BACK) >> 2) | ((masks & RIGHT) << 2) | ((masks & LEFT) >> 2)
        assert (turned == swap).all()


def test_F_12_7_relative_direction_and_turns() -> None:
    assert relative_direction(0, FORWARD) == 0
    assert relative_direction(0, RIGHTWARD) == 2
    assert relative_direction(0, BACKWARD) == 4
    assert relative_direction(0, LEFTWARD) == 6
    assert relative_direction(7, RIGHTWARD) == 1  # 90° clockwise from north-west is north-east
    assert relative_direction(3, LEFTWARD) == 1
    # a boss on (2,2) facing east moving "left" goes north to (0,2), never diagonally
    boss = TILE.node(2, 2)
    assert TILE.neighbour[boss, relative_direction(2, LEFTWARD)] == TILE.node(0, 2)
    # against a wall there is no node: the boss does not move
    assert TILE.neighbour[TILE.node(0, 2), relative_direction(0, FORWARD)] == -1


def test_facing_toward() -> None:
    centre = TILE.node(2, 2)
    assert TILE.facing_toward(centre, TILE.node(0, 2)) == 0
    assert TILE.facing_toward(centre, TILE.node(0, 4)) == 1
    assert TILE.facing_toward(centre, TILE.node(4, 0)) == 5
    assert TILE.facing_toward(TILE.node(0, 0), TILE.node(1, 3)) == 2  # 18.4° below east: east is nearest
    assert TILE.facing_toward(TILE.node(0, 0), TILE.node(2, 4)) == 3  # 26.6° below east: south-east is nearer
    assert TILE.facing_toward(TILE.node(0, 0), TILE.node(3, 1)) == 4
    assert TILE.facing_toward(TILE.node(0, 0), TILE.node(3, 3)) == 3
    assert ARENA.facing_toward(ARENA.node(2, 2), ARENA.node(2, 10)) == 2
    with pytest.raises(ValueError):
        TILE.facing_toward(centre, centre)
    for b in range(TILE.n_nodes):
        for d in range(8):
            n = TILE.neighbour[b, d]
            if n >= 0:
                assert TILE.facing_toward(b, n) == d


def test_from_coords_validates_and_tables_are_read_only() -> None:
    with pytest.raises(ValueError, match="row \\+ col even"):
        Board.from_coords([(0, 1)])
    with pytest.raises(ValueError, match="duplicate"):
        Board.from_coords([(0, 0), (0, 0)])
    with pytest.raises(ValueError, match="at least one node"):
        Board.from_coords([])
    with pytest.raises(ValueError):
        TILE.steps[0, 0] = 5
