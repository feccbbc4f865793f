"""RULES.md "End of the game": the two triggers, the end of the round, the
60-round safeguard, scoring (each specialty) and ranking, and the rulebook's
end-of-game example as an exact test.
"""
from positions import card, mission, play, position, seat

BOAR = ("forest-wild-boar", {"C": 1, "F": 1, "P": 1, "H": 1, "S": 1})   # no effect
FOUR_RELEASED = ["forest-hazel-dormouse", "forest-red-fox", "forest-pine-marten",
                 "forest-wildcat"]


def quiet(st, n=1):
    """Play n turns of `center`, `end`."""
    for _ in range(n):
        play(st, "center", "end")
    return st


# ---- the fifth release ----------------------------------------------------

def test_the_fifth_release_triggers_the_end_after_the_round():
    st = position(players=3, seats=[dict(board=[BOAR], released=FOUR_RELEASED)])
    play(st, "center", f"release {BOAR[0]}")
    assert st.end_triggered and not st.is_over()
    play(st, "end")
    quiet(st)                                   # seat 1
    assert st.current_player == 2 and not st.is_over()
    quiet(st)                                   # seat 2, before the first player
    assert st.is_over() and st.phase == "over"
    assert st.rounds == 1 and st.legal_actions() == []
    assert [seat(st, p)["turns"] for p in range(3)] == [2, 2, 2]


def test_a_fourth_release_does_not_trigger_the_end():
    st = position(seats=[dict(board=[BOAR], released=FOUR_RELEASED[:3])])
    play(st, "center", f"release {BOAR[0]}", "end")
    assert not st.end_triggered
    quiet(st)
    assert not st.is_over() and st.current_player == 0


def test_the_round_ends_with_the_seat_before_the_first_player():
    # first player 2 of 3: the round ends after seat 1
    st = position(players=3, first=2, current=0,
                  seats=[dict(board=[BOAR], released=FOUR_RELEASED)])
    play(st, "center", f"release {BOAR[0]}", "end")
    assert st.current_player == 1 and not st.is_over()
    quiet(st)
    assert st.is_over() and st.current_player == 1


def test_the_last_seat_triggering_the_end_ends_the_game_at_once():
    st = position(current=1, seats=[dict(), dict(board=[BOAR], released=FOUR_RELEASED)])
    play(st, "center", f"release {BOAR[0]}", "end")
    assert st.is_over()


# ---- the last card of the draw pile --------------------------------------------

def test_revealing_the_last_card_triggers_the_end():
    st = position(faunas=("forest", "air"),
                  mission=["forest-k1", "forest-k2", "air-k1", "air-hoopoe", "air-k4"],
                  draw=["air-k2", "air-k3"], rest="discard")
    play(st, "recruit C", "end")               # refill: one of the two
    assert not st.end_triggered and st.draw_pile_size() == 1
    play(st, "recruit C", "end")               # seat 1 reveals the last card
    assert st.end_triggered and st.draw_pile_size() == 0
    assert st.is_over()                         # seat 1 closed the round


def test_after_the_last_card_the_round_is_completed():
    st = position(players=3, faunas=("forest", "air", "sea"),
                  mission=["forest-k1", "forest-k2", "air-k1", "air-hoopoe", "air-k4"],
                  draw=["sea-k1"], rest="discard")
    play(st, "recruit C", "end")
    assert st.end_triggered and mission(st)[-1] == "sea-k1"
    quiet(st)
    assert not st.is_over()
    quiet(st)
    assert st.is_over() and st.rounds == 1


# ---- the safeguard -------------------------------------------------------------

def test_the_game_ends_after_sixty_complete_rounds_choice_11():
    st = position(rounds=59, current=1)
    quiet(st)
    assert st.is_over() and st.rounds == 60 and not st.end_triggered
    st = position(rounds=58, current=1)
    quiet(st)
    assert not st.is_over() and st.rounds == 59


# ---- scoring ---------------------------------------------------------------------

def breakdown(st, p):
    b = st.score_breakdown()[p]
    return b.conservation, b.reputation, b.specialty, b.total


def test_score_is_conservation_plus_reputation_plus_specialty():
    st = position(faunas=("sea", "air"),
                  seats=[dict(released=["sea-humpback-whale", "sea-clownfish"], track=3),
                         dict(board=["air-golden-eagle"])])
    assert breakdown(st, 0) == (9 + 3, 3, 8, 12 + 3 + 8)
    assert st.scores()[0] == 23


def test_forest_counts_forest_animals_released_by_anyone():
    st = position(faunas=("forest", "air"), seats=[
        dict(released=["forest-red-fox", "air-hoopoe"], protected=["forest-red-deer"]),
        dict(released=["forest-wildcat", "forest-hazel-dormouse", "air-barn-owl"],
             board=["forest-brown-bear"])])
    assert breakdown(st, 0)[2] == 3


def test_air_counts_air_animals_protected_by_anyone_choice_12():
    st = position(faunas=("air", "forest"), seats=[
        dict(protected=["air-hoopoe", "forest-red-fox"], released=["air-barn-owl"]),
        dict(protected=["air-golden-eagle", "air-common-swift", "forest-wildcat"])])
    assert breakdown(st, 0)[2] == 3
    assert sorted(seat(st, 1)["protected"]) == ["air-common-swift", "air-golden-eagle",
                                                "forest-wildcat"]


def test_sea_counts_the_highest_conservation_left_on_any_board():
    st = position(faunas=("sea", "savannah"), seats=[
        dict(board=["sea-clownfish"], released=["sea-humpback-whale"]),
        dict(board=["savannah-african-lion", "savannah-meerkat"],
             protected=["savannah-african-elephant"])])
    assert breakdown(st, 0)[2] == 8
    st = position(faunas=("sea", "savannah"), seats=[dict(board=["sea-clownfish"])])
    assert breakdown(st, 0)[2] == 3              # its own board counts
    st = position(faunas=("sea", "savannah"))
    assert breakdown(st, 0)[2] == 0


def test_savannah_counts_the_most_survival_tokens_on_any_track():
    st = position(players=3, faunas=("savannah", "sea", "air"),
                  seats=[dict(track=2), dict(track=5), dict(track=1)])
    assert breakdown(st, 0)[2] == 5
    st = position(faunas=("savannah", "sea"), seats=[dict(track=4), dict(track=1)])
    assert breakdown(st, 0)[2] == 4


# ---- ranking -------------------------------------------------------------------------

def test_ranking_more_points_then_fewer_survival_then_shared():
    st = position(players=4, faunas=("sea", "air", "savannah", "forest"), seats=[
        dict(track=0),                          # 0 + 10 + 0 = 10
        dict(track=0),                          # 10: shares with seat 0
        dict(track=2, released=["savannah-aardvark"]),  # 4 + 6 + 2 = 12
        dict(track=1, released=["forest-red-fox", "forest-hazel-dormouse"]),
    ])                                          # 5 + 6 + 2 = 13
    scores = st.scores()
    assert scores == [10, 10, 12, 13]
    assert st.ranks() == [3, 3, 2, 1]


def test_a_tie_on_points_goes_to_fewer_survival_tokens():
    st = position(players=3, faunas=("forest", "air", "sea"), seats=[
        dict(track=1),                          # 6 points, 1 S
        dict(track=2),                          # 6 points, 2 S
        dict(track=1)])                         # 6 points, 1 S
    assert st.scores() == [6, 6, 6]
    assert st.ranks() == [1, 3, 1]


# ---- the rulebook's end-of-game example -----------------------------------------------

def test_the_rulebooks_end_of_game_example():
    galaad, alexandre, isaac, alix = range(4)
    st = position(
        players=4, faunas=("sea", "forest", "savannah", "air"), phase="over",
        rounds=12, end_triggered=True,
        seats=[
            # Galaad: 3 + 9 + 7 = 19; 3 S (reputation 3)
            dict(released=["forest-red-fox", "sea-humpback-whale", "sea-manatee"],
                 protected=["air-kingfisher"], board=["sea-clownfish"], track=3),
            # Alexandre: 8 + 7 + 4 + 2 = 21, all forest; 2 S (reputation 6)
            dict(released=["forest-grey-wolf", "forest-red-deer",
                           "forest-eurasian-badger", "forest-hazel-dormouse"],
                 track=2),
            # Isaac: 1 + 7 + 7 = 15; no S; the conservation-8 lion stays
            dict(released=["forest-fire-salamander", "savannah-reticulated-giraffe",
                           "savannah-cheetah"],
                 protected=["air-white-stork"],
                 board=[("savannah-african-lion", {"P": 2}), "savannah-meerkat"]),
            # Alix: 9 + 7 + 4 + 2 = 22; 6 S (reputation 1)
            dict(released=["air-andean-condor", "air-peregrine-falcon",
                           "air-barn-owl", "air-common-swift"],
                 protected=["air-golden-eagle", "air-hoopoe", "sea-green-turtle"],
                 board=["savannah-warthog"], track=6),
        ])
    assert st.is_over()
    b = st.score_breakdown()
    assert [(x.conservation, x.reputation, x.specialty, x.total) for x in b] == [
        (19, 3, 8, 30),        # Galaad: the lion on Isaac's board
        (21, 6, 6, 33),        # Alexandre: 6 forest animals released in all
        (15, 10, 6, 31),       # Isaac: Alix's 6 Survival tokens
        (22, 1, 4, 27),        # Alix: 4 air animals protected (the rulebook's 25 is a misprint)
    ]
    assert st.scores() == [30, 33, 31, 27]
    assert st.ranks() == [3, 1, 2, 4]
    order = sorted(range(4), key=lambda p: st.ranks()[p])
    assert order == [alexandre, isaac, galaad, alix]
    # the example's counts, read back from the position
    forest_released = [c for p in range(4) for c in seat(st, p)["released"]
                       if card(c).fauna == "forest"]
    air_protected = [c for p in range(4) for c in seat(st, p)["protected"]
                     if card(c).fauna == "air"]
    assert len(forest_released) == 6 and len(air_protected) == 4
    assert seat(st, alix)["track"] == 6


# ---- what each player knows ------------------------------------------------------

def test_only_the_order_of_the_draw_pile_is_hidden():
    a = position(draw=["air-k1", "air-k2"])
    b = position(draw=["air-k2", "air-k1"])
    assert a.referee_draw_pile() != b.referee_draw_pile()
    for p in range(2):
        seen_a, seen_b = a.observation(p).to_json(), b.observation(p).to_json()
        assert seen_a == seen_b and "draw_pile_order" not in seen_a
    assert a.public_hash() == b.public_hash()
    assert a.draw_pile_contents() == b.draw_pile_contents()
    assert len(a.draw_pile_contents()) == a.draw_pile_size() == 40
