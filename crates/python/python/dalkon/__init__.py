"""dalkon: exact analysis of two traditional board games, Daldøs and Dakon.

- :mod:`dalkon.dakon`: Dakon's rules, exact solver (value, best moves,
  principal variation) and checkable proofs.
- :mod:`dalkon.daldos`: Daldøs's rules, exact dice odds, the
  expectiminimax engine and the exact solved values (where built).
- :mod:`dalkon.openspiel`: both games as OpenSpiel games
  (``dalkon.openspiel.register()``; needs the ``open_spiel`` package).

Errors are :class:`DalkonError` (bad input: :class:`InputError`; an
unusable file: :class:`DataError`) with the same one-line messages as the
``dalkon`` command-line tool.
"""

from ._core import DalkonError, DataError, InputError, __version__
from . import dakon, daldos

__all__ = ["DalkonError", "DataError", "InputError", "__version__", "dakon", "daldos"]
