"""RULES.md "A turn", the Conservation Center actions (protect, assign, move,
unassign, release) and Training, on constructed positions.
"""
from coexist_ai.cards import card_set_from_data
from positions import CS, board, moves, play, pool, position, seat, supply

FOX = "forest-red-fox"            # needs C 1, F 1, S 1
MARTEN = "forest-pine-marten"     # needs C 2, P 1; protects for C 1, F 1, S 1
DORMOUSE = "forest-hazel-dormouse"  # needs C 1, F 1; protects for C 1
BADGER = "forest-eurasian-badger"   # needs C 2, F 1, P 1
WOLF = "forest-grey-wolf"


def center(**kwargs):
    """A position with the Conservation Center chosen."""
    return play(position(**kwargs), "center")


# ---- protect ----------------------------------------------------------------

def test_protect_is_offered_only_for_animals_carrying_no_token():
    st = center(seats=[dict(board=[(FOX, {"C": 1}), MARTEN, (DORMOUSE, {"S": 0})])])
    assert {m for m in moves(st) if m.startswith("protect")} == {
        f"protect {MARTEN}", f"protect {DORMOUSE}"}
    st = center(seats=[dict(board=[(FOX, {"S": 1})], track=1)])
    assert f"protect {FOX}" not in moves(st)


def test_protect_gains_the_white_tokens_of_the_card():
    st = center(seats=[dict(board=[MARTEN], pool={"C": 1}, track=1)])
    play(st, f"protect {MARTEN}")
    assert pool(st, 0) == {"C": 2, "F": 1, "P": 0, "H": 0}
    assert seat(st, 0)["track"] == 2
    assert seat(st, 0)["protected"] == [MARTEN] and board(st, 0) == {}
    assert supply(st) == {"C": 26, "F": 23, "P": 20, "H": 20, "S": 30}
    assert st.phase == "center"


def test_protect_gains_may_exceed_capacity_and_the_end_forces_discards():
    st = center(seats=[dict(board=[MARTEN, FOX, DORMOUSE, BADGER, WOLF])])
    play(st, f"protect {MARTEN}")           # 4 animals + C + F = 6 of 5
    assert st.spaces_used(0) == 6
    play(st, "end")
    assert st.phase == "discard"


# ---- assign -----------------------------------------------------------------

def test_assign_goes_only_to_animals_still_needing_the_colour():
    st = center(seats=[dict(board=[(FOX, {"C": 1}), MARTEN, WOLF],
                             pool={"C": 1, "F": 2, "H": 1})])
    assigns = {m for m in moves(st) if m.startswith("assign")}
    assert assigns == {f"assign C {MARTEN}", f"assign C {WOLF}",
                       f"assign F {FOX}", f"assign F {WOLF}", f"assign H {WOLF}"}
    play(st, f"assign C {MARTEN}")
    assert pool(st, 0)["C"] == 0 and board(st, 0)[MARTEN] == {"C": 1}
    assert not any(m.startswith("assign C") for m in moves(st))


def test_assign_s_takes_the_rightmost_survival_token_of_the_track():
    st = center(seats=[dict(board=[FOX, MARTEN], track=3)])
    assigns = {m for m in moves(st) if m.startswith("assign")}
    assert assigns == {f"assign S {FOX}"}      # the Marten needs no S
    play(st, f"assign S {FOX}")
    assert seat(st, 0)["track"] == 2 and board(st, 0)[FOX] == {"S": 1}
    assert supply(st)["S"] == 32 - 3            # the token moved, it was not spent
    assert not any(m.startswith("assign") for m in moves(st))


def test_assign_s_needs_a_token_on_the_track():
    st = center(seats=[dict(board=[FOX], track=0)])
    assert moves(st) == {"end", f"protect {FOX}"}


def test_assign_is_legal_while_over_capacity():
    st = center(seats=[dict(board=[MARTEN, FOX, DORMOUSE, BADGER],
                             pool={"C": 4})])   # 4 + 2 = 6 spaces of 5
    assert st.spaces_used(0) == 6
    assert f"assign C {MARTEN}" in moves(st)
    play(st, f"assign C {MARTEN}")            # C 3: back within capacity
    assert st.spaces_used(0) == 5


# ---- move and unassign: the anti-cycle rule --------------------------------

def test_move_and_unassign_use_tokens_there_at_the_start_of_the_turn():
    # Badger holds C 2 since the turn began; Marten and Dormouse need C.
    st = center(seats=[dict(board=[(BADGER, {"C": 2}), MARTEN, DORMOUSE])])
    assert moves(st) == {"end", f"protect {MARTEN}", f"protect {DORMOUSE}",
                         f"move C {BADGER} {MARTEN}", f"move C {BADGER} {DORMOUSE}",
                         f"unassign C {BADGER}"}
    play(st, f"move C {BADGER} {MARTEN}")
    # one C left movable on the Badger; the Marten's C arrived this turn
    assert moves(st) == {"end", f"protect {DORMOUSE}",
                         f"move C {BADGER} {MARTEN}", f"move C {BADGER} {DORMOUSE}",
                         f"unassign C {BADGER}"}
    play(st, f"unassign C {BADGER}")
    assert board(st, 0) == {BADGER: {}, MARTEN: {"C": 1}, DORMOUSE: {}}
    assert pool(st, 0)["C"] == 1
    # no token left to move: the Marten's C and the pool's C may be assigned
    # (assign C to the Badger puts a token there that is not movable)
    assert moves(st) == {"end", f"protect {BADGER}", f"protect {DORMOUSE}",
                         f"assign C {BADGER}", f"assign C {MARTEN}",
                         f"assign C {DORMOUSE}"}
    play(st, f"assign C {BADGER}")
    assert not any(m.split()[0] in ("move", "unassign") for m in moves(st))


def test_anti_cycle_counts_are_per_animal_and_colour():
    st = center(seats=[dict(board=[(BADGER, {"C": 1, "F": 1}), (MARTEN, {"C": 1}),
                                    (DORMOUSE, {})])])
    play(st, f"move C {BADGER} {DORMOUSE}")
    mv = {m for m in moves(st) if m.split()[0] in ("move", "unassign")}
    # the Badger's F and the Marten's C are still movable; the Badger's C is done
    assert mv == {f"move F {BADGER} {DORMOUSE}", f"unassign F {BADGER}",
                  f"move C {MARTEN} {BADGER}", f"unassign C {MARTEN}"}


def test_movable_counts_given_mid_turn_are_honoured():
    st = position(phase="center", seats=[dict(
        board=[(BADGER, {"C": 2}, {"C": 1}), MARTEN])])
    play(st, f"move C {BADGER} {MARTEN}")
    assert not any(m.split()[0] in ("move", "unassign") for m in moves(st))


def test_a_moved_token_may_be_matched_by_one_moving_back_choice_17():
    # Tokens of a colour are identical: the Marten held a C since the start
    # of the turn, so after Badger -> Marten one C may go Marten -> Badger.
    st = center(seats=[dict(board=[(BADGER, {"C": 2}), (MARTEN, {"C": 1})])])
    play(st, f"move C {BADGER} {MARTEN}")
    assert f"move C {MARTEN} {BADGER}" in moves(st)
    play(st, f"move C {MARTEN} {BADGER}")
    assert board(st, 0) == {BADGER: {"C": 2}, MARTEN: {"C": 1}}
    # both counts are spent now: the Badger has one movable C left, the Marten none
    assert {m for m in moves(st) if m.split()[0] in ("move", "unassign")} == {
        f"move C {BADGER} {MARTEN}", f"unassign C {BADGER}"}


def test_survival_tokens_are_never_moved_or_unassigned():
    st = center(seats=[dict(board=[(FOX, {"S": 1}), ("air-flying-fox", {})])],
                faunas=("forest", "air"))
    assert moves(st) == {"end", "protect air-flying-fox"}


def test_unassign_needs_room_in_the_pool():
    four = [(BADGER, {"C": 2}), MARTEN, DORMOUSE, WOLF]
    st = center(seats=[dict(board=four, pool={"C": 3})])    # 4 + 1 = 5: full
    assert f"unassign C {BADGER}" not in moves(st)
    assert f"move C {BADGER} {MARTEN}" in moves(st)           # moving uses no space
    st = center(seats=[dict(board=four, pool={"C": 2})])
    assert f"unassign C {BADGER}" in moves(st)
    play(st, f"unassign C {BADGER}")
    assert f"unassign C {BADGER}" not in moves(st)            # the C space is full


# ---- release ----------------------------------------------------------------

def test_release_needs_everything_and_returns_every_token():
    full = {"C": 1, "F": 1, "S": 1}
    st = center(seats=[dict(board=[(FOX, full), (MARTEN, {"C": 2})], track=2)])
    assert {m for m in moves(st) if m.startswith("release")} == {f"release {FOX}"}
    play(st, f"release {FOX}")
    assert seat(st, 0)["released"] == [FOX] and FOX not in board(st, 0)
    assert supply(st) == {"C": 26, "F": 24, "P": 20, "H": 20, "S": 30}
    assert st.phase == "effect"                 # recruit_two F is asked at once
    play(st, "apply")
    assert pool(st, 0)["F"] == 2 and st.phase == "center"


def test_an_animal_needing_nothing_is_releasable_and_protectable_choice_10():
    free = {"id": "forest-free", "name": "Free", "fauna": "forest", "capture": 1,
            "conservation": 1, "needs": {}, "protect": {"C": 1}}
    data = {"name": "free", "caretaker": [c.to_data() for c in CS.caretakers()],
            "animal": [free] + [{k: v for k, v in c.to_data().items() if v is not None}
                                for c in CS.animals()]}
    cs = card_set_from_data(data)
    st = center(card_set=cs, seats=[dict(board=["forest-free"])])
    assert moves(st) == {"end", "protect forest-free", "release forest-free"}


# ---- Training ---------------------------------------------------------------

def training(**kwargs):
    st = position(**kwargs)
    assert "train" in moves(st)
    return play(st, "train")


def test_training_up_is_two_for_one_to_the_next_tier_and_down_one_for_one():
    st = training(seats=[dict(pool={"C": 2, "F": 1, "P": 1, "H": 1})])
    assert moves(st) == {"train C F", "train F C", "train P F", "train P C",
                         "train H P", "train H F", "train H C"}
    play(st, "train C F")
    assert pool(st, 0) == {"C": 0, "F": 2, "P": 1, "H": 1}
    assert supply(st)["C"] == 28 and supply(st)["F"] == 24 - 2


def test_training_down_reaches_any_lower_tier():
    st = training(seats=[dict(pool={"H": 1})])
    assert moves(st) == {"train H P", "train H F", "train H C"}
    play(st, "train H C")
    assert pool(st, 0) == {"C": 1, "F": 0, "P": 0, "H": 0}


def test_training_up_never_skips_a_tier_and_needs_two():
    st = position(seats=[dict(pool={"C": 1, "F": 1})])
    play(st, "train")
    assert moves(st) == {"train F C"}           # no C F (one C), no C P


def test_train_one_to_one_replaces_the_two_for_one_rate_of_its_pair():
    # the Badger: C -> F at 1 for 1
    st = training(seats=[dict(pool={"C": 2}, released=[BADGER])])
    assert moves(st) == {"train C F"}
    play(st, "train C F")
    assert pool(st, 0) == {"C": 1, "F": 1, "P": 0, "H": 0}   # cost 1 C, not 2
    play(st, "train C F")
    assert pool(st, 0) == {"C": 0, "F": 2, "P": 0, "H": 0}
    # F -> P keeps its 2-for-1 rate
    assert moves(st) == {"end", "train F P"}


def test_train_one_to_one_makes_a_single_token_tradeable():
    st = position(seats=[dict(pool={"C": 1}, released=[BADGER])])
    assert "train" in moves(st)
    st = position(seats=[dict(pool={"C": 1})])
    assert "train" not in moves(st)


def test_training_never_crosses_a_tier_boundary_both_ways():
    st = training(seats=[dict(pool={"C": 4, "F": 1, "P": 2, "H": 1})])
    play(st, "train C F")                        # up across C|F
    assert moves(st) == {"end", "train C F", "train F P", "train P H",
                         "train P F", "train H P", "train H F"}  # nothing down to C
    play(st, "train H P")                        # down across P|H
    assert moves(st) == {"end", "train C F", "train F P", "train P F"}
    play(st, "train P F")                        # down across F|P
    # P F again crosses F|P downwards only: still allowed
    assert moves(st) == {"end", "train C F", "train P F"}


def test_training_down_then_up_is_forbidden_across_the_same_boundary():
    st = training(seats=[dict(pool={"H": 1, "P": 2})])
    play(st, "train H C")                  # down across C|F, F|P and P|H
    assert pool(st, 0) == {"C": 1, "F": 0, "P": 2, "H": 0}
    assert moves(st) == {"end", "train P F", "train P C"}   # no P H up


def test_training_checks_capacity_after_each_trade():
    # three animals + C 3 + F 3 = 5 spaces: every trade would open a space
    three = [MARTEN, FOX, DORMOUSE]
    st = position(seats=[dict(board=three, pool={"C": 3, "F": 3})])
    assert "train" not in moves(st)
    # with F 2: C F (C 1, F 3) and F P (F 1, P 1) fit; F C would make C 4
    st = training(seats=[dict(board=three, pool={"C": 3, "F": 2})])
    assert moves(st) == {"train C F", "train F P"}
    play(st, "train C F")
    assert pool(st, 0) == {"C": 1, "F": 3, "P": 0, "H": 0} and st.spaces_used(0) == 5
    assert moves(st) == {"end"}             # F P now needs a sixth space


def test_over_capacity_a_trade_must_end_within_capacity_choice_14():
    four = [MARTEN, FOX, DORMOUSE, BADGER]
    # 4 + C + F + P = 7 of 5: F -> C or P -> F frees a space, still 6: refused
    st = position(seats=[dict(board=four, pool={"C": 1, "F": 1, "P": 1})])
    assert moves(st) == {"center"}
    # 4 + C + F = 6 of 5: F -> C brings it to 5
    st = training(seats=[dict(board=four, pool={"C": 1, "F": 1})])
    assert moves(st) == {"train F C"}


def test_training_is_not_offered_without_a_legal_trade():
    st = position(seats=[dict(pool={})])
    assert moves(st) == {"center"}
    st = position(seats=[dict(pool={"C": 1})])
    assert moves(st) == {"center"}


def test_training_end_comes_only_after_a_trade():
    st = training(seats=[dict(pool={"F": 1})])
    assert moves(st) == {"train F C"}
    play(st, "train F C")
    assert moves(st) == {"end"}             # a single legal move is still asked
    play(st, "end")
    assert st.current_player == 1


def test_a_trade_gaining_nothing_is_not_offered():
    st = training(seats=[dict(pool={"H": 1}), dict(pool={"F": 24})])
    assert moves(st) == {"train H P", "train H C"}   # the supply has no F
