"""RULES.md "A turn": start of turn, the choice of option, Mission A and B,
`pass`, the end of turn (discards down to capacity, refill, next seat), and
the two principles that shape the move list.
"""
import pytest

from coexist_ai.errors import IllegalMoveError
from positions import (board, card, discard_pile, mission, moves, play, pool,
                       position, random_positions, seat, supply)

FIVE = ["forest-hazel-dormouse", "forest-red-fox", "forest-pine-marten",
        "forest-wildcat", "forest-red-deer"]          # a full board


# ---- 1. Start of turn ---------------------------------------------------------

def test_start_recruit_effects_are_asked_in_release_order():
    # Salamander (C) and Cheetah (P), released Cheetah first.
    st = position(faunas=("forest", "savannah"), seats=[dict(
        released=["forest-fire-salamander", "savannah-cheetah"], order=["P", "C"])])
    assert st.phase == "start" and moves(st) == {"apply", "skip"}
    play(st, "apply")                      # the Cheetah's P
    assert pool(st) == {"C": 0, "F": 0, "P": 1, "H": 0}
    assert st.phase == "start"
    play(st, "skip")                       # the Salamander's C
    assert pool(st) == {"C": 0, "F": 0, "P": 1, "H": 0}
    assert st.phase == "choose"


def test_start_recruit_skip_then_apply():
    st = position(faunas=("forest", "savannah"), seats=[dict(
        released=["forest-fire-salamander", "savannah-cheetah"], order=["C", "P"])])
    play(st, "skip", "apply")
    assert pool(st) == {"C": 0, "F": 0, "P": 1, "H": 0} and st.phase == "choose"


def test_a_start_recruit_whose_colour_the_supply_lacks_is_not_asked_choice_3():
    st = position(faunas=("forest", "savannah"), seats=[
        dict(released=["forest-fire-salamander", "savannah-cheetah"], order=["P", "C"]),
        dict(pool={"P": 20})])
    assert st.phase == "start"
    play(st, "apply")                      # only the C is asked
    assert pool(st, 0)["C"] == 1 and st.phase == "choose"
    st = position(faunas=("forest", "savannah"), seats=[
        dict(released=["savannah-cheetah"]), dict(pool={"P": 20})])
    assert st.phase == "choose"            # nothing to ask at all


def test_start_recruit_may_exceed_capacity_then_actions_wait_choice_9():
    st = position(seats=[dict(board=FIVE[:4], pool={"F": 3},
                              released=["forest-fire-salamander"])],
                  mission=["forest-k1", "forest-k4", "forest-brown-bear"])
    play(st, "apply")                      # 4 animals + F + C = 6 spaces of 5
    assert st.spaces_used(0) == 6 and st.capacity(0) == 5
    # no recruit, no house, no Training trade fits; the Center is open
    assert moves(st) == {"center"}
    play(st, "center", "end")
    assert st.phase == "discard"


# ---- 2. Choose one option -------------------------------------------------------

MISSION = ["forest-k1", "air-k4", "forest-red-fox", "forest-k7", "air-hoopoe"]


def test_the_first_turn_offers_only_mission():
    st = position(faunas=("forest", "air"), mission=MISSION,
                  seats=[dict(turns=0, pool={"C": 2})])
    assert moves(st) == {"recruit C", "recruit F", "recruit P",
                         "house forest-red-fox", "house air-hoopoe"}


def test_center_and_training_open_from_the_second_turn():
    st = position(faunas=("forest", "air"), mission=MISSION,
                  seats=[dict(turns=1, pool={"C": 2})])
    assert moves(st) == {"center", "train", "recruit C", "recruit F", "recruit P",
                         "house forest-red-fox", "house air-hoopoe"}


def test_mission_a_takes_the_earliest_revealed_card_of_the_colour():
    st = position(faunas=("forest", "air"),
                  mission=["air-k1", "forest-red-fox", "forest-k1", "forest-k4", "air-k2"])
    play(st, "recruit C")
    assert mission(st) == ["forest-red-fox", "forest-k1", "forest-k4", "air-k2"]
    assert "air-k1" in discard_pile(st)
    assert pool(st) == {"C": 1, "F": 0, "P": 0, "H": 0}
    assert supply(st)["C"] == 27
    assert st.phase == "recruit"
    assert moves(st) == {"end", "recruit C", "recruit F"}   # no house now
    play(st, "recruit C", "recruit C", "recruit F")
    assert mission(st) == ["forest-red-fox"]
    assert moves(st) == {"end"}
    play(st, "end")
    assert pool(st, 0) == {"C": 3, "F": 1, "P": 0, "H": 0}
    assert st.current_player == 1


def test_mission_a_is_chosen_by_its_first_recruit_and_never_empty():
    st = position(faunas=("forest", "air"), mission=MISSION)
    assert "end" not in moves(st)


def test_mission_a_needs_the_colour_in_the_supply():
    st = position(faunas=("forest", "air"), mission=MISSION,
                  seats=[dict(), dict(pool={"F": 24})])
    assert "recruit F" not in moves(st) and "recruit C" in moves(st)


def test_mission_a_needs_room_for_the_token():
    # four animals + C 2: one space left within the C space, none for F
    st = position(faunas=("forest", "air"), mission=["forest-k1", "forest-k2", "air-k4"],
                  seats=[dict(board=FIVE[:4], pool={"C": 2})])
    assert moves(st) == {"center", "train", "recruit C"}   # train C F fits too
    play(st, "recruit C")                  # the C space now holds 3
    assert moves(st) == {"end"}


def test_mission_b_houses_within_the_capture_limit():
    # track 2: limit 9. Bear 7, Marten 2, Fox 2, Hoopoe 1, Condor 7.
    st = position(faunas=("forest", "air"), seats=[dict(track=2, turns=0)],
                  mission=["forest-brown-bear", "forest-pine-marten", "forest-red-fox",
                           "air-hoopoe", "air-andean-condor"])
    play(st, "house forest-brown-bear")
    assert st.phase == "house"
    assert moves(st) == {"end", "house forest-pine-marten", "house forest-red-fox",
                         "house air-hoopoe"}
    play(st, "house forest-pine-marten")     # 7 + 2 = 9 = the limit
    assert moves(st) == {"end"}
    play(st, "end")
    assert list(board(st, 0)) == ["forest-brown-bear", "forest-pine-marten"]


def test_mission_b_ignores_animals_already_on_the_board():
    st = position(faunas=("forest", "air"),
                  seats=[dict(board=["forest-grey-wolf", "forest-wild-boar"])],
                  mission=["forest-brown-bear", "air-andean-condor", "forest-k1"])
    assert {"house forest-brown-bear", "house air-andean-condor"} <= moves(st)
    play(st, "house forest-brown-bear")
    assert moves(st) == {"end"}                 # 7 housed: the Condor's 7 is too much


def test_mission_b_needs_a_free_space():
    st = position(faunas=("forest", "air"), seats=[dict(board=FIVE)],
                  mission=["air-hoopoe", "forest-k1"])
    assert moves(st) == {"center"}


def test_an_illegal_move_is_refused_and_leaves_the_state_unchanged():
    st = position(faunas=("forest", "air"), seats=[dict(board=FIVE)],
                  mission=["air-hoopoe", "forest-k1"])
    before = st.copy()
    with pytest.raises(IllegalMoveError):
        st.push("house air-hoopoe")
    assert st == before


# ---- pass ----------------------------------------------------------------------

def test_pass_only_when_nothing_else_is_legal_and_it_ends_the_turn_choice_6():
    st = position(faunas=("forest", "air"), seats=[dict(board=FIVE, turns=0)],
                  mission=["air-k4", "air-hoopoe"], draw=["air-k1", "air-k2"])
    assert st.legal_moves() == ["pass"]
    play(st, "pass")
    assert st.current_player == 1 and seat(st, 0)["turns"] == 1
    # refilled: the two cards given first, then the rest in card order
    assert mission(st) == ["air-k4", "air-hoopoe", "air-k1", "air-k2",
                           "forest-fire-salamander"]


def test_from_the_second_turn_center_end_replaces_pass():
    st = position(faunas=("forest", "air"), seats=[dict(board=FIVE)],
                  mission=["air-k4", "air-hoopoe"])
    assert moves(st) == {"center"}
    play(st, "center")
    assert "end" in moves(st)
    play(st, "end")
    assert st.current_player == 1


# ---- 3. End of turn -------------------------------------------------------------

def test_end_of_turn_discards_offer_every_colour_and_animal_until_within_capacity():
    # four animals + C 2 + F 1 = 6 spaces of 5
    animals = [("forest-red-fox", {"C": 1, "S": 1}), "forest-hazel-dormouse",
               "forest-pine-marten", "forest-wildcat"]
    st = position(seats=[dict(board=animals, pool={"C": 2, "F": 1}, track=3)])
    play(st, "center", "end")
    offered = {"discard C", "discard F", "discard forest-red-fox",
               "discard forest-hazel-dormouse", "discard forest-pine-marten",
               "discard forest-wildcat"}
    assert st.phase == "discard" and moves(st) == offered
    play(st, "discard C")                 # C 1 still takes its space
    assert st.phase == "discard" and moves(st) == offered
    play(st, "discard C")
    assert st.current_player == 1          # within capacity: the turn is over
    assert pool(st, 0) == {"C": 0, "F": 1, "P": 0, "H": 0}
    assert supply(st)["C"] == 28 - 1


def test_a_discarded_animal_returns_all_its_tokens_and_takes_no_survival():
    animals = [("forest-red-fox", {"C": 1, "S": 1}), "forest-hazel-dormouse",
               "forest-pine-marten", "forest-wildcat"]
    st = position(seats=[dict(board=animals, pool={"C": 2, "F": 1}, track=3)])
    play(st, "center", "end", "discard forest-red-fox")
    assert st.current_player == 1          # one discard was enough
    assert list(board(st, 0)) == ["forest-hazel-dormouse", "forest-pine-marten",
                                  "forest-wildcat"]
    assert "forest-red-fox" in discard_pile(st)
    assert seat(st, 0)["track"] == 3
    assert supply(st) == {"C": 28 - 2, "F": 24 - 1, "P": 20, "H": 20, "S": 32 - 3}


def test_a_forced_single_discard_is_still_asked():
    st = position(seats=[dict(board=[], pool={"C": 16})])
    play(st, "center", "end")
    assert st.legal_moves() == ["discard C"]
    play(st, "discard C")
    assert st.current_player == 1 and pool(st, 0)["C"] == 15


def test_end_of_turn_refills_the_mission_board_in_draw_order():
    st = position(faunas=("forest", "air"),
                  mission=["air-k1", "forest-red-fox", "forest-k1", "air-k4", "air-k7"],
                  draw=["air-hoopoe", "forest-k9", "air-k10"])
    size = st.draw_pile_size()
    play(st, "recruit C", "recruit C", "end")
    assert mission(st) == ["forest-red-fox", "air-k4", "air-k7", "air-hoopoe", "forest-k9"]
    assert st.draw_pile_size() == size - 2
    assert st.referee_draw_pile()[0] == card("air-k10").index


def test_effects_leave_gaps_until_the_end_of_turn():
    st = position(faunas=("forest", "air"),
                  seats=[dict(board=[("air-flying-fox", {"C": 2, "F": 1, "S": 1})])],
                  mission=["forest-k1", "forest-k7", "air-hoopoe"],
                  draw=["air-k9", "air-k10"])
    play(st, "center", "release air-flying-fox", "recruit C", "recruit P", "end")
    assert mission(st) == ["air-hoopoe"]
    play(st, "end")
    assert mission(st)[:3] == ["air-hoopoe", "air-k9", "air-k10"]


def test_the_next_seat_wraps_around():
    st = position(players=3, current=2, first=1)
    play(st, "center", "end")
    assert st.current_player == 0 and st.rounds == 0
    play(st, "center", "end")
    assert st.current_player == 1 and st.rounds == 1


# ---- the move-list principles ----------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_decision_offers_two_moves_with_the_same_effect(players):
    seen = 0
    for seed in range(16):
        for st in random_positions(players, 1000 * players + seed, eager=seed % 4 / 4):
            actions = st.legal_actions()
            names = st.legal_moves()
            assert len(set(names)) == len(names) == len(actions) >= 1
            results = set()
            for a in actions:
                after = st.copy()
                after.apply(a)
                results.add(after.referee_bytes())
            assert len(results) == len(actions), names
            seen += 1
    assert seen > 1000


def test_no_decision_asks_only_skip_and_every_move_gains_something():
    asked = 0
    for seed in range(40):
        for st in random_positions(2 + seed % 3, seed, eager=seed % 2 * 0.8):
            names = moves(st)
            assert names != {"skip"}
            gains = [m.split() for m in names
                     if m.startswith("recruit") or (m.startswith("train ") )]
            if gains:
                sup = st._referee_raw()["supply"]
                for w in gains:
                    assert sup["CFPHS".index(w[-1])] > 0, (w, sup)
                    asked += 1
    assert asked > 1000
