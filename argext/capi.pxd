# argext's C API for Cython extension modules, through the capsule argext._C_API.
#
#     from argext.capi cimport *
#     import_argext()            # once, at module import
#     with nogil:
#         st = argext_argmax(&data, &out, axis, keepdims, select_last_index)
#
# Compile with include_dirs=[argext.get_include()]; no library to link. The
# declarations are those of argext._argext (csrc/include/argext.h); argext_capi.h
# turns each function name into a call through the capsule's table.
from argext._argext cimport *


cdef extern from "argext_capi.h":
    int import_argext() except -1
