/* native/adaman.c: the extension games.adaman._core, composed.
 *
 *   games/adaman/_core.c       Adaman's rules, bounds and table key (State, Move, Slot, Ctx, hooks)
 *   line_list below            a line as the Python side's moves, the skeleton's one Python hook
 *   solver/_search_core.h      the "pruned" search (and the plain baseline) over those hooks
 *   below                      the Python binding: solve()
 *
 * The search is node for node solver/search.py's engine "pruned" over games/adaman/rules.py
 * and bounds.py (with the Excuse, under excuse_fold; otherwise its closer bounds answer the
 * same): the tests compare verdicts, scores, lines and the state, hit, table and depth
 * counts.  Moves go back to Python as (target, payment) pairs, an Excuse choice's
 * as (card, 0).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../games/adaman/_core.c"

/* A line for Python: a list of (target, payment). */
static PyObject *line_list(const Ctx *c, const Move *line, int len) {
    (void)c;
    PyObject *list = PyList_New(len);
    if (!list) return NULL;
    for (int i = 0; i < len; i++) {
        PyObject *move = Py_BuildValue("(iK)", line[i].target, (unsigned long long)line[i].payment);
        if (!move) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, move);
    }
    return list;
}

#include "../solver/_search_core.h"

/* ----- the Python binding ----------------------------------------------------------- */
static int read_u64(PyObject *obj, u64 *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = (u64)v;
    return 0;
}

static int read_u64_sequence(PyObject *seq, u64 *out, int limit, int *n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > limit) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd items, at most %d", what, len, limit);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        if (read_u64(PySequence_Fast_GET_ITEM(fast, i), &out[i]) < 0) { Py_DECREF(fast); return -1; }
    }
    *n = (int)len;
    Py_DECREF(fast);
    return 0;
}

/* Card indices and ranks are small non-negative ints: read as u64, then narrowed. */
static int read_int_sequence(PyObject *seq, int *out, int limit, int *n, const char *what) {
    u64 wide[MAX_CARDS];
    if (limit > MAX_CARDS) limit = MAX_CARDS;
    if (read_u64_sequence(seq, wide, limit, n, what) < 0) return -1;
    for (int i = 0; i < *n; i++) out[i] = (int)wide[i];
    return 0;
}

PyDoc_STRVAR(solve_doc,
"solve(deck, dealt, capital, resources, palace, status, tables, mode, time_limit, max_states, max_table,\n"
"      max_bytes, schedule, plain_ceiling)\n"
"\n"
"The Adaman 'pruned' search, compiled.  deck: card indices top first; the state as in\n"
"AdamanState; tables = (rank, personality_bits, shares, groups, touching_groups, by_rank,\n"
"personality_total, lowest_win_score[, minimal_payments, cover_gap, cover_node_limit, excuse_bit,\n"
"max_score, excuse_fold]) with groups a sequence of (demand, touching, straddling) masks,\n"
"touching_groups[i] a mask over group numbers, excuse_bit the Excuse's bit (0 without the\n"
"variant), max_score the game's (the bound of an Excuse choice's moves) and excuse_fold true for\n"
"bounds.py's bounds with the Excuse (the Capital's cards owned while it may act; else the\n"
"closer bounds of _core.c's excuse_gift); mode 'optimal' or 'winnable'; time_limit\n"
"(seconds), max_states, max_table, max_bytes (the tables' slots): None for no limit; schedule: (lds_rounds,\n"
"first_pass_moves, level_probes, replace_when_full, keep_whole_refutations, at_least),\n"
"games/base.py's CompiledLimits.plan (at_least: mode 'optimal' proves the optimum only where it\n"
"reaches at_least, else returns score None);\n"
"plain_ceiling >= 0 (the game's max_score): the 'plain' search instead, every legal move\n"
"in rule order and no bound, node for node solver/search.py's engine 'plain'.\n"
"\n"
"Returns (verdict, score, line, line_score, states, table_hits, unique, max_depth,\n"
"exhausted) with verdict 'WON', 'LOST' or 'UNDECIDED', line a list of (target, payment)\n"
"and exhausted '' or one of 'states', 'time', 'table', 'memory cap', 'memory'.");

static PyObject *core_solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *deck_obj, *capital_obj, *resources_obj, *palace_obj, *tables, *time_obj, *states_obj, *table_obj, *bytes_obj;
    int dealt, status, plain_ceiling;
    Schedule schedule;
    const char *mode;
    if (!PyArg_ParseTuple(args, "OiOOOiOsOOOO(iiiiii)i", &deck_obj, &dealt, &capital_obj, &resources_obj, &palace_obj,
                          &status, &tables, &mode, &time_obj, &states_obj, &table_obj, &bytes_obj,
                          &schedule.lds_rounds, &schedule.first_pass_moves, &schedule.level_probes,
                          &schedule.replace_when_full, &schedule.keep_whole_refutations, &schedule.at_least, &plain_ceiling))
        return NULL;
    int optimal = parse_mode(mode);
    if (optimal < 0) return NULL;

    Ctx *c = ctx_new();
    if (!c) return PyErr_NoMemory();
    PyObject *result = NULL;
    State root;
    int n, nrank;

    if (read_int_sequence(deck_obj, c->deck, MAX_CARDS, &c->size, "deck") < 0) goto done;
    if (read_u64(capital_obj, &root.capital) < 0 || read_u64(resources_obj, &root.resources) < 0 ||
        read_u64(palace_obj, &root.palace) < 0)
        goto done;
    root.dealt = dealt;
    root.status = status;
    if (dealt < 0 || dealt > c->size || status < 0 || status > 2) {
        PyErr_SetString(PyExc_ValueError, "bad dealt count or status");
        goto done;
    }
    {
        PyObject *rank_obj, *pers_obj, *shares_obj, *groups_obj, *touching_obj, *by_rank_obj;
        unsigned long long excuse = 0;
        if (!PyArg_ParseTuple(tables, "OOOOOOii|piiKip", &rank_obj, &pers_obj, &shares_obj, &groups_obj, &touching_obj,
                              &by_rank_obj, &c->personality_total, &c->lowest_win_score, &c->minimal_payments,
                              &c->cover_gap, &c->cover_node_limit, &excuse, &c->max_score,
                              &c->excuse_fold))
            goto done;
        c->excuse = (u64)excuse;
        int nshares, ntouch;
        if (read_int_sequence(rank_obj, c->rank, MAX_CARDS, &nrank, "rank") < 0) goto done;
        if (read_u64(pers_obj, &c->pers) < 0) goto done;
        if (read_u64_sequence(shares_obj, c->shares, MAX_CARDS, &nshares, "shares") < 0) goto done;
        if (read_u64_sequence(touching_obj, c->touching_groups, MAX_CARDS, &ntouch, "touching_groups") < 0)
            goto done;
        if (read_int_sequence(by_rank_obj, c->by_rank, MAX_CARDS, &c->nby_rank, "by_rank") < 0) goto done;
        if (nshares != nrank || ntouch != nrank) {
            PyErr_SetString(PyExc_ValueError, "rank, shares and touching_groups differ in length");
            goto done;
        }
        PyObject *groups = PySequence_Fast(groups_obj, "groups");
        if (!groups) goto done;
        Py_ssize_t ng = PySequence_Fast_GET_SIZE(groups);
        if (ng > MAX_GROUPS) {
            Py_DECREF(groups);
            PyErr_SetString(PyExc_ValueError, "too many suit groups");
            goto done;
        }
        for (Py_ssize_t g = 0; g < ng; g++) {
            u64 triple[3];
            if (read_u64_sequence(PySequence_Fast_GET_ITEM(groups, g), triple, 3, &n, "group") < 0 || n != 3) {
                Py_DECREF(groups);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a group is (demand, touching, straddling)");
                goto done;
            }
            c->g_demand[g] = triple[0];
            c->g_touching[g] = triple[1];
            c->g_straddling[g] = triple[2];
        }
        c->ngroups = (int)ng;
        Py_DECREF(groups);
        for (int i = 0; i < c->size; i++) {
            if (c->deck[i] < 0 || c->deck[i] >= nrank) {
                PyErr_SetString(PyExc_ValueError, "deck card index out of range");
                goto done;
            }
        }
        if (c->excuse && ((c->excuse & (c->excuse - 1)) || lowest(c->excuse) >= nrank || (c->excuse & c->pers))) {
            PyErr_SetString(PyExc_ValueError, "the Excuse is one card, no personality");
            goto done;
        }
        for (int i = 0; i < c->nby_rank; i++) {
            if (c->by_rank[i] < 0 || c->by_rank[i] >= nrank) {
                PyErr_SetString(PyExc_ValueError, "by_rank card index out of range");
                goto done;
            }
        }
    }
    const char *problem = prepare_tables(c, nrank);
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        goto done;
    }

    result = solve_position(c, &root, optimal, time_obj, states_obj, table_obj, bytes_obj, schedule, plain_ceiling);

done:
    ctx_free(c);
    return result;
}

static PyMethodDef core_methods[] = {
    {"solve", core_solve, METH_VARARGS, solve_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core",
    "The Adaman 'pruned' search compiled (see games/adaman/bounds.py, Adaman.compiled_solve).", -1, core_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&core_module); }
