# _core.pxd -- the C interface of the rules engine (csrc/), for Cython.
from libc.stdint cimport uint8_t, int32_t, uint64_t

cdef extern from "cx_types.h" nogil:
    enum:
        CX_MAX_PLAYERS
        CX_MAX_CARDS
        CX_MISSION_SIZE
        CX_TRACK_SIZE
        CX_MAX_BOARD
        CX_MAX_START_RECRUIT
        CX_MAX_ACTIONS
        CX_NUM_TOKENS
        CX_NUM_CARETAKERS
        CX_PH_OVER
        CX_A_MOVE

    ctypedef int32_t cx_action

    ctypedef struct cx_card:
        uint8_t is_animal       # 1 animal card, 0 caretaker card
        uint8_t fauna           # 0 forest, 1 air, 2 sea, 3 savannah
        uint8_t colour          # caretaker card colour, C F P H = 0..3
        uint8_t capture         # capture value
        uint8_t conservation    # points when released
        uint8_t needs[5]        # tokens needed for release, C F P H S
        uint8_t protect[5]      # tokens gained when protected
        uint8_t effect          # CX_EFF_*
        uint8_t eff_colour      # colour parameter of the effect
        uint8_t eff_amount      # amount parameter of the effect
        uint8_t eff_from        # train_one_to_one: from
        uint8_t eff_to          # train_one_to_one: to

    ctypedef struct cx_cardset:
        uint8_t n_cards         # cards used
        uint8_t center_spaces   # base capacity
        uint8_t capture_limit   # Mission B limit with an empty track
        uint8_t release_goal    # releases that trigger the end
        uint8_t max_rounds      # round safeguard
        cx_card cards[128]

    ctypedef struct cx_slot:
        uint8_t card            # card index of the animal
        uint8_t on[5]           # tokens on it
        uint8_t movable[4]      # anti-cycle counts

    ctypedef struct cx_player:
        cx_slot board[16]
        uint8_t n_board
        uint8_t pool[4]
        uint8_t track
        uint8_t fauna
        uint8_t turns
        uint8_t n_released
        uint8_t n_start_recruit
        uint8_t start_recruit[16]
        uint8_t extra_spaces
        uint8_t capture_bonus
        uint8_t skip_survival
        uint8_t double_protect[4]
        uint8_t one_to_one[4]

    ctypedef struct cx_state:
        uint8_t n_players
        uint8_t first_player
        uint8_t current
        uint8_t phase
        uint8_t end_triggered
        uint8_t rounds
        uint8_t supply[5]
        uint8_t n_mission
        uint8_t mission[5]
        uint8_t deck_len
        uint8_t deck_pos
        uint8_t step
        uint8_t capture_used
        uint8_t train_up
        uint8_t train_down
        uint8_t effect_card
        uint8_t deck[128]
        uint8_t loc[128]
        cx_player players[4]

cdef extern from "cx_rng.h" nogil:
    ctypedef struct cx_rng:
        uint64_t s[4]
    void cx_rng_seed(cx_rng *r, uint64_t seed)
    uint64_t cx_rng_next(cx_rng *r)
    unsigned int cx_rng_below(cx_rng *r, unsigned int n)

cdef extern from "cx_rules.h" nogil:
    int cx_new_game(cx_state *s, const cx_cardset *cs, int n_players,
                    const uint8_t *faunas, int first_player,
                    const uint8_t *deck, int deck_len)
    int cx_new_game_seeded(cx_state *s, const cx_cardset *cs, int n_players,
                           const uint8_t *faunas, int first_player, uint64_t seed)
    int cx_cards_of_faunas(const cx_cardset *cs, int n_players,
                           const uint8_t *faunas, uint8_t *out)
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
    int cx_check_cardset(const cx_cardset *cs)


cdef class CoreCardSet:
    cdef cx_cardset cs
    cdef readonly object card_set


# raises: a Position made without its constructor has no card set
cdef int _unmade(object position) except -1


cdef class Position:
    cdef cx_state s
    cdef CoreCardSet core
    cdef inline const cx_cardset *cset(self) except NULL:
        if self.core is None:
            _unmade(self)
        return &self.core.cs
    cdef int _seat(self, int seat) except -1
    cdef bytes _bytes(self)
    cdef int _load_raw(self, card_set, raw, bint begin_turn) except -1

cdef extern from "cx_bench.h" nogil:
    long long cx_bench_random_games(const cx_cardset *cs, int n_players,
                                    int n_games, uint64_t seed)
    void cx_bench_copy_struct(const cx_state *src, int iterations)
    void cx_bench_copy_memcpy(const cx_state *src, int iterations)

cdef extern from "cx_searcher.h" nogil:
    ctypedef struct cx_search_params:
        double c
        int reward_kind
        float margin_weight
        int policy
        int rollout_depth
        float discount
    ctypedef struct cx_tree:
        int n_nodes
        int n_edges
        int root
        int full
    ctypedef struct cx_root_stat:
        int action
        unsigned int visits
        unsigned int avail
        float reward
    ctypedef struct cx_searcher:
        int threads
        cx_tree trees[64]
    int cx_searcher_init(cx_searcher *s, const cx_search_params *params,
                         int threads, int max_nodes, int reuse, uint64_t seed)
    void cx_searcher_free(cx_searcher *s)
    long cx_searcher_run(cx_searcher *s, const cx_state *obs, const cx_cardset *cs,
                         long iterations, double seconds, cx_root_stat *out,
                         int *n_out)
    void cx_searcher_set_stop(cx_searcher *s, int stop)
    void cx_searcher_usage(const cx_searcher *s, long *nodes, long *edges,
                           long *bytes)
    int cx_tree_principal_line(const cx_tree *t, cx_action *out, int max_len)
    int CX_MAX_TREE_NODES
    double cx_now()
    size_t CX_NODE_BYTES "sizeof(cx_node)"
    size_t CX_EDGE_BYTES "sizeof(cx_edge)"

cdef extern from "cx_greedy.h" nogil:
    int CX_GREEDY_MAX_NODES
    float cx_greedy_value(const cx_state *s, const cx_cardset *cs, int seat)
    cx_action cx_greedy_choose(const cx_state *s, const cx_cardset *cs,
                               int max_nodes, int *searched)
