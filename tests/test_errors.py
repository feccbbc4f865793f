"""Every exception class the package defines derives from CoexistError, so
that `except CoexistError` catches whatever coexist-ai raises on purpose (and
each stays a ValueError, as callers catching ValueError rely on)."""
import importlib
import inspect
import pkgutil

import coexist_ai
from coexist_ai.errors import CoexistError


def _modules():
    yield coexist_ai
    for info in pkgutil.walk_packages(coexist_ai.__path__, "coexist_ai."):
        yield importlib.import_module(info.name)


def _defined_exceptions():
    """(qualified name, class) of each exception class defined in the package,
    found by importing every module (compiled ones included)."""
    found = {}
    for module in _modules():
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__.startswith("coexist_ai"):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return found


def test_the_walk_sees_the_modules_that_define_errors():
    # the walk reaches subpackages and leaf modules, not just the top level
    names = _defined_exceptions()
    for expected in ("coexist_ai.errors.IllegalMoveError",
                     "coexist_ai.protocol.connection.PeerFailure",
                     "coexist_ai.recordschema.FieldError",
                     "coexist_ai.play.gamefile.GameFileError"):
        assert expected in names


def test_every_exception_the_package_defines_is_a_coexist_error():
    strays = sorted(name for name, cls in _defined_exceptions().items()
                    if not issubclass(cls, CoexistError))
    assert strays == []


def test_every_coexist_error_is_still_a_value_error():
    assert all(issubclass(cls, ValueError) for cls in _defined_exceptions().values())
