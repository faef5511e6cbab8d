# cython: language_level=3
"""A Cython module that cimports argext's C API and calls a kernel without
the GIL, through the capsule argext._C_API (no library to link).

    cython cython_module.pyx
    cc -shared -fPIC -I<python include> -I<argext.get_include()> cython_module.c \
       -o cython_module$(python3-config --extension-suffix)
"""
from libc.stdint cimport int64_t

from argext.capi cimport *

import numpy as np

import_argext()


def argmin_rows(const double[:, :] x, bint select_last_index=False):
    """ONNX ArgMin along axis 1 (keepdims=0) of a 2-D float64 array, any strides."""
    cdef int64_t shape[2]
    cdef int64_t strides[2]
    result = np.empty(x.shape[0], dtype=np.int64)
    cdef int64_t[::1] out = result
    cdef argext_tensor data, reduced
    cdef argext_status st
    for d in range(2):
        shape[d] = x.shape[d]
        strides[d] = x.strides[d]
    data.data = <void *>&x[0, 0] if x.shape[0] and x.shape[1] else NULL
    data.dtype = ARGEXT_FLOAT64
    data.rank = 2
    data.shape = shape
    data.strides = strides
    reduced.data = &out[0] if x.shape[0] else NULL
    reduced.dtype = ARGEXT_INT64
    reduced.rank = 1
    reduced.shape = shape
    reduced.strides = NULL
    with nogil:
        st = argext_argmin(&data, &reduced, 1, 0, select_last_index)
    if st != ARGEXT_OK:
        raise ValueError(f"argmin_rows: {argext_status_string(st).decode()}")
    return result
