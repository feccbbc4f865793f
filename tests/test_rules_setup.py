"""RULES.md: "Components and vocabulary", "Setup", "The Conservation Center:
spaces" (the formula and capacity) and "The Reputation track".

Every position is constructed with tests/positions.py and loaded through the
public JSON loader; the asserted numbers are worked out by hand from RULES.md.
"""
import random

import pytest

from coexist_ai._engine import State
from coexist_ai.cards import loads_card_set
from positions import (CS, START_SUPPLY, card, doc, mission, moves, play, pool,
                       position, seat, supply, variant_card_set)

FAUNAS = ("forest", "air", "sea", "savannah")


def token_totals(st):
    """Every token kind counted wherever it is: supply, pools, animals, tracks."""
    d = doc(st)
    total = dict(d["supply"])
    for s in d["seats"]:
        for c, n in s["pool"].items():
            total[c] += n
        total["S"] += s["track"]
        for sl in s["board"]:
            for c, n in sl["on"].items():
                total[c] += n
    return total


# ---- Components and vocabulary --------------------------------------------

def test_supply_starts_with_the_published_token_counts():
    st = State.new(players=4, seed=7)
    assert supply(st) == {"C": 28, "F": 24, "P": 20, "H": 20, "S": 32}


def test_a_gain_beyond_the_supply_gains_only_what_is_left():
    # Plains Zebra protects for F 2 and S 2; seat 1 holds 23 of the 24 F.
    st = position(seats=[dict(board=["savannah-plains-zebra"]),
                         dict(pool={"F": 23})],
                  faunas=("forest", "savannah"))
    assert supply(st)["F"] == 1
    play(st, "center", "protect savannah-plains-zebra")
    assert pool(st, 0)["F"] == 1          # one of the two F: all that was left
    assert supply(st)["F"] == 0
    assert seat(st, 0)["track"] == 2      # the S supply was not short


def test_an_empty_survival_supply_gives_no_survival_token():
    # 8 + 8 + 8 on three tracks, 7 on seat 0's, 1 on its Fox: all 32 S
    st = position(players=4, seats=[
        dict(track=7, board=[("forest-red-fox", {"S": 1}), "forest-pine-marten"]),
        dict(track=8), dict(track=8), dict(track=8)])
    assert supply(st)["S"] == 0
    play(st, "center", "protect forest-pine-marten")      # C 1, F 1, S 1
    assert seat(st, 0)["track"] == 7
    assert pool(st, 0) == {"C": 1, "F": 1, "P": 0, "H": 0}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_token_totals_never_change_over_random_games(players):
    for seed in range(4):
        st = State.new(players=players, seed=100 * players + seed)
        rng = random.Random(seed)
        while not st.is_over():
            st.apply(rng.choice(st.legal_actions()))
            assert st.check_invariants() == 0
        assert token_totals(st) == START_SUPPLY


# ---- Setup ------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_draw_pile_holds_the_decks_of_the_chosen_faunas_only(players):
    faunas = FAUNAS[4 - players:]          # not always the first ones
    st = State.new(players=players, faunas=faunas, seed=players)
    dealt = [CS.cards[i].id for i in st.draw_pile_contents()]
    assert len(dealt) + 5 == 20 * players  # 40 / 60 / 80 cards in all
    in_game = sorted(dealt + mission(st))
    assert in_game == sorted(c.id for c in CS.cards if c.fauna in faunas)


def test_five_cards_are_dealt_face_up_in_draw_order():
    deck = [c.id for c in CS.cards if c.fauna in ("sea", "air")][::-1]
    st = State.new(players=2, faunas=("sea", "air"), deck=deck)
    assert mission(st) == deck[:5]
    assert [CS.cards[i].id for i in st.referee_draw_pile()] == deck[5:]


def test_seats_get_distinct_faunas_drawn_from_the_seed():
    for seed in range(10):
        st = State.new(players=4, seed=seed)
        faunas = [seat(st, p)["fauna"] for p in range(4)]
        assert sorted(faunas) == sorted(FAUNAS)


def test_boards_start_empty_and_seat_zero_opens():
    st = State.new(players=3, seed=11)
    assert st.current_player == 0 and st.first_player == 0
    assert st.phase == "choose" and st.rounds == 0 and not st.end_triggered
    for p in range(3):
        s = seat(st, p)
        assert s["pool"] == {"C": 0, "F": 0, "P": 0, "H": 0}
        assert (s["board"], s["track"], s["released"], s["protected"], s["turns"]) \
            == ([], 0, [], [], 0)


def test_a_set_first_player_opens_then_seats_follow_in_order_wrapping():
    st = State.new(players=3, first_player=2, seed=5)
    order, rounds = [], []
    for _ in range(7):
        order.append(st.current_player)
        rounds.append(st.rounds)
        st.push(st.legal_moves()[0])          # a first recruit (or house)
        while st.current_player == order[-1]:
            st.push("end" if "end" in st.legal_moves() else st.legal_moves()[0])
    assert order == [2, 0, 1, 2, 0, 1, 2]
    assert rounds == [0, 0, 0, 1, 1, 1, 2]


def test_the_opening_deal_never_triggers_the_end_choice_1():
    # A two-fauna set of five cards: the opening deal reveals the last card.
    tiny = loads_card_set("\n".join([
        'name = "tiny"',
        *[f'[[animal]]\nid = "{f}-a{i}"\nname = "A"\nfauna = "{f}"\ncapture = 1\n'
          f'conservation = 1\nneeds = {{ C = 1 }}\nprotect = {{}}'
          for f, i in (("forest", 1), ("forest", 2), ("air", 1))],
        '[[caretaker]]\nid = "forest-k1"\nfauna = "forest"\ncolour = "C"',
        '[[caretaker]]\nid = "air-k1"\nfauna = "air"\ncolour = "F"']))
    st = State.new(tiny, players=2, faunas=("forest", "air"), seed=1)
    assert st.draw_pile_size() == 0 and len(mission(st)) == 5
    assert not st.end_triggered


# ---- The Conservation Center: spaces ----------------------------------------

@pytest.mark.parametrize("pool_, animals, expected", [
    ({}, 0, 0),
    ({"C": 1}, 0, 1),
    ({"C": 3}, 0, 1),
    ({"C": 4}, 0, 2),
    ({"C": 1, "F": 3, "P": 4, "H": 6}, 0, 1 + 1 + 2 + 2),
    ({"C": 2, "H": 7}, 2, 1 + 3 + 2),
])
def test_spaces_used_is_animals_plus_ceil_of_each_pool_colour_over_three(
        pool_, animals, expected):
    ids = ["forest-hazel-dormouse", "forest-red-fox"][:animals]
    st = position(seats=[dict(pool=pool_, board=ids)])
    assert st.spaces_used(0) == expected


def test_tokens_on_an_animal_use_no_space():
    st = position(seats=[dict(board=[("forest-brown-bear",
                                      {"C": 2, "F": 1, "P": 2, "H": 2})])])
    assert st.spaces_used(0) == 1


def test_capacity_is_five_plus_one_per_extra_space_effect_owned():
    st = position(faunas=("forest", "sea"),
                  seats=[dict(), dict(released=["forest-grey-wolf"])])
    assert st.capacity(0) == 5 and st.capacity(1) == 6
    st = position(faunas=("forest", "sea"),
                  seats=[dict(released=["forest-grey-wolf", "sea-manatee"])])
    assert st.capacity(0) == 7


def test_the_extra_space_is_usable_for_recruiting():
    five = ["forest-hazel-dormouse", "forest-red-fox", "forest-pine-marten",
            "forest-wildcat", "forest-red-deer"]
    full = dict(board=five, pool={})
    st = position(faunas=("forest", "sea"), seats=[full], mission=["sea-k1"])
    assert "recruit C" not in moves(st)
    st = position(faunas=("forest", "sea"), mission=["sea-k1"],
                  seats=[dict(full, released=["sea-manatee"])])
    assert "recruit C" in moves(st)


# ---- The Reputation track -----------------------------------------------------

@pytest.mark.parametrize("track, points", [
    (0, 10), (1, 6), (2, 6), (3, 3), (4, 3), (5, 1), (6, 1), (7, 0), (8, 0)])
def test_reputation_points_are_the_printed_points_left_uncovered(track, points):
    st = position(seats=[dict(track=track)])
    assert st.score_breakdown()[0].reputation == points


@pytest.mark.parametrize("track, limit", [
    (0, 10), (1, 10), (2, 9), (3, 9), (4, 8), (5, 8), (6, 7), (7, 7), (8, 6)])
def test_capture_limit_is_ten_minus_half_the_track(track, limit):
    st = position(seats=[dict(track=track)])
    assert st.capture_limit(0) == limit


def test_capture_bonus_effects_add_to_the_capture_limit():
    st = position(faunas=("forest", "sea"),
                  seats=[dict(track=2, released=["forest-red-deer", "sea-green-turtle"])])
    assert st.capture_limit(0) == 10 - 1 + 2 + 3


def test_capture_limit_is_never_below_zero_choice_7():
    low = variant_card_set(rules={"capture_limit": 2})
    st = position(card_set=low, seats=[dict(track=8)])
    assert st.capture_limit(0) == 0
    st = position(card_set=low, seats=[dict(track=3)])
    assert st.capture_limit(0) == 1


def test_a_full_track_forbids_protecting_even_an_animal_bringing_no_survival():
    dormouse = "forest-hazel-dormouse"         # protects for C 1 only
    assert card(dormouse).protect == (1, 0, 0, 0, 0)
    st = position(seats=[dict(track=8, board=[dormouse])])
    play(st, "center")
    assert moves(st) == {"end"}
    st = position(seats=[dict(track=7, board=[dormouse])])
    play(st, "center")
    assert moves(st) == {"end", f"protect {dormouse}"}


def test_survival_tokens_past_the_eighth_space_are_not_taken():
    bear = "forest-brown-bear"                  # protects for F P H and S 2
    st = position(seats=[dict(track=7, board=[bear])])
    play(st, "center", f"protect {bear}")
    assert seat(st, 0)["track"] == 8
    assert supply(st)["S"] == 32 - 8           # one S taken, one left in the supply
    assert pool(st, 0) == {"C": 0, "F": 1, "P": 1, "H": 1}
