/* games/devils_throne/_core.c: Devil's Throne's rules for two to four seats, in C.
 *
 * The positions and moves that the simultaneous-move search of solver/_simultaneous_core.h
 * walks (native/devils_throne.c puts the two together): the rules of
 * games/devils_throne/rules.py, the readable reference that the tests compare this file
 * to:
 *
 *   - Select: each seat picks one rank it holds; deuce check [R10];
 *   - threes in the game's order (the caller passes (power, owner) pairs in ♣ ♠ ♦ ♥ order)
 *     [R11-R14]; no target: skipped; one target: applied; two or more: a decision of the
 *     owner;
 *   - the Envoy window: sub-rounds while an ace is played, every eligible seat at once
 *     [R5-R9, R25];
 *   - the winner with the tie-break, the void round, the end check [R4, R16-R18].
 *
 * A round start (Start) is what the search's table keeps; a Node is a decision point inside
 * a round, or its end (no seat acts).  Options: at Select the ranks held, at a three the
 * target seat, in an Envoy sub-round a target seat or PASS.
 *
 * Key of a round start (two words): per seat 23 bits (A, 2, 3 one bit each, since specials
 * never move; 4-K a count of 0-3 each, since the Martyr and the Gravedigger can bring more of
 * a rank), seats 0-1 in the first word with the reserve depths (2 bits each) and the round
 * (4 bits), and above them, in value_class_key's keys only, a label (TEN_LABEL_SHIFT); seats
 * 2-3 in the second word, whose top KEY_FREE_BITS bits stay 0 for the search.
 */

#include <stdint.h>
#include <string.h>

typedef uint64_t u64;

enum { MARTYR = 0, GRAVEDIGGER = 1, ROBBER = 2, LOVER = 3 };
enum { HIGH = 0, LOW = 1 };
enum { SELECT = 0, EFFECT = 1, ENVOY = 2, END = 3 };  /* a Node's phase; END: the round is over */
#define PASS 15                                          /* the Envoy option that plays no ace */
#define MAXP 4                                           /* seats */
#define MAXA 16                                          /* options of a seat: 13 ranks at most */
#define RESERVE_SIZE 3
#define MAX_ROUNDS 10
#define KEY_FREE_BITS 18

#define RELABEL_CACHE_BITS 15

/* A relabelling of three or four hands kept by its pattern (tag: bit 63 set, the pattern). */
typedef struct { u64 tag, low, high; } RelabelSlot;

/* One deal: the seats, the threes in resolution order, the coins, the reserves top first;
 * and caches of value_class_key's relabellings, two seats' and more (zeroed: empty). */
typedef struct {
    int players, neffects, power[4], owner[4];
    int coins[MAX_ROUNDS];
    int reserve[MAXP][RESERVE_SIZE];
    u64 relabelled[1 << RELABEL_CACHE_BITS];
    RelabelSlot relabelled_wide[1 << RELABEL_CACHE_BITS];
} Ctx;

typedef struct {
    uint8_t hand[MAXP][14];   /* count per rank 1..13 */
    uint8_t size[MAXP];
    uint8_t depth[MAXP];      /* cards gone from the reserve top */
    uint8_t round;            /* 1-based */
} Start;

typedef struct {
    Start s;
    int phase, effect;        /* EFFECT: the index of the three whose owner chooses */
    int main[MAXP], total[MAXP], pool, gain[MAXP], deuce, mode;
} Node;

typedef struct { u64 a, b; } Key;

static inline int seats_of(const Ctx *c) { return c->players; }

static inline int value_of(int rank, int deuce) { return deuce && rank > 10 ? 10 : rank; }  /* [R10] */

static inline int reserve_top(const Ctx *c, const Start *s, int seat) {
    return s->depth[seat] < RESERVE_SIZE ? c->reserve[seat][s->depth[seat]] : 0;
}

/* ----- round starts ----------------------------------------------------------------------- */


/* Where a common rank's count sits in a hand's key bits. */
static inline int rank_shift(int rank) { return 3 + 2 * (rank - 4); }

/* A hand's A, 2 and 3: one bit each, since specials never move. */
static inline u64 hand_bits_specials(const Start *s, int seat) {
    const uint8_t *h = s->hand[seat];
    return (u64)h[1] | (u64)h[2] << 1 | (u64)h[3] << 2;
}

static inline u64 hand_bits(const Start *s, int seat) {
    u64 bits = hand_bits_specials(s, seat);
    for (int rank = 4; rank <= 13; rank++) bits |= (u64)s->hand[seat][rank] << rank_shift(rank);
    return bits;
}

/* The common ranks a hand holds, as the bits 4-13 (counts are 0-3: a byte's two low bits). */
static inline unsigned commons_held(const Start *s, int seat) {
    u64 low, high = 0;
    memcpy(&low, s->hand[seat] + 4, 8);                 /* ranks 4-11 */
    memcpy(&high, s->hand[seat] + 12, 2);               /* ranks 12-13 */
    const u64 ones = 0x0101010101010101ULL, gather = 0x0102040810204080ULL;
    low = (low | low >> 1) & ones;
    high = (high | high >> 1) & ones;
    return (unsigned)((low * gather) >> 56 | ((high * gather) >> 56) << 8) << 4;
}

/* Whether some hand holds a common twice or more (the Martyr or the Gravedigger brought it). */
static inline int commons_repeated(const Start *s, int seat) {
    u64 low, high = 0;
    memcpy(&low, s->hand[seat] + 4, 8);
    memcpy(&high, s->hand[seat] + 12, 2);
    return ((low | high) & 0x0202020202020202ULL) != 0;
}

/* Whether a Martyr or a Gravedigger is still in its owner's hand: it may bring a reserve card
 * into a hand [R12, R13]. */
static inline int mover_held(const Ctx *c, const Start *s) {
    for (int k = 0; k < c->neffects; k++)
        if ((c->power[k] == MARTYR || c->power[k] == GRAVEDIGGER) && s->hand[c->owner[k]][3]) return 1;
    return 0;
}

/* The key of round start s with each seat's hand given as its key bits. */
static inline void key_of_hands(const Ctx *c, const Start *s, const u64 hands[MAXP], Key *key) {
    u64 a = hands[0] | hands[1] << 23, b = 0;
    for (int seat = 0; seat < MAXP; seat++) a |= (u64)s->depth[seat] << (46 + 2 * seat);
    a |= (u64)s->round << 54;  /* never 0: the round is at least 1 */
    if (c->players > 2) b = hands[2] | (c->players > 3 ? hands[3] << 23 : 0);
    key->a = a;
    key->b = b;
}

static inline void start_key(const Ctx *c, const Start *s, Key *key) {
    u64 hands[MAXP] = {0, 0, 0, 0};
    for (int seat = 0; seat < c->players; seat++) hands[seat] = hand_bits(s, seat);
    key_of_hands(c, s, hands, key);
}

/* Whether the Lover is still in its owner's hand: with three or more seats its card lifts
 * its target's total by a reserve card's value against a third seat's card [R14, R15]. */
static inline int lover_held(const Ctx *c, const Start *s) {
    for (int k = 0; k < c->neffects; k++)
        if (c->power[k] == LOVER && s->hand[c->owner[k]][3]) return 1;
    return 0;
}

/* Whether some seat holds its 2: a deuce round to come may make 10-K meet as equals [R10]. */
static inline int deuce_held(const Ctx *c, const Start *s) {
    for (int seat = 0; seat < c->players; seat++)
        if (s->hand[seat][2]) return 1;
    return 0;
}

/* Where the label of the rank 10 that every hand is taken to hold (a deuce to come, three or
 * more seats) sits in a key's first word, above the round. */
#define TEN_LABEL_SHIFT 58

/* Whether the relabelling below applies to s: not while a Martyr or Gravedigger can bring a
 * reserve card into a hand, nor, with three or more seats, while the Lover is in hand. */
static inline int relabelling_applies(const Ctx *c, const Start *s) {
    return !mover_held(c, s) && (c->players == 2 || !lover_held(c, s));
}

/* The key of the class of round starts with s's value: s's own key, but with the commons in
 * hands relabelled (positions that share it have the same value in every question).
 *
 * Why that is exact.  A hand's common meets other hands' cards only through the round's
 * totals, and with no Lover in play a total is one main card's value moved by Envoy aces of
 * one point each [R15].  In HIGH (LOW mirrors it), with M the best total, a seat at M - 2 or
 * below is never an Envoy's target nor a winner: M never falls and aces only add [R7], so it
 * stays two short.  Which seats are at M, at M - 1 and below is all the window, the winner and
 * the tie-break read (the tie-break reads the reserves, which the key keeps by depth) [R4,
 * R6-R9, R16]: so s's value depends on its commons only through the difference of each pair
 * from two different hands (a common against any 3 too: 1 and 2 are at least 2 below any
 * common), clamped to [-2, 2], or, once no hand holds an ace, through their order alone (W
 * below: 2, or 1), for any number of seats.  With two seats the Lover's card lifts its target
 * to at least 1 + 4 against the Lover's 3, never within one, and in a deuce round the other
 * main card meets the 2 alone [R10, R14].  With more, the Lover's target meets a third seat's
 * card by the sum of two cards, so not while the Lover is in hand; and a deuce round makes
 * 10-K equal where two other seats meet [R10], so while a 2 is held every hand is taken to
 * hold a 10 too, whose label joins the key: the differences against it keep the deuce round's
 * values (a card below 10 against one at 10 or above).
 *
 * The relabelling keeps every such difference and maps each rank to one no higher: the ranks
 * held, lowest first, each take the lowest label above the last that keeps its clamped
 * difference to the latest rank of every other hand (3 before any).  A rank held by one hand
 * only joins the label of the rank before it, held by that hand alone, where the two meet the
 * same cards of every other hand in the same way: at least W above each other hand's rank
 * below and W below its rank above (while the hand holds at most 3 of a label, what the key
 * can count).  Two such cards are one option: their rows or columns of every matrix game are
 * equal, which leaves the value alone.  It does not hold while a Martyr or a Gravedigger can
 * still bring a reserve card into a hand [R12, R13]: the plain key then. */
/* The relabelling above: each hand's key bits with its commons relabelled, with `label_of`
 * (may be NULL) each common rank's label, with `ten_label` (may be NULL) the label of the 10
 * every hand is taken to hold, or 0; returns 0 where it does not apply (bits untouched). */
static inline int relabel_commons(const Ctx *c, const Start *s, u64 bits[MAXP], uint8_t *label_of, int *ten_label) {
    int n = c->players;
    if (!relabelling_applies(c, s)) return 0;
    int ten = n > 2 && deuce_held(c, s), widest = 1;
    unsigned held[MAXP], all = 0;
    int last_rank[MAXP], last_label[MAXP];
    for (int seat = 0; seat < n; seat++) {
        held[seat] = commons_held(s, seat) | (unsigned)ten << 10;
        all |= held[seat];
        bits[seat] = hand_bits_specials(s, seat);
        if (s->hand[seat][1]) widest = 2;
        last_rank[seat] = last_label[seat] = 3;
    }
    int label = 3, previous = 3, alone = -1, count = 0, labelled_ten = 0;
    for (unsigned left = all; left; left &= left - 1) {
        int rank = __builtin_ctz(left), seat = -1, holders = 0;
        for (int side = 0; side < n; side++)
            if (held[side] >> rank & 1) { holders++; seat = side; }
        if (holders > 1) seat = -1;
        if (seat >= 0 && seat == alone && count + s->hand[seat][rank] <= 3) {
            int alike = 1;
            for (int other = 0; other < n && alike; other++) {
                if (other == seat) continue;
                unsigned higher = held[other] >> rank >> 1;
                int above = higher ? rank + 1 + __builtin_ctz(higher) : 99;
                alike = previous - last_rank[other] >= widest && above - rank >= widest;
            }
            if (alike) {
                count += s->hand[seat][rank];
                bits[seat] += (u64)s->hand[seat][rank] << rank_shift(label);
                last_rank[seat] = previous = rank;
                if (label_of) label_of[rank] = (uint8_t)label;
                continue;
            }
        }
        int next = label + 1;
        for (int side = 0; side < n; side++) {
            if (!(held[side] >> rank & 1)) continue;
            for (int other = 0; other < n; other++) {
                if (other == side) continue;
                int gap = rank - last_rank[other], bound = last_label[other] + (gap < widest ? gap : widest);
                if (bound > next) next = bound;
            }
        }
        label = next;  /* at most rank: each label is at most its rank */
        for (int side = 0; side < n; side++) {
            if (!(held[side] >> rank & 1)) continue;
            bits[side] |= (u64)s->hand[side][rank] << rank_shift(label);
            last_rank[side] = rank;
            last_label[side] = label;
        }
        if (label_of) label_of[rank] = (uint8_t)label;
        if (rank == 10 && ten) labelled_ten = label;
        count = seat >= 0 ? s->hand[seat][rank] : 0;
        previous = rank;
        alone = seat;
    }
    if (ten_label) *ten_label = labelled_ten;
    return 1;
}

/* Where every count is 0 or 1, the relabelled commons of two hands depend only on which
 * ranks each holds and whether an ace is held (the pattern): the deal's cache keeps them, a
 * slot a pattern (bit 63 set, the pattern from bit 40, the two hands' 20 + 20 bits). */
static inline u64 relabel_pattern(const Start *s) {
    return (u64)(commons_held(s, 0) >> 4) | (u64)(commons_held(s, 1) >> 4) << 10 | (u64)(s->hand[0][1] || s->hand[1][1]) << 20;
}

static inline size_t relabel_slot(u64 pattern) {
    return (size_t)((pattern * 0x9e3779b97f4a7c15ULL) >> (64 - RELABEL_CACHE_BITS));
}

/* With three or four seats, the same where the relabelling applies: the pattern is the
 * ranks each hand holds (10 bits a seat), whether an ace and whether a 2 is held (bits 40,
 * 41); a slot keeps the hands' 20 bits each (seats 0-2 in `low`, with the 10's label from bit
 * 60; seat 3 in `high`). */
static inline u64 wide_pattern(const Ctx *c, const Start *s) {
    u64 pattern = 0;
    int ace = 0;
    for (int seat = 0; seat < c->players; seat++) {
        pattern |= (u64)(commons_held(s, seat) >> 4) << (10 * seat);
        ace |= s->hand[seat][1];
    }
    return pattern | (u64)(ace != 0) << 40 | (u64)deuce_held(c, s) << 41;
}

/* Fetch the cache slot that value_class_key(c, s) will read. */
static inline void value_class_prefetch(const Ctx *c, const Start *s) {
    if (c->players == 2) __builtin_prefetch(&c->relabelled[relabel_slot(relabel_pattern(s))]);
}

/* Whether every hand holds each common at most once (the caches' patterns). */
static inline int commons_single(const Ctx *c, const Start *s) {
    for (int seat = 0; seat < c->players; seat++)
        if (commons_repeated(s, seat)) return 0;
    return 1;
}

/* value_class_key with three or four seats, where the relabelling applies and every count
 * is 0 or 1: through the deal's cache. */
static inline void wide_class_key(Ctx *c, const Start *s, Key *key) {
    u64 bits[MAXP] = {0, 0, 0, 0}, pattern = wide_pattern(c, s);
    RelabelSlot *slot = &c->relabelled_wide[relabel_slot(pattern)];
    if (slot->tag != (pattern | (u64)1 << 63)) {
        int ten = 0;
        relabel_commons(c, s, bits, NULL, &ten);
        slot->tag = pattern | (u64)1 << 63;
        slot->low = bits[0] >> 3 | bits[1] >> 3 << 20 | bits[2] >> 3 << 40 | (u64)ten << 60;
        slot->high = bits[3] >> 3;
    }
    for (int seat = 0; seat < c->players; seat++) {
        u64 commons = seat < 3 ? slot->low >> (20 * seat) & 0xfffff : slot->high;
        bits[seat] = hand_bits_specials(s, seat) | commons << 3;
    }
    key_of_hands(c, s, bits, key);
    key->a |= (slot->low >> 60) << TEN_LABEL_SHIFT;
}

/* value_class_key with two seats, where the relabelling applies and every count is 0 or 1:
 * through the deal's cache. */
static inline void two_seat_class_key(Ctx *c, const Start *s, Key *key) {
    u64 bits[MAXP] = {hand_bits_specials(s, 0), hand_bits_specials(s, 1), 0, 0};
    u64 pattern = relabel_pattern(s), *slot = &c->relabelled[relabel_slot(pattern)];
    if (*slot >> 40 != (pattern | 1u << 23)) {
        relabel_commons(c, s, bits, NULL, NULL);
        *slot = (u64)1 << 63 | pattern << 40 | bits[0] >> 3 | bits[1] >> 3 << 20;
    }
    bits[0] |= (*slot & 0xfffff) << 3;
    bits[1] |= (*slot >> 20 & 0xfffff) << 3;
    key_of_hands(c, s, bits, key);
}

static inline void value_class_key(Ctx *c, const Start *s, Key *key) {
    if (!relabelling_applies(c, s)) {
        start_key(c, s, key);
    } else if (commons_single(c, s)) {
        if (c->players == 2) two_seat_class_key(c, s, key);
        else wide_class_key(c, s, key);
    } else {
        u64 bits[MAXP] = {0, 0, 0, 0};
        int ten = 0;
        relabel_commons(c, s, bits, NULL, &ten);
        key_of_hands(c, s, bits, key);
        key->a |= (u64)ten << TEN_LABEL_SHIFT;
    }
}

/* At a round start's Select, each seat keeps, in place, one main card of each label of the
 * relabelling above: cards of one label are one option (the positions after them share
 * their relabelled key, so their rows or columns of the matrix game are equal). */
static inline void distinct_options(const Ctx *c, const Node *d, int n[MAXP], int opt[MAXP][MAXA]) {
    u64 bits[MAXP];
    uint8_t label_of[14];
    if (d->phase != SELECT || !relabel_commons(c, &d->s, bits, label_of, NULL)) return;
    for (int seat = 0; seat < c->players; seat++) {
        int k = 0, last = -1;
        for (int i = 0; i < n[seat]; i++) {
            int rank = opt[seat][i], label = rank < 4 ? rank : label_of[rank];
            if (label == last) continue;  /* options run by rank, so one label's are adjacent */
            last = label;
            opt[seat][k++] = rank;
        }
        n[seat] = k;
    }
}

/* Two seats fill the first word only; the search adds P's leads to the second word only for
 * three or more seats. */
static inline int key_words(const Ctx *c) { return c->players > 2 ? 2 : 1; }

/* Cards in hands and reserves (the pool is empty at a round start). */
static inline int cards_in_play(const Ctx *c, const Start *s) {
    int total = 0;
    for (int seat = 0; seat < c->players; seat++) total += s->size[seat] + RESERVE_SIZE - s->depth[seat];
    return total;
}

/* The surplus of hands over the shortest: the cards left in hands when the game ends, if each
 * seat played one main card a round until the shortest hand is empty. */
static inline int surplus(const int size[MAXP], int n) {
    int least = size[0], total = 0;
    for (int seat = 0; seat < n; seat++) { total += size[seat]; if (size[seat] < least) least = size[seat]; }
    return total - n * least;
}

/* The least surplus once `gifts` more cards may each join any hand. */
static int surplus_with_gifts(int size[MAXP], int n, int gifts) {
    int best = surplus(size, n);
    if (gifts == 0 || best == 0) return best;
    for (int seat = 0; seat < n; seat++) {
        size[seat]++;
        int value = surplus_with_gifts(size, n, gifts - 1);
        size[seat]--;
        if (value < best) best = value;
    }
    return best;
}

/* Cards that can never leave a hand [R18]: every seat plays one main card each round and the
 * game ends when a hand is empty, so whatever the longer hands hold beyond the shortest stays
 * there.  A seat holding its ace may shorten its hand by one (an Envoy), and each Martyr or
 * Gravedigger still in a hand may lengthen one hand by one [R12, R13]: the least surplus over
 * those choices. */
static inline int cards_stuck(const Ctx *c, const Start *s) {
    int n = c->players, gifts = 0, size[MAXP], fewest = s->size[0], most = s->size[0];
    for (int seat = 1; seat < n; seat++) {
        if (s->size[seat] < fewest) fewest = s->size[seat];
        if (s->size[seat] > most) most = s->size[seat];
    }
    if (fewest == most) return 0;
    for (int k = 0; k < c->neffects; k++)
        if ((c->power[k] == MARTYR || c->power[k] == GRAVEDIGGER) && s->hand[c->owner[k]][3]) gifts++;
    int best = -1;
    for (int envoys = 0; envoys < 1 << n; envoys++) {
        int possible = 1;
        for (int seat = 0; seat < n; seat++) {
            int shorter = envoys >> seat & 1;
            if (shorter && !s->hand[seat][1]) possible = 0;
            size[seat] = s->size[seat] - shorter;
        }
        if (!possible) continue;
        int value = surplus_with_gifts(size, n, gifts);
        if (best < 0 || value < best) best = value;
    }
    return best;
}

/* Of the cards that may still reach a trick pile, those of the other seats' reserves that
 * `seat` can never win.  A reserve card leaves its reserve by a three's power (at most one
 * card each) or in a tie-break [R16]; a seat wins a tie-break only by drawing from its own
 * reserve at each step (with an empty one it is no longer among those who draw), and each
 * step draws at most one card from each other seat.  So `seat` wins at most (seats - 1) other
 * reserve cards per card of its own reserve, besides one a three still in a hand. */
static inline int cards_out_of_reach(const Ctx *c, const Start *s, int seat) {
    int others = 0, threes = 0;
    for (int k = 0; k < c->players; k++)
        if (k != seat) others += RESERVE_SIZE - s->depth[k];
    for (int k = 0; k < c->neffects; k++)
        if (s->hand[c->owner[k]][3]) threes++;
    int reach = (c->players - 1) * (RESERVE_SIZE - s->depth[seat]) + threes;
    return others > reach ? others - reach : 0;
}

/* Cards that may still reach a trick pile: those in play less those that stay in hands. */
static inline int cards_reachable(const Ctx *c, const Start *s) {
    return cards_in_play(c, s) - cards_stuck(c, s);
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

/* The seats an effect may target, ascending or, with `descending`, the game's search order. */
static inline int effect_targets(const Ctx *c, const Node *d, int power, int owner, int descending,
                                 int targets[MAXA]) {
    int n = 0;
    for (int k = 0; k < c->players; k++) {
        int seat = descending ? c->players - 1 - k : k;
        int ok;
        if (power == MARTYR) ok = seat != owner && d->s.depth[owner] < RESERVE_SIZE;
        else if (power == LOVER) ok = seat != owner && d->s.depth[seat] < RESERVE_SIZE;
        else ok = d->s.depth[seat] < RESERVE_SIZE;
        if (ok) targets[n++] = seat;
    }
    return n;
}

/* Step 4 from the three `index` on: a three with one target is applied, one with none
 * skipped, one with more is the owner's decision [R11]; then the Envoy window. */
static inline void after_effects(const Ctx *c, Node *d, int index) {
    for (; index < c->neffects; index++) {
        int power = c->power[index], owner = c->owner[index];
        if (d->main[owner] != 3) continue;
        int targets[MAXA], n = effect_targets(c, d, power, owner, 0, targets);
        if (n == 1) apply_effect(c, d, power, owner, targets[0]);
        if (n >= 2) { d->phase = EFFECT; d->effect = index; return; }
    }
    d->phase = ENVOY;
}

/* Steps 2-3: the main cards leave the hands into the pool; the deuce fixes values [R10]. */
static inline void reveal(const Ctx *c, Node *d, const int act[MAXP]) {
    int n = c->players;
    d->deuce = 0;
    for (int seat = 0; seat < n; seat++) {
        d->main[seat] = act[seat];
        d->s.hand[seat][act[seat]]--;
        d->s.size[seat]--;
        if (act[seat] == 2) d->deuce = 1;
    }
    d->mode = c->coins[d->s.round - 1];
    for (int seat = 0; seat < n; seat++) d->total[seat] = value_of(d->main[seat], d->deuce);
    d->pool = n;
    after_effects(c, d, 0);
}

/* The best total (max in HIGH, min in LOW) and how many seats share it. */
static inline int best_total(const Ctx *c, const Node *d, int *count) {
    int best = d->total[0];
    for (int seat = 1; seat < c->players; seat++)
        if (d->mode == HIGH ? d->total[seat] > best : d->total[seat] < best) best = d->total[seat];
    int k = 0;
    for (int seat = 0; seat < c->players; seat++) k += d->total[seat] == best;
    *count = k;
    return best;
}

/* [R7]: another seat one short of best, or tied at best with someone else; ascending, or
 * descending (the search order). */
static inline int envoy_targets(const Ctx *c, const Node *d, int owner, int descending, int targets[MAXA]) {
    if (!d->s.hand[owner][1]) return 0;
    int count, best = best_total(c, d, &count), shortfall = d->mode == HIGH ? best - 1 : best + 1, n = 0;
    for (int k = 0; k < c->players; k++) {
        int seat = descending ? c->players - 1 - k : k;
        if (seat != owner && (d->total[seat] == shortfall || (d->total[seat] == best && count > 1)))
            targets[n++] = seat;
    }
    return n;
}

/* ----- decision points -------------------------------------------------------------------- */

/* Each seat's options at d into opt (n[seat] = 0: the seat does not act; none acts: the
 * round is over), in the rules' order or, with `ordered`, the game's search order: Select
 * ranks high first in HIGH rounds and low first in LOW, targets the highest seat first, an
 * Envoy's targets before PASS. */
static inline void node_options(const Ctx *c, const Node *d, int ordered, int n[MAXP], int opt[MAXP][MAXA]) {
    int players = c->players;
    for (int seat = 0; seat < players; seat++) n[seat] = 0;
    if (d->phase == SELECT) {
        int descending = ordered && c->coins[d->s.round - 1] == HIGH;
        for (int seat = 0; seat < players; seat++)
            for (int i = 0; i < 13; i++) {
                int rank = descending ? 13 - i : 1 + i;
                if (d->s.hand[seat][rank]) opt[seat][n[seat]++] = rank;
            }
    } else if (d->phase == EFFECT) {
        int owner = c->owner[d->effect];
        n[owner] = effect_targets(c, d, c->power[d->effect], owner, ordered, opt[owner]);
    } else if (d->phase == ENVOY) {
        for (int seat = 0; seat < players; seat++) {
            int k = envoy_targets(c, d, seat, ordered, ordered ? opt[seat] : opt[seat] + 1);
            if (!k) continue;
            if (ordered) opt[seat][k] = PASS; else opt[seat][0] = PASS;
            n[seat] = k + 1;
        }
    }
}

/* The game's greedy bot (game.py's greedy_action_against) as an index into `opt`, the
 * seat's options in search order, playing against the seats in `against`: at Select the
 * cheapest card that beats the highest (HIGH) or lowest (LOW) card they hold, else the card
 * least useful this round; in an Envoy sub-round the first option that is no ace onto a
 * seat in `against` (an ace helps its target); elsewhere the first option. */
static inline int policy_option(const Ctx *c, const Node *d, int seat, int against, const int *opt, int n) {
    if (d->phase == ENVOY) {
        for (int i = 0; i < n; i++) if (opt[i] == PASS || !(against >> opt[i] & 1)) return i;
        return n - 1;
    }
    if (d->phase != SELECT) return 0;
    int high = c->coins[d->s.round - 1] == HIGH, threat = high ? 0 : 14;
    for (int other = 0; other < c->players; other++) {
        if (other == seat || !(against >> other & 1)) continue;
        for (int rank = 1; rank <= 13; rank++) {
            if (!d->s.hand[other][rank]) continue;
            if (high ? rank > threat : rank < threat) threat = rank;
        }
    }
    /* Options run high to low in HIGH, low to high in LOW: the last option that beats the
     * threat is the cheapest; with none, the last option is the least useful. */
    int pick = n - 1;
    for (int i = 0; i < n; i++) if (high ? opt[i] > threat : opt[i] < threat) pick = i;
    return pick;
}

/* The options of a coalition seat, in the order its replies are tried (game.py's
 * few_options and order_replies), in place: first the few it keeps in the search with few
 * replies, then the others in search order.  At a main-card choice it keeps the greedy
 * bot's card against P, its weakest and strongest cards for the round, its 2 and 3 (the
 * deuce, a three's power) and, answering P's card `answered` (a rank; below 1 where P has
 * not chosen), the cheapest card that beats it and one that ties it; every option elsewhere.
 * Answering P's card, those come in the order of that list, beating and tying first (a card
 * that wins the round cheaply, or one thrown away, refutes P's card soonest); else in search
 * order.  Returns how many it keeps. */
static inline int few_options(const Ctx *c, const Node *d, int seat, int p, int answered, int *opt, int n) {
    if (d->phase != SELECT || n <= 2) return n;
    int high = c->coins[d->s.round - 1] == HIGH, beat = -1, tie = -1, deuce = -1, three = -1;
    for (int i = 0; i < n; i++) {
        if (answered >= 1 && (high ? opt[i] > answered : opt[i] < answered)) beat = i;
        if (opt[i] == answered) tie = i;
        if (opt[i] == 2) deuce = i;
        if (opt[i] == 3) three = i;
    }
    int want[7] = {beat, tie, policy_option(c, d, seat, 1 << p, opt, n), n - 1, deuce, three, 0};
    int order[MAXA], taken[MAXA] = {0}, k = 0;
    for (int j = 0; j < 7; j++) if (want[j] >= 0) taken[want[j]] = 1;
    if (answered >= 1)
        for (int j = 0; j < 7; j++)
            if (want[j] >= 0 && taken[want[j]] == 1) { taken[want[j]] = 2; order[k++] = opt[want[j]]; }
    for (int i = 0; i < n; i++) if (taken[i] == 1) order[k++] = opt[i];
    int kept = k;
    for (int i = 0; i < n; i++) if (!taken[i]) order[k++] = opt[i];
    memcpy(opt, order, n * sizeof(int));
    return kept;
}

/* d, in place, after each acting seat plays act[seat] (NO_ACTION for a seat that does not
 * act), every forced step run up to the next decision or the round's end. */
static inline void apply_joint(const Ctx *c, Node *d, const int act[MAXP]) {
    if (d->phase == SELECT) {
        reveal(c, d, act);
    } else if (d->phase == EFFECT) {
        int index = d->effect, owner = c->owner[index];
        apply_effect(c, d, c->power[index], owner, act[owner]);
        after_effects(c, d, index + 1);
    } else {
        /* an Envoy sub-round: the aces played apply together, each judged on the totals at
         * the sub-round's start; another sub-round follows while any was played [R6, R7, R9] */
        int played = 0, step = d->mode == HIGH ? 1 : -1;  /* [R5] */
        for (int seat = 0; seat < c->players; seat++) {
            if (act[seat] < 0 || act[seat] == PASS) continue;
            d->total[act[seat]] += step;
            d->s.hand[seat][1]--;
            d->s.size[seat]--;
            d->pool++;
            played = 1;
        }
        if (!played) d->phase = END;
    }
}

/* The round's end: the winner with the tie-break [R4, R16], trick or void [R17]; each
 * seat's cards won this round into gain; 1 with the next round start in *next, 0 when a
 * hand is empty and the game is over [R18]. */
static inline int close_round(const Ctx *c, const Node *d, Start *next, int gain[MAXP]) {
    int players = c->players, high = d->mode == HIGH, pool = d->pool;
    int depth[MAXP], tied[MAXP], count;
    int best = best_total(c, d, &count);
    for (int seat = 0; seat < players; seat++) { depth[seat] = d->s.depth[seat]; tied[seat] = d->total[seat] == best; }
    int winner = -1;
    if (count == 1) {
        for (int seat = 0; seat < players; seat++) if (tied[seat]) winner = seat;
    }
    while (winner < 0) {
        int v[MAXP], drawing = 0, last = -1, top = 0;
        for (int seat = 0; seat < players; seat++) {
            if (!tied[seat] || depth[seat] >= RESERVE_SIZE) { tied[seat] = 0; continue; }
            v[seat] = value_of(c->reserve[seat][depth[seat]], d->deuce);
            depth[seat]++;
            pool++;
            if (!drawing || (high ? v[seat] > top : v[seat] < top)) top = v[seat];
            drawing++;
            last = seat;
        }
        if (!drawing) break;  /* void */
        if (drawing == 1) { winner = last; break; }
        int left = 0;
        for (int seat = 0; seat < players; seat++) {
            tied[seat] = tied[seat] && v[seat] == top;
            if (tied[seat]) { left++; last = seat; }
        }
        if (left == 1) winner = last;
    }
    int over = 0;
    for (int seat = 0; seat < players; seat++) {
        gain[seat] = d->gain[seat] + (winner == seat ? pool : 0);
        if (d->s.size[seat] == 0) over = 1;
    }
    if (over) return 0;
    *next = d->s;
    for (int seat = 0; seat < players; seat++) next->depth[seat] = (uint8_t)depth[seat];
    next->round++;
    return 1;
}
