"""The errors coexist-ai raises on bad input.

Every message quotes the input that was refused and says what would have been
valid, so that a person at a terminal or a program over the protocol can act
on it without reading a traceback.

Every exception class the package defines derives from `CoexistError` (and so
is a ValueError): `except CoexistError` catches whatever the package raises on
purpose, and tests/test_errors.py walks the package to keep it so.
"""


class CoexistError(ValueError):
    """Base class of every error the package defines: bad input from a
    person, a file or a bot."""


class IllegalMoveError(CoexistError):
    """A move that is not legal in the position it was applied to."""


class NotationError(CoexistError):
    """Text that does not parse as a move of the project's notation."""


class SetupError(CoexistError):
    """A new game asked with impossible settings (players, faunas, deck)."""


class StateFormatError(CoexistError):
    """A state or observation JSON document that cannot be loaded."""


class MissingDependencyError(CoexistError):
    """A command needs an optional extra that is not installed."""
