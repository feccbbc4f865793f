"""The compiled core under AddressSanitizer and UndefinedBehaviorSanitizer.

The package is built a second time with COEXIST_SANITIZE=1 (setup.py) into
a temporary folder, and tests/sanitize/fuzz_core.py runs against that build
with the sanitizer runtime preloaded into Python: hundreds of games with
every invariant checked after every move, then JSON, raw-struct, card-set
and unchecked-action fuzzing, each accepted input played to the end. Any
out-of-bounds access, use after free or undefined behaviour in C aborts the
process, and the test fails with the sanitizer's report.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FUZZ = ROOT / "tests" / "sanitize" / "fuzz_core.py"


def runtime(name):
    """The path of gcc's sanitizer runtime library `name` (libasan.so...)."""
    found = subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True,
                           text=True, check=True).stdout.strip()
    assert os.path.isabs(found) and os.path.exists(found), (
        f"gcc has no {name}: install the sanitizer runtimes (Debian: libasan8, "
        "libubsan1); .ci/run does it")
    return found


@pytest.fixture(scope="module")
def sanitized_build(tmp_path_factory):
    base = tmp_path_factory.mktemp("asan-build")
    env = dict(os.environ, COEXIST_SANITIZE="1")
    done = subprocess.run([sys.executable, "setup.py", "-q", "build",
                           "--build-base", str(base)], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    libs = [p for p in base.iterdir() if p.name.startswith("lib")]
    assert len(libs) == 1, libs
    for module in ("_engine", "_search"):
        assert list(libs[0].glob(f"coexist_ai/{module}*.so")), (module, libs)
    return libs[0]


def run_fuzz(build, *args, timeout=1200):
    env = dict(os.environ, PYTHONPATH=str(build),
               LD_PRELOAD=f"{runtime('libasan.so')}:{runtime('libubsan.so')}",
               # Python itself leaks at exit by design; leaks of the core are
               # measured by tests/test_resources.py instead
               ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:verify_asan_link_order=0",
               UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")
    return subprocess.run([sys.executable, str(FUZZ), *args], env=env, cwd=build,
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("module", ["_engine", "_search"])
def test_the_sanitized_build_is_the_one_that_runs(sanitized_build, module):
    # the sanitizer must really be in the modules the fuzz imports
    probe = f"import coexist_ai.{module} as c; print(c.__file__)"
    env = dict(os.environ, PYTHONPATH=str(sanitized_build),
               LD_PRELOAD=runtime("libasan.so"), ASAN_OPTIONS="detect_leaks=0")
    done = subprocess.run([sys.executable, "-c", probe], env=env, cwd=sanitized_build,
                          capture_output=True, text=True)
    path = Path(done.stdout.strip())
    assert path.is_relative_to(sanitized_build), done
    assert b"__asan_init" in path.read_bytes()


def test_games_and_fuzz_under_asan_and_ubsan(sanitized_build):
    done = run_fuzz(sanitized_build, "--seed", "1", "--scale", "1.0")
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-6000:])
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    print("fuzz counts:", counts)
    assert counts["games"] >= 300 and counts["moves"] > 100_000
    assert counts["json_tried"] >= 3000 and counts["raw_tried"] >= 3000
    assert counts["cards_tried"] >= 150 and counts["actions_tried"] > 10_000
    # the fuzz must reach the engine, not only the loaders' refusals
    assert counts["json_state_accepted"] + counts["json_observation_accepted"] >= 50
    assert counts["raw_accepted"] >= 20 and counts["cards_accepted"] >= 50


def test_the_sanitizer_runtime_catches_an_out_of_bounds_write(sanitized_build):
    # with the module instrumented (above), this shows the runtime is live in
    # the fuzz's process: a heap overflow, as the 16-animal board's write
    # past the state was, aborts with a report
    script = ("import ctypes\n"
              "import coexist_ai._engine\n"
              "libc = ctypes.CDLL(None)\n"
              "libc.malloc.restype = ctypes.c_void_p\n"
              "p = libc.malloc(8)\n"
              "ctypes.memset(p, 0, 16)\n")
    env = dict(os.environ, PYTHONPATH=str(sanitized_build),
               LD_PRELOAD=f"{runtime('libasan.so')}:{runtime('libubsan.so')}",
               ASAN_OPTIONS="detect_leaks=0:verify_asan_link_order=0")
    done = subprocess.run([sys.executable, "-c", script], env=env, cwd=sanitized_build,
                          capture_output=True, text=True)
    assert done.returncode != 0, done
    assert "AddressSanitizer: heap-buffer-overflow" in done.stderr, done.stderr[-2000:]
