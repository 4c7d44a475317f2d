/* solver/_search_core.h: the game-agnostic part of the compiled "pruned" searches.
 *
 * The skeleton of solver/search.py (engine="pruned") that the one-player games share,
 * written once: the transposition table, the budgets, the winnability search and the
 * optimal search, and the common part of the module's solve() (budgets in, result tuple
 * out).  A template by include: it is no module of its own and has no .c file; a native/
 * unit (native/adaman.c, native/royal_assassin.c) includes it once, after the game's rules
 * in C (games/<game>/_core.c), and gets its own copy compiled against that game's types,
 * so every hook below can be inlined.
 *
 *   - search: search_win (LDS rounds of limited discrepancy search with find_win, each
 *     remembered in `tried`, then the complete find_win whose table holds refuted
 *     states, with the subtrees a round searched whole) and run_optimal (search_win for an incumbent, a won deal's first pass over a
 *     narrowed tree (first_pass), then probes upwards from it to
 *     the bound, each a value() that stops at its first line reaching the target:
 *     moves whose move_bounds cannot beat the bar are not played (their bound stands in
 *     for the child's value); find_win skips the moves bounded below its level; table
 *     entries are (value, exact) with inexact = upper bound trusted only at or below the
 *     caller's floor, exactness judged against the floor at the end of the loop; with
 *     level probes (the schedule's level_probes) a lost deal's optimum comes
 *     from probe_levels instead; a failed win search leaves the verdict LOST even if the
 *     optimum runs out of budget).  Children are made PREFETCH_AHEAD moves in advance and their table slots
 *     prefetched, so the memory latency of the probes overlaps the search of the earlier
 *     siblings; the nodes and their order are solver/search.py's.
 *   - transposition table: open addressing (linear probing) over the game's Slot, whose
 *     full key is stored (no lossy hashing).  One word of the slot (SLOT_META) holds the
 *     key's last bits below SLOT_VALUE_SHIFT, then value + VALUE_OFFSET, the exact flag
 *     (bit 62) and the used flag (bit 63).  A table holds at most max_table entries, like
 *     the Python dicts under Budget.max_table, and the two tables' slots at most max_bytes,
 *     a growth's old and new slots together (a table 70 % full that cannot grow within it
 *     is at its cap; its last growth may be by less than double, to the bytes left, which
 *     is why a key's home is its hash scaled to the capacity, not masked); reaching a cap
 *     ends the search, or with the
 *     schedule's replace_when_full stops its growth: a probe then visits a bounded window of
 *     slots and a new key takes an empty one or replaces an entry (the search stays complete,
 *     it may only search again what it forgot).  Its slot
 *     array starts at INITIAL_CAPACITY and doubles while under the caps, so a small search
 *     does not commit the memory of a 20-million-entry table.
 *   - budgets: states, time (checked every BUDGET_CHECK_EVERY states, with Python's
 *     signals), table size and the fixed line depth end the search by longjmp.
 *
 * The including file defines first (after <Python.h>; the game's rules define all but
 * line_list, the binding's):
 *
 *   u64                        uint64_t
 *   State                      a position; fields `status` with values PLAYING and
 *                              FINISHED_WON (any other value: finished, not won)
 *   Move                       a move, as stored in lines
 *   Slot                       a table entry: the packed key plus the SLOT_META word
 *   Ctx                        the game's read-only data for one solve() call
 *   MAX_DEPTH, MAX_MOVES       the deepest line and the most moves of one position
 *   INITIAL_CAPACITY           slots of a new table
 *   RESET_SHRINKS              1: emptying a table gives its memory back down to
 *                              INITIAL_CAPACITY; 0: it keeps its capacity
 *   SLOT_META(slot)            the lvalue of the flags word of *slot
 *   SLOT_KEY_MASK              the key bits of that word
 *   SLOT_VALUE_SHIFT, SLOT_VALUE_MASK, VALUE_OFFSET
 *                              where value + VALUE_OFFSET sits in that word, and its width
 *
 * and these functions (static; the search inlines them):
 *
 *   Slot pack(const Ctx *, const State *)          the exact table key (SLOT_META: key bits only)
 *   u64 hash_key(const Slot *)                      of a key (flags bits clear)
 *   int same_key(const Slot *slot, const Slot *k)  slot (flags set) holds key k
 *   int has_move(const Ctx *, const State *)        a PLAYING state has a search move
 *                                                  (none: the state is terminal, a loss)
 *   int ordered_moves(const Ctx *, const State *, Move *out, int root)
 *                                                  search_moves then order_moves into out
 *                                                  (at the root every legal move); the count
 *   State apply_move(const Ctx *, const State *, Move)
 *   int terminal_score(const Ctx *, const State *)  score of a terminal state
 *   int upper_bound(const Ctx *, const State *)     score_upper_bound of a PLAYING state
 *   int can_still_win(const Ctx *, const State *)
 *   int may_exceed(const Ctx *, const State *, int floor, int ceiling)
 *   int bounded_moves(const Ctx *, const State *, Move *out, int *bounds, int root, int floor,
 *                     int *cut_best)               ordered_moves with move_bounds: per move
 *                                                  a bound on its child's value into bounds;
 *                                                  moves may be left out whose bound is at
 *                                                  most floor, the greatest of those bounds
 *                                                  into *cut_best (-1: none left out)
 *   int guaranteed_score(const Ctx *, const State *)
 *   int loss_can_reach(const Ctx *, const State *, int level)
 *                                                  the Game hooks of the same names
 *   PyObject *line_list(const Ctx *, const Move *line, int len)
 *                                                  a line as the Python side's list of moves
 *
 * and the game's Ctx must carry `int lowest_win_score` (the least score of a WIN).
 */

#ifndef SEARCH_CORE_H
#define SEARCH_CORE_H

#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_fields.h"
#include "_table_memory.h"

#define BUDGET_CHECK_EVERY 256  /* a state costs up to ~10 us: a limit is kept to ~3 ms */
#ifndef PREFETCH_AHEAD
#define PREFETCH_AHEAD 3
#endif
#define SCORE_NONE INT32_MIN

/* How a search is scheduled: the solver's own settings (solver/search.py, SearchSettings),
 * never the game's. */
typedef struct {
    int lds_rounds;        /* rounds of limited discrepancy search before the complete win search */
    int first_pass_moves;  /* a won deal's value probes first over this many moves a position (0: none) */
    int level_probes;      /* a lost deal's optimum by level probes (0: value probes) */
    int replace_when_full; /* a table at its cap replaces entries instead of ending the search */
    int keep_whole_refutations; /* what a round of find_win refuted whole goes into `table` */
    int at_least;          /* mode optimal: the optimum only where it reaches this (0: always) */
} Schedule;
#define SLOT_EXACT (1ULL << 62)
#define SLOT_USED (1ULL << 63)

enum { EXHAUSTED_NONE = 0, EXHAUSTED_STATES, EXHAUSTED_TIME, EXHAUSTED_TABLE, EXHAUSTED_MEMORY_CAP,
       EXHAUSTED_SIGNAL, EXHAUSTED_MEMORY, EXHAUSTED_INTERNAL };

typedef struct {
    Slot *slots;
    u64 capacity;                     /* slots */
    u64 count;
    long long cap;                    /* entries at most; < 0: none */
    u64 window;                       /* while replacing (set by start_replacing): the most slots a probe visits */
    int replacing;                    /* full: a new key takes an empty slot in its window or replaces one */
} Table;

/* One search: the game's data, the budgets, the tables, the counts and the lines. */
typedef struct {
    const Ctx *game;
    /* budgets */
    double time_limit;                /* < 0: none */
    long long max_states;             /* < 0: none */
    long long max_bytes;              /* the two tables' slots at most, growths included; < 0: none */
    struct timespec started;
    long long next_check;
    jmp_buf abort;
    /* The search runs without the GIL, so that the status line's thread draws while it
     * works; held again only to look for a signal (Ctrl-C) at each budget check. */
    PyThreadState *unlocked;
    int exhausted;
    /* tables: the transposition table, and the deviations tried per state in the rounds
     * of limited discrepancy search (Python's `tried`), each capped at max_table entries */
    Table table, tried;
    int lds_rounds, first_pass_moves, level_probes;  /* the schedule (solver/search.py's SearchSettings) */
    int replace_when_full;            /* a table at its cap replaces entries instead of ending the search */
    int keep_whole_refutations;       /* what a round of find_win refuted whole goes into `table` */
    int at_least;                     /* the probes start here: below it, only that nothing reaches it */
    int below_floor;                  /* the complete probes refuted at_least above the best line */
    /* stats */
    long long states, table_hits;
    long long cuts;                   /* find_win's rounds: the moves and subtrees left out so far */
    int max_depth;
    /* lines */
    Move path[MAX_DEPTH];
    Move best_line[MAX_DEPTH];
    int best_len;
    int best_score;                   /* SCORE_NONE: none yet */
    int best_won;
    int proved_lost;                  /* optimal mode: the complete win search found none */
    int level;                        /* what find_win looks for: a line scoring this much */
    int win_len, win_score;
    int narrowed;                     /* value(): moves searched per position in the first pass (0: all) */
    int plain_ceiling;                /* the plain baseline: the game's max_score (< 0: the pruned search) */
    Move moves[MAX_DEPTH][MAX_MOVES];
    int bounds[MAX_DEPTH][MAX_MOVES];
    State children[MAX_DEPTH][MAX_MOVES];
} Search;

static void exceed(Search *x, int why) {
    x->exhausted = why;
    longjmp(x->abort, 1);
}

/* ----- transposition table ---------------------------------------------------------- */
static inline int slot_used(const Slot *slot) { return (SLOT_META(slot) & SLOT_USED) != 0; }

static inline int slot_value(const Slot *slot) {
    return (int)((SLOT_META(slot) >> SLOT_VALUE_SHIFT) & SLOT_VALUE_MASK) - VALUE_OFFSET;
}

/* Where key k's probe starts: its hash scaled to the capacity (any capacity, so that a table
 * can grow by less than double to use what is left of its byte budget). */
static inline u64 home_slot(const Table *t, const Slot *k) {
    return (u64)(((unsigned __int128)hash_key(k) * t->capacity) >> 64);
}

static inline u64 next_slot(const Table *t, u64 i) { return i + 1 == t->capacity ? 0 : i + 1; }

/* How far slot i lies past slot home, going round the end. */
static inline u64 slots_past(const Table *t, u64 home, u64 i) { return i >= home ? i - home : i + t->capacity - home; }

/* What find_slot returns for a key absent from a full window: unused, and never written. */
static Slot NO_SLOT;

/* find_slot once the table replaces entries: its probe ends at the window's end. */
static Slot *find_slot_in_window(const Table *t, const Slot *k) {
    u64 i = home_slot(t, k);
    for (u64 n = 0; n < t->window; n++) {
        Slot *slot = &t->slots[i];
        if (!slot_used(slot) || same_key(slot, k)) return slot;
        i = next_slot(t, i);
    }
    return &NO_SLOT;
}

/* The slot holding key k, or the empty slot where it would go (NO_SLOT: none in its window).
 * Slots are never emptied, so the first empty slot ends a probe even while replacing. */
static inline Slot *find_slot(const Table *t, const Slot *k) {
    if (t->replacing) return find_slot_in_window(t, k);
    u64 i = home_slot(t, k);
    for (;;) {
        Slot *slot = &t->slots[i];
        if (!slot_used(slot)) return slot;
        if (same_key(slot, k)) return slot;
        i = next_slot(t, i);
    }
}

static Slot *new_slots(u64 capacity) { return table_memory(capacity * sizeof(Slot)); }

static int table_init(Table *t, long long cap) {
    t->capacity = INITIAL_CAPACITY;
    t->replacing = 0;
    t->count = 0;
    t->cap = cap;
    t->slots = new_slots(t->capacity);
    return t->slots ? 0 : -1;
}

/* The fewest slots a key's probe visits once the table replaces entries: the victims of its
 * keys spread over that many slots. */
#define REPLACE_WINDOW 16

/* The table stops growing: from now on a probe visits at most `window` slots, as far as any
 * key already in it lies from its home (so none is lost), and at least REPLACE_WINDOW. */
static void start_replacing(Table *t) {
    u64 widest = 0;
    for (u64 i = 0; i < t->capacity; i++) {
        if (!slot_used(&t->slots[i])) continue;
        Slot k = t->slots[i];
        SLOT_META(&k) &= SLOT_KEY_MASK;
        u64 distance = slots_past(t, home_slot(t, &k), i);
        if (distance + 1 > widest) widest = distance + 1;
    }
    t->window = widest > REPLACE_WINDOW ? widest : REPLACE_WINDOW;
    if (t->window > t->capacity) t->window = t->capacity;
    t->replacing = 1;
}

/* The entry a new key k replaces: one of the slots its probe visits before `end` (the first
 * empty slot, or NO_SLOT: the window's end), chosen by the count of states so far; NULL when
 * there is none (k is then not stored).  Any entry may go: the search only loses what it knew. */
static Slot *victim_slot(const Search *x, const Table *t, const Slot *k, const Slot *end) {
    u64 home = home_slot(t, k);
    u64 span = end == &NO_SLOT ? t->window : slots_past(t, home, (u64)(end - t->slots));
    if (span == 0) return NULL;
    u64 i = home + (u64)x->states % span;
    return &t->slots[i >= t->capacity ? i - t->capacity : i];
}

static inline void prefetch_slot(const Table *t, const Slot *k) {
    __builtin_prefetch(&t->slots[home_slot(t, k)]);
}

/* The capacity table t may grow to: double, or where the byte budget is short of that, as
 * many slots as it leaves while t's old slots and the other table's still live (the peak of
 * a growth); 0 when that is under a quarter more (the table is full). */
static u64 grown_capacity(const Search *x, const Table *t) {
    u64 doubled = t->capacity * 2;
    if (x->max_bytes < 0) return doubled;
    u64 in_use = (x->table.capacity + x->tried.capacity) * sizeof(Slot);
    u64 fit = (u64)x->max_bytes > in_use ? ((u64)x->max_bytes - in_use) / sizeof(Slot) : 0;
    u64 capacity = fit < doubled ? fit : doubled;
    return capacity >= t->capacity + t->capacity / 4 ? capacity : 0;
}

static void grow(Search *x, Table *t, u64 capacity) {
    u64 old_capacity = t->capacity;
    Slot *old = t->slots;
    Slot *slots = new_slots(capacity);
    if (!slots) exceed(x, EXHAUSTED_MEMORY);
    t->slots = slots;
    t->capacity = capacity;
    for (u64 i = 0; i < old_capacity; i++) {
        if (slot_used(&old[i])) {
            Slot k = old[i];
            SLOT_META(&k) &= SLOT_KEY_MASK;
            *find_slot(t, &k) = old[i];
        }
    }
    free(old);
}

/* Python's _store / _remember: a new key beyond the cap (entries, or a table 70 % full that
 * the byte budget does not let grow) ends the search, or with replace_when_full the table
 * stops growing and replaces entries. */
static void store(Search *x, Table *t, const Slot *k, int value, int exact) {
    Slot *slot = find_slot(t, k);
    if (!slot_used(slot)) {
        if (!t->replacing) {
            int full = 0;
            if (t->cap >= 0 && (long long)t->count >= t->cap) {
                full = EXHAUSTED_TABLE;
            } else if ((t->count + 1) * 10 > t->capacity * 7) {
                u64 capacity = grown_capacity(x, t);
                if (capacity) {
                    grow(x, t, capacity);
                    slot = find_slot(t, k);
                } else {
                    full = EXHAUSTED_MEMORY_CAP;
                }
            }
            if (full) {
                if (!x->replace_when_full) exceed(x, full);
                start_replacing(t);
                slot = find_slot(t, k);
            }
        }
        if (t->replacing) {  /* at the cap: the count stays */
            slot = victim_slot(x, t, k, slot);
            if (!slot) return;
        } else {
            t->count++;
        }
    }
    *slot = *k;
    SLOT_META(slot) |= SLOT_USED | (exact ? SLOT_EXACT : 0) | (u64)(value + VALUE_OFFSET) << SLOT_VALUE_SHIFT;
}

/* Empty the table (RESET_SHRINKS: its memory goes back to the initial size). */
static void reset_table(Search *x, Table *t) {
    if (RESET_SHRINKS && t->capacity > INITIAL_CAPACITY) {
        free(t->slots);
        t->slots = NULL;
        if (table_init(t, t->cap) < 0) exceed(x, EXHAUSTED_MEMORY);
    } else {
        memset(t->slots, 0, t->capacity * sizeof(Slot));
        t->count = 0;
        t->replacing = 0;
    }
}

/* ----- bookkeeping ------------------------------------------------------------------ */
static double elapsed(const Search *x) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - x->started.tv_sec) + 1e-9 * (double)(now.tv_nsec - x->started.tv_nsec);
}

static inline void count_state(Search *x, int depth) {
    x->states++;
    if (depth > x->max_depth) x->max_depth = depth;
    if (x->max_states >= 0 && x->states > x->max_states) exceed(x, EXHAUSTED_STATES);
    if (x->states >= x->next_check) {
        x->next_check += BUDGET_CHECK_EVERY;
        if (x->time_limit >= 0 && elapsed(x) > x->time_limit) exceed(x, EXHAUSTED_TIME);
        PyEval_RestoreThread(x->unlocked);
        int interrupted = PyErr_CheckSignals() < 0;
        x->unlocked = PyEval_SaveThread();
        if (interrupted) exceed(x, EXHAUSTED_SIGNAL);
    }
}

static inline void note_terminal(Search *x, int score, int won, int depth) {
    if (x->best_score == SCORE_NONE || score > x->best_score) {
        x->best_score = score;
        x->best_won = won;
        x->best_len = depth;
        memcpy(x->best_line, x->path, (size_t)depth * sizeof(Move));
    }
}

static inline int is_terminal(const Ctx *c, const State *s) {
    return s->status != PLAYING || !has_move(c, s);
}

/* ----- search ----------------------------------------------------------------------- */
/* find_win: 1 when a win is reachable (x->path then holds the moves to it).  With
 * allowed >= 0 only the lines that leave the move order at most `allowed` times are
 * searched (one round of limited discrepancy search), remembered in `tried` with the
 * discrepancies they had, or (keep_whole_refutations) in `table` where the round left out
 * no move below (x->cuts did not move); with allowed = COMPLETE, the complete search,
 * remembered in `table`.  As find_win in solver/search.py. */
#define COMPLETE (-1)
/* _reaching: the moves (in order) whose move bound reaches the level sought. */
static inline int moves_reaching(Search *x, const State *s, Move *moves, int depth) {
    int *bounds = x->bounds[depth], kept = 0, cut;
    int n = bounded_moves(x->game, s, moves, bounds, depth == 0, x->level - 1, &cut);
    for (int i = 0; i < n; i++)
        if (bounds[i] >= x->level) moves[kept++] = moves[i];
    return kept;
}

/* find_win at a node it counts: 1 when the node itself reaches the level sought (a
 * terminal scoring that much, noted as a terminal either way, or a non-terminal whose
 * score the game guarantees), with win_len and win_score set. */
static inline int reaches_level(Search *x, const State *s, int depth, int terminal) {
    if (terminal) {
        int score = terminal_score(x->game, s);
        note_terminal(x, score, s->status == FINISHED_WON, depth);
        if (score < x->level) return 0;
        x->win_len = depth;
        x->win_score = score;        /* at a win's level: a win */
        return 1;
    }
    if (guaranteed_score(x->game, s) < x->level) return 0;
    x->win_len = depth;
    x->win_score = SCORE_NONE;        /* the line goes on: complete_line */
    return 1;
}

static int find_win(Search *x, const State *s, int depth, int allowed) {
    const Ctx *c = x->game;
    int complete = allowed == COMPLETE, keep = x->keep_whole_refutations;
    Slot k = pack(c, s);
    if ((complete || keep) && slot_used(find_slot(&x->table, &k))) {
        x->table_hits++;
        return 0;
    }
    if (!complete) {
        Slot *slot = find_slot(&x->tried, &k);
        if (slot_used(slot) && slot_value(slot) >= allowed) {
            x->table_hits++;
            x->cuts++;
            return 0;
        }
    }
    count_state(x, depth);
    long long cuts = x->cuts;
    int open = 0, terminal = is_terminal(c, s);
    if (reaches_level(x, s, depth, terminal)) return 1;
    if (!terminal && (x->level >= c->lowest_win_score ? can_still_win(c, s) : loss_can_reach(c, s, x->level))) {
        open = 1;
        if (depth >= MAX_DEPTH) exceed(x, EXHAUSTED_MEMORY);
        Move *moves = x->moves[depth];
        State *children = x->children[depth];
        int n = moves_reaching(x, s, moves, depth), made = 0;
        if (!complete && !allowed && n > 1) {
            n = 1;
            x->cuts++;
        }
        for (int i = 0; i < n; i++) {
            while (made < n && made <= i + PREFETCH_AHEAD) {  /* as in value() */
                children[made] = apply_move(c, s, moves[made]);
                Slot ck = pack(c, &children[made]);
                if (complete || keep) prefetch_slot(&x->table, &ck);
                if (!complete) prefetch_slot(&x->tried, &ck);
                made++;
            }
            x->path[depth] = moves[i];
            if (find_win(x, &children[i], depth + 1, complete ? COMPLETE : allowed - (i > 0))) return 1;
        }
    }
    /* A subtree that a round searched without leaving out a move is refuted for good. */
    if (complete || (keep && x->cuts == cuts))
        store(x, &x->table, &k, 0, 1);
    else
        store(x, &x->tried, &k, open ? allowed : x->lds_rounds, 1);  /* kept: cuts moved, so open */
    return 0;
}

/* search_win: a few rounds of limited discrepancy search, then the complete find_win. */
static int search_win(Search *x, const State *root) {
    for (int allowed = 0; allowed < x->lds_rounds; allowed++) {
        reset_table(x, &x->tried);
        if (find_win(x, root, 0, allowed)) return 1;
    }
    reset_table(x, &x->tried);
    return find_win(x, root, 0, COMPLETE);
}

/* value() at a terminal state: its score noted (the best line) and stored exact. */
static inline int valued_terminal(Search *x, const State *s, const Slot *k, int depth, int *score) {
    if (!is_terminal(x->game, s)) return 0;
    *score = terminal_score(x->game, s);
    note_terminal(x, *score, s->status == FINISHED_WON, depth);
    store(x, &x->table, k, *score, 1);
    return 1;
}

static int value(Search *x, const State *s, int floor, int depth, int enough) {
    const Ctx *c = x->game;
    if (x->best_score != SCORE_NONE && x->best_score > floor) floor = x->best_score;
    Slot k = pack(c, s);
    Slot *slot = find_slot(&x->table, &k);
    if (slot_used(slot)) {
        int known = slot_value(slot);
        if ((SLOT_META(slot) & SLOT_EXACT) || known <= floor) {
            x->table_hits++;
            return known;
        }
    }
    count_state(x, depth);
    int score;
    if (valued_terminal(x, s, &k, depth, &score)) return score;
    int ceiling = upper_bound(c, s);
    if (ceiling <= floor) {
        store(x, &x->table, &k, ceiling, 0);
        return ceiling;
    }
    if (!may_exceed(c, s, floor, ceiling)) {
        store(x, &x->table, &k, floor, 0);  /* an upper bound at the floor: fail-low */
        return floor;
    }
    int best;
    if (depth >= MAX_DEPTH) exceed(x, EXHAUSTED_MEMORY);
    Move *moves = x->moves[depth];
    int *bounds = x->bounds[depth];
    /* A move whose own bound cannot beat the bar is not played: its bound stands in for
     * its child's value.  Those that cannot beat the floor are dropped here, before any
     * child is made (the same nodes as checking each in the loop, as Python does: what
     * they fold into best stays at or below the floor; bounded_moves lists only those its
     * first test lets past the floor, best starting at the greatest bound of the others);
     * the loop checks the others against the bar as it rises. */
    int n = bounded_moves(c, s, moves, bounds, depth == 0, floor, &best), kept = 0;
    for (int i = 0; i < n; i++) {
        if (bounds[i] > floor) {
            moves[kept] = moves[i];
            bounds[kept++] = bounds[i];
        } else if (bounds[i] > best) {
            best = bounds[i];
        }
    }
    n = kept;
    if (x->narrowed && n > x->narrowed) n = x->narrowed;  /* the first pass (first_pass) */
    /* Children are made PREFETCH_AHEAD moves in advance and their table slots prefetched,
     * so the memory latency of the probes overlaps the search of the earlier siblings. */
    State *children = x->children[depth];
    int made = 0;
    for (int i = 0; i < n; i++) {
        while (made < n && made <= i + PREFETCH_AHEAD) {
            children[made] = apply_move(c, s, moves[made]);
            Slot ck = pack(c, &children[made]);
            prefetch_slot(&x->table, &ck);
            made++;
        }
        int bar = floor > best ? floor : best, got;
        if (x->best_score != SCORE_NONE && x->best_score > bar) bar = x->best_score;
        if (bounds[i] <= bar) {
            got = bounds[i];
        } else {
            x->path[depth] = moves[i];
            got = value(x, &children[i], floor > best ? floor : best, depth + 1, enough);
        }
        if (got > best) {
            best = got;
            if (best >= enough) return best;  /* a lower bound: not stored */
            if (best >= ceiling) break;
        }
    }
    if (x->best_score != SCORE_NONE && x->best_score > floor) floor = x->best_score;
    store(x, &x->table, &k, best, best > floor);
    return best;
}

/* _completed and _note_terminal_line: the line x->path[0..win_len) played on by the
 * first move in the search order until the game ends, noted as a terminal line. */
static void complete_line(Search *x, const State *root) {
    const Ctx *c = x->game;
    State s = *root;
    int depth;
    for (depth = 0; depth < x->win_len; depth++) s = apply_move(c, &s, x->path[depth]);
    while (!is_terminal(c, &s)) {
        if (depth >= MAX_DEPTH) exceed(x, EXHAUSTED_MEMORY);
        ordered_moves(c, &s, x->moves[depth], depth == 0);
        x->path[depth] = x->moves[depth][0];
        s = apply_move(c, &s, x->path[depth++]);
    }
    note_terminal(x, terminal_score(c, &s), s.status == FINISHED_WON, depth);
}

/* _note_below_floor: the complete probes proved nothing scores above `proven`; above the
 * best line, the floor (at_least) skipped the best line's proof. */
static void note_below_floor(Search *x, int proven) {
    x->below_floor = proven > (x->best_score == SCORE_NONE ? -1 : x->best_score);
}

/* _probe_levels: a lost deal's optimum; levels go up from one above the best loss seen,
 * each reached one raising the best, until one is refuted (the table of refutations is
 * kept: refuted at a level, refuted at every higher one). */
static void probe_levels(Search *x, const State *root, int top) {
    int level = x->best_score == SCORE_NONE ? 0 : x->best_score + 1;
    if (level < x->at_least) level = x->at_least;
    while (level <= top) {
        x->level = level;
        if (!search_win(x, root)) break;
        complete_line(x, root);
        level = x->best_score + 1;
    }
    note_below_floor(x, level - 1 < top ? level - 1 : top);
}

/* _probe_values: probes one above the best line found (or from at_least), up to an upper
 * bound. */
static void probe_values(Search *x, const State *root, int top) {
    int low = x->best_score == SCORE_NONE ? -1 : x->best_score;
    if (low < x->at_least - 1) low = x->at_least - 1;
    int high = top > low ? top : low;
    while (low < high) {
        int target = low + 1;
        int found = value(x, root, target - 1, 0, target);
        if (found >= target) {
            low = x->best_score;  /* the line that reached the target was noted */
            if (x->best_score == SCORE_NONE || low < target) exceed(x, EXHAUSTED_INTERNAL);
        } else {
            break;  /* nothing beats the best line: it is optimal */
        }
    }
    if (!x->narrowed) note_below_floor(x, low < top ? low : top);
}

/* _first_pass: a won deal's value probes over the first first_pass_moves moves of each
 * position whose bound passes the floor; the line found stays, the table (whose
 * refutations hold only in that narrowed tree) is emptied. */
static void first_pass(Search *x, const State *root, int top) {
    if (!x->first_pass_moves) return;
    x->narrowed = x->first_pass_moves;
    probe_values(x, root, top);
    x->narrowed = 0;
    reset_table(x, &x->table);
}

/* run_optimal with bounds on: a first win as incumbent, then probes (a won deal's
 * first over a narrowed tree). */
static void run_optimal(Search *x, const State *root) {
    const Ctx *c = x->game;
    int won = search_win(x, root);
    x->proved_lost = !won;
    /* _note_terminal_line: the winning terminal was already noted with this path */
    if (won && (x->best_score == SCORE_NONE || x->win_score > x->best_score)) {
        x->best_score = x->win_score;
        x->best_won = 1;
        x->best_len = x->win_len;
        memcpy(x->best_line, x->path, (size_t)x->win_len * sizeof(Move));
    }
    reset_table(x, &x->table);
    int target = root->status != PLAYING ? terminal_score(c, root) : upper_bound(c, root);
    if (!won && target > c->lowest_win_score - 1) target = c->lowest_win_score - 1;
    if (!won && x->level_probes) {
        probe_levels(x, root, target);
        return;
    }
    if (won) first_pass(x, root, target);
    probe_values(x, root, target);
}

/* ----- the plain baseline ----------------------------------------------------------- */
/* Engine "plain" of solver/search.py, node for node: depth-first search with the table and
 * nothing else (no bound, no order, no quick-win rounds), every legal move in rule order
 * (the game's legal_moves hook), every value exact.  It is the baseline the pruned search
 * is measured against, compiled so that the side-by-side runs reach far enough for the
 * ratio to mean something.  A game offers it by defining PLAIN_LEGAL_MOVES and
 *   int legal_moves(const Ctx *, const State *, Move *out)   legal_moves, in its order */
#ifdef PLAIN_LEGAL_MOVES
/* find_win without bounds (allowed = None, bounded = False). */
static int plain_win(Search *x, const State *s, int depth) {
    const Ctx *c = x->game;
    Slot k = pack(c, s);
    if (slot_used(find_slot(&x->table, &k))) {
        x->table_hits++;
        return 0;
    }
    count_state(x, depth);
    int terminal = is_terminal(c, s);
    if (reaches_level(x, s, depth, terminal)) return 1;
    if (!terminal) {
        if (depth >= MAX_DEPTH) exceed(x, EXHAUSTED_MEMORY);
        Move *moves = x->moves[depth];
        int n = legal_moves(c, s, moves);
        for (int i = 0; i < n; i++) {
            State child = apply_move(c, s, moves[i]);
            x->path[depth] = moves[i];
            if (plain_win(x, &child, depth + 1)) return 1;
        }
    }
    store(x, &x->table, &k, 0, 1);
    return 0;
}

/* value() without bounds: the exact value; siblings stop only at the game's max_score. */
static int plain_value(Search *x, const State *s, int depth) {
    const Ctx *c = x->game;
    Slot k = pack(c, s);
    Slot *slot = find_slot(&x->table, &k);
    if (slot_used(slot)) {
        x->table_hits++;
        return slot_value(slot);
    }
    count_state(x, depth);
    int score;
    if (valued_terminal(x, s, &k, depth, &score)) return score;
    if (depth >= MAX_DEPTH) exceed(x, EXHAUSTED_MEMORY);
    Move *moves = x->moves[depth];
    int n = legal_moves(c, s, moves), best = -1;
    for (int i = 0; i < n; i++) {
        State child = apply_move(c, s, moves[i]);
        x->path[depth] = moves[i];
        int got = plain_value(x, &child, depth + 1);
        if (got > best) {
            best = got;
            if (best >= x->plain_ceiling) break;
        }
    }
    store(x, &x->table, &k, best, 1);
    return best;
}
#endif

/* ----- Python interface ------------------------------------------------------------- */
/* solve()'s mode: 1 optimal, 0 winnable, -1 with a Python exception set. */
static int parse_mode(const char *mode) {
    if (strcmp(mode, "optimal") == 0) return 1;
    if (strcmp(mode, "winnable") == 0) return 0;
    PyErr_Format(PyExc_ValueError, "unknown mode %s", mode);
    return -1;
}

static PyObject *score_object(int score) {
    if (score == SCORE_NONE) Py_RETURN_NONE;
    return PyLong_FromLong(score);
}

/* ----- named structures from Python ------------------------------------------------
 * Everything a solve() call receives is a named structure (the game's tables, its
 * position, games/base.py's CompiledLimits and Schedule), read by field name with
 * _fields.h's helpers. */
/* games/base.py's Schedule, by name: how the solver schedules the search. */
static int read_schedule(PyObject *limits, Schedule *out) {
    PyObject *schedule = field(limits, "schedule");
    if (!schedule) return -1;
    int bad = field_int(schedule, "lds_rounds", &out->lds_rounds) < 0
        || field_int(schedule, "first_pass_moves", &out->first_pass_moves) < 0
        || field_bool(schedule, "level_probes", &out->level_probes) < 0
        || field_bool(schedule, "replace_when_full", &out->replace_when_full) < 0
        || field_bool(schedule, "keep_whole_refutations", &out->keep_whole_refutations) < 0
        || field_int(limits, "at_least", &out->at_least) < 0;
    Py_DECREF(schedule);
    return bad ? -1 : 0;
}

/* The rest of solve() once the game has read its position and tables: the budgets and the
 * schedule of `limits` (games/base.py's CompiledLimits: time_limit, max_states, max_table,
 * max_bytes, None for no limit; schedule; at_least; plain), the search (with `plain` the
 * plain baseline, whose ceiling is the game's `max_score`), and the result (verdict, score,
 * line, line_score, states, table_hits, unique, max_depth, exhausted).  NULL with a Python
 * exception set. */
static PyObject *solve_position(const Ctx *game, const State *root, int optimal, PyObject *limits, int max_score) {
    Search *x = calloc(1, sizeof(Search));
    if (!x) return PyErr_NoMemory();
    x->game = game;
    PyObject *result = NULL;

    Schedule schedule;
    long long max_table;
    int plain;
    if (field_seconds(limits, "time_limit", &x->time_limit) < 0 || field_limit(limits, "max_states", &x->max_states) < 0
        || field_limit(limits, "max_table", &max_table) < 0 || field_limit(limits, "max_bytes", &x->max_bytes) < 0
        || read_schedule(limits, &schedule) < 0 || field_bool(limits, "plain", &plain) < 0)
        goto done;
    int plain_ceiling = plain ? max_score : -1;
    if (schedule.lds_rounds < 0 || schedule.first_pass_moves < 0) {
        PyErr_SetString(PyExc_ValueError, "lds_rounds and first_pass_moves must be >= 0");
        goto done;
    }
    x->lds_rounds = schedule.lds_rounds;
    x->first_pass_moves = schedule.first_pass_moves;
    x->level_probes = schedule.level_probes;
    x->replace_when_full = schedule.replace_when_full;
    x->keep_whole_refutations = schedule.keep_whole_refutations;
    x->at_least = schedule.at_least;
    x->plain_ceiling = plain_ceiling;
#ifndef PLAIN_LEGAL_MOVES
    if (plain_ceiling >= 0) {
        PyErr_SetString(PyExc_ValueError, "this game has no compiled plain search");
        goto done;
    }
#endif
    if (table_init(&x->table, max_table) < 0 || table_init(&x->tried, max_table) < 0) { PyErr_NoMemory(); goto done; }
    x->best_score = SCORE_NONE;
    x->level = game->lowest_win_score;
    x->next_check = BUDGET_CHECK_EVERY;
    clock_gettime(CLOCK_MONOTONIC, &x->started);

    volatile int won = 0;
    x->unlocked = PyEval_SaveThread();  /* every way out of the search comes back below */
    if (setjmp(x->abort) == 0) {
#ifdef PLAIN_LEGAL_MOVES
        if (plain_ceiling >= 0) {
            if (optimal) plain_value(x, root, 0);
            else won = plain_win(x, root, 0);
        } else
#endif
        if (optimal) run_optimal(x, root);
        else won = search_win(x, root);
    }
    PyEval_RestoreThread(x->unlocked);
    if (x->exhausted == EXHAUSTED_SIGNAL) goto done;  /* the signal handler set the exception */
    if (x->exhausted == EXHAUSTED_INTERNAL) {
        PyErr_SetString(PyExc_RuntimeError, "a probe reached its target without a line to it");
        goto done;
    }

    const char *verdict, *why = "";
    PyObject *line;
    int score = SCORE_NONE, line_score;
    if (x->exhausted) {
        verdict = x->best_score != SCORE_NONE && x->best_won ? "WON" : x->proved_lost ? "LOST" : "UNDECIDED";
        why = x->exhausted == EXHAUSTED_STATES ? "states" : x->exhausted == EXHAUSTED_TIME ? "time"
            : x->exhausted == EXHAUSTED_TABLE ? "table" : x->exhausted == EXHAUSTED_MEMORY_CAP ? "memory cap"
            : "memory";
        line = line_list(game, x->best_line, x->best_len);
        line_score = x->best_score;
    } else if (optimal) {
        verdict = x->best_won ? "WON" : "LOST";
        line_score = x->best_score;
        if (!x->below_floor) score = x->best_score;
        line = line_list(game, x->best_line, x->best_len);
    } else if (won) {
        verdict = "WON";
        line = line_list(game, x->path, x->win_len);
        line_score = x->win_score;
    } else {
        verdict = "LOST";
        line = line_list(game, x->best_line, x->best_len);
        line_score = x->best_score;
    }
    if (!line) goto done;
    result = Py_BuildValue("(sNNNLLKis)", verdict, score_object(score), line, score_object(line_score),
                           x->states, x->table_hits, (unsigned long long)x->table.count, x->max_depth, why);

done:
    free(x->table.slots);
    free(x->tried.slots);
    free(x);
    return result;
}

#endif /* SEARCH_CORE_H */
