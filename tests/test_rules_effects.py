"""RULES.md "Effects": each of the 11 effect kinds, when it is asked, what it
does, and engine choice 4 (docs/rules.md): that an effect changing nothing is not asked.
"""
from positions import (board, mission, moves, play, pool, position, seat,
                       supply, variant_card_set)

FOUR = ["forest-hazel-dormouse", "forest-red-fox", "forest-wildcat", "forest-red-deer"]


def released(animal, on, faunas=("forest", "air"), **seat0):
    """Seat 0 in the Center has just released `animal` (carrying `on`)."""
    st = position(faunas=faunas, **_split(seat0, animal, on))
    play(st, "center", f"release {animal}")
    return st


def _split(seat0, animal, on):
    others = {k: seat0.pop(k) for k in ("mission", "draw", "rest", "card_set")
              if k in seat0}
    seat1 = seat0.pop("seat1", {})
    seat0["board"] = [(animal, on)] + list(seat0.get("board", ()))
    return dict(others, seats=[seat0, seat1])


# ---- start_recruit (permanent, start of turn) -----------------------------

def test_start_recruit_is_not_asked_at_release_but_at_each_turn_start():
    st = released("forest-fire-salamander", {"C": 2})
    assert st.phase == "center"
    play(st, "end", "center", "end")            # seat 1's turn
    assert st.current_player == 0 and st.phase == "start"
    assert moves(st) == {"apply", "skip"}
    play(st, "apply")
    assert pool(st, 0)["C"] == 1 and st.phase == "choose"


# ---- capture_bonus (permanent, Mission) -----------------------------------

def test_capture_bonus_raises_the_limit_at_once_and_in_mission_b():
    st = released("savannah-thomsons-gazelle", {"C": 1, "F": 2},
                  faunas=("savannah", "air"))
    assert st.phase == "center" and st.capture_limit(0) == 12
    st = position(faunas=("savannah", "air"),
                  seats=[dict(released=["savannah-thomsons-gazelle"])],
                  mission=["savannah-african-elephant", "savannah-cheetah"])
    play(st, "house savannah-african-elephant")        # 7 of 12
    assert moves(st) == {"end", "house savannah-cheetah"}  # 7 + 4 = 11


# ---- discard_survival (immediate) ----------------------------------------------

OWL = ("air-barn-owl", {"C": 1, "F": 1, "P": 1})       # discard_survival 2


def test_discard_survival_removes_up_to_its_amount_from_the_right():
    st = released(*OWL, track=3)
    assert st.phase == "effect" and moves(st) == {"apply", "skip"}
    play(st, "apply")
    assert seat(st, 0)["track"] == 1 and supply(st)["S"] == 31
    assert st.phase == "center"
    st = released(*OWL, track=1)
    play(st, "apply")
    assert seat(st, 0)["track"] == 0


def test_discard_survival_skipped_changes_nothing():
    st = released(*OWL, track=3)
    play(st, "skip")
    assert seat(st, 0)["track"] == 3 and st.phase == "center"


def test_discard_survival_with_an_empty_track_is_not_asked():
    st = released(*OWL, track=0)
    assert st.phase == "center" and seat(st, 0)["released"] == ["air-barn-owl"]


# ---- recruit_two (immediate) -------------------------------------------------

def test_recruit_two_gains_two_and_may_exceed_capacity():
    st = released("air-hoopoe", {"C": 2}, board=FOUR, pool={"F": 3})
    play(st, "apply")                            # 4 animals + F + C = 6 of 5
    assert pool(st, 0) == {"C": 2, "F": 3, "P": 0, "H": 0}
    assert st.spaces_used(0) == 6 and st.phase == "center"
    # the tip of the rulebook: the new caretakers can go straight to an animal
    assert "assign C forest-hazel-dormouse" in moves(st)


def test_recruit_two_gains_only_what_the_supply_has():
    # Red Fox: recruit_two F; seat 1 holds 23 F, the fox's F comes back
    st = released("forest-red-fox", {"C": 1, "F": 1, "S": 1}, seat1=dict(pool={"F": 23}))
    assert supply(st)["F"] == 1
    play(st, "apply")
    assert pool(st, 0)["F"] == 1 and supply(st)["F"] == 0


def test_recruit_two_with_an_empty_supply_is_not_asked():
    cs = variant_card_set(effects={"air-common-swift": {"kind": "recruit_two", "colour": "H"}})
    st = released("air-common-swift", {"C": 1, "F": 1}, card_set=cs,
                  seat1=dict(pool={"H": 20}))
    assert st.phase == "center"


# ---- house_one (immediate) -------------------------------------------------------

MARTEN = ("forest-pine-marten", {"C": 2, "P": 1})     # house_one


def test_house_one_houses_any_mission_animal_ignoring_capture_and_capacity():
    # track 8: capture limit 6; board full after the release (4 + C 3)
    st = released(*MARTEN, track=8, board=FOUR, pool={"C": 3},
                  mission=["forest-brown-bear", "air-k1", "air-hoopoe"])
    assert st.phase == "effect"
    assert moves(st) == {"skip", "house forest-brown-bear", "house air-hoopoe"}
    play(st, "house forest-brown-bear")          # capture 7 > 6, sixth space
    assert st.phase == "center" and "forest-brown-bear" in board(st, 0)
    assert mission(st) == ["air-k1", "air-hoopoe"]
    assert st.spaces_used(0) == 6


def test_an_animal_housed_by_house_one_may_be_protected_at_once_choice_16():
    st = released(*MARTEN, mission=["air-hoopoe"])
    play(st, "house air-hoopoe")
    assert "protect air-hoopoe" in moves(st)
    play(st, "protect air-hoopoe")
    assert seat(st, 0)["protected"] == ["air-hoopoe"] and pool(st, 0)["C"] == 1


def test_house_one_skip_and_no_animal_on_the_mission_board():
    st = released(*MARTEN, mission=["air-hoopoe"])
    play(st, "skip")
    assert st.phase == "center" and mission(st) == ["air-hoopoe"]
    st = released(*MARTEN, mission=["air-k1", "forest-k2"])
    assert st.phase == "center"                  # not asked


# ---- recruit_mission (immediate) ---------------------------------------------

FLYING_FOX = ("air-flying-fox", {"C": 2, "F": 1, "S": 1})   # recruit_mission


def test_recruit_mission_recruits_any_number_then_ends():
    st = released(*FLYING_FOX, board=FOUR, pool={"P": 3},
                  mission=["air-k1", "air-hoopoe",
                           "forest-k1", "air-k7", "forest-k9"])
    assert moves(st) == {"skip", "recruit C", "recruit P", "recruit H"}
    play(st, "recruit C")                        # the earliest C: air-k1
    assert mission(st) == ["air-hoopoe", "forest-k1", "air-k7", "forest-k9"]
    assert moves(st) == {"end", "recruit C", "recruit P", "recruit H"}
    play(st, "recruit C", "recruit P", "recruit H")   # ignores capacity
    assert moves(st) == {"end"}
    play(st, "end")
    assert st.phase == "center"
    assert pool(st, 0) == {"C": 2, "F": 0, "P": 4, "H": 1}
    assert st.spaces_used(0) == 4 + 1 + 2 + 1 and mission(st) == ["air-hoopoe"]


def test_recruit_mission_skip():
    st = released(*FLYING_FOX, mission=["air-k1"])
    play(st, "skip")
    assert st.phase == "center" and mission(st) == ["air-k1"]
    assert pool(st, 0)["C"] == 0


def test_recruit_mission_without_a_recruitable_card_is_not_asked():
    st = released(*FLYING_FOX, mission=["air-hoopoe", "forest-red-deer"])
    assert st.phase == "center"
    # a caretaker card whose colour the supply lacks is no option either
    st = released(*FLYING_FOX, mission=["forest-k9"], seat1=dict(pool={"H": 20}))
    assert st.phase == "center"
    st = released(*FLYING_FOX, mission=["forest-k9", "forest-k7"],
                  seat1=dict(pool={"H": 20}))
    assert moves(st) == {"skip", "recruit P"}


# ---- discard_survival_recruit (immediate) --------------------------------------

WARTHOG = ("savannah-warthog", {"C": 1, "S": 1})   # discard_survival_recruit F


def test_discard_survival_recruit_removes_one_survival_then_gains_one():
    st = released(*WARTHOG, faunas=("savannah", "air"), track=3)
    assert moves(st) == {"apply", "skip"}
    play(st, "apply")
    assert seat(st, 0)["track"] == 2 and pool(st, 0)["F"] == 1
    assert supply(st)["S"] == 30 and supply(st)["F"] == 23


def test_discard_survival_recruit_with_an_empty_track_still_recruits():
    st = released(*WARTHOG, faunas=("savannah", "air"), track=0)
    play(st, "apply")
    assert seat(st, 0)["track"] == 0 and pool(st, 0)["F"] == 1


def test_discard_survival_recruit_with_an_empty_supply_still_discards():
    st = released(*WARTHOG, faunas=("savannah", "air"), track=2,
                  seat1=dict(pool={"F": 24}))
    play(st, "apply")
    assert seat(st, 0)["track"] == 1 and pool(st, 0)["F"] == 0


def test_discard_survival_recruit_changing_nothing_is_not_asked():
    st = released(*WARTHOG, faunas=("savannah", "air"), track=0,
                  seat1=dict(pool={"F": 24}))
    assert st.phase == "center"


# ---- extra_space (permanent) ------------------------------------------------------

def test_extra_space_adds_a_space_at_once():
    wolf = ("forest-grey-wolf", {"C": 1, "F": 2, "P": 1, "H": 2})
    st = released(*wolf)
    assert st.phase == "center" and st.capacity(0) == 6


# ---- double_protect (permanent, Center) -------------------------------------------

def test_double_protect_doubles_its_colour_but_never_survival():
    # Peregrine Falcon: double_protect P. Golden Eagle protects for P H S 2.
    st = position(faunas=("forest", "air"),
                  seats=[dict(released=["air-peregrine-falcon"],
                              board=["air-golden-eagle", "forest-red-deer"])])
    play(st, "center", "protect air-golden-eagle")
    assert pool(st, 0) == {"C": 0, "F": 0, "P": 2, "H": 1}
    assert seat(st, 0)["track"] == 2
    play(st, "protect forest-red-deer")          # F 1, P 1, S 1
    assert pool(st, 0) == {"C": 0, "F": 1, "P": 4, "H": 1}
    assert seat(st, 0)["track"] == 3


def test_double_protect_doubles_again_per_copy():
    cs = variant_card_set(effects={"sea-harbour-seal":
                                   {"kind": "double_protect", "colour": "P"}})
    st = position(card_set=cs, faunas=("sea", "air"),
                  seats=[dict(released=["air-peregrine-falcon", "sea-harbour-seal"],
                              board=["air-golden-eagle"])])
    play(st, "center", "protect air-golden-eagle")
    assert pool(st, 0) == {"C": 0, "F": 0, "P": 4, "H": 1}
    assert seat(st, 0)["track"] == 2


def test_double_protect_gains_only_what_the_supply_has():
    st = position(faunas=("forest", "air"),
                  seats=[dict(released=["air-peregrine-falcon"], board=["air-golden-eagle"]),
                         dict(pool={"P": 19})])
    play(st, "center", "protect air-golden-eagle")
    assert pool(st, 0)["P"] == 1 and supply(st)["P"] == 0


# ---- skip_survival (permanent, Center) ----------------------------------------------

def test_skip_survival_takes_one_fewer_survival_per_copy_never_below_zero():
    # White Stork (air) and Spotted Hyena (savannah): skip_survival each.
    lion = "savannah-african-lion"               # protects for P 2, H 1, S 2
    one = position(faunas=("air", "savannah"),
                   seats=[dict(released=["air-white-stork"], board=[lion])])
    play(one, "center", f"protect {lion}")
    assert seat(one, 0)["track"] == 1
    two = position(faunas=("air", "savannah"),
                   seats=[dict(released=["air-white-stork", "savannah-spotted-hyena"],
                               board=[lion, "savannah-aardvark"])])
    play(two, "center", f"protect {lion}", "protect savannah-aardvark")
    assert seat(two, 0)["track"] == 0            # S 2 - 2, then S 1 - 2 -> 0
    assert pool(two, 0) == {"C": 1, "F": 0, "P": 3, "H": 1}
    assert supply(two)["S"] == 32


def test_skip_survival_counts_before_the_eighth_space_cut():
    lion = "savannah-african-lion"
    st = position(faunas=("air", "savannah"),
                  seats=[dict(released=["air-white-stork"], board=[lion], track=7)])
    play(st, "center", f"protect {lion}")        # S 2 - 1 = 1, which fits
    assert seat(st, 0)["track"] == 8


# ---- train_one_to_one (permanent, Training) -----------------------------------------

def test_train_one_to_one_applies_from_the_release_without_a_decision():
    octopus = ("sea-giant-octopus", {"C": 1, "F": 1, "P": 1})   # F -> P at 1:1
    st = released(*octopus, faunas=("sea", "air"), pool={"F": 1})
    assert st.phase == "center"
    play(st, "end", "center", "end")
    assert "train" in moves(st)
    play(st, "train")
    assert moves(st) == {"train F P", "train F C"}
    play(st, "train F P")
    assert pool(st, 0) == {"C": 0, "F": 0, "P": 1, "H": 0}
