/* solver/_fields.h: reading the named structures that cross from Python to C.
 *
 * Included by solver/_search_core.h and solver/_simultaneous_core.h (after <Python.h>).
 * Everything a compiled search receives is a named structure (a NamedTuple or a frozen
 * dataclass: a game's tables, its position, its limits), read by field name in one function
 * a structure, so that a new field is added in one Python place and read in one C place.
 * Each helper returns -1 with a Python exception set naming the missing or bad field.
 */

#ifndef FIELDS_H
#define FIELDS_H

#include <stdint.h>

static PyObject *field(PyObject *obj, const char *name) {
    PyObject *value = PyObject_GetAttrString(obj, name);
    if (!value) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s has no field %s", Py_TYPE(obj)->tp_name, name);
    }
    return value;
}

static inline int field_int(PyObject *obj, const char *name, int *out) {
    PyObject *value = field(obj, name);
    if (!value) return -1;
    long v = PyLong_AsLong(value);
    Py_DECREF(value);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = (int)v;
    return 0;
}

static inline int field_u64(PyObject *obj, const char *name, uint64_t *out) {
    PyObject *value = field(obj, name);
    if (!value) return -1;
    unsigned long long v = PyLong_AsUnsignedLongLong(value);
    Py_DECREF(value);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = (uint64_t)v;
    return 0;
}

static inline int field_bool(PyObject *obj, const char *name, int *out) {
    PyObject *value = field(obj, name);
    if (!value) return -1;
    int v = PyObject_IsTrue(value);
    Py_DECREF(value);
    if (v < 0) return -1;
    *out = v;
    return 0;
}

static inline int field_double(PyObject *obj, const char *name, double *out) {
    PyObject *value = field(obj, name);
    if (!value) return -1;
    *out = PyFloat_AsDouble(value);
    Py_DECREF(value);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* A limit: None for none (-1), else a whole number (or, for time, seconds). */
static inline int field_limit(PyObject *obj, const char *name, long long *out) {
    PyObject *value = field(obj, name);
    if (!value) return -1;
    *out = value == Py_None ? -1 : PyLong_AsLongLong(value);
    Py_DECREF(value);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static inline int field_seconds(PyObject *obj, const char *name, double *out) {
    PyObject *value = field(obj, name);
    if (!value) return -1;
    *out = value == Py_None ? -1.0 : PyFloat_AsDouble(value);
    Py_DECREF(value);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* A sequence of small ints into out[] (expected_min..limit items; *n their number unless n
 * is NULL); `what` names it in the error. */
static inline int read_ints(PyObject *seq, int *out, int expected_min, int limit, int *n, const char *what) {
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

/* A named sequence field of small ints into out[] (expected_min..limit items). */
static inline int field_ints(PyObject *obj, const char *name, int *out, int expected_min, int limit, int *n) {
    PyObject *value = field(obj, name);
    if (!value) return -1;
    int bad = read_ints(value, out, expected_min, limit, n, name);
    Py_DECREF(value);
    return bad;
}

#endif /* FIELDS_H */
