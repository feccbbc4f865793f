"""The pieces of `coexist-ai play` and `replay`, in process: the renderer,
the input interpreter, the record file, colour detection, replay keys."""
import io
import json
import re

import pytest
from positions import position

from coexist_ai import _engine, _search
from coexist_ai.bots import make_bot
from coexist_ai.cards import dumps_card_set, loads_card_set, packaged_card_set
from coexist_ai.cli_play import opponent_specs, with_time
from coexist_ai.match import BotFailure, play_game
from coexist_ai.play import gamefile
from coexist_ai.play.moveinput import interpret
from coexist_ai.play.render import (render_final, render_moves, render_position,
                                    track_text)
from coexist_ai.cards import FAUNAS
from coexist_ai.vocabulary import TRACK_POINTS
from coexist_ai.play.replay import Replay, parse_command
from coexist_ai.play.session import hint_text
from coexist_ai.play.style import Style, detect_style, wants_colour
from coexist_ai.play.wrap import fold, visible_length

# positions and seeded games of reconstructed-v1 (a tie at seed 2...): the
# rendering does not depend on the set, the fixtures stay when the default changes
CS = packaged_card_set("reconstructed-v1")
PLAIN = Style(False)


def midgame(players=3, seed=5, decisions=60):
    state = _engine.State.new(CS, players=players, seed=seed)
    bot = make_bot("greedy")
    for _ in range(decisions):
        state.apply(bot.choose(state.observation()))
    return state


# -- the renderer ------------------------------------------------------------

def test_render_refuses_a_state():
    state = _engine.State.new(CS, seed=1)
    with pytest.raises(TypeError, match="needs an Observation"):
        render_position(state)
    with pytest.raises(TypeError):
        render_final(state)


def test_render_never_names_a_card_of_the_draw_pile():
    state = midgame()
    text = render_position(state.observation(0), style=PLAIN)
    hidden = [CS.cards[c] for c in state.referee_draw_pile()]
    assert hidden
    for card in hidden:
        assert f"[{card.id}]" not in text and card.id not in text
    assert f"draw pile {len(hidden)} cards" in text


def test_render_a_chance_node_names_no_seat_to_play():
    # explicit chance: while the Mission is dealt nobody decides anything
    state = _engine.State.new(CS, players=2, seed=4, explicit_chance=True)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    assert state.is_chance_node()
    text = render_position(state.observation(0), style=PLAIN)
    assert text.endswith("Chance: a card of the draw pile (37 left) is revealed "
                         "onto the Mission")
    assert "to play" not in text


def test_render_shows_the_public_position():
    state = midgame()
    obs = state.observation(0)
    raw = obs._public_raw()      # the struct itself: an independent oracle
    text = render_position(obs, names=["human", "greedy", "greedy"], you=0, style=PLAIN)
    assert "card set reconstructed-v1 (reconstructed)" in text
    supply = "  ".join(f"{c} {n}" for c, n in zip("CFPHS", raw["supply"]))
    assert f"Supply: {supply}" in text
    for index in raw["mission"][:raw["n_mission"]]:
        assert f"[{CS.cards[index].id}]" in text
    for seat, parts in enumerate(obs.score_breakdown()):
        pl = raw["players"][seat]
        assert (f"score so far {parts.total} = released {parts.conservation} + "
                f"reputation {parts.reputation}") in text
        assert (f"{pl['track']}/8 S | capture limit {obs.capture_limit(seat)} | still "
                f"gives {sum(TRACK_POINTS[pl['track']:])} points") in text
        assert f"Conservation Center {obs.spaces_used(seat)}/{obs.capacity(seat)} spaces" in text
        fauna = FAUNAS[pl["fauna"]]
        assert f"{fauna} specialty" in text
        for slot in pl["board"][:pl["n_board"]]:
            card = CS.cards[slot["card"]]
            still = [max(0, n - o) for n, o in zip(card.needs, slot["on"])]
            need = " ".join(f"{c}{v}" for c, v in zip("CFPHS", still) if v)
            assert re.search(re.escape(f"[{card.id}] cons {card.conservation} | on it ")
                             + r".*" + re.escape(f"still needs {need}" if need else "READY"),
                             text)
    assert "seat 0 (you)" in text and "seat 1 (greedy)" in text
    assert "\x1b" not in text


def test_reputation_track_points():
    # the rulebook's examples: 0 tokens 10 points, 2: 6, 6: 1
    assert [sum(TRACK_POINTS[t:]) for t in (0, 2, 6, 8)] == [10, 6, 1, 0]
    assert track_text(2, PLAIN) == "[S S 3 ^ 2 ^ 1 ^]"


def test_a_card_set_of_ones_own_is_not_labelled_reconstructed():
    own = loads_card_set(dumps_card_set(CS).replace('name = "reconstructed-v1"',
                                                    'name = "my-cards"', 1))
    assert not own.is_reconstructed
    text = render_position(_engine.State.new(own, seed=1).observation(0))
    assert "card set my-cards\n" in text and "reconstructed" not in text


def test_colour_codes_only_with_colour():
    obs = midgame().observation(0)
    assert "\x1b[" in render_position(obs, style=Style(True))
    assert re.sub(r"\x1b\[[0-9;]*m", "", render_position(obs, style=Style(True))) == \
        render_position(obs, style=PLAIN)


def test_moves_are_numbered_in_notation():
    state = _engine.State.new(CS, seed=3)
    moves = state.legal_moves()
    listing = render_moves(CS, moves).splitlines()
    assert len(listing) == len(moves)
    for i, (line, move) in enumerate(zip(listing, moves), 1):
        assert line.split(None, 1)[1].startswith(f"{move}") and line.strip().startswith(f"{i}.")


def test_final_score_follows_the_ranks():
    state = _engine.State.new(CS, players=3, seed=2)
    state.playout_random(4)
    text = render_final(state.observation(0), ["a", "b", "c"], style=PLAIN)
    rows = [r for r in text.splitlines()[2:] if not r.startswith("  tie: ")]
    ranks = state.ranks()
    assert [int(r.split()[0]) for r in rows] == sorted(ranks)
    for seat, parts in enumerate(state.score_breakdown()):
        row = next(r for r in rows if f"seat {seat} " in r)
        assert row.split()[-2] == str(parts.total)
        assert row.split()[-3] == str(state.seat(seat).track)   # the tie-breaker


def test_final_score_says_how_a_tie_was_broken():
    """Seed 2's random game ends 2nd and 3rd on the same total: the table
    says which Survival tokens broke it (explain.tie_breaks' sentence)."""
    from coexist_ai.explain import tie_breaks
    state = _engine.State.new(CS, players=3, seed=2)
    state.playout_random(4)
    totals, tracks = state.scores(), [s.track for s in state.seats]
    assert len(set(totals)) < len(totals)
    labels = ["seat 0 (you)", "seat 1 (b)", "seat 2 (c)"]
    text = render_final(state.observation(0), ["a", "b", "c"], you=0, style=PLAIN)
    ties = [r[len("  tie: "):] for r in text.splitlines() if r.startswith("  tie: ")]
    assert ties == tie_breaks(totals, tracks, labels) and ties


# -- what the person types --------------------------------------------------------

MOVES = ["recruit C", "house forest-red-fox", "house forest-brown-bear",
         "house sea-otter", "release forest-wild-boar"]


@pytest.mark.parametrize("text, index", [
    ("1", 0), (" 3 ", 2), ("recruit c", 0), ("RECRUIT C", 0), ("rec", 0),
    ("house forest-red-fox", 1), ("h red", 1), ("house fox", 1), ("ho bear", 2),
    ("house otter", 3), ("house sea", 3), ("rel boar", 4), ("release", 4),
])
def test_interpret_moves(text, index):
    answer = interpret(text, MOVES, CS)
    assert (answer.kind, answer.move) == ("move", index)


@pytest.mark.parametrize("text, message", [
    ("0", "there is no move 0"), ("6", "there is no move 6"),
    ("house", "is ambiguous: it could be 2. house forest-red-fox, 3. house "
              "forest-brown-bear, 4. house sea-otter"),
    ("h forest", "is ambiguous"),
    ("recruit H", "'recruit H' is not a legal move now"),
    ("protect forest-red-fox", "is not a legal move now"),
    ("fly away", "'fly away' is not a legal move or a command"),
    ("house unicorn", "is not a legal move or a command"),
    ("\u0661", "plain ASCII"),                  # Arabic-Indic one: int() reads 1
    ("rec\u00a0c", "plain ASCII"),              # no-break space
    ("\u017fkip", "plain ASCII"),               # long s
])
def test_interpret_refusals(text, message):
    answer = interpret(text, MOVES, CS)
    assert answer.kind == "error" and message in answer.message


@pytest.mark.parametrize("text, command", [
    ("help", "help"), ("?", "help"), ("HINT", "hint"), ("undo", "undo"),
    ("quit", "quit"), ("exit", "quit"), ("board", "board"), ("detail", "detail"),
    ("moves", "moves")])
def test_interpret_commands(text, command):
    assert interpret(text, MOVES, CS).command == command


def test_a_card_is_named_by_a_word_of_its_name():
    # Giant Pacific Octopus: 'pacific' is in its name, not its id
    moves = ["house sea-giant-octopus", "house sea-otter"]
    assert interpret("house pacific", moves, CS).move == 0
    assert interpret("house otter", moves, CS).move == 1


def _position(**kwargs):
    return position(**kwargs).observation(0)


def test_a_refusal_says_why_the_move_is_not_legal():
    obs = _position(mission=["forest-k9"], seats=[dict(pool={"C": 15})])
    answer = interpret("recruit H", obs.legal_moves(), CS, obs)
    assert answer.kind == "error"
    assert answer.message == ("'recruit H' is not a legal move now: no free space for an H "
                              "token: your Conservation Center uses 5 of 5 spaces")


def test_a_near_miss_gets_a_did_you_mean():
    obs = _position(faunas=("savannah", "forest"),
                    mission=["savannah-thomsons-gazelle", "savannah-plains-zebra"])
    moves = obs.legal_moves()
    number = moves.index("house savannah-thomsons-gazelle") + 1
    answer = interpret("hous gazele", moves, CS, obs)
    assert answer.kind == "error" and answer.message.endswith(
        f"did you mean {number}. house savannah-thomsons-gazelle?")
    # near a move that is not legal: the move, and why not
    answer = interpret("hous manate", moves, CS, obs)
    assert "did you mean 'house sea-manatee'? It is not legal now: West Indian Manatee " \
           "is not on the Mission board" in answer.message
    assert "did you mean 'hint'?" in interpret("hnit", moves, CS, obs).message


def test_apply_at_an_effect_used_by_choosing():
    """The effect prompt offers `apply`: for house_one it houses the one
    animal there is, and names the choices when there are more."""
    one = _position(phase="effect", turn=dict(effect_card="forest-pine-marten"),
                    mission=["forest-red-fox", "forest-k1"],
                    seats=[dict(released=["forest-pine-marten"])])
    moves = one.legal_moves()
    assert "apply" not in moves
    assert moves[interpret("apply", moves, CS, one).move] == "house forest-red-fox"
    two = _position(phase="effect", turn=dict(effect_card="forest-pine-marten"),
                    mission=["forest-red-fox", "forest-brown-bear"],
                    seats=[dict(released=["forest-pine-marten"])])
    answer = interpret("apply", two.legal_moves(), CS, two)
    assert answer.kind == "error" and "house forest-red-fox" in answer.message \
        and "house forest-brown-bear" in answer.message
    # an ordinary effect: apply is a move of its own
    plain = _position(phase="effect", turn=dict(effect_card="forest-red-fox"),
                      seats=[dict(released=["forest-red-fox"])])
    moves = plain.legal_moves()
    assert moves[interpret("apply", moves, CS, plain).move] == "apply"


def test_interpret_empty_and_exact_before_prefix():
    assert interpret("   ", MOVES).kind == "empty"
    moves = ["train", "train C F", "end"]
    assert interpret("train", moves).move == 0
    assert interpret("train c", moves).move == 1


# -- records -------------------------------------------------------------------------

def test_a_play_record_has_the_keys_of_a_match_record(tmp_path):
    meta = {"run": "x", "tournament": "t", "game": 0, "block": 0, "round": 0,
            "rotation": 0, "entrants": ["a", "b"]}
    bots = [make_bot("random", 1), make_bot("random", 2)]
    match = play_game(CS, 2, 3, bots, ["random", "random"], [1, 2], meta)
    record, state = gamefile.new_record(CS, ["human", "random"], [None, 5], 3,
                                        ["human", "random"])
    assert set(record) == set(match)
    assert record["deck"] == match["deck"] and record["faunas"] == match["faunas"]
    assert record["end"] == "unfinished" and gamefile.human_seats(record) == [0]
    assert state == gamefile.state_after(record, CS)


def test_save_load_and_replay_a_record(tmp_path):
    record, state = gamefile.new_record(CS, ["random", "human"], [1, None], 9,
                                        ["random", "human"])
    for _ in range(30):
        action = state.legal_actions()[0]
        record["moves"].append([state.current_player, state.move_name(action)])
        record["times"].append(0.0)
        state.apply(action)
    gamefile.finish_record(record, state)
    path = str(tmp_path / "g.jsonl")
    gamefile.save_game(path, [], 0, record)
    other = dict(record, game=2, end="normal")
    records = gamefile.save_game(path, gamefile.load_game(path)[0], 1, other)
    assert len(records) == 2
    loaded, index = gamefile.load_game(path)
    assert index == 0 and loaded[0] == json.loads(json.dumps(record))
    assert gamefile.load_game(path, 2)[1] == 1
    states = gamefile.replay_states(loaded[0], CS)
    assert len(states) == 31 and states[-1] == state
    with pytest.raises(gamefile.GameFileError, match="holds games 1 to 2"):
        gamefile.load_game(path, 3)


def test_a_broken_record_names_the_move():
    record, state = gamefile.new_record(CS, ["human", "random"], [None, 1], 4,
                                        ["human", "random"])
    record["moves"] = [[0, state.legal_moves()[0]], [0, "release nothing"]]
    with pytest.raises(gamefile.GameFileError, match="move 2"):
        gamefile.replay_states(record, CS)
    record["moves"] = [[1, state.legal_moves()[0]]]
    with pytest.raises(gamefile.GameFileError, match="by seat 1, but seat 0 was to play"):
        gamefile.replay_states(record, CS)


def test_another_card_set_is_refused():
    own = loads_card_set(dumps_card_set(CS).replace('name = "reconstructed-v1"',
                                                    'name = "mine"', 1))
    record, _ = gamefile.new_record(own, ["human", "random"], [None, 1], 4, ["h", "r"])
    with pytest.raises(gamefile.GameFileError, match="pass that card set with --cards"):
        gamefile.initial_state(record, CS)


# -- bot specs, colour, replay keys, hints --------------------------------------------

def test_opponent_specs_and_time():
    assert with_time("ismcts", 0.5) == "ismcts:turn_time=0.5"
    assert with_time("ismcts:c=1", 2) == "ismcts:c=1,turn_time=2"
    assert with_time("ismcts:iterations=100", 2) == "ismcts:iterations=100"
    assert with_time("ismcts:time=3", 2) == "ismcts:time=3"
    assert with_time("ismcts:turn_iterations=100", 2) == "ismcts:turn_iterations=100"
    assert with_time("greedy", 2) == "greedy"
    assert opponent_specs((), 3, 1.0) == ["ismcts:turn_time=1"] * 2
    assert opponent_specs((), 2, 1.0, "casual") == ["preset:casual"]
    assert opponent_specs(("greedy", "random"), 3, 1.0) == ["greedy", "random"]
    import click
    with pytest.raises(click.BadParameter, match="2 given for 3 opponents"):
        opponent_specs(("greedy", "random"), 4, 1.0)


class FakeTty(io.StringIO):
    def isatty(self):
        return True


def test_colour_detection():
    assert wants_colour(FakeTty(), {"TERM": "xterm"})
    assert not wants_colour(FakeTty(), {"TERM": "xterm", "NO_COLOR": "1"})
    assert wants_colour(FakeTty(), {"TERM": "xterm", "NO_COLOR": ""})
    assert not wants_colour(FakeTty(), {"TERM": "dumb"})
    assert not wants_colour(io.StringIO(), {"TERM": "xterm"})
    assert detect_style("always", io.StringIO(), {}).colour
    assert not detect_style("never", FakeTty(), {}).colour
    assert Style(False).clear_screen() == ""


@pytest.mark.parametrize("line, k, expected", [
    ("", 3, 4), ("n", 3, 4), ("p", 3, 2), ("g 7", 3, 7), ("7", 3, 7), ("s", 3, 0),
    ("e", 3, 10), ("q", 3, "quit"), ("n", 10, "at the end of the game (p: back, q: quit)"),
    ("p", 0, "at the start of the game (n: forward, q: quit)"),
    ("g 11", 3, "g N: N is a move number from 0 to 10"), ("?", 3, "help")])
def test_replay_keys(line, k, expected):
    assert parse_command(line, k, 10) == expected


def test_replay_screens_of_a_match_record():
    bots = [make_bot("greedy"), make_bot("random", 3)]
    record = play_game(CS, 2, 11, bots, ["greedy", "random"], [0, 3],
                       {"entrants": ["greedy", "random"]})
    replay = Replay(CS, record, "test")
    assert replay.last == len(record["moves"])
    first = replay.screen(0, PLAIN)
    assert f"move 0 of {replay.last}" in first and "next move (1)" in first
    end = replay.screen(replay.last, PLAIN)
    assert "FINAL SCORE" in end and "The game is over." in end
    seat, move = record["moves"][4]
    assert f"last move (5): seat {seat} ({record['entrants'][seat]}) played {move}" in \
        replay.screen(5, PLAIN)


def test_hint_text():
    state = _engine.State.new(CS, seed=3)
    legal = state.legal_actions()
    info = {"value": 0.61, "iterations": 500, "moves": [(legal[1], 300, 1, 0.61),
                                                       (legal[0], 200, 1, 0.5)],
            "principal_line": [legal[1], legal[0]]}
    text = hint_text(CS, legal, legal[1], info, "ismcts:iterations=500", 0.4)
    move = state.move_name(legal[1])
    assert text.startswith(f"hint: ismcts:iterations=500 would play 2. {move} "
                           "(estimated value 0.61")
    assert "60.0% of visits" in text


# -- a whole session in process (no terminal) -------------------------------------------

class FailingBot:
    def __init__(self, after):
        self.after, self.calls = after, 0

    def new_game(self, seat, n):
        pass

    def choose(self, obs):
        self.calls += 1
        if self.calls > self.after:
            raise self.error
        return obs.legal_actions()[0]

    def close(self):
        pass


@pytest.mark.parametrize("error, reason", [
    (BotFailure("crash", "it fell over"), "it fell over"),
    (ValueError("max() arg is an empty sequence"), "ValueError: max() arg is an empty sequence")])
def test_session_without_a_terminal_and_a_forfeit(tmp_path, error, reason):
    from coexist_ai.play.session import Console, PlaySession
    record, _ = gamefile.new_record(CS, ["human", "random"], [None, 1], 4, ["human", "bot"])
    out = io.StringIO()
    console = Console(Style(False), stdin=io.StringIO("1\n" * 500), stdout=out)
    path = str(tmp_path / "s.jsonl")
    session = PlaySession(CS, record, console, path, "random")
    session.bots[1] = FailingBot(after=6)
    session.bots[1].error = error
    assert session.run() == 0
    (saved,) = gamefile.load_game(path)[0]
    assert saved["end"] == "forfeit" and saved["forfeits"][0]["kind"] == "crash"
    assert saved["ranks"] == [1, 2]
    text = out.getvalue()
    assert saved["forfeits"][0]["reason"] == reason
    assert f"seat 1 (bot) forfeits: crash: {reason}" in text
    assert "forfeit: crash" in text and "You win!" in text
    assert "\x1b" not in text and "is thinking" not in text


# -- folding to the terminal's width ---------------------------------------------------

@pytest.mark.parametrize("width", [40, 60, 80])
@pytest.mark.parametrize("colour", [False, True])
def test_the_board_folds_to_the_width_losing_no_word(width, colour):
    text = render_position(midgame().observation(0), style=Style(colour))
    folded = fold(text, width)
    for line in folded.splitlines():
        words = line.split()
        assert visible_length(line) <= width or len(words) == 1, line
    assert folded.split() == text.split()
    # nothing to fold: nothing changes
    assert fold(text, 1000) == text


def test_a_folded_line_goes_on_further_in():
    line = "    Red Deer [forest-red-deer] cons 7 | on it C1 F1 | still needs C1 P1 H1"
    first, *rest = fold(line, 40).splitlines()
    assert first.startswith("    Red Deer") and rest
    assert all(r.startswith(" " * 8) and not r.startswith(" " * 9) for r in rest)
