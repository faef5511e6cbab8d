# NumPy's nanargmax and nanargmin: NumPy's signature, results and exceptions.


cdef object _nan_arg(Entry entry, str name, object a, object axis, object keepdims, object out):
    cdef Call c
    c.entry = entry
    c.keepdims = bool(keepdims)
    cdef int code
    cdef cnp.ndarray arr = _intake(name, "a", a, _EVERY_DTYPE, &code)
    c.every_axis = axis is None
    if c.every_axis and cnp.PyArray_NDIM(arr) == 0:  # one element: the flattened array has one
        arr = arr.reshape(1)
    c.axis = 0
    if not c.every_axis:
        given = operator.index(axis)  # NumPy's TypeError for a non-integer
        c.axis = given if _FAR_AXIS <= given <= -_FAR_AXIS else _FAR_AXIS
    _describe(&c.data, arr, code)
    cdef int rank = cnp.PyArray_NDIM(arr), d
    cdef int64_t ax = c.axis + rank if c.axis < 0 else c.axis
    cdef unsigned char reduced[64]
    cdef cnp.npy_intp dims[64]
    result = None
    if c.every_axis or 0 <= ax < rank:  # else no output shape: C reports the fault
        for d in range(rank):
            reduced[d] = c.every_axis or d == ax
        # Into a fresh array: an all-NaN slice must leave `out` untouched.
        result = cnp.PyArray_EMPTY(_reduced_dims(arr, reduced, c.keepdims, dims), dims,
                                   cnp.NPY_INT64, 0)
    if _run(&c, arr, result) != ARGEXT_OK:
        _raise(name, "a", arr, {ARGEXT_ARG_AXIS: axis}, STYLE_NUMPY)
    if out is None:
        return result[()] if result.ndim == 0 else result
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{name}: out must be a numpy.ndarray, got {type(out).__name__}")
    if not np.can_cast(out.dtype, np.int64, "safe") or out.dtype.kind not in "iu":
        raise TypeError(f"{name}: cannot cast the int64 indices into out of dtype {out.dtype}")
    if out.shape != result.shape:
        raise ValueError(f"{name}: out has shape {out.shape}, expected {result.shape}")
    out[...] = result
    return out


def nanargmax(a, axis=None, *, keepdims=False, out=None):
    """NumPy's nanargmax: indices of the largest elements along `axis`, NaN
    ignored (axis=None: the index into the flattened array, a scalar).
    An all-NaN slice raises ValueError("All-NaN slice encountered") and leaves
    `out` untouched. Ties give the first occurrence; -0.0 equals +0.0."""
    return _nan_arg(ENTRY_NANARGMAX, "nanargmax", a, axis, keepdims, out)


def nanargmin(a, axis=None, *, keepdims=False, out=None):
    """NumPy's nanargmin: nanargmax's contract with the smallest elements."""
    return _nan_arg(ENTRY_NANARGMIN, "nanargmin", a, axis, keepdims, out)
