/* The C generator: SplitMix64 with exactly the numbers of its pure-Python twin (rng.py's Rng).
 *
 * Every seeded draw of the engine and the games goes through these methods, so the compiled build does
 * no 64-bit integer arithmetic in Python objects. Each method is the twin of the method of the same
 * name in cardtable/engine/rng.py and must stay so: tests/engine/test_crng.py compares them on every
 * method over many seeds, and tests/legacy replays records made before this module existed.
 *
 * Arguments are checked before the state moves: a call that raises leaves the generator unchanged.
 * Subclasses written in Python work (a scripted die overriding ``roll``); the compound methods
 * (``choice``, ``shuffle`` and the pile draws) draw from the stream directly, as the twin's do.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define GOLDEN 0x9E3779B97F4A7C15ULL
#define SEED_OFFSET 0x632BE59BD9B4E019ULL

typedef struct {
    PyObject_HEAD
    uint64_t state;
} RngObject;

static PyTypeObject RngType;

static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t step(RngObject *self) {
    self->state += GOLDEN;
    return mix(self->state);
}

/* A uniform integer in 0..n-1 from one output: the high word of output * n. */
static inline uint64_t below_u(RngObject *self, uint64_t n) {
    return (uint64_t)(((unsigned __int128)step(self) * n) >> 64);
}

/* Any Python int, taken modulo 2**64; TypeError for anything else (a float, a string, None). */
static int as_u64_mask(PyObject *value, const char *what, uint64_t *out) {
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an integer, got %.40s", what, Py_TYPE(value)->tp_name);
        return -1;
    }
    uint64_t v = (uint64_t)PyLong_AsUnsignedLongLongMask(value);
    if (v == (uint64_t)-1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

/* A count n with 1 <= n < 2**64 (what below, roll and choice draw among). */
static int as_range(PyObject *value, const char *what, uint64_t *out) {
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an integer, got %.40s", what, Py_TYPE(value)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long small = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (small == -1 && PyErr_Occurred()) return -1;
    if (overflow == 0) {
        if (small < 1) goto bad;
        *out = (uint64_t)small;
        return 0;
    }
    if (overflow < 0) goto bad;
    {
        unsigned long long big = PyLong_AsUnsignedLongLong(value);
        if (big == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            goto bad;
        }
        *out = (uint64_t)big;
        return 0;
    }
bad:
    PyErr_Format(PyExc_ValueError, "%s must be at least 1 and below 2**64", what);
    return -1;
}

static int Rng_init(RngObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"seed", NULL};
    PyObject *seed = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:Rng", kwlist, &seed)) return -1;
    uint64_t s = 0;
    if (seed != NULL && as_u64_mask(seed, "seed", &s) < 0) return -1;
    self->state = s * GOLDEN + SEED_OFFSET;
    return 0;
}

static PyObject *Rng_get_state(RngObject *self, void *closure) {
    return PyLong_FromUnsignedLongLong(self->state);
}

static int Rng_set_state(RngObject *self, PyObject *value, void *closure) {
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "the generator's state cannot be deleted");
        return -1;
    }
    uint64_t s;
    if (as_u64_mask(value, "state", &s) < 0) return -1;
    self->state = s;
    return 0;
}

static PyObject *Rng_next64(RngObject *self, PyObject *unused) {
    return PyLong_FromUnsignedLongLong(step(self));
}

static PyObject *Rng_below(RngObject *self, PyObject *arg) {
    uint64_t n;
    if (as_range(arg, "n", &n) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(below_u(self, n));
}

static PyObject *Rng_roll(RngObject *self, PyObject *arg) {
    uint64_t n;
    if (as_range(arg, "sides", &n) < 0) return NULL;
    /* below(n) + 1 may be 2**64 for n = 2**64 - 1: build it as a Python int. */
    uint64_t v = below_u(self, n);
    if (v < UINT64_MAX) return PyLong_FromUnsignedLongLong(v + 1);
    PyObject *big = PyLong_FromUnsignedLongLong(v);
    if (big == NULL) return NULL;
    PyObject *one = PyLong_FromLong(1);
    PyObject *out = one ? PyNumber_Add(big, one) : NULL;
    Py_XDECREF(one);
    Py_DECREF(big);
    return out;
}

static PyObject *Rng_choice(RngObject *self, PyObject *seq) {
    Py_ssize_t n = PyObject_Length(seq);
    if (n < 0) return NULL;
    if (n == 0) {
        PyErr_SetString(PyExc_IndexError, "cannot choose from an empty sequence");
        return NULL;
    }
    Py_ssize_t i = (Py_ssize_t)below_u(self, (uint64_t)n);
    if (PyList_CheckExact(seq)) {
        PyObject *item = PyList_GET_ITEM(seq, i);
        Py_INCREF(item);
        return item;
    }
    if (PyTuple_CheckExact(seq)) {
        PyObject *item = PyTuple_GET_ITEM(seq, i);
        Py_INCREF(item);
        return item;
    }
    return PySequence_GetItem(seq, i);
}

static PyObject *Rng_shuffle(RngObject *self, PyObject *seq) {
    if (PyList_Check(seq)) {
        PyObject **items = ((PyListObject *)seq)->ob_item;
        for (Py_ssize_t i = PyList_GET_SIZE(seq) - 1; i > 0; i--) {
            Py_ssize_t j = (Py_ssize_t)below_u(self, (uint64_t)(i + 1));
            PyObject *t = items[i];
            items[i] = items[j];
            items[j] = t;
        }
        Py_RETURN_NONE;
    }
    if (!PySequence_Check(seq) || PyTuple_Check(seq) || PyUnicode_Check(seq) || PyBytes_Check(seq)) {
        PyErr_Format(PyExc_TypeError, "shuffle needs a mutable sequence, got %.40s", Py_TYPE(seq)->tp_name);
        return NULL;
    }
    Py_ssize_t n = PySequence_Length(seq);
    if (n < 0) return NULL;
    for (Py_ssize_t i = n - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)below_u(self, (uint64_t)(i + 1));
        PyObject *a = PySequence_GetItem(seq, i);
        if (a == NULL) return NULL;
        PyObject *b = PySequence_GetItem(seq, j);
        if (b == NULL) {
            Py_DECREF(a);
            return NULL;
        }
        int bad = PySequence_SetItem(seq, i, b) < 0 || PySequence_SetItem(seq, j, a) < 0;
        Py_DECREF(a);
        Py_DECREF(b);
        if (bad) return NULL;
    }
    Py_RETURN_NONE;
}

static int need_list(PyObject *obj, const char *what) {
    if (PyList_Check(obj)) return 0;
    PyErr_Format(PyExc_TypeError, "%s must be a list, got %.40s", what, Py_TYPE(obj)->tp_name);
    return -1;
}

static PyObject *Rng_shuffle32(RngObject *self, PyObject *seq) {
    if (need_list(seq, "shuffle32's argument") < 0) return NULL;
    PyObject **items = ((PyListObject *)seq)->ob_item;
    Py_ssize_t i = PyList_GET_SIZE(seq) - 1;
    while (i > 0) {
        uint64_t z = step(self);
        Py_ssize_t j = (Py_ssize_t)(((z & 0xFFFFFFFFULL) * (uint64_t)(i + 1)) >> 32);
        PyObject *t = items[i];
        items[i] = items[j];
        items[j] = t;
        i--;
        if (i > 0) {
            j = (Py_ssize_t)(((z >> 32) * (uint64_t)(i + 1)) >> 32);
            t = items[i];
            items[i] = items[j];
            items[j] = t;
            i--;
        }
    }
    Py_RETURN_NONE;
}

/* Remove pile[i] and append it to dest (pile and dest may be the same list, as in the twin). */
static int move_item(PyObject *pile, Py_ssize_t i, PyObject *dest) {
    PyObject *item = PyList_GET_ITEM(pile, i);
    Py_INCREF(item);
    if (PyList_SetSlice(pile, i, i + 1, NULL) < 0 || PyList_Append(dest, item) < 0) {
        Py_DECREF(item);
        return -1;
    }
    Py_DECREF(item);
    return 0;
}

static PyObject *Rng_draw(RngObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "draw(dest, pile, n) takes 3 arguments");
        return NULL;
    }
    PyObject *dest = args[0], *pile = args[1];
    if (need_list(dest, "dest") < 0 || need_list(pile, "pile") < 0) return NULL;
    if (!PyLong_Check(args[2])) {
        PyErr_Format(PyExc_TypeError, "n must be an integer, got %.40s", Py_TYPE(args[2])->tp_name);
        return NULL;
    }
    Py_ssize_t n = PyLong_AsSsize_t(args[2]);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 0 || n > PyList_GET_SIZE(pile)) {
        PyErr_Format(PyExc_ValueError, "cannot draw %zd cards from a pile of %zd", n, PyList_GET_SIZE(pile));
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t i = (Py_ssize_t)below_u(self, (uint64_t)PyList_GET_SIZE(pile));
        if (move_item(pile, i, dest) < 0) return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *Rng_pick(RngObject *self, PyObject *pile) {
    if (!PyTuple_Check(pile)) {
        PyErr_Format(PyExc_TypeError, "pick needs a tuple, got %.40s", Py_TYPE(pile)->tp_name);
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(pile);
    if (n == 0) {
        PyErr_SetString(PyExc_IndexError, "cannot pick from an empty tuple");
        return NULL;
    }
    Py_ssize_t i = (Py_ssize_t)below_u(self, (uint64_t)n);
    PyObject *rest = PyTuple_New(n - 1);
    if (rest == NULL) return NULL;
    for (Py_ssize_t a = 0, b = 0; a < n; a++) {
        if (a == i) continue;
        PyObject *item = PyTuple_GET_ITEM(pile, a);
        Py_INCREF(item);
        PyTuple_SET_ITEM(rest, b++, item);
    }
    PyObject *card = PyTuple_GET_ITEM(pile, i);
    Py_INCREF(card);
    PyObject *out = PyTuple_New(2);
    if (out == NULL) {
        Py_DECREF(card);
        Py_DECREF(rest);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 0, card);
    PyTuple_SET_ITEM(out, 1, rest);
    return out;
}

static PyObject *Rng_deal(RngObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "deal(pool, k) takes 2 arguments");
        return NULL;
    }
    PyObject *pool = args[0];
    if (need_list(pool, "pool") < 0) return NULL;
    if (!PyLong_Check(args[1])) {
        PyErr_Format(PyExc_TypeError, "k must be an integer, got %.40s", Py_TYPE(args[1])->tp_name);
        return NULL;
    }
    Py_ssize_t k = PyLong_AsSsize_t(args[1]);
    if (k == -1 && PyErr_Occurred()) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(pool);
    if (k < 0 || k > n) {
        PyErr_Format(PyExc_ValueError, "cannot deal %zd cards from a pool of %zd", k, n);
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    uint64_t z = 0, room = 0;
    while (k > 0) {
        if (room < (uint64_t)n) {
            z = step(self);
            room = 1ULL << 32;
        }
        room /= (uint64_t)n;
        unsigned __int128 t = (unsigned __int128)z * (uint64_t)n;
        z = (uint64_t)t;
        if (move_item(pool, (Py_ssize_t)(t >> 64), out) < 0) {
            Py_DECREF(out);
            return NULL;
        }
        n--;
        k--;
    }
    return out;
}

static RngObject *new_plain(uint64_t state) {
    RngObject *child = PyObject_New(RngObject, &RngType);
    if (child != NULL) child->state = state;
    return child;
}

static PyObject *Rng_fork(RngObject *self, PyObject *unused) {
    return (PyObject *)new_plain(step(self));
}

static PyObject *Rng_copy(RngObject *self, PyObject *unused) {
    return (PyObject *)new_plain(self->state);
}

static PyObject *Rng_getstate(RngObject *self, PyObject *unused) {
    return PyLong_FromUnsignedLongLong(self->state);
}

static PyObject *Rng_setstate(RngObject *self, PyObject *value) {
    if (Rng_set_state(self, value, NULL) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Rng_repr(RngObject *self) {
    return PyUnicode_FromFormat("<%s state=0x%016llx>", Py_TYPE(self)->tp_name, (unsigned long long)self->state);
}

static PyMethodDef Rng_methods[] = {
    {"next64", (PyCFunction)Rng_next64, METH_NOARGS, "Return the next 64-bit output."},
    {"below", (PyCFunction)Rng_below, METH_O, "Return a uniform integer in 0..n-1 (1 <= n < 2**64)."},
    {"roll", (PyCFunction)Rng_roll, METH_O, "Roll one die: a uniform integer in 1..sides."},
    {"choice", (PyCFunction)Rng_choice, METH_O, "Return a uniform element of a non-empty sequence."},
    {"shuffle", (PyCFunction)Rng_shuffle, METH_O, "Shuffle a mutable sequence in place (Fisher-Yates)."},
    {"shuffle32", (PyCFunction)Rng_shuffle32, METH_O,
     "Shuffle a list in place, two 32-bit draws per output (bias below 2**-26 per draw)."},
    {"draw", (PyCFunction)(void (*)(void))Rng_draw, METH_FASTCALL,
     "draw(dest, pile, n): move n uniformly random items of pile to the end of dest, one by one."},
    {"pick", (PyCFunction)Rng_pick, METH_O, "pick(pile): a uniform item of a non-empty tuple and the tuple without it."},
    {"deal", (PyCFunction)(void (*)(void))Rng_deal, METH_FASTCALL,
     "deal(pool, k): remove k uniformly random items of pool and return them in the order drawn."},
    {"fork", (PyCFunction)Rng_fork, METH_NOARGS, "Return an independent generator seeded from this one."},
    {"copy", (PyCFunction)Rng_copy, METH_NOARGS, "Return a generator in exactly this state."},
    {"__getstate__", (PyCFunction)Rng_getstate, METH_NOARGS, NULL},
    {"__setstate__", (PyCFunction)Rng_setstate, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Rng_getset[] = {
    {"state", (getter)Rng_get_state, (setter)Rng_set_state, "The generator's one 64-bit word of state.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject RngType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cardtable.engine._crng.Rng",
    .tp_basicsize = sizeof(RngObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "SplitMix64 in C: the twin of cardtable.engine.rng's pure-Python Rng.",
    .tp_repr = (reprfunc)Rng_repr,
    .tp_methods = Rng_methods,
    .tp_getset = Rng_getset,
    .tp_init = (initproc)Rng_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef crng_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "cardtable.engine._crng",
    .m_doc = "The seeded generator in C (see cardtable.engine.rng).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__crng(void) {
    if (PyType_Ready(&RngType) < 0) return NULL;
    PyObject *m = PyModule_Create(&crng_module);
    if (m == NULL) return NULL;
    Py_INCREF(&RngType);
    if (PyModule_AddObject(m, "Rng", (PyObject *)&RngType) < 0) {
        Py_DECREF(&RngType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
