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

/* A named sequence field into out[]: u64 values, at most `limit`. */
static int field_u64_sequence(PyObject *obj, const char *name, u64 *out, int limit, int *n) {
    PyObject *value = field(obj, name);
    if (!value) return -1;
    int bad = read_u64_sequence(value, out, limit, n, name);
    Py_DECREF(value);
    return bad;
}

static int field_int_sequence(PyObject *obj, const char *name, int *out, int limit, int *n) {
    PyObject *value = field(obj, name);
    if (!value) return -1;
    int bad = read_int_sequence(value, out, limit, n, name);
    Py_DECREF(value);
    return bad;
}

/* The Hall suit groups: a sequence of (demand, touching, straddling) masks. */
static int read_groups(Ctx *c, PyObject *tables) {
    PyObject *value = field(tables, "groups");
    if (!value) return -1;
    PyObject *groups = PySequence_Fast(value, "groups");
    Py_DECREF(value);
    if (!groups) return -1;
    Py_ssize_t ng = PySequence_Fast_GET_SIZE(groups);
    if (ng > MAX_GROUPS) {
        Py_DECREF(groups);
        PyErr_SetString(PyExc_ValueError, "too many suit groups");
        return -1;
    }
    for (Py_ssize_t g = 0; g < ng; g++) {
        u64 triple[3];
        int n;
        if (read_u64_sequence(PySequence_Fast_GET_ITEM(groups, g), triple, 3, &n, "group") < 0 || n != 3) {
            Py_DECREF(groups);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a group is (demand, touching, straddling)");
            return -1;
        }
        c->g_demand[g] = triple[0];
        c->g_touching[g] = triple[1];
        c->g_straddling[g] = triple[2];
    }
    c->ngroups = (int)ng;
    Py_DECREF(groups);
    return 0;
}

/* games/adaman/compiled.py's AdamanTables, by field name, into c; *nrank the cards ranked. */
static int read_tables(Ctx *c, PyObject *tables, int *nrank) {
    int nshares, ntouch;
    if (field_int_sequence(tables, "rank", c->rank, MAX_CARDS, nrank) < 0
        || field_u64(tables, "personality_bits", &c->pers) < 0
        || field_u64_sequence(tables, "shares", c->shares, MAX_CARDS, &nshares) < 0
        || read_groups(c, tables) < 0
        || field_u64_sequence(tables, "touching_groups", c->touching_groups, MAX_CARDS, &ntouch) < 0
        || field_int_sequence(tables, "by_rank", c->by_rank, MAX_CARDS, &c->nby_rank) < 0
        || field_int(tables, "personality_total", &c->personality_total) < 0
        || field_int(tables, "lowest_win_score", &c->lowest_win_score) < 0
        || field_bool(tables, "minimal_payments", &c->minimal_payments) < 0
        || field_int(tables, "cover_gap", &c->cover_gap) < 0
        || field_int(tables, "cover_node_limit", &c->cover_node_limit) < 0
        || field_u64(tables, "excuse_bit", &c->excuse) < 0
        || field_int(tables, "max_score", &c->max_score) < 0
        || field_bool(tables, "excuse_fold", &c->excuse_fold) < 0)
        return -1;
    if (nshares != *nrank || ntouch != *nrank) {
        PyErr_SetString(PyExc_ValueError, "rank, shares and touching_groups differ in length");
        return -1;
    }
    if (c->excuse && ((c->excuse & (c->excuse - 1)) || lowest(c->excuse) >= *nrank || (c->excuse & c->pers))) {
        PyErr_SetString(PyExc_ValueError, "the Excuse is one card, no personality");
        return -1;
    }
    for (int i = 0; i < c->nby_rank; i++) {
        if (c->by_rank[i] < 0 || c->by_rank[i] >= *nrank) {
            PyErr_SetString(PyExc_ValueError, "by_rank card index out of range");
            return -1;
        }
    }
    return 0;
}

/* games/adaman/rules.py's AdamanState, by field name: the deck (its deal's cards), then the rows. */
static int read_position(Ctx *c, PyObject *state, State *root, int nrank) {
    PyObject *deal = field(state, "deal");
    if (!deal) return -1;
    int bad = field_int_sequence(deal, "cards", c->deck, MAX_CARDS, &c->size);
    Py_DECREF(deal);
    if (bad || field_int(state, "dealt", &root->dealt) < 0 || field_u64(state, "capital", &root->capital) < 0
        || field_u64(state, "resources", &root->resources) < 0 || field_u64(state, "palace", &root->palace) < 0
        || field_int(state, "status", &root->status) < 0)
        return -1;
    if (root->dealt < 0 || root->dealt > c->size || root->status < 0 || root->status > 2) {
        PyErr_SetString(PyExc_ValueError, "bad dealt count or status");
        return -1;
    }
    for (int i = 0; i < c->size; i++) {
        if (c->deck[i] < 0 || c->deck[i] >= nrank) {
            PyErr_SetString(PyExc_ValueError, "deck card index out of range");
            return -1;
        }
    }
    return 0;
}

PyDoc_STRVAR(solve_doc,
"solve(state, tables, mode, limits)\n"
"\n"
"The Adaman 'pruned' search, compiled.  state: an AdamanState (games/adaman/rules.py);\n"
"tables: an AdamanTables (games/adaman/compiled.py, which documents each field); mode\n"
"'optimal' or 'winnable'; limits: a CompiledLimits (games/base.py: the budgets, the solver's\n"
"schedule, at_least, and plain: the 'plain' search instead, every legal move in rule order\n"
"and no bound, node for node solver/search.py's engine 'plain').  Each is read by field name.\n"
"\n"
"Returns (verdict, score, line, line_score, states, table_hits, unique, max_depth,\n"
"exhausted) with verdict 'WON', 'LOST' or 'UNDECIDED', line a list of (target, payment)\n"
"and exhausted '' or one of 'states', 'time', 'table', 'memory cap', 'memory'.");

static PyObject *core_solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *tables, *limits;
    const char *mode;
    if (!PyArg_ParseTuple(args, "OOsO", &state, &tables, &mode, &limits)) return NULL;
    int optimal = parse_mode(mode);
    if (optimal < 0) return NULL;

    Ctx *c = ctx_new();
    if (!c) return PyErr_NoMemory();
    PyObject *result = NULL;
    State root;
    int nrank;
    if (read_tables(c, tables, &nrank) < 0 || read_position(c, state, &root, nrank) < 0) goto done;
    const char *problem = prepare_tables(c, nrank);
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        goto done;
    }
    result = solve_position(c, &root, optimal, limits, c->max_score);

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
