/*
 * argext_capi.h - argext's C API for other Python extension modules,
 * reached through the capsule argext._C_API (NumPy's _ARRAY_API is the model).
 *
 *     #include <argext_capi.h>          (include path: argext.get_include())
 *
 *     PyMODINIT_FUNC PyInit_mymod(void)
 *     {
 *         if (import_argext() < 0)
 *             return NULL;
 *         ...
 *     }
 *
 * After import_argext() every argext.h function is called by its argext.h
 * name (argext_argmax(&in, &out, 1, 0, 0), ...): each name is a macro for an
 * entry of the table the installed argext module exports, so the module is
 * not linked against libargext and uses the very kernels (and ISA choice)
 * of the argext it imported. Only import_argext needs the GIL.
 *
 * An extension of several C files that call argext defines
 * ARGEXT_CAPI_UNIQUE_SYMBOL to one name in each of them, and ARGEXT_NO_IMPORT
 * in all but the one that calls import_argext (as NumPy's
 * PY_ARRAY_UNIQUE_SYMBOL and NO_IMPORT_ARRAY).
 */
#ifndef ARGEXT_CAPI_H
#define ARGEXT_CAPI_H

#include <Python.h>

#include "argext.h"

#define ARGEXT_CAPI_NAME "argext._C_API"

/* ABI version: the table's layout. A module built for another ABI version
   refuses to import. API version: entries are only ever appended; the
   installed argext must provide at least those a module was built with. */
#define ARGEXT_CAPI_ABI_VERSION 1
#define ARGEXT_CAPI_API_VERSION 4

/*
 * Every function of argext.h, in the table's order: X(return type, name
 * without the argext_ prefix, parameters). The table, its provider's
 * initialiser and (below) the call macros follow this one list; entries are
 * only ever appended. version stays first in every ABI version.
 */
#define ARGEXT_CAPI_FUNCTIONS(X)                                                              \
    X(const char *, version, (void))                                                          \
    /* API version 1 */                                                                       \
    X(const char *, status_string, (argext_status status))                                    \
    X(size_t, dtype_size, (argext_dtype dtype))                                               \
    X(argext_status, argmax, (const argext_tensor *data, const argext_tensor *reduced,       \
                              int64_t axis, int keepdims, int select_last_index))             \
    X(argext_status, argmin, (const argext_tensor *data, const argext_tensor *reduced,       \
                              int64_t axis, int keepdims, int select_last_index))             \
    X(argext_status, reduce_argmax, (const argext_tensor *data, const argext_tensor *output,  \
                                     const int64_t *axes, int naxes, argext_direction direction)) \
    X(argext_status, reduce_argmin, (const argext_tensor *data, const argext_tensor *output,  \
                                     const int64_t *axes, int naxes, argext_direction direction)) \
    X(argext_status, hardmax, (const argext_tensor *input, const argext_tensor *output,      \
                               int64_t axis, int version))                                    \
    X(int, isa_supported, (argext_isa isa))                                                   \
    X(argext_isa, isa_best, (void))                                                           \
    X(argext_isa, get_isa, (void))                                                            \
    X(argext_status, set_isa, (argext_isa isa))                                               \
    X(const char *, isa_name, (argext_isa isa))                                               \
    X(argext_status, hardmax_onto_zeros, (const argext_tensor *input,                         \
                                          const argext_tensor *output, int64_t axis,          \
                                          int version))                                       \
    /* API version 2 */                                                                       \
    X(int, get_num_threads, (void))                                                           \
    X(argext_status, set_num_threads, (int n))                                                \
    X(void, set_parallel_for, (argext_parallel_for parallel_for, void *host))                 \
    X(argext_error, last_error, (void))                                                       \
    X(argext_status, nanargmax, (const argext_tensor *data, const argext_tensor *reduced,    \
                                 const int64_t *axis, int keepdims))                          \
    X(argext_status, nanargmin, (const argext_tensor *data, const argext_tensor *reduced,    \
                                 const int64_t *axis, int keepdims))                          \
    /* API version 3 */                                                                       \
    X(int, isa_rank, (argext_isa isa))                                                        \
    /* API version 4 */                                                                       \
    X(argext_status, topk, (const argext_tensor *data, const argext_tensor *values,           \
                            const argext_tensor *indices, int64_t axis, int64_t k, int largest, \
                            int sorted))

#define ARGEXT_CAPI_FIELD(RET, NAME, PARAMS) RET(*NAME) PARAMS;
typedef struct argext_capi {
    unsigned int abi_version;
    unsigned int api_version;
    ARGEXT_CAPI_FUNCTIONS(ARGEXT_CAPI_FIELD)
} argext_capi;
#undef ARGEXT_CAPI_FIELD

#ifdef ARGEXT_CAPI_PROVIDER
/* Only argext's own extension module defines this: it fills the table. */
#define ARGEXT_CAPI_ENTRY(RET, NAME, PARAMS) argext_##NAME,
static const argext_capi argext_capi_provided = {
    ARGEXT_CAPI_ABI_VERSION, ARGEXT_CAPI_API_VERSION, ARGEXT_CAPI_FUNCTIONS(ARGEXT_CAPI_ENTRY)};
#undef ARGEXT_CAPI_ENTRY
#else

#ifdef ARGEXT_CAPI_UNIQUE_SYMBOL
#define argext_capi_table ARGEXT_CAPI_UNIQUE_SYMBOL
#ifdef ARGEXT_NO_IMPORT
extern const argext_capi *argext_capi_table;
#else
const argext_capi *argext_capi_table = NULL;
#endif
#else
static const argext_capi *argext_capi_table = NULL;
#endif

/* Each function's name calls its table entry: one macro per entry of
   ARGEXT_CAPI_FUNCTIONS, in its order (tests/test_public_api.py holds them
   equal; the preprocessor cannot define macros from a list). */
#define argext_version (*argext_capi_table->version)
#define argext_status_string (*argext_capi_table->status_string)
#define argext_dtype_size (*argext_capi_table->dtype_size)
#define argext_argmax (*argext_capi_table->argmax)
#define argext_argmin (*argext_capi_table->argmin)
#define argext_reduce_argmax (*argext_capi_table->reduce_argmax)
#define argext_reduce_argmin (*argext_capi_table->reduce_argmin)
#define argext_hardmax (*argext_capi_table->hardmax)
#define argext_isa_supported (*argext_capi_table->isa_supported)
#define argext_isa_best (*argext_capi_table->isa_best)
#define argext_get_isa (*argext_capi_table->get_isa)
#define argext_set_isa (*argext_capi_table->set_isa)
#define argext_isa_name (*argext_capi_table->isa_name)
#define argext_hardmax_onto_zeros (*argext_capi_table->hardmax_onto_zeros)
#define argext_get_num_threads (*argext_capi_table->get_num_threads)
#define argext_set_num_threads (*argext_capi_table->set_num_threads)
#define argext_set_parallel_for (*argext_capi_table->set_parallel_for)
#define argext_last_error (*argext_capi_table->last_error)
#define argext_nanargmax (*argext_capi_table->nanargmax)
#define argext_nanargmin (*argext_capi_table->nanargmin)
#define argext_isa_rank (*argext_capi_table->isa_rank)
#define argext_topk (*argext_capi_table->topk)

#ifndef ARGEXT_NO_IMPORT
/* Imports argext and takes its table. Returns 0, or -1 with a Python
   exception set (ImportError on a version mismatch). Needs the GIL. */
Py_LOCAL_INLINE(int) import_argext(void)
{
    const argext_capi *table = (const argext_capi *)PyCapsule_Import(ARGEXT_CAPI_NAME, 0);
    if (!table)
        return -1;
    if (table->abi_version != ARGEXT_CAPI_ABI_VERSION) {
        PyErr_Format(PyExc_ImportError,
                     "argext C API: this module was built against ABI version %u but the "
                     "installed argext %s has ABI version %u; rebuild the module against it",
                     (unsigned)ARGEXT_CAPI_ABI_VERSION, table->version(), table->abi_version);
        return -1;
    }
    if (table->api_version < ARGEXT_CAPI_API_VERSION) {
        PyErr_Format(PyExc_ImportError,
                     "argext C API: this module needs API version %u but the installed argext "
                     "%s provides only %u; upgrade argext",
                     (unsigned)ARGEXT_CAPI_API_VERSION, table->version(), table->api_version);
        return -1;
    }
    argext_capi_table = table;
    return 0;
}
#endif /* ARGEXT_NO_IMPORT */

#endif /* ARGEXT_CAPI_PROVIDER */

#endif /* ARGEXT_CAPI_H */
