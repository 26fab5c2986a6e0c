"""dalkon: exact analysis of two traditional board games, Daldøs and Dakon."""

from . import dakon as dakon
from . import daldos as daldos

__all__ = ["DalkonError", "DataError", "InputError", "__version__", "dakon", "daldos"]

__version__: str
"""The package's version (the Rust workspace's)."""

class DalkonError(Exception):
    """Base class of every error dalkon raises; its message is the CLI's one-line message."""

class InputError(DalkonError):
    """Bad input: a position, move, rule or option that the rules refuse (the CLI's exit code 2)."""

class DataError(DalkonError):
    """A file that cannot be used: damaged, cut short, for other rules, or unreadable (the CLI's exit code 1)."""
