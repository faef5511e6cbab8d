# NumPy's argmax, argmin, nanargmax and nanargmin: NumPy's signatures,
# results and exceptions (argext.numpy; nanargmax/nanargmin at the top level).

# What argext.numpy's functions name in NumPy's texts, by entry.
cdef dict _NUMPY_NAMES = {ENTRY_ARGMAX: "argmax", ENTRY_ARGMIN: "argmin",
                          ENTRY_NANARGMAX: "nanargmax", ENTRY_NANARGMIN: "nanargmin"}


cdef object _numpy_out(str name, object out, cnp.ndarray result):
    """result written into `out` by NumPy's rules: an ndarray of result's
    shape whose dtype the indices cast to safely (intp's kinds)."""
    if not isinstance(out, cnp.ndarray):
        raise TypeError("output must be an array")
    if not np.can_cast(out.dtype, np.intp, "safe") or out.dtype.kind not in "iu":
        raise TypeError(f"Cannot cast array data from {out.dtype!r} to {np.dtype(np.intp)!r} "
                        f"according to the rule 'safe'")
    if out.shape != (<object>result).shape:
        raise ValueError(f"output array does not match result of np.{name}")
    out[...] = result
    return out


cdef object _numpy_arg(Entry entry, object a, object axis, object out, bint keepdims,
                       object fallback):
    """The NumPy-shaped family. axis=None: NumPy's flattened index (argmax and
    argmin reduce every axis at once, as reduce_argmax does). fallback:
    NumPy's own function for a NumPy dtype argext does not compute, or None
    to refuse it."""
    cdef str name = _NUMPY_NAMES[entry]
    cdef Call c
    cdef int code, d
    try:
        arr = _intake(name, "a", a, _EVERY_DTYPE | (1u << _BOOL), &code)
    except TypeError:  # a dtype argext lacks, or no numeric array at all: NumPy's own
        if fallback is None or _foreign(a) or _masked(a):
            raise
        return fallback(a, axis, out, keepdims=keepdims)
    if code == _BOOL:
        arr = arr.view(np.uint8)
        code = ARGEXT_UINT8
    every = axis is None
    cdef bint zero_d = cnp.PyArray_NDIM(arr) == 0
    if zero_d:  # as NumPy: one element along axis 0 (or -1), and a 0-d result
        arr = arr.reshape(1)
    cdef int rank = cnp.PyArray_NDIM(arr)
    c.entry = entry
    c.keepdims = keepdims
    c.select_last_index = 0
    c.axis = 0
    c.every_axis = every
    if not every:
        given = operator.index(axis)  # NumPy's TypeError for a non-integer
        c.axis = given if _FAR_AXIS <= given <= -_FAR_AXIS else _FAR_AXIS
    elif entry in (ENTRY_ARGMAX, ENTRY_ARGMIN):  # the flattened index, as reduce_argmax's
        c.entry = ENTRY_REDUCE_ARGMAX if entry == ENTRY_ARGMAX else ENTRY_REDUCE_ARGMIN
        c.direction = ARGEXT_FIRST
        c.naxes = rank
        for d in range(rank):
            c.axes[d] = d
    _describe(&c.data, arr, code)
    cdef int64_t ax = c.axis + rank if c.axis < 0 else c.axis
    cdef unsigned char reduced[ARGEXT_MAX_RANK]
    cdef cnp.npy_intp dims[ARGEXT_MAX_RANK]
    cdef bint kept = keepdims or c.entry in (ENTRY_REDUCE_ARGMAX, ENTRY_REDUCE_ARGMIN)
    result = None
    if every or 0 <= ax < rank:  # else no output shape: C reports the fault
        for d in range(rank):
            reduced[d] = every or d == ax
        # Into a fresh array: an all-NaN slice must leave `out` untouched.
        result = cnp.PyArray_EMPTY(_reduced_dims(arr, reduced, kept, dims), dims, cnp.NPY_INT64, 0)
    if _run(&c, arr, result, ARGEXT_INT64) != ARGEXT_OK:
        _raise(name, "a", arr, {ARGEXT_ARG_AXIS: axis}, STYLE_NUMPY)
    if zero_d or (every and not keepdims):
        result = result.reshape(())
    if out is not None:
        return _numpy_out(name, out, result)
    if type(a) is not cnp.ndarray and isinstance(a, cnp.ndarray) and result.ndim:
        return result.view(type(a))  # a subclass, as ndarray.argmax returns one
    if _foreign(a):
        return _to_caller(result, a, ARGEXT_INT64)
    return result[()] if result.ndim == 0 else result


cdef object _numpy_columns(Entry entry, object function, object a, object axis, object out,
                           bint keepdims):
    """An Arrow or pandas column: chunk by chunk, merged (argext._columns)."""
    nan = entry in (ENTRY_NANARGMAX, ENTRY_NANARGMIN)
    return _columns.reduce(functools.partial(function, axis=axis, out=out, keepdims=keepdims),
                           _NUMPY_NAMES[entry], "a", a,
                           is_min=entry in (ENTRY_ARGMIN, ENTRY_NANARGMIN), nan_wins=not nan,
                           skip=nan)


def _numpy_function(int entry, a, axis, out, keepdims, fallback, function):
    """argext.numpy's functions: entry (ENTRY_*), fallback as in _numpy_arg,
    function: the public function itself (for columns, called per chunk)."""
    if type(a) is not cnp.ndarray and _columnar(a):
        return _numpy_columns(<Entry>entry, function, a, axis, out, keepdims)
    return _numpy_arg(<Entry>entry, a, axis, out, keepdims, fallback)


_NUMPY_ENTRIES = {"argmax": ENTRY_ARGMAX, "argmin": ENTRY_ARGMIN,
                  "nanargmax": ENTRY_NANARGMAX, "nanargmin": ENTRY_NANARGMIN}


def nanargmax(a, axis=None, *, keepdims=False, out=None):
    """NumPy's nanargmax: indices of the largest elements along `axis`, NaN
    ignored (axis=None: the index into the flattened array, a scalar).
    An all-NaN slice raises ValueError("All-NaN slice encountered") and leaves
    `out` untouched. Ties give the first occurrence; -0.0 equals +0.0."""
    return _numpy_function(ENTRY_NANARGMAX, a, axis, out, bool(keepdims), None, nanargmax)


def nanargmin(a, axis=None, *, keepdims=False, out=None):
    """NumPy's nanargmin: nanargmax's contract with the smallest elements."""
    return _numpy_function(ENTRY_NANARGMIN, a, axis, out, bool(keepdims), None, nanargmin)
