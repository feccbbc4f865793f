"""The C engine against the pure-Python reference implementation.

`coexist_ai.reference` is written from RULES.md and docs/rules.md alone and
shares no code with csrc/. Both engines are dealt the same game and fed the
same seeded moves; at every decision they must list the same legal actions,
be in the same phase with the same seat to move, and end with the same
scores and places. Every STRIDE-th game also compares the whole public
position (supply, Mission board, boards with their anti-cycle counts,
tracks, released and protected cards, draw pile) and the notation of every
move after each action. The games are uniform random, biased toward the
Conservation Center (releases, effects, training, discards), and played on
card-set variants that make each effect kind and each rule number frequent.
Set COEXIST_REFERENCE_GAMES to play more games per group.
"""
import json
import os
import random

import pytest

from coexist_ai._engine import State
from coexist_ai.bench import random_deals
from coexist_ai.cards import EFFECT_KINDS, FAUNAS
from coexist_ai.errors import IllegalMoveError, SetupError
from coexist_ai.reference import (CHANCE_PLAYER, REVEAL, ReferenceState,
                                  reveal_action)
from coexist_ai.reference.actions import (
    APPLY, ASSIGN, CENTER, DISCARD_ANIMAL, DISCARD_TOKEN, END, HOUSE, MOVE,
    PASS, PROTECT, RECRUIT, RELEASE, S, SKIP, TRAIN, TRAIN_START, UNASSIGN)
from coexist_ai.reference.scoring import breakdown
from positions import CS, variant_card_set

GAMES = int(os.environ.get("COEXIST_REFERENCE_GAMES", "250"))
STRIDE = 25                 # every STRIDE-th game compares whole positions
MAX_ACTIONS = 20_000
COLOURS = "CFPHS"

# The engine does not yet list legal actions in ascending order (issue 11).
# When it does, set this to True: the lists themselves are then compared.
ENGINE_LISTS_ASCENDING = True


def engine_legal(engine):
    listed = engine.legal_actions()
    return listed if ENGINE_LISTS_ASCENDING else sorted(listed)


# ---- dealing and choosing -----------------------------------------------------

def deal(card_set, seed, players):
    """(players, faunas, first player, deck) drawn from the seed."""
    faunas, first, deck = random_deals(card_set, players, 1, seed)[0]
    return players, faunas, first, deck


def both(card_set, seed, players, stack=None):
    """The engine and the reference dealt the same game; stack(deck), if
    given, names cards to move to the front of the deck."""
    players, faunas, first, deck = deal(card_set, seed, players)
    if stack is not None:
        front = stack(deck)
        deck = front + [card for card in deck if card not in front]
    return (State.new(card_set, players, faunas, first, deck=deck),
            ReferenceState.new(card_set, players, faunas, first, deck))


# Weights by action kind: the Center-biased player mostly releases, assigns
# and applies when it can, so games go deep into effects, full boards and
# end-of-turn discards.
UNIFORM = None
CENTER_BIASED = {
    RELEASE: 400, ASSIGN: 60, APPLY: 40, CENTER: 20, TRAIN: 12, PROTECT: 10,
    MOVE: 6, TRAIN_START: 6, HOUSE: 6, RECRUIT: 4, UNASSIGN: 3,
    END: 1, SKIP: 1, DISCARD_TOKEN: 1, DISCARD_ANIMAL: 1, PASS: 1}


def chooser(seed, weights):
    rng = random.Random(seed)

    def choose(legal):
        if weights is None:
            return rng.choice(legal)
        return rng.choices(legal, [weights[a >> 22] for a in legal])[0]
    return choose


# ---- comparing ----------------------------------------------------------------

def engine_view(engine):
    """What the comparison reads of an engine position (its JSON)."""
    doc = json.loads(engine.to_json())
    seats = [{"fauna": s["fauna"], "turns": s["turns"], "track": s["track"],
              "pool": s["pool"], "board": s["board"],
              "released": sorted(s["released"]),
              "protected": sorted(s["protected"]),
              "start_recruit": s["start_recruit_order"]} for s in doc["seats"]]
    return {"phase": doc["phase"], "end_triggered": doc["end_triggered"],
            "rounds": doc["rounds"], "supply": doc["supply"],
            "mission": doc["mission"], "discard": sorted(doc["discard"]),
            "draw_pile": doc["draw_pile_order"], "seats": seats,
            "turn": turn_view(doc["phase"], doc["turn"])}


def turn_view(phase, turn):
    """The turn's scratch that the decision depends on."""
    if phase == "house":
        return {"capture_used": turn["capture_used"]}
    if phase == "train":
        return {"trades": bool(turn["step"]), "up": sorted(turn["trained_up"]),
                "down": sorted(turn["trained_down"])}
    if phase == "effect":
        return {"card": turn["effect_card"], "picks": bool(turn["step"])}
    return {}


def reference_view(ref):
    """The same for the reference, in the engine's JSON vocabulary."""
    ids = ref.table.ids

    def named(cards):
        return [ids[c] for c in cards]

    def counts(values):
        return {COLOURS[i]: n for i, n in enumerate(values) if n}

    seats = [{"fauna": s.fauna, "turns": s.turns, "track": s.track,
              "pool": dict(zip("CFPH", s.pool)),
              "board": [{"card": ids[sl.card], "on": counts(sl.on),
                         "movable": counts(sl.movable)} for sl in s.board],
              "released": sorted(named(s.released)),
              "protected": sorted(named(s.protected)),
              "start_recruit": [COLOURS[c] for c in s.start_recruit]}
             for s in ref.seats]
    boundaries = ("C|F", "F|P", "P|H")
    turn = {"step": ref.step, "capture_used": ref.capture_used,
            "trained_up": [boundaries[b] for b in ref.trained_up],
            "trained_down": [boundaries[b] for b in ref.trained_down],
            "effect_card": None if ref.effect_card is None else ids[ref.effect_card]}
    return {"phase": ref.phase, "end_triggered": ref.end_triggered,
            "rounds": ref.rounds, "supply": counts_all(ref.supply),
            "mission": named(ref.mission), "discard": sorted(named(ref.discard)),
            "draw_pile": named(ref.draw_pile), "seats": seats,
            "turn": turn_view(ref.phase, turn)}


def counts_all(values):
    return {COLOURS[i]: n for i, n in enumerate(values)}


def check_decision(engine, ref, where, whole):
    legal = engine_legal(engine)
    assert ref.legal_actions() == legal, (
        f"{where}: engine {engine.legal_moves()} reference {ref.legal_moves()}")
    assert (ref.phase, ref.current_player) == (engine.phase, engine.current_player), where
    if whole:
        assert reference_view(ref) == engine_view(engine), where
        assert [ref.move_name(a) for a in legal] == [engine.move_name(a) for a in legal]
    return legal


def unordered_pile(view):
    """A view with its draw pile as a set: under explicit chance it has no order."""
    return {**view, "draw_pile": sorted(view["draw_pile"])}


def check_end(engine, ref, where, pile_ordered=True):
    assert ref.is_over() and engine.is_over(), where
    assert ref.scores() == engine.scores(), where
    assert ref.ranks() == engine.ranks(), where
    assert breakdown(ref) == [(b.conservation, b.reputation, b.specialty)
                              for b in engine.score_breakdown()], where
    assert ref.current_player == engine.current_player, where
    same = (lambda v: v) if pile_ordered else unordered_pile
    assert same(reference_view(ref)) == same(engine_view(engine)), where


def play_both(card_set, seed, players, weights, whole=False, seen=None,
              stack=None, watch=None):
    """One game on both engines; `seen` collects (phase, action) played,
    `watch(reference)` is called at each decision."""
    engine, ref = both(card_set, seed, players, stack)
    choose = chooser(seed, weights)
    for step in range(MAX_ACTIONS):
        if engine.is_over():
            break
        where = f"{card_set.name} {players}p seed {seed} step {step}"
        act = choose(check_decision(engine, ref, where, whole))
        if watch is not None:
            watch(ref)
        if seen is not None:
            seen.append((ref.phase, act))
        engine.apply(act)
        ref.apply(act)
    check_end(engine, ref, f"{card_set.name} {players}p seed {seed}")
    return ref


def how_it_ended(ref):
    """What ended a finished game."""
    if not ref.end_triggered:
        return "safeguard"
    if max(len(s.released) for s in ref.seats) >= ref.table.release_goal:
        return "releases"
    return "draw pile"


# ---- the default card set ------------------------------------------------------

@pytest.mark.parametrize("weights", (UNIFORM, CENTER_BIASED), ids=("uniform", "center"))
@pytest.mark.parametrize("players", (2, 3, 4))
def test_the_engines_agree_at_every_decision(players, weights):
    phases, endings = set(), set()
    for game in range(GAMES):
        ref = play_both(CS, 1000 * players + game, players, weights,
                        whole=game % STRIDE == 0, seen=(seen := []))
        phases |= {phase for phase, _ in seen}
        endings.add(how_it_ended(ref))
    # the games met every decision, and the end by the draw pile (and by
    # the fifth release, for players that release whenever they can)
    assert phases == {"start", "choose", "recruit", "house", "center",
                      "train", "effect", "discard"}
    assert "draw pile" in endings
    assert weights is UNIFORM or "releases" in endings


# ---- card sets that make every effect kind and every rule number frequent ----

COLOUR_CYCLE = "CFPH"
ONE_TO_ONE_PAIRS = [(a, b) for i, a in enumerate("CFPH") for b in "CFPH"[i + 1:]]


def effect_table(kind, i):
    """An effect of `kind` for the i-th animal, its parameters cycling."""
    table = {"kind": kind}
    if kind in ("start_recruit", "recruit_two", "double_protect",
                "discard_survival_recruit"):
        table["colour"] = COLOUR_CYCLE[i % 4]
    if kind in ("capture_bonus", "discard_survival"):
        table["amount"] = 1 + i % 3
    if kind == "train_one_to_one":
        table["from"], table["to"] = ONE_TO_ONE_PAIRS[i % len(ONE_TO_ONE_PAIRS)]
    return table


def carries(kind, i):
    """Which animals get the effect: all of them, except where the card-set
    limits forbid it (16 start_recruit cards, 14 spaces in all)."""
    if kind == "start_recruit":
        return i % 5 in (0, 2)
    if kind == "extra_space":
        return i % 5 == 0
    return True


def effect_variant(kind):
    def change(i, data):
        if carries(kind, i):
            data["effect"] = effect_table(kind, i)
        elif data.get("effect", {}).get("kind") == kind:
            del data["effect"]
    return variant_card_set(change=change, name=f"every-{kind}".replace("_", "-"))


IMMEDIATE = {"discard_survival", "recruit_two", "house_one", "recruit_mission",
             "discard_survival_recruit"}


@pytest.mark.parametrize("kind", EFFECT_KINDS)
def test_the_engines_agree_when_an_effect_kind_is_everywhere(kind):
    card_set = effect_variant(kind)
    seen = []
    for game in range(GAMES // 8):
        play_both(card_set, 5000 + game, 2 + game % 3, CENTER_BIASED,
                  whole=game % STRIDE == 0, seen=seen)
    released = [card_set.cards[act & 255] for _, act in seen if act >> 22 == RELEASE]
    assert any(card.effect and card.effect.kind == kind for card in released)
    if kind in IMMEDIATE:        # the effect was used, not only skipped
        assert any(phase == "effect" and act >> 22 != SKIP for phase, act in seen)
    if kind == "start_recruit":
        assert ("start", APPLY << 22) in seen


def tight_variant():
    """Small Centers, a low capture limit, an early end and a short
    safeguard; some animals need nothing, some protect for a lot, and
    every effect kind is on several animals."""
    def change(i, data):
        data["effect"] = effect_table(EFFECT_KINDS[i % len(EFFECT_KINDS)], i)
        if i % 6 == 0:
            data["needs"] = {}
        if i % 4 == 1:
            data["protect"] = {"C": 6, "F": 5, "H": 2, "S": 7}
    return variant_card_set(rules={"center_spaces": 3, "capture_limit": 4,
                                   "release_goal": 3, "max_rounds": 15},
                            change=change, name="tight")


def test_the_engines_agree_on_tight_rules():
    card_set = tight_variant()
    endings, phases = set(), set()
    for game in range(GAMES // 2):
        weights = CENTER_BIASED if game % 2 else UNIFORM
        ref = play_both(card_set, 8000 + game, 2 + game % 3, weights,
                        whole=game % STRIDE == 0, seen=(seen := []))
        endings.add(how_it_ended(ref))
        phases |= {phase for phase, _ in seen}
    assert {"safeguard", "releases"} <= endings
    assert {"discard", "effect", "train"} <= phases


# ---- explicit chance ------------------------------------------------------------

def check_chance_node(st):
    """The outcomes of a chance node: one per card of the draw pile, in
    ascending card index, uniform."""
    outcomes = st.chance_outcomes()
    assert st.current_player == CHANCE_PLAYER and st.phase == "refill"
    assert [act for act, _ in outcomes] == [reveal_action(c) for c in sorted(st.draw_pile)]
    assert [act >> 22 for act, _ in outcomes] == [REVEAL] * len(st.draw_pile)
    assert {p for _, p in outcomes} == {1 / len(st.draw_pile)}
    assert st.legal_actions() == [act for act, _ in outcomes]
    return outcomes


@pytest.mark.parametrize("players", (2, 3, 4))
def test_chance_outcomes_in_deck_order_play_the_deck_ordered_game(players):
    for game in range(GAMES // 10):
        seed = 9000 + 10 * players + game
        engine, ordered = both(CS, seed, players)
        setup = deal(CS, seed, players)
        chance = ReferenceState.new(CS, *setup, explicit_chance=True)
        pile = iter(setup[3])          # the opening five are chance's too
        choose = chooser(seed, CENTER_BIASED if game % 2 else UNIFORM)
        reveals = 0
        while True:
            while chance.is_chance_node():
                check_chance_node(chance)
                chance.apply(reveal_action(next(pile)))
                reveals += 1
            if engine.is_over():
                break
            legal = check_decision(engine, ordered, f"seed {seed}", False)
            assert not ordered.is_chance_node()
            assert unordered_pile(reference_view(chance)) == unordered_pile(reference_view(ordered))
            act = choose(legal)
            for st in (engine, ordered, chance):
                st.apply(act)
        check_end(engine, chance, f"seed {seed}", pile_ordered=False)
        assert reveals == len(setup[3]) - len(chance.draw_pile)


@pytest.mark.parametrize("players", (2, 3, 4))
def test_random_chance_outcomes_are_a_game_the_engine_plays_with_that_deck(players):
    for game in range(GAMES // 10):
        seed = 9500 + 10 * players + game
        setup = deal(CS, seed, players)
        chance = ReferenceState.new(CS, *setup, explicit_chance=True)
        rng, choose = random.Random(seed), chooser(seed, CENTER_BIASED)
        revealed, decisions = [], []
        while not chance.is_over():
            if chance.is_chance_node():
                act = rng.choice(check_chance_node(chance))[0]
                revealed.append(act & 255)
            else:
                legal = chance.legal_actions()
                act = choose(legal)
                decisions.append((legal, act))
            chance.apply(act)
        # the deck that deals those reveals in that order
        players, faunas, first, deck = setup
        deck = revealed + chance.draw_pile
        engine = State.new(CS, players, faunas, first, deck=deck)
        for legal, act in decisions:
            assert engine_legal(engine) == legal
            engine.apply(act)
        assert engine.is_over() and engine.scores() == chance.scores()


def test_without_explicit_chance_there_is_no_chance_node():
    st = ReferenceState.new(CS, *deal(CS, 1, 2))
    with pytest.raises(ValueError, match="not a chance node"):
        st.chance_outcomes()
    choose = chooser(1, UNIFORM)
    while not st.is_over():
        assert not st.is_chance_node() and st.current_player >= 0
        st.apply(choose(st.legal_actions()))


def test_a_chance_node_refuses_player_moves_and_cards_not_in_the_pile():
    setup = deal(CS, 2, 2)
    st = ReferenceState.new(CS, *setup, explicit_chance=True)
    choose = chooser(2, UNIFORM)
    while st.is_chance_node():                 # the opening deal
        st.apply(st.legal_actions()[0])
    while not st.is_chance_node():
        st.apply(choose(st.legal_actions()))
    before = reference_view(st)
    on_mission = reveal_action(st.mission[0])
    for act in (on_mission, st.legal_actions()[0] & ~(31 << 22), 1 << 22):
        with pytest.raises(IllegalMoveError):
            st.apply(act)
    assert reference_view(st) == before


# ---- the reference's own contract ----------------------------------------------

def test_an_illegal_action_is_refused_and_leaves_the_state_unchanged():
    st = ReferenceState.new(CS, *deal(CS, 3, 3))
    rng, choose = random.Random(3), chooser(3, CENTER_BIASED)
    refused = 0
    while not st.is_over():
        legal = st.legal_actions()
        other = rng.choice([a for a in range(0, 17 << 22, 9973) if a not in legal])
        before = reference_view(st)
        with pytest.raises(IllegalMoveError, match=st.phase):
            st.apply(other)
        assert (reference_view(st), st.legal_actions()) == (before, legal)
        refused += 1
        st.apply(choose(legal))
    with pytest.raises(IllegalMoveError, match="game is over"):
        st.apply(1 << 22)
    assert refused > 100


def test_a_clone_is_independent_and_plays_on_like_its_original():
    st = ReferenceState.new(CS, *deal(CS, 4, 4))
    choose = chooser(4, CENTER_BIASED)
    for step in range(2000):
        if st.is_over():
            break
        if step % 97 == 0:
            copy, before = st.clone(), reference_view(st)
            rest = []
            while not copy.is_over():
                rest.append(copy.legal_actions()[-1])
                copy.apply(rest[-1])
            assert reference_view(st) == before
            again = st.clone()
            for act in rest:
                again.apply(act)
            assert reference_view(again) == reference_view(copy)
        st.apply(choose(st.legal_actions()))
    assert st.is_over()


@pytest.mark.parametrize("players", (2, 3, 4))
def test_returns_count_the_seats_beaten_minus_the_seats_beating(players):
    for game in range(20):
        engine, ref = both(CS, 7700 + game, players)
        assert ref.returns() == [0.0] * players
        choose = chooser(game, UNIFORM)
        while not ref.is_over():
            act = choose(ref.legal_actions())
            ref.apply(act)
            engine.apply(act)
        ranks = engine.ranks()
        expected = [(sum(r < o for o in ranks) - sum(o < r for o in ranks)) / (players - 1)
                    for r in ranks]
        assert ref.returns() == expected
        assert sum(ref.returns()) == pytest.approx(0)
        if players == 2:
            assert sorted(ref.returns()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("players, faunas, first, deck, wrong", [
    (5, FAUNAS + ("forest",), 0, None, "players"),
    (2, ("forest", "forest"), 0, None, "faunas"),
    (2, ("forest", "ocean"), 0, None, "faunas"),
    (2, ("forest", "air"), 2, None, "first player"),
    (2, ("forest", "air"), 0, [0, 1, 2], "deck"),
])
def test_a_game_that_cannot_be_set_up_is_refused(players, faunas, first, deck, wrong):
    if deck is None:
        deck = [c.index for c in CS.cards if c.fauna in faunas]
    with pytest.raises(SetupError, match=wrong):
        ReferenceState.new(CS, players, faunas, first, deck)


def test_the_engines_agree_when_the_first_turns_must_pass():
    """A Mission board of animals above the capture limit, and no caretaker
    card: the first turns have no legal move but `pass`."""
    card_set = tight_variant()
    limit = card_set.rules["capture_limit"]

    def blocking_animals(deck):
        high = [c for c in deck if card_set.cards[c].is_animal
                and card_set.cards[c].capture > limit]
        assert len(high) >= 5
        return high[:5]
    for game in range(20):
        seen = []
        play_both(card_set, 8500 + game, 2 + game % 3, UNIFORM, whole=True,
                  seen=seen, stack=blocking_animals)
        assert seen[0] == ("choose", PASS << 22)


def survival_variant():
    """Every animal protects for 8 Survival tokens and needs 2: at four
    players the tracks and animals soon hold all 32 and the S supply is empty."""
    def change(i, data):
        data["protect"] = {**data["protect"], "S": 8}
        data["needs"] = {**data["needs"], "S": 2}
    return variant_card_set(change=change, name="survival")


def test_the_engines_agree_when_the_survival_supply_runs_out():
    card_set = survival_variant()
    protects_from_empty = []

    def watch(ref):
        if ref.supply[S] == 0 and ref.seat.track < 8:
            protects_from_empty.extend(a for a in ref.legal_actions()
                                       if a >> 22 == PROTECT)
    for game in range(GAMES // 25):
        play_both(card_set, 8700 + game, 4, CENTER_BIASED,
                  whole=game % 5 == 0, watch=watch)
    assert protects_from_empty


@pytest.mark.parametrize("players", (2, 3, 4))
def test_both_engines_play_the_same_explicit_chance_game(players):
    """Chance nodes included: the same outcomes offered at every reveal,
    the same game whatever chance and the seats choose."""
    for game in range(GAMES // 20):
        seed = 9700 + 10 * players + game
        _, faunas, first, deck = deal(CS, seed, players)
        engine = State.new(CS, players, faunas, first, explicit_chance=True)
        ref = ReferenceState.new(CS, players, faunas, first, deck, explicit_chance=True)
        rng, choose = random.Random(seed), chooser(seed, CENTER_BIASED)
        while not engine.is_over():
            assert engine.is_chance_node() == ref.is_chance_node()
            assert engine.current_player == ref.current_player
            assert engine.legal_actions() == ref.legal_actions(), f"seed {seed}"
            if engine.is_chance_node():
                assert engine.chance_outcomes() == ref.chance_outcomes()
                act = rng.choice(engine.legal_actions())
            else:
                act = choose(engine.legal_actions())
            engine.apply(act)
            ref.apply(act)
        assert ref.is_over() and engine.scores() == ref.scores()
        assert engine.ranks() == ref.ranks() and engine.returns() == ref.returns()
