"""The web game's HTTP API, in process (Starlette's test client): the page
and its files, moves and their refusals, undo, hint, new games, replays.
Bad requests get one clear JSON error, never a traceback."""
import json
import re
import threading

import pytest
from starlette.testclient import TestClient

from coexist_ai.cards import default_card_set
from coexist_ai.play import gamefile
from coexist_ai.web.newgame import NewGame, Settings
from coexist_ai.web.server import STATIC, make_app
from coexist_ai.web.table import Table

CS = default_card_set()


def make_table(tmp_path, **asked):
    settings = Settings(CS, 0.05, "ismcts:iterations=200", str(tmp_path / "games.jsonl"), 0.0)
    table = Table(settings)
    table.new_game(NewGame(**{"vs": ("greedy",), "seed": 4, **asked}))
    return table


@pytest.fixture
def client(tmp_path):
    table = make_table(tmp_path)
    with TestClient(make_app(table)) as c:
        c.table = table
        yield c


def settled(client, snap=None):
    """The snapshot once the bots have moved: the person's move, or the end."""
    snap = snap or client.get("/api/game").json()
    while not (snap["your_move"] or snap["final"]):
        snap = client.get(f"/api/game?after={snap['version']}").json()
    return snap


def refused(answer, status, *words):
    assert answer.status_code == status, answer.text
    message = answer.json()["error"]
    for word in words:
        assert word in message, message
    return message


def test_the_page_loads_only_files_of_its_own_server(client):
    page = client.get("/")
    assert page.status_code == 200 and "<title>Coexist</title>" in page.text
    local = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert "/static/app.js" in local and "/static/app.css" in local
    for path in local:
        assert path.startswith(("/static/", "data:")), f"{path}: fetched from elsewhere"
        if path.startswith("/static/"):
            assert client.get(path).status_code == 200, path
    for name in ("index.html", "app.js", "app.css"):
        text = (STATIC / name).read_text()
        assert not re.search(r"https?://", text), f"{name} names a network address"


def test_a_legal_move_is_played_and_drawn(client):
    snap = settled(client)
    move = snap["legal"][0]["move"]
    answer = client.post("/api/move", json={"move": move, "version": snap["version"]})
    assert answer.status_code == 200, answer.text
    after = answer.json()
    assert after["moves_made"] == snap["moves_made"] + 1
    assert after["turns"][-1]["moves"][-1]["move"] == move
    assert client.table.game.record["moves"][-1] == [0, move], "the record has it at once"


def test_each_turn_says_how_long_it_took(client):
    """A bot's turn is several decisions: the page shows their seconds
    together (what the person waited), in a live game and in its replay."""
    snap = settled(client)
    for _ in range(3):
        snap = settled(client, client.post("/api/move", json={"move": snap["legal"][0]["move"]}).json())
    record = client.table.game.record
    runs = gamefile.turn_runs(record)
    assert len(runs) >= 3 and any(len(moves) > 1 for _, moves, _ in runs)
    client.post("/api/replay", json={"current": True})
    replayed = client.post("/api/replay", json={"step": len(record["moves"])}).json()
    for snapshot in (snap, replayed):
        assert [t["seconds"] for t in snapshot["turns"]] == [round(s, 2) for *_, s in runs]
        assert [t["first"] for t in snapshot["turns"]] == [
            1 + sum(len(m) for _, m, _ in runs[:i]) for i in range(len(runs))]


def test_refused_moves_say_why(client):
    snap = settled(client)
    board = snap["board"]
    refused(client.post("/api/move", json={"move": "center"}), 400,
            "first turn", "Mission")
    refused(client.post("/api/move", json={"move": "hous gazelle"}), 400, "unknown word")
    off_board = next(c.id for c in CS.animals() if c.id not in
                     {m["id"] for m in board["mission"]})
    refused(client.post("/api/move", json={"move": f"house {off_board}"}), 400,
            "not on the Mission board")
    refused(client.post("/api/move", json={"move": "recruit C", "version": snap["version"] - 1}),
            409, "changed")
    assert client.get("/api/game").json()["moves_made"] == snap["moves_made"]


@pytest.mark.parametrize("body, status, words", [
    (b"not json", 400, ["JSON object"]),
    (b"[1, 2]", 400, ["JSON object", "list"]),
    (b'{"mvoe": "end"}', 400, ["unknown field 'mvoe'", "move"]),
    (b'{"move": 3}', 400, ["'move'", "a string"]),
    (b'{"move": "end", "version": true}', 400, ["'version'", "a whole number"]),
    (b"{}", 400, ['{"move"']),
])
def test_bad_move_requests(client, body, status, words):
    answer = client.post("/api/move", content=body, headers={"Content-Type": "application/json"})
    refused(answer, status, *words)


def test_unknown_paths_and_methods_answer_json(client):
    refused(client.get("/api/nothing"), 404, "/api/nothing")
    refused(client.get("/api/move"), 405, "GET")
    refused(client.get("/api/game?after=x"), 400, "after")


def test_undo_goes_back_to_the_persons_previous_decision(client):
    refused(client.post("/api/undo", json={}), 409, "nothing to undo")
    snap = settled(client)
    first = snap["legal"][0]["move"]
    client.post("/api/move", json={"move": first})
    snap = settled(client)
    answer = client.post("/api/undo", json={})
    assert answer.status_code == 200, answer.text
    back = answer.json()
    assert back["undone"][0] == first and back["moves_made"] == 0 and back["your_move"]
    saved = gamefile.load_game(client.table.game.save_path)[0][-1]
    assert saved["moves"] == [] and saved["end"] == "unfinished", "the undo is saved"


def test_hint_names_a_legal_move_its_value_and_a_public_line(client):
    snap = settled(client)
    client.post("/api/move", json={"move": next(m["move"] for m in snap["legal"]
                                                  if m["word"] == "house")})
    snap = settled(client)
    legal = {m["move"] for m in snap["legal"]}
    hint = client.post("/api/hint", json={}).json()
    assert hint["move"] in legal and hint["text"]
    if not hint["only"]:
        assert 0 <= hint["value"] <= 1 and hint["iterations"] >= 200
    unseen = {CS.cards[c].id for c in client.table.game.state.referee_draw_pile()}
    for step in hint["line"]:
        assert not unseen & set(step["move"].split()), f"{step}: a card still in the draw pile"


def test_new_game_settings_and_their_refusals(client):
    answer = client.post("/api/new", json={"players": 3, "vs": ["random"], "seat": 2,
                                           "seed": 8})
    assert answer.status_code == 200, answer.text
    snap = answer.json()
    assert snap["you"] == 2 and snap["names"] == ["random#1", "random#2", "human"]
    assert snap["seed"] == 8 and snap["board"]["players"] == 3
    refused(client.post("/api/new", json={"vs": ["nosuchbot"]}), 400, "unknown bot", "greedy")
    refused(client.post("/api/new", json={"players": 3, "vs": ["random", "greedy", "random"]}),
            400, "3 bot specs for 2 bots")
    refused(client.post("/api/new", json={"players": 5}), 400, "2 to 4 players")
    refused(client.post("/api/new", json={"players": 2, "seat": 2}), 400, "seat 2")
    refused(client.post("/api/new", json={"vs": "greedy"}), 400, "'vs'", "a list")
    assert client.get("/api/game").json()["you"] == 2, "a refused new game changes nothing"


def test_the_levels_are_offered_with_their_elo_and_start_a_game(client):
    from coexist_ai.bots.levels import levels
    offered = client.get("/api/levels").json()["levels"]
    assert [o["name"] for o in offered] == [lv.name for lv in levels()]
    for o, lv in zip(offered, levels()):
        assert o["spec"] == f"preset:{lv.name}" and o["elo"] == lv.elo_text()
    answer = client.post("/api/new", json={"vs": [offered[0]["spec"]], "seed": 3})
    assert answer.status_code == 200, answer.text
    assert answer.json()["names"] == ["human", "preset:beginner"]


def test_a_watched_game_takes_no_move_from_the_page(client):
    snap = client.post("/api/new", json={"watch": True, "vs": ["random"], "seed": 1}).json()
    assert snap["mode"] == "watch" and snap["you"] is None
    refused(client.post("/api/move", json={"move": "recruit C"}), 409, "watch")
    refused(client.post("/api/hint", json={}), 409, "watch")
    final = settled(client)["final"]
    assert final and final["verdict"].startswith(("Seat", "Seats"))


def test_replay_steps_through_a_record_and_sends_no_deck(client, tmp_path):
    snap = client.post("/api/new", json={"watch": True, "vs": ["greedy"], "seed": 3}).json()
    settled(client, snap)
    text = (tmp_path / "games.jsonl").read_text()
    snap = client.post("/api/replay", json={"text": text, "game": 2, "name": "g.jsonl"}).json()
    assert snap["mode"] == "replay" and snap["moves_made"] == 0 and snap["last"] > 20
    step = client.post("/api/replay", json={"step": 5}).json()
    assert step["moves_made"] == 5 and len(sum((t["moves"] for t in step["turns"]), [])) == 5
    end = client.post("/api/replay", json={"step": step["last"]}).json()
    assert end["final"]["rows"][0]["place"] == 1
    record = json.loads(text.splitlines()[1])
    for answer in (snap, step, end):
        assert "deck" not in json.dumps(answer)
    assert record["deck"][-1] not in json.dumps(snap), "the last card is not shown at the start"
    refused(client.post("/api/replay", json={"step": end["last"] + 1}), 400, "moves 0 to")
    refused(client.post("/api/move", json={"move": "end"}), 409, "replay")
    refused(client.post("/api/replay", json={"text": "{}\n", "name": "bad.jsonl"}), 400,
            "bad.jsonl:1")
    refused(client.post("/api/replay", json={"text": text, "game": 9, "name": "g.jsonl"}),
            400, "games 1 to 2")


def test_replay_of_the_game_just_played(client):
    snap = settled(client)
    client.post("/api/move", json={"move": snap["legal"][0]["move"]})
    settled(client)
    replay = client.post("/api/replay", json={"current": True}).json()
    assert replay["mode"] == "replay" and replay["last"] >= 1 and replay["moves_made"] == 0


def test_only_the_servers_own_page_may_change_the_game(client):
    """Another site's page in the same browser could post to 127.0.0.1:
    without a JSON content type (a form, a no-cors fetch) or with a foreign
    Origin, nothing is played."""
    snap = settled(client)
    move = snap["legal"][0]["move"]
    plain = client.post("/api/move", content=json.dumps({"move": move}),
                        headers={"Content-Type": "text/plain"})
    refused(plain, 415, "application/json")
    foreign = client.post("/api/move", json={"move": move},
                          headers={"Origin": "http://evil.example"})
    refused(foreign, 403, "evil.example")
    own = client.post("/api/move", json={"move": move},
                      headers={"Origin": "http://testserver"})
    assert own.status_code == 200, own.text


def test_the_page_starts_no_program_the_command_line_did_not_name(tmp_path):
    table = make_table(tmp_path)
    trusted = f"cmd:python3 {STATIC.parent.parent.parent / 'bots/examples/first_legal.py'}"
    table.settings.trusted = (trusted,)
    with TestClient(make_app(table)) as client:
        for spec in ("cmd:touch pwned", "bots/examples/random_legal_perl.toml",
                     "preset:../../bots/examples/random_legal_perl"):
            refused(client.post("/api/new", json={"vs": [spec]}), 400,
                    "starts no program", "--vs", trusted)
        assert not (tmp_path / "pwned").exists()
        assert client.get("/api/game").json()["names"] == ["human", "greedy"]


def test_a_name_rebound_to_this_machine_gets_nothing(tmp_path):
    table = make_table(tmp_path)
    app = make_app(table, ["127.0.0.1", "localhost"])
    with TestClient(app, base_url="http://rebound.example:8765") as client:
        assert client.get("/api/game").status_code == 400
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        assert client.get("/api/game").status_code == 200


def test_a_replays_long_poll_waits_for_a_step(client, tmp_path):
    """A page showing a replay polls with the version it has: the answer
    must wait for a step (answering at once kept the page polling flat out)."""
    snap = client.post("/api/new", json={"watch": True, "vs": ["random"], "seed": 5}).json()
    settled(client, snap)
    client.post("/api/replay", json={"current": True})
    table = client.table
    version = table.game.version
    waiter = threading.Thread(target=table.wait, args=(version, 30.0))
    waiter.start()
    waiter.join(0.3)
    assert waiter.is_alive(), "the long poll answered with nothing new"
    table.game.go(1)
    waiter.join(10)
    assert not waiter.is_alive(), "a step ends the long poll"
