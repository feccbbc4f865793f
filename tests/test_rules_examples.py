"""The rulebook's "Example Turns" (Alix) played move by move through push().

Alix plays the air fauna at seat 0 against a savannah seat that only passes
through the Conservation Center. Default-set cards standing in for the
rulebook's: the Indian Flying Fox (recruit_mission, needs C 2, F 1 and an S)
is her "fox", the Plains Zebra (protects for F 2, S 2) her zebra, the African
Lion (capture 6) the second animal housed with the zebra (3 + 6 = 9).
"""
from positions import board, mission, moves, play, pool, position, seat, supply

FOX, ZEBRA, LION = "air-flying-fox", "savannah-plains-zebra", "savannah-african-lion"


def opponent_turn(st):
    assert st.current_player == 1
    play(st, "center", "end")
    assert st.current_player == 0


def test_the_rulebooks_example_turns():
    st = position(
        faunas=("air", "savannah"),
        seats=[dict(board=[FOX], turns=2), dict(turns=2)],
        mission=["air-k1", ZEBRA, "savannah-k1", "savannah-k4", "savannah-meerkat"],
        draw=[LION, "air-k7", "air-andean-condor", "air-k9",
              "savannah-african-elephant", "air-k2", "savannah-k7"])

    # 1. Mission A, with the fox already on her board from a previous turn.
    assert moves(st) == {"center", "recruit C", "recruit F",
                         f"house {ZEBRA}", "house savannah-meerkat"}
    play(st, "recruit C", "recruit C", "recruit F")
    assert moves(st) == {"end"}
    play(st, "end")
    assert pool(st, 0) == {"C": 2, "F": 1, "P": 0, "H": 0}
    assert mission(st) == [ZEBRA, "savannah-meerkat", LION, "air-k7", "air-andean-condor"]
    opponent_turn(st)

    # 2. Mission B: two animals, capture 3 + 6 = 9 within her limit of 10.
    assert st.capture_limit(0) == 10
    play(st, f"house {ZEBRA}")
    assert moves(st) == {"end", "house savannah-meerkat", f"house {LION}",
                         "house air-andean-condor"}        # 7 more would still fit
    play(st, f"house {LION}")
    assert moves(st) == {"end"}                 # capture 9, and no space left
    assert st.spaces_used(0) == 5
    play(st, "end")
    assert list(board(st, 0)) == [FOX, ZEBRA, LION]
    assert mission(st) == ["savannah-meerkat", "air-k7", "air-andean-condor",
                           "air-k9", "savannah-african-elephant"]
    opponent_turn(st)

    # 3. Conservation Center: protect the zebra, gaining its white F 2 and S 2.
    play(st, "center", f"protect {ZEBRA}")
    assert pool(st, 0) == {"C": 2, "F": 3, "P": 0, "H": 0}
    assert seat(st, 0)["track"] == 2 and st.capture_limit(0) == 9
    assert seat(st, 0)["protected"] == [ZEBRA]

    # 3b. Assign caretakers to the fox and complete it with an S of the track.
    play(st, f"assign C {FOX}", f"assign C {FOX}", f"assign F {FOX}")
    assert f"release {FOX}" not in moves(st)
    play(st, f"assign S {FOX}")
    assert seat(st, 0)["track"] == 1
    assert board(st, 0)[FOX] == {"C": 2, "F": 1, "S": 1}

    # 3c. Release it; its effect takes the P and H cards of the Mission board.
    play(st, f"release {FOX}")
    assert seat(st, 0)["released"] == [FOX]
    assert st.phase == "effect"
    assert moves(st) == {"skip", "recruit P", "recruit H"}
    play(st, "recruit P")
    assert moves(st) == {"end", "recruit H"}
    play(st, "recruit H")
    assert moves(st) == {"end"}
    play(st, "end")
    assert pool(st, 0) == {"C": 0, "F": 2, "P": 1, "H": 1}
    assert mission(st) == ["savannah-meerkat", "air-andean-condor",
                           "savannah-african-elephant"]

    # She assigns them to her last animal: not enough to release it.
    play(st, f"assign P {LION}", f"assign H {LION}")
    assert board(st, 0) == {LION: {"P": 1, "H": 1}}
    assert not any(m.startswith("release") for m in moves(st))
    play(st, "end")

    # Her turn is over and she refills the Mission board.
    assert st.current_player == 1
    assert mission(st) == ["savannah-meerkat", "air-andean-condor",
                           "savannah-african-elephant", "air-k2", "savannah-k7"]
    assert pool(st, 0) == {"C": 0, "F": 2, "P": 0, "H": 0}
    assert seat(st, 0)["track"] == 1
    assert supply(st) == {"C": 28, "F": 22, "P": 19, "H": 19, "S": 31}
    assert st.check_invariants() == 0
