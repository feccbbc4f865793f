"""Nothing the web server sends reveals the draw pile's order.

Two games are dealt with the same cards face up and the same first cards
of the draw pile, and the rest of the pile in two different orders. The
same person's requests (moves, refused moves, hints, an undo) to both get
byte-identical answers for as long as no card of the differing part has
been revealed: an answer that depended on the hidden order anywhere (the
page's data, a bot's move, the hint's search) would differ. And in a whole
game, no answer ever names a card that is still in the draw pile."""
import json

from starlette.testclient import TestClient

from coexist_ai.cards import default_card_set
from coexist_ai.web.newgame import NewGame, Settings, new_record
from coexist_ai.web.server import make_app
from coexist_ai.web.table import Table

CS = default_card_set()
SAME = 22          # cards of the deal both games share: 5 face up, 17 of the pile


def start(settings, deck=None):
    table = Table(settings)
    record, _ = new_record(settings, NewGame(vs=("greedy",), seed=12))
    if deck is not None:
        record["deck"] = deck
    path = "game.jsonl"         # relative: both games send the same save path
    table.put(table.live(record, path, [], None))
    return table, record["deck"]


def untimed(data):
    """The answer as JSON text without its clock readings (the hint's
    seconds, each turn's seconds): they differ from run to run."""
    if isinstance(data, dict):
        data.pop("seconds", None)
        for turn in data.get("turns") or []:
            turn.pop("seconds")
    return json.dumps(data, sort_keys=True)


class Person:
    """The same requests to any game, chosen from what the answers show;
    every answer kept as sent."""

    def __init__(self, client):
        self.client, self.sent, self.polled = client, [], {}

    def keep(self, answer):
        data = answer.json()
        self.sent.append(untimed(data))
        return data

    def settle(self):
        snap = self.client.get("/api/game").json()
        while not (snap["your_move"] or snap["final"]):
            self.polled[snap["version"]] = untimed(snap)
            snap = self.client.get(f"/api/game?after={snap['version']}").json()
        self.polled[snap["version"]] = untimed(snap)
        return self.keep(self.client.get("/api/game"))

    def play_until(self, done, decisions=400):
        snap = self.settle()
        for n in range(decisions):
            if snap["final"] or done(snap):
                return
            if n % 4 == 1:
                self.keep(self.client.post("/api/hint", json={}))
            faunas = {seat["fauna"] for seat in snap["board"]["seats"]}
            absent = next(c.id for c in CS.animals() if c.fauna not in faunas)
            self.keep(self.client.post("/api/move", json={"move": f"house {absent}"}))
            legal = snap["legal"]
            self.keep(self.client.post("/api/move", json={"move": legal[n % len(legal)]["move"]}))
            if n == 6:
                self.settle()
                self.keep(self.client.post("/api/undo", json={}))
            snap = self.settle()


def transcript(tmp_path, monkeypatch, name, deck=None):
    folder = tmp_path / name
    folder.mkdir()
    monkeypatch.chdir(folder)
    settings = Settings(CS, 0.05, "ismcts:iterations=300", None, 0.0)
    table, dealt = start(settings, deck)
    hidden_from = len(dealt) - SAME       # the pile's size once card SAME is revealed
    with TestClient(make_app(table)) as client:
        person = Person(client)
        person.play_until(lambda snap: snap["board"]["draw_pile"] <= hidden_from)
    return person, dealt


def shared_part(person, dealt):
    """The answers sent before a card of the differing part was revealed."""
    kept = []
    for text in person.sent:
        board = json.loads(text).get("board")
        if board and board["draw_pile"] < len(dealt) - SAME:
            break
        kept.append(text)
    return kept


def test_two_hidden_orders_get_the_same_bytes(tmp_path, monkeypatch):
    first, deck = transcript(tmp_path, monkeypatch, "a")
    other_deck = deck[:SAME] + deck[SAME:][::-1]
    assert other_deck != deck
    second, _ = transcript(tmp_path, monkeypatch, "b", other_deck)
    a, b = shared_part(first, deck), shared_part(second, other_deck)
    assert len(a) > 40, "enough of the game is compared"
    assert any('"line"' in text for text in a), "hints are among the answers compared"
    assert a == b[:len(a)] and len(a) == len(b)
    shared = [v for v in first.polled if v in second.polled]
    limit = len(deck) - SAME
    for version in shared:
        one = json.loads(first.polled[version])
        if one["board"]["draw_pile"] >= limit:
            assert first.polled[version] == second.polled[version], f"version {version}"


def words_in(value):
    if isinstance(value, dict):
        return set().union(*(words_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(words_in(v) for v in value)) if value else set()
    return set(value.split()) if isinstance(value, str) else set()


def test_no_answer_names_a_card_of_the_draw_pile(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    settings = Settings(CS, 0.05, "ismcts:iterations=300", None, 0.0)
    table, _ = start(settings)
    with TestClient(make_app(table)) as client:
        person = Person(client)
        checked = 0
        original = person.keep

        def keep(answer):
            data = original(answer)
            pile = {CS.cards[c].id for c in table.game.state.referee_draw_pile()}
            assert not words_in(data) & pile, f"an answer names {words_in(data) & pile}"
            nonlocal checked
            checked += 1
            return data
        person.keep = keep
        person.play_until(lambda snap: False)
        assert table.game.over() and checked > 100
