"""Build of coexist-ai: the compiled rules core (csrc/) and its Cython binding."""
import glob

from Cython.Build import cythonize
from setuptools import Extension, setup

CORE_SOURCES = sorted(glob.glob("csrc/cx_*.c"))
COMPILE_ARGS = ["-O3", "-std=c11", "-Wall", "-Wno-unused-function"]

extensions = [
    Extension(
        "coexist_ai._core",
        sources=["coexist_ai/_core.pyx"] + CORE_SOURCES,
        include_dirs=["csrc"],
        extra_compile_args=COMPILE_ARGS,
    ),
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": "3", "boundscheck": False,
                             "wraparound": False, "cdivision": True},
    ),
)
