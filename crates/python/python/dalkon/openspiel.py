"""Daldøs and Dakon as OpenSpiel games (needs the ``open_spiel`` package).

Call :func:`register` once, then load the games by name::

    import pyspiel
    from dalkon import openspiel
    openspiel.register()
    dakon = pyspiel.load_game("dalkon_dakon", {"holes": 4, "seeds": 4})
    daldos = pyspiel.load_game("dalkon_daldos", {"board": 12})  # Norwegian

Every rule, move and outcome comes from :mod:`dalkon.dakon` and
:mod:`dalkon.daldos` (the Rust rules); this module only maps them onto
OpenSpiel's state machine.

``dalkon_dakon`` (perfect information, deterministic, zero-sum)
    Parameters ``holes`` (7), ``seeds`` (7), ``origin`` ("sow"), ``mikul``
    ("on"), ``nembak`` ("keep"): the rule keywords of RULES.md §2.4. Player 0
    is South, who moves first. Action ``a`` plays hole ``a + 1`` of the
    mover's row (``num_distinct_actions() == holes``). A bonus move keeps the
    same current player. The returns are South's final store margin (South's
    store minus North's, the end-of-game sweep done) for player 0 and its
    negation for player 1, so ``alpha_beta_search`` on a start gives dalkon's
    exact value for the first player. Observation string: the position
    notation (RULES.md §2.5); observation tensor (``2 * holes + 3`` floats):
    South's holes 1..n, North's holes 1..n, South's store, North's store, the
    side to move. ``max_game_length()`` is a true (loose) bound, see
    :func:`dakon_max_game_length`.

``dalkon_daldos`` (perfect information, explicit chance, zero-sum)
    Parameters ``board`` (the board length ``L``, an int: 16 is the Danish
    board, the default, 12 the Norwegian, 4 and up the small boards; an int
    because OpenSpiel parameters have one type and game strings such as
    ``dalkon_daldos(board=4)`` read digits as ints), ``dal`` ("any"),
    ``capture`` ("final"), ``end`` ("last"): the rule keywords of RULES.md
    §1.5; and ``max_throws`` (see below). Player 0 is A, who throws first.
    Every turn starts with a chance node whose outcomes are the 10 distinct
    throws of :func:`dalkon.daldos.throws`, outcome ``i`` the ``i``-th throw,
    with probability ``weight / 16``. The thrower then picks a play: the
    actions are the :attr:`dalkon.daldos.Play.action` codes of the plays of
    that throw (``num_distinct_actions() == daldos.num_actions(rules)``); a
    lost throw is the one play ``pass``, action 0. After a dal-dal
    the same player is current again, after a new chance node. The returns
    are +1 for the winner and −1 for the loser.

    Daldøs can cycle (pieces go round the loop for ever), so a game is cut
    off after ``max_throws`` throws (default 5000, the turn cap of
    ``dalkon daldos match``; dal-dal rethrows count):
    such a game is terminal with returns 0 for both — a draw by truncation,
    not a rules outcome. ``max_game_length() == 2 * max_throws`` (a chance
    node and a decision per throw). Set it high enough that truncation is
    rare for the board in use; :attr:`DaldosState.truncated` says whether a
    game ended that way.

Serialization (``pyspiel.serialize_game_and_state``): OpenSpiel writes the
action history and the state's attributes; the native positions held by a
state are written as their notation, so a round trip gives an equal state.
"""

from __future__ import annotations

try:
    import pyspiel
except ImportError as error:  # pragma: no cover - exercised without open_spiel
    raise ImportError(
        "dalkon.openspiel needs OpenSpiel: pip install open_spiel "
        "(or pip install 'dalkon[openspiel]')"
    ) from error

import numpy as np

from . import dakon, daldos

__all__ = [
    "register",
    "DAKON",
    "DALDOS",
    "dakon_max_game_length",
    "DakonGame",
    "DakonState",
    "DaldosGame",
    "DaldosState",
]

DAKON = "dalkon_dakon"
"""The OpenSpiel short name of Dakon."""

DALDOS = "dalkon_daldos"
"""The OpenSpiel short name of Daldøs."""

_DAKON_DEFAULTS = {"holes": 7, "seeds": 7, "origin": "sow", "mikul": "on", "nembak": "keep"}
_DALDOS_DEFAULTS = {
    "board": 16,
    "dal": "any",
    "capture": "final",
    "end": "last",
    "max_throws": 5000,
}


class _Shared:
    """A native (immutable) value held by a state.

    Clones share it (``deepcopy`` returns it unchanged: the value never
    changes, a move makes a new one), and pickling writes its notation
    (``str``) with ``load(text, *extra)`` to read it back, so OpenSpiel's
    serialization works although the native classes do not pickle.
    """

    __slots__ = ("value", "load", "extra")

    def __init__(self, value, load, extra=()):
        self.value = value
        self.load = load
        self.extra = extra

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_Shared._rebuild, (self.load, str(self.value), self.extra))

    @staticmethod
    def _rebuild(load, text, extra):
        return _Shared(load(text, *extra), load, extra)


class _Cache:
    """A per-state memo shared by clones and never pickled (rebuilt lazily)."""

    __slots__ = ("value",)

    def __init__(self, value=None):
        self.value = value

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_Cache, ())


# --------------------------------------------------------------------------
# Dakon


def dakon_max_game_length(holes: int, seeds: int) -> int:
    """A true upper bound on the moves of a Dakon game from the start.

    A move either puts at least one seed into a store (at most ``T`` such
    moves, ``T = 2 * holes * seeds``) or only carries seeds forward inside
    the mover's own row (RULES.md §2.2), raising the sum of the seeds' hole
    numbers (at most ``T * holes``) without lowering the other row's. So at
    most ``T * holes`` such moves come between two scoring moves: a game has
    at most ``T + (T + 1) * T * holes`` moves.
    """
    total = 2 * holes * seeds
    return total + (total + 1) * total * holes


_DAKON_TYPE = pyspiel.GameType(
    short_name=DAKON,
    long_name="Dakon (dalkon)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DAKON_DEFAULTS),
)


def _dakon_position(text: str):
    return dakon.Position.parse(text)


def _dakon_rules(_text: str, origin: str, mikul: str, nembak: str):
    return dakon.Rules(origin=origin, mikul=mikul, nembak=nembak)


class DakonGame(pyspiel.Game):
    """``dalkon_dakon``: Dakon on ``holes`` × ``seeds`` under the given rules."""

    def __init__(self, params=None):
        params = {**_DAKON_DEFAULTS, **(params or {})}
        self.rules_keywords = (params["origin"], params["mikul"], params["nembak"])
        self.rules = _dakon_rules("", *self.rules_keywords)
        self.holes, self.seeds = int(params["holes"]), int(params["seeds"])
        self.start = dakon.Position.start(self.holes, self.seeds)
        total = int(self.start.seeds_on_board())
        info = pyspiel.GameInfo(
            num_distinct_actions=self.holes,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-float(total),
            max_utility=float(total),
            utility_sum=0.0,
            max_game_length=dakon_max_game_length(self.holes, self.seeds),
        )
        super().__init__(_DAKON_TYPE, info, params)

    def new_initial_state(self):
        """The start position, South to move."""
        return DakonState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer: notation string and the seed-count tensor."""
        return _DakonObserver(self.holes, params)


class DakonState(pyspiel.State):
    """A ``dalkon_dakon`` state: one :class:`dalkon.dakon.Position`."""

    def __init__(self, game):
        super().__init__(game)
        # Attributes must survive deepcopy (clone) and pickle (serialize).
        self._rules = _Shared(game.rules, _dakon_rules, game.rules_keywords)
        self._set(game.start)

    def _set(self, pos):
        self._pos = _Shared(pos, _dakon_position)
        self._margin = pos.terminal_margin(self._rules.value)
        self._player = (
            pyspiel.PlayerId.TERMINAL if self._margin is not None else pos.side_to_move
        )

    @property
    def position(self):
        """The current :class:`dalkon.dakon.Position`."""
        return self._pos.value

    def current_player(self):
        """0 (South) or 1 (North) to move, or TERMINAL."""
        return self._player

    def _legal_actions(self, player):
        """The mover's non-empty holes, as ``hole - 1``, ascending."""
        return [h - 1 for h in self._pos.value.legal_moves(self._rules.value)]

    def _apply_action(self, action):
        """Plays hole ``action + 1`` with the library's rules."""
        nxt, _events = self._pos.value.play(action + 1, self._rules.value)
        self._set(nxt)

    def _action_to_string(self, player, action):
        """The hole number, as the notation and the CLI name moves."""
        return str(action + 1)

    def is_terminal(self):
        """Whether the game is over."""
        return self._margin is not None

    def returns(self):
        """South's final store margin for player 0, its negation for player 1."""
        if self._margin is None:
            return [0.0, 0.0]
        return [float(self._margin), -float(self._margin)]

    def __str__(self):
        """The position notation."""
        return str(self._pos.value)


class _DakonObserver:
    """Observation: notation string; tensor of seeds, stores and side."""

    def __init__(self, holes, params):
        if params:
            raise ValueError(f"dalkon_dakon observer takes no parameters; got {params}")
        self.holes = holes
        self.tensor = np.zeros(2 * holes + 3, np.float32)
        self.dict = {
            "seeds": self.tensor[: 2 * holes].reshape(2, holes),
            "stores": self.tensor[2 * holes : 2 * holes + 2],
            "side": self.tensor[2 * holes + 2 :],
        }

    def set_from(self, state, player):
        pos = state.position
        self.dict["seeds"][:] = pos.seeds
        self.dict["stores"][:] = pos.stores
        self.dict["side"][0] = pos.side_to_move

    def string_from(self, state, player):
        return str(state.position)


# --------------------------------------------------------------------------
# Daldøs


_DALDOS_TYPE = pyspiel.GameType(
    short_name=DALDOS,
    long_name="Daldøs (dalkon)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=dict(_DALDOS_DEFAULTS),
)


def _daldos_rules(_text: str, board: int, dal: str, capture: str, end: str):
    return daldos.Rules(board=board, dal=dal, capture=capture, end=end)


def _daldos_position(text: str, board: int, dal: str, capture: str, end: str):
    return daldos.Position.parse(text, _daldos_rules("", board, dal, capture, end))


class DaldosGame(pyspiel.Game):
    """``dalkon_daldos``: Daldøs under the given rules, cut off after ``max_throws``."""

    def __init__(self, params=None):
        params = {**_DALDOS_DEFAULTS, **(params or {})}
        self.rules_keywords = (
            int(params["board"]),
            params["dal"],
            params["capture"],
            params["end"],
        )
        self.rules = _daldos_rules("", *self.rules_keywords)
        self.max_throws = int(params["max_throws"])
        if self.max_throws < 1:
            raise ValueError(f"dalkon_daldos: max_throws must be at least 1, not {self.max_throws}")
        self.throws = [(d1, d2, w / 16.0) for d1, d2, w in daldos.throws()]
        self.start = daldos.Position.start(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=daldos.num_actions(self.rules),
            max_chance_outcomes=len(self.throws),
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=2 * self.max_throws,
        )
        super().__init__(_DALDOS_TYPE, info, params)

    def new_initial_state(self):
        """The start position, A to throw (a chance node)."""
        return DaldosState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer: position notation, plus the throw at a decision node."""
        return _DaldosObserver(params)


class DaldosState(pyspiel.State):
    """A ``dalkon_daldos`` state: a :class:`dalkon.daldos.Position`, and at a
    decision node the throw to be played (:attr:`dice`)."""

    def __init__(self, game):
        super().__init__(game)
        # Attributes must survive deepcopy (clone) and pickle (serialize).
        self._keys = game.rules_keywords
        self._rules = _Shared(game.rules, _daldos_rules, game.rules_keywords)
        self._max_throws = game.max_throws
        self.throws_made = 0
        self.dice = None
        self.truncated = False
        self._plays = _Cache()
        self._set(game.start)

    def _set(self, pos):
        self._pos = _Shared(pos, _daldos_position, self._keys)
        self._winner = pos.winner(self._rules.value)
        self.truncated = self._winner is None and self.throws_made >= self._max_throws

    @property
    def position(self):
        """The current :class:`dalkon.daldos.Position` (its side to throw next)."""
        return self._pos.value

    def current_player(self):
        """CHANCE before a throw, the thrower (0 = A, 1 = B) after it, or TERMINAL."""
        if self._winner is not None or self.truncated:
            return pyspiel.PlayerId.TERMINAL
        if self.dice is None:
            return pyspiel.PlayerId.CHANCE
        return self._pos.value.side_to_throw

    def chance_outcomes(self):
        """The 10 distinct throws: ``(i, weight / 16)``."""
        return [(i, p) for i, (_d1, _d2, p) in enumerate(self.get_game().throws)]

    def _plays_by_action(self):
        cached = self._plays.value
        if cached is None:
            d1, d2 = self.dice
            plays = self._pos.value.plays(d1, d2, self._rules.value)
            cached = {p.action: p for p in plays}
            self._plays.value = cached
        return cached

    def _legal_actions(self, player):
        """The play codes of the throw, ascending (``[0]``, ``pass``, for a
        lost throw)."""
        return sorted(self._plays_by_action())

    def _apply_action(self, action):
        """A chance outcome sets the throw; a play code plays it."""
        if self.dice is None:
            d1, d2, _p = self.get_game().throws[action]
            self.dice = (d1, d2)
            self._plays = _Cache()
            return
        nxt = self._plays_by_action()[action].position
        self.throws_made += 1
        self.dice = None
        self._plays = _Cache()
        self._set(nxt)

    def _action_to_string(self, player, action):
        """A throw as ``throw 3,1``; a play in the CLI's play notation."""
        if player == pyspiel.PlayerId.CHANCE:
            d1, d2, _p = self.get_game().throws[action]
            return f"throw {d1},{d2}"
        return str(self._plays_by_action()[action])

    def is_terminal(self):
        """Whether the game is won, or cut off after ``max_throws`` throws."""
        return self._winner is not None or self.truncated

    def returns(self):
        """+1 to the winner, −1 to the loser; 0 to both while unfinished or
        when cut off (``truncated``)."""
        if self._winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self._winner == 0 else [-1.0, 1.0]

    def __str__(self):
        """The position notation, then ``throw d1,d2`` at a decision node."""
        text = str(self._pos.value)
        if self.dice is not None:
            text += f" throw {self.dice[0]},{self.dice[1]}"
        return text


class _DaldosObserver:
    """Observation string: as ``str(state)`` (perfect information); no tensor."""

    def __init__(self, params):
        if params:
            raise ValueError(f"dalkon_daldos observer takes no parameters; got {params}")
        self.tensor = None
        self.dict = {}

    def set_from(self, state, player):
        """No tensor: nothing to update."""

    def string_from(self, state, player):
        return str(state)


# --------------------------------------------------------------------------


def register() -> None:
    """Registers ``dalkon_dakon`` and ``dalkon_daldos`` with OpenSpiel.

    Idempotent: a second call does nothing. Afterwards
    ``pyspiel.load_game("dalkon_dakon", {...})`` works, and so do OpenSpiel's
    C++ tools that load games by name in this process.
    """
    names = set(pyspiel.registered_names())
    if DAKON not in names:
        pyspiel.register_game(_DAKON_TYPE, DakonGame)
    if DALDOS not in names:
        pyspiel.register_game(_DALDOS_TYPE, DaldosGame)
