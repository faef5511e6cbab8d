# ONNX TopK (versions 1, 10, 11, 24): the values and int64 indices of the k
# largest or smallest elements along one axis, in one pass.

cdef _Version _TOPK_NEWEST = _VERSIONS["TopK"][NEWEST_OPSET]


cdef int _topk_flag(_Version v, str name, object value) except -1:
    """largest/sorted as a C int: versions before 11 lack both, and mean 1 there."""
    if name in v.attributes:
        return _flag(v, name, value)
    if _integer(v.name, name, value, True) != 1:
        raise _errors.not_attribute(v.name, name, value)
    return 1


cdef object _k_value(_Version v, object k):
    """k as a Python int: an integer, or from version 10 on what ONNX gives as
    the input K, a tensor holding one int64."""
    if isinstance(k, (bool, np.bool_)):
        raise _errors.not_integer(v.name, "k", k)
    try:
        return operator.index(k)
    except TypeError:
        if not v.schema.k_input:
            raise SpecTypeError(f"{v.name}: k is an attribute of this version and must be an "
                                f"integer, got {k!r:.80}") from None
    given = np.asarray(k)
    if given.dtype != _INT64:
        raise SpecTypeError(f"{v.name}: K must be an integer or an int64 tensor of one element, "
                            f"got {type(k).__name__} of dtype {given.dtype}")
    if given.size != 1 or given.ndim > 1:
        raise SpecError(f"{v.name}: K must hold one value (a 1-D tensor of one element), got "
                        f"shape {given.shape}")
    return int(given.reshape(-1)[0])


cdef tuple _topk_out(_Version v, object out, cnp.ndarray src):
    """The (values, indices) arrays the C core writes for the caller's pair."""
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise TypeError(f"{v.name}: out must be a pair (values, indices) of numpy.ndarray, "
                        f"got {type(out).__name__}")
    values = _output(v.name, out[0], src)
    indices = _output(v.name, out[1], src)
    if _overlaps(values, indices):
        raise ValueError(f"{v.name}: out's values and indices share memory")
    return values, indices


cdef tuple _topk(_Version v, object data, object k, object axis, object largest, object sorted_,
                 object out, object fix=None):
    """fix: None, or called as fix(X, values, indices, bfloat16_bits) on the
    NumPy arrays written before they go back in the caller's array type
    (bfloat16_bits: X is bfloat16 as its uint16 bit patterns, from DLPack)."""
    cdef Call c
    c.entry = ENTRY_TOPK
    c.largest = _topk_flag(v, "largest", largest)
    c.sorted = _topk_flag(v, "sorted", sorted_)
    given_k = _k_value(v, k)
    c.k = given_k if _FAR_AXIS <= given_k <= -_FAR_AXIS else _FAR_AXIS  # C refuses it
    cdef int code
    cdef cnp.ndarray arr = _intake(v.name, "X", data, v.dtype_mask, &code)
    if axis is None:
        raise SpecTypeError(f"{v.name}: axis=None is not an ONNX attribute value (axis is an "
                            f"integer)")
    c.axis = _c_axis(v.name, "axis", axis)
    _describe(&c.data, arr, code)
    cdef int rank = cnp.PyArray_NDIM(arr)
    cdef int64_t a = c.axis + rank if c.axis < 0 else c.axis
    odt = arr.dtype if not (code & ARGEXT_BYTESWAPPED) else arr.dtype.newbyteorder("=")
    values = indices = shape = None
    if 0 <= a < rank and 0 <= c.k <= cnp.PyArray_DIMS(arr)[a]:  # else C reports the fault
        shape = list((<object>arr).shape)
        shape[a] = c.k
        shape = tuple(shape)
        if out is None:
            values, indices = np.empty(shape, odt), np.empty(shape, _INT64)
        else:
            values, indices = _topk_out(v, out, arr)
        _describe(&c.indices, <cnp.ndarray>indices, _code(indices.dtype))
    if _run(&c, arr, values, (code & ~ARGEXT_BYTESWAPPED) if out is None else -1) != ARGEXT_OK:
        _raise(v.name, "X", arr, {ARGEXT_ARG_AXIS: axis, ARGEXT_ARG_K: given_k,
                                  ARGEXT_ARG_LARGEST: largest, ARGEXT_ARG_SORTED: sorted_},
               out=out, out_shape=shape, out_dtype=(odt, _INT64), spec_axis=v.attributes["axis"])
    if fix is not None:
        fix(arr, values, indices, (code & ~ARGEXT_BYTESWAPPED) == ARGEXT_BFLOAT16 and arr.dtype.kind == "u")
    return (_finish(values, None if out is None else out[0], data, code),
            _finish(indices, None if out is None else out[1], data, ARGEXT_INT64))


def topk(data, k, axis=-1, largest=1, sorted=1, *, opset=None, out=None):
    """ONNX TopK: (values, indices) of the k largest (largest=1) or smallest
    elements along `axis`; indices int64, both of data's shape with the axis'
    extent k.

    opset is the model's default-domain opset (None: the newest). k is an
    integer, or from TopK-10 on the input K as ONNX gives it (an int64 tensor
    of one element); 0 <= k <= the axis' extent. NaN ranks first for largest
    and smallest alike (so topk(x, 1) agrees with argmax/argmin); equal values
    rank by the lower index; -0.0 equals +0.0. sorted=1: best first;
    sorted=0: the same elements in ascending index order. out: a pair
    (values, indices) of arrays to write, returned.
    """
    cdef _Version v = _TOPK_NEWEST if opset is None else _version("TopK", opset)
    if type(data) is not cnp.ndarray and _columnar(data):
        return _columns.top_k(functools.partial(topk, axis=axis, largest=largest, opset=opset),
                              v.name, data, k, sorted, out)
    return _topk(v, data, k, axis, largest, sorted, out)


def _dlpack_input(data):
    """Whether argext reads `data` through DLPack (and answers in its array type)."""
    return type(data) is not cnp.ndarray and _foreign(data)


def _numpy_top_k(data, k, axis, largest, sorted_, fix):
    """argext.numpy.top_k of an array read through DLPack: TopK's newest
    version, its NumPy results given to fix (as _topk takes it) before they
    return in the caller's array type."""
    return _topk(_TOPK_NEWEST, data, k, axis, largest, sorted_, None, fix)
