/* native/devils_throne.c: the extension games.devils_throne._core, composed.
 *
 *   games/devils_throne/_core.c     Devil's Throne's rules for two to four seats (Ctx, Start, Node, hooks)
 *   solver/_simultaneous_core.h     the Q1-Q4 searches over those hooks
 *   below                           the Python binding: a solver per deal, seat and question
 *
 * games/devils_throne/compiled.py is its Python face: three named structures cross, each
 * read here by field name in one function (solver/_fields.h's helpers): the deal's tables
 * and question (ThroneTables, read_tables), a round start (ThronePosition, read_position)
 * and the limits with the window (ThroneLimits, run).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../games/devils_throne/_core.c"
#include "../solver/_simultaneous_core.h"

#define CAPSULE "devils_throne.solver"

static void capsule_free(PyObject *capsule) {
    solver_free(PyCapsule_GetPointer(capsule, CAPSULE));
}

/* games/devils_throne/compiled.py's ThroneTables, by field name, into q: the deal (effects,
 * coins, reserves; the number of reserves is the number of seats) and the question. */
static int read_tables(Solver *q, PyObject *tables) {
    Ctx *c = &q->game;
    if (field_int(tables, "seat", &q->p) < 0 || field_int(tables, "question", &q->question) < 0
        || field_bool(tables, "margin", &q->margin) < 0 || field_int(tables, "fixed", &q->fixed) < 0
        || field_bool(tables, "few_replies", &q->few_replies) < 0
        || field_ints(tables, "coins", c->coins, MAX_ROUNDS, MAX_ROUNDS, NULL) < 0)
        return -1;
    PyObject *effects = field(tables, "effects");
    PyObject *list = effects ? PySequence_Fast(effects, "effects") : NULL;
    Py_XDECREF(effects);
    if (!list) return -1;
    c->neffects = (int)PySequence_Fast_GET_SIZE(list);
    int bad = c->neffects > 4;
    if (bad) PyErr_SetString(PyExc_ValueError, "effects: at most 4");
    for (int i = 0; !bad && i < c->neffects; i++) {
        int pair[2] = {0, 0};
        bad = read_ints(PySequence_Fast_GET_ITEM(list, i), pair, 2, 2, NULL, "effects") < 0;
        c->power[i] = pair[0];
        c->owner[i] = pair[1];
    }
    Py_DECREF(list);
    if (bad) return -1;
    PyObject *reserves = field(tables, "reserves");
    list = reserves ? PySequence_Fast(reserves, "reserves") : NULL;
    Py_XDECREF(reserves);
    if (!list) return -1;
    Py_ssize_t players = PySequence_Fast_GET_SIZE(list);
    bad = players < 2 || players > MAXP;
    for (int seat = 0; !bad && seat < players; seat++)
        bad = read_ints(PySequence_Fast_GET_ITEM(list, seat), c->reserve[seat], RESERVE_SIZE, RESERVE_SIZE, NULL,
                        "reserves") < 0;
    Py_DECREF(list);
    if (bad && PyErr_Occurred()) return -1;
    q->seats = c->players = (int)players;
    if (bad || q->p < 0 || q->p >= players || q->question < QUESTION_Q4 || q->question > QUESTION_Q3
            || (q->question == QUESTION_Q4 && players != 2)) {
        PyErr_SetString(PyExc_ValueError, "2-4 seats, P one of them, question 0 (Q4, two seats) to 3 (Q3)");
        return -1;
    }
    return 0;
}

/* new_solver(tables): a solver for one deal, seat P and question (a ThroneTables). */
static PyObject *new_solver(PyObject *self, PyObject *tables) {
    (void)self;
    Solver *q = calloc(1, sizeof *q);
    if (!q) return PyErr_NoMemory();
    if (read_tables(q, tables) < 0) { free(q); return NULL; }
    return PyCapsule_New(q, CAPSULE, capsule_free);
}

/* A ThronePosition, by field name: the round start into s, each seat's cards won so far into won. */
static int read_position(const Solver *q, PyObject *position, Start *s, int won[MAXP]) {
    memset(s, 0, sizeof *s);
    int round, depth[MAXP];
    if (field_int(position, "round", &round) < 0 || field_ints(position, "depths", depth, q->seats, q->seats, NULL) < 0
        || field_ints(position, "tricks", won, q->seats, q->seats, NULL) < 0)
        return -1;
    s->round = (uint8_t)round;
    PyObject *hands = field(position, "hands");
    PyObject *list = hands ? PySequence_Fast(hands, "hands") : NULL;
    Py_XDECREF(hands);
    if (!list) return -1;
    int bad = PySequence_Fast_GET_SIZE(list) != q->seats;
    if (bad) PyErr_SetString(PyExc_ValueError, "hands: one a seat");
    for (int seat = 0; !bad && seat < q->seats; seat++) {
        int ranks[3 * 13], n;
        bad = read_ints(PySequence_Fast_GET_ITEM(list, seat), ranks, 0, 3 * 13, &n, "hands") < 0;
        for (int i = 0; !bad && i < n; i++) {
            int rank = ranks[i];
            if (rank < 1 || rank > 13 || s->hand[seat][rank] == 3) {
                PyErr_SetString(PyExc_ValueError, "rank out of range");
                bad = 1;
            } else {
                s->hand[seat][rank]++;
                s->size[seat]++;
            }
        }
        s->depth[seat] = (uint8_t)depth[seat];
    }
    Py_DECREF(list);
    return bad ? -1 : 0;
}

static Solver *solver_of(PyObject *capsule, int paranoid) {
    Solver *q = PyCapsule_GetPointer(capsule, CAPSULE);
    if (q && (q->question != QUESTION_Q4) != paranoid) {
        PyErr_SetString(PyExc_ValueError, paranoid ? "a Q4 solver has no paranoid value" : "a Q1-Q3 solver has no Q4 value");
        return NULL;
    }
    return q;
}

/* (solver, position, limits) -> the solver's value of the position within a ThroneLimits
 * (seconds, max_states: None for no limit; the window alpha, beta, which Q4 ignores). */
static PyObject *run(PyObject *args, int paranoid) {
    PyObject *capsule, *position, *limits;
    if (!PyArg_ParseTuple(args, "OOO", &capsule, &position, &limits)) return NULL;
    Solver *q = solver_of(capsule, paranoid);
    Start s;
    int won[MAXP] = {0, 0, 0, 0};
    double seconds, alpha, beta;
    long long max_states;
    if (!q || read_position(q, position, &s, won) < 0 || field_seconds(limits, "seconds", &seconds) < 0
        || field_limit(limits, "max_states", &max_states) < 0 || field_double(limits, "alpha", &alpha) < 0
        || field_double(limits, "beta", &beta) < 0)
        return NULL;
    return solver_run(q, &s, won, alpha, beta, seconds, max_states, 0);  /* ranks are >= 1: 0 says "none" */
}

/* q4_value(solver, position, limits) -> (value or None, exhausted, states, hits,
 * matrix_games, saddles, lps): the value-to-go of a round start.  The table lives as long
 * as the solver. */
static PyObject *q4_value(PyObject *self, PyObject *args) {
    (void)self;
    return run(args, 0);
}

/* paranoid_value(solver, position, limits) -> (value or None, exhausted, states, hits, P's
 * root rank or 0): the fail-soft Q1-Q3 value of a round start within the window. */
static PyObject *paranoid_value(PyObject *self, PyObject *args) {
    (void)self;
    return run(args, 1);
}

/* value_class_key(solver, position) -> (a, b): the two words of the key that the solver's
 * table gives the round start (before P's leads join it), for the tests that hold the
 * classes of round starts to the Python rules' value_key. */
static PyObject *class_key(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *position;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &position)) return NULL;
    Solver *q = PyCapsule_GetPointer(capsule, CAPSULE);
    Start s;
    int won[MAXP];
    if (!q || read_position(q, position, &s, won) < 0) return NULL;
    Key key;
    value_class_key(&q->game, &s, &key);
    return Py_BuildValue("(KK)", (unsigned long long)key.a, (unsigned long long)key.b);
}

static PyMethodDef core_methods[] = {
    {"new_solver", new_solver, METH_O, "A solver for one deal, seat P and question."},
    {"q4_value", q4_value, METH_VARARGS, "The Q4 value-to-go of a round start."},
    {"paranoid_value", paranoid_value, METH_VARARGS, "A Q1-Q3 value of a round start."},
    {"value_class_key", class_key, METH_VARARGS, "The table key of a round start's class."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "Devil's Throne: Q1-Q3 for two to four players and two-player Q4, compiled.", -1, core_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&core_module); }
