# ONNX ArgMax and ArgMin (versions 1, 11, 12, 13).

cdef _Version _ARGMAX_NEWEST = _VERSIONS["ArgMax"][NEWEST_OPSET]
cdef _Version _ARGMIN_NEWEST = _VERSIONS["ArgMin"][NEWEST_OPSET]


cdef object _onnx_arg(Entry entry, _Version v, object data, object axis, object keepdims,
                      object select_last_index, object out):
    cdef Call c
    c.entry = entry
    c.keepdims = _flag(v, "keepdims", keepdims)
    c.select_last_index = _flag(v, "select_last_index", select_last_index)
    cdef int code
    cdef cnp.ndarray arr = _intake(v.name, "data", data, v.dtype_mask, &code)
    if axis is None:
        raise _errors.axis_none(v.name)
    c.axis = _c_axis(v.name, "axis", axis)
    _describe(&c.data, arr, code)
    cdef int rank = cnp.PyArray_NDIM(arr)
    cdef int64_t a = c.axis + rank if c.axis < 0 else c.axis
    cdef unsigned char reduced[ARGEXT_MAX_RANK]
    cdef cnp.npy_intp dims[ARGEXT_MAX_RANK]
    cdef int ndim = 0
    result = None
    if 0 <= a < rank and 0 <= c.keepdims <= 1:  # else no output shape: C reports the fault
        memset(reduced, 0, rank)
        reduced[a] = 1
        ndim = _reduced_dims(arr, reduced, c.keepdims, dims)
        result = (cnp.PyArray_EMPTY(ndim, dims, cnp.NPY_INT64, 0) if out is None
                  else _output(v.name, out, arr))
    if _run(&c, arr, result, ARGEXT_INT64 if out is None else -1) != ARGEXT_OK:
        _raise(v.name, "data", arr,
               {ARGEXT_ARG_AXIS: axis, ARGEXT_ARG_KEEPDIMS: keepdims,
                ARGEXT_ARG_SELECT_LAST_INDEX: select_last_index},
               out=out, out_shape=cnp.PyArray_IntTupleFromIntp(ndim, dims),
               out_dtype=_INT64)
    return _finish(result, out, data, ARGEXT_INT64)


def argmax(data, axis=0, keepdims=1, select_last_index=0, *, opset=None, out=None):
    """ONNX ArgMax: int64 indices of the largest elements along `axis`.

    opset is the model's default-domain opset (None: the newest). NaN counts
    as the largest value; select_last_index=1 (opset >= 12) picks the last
    occurrence instead of the first.
    """
    cdef _Version v = _ARGMAX_NEWEST if opset is None else _version("ArgMax", opset)
    if type(data) is not cnp.ndarray and _columnar(data):
        return _columns.reduce(
            functools.partial(argmax, axis=axis, keepdims=keepdims,
                              select_last_index=select_last_index, opset=opset, out=out),
            v.name, "data", data, is_min=False, nan_wins=True, last=select_last_index in (1, True))
    return _onnx_arg(ENTRY_ARGMAX, v, data, axis, keepdims, select_last_index, out)


def argmin(data, axis=0, keepdims=1, select_last_index=0, *, opset=None, out=None):
    """ONNX ArgMin: int64 indices of the smallest elements along `axis`.

    opset is the model's default-domain opset (None: the newest). NaN counts
    as the smallest value; select_last_index=1 (opset >= 12) picks the last
    occurrence instead of the first.
    """
    cdef _Version v = _ARGMIN_NEWEST if opset is None else _version("ArgMin", opset)
    if type(data) is not cnp.ndarray and _columnar(data):
        return _columns.reduce(
            functools.partial(argmin, axis=axis, keepdims=keepdims,
                              select_last_index=select_last_index, opset=opset, out=out),
            v.name, "data", data, is_min=True, nan_wins=True, last=select_last_index in (1, True))
    return _onnx_arg(ENTRY_ARGMIN, v, data, axis, keepdims, select_last_index, out)
