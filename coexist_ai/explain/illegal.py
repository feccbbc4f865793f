"""Why a move is not legal, in words, from the position and the move.

`rule_against(position, action)` walks the rules of RULES.md for the move's
kind in the decision in front of the seat and returns the first rule that
forbids it, or None when none does. It reads the typed views only and never
the engine's move list (except for `pass`, whose rule is "no other move is
legal"), so tests/test_explain.py can check it against the engine move by
move: None exactly for the legal moves.
"""
from coexist_ai.errors import NotationError
from coexist_ai.explain.words import article, effect_text, place_text, tokens_text
from coexist_ai.notation import check_action, kind_word, split_action
from coexist_ai.vocabulary import (CARETAKERS, TOKENS, TRACK_SIZE, ActionKind,
                                   Phase)

K = ActionKind
CENTER_ACTIONS = {K.PROTECT, K.ASSIGN, K.MOVE, K.UNASSIGN, K.RELEASE}
FIRST_TURN = ("on a first turn only Mission is open (recruit or house): the "
              "Conservation Center and Training open from your 2nd turn")


class _Ask:
    """One move asked of one position: what the rules below read (the
    seat's view is built once)."""

    def __init__(self, position, kind, x, y, a, b):
        self.position, self.kind = position, kind
        self.x, self.y, self.a, self.b = x, y, a, b
        self.cs = position.card_set
        self.me = position.seat(position.current_player)
        # free spaces in the Center (negative while over capacity)
        self.room = self.me.capacity - self.me.spaces_used

    @property
    def word(self):
        return kind_word(self.kind)

    def card(self, index):
        return self.cs.cards[index]

    def centre_text(self):
        me = self.me
        return f"your Conservation Center uses {me.spaces_used} of {me.capacity} spaces"


def why_illegal(position, action, seat=None):
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


def rule_against(position, action):
    """The first rule that forbids `action` in `position`, in words, or None
    when no rule does (the move is legal)."""
    try:
        check_action(position.card_set, action)
    except NotationError as e:
        return str(e)
    if position.is_over():
        return "the game is over"
    kind, x, y, a, b = split_action(action)
    kind = ActionKind(kind)
    if position.is_chance_node():
        return None if kind is K.REVEAL and _in_draw_pile(position, a) else (
            "no seat moves now: a card is being revealed onto the Mission board")
    if kind is K.REVEAL:
        return "reveal is chance's move (a card dealt onto the Mission board), never a seat's"
    ask = _Ask(position, kind, x, y, a, b)
    if kind is K.PASS:
        return _pass(ask)
    return PHASES[position.phase](ask)


def _in_draw_pile(position, card):
    return card in position.draw_pile_contents()


def _pass(ask):
    others = [a for a in ask.position.legal_actions()
              if ActionKind(split_action(a)[0]) is not K.PASS]
    if others:
        return (f"pass is only for a seat that has no other legal move; "
                f"{len(others)} are legal now")
    return None if ask.position.phase == Phase.CHOOSE else "pass is not a move here"


# -- the decisions ------------------------------------------------------------------

def _start(ask):
    if ask.kind in (K.APPLY, K.SKIP):
        return None
    colour = ask.me.effects.start_recruit[ask.position.turn.step]
    return (f"first the start of your turn: gain 1 {colour} (apply) or not (skip)")


def _choose(ask):
    first = ask.me.turns == 0
    if ask.kind is K.RECRUIT:
        return _recruit(ask, check_room=True)
    if ask.kind is K.HOUSE:
        return _house(ask, budget=ask.me.capture_limit, check_room=True)
    if ask.kind is K.CENTER:
        return FIRST_TURN if first else None
    if ask.kind is K.TRAIN_START:
        return FIRST_TURN if first else _no_trade(ask)
    if ask.kind in CENTER_ACTIONS:
        return (f"'{ask.word}' is a Conservation Center action: "
                + ("the Center opens from your 2nd turn" if first else "choose center first"))
    if ask.kind is K.TRAIN:
        return ("trades are made in Training, which opens from your 2nd turn" if first
                else "trades are made in Training: choose train first")
    return _elsewhere(ask, "choose this turn's option first: recruit, house, center or train")


def _recruit_phase(ask):
    if ask.kind is K.END:
        return None
    if ask.kind is K.RECRUIT:
        return _recruit(ask, check_room=True)
    return _elsewhere(ask, "this turn's option is Mission A (recruit): recruit "
                           "more caretaker cards, or end")


def _house_phase(ask):
    if ask.kind is K.END:
        return None
    if ask.kind is K.HOUSE:
        used = ask.position.turn.capture_used
        return _house(ask, budget=ask.me.capture_limit - used, check_room=True, used=used)
    return _elsewhere(ask, "this turn's option is Mission B (house): house more "
                           "animals, or end")


def _center(ask):
    if ask.kind is K.END:
        return None
    if ask.kind in CENTER_RULES:
        return CENTER_RULES[ask.kind](ask)
    if ask.kind is K.CENTER:
        return "you are in the Conservation Center already"
    return _elsewhere(ask, "this turn's option is the Conservation Center: protect, "
                           "assign, move, unassign, release, or end")


def _train_phase(ask):
    if ask.kind is K.END:
        return None if ask.position.turn.step else (
            "make a first trade (train X Y) before ending Training")
    if ask.kind is K.TRAIN:
        return _trade(ask, ask.x, ask.y)
    if ask.kind is K.TRAIN_START:
        return "you are in Training already: trade with train X Y, or end"
    return _elsewhere(ask, "this turn's option is Training: trade with train X Y, or end")


def _effect(ask):
    card = ask.position.turn.effect_card
    kind = card.effect.kind
    if kind == "house_one":
        return _effect_house_one(ask, card)
    if kind == "recruit_mission":
        return _effect_recruit_mission(ask, card)
    if ask.kind in (K.APPLY, K.SKIP):
        return None
    return _elsewhere(ask, f"first the effect of {card.name} "
                           f"({effect_text(card.effect)}): apply or skip")


def _effect_house_one(ask, card):
    if ask.kind is K.SKIP:
        return None
    if ask.kind is K.HOUSE:
        return _house(ask, budget=None, check_room=False)
    if ask.kind is K.APPLY:
        return f"the effect of {card.name} is used by housing: house <animal>, or skip"
    return _elsewhere(ask, f"first the effect of {card.name}: house one Mission "
                           "animal of any capture value, or skip")


def _effect_recruit_mission(ask, card):
    started = ask.position.turn.step > 0
    if ask.kind is K.RECRUIT:
        return _recruit(ask, check_room=False)
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


def _discard(ask):
    if ask.kind is K.DISCARD_TOKEN:
        colour = TOKENS[ask.x]
        if colour == "S":
            return ("Survival tokens are not discarded: discard a caretaker "
                    "(C F P H) or an animal")
        return None if ask.me.pool.of(colour) else f"your pool has no {colour}"
    if ask.kind is K.DISCARD_ANIMAL:
        animal = _own_animal(ask, ask.a)
        return animal if isinstance(animal, str) else None
    return _elsewhere(ask, f"the turn is over and {ask.centre_text()}: discard a "
                           "caretaker or an animal until it fits")


def _elsewhere(ask, what_now):
    """A move that belongs to another decision: say what this one is."""
    if ask.kind in (K.APPLY, K.SKIP) and ask.position.phase not in (Phase.START, Phase.EFFECT):
        return f"there is no effect to apply or skip now; {what_now}"
    if ask.kind in (K.DISCARD_TOKEN, K.DISCARD_ANIMAL):
        return f"discards come only at the end of a turn over capacity; {what_now}"
    return what_now


# -- Mission ---------------------------------------------------------------------------

def _recruit(ask, check_room):
    colour = TOKENS[ask.x]
    if colour == "S":
        return "S (Survival) is no caretaker: recruit C, F, P or H"
    offered = [c.colour for c in ask.position.mission if not c.is_animal]
    if colour not in offered:
        shown = ", ".join(dict.fromkeys(offered))
        return (f"the Mission board has no {colour} caretaker card"
                + (f" (it has {shown})" if shown else " (it has no caretaker card)"))
    if not ask.position.supply.of(colour):
        return f"the supply has no {colour} token left"
    if check_room and not _fits_one_more(ask, colour):
        return f"no free space for {article(colour)} {colour} token: {ask.centre_text()}"
    return None


def _fits_one_more(ask, colour):
    """A pool colour with 1 or 2 tokens has room in its space for one more."""
    return ask.room >= (1 if ask.me.pool.of(colour) % 3 == 0 else 0)


def _house(ask, budget, check_room, used=0):
    card = ask.card(ask.a)
    if not card.is_animal:
        return (f"{card.id} is a caretaker card: caretakers are recruited by "
                f"colour (recruit {card.colour})")
    if card not in ask.position.mission:
        return f"{card.name} is not on the Mission board: {place_text(ask.position, card, ask.me.seat)}"
    if check_room and ask.room < 1:
        return f"no free space for an animal: {ask.centre_text()}"
    if budget is not None and card.capture > budget:
        limit = ask.me.capture_limit
        if used:
            return (f"{card.name}'s capture value {card.capture} would bring this "
                    f"turn's total to {used + card.capture}, over your capture limit {limit}")
        return f"{card.name}'s capture value {card.capture} is over your capture limit {limit}"
    return None


# -- the Conservation Center ---------------------------------------------------------

def _own_animal(ask, index):
    """The AnimalView of card `index` on the seat's board, or why it is not."""
    card = ask.card(index)
    if not card.is_animal:
        return f"{card.id} is a caretaker card, not an animal"
    for animal in ask.me.board:
        if animal.card == card:
            return animal
    return f"{card.name} is not on your Conservation Center: {place_text(ask.position, card, ask.me.seat)}"


def _animals(ask, *indices):
    """The AnimalViews of the cards, or the first reason one is not yours."""
    found = [_own_animal(ask, i) for i in indices]
    return next((f for f in found if isinstance(f, str)), None), found


def _protect(ask):
    why, (animal,) = _animals(ask, ask.a)
    if why:
        return why
    if ask.me.track >= TRACK_SIZE:
        return (f"your Reputation track is full ({TRACK_SIZE} Survival tokens): no "
                "animal can go to the protected area")
    if any(animal.on):
        return (f"{animal.card.name} carries {tokens_text(animal.on)}: only an "
                "animal with no token on it can be protected")
    return None


def _needs(animal, colour):
    """Why the animal cannot take one more token of `colour`, or None."""
    card = animal.card
    wanted = card.needs[TOKENS.index(colour)]
    if not wanted:
        return f"{card.name} needs no {colour}"
    if not animal.needs.of(colour):
        return f"{card.name} already carries the {wanted} {colour} it needs"
    return None


def _assign(ask):
    colour = TOKENS[ask.x]
    why, (animal,) = _animals(ask, ask.a)
    if why:
        return why
    if colour == "S" and not ask.me.track:
        return "your Reputation track has no Survival token to assign"
    if colour != "S" and not ask.me.pool.of(colour):
        return f"your pool has no {colour}"
    return _needs(animal, colour)


def _movable(animal, colour):
    """Why a caretaker of `colour` cannot leave `animal` this turn, or None."""
    card = animal.card
    if not animal.on.of(colour):
        return f"{card.name} carries no {colour}"
    if not animal.movable.of(colour):
        return (f"the {colour} on {card.name} arrived this turn or has moved already: "
                "only tokens that were there at the start of the turn move, once each")
    return None


def _move(ask):
    colour = TOKENS[ask.x]
    if colour == "S":
        return "Survival tokens never move from an animal: only caretakers do"
    if ask.a == ask.b:
        return "a move takes a token from one animal to another: name two animals"
    why, (source, target) = _animals(ask, ask.a, ask.b)
    return why or _movable(source, colour) or _needs(target, colour)


def _unassign(ask):
    colour = TOKENS[ask.x]
    if colour == "S":
        return "Survival tokens never leave an animal: only caretakers go back to the pool"
    why, (animal,) = _animals(ask, ask.a)
    why = why or _movable(animal, colour)
    if why:
        return why
    if not _fits_one_more(ask, colour):
        return f"no free space in your pool for {article(colour)} {colour}: {ask.centre_text()}"
    return None


def _release(ask):
    why, (animal,) = _animals(ask, ask.a)
    if why:
        return why
    if not animal.complete:
        return f"{animal.card.name} still needs {tokens_text(animal.needs)}"
    return None


# -- Training ---------------------------------------------------------------------------

def _spaces(count):
    return (count + 2) // 3


def _trade(ask, x, y):
    """Why `train X Y` cannot be made now, or None."""
    cx, cy = TOKENS[x], TOKENS[y]
    if "S" in (cx, cy):
        return "Survival tokens do not train: only caretakers (C F P H) do"
    if x == y:
        return "a trade turns one colour into another: name two colours"
    if not ask.position.supply.of(cy):
        return f"the supply has no {cy} token left"
    cost, why = _trade_cost(ask, x, y)
    if why:
        return why
    have = ask.me.pool.of(cx)
    if not have:
        return f"your pool has no {cx}"
    if have < cost:
        return f"the trade {cx} -> {cy} costs {cost} {cx}; your pool has {have}"
    pool = ask.me.pool
    growth = (_spaces(pool.of(cx) - cost) - _spaces(pool.of(cx))
              + _spaces(pool.of(cy) + 1) - _spaces(pool.of(cy)))
    if growth > ask.room:
        return (f"no free space for {article(cy)} {cy} token: after the trade your "
                f"Center would use {ask.me.spaces_used + growth} of {ask.me.capacity} spaces")
    return None


def _trade_cost(ask, x, y):
    """(cost in X, None), or (0, why the trade is not one the rules allow)."""
    turn, cx, cy = ask.position.turn, TOKENS[x], TOKENS[y]
    lo, hi = min(x, y), max(x, y)
    crossed = [f"{CARETAKERS[i]}|{CARETAKERS[i + 1]}" for i in range(lo, hi)]
    before = turn.trained_down if y > x else turn.trained_up
    again = [b for b in crossed if b in before]
    if again:
        way = "downwards" if y > x else "upwards"
        return 0, (f"the {again[0]} boundary was crossed {way} this turn: no boundary "
                   "is crossed both ways in one Training")
    if y < x:
        return 1, None
    if (cx, cy) in ask.me.effects.one_to_one:
        return 1, None
    if y == x + 1:
        return 2, None
    return 0, (f"{cx} trains up one tier at a time (2 {cx} -> 1 {CARETAKERS[x + 1]}); "
               f"{cx} -> {cy} needs an effect that allows it")


def _no_trade(ask):
    """Why Training cannot be chosen (no trade is possible), or None."""
    pool = ask.me.pool
    if not any(pool):
        return "your pool has no caretaker to train"
    reasons = [_trade(ask, x, y) for x in range(len(CARETAKERS)) if pool[x]
               for y in _natural_order(x)]
    if None in reasons:
        return None
    return f"no trade is possible with your pool ({tokens_text(pool)}): {reasons[0]}"


def _natural_order(x):
    """The colours X trades to, the usual trades first (one tier up, one
    down), so that the reason given is about the trade a person means."""
    others = [y for y in range(len(CARETAKERS)) if y != x]
    return sorted(others, key=lambda y: (y != x + 1, y != x - 1, y))


PHASES = {
    Phase.START: _start, Phase.CHOOSE: _choose, Phase.RECRUIT: _recruit_phase,
    Phase.HOUSE: _house_phase, Phase.CENTER: _center, Phase.TRAIN: _train_phase,
    Phase.EFFECT: _effect, Phase.DISCARD: _discard,
}
CENTER_RULES = {K.PROTECT: _protect, K.ASSIGN: _assign, K.MOVE: _move,
                K.UNASSIGN: _unassign, K.RELEASE: _release}
