"""The dungeon's geometry: spaces, coordinates, each seat's lanes 1..3, and how a seat names them.

Every layout has six dungeon spaces, indexed 0..5, each with grid coordinates ``(x, y)`` (x grows to
the east, y to the north). A seat sits on one side of the dungeon and numbers the three lanes it
faces 1..3 from its own left to its own right; a lane is the set of spaces in one column (or row, for
seats on the east/west sides) as that seat sees it. Along a lane a seat calls the spaces ``near``,
(``middle``,) ``far``, counted from its own side.

* ``"columns"`` (1-2 players): a 3x2 block, three columns of two spaces. Seat 0 sits on the south
  side. In a duel seat 1 sits opposite (north), so by default (``lane_view="mirrored"``) its lane 1 is
  seat 0's lane 3; ``lane_view="shared"`` numbers the columns the same for both seats (both read the
  table as from the south side).
* ``"grid"`` (3-4 players): a 3x3 grid, the deck in the centre (1, 1) and two face-down corner cards
  at (0, 0) and (2, 2). Seats sit south, west, north, east (clockwise from above, in seat order);
  each lane then holds exactly two live spaces.

Space indices and coordinates are the engine's; people only ever read the names this module makes
(``lane 2, far``), from their own side of the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

SIDES = ("south", "west", "north", "east")
PLACES = {2: ("near", "far"), 3: ("near", "middle", "far")}

SPACE: Final = "space"
BLOCKED: Final = "blocked"
DECK: Final = "deck"
"""Kinds of cell in a seat's picture of the dungeon."""


@dataclass(frozen=True)
class Board:
    """One layout: coordinates per space, the lane tables per seat and the picture each seat sees."""

    layout: str
    coords: tuple[tuple[int, int], ...]
    blocked: tuple[tuple[int, int], ...]
    deck_at: tuple[int, int] | None
    sides: tuple[str, ...]
    lane_spaces: tuple[tuple[tuple[int, ...], ...], ...]
    """``lane_spaces[seat][lane]`` (lane 1..3; index 0 unused): the spaces of that seat's lane."""
    space_lane: tuple[tuple[int, ...], ...]
    """``space_lane[seat][space]``: the lane (1..3) that space belongs to, as that seat numbers it."""
    space_place: tuple[tuple[str, ...], ...]
    """``space_place[seat][space]``: ``near``/``middle``/``far`` along its lane, from that seat's side."""
    picture: tuple[tuple[tuple[tuple[str, int, int, str], ...], ...], ...]
    """``picture[seat]``: the dungeon as that seat sees it, rows far to near, columns lane 1..3 (left
    to right); a cell is ``(kind, space, lane, place)`` with ``kind`` one of SPACE/BLOCKED/DECK
    (``space`` is -1 for the others)."""

    def space_name(self, seat: int, space: int) -> str:
        """``lane 2, far``: a dungeon space as ``seat`` names it."""
        return f"lane {self.space_lane[seat][space]}, {self.space_place[seat][space]}"

    def lane_as_seen(self, reader: int, owner: int, lane: int) -> tuple[int, str]:
        """Where ``owner``'s lane ``lane`` lies for ``reader``: ``(reader's lane number, "")`` when it
        is one of the reader's lanes too, else ``(0, place)`` with the row it forms across the
        reader's lanes (``near``/``middle``/``far``: a lane of a seat at the reader's left or right)."""
        spaces = self.lane_spaces[owner][lane]
        mine = self.space_lane[reader][spaces[0]]
        if set(self.lane_spaces[reader][mine]) == set(spaces):
            return mine, ""
        return 0, self.space_place[reader][spaces[0]]


def _lane_and_depth(side: str, x: int, y: int, width: int, height: int) -> tuple[int, int]:
    """(lane 1..3, depth 0 = nearest) of the cell (x, y) for a seat on ``side`` looking in."""
    if side == "south":
        return x + 1, y
    if side == "north":
        return width - x, height - 1 - y
    if side == "west":  # facing east, the seat's left is north
        return height - y, x
    return y + 1, width - 1 - x  # east: facing west, the seat's left is south


def make_board(players: int, lane_view: str = "mirrored") -> Board:
    """The board for ``players`` seats (1..4)."""
    if players <= 2:
        coords = tuple((x, y) for x in range(3) for y in range(2))
        blocked: tuple[tuple[int, int], ...] = ()
        deck_at = None
        sides: tuple[str, ...] = ("south", "north")[:players] if lane_view == "mirrored" else ("south",) * players
        layout = "columns"
        width, height = 3, 2
    else:
        coords = ((1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2))
        blocked = ((0, 0), (2, 2))
        deck_at = (1, 1)
        sides = SIDES[:players]
        layout = "grid"
        width = height = 3
    lane_spaces = []
    space_lane = []
    space_place = []
    pictures = []
    for side in sides:
        depth_of = [_lane_and_depth(side, x, y, width, height) for x, y in coords]
        rows = max(d for _, d in depth_of) + 1
        places = PLACES[rows]
        lanes: list[tuple[int, ...]] = [()]
        for lane in (1, 2, 3):
            lanes.append(tuple(i for i, (ln, _) in enumerate(depth_of) if ln == lane))
        lane_spaces.append(tuple(lanes))
        space_lane.append(tuple(ln for ln, _ in depth_of))
        space_place.append(tuple(places[d] for _, d in depth_of))
        cells: dict[tuple[int, int], tuple[str, int, int, str]] = {}
        for i, (ln, d) in enumerate(depth_of):
            cells[(d, ln)] = (SPACE, i, ln, places[d])
        for kind, where in [(BLOCKED, c) for c in blocked] + ([(DECK, deck_at)] if deck_at else []):
            ln, d = _lane_and_depth(side, where[0], where[1], width, height)
            cells[(d, ln)] = (kind, -1, ln, places[d])
        pictures.append(tuple(tuple(cells[(d, ln)] for ln in (1, 2, 3)) for d in reversed(range(rows))))
    return Board(
        layout,
        coords,
        blocked,
        deck_at,
        sides,
        tuple(lane_spaces),
        tuple(space_lane),
        tuple(space_place),
        tuple(pictures),
    )
