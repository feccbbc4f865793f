"""Build of coexist-ai: the compiled rules core (csrc/) and its Cython binding."""
import glob
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

CORE_SOURCES = sorted(glob.glob("csrc/cx_*.c"))
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

extensions = [
    Extension(
        "coexist_ai._core",
        sources=["coexist_ai/_core.pyx"] + CORE_SOURCES,
        include_dirs=["csrc"],
        extra_compile_args=COMPILE_ARGS,
        extra_link_args=LINK_ARGS,
        libraries=["m"],
    ),
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": "3", "boundscheck": False,
                             "wraparound": False, "cdivision": True},
    ),
)
