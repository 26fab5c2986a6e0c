"""The OpenSpiel games of dalkon.openspiel, and the pure-Python comparison game.

OpenSpiel's own checks (random simulation with serialization, chance
outcomes), its algorithms (alpha-beta against dalkon's exact values and the
published initial_values.csv, expectiminimax, MCTS), and python_dakon
(benchmarks/pure_dakon.py) against dalkon.dakon move by move.
"""

import csv
import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts, minimax  # noqa: E402

from dalkon import dakon, daldos, openspiel  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import pure_dakon  # noqa: E402  (registers python_dakon)

openspiel.register()


def initial_value(holes, seeds, origin="sow", mikul="on", nembak="keep"):
    """The first player's value from data/dakon/initial_values.csv."""
    with open(ROOT / "data" / "dakon" / "initial_values.csv", newline="") as f:
        for row in csv.DictReader(f):
            key = (int(row["holes"]), int(row["seeds"]), row["origin"], row["mikul"], row["nembak"])
            if key == (holes, seeds, origin, mikul, nembak):
                return int(row["value"])
    raise KeyError((holes, seeds, origin, mikul, nembak))


def sample_chance(state, rng):
    outcomes, probs = zip(*state.chance_outcomes())
    return rng.choices(outcomes, probs)[0]


def random_game(state, rng, on_state=None):
    """Plays ``state`` to the end with uniform random moves; returns it."""
    while not state.is_terminal():
        if on_state:
            on_state(state)
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


# --------------------------------------------------------------------------
# Registration and game definitions


def test_register_is_idempotent_and_names_both_games():
    openspiel.register()
    openspiel.register()
    names = pyspiel.registered_names()
    assert "dalkon_dakon" in names and "dalkon_daldos" in names


def test_import_error_names_the_missing_package():
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "try:\n    import dalkon.openspiel\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == (
        "dalkon.openspiel needs OpenSpiel: pip install open_spiel "
        "(or pip install 'dalkon[openspiel]')"
    )


def test_dakon_game_type_and_info():
    game = pyspiel.load_game("dalkon_dakon", {"holes": 4, "seeds": 3})
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_distinct_actions() == 4
    assert (game.min_utility(), game.max_utility()) == (-24.0, 24.0)
    # T + (T + 1) * T * holes with T = 24 seeds.
    assert game.max_game_length() == 24 + 25 * 24 * 4
    assert game.get_parameters() == {
        "holes": 4, "seeds": 3, "origin": "sow", "mikul": "on", "nembak": "keep"}


def test_daldos_game_type_and_info():
    game = pyspiel.load_game("dalkon_daldos", {"board": 4, "max_throws": 100})
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.max_chance_outcomes() == 10
    assert game.max_game_length() == 200
    assert game.num_distinct_actions() == daldos.num_actions(game.rules) == 1 + 4 * 13 + 2 * 13 * 13
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert pyspiel.load_game("dalkon_daldos").get_parameters()["max_throws"] == 5000


# --------------------------------------------------------------------------
# OpenSpiel's consistency checks


@pytest.mark.parametrize(
    "params, sims",
    [
        ({}, 10),
        ({"holes": 3, "seeds": 3, "origin": "skip"}, 30),
        ({"holes": 5, "seeds": 4, "mikul": "off", "nembak": "take"}, 20),
        ({"holes": 9, "seeds": 9}, 3),
    ],
)
def test_dakon_random_sim(params, sims):
    game = pyspiel.load_game("dalkon_dakon", params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "params, sims",
    [
        ({"board": 4}, 30),
        ({"board": 5, "dal": "sternmost", "capture": "path", "end": "one"}, 20),
        ({"board": 12}, 3),
        ({"board": 16, "capture": "path"}, 2),
    ],
)
def test_daldos_random_sim(params, sims):
    game = pyspiel.load_game("dalkon_daldos", params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_daldos_chance_outcomes_are_the_ten_throws_summing_to_one():
    game = pyspiel.load_game("dalkon_daldos", {"board": 12})
    rng = random.Random(7)
    seen = []

    def check(state):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert len(outcomes) == 10
            assert all(p > 0 for _, p in outcomes)
            assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-12)
            seen.append(outcomes)

    for _ in range(5):
        random_game(game.new_initial_state(), rng, check)
    assert len(seen) > 100
    # The weights are exactly k/16: 1 for a double, 2 otherwise.
    state = game.new_initial_state()
    labels = {state.action_to_string(pyspiel.PlayerId.CHANCE, a): p
              for a, p in state.chance_outcomes()}
    expected = {f"throw {d1},{d2}": w / 16 for d1, d2, w in daldos.throws()}
    assert labels == expected
    assert sorted(round(p * 16) for p in labels.values()) == [1] * 4 + [2] * 6


def test_dakon_serialization_round_trip():
    game = pyspiel.load_game("dalkon_dakon", {"holes": 5, "seeds": 5, "nembak": "take"})
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        assert str(state2) == str(state)
        assert state2.history() == state.history()
        assert state2.legal_actions() == state.legal_actions()
        assert state2.current_player() == state.current_player()
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    _, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.is_terminal() and state2.returns() == state.returns()


def test_daldos_serialization_round_trip_at_chance_and_decision_nodes():
    game = pyspiel.load_game("dalkon_daldos", {"board": 5, "end": "one"})
    rng = random.Random(5)
    state = game.new_initial_state()
    kinds = set()
    while not state.is_terminal():
        text = pyspiel.serialize_game_and_state(game, state)
        _, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(state2) == str(state)
        assert state2.history() == state.history()
        assert state2.current_player() == state.current_player()
        if state.is_chance_node():
            kinds.add("chance")
            assert state2.chance_outcomes() == state.chance_outcomes()
            state.apply_action(sample_chance(state, rng))
        else:
            kinds.add("decision")
            assert state2.legal_actions() == state.legal_actions()
            state.apply_action(rng.choice(state.legal_actions()))
    assert kinds == {"chance", "decision"}


def test_state_from_survives_serialization():
    dk = pyspiel.load_game("dalkon_dakon", {"holes": 4, "seeds": 4})
    dd = pyspiel.load_game("dalkon_daldos", {"board": 4})
    for game, text in [(dk, "0,2,1,3/2,0,1,3/10,10 1"), (dd, "...A/..b../.... a")]:
        state = game.state_from(text)
        _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert str(back) == str(state) == text
        assert back.history() == []


# --------------------------------------------------------------------------
# Dakon: states, observations and alpha-beta against dalkon's exact values


def test_dakon_moves_follow_the_library():
    game = pyspiel.load_game("dalkon_dakon")
    state = game.new_initial_state()
    assert str(state) == "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0"
    assert state.legal_actions() == list(range(7))
    assert state.action_to_string(0, 0) == "1"
    # Hole 1 of the standard start: dalkon's own play gives the position.
    expected, _events = dakon.Position.start(7, 7).play(1, dakon.Rules())
    state.apply_action(0)
    assert str(state) == str(expected)
    assert state.current_player() == expected.side_to_move


def test_dakon_bonus_move_keeps_the_player():
    # 1 seed in hole 3 of 3 lands in South's store: a bonus move.
    game = pyspiel.load_game("dalkon_dakon", {"holes": 3, "seeds": 1})
    state = game.new_initial_state()
    state.apply_action(2)
    assert str(state) == "1,1,0/1,1,1/1,0 0"
    assert state.current_player() == 0


def test_dakon_observation_string_and_tensor():
    game = pyspiel.load_game("dalkon_dakon", {"holes": 3, "seeds": 2})
    state = game.new_initial_state()
    state.apply_action(2)  # 2 seeds from hole 3: store, then North's hole 1
    assert state.observation_string(0) == str(state) == str(state.position)
    obs = np.array(state.observation_tensor(0))
    seeds = state.position.seeds
    assert obs.shape == (9,)
    assert list(obs[:6]) == list(seeds.ravel())
    assert list(obs[6:8]) == list(state.position.stores)
    assert obs[8] == state.position.side_to_move


@pytest.mark.parametrize(
    "holes, seeds, rules",
    [
        (3, 3, {}),
        (4, 3, {}),
        (3, 4, {"origin": "skip"}),
        (4, 2, {"mikul": "off"}),
        (3, 3, {"nembak": "take"}),
        (4, 4, {}),
    ],
)
def test_dakon_alpha_beta_equals_dalkon_solve(holes, seeds, rules):
    game = pyspiel.load_game("dalkon_dakon", {"holes": holes, "seeds": seeds, **rules})
    value, action = minimax.alpha_beta_search(game, maximum_depth=game.max_game_length())
    solved = dakon.solve(dakon.Position.start(holes, seeds), dakon.Rules(**rules))
    assert solved.exact
    assert value == solved.value == initial_value(holes, seeds, **rules)
    assert action + 1 in solved.best_moves


# --------------------------------------------------------------------------
# Daldøs: throws, passes, the dal-dal rethrow, truncation, expectiminimax


def _after_throw(game, d1, d2, state=None):
    state = state or game.new_initial_state()
    labels = {state.action_to_string(pyspiel.PlayerId.CHANCE, a): a
              for a, _ in state.chance_outcomes()}
    state.apply_action(labels[f"throw {d1},{d2}"])
    return state


def test_daldos_start_without_a_dal_is_a_lost_throw():
    game = pyspiel.load_game("dalkon_daldos", {"board": 12})
    state = _after_throw(game, 4, 3)
    assert state.current_player() == 0
    assert str(state).endswith(" throw 4,3")
    assert state.legal_actions() == [0]
    assert state.action_to_string(0, 0) == "pass"
    state.apply_action(0)
    assert state.is_chance_node()
    assert state.position.side_to_throw == 1
    assert str(state) == str(daldos.Position.start(game.rules)).replace(" a", " b")


def test_daldos_plays_are_the_library_plays():
    game = pyspiel.load_game("dalkon_daldos", {"board": 12})
    state = _after_throw(game, 2, 1)
    lib = daldos.Position.start(game.rules).plays(2, 1, game.rules)
    assert state.legal_actions() == sorted(p.action for p in lib)
    assert sorted(state.action_to_string(0, a) for a in state.legal_actions()) == sorted(
        str(p) for p in lib)


def test_daldos_daldal_is_the_same_players_turn_after_a_new_chance_node():
    game = pyspiel.load_game("dalkon_daldos", {"board": 12})
    state = _after_throw(game, 1, 1)
    names = {state.action_to_string(0, a): a for a in state.legal_actions()}
    # Only A12 can be dalled first; the second dal dalls A11 or moves on.
    assert sorted(names) == ["A12-M12 A11-A12", "A12-M12 M12-M11"]
    state.apply_action(names["A12-M12 M12-M11"])
    assert state.is_chance_node()
    assert str(state) == "AAAAAAAAAAA./...........a./BBBBBBBBBBBB a"
    state = _after_throw(game, 2, 2, state)
    assert state.current_player() == 0
    # Any other throw passes the turn: 2,1 after the start.
    state = _after_throw(game, 2, 1)
    state.apply_action(state.legal_actions()[0])
    state = _after_throw(game, 2, 2, state)
    assert state.current_player() == 1


def test_daldos_truncation_is_a_labelled_draw():
    game = pyspiel.load_game("dalkon_daldos", {"board": 16, "max_throws": 3})
    state = random_game(game.new_initial_state(), random.Random(1))
    assert state.truncated
    assert state.returns() == [0.0, 0.0]
    assert len(state.history()) == 6 == game.max_game_length()


def test_daldos_games_end_with_a_winner():
    game = pyspiel.load_game("dalkon_daldos", {"board": 4})
    rng = random.Random(11)
    for _ in range(50):
        state = random_game(game.new_initial_state(), rng)
        assert not state.truncated
        winner = state.position.winner(game.rules)
        assert state.returns() == ([1.0, -1.0] if winner == 0 else [-1.0, 1.0])


def test_daldos_expectiminimax_with_the_exact_tables_gives_their_value(tmp_path):
    # One throw of expectiminimax over the solved board-4 1 v 1 tables as leaf
    # values is the Bellman step of docs/rules.md §1.8, so it returns W itself:
    # W = 0.385784037429 (docs/solved.md), i.e. 2W - 1 for player 0.
    game = pyspiel.load_game("dalkon_daldos", {"board": 4})
    daldos.solve_tables(game.rules, (1, 1), tmp_path)

    def leaf(state):
        w = daldos.value(state.position, db_dir=tmp_path).value
        return 2 * w - 1 if state.position.side_to_throw == 0 else 1 - 2 * w

    state = game.state_from("...A/..b../.... a")
    assert state.is_chance_node()
    value, _ = minimax.expectiminimax(state, 1, leaf, 0)
    assert abs(value - (2 * 0.385784037429 - 1)) < 1e-11
    # After the dal-dal, A throws again: the value of A4-M4 M4-M3 is 0.698856616908.
    state = _after_throw(game, 1, 1, state)
    value, action = minimax.expectiminimax(state, 1, leaf, 0)
    assert state.action_to_string(0, action) == "A4-M4 M4-M3"
    assert abs(value - (2 * 0.698856616908 - 1)) < 1e-11


def test_dakon_alpha_beta_from_a_game_position_equals_solve():
    game = pyspiel.load_game("dalkon_dakon", {"holes": 4, "seeds": 4})
    state = game.state_from("0,2,1,3/2,0,1,3/10,10 1")
    value, action = minimax.alpha_beta_search(game, state, maximum_depth=game.max_game_length())
    solved = dakon.solve(state.position)
    assert solved.exact and action + 1 in solved.best_moves
    # alpha_beta maximises for the player to move (North): its margin.
    assert value == solved.value == 2
    with pytest.raises(ValueError):
        game.state_from("1,1/1,1/0,0 0")


def test_daldos_expectiminimax_runs_and_stays_in_range():
    game = pyspiel.load_game("dalkon_daldos", {"board": 4})
    state = _after_throw(game, 2, 1)
    state.apply_action(state.legal_actions()[0])
    value, _ = minimax.expectiminimax(state, 2, lambda s: 0.0, 1)
    assert -1.0 <= value <= 1.0


# --------------------------------------------------------------------------
# MCTS plays whole games


def _mcts_game(game, seed, simulations):
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng) for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(outcomes, p=probs))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def test_mcts_plays_a_dakon_game():
    game = pyspiel.load_game("dalkon_dakon", {"holes": 4, "seeds": 4})
    state = _mcts_game(game, 1, 30)
    south, north = state.position.stores
    assert south + north == 32
    assert state.returns() == [float(south - north), float(north - south)]


def test_mcts_plays_a_daldos_game():
    game = pyspiel.load_game("dalkon_daldos", {"board": 4})
    state = _mcts_game(game, 2, 20)
    assert not state.truncated
    assert sorted(state.returns()) == [-1.0, 1.0]


# --------------------------------------------------------------------------
# The pure-Python comparison game agrees with dalkon


@pytest.mark.parametrize(
    "params",
    [
        {"holes": 7, "seeds": 7},
        {"holes": 4, "seeds": 5},
        {"holes": 5, "seeds": 3, "origin": "skip"},
        {"holes": 6, "seeds": 4, "mikul": "off", "nembak": "take"},
    ],
)
def test_python_dakon_plays_as_dalkon(params):
    pure = pyspiel.load_game("python_dakon", params)
    native = pyspiel.load_game("dalkon_dakon", params)
    rng = random.Random(17)
    for _ in range(100):
        a, b = pure.new_initial_state(), native.new_initial_state()
        while not b.is_terminal():
            assert str(a) == str(b)
            assert a.current_player() == b.current_player()
            moves = b.legal_actions()
            assert a.legal_actions() == moves
            move = rng.choice(moves)
            a.apply_action(move)
            b.apply_action(move)
        assert str(a) == str(b) and a.is_terminal()
        assert a.returns() == b.returns()


@pytest.mark.parametrize("holes, seeds", [(3, 3), (4, 3), (2, 5)])
def test_python_dakon_alpha_beta_agrees(holes, seeds):
    params = {"holes": holes, "seeds": seeds}
    pure = pyspiel.load_game("python_dakon", params)
    native = pyspiel.load_game("dalkon_dakon", params)
    depth = native.max_game_length()
    assert minimax.alpha_beta_search(pure, maximum_depth=depth) == minimax.alpha_beta_search(
        native, maximum_depth=depth)
    assert minimax.alpha_beta_search(pure, maximum_depth=depth)[0] == initial_value(holes, seeds)


def test_python_dakon_passes_random_sim():
    game = pyspiel.load_game("python_dakon", {"holes": 4, "seeds": 4, "origin": "skip"})
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


def test_the_dakon_length_bound_comes_from_the_rules():
    # T = 2 * holes * seeds; T + (T + 1) * T * holes (crates/rules/src/dakon/length.rs).
    assert dakon.max_game_length(7, 7) == 68_012
    assert openspiel.dakon_max_game_length(2, 1) == 44
