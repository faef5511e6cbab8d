# cython: language_level=3, boundscheck=False, wraparound=False, freethreading_compatible=True
"""The Python front of argext: spec validation, array intake, calls into C.

Every check that can fail runs before the C call; the C core validates its
descriptors again for its own C users, and runs with the GIL released.
"""
import operator
import sys

import numpy as np

cimport numpy as cnp
from libc.stdint cimport int64_t, uint64_t

from argext._argext cimport *
from argext._spec import DTYPES, NEWEST_OPSET, OPERATORS, resolve

cnp.import_array()


class SpecError(ValueError):
    """An opset, attribute or axis outside the operator's versioned spec."""


class SpecTypeError(SpecError, TypeError):
    """A value of the wrong type for the spec: a non-integer attribute or
    opset, or a dtype the operator version does not allow."""


# dtype names in the order of the C enum argext_dtype.
_DTYPE_NAMES = DTYPES
_INDEX_DTYPES = {
    np.dtype(np.int64): ARGEXT_INT64,
    np.dtype(np.int32): ARGEXT_INT32,
    np.dtype(np.uint64): ARGEXT_UINT64,
    np.dtype(np.uint32): ARGEXT_UINT32,
}
_INT64 = np.dtype(np.int64)
cdef unsigned int _EVERY_DTYPE = (1u << ARGEXT_DTYPE_COUNT) - 1


cdef class _Version:
    """One operator version, compiled from the spec table for fast checks."""
    cdef readonly object schema
    cdef readonly str name
    cdef readonly int since
    cdef unsigned int dtype_mask
    cdef readonly object attributes
    cdef bint has_last  # select_last_index is an attribute of this version

    def __init__(self, schema):
        self.schema = schema
        self.name = str(schema)
        self.since = schema.since_version
        self.attributes = schema.attributes
        self.has_last = "select_last_index" in schema.attributes
        self.dtype_mask = 0
        for d in schema.dtypes:
            self.dtype_mask |= 1u << _DTYPE_NAMES.index(d)


cdef dict _VERSIONS = {
    op: (None,) + tuple(_Version(resolve(op, o)) for o in range(1, NEWEST_OPSET + 1))
    for op in OPERATORS
}


cdef _Version _ARGMAX_NEWEST = _VERSIONS["ArgMax"][NEWEST_OPSET]
cdef _Version _ARGMIN_NEWEST = _VERSIONS["ArgMin"][NEWEST_OPSET]


cdef _Version _version(str op_type, object opset):
    if opset is None:
        return _VERSIONS[op_type][NEWEST_OPSET]
    if isinstance(opset, bool):
        raise SpecTypeError(f"{op_type}: opset must be an integer, got {opset!r}")
    try:
        o = operator.index(opset)
    except TypeError:
        raise SpecTypeError(f"{op_type}: opset must be an integer, got {opset!r}") from None
    if o < 1 or o > NEWEST_OPSET:
        raise SpecError(f"{op_type}: opset {o} is outside the opsets argext knows (1..{NEWEST_OPSET})")
    return _VERSIONS[op_type][o]


cdef object _integer(object context, str name, object value, bint allow_bool):
    # bool and np.bool_ are flags: 0/1 attributes take them, axes and opsets do
    # not. Decided here, because NumPy 1.x gives np.bool_ an __index__ and 2.x not.
    if isinstance(value, (bool, np.bool_)):
        if allow_bool:
            return int(value)
        raise SpecTypeError(f"{context}: {name} must be an integer, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise SpecTypeError(f"{context}: {name} must be an integer, got {value!r}") from None


cdef int _flag(_Version v, str name, object value) except -1:
    """A 0/1 attribute as a C int for the C core to range-check; one the
    version lacks (spec knowledge C has not) must be left at 0."""
    if type(value) is int and (value == 0 or (value == 1 and (v.has_last or name == "keepdims"))):
        return value
    cdef object x = _integer(v.name, name, value, True)
    if name == "select_last_index" and not v.has_last:
        if x != 0:
            raise SpecError(f"{v.name}: {name}={value!r} is not an attribute of this version "
                            f"(it needs a newer opset)")
        return 0
    return x if 0 <= x <= 1 else 2  # out of range either way: the message names the value given


cdef int64_t _c_axis(object context, str name, object value) except? -1:
    """An axis as a C int64 for the C core to range-check (a Python int beyond
    int64 becomes one that is out of range for every rank)."""
    if type(value) is int:
        try:
            return value
        except OverflowError:
            return -(2**62)
    cdef object a = _integer(context, name, value, False)
    return a if -(2**62) <= a <= 2**62 else -(2**62)


cdef str _range_text(int rank, bint negative_ok):
    return f"[{-rank if negative_ok else 0}, {rank - 1}]"


# The byte-order character of a non-native dtype on this machine.
cdef char _SWAPPED_ORDER = b'>' if sys.byteorder == "little" else b'<'

# ml_dtypes' bfloat16 scalar type, once seen: dtype.name runs Python code on every call.
cdef object _bfloat16_type = None


cdef int _dtype_code(cnp.dtype dt):
    global _bfloat16_type
    cdef char kind = dt.kind
    cdef Py_ssize_t size = dt.itemsize
    cdef int lg = 0 if size == 1 else 1 if size == 2 else 2 if size == 4 else 3 if size == 8 else -1
    if lg < 0:
        return -1
    if kind == b'f':
        return (-1, ARGEXT_FLOAT16, ARGEXT_FLOAT32, ARGEXT_FLOAT64)[lg]
    if kind == b'i':
        return ARGEXT_INT8 + lg
    if kind == b'u':
        return ARGEXT_UINT8 + lg
    if size == 2 and dt.type is _bfloat16_type:
        return ARGEXT_BFLOAT16
    if size == 2 and dt.name == "bfloat16":  # ml_dtypes: its type number is dynamic
        _bfloat16_type = dt.type
        return ARGEXT_BFLOAT16
    return -1


cdef int _refuse_masked(object context, str what, object data) except -1:
    """A masked array's values are not its data buffer; ONNX has no masks, and
    honouring one would mean a filled copy. numpy.ma not yet imported: no
    masked array can exist."""
    ma = sys.modules.get("numpy.ma")
    if ma is not None and isinstance(data, ma.MaskedArray):
        raise TypeError(f"{context}: {what} is a numpy.ma.MaskedArray, whose masked elements "
                        f"the operator cannot skip; pass data.filled(value) to choose what "
                        f"they count as, or use numpy.ma's own argmax/argmin")
    return 0


cdef int _refuse_dtype(object context, str what, object dt, unsigned int allowed) except -1:
    names = [n for i, n in enumerate(_DTYPE_NAMES) if (allowed >> i) & 1]
    raise SpecTypeError(f"{context}: {what} has dtype {dt}, which it does not support "
                        f"(supported: {', '.join(names)})")


cdef cnp.ndarray _intake(object context, str what, object data, unsigned int allowed, int *code):
    """`data` as an array of an allowed dtype in native byte order."""
    cdef cnp.ndarray arr
    if type(data) is np.ndarray:
        arr = <cnp.ndarray>data
    else:
        _refuse_masked(context, what, data)
        try:
            arr = np.asarray(data)
        except (ValueError, TypeError) as e:
            raise TypeError(f"{context}: {what} must be a numeric array, got {type(data).__name__} ({e})") from e
        # None, and on NumPy 1.x ragged lists, become object arrays: name what was passed.
        if arr.dtype.kind == "O":
            raise TypeError(f"{context}: {what} must be a numeric array, got {type(data).__name__} {data!r:.80}")
    cdef cnp.dtype dt = arr.dtype
    code[0] = _dtype_code(dt)
    if code[0] < 0 or not (allowed >> code[0]) & 1:
        _refuse_dtype(context, what, dt, allowed)
    if dt.byteorder == _SWAPPED_ORDER:  # read in place: the C core swaps bounded blocks
        code[0] |= ARGEXT_BYTESWAPPED
    return arr


cdef struct Descriptor:
    argext_tensor t
    int64_t shape[64]  # used only where npy_intp is not int64
    int64_t strides[64]


cdef void _describe(Descriptor *d, cnp.ndarray a, int code) noexcept:
    cdef int i, nd = cnp.PyArray_NDIM(a)
    cdef cnp.npy_intp *shape = cnp.PyArray_DIMS(a)
    cdef cnp.npy_intp *strides = cnp.PyArray_STRIDES(a)
    d.t.data = cnp.PyArray_DATA(a)
    d.t.dtype = <argext_dtype>code
    d.t.rank = nd
    if sizeof(cnp.npy_intp) == sizeof(int64_t):
        d.t.shape = <int64_t *>shape
        d.t.strides = <int64_t *>strides
        return
    for i in range(nd):
        d.shape[i] = shape[i]
        d.strides[i] = strides[i]
    d.t.shape = d.shape
    d.t.strides = d.strides


cdef bint _overlaps(cnp.ndarray a, cnp.ndarray b):
    """Whether the memory spans of a and b intersect."""
    cdef char *lo[2]
    cdef char *hi[2]
    cdef cnp.ndarray x
    cdef int k, i
    for k in range(2):
        x = a if k == 0 else b
        lo[k] = hi[k] = <char *>cnp.PyArray_DATA(x)
        if cnp.PyArray_SIZE(x) == 0:
            return False
        for i in range(cnp.PyArray_NDIM(x)):
            span = (cnp.PyArray_DIMS(x)[i] - 1) * cnp.PyArray_STRIDES(x)[i]
            if span < 0:
                lo[k] += span
            else:
                hi[k] += span
        hi[k] += cnp.PyArray_ITEMSIZE(x)
    return lo[0] < hi[1] and lo[1] < hi[0]


cdef cnp.ndarray _output(object context, object out, cnp.ndarray src):
    """The array the C core writes for `out`: out itself once its Python-level
    facts are checked, or, where it shares memory with `src`, a fresh array
    like it that the caller copies back (_finish). Its dtype and shape are the
    C core's to check (_out_code, _out_refused)."""
    if type(out) is not np.ndarray and not isinstance(out, np.ndarray):
        raise TypeError(f"{context}: out must be a numpy.ndarray, got {type(out).__name__}")
    if type(out) is not np.ndarray:
        _refuse_masked(context, "out", out)
    cdef cnp.ndarray o = <cnp.ndarray>out
    if not o.flags.writeable:
        raise ValueError(f"{context}: out is read-only")
    if _overlaps(o, src):
        return np.empty((<object>o).shape, o.dtype)
    return o


cdef int _out_code(cnp.ndarray o):
    """o's dtype as the C core reads it: -1 for one argext has no code for."""
    cdef cnp.dtype dt = o.dtype
    cdef int code = _dtype_code(dt)
    if code >= 0 and dt.byteorder == _SWAPPED_ORDER:
        code |= ARGEXT_BYTESWAPPED
    return code


cdef int _out_refused(object context, object out, tuple shape, object dtype) except -1:
    """The exception for the C core's refusal of `out` (argext_last_error names
    the output argument), worded with what the call would have returned."""
    if out.dtype != dtype:
        raise TypeError(f"{context}: out has dtype {out.dtype}, expected {dtype}")
    raise ValueError(f"{context}: out has shape {out.shape}, expected {shape}")


cdef object _finish(cnp.ndarray result, object out):
    if out is None or result is out:
        return result
    out[...] = result  # out overlapped the input: copy the finished result
    return out


cdef int _raise(object context, str what, cnp.ndarray arr, object given, object spec_axis,
                object listed=None) except -1:
    """The exception for the C core's refusal of the calling thread's last
    call (argext_last_error), worded from the spec table. given: the Python
    value of the argument named (axis, axes or attribute); spec_axis: the
    version's axis Attribute (its rule decides the range) or None."""
    cdef argext_error e = argext_last_error()
    cdef int rank = cnp.PyArray_NDIM(arr)
    shape = (<object>arr).shape
    negative_ok = spec_axis is None or spec_axis.allowed == "axis"
    if e.status == ARGEXT_ERR_NOMEM:
        raise MemoryError(f"{context}: out of memory")
    if e.status == ARGEXT_ERR_RANK and e.arg == ARGEXT_ARG_DATA and rank == 0:
        raise SpecError(f"{context}: {what} is a 0-d array; axis must lie in [-r, r-1], "
                        f"which is empty for rank 0")
    if e.status == ARGEXT_ERR_AXIS and e.arg == ARGEXT_ARG_AXIS:
        raise SpecError(f"{context}: axis={given} is out of range {_range_text(rank, negative_ok)} "
                        f"for an input of rank {rank}")
    if e.status == ARGEXT_ERR_AXIS and e.arg == ARGEXT_ARG_AXES:
        if e.index < 0:
            if e.value < 1:
                raise SpecError(f"{context}: axes must name at least one axis, got {given!r}")
            raise SpecError(f"{context}: axes {given!r} name more axes than the input's rank {rank}")
        a = e.value
        if -rank <= a < rank:
            raise SpecError(f"{context}: axes {given!r} repeat axis {listed[e.index]!r}")
        raise SpecError(f"{context}: axes={listed[e.index]} is out of range "
                        f"{_range_text(rank, True)} for an input of rank {rank}")
    if e.status == ARGEXT_ERR_ATTRIBUTE and e.arg in (ARGEXT_ARG_KEEPDIMS, ARGEXT_ARG_SELECT_LAST_INDEX):
        name = "keepdims" if e.arg == ARGEXT_ARG_KEEPDIMS else "select_last_index"
        raise SpecError(f"{context}: {name}={given!r} is out of range (allowed: (0, 1))")
    if e.status == ARGEXT_ERR_EMPTY_AXIS:
        if e.arg == ARGEXT_ARG_AXES:
            raise ValueError(f"{context}: cannot reduce over axes {given!r}, which hold no elements "
                             f"(data shape {shape})")
        raise ValueError(f"{context}: cannot reduce over axis {given}, which has size 0 "
                         f"(data shape {shape})")
    if e.status == ARGEXT_ERR_OVERFLOW:
        raise OverflowError(f"{context}: {e.value} reduced elements cannot be indexed by "
                            f"output_dtype {given}")
    message = argext_status_string(e.status).decode()
    raise SpecError(f"{context}: {message}")


cdef inline bint _small(cnp.ndarray arr) noexcept:
    # Below this many elements releasing the GIL costs more than the call.
    return cnp.PyArray_SIZE(arr) < 16384


cdef object _onnx_arg(int is_min, _Version v, object data, object axis, object keepdims,
                      object select_last_index, object out):
    cdef int kd = _flag(v, "keepdims", keepdims)
    cdef int last = _flag(v, "select_last_index", select_last_index)
    cdef int code
    cdef cnp.ndarray arr = _intake(v.name, "data", data, v.dtype_mask, &code)
    cdef int64_t ax = _c_axis(v.name, "axis", axis)
    cdef int rank = cnp.PyArray_NDIM(arr), d, o = 0
    cdef int64_t a = ax + rank if ax < 0 else ax
    cdef cnp.npy_intp dims[64]
    cdef cnp.ndarray result = None
    cdef Descriptor din, dout
    cdef argext_status st
    _describe(&din, arr, code)
    if 0 <= a < rank and kd >= 0 and kd <= 1:  # else no output shape: C reports the fault
        for d in range(rank):
            if d != a:
                dims[o] = cnp.PyArray_DIMS(arr)[d]
                o += 1
            elif kd:
                dims[o] = 1
                o += 1
        if out is None:
            result = cnp.PyArray_EMPTY(o, dims, cnp.NPY_INT64, 0)
            _describe(&dout, result, ARGEXT_INT64)
        else:
            result = _output(v.name, out, arr)
            _describe(&dout, result, _out_code(result))
    if _small(arr):
        st = (argext_argmin if is_min else argext_argmax)(&din.t, &dout.t if result is not None else NULL,
                                                          ax, kd, last)
    else:
        with nogil:
            st = (argext_argmin if is_min else argext_argmax)(&din.t, &dout.t if result is not None else NULL,
                                                              ax, kd, last)
    if st != ARGEXT_OK:
        e = argext_last_error()
        if e.arg == ARGEXT_ARG_OUTPUT:
            _out_refused(v.name, out, cnp.PyArray_IntTupleFromIntp(o, dims), _INT64)
        given = {ARGEXT_ARG_KEEPDIMS: keepdims, ARGEXT_ARG_SELECT_LAST_INDEX: select_last_index}.get(e.arg, axis)
        _raise(v.name, "data", arr, given, None)
    return result if out is None else _finish(result, out)


def argmax(data, axis=0, keepdims=1, select_last_index=0, *, opset=None, out=None):
    """ONNX ArgMax: int64 indices of the largest elements along `axis`.

    opset is the model's default-domain opset (None: the newest). NaN counts
    as the largest value; select_last_index=1 (opset >= 12) picks the last
    occurrence instead of the first.
    """
    return _onnx_arg(0, _ARGMAX_NEWEST if opset is None else _version("ArgMax", opset),
                     data, axis, keepdims, select_last_index, out)


def argmin(data, axis=0, keepdims=1, select_last_index=0, *, opset=None, out=None):
    """ONNX ArgMin: int64 indices of the smallest elements along `axis`.

    opset is the model's default-domain opset (None: the newest). NaN counts
    as the smallest value; select_last_index=1 (opset >= 12) picks the last
    occurrence instead of the first.
    """
    return _onnx_arg(1, _ARGMIN_NEWEST if opset is None else _version("ArgMin", opset),
                     data, axis, keepdims, select_last_index, out)


def hardmax(input, axis=None, *, opset=None, out=None):
    """ONNX Hardmax: 1 at the first maximum of each row, 0 elsewhere.

    Version 13 (opset >= 13) takes rows along `axis` (default -1). Versions
    1 and 11 coerce the input to 2-D [prod(shape[:axis]), prod(shape[axis:])]
    (default axis 1) and take its rows. Output: input's dtype and shape.
    """
    cdef _Version v = _version("Hardmax", opset)
    cdef int code
    # Which dtypes each version takes is the C core's to judge (argext_hardmax).
    cdef cnp.ndarray arr = _intake(v.name, "input", input, _EVERY_DTYPE, &code)
    attr = v.attributes["axis"]
    given = attr.default if axis is None else axis
    cdef int64_t ax = _c_axis(v.name, "axis", given)
    # A fresh output comes from np.zeros: the OS hands out zeroed pages, so
    # the kernel writes only the ones instead of zeroing memory twice.
    cdef bint onto_zeros = out is None
    odt = arr.dtype if not (code & ARGEXT_BYTESWAPPED) else arr.dtype.newbyteorder("=")
    cdef cnp.ndarray result = (np.zeros((<object>arr).shape, odt) if onto_zeros else
                               _output(v.name, out, arr))
    cdef Descriptor din, dout
    _describe(&din, arr, code)
    _describe(&dout, result, code & ~ARGEXT_BYTESWAPPED if onto_zeros else _out_code(result))
    cdef argext_status st
    cdef int version = v.since
    with nogil:
        if onto_zeros:
            st = argext_hardmax_onto_zeros(&din.t, &dout.t, ax, version)
        else:
            st = argext_hardmax(&din.t, &dout.t, ax, version)
    if st != ARGEXT_OK:
        if argext_last_error().status == ARGEXT_ERR_DTYPE and argext_last_error().arg == ARGEXT_ARG_DATA:
            _refuse_dtype(v.name, "input", arr.dtype, v.dtype_mask)
        if argext_last_error().arg == ARGEXT_ARG_OUTPUT:
            _out_refused(v.name, out, (<object>arr).shape, odt)
        if argext_last_error().arg == ARGEXT_ARG_DATA and cnp.PyArray_NDIM(arr) == 0:
            raise SpecError(f"{v.name}: input is a 0-d array; axis has no valid value for rank 0")
        _raise(v.name, "input", arr, given, attr)
    return _finish(result, out)


cdef object _multi_axis(int is_min, str name, object data, object axes, object axis_direction,
                        object output_dtype, object out):
    cdef int code
    cdef cnp.ndarray arr = _intake(name, "data", data, _EVERY_DTYPE, &code)
    cdef int rank = cnp.PyArray_NDIM(arr)
    try:
        operator.index(axes)  # a single integer names one axis (an ndarray has __index__ too)
        listed = [axes]
    except TypeError:
        try:
            listed = list(axes)
        except TypeError:
            raise SpecTypeError(f"{name}: axes must be a sequence of integers, "
                                f"got {axes!r}") from None
    cdef int64_t c_axes[64]
    cdef int i, naxes = len(listed)
    for i in range(min(naxes, 64)):
        c_axes[i] = _c_axis(name, "axes", listed[i])
    if not isinstance(axis_direction, str):
        raise SpecTypeError(f"{name}: axis_direction must be 'increasing' or 'decreasing', "
                            f"got {axis_direction!r}")
    if axis_direction not in ("increasing", "decreasing"):
        raise SpecError(f"{name}: axis_direction must be 'increasing' or 'decreasing', "
                        f"got {axis_direction!r}")
    try:
        odt = np.dtype(output_dtype)
        out_code = _INDEX_DTYPES[odt]
    except (TypeError, ValueError, KeyError):  # not a dtype at all, or not one of the four
        raise SpecTypeError(f"{name}: output_dtype must be int64, int32, uint64 or uint32, "
                            f"got {output_dtype!r}") from None
    shape = (<object>arr).shape
    cdef Descriptor din, dout
    cdef cnp.ndarray result = None
    _describe(&din, arr, code)
    if 1 <= naxes <= rank and all(-rank <= c_axes[i] < rank for i in range(naxes)):
        reduced = {c_axes[i] % rank for i in range(naxes)}
        out_shape = tuple(1 if d in reduced else n for d, n in enumerate(shape))
        if out is None:
            result = np.empty(out_shape, odt)
            _describe(&dout, result, out_code)
        else:
            result = _output(name, out, arr)
            # output_dtype and out name the output's dtype twice: only Python sees both.
            if out.dtype != odt:
                raise TypeError(f"{name}: out has dtype {out.dtype}, expected {odt}")
            _describe(&dout, result, _out_code(result))
    cdef argext_direction direction = ARGEXT_LAST if axis_direction == "decreasing" else ARGEXT_FIRST
    cdef argext_status st
    cdef argext_tensor *pout = &dout.t if result is not None else NULL
    with nogil:
        if is_min:
            st = argext_reduce_argmin(&din.t, pout, c_axes, naxes, direction)
        else:
            st = argext_reduce_argmax(&din.t, pout, c_axes, naxes, direction)
    if st != ARGEXT_OK:
        if argext_last_error().arg == ARGEXT_ARG_OUTPUT and argext_last_error().status != ARGEXT_ERR_OVERFLOW:
            _out_refused(name, out, out_shape, odt)
        _raise(name, "data", arr, odt if argext_last_error().status == ARGEXT_ERR_OVERFLOW else axes,
               None, listed)
    return _finish(result, out)


def reduce_argmax(data, axes, *, axis_direction="increasing", output_dtype="int64", out=None):
    """DirectML ARGMAX over several axes at once (DML_ARGMAX_OPERATOR_DESC).

    Every axis in `axes` (distinct integers in [-r, r-1], in any order; a
    single integer names one axis) becomes size 1. Each output element is the
    row-major flattened index, over the reduced axes in increasing axis
    order, of the largest element of its sub-block; NaN counts as the
    largest. axis_direction "increasing" picks the first occurrence,
    "decreasing" the last. output_dtype: int64, int32, uint64 or uint32, as a
    dtype or a name; OverflowError if it cannot index every reduced element.
    out: an array of exactly that dtype and the output shape; it is returned.
    """
    return _multi_axis(0, "reduce_argmax", data, axes, axis_direction, output_dtype, out)


def reduce_argmin(data, axes, *, axis_direction="increasing", output_dtype="int64", out=None):
    """DirectML ARGMIN over several axes at once: reduce_argmax's contract with
    the smallest element; NaN counts as the smallest."""
    return _multi_axis(1, "reduce_argmin", data, axes, axis_direction, output_dtype, out)


# NumPy's AxisError (numpy.exceptions from NumPy 1.25, the top level before).
_AxisError = getattr(getattr(np, "exceptions", np), "AxisError", None) or np.AxisError


cdef object _nan_arg(int is_min, str name, object a, object axis, object keepdims, object out):
    cdef int code
    cdef cnp.ndarray arr = _intake(name, "a", a, _EVERY_DTYPE, &code)
    cdef int rank = cnp.PyArray_NDIM(arr)
    cdef int kd = bool(keepdims)
    cdef int64_t ax = 0
    cdef int64_t *axis_p = NULL
    if axis is None:
        if rank == 0:  # one element: the flattened array has one
            arr = arr.reshape(1)
    else:
        a_ = operator.index(axis)
        if not -rank <= a_ < rank:
            raise _AxisError(a_, rank)
        ax = a_ + rank if a_ < 0 else a_
        axis_p = &ax
    shape = (<object>arr).shape
    if any(shape[d] == 0 for d in (range(rank) if axis is None else (ax,))):
        raise ValueError(f"attempt to get {name[3:]} of an empty sequence")
    if axis is None:
        out_shape = (1,) * rank if kd else ()
    else:
        out_shape = shape[:ax] + ((1,) if kd else ()) + shape[ax + 1:]
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"{name}: out must be a numpy.ndarray, got {type(out).__name__}")
        if not np.can_cast(out.dtype, np.int64, "safe") or out.dtype.kind not in "iu":
            raise TypeError(f"{name}: cannot cast the int64 indices into out of dtype {out.dtype}")
        if out.shape != out_shape:
            raise ValueError(f"{name}: out has shape {out.shape}, expected {out_shape}")
    # Into a fresh array: an all-NaN slice must leave `out` untouched.
    cdef cnp.ndarray result = np.empty(out_shape, np.int64)
    cdef Descriptor din, dout
    _describe(&din, arr, code)
    _describe(&dout, result, ARGEXT_INT64)
    cdef argext_status st
    with nogil:
        if is_min:
            st = argext_nanargmin(&din.t, &dout.t, axis_p, kd)
        else:
            st = argext_nanargmax(&din.t, &dout.t, axis_p, kd)
    if st == ARGEXT_ERR_ALL_NAN:
        raise ValueError("All-NaN slice encountered")
    if st != ARGEXT_OK:
        _raise(name, "a", arr, axis, None)
    if out is not None:
        out[...] = result
        return out
    return result[()] if result.ndim == 0 else result


def nanargmax(a, axis=None, *, keepdims=False, out=None):
    """NumPy's nanargmax: indices of the largest elements along `axis`, NaN
    ignored (axis=None: the index into the flattened array, a scalar).
    An all-NaN slice raises ValueError("All-NaN slice encountered") and leaves
    `out` untouched. Ties give the first occurrence; -0.0 equals +0.0."""
    return _nan_arg(0, "nanargmax", a, axis, keepdims, out)


def nanargmin(a, axis=None, *, keepdims=False, out=None):
    """NumPy's nanargmin: nanargmax's contract with the smallest elements."""
    return _nan_arg(1, "nanargmin", a, axis, keepdims, out)


def version():
    """The C core's version string."""
    return argext_version().decode()


_ISA_NAMES = tuple(argext_isa_name(<argext_isa>i).decode() for i in range(ARGEXT_ISA_COUNT))
# Lowest first, as dispatch.c ranks them (the C enum's values are in order of addition).
_ISA_RANK = {n: r for r, n in enumerate(("baseline", "sse2", "sse42", "neon", "avx2", "avx512"))}


def get_isa():
    """Name of the kernel instruction-set level in use."""
    return _ISA_NAMES[argext_get_isa()]


def supported_isas():
    """Names of the levels this CPU and build can run, lowest first."""
    return tuple(sorted((n for i, n in enumerate(_ISA_NAMES) if argext_isa_supported(<argext_isa>i)),
                        key=_ISA_RANK.__getitem__))


def set_isa(name):
    """Force a kernel level (a name of supported_isas(): "baseline", "sse2", "sse42",
    "avx2", "avx512" on x86-64, "neon" on arm64) or None for the best."""
    cdef int i
    if name is None:
        i = argext_isa_best()
    elif name in _ISA_NAMES:
        i = _ISA_NAMES.index(name)
    else:
        raise ValueError(f"set_isa: unknown ISA {name!r} (known: {', '.join(_ISA_NAMES)})")
    if argext_set_isa(<argext_isa>i) != ARGEXT_OK:
        raise ValueError(f"set_isa: {name!r} is not supported here (supported: "
                         f"{', '.join(supported_isas())})")


def get_num_threads():
    """Threads a large call may use (the calling thread included)."""
    return argext_get_num_threads()


def set_num_threads(n):
    """Sets the threads a large call may use: an int in [1, 1024], or None for
    the default (ARGEXT_NUM_THREADS, else the CPUs this process may use)."""
    if n is None:
        argext_set_num_threads(0)
        return
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"set_num_threads: n must be an int or None, got {n!r}")
    if not 1 <= n <= ARGEXT_MAX_THREADS:
        raise ValueError(f"set_num_threads: n must be in [1, {ARGEXT_MAX_THREADS}], got {n}")
    argext_set_num_threads(n)


def schema(op_type, opset=None):
    """The version of `op_type` in force at `opset` (None: the newest).

    Returns an OpSchema: since_version, attributes (name -> Attribute with
    type, default and allowed values), dtypes (allowed input dtypes) and
    type_constraints (the same as ONNX type strings).
    """
    if not isinstance(op_type, str):  # an unhashable one would fail the lookup with a bare TypeError
        raise SpecTypeError(f"schema: op_type must be an operator name, got {op_type!r}")
    if op_type not in _VERSIONS:
        raise SpecError(f"schema: unknown operator {op_type!r} (known: {', '.join(_VERSIONS)})")
    return _version(op_type, opset).schema


# ---------------------------------------------------------------------------
# The C API capsule argext._C_API for other extension modules: the table of
# csrc/argext_capi.h, filled with this module's own kernels.
cdef extern from *:
    """
    #define ARGEXT_CAPI_PROVIDER
    #include "argext_capi.h"

    static PyObject *argext_capi_capsule(void)
    {
        return PyCapsule_New((void *)&argext_capi_provided, ARGEXT_CAPI_NAME, NULL);
    }
    """
    object argext_capi_capsule()

_C_API = argext_capi_capsule()
