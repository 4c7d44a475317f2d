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
/* games/royal_assassin/compiled.py's RoyalAssassinTables, by field name, into c; *ncards
 * the card ids described.  c->names borrows move_names, which `tables` keeps alive. */
static int read_tables(Ctx *c, PyObject *tables, int *ncards_out) {
    int ncards = 0;
    {
        PyObject *names = field(tables, "move_names");
        if (!names) return -1;
        Py_DECREF(names);  /* `tables` holds it for the whole call */
        if (!PyTuple_Check(names)) {
            PyErr_SetString(PyExc_TypeError, "move_names: a tuple expected");
            return -1;
        }
        if (field_int(tables, "max_score", &c->max_score) < 0
            || field_int(tables, "lowest_win_score", &c->lowest_win_score) < 0
            || field_bool(tables, "discard_on_equal_only", &c->eq_only) < 0
            || field_bool(tables, "joker_dies", &c->joker_dies) < 0
            || field_bool(tables, "royal_beneath", &c->royal_beneath) < 0
            || field_bool(tables, "two_jokers", &c->two_jokers) < 0)
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
        c->names = names;
        int rv[16], opp[8];
        if (field_ints(tables, "kind", c->kind, 1, MAX_CARD_IDS, &ncards) < 0 ||
            field_ints(tables, "suit", c->suit, ncards, ncards, NULL) < 0 ||
            field_ints(tables, "landing", c->landing, ncards, ncards, NULL) < 0 ||
            field_ints(tables, "resting", c->resting, ncards, ncards, NULL) < 0 ||
            field_ints(tables, "side", c->side, ncards, ncards, NULL) < 0 ||
            field_ints(tables, "rcode", c->rcode, ncards, ncards, NULL) < 0 ||
            field_ints(tables, "royal_value", rv, 16, 16, NULL) < 0 ||
            field_ints(tables, "column_colour", c->column_colour, 4, 4, NULL) < 0 ||
            field_ints(tables, "opponents", opp, 8, 8, NULL) < 0)
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
    *ncards_out = ncards;
    return 0;
}

/* The tables, then games/royal_assassin/compiled.py's RoyalAssassinPosition by field name,
 * into c and *root_out; -1 with a Python exception set. */
static int read_position(Ctx *c, State *root_out, PyObject *position, PyObject *tables) {
    State root;
    memset(&root, 0, sizeof root);
    int ncards, pos, jokers_on, available, turned, redeal_blocked, status;
    if (read_tables(c, tables, &ncards) < 0) return -1;
    if (field_ints(position, "stock", c->stock, 0, MAX_STOCK - 6, &c->size) < 0
        || field_int(position, "pos", &pos) < 0 || field_int(position, "jokers_on", &jokers_on) < 0
        || field_int(position, "available", &available) < 0 || field_int(position, "turned", &turned) < 0
        || field_bool(position, "redeal_blocked", &redeal_blocked) < 0 || field_int(position, "status", &status) < 0)
        return -1;
    for (int i = 0; i < c->size; i++) {
        if (c->stock[i] < 0 || c->stock[i] >= ncards) {
            PyErr_SetString(PyExc_ValueError, "stock card id out of range");
            return -1;
        }
    }
    {
        u64 mask;
        if (field_u64(position, "reserve", &mask) < 0) return -1;
        root.reserve = mask;
        int locks[4];
        PyObject *columns_obj = field(position, "columns");
        if (!columns_obj) return -1;
        for (int i = 0; i < 4; i++) {
            PyObject *item = PySequence_GetItem(columns_obj, i);
            if (!item) { Py_DECREF(columns_obj); return -1; }
            unsigned long long w = PyLong_AsUnsignedLongLong(item);
            Py_DECREF(item);
            int count = 0;
            if (!(w == (unsigned long long)-1 && PyErr_Occurred())) {
                while (count < 3 && (w >> (16 * count) & 3)) count++;
                if (w >> (16 * count)) PyErr_SetString(PyExc_ValueError, "bad column word");
            }
            if (PyErr_Occurred()) { Py_DECREF(columns_obj); return -1; }
            root.col[i] = w;
            root.n[i] = (uint8_t)count;
        }
        Py_DECREF(columns_obj);
        if (field_ints(position, "locks", locks, 4, 4, NULL) < 0) return -1;
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
    return 0;
}

PyDoc_STRVAR(key_doc,
"key(position, tables)\n"
"\n"
"The table key the search packs for this position (5 ints), for the tests of key equality.");

static PyObject *core_key(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *position, *tables;
    if (!PyArg_ParseTuple(args, "OO", &position, &tables)) return NULL;
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) return PyErr_NoMemory();
    State root;
    PyObject *result = NULL;
    if (read_position(c, &root, position, tables) == 0) {
        Slot k = pack(c, &root);
        result = Py_BuildValue("(KKKKK)", (unsigned long long)k.w[0], (unsigned long long)k.w[1],
                               (unsigned long long)k.w[2], (unsigned long long)k.w[3], (unsigned long long)k.w[4]);
    }
    free(c);
    return result;
}

PyDoc_STRVAR(solve_doc,
"solve(position, tables, mode, limits)\n"
"\n"
"The Royal Assassin 'pruned' search, compiled.  position: a RoyalAssassinPosition and tables:\n"
"a RoyalAssassinTables (games/royal_assassin/compiled.py, which documents each field); mode\n"
"'optimal' or 'winnable'; limits: a CompiledLimits (games/base.py: the budgets, the solver's\n"
"schedule and at_least; no plain search here).  Each is read by field name.\n"
"\n"
"Returns (verdict, score, line, line_score, states, table_hits, unique, max_depth,\n"
"exhausted) with verdict 'WON', 'LOST' or 'UNDECIDED', line a list of move names and\n"
"exhausted '' or one of 'states', 'time', 'table', 'memory cap', 'memory'.");

static PyObject *core_solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *position, *tables, *limits;
    const char *mode;
    if (!PyArg_ParseTuple(args, "OOsO", &position, &tables, &mode, &limits)) return NULL;
    int optimal = parse_mode(mode);
    if (optimal < 0) return NULL;

    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) return PyErr_NoMemory();
    PyObject *result = NULL;
    State root;
    if (read_position(c, &root, position, tables) == 0)
        result = solve_position(c, &root, optimal, limits, c->max_score);
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
    "The Royal Assassin 'pruned' search compiled (see games/royal_assassin/compiled.py).",
    -1, core_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&core_module); }
