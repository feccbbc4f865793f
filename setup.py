"""Build of coexist-ai: the compiled rules core (csrc/) and its Cython binding."""
import glob
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

# the search files need the rules; the rules need nothing else
SEARCH_SOURCES = ["csrc/cx_eval.c", "csrc/cx_greedy.c", "csrc/cx_ismcts.c",
                  "csrc/cx_learned.c", "csrc/cx_policy.c",
                  "csrc/cx_searcher.c"]
RULES_SOURCES = sorted(set(glob.glob("csrc/cx_*.c")) - set(SEARCH_SOURCES))
# hidden visibility: calls between engine files stay direct inside the
# shared object instead of going through the PLT
COMPILE_ARGS = ["-O3", "-std=c11", "-Wall", "-Wno-unused-function",
                "-fvisibility=hidden", "-fno-semantic-interposition",
                "-pthread"]
LINK_ARGS = ["-pthread"]

# COEXIST_SANITIZE=1: a build for tests/test_sanitizers.py, with
# AddressSanitizer and UndefinedBehaviorSanitizer; any finding aborts.
if os.environ.get("COEXIST_SANITIZE") == "1":
    SANITIZERS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                  "-fno-omit-frame-pointer", "-g"]
    COMPILE_ARGS = [a for a in COMPILE_ARGS if a != "-O3"] + ["-O1"] + SANITIZERS
    LINK_ARGS += SANITIZERS


def extension(name, sources):
    return Extension(f"coexist_ai.{name}", sources=[f"coexist_ai/{name}.pyx"] + sources,
                     include_dirs=["csrc"], extra_compile_args=COMPILE_ARGS,
                     extra_link_args=LINK_ARGS, libraries=["m"])


# two modules, as the .pxd files declare them: the engine, and the search
# that cimports it (each links its own copy of the rules)
extensions = [
    extension("_engine", RULES_SOURCES),
    extension("_search", RULES_SOURCES + SEARCH_SOURCES),
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": "3", "boundscheck": False,
                             "wraparound": False, "cdivision": True},
    ),
)
