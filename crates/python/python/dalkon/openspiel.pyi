"""Daldøs and Dakon as OpenSpiel games (needs the ``open_spiel`` package)."""

from typing import Dict, List, Optional, Tuple, Union

import pyspiel

from . import dakon, daldos

DAKON: str
"""The OpenSpiel short name of Dakon: ``"dalkon_dakon"``."""
DALDOS: str
"""The OpenSpiel short name of Daldøs: ``"dalkon_daldos"``."""

def register() -> None:
    """Registers ``dalkon_dakon`` and ``dalkon_daldos`` with OpenSpiel (idempotent)."""

def dakon_max_game_length(holes: int, seeds: int) -> int:
    """A true upper bound on the moves of a Dakon game from the start."""

class DakonGame(pyspiel.Game):
    """``dalkon_dakon``: Dakon on ``holes`` × ``seeds`` under the given rules."""

    rules: dakon.Rules
    """The rules given by the game parameters."""
    rules_keywords: Tuple[str, str, str]
    """``(origin, mikul, nembak)`` as keywords."""
    holes: int
    """Holes a side."""
    seeds: int
    """Seeds per hole at the start."""
    start: dakon.Position
    """The start position."""
    def __init__(self, params: Optional[Dict[str, Union[int, str]]] = ...) -> None: ...
    def new_initial_state(self) -> "DakonState":
        """The start position, South to move."""
    def state_from(self, position: Union[dakon.Position, str]) -> "DakonState":
        """A state at ``position`` instead of the start (empty history)."""

class DakonState(pyspiel.State):
    """A ``dalkon_dakon`` state: one :class:`dalkon.dakon.Position`."""

    @property
    def position(self) -> dakon.Position:
        """The current position."""

class DaldosGame(pyspiel.Game):
    """``dalkon_daldos``: Daldøs under the given rules, cut off after ``max_throws``."""

    rules: daldos.Rules
    """The rules given by the game parameters."""
    rules_keywords: Tuple[int, str, str, str]
    """``(board, dal, capture, end)`` as keywords."""
    max_throws: int
    """Throws after which an unfinished game is stopped as a draw (returns 0)."""
    throws: List[Tuple[int, int, float]]
    """The chance outcomes: ``(d1, d2, probability)``, outcome ``i`` the ``i``-th."""
    start: daldos.Position
    """The start position."""
    def __init__(self, params: Optional[Dict[str, Union[int, str]]] = ...) -> None: ...
    def new_initial_state(self) -> "DaldosState":
        """The start position, A to throw (a chance node)."""
    def state_from(self, position: Union[daldos.Position, str]) -> "DaldosState":
        """A state at ``position`` before its side throws (empty history)."""

class DaldosState(pyspiel.State):
    """A ``dalkon_daldos`` state: a position and, at a decision node, the throw."""

    @property
    def throws_made(self) -> int:
        """Throws played so far (dal-dal rethrows included)."""
    @property
    def dice(self) -> Optional[Tuple[int, int]]:
        """The throw to be played at a decision node, else None."""
    @property
    def truncated(self) -> bool:
        """Whether the game was stopped unfinished after ``max_throws`` throws."""
    @property
    def position(self) -> daldos.Position:
        """The current position (with the side that throws next)."""
