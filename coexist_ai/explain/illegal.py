"""Why a move is not legal, in words, from the position and the move.

`rule_against(position, action)` walks the rules of RULES.md for the move's
kind in the decision in front of the seat and returns the first rule that
forbids it, or None when none does. It reads the typed views only and never
the engine's move list (except for `pass`, whose rule is "no other move is
legal"), so tests/test_explain.py can check it against the engine move by
move: None exactly for the legal moves.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from coexist_ai.errors import NotationError
from coexist_ai.explain.rules import (Ask, Reason, assign, house, move, no_trade,
                                      own_animal, protect, recruit, release, trade, unassign)
from coexist_ai.explain.words import effect_text
from coexist_ai.notation import check_action, split_action
from coexist_ai.vocabulary import TOKENS, ActionKind, Phase

if TYPE_CHECKING:
    from coexist_ai._engine import Position
    from coexist_ai.cards import Card

K = ActionKind
CENTER_ACTIONS = {K.PROTECT, K.ASSIGN, K.MOVE, K.UNASSIGN, K.RELEASE}
FIRST_TURN = ("on a first turn only Mission is open (recruit or house): the "
              "Conservation Center and Training open from your 2nd turn")


def why_illegal(position: Position, action: int, seat: int | None = None) -> Reason:
    """None when `action` (an integer) is legal for `seat` (default: the
    seat to move); otherwise a short reason, in words, why not."""
    if seat is not None and seat != position.current_player and not position.is_over():
        if position.is_chance_node():
            return "no seat moves now: a card is being revealed onto the Mission board"
        return f"it is not your turn: seat {position.current_player} is to play"
    if position.is_legal(action):
        return None
    return rule_against(position, action) or (
        f"it is not a legal move in the '{position.phase}' decision")


def rule_against(position: Position, action: int) -> Reason:
    """The first rule that forbids `action` in `position`, in words, or None
    when no rule does (the move is legal)."""
    try:
        check_action(position.card_set, action)
    except NotationError as e:
        return str(e)
    if position.is_over():
        return "the game is over"
    code, x, y, a, b = split_action(action)
    kind = ActionKind(code)
    if position.is_chance_node():
        return None if kind is K.REVEAL and _in_draw_pile(position, a) else (
            "no seat moves now: a card is being revealed onto the Mission board")
    if kind is K.REVEAL:
        return "reveal is chance's move (a card dealt onto the Mission board), never a seat's"
    ask = Ask(position, kind, x, y, a, b)
    if kind is K.PASS:
        return _pass(ask)
    return PHASES[position.phase](ask)


def _in_draw_pile(position: Position, card: int) -> bool:
    return card in position.draw_pile_contents()


def _pass(ask: Ask) -> Reason:
    others = [a for a in ask.position.legal_actions()
              if ActionKind(split_action(a)[0]) is not K.PASS]
    if others:
        return (f"pass is only for a seat that has no other legal move; "
                f"{len(others)} are legal now")
    return None if ask.position.phase == Phase.CHOOSE else "pass is not a move here"


# -- the decisions ------------------------------------------------------------------

def _start(ask: Ask) -> Reason:
    if ask.kind in (K.APPLY, K.SKIP):
        return None
    colour = ask.me.effects.start_recruit[ask.position.turn.step]
    return (f"first the start of your turn: gain 1 {colour} (apply) or not (skip)")


def _choose(ask: Ask) -> Reason:
    first = ask.me.turns == 0
    if ask.kind is K.RECRUIT:
        return recruit(ask, check_room=True)
    if ask.kind is K.HOUSE:
        return house(ask, budget=ask.me.capture_limit, check_room=True)
    if ask.kind is K.CENTER:
        return FIRST_TURN if first else None
    if ask.kind is K.TRAIN_START:
        return FIRST_TURN if first else no_trade(ask)
    if ask.kind in CENTER_ACTIONS:
        return (f"'{ask.word}' is a Conservation Center action: "
                + ("the Center opens from your 2nd turn" if first else "choose center first"))
    if ask.kind is K.TRAIN:
        return ("trades are made in Training, which opens from your 2nd turn" if first
                else "trades are made in Training: choose train first")
    return _elsewhere(ask, "choose this turn's option first: recruit, house, center or train")


def _recruit_phase(ask: Ask) -> Reason:
    if ask.kind is K.END:
        return None
    if ask.kind is K.RECRUIT:
        return recruit(ask, check_room=True)
    return _elsewhere(ask, "this turn's option is Mission A (recruit): recruit "
                           "more caretaker cards, or end")


def _house_phase(ask: Ask) -> Reason:
    if ask.kind is K.END:
        return None
    if ask.kind is K.HOUSE:
        used = ask.position.turn.capture_used
        return house(ask, budget=ask.me.capture_limit - used, check_room=True, used=used)
    return _elsewhere(ask, "this turn's option is Mission B (house): house more "
                           "animals, or end")


def _center(ask: Ask) -> Reason:
    if ask.kind is K.END:
        return None
    if ask.kind in CENTER_RULES:
        return CENTER_RULES[ask.kind](ask)
    if ask.kind is K.CENTER:
        return "you are in the Conservation Center already"
    return _elsewhere(ask, "this turn's option is the Conservation Center: protect, "
                           "assign, move, unassign, release, or end")


def _train_phase(ask: Ask) -> Reason:
    if ask.kind is K.END:
        return None if ask.position.turn.step else (
            "make a first trade (train X Y) before ending Training")
    if ask.kind is K.TRAIN:
        return trade(ask, ask.x, ask.y)
    if ask.kind is K.TRAIN_START:
        return "you are in Training already: trade with train X Y, or end"
    return _elsewhere(ask, "this turn's option is Training: trade with train X Y, or end")


def _effect(ask: Ask) -> Reason:
    card = ask.position.turn.effect_card
    assert card is not None and card.effect is not None   # the effect phase has one
    kind = card.effect.kind
    if kind == "house_one":
        return _effect_house_one(ask, card)
    if kind == "recruit_mission":
        return _effect_recruit_mission(ask, card)
    if ask.kind in (K.APPLY, K.SKIP):
        return None
    return _elsewhere(ask, f"first the effect of {card.name} "
                           f"({effect_text(card.effect)}): apply or skip")


def _effect_house_one(ask: Ask, card: Card) -> Reason:
    if ask.kind is K.SKIP:
        return None
    if ask.kind is K.HOUSE:
        return house(ask, budget=None, check_room=False)
    if ask.kind is K.APPLY:
        return f"the effect of {card.name} is used by housing: house <animal>, or skip"
    return _elsewhere(ask, f"first the effect of {card.name}: house one Mission "
                           "animal of any capture value, or skip")


def _effect_recruit_mission(ask: Ask, card: Card) -> Reason:
    started = ask.position.turn.step > 0
    if ask.kind is K.RECRUIT:
        return recruit(ask, check_room=False)
    if ask.kind is (K.END if started else K.SKIP):
        return None
    if ask.kind is K.SKIP:
        return f"you have recruited with {card.name}'s effect already: end to stop"
    if ask.kind is K.END:
        return "end comes after a first recruit: skip to recruit none"
    if ask.kind is K.APPLY:
        return (f"the effect of {card.name} is used by recruiting: recruit X for "
                "each Mission caretaker card you want, then end (or skip)")
    return _elsewhere(ask, f"first the effect of {card.name}: recruit Mission "
                           "caretaker cards, then end, or skip")


def _discard(ask: Ask) -> Reason:
    if ask.kind is K.DISCARD_TOKEN:
        colour = TOKENS[ask.x]
        if colour == "S":
            return ("Survival tokens are not discarded: discard a caretaker "
                    "(C F P H) or an animal")
        return None if ask.me.pool.of(colour) else f"your pool has no {colour}"
    if ask.kind is K.DISCARD_ANIMAL:
        animal = own_animal(ask, ask.a)
        return animal if isinstance(animal, str) else None
    return _elsewhere(ask, f"the turn is over and {ask.centre_text()}: discard a "
                           "caretaker or an animal until it fits")


def _elsewhere(ask: Ask, what_now: str) -> str:
    """A move that belongs to another decision: say what this one is."""
    if ask.kind in (K.APPLY, K.SKIP) and ask.position.phase not in (Phase.START, Phase.EFFECT):
        return f"there is no effect to apply or skip now; {what_now}"
    if ask.kind in (K.DISCARD_TOKEN, K.DISCARD_ANIMAL):
        return f"discards come only at the end of a turn over capacity; {what_now}"
    return what_now


Rule = Callable[[Ask], Reason]
PHASES: dict[str, Rule] = {
    Phase.START: _start, Phase.CHOOSE: _choose, Phase.RECRUIT: _recruit_phase,
    Phase.HOUSE: _house_phase, Phase.CENTER: _center, Phase.TRAIN: _train_phase,
    Phase.EFFECT: _effect, Phase.DISCARD: _discard,
}
CENTER_RULES: dict[ActionKind, Rule] = {K.PROTECT: protect, K.ASSIGN: assign, K.MOVE: move,
                K.UNASSIGN: unassign, K.RELEASE: release}
