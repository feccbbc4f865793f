/* cx_actions.c -- dense action ids: every move a card set allows, numbered
 * 0 .. cx_num_distinct_actions(cs) - 1, for policy networks and OpenSpiel.
 *
 * Kinds come in their order of cx_types.h, each a block of ids; inside a
 * block the fields count in the order of the action integer (Y, X, card B,
 * card A), so ids sort exactly as the actions do and a sorted legal list
 * stays sorted. Cards A and B of a player's move are always animals, which
 * a card set lists first (cx_check_cardset), so they range over the
 * animals only:
 *
 *   pass end center train apply skip   1 each
 *   recruit X                         4          X
 *   house A, protect A, release A,    animals    A
 *   discard A
 *   assign X A                        5 x animals         X, A
 *   move X A B                        4 x animals^2       X, B, A
 *   unassign X A                      4 x animals         X, A
 *   train X Y                         16                  Y, X
 *   discard X                         4                   X
 *
 * Chance outcomes (`reveal`, kind CX_A_REVEAL) are not player moves: their
 * id is the card revealed. */
#include "cx_internal.h"

typedef struct { int x, y, b, a; } extent;   /* sizes of the used fields */

static extent kind_extent(int kind, int animals) {
    switch (kind) {
    case CX_A_RECRUIT: case CX_A_DISCARD_TOKEN: return (extent){4, 1, 1, 1};
    case CX_A_HOUSE: case CX_A_PROTECT: case CX_A_RELEASE:
    case CX_A_DISCARD_ANIMAL: return (extent){1, 1, 1, animals};
    case CX_A_ASSIGN: return (extent){CX_NUM_TOKENS, 1, 1, animals};
    case CX_A_MOVE: return (extent){CX_NUM_CARETAKERS, 1, animals, animals};
    case CX_A_UNASSIGN: return (extent){CX_NUM_CARETAKERS, 1, 1, animals};
    case CX_A_TRAIN: return (extent){CX_NUM_CARETAKERS, CX_NUM_CARETAKERS, 1, 1};
    case CX_A_REVEAL: return (extent){0, 0, 0, 0};     /* not a player move */
    default: return (extent){1, 1, 1, 1};              /* no argument */
    }
}

static int block_size(extent e) { return e.x * e.y * e.b * e.a; }

int cx_num_animals(const cx_cardset *cs) {
    int n = 0;
    while (n < cs->n_cards && cs->cards[n].is_animal) n++;
    return n;
}

int cx_num_distinct_actions(const cx_cardset *cs) {
    int animals = cx_num_animals(cs), total = 0;
    for (int kind = 0; kind < CX_NUM_ACTION_KINDS; kind++)
        total += block_size(kind_extent(kind, animals));
    return total;
}

int cx_action_id(const cx_cardset *cs, cx_action a) {
    int animals = cx_num_animals(cs), kind = CX_ACTION_KIND(a), base = 0;
    if (a < 0 || a >> 27 || kind >= CX_NUM_ACTION_KINDS) return -1;
    for (int k = 0; k < kind; k++) base += block_size(kind_extent(k, animals));
    extent e = kind_extent(kind, animals);
    int x = CX_ACTION_X(a), y = CX_ACTION_Y(a), b = CX_ACTION_B(a), c = CX_ACTION_A(a);
    if (!block_size(e) || x >= e.x || y >= e.y || b >= e.b || c >= e.a) return -1;
    return base + ((y * e.x + x) * e.b + b) * e.a + c;
}

cx_action cx_action_of_id(const cx_cardset *cs, int id) {
    int animals = cx_num_animals(cs);
    if (id < 0) return -1;
    for (int kind = 0; kind < CX_NUM_ACTION_KINDS; kind++) {
        extent e = kind_extent(kind, animals);
        int size = block_size(e);
        if (id >= size) { id -= size; continue; }
        int c = id % e.a; id /= e.a;
        int b = id % e.b; id /= e.b;
        int x = id % e.x, y = id / e.x;
        return CX_ACTION(kind, x, y, c, b);
    }
    return -1;
}
