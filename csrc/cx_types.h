/* cx_types.h -- limits, enums, the card set and the game state of Coexist.
 *
 * Everything the rules engine needs to know about sizes lives here, so that a
 * state is one fixed-size struct without pointers: copying a position is a
 * plain memcpy. All fields are bytes (or arrays of bytes) so the struct has
 * no padding and can be hashed as raw memory.
 *
 * This header is the game's vocabulary for the whole project: the binding
 * (coexist_ai/_engine.pxd) exports these enums and limits to Python, and
 * coexist_ai/vocabulary.py names them; nothing restates a number. */
#ifndef CX_TYPES_H
#define CX_TYPES_H

#include <stdint.h>

/* ---- limits --------------------------------------------------------- */
#define CX_MAX_PLAYERS 4
#define CX_MIN_PLAYERS 2
#define CX_NUM_FAUNAS 4
#define CX_MAX_CARDS 128        /* cards in a card set, all faunas together */
#define CX_MISSION_SIZE 5       /* face-up cards on the Mission board */
#define CX_TRACK_SIZE 8         /* spaces of a Reputation track */
#define CX_MAX_BOARD 16         /* animals on one Conservation Center */
#define CX_MAX_START_RECRUIT 16 /* start_recruit effects one player can own */
#define CX_MAX_ACTIONS 1280     /* worst-case legal moves of one decision */
#define CX_MAX_SPACES 14        /* center_spaces + extra_space cards, at most */
#define CX_MAX_ROUNDS 250       /* the largest max_rounds a card set may ask */
#define CX_MAX_ROLLOUT_ACTIONS 1000000 /* a guard: real games take ~1,000 */
#define CX_MAX_PROTECT 32       /* tokens of one colour a protect may gain */
#define CX_MAX_CAPTURE 255      /* capture_limit + every capture_bonus of a
                                   set: the turn's capture total is a byte */
/* the invariants keep a board within its capacity (cx_check.c) */
_Static_assert(CX_MAX_SPACES <= CX_MAX_BOARD, "a full Center fits a board");

/* ---- token colours: caretakers by tier, then Survival ---------------- */
enum cx_colour { CX_C = 0, CX_F = 1, CX_P = 2, CX_H = 3, CX_S = 4 };
#define CX_NUM_CARETAKERS 4     /* C F P H */
#define CX_NUM_TOKENS 5         /* C F P H S */
static const uint8_t CX_SUPPLY_START[CX_NUM_TOKENS] = {28, 24, 20, 20, 32};

/* ---- the Reputation track: points printed on spaces 1..8 -------------- */
static const uint8_t CX_TRACK_POINTS[CX_TRACK_SIZE] = {4, 0, 3, 0, 2, 0, 1, 0};

/* ---- faunas (specialties) -------------------------------------------- */
enum cx_fauna { CX_FOREST = 0, CX_AIR = 1, CX_SEA = 2, CX_SAVANNAH = 3 };

/* ---- effect kinds ---------------------------------------------------- */
enum cx_effect_kind {
    CX_EFF_NONE = 0,
    CX_EFF_START_RECRUIT,            /* permanent: colour */
    CX_EFF_CAPTURE_BONUS,            /* permanent: amount */
    CX_EFF_DISCARD_SURVIVAL,         /* immediate: amount */
    CX_EFF_RECRUIT_TWO,              /* immediate: colour */
    CX_EFF_HOUSE_ONE,                /* immediate */
    CX_EFF_RECRUIT_MISSION,          /* immediate */
    CX_EFF_DISCARD_SURVIVAL_RECRUIT, /* immediate: colour */
    CX_EFF_EXTRA_SPACE,              /* permanent */
    CX_EFF_DOUBLE_PROTECT,           /* permanent: colour */
    CX_EFF_SKIP_SURVIVAL,            /* permanent */
    CX_EFF_TRAIN_ONE_TO_ONE,         /* permanent: from, to */
    CX_NUM_EFFECTS
};

/* the parameters of an effect kind (bits of CX_EFFECT_PARAMETERS[kind],
 * cx_cardset.c): a colour, an amount, or a (from, to) pair of colours */
enum cx_effect_parameter { CX_PARAM_COLOUR = 1, CX_PARAM_AMOUNT = 2, CX_PARAM_PAIR = 4 };

/* ---- where a card is -------------------------------------------------- */
enum cx_location {
    CX_LOC_OUT = 0,          /* not in this game (its fauna was not chosen) */
    CX_LOC_DECK = 1,         /* in the draw pile (hidden order) */
    CX_LOC_MISSION = 2,      /* face up on the Mission board */
    CX_LOC_DISCARD = 3,      /* recruited caretaker cards, discarded animals */
    CX_LOC_BOARD = 4,        /* + seat: on that player's Conservation Center */
    CX_LOC_RELEASED = 8,     /* + seat: released by that player */
    CX_LOC_PROTECTED = 12,   /* + seat: put in the common protected area by */
    CX_NUM_LOCS = 16
};

/* ---- one card of a card set (static data, never in the state) -------- */
typedef struct {
    uint8_t is_animal;      /* 1 animal card, 0 caretaker card */
    uint8_t fauna;          /* CX_FOREST .. CX_SAVANNAH */
    uint8_t colour;         /* caretaker card: its colour (C..H) */
    uint8_t capture;        /* animal: capture value (Mission B) */
    uint8_t conservation;   /* animal: points when released */
    uint8_t needs[CX_NUM_TOKENS];   /* animal: tokens to carry for release */
    uint8_t protect[CX_NUM_TOKENS]; /* animal: tokens gained when protected */
    uint8_t effect;         /* CX_EFF_* */
    uint8_t eff_colour;     /* start_recruit, recruit_two, double_protect,
                               discard_survival_recruit */
    uint8_t eff_amount;     /* capture_bonus, discard_survival */
    uint8_t eff_from;       /* train_one_to_one */
    uint8_t eff_to;         /* train_one_to_one */
} cx_card;

typedef struct {
    uint8_t n_cards;        /* cards used in cards[] */
    uint8_t center_spaces;  /* base capacity of a Conservation Center */
    uint8_t capture_limit;  /* Mission B limit with an empty track */
    uint8_t release_goal;   /* releases that trigger the end */
    uint8_t max_rounds;     /* safeguard: complete rounds before the end */
    cx_card cards[CX_MAX_CARDS];
} cx_cardset;

/* ---- decisions ------------------------------------------------------- */
enum cx_phase {
    CX_PH_START = 0,   /* start_recruit effects: apply / skip */
    CX_PH_CHOOSE,      /* choose the option of the turn */
    CX_PH_RECRUIT,     /* Mission A after the first recruit */
    CX_PH_HOUSE,       /* Mission B after the first house */
    CX_PH_CENTER,      /* Conservation Center actions */
    CX_PH_TRAIN,       /* Training trades */
    CX_PH_EFFECT,      /* the immediate effect of a released animal */
    CX_PH_DISCARD,     /* end of turn, over capacity */
    CX_PH_OVER,        /* the game has ended */
    CX_PH_REFILL,      /* explicit chance only: the end-of-turn refill
                          reveals the next Mission card (a chance node) */
    CX_NUM_PHASES
};

/* ---- state ----------------------------------------------------------- */
typedef struct {
    uint8_t card;                        /* card index of the animal */
    uint8_t on[CX_NUM_TOKENS];           /* tokens on the card, by colour */
    uint8_t movable[CX_NUM_CARETAKERS];  /* of on[], those there since the
                                            start of the turn and not yet
                                            moved (anti-cycle rule) */
} cx_slot;

typedef struct {
    cx_slot board[CX_MAX_BOARD];  /* animals in the order housed */
    uint8_t n_board;              /* animals on the board */
    uint8_t pool[CX_NUM_CARETAKERS]; /* unassigned caretakers by colour */
    uint8_t track;                /* Survival tokens on the track, 0..8 */
    uint8_t fauna;                /* specialty of the seat */
    uint8_t turns;                /* turns this seat has completed */
    uint8_t n_released;           /* animals released */
    uint8_t n_start_recruit;      /* start_recruit effects owned */
    uint8_t start_recruit[CX_MAX_START_RECRUIT]; /* their colours, in the
                                                    order released */
    uint8_t extra_spaces;         /* extra_space effects owned */
    uint8_t capture_bonus;        /* sum of capture_bonus amounts */
    uint8_t skip_survival;        /* skip_survival effects owned */
    uint8_t double_protect[CX_NUM_CARETAKERS]; /* copies owned, per colour */
    uint8_t one_to_one[CX_NUM_CARETAKERS];     /* bit t of [f]: f->t at 1:1 */
} cx_player;

typedef struct {
    uint8_t n_players;      /* 2..4 */
    uint8_t first_player;   /* seat that opens every round */
    uint8_t current;        /* seat to move */
    uint8_t phase;          /* CX_PH_* */
    uint8_t end_triggered;  /* 5th release or last card revealed */
    uint8_t rounds;         /* complete rounds played */
    uint8_t supply[CX_NUM_TOKENS]; /* tokens left in the supply */
    uint8_t n_mission;      /* cards on the Mission board */
    uint8_t mission[CX_MISSION_SIZE]; /* card indices in reveal order */
    uint8_t deck_len;       /* cards the draw pile started with */
    uint8_t deck_pos;       /* deck[deck_pos..deck_len) are still hidden */
    /* scratch of the turn in progress */
    uint8_t step;           /* PH_START: next start_recruit index;
                               PH_TRAIN: trades made; PH_EFFECT: picks made */
    uint8_t capture_used;   /* PH_HOUSE: capture value housed this turn */
    uint8_t train_up;       /* PH_TRAIN: tier boundaries crossed upwards */
    uint8_t train_down;     /* PH_TRAIN: ... and downwards (bit i: i|i+1) */
    uint8_t effect_card;    /* PH_EFFECT: the released animal */
    uint8_t explicit_chance;/* 1: the refill is a chance decision (PH_REFILL)
                               instead of dealing from deck[]'s order */
    uint8_t deck[CX_MAX_CARDS];   /* draw order; only the tail is hidden */
    uint8_t loc[CX_MAX_CARDS];    /* CX_LOC_* of every card */
    cx_player players[CX_MAX_PLAYERS];
} cx_state;

/* ---- actions ----------------------------------------------------------
 * An action is a 32-bit integer:
 *
 *   bits  0..7   card A  (the animal acted on; `move`: the source)
 *   bits  8..15  card B  (`move`: the target animal)
 *   bits 16..18  colour X (C F P H S = 0..4)
 *   bits 19..21  colour Y (`train X Y`: the colour gained)
 *   bits 22..26  kind (CX_A_*)
 *
 * Unused fields are zero, so each move has exactly one integer. */
typedef int32_t cx_action;

enum cx_action_kind {
    CX_A_PASS = 0,      /* pass (nothing else is legal) */
    CX_A_END,           /* end the option / the effect */
    CX_A_CENTER,        /* choose the Conservation Center */
    CX_A_TRAIN_START,   /* choose Training */
    CX_A_APPLY,         /* apply an effect */
    CX_A_SKIP,          /* skip an effect */
    CX_A_RECRUIT,       /* recruit X */
    CX_A_HOUSE,         /* house A */
    CX_A_PROTECT,       /* protect A */
    CX_A_ASSIGN,        /* assign X A  (X may be S) */
    CX_A_MOVE,          /* move X A B */
    CX_A_UNASSIGN,      /* unassign X A */
    CX_A_RELEASE,       /* release A */
    CX_A_TRAIN,         /* train X Y */
    CX_A_DISCARD_TOKEN, /* discard X */
    CX_A_DISCARD_ANIMAL,/* discard A */
    CX_A_REVEAL,        /* chance (PH_REFILL): card A comes onto the Mission */
    CX_NUM_ACTION_KINDS
};

#define CX_ACTION(kind, x, y, a, b) \
    ((cx_action)(((kind) << 22) | ((y) << 19) | ((x) << 16) | ((b) << 8) | (a)))
#define CX_ACTION_KIND(act) (((act) >> 22) & 31)
#define CX_ACTION_X(act)    (((act) >> 16) & 7)
#define CX_ACTION_Y(act)    (((act) >> 19) & 7)
#define CX_ACTION_A(act)    ((act) & 255)
#define CX_ACTION_B(act)    (((act) >> 8) & 255)

#endif
