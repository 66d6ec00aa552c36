"""The dungeon's geometry: spaces, coordinates and which spaces form each seat's lanes 1..3.

Every layout has six dungeon spaces, indexed 0..5, each with grid coordinates ``(x, y)`` (x grows to
the east, y to the north). A seat sits on one side of the dungeon and numbers the three lanes it
faces 1..3 from its own left to its own right; a lane is the set of spaces in one column (or row, for
seats on the east/west sides) as that seat sees it.

* ``"columns"`` (1-2 players): a 3x2 block, three columns of two spaces. Seat 0 sits on the south
  side. In a duel seat 1 sits opposite (north), so by default (``lane_view="mirrored"``) its lane 1 is
  seat 0's lane 3; ``lane_view="shared"`` numbers the columns the same for both seats.
* ``"grid"`` (3-4 players): a 3x3 grid, the deck in the centre (1, 1) and two face-down blocked
  corners at (0, 0) and (2, 2). Seats sit south, west, north, east (clockwise from above, in seat
  order); each lane then holds exactly two live spaces.
"""

from __future__ import annotations

from dataclasses import dataclass

SIDES = ("south", "west", "north", "east")


@dataclass(frozen=True)
class Board:
    """One layout: coordinates per space and the lane tables per seat."""

    layout: str
    coords: tuple[tuple[int, int], ...]
    blocked: tuple[tuple[int, int], ...]
    deck_at: tuple[int, int] | None
    sides: tuple[str, ...]
    lane_spaces: tuple[tuple[tuple[int, ...], ...], ...]
    """``lane_spaces[seat][lane]`` (lane 1..3; index 0 unused): the spaces of that seat's lane."""
    space_lane: tuple[tuple[int, ...], ...]
    """``space_lane[seat][space]``: the lane (1..3) that space belongs to, as that seat numbers it."""


def _lane_axis(side: str, lane: int) -> tuple[int, int]:
    """(axis, value): the lane is the spaces whose coordinate ``axis`` (0 = x, 1 = y) equals value."""
    if side == "south":
        return 0, lane - 1
    if side == "north":
        return 0, 3 - lane
    if side == "west":  # facing east, the seat's left is north
        return 1, 3 - lane
    return 1, lane - 1  # east: facing west, the seat's left is south


def make_board(players: int, lane_view: str = "mirrored") -> Board:
    """The board for ``players`` seats (1..4)."""
    if players <= 2:
        coords = tuple((x, y) for x in range(3) for y in range(2))
        blocked: tuple[tuple[int, int], ...] = ()
        deck_at = None
        sides: tuple[str, ...] = ("south", "north")[:players] if lane_view == "mirrored" else ("south",) * players
        layout = "columns"
    else:
        coords = ((1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2))
        blocked = ((0, 0), (2, 2))
        deck_at = (1, 1)
        sides = SIDES[:players]
        layout = "grid"
    lane_spaces = []
    space_lane = []
    for side in sides:
        lanes: list[tuple[int, ...]] = [()]
        per_space = [0] * len(coords)
        for lane in (1, 2, 3):
            axis, value = _lane_axis(side, lane)
            spaces = tuple(i for i, c in enumerate(coords) if c[axis] == value)
            lanes.append(spaces)
            for s in spaces:
                per_space[s] = lane
        lane_spaces.append(tuple(lanes))
        space_lane.append(tuple(per_space))
    return Board(layout, coords, blocked, deck_at, sides, tuple(lane_spaces), tuple(space_lane))
