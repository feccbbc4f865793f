"""`coexist-ai web` as a person starts it: the real command in a subprocess,
its address, Ctrl-C, its records read by the terminal game and back, an
external bot over the protocol, and one clear error line for a mistake."""
import json
import socket
import subprocess

import pytest
from cli_process import ROOT, cli, cli_argv, cli_env
from web_server import WebServer

from coexist_ai.play import gamefile

FIRST_LEGAL = ROOT / "bots" / "examples" / "first_legal.py"


def settle(server, snap=None):
    return server.wait_for(lambda s: s["your_move"] or s["final"])


def play_moves(server, count):
    """The person's first `count` decisions, each the first legal move."""
    for _ in range(count):
        snap = settle(server)
        if snap["final"]:
            return snap
        assert server.post("/api/move", {"move": snap["legal"][0]["move"]})["board"]
    return settle(server)


def test_serves_this_machine_and_ctrl_c_keeps_the_game(tmp_path):
    with WebServer("--vs", "random", "--seed", "1", "--pace", "0", "--save", "g.jsonl",
                   cwd=tmp_path) as server:
        assert server.url.startswith("http://127.0.0.1:")
        assert "deal seed 1" in server.first_line
        play_moves(server, 3)
        status, out, err = server.stop()
    assert status == 0, err
    assert "coexist-ai web --resume g.jsonl" in out
    record = json.loads((tmp_path / "g.jsonl").read_text())
    assert record["end"] == "unfinished" and gamefile.human_seats(record) == [0]
    assert sum(1 for seat, _ in record["moves"] if seat == 0) >= 3


def test_a_level_by_name_is_the_opponent_with_its_elo(tmp_path):
    with WebServer("--level", "beginner", "--seed", "2", "--pace", "0", "--save", "g.jsonl",
                   cwd=tmp_path) as server:
        assert server.get("/api/game")["names"] == ["human", "preset:beginner"]
        play_moves(server, 2)
        status, out, err = server.stop()
    assert status == 0, err
    assert "Level beginner: Elo +" in out
    record = json.loads((tmp_path / "g.jsonl").read_text())
    assert record["bots"][1]["spec"] == "preset:beginner"


def test_the_terminal_game_goes_on_with_a_web_game_and_back(tmp_path):
    with WebServer("--vs", "greedy", "--seed", "6", "--pace", "0", "--save", "g.jsonl",
                   cwd=tmp_path) as server:
        play_moves(server, 4)
    web_moves = json.loads((tmp_path / "g.jsonl").read_text())["moves"]
    terminal = subprocess.run(cli_argv("play", "--resume", tmp_path / "g.jsonl", "--color",
                                       "never"), env=cli_env(), input="1\n1\n1\nquit\n",
                              capture_output=True, text=True, timeout=120)
    assert terminal.returncode == 0, terminal.stderr
    after = json.loads((tmp_path / "g.jsonl").read_text())["moves"]
    assert after[:len(web_moves)] == web_moves and len(after) > len(web_moves)
    with WebServer("--resume", "g.jsonl", "--pace", "0", cwd=tmp_path) as server:
        assert "continuing game 1 of g.jsonl" in server.first_line
        snap = server.get("/api/game")
        assert snap["moves_made"] == len(after) and snap["your_move"]
    shown = cli("replay", tmp_path / "g.jsonl", "--to-end", "--color", "never")
    assert shown.returncode == 0 and "unfinished" in shown.stdout


def test_replays_a_duel_record(tmp_path):
    duel = cli("duel", "greedy", "random", "--games", "2", "--seed", "3", "--jobs", "1",
               "--out", tmp_path / "d.jsonl")
    assert duel.returncode == 0, duel.stderr
    with WebServer("--replay", "d.jsonl", "--game", "2", cwd=tmp_path) as server:
        snap = server.get("/api/game")
        assert snap["mode"] == "replay" and "d.jsonl game 2 of 2" in snap["label"]
        end = server.post("/api/replay", {"step": snap["last"]})
        assert end["final"]["rows"][0]["place"] == 1


def test_an_external_bot_over_the_protocol(tmp_path):
    spec = f"cmd:python3 {FIRST_LEGAL}"
    with WebServer("--vs", spec, "--seed", "2", "--pace", "0", cwd=tmp_path) as server:
        snap = play_moves(server, 6)
        assert snap["names"][1] == spec and not snap["forfeits"]
        assert any(turn["seat"] == 1 for turn in snap["turns"]), "the bot has moved"


def busy_port():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    return sock


@pytest.mark.parametrize("args, words", [
    (["--vs", "nosuchbot"], ["unknown bot 'nosuchbot'", "greedy"]),
    (["--players", "2", "--seat", "3"], ["seat 3", "0 to 1"]),
    (["--vs", "greedy", "--vs", "random"], ["2 bot specs for 1 bots"]),
    (["--resume", "missing.jsonl"], ["no file 'missing.jsonl'"]),
    (["--replay", "missing.jsonl"], ["no file 'missing.jsonl'"]),
    (["--resume", "a.jsonl", "--replay", "b.jsonl"], ["--resume and --replay"]),
    (["--port", "BUSY"], ["cannot listen on 127.0.0.1:", "--port"]),
    (["--resume", "a.jsonl", "--seed", "3", "--watch"], ["--seed, --watch", "--resume"]),
    (["--game", "2"], ["--game goes with --resume or --replay"]),
    (["--level", "grandmaster"], ["no level 'grandmaster'", "beginner"]),
    (["--level", "strong", "--vs", "greedy"], ["--level and --vs"]),
])
def test_a_mistake_is_one_error_line(tmp_path, args, words):
    holder = busy_port()
    args = [str(holder.getsockname()[1]) if a == "BUSY" else a for a in args]
    try:
        done = cli("web", *args, "--save", tmp_path / "x.jsonl", timeout=60)
    finally:
        holder.close()
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("error:"), done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert "Traceback" not in done.stderr


def test_a_finished_game_cannot_be_resumed(tmp_path):
    with WebServer("--watch", "--vs", "random", "--seed", "4", "--pace", "0",
                   "--save", "w.jsonl", cwd=tmp_path) as server:
        server.wait_for(lambda s: s["final"])
    done = cli("web", "--resume", tmp_path / "w.jsonl", timeout=60)
    assert done.returncode == 2 and "is over" in done.stderr and "--replay" in done.stderr


def test_a_bot_that_answers_an_illegal_move_forfeits(tmp_path):
    broken = ROOT / "tests" / "protocol_broken_bot.py"
    with WebServer("--vs", f"cmd:python3 {broken} illegal 2", "--seed", "2", "--pace", "0",
                   "--save", "f.jsonl", cwd=tmp_path) as server:
        snap = play_moves(server, 30)
        assert snap["final"] and snap["forfeits"][0]["seat"] == 1
        assert snap["forfeits"][0]["kind"] == "illegal"
        assert snap["final"]["verdict"] == "You win!"
        assert any("forfeited (illegal)" in note for note in snap["final"]["notes"])
    record = json.loads((tmp_path / "f.jsonl").read_text())
    assert record["end"] == "forfeit" and record["ranks"] == [1, 2]
