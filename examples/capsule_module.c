/*
 * capsule_module.c - an extension module that calls argext's kernels through
 * the capsule argext._C_API: no NumPy C API, no libargext to link.
 *
 *   cc -shared -fPIC -I<python include> -I$(python -c "import argext; print(argext.get_include())") \
 *      capsule_module.c -o capsule_module$(python3-config --extension-suffix)
 *
 *   capsule_module.argmax(array, axis, select_last_index=0) -> list of int
 *
 * takes any buffer (NumPy arrays of any strides included) of a numeric
 * format and returns the ONNX ArgMax along `axis` (keepdims=0), flattened in
 * C order. The kernel runs with the GIL released.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <argext_capi.h>

/* The argext dtype of a buffer format ("<f", "=q", "d", ...), or -1. */
static int dtype_of(const char *format, Py_ssize_t itemsize)
{
    if (*format == '@' || *format == '=' || *format == '<' || *format == '>' || *format == '!')
        format++;
    if (format[0] == '\0' || format[1] != '\0')
        return -1;
    static const int signed_by_size[9] = {-1, ARGEXT_INT8, ARGEXT_INT16, -1, ARGEXT_INT32,
                                          -1, -1, -1, ARGEXT_INT64};
    static const int unsigned_by_size[9] = {-1, ARGEXT_UINT8, ARGEXT_UINT16, -1, ARGEXT_UINT32,
                                            -1, -1, -1, ARGEXT_UINT64};
    if (itemsize < 1 || itemsize > 8)
        return -1;
    switch (format[0]) {
    case 'e': return ARGEXT_FLOAT16;
    case 'f': return ARGEXT_FLOAT32;
    case 'd': return ARGEXT_FLOAT64;
    case 'b': case 'h': case 'i': case 'l': case 'q': return signed_by_size[itemsize];
    case 'B': case 'H': case 'I': case 'L': case 'Q': return unsigned_by_size[itemsize];
    default: return -1;
    }
}

static PyObject *argmax(PyObject *self, PyObject *args)
{
    PyObject *obj, *result = NULL;
    long long axis;
    int last = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "OL|i", &obj, &axis, &last))
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_STRIDES | PyBUF_FORMAT) < 0)
        return NULL;
    int dtype = dtype_of(view.format, view.itemsize);
    if (dtype < 0 || view.ndim < 1 || view.ndim > ARGEXT_MAX_RANK) {
        PyErr_Format(PyExc_TypeError, "argmax: unsupported buffer (format %s, ndim %d)",
                     view.format, view.ndim);
        goto done;
    }
    int64_t shape[ARGEXT_MAX_RANK], strides[ARGEXT_MAX_RANK], out_shape[ARGEXT_MAX_RANK];
    Py_ssize_t out_count = 1;
    int rank = view.ndim, out_rank = 0;
    long long ax = axis < 0 ? axis + rank : axis;
    for (int d = 0; d < rank; d++) {
        shape[d] = view.shape[d];
        strides[d] = view.strides[d];
        if (d != ax) {
            out_shape[out_rank++] = shape[d];
            out_count *= view.shape[d];
        }
    }
    int64_t *out = PyMem_Malloc((size_t)(out_count > 0 ? out_count : 1) * sizeof(int64_t));
    if (!out) {
        PyErr_NoMemory();
        goto done;
    }
    argext_tensor in_t = {view.buf, (argext_dtype)dtype, rank, shape, strides};
    argext_tensor out_t = {out, ARGEXT_INT64, out_rank, out_shape, NULL};
    argext_status st;
    Py_BEGIN_ALLOW_THREADS
    st = argext_argmax(&in_t, &out_t, (int64_t)axis, 0, last);
    Py_END_ALLOW_THREADS
    if (st != ARGEXT_OK) {
        PyErr_Format(PyExc_ValueError, "argmax: %s", argext_status_string(st));
    } else if ((result = PyList_New(out_count)) != NULL) {
        for (Py_ssize_t i = 0; i < out_count; i++) {
            PyObject *v = PyLong_FromLongLong(out[i]);
            if (!v) {
                Py_CLEAR(result);
                break;
            }
            PyList_SET_ITEM(result, i, v);
        }
    }
    PyMem_Free(out);
done:
    PyBuffer_Release(&view);
    return result;
}

static PyObject *kernel_isa(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(argext_isa_name(argext_get_isa()));
}

static PyMethodDef methods[] = {
    {"argmax", argmax, METH_VARARGS, "ONNX ArgMax (keepdims=0) of a buffer, flattened."},
    {"kernel_isa", kernel_isa, METH_NOARGS, "The ISA of argext's kernels in use."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "capsule_module", NULL, -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_capsule_module(void)
{
    if (import_argext() < 0)
        return NULL;
    return PyModule_Create(&module);
}
