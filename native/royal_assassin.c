/* native/royal_assassin.c: the extension games.royal_assassin._core, composed.
 *
 *   games/royal_assassin/_core.c   Royal Assassin's rules, bounds and table key (State, Move,
 *                                  Slot, Ctx, hooks)
 *   line_list below                a line as the Python side's moves, the skeleton's one Python hook
 *   solver/_search_core.h          the "pruned" search over those hooks
 *   below                          the Python binding: solve() and key()
 *
 * The search is node for node solver/search.py's engine "pruned" over
 * games/royal_assassin/rules.py and bounds.py: the tests compare verdicts, scores, lines and
 * the state, hit, table and depth counts.  Moves go back to Python as their names (the
 * move_names of the tables).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../games/royal_assassin/_core.c"

/* A line for Python: a list of move names. */
static PyObject *line_list(const Ctx *c, const Move *line, int len) {
    PyObject *list = PyList_New(len);
    if (!list) return NULL;
    for (int i = 0; i < len; i++) {
        PyObject *name = PyTuple_GET_ITEM((PyObject *)c->names, line[i]);
        Py_INCREF(name);
        PyList_SET_ITEM(list, i, name);
    }
    return list;
}

#include "../solver/_search_core.h"

/* ----- the Python binding --------------------------------------------------------------- */
static int read_ints(PyObject *seq, int *out, int expected_min, int limit, int *n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > limit || len < expected_min) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd items, expected %d to %d", what, len, expected_min, limit);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)v;
    }
    if (n) *n = (int)len;
    Py_DECREF(fast);
    return 0;
}

/* The position and the tables into c and *root_out; -1 with a Python exception set. */
static int read_position(Ctx *c, State *root_out, PyObject *stock_obj, int pos,
                         PyObject *reserve_obj, PyObject *columns_obj, PyObject *locks_obj, int jokers_on,
                         int available, int turned, int redeal_blocked, int status, PyObject *tables) {
    PyObject *names = NULL;
    State root;
    memset(&root, 0, sizeof root);
    int ncards = 0;
    if (read_ints(stock_obj, c->stock, 0, MAX_STOCK - 6, &c->size, "stock") < 0) return -1;
    {
        PyObject *kind_o, *suit_o, *landing_o, *resting_o, *side_o, *rcode_o, *rvalue_o, *colour_o, *opp_o;
        if (!PyArg_ParseTuple(tables, "O!OOOOOOOOOiipppp", &PyTuple_Type, &names, &kind_o, &suit_o, &landing_o,
                              &resting_o, &side_o, &rcode_o, &rvalue_o, &colour_o, &opp_o, &c->max_score,
                              &c->lowest_win_score, &c->eq_only, &c->joker_dies, &c->royal_beneath,
                              &c->two_jokers))
            return -1;
        if (PyTuple_GET_SIZE(names) != NMOVE_NAMES) {
            PyErr_SetString(PyExc_ValueError, "move_names: 24 names expected");
            return -1;
        }
        for (int i = 0; i < NMOVE_NAMES; i++) {
            if (!PyUnicode_Check(PyTuple_GET_ITEM(names, i))) {
                PyErr_SetString(PyExc_ValueError, "move_names: strings expected");
                return -1;
            }
        }
        int rv[16], opp[8];
        if (read_ints(kind_o, c->kind, 1, MAX_CARD_IDS, &ncards, "kind") < 0 ||
            read_ints(suit_o, c->suit, ncards, ncards, NULL, "suit") < 0 ||
            read_ints(landing_o, c->landing, ncards, ncards, NULL, "landing") < 0 ||
            read_ints(resting_o, c->resting, ncards, ncards, NULL, "resting") < 0 ||
            read_ints(side_o, c->side, ncards, ncards, NULL, "side") < 0 ||
            read_ints(rcode_o, c->rcode, ncards, ncards, NULL, "rcode") < 0 ||
            read_ints(rvalue_o, rv, 16, 16, NULL, "royal_value") < 0 ||
            read_ints(colour_o, c->column_colour, 4, 4, NULL, "column_colour") < 0 ||
            read_ints(opp_o, opp, 8, 8, NULL, "opponents") < 0)
            return -1;
        for (int i = 0; i < 16; i++) c->royal_value[i / 4][i % 4] = rv[i];
        for (int i = 0; i < 8; i++) {
            if (opp[i] < 0 || opp[i] > 3) {
                PyErr_SetString(PyExc_ValueError, "opponents: columns 0..3 expected");
                return -1;
            }
            c->opp[i / 2][i % 2] = opp[i];
        }
        for (int i = 0; i < 4; i++) {
            if (c->column_colour[i] < 0 || c->column_colour[i] > 1) {
                PyErr_SetString(PyExc_ValueError, "column_colour: 0 or 1 expected");
                return -1;
            }
        }
        for (int card = 0; card < ncards; card++) {
            int kind = c->kind[card];
            if (kind < 0 || kind > 2 || (kind != KIND_JOKER && (c->suit[card] < 0 || c->suit[card] > 3)) ||
                (kind == KIND_NUMBER && (c->side[card] < 0 || c->side[card] > 1 || c->landing[card] < 0 ||
                                         c->resting[card] < 0 || c->landing[card] > 20 || c->resting[card] > 20)) ||
                (kind == KIND_ROYAL && (c->rcode[card] < 1 || c->rcode[card] > 3))) {
                PyErr_SetString(PyExc_ValueError, "bad card tables");
                return -1;
            }
        }
    }
    for (int i = 0; i < c->size; i++) {
        if (c->stock[i] < 0 || c->stock[i] >= ncards) {
            PyErr_SetString(PyExc_ValueError, "stock card id out of range");
            return -1;
        }
    }
    {
        unsigned long long mask = PyLong_AsUnsignedLongLong(reserve_obj);
        if (mask == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        root.reserve = mask;
        int locks[4];
        for (int i = 0; i < 4; i++) {
            PyObject *item = PySequence_GetItem(columns_obj, i);
            if (!item) return -1;
            unsigned long long w = PyLong_AsUnsignedLongLong(item);
            Py_DECREF(item);
            if (w == (unsigned long long)-1 && PyErr_Occurred()) return -1;
            int count = 0;
            while (count < 3 && (w >> (16 * count) & 3)) count++;
            if (w >> (16 * count)) {
                PyErr_SetString(PyExc_ValueError, "bad column word");
                return -1;
            }
            root.col[i] = w;
            root.n[i] = (uint8_t)count;
        }
        if (read_ints(locks_obj, locks, 4, 4, NULL, "locks") < 0) return -1;
        for (int i = 0; i < 4; i++) root.lock[i] = (int8_t)locks[i];
        if (pos < 0 || pos > c->size || (root.reserve >> pos) || turned < -1 || turned >= ncards ||
            (turned >= 0 && (pos == 0 || c->stock[pos - 1] != turned)) ||
            status < 0 || status > 2 || available < 0 || available > 3 || jokers_on < 0 || jokers_on > 15) {
            PyErr_SetString(PyExc_ValueError, "bad position");
            return -1;
        }
        root.pos = (uint8_t)pos;
        root.jokers_on = (uint8_t)jokers_on;
        root.available = (uint8_t)available;
        root.turned = (int8_t)turned;
        root.redeal_blocked = (uint8_t)(redeal_blocked != 0);
        root.status = (uint8_t)status;
    }
    prepare_tables(c);
    *root_out = root;
    c->names = names;
    return 0;
}

PyDoc_STRVAR(key_doc,
"key(stock, pos, reserve, columns, locks, jokers_on, available, turned, redeal_blocked, status, tables)\n"
"\n"
"The table key the search packs for this position (5 ints), for the tests of key equality.");

static PyObject *core_key(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *stock_obj, *reserve_obj, *columns_obj, *locks_obj, *tables;
    int pos, jokers_on, available, turned, redeal_blocked, status;
    if (!PyArg_ParseTuple(args, "OiOOOiiiiiO", &stock_obj, &pos, &reserve_obj, &columns_obj, &locks_obj,
                          &jokers_on, &available, &turned, &redeal_blocked, &status, &tables))
        return NULL;
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) return PyErr_NoMemory();
    State root;
    PyObject *result = NULL;
    if (read_position(c, &root, stock_obj, pos, reserve_obj, columns_obj, locks_obj, jokers_on, available, turned,
                      redeal_blocked, status, tables) == 0) {
        Slot k = pack(c, &root);
        result = Py_BuildValue("(KKKKK)", (unsigned long long)k.w[0], (unsigned long long)k.w[1],
                               (unsigned long long)k.w[2], (unsigned long long)k.w[3], (unsigned long long)k.w[4]);
    }
    free(c);
    return result;
}

PyDoc_STRVAR(solve_doc,
"solve(stock, pos, reserve, columns, locks, jokers_on, available, turned, redeal_blocked, status,\n"
"      tables, mode, time_limit, max_states, max_table, max_bytes, schedule)\n"
"\n"
"The Royal Assassin 'pruned' search, compiled.  stock: card ids top first; reserve: a bit\n"
"mask over stock indices; columns: 4 ints, each up to three 16-bit Royals bottom first\n"
"(code 1..3 | A << 2 | D << 9); locks: 4 suits or -1; turned: a card id or -1.\n"
"tables = (move_names, kind, suit, landing, resting, side, rcode, royal_value, column_colour,\n"
"opponents, max_score, lowest_win_score, discard_on_equal_only, joker_dies, royal_beneath,\n"
"two_jokers), the per-card sequences indexed by card id (kind 0 number, 1 Royal, 2 Joker),\n"
"royal_value 16 ints ([column * 4 + code]), opponents 8 ints (two columns per suit).\n"
"mode 'optimal' or 'winnable'; time_limit (seconds), max_states, max_table, max_bytes (the\n"
"tables' slots): None for no\n"
"limit; schedule: (lds_rounds, first_pass_moves, level_probes, replace_when_full,\n"
"keep_whole_refutations, at_least), games/base.py's CompiledLimits.plan (at_least: mode\n"
"'optimal' proves the optimum only where it reaches at_least, else returns score None).\n"
"\n"
"Returns (verdict, score, line, line_score, states, table_hits, unique, max_depth,\n"
"exhausted) with verdict 'WON', 'LOST' or 'UNDECIDED', line a list of move names and\n"
"exhausted '' or one of 'states', 'time', 'table', 'memory cap', 'memory'.");

static PyObject *core_solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *stock_obj, *reserve_obj, *columns_obj, *locks_obj, *tables, *time_obj, *states_obj, *table_obj, *bytes_obj;
    int pos, jokers_on, available, turned, redeal_blocked, status;
    Schedule schedule;
    const char *mode;
    if (!PyArg_ParseTuple(args, "OiOOOiiiiiOsOOOO(iiiiii)", &stock_obj, &pos, &reserve_obj, &columns_obj, &locks_obj,
                          &jokers_on, &available, &turned, &redeal_blocked, &status, &tables, &mode, &time_obj,
                          &states_obj, &table_obj, &bytes_obj, &schedule.lds_rounds, &schedule.first_pass_moves,
                          &schedule.level_probes, &schedule.replace_when_full, &schedule.keep_whole_refutations, &schedule.at_least))
        return NULL;
    int optimal = parse_mode(mode);
    if (optimal < 0) return NULL;

    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) return PyErr_NoMemory();
    PyObject *result = NULL;
    State root;

    if (read_position(c, &root, stock_obj, pos, reserve_obj, columns_obj, locks_obj, jokers_on, available, turned,
                      redeal_blocked, status, tables) == 0)
        result = solve_position(c, &root, optimal, time_obj, states_obj, table_obj, bytes_obj, schedule, -1);
    free(c);
    return result;
}

static PyMethodDef core_methods[] = {
    {"solve", core_solve, METH_VARARGS, solve_doc},
    {"key", core_key, METH_VARARGS, key_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core",
    "The Royal Assassin 'pruned' search compiled (see games/royal_assassin/bounds.py, RoyalAssassin.compiled_solve).",
    -1, core_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&core_module); }
