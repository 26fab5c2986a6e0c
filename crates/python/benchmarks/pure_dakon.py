"""Dakon written as a plain OpenSpiel Python game (``python_dakon``).

This is the comparison point for ``dalkon_dakon`` (:mod:`dalkon.openspiel`):
the same rules (docs/rules.md §2, all three variants), written the way an
OpenSpiel user would write a Python game, with no dalkon code at all. The
tests check it against :mod:`dalkon.dakon` move by move, so the speed
comparison in ``speed.py`` compares two implementations of one game.

Conventions are those of ``dalkon_dakon``: player 0 is South (moves first),
player 1 North; action ``a`` is hole ``a + 1`` of the mover's row; a bonus
move keeps the same current player; the returns are South's final store
margin (South's store minus North's after the end-of-game sweep) for
player 0 and its negation for player 1.

Importing the module registers the game, so
``pyspiel.load_game("python_dakon", {"holes": 4, "seeds": 4})`` works after
``import pure_dakon``.
"""

import pyspiel

_SHORT_NAME = "python_dakon"
_DEFAULTS = {"holes": 7, "seeds": 7, "origin": "sow", "mikul": "on", "nembak": "keep"}
_CHOICES = {"origin": ("sow", "skip"), "mikul": ("on", "off"), "nembak": ("keep", "take")}

_GAME_TYPE = pyspiel.GameType(
    short_name=_SHORT_NAME,
    long_name="Dakon (pure Python)",
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
    provides_observation_tensor=False,
    parameter_specification=dict(_DEFAULTS),
)


def max_game_length(holes, seeds):
    """An upper bound on the number of moves of a game from the start.

    A move either puts at least one seed into a store (at most ``T`` such
    moves, ``T = 2 * holes * seeds``) or, failing that, only carries seeds
    forward inside the mover's own row (docs/rules.md §2.2), which raises
    ``sum(hole number of each seed)`` (at most ``T * holes``) without
    lowering the other row's sum. So at most ``T * holes`` such moves come
    between two scoring moves, and a game has at most
    ``T + (T + 1) * T * holes`` moves. Loose, but a true bound.
    """
    total = 2 * holes * seeds
    return total + (total + 1) * total * holes


class PureDakonGame(pyspiel.Game):
    """Dakon on ``holes`` holes a side with ``seeds`` seeds per hole."""

    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        holes, seeds = int(params["holes"]), int(params["seeds"])
        if holes < 1 or seeds < 1 or 2 * holes * seeds > 255:
            raise ValueError(f"python_dakon: bad board {holes}x{seeds}")
        for name, choices in _CHOICES.items():
            if params[name] not in choices:
                raise ValueError(f"python_dakon: {name} must be one of {choices}")
        self.holes, self.seeds = holes, seeds
        self.skip_origin = params["origin"] == "skip"
        self.mikul = params["mikul"] == "on"
        self.nembak_take = params["nembak"] == "take"
        total = 2 * holes * seeds
        info = pyspiel.GameInfo(
            num_distinct_actions=holes,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-float(total),
            max_utility=float(total),
            utility_sum=0.0,
            max_game_length=max_game_length(holes, seeds),
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        """The start: ``seeds`` in every hole, empty stores, South to move."""
        return PureDakonState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """An observer giving the position notation (docs/rules.md §2.5)."""
        return _Observer()


class PureDakonState(pyspiel.State):
    """A Dakon position.

    ``board`` follows the sowing cycle: South's holes ``0..n-1``, South's
    store ``n``, North's holes ``n+1..2n``, North's store ``2n+1``.
    """

    def __init__(self, game):
        super().__init__(game)
        n = game.holes
        self.n = n
        self.board = [game.seeds] * n + [0] + [game.seeds] * n + [0]
        self.side = 0
        self.over = False

    def current_player(self):
        """The side to move, or TERMINAL."""
        return pyspiel.PlayerId.TERMINAL if self.over else self.side

    def _legal_actions(self, player):
        """Non-empty holes of the mover's row, as ``hole - 1``."""
        base = 0 if self.side == 0 else self.n + 1
        b = self.board
        return [i for i in range(self.n) if b[base + i]]

    def _apply_action(self, action):
        """Plays hole ``action + 1``: the whole lap chain of docs/rules.md §2.2."""
        g = self.get_game()
        n = self.n
        b = self.board
        me = self.side
        cycle = 2 * n + 2
        my_store = n if me == 0 else 2 * n + 1
        their_store = 2 * n + 1 if me == 0 else n
        mine_lo = 0 if me == 0 else n + 1
        origin = mine_lo + action
        hand = b[origin]
        b[origin] = 0
        cur = origin
        while True:
            while hand:
                cur += 1
                if cur == cycle:
                    cur = 0
                if cur == their_store or (g.skip_origin and cur == origin):
                    continue
                b[cur] += 1
                hand -= 1
            if cur == my_store:
                break  # bonus move: same side again
            if b[cur] > 1:
                hand = b[cur]
                b[cur] = 0
                origin = cur
                continue  # relay
            if mine_lo <= cur < mine_lo + n:
                opposite = 2 * n - cur  # hole i faces hole n + 1 - i
                captured = b[opposite]
                b[opposite] = 0
                if captured and g.nembak_take:
                    b[cur] = 0
                    captured += 1
                b[my_store] += captured
            elif g.mikul:
                i = cur - (n + 1 if me == 0 else 0)
                if 0 < i < n - 1:
                    left, right = b[cur - 1], b[cur + 1]
                    if left == right and left:
                        b[my_store] += 2 * left + 1
                        b[cur - 1] = b[cur] = b[cur + 1] = 0
            me = 1 - me
            break
        self.side = me
        lo = 0 if me == 0 else n + 1
        if not any(b[lo:lo + n]):
            other_lo = n + 1 - lo
            other_store = 2 * n + 1 if me == 0 else n
            b[other_store] += sum(b[other_lo:other_lo + n])
            for i in range(other_lo, other_lo + n):
                b[i] = 0
            self.over = True

    def _action_to_string(self, player, action):
        """The hole number the move is named by (``1..n``)."""
        return str(action + 1)

    def is_terminal(self):
        """Whether the game is over (the sweep already done)."""
        return self.over

    def returns(self):
        """South's final store margin for player 0, its negation for player 1."""
        if not self.over:
            return [0.0, 0.0]
        margin = float(self.board[self.n] - self.board[2 * self.n + 1])
        return [margin, -margin]

    def __str__(self):
        """The position notation of docs/rules.md §2.5."""
        n, b = self.n, self.board
        row0 = ",".join(map(str, b[:n]))
        row1 = ",".join(map(str, b[n + 1:2 * n + 1]))
        return f"{row0}/{row1}/{b[n]},{b[2 * n + 1]} {self.side}"


class _Observer:
    """Observation string = the position notation (perfect information)."""

    def __init__(self):
        self.tensor = None
        self.dict = {}

    def set_from(self, state, player):
        """No tensor: nothing to update."""

    def string_from(self, state, player):
        """The position notation."""
        return str(state)


pyspiel.register_game(_GAME_TYPE, PureDakonGame)
