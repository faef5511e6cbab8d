# The error path: the C core's refusal of the calling thread's last call
# (argext_last_error: status, argument, value) as the exception a caller of
# that family expects, worded with argext._errors.

cdef enum Style:
    STYLE_ONNX     # argext.SpecError and friends, naming operator and version
    STYLE_NUMPY    # NumPy's own exceptions and texts (AxisError, ...)


# The 0/1 attributes the C core names in a refusal.
cdef dict _FLAG_NAMES = {ARGEXT_ARG_KEEPDIMS: "keepdims", ARGEXT_ARG_SELECT_LAST_INDEX: "select_last_index",
                         ARGEXT_ARG_LARGEST: "largest", ARGEXT_ARG_SORTED: "sorted"}


def _raise(str context, str what, cnp.ndarray data, dict given, int style=STYLE_ONNX, *,
           out=None, out_shape=None, out_dtype=None, unsigned int allowed=0, spec_axis=None,
           listed=None):
    """Raises for the last refusal. given: the Python value of each argument C
    may name (argext_arg -> value); out, out_shape, out_dtype: the caller's out
    and what the call would have returned; allowed: the dtype mask of the
    version (Hardmax's C check); spec_axis: the version's axis Attribute (its
    rule decides the range shown); listed: reduce's axes as a list."""
    cdef argext_error e = argext_last_error()
    cdef int rank = cnp.PyArray_NDIM(data)
    shape = (<object>data).shape
    name = context if style == STYLE_ONNX else context.rpartition(".")[2]
    if e.status == ARGEXT_ERR_NOMEM:
        raise MemoryError(f"{context}: out of memory")
    if e.arg in (ARGEXT_ARG_OUTPUT, ARGEXT_ARG_INDICES) and e.status != ARGEXT_ERR_OVERFLOW:
        where = "out"
        if isinstance(out_dtype, tuple):  # TopK's pair: out is (values, indices)
            which = e.arg == ARGEXT_ARG_INDICES
            where, out, out_dtype = f"out[{which:d}]", out[which], out_dtype[which]
        if out.dtype != out_dtype:
            raise _errors.out_dtype(context, out.dtype, out_dtype, where)
        raise _errors.out_shape(context, out.shape, out_shape, where)
    if e.status == ARGEXT_ERR_DTYPE and e.arg == ARGEXT_ARG_DATA:
        raise _errors.dtype_refused(context, what, _dtype_text(data, e.value), _dtype_names(allowed))
    if style == STYLE_NUMPY:
        if e.status == ARGEXT_ERR_ALL_NAN:
            raise ValueError(_errors.ALL_NAN)
        if e.status == ARGEXT_ERR_EMPTY_AXIS:
            raise _errors.empty_sequence(name[3:] if name.startswith("nan") else name)
        if e.status in (ARGEXT_ERR_AXIS, ARGEXT_ERR_RANK):
            raise _errors.AxisError(given[ARGEXT_ARG_AXIS], rank)
    if e.arg == ARGEXT_ARG_DATA and rank == 0:
        raise SpecError(f"{context}: {what} is a 0-d array: it has no axis to reduce")
    if e.status == ARGEXT_ERR_AXIS and e.arg == ARGEXT_ARG_AXIS:
        negative_ok = spec_axis is None or spec_axis.allowed == "axis"
        raise _errors.axis_out_of_range(context, "axis", given[ARGEXT_ARG_AXIS], rank, negative_ok)
    if e.status == ARGEXT_ERR_AXIS and e.arg == ARGEXT_ARG_AXES:
        axes = given[ARGEXT_ARG_AXES]
        if e.index < 0:
            if e.value < 1:
                raise SpecError(f"{context}: axes must name at least one axis, got {axes!r}")
            raise SpecError(f"{context}: axes {axes!r} name more axes than the input's rank {rank}")
        if -rank <= e.value < rank:
            raise SpecError(f"{context}: axes {axes!r} repeat axis {listed[e.index]!r}")
        raise _errors.axis_out_of_range(context, "axes", listed[e.index], rank)
    if e.status == ARGEXT_ERR_ATTRIBUTE and e.arg in _FLAG_NAMES:
        raise SpecError(f"{context}: {_FLAG_NAMES[e.arg]}={given[e.arg]!r} is out of range "
                        f"(allowed: (0, 1))")
    if e.status == ARGEXT_ERR_ATTRIBUTE and e.arg == ARGEXT_ARG_K:
        axis = given[ARGEXT_ARG_AXIS]
        raise _errors.k_out_of_range(context, given[ARGEXT_ARG_K], axis, shape[axis])
    if e.status == ARGEXT_ERR_EMPTY_AXIS:
        if e.arg == ARGEXT_ARG_AXES:
            raise _errors.empty_axes(context, given[ARGEXT_ARG_AXES], shape)
        raise _errors.empty_axis(context, given[ARGEXT_ARG_AXIS], shape)
    if e.status == ARGEXT_ERR_OVERFLOW:
        raise _errors.index_overflow(context, e.value, out_dtype)
    raise SpecError(f"{context}: {argext_status_string(e.status).decode()}")
