"""NumPy's argmax, argmin, nanargmax and nanargmin on argext's kernels, as a
drop-in: NumPy's signatures, results and exceptions.

- axis=None reduces the flattened array (NumPy's index into a.ravel(), as an
  np.intp scalar); keepdims; out (an integer array the indices cast into
  safely, returned); bool input (False < True); NaN wins in argmax/argmin and
  is skipped in nanargmax/nanargmin (an all-NaN slice raises ValueError
  "All-NaN slice encountered" and leaves out untouched); AxisError,
  ValueError and TypeError as NumPy raises them.
- An ndarray subclass gets the subclass back, as ndarray.argmax gives it.
- Any array offering __dlpack__ on the CPU (torch, JAX, array-api-strict, ...)
  is read in place, bfloat16 included, and the result returns in its array
  type: these serve as Array API functions for any such library.
- Arrow and pandas columns are read in place (chunked arrays chunk by chunk);
  missing values are refused by argmax/argmin and skipped by
  nanargmax/nanargmin; categorical and other non-numeric columns are refused.
- NumPy arrays of a dtype argext does not compute (complex, datetime64,
  timedelta64, strings, object, longdouble) are passed to NumPy's own
  function.
"""

import numpy as _np

from argext import _core

__all__ = ["argmax", "argmin", "nanargmax", "nanargmin"]

_ENTRIES = _core._NUMPY_ENTRIES
# NumPy's own functions, for dtypes argext does not compute (bound now: a caller
# may later put argext's in NumPy's place).
_NUMPY = {name: getattr(_np, name) for name in __all__}


def argmax(a, axis=None, out=None, *, keepdims=False):
    """numpy.argmax: indices of the maximum values along an axis (the first
    occurrence; NaN counts as the maximum)."""
    return _core._numpy_function(_ENTRIES["argmax"], a, axis, out, bool(keepdims), _NUMPY["argmax"],
                                 argmax)


def argmin(a, axis=None, out=None, *, keepdims=False):
    """numpy.argmin: indices of the minimum values along an axis (the first
    occurrence; NaN counts as the minimum)."""
    return _core._numpy_function(_ENTRIES["argmin"], a, axis, out, bool(keepdims), _NUMPY["argmin"],
                                 argmin)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """numpy.nanargmax: indices of the maximum values along an axis, NaN
    ignored; an all-NaN slice raises ValueError."""
    return _core._numpy_function(_ENTRIES["nanargmax"], a, axis, out, bool(keepdims),
                                 _NUMPY["nanargmax"], nanargmax)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """numpy.nanargmin: indices of the minimum values along an axis, NaN
    ignored; an all-NaN slice raises ValueError."""
    return _core._numpy_function(_ENTRIES["nanargmin"], a, axis, out, bool(keepdims),
                                 _NUMPY["nanargmin"], nanargmin)
