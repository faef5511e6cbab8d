# cython: language_level=3, boundscheck=False, wraparound=False, freethreading_compatible=True
"""The Python front of argext: spec validation, array intake, calls into C.

One extension module, split by concern into the files it includes (one
module, so that the C core linked into it, with its ISA choice, thread pool
and per-thread last error, exists once):

  _front/spec.pxi       the versioned spec compiled for checks; attribute values
  _front/intake.pxi     what callers pass, as arrays the C core reads in place
  _front/dlpack.pxi     DLPack both ways: tensors read in place, results returned
  _front/call.pxi       the one call path: a Call filled by a family, _run
  _front/errors.pxi     the one error path: the C core's refusal as an exception
  _front/argminmax.pxi  ONNX ArgMax / ArgMin
  _front/reduce.pxi     reduce_argmax / reduce_argmin (DirectML)
  _front/hardmax.pxi    ONNX Hardmax
  _front/topk.pxi       ONNX TopK
  _front/numpy.pxi      NumPy's argmax, argmin, nanargmax, nanargmin (argext.numpy)
  _front/runtime.pxi    version, ISA level, threads, the C API capsule

The C core decides every range (axes, attributes, empty axes, index
overflow, output shape and dtype) and runs with the GIL released; the front
decides types, opsets and which attributes a version has, and words the
C core's refusals with argext._errors.
"""
import functools
import operator
import sys

import numpy as np

cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memset

from argext._argext cimport *
from argext import _columns, _errors
from argext._errors import SpecError, SpecTypeError
from argext._spec import DTYPES, NEWEST_OPSET, OPERATORS, resolve

cnp.import_array()

_INT64 = np.dtype(np.int64)
cdef unsigned int _EVERY_DTYPE = (1u << ARGEXT_DTYPE_COUNT) - 1

include "_front/spec.pxi"
include "_front/intake.pxi"
include "_front/dlpack.pxi"
include "_front/call.pxi"
include "_front/errors.pxi"
include "_front/argminmax.pxi"
include "_front/reduce.pxi"
include "_front/hardmax.pxi"
include "_front/topk.pxi"
include "_front/numpy.pxi"
include "_front/runtime.pxi"

# The public names: what this module defines, and the exceptions (argext
# re-exports them; its stub lists them, and stubtest holds the two equal).
__all__ = sorted(n for n, v in list(globals().items()) if not n.startswith("_")
                 and getattr(v, "__module__", None) in (__name__, "argext"))
