"""Dakon: rules, exact solver and proofs (wrapping the Rust crates).

- :class:`Rules` and :class:`Position`: the rules of docs/rules.md §2, positions
  in the CLI's notation, moves with the events ``dalkon dakon play`` prints.
- :func:`solve`: the value, best moves and principal variation, as
  ``dalkon dakon best``; exact unless a time or node budget cuts it;
  ``multipv=K`` adds the K best moves with their lines (:class:`Line`).
- :func:`prove` and :func:`verify`: strategy files proving a value, and
  their check with the rules alone, as ``dalkon dakon prove`` / ``verify``.
- :class:`Record`: a game record (``Record.parse(text)``, ``Record.read(path)``,
  ``str(record)``), as ``dakon game --save`` writes it; :func:`analyse`
  judges every decision of one, as ``dalkon dakon analyse`` (a dict with the
  CLI's JSON fields).

Long calls release the GIL and stop on Ctrl-C (``KeyboardInterrupt``).
"""

# The native submodule is an attribute of `_core`, not an importable module
# of its own (PyO3 submodules are not entered in `sys.modules`).
from ._core import dakon as _native

Failure = _native.Failure
Line = _native.Line
Position = _native.Position
Proof = _native.Proof
Record = _native.Record
ProofFile = _native.ProofFile
Result = _native.Result
Rules = _native.Rules
Verdict = _native.Verdict
prove = _native.prove
solve = _native.solve
verify = _native.verify
analyse = _native.analyse
DEFAULT_ANALYSE_SECONDS = _native.DEFAULT_ANALYSE_SECONDS
max_game_length = _native.max_game_length

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


def replay(pos: Position, moves, rules: "Rules | None" = None) -> Position:
    """The position after playing ``moves`` (holes, in order) from ``pos``."""
    for hole in moves:
        pos, _ = pos.play(hole, rules)
    return pos
