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
    ("on"), ``nembak`` ("keep"): the rule keywords of docs/rules.md §2.4. Player 0
    is South, who moves first. Action ``a`` plays hole ``a + 1`` of the
    mover's row (``num_distinct_actions() == holes``). A bonus move keeps the
    same current player. The returns are South's final store margin (South's
    store minus North's, the end-of-game sweep done) for player 0 and its
    negation for player 1, so ``alpha_beta_search`` on a start gives dalkon's
    exact value for the first player. Observation string: the position
    notation (docs/rules.md §2.5); observation tensor (``2 * holes + 3`` floats):
    South's holes 1..n, North's holes 1..n, South's store, North's store, the
    side to move. ``max_game_length()`` is a true (loose) bound, see
    :func:`dakon_max_game_length`.

``dalkon_daldos`` (perfect information, explicit chance, zero-sum)
    Parameters ``board`` (the board length ``L``, an int: 16 is the Danish
    board, the default, 12 the Norwegian, 4 and up the small boards; an int
    because OpenSpiel parameters have one type and game strings such as
    ``dalkon_daldos(board=4)`` read digits as ints), ``dal`` ("any"),
    ``capture`` ("final"), ``end`` ("last"): the rule keywords of docs/rules.md
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

Both games' ``state_from(position)`` gives a state at a given position
(notation or native position) instead of the start, for searching game
positions; its history is empty. Each state's ``position`` property is the
native position.

Serialization (``pyspiel.serialize_game_and_state``): OpenSpiel writes the
action history and pickles the state's attributes (it does not replay the
history); a state's one attribute is an immutable node, pickled as the
position notation plus plain values, so a round trip gives an equal state,
also for a state made by ``state_from``.
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
    "max_throws": daldos.DEFAULT_MAX_THROWS,
}


class _Node:
    """Everything a state holds, in one immutable object.

    A state's only attribute is its node (OpenSpiel clones a Python state by
    ``deepcopy`` of its attributes and serializes it by pickling them): a
    move makes a new node, so clones share nodes (``deepcopy`` returns the
    node itself, one call per clone), and a node pickles as its position's
    notation plus plain values (the rules as keywords), so a serialized
    state is plain text whatever the native classes do.
    """

    __slots__ = ()

    def __deepcopy__(self, memo):
        return self


# --------------------------------------------------------------------------
# Dakon


def dakon_max_game_length(holes: int, seeds: int) -> int:
    """A true upper bound on the moves of a Dakon game from the start.

    A move either puts at least one seed into a store (at most ``T`` such
    moves, ``T = 2 * holes * seeds``) or only carries seeds forward inside
    the mover's own row (docs/rules.md §2.2), raising the sum of the seeds' hole
    numbers (at most ``T * holes``) without lowering the other row's. So at
    most ``T * holes`` such moves come between two scoring moves: a game has
    at most ``T + (T + 1) * T * holes`` moves.
    """
    return dakon.max_game_length(holes, seeds)


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


def _dakon_rules(origin: str, mikul: str, nembak: str):
    return dakon.Rules(origin=origin, mikul=mikul, nembak=nembak)


class _DakonNode(_Node):
    """A Dakon position with its rules, its mover (or TERMINAL) and margin."""

    __slots__ = ("pos", "rules", "keys", "margin", "player")

    def __init__(self, pos, rules, keys):
        self.pos = pos
        self.rules = rules
        self.keys = keys
        self.margin = pos.terminal_margin(rules)
        self.player = pyspiel.PlayerId.TERMINAL if self.margin is not None else pos.side_to_move

    def __reduce__(self):
        return (_dakon_node, (str(self.pos), self.keys))


def _dakon_node(text, keys):
    return _DakonNode(dakon.Position.parse(text), _dakon_rules(*keys), keys)


class DakonGame(pyspiel.Game):
    """``dalkon_dakon``: Dakon on ``holes`` × ``seeds`` under the given rules."""

    def __init__(self, params=None):
        params = {**_DAKON_DEFAULTS, **(params or {})}
        self.rules_keywords = (params["origin"], params["mikul"], params["nembak"])
        self.rules = _dakon_rules(*self.rules_keywords)
        self.holes, self.seeds = int(params["holes"]), int(params["seeds"])
        self.start = dakon.Position.start(self.holes, self.seeds)
        self._start = _DakonNode(self.start, self.rules, self.rules_keywords)
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

    def state_from(self, position):
        """A state at ``position`` (a :class:`dalkon.dakon.Position` or its
        notation) instead of the start, e.g. to search a game position.

        Its history is empty: OpenSpiel's serialization keeps the position
        (it pickles the state's attributes), but anything that rebuilds a
        state by replaying its history from ``new_initial_state`` gets the
        start. The position must have this game's holes and no more seeds
        on the board than the start (so ``max_game_length`` still holds).
        """
        if isinstance(position, str):
            position = dakon.Position.parse(position)
        if position.holes != self.holes or position.seeds_on_board() > self.start.seeds_on_board():
            raise ValueError(
                f"dalkon_dakon: {position} does not fit a {self.holes}x{self.seeds} game"
            )
        state = DakonState(self)
        state._node = _DakonNode(position, self.rules, self.rules_keywords)
        return state

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer: notation string and the seed-count tensor."""
        return _DakonObserver(self.holes, params)


class DakonState(pyspiel.State):
    """A ``dalkon_dakon`` state: one :class:`dalkon.dakon.Position`."""

    def __init__(self, game):
        super().__init__(game)
        self._node = game._start

    @property
    def position(self):
        """The current :class:`dalkon.dakon.Position`."""
        return self._node.pos

    def current_player(self):
        """0 (South) or 1 (North) to move, or TERMINAL."""
        return self._node.player

    def _legal_actions(self, player):
        """The mover's non-empty holes, as ``hole - 1``, ascending."""
        node = self._node
        return [h - 1 for h in node.pos.legal_moves(node.rules)]

    def _apply_action(self, action):
        """Plays hole ``action + 1`` with the library's rules."""
        node = self._node
        nxt, _events = node.pos.play(action + 1, node.rules)
        self._node = _DakonNode(nxt, node.rules, node.keys)

    def _action_to_string(self, player, action):
        """The hole number, as the notation and the CLI name moves."""
        return str(action + 1)

    def is_terminal(self):
        """Whether the game is over."""
        return self._node.margin is not None

    def returns(self):
        """South's final store margin for player 0, its negation for player 1."""
        margin = self._node.margin
        if margin is None:
            return [0.0, 0.0]
        return [float(margin), -float(margin)]

    def __str__(self):
        """The position notation."""
        return str(self._node.pos)


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


def _daldos_rules(board: int, dal: str, capture: str, end: str):
    return daldos.Rules(board=board, dal=dal, capture=capture, end=end)


class _DaldosNode(_Node):
    """A Daldøs position, the throw to play (None before the throw), the
    throws made, and the plays of the throw (computed once, on demand)."""

    __slots__ = ("pos", "game", "dice", "throws_made", "winner", "truncated", "plays")

    def __init__(self, pos, game, dice, throws_made):
        self.pos = pos
        self.game = game
        self.dice = dice
        self.throws_made = throws_made
        self.winner = pos.winner(game.rules)
        self.truncated = self.winner is None and throws_made >= game.max_throws
        self.plays = None

    def by_action(self):
        """``{action code: Play}`` of the throw ``dice``."""
        if self.plays is None:
            d1, d2 = self.dice
            self.plays = {p.action: p for p in self.pos.plays(d1, d2, self.game.rules)}
        return self.plays

    def __reduce__(self):
        g = self.game
        return (
            _daldos_node,
            (str(self.pos), g.rules_keywords, g.max_throws, self.dice, self.throws_made),
        )


class _GameConstants:
    """What a Daldøs node needs of its game (the game object itself is not
    picklable, and a node may outlive a deserialization)."""

    __slots__ = ("rules", "rules_keywords", "max_throws", "throws")

    def __init__(self, rules_keywords, max_throws):
        self.rules_keywords = rules_keywords
        self.rules = _daldos_rules(*rules_keywords)
        self.max_throws = max_throws
        self.throws = [(d1, d2, w / 16.0) for d1, d2, w in daldos.throws()]


def _daldos_node(text, keys, max_throws, dice, throws_made):
    g = _GameConstants(keys, max_throws)
    return _DaldosNode(daldos.Position.parse(text, g.rules), g, dice, throws_made)


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
        self.max_throws = int(params["max_throws"])
        if self.max_throws < 1:
            raise ValueError(f"dalkon_daldos: max_throws must be at least 1, not {self.max_throws}")
        self._constants = _GameConstants(self.rules_keywords, self.max_throws)
        self.rules = self._constants.rules
        self.throws = self._constants.throws
        self.start = daldos.Position.start(self.rules)
        self._start = _DaldosNode(self.start, self._constants, None, 0)
        info = pyspiel.GameInfo(
            num_distinct_actions=daldos.num_actions(self.rules),
            max_chance_outcomes=len(self.throws),
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=daldos.max_game_length(self.max_throws),
        )
        super().__init__(_DALDOS_TYPE, info, params)

    def new_initial_state(self):
        """The start position, A to throw (a chance node)."""
        return DaldosState(self)

    def state_from(self, position):
        """A state at ``position`` (a :class:`dalkon.daldos.Position` or its
        notation, read with this game's rules) before its side throws: a
        chance node, no throws made.

        Its history is empty: OpenSpiel's serialization keeps the position
        (it pickles the state's attributes), but anything that rebuilds a
        state by replaying its history from ``new_initial_state`` gets the
        start.
        """
        if isinstance(position, str):
            position = daldos.Position.parse(position, self.rules)
        position = position.with_rules(self.rules)
        state = DaldosState(self)
        state._node = _DaldosNode(position, self._constants, None, 0)
        return state

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer: position notation, plus the throw at a decision node."""
        return _DaldosObserver(params)


class DaldosState(pyspiel.State):
    """A ``dalkon_daldos`` state: a :class:`dalkon.daldos.Position`, and at a
    decision node the throw to be played (:attr:`dice`)."""

    def __init__(self, game):
        super().__init__(game)
        self._node = game._start

    @property
    def position(self):
        """The current :class:`dalkon.daldos.Position` (its side to throw next)."""
        return self._node.pos

    @property
    def dice(self):
        """The throw ``(d1, d2)`` to be played at a decision node, else None."""
        return self._node.dice

    @property
    def throws_made(self):
        """Throws played so far (dal-dal rethrows included)."""
        return self._node.throws_made

    @property
    def truncated(self):
        """Whether the game was stopped unfinished after ``max_throws`` throws."""
        return self._node.truncated

    def current_player(self):
        """CHANCE before a throw, the thrower (0 = A, 1 = B) after it, or TERMINAL."""
        node = self._node
        if node.winner is not None or node.truncated:
            return pyspiel.PlayerId.TERMINAL
        if node.dice is None:
            return pyspiel.PlayerId.CHANCE
        return node.pos.side_to_throw

    def chance_outcomes(self):
        """The 10 distinct throws: ``(i, weight / 16)``."""
        return [(i, p) for i, (_d1, _d2, p) in enumerate(self._node.game.throws)]

    def _legal_actions(self, player):
        """The play codes of the throw, ascending (``[0]``, ``pass``, for a
        lost throw)."""
        return sorted(self._node.by_action())

    def _apply_action(self, action):
        """A chance outcome sets the throw; a play code plays it."""
        node = self._node
        if node.dice is None:
            d1, d2, _p = node.game.throws[action]
            self._node = _DaldosNode(node.pos, node.game, (d1, d2), node.throws_made)
        else:
            nxt = node.by_action()[action].position
            self._node = _DaldosNode(nxt, node.game, None, node.throws_made + 1)

    def _action_to_string(self, player, action):
        """A throw as ``throw 3,1``; a play in the CLI's play notation."""
        node = self._node
        if player == pyspiel.PlayerId.CHANCE:
            d1, d2, _p = node.game.throws[action]
            return f"throw {d1},{d2}"
        return str(node.by_action()[action])

    def is_terminal(self):
        """Whether the game is won, or cut off after ``max_throws`` throws."""
        return self._node.winner is not None or self._node.truncated

    def returns(self):
        """+1 to the winner, −1 to the loser; 0 to both while unfinished or
        when cut off (``truncated``)."""
        winner = self._node.winner
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def __str__(self):
        """The position notation, then ``throw d1,d2`` at a decision node."""
        node = self._node
        text = str(node.pos)
        if node.dice is not None:
            text += f" throw {node.dice[0]},{node.dice[1]}"
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
