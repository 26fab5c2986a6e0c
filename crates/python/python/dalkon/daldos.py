"""Daldøs: rules, exact odds, engine and solved values (wrapping the Rust crates).

Everything here is the ``dalkon`` command-line tool's ``daldos`` commands as
Python calls, with the same values and the same one-line error messages:

- :class:`Rules`, :class:`Position` (``Position.start``, ``Position.parse``,
  ``str(pos)``), :func:`plays` / ``pos.plays(d1, d2)`` (``daldos moves``),
  :class:`Play` with its OpenSpiel ``action`` code, :func:`num_actions`,
  ``pos.play_action(d1, d2, action)``, :func:`throws`;
- :func:`odds` (``daldos odds``, exact fractions), :func:`best`
  (``daldos best``), :func:`value` and :func:`solve_tables` (``daldos value``
  and ``daldos solve``), :func:`match` (``daldos match``);
- :class:`Record` (game records) and :func:`analyse` (``daldos analyse``:
  a dict with the CLI's JSON fields, luck included).

Turns: after a play the result's ``side_to_throw`` is the side that throws
next, the same side after a dal-dal (1,1), else the opponent. A throw no
piece can use is lost: :func:`plays` then returns the one play ``pass``
(action 0). A finished game has no plays.
"""

from ._core import daldos as _native

Rules = _native.Rules
Position = _native.Position
Play = _native.Play
Record = _native.Record
plays = _native.plays
num_actions = _native.num_actions
throws = _native.throws
max_game_length = _native.max_game_length
DEFAULT_MAX_THROWS = _native.DEFAULT_MAX_THROWS
odds = _native.odds
best = _native.best
value = _native.value
solve_tables = _native.solve_tables
match = _native.match
analyse = _native.analyse
DEFAULT_ANALYSE_SECONDS = _native.DEFAULT_ANALYSE_SECONDS
DEFAULT_ANALYSE_MAX_NODES = _native.DEFAULT_ANALYSE_MAX_NODES
Odds = _native.Odds
OddsTarget = _native.OddsTarget
BestResult = _native.BestResult
PlayValue = _native.PlayValue
ThrowBest = _native.ThrowBest
ValueResult = _native.ValueResult
ThrowValue = _native.ThrowValue
PlayBounds = _native.PlayBounds
LayerReport = _native.LayerReport
MatchResult = _native.MatchResult
NotCoveredError = _native.NotCoveredError

__all__ = [
    "Rules",
    "Position",
    "Play",
    "Record",
    "plays",
    "num_actions",
    "throws",
    "max_game_length",
    "odds",
    "best",
    "value",
    "solve_tables",
    "match",
    "analyse",
    "Odds",
    "OddsTarget",
    "BestResult",
    "PlayValue",
    "ThrowBest",
    "ValueResult",
    "ThrowValue",
    "PlayBounds",
    "LayerReport",
    "MatchResult",
    "NotCoveredError",
]
