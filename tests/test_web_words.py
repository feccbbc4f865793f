"""What the web page says in words, in process: the board view (from an
Observation only), effects, moves, why a move is refused, the final table
and its tie-breaks."""
import pytest

from coexist_ai import State
from coexist_ai.cards import default_card_set
from coexist_ai.vocabulary import EffectKind
from coexist_ai.web import words
from coexist_ai.web.story import final_view
from coexist_ai.web.view import board_view, move_view

CS = default_card_set()


def finished_with_a_tie(same_tracks):
    """A finished random 2-player game whose seats tie on points, with equal
    or different Survival tokens on their tracks."""
    for seed in range(2000):
        st = State.new(CS, players=2, seed=seed)
        st.playout_random(seed)
        a, b = st.seats
        if a.score.total == b.score.total and (a.track == b.track) == same_tracks:
            return st
    raise AssertionError("no such game in 2,000 deals")


def test_the_board_view_needs_an_observation():
    st = State.new(CS, players=2, seed=1)
    with pytest.raises(TypeError, match="Observation"):
        board_view(st)
    view = board_view(st.observation(0))
    assert view["draw_pile"] == st.draw_pile_size() and "deck" not in str(view)
    assert [c["id"] for c in view["mission"]] == [c.id for c in st.mission]
    seat = view["seats"][0]
    assert seat["capacity"] == 5 and seat["capture_limit"] == 10
    assert seat["points_visible"] == 10 and len(seat["track_spaces"]) == 8


def test_every_effect_kind_has_words():
    kinds = {card.effect.kind: card.effect for card in CS.animals() if card.effect}
    assert set(kinds) == {k.value for k in EffectKind if k is not EffectKind.NONE}
    sentences = {kind: words.describe_effect(effect) for kind, effect in kinds.items()}
    assert all(sentences.values()) and len(set(sentences.values())) == len(sentences)


def test_every_legal_move_of_a_game_has_words():
    st = State.new(CS, players=3, seed=2)
    seen = set()
    while not st.is_over():
        for move in st.legal_moves():
            view = move_view(CS, move)
            assert view["text"] and view["text"] != move, move
            seen.add(view["word"])
        st.apply(st.legal_actions()[len(seen) % len(st.legal_actions())])
    assert {"house", "recruit", "assign", "end", "center"} <= seen


def test_why_a_first_turn_and_a_capture_limit_refuse():
    st = State.new(CS, players=2, seed=4)
    obs = st.observation(0)
    assert "first turn" in words.why_illegal(obs, "center")
    assert words.why_illegal(obs, st.legal_moves()[0]) == ""
    animals = sorted((c for c in st.mission if c.is_animal), key=lambda c: c.capture)
    st.push(f"house {animals[-1].id}")
    rest = [c for c in st.mission if c.is_animal]
    too_much = [c for c in rest if animals[-1].capture + c.capture > 10]
    for card in too_much:
        assert "capture limit 10" in words.why_illegal(st.observation(0), f"house {card.id}")
    assert "unknown word" in words.why_illegal(obs, "hous x")
    near = words.why_illegal(obs, f"hous {animals[0].id[:-1]}")
    assert f"did you mean 'house {animals[0].id}'" in near, near


def test_a_refusal_on_another_seats_turn_says_whose_turn():
    st = State.new(CS, players=2, seed=4)
    move = st.legal_moves()[0]
    assert "seat 0 is to play" in words.why_illegal(st.observation(1), move, seat=1)


@pytest.mark.parametrize("same_tracks", [False, True])
def test_the_final_table_explains_a_tie(same_tracks):
    st = finished_with_a_tie(same_tracks)
    obs = st.observation(0)
    record = {"ranks": st.ranks(), "end": "normal", "forfeits": []}
    final = final_view(obs, ["you", "greedy"], 0, record)
    total = st.seats[0].score.total
    (note,) = final["notes"]
    assert note.startswith(f"{total}-{total}") and "seat 0 (you)" in note, note
    assert "seat 1 (greedy)" in note, note
    if same_tracks:
        assert "share 1st place" in note and final["verdict"] == "A shared first place!"
    else:
        tracks = [s.track for s in st.seats]
        assert f"broken by Survival tokens: {tracks[0]} against {tracks[1]}" in note, note
        winner = 0 if tracks[0] < tracks[1] else 1
        assert final["rows"][0]["seat"] == winner
        assert final["verdict"] == ("You win!" if winner == 0 else "You finish 2nd of 2.")


def test_a_forfeit_leaves_no_tie_to_explain():
    st = finished_with_a_tie(same_tracks=True)
    record = {"ranks": [2, 1], "end": "forfeit",
              "forfeits": [{"seat": 0, "kind": "timeout", "reason": "too slow"}]}
    final = final_view(st.observation(0), ["you", "greedy"], 0, record)
    assert final["notes"] == ["seat 0 (you) forfeited (timeout): too slow"]
    assert final["verdict"] == "You finish 2nd of 2."
