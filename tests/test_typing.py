"""The package type-checks: mypy (strict, pyproject.toml's [tool.mypy]) over
the installed coexist_ai, and mypy's stubtest of the compiled modules'
stubs (_engine.pyi, _search.pyi) against the built modules themselves.

Both run on the package as installed, from a scratch folder: in CI that is
site-packages, which mypy reads only through the py.typed marker, so a
wheel without its marker or its stubs fails here; in a development
(editable) install it is the source tree."""
import os
import site
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import coexist_ai

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyproject.toml"
ALLOWLIST = Path(__file__).resolve().parent / "stubtest-allowlist.txt"
PACKAGE = Path(coexist_ai.__file__).resolve().parent
TIMEOUT = 300


def _run(tmp_path, *args):
    """`python -m ARGS` in a folder of its own, finding the package where
    it is installed: through site-packages, or an editable install's
    source tree (which mypy cannot find through its import hook)."""
    env = dict(os.environ)
    env.pop("MYPYPATH", None)
    installed = {Path(p).resolve() for p in site.getsitepackages()}
    if PACKAGE.parent not in installed:
        env["MYPYPATH"] = str(PACKAGE.parent)
    done = subprocess.run([sys.executable, "-m", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)
    return done.returncode, done.stdout + done.stderr


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """One mypy cache for this file's runs: the package is analysed once."""
    return tmp_path_factory.mktemp("mypy-cache")


def test_mypy_strict_finds_no_error_in_the_package(tmp_path, cache):
    code, output = _run(tmp_path, "mypy", "--config-file", str(CONFIG),
                        "--cache-dir", str(cache), "-p", "coexist_ai")
    assert code == 0, output
    assert "Success: no issues found" in output, output


USER_CODE = """\
from coexist_ai import Searcher, State

st = State.new(players=2, seed=1)
reveal_type(st.seat(0).board[0].needs)
reveal_type(Searcher(threads=1).search(st.observation(), iterations=10)["moves"])
st.apply("recruit C")
"""


def test_a_user_of_the_package_gets_its_types(tmp_path, cache):
    # what a researcher's type checker sees: the views' types through the
    # compiled module's stubs, and a move passed as text where an action is due
    (tmp_path / "user.py").write_text(USER_CODE)
    code, output = _run(tmp_path, "mypy", "--strict", "--cache-dir", str(cache), "user.py")
    lines = output.replace("builtins.", "").splitlines()
    revealed = {line.split(":")[1]: line.partition("Revealed type is ")[2]
                for line in lines if "Revealed type" in line}
    assert "coexist_ai.views.Tokens" in revealed["4"], output
    assert revealed["5"] == '"list[tuple[int, int, int, float]]"', output
    errors = [line for line in lines if ": error:" in line]
    assert len(errors) == 1 and errors[0].startswith("user.py:6:"), output
    assert "[arg-type]" in errors[0] and code == 1, output


def test_the_stubs_describe_the_compiled_modules(tmp_path):
    code, output = _run(tmp_path, "mypy.stubtest", "coexist_ai._engine", "coexist_ai._search",
                        "--mypy-config-file", str(CONFIG), "--allowlist", str(ALLOWLIST))
    assert code == 0, output


def test_the_installed_package_carries_its_marker_and_stubs():
    for name in ("py.typed", "_engine.pyi", "_search.pyi"):
        assert (PACKAGE / name).is_file(), f"{name} is not installed with the package"


def test_no_module_of_the_package_is_exempted_from_strict():
    # exemptions are for third-party libraries without types only: an
    # override naming one of our modules (ignore_errors, a relaxed flag)
    # would let mypy pass over code nobody typed
    import tomllib
    config = tomllib.loads(CONFIG.read_text())["tool"]["mypy"]
    ours = [module for override in config.get("overrides", [])
            for module in override["module"] if module.split(".")[0] == "coexist_ai"]
    assert ours == [], f"mypy overrides for the package's own modules: {ours}"
    assert config["strict"] is True
    assert not config.get("untyped_calls_exclude"), config["untyped_calls_exclude"]
