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

from coexist_ai._core import State
from coexist_ai.cards import EFFECT_KINDS, FAUNAS
from coexist_ai.errors import IllegalMoveError
from coexist_ai.reference import (CHANCE_PLAYER, REVEAL, ReferenceState,
                                  reveal_action)
from coexist_ai.reference.actions import APPLY, RELEASE, SKIP
from coexist_ai.reference.scoring import breakdown
from positions import CS, variant_card_set

GAMES = int(os.environ.get("COEXIST_REFERENCE_GAMES", "250"))
STRIDE = 25                 # every STRIDE-th game compares whole positions
MAX_ACTIONS = 20_000
COLOURS = "CFPHS"

# The engine does not yet list legal actions in ascending order (issue 11).
# When it does, set this to True: the lists themselves are then compared.
ENGINE_LISTS_ASCENDING = False


def engine_legal(engine):
    listed = engine.legal_actions()
    return listed if ENGINE_LISTS_ASCENDING else sorted(listed)


# ---- dealing and choosing -----------------------------------------------------

def deal(card_set, seed, players):
    """(players, faunas, first player, deck) drawn from the seed."""
    rng = random.Random(seed)
    faunas = rng.sample(card_set.faunas(), players)
    deck = [c.index for c in card_set.cards if c.fauna in faunas]
    rng.shuffle(deck)
    return players, faunas, rng.randrange(players), deck


def both(card_set, seed, players):
    setup = deal(card_set, seed, players)
    players, faunas, first, deck = setup
    return (State.new(card_set, players, faunas, first, deck=deck),
            ReferenceState.new(card_set, *setup))


# Weights by action kind (0 pass .. 15 discard animal): the Center-biased
# player releases, assigns and applies whenever it can, so games go deep
# into effects, full boards and end-of-turn discards.
UNIFORM = None
CENTER_BIASED = {12: 400, 9: 60, 4: 40, 13: 12, 8: 10, 10: 6, 11: 3, 2: 20,
                 3: 6, 7: 6, 6: 4, 1: 1, 5: 1, 14: 1, 15: 1, 0: 1}


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


def check_end(engine, ref, where):
    assert ref.is_over() and engine.is_over(), where
    assert ref.scores() == engine.scores(), where
    assert ref.ranks() == engine.ranks(), where
    assert breakdown(ref) == [(b["conservation"], b["reputation"], b["specialty"])
                              for b in engine.score_breakdown()], where
    assert ref.current_player == engine.current_player, where
    assert reference_view(ref) == engine_view(engine), where


def play_both(card_set, seed, players, weights, whole=False, seen=None):
    """One game on both engines; `seen` collects (phase, action) played."""
    engine, ref = both(card_set, seed, players)
    choose = chooser(seed, weights)
    for step in range(MAX_ACTIONS):
        if engine.is_over():
            break
        where = f"{card_set.name} {players}p seed {seed} step {step}"
        act = choose(check_decision(engine, ref, where, whole))
        if seen is not None:
            seen.append((ref.phase, act))
        engine.apply(act)
        ref.apply(act)
    check_end(engine, ref, f"{card_set.name} {players}p seed {seed}")
    return ref


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


def how_it_ended(ref):
    if not ref.end_triggered:
        return "safeguard"
    if max(len(s.released) for s in ref.seats) >= ref.table.release_goal:
        return "releases"
    return "draw pile"


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
