/* games/devils_throne/_core.c: Q1-Q4 of solver/simultaneous.py for two players, compiled.
 *
 * The value of a round start to seat P in the two-player zero-sum game on the card margin
 * c_P - c_O, by backward induction: a matrix game at every Select and two-seat Envoy node,
 * max or min at every other decision, one transposition table keyed on round starts and
 * holding the value-to-go (the margin gained from there on).  The rules are those of
 * games/devils_throne/rules.py (the readable reference; the tests compare the two on many
 * positions), for two seats:
 *
 *   - Select: each seat picks one rank it holds; deuce check [R10];
 *   - threes in the game's order (the caller passes (power, owner) pairs in ♣ ♠ ♦ ♥ order)
 *     [R11-R14]; no target: skipped; one target: applied; two (Gravedigger, Robber): a
 *     decision of the owner;
 *   - the Envoy window: sub-rounds while an ace is played, both eligible seats at once
 *     [R5-R9, R25];
 *   - the winner with the tie-break, the void round, the end check [R4, R16-R18].
 *
 * Matrix games: a pure saddle point, iterated removal of weakly dominated lines, the 2x2
 * formula, else a dense simplex (Bland's rule) on the shifted game, as solver/simultaneous.py
 * does with GLOP.
 *
 * Key of a round start (60 bits): per seat and rank 1-13 the count held (2 bits: the
 * Gravedigger and the Martyr can bring a second card of a rank), the reserve depths
 * (2 bits each), the round (4 bits).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;

enum { MARTYR = 0, GRAVEDIGGER = 1, ROBBER = 2, LOVER = 3 };
enum { HIGH = 0, LOW = 1 };
#define MAXA 16
#define EPS 1e-9
#define EMPTY_KEY 0

typedef struct {
    uint8_t hand[2][14];   /* count per rank 1..13 */
    uint8_t size[2];
    uint8_t depth[2];      /* cards gone from the reserve top */
    uint8_t round;         /* 1-based */
} Start;

typedef struct {
    Start s;
    int main[2], total[2], pool, gain[2], deuce, mode;
} Round;

/* A table slot: the key beside its value, so that a probe costs one cache line.  Q1-Q3
 * store a floor and a ceiling (whole numbers) where Q4 stores its value. */
typedef struct {
    u64 key;
    union { double value; int32_t bounds[2]; } u;
} Slot;

typedef struct {
    int p;                       /* seat P */
    int neffects, power[4], owner[4];
    int coins[10];
    int reserve[2][3];
    int question;                /* 0: Q4; 1, 2, 3: Q1, Q2, Q3 (alpha-beta) */
    int margin;                  /* Q1-Q3 payoff: 1 the margin c_P - c_O, 0 the cards c_P */
    double root_floor, root_ceiling;
    int root_action;             /* Q1, Q2: P's rank at the root's best line (0: none) */
    Slot *slots;
    size_t capacity, count;
    long long states, hits, matrix_games, saddles, lps, max_states;
    double deadline;
    int aborted;
} Solver;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* ----- the table ----------------------------------------------------------------------- */

static u64 pack(const Start *s) {
    u64 key = 0;
    for (int seat = 0; seat < 2; seat++)
        for (int rank = 1; rank <= 13; rank++) key = key << 2 | s->hand[seat][rank];
    key = key << 2 | s->depth[0];
    key = key << 2 | s->depth[1];
    key = key << 4 | s->round;
    return key;  /* never 0: the round is at least 1 */
}

static size_t slot_of(u64 key, size_t capacity) {
    key ^= key >> 33; key *= 0xff51afd7ed558ccdULL; key ^= key >> 33;
    return (size_t)key & (capacity - 1);
}

static int table_grow(Solver *q) {
    size_t capacity = q->capacity ? q->capacity * 2 : (1u << 16);
    Slot *slots = calloc(capacity, sizeof *slots);
    if (!slots) return 0;
    for (size_t i = 0; i < q->capacity; i++) {
        if (q->slots[i].key == EMPTY_KEY) continue;
        size_t j = slot_of(q->slots[i].key, capacity);
        while (slots[j].key != EMPTY_KEY) j = (j + 1) & (capacity - 1);
        slots[j] = q->slots[i];
    }
    free(q->slots);
    q->slots = slots;
    q->capacity = capacity;
    return 1;
}

static Slot *table_slot(const Solver *q, u64 key) {
    if (!q->capacity) return NULL;
    for (size_t j = slot_of(key, q->capacity); q->slots[j].key != EMPTY_KEY; j = (j + 1) & (q->capacity - 1))
        if (q->slots[j].key == key) return &q->slots[j];
    return NULL;
}

static Slot *table_claim(Solver *q, u64 key) {
    if ((q->count + 1) * 2 > q->capacity && !table_grow(q)) { q->aborted = 2; return NULL; }
    size_t j = slot_of(key, q->capacity);
    while (q->slots[j].key != EMPTY_KEY && q->slots[j].key != key) j = (j + 1) & (q->capacity - 1);
    if (q->slots[j].key == EMPTY_KEY) q->count++;
    q->slots[j].key = key;
    return &q->slots[j];
}

static int table_find(Solver *q, u64 key, double *value) {
    Slot *slot = table_slot(q, key);
    if (!slot) return 0;
    *value = slot->u.value;
    return 1;
}

static void table_store2(Solver *q, u64 key, double floor, double ceiling) {
    Slot *slot = table_claim(q, key);
    if (slot) { slot->u.bounds[0] = (int32_t)floor; slot->u.bounds[1] = (int32_t)ceiling; }
}

static void table_store(Solver *q, u64 key, double value) {
    Slot *slot = table_claim(q, key);
    if (slot) slot->u.value = value;
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

/* ----- the rules, for two seats -------------------------------------------------------- */

static int value_of(int rank, int deuce) { return deuce && rank > 10 ? 10 : rank; }  /* [R10] */

static int reserve_top(const Solver *q, const Start *s, int seat) {
    return s->depth[seat] < 3 ? q->reserve[seat][s->depth[seat]] : 0;
}

static double start_value(Solver *q, const Start *s);
static double envoy_value(Solver *q, const Round *d);

static void resolve(const Solver *q, Round *dp) {
    /* Winner with the tie-break [R4, R16], trick or void [R17]. */
    Round d = *dp;
    int high = d.mode == HIGH;
    int best = high ? (d.total[0] > d.total[1] ? d.total[0] : d.total[1])
                    : (d.total[0] < d.total[1] ? d.total[0] : d.total[1]);
    int tied[2] = {d.total[0] == best, d.total[1] == best};
    int winner = -1;
    while (winner < 0) {
        if (!(tied[0] && tied[1])) { winner = tied[0] ? 0 : 1; break; }
        int draws[2] = {tied[0] && d.s.depth[0] < 3, tied[1] && d.s.depth[1] < 3};
        if (!draws[0] && !draws[1]) break;  /* void */
        int v[2] = {0, 0};
        for (int seat = 0; seat < 2; seat++) if (draws[seat]) {
            v[seat] = value_of(reserve_top(q, &d.s, seat), d.deuce);
            d.s.depth[seat]++;
            d.pool++;
        }
        if (!(draws[0] && draws[1])) { winner = draws[0] ? 0 : 1; break; }
        tied[0] = high ? v[0] >= v[1] : v[0] <= v[1];
        tied[1] = high ? v[1] >= v[0] : v[1] <= v[0];
    }
    if (winner >= 0) d.gain[winner] += d.pool;
    *dp = d;
}

static double finish(Solver *q, Round d) {
    resolve(q, &d);  /* then the end check [R18] */
    double margin = d.gain[q->p] - d.gain[1 - q->p];
    if (d.s.size[0] == 0 || d.s.size[1] == 0) return margin;
    d.s.round++;
    return margin + start_value(q, &d.s);
}

static int envoy_legal(const Round *d, int owner) {
    /* [R7]: the other seat one short of best, or tied at best with the owner. */
    int other = 1 - owner, m = d->mode == HIGH ? 1 : -1;
    int best = d->mode == HIGH ? (d->total[0] > d->total[1] ? d->total[0] : d->total[1])
                               : (d->total[0] < d->total[1] ? d->total[0] : d->total[1]);
    if (!d->s.hand[owner][1]) return 0;
    return d->total[other] == best - m || (d->total[other] == best && d->total[owner] == best);
}

static Round play_ace(Round d, int owner) {
    d.total[1 - owner] += d.mode == HIGH ? 1 : -1;  /* [R5] */
    d.s.hand[owner][1]--;
    d.s.size[owner]--;
    d.pool++;  /* [R9] */
    return d;
}

static double envoy_value(Solver *q, const Round *d) {
    int e0 = envoy_legal(d, 0), e1 = envoy_legal(d, 1);
    if (!e0 && !e1) return finish(q, *d);
    if (e0 && e1) {
        double m[MAXA][MAXA];
        int p = q->p;
        /* rows: P passes or plays; columns: O passes or plays */
        for (int r = 0; r < 2; r++) for (int c = 0; c < 2; c++) {
            if (!r && !c) { m[r][c] = finish(q, *d); continue; }
            Round next = *d;
            if (r) next = play_ace(next, p);
            if (c) next = play_ace(next, 1 - p);
            m[r][c] = envoy_value(q, &next);
        }
        return matrix_value(q, m, 2, 2);
    }
    int owner = e0 ? 0 : 1;
    double pass = finish(q, *d);
    Round next = play_ace(*d, owner);
    double play = envoy_value(q, &next);
    return owner == q->p ? fmax(pass, play) : fmin(pass, play);
}

static Round apply_effect(const Solver *q, Round d, int power, int owner, int target) {
    int card;
    switch (power) {
    case MARTYR:  /* [R12] */
        card = reserve_top(q, &d.s, owner); d.s.depth[owner]++;
        d.s.hand[target][card]++; d.s.size[target]++;
        break;
    case GRAVEDIGGER:  /* [R13] */
        card = reserve_top(q, &d.s, target); d.s.depth[target]++;
        d.s.hand[owner][card]++; d.s.size[owner]++;
        break;
    case ROBBER:  /* [R13, R17] */
        d.s.depth[target]++;
        d.gain[owner]++;
        break;
    default:  /* the Lover [R14] */
        card = reserve_top(q, &d.s, target); d.s.depth[target]++;
        d.total[target] += value_of(card, d.deuce);
        d.pool++;
    }
    return d;
}

/* The seats an effect may target (a reserve with cards left): Martyr and Lover name theirs,
 * the others choose either seat, listed seat 0 first or, with `seat_1_first`, seat 1 first
 * (each search's own move order). */
static int effect_targets(const Round *d, int power, int owner, int seat_1_first, int targets[2]) {
    int other = 1 - owner, n = 0;
    if (power == MARTYR) { if (d->s.depth[owner] < 3) targets[n++] = other; }
    else if (power == LOVER) { if (d->s.depth[other] < 3) targets[n++] = other; }
    else for (int k = 0; k < 2; k++) {
        int seat = seat_1_first ? 1 - k : k;
        if (d->s.depth[seat] < 3) targets[n++] = seat;
    }
    return n;
}

static double effects_value(Solver *q, Round d, int index) {
    for (; index < q->neffects; index++) {
        int power = q->power[index], owner = q->owner[index];
        if (d.main[owner] != 3) continue;
        int targets[2], n = effect_targets(&d, power, owner, 0, targets);
        if (n == 1) d = apply_effect(q, d, power, owner, targets[0]);
        if (n == 2) {
            double a = effects_value(q, apply_effect(q, d, power, owner, targets[0]), index + 1);
            double b = effects_value(q, apply_effect(q, d, power, owner, targets[1]), index + 1);
            return owner == q->p ? fmax(a, b) : fmin(a, b);
        }
    }
    return envoy_value(q, &d);
}

static double select_value(Solver *q, const Start *s) {
    int ranks[2][MAXA], n[2] = {0, 0};
    for (int seat = 0; seat < 2; seat++)
        for (int rank = 1; rank <= 13; rank++) if (s->hand[seat][rank]) ranks[seat][n[seat]++] = rank;
    int p = q->p, o = 1 - p;
    double m[MAXA][MAXA];
    for (int r = 0; r < n[p]; r++) for (int c = 0; c < n[o]; c++) {
        Round d;
        memset(&d, 0, sizeof d);
        d.s = *s;
        d.main[p] = ranks[p][r];
        d.main[o] = ranks[o][c];
        for (int seat = 0; seat < 2; seat++) { d.s.hand[seat][d.main[seat]]--; d.s.size[seat]--; }
        d.deuce = d.main[0] == 2 || d.main[1] == 2;
        d.mode = q->coins[s->round - 1];
        for (int seat = 0; seat < 2; seat++) d.total[seat] = value_of(d.main[seat], d.deuce);
        d.pool = 2;
        m[r][c] = effects_value(q, d, 0);
        if (q->aborted) return 0;
    }
    return matrix_value(q, m, n[p], n[o]);
}

static double start_value(Solver *q, const Start *s) {
    if (q->aborted) return 0;
    u64 key = pack(s);
    double value;
    if (table_find(q, key, &value)) { q->hits++; return value; }
    q->states++;
    if (q->max_states >= 0 && q->states > q->max_states) { q->aborted = 1; return 0; }
    if ((q->states & 1023) == 0 && q->deadline > 0 && now() > q->deadline) { q->aborted = 3; return 0; }
    value = select_value(q, s);
    if (!q->aborted) table_store(q, key, value);
    return value;
}


/* ----- Q1-Q3: alpha-beta, node for node the search of solver/simultaneous.py ------------
 *
 * Values are relative to the round start being searched (the Python side adds the tricks
 * so far); windows move with them.  Orders are the game's order_actions: Select ranks high
 * first in HIGH rounds and low first in LOW, targets seat 2 before seat 1, an ace before
 * PASS.  Layers: Q1 maximises over every joint action (seat 1's choice outermost); Q2 lets P
 * commit first, Q3 last; a node where one seat acts is that seat's (P maximises, O
 * minimises; Q1 always maximises). */

typedef struct {
    int select;            /* 1: Select, 0: an Envoy sub-round */
    int n[2];              /* options a seat; 0: the seat does not act */
    int opt[2][MAXA];      /* Select: ranks; Envoy: 1 the ace, 0 PASS */
    const Start *s;
    const Round *d;
} Node;

static double ab_start(Solver *q, const Start *s, double alpha, double beta, int root);
static double ab_envoy(Solver *q, const Round *d, double alpha, double beta);

static double payoff(const Solver *q, const Round *d) {
    return q->margin ? d->gain[q->p] - d->gain[1 - q->p] : d->gain[q->p];
}

static double ab_finish(Solver *q, Round d, double alpha, double beta) {
    resolve(q, &d);
    double so_far = payoff(q, &d);
    if (d.s.size[0] == 0 || d.s.size[1] == 0) return so_far;
    d.s.round++;
    return so_far + ab_start(q, &d.s, alpha - so_far, beta - so_far, 0);
}

static Round reveal(const Solver *q, const Start *s, int main0, int main1) {
    Round d;
    memset(&d, 0, sizeof d);
    d.s = *s;
    d.main[0] = main0;
    d.main[1] = main1;
    for (int seat = 0; seat < 2; seat++) { d.s.hand[seat][d.main[seat]]--; d.s.size[seat]--; }
    d.deuce = main0 == 2 || main1 == 2;
    d.mode = q->coins[s->round - 1];
    for (int seat = 0; seat < 2; seat++) d.total[seat] = value_of(d.main[seat], d.deuce);
    d.pool = 2;
    return d;
}

static double ab_effects(Solver *q, Round d, int index, double alpha, double beta);

static double ab_child(Solver *q, const Node *node, const int a[2], double alpha, double beta) {
    if (node->select) return ab_effects(q, reveal(q, node->s, node->opt[0][a[0]], node->opt[1][a[1]]), 0, alpha, beta);
    Round next = *node->d;
    int played = 0;
    for (int seat = 0; seat < 2; seat++)
        if (node->n[seat] && node->opt[seat][a[seat]]) { next = play_ace(next, seat); played = 1; }
    return played ? ab_envoy(q, &next, alpha, beta) : ab_finish(q, next, alpha, beta);
}

static void note_root(Solver *q, const Node *node, int maximise, double best, const int a[2]) {
    if (maximise) {
        if (best > q->root_floor) q->root_floor = best;
        q->root_action = node->n[q->p] ? node->opt[q->p][a[q->p]] : 0;
    } else if (best < q->root_ceiling) {
        q->root_ceiling = best;
    }
}

/* A child's value `v` at a maximising (or minimising) step: the best so far and the window
 * move with it, the root notes it; true when the window has closed (a cut). */
static inline int improve(Solver *q, const Node *node, int maximise, double v, double *best, double *alpha,
                          double *beta, int root, const int a[2]) {
    if (maximise && v > *best) {
        *best = v;
        if (v > *alpha) *alpha = v;
        if (root) note_root(q, node, 1, *best, a);
    } else if (!maximise && v < *best) {
        *best = v;
        if (v < *beta) *beta = v;
        if (root) note_root(q, node, 0, *best, a);
    }
    return *alpha >= *beta;
}

static double ab_node(Solver *q, const Node *node, double alpha, double beta, int root) {
    int p = q->p, both = node->n[0] && node->n[1];
    int a[2] = {0, 0};
    if (q->question == 1 || !both) {
        int maximise = q->question == 1 || node->n[p];
        double best = maximise ? -INFINITY : INFINITY;
        for (a[0] = 0; a[0] < (node->n[0] ? node->n[0] : 1); a[0]++)
            for (a[1] = 0; a[1] < (node->n[1] ? node->n[1] : 1); a[1]++) {
                double v = ab_child(q, node, a, alpha, beta);
                if (q->aborted) return best;  /* v is no value: keep the root's bounds sound */
                if (improve(q, node, maximise, v, &best, &alpha, &beta, root, a)) return best;
            }
        return best;
    }
    int outer = q->question == 2 ? p : 1 - p, inner = 1 - outer, outer_max = outer == p;
    double best = outer_max ? -INFINITY : INFINITY;
    for (a[outer] = 0; a[outer] < node->n[outer]; a[outer]++) {
        double inner_best = outer_max ? INFINITY : -INFINITY, ia = alpha, ib = beta;
        for (a[inner] = 0; a[inner] < node->n[inner]; a[inner]++) {
            double v = ab_child(q, node, a, ia, ib);
            if (q->aborted) return best;
            if (outer_max && v < inner_best) { inner_best = v; if (v < ib) ib = v; }
            else if (!outer_max && v > inner_best) { inner_best = v; if (v > ia) ia = v; }
            if (ia >= ib) break;
        }
        if (improve(q, node, outer_max, inner_best, &best, &alpha, &beta, root, a)) return best;
    }
    return best;
}

static double ab_envoy(Solver *q, const Round *d, double alpha, double beta) {
    Node node = {0};
    node.d = d;
    for (int seat = 0; seat < 2; seat++)
        if (envoy_legal(d, seat)) { node.n[seat] = 2; node.opt[seat][0] = 1; node.opt[seat][1] = 0; }
    if (!node.n[0] && !node.n[1]) return ab_finish(q, *d, alpha, beta);
    return ab_node(q, &node, alpha, beta, 0);
}

static double ab_effects(Solver *q, Round d, int index, double alpha, double beta) {
    for (; index < q->neffects; index++) {
        int power = q->power[index], owner = q->owner[index];
        if (d.main[owner] != 3) continue;
        int targets[2], n = effect_targets(&d, power, owner, 1, targets);
        if (n == 1) d = apply_effect(q, d, power, owner, targets[0]);
        if (n == 2) {
            int maximise = q->question == 1 || owner == q->p;
            double best = maximise ? -INFINITY : INFINITY;
            for (int t = 0; t < 2; t++) {
                double v = ab_effects(q, apply_effect(q, d, power, owner, targets[t]), index + 1, alpha, beta);
                if (q->aborted) return best;
                if (maximise && v > best) { best = v; if (v > alpha) alpha = v; }
                else if (!maximise && v < best) { best = v; if (v < beta) beta = v; }
                if (alpha >= beta) break;
            }
            return best;
        }
    }
    return ab_envoy(q, &d, alpha, beta);
}

static double ab_select(Solver *q, const Start *s, double alpha, double beta, int root) {
    Node node = {0};
    node.select = 1;
    node.s = s;
    int high = q->coins[s->round - 1] == HIGH;
    for (int seat = 0; seat < 2; seat++)
        for (int i = 0; i < 13; i++) {
            int rank = high ? 13 - i : 1 + i;
            if (s->hand[seat][rank]) node.opt[seat][node.n[seat]++] = rank;
        }
    return ab_node(q, &node, alpha, beta, root);
}

static double ab_start(Solver *q, const Start *s, double alpha, double beta, int root) {
    if (q->aborted) return 0;
    u64 key = pack(s);
    double spare = s->size[0] + s->size[1] + (3 - s->depth[0]) + (3 - s->depth[1]);
    double floor = q->margin ? -spare : 0, ceiling = spare;
    if (root) { q->root_floor = floor; q->root_ceiling = ceiling; q->root_action = 0; }
    Slot *slot = table_slot(q, key);
    if (slot) {
        q->hits++;
        if (slot->u.bounds[0] > floor) floor = slot->u.bounds[0];
        if (slot->u.bounds[1] < ceiling) ceiling = slot->u.bounds[1];
    }
    if (floor >= beta || floor == ceiling) return floor;
    if (ceiling <= alpha) return ceiling;
    double low = alpha > floor ? alpha : floor, high = beta < ceiling ? beta : ceiling;
    q->states++;
    if (q->max_states >= 0 && q->states > q->max_states) { q->aborted = 1; return 0; }
    if ((q->states & 1023) == 0 && q->deadline > 0 && now() > q->deadline) { q->aborted = 3; return 0; }
    double value = ab_select(q, s, low, high, root);
    if (q->aborted) return 0;
    if (value <= low) { if (value < ceiling) ceiling = value; }
    else if (value >= high) { if (value > floor) floor = value; }
    else floor = ceiling = value;
    table_store2(q, key, floor, ceiling);
    return value;
}

/* ----- Python ------------------------------------------------------------------------ */

static void solver_free(PyObject *capsule) {
    Solver *q = PyCapsule_GetPointer(capsule, "devils_throne.q4");
    if (!q) return;
    free(q->slots); free(q);
}

/* new_solver(p, effects, coins, reserves, question, margin): effects a sequence of
 * (power, owner) in resolution order, coins 10 ints, reserves two sequences of 3 ranks (top
 * first); question 0 for Q4, 1-3 for Q1-Q3 on the margin (margin = 1) or the cards. */
static PyObject *new_solver(PyObject *self, PyObject *args) {
    (void)self;
    int p, question, margin;
    PyObject *effects, *coins, *reserves;
    if (!PyArg_ParseTuple(args, "iOOOii", &p, &effects, &coins, &reserves, &question, &margin)) return NULL;
    Solver *q = calloc(1, sizeof *q);
    if (!q) return PyErr_NoMemory();
    q->p = p;
    q->question = question;
    q->margin = margin;
    q->neffects = (int)PySequence_Size(effects);
    for (int i = 0; i < q->neffects && i < 4; i++) {
        PyObject *pair = PySequence_GetItem(effects, i);
        if (!pair || !PyArg_ParseTuple(pair, "ii", &q->power[i], &q->owner[i])) { Py_XDECREF(pair); free(q); return NULL; }
        Py_DECREF(pair);
    }
    for (int i = 0; i < 10; i++) {
        PyObject *item = PySequence_GetItem(coins, i);
        if (!item) { free(q); return NULL; }
        q->coins[i] = (int)PyLong_AsLong(item);
        Py_DECREF(item);
    }
    for (int seat = 0; seat < 2; seat++) {
        PyObject *row = PySequence_GetItem(reserves, seat);
        if (!row) { free(q); return NULL; }
        for (int i = 0; i < 3; i++) {
            PyObject *item = PySequence_GetItem(row, i);
            if (!item) { Py_DECREF(row); free(q); return NULL; }
            q->reserve[seat][i] = (int)PyLong_AsLong(item);
            Py_DECREF(item);
        }
        Py_DECREF(row);
    }
    if (PyErr_Occurred()) { free(q); return NULL; }
    return PyCapsule_New(q, "devils_throne.q4", solver_free);
}

/* q4_value(solver, round, hands, depths, seconds, max_states) -> (value or None, exhausted,
 * states, hits, matrix_games, saddles, lps): the value-to-go of a round start; seconds <= 0
 * and max_states < 0 mean no limit.  The table lives as long as the solver. */
static PyObject *start_call(PyObject *args, int paranoid) {
    PyObject *capsule, *hands, *depths;
    int round;
    double seconds;
    long long max_states;
    if (!PyArg_ParseTuple(args, "OiOOdL", &capsule, &round, &hands, &depths, &seconds, &max_states)) return NULL;
    Solver *q = PyCapsule_GetPointer(capsule, "devils_throne.q4");
    if (!q) return NULL;
    Start s;
    memset(&s, 0, sizeof s);
    s.round = (uint8_t)round;
    for (int seat = 0; seat < 2; seat++) {
        PyObject *hand = PySequence_GetItem(hands, seat), *depth = PySequence_GetItem(depths, seat);
        if (!hand || !depth) { Py_XDECREF(hand); Py_XDECREF(depth); return NULL; }
        Py_ssize_t n = PySequence_Size(hand);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PySequence_GetItem(hand, i);
            long rank = PyLong_AsLong(item);
            Py_XDECREF(item);
            if (rank < 1 || rank > 13) { Py_DECREF(hand); Py_DECREF(depth); PyErr_SetString(PyExc_ValueError, "rank out of range"); return NULL; }
            s.hand[seat][rank]++;
            s.size[seat]++;
        }
        s.depth[seat] = (uint8_t)PyLong_AsLong(depth);
        Py_DECREF(hand); Py_DECREF(depth);
    }
    if (PyErr_Occurred()) return NULL;
    q->aborted = 0;
    q->deadline = seconds > 0 ? now() + seconds : 0;
    q->max_states = max_states < 0 ? -1 : q->states + max_states;
    double value;
    Py_BEGIN_ALLOW_THREADS
    value = paranoid ? ab_start(q, &s, -INFINITY, INFINITY, 1) : start_value(q, &s);
    Py_END_ALLOW_THREADS
    static const char *why[] = {"", "states", "memory", "time"};
    PyObject *result = q->aborted ? Py_NewRef(Py_None) : PyFloat_FromDouble(value);
    if (paranoid)
        return Py_BuildValue("NsLLddi", result, why[q->aborted], q->states, q->hits, q->root_floor, q->root_ceiling,
                             q->root_action);
    return Py_BuildValue("NsLLLLL", result, why[q->aborted], q->states, q->hits, q->matrix_games, q->saddles, q->lps);
}

static PyObject *q4_value(PyObject *self, PyObject *args) { (void)self; return start_call(args, 0); }

/* paranoid_value(solver, round, hands, depths, seconds, max_states) -> (value or None,
 * exhausted, states, hits, root floor, root ceiling, P's root rank or 0): Q1-Q3 from a
 * round start, values relative to it. */
static PyObject *paranoid_value(PyObject *self, PyObject *args) { (void)self; return start_call(args, 1); }

static PyMethodDef core_methods[] = {
    {"new_solver", new_solver, METH_VARARGS, "A two-player solver for one deal, seat P and question."},
    {"q4_value", q4_value, METH_VARARGS, "The Q4 value-to-go of a round start."},
    {"paranoid_value", paranoid_value, METH_VARARGS, "A Q1-Q3 value of a round start."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "Devil's Throne: two-player Q1-Q4, compiled.", -1, core_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&core_module); }
