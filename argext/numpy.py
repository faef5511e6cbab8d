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
- top_k is NumPy 2.6's (and the Array API's): (values, indices) along an axis,
  mode "largest" or "smallest", NaN last in either mode (as NumPy sorts it);
  argext also fixes what NumPy leaves open: equal values rank by the lower
  index, and sorted=False gives the elements in ascending index order. It runs
  on NumPy versions without np.top_k too.
"""

import operator as _operator

import numpy as _np

from argext import _core, _errors

__all__ = ["argmax", "argmin", "nanargmax", "nanargmin", "top_k"]

_ENTRIES = _core._NUMPY_ENTRIES
# NumPy's own functions, for dtypes argext does not compute (bound now: a caller
# may later put argext's in NumPy's place); top_k from NumPy 2.6 on.
_NUMPY = {name: getattr(_np, name, None) for name in __all__}


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


def _floats(a, bfloat16_bits):
    """a's values as floats NumPy compares (None for integers): bfloat16 bit
    patterns (uint16, as argext reads DLPack's bfloat16) decoded exactly."""
    if bfloat16_bits:
        return (a.astype(_np.uint32) << 16).view(_np.float32)
    if a.dtype.kind == "f":
        return a
    if a.dtype.name == "bfloat16":  # ml_dtypes'
        return a.astype(_np.float32)
    return None


def _nan_last(x, values, indices, k, largest, sorted, bfloat16_bits):
    """Rows whose top k holds a NaN (the C core ranks NaN first) redone with
    NaN last, as NumPy's top_k has it: a stable sort of those rows only."""
    bad = _np.isnan(_floats(values, bfloat16_bits)).any(axis=-1)
    rows = _floats(x[bad], bfloat16_bits).astype(_np.float64)  # exact for every float dtype
    order = _np.argsort(-rows if largest else rows, axis=-1, kind="stable")[..., :k]
    if not sorted:
        order.sort(axis=-1)
    values[bad] = _np.take_along_axis(x[bad], order, axis=-1)
    indices[bad] = order


def _nan_fix(axis, k, largest, sorted):
    """What top_k does to the C core's results (in place): NaN last."""
    def fix(x, values, indices, bfloat16_bits):
        moved = _np.moveaxis(values, axis, -1)
        floats = _floats(moved, bfloat16_bits)
        if k and floats is not None and _np.isnan(floats).any():
            _nan_last(_np.moveaxis(x, axis, -1), moved, _np.moveaxis(indices, axis, -1), k,
                      largest, sorted, bfloat16_bits)
    return fix


def top_k(a, k, /, *, axis=-1, mode="largest", sorted=True):
    """numpy.top_k: (values, indices) of the k largest (mode="largest") or
    smallest elements along `axis`, NaN last in either mode. Equal values rank
    by the lower index; sorted=False: the same elements in index order. An
    array offering __dlpack__ (torch, JAX, ...) is read in place and answered
    in its own array type."""
    if mode not in ("largest", "smallest"):
        raise ValueError(f"mode must be 'largest' or 'smallest', got {mode!r}")
    foreign = _core._dlpack_input(a)
    x = a if foreign else _np.asanyarray(a)
    shape = tuple(x.shape)
    axis = _operator.index(axis)
    if not -len(shape) <= axis < len(shape):
        raise _errors.AxisError(axis, len(shape))
    k = _operator.index(k)
    if not 0 <= k <= shape[axis]:
        raise ValueError(f"k={k} is out of range [0, {shape[axis]}] for axis {axis}, whose "
                         f"extent is {shape[axis]}")
    largest = mode == "largest"
    fix = _nan_fix(axis, k, largest, sorted)
    if foreign:
        try:
            return _core._numpy_top_k(x, k, axis, largest, bool(sorted), fix)
        except _errors.SpecTypeError as refusal:  # bool, complex: NumPy's view of it, below
            try:
                x = _np.asanyarray(a)
            except (TypeError, ValueError):  # none (float8)
                raise refusal from None
    data = x.view(_np.uint8) if x.dtype.kind == "b" else x
    try:
        values, indices = _core.topk(data, k, axis, largest, bool(sorted))
    except _errors.SpecTypeError:  # a dtype argext does not rank (complex, strings, ...)
        if _NUMPY["top_k"] is None:
            raise
        return _NUMPY["top_k"](a, k, axis=axis, mode=mode, sorted=sorted)
    if x.dtype.kind == "b":
        values = values.view(_np.bool_)
    fix(x, values, indices, False)
    if type(x) is not _np.ndarray:  # a subclass, as NumPy's indexing keeps it
        return values.view(type(x)), indices.view(type(x))
    return values, indices.astype(_np.intp, copy=False)
