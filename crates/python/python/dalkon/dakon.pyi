"""Dakon: rules, exact solver and proofs (wrapping the Rust crates)."""

import os
import pathlib
from typing import Iterable, Literal, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__all__ = [
    "Failure",
    "Line",
    "Position",
    "Proof",
    "ProofFile",
    "Record",
    "Result",
    "Rules",
    "Verdict",
    "prove",
    "solve",
    "verify",
    "analyse",
    "max_game_length",
    "replay",
]

class Rules:
    """A Dakon rule set, option values spelt as the CLI's flags; defaults are the standard rules."""

    def __init__(
        self,
        origin: Literal["sow", "skip"] = "sow",
        mikul: Literal["on", "off"] = "on",
        nembak: Literal["keep", "take"] = "keep",
    ) -> None:
        """Raises InputError (the rules' message) for a value the option does not have."""
    @staticmethod
    def parse(text: str) -> "Rules":
        """Parse ``origin=… mikul=… nembak=…``, the form ``str(rules)`` writes."""
    @property
    def origin(self) -> Literal["sow", "skip"]:
        """Whether a lap sows into its own origin hole."""
    @property
    def mikul(self) -> Literal["on", "off"]:
        """Whether mikul captures on the opponent's side are played."""
    @property
    def nembak(self) -> Literal["keep", "take"]:
        """Whether the landing seed of a nembak capture is kept or taken."""
    def __str__(self) -> str: ...
    def __repr__(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Position:
    """A Dakon position: both rows, both stores, the side to move; immutable."""

    @staticmethod
    def start(holes: int, seeds: int) -> "Position":
        """The start of a board: ``holes`` a row, ``seeds`` in each, South to move."""
    @staticmethod
    def parse(text: str) -> "Position":
        """Parse the CLI's notation ``<row 0>/<row 1>/<store 0>,<store 1> <side>``."""
    @staticmethod
    def from_rows(
        south: Sequence[int],
        north: Sequence[int],
        stores: tuple[int, int] = (0, 0),
        side_to_move: Literal[0, 1] = 0,
    ) -> "Position":
        """A position from its rows (hole 1 first), stores (South, North) and side to move, validated."""
    @property
    def holes(self) -> int:
        """Holes per row."""
    @property
    def side_to_move(self) -> Literal[0, 1]:
        """0 for South (the first player), 1 for North."""
    @property
    def stores(self) -> tuple[int, int]:
        """The stores, (South, North)."""
    @property
    def seeds(self) -> npt.NDArray[np.uint8]:
        """A new uint8 array of shape (2, holes): row 0 South's holes 1..n, row 1 North's."""
    def seeds_on_board(self) -> int:
        """Seeds in the holes of both rows (stores not counted)."""
    def legal_moves(self, rules: Optional[Rules] = None) -> list[int]:
        """The non-empty holes (1..n) of the side to move; empty when the game is over."""
    def play(self, hole: int, rules: Optional[Rules] = None) -> tuple["Position", list[str]]:
        """The position after playing ``hole`` and the events as ``dakon play`` prints them."""
    def is_over(self, rules: Optional[Rules] = None) -> bool:
        """Whether the game is over (the side to move has no seeds)."""
    def terminal_margin(self, rules: Optional[Rules] = None) -> Optional[int]:
        """South's final store minus North's if the game is over, else None."""
    def draw(self) -> str:
        """The board as ``dalkon dakon show`` draws it for a terminal."""
    def _repr_svg_(self) -> str:
        """The picture of ``dalkon dakon show --format svg`` (notebooks)."""
    def __str__(self) -> str: ...
    def __repr__(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Result:
    """The answer of :func:`solve`, as ``dalkon dakon best`` gives it."""

    @property
    def value(self) -> int:
        """Final store difference for the side to move; if not exact, the 6-ply estimate of the best move clamped to lower..upper."""
    @property
    def lower(self) -> int:
        """The value is at least this (proved)."""
    @property
    def upper(self) -> int:
        """The value is at most this (proved)."""
    @property
    def best_moves(self) -> list[int]:
        """Exact: every move reaching the value, ascending; otherwise the one move judged best."""
    @property
    def pv(self) -> list[int]:
        """Both sides' moves to the end of the game; an exact answer's pv ends at ``value``."""
    @property
    def exact(self) -> bool:
        """Whether the value and best moves are proved."""
    @property
    def moves(self) -> list[tuple[int, int, int]]:
        """Every legal move as (hole, lower, upper), its proved bounds."""
    @property
    def estimate_depth(self) -> Optional[int]:
        """Plies of the estimate that chose the move when nothing was proved, else None."""
    @property
    def nodes(self) -> int:
        """Search nodes (alpha-beta calls)."""
    @property
    def positions(self) -> int:
        """Positions in the transposition table after the search."""
    @property
    def seconds(self) -> float:
        """Wall-clock seconds of the search."""
    @property
    def lines(self) -> Optional[list[Line]]:
        """With ``multipv=K``: the K best moves, best first, as ``dakon best --multipv K``'s ``lines``; else None."""

class Line:
    """One of the best moves of ``solve(..., multipv=K)``."""

    @property
    def move(self) -> int:
        """The move (a hole of the side to move)."""
    @property
    def value(self) -> int:
        """Its value: exact when ``exact``, else the shallow estimate within lower..upper."""
    @property
    def exact(self) -> bool:
        """Whether the value is proved."""
    @property
    def lower(self) -> Optional[int]:
        """Proved lower bound when not exact, else None."""
    @property
    def upper(self) -> Optional[int]:
        """Proved upper bound when not exact, else None."""
    @property
    def pv(self) -> list[int]:
        """The line of play starting with the move; an exact line's pv ends the game at ``value``."""

class ProofFile:
    """One strategy file written by :func:`prove`."""

    @property
    def path(self) -> pathlib.Path:
        """Where it was written."""
    @property
    def player(self) -> Literal[0, 1]:
        """Whose strategy: 0 South, 1 North."""
    @property
    def guarantees(self) -> int:
        """The final store difference (player minus opponent) it secures."""
    @property
    def lines(self) -> int:
        """Strategy lines (positions with the player to move)."""
    @property
    def reached(self) -> int:
        """Positions (either side to move) its games reach."""
    @property
    def settled(self) -> int:
        """Of those, the ones where any play secures what is still needed
        (the format still asks a move in each)."""
    @property
    def bytes(self) -> int:
        """Bytes of the file."""

class Proof:
    """What :func:`prove` proved and wrote, as ``dalkon dakon prove`` reports it."""

    @property
    def value(self) -> int:
        """The exact value: final store difference for the side to move."""
    @property
    def best_moves(self) -> list[int]:
        """Every root move reaching the value, ascending."""
    @property
    def files(self) -> list[ProofFile]:
        """The mover's file (secures value), then the opponent's (secures -value)."""
    @property
    def seconds(self) -> float:
        """Wall-clock seconds: the search plus reading the strategies off it."""

class Failure:
    """Where a strategy breaks (:attr:`Verdict.failure`)."""

    @property
    def kind(self) -> Literal["missing_line", "illegal_move", "below_guarantee"]:
        """What is wrong."""
    @property
    def path(self) -> list[int]:
        """The moves from the root to the failing position (a worst game for below_guarantee)."""
    @property
    def position(self) -> Optional[Position]:
        """The position where a line is missing or illegal."""
    @property
    def hole(self) -> Optional[int]:
        """The illegal hole the strategy plays."""
    @property
    def message(self) -> str:
        """The CLI's message (after ``the strategy does not hold: ``)."""

class Verdict:
    """What :func:`verify` found: the fields of ``dalkon dakon verify --format json``."""

    @property
    def valid(self) -> bool:
        """The strategy secures what it claims."""
    @property
    def player(self) -> Literal[0, 1]:
        """Whose strategy: 0 South, 1 North."""
    @property
    def guarantees(self) -> int:
        """What the file claims the player secures."""
    @property
    def proved(self) -> int:
        """The worst final store difference (player minus opponent) over every game allowed."""
    @property
    def positions_checked(self) -> int:
        """Distinct unfinished positions checked."""
    @property
    def lines(self) -> int:
        """Strategy lines in the file."""
    @property
    def unused_lines(self) -> int:
        """Lines never reached."""
    @property
    def rules(self) -> Rules:
        """The rules the file names."""
    @property
    def root(self) -> Position:
        """The position the file proves."""
    @property
    def seconds(self) -> float:
        """Wall-clock seconds of the check."""
    @property
    def failure(self) -> Optional[Failure]:
        """Where it breaks (None when valid)."""

def solve(
    pos: Position,
    rules: Optional[Rules] = None,
    time: Optional[float] = None,
    max_nodes: Optional[int] = None,
    every_move: bool = False,
    tt_mb: Optional[int] = None,
    multipv: Optional[int] = None,
    probe_seeds: Optional[int] = None,
    db_dir: Optional[Union[str, os.PathLike[str]]] = None,
) -> Result:
    """The value and best moves of ``pos`` as ``dakon best``; ``probe_seeds``/``db_dir`` as ``--probe-seeds``/``--db-dir``; releases the GIL, stops on Ctrl-C."""

def prove(
    pos: Optional[Position] = None,
    rules: Optional[Rules] = None,
    *,
    holes: Optional[int] = None,
    seeds: Optional[int] = None,
    out_dir: Union[str, os.PathLike[str]],
    gzip: bool = False,
    max_lines: Optional[int] = None,
    tt_mb: Optional[int] = None,
) -> Proof:
    """Solve exactly and write mover.strategy and opponent.strategy into ``out_dir``, as ``dakon prove``."""

def verify(path: Union[str, os.PathLike[str]]) -> Verdict:
    """Check a strategy file with the rules alone, as ``dakon verify``; DataError if unreadable; Ctrl-C stops the check."""

class Record:
    """A Dakon game record (docs/formats.md §5): rules, start, moves, tags; str() is its text."""

    def __init__(self, start: Position, moves: Sequence[int] = ..., rules: Optional[Rules] = None) -> None: ...
    @staticmethod
    def parse(text: str) -> Record:
        """Read a record's text (every move replayed); InputError names the line and column of a bad move."""
    @staticmethod
    def read(path: Union[str, os.PathLike[str]]) -> Record:
        """Read a record file (at most 4 MiB)."""
    def write(self, path: Union[str, os.PathLike[str]]) -> None:
        """Write the record (atomically)."""
    @property
    def rules(self) -> Rules: ...
    @property
    def start(self) -> Position: ...
    @property
    def moves(self) -> list[int]: ...
    @property
    def tags(self) -> list[tuple[str, str]]: ...
    @property
    def result(self) -> str:
        """"1-0" (South won), "0-1", "1/2-1/2" or "*" (not over)."""
    def positions(self) -> list[Position]:
        """The start and the position after each move."""

DEFAULT_ANALYSE_SECONDS: float

def analyse(
    record: Union[Record, str],
    time: Optional[float] = DEFAULT_ANALYSE_SECONDS,
    max_nodes: Optional[int] = None,
    probe_seeds: Optional[int] = None,
    db_dir: Optional[Union[str, os.PathLike[str]]] = None,
) -> dict:
    """Every decision judged, as ``dakon analyse``: a dict with the CLI's JSON fields; time=None: no limit; ``probe_seeds``/``db_dir`` as ``--probe-seeds``/``--db-dir``."""

def max_game_length(holes: int, seeds: int) -> int:
    """A true upper bound on the moves of a game from the start: T + (T + 1) * T * holes, T = 2 * holes * seeds."""

def replay(pos: Position, moves: Iterable[int], rules: Optional[Rules] = None) -> Position:
    """The position after playing ``moves`` (holes, in order) from ``pos``."""
