# cython: language_level=3, boundscheck=False, wraparound=False
"""The owning Python classes around the compiled rules engine (csrc/).

`State` is a full game position, hidden draw-pile order included; it is what a
referee holds. `Observation` is what a seat may see: the same position with
the draw pile's order erased (only its contents are known). Bots receive
observations and sample `State`s from them with `determinize`.

Vocabulary (the enums cx_colour, cx_phase, ...; limits) is exported from
csrc/cx_types.h; coexist_ai.vocabulary names it for Python.
"""
from libc.string cimport memcpy, memset
from libc.stdint cimport uint8_t, uint64_t

from coexist_ai.errors import IllegalMoveError, SetupError, StateFormatError

# ---- the vocabulary's numbers, from cx_types.h --------------------------------

MAX_PLAYERS = CX_MAX_PLAYERS
MIN_PLAYERS = CX_MIN_PLAYERS
NUM_FAUNAS = CX_NUM_FAUNAS
MAX_CARDS = CX_MAX_CARDS
MISSION_SIZE = CX_MISSION_SIZE
TRACK_SIZE = CX_TRACK_SIZE
MAX_BOARD = CX_MAX_BOARD
MAX_START_RECRUIT = CX_MAX_START_RECRUIT
MAX_ACTIONS = CX_MAX_ACTIONS
MAX_SPACES = CX_MAX_SPACES
MAX_ROUNDS = CX_MAX_ROUNDS
MAX_PROTECT = CX_MAX_PROTECT
MAX_CAPTURE = CX_MAX_CAPTURE
NUM_CARETAKERS = CX_NUM_CARETAKERS
NUM_TOKENS = CX_NUM_TOKENS
SUPPLY_START = tuple(CX_SUPPLY_START[x] for x in range(CX_NUM_TOKENS))
TRACK_POINTS = tuple(CX_TRACK_POINTS[i] for i in range(CX_TRACK_SIZE))
EFFECT_PARAMETERS = tuple(CX_EFFECT_PARAMETERS[k] for k in range(CX_NUM_EFFECTS))
EFFECT_IMMEDIATE = tuple(bool(CX_EFFECT_IMMEDIATE[k]) for k in range(CX_NUM_EFFECTS))
STATE_BYTES = sizeof(cx_state)
CHANCE_PLAYER = -1          # current_player at a chance node (as OpenSpiel)

# what each number of cx_check_invariants (csrc/cx_check.c) means
INVARIANTS = {
    1: "a count, colour or card index is out of range, or an unused byte "
       "is not zero",
    2: "a token kind's total differs from the game's supply "
       "(C 28, F 24, P 20, H 20, S 32 in all)",
    3: "a card is in no place or in two",
    4: "a card is listed where its place says it is not",
    5: "a track holds more than 8 tokens, or an animal carries more than it needs",
    6: "an anti-cycle count is above the tokens on the animal",
    7: "released counts disagree",
    8: "the decision in front of the current seat cannot be asked "
       "(phase and turn fields do not fit the position, or no move is legal)",
    9: "a seat's permanent effects are not those of the animals it released",
    10: "a Conservation Center holds more animals than its capacity",
}

# what each number of cx_check_cardset (csrc/cx_cardset.c) means
_CARDSET_ERRORS = {
    1: "more than 128 cards, or an animal listed after a caretaker card",
    2: "center_spaces, release_goal or max_rounds out of range",
    3: "a card's kind, fauna, colour, needs or protect out of range",
    4: "an effect kind or its parameters out of range",
    5: "center_spaces plus the extra_space cards exceed 14",
    6: "more than 16 start_recruit cards",
    7: "capture_limit plus the capture_bonus amounts exceed 255",
}

_SETUP_ERRORS = {
    -1: "players must be 2, 3 or 4",
    -2: "faunas must be distinct, one per seat, among those the card set has",
    -3: "the first player must be one of the seats",
    -4: "the deck order must list every card of the chosen faunas exactly once",
}

_views_module = None


def _views():
    # views.py imports the vocabulary, which imports this module: load late
    global _views_module
    if _views_module is None:
        from coexist_ai import views
        _views_module = views
    return _views_module


# ---- card sets ---------------------------------------------------------------

cdef void _pack_card(cx_card *c, card) except *:
    """One Card of coexist_ai.cards into its cx_card."""
    memset(c, 0, sizeof(cx_card))
    c.is_animal, c.fauna = card.is_animal, card.fauna_code
    c.colour, c.capture = card.colour_code, card.capture
    c.conservation = card.conservation
    for x in range(CX_NUM_TOKENS):
        c.needs[x], c.protect[x] = card.needs[x], card.protect[x]
    effect = card.effect
    if effect is not None:
        c.effect, c.eff_colour = effect.code, effect.colour_code
        c.eff_amount = effect.amount or 0
        c.eff_from, c.eff_to = effect.from_code, effect.to_code


cdef class CoreCardSet:
    """A card set (coexist_ai.cards.CardSet) packed into the C struct, field
    by field; the engine then checks it against its own limits."""

    def __cinit__(self, card_set):
        if len(card_set.cards) > CX_MAX_CARDS:
            raise ValueError(f"card set {card_set.name!r} breaks the engine's "
                             f"limits: {_CARDSET_ERRORS[1]}")
        memset(&self.cs, 0, sizeof(cx_cardset))
        rules = card_set.rules
        self.cs.n_cards = len(card_set.cards)
        self.cs.center_spaces = rules["center_spaces"]
        self.cs.capture_limit = rules["capture_limit"]
        self.cs.release_goal = rules["release_goal"]
        self.cs.max_rounds = rules["max_rounds"]
        for i, card in enumerate(card_set.cards):
            _pack_card(&self.cs.cards[i], card)
        err = cx_check_cardset(&self.cs)
        if err:
            raise ValueError(f"card set {card_set.name!r} breaks the engine's "
                             f"limits: {_CARDSET_ERRORS[err]}")
        self.card_set = card_set

    def num_distinct_actions(self):
        return cx_num_distinct_actions(&self.cs)

    def packed_rules(self):
        """The set-wide fields the engine holds, by name."""
        return {"n_cards": self.cs.n_cards, "center_spaces": self.cs.center_spaces,
                "capture_limit": self.cs.capture_limit,
                "release_goal": self.cs.release_goal, "max_rounds": self.cs.max_rounds}

    def packed_card(self, int index):
        """The cx_card the engine holds at `index` (0..127), by field name."""
        if not 0 <= index < CX_MAX_CARDS:
            raise IndexError(f"card index {index!r}: expected 0..{CX_MAX_CARDS - 1}")
        cdef cx_card *c = &self.cs.cards[index]
        return {"is_animal": c.is_animal, "fauna": c.fauna, "colour": c.colour,
                "capture": c.capture, "conservation": c.conservation,
                "needs": _bytes_list(c.needs, CX_NUM_TOKENS),
                "protect": _bytes_list(c.protect, CX_NUM_TOKENS),
                "effect": c.effect, "eff_colour": c.eff_colour,
                "eff_amount": c.eff_amount, "eff_from": c.eff_from, "eff_to": c.eff_to}


# Packed card sets by content (sha256), the most recently used last. Keyed by
# content, not identity, and bounded: a server or worker that loads the same
# set for every game keeps one copy, and one that sees many sets keeps a few.
_CORE_CACHE_SIZE = 16
_core_cache = {}


def core_card_set(card_set):
    """The packed C card set of a CardSet, built once per content."""
    key = card_set.sha256
    hit = _core_cache.pop(key, None)
    if hit is None:
        hit = CoreCardSet(card_set)
        while len(_core_cache) >= _CORE_CACHE_SIZE:
            del _core_cache[next(iter(_core_cache))]
    _core_cache[key] = hit
    return hit


# ---- dense action ids (csrc/cx_actions.c) -------------------------------------

def num_distinct_actions(card_set):
    """How many distinct player moves the card set allows: dense action ids
    run from 0 to this minus one (OpenSpiel's num_distinct_actions)."""
    return cx_num_distinct_actions(&(<CoreCardSet>core_card_set(card_set)).cs)


def action_id(card_set, action):
    """The dense id of a player move (ids sort as the actions do);
    ValueError for an integer that is no move of this card set."""
    cdef CoreCardSet core = core_card_set(card_set)
    found = cx_action_id(&core.cs, action) if _is_action_int(action) else -1
    if found < 0:
        raise ValueError(f"{action!r} is not a player move of card set "
                         f"{card_set.name!r}")
    return found


def action_of_id(card_set, int dense_id):
    """The action integer of a dense id (ValueError out of range)."""
    cdef CoreCardSet core = core_card_set(card_set)
    found = cx_action_of_id(&core.cs, dense_id)
    if found < 0:
        raise ValueError(f"action id {dense_id!r}: expected 0.."
                         f"{cx_num_distinct_actions(&core.cs) - 1}")
    return found


# ---- positions ---------------------------------------------------------------

cdef int _unmade(object position) except -1:
    raise TypeError(f"this {type(position).__name__} was made without its "
                    "constructor and holds no game: use State.new(...), "
                    "State.from_json(...) or State.observation(seat)")


cdef class Position:
    """What every position shares: the public view, legal moves and score."""

    def __init__(self):
        raise TypeError("use State.new(...) or State.from_json(...)")

    # -- identity and turn -------------------------------------------------
    @property
    def card_set(self):
        self.cset()
        return self.core.card_set

    @property
    def num_players(self):
        return self.s.n_players

    @property
    def turn_seat(self):
        """The seat whose turn it is (at a chance node: whose turn just
        ended; once the game is over: the last seat that moved)."""
        return self.s.current

    @property
    def current_player(self):
        """The seat to move; CHANCE_PLAYER (-1) at a chance node; the last
        seat that moved once the game is over."""
        return CHANCE_PLAYER if self.s.phase == CX_PH_REFILL else self.s.current

    @property
    def first_player(self):
        return self.s.first_player

    @property
    def phase(self):
        """The decision in front of the current seat (vocabulary.Phase)."""
        from coexist_ai.vocabulary import Phase
        return Phase.of(self.s.phase)

    @property
    def rounds(self):
        """Complete rounds played."""
        return self.s.rounds

    @property
    def end_triggered(self):
        return bool(self.s.end_triggered)

    @property
    def explicit_chance(self):
        """True when the end-of-turn refill is a chance decision."""
        return bool(self.s.explicit_chance)

    def is_over(self):
        return self.s.phase == CX_PH_OVER

    def is_chance_node(self):
        """True when the next move is chance's: a card revealed onto the
        Mission (explicit chance only)."""
        return self.s.phase == CX_PH_REFILL

    # -- moves ---------------------------------------------------------------
    def legal_actions(self):
        """The legal actions as integers, in ascending order (at a chance
        node, one `reveal` per card of the draw pile)."""
        cdef cx_action buf[CX_MAX_ACTIONS]
        cdef int n = cx_legal_actions(&self.s, self.cset(), buf)
        return [buf[i] for i in range(n)]

    def legal_action_ids(self):
        """The legal player moves as dense ids, ascending (at a chance node:
        the cards that may be revealed)."""
        cdef cx_action buf[CX_MAX_ACTIONS]
        cdef const cx_cardset *cs = self.cset()
        cdef int n = cx_legal_actions(&self.s, cs, buf)
        if self.s.phase == CX_PH_REFILL:
            return [buf[i] & 255 for i in range(n)]
        return [cx_action_id(cs, buf[i]) for i in range(n)]

    def legal_action_mask(self):
        """A numpy bool vector over the dense ids: True where legal."""
        import numpy
        cdef const cx_cardset *cs = self.cset()
        mask = numpy.zeros(cx_num_distinct_actions(cs), dtype=bool)
        if self.s.phase != CX_PH_REFILL:
            mask[self.legal_action_ids()] = True
        return mask

    def chance_outcomes(self):
        """At a chance node, [(reveal action, probability)]: each card of the
        draw pile equally likely, by card index (the card is action & 255);
        ValueError elsewhere."""
        if self.s.phase != CX_PH_REFILL:
            raise ValueError(f"not a chance node (phase {self.phase!r})")
        actions = self.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]

    def is_legal(self, action):
        if not _is_action_int(action):
            return False
        return bool(cx_is_legal(&self.s, self.cset(), action))

    def legal_moves(self):
        """The legal actions in the project's move notation."""
        from coexist_ai.notation import action_to_move
        cs = self.card_set
        return [action_to_move(cs, a) for a in self.legal_actions()]

    def move_name(self, action):
        from coexist_ai.notation import action_to_move
        return action_to_move(self.card_set, action)

    def parse_move(self, str text):
        """The legal action that `text` names; NotationError if none does."""
        from coexist_ai.notation import parse_legal_move
        return parse_legal_move(self, text)

    # -- score ---------------------------------------------------------------
    def scores(self):
        cdef int out[CX_MAX_PLAYERS]
        cx_scores(&self.s, self.cset(), out)
        return [out[p] for p in range(self.s.n_players)]

    def ranks(self):
        """1 for first place; tied seats share the better place."""
        cdef int out[CX_MAX_PLAYERS]
        cx_ranks(&self.s, self.cset(), out)
        return [out[p] for p in range(self.s.n_players)]

    def returns(self):
        """Per seat, once the game is over: (seats it beat - seats that beat
        it) / (players - 1), so +1 / -1 / 0 at 2 players and zero-sum at
        any count; 0.0 each before the end (as OpenSpiel's returns())."""
        n = self.s.n_players
        if self.s.phase != CX_PH_OVER:
            return [0.0] * n
        ranks = self.ranks()
        return [sum((ranks[p] < ranks[q]) - (ranks[p] > ranks[q]) for q in range(n))
                / (n - 1) for p in range(n)]

    def score_breakdown(self):
        """Per seat its views.Score (conservation, reputation, specialty,
        and .total) if the game ended now."""
        cdef int out[CX_MAX_PLAYERS][3]
        cx_score_breakdown(&self.s, self.cset(), out)
        Score = _views().Score
        return [Score(out[p][0], out[p][1], out[p][2]) for p in range(self.s.n_players)]

    # -- public view (typed: coexist_ai.views) --------------------------------
    def capture_limit(self, int seat):
        return cx_capture_limit(&self.s, self.cset(), self._seat(seat))

    def spaces_used(self, int seat):
        cdef int p = self._seat(seat)
        return cx_spaces_used(&self.s, p)

    def capacity(self, int seat):
        return cx_capacity(&self.s, self.cset(), self._seat(seat))

    @property
    def mission(self):
        """The Mission board's cards (coexist_ai.cards.Card), in reveal order."""
        cards = self.card_set.cards
        return tuple(cards[self.s.mission[i]] for i in range(self.s.n_mission))

    @property
    def supply(self):
        """The tokens left in the supply (views.Tokens)."""
        return _views().Tokens(*(self.s.supply[x] for x in range(CX_NUM_TOKENS)))

    @property
    def seats(self):
        """Every seat's views.SeatView, by seat."""
        raw, scores = self._public_raw(), self.score_breakdown()
        view = _views().seat_view
        return tuple(view(self, raw, p, scores[p]) for p in range(self.s.n_players))

    def seat(self, int seat):
        """One seat's views.SeatView."""
        return _views().seat_view(self, self._public_raw(), self._seat(seat),
                                  self.score_breakdown()[seat])

    @property
    def turn(self):
        """The scratch of the turn in progress (views.TurnView)."""
        return _views().turn_view(self, self._public_raw())

    @property
    def discard_pile(self):
        """The discarded cards (recruited caretaker cards, discarded
        animals), in card-set order."""
        from coexist_ai.vocabulary import Location
        return _views().cards_at(self, self._public_raw(), Location.DISCARD)

    @property
    def protected_area(self):
        """The common protected area: (card, the seat that put it there), in
        card-set order."""
        views = _views()
        cards = self.card_set.cards
        return tuple((cards[c], place.seat) for c in range(self.cset().n_cards)
                     for place in (views.place_of(self.s.loc[c]),)
                     if place.location == "protected")

    def location(self, card):
        """Where a card (a Card, id or index) is: views.Place."""
        index = self.card_set.index_of(card) if isinstance(card, str) else \
            getattr(card, "index", card)
        if not isinstance(index, int) or not 0 <= index < self.cset().n_cards:
            raise ValueError(f"{card!r} is not a card of {self.card_set.name!r}")
        return _views().place_of(self.s.loc[index])

    def draw_pile_size(self):
        return self.s.deck_len - self.s.deck_pos

    def draw_pile_contents(self):
        """The cards still in the draw pile, as indices in card-index order:
        what is known of it. Its real order is never shown here."""
        cdef cx_state hidden
        memcpy(&hidden, &self.s, sizeof(cx_state))
        cx_hide_deck(&hidden)
        return [hidden.deck[i] for i in range(hidden.deck_pos, hidden.deck_len)]

    def public_hash(self):
        """A 64-bit hash of everything but the draw pile's order."""
        return cx_public_hash(&self.s)

    def _public_raw(self):
        """The C struct as a dict, with the draw pile's order erased
        (private: the typed views and the JSON writer read it)."""
        cdef cx_state hidden
        memcpy(&hidden, &self.s, sizeof(cx_state))
        cx_hide_deck(&hidden)
        return _state_to_dict(&hidden)

    def check_invariants(self):
        """0 when the position is consistent, else the number of the broken
        invariant (INVARIANTS; csrc/cx_check.c)."""
        return cx_check_invariants(&self.s, self.cset())

    def _check_bounds(self):
        """Invariant 1 alone: every index the engine reads is in range."""
        return cx_check_bounds(&self.s, self.cset())

    cdef int _load_raw(self, card_set, raw, bint begin_turn,
                       bint derive_effects) except -1:
        """Fill the struct from a raw dict, derive the seats' permanent
        effects from their released animals and start the turn if asked,
        and refuse it unless every invariant holds."""
        self.core = core_card_set(card_set)
        _dict_to_state(&self.s, raw)
        cdef int broken = cx_check_bounds(&self.s, self.cset())
        if not broken and derive_effects:
            cx_derive_effects(&self.s, self.cset())
        if not broken and begin_turn:
            cx_begin_turn(&self.s)
        if not broken:
            broken = cx_check_invariants(&self.s, self.cset())
        if broken:
            raise StateFormatError(f"the position is inconsistent: invariant "
                                   f"{broken} is broken ({INVARIANTS[broken]})")
        return 0

    def to_json(self, **dump_options):
        from coexist_ai.state_json import position_to_json
        return position_to_json(self, **dump_options)

    cdef int _seat(self, int seat) except -1:
        if not 0 <= seat < self.s.n_players:
            raise IndexError(f"seat {seat!r} is not in 0..{self.s.n_players - 1}")
        return seat

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return (other.card_set == self.card_set and
                (<Position>other)._bytes() == self._bytes())

    cdef bytes _bytes(self):
        return (<char *>&self.s)[:sizeof(cx_state)]

    def __hash__(self):
        return cx_public_hash(&self.s)


cdef class State(Position):
    """A full position, hidden draw-pile order included (a referee's view),
    with the history of the actions applied to it since it was made."""

    cdef int _record(self, int action) except -1:
        self._undo.append(self._bytes())
        self._history.append(action)
        return 0

    def __init__(self):
        raise TypeError("use State.new(...) or State.from_json(...)")

    def __cinit__(self):
        self._history, self._undo = [], []

    @staticmethod
    def new(card_set=None, int players=2, faunas=None, int first_player=0,
            seed=None, deck=None, bint explicit_chance=False):
        """A new game. Faunas by seat are names or indices, drawn from the seed
        when omitted. The draw pile is `deck` (card ids or indices, dealt from
        the front) or a shuffle from `seed`. With `explicit_chance` the
        Mission starts empty and every card dealt onto it, the opening five
        included, is a chance decision (is_chance_node, chance_outcomes)."""
        cdef State st = State.__new__(State)
        if card_set is None:
            from coexist_ai.cards import default_card_set
            card_set = default_card_set()
        st.core = core_card_set(card_set)
        cdef uint8_t fauna_buf[CX_MAX_PLAYERS]
        cdef uint8_t deck_buf[CX_MAX_CARDS]
        cdef uint8_t *fauna_ptr = NULL
        if not CX_MIN_PLAYERS <= players <= CX_MAX_PLAYERS:
            raise SetupError(f"players {players!r}: {_SETUP_ERRORS[-1]}")
        if faunas is None and explicit_chance:
            if seed is None:
                raise SetupError("explicit chance needs the faunas, or a seed to draw them")
            faunas = _drawn_faunas(st, players, seed)
        if faunas is not None:
            codes = _fauna_codes(faunas, players)
            for p in range(players):
                fauna_buf[p] = codes[p]
            fauna_ptr = fauna_buf
        if explicit_chance:
            err = cx_new_game_explicit_chance(&st.s, st.cset(), players, fauna_ptr,
                                              first_player)
        elif deck is None:
            if seed is None:
                raise SetupError("a new game needs a seed or an explicit deck order")
            err = cx_new_game_seeded(&st.s, st.cset(), players, fauna_ptr,
                                     first_player, _seed64(seed))
        else:
            if fauna_ptr == NULL:
                raise SetupError("an explicit deck order needs the faunas too")
            order = _card_indices(card_set, deck)
            for i, c in enumerate(order):
                deck_buf[i] = c
            err = cx_new_game(&st.s, st.cset(), players, fauna_ptr,
                              first_player, deck_buf, len(order))
        if err:
            raise SetupError(f"cannot set up the game: {_SETUP_ERRORS[err]} "
                             f"(players={players}, faunas={faunas!r}, "
                             f"first_player={first_player})")
        return st

    def copy(self):
        """An independent copy, history included (a few bytes per move)."""
        cdef State st = State.__new__(State)
        st.core = self.core
        memcpy(&st.s, &self.s, sizeof(cx_state))
        st._history, st._undo = list(self._history), list(self._undo)
        return st

    clone = copy   # OpenSpiel's name

    def apply(self, action):
        """Play a legal action; IllegalMoveError (state unchanged) otherwise."""
        if not _is_action_int(action) or not cx_is_legal(&self.s, self.cset(), action):
            from coexist_ai.notation import illegal_move_error
            raise illegal_move_error(self, action)
        self._record(action)
        cx_apply(&self.s, self.cset(), action)

    def apply_unchecked(self, int action):
        """Play an action without checking its legality (for callers that
        just checked it). Memory-safe whatever the action: the engine's
        guards make a move naming a card, slot or colour that is not there a
        no-op. An illegal action may still leave a position that breaks the
        game's invariants (check_invariants() says which)."""
        cdef const cx_cardset *cs = self.cset()
        self._record(action)
        cx_apply(&self.s, cs, action)

    def push(self, str move):
        """Play a move given in notation; returns its action."""
        action = self.parse_move(move)
        self._record(action)
        cx_apply(&self.s, self.cset(), action)
        return action

    def pop(self):
        """Take back the last action applied; returns it (IndexError when
        nothing was applied since the position was made)."""
        if not self._history:
            raise IndexError("no action to take back: the history is empty")
        undo = self._undo.pop()
        memcpy(&self.s, <const char *>undo, sizeof(cx_state))
        return self._history.pop()

    undo = pop

    def history(self):
        """The actions applied since the position was made, oldest first
        (chance reveals included)."""
        return list(self._history)

    def playout_random(self, seed, int max_actions=100000):
        """Finish the game with uniformly random moves (in C); returns the
        number of actions played. A fast path: those moves are not added to
        the history, which is cleared (pop() cannot go back past here)."""
        cdef cx_rng rng
        cx_rng_seed(&rng, _seed64(seed))
        self._history, self._undo = [], []
        return cx_playout_random(&self.s, self.cset(), &rng, max_actions)

    def observation(self, seat=None):
        """What `seat` sees (every seat sees the same: all but the order of
        the draw pile)."""
        cdef Observation ob = Observation.__new__(Observation)
        ob.core = self.core
        ob.viewer = self.s.current if seat is None else self._seat(seat)
        memcpy(&ob.s, &self.s, sizeof(cx_state))
        cx_hide_deck(&ob.s)
        return ob

    def referee_draw_pile(self):
        """The real order of the draw pile, next card first. For referees and
        tests only: no bot is ever given this."""
        return [self.s.deck[i] for i in range(self.s.deck_pos, self.s.deck_len)]

    def _referee_raw(self):
        """The whole C struct as a dict, hidden order included (private)."""
        return _state_to_dict(&self.s)

    def referee_bytes(self):
        return self._bytes()

    @staticmethod
    def _from_raw(card_set, raw, bint begin_turn=False, bint derive_effects=False):
        """A State from a struct dict (begin_turn: start the current seat's
        turn afresh first; derive_effects: the seats' permanent effects
        from their released animals); StateFormatError unless every
        invariant holds."""
        cdef State st = State.__new__(State)
        st._load_raw(card_set, raw, begin_turn, derive_effects)
        return st

    @staticmethod
    def from_json(text, card_set=None):
        from coexist_ai.state_json import state_from_json
        return state_from_json(text, card_set)


cdef class Observation(Position):
    """A seat's view: the position with the draw pile's order erased."""

    def __init__(self):
        raise TypeError("observations come from State.observation(seat)")

    def copy(self):
        cdef Observation ob = Observation.__new__(Observation)
        ob.core = self.core
        ob.viewer = self.viewer
        memcpy(&ob.s, &self.s, sizeof(cx_state))
        return ob

    def determinize(self, seed):
        """A State consistent with this observation: the unseen cards
        shuffled uniformly from `seed`, the public part untouched."""
        cdef cx_rng rng
        cdef State st = State.__new__(State)
        st.core = self.core
        memcpy(&st.s, &self.s, sizeof(cx_state))
        cx_rng_seed(&rng, _seed64(seed))
        cx_determinize(&st.s, &rng)
        return st

    @staticmethod
    def _from_raw(card_set, raw, int viewer=0, bint begin_turn=False,
                  bint derive_effects=False):
        """An Observation from a struct dict, as State._from_raw."""
        cdef Observation ob = Observation.__new__(Observation)
        ob._load_raw(card_set, raw, begin_turn, derive_effects)
        if not 0 <= viewer < ob.s.n_players:
            raise StateFormatError(f"viewer {viewer!r} is not a seat "
                                   f"(0..{ob.s.n_players - 1})")
        ob.viewer = viewer
        cx_hide_deck(&ob.s)
        return ob


cdef bint _is_action_int(action):
    return (isinstance(action, int) and not isinstance(action, bool)
            and 0 <= action < (1 << 27))


cdef uint64_t _seed64(seed) except? 0:
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError(f"seed {seed!r}: expected a whole number")
    return seed % (1 << 64)


def _drawn_faunas(State st, int players, seed):
    """The faunas a seeded new game would draw (for explicit chance)."""
    cdef State probe = State.__new__(State)
    probe.core = st.core
    if cx_new_game_seeded(&probe.s, st.cset(), players, NULL, 0, _seed64(seed)):
        raise SetupError(f"players {players!r}: the card set has too few faunas")
    return [probe.s.players[p].fauna for p in range(players)]


def _fauna_codes(faunas, int players):
    from coexist_ai.vocabulary import Fauna
    faunas = list(faunas)
    if len(faunas) != players:
        raise SetupError(f"faunas {faunas!r}: expected one per seat ({players})")
    codes = []
    for f in faunas:
        if isinstance(f, str) and f in tuple(Fauna):
            codes.append(Fauna(f).code)
        elif isinstance(f, int) and not isinstance(f, bool) and 0 <= f < CX_NUM_FAUNAS:
            codes.append(f)
        else:
            raise SetupError(f"fauna {f!r}: expected one of {', '.join(Fauna)}")
    return codes


def _card_indices(card_set, deck):
    order = []
    for c in deck:
        if isinstance(c, str):
            try:
                c = card_set.index_of(c)
            except KeyError as e:
                raise SetupError(f"deck: {e.args[0]}") from None
        if not isinstance(c, int) or not 0 <= c < len(card_set.cards):
            raise SetupError(f"deck: {c!r} is not a card of {card_set.name!r}")
        order.append(c)
    if len(order) > CX_MAX_CARDS:
        raise SetupError(f"deck: {len(order)} cards, at most {CX_MAX_CARDS}")
    return order


# ---- the C struct as a plain dict of ints and lists, and back -----------------
# (Cython's automatic struct conversion turns uint8_t arrays into bytes cut at
# the first zero, so the conversion is written out here.)

cdef list _bytes_list(const uint8_t *a, int n):
    return [a[i] for i in range(n)]


cdef object _byte_value(value, label):
    if type(value) is not int or not 0 <= value <= 255:
        raise StateFormatError(f"raw state: {label} = {value!r}: expected a "
                               "whole number 0..255")
    return value


def _raw_byte(d, key, path):
    """d[key] as a whole number 0..255, or StateFormatError naming it."""
    if not isinstance(d, dict) or key not in d:
        raise StateFormatError(f"raw state: {path}{key} is missing")
    return _byte_value(d[key], f"{path}{key}")


def _raw_list(d, key, int n, path):
    """d[key] as a list of n entries, or StateFormatError naming it."""
    if not isinstance(d, dict) or key not in d:
        raise StateFormatError(f"raw state: {path}{key} is missing")
    values = d[key]
    if not isinstance(values, list) or len(values) != n:
        raise StateFormatError(f"raw state: {path}{key}: expected a list of {n}")
    return values


cdef int _list_bytes(uint8_t *a, d, key, int n, path) except -1:
    values = _raw_list(d, key, n, path)
    for i in range(n):
        value = values[i]
        a[i] = value if type(value) is int and 0 <= value <= 255 else \
            _byte_value(value, f"{path}{key}[{i}]")
    return 0


cdef dict _slot_to_dict(const cx_slot *sl):
    return {"card": sl.card, "on": _bytes_list(sl.on, CX_NUM_TOKENS),
            "movable": _bytes_list(sl.movable, CX_NUM_CARETAKERS)}


_PLAYER_BYTES = ("n_board", "track", "fauna", "turns", "n_released",
                 "n_start_recruit", "extra_spaces", "capture_bonus", "skip_survival")
_PLAYER_LISTS = (("pool", CX_NUM_CARETAKERS), ("start_recruit", CX_MAX_START_RECRUIT),
                 ("double_protect", CX_NUM_CARETAKERS), ("one_to_one", CX_NUM_CARETAKERS))
_STATE_BYTES = ("n_players", "first_player", "current", "phase", "end_triggered",
                "rounds", "n_mission", "deck_len", "deck_pos", "step",
                "capture_used", "train_up", "train_down", "effect_card",
                "explicit_chance")
_STATE_LISTS = (("supply", CX_NUM_TOKENS), ("mission", CX_MISSION_SIZE),
                ("deck", CX_MAX_CARDS), ("loc", CX_MAX_CARDS))


cdef dict _player_to_dict(const cx_player *p):
    d = {"board": [_slot_to_dict(&p.board[i]) for i in range(CX_MAX_BOARD)],
         "n_board": p.n_board, "track": p.track, "fauna": p.fauna,
         "turns": p.turns, "n_released": p.n_released,
         "n_start_recruit": p.n_start_recruit, "extra_spaces": p.extra_spaces,
         "capture_bonus": p.capture_bonus, "skip_survival": p.skip_survival}
    d["pool"] = _bytes_list(p.pool, CX_NUM_CARETAKERS)
    d["start_recruit"] = _bytes_list(p.start_recruit, CX_MAX_START_RECRUIT)
    d["double_protect"] = _bytes_list(p.double_protect, CX_NUM_CARETAKERS)
    d["one_to_one"] = _bytes_list(p.one_to_one, CX_NUM_CARETAKERS)
    return d


cdef dict _state_to_dict(const cx_state *s):
    return {
        "n_players": s.n_players, "first_player": s.first_player,
        "current": s.current, "phase": s.phase,
        "end_triggered": s.end_triggered, "rounds": s.rounds,
        "n_mission": s.n_mission, "deck_len": s.deck_len, "deck_pos": s.deck_pos,
        "step": s.step, "capture_used": s.capture_used, "train_up": s.train_up,
        "train_down": s.train_down, "effect_card": s.effect_card,
        "explicit_chance": s.explicit_chance,
        "supply": _bytes_list(s.supply, CX_NUM_TOKENS),
        "mission": _bytes_list(s.mission, CX_MISSION_SIZE),
        "deck": _bytes_list(s.deck, CX_MAX_CARDS),
        "loc": _bytes_list(s.loc, CX_MAX_CARDS),
        "players": [_player_to_dict(&s.players[p]) for p in range(CX_MAX_PLAYERS)],
    }


def _blank_raw():
    """The raw dict of an all-zero state (readers fill it in)."""
    cdef cx_state zero
    memset(&zero, 0, sizeof(cx_state))
    return _state_to_dict(&zero)


cdef int _dict_to_player(cx_player *p, d, path) except -1:
    board = _raw_list(d, "board", CX_MAX_BOARD, path)
    for i in range(CX_MAX_BOARD):
        where = f"{path}board[{i}]."
        p.board[i].card = _raw_byte(board[i], "card", where)
        _list_bytes(p.board[i].on, board[i], "on", CX_NUM_TOKENS, where)
        _list_bytes(p.board[i].movable, board[i], "movable", CX_NUM_CARETAKERS, where)
    v = {key: _raw_byte(d, key, path) for key in _PLAYER_BYTES}
    p.n_board, p.track, p.fauna = v["n_board"], v["track"], v["fauna"]
    p.turns, p.n_released = v["turns"], v["n_released"]
    p.n_start_recruit = v["n_start_recruit"]
    p.extra_spaces, p.capture_bonus = v["extra_spaces"], v["capture_bonus"]
    p.skip_survival = v["skip_survival"]
    _list_bytes(p.pool, d, "pool", CX_NUM_CARETAKERS, path)
    _list_bytes(p.start_recruit, d, "start_recruit", CX_MAX_START_RECRUIT, path)
    _list_bytes(p.double_protect, d, "double_protect", CX_NUM_CARETAKERS, path)
    _list_bytes(p.one_to_one, d, "one_to_one", CX_NUM_CARETAKERS, path)
    return 0


cdef int _dict_to_state(cx_state *s, d) except -1:
    """Fill the struct from a raw dict; every field must be there, every
    number a byte (StateFormatError naming the field otherwise)."""
    memset(s, 0, sizeof(cx_state))
    if not isinstance(d, dict):
        raise StateFormatError(f"raw state: expected a dict, got {type(d).__name__}")
    d = dict(d)
    d.setdefault("explicit_chance", 0)   # written before explicit chance existed
    v = {key: _raw_byte(d, key, "") for key in _STATE_BYTES}
    s.n_players, s.first_player = v["n_players"], v["first_player"]
    s.current, s.phase = v["current"], v["phase"]
    s.end_triggered, s.rounds = v["end_triggered"], v["rounds"]
    s.n_mission = v["n_mission"]
    s.deck_len, s.deck_pos, s.step = v["deck_len"], v["deck_pos"], v["step"]
    s.capture_used, s.effect_card = v["capture_used"], v["effect_card"]
    s.train_up, s.train_down = v["train_up"], v["train_down"]
    s.explicit_chance = v["explicit_chance"]
    _list_bytes(s.supply, d, "supply", CX_NUM_TOKENS, "")
    _list_bytes(s.mission, d, "mission", CX_MISSION_SIZE, "")
    _list_bytes(s.deck, d, "deck", CX_MAX_CARDS, "")
    _list_bytes(s.loc, d, "loc", CX_MAX_CARDS, "")
    players = _raw_list(d, "players", CX_MAX_PLAYERS, "")
    for p in range(CX_MAX_PLAYERS):
        _dict_to_player(&s.players[p], players[p], f"players[{p}].")
    return 0


# ---- benchmark loops (coexist_ai/bench.py times them) ----------------------

def bench_random_games(card_set, int players, int games, seed):
    """Play `games` random games in C without the GIL; returns
    (seconds, actions played)."""
    from time import perf_counter
    cdef CoreCardSet core = core_card_set(card_set)
    cdef uint64_t s64 = _seed64(seed)
    cdef long long actions
    start = perf_counter()
    with nogil:
        actions = cx_bench_random_games(&core.cs, players, games, s64)
    if actions < 0:
        raise SetupError(f"cannot deal a {players}-player game from {card_set.name!r}")
    return perf_counter() - start, actions


def bench_copy(State state not None, int iterations):
    """Seconds for `iterations` struct copies, then for as many memcpy's of
    the same number of bytes."""
    from time import perf_counter
    start = perf_counter()
    with nogil:
        cx_bench_copy_struct(&state.s, iterations)
    middle = perf_counter()
    with nogil:
        cx_bench_copy_memcpy(&state.s, iterations)
    return middle - start, perf_counter() - middle
