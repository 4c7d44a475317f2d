/* games/devils_throne/_core.c: Devil's Throne's rules for two seats, in C.
 *
 * The positions and moves that the simultaneous-move search of solver/_simultaneous_core.h
 * walks (native/devils_throne.c puts the two together): the rules of
 * games/devils_throne/rules.py, the readable reference that the tests compare this file
 * to, for two seats:
 *
 *   - Select: each seat picks one rank it holds; deuce check [R10];
 *   - threes in the game's order (the caller passes (power, owner) pairs in ♣ ♠ ♦ ♥ order)
 *     [R11-R14]; no target: skipped; one target: applied; two (Gravedigger, Robber): a
 *     decision of the owner;
 *   - the Envoy window: sub-rounds while an ace is played, both eligible seats at once
 *     [R5-R9, R25];
 *   - the winner with the tie-break, the void round, the end check [R4, R16-R18].
 *
 * A round start (Start) is what the search's table keeps; a Node is a decision point inside
 * a round, or its end (no seat acts).  Options: at Select the ranks held, at a three the
 * target seat, in an Envoy sub-round ACE or PASS.
 *
 * Key of a round start (60 bits): per seat and rank 1-13 the count held (2 bits: the
 * Gravedigger and the Martyr can bring a second card of a rank), the reserve depths
 * (2 bits each), the round (4 bits).
 */

#include <stdint.h>
#include <string.h>

typedef uint64_t u64;

enum { MARTYR = 0, GRAVEDIGGER = 1, ROBBER = 2, LOVER = 3 };
enum { HIGH = 0, LOW = 1 };
enum { SELECT = 0, EFFECT = 1, ENVOY = 2, END = 3 };  /* a Node's phase; END: the round is over */
enum { PASS = 0, ACE = 1 };                              /* Envoy options */
#define MAXA 16                                          /* options of a seat: 13 ranks at most */
#define RESERVE_SIZE 3
#define MAX_ROUNDS 10

/* One deal: the threes in resolution order, the coins, the reserves top first. */
typedef struct {
    int neffects, power[4], owner[4];
    int coins[MAX_ROUNDS];
    int reserve[2][RESERVE_SIZE];
} Ctx;

typedef struct {
    uint8_t hand[2][14];   /* count per rank 1..13 */
    uint8_t size[2];
    uint8_t depth[2];      /* cards gone from the reserve top */
    uint8_t round;         /* 1-based */
} Start;

typedef struct {
    Start s;
    int phase, effect;     /* EFFECT: the index of the three whose owner chooses */
    int main[2], total[2], pool, gain[2], deuce, mode;
} Node;

static inline int value_of(int rank, int deuce) { return deuce && rank > 10 ? 10 : rank; }  /* [R10] */

static inline int reserve_top(const Ctx *c, const Start *s, int seat) {
    return s->depth[seat] < RESERVE_SIZE ? c->reserve[seat][s->depth[seat]] : 0;
}

/* ----- round starts ----------------------------------------------------------------------- */

static inline u64 start_key(const Ctx *c, const Start *s) {
    (void)c;
    u64 key = 0;
    for (int seat = 0; seat < 2; seat++)
        for (int rank = 1; rank <= 13; rank++) key = key << 2 | s->hand[seat][rank];
    key = key << 2 | s->depth[0];
    key = key << 2 | s->depth[1];
    key = key << 4 | s->round;
    return key;  /* never 0: the round is at least 1 */
}

/* Cards that may still reach a trick pile: hands and reserves (the pool is empty). */
static inline int cards_in_play(const Ctx *c, const Start *s) {
    (void)c;
    return s->size[0] + s->size[1] + (RESERVE_SIZE - s->depth[0]) + (RESERVE_SIZE - s->depth[1]);
}

static inline void open_round(const Ctx *c, const Start *s, Node *d) {
    (void)c;
    memset(d, 0, sizeof *d);
    d->s = *s;
    d->phase = SELECT;
}

/* ----- forced procedures ------------------------------------------------------------------ */

static inline void apply_effect(const Ctx *c, Node *d, int power, int owner, int target) {
    int card;
    switch (power) {
    case MARTYR:  /* [R12] */
        card = reserve_top(c, &d->s, owner); d->s.depth[owner]++;
        d->s.hand[target][card]++; d->s.size[target]++;
        break;
    case GRAVEDIGGER:  /* [R13] */
        card = reserve_top(c, &d->s, target); d->s.depth[target]++;
        d->s.hand[owner][card]++; d->s.size[owner]++;
        break;
    case ROBBER:  /* [R13, R17] */
        d->s.depth[target]++;
        d->gain[owner]++;
        break;
    default:  /* the Lover [R14] */
        card = reserve_top(c, &d->s, target); d->s.depth[target]++;
        d->total[target] += value_of(card, d->deuce);
        d->pool++;
    }
}

/* The seats an effect may target (a reserve with cards left): Martyr and Lover name theirs,
 * the others choose either seat, listed seat 0 first or, with `seat_1_first`, seat 1 first
 * (the game's search order). */
static inline int effect_targets(const Node *d, int power, int owner, int seat_1_first, int targets[2]) {
    int other = 1 - owner, n = 0;
    if (power == MARTYR) { if (d->s.depth[owner] < RESERVE_SIZE) targets[n++] = other; }
    else if (power == LOVER) { if (d->s.depth[other] < RESERVE_SIZE) targets[n++] = other; }
    else for (int k = 0; k < 2; k++) {
        int seat = seat_1_first ? 1 - k : k;
        if (d->s.depth[seat] < RESERVE_SIZE) targets[n++] = seat;
    }
    return n;
}

/* Step 4 from the three `index` on: a three with one target is applied, one with none
 * skipped, one with two is the owner's decision [R11]; then the Envoy window. */
static inline void after_effects(const Ctx *c, Node *d, int index) {
    for (; index < c->neffects; index++) {
        int power = c->power[index], owner = c->owner[index];
        if (d->main[owner] != 3) continue;
        int targets[2], n = effect_targets(d, power, owner, 0, targets);
        if (n == 1) apply_effect(c, d, power, owner, targets[0]);
        if (n == 2) { d->phase = EFFECT; d->effect = index; return; }
    }
    d->phase = ENVOY;
}

/* Steps 2-3: the main cards leave the hands into the pool; the deuce fixes values [R10]. */
static inline void reveal(const Ctx *c, Node *d, int main0, int main1) {
    d->main[0] = main0;
    d->main[1] = main1;
    for (int seat = 0; seat < 2; seat++) { d->s.hand[seat][d->main[seat]]--; d->s.size[seat]--; }
    d->deuce = main0 == 2 || main1 == 2;
    d->mode = c->coins[d->s.round - 1];
    for (int seat = 0; seat < 2; seat++) d->total[seat] = value_of(d->main[seat], d->deuce);
    d->pool = 2;
    after_effects(c, d, 0);
}

static inline int envoy_legal(const Node *d, int owner) {
    /* [R7]: the other seat one short of best, or tied at best with the owner. */
    int other = 1 - owner, m = d->mode == HIGH ? 1 : -1;
    int best = d->mode == HIGH ? (d->total[0] > d->total[1] ? d->total[0] : d->total[1])
                               : (d->total[0] < d->total[1] ? d->total[0] : d->total[1]);
    if (!d->s.hand[owner][1]) return 0;
    return d->total[other] == best - m || (d->total[other] == best && d->total[owner] == best);
}

static inline void play_ace(Node *d, int owner) {
    d->total[1 - owner] += d->mode == HIGH ? 1 : -1;  /* [R5] */
    d->s.hand[owner][1]--;
    d->s.size[owner]--;
    d->pool++;  /* [R9] */
}

/* ----- decision points -------------------------------------------------------------------- */

/* Each seat's options at d into opt (n[seat] = 0: the seat does not act; neither acts: the
 * round is over), in the rules' order or, with `ordered`, the game's search order: Select
 * ranks high first in HIGH rounds and low first in LOW, targets seat 2 before seat 1, an ace
 * before PASS. */
static inline void node_options(const Ctx *c, const Node *d, int ordered, int n[2], int opt[2][MAXA]) {
    n[0] = n[1] = 0;
    if (d->phase == SELECT) {
        int descending = ordered && c->coins[d->s.round - 1] == HIGH;
        for (int seat = 0; seat < 2; seat++)
            for (int i = 0; i < 13; i++) {
                int rank = descending ? 13 - i : 1 + i;
                if (d->s.hand[seat][rank]) opt[seat][n[seat]++] = rank;
            }
    } else if (d->phase == EFFECT) {
        int owner = c->owner[d->effect];
        n[owner] = effect_targets(d, c->power[d->effect], owner, ordered, opt[owner]);
    } else if (d->phase == ENVOY) {
        for (int seat = 0; seat < 2; seat++)
            if (envoy_legal(d, seat)) {
                n[seat] = 2;
                opt[seat][0] = ordered ? ACE : PASS;
                opt[seat][1] = ordered ? PASS : ACE;
            }
    }
}

/* d, in place, after each acting seat plays act[seat] (NO_ACTION for a seat that does not
 * act), every forced step run up to the next decision or the round's end. */
static inline void apply_joint(const Ctx *c, Node *d, const int act[2]) {
    if (d->phase == SELECT) {
        reveal(c, d, act[0], act[1]);
    } else if (d->phase == EFFECT) {
        int index = d->effect, owner = c->owner[index];
        apply_effect(c, d, c->power[index], owner, act[owner]);
        after_effects(c, d, index + 1);
    } else {
        /* an Envoy sub-round: the aces played apply together; another sub-round follows
         * while any was played [R6, R7, R9] */
        int played = 0;
        for (int seat = 0; seat < 2; seat++)
            if (act[seat] == ACE) { play_ace(d, seat); played = 1; }
        if (!played) d->phase = END;
    }
}

/* The round's end: the winner with the tie-break [R4, R16], trick or void [R17]; each
 * seat's cards won this round into gain; 1 with the next round start in *next, 0 when a
 * hand is empty and the game is over [R18]. */
static inline int close_round(const Ctx *c, const Node *d, Start *next, int gain[2]) {
    int high = d->mode == HIGH, pool = d->pool;
    int depth[2] = {d->s.depth[0], d->s.depth[1]};
    int best = high ? (d->total[0] > d->total[1] ? d->total[0] : d->total[1])
                    : (d->total[0] < d->total[1] ? d->total[0] : d->total[1]);
    int tied[2] = {d->total[0] == best, d->total[1] == best};
    int winner = -1;
    while (winner < 0) {
        if (!(tied[0] && tied[1])) { winner = tied[0] ? 0 : 1; break; }
        int draws[2] = {tied[0] && depth[0] < RESERVE_SIZE, tied[1] && depth[1] < RESERVE_SIZE};
        if (!draws[0] && !draws[1]) break;  /* void */
        int v[2] = {0, 0};
        for (int seat = 0; seat < 2; seat++) if (draws[seat]) {
            v[seat] = value_of(c->reserve[seat][depth[seat]], d->deuce);
            depth[seat]++;
            pool++;
        }
        if (!(draws[0] && draws[1])) { winner = draws[0] ? 0 : 1; break; }
        tied[0] = high ? v[0] >= v[1] : v[0] <= v[1];
        tied[1] = high ? v[1] >= v[0] : v[1] <= v[0];
    }
    gain[0] = d->gain[0] + (winner == 0 ? pool : 0);
    gain[1] = d->gain[1] + (winner == 1 ? pool : 0);
    if (d->s.size[0] == 0 || d->s.size[1] == 0) return 0;
    *next = d->s;
    next->depth[0] = (uint8_t)depth[0];
    next->depth[1] = (uint8_t)depth[1];
    next->round++;
    return 1;
}
