/* cx_greedy.h -- the heuristic bot: the best end of its own turn.
 *
 * From the position in front of it, the bot tries every sequence of its own
 * moves up to the end of its turn (positions reached twice are searched
 * once), scores each end position with a hand-written evaluation, and plays
 * the first move of the best sequence. It needs no knowledge of the draw
 * pile: the turn ends before a card it could not know matters. */
#ifndef CX_GREEDY_H
#define CX_GREEDY_H

#include "cx_eval.h"

/* How good a position is for `seat`: its estimated score minus the best
 * estimated score of the others. */
float cx_greedy_value(const cx_state *s, const cx_cardset *cs, int seat);

/* The largest budget: its table of seen positions then takes 2^23 slots
 * (64 MiB), a search of it a few seconds, and the int arithmetic of the
 * table size stays far from overflow. */
#define CX_GREEDY_MAX_NODES (1 << 22)

/* The first move of the best sequence to the end of the turn; searches at
 * most `max_nodes` positions (then the best found so far; larger budgets
 * count as CX_GREEDY_MAX_NODES). *searched gets the positions searched. */
cx_action cx_greedy_choose(const cx_state *s, const cx_cardset *cs,
                           int max_nodes, int *searched);

#endif
