"""The Ray backend plays exactly the games the local backend plays, on a
real Ray head that the test starts and stops."""
import json
import os
import socket
import subprocess
import sys

import pytest

from coexist_ai.backends import BackendError, execute
from coexist_ai.schedule import Entrant
from coexist_ai.tournament import Tournament, run

RAY = [sys.executable, "-m", "ray.scripts.scripts"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def ray_head():
    port = free_port()
    started = subprocess.run(
        RAY + ["start", "--head", f"--port={port}", "--num-cpus=2",
               "--include-dashboard=false", "--disable-usage-stats"],
        capture_output=True, text=True, timeout=180)
    assert started.returncode == 0, started.stderr[-2000:]
    try:
        yield f"127.0.0.1:{port}"
    finally:
        subprocess.run(RAY + ["stop", "--force"], capture_output=True, timeout=180)


def small_tournament():
    return Tournament("ray-check", [Entrant("random", "random"), Entrant("greedy", "greedy")],
                      2, "round-robin", 3, 11)


def without_times(path):
    records = [json.loads(line) for line in open(path)]
    for r in records:
        r.pop("times")
    return sorted(records, key=lambda r: r["game"])


def test_ray_backend_plays_the_same_games_as_local(ray_head, tmp_path):
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    run(small_tournament(), str(local), jobs=1, progress=False)
    standings = run(small_tournament(), str(remote), progress=False,
                    backend="ray", address=ray_head)
    assert standings.recorded == 6
    assert without_times(remote) == without_times(local)


def test_ray_backend_resumes_a_run(ray_head, tmp_path):
    out = tmp_path / "ray.jsonl"
    first = Tournament("ray-check", small_tournament().entrants, 2, "round-robin", 1, 11)
    run(first, str(out), progress=False, backend="ray", address=ray_head)
    run(small_tournament(), str(out), progress=False, backend="ray", address=ray_head)
    games = [r["game"] for r in without_times(out)]
    assert games == list(range(6))


def test_unknown_backend_is_refused():
    with pytest.raises(BackendError, match="expected one of local, ray"):
        list(execute(abs, [(1,)], backend="spark"))


def test_ray_backend_tunes_as_the_local_one(ray_head, tmp_path, monkeypatch):
    """A tuning run on Ray plays the same games and ends at the same theta;
    its one connection serves every iteration."""
    from coexist_ai.cards import resolve_card_set
    from coexist_ai.tune import Settings, tune

    def settings():
        return Settings("ismcts:iterations=30", ["c=0.1:2"], None, 2, 3, None, 7, None,
                        "default", resolve_card_set("default"))
    from coexist_ai import backends
    connections = []

    def connect(address):
        connections.append(address)
        return connect_once(address)
    connect_once = backends._connect_ray
    monkeypatch.setattr(backends, "_connect_ray", connect)
    local, remote = tmp_path / "local", tmp_path / "ray"
    tune(settings(), str(local), jobs=1, progress=False, echo=lambda *a: None)
    outcome = tune(settings(), str(remote), progress=False, backend="ray",
                   address=ray_head, echo=lambda *a: None)
    assert outcome.finished and outcome.games == 6
    assert connections == [ray_head]      # one connection for the 3 iterations
    assert (remote / "theta.json").read_text() == (local / "theta.json").read_text()
    assert without_times(remote / "games.jsonl") == without_times(local / "games.jsonl")
