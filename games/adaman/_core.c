/* games/adaman/_core.c: Adaman's rules and bounds in C, for the compiled "pruned" search.
 *
 * The positions, moves and hooks that the one-player search skeleton solver/_search_core.h
 * expects (native/adaman.c puts the two together with the Python binding), the same as the
 * pure-Python engine's (games/adaman/rules.py and bounds.py), which stays the readable
 * reference the tests compare the compiled search to:
 *
 *   - rules: legal_moves (every (target, payment) with a non-empty payment of resources
 *     sharing a suit with the target, rank sum >= target rank; at an Excuse choice every
 *     (card, 0) of §9.1), apply (win check before any dealing, DEAL with Palace overflow
 *     and the Excuse step), outcome and score;
 *   - hooks: search_moves (legal_moves, less non-minimal payments once the deck is empty,
 *     when the Python side says its search_moves does that), order_moves (personalities
 *     first, then least waste; a stable sort of the legal_moves order), score_upper_bound
 *     (_relaxation, _hall_slacks, _spare_cards, _least_waste, _best_keepable, _tail_keep),
 *     move_bounds (bounded_moves), may_exceed (the exact static cover, searched), can_still_win,
 *     guaranteed_score and loss_can_reach (the level probes of a lost deal), and the plain
 *     baseline's legal_moves;
 *   - the table key: an exact 128-bit packing of (dealt, Capital, Resources, Palace,
 *     status): 2 bits per card index (0 none, 1 Capital, 2 Resources, 3 Palace; the rows
 *     are disjoint), the dealt count and the status, in a two-word slot whose table starts
 *     at INITIAL_CAPACITY slots and keeps its capacity when emptied.
 *
 * The file knows no card: ranks, personality bits, suit sharing, the Hall suit groups
 * and the keepable order all come from the Adaman instance (Adaman._compiled_tables), so
 * the pawns_courts variants work unchanged; prepare_tables derives the rest.  The Excuse
 * is a card bit like any other (Ctx.excuse, 0 without the variant): it sits in a row only
 * at an Excuse choice, whose moves are (card, 0).  While it may still give a Capital card
 * to Resources the bounds allow that one card (excuse_gift); with excuse_fold they count
 * every Capital card as owned instead, as bounds.py does, node for node the Python engine.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

#define MAX_CARDS 48          /* key packing: 2 bits per card index in 96 bits */
#define MAX_GROUPS 64
#define MAX_DEPTH 64          /* every move spends a non-personality for good */
#define MAX_MOVES 512         /* 10 targets x 31 payments at most */
#define ROW_SIZE 5
#define PALACE_LIMIT 5
#define CHUNK_BITS 15
#define CHUNK ((1u << CHUNK_BITS) - 1)
/* Small to start: a new table's pages are faulted in and emptied tables are memset, which
 * at 2^16 slots cost most of a small deal's time. */
#define INITIAL_CAPACITY (1u << 12)
#define RESET_SHRINKS 0       /* an emptied table keeps its capacity */

enum { PLAYING = 0, FINISHED_WON = 1, FINISHED_UTTER = 2 };

typedef struct {
    int dealt;
    int status;
    u64 capital, resources, palace;
} State;

typedef struct {
    int target;
    u64 payment;
} Move;

/* hi word of a slot: bits 0..31 cards 32..47, 32..37 dealt, 38..39 status (the key);
 * 40..55 value + VALUE_OFFSET, 62 exact, 63 used. */
#define SLOT_META(slot) ((slot)->hi)
#define SLOT_KEY_MASK ((1ULL << 40) - 1)
#define SLOT_VALUE_SHIFT 40
#define SLOT_VALUE_MASK 0xFFFF
#define VALUE_OFFSET 1024

typedef struct {
    u64 lo, hi;
} Slot;

/* Suit-group slacks, LANES groups to a vector (GCC vector extensions; 16 bytes, the
 * alignment calloc gives).  Slacks never exceed the rank of the whole deck (< 2^15). */
#define LANES 8
typedef int16_t lanes_t __attribute__((vector_size(2 * LANES)));

/* move_bounds' loss test, per position: the sets a loss may leave uncontrolled, listed
 * per set of personalities a move leaves (slot: the target, MAX_CARDS for a
 * non-personality target), each as the demand it takes out of the groups. */
#define MAX_LOSS_SETS 128
typedef struct {
    int n;
    lanes_t eased[MAX_LOSS_SETS][MAX_GROUPS / LANES];
} LossSets;

/* What the search writes as it goes (C only): move_bounds' loss sets (listed once per
 * position, `stamp`), and the Hall slacks and least overpays of the relaxation of the
 * position that last asked for them, since the bound, the cover, the win and loss tests
 * and the move bounds of one node each ask. */
typedef struct Scratch {
    unsigned long long now, stamp[MAX_CARDS + 1];
    LossSets sets[MAX_CARDS + 1];
    State slacks_of, overs_of;
    int slacks_fit, overs;
    lanes_t slacks[MAX_GROUPS / LANES];
    lanes_t gift[MAX_GROUPS / LANES];  /* of slacks_of: the Excuse's gift per group (excuse_gift) */
    int over[MAX_CARDS];
} Scratch;

typedef struct {
    /* deal */
    int size;
    int deck[MAX_CARDS];
    u64 dealt_mask[MAX_CARDS + 1];
    u64 undealt_mask[MAX_CARDS + 1];
    u64 undealt_ordered[MAX_CARDS + 1];  /* the undealt non-personalities, in_rank_order */
    /* tail_keep, per deck index i: the non-personalities dealt after i, their rank, their
     * count, and as a mask over places in by_rank (in_rank_order) */
    u64 after_ordered[MAX_CARDS];
    int after_rank[MAX_CARDS], after_count[MAX_CARDS];
    /* cards */
    int rank[MAX_CARDS];
    u64 shares[MAX_CARDS];
    u64 shares_ordered[MAX_CARDS];    /* shares, in_rank_order */
    u64 pers;
    int ngroups;
    u64 g_demand[MAX_GROUPS], g_touching[MAX_GROUPS], g_straddling[MAX_GROUPS];
    u64 touching_groups[MAX_CARDS];   /* mask over groups */
    /* the same, per card as lanes over the groups, for move_bounds' Hall test: the card's
     * rank where it touches a group, where it straddles one, where it is demanded */
    int nlanes;                       /* vectors of LANES groups in use */
    lanes_t lane_touching[MAX_CARDS][MAX_GROUPS / LANES];
    lanes_t lane_straddling[MAX_CARDS][MAX_GROUPS / LANES];
    lanes_t lane_demand[MAX_CARDS][MAX_GROUPS / LANES];
    lanes_t lane_within[MAX_CARDS][MAX_GROUPS / LANES];  /* touching, not straddling */
    /* per deck position: the slack lanes of the cards still to be dealt (the owned
     * non-personalities' touching ranks less the personalities' demand) */
    lanes_t undealt_lanes[MAX_CARDS + 1][MAX_GROUPS / LANES];
    int nby_rank;
    int by_rank[MAX_CARDS];
    u64 by_rank_bit[MAX_CARDS];       /* 1 << a card's place in by_rank (0: not there) */
    int personality_total, lowest_win_score;
    int max_score;                    /* the bound of an Excuse choice's moves (move_bounds) */
    u64 excuse;                       /* the Excuse's bit; 0 without the variant */
    int excuse_fold;                  /* the bounds of bounds.py with the Excuse (excuse_gift) */
    int minimal_payments;             /* search_moves: only minimal payments once the deck is empty */
    int cover_gap;                    /* may_exceed: asked where the bound is at most this above the floor */
    int cover_node_limit;             /* may_exceed: nodes of the cover's search before it gives up */
    uint8_t chunk[3][1u << CHUNK_BITS];
    struct Scratch *scratch;          /* written during the search */
} Ctx;

/* ----- ranks ------------------------------------------------------------------------ */
static inline int rank_sum(const Ctx *c, u64 mask) {
    return c->chunk[0][mask & CHUNK] + c->chunk[1][(mask >> 15) & CHUNK] + c->chunk[2][(mask >> 30) & CHUNK];
}

/* SWAR popcount: __builtin_popcountll is a library call without -mpopcnt. */
static inline int popcount(u64 x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
static inline int lowest(u64 x) { return __builtin_ctzll(x); }

/* ----- the rules -------------------------------------------------------------------- */
/* The Excuse sits in a row: an Excuse choice, the position's only moves its choices. */
static inline int at_excuse(const Ctx *c, const State *s) { return ((s->capital | s->resources) & c->excuse) != 0; }

/* The cards an Excuse choice may move (E2, E3): any resource, or a Capital non-personality. */
static inline u64 excuse_choices(const Ctx *c, const State *s) {
    return s->capital & c->excuse ? s->resources : s->capital & ~c->pers;
}

/* The Excuse is on the table or still to come, so it may yet move a card between the
 * Capital and Resources for free (§9.1). */
static inline int excuse_may_act(const Ctx *c, const State *s) {
    return ((c->undealt_mask[s->dealt] | s->capital | s->resources) & c->excuse) != 0;
}

/* bounds.py's relaxation while the Excuse may act: every Capital card counted as owned. */
static inline int excuse_folds(const Ctx *c, const State *s) { return c->excuse_fold && excuse_may_act(c, s); }

/* The bounds' Excuse otherwise (C only; sound, and closer than the fold): still to come or
 * in Resources, it may yet move one Capital non-personality into Resources for free; in
 * the Capital it only takes a resource away, which costs, and a card still to be dealt is
 * owned in the relaxation already.  So a line does no better than the relaxation with one
 * of the Capital's cards owned, which each bound takes at its most generous: a group's
 * slack plus the greatest rank lying inside it, one card more, the greatest rank more.
 * Returns that rank (0: the Capital holds none); -1 when no gift is left. */
static inline int excuse_gift(const Ctx *c, const State *s) {
    if (c->excuse_fold || !((c->undealt_mask[s->dealt] | s->resources) & c->excuse)) return -1;
    int most = 0;
    for (u64 m = s->capital & ~c->pers & ~c->excuse; m; m &= m - 1)
        if (c->rank[lowest(m)] > most) most = c->rank[lowest(m)];
    return most;
}

/* DEAL (§3) steps 1-2: Capital first, then Resources with personalities diverted to the
 * Palace; a sixth Palace card ends the game at once. */
static State deal_pass(const Ctx *c, int dealt, u64 capital, u64 resources, u64 palace) {
    State s;
    int in_capital = popcount(capital);
    while (in_capital < ROW_SIZE && dealt < c->size) {
        capital |= 1ULL << c->deck[dealt++];
        in_capital++;
    }
    int in_resources = popcount(resources);
    while (in_resources < ROW_SIZE && dealt < c->size) {
        int card = c->deck[dealt++];
        if (c->pers >> card & 1) {
            palace |= 1ULL << card;
            if (popcount(palace) > PALACE_LIMIT) {
                s.dealt = dealt; s.capital = capital; s.resources = resources; s.palace = palace;
                s.status = FINISHED_UTTER;
                return s;
            }
        } else {
            resources |= 1ULL << card;
            in_resources++;
        }
    }
    s.dealt = dealt; s.capital = capital; s.resources = resources; s.palace = palace;
    s.status = PLAYING;
    return s;
}

/* DEAL with step 3: an Excuse with nothing eligible is discarded at once (E4) and steps
 * 1-2 run again; otherwise it stays in its row for the Excuse choice. */
static State deal(const Ctx *c, int dealt, u64 capital, u64 resources, u64 palace) {
    State s = deal_pass(c, dealt, capital, resources, palace);
    if (s.status == PLAYING && at_excuse(c, &s) && !excuse_choices(c, &s))
        s = deal_pass(c, s.dealt, s.capital & ~c->excuse, s.resources & ~c->excuse, s.palace);
    return s;
}

/* An Excuse choice's move (card, 0): the card changes rows, the Excuse leaves the game
 * (E5) and steps 1-2 of DEAL run again. */
static State resolve_excuse(const Ctx *c, const State *s, int card) {
    u64 bit = 1ULL << card, capital = s->capital, resources = s->resources;
    if (capital & c->excuse) {
        resources &= ~bit;
        capital |= bit;
    } else {
        capital &= ~bit;
        resources |= bit;
    }
    return deal_pass(c, s->dealt, capital & ~c->excuse, resources & ~c->excuse, s->palace);
}

static inline State apply_move(const Ctx *c, const State *s, Move m) {
    if (!m.payment) return resolve_excuse(c, s, m.target);
    u64 bit = 1ULL << m.target;
    u64 capital = s->capital & ~bit, palace = s->palace & ~bit;
    u64 resources = s->resources & ~m.payment;
    if (!(c->pers >> m.target & 1)) {
        resources |= bit;
    } else if (!((capital | palace) & c->pers) && !(c->undealt_mask[s->dealt] & c->pers)) {
        State w = *s;
        w.capital = capital; w.resources = resources; w.palace = palace; w.status = FINISHED_WON;
        return w;
    }
    return deal(c, s->dealt, capital, resources, palace);
}

static inline int has_move(const Ctx *c, const State *s) {
    if (at_excuse(c, s)) return 1;  /* deal() left it there only with a card to choose */
    u64 targets = s->capital | s->palace;
    while (targets) {
        int t = lowest(targets);
        targets &= targets - 1;
        if (rank_sum(c, s->resources & c->shares[t]) >= c->rank[t]) return 1;
    }
    return 0;
}

/* Score of a finished state (status set, or PLAYING with no legal move: a LOSS). */
static inline int terminal_score(const Ctx *c, const State *s) {
    if (s->status == FINISHED_UTTER) return 0;
    if (s->status == FINISHED_WON) return c->personality_total + rank_sum(c, s->resources);
    return rank_sum(c, c->dealt_mask[s->dealt] & c->pers & ~s->capital & ~s->palace);
}

/* _least_overpay: subset sums of the pool as the bits of one word; -1: it cannot pay.
 * Once `need` itself is a sum, nothing pays less. */
static inline int least_overpay(const Ctx *c, int need, u64 pool) {
    u64 sums = 1;
    for (; pool; pool &= pool - 1) {
        sums |= sums << c->rank[lowest(pool)];
        if (sums >> need & 1) return 0;
    }
    u64 reach = sums >> need;
    return reach ? lowest(reach) : -1;
}

/* A payment from which some card can be dropped (it still pays `need`). */
static inline int not_minimal(const Ctx *c, u64 payment, int paid, int need) {
    while (payment) {
        int card = lowest(payment);
        payment &= payment - 1;
        if (paid - c->rank[card] >= need) return 1;
    }
    return 0;
}

/* The rank count move_bounds gives a position's moves before any is made: a move
 * (t, S) is bounded by base[t] - rank(S), and by no less than `loss`. */
typedef struct {
    int floor, loss, base[MAX_CARDS];
    int cut;  /* the greatest bound of a move left out (at most the floor); -1: none */
} MoveCut;

/* An Excuse choice's moves (card, 0) in the order of order_moves: a stable sort of the
 * cards (lowest index first) on rank, highest first; move_bounds gives each the game's
 * max_score. */
static int excuse_moves(const Ctx *c, const State *s, Move *out, int *bounds) {
    int n = 0;
    for (u64 m = excuse_choices(c, s); m; m &= m - 1) {
        int card = lowest(m), at = n++;
        for (; at > 0 && c->rank[out[at - 1].target] < c->rank[card]; at--) out[at] = out[at - 1];
        out[at] = (Move){card, 0};
    }
    if (bounds)
        for (int i = 0; i < n; i++) bounds[i] = c->max_score;
    return n;
}

/* search_moves in the order of legal_moves, then order_moves: a stable sort on (not
 * personality, waste).  search_moves is legal_moves, less (when the game asks for it,
 * c->minimal_payments) the payments that are not minimal once the deck is empty; at the
 * root (`root`) every legal move, as solver/search.py does.
 *
 * With `cut`, the moves whose rank count is at most cut->floor are left out as they are
 * found (bounded_moves; their greatest bound goes to cut->cut) and the others' bounds
 * into bounds[]: a target all of whose payments fall there (its cheapest, the least
 * overpay, is a minimal payment, so searched even when only those are) is not walked at
 * all.  The order of the moves kept is the one they have among all the moves. */
static int collect_moves(const Ctx *c, const State *s, Move *out, int *bounds, int root, MoveCut *cut) {
    if (at_excuse(c, s)) return excuse_moves(c, s, out, bounds);
    int minimal = c->minimal_payments && s->dealt == c->size && !root;
    Move raw[MAX_MOVES];
    int raw_bounds[MAX_MOVES];
    unsigned char keys[MAX_MOVES];
    int n = 0, most_waste[2] = {0, 0};
    u64 targets = s->capital | s->palace;
    while (targets) {
        int t = lowest(targets);
        targets &= targets - 1;
        u64 usable = s->resources & c->shares[t];
        int need = c->rank[t];
        if (rank_sum(c, usable) < need) continue;
        if (cut) {
            int top = cut->base[t] - need - least_overpay(c, need, usable);
            if (top < cut->loss) top = cut->loss;
            if (top <= cut->floor) {
                if (top > cut->cut) cut->cut = top;
                continue;
            }
        }
        int other = !(c->pers >> t & 1);
        u64 payment = usable;
        while (payment) {
            int paid = rank_sum(c, payment);
            if (paid >= need && !(minimal && not_minimal(c, payment, paid, need))) {
                int bound = 0;
                if (cut) {
                    bound = cut->base[t] - paid;
                    if (bound < cut->loss) bound = cut->loss;
                }
                if (cut && bound <= cut->floor) {
                    if (bound > cut->cut) cut->cut = bound;
                } else {
                    int waste = paid - need;
                    if (waste > 127) waste = 127;
                    if (waste > most_waste[other]) most_waste[other] = waste;
                    raw[n].target = t;
                    raw[n].payment = payment;
                    raw_bounds[n] = bound;
                    keys[n] = (unsigned char)(other * 128 + waste);
                    n++;
                }
            }
            payment = (payment - 1) & usable;
        }
    }
    /* A counting sort over the keys that occur: a personality's waste w is bucket w, any
     * other target's waste w bucket (most personality waste + 1 + w). */
    int shift = most_waste[0] + 1 - 128, buckets = most_waste[0] + most_waste[1] + 2, counts[258];
    for (int k = 0; k <= buckets; k++) counts[k] = 0;
    for (int i = 0; i < n; i++) {
        int key = keys[i] >= 128 ? keys[i] + shift : keys[i];
        keys[i] = (unsigned char)key;
        counts[key + 1]++;
    }
    for (int k = 1; k < buckets; k++) counts[k] += counts[k - 1];
    for (int i = 0; i < n; i++) {
        int at = counts[keys[i]]++;
        out[at] = raw[i];
        if (bounds) bounds[at] = raw_bounds[i];
    }
    return n;
}

static int ordered_moves(const Ctx *c, const State *s, Move *out, int root) {
    return collect_moves(c, s, out, NULL, root, NULL);
}

/* ----- bounds ----------------------------------------------------------------------- */
/* Whether any of the first n vectors of lanes holds a negative value. */
static inline int lanes_negative(const lanes_t *lanes, int n) {
    lanes_t any = {0};
    for (int v = 0; v < n; v++) any |= lanes[v];
    u64 words[2];
    memcpy(words, &any, sizeof words);
    return ((words[0] | words[1]) & 0x8000800080008000ULL) != 0;  /* a sign bit */
}

/* The same rows and deck position, so the same relaxation (Scratch). */
static inline int same_position(const State *a, const State *b) {
    return a->dealt == b->dealt && a->capital == b->capital && a->resources == b->resources && a->palace == b->palace;
}

/* _hall_slacks of a state's relaxation (relaxation()): fills the slack lanes (groups past
 * ngroups stay far above zero), returns 0 when a suit group falls short.  Summed per card
 * over lanes of groups; what the cards still to be dealt add (owned non-personalities) and
 * take (personalities) is summed once per deck position (undealt_lanes), so only the
 * rows' cards are summed here (C only; the same slacks).  The Excuse's gift adds, per group,
 * the greatest rank of a Capital card lying inside it (kept in the scratch: gift). */
static inline int hall_slacks(const Ctx *c, const State *s, lanes_t *slacks) {
    Scratch *kept = c->scratch;
    int nl = c->nlanes;
    if (same_position(&kept->slacks_of, s)) {
        memcpy(slacks, kept->slacks, (size_t)nl * sizeof(lanes_t));
        return kept->slacks_fit;
    }
    for (int v = 0; v < nl; v++) slacks[v] = c->undealt_lanes[s->dealt][v];
    for (u64 m = s->resources; m; m &= m - 1) {
        int card = lowest(m);
        for (int v = 0; v < nl; v++) slacks[v] += c->lane_touching[card][v];
    }
    const lanes_t(*supply)[MAX_GROUPS / LANES] = excuse_folds(c, s) ? c->lane_touching : c->lane_straddling;
    for (u64 m = s->capital & ~c->pers; m; m &= m - 1) {
        int card = lowest(m);
        for (int v = 0; v < nl; v++) slacks[v] += supply[card][v];
    }
    for (int v = 0; v < nl; v++) kept->gift[v] = (lanes_t){0};
    if (excuse_gift(c, s) > 0) {
        for (u64 m = s->capital & ~c->pers & ~c->excuse; m; m &= m - 1) {
            int card = lowest(m);
            for (int v = 0; v < nl; v++) {
                lanes_t more = c->lane_within[card][v] > kept->gift[v];
                kept->gift[v] = (c->lane_within[card][v] & more) | (kept->gift[v] & ~more);
            }
        }
        for (int v = 0; v < nl; v++) slacks[v] += kept->gift[v];
    }
    for (u64 m = (s->capital | s->palace) & c->pers; m; m &= m - 1) {
        int card = lowest(m);
        for (int v = 0; v < nl; v++) slacks[v] -= c->lane_demand[card][v];
    }
    int16_t *flat = (int16_t *)slacks;
    for (int g = c->ngroups; g < nl * LANES; g++) flat[g] = INT16_MAX / 2;
    kept->slacks_of = *s;
    kept->slacks_fit = !lanes_negative(slacks, nl);
    memcpy(kept->slacks, slacks, (size_t)nl * sizeof(lanes_t));
    return kept->slacks_fit;
}

/* Adaman._relaxation: the personalities still to control, the resources owned or to be
 * dealt, the Capital cards to gain; under the fold the Capital's cards count as owned (the
 * gift is added by each bound instead: excuse_gift).  The Excuse pays nothing (E5). */
static inline void relaxation(const Ctx *c, const State *s, u64 *remaining, u64 *owned, u64 *capital) {
    u64 undealt = c->undealt_mask[s->dealt];
    *remaining = (s->capital | s->palace | undealt) & c->pers;
    *owned = (s->resources | (undealt & ~c->pers)) & ~c->excuse;
    *capital = s->capital & ~c->pers & ~c->excuse;
    if (excuse_folds(c, s)) {
        *owned |= *capital;
        *capital = 0;
    }
}

/* `cards` as a mask over places in by_rank: its lowest bits are its highest ranks. */
static inline u64 in_rank_order(const Ctx *c, u64 cards) {
    u64 ordered = 0;
    for (; cards; cards &= cards - 1) ordered |= c->by_rank_bit[lowest(cards)];
    return ordered;
}

/* The owned and Capital cards of a state's relaxation in rank order (in_rank_order): the
 * cards still to be dealt are put in that order once per deck position (C only). */
static inline u64 available_in_rank_order(const Ctx *c, const State *s) {
    return c->undealt_ordered[s->dealt] | in_rank_order(c, s->resources | (s->capital & ~c->pers));
}

/* _best_keepable of the cards `ordered` holds (in_rank_order), or any total of at least
 * `enough` once it is reached (the bound takes the lesser of this and the rank left, so
 * the rest would not change it). */
static inline int best_keepable(const Ctx *c, u64 ordered, const lanes_t *lanes, int count, int enough) {
    int total = 0;
    if (count <= 0) return 0;
    for (; ordered; ordered &= ordered - 1) {  /* the owned and Capital cards, highest first */
        int card = c->by_rank[lowest(ordered)];
        int r = c->rank[card];
        lanes_t rank_lanes = (lanes_t){0} + (int16_t)r, short_of = {0};
        for (int v = 0; v < c->nlanes; v++)  /* a group it touches with slack below its rank */
            short_of |= (lanes[v] < rank_lanes) & (c->lane_touching[card][v] != 0);
        if (!lanes_negative(&short_of, 1)) {
            total += r;
            if (!--count || total >= enough) break;
        }
    }
    return total;
}

#define LOSS_TEST_MOST_LEFT 12  /* as in games/adaman/bounds.py */
#define NO_PAYMENT (1 << 20)  /* _fewest_cards of a personality nothing can pay */

/* _fewest_cards: the fewest of the cards `ordered` holds (in_rank_order) that can pay p,
 * highest ranks first. */
static inline int fewest_cards(const Ctx *c, int p, u64 ordered) {
    int paid = 0, count = 0;
    for (u64 usable = ordered & c->shares_ordered[p]; usable; usable &= usable - 1) {
        paid += c->rank[c->by_rank[lowest(usable)]];
        count++;
        if (paid >= c->rank[p]) return count;
    }
    return NO_PAYMENT;
}

/* _spare_cards: how many cards a win could leave (negative: no win), each personality's
 * fewest cards into fewest_of[] (by card) where it is not NULL; `ordered`: the owned and
 * Capital cards in rank order. */
static inline int spare_cards(const Ctx *c, u64 remaining, u64 owned, u64 ordered, int *fewest_of, int gift) {
    int spare = popcount(owned) + (gift > 0);  /* the Excuse's gift: one card more */
    while (remaining && spare >= 0) {
        int p = lowest(remaining);
        remaining &= remaining - 1;
        int fewest = fewest_cards(c, p, ordered);
        if (fewest_of) fewest_of[p] = fewest;
        spare -= fewest;
    }
    return spare;
}

/* Adaman._best_cards: the rank of the `count` best of the cards `ordered` holds as a
 * mask over places in by_rank (in_rank_order). */
static inline int best_n_ordered(const Ctx *c, u64 ordered, int count) {
    int total = 0;
    for (; count > 0 && ordered; count--, ordered &= ordered - 1) total += c->rank[c->by_rank[lowest(ordered)]];
    return total;
}

/* Adaman._best_cards: the rank of the 4 best of `cards`. */
static inline int best_cards(const Ctx *c, u64 cards) {
    return best_n_ordered(c, in_rank_order(c, cards), ROW_SIZE - 1);
}

/* Adaman._each_least_overpay: each of `people`'s least overpay into over[] (by card), and
 * their total; NO_PAYMENT when one of them cannot be paid from `available`. */
static inline int each_least_overpay(const Ctx *c, u64 people, u64 available, int *over) {
    int total = 0;
    for (; people; people &= people - 1) {
        int p = lowest(people);
        over[p] = least_overpay(c, c->rank[p], available & c->shares[p]);
        if (over[p] < 0) return NO_PAYMENT;
        total += over[p];
    }
    return total;
}

/* each_least_overpay of the personalities of a position's relaxation (`remaining`,
 * `available` its owned and Capital cards), kept in the scratch: their total (or
 * NO_PAYMENT) into *overs, each (by card) in the array returned. */
static inline const int *state_overpays(const Ctx *c, const State *s, u64 remaining, u64 available, int *overs) {
    Scratch *kept = c->scratch;
    if (!same_position(&kept->overs_of, s)) {
        kept->overs = each_least_overpay(c, remaining, available, kept->over);
        kept->overs_of = *s;
    }
    *overs = kept->overs;
    return kept->over;
}

/* Adaman._unused_waste: the owned cards sharing a suit with none of `people` and no
 * Capital card, less the 4 best of them. */
static inline int unused_waste(const Ctx *c, u64 people, u64 owned, u64 capital) {
    u64 useful = 0;
    for (u64 m = people | capital; m; m &= m - 1) useful |= c->shares[lowest(m)];
    u64 dead = owned & ~useful;
    return dead ? rank_sum(c, dead) - best_cards(c, dead) : 0;
}

/* Adaman._least_waste of a position's relaxation: what the personalities must overpay
 * (each into *over_of, by card), and unused_waste. */
static inline int least_waste(const Ctx *c, const State *s, u64 remaining, u64 owned, u64 capital,
                              const int **over_of) {
    int overs;
    *over_of = state_overpays(c, s, remaining, owned | capital, &overs);
    return unused_waste(c, remaining, owned, capital) + overs;
}

/* Adaman._rank_left: the owned rank less the personalities' and least_waste. */
static inline int rank_left(const Ctx *c, const State *s, u64 remaining, u64 owned, u64 capital,
                            const int **over_of, int gift) {
    /* the Excuse's gift adds its rank; owned, its card would waste no less (unused_waste
     * grows with the owned cards and shrinks with the Capital's) */
    return rank_sum(c, owned) + (gift > 0 ? gift : 0) - rank_sum(c, remaining) -
           least_waste(c, s, remaining, owned, capital, over_of);
}

/* Adaman._tail_keep: `limit`, or less where the personalities of `people` still to be
 * dealt cap what a win keeps (every personality: the win bound; those a loss controls:
 * tail_pays); -1: no win.  `all`: the owned and Capital cards in rank order;
 * over_of[] and fewest_of[] hold each remaining personality's least overpay and fewest
 * cards from them.  Where the Excuse may yet give a Capital card (gift >= 0, excuse_gift)
 * one card more than Resources hold is carried past the arrival of a personality: the
 * card it gives from the Capital. */
static int tail_keep(const Ctx *c, const State *s, u64 people, u64 all, const int *over_of, const int *fewest_of,
                     int limit, int gift) {
    u64 undealt = c->undealt_mask[s->dealt];
    if (!(undealt & people) || excuse_folds(c, s)) return limit;
    int carried = ROW_SIZE + (gift >= 0);
    int keep = limit, over = 0, fewest = 0, need = 0;
    for (int index = c->size - 1; index >= s->dealt; index--) {
        int person = c->deck[index];
        if (!(people >> person & 1)) continue;
        over += over_of[person];
        fewest += fewest_of[person];
        need += c->rank[person];
        int count = carried + c->after_count[index] - fewest;
        if (count < 0) return -1;
        int by_rank = best_n_ordered(c, all & ~c->after_ordered[index], carried) + c->after_rank[index] - need - over;
        if (by_rank < keep) keep = by_rank;
        if (count < ROW_SIZE - 1) {
            int by_count = best_n_ordered(c, all, count);
            if (by_count < keep) keep = by_count;
        }
        if (keep < 0) return -1;
    }
    return keep;
}

/* score_upper_bound for a PLAYING state.  Each remaining personality's fewest cards
 * (_spare_cards) and least overpay (_least_waste) are kept for tail_keep. */
static int upper_bound(const Ctx *c, const State *s) {
    u64 remaining, owned, capital;
    lanes_t slacks[MAX_GROUPS / LANES];
    relaxation(c, s, &remaining, &owned, &capital);
    int need = rank_sum(c, remaining), fewest_of[MAX_CARDS];
    const int *over_of = NULL;
    u64 ordered = available_in_rank_order(c, s);
    int gift = excuse_gift(c, s);
    int spare = hall_slacks(c, s, slacks) ? spare_cards(c, remaining, owned, ordered, fewest_of, gift) : -1;
    int left = spare >= 0 ? rank_left(c, s, remaining, owned, capital, &over_of, gift) : -1;
    if (left >= 0) {
        int keepable = best_keepable(c, ordered, slacks, spare < ROW_SIZE - 1 ? spare : ROW_SIZE - 1, left);
        int keep = tail_keep(c, s, c->pers, ordered, over_of, fewest_of, keepable < left ? keepable : left, gift);
        if (keep >= 0) return c->personality_total + keep;
    }
    u64 available = owned | capital;
    int coverable = 0, smallest = INT32_MAX;
    u64 rest = remaining;
    while (rest) {
        int p = lowest(rest);
        rest &= rest - 1;
        if (rank_sum(c, available & c->shares[p]) >= c->rank[p]) coverable += c->rank[p];
        if (c->rank[p] < smallest) smallest = c->rank[p];
    }
    if (coverable == need) coverable -= smallest;
    return c->personality_total - need + coverable;
}

/* _bound_failing_hall's sets: the non-empty sets `chosen` of the personalities
 * people[0..n), of rank <= the room, none fitting beside them, listed once for all the
 * moves of a position that leave the same personalities (C only), each as the demand it
 * takes out of the groups: _bound_failing_hall asks whether, with one of them left
 * uncontrolled, no group falls short, which is then one sum per set.  No more than
 * MAX_LOSS_SETS: core_solve checks that for every room the test asks, on all the
 * personalities (a subset has no more such sets: each is the trace of one of the whole's). */
static void list_loss_sets(const Ctx *c, const int *people, int n, int i, u64 chosen, int room, const lanes_t *demand,
                           LossSets *out) {
    if (out->n < 0) return;
    if (i == n) {
        if (!chosen) return;
        for (int j = 0; j < n; j++)
            if (!(chosen >> people[j] & 1) && c->rank[people[j]] <= room) return;
        if (out->n == MAX_LOSS_SETS) {
            out->n = -1;
            return;
        }
        memcpy(out->eased[out->n++], demand, (size_t)c->nlanes * sizeof(lanes_t));
        return;
    }
    int p = people[i], r = c->rank[p];
    if (r <= room) {
        lanes_t more[MAX_GROUPS / LANES];
        for (int v = 0; v < c->nlanes; v++) more[v] = demand[v] + c->lane_demand[p][v];
        list_loss_sets(c, people, n, i + 1, chosen | 1ULL << p, room - r, more, out);
    }
    list_loss_sets(c, people, n, i + 1, chosen, room, demand, out);
}

/* list_loss_sets of the personalities `among` into `out` (n = -1: too many). */
static void list_sets_of(const Ctx *c, u64 among, int room, LossSets *out) {
    int people[MAX_CARDS], n = 0;
    lanes_t none[MAX_GROUPS / LANES] = {{0}};
    for (; among; among &= among - 1) people[n++] = lowest(among);
    out->n = 0;
    list_loss_sets(c, people, n, 0, 0, room, none, out);
}

/* _bound_failing_hall's test: some set of `left` (list_loss_sets, kept in the scratch slot
 * `key` for the rest of this position: its stamp is the move_bounds call that listed them)
 * whose demand taken out of the slack lanes leaves no group short. */
static int loss_fits_listed(const Ctx *c, u64 left, int key, int room, const lanes_t *slacks) {
    Scratch *scratch = c->scratch;
    LossSets *sets = &scratch->sets[key];
    if (scratch->stamp[key] != scratch->now) {
        list_sets_of(c, left, room, sets);
        scratch->stamp[key] = scratch->now;
    }
    for (int k = 0; k < sets->n; k++) {
        lanes_t eased[MAX_GROUPS / LANES];
        for (int v = 0; v < c->nlanes; v++) eased[v] = slacks[v] + sets->eased[k][v];
        if (!lanes_negative(eased, c->nlanes)) return 1;
    }
    return 0;
}

/* bounded_moves: ordered_moves with move_bounds (Adaman.move_bounds) of each: the
 * child's rank count (less what the move pays and the card a Capital target's departure
 * deals to the Capital, plus the target; less the least overpays of the personalities left
 * as they are now); a move still above floor whose child's relaxation fails the Hall test
 * (_child_relaxation then _hall_slacks) is bounded by a loss.  The child's slacks are the
 * position's less the move's cards per group (lanes): paid cards leave the owned supply, a
 * Capital card gained moves from the straddling supply to the owned one and the card dealt
 * in its place the other way, a personality controlled leaves the demand.
 *
 * The moves whose rank count is at most the floor are not listed (C only): only the
 * greatest of their bounds, into *cut_best (-1: none), which is all the search takes from
 * them; the nodes are the Python engine's. */
static inline int bounded_moves(const Ctx *c, const State *s, Move *moves, int *out, int root, int floor,
                                int *cut_best) {
    if (at_excuse(c, s)) {  /* no Hall test for an Excuse choice's moves */
        *cut_best = -1;
        return excuse_moves(c, s, moves, out);
    }
    u64 remaining, owned, capital;
    relaxation(c, s, &remaining, &owned, &capital);
    int most = c->personality_total + rank_sum(c, owned) - rank_sum(c, remaining), loss = c->lowest_win_score - 1;
    /* _pulled_card: what a Capital target's departure deals to the Capital (R8); none under
     * the fold (the relaxation then counts the Capital's cards as owned) */
    int folded = excuse_folds(c, s), gift = excuse_gift(c, s);
    int next = !folded && s->dealt < c->size && !(c->pers >> c->deck[s->dealt] & 1) ? c->deck[s->dealt] : -1;
    lanes_t slack[MAX_GROUPS / LANES];
    c->scratch->now++;  /* the sets listed for an earlier position are stale */
    /* each personality's least overpay now: a child has fewer cards, so overpays no less
     * (a loss, where one cannot be paid: the overpays bound nothing) */
    static const int no_over[MAX_CARDS];
    int overs;
    const int *over = state_overpays(c, s, remaining, owned | capital, &overs);
    if (overs == NO_PAYMENT) {
        overs = 0;
        over = no_over;
    }
    MoveCut cut;
    cut.floor = floor;
    cut.loss = loss;
    cut.cut = -1;
    for (u64 targets = s->capital | s->palace; targets; targets &= targets - 1) {
        int t = lowest(targets), pulls = next >= 0 && (s->capital >> t & 1);
        cut.base[t] = most + c->rank[t] - (pulls ? c->rank[next] : 0) - overs + (c->pers >> t & 1 ? over[t] : 0);
        if (gift >= 0)  /* the child's gift: a card of its Capital, this one's or the one pulled */
            cut.base[t] += pulls && c->rank[next] > gift ? c->rank[next] : gift;
    }
    int n = collect_moves(c, s, moves, out, root, &cut);
    *cut_best = cut.cut;
    if (n) hall_slacks(c, s, slack);
    /* what a pulled card adds to the gift (excuse_gift): the slacks hold this position's */
    lanes_t pulled_gift[MAX_GROUPS / LANES];
    if (gift >= 0 && next >= 0) {
        const lanes_t *had = c->scratch->gift;
        for (int v = 0; v < c->nlanes; v++) {
            lanes_t more = c->lane_within[next][v] > had[v];
            pulled_gift[v] = (c->lane_within[next][v] & more) | (had[v] & ~more);
            pulled_gift[v] -= had[v];
        }
    }
    for (int i = 0; i < n; i++) {  /* each above the floor by its rank count */
        Move m = moves[i];
        int pulls = next >= 0 && (s->capital >> m.target & 1);
        lanes_t after[MAX_GROUPS / LANES];
        int t = m.target;
        if (c->pers >> t & 1)
            for (int v = 0; v < c->nlanes; v++) after[v] = slack[v] + c->lane_demand[t][v];
        else if (folded)  /* a Capital card gained was counted as owned already */
            memcpy(after, slack, (size_t)c->nlanes * sizeof(lanes_t));
        else
            for (int v = 0; v < c->nlanes; v++) after[v] = slack[v] + c->lane_touching[t][v] - c->lane_straddling[t][v];
        for (u64 pay = m.payment; pay; pay &= pay - 1) {
            int card = lowest(pay);
            for (int v = 0; v < c->nlanes; v++) after[v] -= c->lane_touching[card][v];
        }
        if (pulls)
            for (int v = 0; v < c->nlanes; v++) after[v] += c->lane_straddling[next][v] - c->lane_touching[next][v];
        if (pulls && gift >= 0)
            for (int v = 0; v < c->nlanes; v++) after[v] += pulled_gift[v];
        if (lanes_negative(after, c->nlanes)) {  /* a group falls short: _bound_failing_hall */
            int bound = loss;
            if (floor < loss && c->personality_total - floor - 1 <= LOSS_TEST_MOST_LEFT) {
                int person = c->pers >> t & 1;
                u64 left = person ? remaining & ~(1ULL << t) : remaining;
                if (!loss_fits_listed(c, left, person ? t : MAX_CARDS, c->personality_total - floor - 1, after))
                    bound = floor;
            }
            out[i] = bound;
        }
    }
    return n;
}

static inline int can_still_win(const Ctx *c, const State *s) {
    u64 remaining, owned, capital;
    lanes_t slacks[MAX_GROUPS / LANES];
    relaxation(c, s, &remaining, &owned, &capital);
    const int *over_of;
    int gift = excuse_gift(c, s), fewest_of[MAX_CARDS];
    u64 ordered = available_in_rank_order(c, s);
    return hall_slacks(c, s, slacks) && spare_cards(c, remaining, owned, ordered, fewest_of, gift) >= 0 &&
           rank_left(c, s, remaining, owned, capital, &over_of, gift) >= 0 &&
           tail_keep(c, s, remaining, ordered, over_of, fewest_of, INT32_MAX, gift) >= 0;  /* _tail_pays */
}

/* may_exceed (Adaman.may_exceed): the relaxation's exact static covering problem, searched
 * node for node as Adaman._cover_keeps (the same prunes, demand order, payment order and
 * node budget), so the search it cuts stays the Python engine's. */

typedef struct {
    const Ctx *c;
    int kept_needed;
    int budget;
} Cover;

/* Each demand's least overpay and usable cards in one node of the cover's search: a
 * child node recomputes only those of its demands whose pool lost a card (C only; the
 * nodes are the same). */
typedef struct {
    u64 demands;
    signed char over[MAX_CARDS], count[MAX_CARDS];
} Pools;

static int cover_keeps(Cover *v, u64 persons, u64 buys, u64 items, u64 shop, const lanes_t *slacks,
                       const Pools *known, u64 paid);

/* Adaman._minimal_payments of `demand` from usable[start..n) (highest rank first), each
 * handed to cover_keeps as soon as it is found; 1 as soon as one of them keeps enough.
 * The Hall slacks after a payment are this position's, the demand released and the paid
 * cards' supply withdrawn (`slacks`: this position's, less what `chosen` paid). */
static int cover_pay(Cover *v, u64 persons, u64 buys, u64 items, u64 shop, int demand, const int *usable, int n,
                     int start, u64 chosen, int total, int size, int room, const lanes_t *slacks, const Pools *pools) {
    const Ctx *c = v->c;
    int need = c->rank[demand], nl = c->nlanes;
    for (int j = start; j < n; j++) {
        int card = usable[j], paid = total + c->rank[card];
        const lanes_t *withdrawn = shop >> card & 1 ? c->lane_straddling[card] : c->lane_touching[card];
        lanes_t after[MAX_GROUPS / LANES];
        if (paid >= need) {
            if (paid - need <= room) {
                u64 pay = chosen | 1ULL << card, bit = 1ULL << demand;
                for (int l = 0; l < nl; l++) after[l] = slacks[l] - withdrawn[l] + c->lane_demand[demand][l];
                if (cover_keeps(v, persons & ~bit, (buys & ~bit) | (pay & shop), items & ~pay, shop & ~pay, after,
                                pools, pay))
                    return 1;
            }
        } else if (size + 1 < ROW_SIZE) {
            int reach = paid;
            for (int k = j + 1; k < n && k < j + ROW_SIZE - size; k++) reach += c->rank[usable[k]];
            if (reach >= need) {
                for (int l = 0; l < nl; l++) after[l] = slacks[l] - withdrawn[l];
                if (cover_pay(v, persons, buys, items, shop, demand, usable, n, j + 1, chosen | 1ULL << card, paid,
                              size + 1, room, after, pools))
                    return 1;
            }
        }
    }
    return 0;
}

/* Adaman._cover_keeps, `slacks` the Hall slacks of (persons, items, shop). */
static int cover_keeps(Cover *v, u64 persons, u64 buys, u64 items, u64 shop, const lanes_t *slacks,
                       const Pools *known, u64 paid) {
    const Ctx *c = v->c;
    if (--v->budget < 0) return 1;
    u64 demands = persons | buys;
    int room = rank_sum(c, items) - rank_sum(c, demands) - v->kept_needed - unused_waste(c, demands, items, shop);
    if (room < 0) return 0;
    if (!demands) {
        u64 affordable = 0;
        for (u64 m = shop; m; m &= m - 1) {
            int card = lowest(m);
            if (rank_sum(c, items & c->shares[card]) >= c->rank[card]) affordable |= 1ULL << card;
        }
        return best_cards(c, items | affordable) >= v->kept_needed;
    }
    if (lanes_negative(slacks, c->nlanes)) return 0;
    u64 available = items | shop;
    int least = 0, demand = -1, fewest = INT32_MAX;
    Pools pools;
    pools.demands = demands;
    u64 unchanged = known ? known->demands : 0;
    for (u64 m = demands; m; m &= m - 1) {
        int d = lowest(m), over, count;
        if (unchanged >> d & 1 && !(c->shares[d] & paid)) {
            over = known->over[d];
            count = known->count[d];
        } else {
            u64 pool = available & c->shares[d];
            over = least_overpay(c, c->rank[d], pool);
            count = popcount(pool);
        }
        if (over < 0 || (least += over) > room) return 0;
        pools.over[d] = (signed char)over;
        pools.count[d] = (signed char)count;
        if (count < fewest || (count == fewest && c->rank[d] > c->rank[demand])) {
            fewest = count;
            demand = d;
        }
    }
    int usable[MAX_CARDS], n = 0;
    for (u64 ordered = in_rank_order(c, available & c->shares[demand]); ordered; ordered &= ordered - 1)
        usable[n++] = c->by_rank[lowest(ordered)];
    return cover_pay(v, persons, buys, items, shop, demand, usable, n, 0, 0, 0, 0, room, slacks, &pools);
}

static int may_exceed(const Ctx *c, const State *s, int floor, int ceiling) {
    int kept_needed = floor + 1 - c->personality_total;
    if (ceiling - floor > c->cover_gap || kept_needed < 0 || s->status != PLAYING) return 1;
    u64 remaining, owned, capital;
    relaxation(c, s, &remaining, &owned, &capital);
    Cover cover = {c, kept_needed, c->cover_node_limit};
    lanes_t slacks[MAX_GROUPS / LANES];
    hall_slacks(c, s, slacks);
    if (excuse_gift(c, s) > 0) {  /* one cover per card the Excuse may give (one more card owned covers no less) */
        for (int v = 0; v < c->nlanes; v++) slacks[v] -= c->scratch->gift[v];
        for (u64 m = capital; m; m &= m - 1) {
            int x = lowest(m);
            lanes_t given[MAX_GROUPS / LANES];
            for (int v = 0; v < c->nlanes; v++) given[v] = slacks[v] + c->lane_within[x][v];
            cover.budget = c->cover_node_limit;
            if (cover_keeps(&cover, remaining, 0, owned | 1ULL << x, capital & ~(1ULL << x), given, NULL, 0))
                return 1;
        }
        return 0;
    }
    return cover_keeps(&cover, remaining, 0, owned, capital, slacks, NULL, 0);
}

/* guaranteed_score (Adaman.guaranteed_score): with at most 5 personalities left the
 * Palace cannot overflow, so the game ends with at least those controlled now. */
static inline int guaranteed_score(const Ctx *c, const State *s) {
    if (s->status != PLAYING) return terminal_score(c, s);
    u64 remaining = (s->capital | s->palace | c->undealt_mask[s->dealt]) & c->pers;
    if (popcount(remaining) > PALACE_LIMIT) return -1;
    return c->personality_total - rank_sum(c, remaining);
}

/* Adaman._controllable_sets with the test of loss_can_reach: a non-empty set `chosen` of
 * the personalities people[0..n) left uncontrolled, of rank <= its room, none fitting
 * beside it, whose complement in the remaining ones passes the Hall slacks, the card count
 * and the rank with the least overpays.  Each test is a sum over the personalities paid,
 * so it is carried down as the remaining ones' totals plus what `chosen` takes out of them
 * (C only; the same answers): `slacks` the Hall slacks, `spare` the owned cards less the
 * fewest cards, `left` the owned rank less the ranks and least overpays, and `unpayable`
 * the personalities nothing can pay. */
typedef struct {
    u64 unpayable;
    int fewest[MAX_CARDS], over[MAX_CARDS];
    const State *s;        /* for tail_pays: the position, its remaining personalities, */
    u64 remaining, ordered;  /* the owned and Capital cards in rank order, */
    int gift;              /* the Excuse's gift (excuse_gift) */
} LossTerms;

/* Adaman._tail_pays: tail_keep's timing test for the personalities `paid` alone (those a
 * loss controls). */
static inline int tail_pays(const Ctx *c, const LossTerms *terms, u64 paid) {
    return tail_keep(c, terms->s, paid, terms->ordered, terms->over, terms->fewest, INT32_MAX, terms->gift) >= 0;
}

static int some_loss_fits(const Ctx *c, const LossTerms *terms, const int *people, int n, int i, u64 chosen, int room,
                          int spare, int left, const lanes_t *slacks) {
    if (i == n) {
        if (!chosen) return 0;
        for (int j = 0; j < n; j++)
            if (!(chosen >> people[j] & 1) && c->rank[people[j]] <= room) return 0;
        return spare >= 0 && !(terms->unpayable & ~chosen) && left >= 0 && !lanes_negative(slacks, c->nlanes) &&
               tail_pays(c, terms, terms->remaining & ~chosen);
    }
    int p = people[i], r = c->rank[p];
    if (r <= room) {
        lanes_t eased[MAX_GROUPS / LANES];
        for (int v = 0; v < c->nlanes; v++) eased[v] = slacks[v] + c->lane_demand[p][v];
        if (some_loss_fits(c, terms, people, n, i + 1, chosen | 1ULL << p, room - r, spare + terms->fewest[p],
                           left + r + terms->over[p], eased))
            return 1;
    }
    return some_loss_fits(c, terms, people, n, i + 1, chosen, room, spare, left, slacks);
}

/* loss_can_reach (Adaman.loss_can_reach) of a PLAYING state. */
static int loss_can_reach(const Ctx *c, const State *s, int level) {
    u64 remaining, owned, capital;
    relaxation(c, s, &remaining, &owned, &capital);
    u64 available = owned | capital, ordered = available_in_rank_order(c, s);
    LossTerms terms;
    terms.unpayable = 0;
    int gift = excuse_gift(c, s);  /* one card and its rank more */
    terms.s = s, terms.remaining = remaining, terms.ordered = ordered, terms.gift = gift;
    int people[MAX_CARDS], n = 0, spare = popcount(owned) + (gift > 0);
    int left = rank_sum(c, owned) + (gift > 0 ? gift : 0);
    for (u64 rest = remaining; rest; rest &= rest - 1) {
        int p = lowest(rest);
        people[n++] = p;
        terms.fewest[p] = fewest_cards(c, p, ordered);
        terms.over[p] = least_overpay(c, c->rank[p], available & c->shares[p]);
        if (terms.over[p] < 0) {
            terms.unpayable |= 1ULL << p;
            terms.over[p] = 0;
        }
        spare -= terms.fewest[p];
        left -= c->rank[p] + terms.over[p];
    }
    lanes_t slacks[MAX_GROUPS / LANES];
    hall_slacks(c, s, slacks);
    return some_loss_fits(c, &terms, people, n, 0, 0, c->personality_total - level, spare, left, slacks);
}

/* The plain baseline's moves (Adaman.legal_moves, in its order): each target from the
 * lowest card index up, its payments from every usable card down through the subsets. */
#define PLAIN_LEGAL_MOVES
static int legal_moves(const Ctx *c, const State *s, Move *out) {
    int n = 0;
    if (at_excuse(c, s)) {
        for (u64 m = excuse_choices(c, s); m; m &= m - 1) out[n++] = (Move){lowest(m), 0};
        return n;
    }
    for (u64 targets = s->capital | s->palace; targets; targets &= targets - 1) {
        int t = lowest(targets), need = c->rank[t];
        u64 usable = s->resources & c->shares[t];
        for (u64 payment = rank_sum(c, usable) >= need ? usable : 0; payment; payment = (payment - 1) & usable)
            if (rank_sum(c, payment) >= need) out[n++] = (Move){t, payment};
    }
    return n;
}

/* ----- the table key ---------------------------------------------------------------- */
static inline u64 spread32(u64 x) {
    x &= 0xFFFFFFFFULL;
    x = (x | (x << 16)) & 0x0000FFFF0000FFFFULL;
    x = (x | (x << 8)) & 0x00FF00FF00FF00FFULL;
    x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0FULL;
    x = (x | (x << 2)) & 0x3333333333333333ULL;
    x = (x | (x << 1)) & 0x5555555555555555ULL;
    return x;
}

static inline Slot pack(const Ctx *c, const State *s) {
    (void)c;
    u64 a = s->capital | s->palace, b = s->resources | s->palace;
    Slot k;
    k.lo = spread32(a) | spread32(b) << 1;
    k.hi = spread32(a >> 32) | spread32(b >> 32) << 1 | (u64)s->dealt << 32 | (u64)s->status << 38;
    return k;
}

static inline u64 hash_key(const Slot *k) {
    u64 h = k->lo * 0x9E3779B97F4A7C15ULL ^ (k->hi + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ULL;
    h ^= h >> 32;
    return h;
}

static inline int same_key(const Slot *slot, const Slot *k) {
    return slot->lo == k->lo && (slot->hi & SLOT_KEY_MASK) == k->hi;
}

/* ----- the deal's tables ------------------------------------------------------------ */
/* A context for one search, its scratch with no position in it yet; NULL without memory. */
static Ctx *ctx_new(void) {
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) return NULL;
    c->scratch = calloc(1, sizeof(Scratch));
    if (!c->scratch) {
        free(c);
        return NULL;
    }
    c->scratch->slacks_of.dealt = c->scratch->overs_of.dealt = -1;
    c->cover_gap = -1;  /* not given: the cover is never asked */
    return c;
}

static void ctx_free(Ctx *c) {
    if (!c) return;
    free(c->scratch);
    free(c);
}

/* The tables the search derives from the deal and the cards (deck, rank, pers, shares,
 * groups, touching_groups and by_rank set, every card index below ncards): NULL, or what
 * makes them unusable. */
static const char *prepare_tables(Ctx *c, int ncards) {
    c->nlanes = (c->ngroups + LANES - 1) / LANES;
    for (int i = 0; i < c->nby_rank; i++) c->by_rank_bit[c->by_rank[i]] = 1ULL << i;
    /* Each chunk's sum is a smaller chunk's plus one card: built in one pass (summing
     * every chunk bit by bit cost most of a small deal's time). */
    for (int k = 0; k < 3; k++) {
        c->chunk[k][0] = 0;
        for (u64 chunk = 1; chunk <= CHUNK; chunk++) {
            int bit = lowest(chunk), index = CHUNK_BITS * k + bit;
            int total = c->chunk[k][chunk & (chunk - 1)] + (index < ncards ? c->rank[index] : 0);
            if (total > 255) return "card ranks too large for the rank tables";
            c->chunk[k][chunk] = (uint8_t)total;
        }
    }
    for (int card = 0; card < ncards; card++) {
        int16_t *touching = (int16_t *)c->lane_touching[card], *straddling = (int16_t *)c->lane_straddling[card],
                *demand = (int16_t *)c->lane_demand[card];
        for (int g = 0; g < c->ngroups; g++) {
            touching[g] = c->g_touching[g] >> card & 1 ? (int16_t)c->rank[card] : 0;
            straddling[g] = c->g_straddling[g] >> card & 1 ? (int16_t)c->rank[card] : 0;
            demand[g] = c->g_demand[g] >> card & 1 ? (int16_t)c->rank[card] : 0;
        }
        for (int v = 0; v < MAX_GROUPS / LANES; v++)
            c->lane_within[card][v] = c->lane_touching[card][v] - c->lane_straddling[card][v];
    }
    for (int room = 0; room <= LOSS_TEST_MOST_LEFT; room++) {  /* list_loss_sets' bound */
        list_sets_of(c, c->pers, room, &c->scratch->sets[0]);
        if (c->scratch->sets[0].n < 0) return "too many sets of personalities for the loss test";
    }
    c->dealt_mask[0] = 0;
    for (int i = 0; i < c->size; i++) c->dealt_mask[i + 1] = c->dealt_mask[i] | 1ULL << c->deck[i];
    for (int i = 0; i <= c->size; i++) c->undealt_mask[i] = c->dealt_mask[c->size] & ~c->dealt_mask[i];
    for (int i = 0; i <= c->size; i++) {
        for (int v = 0; v < c->nlanes; v++) c->undealt_lanes[i][v] = (lanes_t){0};
        for (u64 m = c->undealt_mask[i]; m; m &= m - 1) {
            int card = lowest(m);
            for (int v = 0; v < c->nlanes; v++) {
                if (c->pers >> card & 1)
                    c->undealt_lanes[i][v] -= c->lane_demand[card][v];
                else
                    c->undealt_lanes[i][v] += c->lane_touching[card][v];
            }
        }
    }
    for (int card = 0; card < MAX_CARDS; card++) c->shares_ordered[card] = in_rank_order(c, c->shares[card]);
    for (int i = 0; i <= c->size; i++) c->undealt_ordered[i] = in_rank_order(c, c->undealt_mask[i] & ~c->pers);
    for (int i = 0; i < c->size; i++) {
        u64 after = c->undealt_mask[i + 1] & ~c->pers & ~c->excuse;
        c->after_ordered[i] = in_rank_order(c, after);
        c->after_rank[i] = rank_sum(c, after);
        c->after_count[i] = popcount(after);
    }
    return NULL;
}
