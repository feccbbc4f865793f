"""Build of coexist-ai: the compiled rules core (csrc/) and its Cython binding."""
import glob

from Cython.Build import cythonize
from setuptools import Extension, setup

CORE_SOURCES = sorted(glob.glob("csrc/cx_*.c"))
# hidden visibility: calls between engine files stay direct inside the
# shared object instead of going through the PLT
COMPILE_ARGS = ["-O3", "-std=c11", "-Wall", "-Wno-unused-function",
                "-fvisibility=hidden", "-fno-semantic-interposition",
                "-pthread"]

extensions = [
    Extension(
        "coexist_ai._core",
        sources=["coexist_ai/_core.pyx"] + CORE_SOURCES,
        include_dirs=["csrc"],
        extra_compile_args=COMPILE_ARGS,
        extra_link_args=["-pthread"],
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
