/* native/devils_throne.c: the extension games.devils_throne._core, composed.
 *
 *   games/devils_throne/_core.c     Devil's Throne's rules for two to four seats (Ctx, Start, Node, hooks)
 *   solver/_simultaneous_core.h     the Q1-Q4 searches over those hooks
 *   below                           the Python binding: a solver per deal, seat and question
 *
 * games/devils_throne/compiled.py is its Python face.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../games/devils_throne/_core.c"
#include "../solver/_simultaneous_core.h"

#define CAPSULE "devils_throne.solver"

static void capsule_free(PyObject *capsule) {
    solver_free(PyCapsule_GetPointer(capsule, CAPSULE));
}

/* new_solver(p, effects, coins, reserves, question, margin, fixed, few_replies): effects a
 * sequence of (power, owner) in resolution order, coins 10 ints, reserves one sequence of 3
 * ranks a seat (top first; their number is the number of seats); question 0 for Q4 (two
 * seats), 1-3 for Q1-Q3 on the margin (margin = 1) or the cards; fixed a bit per seat that
 * plays the game's policy; few_replies 1: the other seats keep the game's few options. */
static PyObject *new_solver(PyObject *self, PyObject *args) {
    (void)self;
    int p, question, margin, fixed, few_replies;
    PyObject *effects, *coins, *reserves;
    if (!PyArg_ParseTuple(args, "iOOOiiii", &p, &effects, &coins, &reserves, &question, &margin, &fixed,
                          &few_replies)) return NULL;
    Py_ssize_t players = PySequence_Size(reserves);
    if (players < 2 || players > MAXP || p < 0 || p >= players || question < QUESTION_Q4 || question > QUESTION_Q3
            || (question == QUESTION_Q4 && players != 2)) {
        PyErr_SetString(PyExc_ValueError, "2-4 seats, P one of them, question 0 (Q4, two seats) to 3 (Q3)");
        return NULL;
    }
    Solver *q = calloc(1, sizeof *q);
    if (!q) return PyErr_NoMemory();
    q->p = p;
    q->question = question;
    q->margin = margin;
    q->fixed = fixed;
    q->few_replies = few_replies;
    q->seats = (int)players;
    Ctx *c = &q->game;
    c->players = (int)players;
    c->neffects = (int)PySequence_Size(effects);
    for (int i = 0; i < c->neffects && i < 4; i++) {
        PyObject *pair = PySequence_GetItem(effects, i);
        if (!pair || !PyArg_ParseTuple(pair, "ii", &c->power[i], &c->owner[i])) { Py_XDECREF(pair); free(q); return NULL; }
        Py_DECREF(pair);
    }
    for (int i = 0; i < MAX_ROUNDS; i++) {
        PyObject *item = PySequence_GetItem(coins, i);
        if (!item) { free(q); return NULL; }
        c->coins[i] = (int)PyLong_AsLong(item);
        Py_DECREF(item);
    }
    for (int seat = 0; seat < players; seat++) {
        PyObject *row = PySequence_GetItem(reserves, seat);
        if (!row) { free(q); return NULL; }
        for (int i = 0; i < RESERVE_SIZE; i++) {
            PyObject *item = PySequence_GetItem(row, i);
            if (!item) { Py_DECREF(row); free(q); return NULL; }
            c->reserve[seat][i] = (int)PyLong_AsLong(item);
            Py_DECREF(item);
        }
        Py_DECREF(row);
    }
    if (PyErr_Occurred()) { free(q); return NULL; }
    return PyCapsule_New(q, CAPSULE, capsule_free);
}

/* A round start from (round, hands as rank sequences, reserve depths) into s. */
static int read_start(const Solver *q, int round, PyObject *hands, PyObject *depths, Start *s) {
    memset(s, 0, sizeof *s);
    s->round = (uint8_t)round;
    for (int seat = 0; seat < q->seats; seat++) {
        PyObject *hand = PySequence_GetItem(hands, seat), *depth = PySequence_GetItem(depths, seat);
        if (!hand || !depth) { Py_XDECREF(hand); Py_XDECREF(depth); return 0; }
        Py_ssize_t n = PySequence_Size(hand);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PySequence_GetItem(hand, i);
            long rank = PyLong_AsLong(item);
            Py_XDECREF(item);
            if (rank < 1 || rank > 13 || s->hand[seat][rank] == 3) {
                Py_DECREF(hand); Py_DECREF(depth);
                PyErr_SetString(PyExc_ValueError, "rank out of range");
                return 0;
            }
            s->hand[seat][rank]++;
            s->size[seat]++;
        }
        s->depth[seat] = (uint8_t)PyLong_AsLong(depth);
        Py_DECREF(hand); Py_DECREF(depth);
    }
    return !PyErr_Occurred();
}

static Solver *solver_of(PyObject *capsule, int paranoid) {
    Solver *q = PyCapsule_GetPointer(capsule, CAPSULE);
    if (q && (q->question != QUESTION_Q4) != paranoid) {
        PyErr_SetString(PyExc_ValueError, paranoid ? "a Q4 solver has no paranoid value" : "a Q1-Q3 solver has no Q4 value");
        return NULL;
    }
    return q;
}

/* q4_value(solver, round, hands, depths, seconds, max_states) -> (value or None, exhausted,
 * states, hits, matrix_games, saddles, lps): the value-to-go of a round start (seconds <= 0,
 * max_states < 0: no limit).  The table lives as long as the solver. */
static PyObject *q4_value(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *hands, *depths;
    int round;
    double seconds;
    long long max_states;
    if (!PyArg_ParseTuple(args, "OiOOdL", &capsule, &round, &hands, &depths, &seconds, &max_states)) return NULL;
    Solver *q = solver_of(capsule, 0);
    Start s;
    if (!q || !read_start(q, round, hands, depths, &s)) return NULL;
    int won[MAXP] = {0, 0, 0, 0};
    return solver_run(q, &s, won, 0, 0, seconds, max_states, 0);
}

/* paranoid_value(solver, round, hands, depths, won, alpha, beta, seconds, max_states) ->
 * (value or None, exhausted, states, hits, P's root rank or 0): the fail-soft Q1-Q3 value
 * of a round start within the window (alpha, beta), given each seat's cards won so far. */
static PyObject *paranoid_value(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *hands, *depths, *tricks;
    int round;
    double alpha, beta, seconds;
    long long max_states;
    if (!PyArg_ParseTuple(args, "OiOOOdddL", &capsule, &round, &hands, &depths, &tricks, &alpha, &beta, &seconds,
                          &max_states)) return NULL;
    Solver *q = solver_of(capsule, 1);
    Start s;
    if (!q || !read_start(q, round, hands, depths, &s)) return NULL;
    int won[MAXP] = {0, 0, 0, 0};
    for (int seat = 0; seat < q->seats; seat++) {
        PyObject *item = PySequence_GetItem(tricks, seat);
        if (!item) return NULL;
        won[seat] = (int)PyLong_AsLong(item);
        Py_DECREF(item);
    }
    if (PyErr_Occurred()) return NULL;
    return solver_run(q, &s, won, alpha, beta, seconds, max_states, 0);  /* ranks are >= 1: 0 says "none" */
}

static PyMethodDef core_methods[] = {
    {"new_solver", new_solver, METH_VARARGS, "A solver for one deal, seat P and question."},
    {"q4_value", q4_value, METH_VARARGS, "The Q4 value-to-go of a round start."},
    {"paranoid_value", paranoid_value, METH_VARARGS, "A Q1-Q3 value of a round start."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "Devil's Throne: Q1-Q3 for two to four players and two-player Q4, compiled.", -1, core_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&core_module); }
