# _engine.pxd -- the C interface of the rules engine (csrc/), for Cython.
#
# Every limit, enum and struct is declared from csrc/cx_types.h; no number
# is restated here. The cpdef enums are exported to Python as IntEnums with
# the C names (coexist_ai/vocabulary.py gives them their Python names).
from libc.stdint cimport uint8_t, int32_t, uint64_t

cdef extern from "cx_types.h" nogil:
    enum:
        CX_MAX_PLAYERS          # seats at most
        CX_MIN_PLAYERS          # seats at least
        CX_NUM_FAUNAS           # faunas (specialties)
        CX_MAX_CARDS            # cards in a card set, at most
        CX_MISSION_SIZE         # face-up cards on the Mission board
        CX_TRACK_SIZE           # spaces of a Reputation track
        CX_MAX_BOARD            # animals on one Conservation Center, at most
        CX_MAX_START_RECRUIT    # start_recruit effects one seat can own
        CX_MAX_ACTIONS          # legal moves of one decision, at most
        CX_MAX_SPACES           # center_spaces + extra_space cards, at most
        CX_MAX_ROUNDS           # the largest max_rounds a card set may ask
        CX_MAX_PROTECT          # tokens of one colour a protect may gain
        CX_MAX_CAPTURE          # capture_limit + every capture_bonus
        CX_NUM_CARETAKERS       # caretaker colours C F P H
        CX_NUM_TOKENS           # token colours C F P H S
        CX_NUM_EFFECTS          # effect kinds, "none" included
        CX_NUM_LOCS             # location codes (places + seat)
        CX_NUM_PHASES           # decisions
        CX_NUM_ACTION_KINDS     # kinds of move, reveal included

    const uint8_t CX_SUPPLY_START[5]    # tokens of each colour in a game
    const uint8_t CX_TRACK_POINTS[8]    # points printed on track spaces 1..8

    cpdef enum cx_colour:
        CX_C                    # Congener caretaker, the lowest tier
        CX_F                    # Water/Food caretaker
        CX_P                    # Protection caretaker
        CX_H                    # Habitat caretaker, the highest tier
        CX_S                    # Survival token

    cpdef enum cx_fauna:
        CX_FOREST
        CX_AIR
        CX_SEA
        CX_SAVANNAH

    cpdef enum cx_effect_kind:
        CX_EFF_NONE
        CX_EFF_START_RECRUIT            # permanent, start of turn: colour
        CX_EFF_CAPTURE_BONUS            # permanent, Mission B: amount
        CX_EFF_DISCARD_SURVIVAL         # immediate: amount
        CX_EFF_RECRUIT_TWO              # immediate: colour
        CX_EFF_HOUSE_ONE                # immediate
        CX_EFF_RECRUIT_MISSION          # immediate
        CX_EFF_DISCARD_SURVIVAL_RECRUIT # immediate: colour
        CX_EFF_EXTRA_SPACE              # permanent
        CX_EFF_DOUBLE_PROTECT           # permanent, Center: colour
        CX_EFF_SKIP_SURVIVAL            # permanent, Center
        CX_EFF_TRAIN_ONE_TO_ONE         # permanent, Training: from, to

    cpdef enum cx_effect_parameter:
        CX_PARAM_COLOUR                 # the effect names a colour
        CX_PARAM_AMOUNT                 # ... an amount
        CX_PARAM_PAIR                   # ... a (from, to) pair

    cpdef enum cx_location:
        CX_LOC_OUT              # not in this game
        CX_LOC_DECK             # in the draw pile
        CX_LOC_MISSION          # face up on the Mission board
        CX_LOC_DISCARD          # discard pile
        CX_LOC_BOARD            # + seat: on that seat's Conservation Center
        CX_LOC_RELEASED         # + seat: released by that seat
        CX_LOC_PROTECTED        # + seat: put in the protected area by it

    cpdef enum cx_phase:
        CX_PH_START             # start_recruit effects: apply / skip
        CX_PH_CHOOSE            # choose the option of the turn
        CX_PH_RECRUIT           # Mission A after the first recruit
        CX_PH_HOUSE             # Mission B after the first house
        CX_PH_CENTER            # Conservation Center actions
        CX_PH_TRAIN             # Training trades
        CX_PH_EFFECT            # the immediate effect of a released animal
        CX_PH_DISCARD           # end of turn, over capacity
        CX_PH_OVER              # the game has ended
        CX_PH_REFILL            # explicit chance: reveal a Mission card

    cpdef enum cx_action_kind:
        CX_A_PASS               # pass (nothing else is legal)
        CX_A_END                # end the option / the effect
        CX_A_CENTER             # choose the Conservation Center
        CX_A_TRAIN_START        # choose Training
        CX_A_APPLY              # apply an effect
        CX_A_SKIP               # skip an effect
        CX_A_RECRUIT            # recruit X
        CX_A_HOUSE              # house A
        CX_A_PROTECT            # protect A
        CX_A_ASSIGN             # assign X A (X may be S)
        CX_A_MOVE               # move X A B
        CX_A_UNASSIGN           # unassign X A
        CX_A_RELEASE            # release A
        CX_A_TRAIN              # train X Y
        CX_A_DISCARD_TOKEN      # discard X
        CX_A_DISCARD_ANIMAL     # discard A
        CX_A_REVEAL             # chance: card A comes onto the Mission

    ctypedef int32_t cx_action  # kind, colours and cards packed (cx_types.h)

    ctypedef struct cx_card:
        uint8_t is_animal       # 1 animal card, 0 caretaker card
        uint8_t fauna           # cx_fauna
        uint8_t colour          # caretaker card: its colour (C..H)
        uint8_t capture         # animal: capture value (Mission B)
        uint8_t conservation    # animal: points when released
        uint8_t needs[CX_NUM_TOKENS]    # animal: tokens to carry for release
        uint8_t protect[CX_NUM_TOKENS]  # animal: tokens gained when protected
        uint8_t effect          # cx_effect_kind
        uint8_t eff_colour      # effect parameter: colour
        uint8_t eff_amount      # effect parameter: amount
        uint8_t eff_from        # train_one_to_one: the colour given
        uint8_t eff_to          # train_one_to_one: the colour gained

    ctypedef struct cx_cardset:
        uint8_t n_cards         # cards used in cards[]
        uint8_t center_spaces   # base capacity of a Conservation Center
        uint8_t capture_limit   # Mission B limit with an empty track
        uint8_t release_goal    # releases that trigger the end
        uint8_t max_rounds      # safeguard: complete rounds before the end
        cx_card cards[CX_MAX_CARDS]     # animals first, then caretaker cards

    ctypedef struct cx_slot:
        uint8_t card                    # card index of the animal
        uint8_t on[CX_NUM_TOKENS]       # tokens on the card, by colour
        uint8_t movable[CX_NUM_CARETAKERS]  # of on[], those that may still
                                            # move this turn (anti-cycle)

    ctypedef struct cx_player:
        cx_slot board[CX_MAX_BOARD]     # animals in the order housed
        uint8_t n_board                 # animals on the board
        uint8_t pool[CX_NUM_CARETAKERS] # unassigned caretakers by colour
        uint8_t track                   # Survival tokens on the track, 0..8
        uint8_t fauna                   # specialty of the seat
        uint8_t turns                   # turns this seat has completed
        uint8_t n_released              # animals released
        uint8_t n_start_recruit         # start_recruit effects owned
        uint8_t start_recruit[CX_MAX_START_RECRUIT]  # their colours, in
                                                     # the order released
        uint8_t extra_spaces            # extra_space effects owned
        uint8_t capture_bonus           # sum of capture_bonus amounts
        uint8_t skip_survival           # skip_survival effects owned
        uint8_t double_protect[CX_NUM_CARETAKERS]  # copies owned, by colour
        uint8_t one_to_one[CX_NUM_CARETAKERS]      # bit t of [f]: f->t 1:1

    ctypedef struct cx_state:
        uint8_t n_players       # 2..4
        uint8_t first_player    # seat that opens every round
        uint8_t current         # seat to move
        uint8_t phase           # cx_phase
        uint8_t end_triggered   # 5th release or last card revealed
        uint8_t rounds          # complete rounds played
        uint8_t supply[CX_NUM_TOKENS]   # tokens left in the supply
        uint8_t n_mission       # cards on the Mission board
        uint8_t mission[CX_MISSION_SIZE]  # card indices in reveal order
        uint8_t deck_len        # cards the draw pile started with
        uint8_t deck_pos        # deck[deck_pos..deck_len) are still hidden
        uint8_t step            # START: next start_recruit; TRAIN: trades
                                # made; EFFECT: picks made; REFILL: opening
        uint8_t capture_used    # HOUSE: capture value housed this turn
        uint8_t train_up        # TRAIN: tier boundaries crossed upwards
        uint8_t train_down      # TRAIN: ... and downwards (bit i: i|i+1)
        uint8_t effect_card     # EFFECT: the released animal
        uint8_t explicit_chance # 1: the refill is a chance decision
        uint8_t deck[CX_MAX_CARDS]  # draw order; only the tail is hidden
        uint8_t loc[CX_MAX_CARDS]   # cx_location (+ seat) of every card
        cx_player players[CX_MAX_PLAYERS]

cdef extern from "cx_rng.h" nogil:
    ctypedef struct cx_rng:
        uint64_t s[4]           # xoshiro256** state
    void cx_rng_seed(cx_rng *r, uint64_t seed)

cdef extern from "cx_rules.h" nogil:
    int cx_new_game(cx_state *s, const cx_cardset *cs, int n_players,
                    const uint8_t *faunas, int first_player,
                    const uint8_t *deck, int deck_len)
    int cx_new_game_seeded(cx_state *s, const cx_cardset *cs, int n_players,
                           const uint8_t *faunas, int first_player, uint64_t seed)
    int cx_new_game_explicit_chance(cx_state *s, const cx_cardset *cs,
                                    int n_players, const uint8_t *faunas,
                                    int first_player)
    void cx_begin_turn(cx_state *s)
    int cx_legal_actions(const cx_state *s, const cx_cardset *cs, cx_action *out)
    int cx_is_legal(const cx_state *s, const cx_cardset *cs, cx_action a)
    void cx_apply(cx_state *s, const cx_cardset *cs, cx_action a)
    int cx_is_over(const cx_state *s)
    void cx_score_breakdown(const cx_state *s, const cx_cardset *cs, int out[][3])
    void cx_scores(const cx_state *s, const cx_cardset *cs, int *out)
    void cx_ranks(const cx_state *s, const cx_cardset *cs, int *out)
    int cx_reputation_points(int track)
    int cx_capture_limit(const cx_state *s, const cx_cardset *cs, int seat)
    int cx_spaces_used(const cx_state *s, int seat)
    int cx_capacity(const cx_state *s, const cx_cardset *cs, int seat)
    void cx_hide_deck(cx_state *s)
    void cx_determinize(cx_state *s, cx_rng *r)
    uint64_t cx_public_hash(const cx_state *s)
    int cx_playout_random(cx_state *s, const cx_cardset *cs, cx_rng *r,
                          int max_actions)
    int cx_check_invariants(const cx_state *s, const cx_cardset *cs)
    int cx_check_bounds(const cx_state *s, const cx_cardset *cs)
    void cx_derive_effects(cx_state *s, const cx_cardset *cs)
    int cx_check_cardset(const cx_cardset *cs)
    const uint8_t CX_EFFECT_PARAMETERS[CX_NUM_EFFECTS]
    const uint8_t CX_EFFECT_IMMEDIATE[CX_NUM_EFFECTS]
    int cx_num_animals(const cx_cardset *cs)
    int cx_num_distinct_actions(const cx_cardset *cs)
    int cx_action_id(const cx_cardset *cs, cx_action a)
    cx_action cx_action_of_id(const cx_cardset *cs, int id)

cdef extern from "cx_bench.h" nogil:
    long long cx_bench_random_games(const cx_cardset *cs, int n_players,
                                    int n_games, uint64_t seed)
    void cx_bench_copy_struct(const cx_state *src, int iterations)
    void cx_bench_copy_memcpy(const cx_state *src, int iterations)


cdef class CoreCardSet:
    """A card set packed into the C struct, field by field."""
    cdef cx_cardset cs          # the packed set
    cdef readonly object card_set   # the coexist_ai.cards.CardSet it packs


# raises: a Position made without its constructor has no card set
cdef int _unmade(object position) except -1
# a seed as the engine's 64 bits (SetupError for what is no whole number)
cdef uint64_t _seed64(seed) except? 0


cdef class Position:
    """A position of the engine: the C state and the card set it uses."""
    cdef cx_state s             # the whole state
    cdef CoreCardSet core       # its card set (None: made without a constructor)
    cdef inline const cx_cardset *cset(self) except NULL:
        if self.core is None:
            _unmade(self)
        return &self.core.cs
    cdef int _seat(self, int seat) except -1
    cdef bytes _bytes(self)
    cdef int _load_raw(self, card_set, raw, bint begin_turn,
                       bint derive_effects) except -1


cdef class State(Position):
    """A referee's position (hidden order included), with its history."""
    cdef list _history          # actions applied, oldest first
    cdef list _undo             # the state's bytes before each of them
    cdef int _record(self, int action) except -1


cdef class Observation(Position):
    """A seat's view: the draw pile's order erased."""
    cdef readonly int viewer    # the seat it was made for
