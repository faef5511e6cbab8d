# The DirectML-style multi-axis arg reduction (DML_ARGMAX_OPERATOR_DESC).

_INDEX_DTYPES = {np.dtype(n) for n in _errors.INDEX_LIMITS}


cdef object _index_limit(object output_dtype):
    """(largest index, dtype) of a valid output_dtype, else None (the call refuses it)."""
    try:
        odt = np.dtype(output_dtype)
    except (TypeError, ValueError):
        return None
    return (_errors.INDEX_LIMITS[odt.name], odt) if odt in _INDEX_DTYPES else None


cdef object _multi_axis(Entry entry, str name, object data, object axes, object axis_direction,
                        object output_dtype, object out):
    cdef Call c
    c.entry = entry
    cdef int code
    cdef cnp.ndarray arr = _intake(name, "data", data, _EVERY_DTYPE, &code)
    _describe(&c.data, arr, code)
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
    cdef int i
    c.naxes = len(listed)
    for i in range(min(c.naxes, ARGEXT_MAX_RANK)):
        c.axes[i] = _c_axis(name, "axes", listed[i])
    if not isinstance(axis_direction, str):
        raise SpecTypeError(f"{name}: axis_direction must be 'increasing' or 'decreasing', "
                            f"got {axis_direction!r}")
    if axis_direction not in ("increasing", "decreasing"):
        raise SpecError(f"{name}: axis_direction must be 'increasing' or 'decreasing', "
                        f"got {axis_direction!r}")
    c.direction = ARGEXT_LAST if axis_direction == "decreasing" else ARGEXT_FIRST
    try:
        odt = np.dtype(output_dtype)
    except (TypeError, ValueError):  # not a dtype at all
        odt = None
    if odt not in _INDEX_DTYPES:
        raise SpecTypeError(f"{name}: output_dtype must be int64, int32, uint64 or uint32, "
                            f"got {output_dtype!r}")
    cdef unsigned char reduced[ARGEXT_MAX_RANK]
    cdef cnp.npy_intp dims[ARGEXT_MAX_RANK]
    result = None
    if 1 <= c.naxes <= rank and all(-rank <= c.axes[i] < rank for i in range(c.naxes)):
        memset(reduced, 0, rank)
        for i in range(c.naxes):
            reduced[c.axes[i] + rank if c.axes[i] < 0 else c.axes[i]] = 1
        _reduced_dims(arr, reduced, True, dims)
        if out is None:
            result = cnp.PyArray_EMPTY(rank, dims, (<cnp.dtype>odt).type_num, 0)
        else:
            result = _output(name, out, arr)
            # output_dtype and out name the output's dtype twice: only Python sees both.
            if out.dtype != odt:
                raise _errors.out_dtype(name, out.dtype, odt)
    if _run(&c, arr, result, -1) != ARGEXT_OK:
        _raise(name, "data", arr, {ARGEXT_ARG_AXES: axes}, out=out,
               out_shape=cnp.PyArray_IntTupleFromIntp(rank, dims), out_dtype=odt, listed=listed)
    return _finish(result, out, data, _code(odt))


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
    if type(data) is not cnp.ndarray and _columnar(data):
        return _columns.reduce(
            functools.partial(reduce_argmax, axes=axes, axis_direction=axis_direction,
                              output_dtype=output_dtype, out=out),
            "reduce_argmax", "data", data, is_min=False, nan_wins=True,
            last=axis_direction == "decreasing", limit=_index_limit(output_dtype))
    return _multi_axis(ENTRY_REDUCE_ARGMAX, "reduce_argmax", data, axes, axis_direction, output_dtype, out)


def reduce_argmin(data, axes, *, axis_direction="increasing", output_dtype="int64", out=None):
    """DirectML ARGMIN over several axes at once: reduce_argmax's contract with
    the smallest element; NaN counts as the smallest."""
    if type(data) is not cnp.ndarray and _columnar(data):
        return _columns.reduce(
            functools.partial(reduce_argmin, axes=axes, axis_direction=axis_direction,
                              output_dtype=output_dtype, out=out),
            "reduce_argmin", "data", data, is_min=True, nan_wins=True,
            last=axis_direction == "decreasing", limit=_index_limit(output_dtype))
    return _multi_axis(ENTRY_REDUCE_ARGMIN, "reduce_argmin", data, axes, axis_direction, output_dtype, out)
