# cython: language_level=3, boundscheck=False, wraparound=False
"""The owning Python classes around the compiled rules engine (csrc/).

`State` is a full game position, hidden draw-pile order included; it is what a
referee holds. `Observation` is what a seat may see: the same position with
the draw pile's order erased (only its contents are known). Bots receive
observations and sample `State`s from them with `determinize`.
"""
from libc.string cimport memcpy, memset
from libc.stdint cimport uint8_t, uint64_t

from coexist_ai.errors import IllegalMoveError, SetupError, StateFormatError

include "_raw.pxi"
include "_search.pxi"

FAUNAS = ("forest", "air", "sea", "savannah")
COLOURS = ("C", "F", "P", "H", "S")
PHASES = ("start", "choose", "recruit", "house", "center", "train", "effect",
          "discard", "over")
STATE_BYTES = sizeof(cx_state)

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
    1: "more than 128 cards",
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


cdef class CoreCardSet:
    """A card set (coexist_ai.cards.CardSet) packed into the C struct."""

    def __cinit__(self, card_set):
        # every field of cx_cardset is a byte: the loader writes its image
        image = card_set.to_c_bytes()
        if len(image) != sizeof(cx_cardset):
            raise ValueError(f"card set image of {len(image)} bytes, the engine "
                             f"expects {sizeof(cx_cardset)}")
        memcpy(&self.cs, <const char *>image, sizeof(cx_cardset))
        err = cx_check_cardset(&self.cs)
        if err:
            raise ValueError(f"card set {card_set.name!r} breaks the engine's "
                             f"limits: {_CARDSET_ERRORS[err]}")
        self.card_set = card_set


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
        return self.core.card_set

    @property
    def num_players(self):
        return self.s.n_players

    @property
    def current_player(self):
        """The seat to move (the last seat that moved once the game is over)."""
        return self.s.current

    @property
    def first_player(self):
        return self.s.first_player

    @property
    def phase(self):
        """The kind of decision in front of the current seat (see PHASES)."""
        return PHASES[self.s.phase]

    @property
    def rounds(self):
        """Complete rounds played."""
        return self.s.rounds

    @property
    def end_triggered(self):
        return bool(self.s.end_triggered)

    def is_over(self):
        return self.s.phase == CX_PH_OVER

    # -- moves ---------------------------------------------------------------
    def legal_actions(self):
        """The legal actions as integers, in the engine's fixed order."""
        cdef cx_action buf[CX_MAX_ACTIONS]
        cdef int n = cx_legal_actions(&self.s, self.cset(), buf)
        return [buf[i] for i in range(n)]

    def is_legal(self, action):
        if not _is_action_int(action):
            return False
        return bool(cx_is_legal(&self.s, self.cset(), action))

    def legal_moves(self):
        """The legal actions in the project's move notation."""
        from coexist_ai.notation import action_to_move
        cs = self.core.card_set
        return [action_to_move(cs, a) for a in self.legal_actions()]

    def move_name(self, action):
        from coexist_ai.notation import action_to_move
        return action_to_move(self.core.card_set, action)

    def parse_move(self, str text):
        """The legal action that `text` names; NotationError if none does."""
        from coexist_ai.notation import parse_legal_move
        return parse_legal_move(self, text)

    # -- score ---------------------------------------------------------------
    def scores(self):
        cdef int out[4]
        cx_scores(&self.s, self.cset(), out)
        return [out[p] for p in range(self.s.n_players)]

    def ranks(self):
        """1 for first place; tied seats share the better place."""
        cdef int out[4]
        cx_ranks(&self.s, self.cset(), out)
        return [out[p] for p in range(self.s.n_players)]

    def score_breakdown(self):
        """Per seat a dict of conservation, reputation, specialty and total."""
        cdef int out[4][3]
        cx_score_breakdown(&self.s, self.cset(), out)
        return [{"conservation": out[p][0], "reputation": out[p][1],
                 "specialty": out[p][2],
                 "total": out[p][0] + out[p][1] + out[p][2]}
                for p in range(self.s.n_players)]

    # -- public view ---------------------------------------------------------
    def capture_limit(self, int seat):
        return cx_capture_limit(&self.s, self.cset(), self._seat(seat))

    def spaces_used(self, int seat):
        return cx_spaces_used(&self.s, self._seat(seat))

    def capacity(self, int seat):
        return cx_capacity(&self.s, self.cset(), self._seat(seat))

    def draw_pile_size(self):
        return self.s.deck_len - self.s.deck_pos

    def draw_pile_contents(self):
        """The cards still in the draw pile, in card-index order: what is
        known of it. Its real order is never shown here."""
        cdef cx_state hidden
        memcpy(&hidden, &self.s, sizeof(cx_state))
        cx_hide_deck(&hidden)
        return [hidden.deck[i] for i in range(hidden.deck_pos, hidden.deck_len)]

    def public_hash(self):
        """A 64-bit hash of everything but the draw pile's order."""
        return cx_public_hash(&self.s)

    def public_raw(self):
        """The C struct as a dict, with the draw pile's order erased."""
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

    cdef int _load_raw(self, card_set, raw, bint begin_turn) except -1:
        """Fill the struct from a raw dict, start the turn if asked, and
        refuse it unless every invariant holds."""
        self.core = core_card_set(card_set)
        _dict_to_state(&self.s, raw)
        cdef int broken = cx_check_bounds(&self.s, self.cset())
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
        return (other.card_set == self.core.card_set and
                (<Position>other)._bytes() == self._bytes())

    cdef bytes _bytes(self):
        return (<char *>&self.s)[:sizeof(cx_state)]

    def __hash__(self):
        return cx_public_hash(&self.s)


cdef class State(Position):
    """A full position, hidden draw-pile order included (a referee's view)."""

    def __init__(self):
        raise TypeError("use State.new(...) or State.from_json(...)")

    @staticmethod
    def new(card_set=None, int players=2, faunas=None, int first_player=0,
            seed=None, deck=None):
        """A new game. Faunas by seat are names or indices, drawn from the seed
        when omitted. The draw pile is `deck` (card ids or indices, dealt from
        the front) or a shuffle from `seed`."""
        cdef State st = State.__new__(State)
        if card_set is None:
            from coexist_ai.cards import default_card_set
            card_set = default_card_set()
        st.core = core_card_set(card_set)
        cdef uint8_t fauna_buf[4]
        cdef uint8_t deck_buf[128]
        cdef uint8_t *fauna_ptr = NULL
        if not 2 <= players <= 4:
            raise SetupError(f"players {players!r}: {_SETUP_ERRORS[-1]}")
        if faunas is not None:
            codes = _fauna_codes(faunas, players)
            for p in range(players):
                fauna_buf[p] = codes[p]
            fauna_ptr = fauna_buf
        if deck is None:
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
        cdef State st = State.__new__(State)
        st.core = self.core
        memcpy(&st.s, &self.s, sizeof(cx_state))
        return st

    def apply(self, action):
        """Play a legal action; IllegalMoveError (state unchanged) otherwise."""
        if not _is_action_int(action) or not cx_is_legal(&self.s, self.cset(), action):
            from coexist_ai.notation import illegal_move_error
            raise illegal_move_error(self, action)
        cx_apply(&self.s, self.cset(), action)

    def apply_unchecked(self, int action):
        """Play an action without checking its legality (for callers that
        just checked it). Memory-safe whatever the action: the engine's
        guards make a move naming a card, slot or colour that is not there a
        no-op. An illegal action may still leave a position that breaks the
        game's invariants (check_invariants() says which)."""
        cx_apply(&self.s, self.cset(), action)

    def push(self, str move):
        """Play a move given in notation; returns its action."""
        action = self.parse_move(move)
        cx_apply(&self.s, self.cset(), action)
        return action

    def playout_random(self, seed, int max_actions=100000):
        """Finish the game with uniformly random moves (in C); returns the
        number of actions played."""
        cdef cx_rng rng
        cx_rng_seed(&rng, _seed64(seed))
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

    def referee_raw(self):
        """The whole C struct as a dict (hidden order included)."""
        return _state_to_dict(&self.s)

    def referee_bytes(self):
        return self._bytes()

    @staticmethod
    def from_raw(card_set, raw, bint begin_turn=False):
        """A State from a struct dict (begin_turn: start the current seat's
        turn afresh first); StateFormatError unless every invariant holds."""
        cdef State st = State.__new__(State)
        st._load_raw(card_set, raw, begin_turn)
        return st

    @staticmethod
    def from_json(text, card_set=None):
        from coexist_ai.state_json import state_from_json
        return state_from_json(text, card_set)


cdef class Observation(Position):
    """A seat's view: the position with the draw pile's order erased."""
    cdef readonly int viewer

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
    def from_raw(card_set, raw, int viewer=0, bint begin_turn=False):
        """An Observation from a struct dict, as State.from_raw."""
        cdef Observation ob = Observation.__new__(Observation)
        ob._load_raw(card_set, raw, begin_turn)
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


def _fauna_codes(faunas, int players):
    faunas = list(faunas)
    if len(faunas) != players:
        raise SetupError(f"faunas {faunas!r}: expected one per seat ({players})")
    codes = []
    for f in faunas:
        if isinstance(f, str) and f in FAUNAS:
            codes.append(FAUNAS.index(f))
        elif isinstance(f, int) and 0 <= f < 4:
            codes.append(f)
        else:
            raise SetupError(f"fauna {f!r}: expected one of {', '.join(FAUNAS)}")
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
    if len(order) > 128:
        raise SetupError(f"deck: {len(order)} cards, at most 128")
    return order


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
