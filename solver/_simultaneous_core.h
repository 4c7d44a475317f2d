/* solver/_simultaneous_core.h: the compiled searches of solver/simultaneous.py.
 *
 * The game-agnostic part of a compiled simultaneous-move engine, written once against the
 * game hooks below (as solver/_search_core.h is for the one-player searches): a template by
 * include, with no .c file of its own; a native/ unit includes it after the game's rules and
 * gets its own copy compiled against that game's types, so every hook can be inlined.
 *
 * For seat P, from a round start:
 *   - Q4 (two seats): the value of the zero-sum game on the margin c_P - c_O in mixed
 *     strategies, by backward induction: a matrix game where both seats act, max (P) or
 *     min (O) where one does.  Matrix games: a pure saddle point, iterated removal of weakly
 *     dominated lines, the 2x2 formula, else a dense simplex (Bland's rule) on the shifted
 *     game, as solver/simultaneous.py does with GLOP.  Options in the rules' order, those
 *     of equal value merged (distinct_options: their rows or columns would be equal).  At each
 *     decision every joint action is first played to its outcome, and where the round ends
 *     there the next round start's slot is fetched ahead; then each is valued: the probes of
 *     one matrix overlap in memory instead of waiting one after another.
 *   - Q1-Q3 (any number of seats): alpha-beta (fail-soft) on c_P or on the margin
 *     c_P - max_{Q != P} c_Q, node for node the search of solver/simultaneous.py: Q1
 *     maximises over every joint action (seat 0's choice outermost); Q2 lets P commit first
 *     and the other seats (one coalition) answer together, Q3 lets the coalition commit
 *     first; a node where P does not act is the coalition's (minimising), one where only P
 *     acts is P's.  Seats in `fixed` play the game's policy (one option; P's against every
 *     other seat, a coalition seat's against P alone): a one-sided search
 *     whose value bounds Q2 from below (P fixed) or Q3 from above (the others fixed).
 *     With `few_replies` the other seats choose among the game's few options only (at a
 *     node where P chose first, answering P's option): a set of their strategies, so the
 *     value bounds Q2 and Q3 from above.
 *     Options in the game's search order.  Values are the payoff at the game's end, given
 *     the cards each seat has won before the round start searched; the window is the
 *     caller's (the Python driver probes with null windows).
 *   - one transposition table keyed on round starts only (within a round two joint actions
 *     never meet again), by value_class_key (round starts of equal values share it), holding the value-to-go (Q4) or a floor and a ceiling (Q1-Q3)
 *     relative to an offset: P's cards, or the least of P's leads c_P - c_Q, whose
 *     differences to the others' leads join the key when three or more seats play (the
 *     margin does not add up over rounds then); open addressing, the full key stored.
 *   - budgets: states, time (checked every 1024 states and every 65536 nodes) and memory
 *     end a search, which then answers no value.
 *
 * The including file defines first (after <Python.h>):
 *
 *   u64        uint64_t
 *   MAXP       the most seats
 *   MAXA       the most options one seat has at one node
 *   KEY_FREE_BITS
 *              the top bits of a key's second word that the game leaves 0 (at least 18)
 *   Key        two words, a and b: a round start's exact key
 *   Ctx        the game's read-only data for one deal
 *   Start      a round start: the positions the table keeps
 *   Node       a position inside a round: a decision point, or the round's end
 *
 * and these functions (static; the search inlines them):
 *
 *   int seats_of(const Ctx *)                   the number of seats
 *   void start_key(const Ctx *, const Start *, Key *)
 *                                               the exact table key, never all 0
 *   int key_words(const Ctx *)                  1 where every key's second word is 0 (the
 *                                               table then keeps one word a key), else 2
 *   void value_class_key(Ctx *, const Start *, Key *)
 *                                               the key the table uses: start_key's, or one
 *                                               shared only by round starts of equal values
 *                                               in every question (Ctx: may fill a cache)
 *   void value_class_prefetch(const Ctx *, const Start *)
 *                                               fetch ahead what value_class_key will read
 *   void distinct_options(const Ctx *, const Node *, int n[MAXP], int opt[MAXP][MAXA])
 *                                               in place, in the rules' order: one option of
 *                                               each set whose children have equal values
 *                                               (equal rows or columns of a matrix game)
 *   int cards_reachable(const Ctx *, const Start *)
 *                                               no seat's cards move by more from here
 *   int cards_out_of_reach(const Ctx *, const Start *, int seat)
 *                                               of those, how many `seat` can never win
 *   void open_round(const Ctx *, const Start *, Node *out)
 *                                               the round's first decision point
 *   void node_options(const Ctx *, const Node *, int ordered, int n[MAXP], int opt[MAXP][MAXA])
 *                                               each seat's options (n[seat] = 0: it does not
 *                                               act; none acts: the round is over), in the
 *                                               rules' order or, `ordered`, the search order;
 *                                               an option is never NO_ACTION
 *   int policy_option(const Ctx *, const Node *, int seat, int against, const int *opt, int n)
 *                                               the game's policy for `seat` playing against
 *                                               the seats of the mask `against`: an index
 *                                               into its options in search order
 *   int few_options(const Ctx *, const Node *, int seat, int p, int answered, int *opt, int n)
 *                                               the options a coalition seat keeps in the
 *                                               search with few replies, in place (search
 *                                               order kept), their number; `answered` is P's
 *                                               option where P chose first (Q2), else 0
 *   void apply_joint(const Ctx *, Node *, const int act[MAXP])
 *                                               in place: each acting seat's option played
 *                                               (NO_ACTION for a seat that does not act), the
 *                                               forced steps run to the next decision or the
 *                                               round's end
 *   int close_round(const Ctx *, const Node *, Start *next, int gain[MAXP])
 *                                               at a round's end: each seat's cards won in
 *                                               the round; 1 with the next round start, 0
 *                                               when the game is over
 */

#ifndef SIMULTANEOUS_CORE_H
#define SIMULTANEOUS_CORE_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_fields.h"
#include "_table_memory.h"

#define NO_ACTION (-1)
#define EPS 1e-9
#define LEAD_BITS 6
/* Linear probing stays short below half full; past this many slots, new entries are
 * dropped (the search stays exact, only slower). */
#define MAX_SLOTS ((size_t)1 << 27)

enum { QUESTION_Q4 = 0, QUESTION_Q1 = 1, QUESTION_Q2 = 2, QUESTION_Q3 = 3 };
enum { ABORTED_NONE = 0, ABORTED_STATES = 1, ABORTED_MEMORY = 2, ABORTED_TIME = 3 };

/* A table entry: Q1-Q3 store a floor and a ceiling (whole numbers) where Q4 stores its value. */
typedef union { double value; int32_t bounds[2]; } Entry;

/* A slot: a key beside its entry.  Where the game's keys fit one word (key_words), a slot
 * keeps only that word: 16 bytes instead of 24, so that more of the table stays in cache. */
typedef struct { Key key; Entry entry; } WideSlot;
typedef struct { u64 a; Entry entry; } NarrowSlot;

typedef struct {
    int n[MAXP];
    int opt[MAXP][MAXA];
} Options;

/* One deal, seat and question; its table lives as long as it does. */
typedef struct {
    Ctx game;
    int seats;
    int p;                       /* seat P */
    int question;                /* QUESTION_Q4, or Q1-Q3 (alpha-beta) */
    int margin;                  /* Q1-Q3 payoff: 1 the margin, 0 the cards c_P */
    int fixed;                   /* bit per seat playing the game's policy */
    int root_action;             /* P's option on the root's best line so far (NO_ACTION: none) */
    void *slots;                 /* WideSlot, or NarrowSlot where `narrow` */
    int narrow;
    size_t capacity, count;
    long long states, hits, nodes, matrix_games, saddles, lps, max_states;
    double deadline;
    int aborted;                 /* ABORTED_*: the budget that stopped the search */
    int few_replies;             /* the other seats keep only the game's few options */
} Solver;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* ----- the table ----------------------------------------------------------------------- */

static inline size_t slot_of(const Key *k, size_t capacity) {
    u64 key = k->a ^ (k->b * 0x9e3779b97f4a7c15ULL);
    key ^= key >> 33; key *= 0xff51afd7ed558ccdULL; key ^= key >> 33;
    return (size_t)key & (capacity - 1);
}

static inline size_t slot_size(const Solver *q) { return q->narrow ? sizeof(NarrowSlot) : sizeof(WideSlot); }

static inline Key slot_key(const Solver *q, const void *slots, size_t j) {
    if (q->narrow) return (Key){((const NarrowSlot *)slots)[j].a, 0};
    return ((const WideSlot *)slots)[j].key;
}

static inline Entry *slot_entry(const Solver *q, void *slots, size_t j) {
    return q->narrow ? &((NarrowSlot *)slots)[j].entry : &((WideSlot *)slots)[j].entry;
}

static inline void slot_set(const Solver *q, void *slots, size_t j, const Key *key, const Entry *entry) {
    if (q->narrow) ((NarrowSlot *)slots)[j] = (NarrowSlot){key->a, *entry};
    else ((WideSlot *)slots)[j] = (WideSlot){*key, *entry};
}

static inline int key_empty(Key k) { return k.a == 0 && k.b == 0; }
static inline int key_equal(Key x, const Key *y) { return x.a == y->a && x.b == y->b; }

static int table_grow(Solver *q) {
    if (!q->capacity) q->narrow = key_words(&q->game) == 1;
    size_t capacity = q->capacity ? q->capacity * 2 : (1u << 16);
    void *slots = table_memory(capacity * slot_size(q));
    if (!slots) return 0;
    for (size_t i = 0; i < q->capacity; i++) {
        Key key = slot_key(q, q->slots, i);
        if (key_empty(key)) continue;
        size_t j = slot_of(&key, capacity);
        while (!key_empty(slot_key(q, slots, j))) j = (j + 1) & (capacity - 1);
        slot_set(q, slots, j, &key, slot_entry(q, q->slots, i));
    }
    free(q->slots);
    q->slots = slots;
    q->capacity = capacity;
    return 1;
}

static Entry *table_slot(const Solver *q, const Key *key) {
    if (!q->capacity) return NULL;
    for (size_t j = slot_of(key, q->capacity);; j = (j + 1) & (q->capacity - 1)) {
        Key there = slot_key(q, q->slots, j);
        if (key_empty(there)) return NULL;
        if (key_equal(there, key)) return slot_entry(q, q->slots, j);
    }
}

static Entry *table_claim(Solver *q, const Key *key) {
    if ((q->count + 1) * 2 > q->capacity) {
        if (q->capacity >= MAX_SLOTS) return table_slot(q, key);  /* full: only an entry already there is updated */
        if (!table_grow(q)) { q->aborted = ABORTED_MEMORY; return NULL; }
    }
    size_t j = slot_of(key, q->capacity);
    for (;; j = (j + 1) & (q->capacity - 1)) {
        Key there = slot_key(q, q->slots, j);
        if (key_equal(there, key)) return slot_entry(q, q->slots, j);
        if (key_empty(there)) break;
    }
    q->count++;
    slot_set(q, q->slots, j, key, &(Entry){.value = 0});
    return slot_entry(q, q->slots, j);
}

static int table_find(Solver *q, const Key *key, double *value) {
    Entry *entry = table_slot(q, key);
    if (!entry) return 0;
    *value = entry->value;
    return 1;
}

/* Fetch key's home slot into the cache ahead of its probe. */
static inline void table_prefetch(const Solver *q, const Key *key) {
    if (q->capacity) __builtin_prefetch((const char *)q->slots + slot_of(key, q->capacity) * slot_size(q));
}

static void table_store2(Solver *q, const Key *key, double floor, double ceiling) {
    Entry *entry = table_claim(q, key);
    if (entry) { entry->bounds[0] = (int32_t)floor; entry->bounds[1] = (int32_t)ceiling; }
}

static void table_store(Solver *q, const Key *key, double value) {
    Entry *entry = table_claim(q, key);
    if (entry) entry->value = value;
}

/* A round start counted as expanded: 0 when a budget ends the search there. */
static inline int count_start(Solver *q) {
    q->states++;
    if (q->max_states >= 0 && q->states > q->max_states) { q->aborted = ABORTED_STATES; return 0; }
    if ((q->states & 1023) == 0 && q->deadline > 0 && now() > q->deadline) { q->aborted = ABORTED_TIME; return 0; }
    return 1;
}

/* A decision node visited: 0 when the time is up (checked now and then). */
static inline int count_node(Solver *q) {
    if ((++q->nodes & 65535) == 0 && q->deadline > 0 && now() > q->deadline) { q->aborted = ABORTED_TIME; return 0; }
    return 1;
}

/* The child of node after the options of indices a (a seat that does not act: NO_ACTION). */
static inline void play(const Solver *q, const Node *node, const Options *o, const int a[MAXP], Node *child) {
    int act[MAXP];
    for (int seat = 0; seat < q->seats; seat++) act[seat] = o->n[seat] ? o->opt[seat][a[seat]] : NO_ACTION;
    *child = *node;
    apply_joint(&q->game, child, act);
}

/* ----- matrix games -------------------------------------------------------------------- */

static double simplex_value(double m[MAXA][MAXA], int rows, int cols) {
    /* Column player: max sum y subject to M' y <= 1, y >= 0, with M' = M + shift > 0; the
     * game's value is 1 / sum y - shift. */
    double low = m[0][0];
    for (int r = 0; r < rows; r++) for (int c = 0; c < cols; c++) if (m[r][c] < low) low = m[r][c];
    double shift = 1.0 - low;
    int width = cols + rows;
    double t[MAXA + 1][2 * MAXA + 1];
    int basis[MAXA];
    memset(t, 0, sizeof t);
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) t[r][c] = m[r][c] + shift;
        t[r][cols + r] = 1.0;
        t[r][width] = 1.0;
        basis[r] = cols + r;
    }
    for (int c = 0; c < cols; c++) t[rows][c] = -1.0;  /* objective row: reduced costs */
    for (int iteration = 0; iteration < 1000; iteration++) {
        int enter = -1;
        for (int c = 0; c < width; c++) if (t[rows][c] < -EPS) { enter = c; break; }  /* Bland */
        if (enter < 0) break;
        int leave = -1;
        double best = 0;
        for (int r = 0; r < rows; r++) {
            if (t[r][enter] <= EPS) continue;
            double ratio = t[r][width] / t[r][enter];
            if (leave < 0 || ratio < best - EPS || (ratio < best + EPS && basis[r] < basis[leave])) {
                leave = r; best = ratio;
            }
        }
        if (leave < 0) break;  /* unbounded cannot happen with M' > 0 */
        double pivot = t[leave][enter];
        for (int c = 0; c <= width; c++) t[leave][c] /= pivot;
        for (int r = 0; r <= rows; r++) {
            if (r == leave || t[r][enter] == 0) continue;
            double f = t[r][enter];
            for (int c = 0; c <= width; c++) t[r][c] -= f * t[leave][c];
        }
        basis[leave] = enter;
    }
    return 1.0 / t[rows][width] - shift;
}

static double matrix_value(Solver *q, double m[MAXA][MAXA], int rows, int cols) {
    q->matrix_games++;
    double maxmin = -INFINITY, minmax = INFINITY;
    for (int r = 0; r < rows; r++) {
        double low = INFINITY;
        for (int c = 0; c < cols; c++) if (m[r][c] < low) low = m[r][c];
        if (low > maxmin) maxmin = low;
    }
    for (int c = 0; c < cols; c++) {
        double high = -INFINITY;
        for (int r = 0; r < rows; r++) if (m[r][c] > high) high = m[r][c];
        if (high < minmax) minmax = high;
    }
    if (maxmin >= minmax - EPS) { q->saddles++; return maxmin; }
    int row_on[MAXA], col_on[MAXA], nr = rows, nc = cols, changed = 1;
    for (int r = 0; r < rows; r++) row_on[r] = 1;
    for (int c = 0; c < cols; c++) col_on[c] = 1;
    while (changed) {
        changed = 0;
        for (int r = 0; r < rows && nr > 1; r++) {
            if (!row_on[r]) continue;
            for (int o = 0; o < rows; o++) {
                if (o == r || !row_on[o]) continue;
                int dominated = 1;
                for (int c = 0; c < cols && dominated; c++) if (col_on[c] && m[o][c] < m[r][c] - EPS) dominated = 0;
                if (dominated) { row_on[r] = 0; nr--; changed = 1; break; }
            }
        }
        for (int c = 0; c < cols && nc > 1; c++) {
            if (!col_on[c]) continue;
            for (int o = 0; o < cols; o++) {
                if (o == c || !col_on[o]) continue;
                int dominated = 1;
                for (int r = 0; r < rows && dominated; r++) if (row_on[r] && m[r][o] > m[r][c] + EPS) dominated = 0;
                if (dominated) { col_on[c] = 0; nc--; changed = 1; break; }
            }
        }
    }
    double k[MAXA][MAXA];
    int i = 0;
    for (int r = 0; r < rows; r++) {
        if (!row_on[r]) continue;
        int j = 0;
        for (int c = 0; c < cols; c++) if (col_on[c]) k[i][j++] = m[r][c];
        i++;
    }
    if (nr == 1) { double low = INFINITY; for (int c = 0; c < nc; c++) if (k[0][c] < low) low = k[0][c]; return low; }
    if (nc == 1) { double high = -INFINITY; for (int r = 0; r < nr; r++) if (k[r][0] > high) high = k[r][0]; return high; }
    if (nr == 2 && nc == 2) {
        double a = k[0][0], b = k[0][1], c = k[1][0], d = k[1][1], den = a - b - c + d;
        if (fabs(den) > EPS && (a - c) * (d - b) > 0 && (a - b) * (d - c) > 0) return (a * d - b * c) / den;
    }
    q->lps++;
    return simplex_value(k, nr, nc);
}

/* ----- Q4 (two seats): backward induction ------------------------------------------------ */

static double start_value_at(Solver *q, const Start *s, const Key *key);
static double node_value(Solver *q, const Node *node);

enum { ROUND_GOES_ON = 0, ROUND_ENDS = 1, GAME_ENDS = 2 };

/* What follows one joint action: another decision of the round, or the round's end with the
 * margin won in it and the next round start (unless the game is over). */
typedef struct {
    Start next;
    Key key;
    double gained;
    int kind;
} Outcome;

/* The key of an outcome's next round start, its slot fetched ahead. */
static inline void key_outcome(Solver *q, Outcome *out) {
    if (out->kind != ROUND_ENDS) return;
    value_class_key(&q->game, &out->next, &out->key);
    table_prefetch(q, &out->key);
}

/* The outcome of a round over at node; with `keyed` its key made, else only what making it
 * reads fetched ahead (key_outcome later). */
static void round_end(Solver *q, const Node *node, Outcome *out, int keyed) {
    int gain[MAXP];
    out->kind = close_round(&q->game, node, &out->next, gain) ? ROUND_ENDS : GAME_ENDS;
    out->gained = gain[q->p] - gain[1 - q->p];
    if (keyed) key_outcome(q, out);
    else if (out->kind == ROUND_ENDS) value_class_prefetch(&q->game, &out->next);
}

/* The outcome of the joint action a at node: a matrix's entries are all looked at first, then
 * keyed, so that the memory their keys and probes read is fetched for all at once. */
static void look_ahead(Solver *q, const Node *node, const Options *o, const int a[MAXP], Outcome *out) {
    Node child;
    play(q, node, o, a, &child);
    Options after;
    node_options(&q->game, &child, 0, after.n, after.opt);
    if (after.n[0] || after.n[1]) out->kind = ROUND_GOES_ON;
    else round_end(q, &child, out, 0);
}

/* The value of a round's end: the margin won in it, plus the value-to-go of the next round start. */
static double round_end_value(Solver *q, const Outcome *out) {
    return out->kind == ROUND_ENDS ? out->gained + start_value_at(q, &out->next, &out->key) : out->gained;
}

/* The value of joint action a at node, from its outcome. */
static double outcome_value(Solver *q, const Node *node, const Options *o, const int a[MAXP], const Outcome *out) {
    if (out->kind != ROUND_GOES_ON) return round_end_value(q, out);
    Node child;
    play(q, node, o, a, &child);
    return node_value(q, &child);
}

static double node_value(Solver *q, const Node *node) {
    Options o;
    node_options(&q->game, node, 0, o.n, o.opt);
    distinct_options(&q->game, node, o.n, o.opt);
    if (!o.n[0] && !o.n[1]) {
        Outcome out;
        round_end(q, node, &out, 1);
        return round_end_value(q, &out);
    }
    int p = q->p, other = 1 - p, a[MAXP] = {0, 0};
    if (o.n[0] && o.n[1]) {  /* rows: P's options; columns: O's */
        double m[MAXA][MAXA];
        Outcome out[o.n[p] * o.n[other]];  /* row by row; sized to the matrix, as the recursion
                                            * keeps one per decision on the stack */
        int k = 0;
        for (a[p] = 0; a[p] < o.n[p]; a[p]++)
            for (a[other] = 0; a[other] < o.n[other]; a[other]++) look_ahead(q, node, &o, a, &out[k++]);
        for (int i = 0; i < k; i++) key_outcome(q, &out[i]);
        k = 0;
        for (a[p] = 0; a[p] < o.n[p]; a[p]++)
            for (a[other] = 0; a[other] < o.n[other]; a[other]++) {
                m[a[p]][a[other]] = outcome_value(q, node, &o, a, &out[k++]);
                if (q->aborted) return 0;
            }
        return matrix_value(q, m, o.n[p], o.n[other]);
    }
    int seat = o.n[0] ? 0 : 1;
    double best = seat == p ? -INFINITY : INFINITY;
    Outcome out[o.n[seat]];
    for (a[seat] = 0; a[seat] < o.n[seat]; a[seat]++) look_ahead(q, node, &o, a, &out[a[seat]]);
    for (int i = 0; i < o.n[seat]; i++) key_outcome(q, &out[i]);
    for (a[seat] = 0; a[seat] < o.n[seat]; a[seat]++) {
        double v = outcome_value(q, node, &o, a, &out[a[seat]]);
        if (q->aborted) return 0;
        best = seat == p ? fmax(best, v) : fmin(best, v);
    }
    return best;
}

static double start_value(Solver *q, const Start *s) {
    Key key;
    value_class_key(&q->game, s, &key);
    return start_value_at(q, s, &key);
}

/* As start_value, with the key of s already made. */
static double start_value_at(Solver *q, const Start *s, const Key *key) {
    if (q->aborted) return 0;
    double value;
    if (table_find(q, key, &value)) { q->hits++; return value; }
    if (!count_start(q)) return 0;
    Node node;
    open_round(&q->game, s, &node);
    value = node_value(q, &node);
    if (!q->aborted) table_store(q, key, value);
    return value;
}

/* ----- Q1-Q3: alpha-beta over max/min layers ------------------------------------------- */

static double ab_start(Solver *q, const Start *s, const int won[MAXP], double alpha, double beta);

/* The payoff of a finished game, from each seat's cards. */
static double final_payoff(const Solver *q, const int won[MAXP]) {
    if (!q->margin) return won[q->p];
    int lead = INT32_MAX;
    for (int seat = 0; seat < q->seats; seat++)
        if (seat != q->p && won[q->p] - won[seat] < lead) lead = won[q->p] - won[seat];
    return lead;
}

static double ab_close(Solver *q, const Node *node, const int won[MAXP], double alpha, double beta) {
    Start next;
    int gain[MAXP], after[MAXP];
    int more = close_round(&q->game, node, &next, gain);
    for (int seat = 0; seat < q->seats; seat++) after[seat] = won[seat] + gain[seat];
    if (!more) return final_payoff(q, after);
    return ab_start(q, &next, after, alpha, beta);
}

/* A child's value `v` at a maximising (or minimising) step: the best so far and the window
 * move with it, the root notes P's option; true when the window has closed (a cut). */
static inline int improve(Solver *q, const Options *o, int maximise, double v, double *best, double *alpha,
                          double *beta, int root, const int a[MAXP]) {
    if (maximise && v > *best) {
        *best = v;
        if (v > *alpha) *alpha = v;
        if (root) q->root_action = o->n[q->p] ? o->opt[q->p][a[q->p]] : NO_ACTION;
    } else if (!maximise && v < *best) {
        *best = v;
        if (v < *beta) *beta = v;
    }
    return *alpha >= *beta;
}

/* The next joint option of `seats` (the last seat turning fastest, as itertools.product);
 * 0 after the last, with the indices back at 0. */
static inline int next_joint(const Options *o, const int *seats, int k, int a[MAXP]) {
    for (int i = k - 1; i >= 0; i--) {
        int seat = seats[i];
        if (++a[seat] < o->n[seat]) return 1;
        a[seat] = 0;
    }
    return 0;
}

/* Each coalition seat of `seats` takes, in `to`, its options of `from` (the same Options,
 * or every option to choose from anew): with few replies the game's few, answering P's
 * option `answered` (0 where P has not chosen); in the full search, where the coalition
 * answers P's option (Q2), every option in the game's order of replies; else as they are. */
static inline void order_replies(const Solver *q, const Node *node, const Options *from, Options *to, const int *seats,
                                 int k, int answered) {
    for (int i = 0; i < k; i++) {
        int seat = seats[i];
        if (to != from) memcpy(to->opt[seat], from->opt[seat], from->n[seat] * sizeof(int));
        if (!q->few_replies && !answered) continue;
        int kept = few_options(&q->game, node, seat, q->p, answered, to->opt[seat], from->n[seat]);
        to->n[seat] = q->few_replies ? kept : from->n[seat];
    }
}

static double ab_node(Solver *q, const Node *node, const int won[MAXP], double alpha, double beta, int root) {
    Options o;
    node_options(&q->game, node, 1, o.n, o.opt);
    int p = q->p, acting[MAXP], na = 0, others[MAXP], no = 0;
    for (int seat = 0; seat < q->seats; seat++) {
        if (!o.n[seat]) continue;
        if (q->fixed >> seat & 1) {
            /* P's policy plays against every other seat, a coalition seat's against P */
            int against = seat == p ? ((1 << q->seats) - 1) & ~(1 << p) : 1 << p;
            o.opt[seat][0] = o.opt[seat][policy_option(&q->game, node, seat, against, o.opt[seat], o.n[seat])];
            o.n[seat] = 1;
        }
        acting[na++] = seat;
        if (seat != p) others[no++] = seat;
    }
    if (!na) return ab_close(q, node, won, alpha, beta);
    if (!count_node(q)) return 0;
    int a[MAXP] = {0, 0, 0, 0};
    if (q->question == QUESTION_Q1 || !no || !o.n[p]) {
        int maximise = q->question == QUESTION_Q1 || o.n[p];
        if (q->few_replies && !maximise) order_replies(q, node, &o, &o, others, no, 0);
        double best = maximise ? -INFINITY : INFINITY;
        do {
            Node next;
            play(q, node, &o, a, &next);
            double v = ab_node(q, &next, won, alpha, beta, 0);
            if (q->aborted) return best;
            if (improve(q, &o, maximise, v, &best, &alpha, &beta, root, a)) return best;
        } while (next_joint(&o, acting, na, a));
        return best;
    }
    int mine[1] = {p};
    const int *outer = q->question == QUESTION_Q2 ? mine : others, *inner = q->question == QUESTION_Q2 ? others : mine;
    int nouter = q->question == QUESTION_Q2 ? 1 : no, ninner = q->question == QUESTION_Q2 ? no : 1;
    int outer_max = q->question == QUESTION_Q2;
    double best = outer_max ? -INFINITY : INFINITY;
    Options every;  /* the coalition's every reply, ordered anew for each option of P's */
    if (outer_max) every = o;
    else if (q->few_replies) order_replies(q, node, &o, &o, outer, nouter, 0);
    do {
        double inner_best = outer_max ? INFINITY : -INFINITY, ia = alpha, ib = beta;
        if (outer_max) order_replies(q, node, &every, &o, inner, ninner, o.opt[p][a[p]]);
        do {
            Node next;
            play(q, node, &o, a, &next);
            double v = ab_node(q, &next, won, ia, ib, 0);
            if (q->aborted) return best;
            if (outer_max && v < inner_best) { inner_best = v; if (v < ib) ib = v; }
            else if (!outer_max && v > inner_best) { inner_best = v; if (v > ia) ia = v; }
            if (ia >= ib) { for (int i = 0; i < ninner; i++) a[inner[i]] = 0; break; }
        } while (next_joint(&o, inner, ninner, a));
        if (improve(q, &o, outer_max, inner_best, &best, &alpha, &beta, root, a)) return best;
    } while (next_joint(&o, outer, nouter, a));
    return best;
}

/* The key of round start s with P's leads (margin, three or more seats) and the offset
 * that turns a stored value into the state's value. */
static inline int table_key(Solver *q, const Start *s, const int won[MAXP], int spare, Key *key) {
    value_class_key(&q->game, s, key);
    if (!q->margin) return won[q->p];
    int least = INT32_MAX;
    for (int seat = 0; seat < q->seats; seat++)
        if (seat != q->p && won[q->p] - won[seat] < least) least = won[q->p] - won[seat];
    if (q->seats > 2) {
        /* a lead more than 2 * spare above the least can never be the least again */
        u64 extra = 0;
        int cap = 2 * spare + 1, shift = 0;
        for (int seat = 0; seat < q->seats; seat++) {
            if (seat == q->p) continue;
            int d = won[q->p] - won[seat] - least;
            extra |= (u64)(d < cap ? d : cap) << shift;
            shift += LEAD_BITS;
        }
        key->b |= extra << (64 - KEY_FREE_BITS);
    }
    return least;
}

/* Round start s's table key, the offset of its stored values, and its floor and ceiling:
 * the static bounds (the others may win every card that can still be won, P all but those
 * out of its reach) narrowed by its table entry (`count_hit`: counted as a table hit). */
static int start_bounds(Solver *q, const Start *s, const int won[MAXP], int count_hit, Key *key, double *floor,
                        double *ceiling) {
    int spare = cards_reachable(&q->game, s);
    int offset = table_key(q, s, won, spare, key);
    *floor = q->margin ? offset - spare : offset;
    *ceiling = offset + spare - cards_out_of_reach(&q->game, s, q->p);
    const Entry *entry = table_slot(q, key);
    if (entry) {
        if (count_hit) q->hits++;
        if (entry->bounds[0] + offset > *floor) *floor = entry->bounds[0] + offset;
        if (entry->bounds[1] + offset < *ceiling) *ceiling = entry->bounds[1] + offset;
    }
    return offset;
}

/* Round start s searched within (low, high); what its value proves joins the table entry. */
static double expand_start(Solver *q, const Start *s, const int won[MAXP], const Key *key, int offset, double floor,
                           double ceiling, double low, double high, int root) {
    if (!count_start(q)) return 0;
    Node node;
    open_round(&q->game, s, &node);
    double value = ab_node(q, &node, won, low, high, root);
    if (q->aborted) return 0;
    if (value <= low) { if (value < ceiling) ceiling = value; }
    else if (value >= high) { if (value > floor) floor = value; }
    else floor = ceiling = value;
    table_store2(q, key, floor - offset, ceiling - offset);
    return value;
}

static double ab_start(Solver *q, const Start *s, const int won[MAXP], double alpha, double beta) {
    if (q->aborted) return 0;
    Key key;
    double floor, ceiling;
    int offset = start_bounds(q, s, won, 1, &key, &floor, &ceiling);
    if (floor >= beta || floor == ceiling) return floor;
    if (ceiling <= alpha) return ceiling;
    double low = alpha > floor ? alpha : floor, high = beta < ceiling ? beta : ceiling;
    return expand_start(q, s, won, &key, offset, floor, ceiling, low, high, 0);
}

/* The root: as ab_start, but always expanded (no table hit counted), so that it notes P's
 * option on the best line; the driver's window lies inside the static bounds. */
static double ab_root(Solver *q, const Start *s, const int won[MAXP], double alpha, double beta) {
    q->root_action = NO_ACTION;
    Key key;
    double floor, ceiling;
    int offset = start_bounds(q, s, won, 0, &key, &floor, &ceiling);
    return expand_start(q, s, won, &key, offset, floor, ceiling, alpha, beta, 1);
}

/* ----- Python interface ---------------------------------------------------------------- */

static void solver_free(Solver *q) {
    if (!q) return;
    free(q->slots);
    free(q);
}

/* The value of round start s for the solver's question, within seconds (<= 0: no limit)
 * and max_states more states (< 0: no limit), the table kept from earlier calls.  Q4:
 * (value-to-go or None, exhausted, states, hits, matrix_games, saddles, lps); Q1-Q3, with
 * each seat's cards won so far and the window (alpha, beta): (the fail-soft value or None,
 * exhausted, states, hits, P's root option on the best line or `no_action`), exhausted ""
 * or "states", "memory", "time".  The counts add up over the calls. */
static PyObject *solver_run(Solver *q, const Start *s, const int won[MAXP], double alpha, double beta,
                            double seconds, long long max_states, int no_action) {
    q->aborted = ABORTED_NONE;
    q->deadline = seconds > 0 ? now() + seconds : 0;
    q->max_states = max_states < 0 ? -1 : q->states + max_states;
    int paranoid = q->question != QUESTION_Q4;
    double value;
    Py_BEGIN_ALLOW_THREADS
    value = paranoid ? ab_root(q, s, won, alpha, beta) : start_value(q, s);
    Py_END_ALLOW_THREADS
    static const char *why[] = {"", "states", "memory", "time"};
    PyObject *result = q->aborted ? Py_NewRef(Py_None) : PyFloat_FromDouble(value);
    if (paranoid)
        return Py_BuildValue("NsLLi", result, why[q->aborted], q->states, q->hits,
                             q->root_action == NO_ACTION ? no_action : q->root_action);
    return Py_BuildValue("NsLLLLL", result, why[q->aborted], q->states, q->hits, q->matrix_games, q->saddles, q->lps);
}

#endif /* SIMULTANEOUS_CORE_H */
