/* games/royal_assassin/_core.c: Royal Assassin's rules and bounds in C, for the compiled
 * "pruned" search.
 *
 * The positions, moves and hooks that the one-player search skeleton solver/_search_core.h
 * expects (native/royal_assassin.c puts the two together with the Python binding), the same
 * as the pure-Python engine's (games/royal_assassin/rules.py and bounds.py), which stays
 * the readable reference the tests compare the compiled search to:
 *
 *   - rules: search_moves in the order of legal_moves (D1: R(X), J(X), JR(X), T or
 *     REDEAL/E with E only when alone; D2: A(X) then P; D2J: JT(X) then P), apply with every
 *     forced procedure (ATTACK with the kill check, the Joker sweep and the win check, the
 *     discard test, SETTLE, a Royal turned, V5's Royal beneath), outcome and score;
 *   - hooks: score_upper_bound and can_still_win through _doomed (the attack supply left
 *     against each colour against the cheapest kill of each column).
 *
 * The file knows no card: suits, kinds, the landing and resting values (V3), the Royal
 * values, the opposing columns and the move names all come from the RoyalAssassin
 * instance (RoyalAssassin._compiled_tables); prepare_tables derives the rest.  Variants:
 * fixed_royals (V2) only changes the set-up, done in Python; V1 (two Jokers), V3, V4, V5
 * and V6 are flags and tables here.  V7 (redeal: the stock itself changes) is not covered;
 * the Python side refuses it.
 *
 * Positions.  Without V7 the stock is the deal, and the reserve is always a subsequence of
 * the cards turned so far, in the order they were turned (set-up and P only ever put the
 * latest card on top), so it is a bit mask over stock indices below `pos`, its top the
 * highest bit.  A Royal on the table is 16 bits: its code (1..3, the Python side's order
 * of the suit's Royals) | A << 2 | D << 9; a column is up to three of them, bottom first.
 *
 * Table key: an exact packing of the Python key into 5 words (reserve mask, pos, status,
 * redeal flag; per column its Royals and lock; the turned card, the Jokers on columns, the
 * Jokers available).  With two Jokers the reserve mask is made canonical (a lone Joker in
 * the reserve is written at the lower of the two Jokers' stock indices when no reserve
 * card lies between them), so that two positions with equal Python keys (the same card
 * sequence) pack alike.  The table's slot array starts at INITIAL_CAPACITY slots and
 * doubles while under its cap; emptying it gives the memory back down to that size.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

#define MAX_STOCK 60          /* reserve mask bits and 6 bits of pos */
#define MAX_CARD_IDS 64
#define MAX_DEPTH 512         /* a line turns each card once and plays it at most twice */
#define MAX_MOVES 16
#define NMOVE_NAMES 24
/* Small to start: a new table's pages are faulted in, which at 2^14 slots was most of a
 * typical deal's time. */
#define INITIAL_CAPACITY (1u << 10)
#define RESET_SHRINKS 1       /* an emptied table goes back to INITIAL_CAPACITY */

enum { PLAYING = 0, FINISHED_WON = 1, FINISHED_LOST = 2 };
enum { KIND_NUMBER = 0, KIND_ROYAL = 1, KIND_JOKER = 2 };
/* Moves: the index into the move names passed in (T, P, E, REDEAL, then A, R, J, JR, JT
 * each for columns 0..3). */
enum { MV_T = 0, MV_P = 1, MV_E = 2, MV_REDEAL = 3, MV_A = 4, MV_R = 8, MV_J = 12, MV_JR = 16, MV_JT = 20 };

#define NO_CARD (-1)
#define NO_LOCK (-1)

typedef struct {
    u64 reserve;          /* bit i: stock[i] lies in the reserve */
    u64 col[4];           /* Royals bottom first, 16 bits each */
    uint8_t n[4];         /* Royals per column */
    int8_t lock[4];       /* attack suit, NO_LOCK */
    uint8_t pos, jokers_on, available, redeal_blocked, status;
    int8_t turned;        /* card id, NO_CARD at D1 */
} State;

typedef uint8_t Move;

#define R_CODE(w) ((unsigned)(w) & 3u)
#define R_A(w) ((unsigned)(w) >> 2 & 127u)
#define R_D(w) ((unsigned)(w) >> 9 & 127u)
#define R_MAKE(code, a, d) ((u64)(code) | (u64)(a) << 2 | (u64)(d) << 9)

/* Slot words 0..4 are the key; word 4 also holds, above bit 51, value + VALUE_OFFSET
 * (8 bits), the exact flag and the used flag. */
#define SLOT_META(slot) ((slot)->w[4])
#define SLOT_KEY_MASK ((1ULL << 51) - 1)
#define SLOT_VALUE_SHIFT 51
#define SLOT_VALUE_MASK 0xFF
#define VALUE_OFFSET 16

typedef struct {
    u64 w[5];
} Slot;

typedef struct {
    /* deal */
    int size;
    int stock[MAX_STOCK];
    /* cards, by card id */
    int kind[MAX_CARD_IDS], suit[MAX_CARD_IDS], landing[MAX_CARD_IDS], resting[MAX_CARD_IDS];
    int side[MAX_CARD_IDS];           /* the supply a number card adds to: the colour it attacks */
    int rcode[MAX_CARD_IDS];          /* a Royal's code in its column, 1..3 */
    int royal_value[4][4];            /* [column][code] */
    int column_colour[4];
    int opp[4][2];                    /* OPPONENTS: the columns a suit may attack, in order */
    int max_score, lowest_win_score;
    int eq_only, joker_dies, royal_beneath, two_jokers;
    int d2_jokers;                    /* search_moves keeps J / JR at D2 (the two_jokers variant) */
    int joker_lo, joker_hi;           /* two_jokers: the Jokers' stock indices */
    /* _stock_suffix by pos */
    int supply_left[MAX_STOCK + 1][2], future[MAX_STOCK + 1][4], cheapest_future[MAX_STOCK + 1][4];
    int suits_to_come[MAX_STOCK + 1];  /* suits of the number cards at pos and after, a mask */
    u64 suit_cards[4];                /* stock indices of each suit's number cards */
    /* attack supply of reserve cards by side, in byte chunks of the reserve mask */
    int chunk_supply[2][8][256];
    void *names;                      /* the binding's move names, for its line_list */
} Ctx;

static inline int top_index(u64 mask) { return 63 - __builtin_clzll(mask); }

/* ----- the table ---------------------------------------------------------------------- */
static inline unsigned top_royal(const State *s, int column) {
    return (unsigned)(s->col[column] >> (16 * (s->n[column] - 1)) & 0xFFFF);
}

static inline void set_top(State *s, int column, u64 w) {
    int shift = 16 * (s->n[column] - 1);
    s->col[column] = (s->col[column] & ~(0xFFFFULL << shift)) | w << shift;
}

static inline void push_royal(State *s, int column, u64 w) {
    s->col[column] |= w << (16 * s->n[column]);
    s->n[column]++;
}

static inline void pop_royal(State *s, int column) {
    s->n[column]--;
    s->col[column] &= ~(0xFFFFULL << (16 * s->n[column]));
}

/* ----- the rules: forced procedures (the _Board of games/royal_assassin/rules.py) ------- */
typedef struct {
    int plays, won;
} Board;

/* [R10]: the attack suit goes when no attack card is left anywhere in the column. */
static inline void release_lock(State *s, int column) {
    for (int i = 0; i < s->n[column]; i++)
        if (R_A(s->col[column] >> (16 * i))) return;
    s->lock[column] = NO_LOCK;
}

static inline void kill(const Ctx *c, State *s, Board *b, int column) {
    if (s->jokers_on >> column & 1) {  /* [R23] */
        s->col[column] = 0;
        s->n[column] = 0;
        s->lock[column] = NO_LOCK;
        s->jokers_on &= (uint8_t)~(1u << column);
        if (!c->joker_dies) s->available++;
    } else {  /* [R19] */
        pop_royal(s, column);
        release_lock(s, column);
    }
    if (!(s->n[0] | s->n[1] | s->n[2] | s->n[3])) b->won = 1;
}

/* §4.2 [R16] (V4: only on equality). */
static inline void discard_test(const Ctx *c, State *s, int column, int defence_now) {
    unsigned w = top_royal(s, column);
    int attack = (int)R_A(w);
    if (!attack) return;
    if (c->eq_only ? defence_now == attack : defence_now >= attack) {
        set_top(s, column, R_CODE(w));
        release_lock(s, column);
    }
}

/* SETTLE §4.3 [R13-R15]. */
static inline void settle(const Ctx *c, State *s, Board *b) {
    while (s->reserve) {
        int i = top_index(s->reserve);
        int card = c->stock[i];
        if (c->kind[card] == KIND_JOKER) return;
        int column = c->suit[card];
        if (!s->n[column]) return;
        unsigned w = top_royal(s, column);
        int attack = (int)R_A(w), defence = (int)R_D(w);
        if (!attack || defence > attack) return;
        s->reserve &= ~(1ULL << i);
        b->plays++;
        set_top(s, column, R_MAKE(R_CODE(w), attack, defence + c->resting[card]));
        discard_test(c, s, column, defence + c->landing[card]);
    }
}

/* ATTACK §4.1. */
static inline void attack(const Ctx *c, State *s, Board *b, int column, int card) {
    b->plays++;
    unsigned w = top_royal(s, column);
    int code = (int)R_CODE(w), a = (int)R_A(w), d = (int)R_D(w);
    if (a + c->landing[card] >= c->royal_value[column][code] + d) {  /* [R11] */
        kill(c, s, b, column);
        if (b->won) return;  /* [R24] */
    } else {
        a += c->resting[card];
        set_top(s, column, R_MAKE(code, a, d));
        s->lock[column] = (int8_t)c->suit[card];
        discard_test(c, s, column, d);
    }
    settle(c, s, b);
}

/* §4.4; V5: the Royal arrives under the cards. */
static inline void royal_turned(const Ctx *c, State *s, Board *b, int card) {
    int column = c->suit[card];
    int code = c->rcode[card];
    if (c->royal_beneath && s->n[column] && R_A(top_royal(s, column))) {
        unsigned w = top_royal(s, column);
        int a = (int)R_A(w), d = (int)R_D(w);
        set_top(s, column, R_CODE(w));
        push_royal(s, column, R_MAKE(code, a, d));
        if (a >= c->royal_value[column][code] + d) {
            kill(c, s, b, column);
            if (b->won) return;
        } else {
            discard_test(c, s, column, d);
        }
        settle(c, s, b);
    } else {
        push_royal(s, column, (u64)code);
    }
}

static State apply_move(const Ctx *c, const State *s, Move m) {
    State t = *s;
    Board b = {0, 0};
    if (m == MV_T) {
        int card = c->stock[t.pos];
        if (c->kind[card] != KIND_ROYAL) {
            t.pos++;
            t.turned = (int8_t)card;
            return t;
        }
        royal_turned(c, &t, &b, card);
        t.pos++;
        t.turned = NO_CARD;
    } else if (m == MV_P) {
        t.reserve |= 1ULL << (t.pos - 1);  /* the turned card is the last one turned */
        t.turned = NO_CARD;
        settle(c, &t, &b);
    } else if (m == MV_E) {
        t.status = FINISHED_LOST;
        return t;
    } else {
        int column = m & 3;
        if (m < MV_R) {
            int card = t.turned;
            t.turned = NO_CARD;
            attack(c, &t, &b, column, card);
        } else if (m < MV_J) {
            int i = top_index(t.reserve);
            t.reserve &= ~(1ULL << i);
            attack(c, &t, &b, column, c->stock[i]);
        } else {
            if (m < MV_JR) t.available--;
            else if (m < MV_JT) t.reserve &= ~(1ULL << top_index(t.reserve));
            else t.turned = NO_CARD;
            t.jokers_on |= (uint8_t)(1u << column);
            b.plays++;
            settle(c, &t, &b);
        }
    }
    if (b.plays) t.redeal_blocked = 0;
    t.status = b.won ? FINISHED_WON : PLAYING;
    return t;
}

/* Columns a Joker may be placed on [R21, R22], as a bit mask. */
static inline int joker_targets(const State *s) {
    int targets = 0;
    for (int column = 0; column < 4; column++)
        if (s->n[column] >= 2 && R_A(top_royal(s, column)) && !(s->jokers_on >> column & 1))
            targets |= 1 << column;
    return targets;
}

/* Joker placements, as RoyalAssassin._joker_moves lists them: J(X) for the set-aside
 * Joker, then JR(X) for a Joker on the reserve top, each over the eligible columns. */
static int joker_moves(const State *s, int on_reserve, Move *out, int n) {
    if (s->available || on_reserve) {
        int targets = joker_targets(s);
        if (s->available)
            for (int column = 0; column < 4; column++)
                if (targets >> column & 1) out[n++] = (Move)(MV_J + column);
        if (on_reserve)
            for (int column = 0; column < 4; column++)
                if (targets >> column & 1) out[n++] = (Move)(MV_JR + column);
    }
    return n;
}

/* search_moves then order_moves: legal_moves less J / JR at D2 and D2J (not with two
 * Jokers), and less E unless it is the only move; with V6, T before the Joker placements.
 * At the root (`root`) every legal move, as solver/search.py does. */
static int ordered_moves(const Ctx *c, const State *s, Move *out, int root) {
    int n = 0;
    int on_reserve = 0;
    if (s->reserve) {
        int top = c->stock[top_index(s->reserve)];
        on_reserve = c->kind[top] == KIND_JOKER;
    }
    int d2_jokers = root || c->d2_jokers;
    if (s->turned == NO_CARD) {  /* D1 */
        if (s->reserve && !on_reserve) {
            int top = c->stock[top_index(s->reserve)];
            for (int column = 0; column < 4; column++)
                if (s->lock[column] == c->suit[top]) out[n++] = (Move)(MV_R + column);
        }
        if (c->joker_dies && s->pos < c->size) {  /* V6: T before the placements */
            out[n++] = MV_T;
            n = joker_moves(s, on_reserve, out, n);
        } else {
            n = joker_moves(s, on_reserve, out, n);
            if (s->pos < c->size) out[n++] = MV_T;
            else if (!n || root) out[n++] = MV_E;  /* REDEAL (V7) is not covered */
        }
    } else if (c->kind[s->turned] == KIND_JOKER) {  /* V1: D2J */
        int targets = joker_targets(s);
        for (int column = 0; column < 4; column++)
            if (targets >> column & 1) out[n++] = (Move)(MV_JT + column);
        if (d2_jokers) n = joker_moves(s, on_reserve, out, n);
        out[n++] = MV_P;
    } else {  /* D2 */
        int suit = c->suit[s->turned], elsewhere = -1;
        for (int column = 0; column < 4; column++)
            if (s->lock[column] == suit) elsewhere = column;
        for (int k = 0; k < 2; k++) {
            int column = c->opp[suit][k];
            if (s->n[column] && (s->lock[column] == NO_LOCK || s->lock[column] == suit) &&
                (elsewhere == -1 || elsewhere == column))
                out[n++] = (Move)(MV_A + column);
        }
        if (d2_jokers) n = joker_moves(s, on_reserve, out, n);
        out[n++] = MV_P;
    }
    return n;
}

/* A PLAYING state always has a search move: T, E when nothing else, or P at D2 and D2J. */
static inline int has_move(const Ctx *c, const State *s) {
    (void)c;
    (void)s;
    return 1;
}

/* ----- bounds: _doomed ------------------------------------------------------------------ */
/* (no WIN possible, Royals that surely stay); see RoyalAssassin._doomed. */
/* V6: Jokers not yet discarded (RoyalAssassin._jokers_left): set aside, on a column, in
 * hand, and (two Jokers) still in the stock or on the reserve. */
static inline int jokers_left(const Ctx *c, const State *s) {
    int left = s->available + __builtin_popcount(s->jokers_on);
    if (s->turned >= 0 && c->kind[s->turned] == KIND_JOKER) left++;
    const int at[2] = {c->joker_lo, c->joker_hi};
    for (int k = 0; k < 2; k++)
        if (at[k] >= 0 && (at[k] >= s->pos || (s->reserve >> at[k] & 1))) left++;
    return left;
}

static inline void sort_ascending(int *v, int n) {  /* insertion sort: a handful of values */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) { int t = v[j]; v[j] = v[j - 1]; v[j - 1] = t; }
}

/* RoyalAssassin._sweeps_fit: can `sweeps` free Jokers (V6), one column each, bring both
 * colours' costs within their supplies?  Each colour takes its largest savings first. */
static inline int sweeps_fit(const int need[2], const int supply[2], int saving[2][4], const int savings[2],
                             int sweeps) {
    int best[2][5] = {{0}, {0}};  /* best[colour][k]: the k largest savings added up */
    for (int colour = 0; colour < 2; colour++) {
        int *v = saving[colour], n = savings[colour];
        sort_ascending(v, n);
        for (int k = 1; k <= 4; k++) best[colour][k] = best[colour][k - 1] + (k <= n ? v[n - k] : 0);
    }
    for (int black = 0; black <= sweeps; black++) {
        int red = sweeps - black;
        if (need[0] - best[0][black > 4 ? 4 : black] <= supply[0] && need[1] - best[1][red > 4 ? 4 : red] <= supply[1])
            return 1;
    }
    return 0;
}

/* The reserve cards whose suit may still attack (RoyalAssassin._attacking_suits): an
 * attack suit now, the turned card's, or one with number cards still in the stock. */
static inline u64 attacking_cards(const Ctx *c, const State *s) {
    int suits = c->suits_to_come[s->pos];
    for (int column = 0; column < 4; column++)
        if (s->lock[column] != NO_LOCK) suits |= 1 << s->lock[column];
    if (s->turned >= 0 && c->kind[s->turned] == KIND_NUMBER) suits |= 1 << c->suit[s->turned];
    u64 cards = 0;
    for (int suit = 0; suit < 4; suit++)
        if (suits >> suit & 1) cards |= c->suit_cards[suit];
    return cards;
}

/* RoyalAssassin._supply: the attack still to come against black and red columns. */
static inline void attack_supply(const Ctx *c, const State *s, int supply[2]) {
    const int *left = c->supply_left[s->pos];
    supply[0] = left[0];
    supply[1] = left[1];
    u64 r = s->reserve & attacking_cards(c, s);
    for (int k = 0; r; k++, r >>= 8) {
        unsigned byte = (unsigned)(r & 255);
        supply[0] += c->chunk_supply[0][k][byte];
        supply[1] += c->chunk_supply[1][k][byte];
    }
    if (s->turned >= 0 && c->kind[s->turned] != KIND_JOKER) supply[c->side[s->turned]] += c->landing[s->turned];
}

/* _kill_costs: the least attack that kills each Royal of a column, bottom first. */
static inline int kill_costs(const Ctx *c, const State *s, int column, int *out) {
    for (int i = 0; i < s->n[column]; i++) {
        unsigned w = (unsigned)(s->col[column] >> (16 * i) & 0xFFFF);
        int value = c->royal_value[column][R_CODE(w)];
        int cost = value + (int)R_D(w) - (int)R_A(w);
        out[i] = value < cost ? value : cost;
    }
    return s->n[column];
}

/* RoyalAssassin._most_kills: at most this many Royals, on the table or still in the stock,
 * are killed from here on, with the attack supply doomed() found. */
static int most_kills(const Ctx *c, const State *s, const int supply[2]) {
    const int free = c->joker_dies ? jokers_left(c, s) - __builtin_popcount(s->jokers_on) : 4;
    int costs[4][16], ncosts[4], trigger[4], colour[4];
    for (int column = 0; column < 4; column++) {
        int n = kill_costs(c, s, column, costs[column]);
        const int future = c->future[s->pos][column], cheapest = c->cheapest_future[s->pos][column];
        trigger[column] = n >= 2 ? costs[column][n - 1] : -1;
        if (future && n + future >= 2 && (trigger[column] < 0 || cheapest < trigger[column])) trigger[column] = cheapest;
        for (int i = 0; i < future; i++) costs[column][n++] = cheapest;
        ncosts[column] = n;
        colour[column] = c->column_colour[column];
    }
    int best = 0;
    for (int swept = 0; swept < 16; swept++) {
        int left[2] = {supply[0], supply[1]}, kills = 0, used = 0, ok = 1;
        int direct[2][32], ndirect[2] = {0, 0};
        for (int column = 0; column < 4 && ok; column++) {
            const int fixed = s->jokers_on >> column & 1;
            if (swept >> column & 1) {
                if (trigger[column] < 0) ok = 0;
                used += !fixed;
                left[colour[column]] -= trigger[column];
                kills += ncosts[column];
            } else if (!fixed) {
                for (int i = 0; i < ncosts[column]; i++) direct[colour[column]][ndirect[colour[column]]++] = costs[column][i];
            }
        }
        if (!ok || used > free || left[0] < 0 || left[1] < 0) continue;
        for (int k = 0; k < 2; k++) {
            int *v = direct[k], n = ndirect[k];
            sort_ascending(v, n);
            for (int i = 0; i < n && v[i] <= left[k]; i++) {
                left[k] -= v[i];
                kills++;
            }
        }
        if (kills > best) best = kills;
    }
    return best;
}

/* `supply` gets the attack supply it weighed (set whenever it returns 1). */
static inline int doomed(const Ctx *c, const State *s, int *stays_out, int supply[2]) {
    *stays_out = 0;
    if (c->royal_beneath) return 0;
    const int *left = c->supply_left[s->pos];
    const int sweeps = c->joker_dies ? jokers_left(c, s) : -1;  /* < 0: Jokers come back */
    if (sweeps < 0 && left[0] >= 26 && left[1] >= 26) return 0;
    attack_supply(c, s, supply);
    int stays = 0, no_win = 0, need[2] = {0, 0}, free_sweeps = sweeps;
    int saving[2][4], savings[2] = {0, 0};
    for (int column = 0; column < 4; column++) {
        const int future_cheapest = c->cheapest_future[s->pos][column];
        int costs[3], n = kill_costs(c, s, column, costs);
        int cheapest = future_cheapest, full = 0, cost = n ? costs[n - 1] : 0;  /* cost: the top's */
        for (int i = 0; i < n; i++) {
            full += costs[i];
            if (costs[i] < cheapest) cheapest = costs[i];
        }
        int colour = c->column_colour[column];
        if (supply[colour] < cheapest) {
            stays += s->n[column] + c->future[s->pos][column];
            if (s->n[column]) no_win = 1;
        } else if (s->n[column]) {
            if (sweeps < 0) {
                need[colour] += cheapest;
                continue;
            }
            need[colour] += full;
            int trigger = n >= 2 ? cost : full;
            if (future_cheapest < trigger) trigger = future_cheapest;
            if (s->jokers_on >> column & 1) {
                need[colour] -= full - trigger;
                free_sweeps--;
            } else {
                saving[colour][savings[colour]++] = full - trigger;
            }
        }
    }
    if (!sweeps_fit(need, supply, saving, savings, sweeps < 0 ? 0 : free_sweeps)) no_win = 1;
    *stays_out = no_win ? stays : 0;
    return no_win;
}

static inline int terminal_score(const Ctx *c, const State *s) {
    if (s->status == FINISHED_WON) return c->max_score;
    return c->max_score - (s->n[0] + s->n[1] + s->n[2] + s->n[3]);
}

/* score_upper_bound (PLAYING or not). */
static inline int upper_bound(const Ctx *c, const State *s) {
    if (s->status != PLAYING) return terminal_score(c, s);
    int stays, supply[2];
    if (!doomed(c, s, &stays, supply)) return c->max_score;
    int on_table = 0;
    for (int column = 0; column < 4; column++) on_table += s->n[column] + c->future[s->pos][column];
    const int by_kills = c->max_score - on_table + most_kills(c, s, supply);
    const int by_stays = c->max_score - (stays > 1 ? stays : 1);
    return by_kills < by_stays ? by_kills : by_stays;
}

/* guaranteed_score, loss_can_reach: the Game defaults. */
static inline int guaranteed_score(const Ctx *c, const State *s) {
    return s->status != PLAYING ? terminal_score(c, s) : -1;
}
static inline int loss_can_reach(const Ctx *c, const State *s, int level) { return upper_bound(c, s) >= level; }

/* bounded_moves: ordered_moves with the Game default of move_bounds (no move is bounded
 * apart from its child; none is left out). */
static inline int bounded_moves(const Ctx *c, const State *s, Move *out, int *bounds, int root, int floor,
                                int *cut_best) {
    (void)floor;
    int n = ordered_moves(c, s, out, root);
    for (int i = 0; i < n; i++) bounds[i] = c->max_score;
    *cut_best = -1;
    return n;
}

/* may_exceed: the Game default (the bound is the only test). */
static inline int may_exceed(const Ctx *c, const State *s, int floor, int ceiling) {
    (void)c, (void)s, (void)floor, (void)ceiling;
    return 1;
}

static inline int can_still_win(const Ctx *c, const State *s) {
    int stays, supply[2];
    return !doomed(c, s, &stays, supply);
}

/* ----- the table key -------------------------------------------------------------------- */
static inline Slot pack(const Ctx *c, const State *s) {
    Slot k;
    u64 reserve = s->reserve;
    if (c->two_jokers) {
        u64 lo = 1ULL << c->joker_lo, hi = 1ULL << c->joker_hi;
        if ((reserve & hi) && !(reserve & lo)) {
            u64 between = (hi - 1) & ~((lo << 1) - 1);
            if (!(reserve & between)) reserve = (reserve & ~hi) | lo;
        }
    }
    k.w[0] = reserve | (u64)s->pos << 54 | (u64)s->status << 60 | (u64)s->redeal_blocked << 62;
    for (int column = 0; column < 4; column++)
        k.w[1 + column] = s->col[column] | (u64)(s->lock[column] + 1) << 48;
    k.w[1] |= (u64)(s->turned + 1) << 51;
    k.w[2] |= (u64)s->jokers_on << 51;
    k.w[3] |= (u64)s->available << 51;
    return k;
}

static inline u64 hash_key(const Slot *k) {
    u64 h = k->w[0] * 0x9E3779B97F4A7C15ULL;
    h ^= (k->w[1] + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h = (h ^ (h >> 29)) + k->w[2] * 0x165667B19E3779F9ULL;
    h ^= (k->w[3] + 0x27D4EB2F165667C5ULL) * 0x94D049BB133111EBULL;
    h ^= (k->w[4] & SLOT_KEY_MASK) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ULL;
    h ^= h >> 32;
    return h;
}

static inline int same_key(const Slot *slot, const Slot *k) {
    return slot->w[0] == k->w[0] && slot->w[1] == k->w[1] && slot->w[2] == k->w[2] && slot->w[3] == k->w[3] &&
           (slot->w[4] & SLOT_KEY_MASK) == k->w[4];
}

/* ----- the deal's tables ---------------------------------------------------------------- */
/* The tables the search derives from the stock and the cards (stock, kind, suit, landing,
 * side, rcode, royal_value and two_jokers set and checked). */
static void prepare_tables(Ctx *c) {
    /* the Jokers' stock indices (two_jokers) */
    c->joker_lo = c->joker_hi = -1;
    for (int i = 0; i < c->size; i++) {
        if (c->kind[c->stock[i]] == KIND_JOKER) {
            if (c->joker_lo < 0) c->joker_lo = i;
            else c->joker_hi = i;
        }
    }
    c->d2_jokers = c->two_jokers;
    if (c->two_jokers && c->joker_hi < 0) c->two_jokers = 0;
    /* _stock_suffix */
    {
        int supply[2] = {0, 0}, future[4] = {0, 0, 0, 0}, cheapest[4] = {99, 99, 99, 99}, suits = 0;
        for (int k = 0; k < 4; k++) c->suit_cards[k] = 0;
        for (int p = c->size; p >= 0; p--) {
            if (p < c->size) {
                int card = c->stock[p];
                if (c->kind[card] == KIND_ROYAL) {
                    int s = c->suit[card], v = c->royal_value[s][c->rcode[card]];
                    future[s]++;
                    if (v < cheapest[s]) cheapest[s] = v;
                } else if (c->kind[card] == KIND_NUMBER) {
                    supply[c->side[card]] += c->landing[card];
                    suits |= 1 << c->suit[card];
                    c->suit_cards[c->suit[card]] |= 1ULL << p;
                }
            }
            c->suits_to_come[p] = suits;
            for (int k = 0; k < 2; k++) c->supply_left[p][k] = supply[k];
            for (int k = 0; k < 4; k++) {
                c->future[p][k] = future[k];
                c->cheapest_future[p][k] = cheapest[k];
            }
        }
        for (int k = 0; k < 8; k++) {
            for (int byte = 0; byte < 256; byte++) {
                int total[2] = {0, 0};
                for (int bit = 0; bit < 8; bit++) {
                    int i = 8 * k + bit;
                    if (!(byte >> bit & 1) || i >= c->size) continue;
                    int card = c->stock[i];
                    if (c->kind[card] == KIND_NUMBER) total[c->side[card]] += c->landing[card];
                }
                c->chunk_supply[0][k][byte] = total[0];
                c->chunk_supply[1][k][byte] = total[1];
            }
        }
    }
}
