"""Daldøs: rules, exact odds, engine and solved values (type stubs)."""

import os

import numpy
from fractions import Fraction
from typing import Optional, Union

from . import InputError

_Path = Union[str, "os.PathLike[str]"]

class NotCoveredError(InputError):
    """A position the solved tables do not cover; the message names the layer and the command that builds it."""

class Rules:
    """Daldøs rules: the board (danish, norwegian or L) and the dal, capture and end options, as the CLI's flags."""

    def __init__(
        self,
        board: Union[int, str, None] = None,
        dal: str = "any",
        capture: str = "final",
        end: str = "last",
    ) -> None:
        """Rules from the CLI's values: board danish/norwegian/L (default danish), dal any/sternmost, capture final/path, end last/one."""
    @property
    def board(self) -> str:
        """The board's name: "danish", "norwegian" or the digits of L."""
    @property
    def board_len(self) -> int:
        """The row length L (the board has 3L + 1 holes)."""
    @property
    def dal(self) -> str:
        """"any" or "sternmost"."""
    @property
    def capture(self) -> str:
        """"final" or "path"."""
    @property
    def end(self) -> str:
        """"last" or "one"."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Position:
    """A position under its rules; str() is the notation "<row A>/<row M>/<row B> <side>", parse(str(pos), pos.rules) == pos."""

    def __init__(self, text: str, rules: Optional[Rules] = None) -> None:
        """The same as Position.parse(text, rules)."""
    @staticmethod
    def start(rules: Optional[Rules] = None) -> "Position":
        """The start position of the rules' board (default: Danish), A to throw."""
    @staticmethod
    def parse(text: str, rules: Optional[Rules] = None) -> "Position":
        """Parse the notation; InputError with the CLI's message (and column) on bad text or a board other than the rules'."""
    @property
    def rules(self) -> Rules:
        """The rules this position is played under."""
    @property
    def board_len(self) -> int:
        """The row length L."""
    @property
    def side_to_throw(self) -> int:
        """The side that throws next: 0 = A (the first player), 1 = B."""
    def is_over(self, rules: Optional[Rules] = None) -> bool:
        """Whether the game is over under the end rule."""
    def winner(self, rules: Optional[Rules] = None) -> Optional[int]:
        """The winner (0 = A, 1 = B) if the game is over, else None."""
    def pieces(self) -> tuple[int, int]:
        """Pieces left: (A's, B's)."""
    def undalt(self) -> tuple[int, int]:
        """Undalt pieces: (A's, B's)."""
    def holes(self, side: int) -> list[str]:
        """The holes of a side's pieces (0 = A, 1 = B), in cell order, e.g. ["A1", "M5"]."""
    def cell(self, hole: str) -> str:
        """What a hole holds: ".", "A"/"B" (undalt) or "a"/"b" (dalt)."""
    def array(self) -> "numpy.ndarray":
        """The holes in cell order as int8: 0 empty, 1/2 undalt/dalt A, -1/-2 undalt/dalt B."""
    def mirror(self) -> "Position":
        """Rows A and B exchanged, pieces given to the other side, the other side to throw."""
    def with_side_to_throw(self, side: int) -> "Position":
        """The same pieces with side (0 = A, 1 = B) to throw."""
    def with_rules(self, rules: Rules) -> "Position":
        """The same pieces under other rules of the same board."""
    def plays(self, d1: int, d2: int, rules: Optional[Rules] = None) -> list["Play"]:
        """Every distinct legal play of the throw (d1, d2), as plays(pos, d1, d2)."""
    def play_action(
        self, d1: int, d2: int, action: int, rules: Optional[Rules] = None
    ) -> "Position":
        """The position after the play with that action code; InputError if the throw has no such play (a lost throw has only code 0)."""
    def _repr_svg_(self) -> str:
        """The SVG picture of the position, as `dalkon daldos show --format svg` draws it (notebooks show it)."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Play:
    """A legal play and its result; str() is the CLI's notation ("A12-M12 M12-M9", "pass")."""

    @property
    def position(self) -> Position:
        """The position after the play; its side_to_throw throws next (the same side after 1,1)."""
    @property
    def action(self) -> int:
        """The OpenSpiel action code: distinct among one throw's plays, in range(num_actions(rules)); 0 = pass."""
    @property
    def dice(self) -> tuple[int, int]:
        """The throw, as given."""
    @property
    def steps(self) -> list[tuple[str, str, bool]]:
        """The die uses (from, to, capture) with hole names; empty for pass."""
    @property
    def is_pass(self) -> bool:
        """Whether this is the lost throw."""
    @property
    def captures(self) -> int:
        """Enemy pieces captured."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Record:
    """A Daldøs game record (docs/formats.md §5): rules, start, throws with their plays, tags; str() is its text."""

    def __init__(self, start: Position, plays: list[Play] = ...) -> None: ...
    @staticmethod
    def parse(text: str) -> Record:
        """Read a record's text (every throw replayed); InputError names the line and column of a bad play."""
    @staticmethod
    def read(path: _Path) -> Record:
        """Read a record file (at most 4 MiB)."""
    def write(self, path: _Path) -> None:
        """Write the record (atomically)."""
    @property
    def rules(self) -> Rules: ...
    @property
    def start(self) -> Position: ...
    @property
    def plays(self) -> list[Play]:
        """Every throw's play, in order."""
    @property
    def tags(self) -> list[tuple[str, str]]: ...
    @property
    def result(self) -> str:
        """"1-0" (A won), "0-1" (B won) or "*" (not over)."""
    def positions(self) -> list[Position]:
        """The start and the position after each throw."""

def plays(pos: Position, d1: int, d2: int, rules: Optional[Rules] = None) -> list[Play]:
    """Every distinct legal play of (d1, d2) in the order `dalkon daldos moves` prints; [pass] for a lost throw, [] once the game is over."""

def num_actions(rules: Optional[Rules] = None) -> int:
    """The number of action codes of the rules' board: 1 + 4C + 2C**2 with C = 3L + 1."""

DEFAULT_MAX_THROWS: int
"""Throws after which an unfinished game is stopped (5000, the turn cap of match)."""

def max_game_length(max_throws: int = 5000) -> int:
    """OpenSpiel's max_game_length of a game cut off after max_throws throws: 2 * max_throws."""

def throws() -> list[tuple[int, int, int]]:
    """The 10 distinct throws (d1, d2, weight), larger die first, weights out of 16 summing to 16."""

class OddsTarget:
    """One enemy piece and the chance of capturing it this turn (exact Fraction, or a lower bound within bound)."""

    @property
    def hole(self) -> str:
        """The enemy piece's hole."""
    @property
    def probability(self) -> Fraction:
        """The probability: exact when exact, else a lower bound within bound."""
    @property
    def bound(self) -> Fraction:
        """How much the true probability may exceed probability (0 when exact)."""
    @property
    def probability_float(self) -> float:
        """probability as a float."""
    @property
    def exact(self) -> bool:
        """Nothing was cut: probability is exact."""
    @property
    def certified(self) -> bool:
        """Settled by the relaxed-model certificate."""

class Odds:
    """What `dalkon daldos odds` computes for the side to throw."""

    @property
    def side(self) -> int:
        """The capturing side (the side to throw): 0 = A, 1 = B."""
    @property
    def targets(self) -> list[OddsTarget]:
        """Every enemy piece (or the one asked), in hole order."""
    @property
    def any(self) -> Fraction:
        """Chance of capturing at least one piece (a lower bound within any_bound unless exact)."""
    @property
    def any_bound(self) -> Fraction:
        """How much the true any may exceed any."""
    @property
    def any_float(self) -> float:
        """any as a float."""
    @property
    def exact(self) -> bool:
        """Every probability is exact."""
    @property
    def bound(self) -> Fraction:
        """The largest bound of all."""
    @property
    def daldals_max(self) -> int:
        """Dal-dal rethrows the certificates follow."""
    @property
    def daldals(self) -> int:
        """Dal-dal rethrows the full search reached."""
    @property
    def certified(self) -> int:
        """Targets the certificates settled."""
    @property
    def nodes(self) -> int:
        """Positions evaluated."""

def odds(
    pos: Position,
    rules: Optional[Rules] = None,
    target: Optional[str] = None,
    max_nodes: int = 50000,
) -> Odds:
    """Capture odds of the side to throw this turn (dal-dal rethrows included), as `dalkon daldos odds`."""

class PlayValue:
    """A play and its search value (the mover's win probability after it)."""

    @property
    def play(self) -> Play:
        """The play."""
    @property
    def value(self) -> float:
        """The mover's win probability after it (an upper bound if upper_bound)."""
    @property
    def exact(self) -> bool:
        """value is the game's value, not an estimate."""
    @property
    def upper_bound(self) -> bool:
        """value is only an upper bound (fast=True)."""
    @property
    def rollout(self) -> Optional[tuple[int, float, float]]:
        """With best(rollouts=N): (games, mean, stderr) of the play's rollout, as the CLI's rollout; else None."""

class ThrowBest:
    """One throw of best() without dice: its value and plays, best first."""

    @property
    def dice(self) -> tuple[int, int]:
        """The throw, larger die first."""
    @property
    def weight(self) -> int:
        """Its weight out of 16."""
    @property
    def value(self) -> float:
        """The mover's win probability with the best play."""
    @property
    def exact(self) -> bool:
        """value is the game's value."""
    @property
    def best(self) -> Play:
        """The best play."""
    @property
    def plays(self) -> list[PlayValue]:
        """Every play, best first."""

class BestResult:
    """What `dalkon daldos best --format json` answers."""

    @property
    def value(self) -> float:
        """The side to throw's win probability (after the best play, or expected over the throws)."""
    @property
    def exact(self) -> bool:
        """value is the game's value, not an estimate."""
    @property
    def best(self) -> Optional[Play]:
        """The best play of the dice asked (None without dice)."""
    @property
    def plays(self) -> list[PlayValue]:
        """Every play of the dice asked, best first (empty without dice)."""
    @property
    def throws(self) -> Optional[list[ThrowBest]]:
        """Without dice: the 10 distinct throws; else None."""
    @property
    def depth(self) -> int:
        """The depth of the answer."""
    @property
    def depth_asked(self) -> int:
        """The depth asked."""
    @property
    def complete(self) -> bool:
        """depth == depth_asked (the node limit did not cut it short)."""
    @property
    def nodes(self) -> int:
        """Nodes of the search at depth."""
    @property
    def nodes_total(self) -> int:
        """Nodes of every depth searched."""
    @property
    def prune(self) -> bool:
        """Whether pruning was on."""
    @property
    def tables(self) -> int:
        """Layers of solved tables used (0: none)."""
    @property
    def stats(self) -> dict[str, int]:
        """Node counts by kind, as the CLI's stats."""

def best(
    pos: Position,
    dice: Union[tuple[int, int], list[int], str, None] = None,
    depth: int = 3,
    rules: Optional[Rules] = None,
    db_dir: Optional[_Path] = None,
    max_nodes: Optional[int] = 30000000,
    fast: bool = False,
    prune: bool = True,
    rollouts: Optional[int] = None,
    rollout_seed: Optional[int] = None,
    rollout_depth: Optional[int] = None,
) -> BestResult:
    """Expectiminimax to depth throws, as `dalkon daldos best`; releases the GIL, Ctrl-C interrupts it."""

class PlayBounds:
    """A play valued by the solved tables: bounds on the mover's chance to win after it."""

    @property
    def play(self) -> Play:
        """The play."""
    @property
    def value(self) -> float:
        """The midpoint of the bounds."""
    @property
    def lower(self) -> float:
        """Lower bound."""
    @property
    def upper(self) -> float:
        """Upper bound."""
    @property
    def exact(self) -> bool:
        """The bounds are within 1e-12."""

class ThrowValue:
    """One throw of value(): weight, best play and every play ranked."""

    @property
    def dice(self) -> tuple[int, int]:
        """The throw, larger die first."""
    @property
    def weight(self) -> int:
        """Its weight out of 16."""
    @property
    def best(self) -> Play:
        """The best play."""
    @property
    def plays(self) -> list[PlayBounds]:
        """Every play, best first."""

class ValueResult:
    """What `dalkon daldos value --format json` answers: W with its bounds and every play ranked."""

    @property
    def value(self) -> float:
        """W: the side to throw's chance to win under perfect play."""
    @property
    def lower(self) -> float:
        """Lower bound on W."""
    @property
    def upper(self) -> float:
        """Upper bound on W."""
    @property
    def exact(self) -> bool:
        """The bounds are within 1e-12."""
    @property
    def throws(self) -> list[ThrowValue]:
        """The 10 distinct throws (empty for a finished game)."""

def value(
    pos: Position, rules: Optional[Rules] = None, db_dir: Optional[_Path] = None
) -> ValueResult:
    """The exact value from the solved tables, as `dalkon daldos value`; NotCoveredError where they do not cover it."""

class LayerReport:
    """One layer built or loaded by solve_tables()."""

    @property
    def a(self) -> int:
        """Pieces of the side to throw."""
    @property
    def b(self) -> int:
        """Pieces of the other side."""
    @property
    def positions(self) -> int:
        """Positions in the layer."""
    @property
    def gap(self) -> float:
        """The largest gap between the bounds left."""
    @property
    def mean_w(self) -> float:
        """Mean of the values."""
    @property
    def loaded(self) -> bool:
        """Read from its file rather than built."""
    @property
    def seconds(self) -> float:
        """Seconds its pair took."""

def solve_tables(
    rules: Optional[Rules], pieces: tuple[int, int], db_dir: Optional[_Path] = None
) -> list[LayerReport]:
    """Build (or load) the solved tables up to pieces = (a, b), as `dalkon daldos solve --pieces a,b`.

    Releases the GIL; Ctrl-C stops it between components: the layers finished before are kept, and a
    new call resumes from them."""

class MatchResult:
    """What `dalkon daldos match --format json` answers."""

    @property
    def games(self) -> int:
        """Games played."""
    @property
    def a_wins(self) -> int:
        """Games won by a."""
    @property
    def b_wins(self) -> int:
        """Games won by b."""
    @property
    def capped(self) -> int:
        """Games stopped at the turn cap."""
    @property
    def a_win_rate(self) -> float:
        """a_wins / games."""
    @property
    def ci95(self) -> tuple[float, float]:
        """Wilson 95% interval of a's win rate."""
    @property
    def first_player_wins(self) -> int:
        """Games won by the side that started."""
    @property
    def first_player_win_rate(self) -> float:
        """first_player_wins / games."""
    @property
    def mean_turns(self) -> float:
        """Mean throws per game."""
    @property
    def a(self) -> str:
        """Player a."""
    @property
    def b(self) -> str:
        """Player b."""
    @property
    def seed(self) -> int:
        """The seed."""
    @property
    def board(self) -> str:
        """The board's name."""
    @property
    def rules(self) -> str:
        """The rule options, "dal=any capture=final end=last"."""
    @property
    def turn_cap(self) -> int:
        """Throws after which a game is stopped."""
    @property
    def seconds(self) -> float:
        """Wall time."""
    @property
    def records(self) -> list[tuple[Optional[int], bool, int]]:
        """Every game: (winner 0 = a / 1 = b / None if capped, a_first, throws)."""

def match(
    a: str,
    b: str,
    games: int = 1000,
    seed: int = 1,
    rules: Optional[Rules] = None,
    db_dir: Optional[_Path] = None,
    turn_cap: int = 5000,
) -> MatchResult:
    """A seeded, replayable match ("random", "greedy", "engine:N", "hand:N", "perfect"), as `dalkon daldos match`; Ctrl-C stops it."""

DEFAULT_ANALYSE_SECONDS: float
DEFAULT_ANALYSE_MAX_NODES: int

def analyse(
    record: Union[Record, str],
    time: float = DEFAULT_ANALYSE_SECONDS,
    max_nodes: Optional[int] = DEFAULT_ANALYSE_MAX_NODES,
    db_dir: Optional[_Path] = None,
) -> dict:
    """Every throw judged, as ``daldos analyse``, with the tables of ``db_dir``: a dict with the CLI's JSON fields."""
