# ONNX Hardmax (versions 1 and 11 with 2-D coercion, 13 along one axis).


def hardmax(input, axis=None, *, opset=None, out=None):
    """ONNX Hardmax: 1 at the first maximum of each row, 0 elsewhere.

    Version 13 (opset >= 13) takes rows along `axis` (default -1). Versions
    1 and 11 coerce the input to 2-D [prod(shape[:axis]), prod(shape[axis:])]
    (default axis 1) and take its rows. Output: input's dtype and shape.
    """
    cdef _Version v = _version("Hardmax", opset)
    if type(input) is not cnp.ndarray and _columnar(input):
        return _columns.one_hot(hardmax, argmax, v.name, input, axis, opset, out)
    cdef Call c
    c.version = v.since
    cdef int code
    # Which dtypes each version takes is the C core's to judge (argext_hardmax).
    cdef cnp.ndarray arr = _intake(v.name, "input", input, _EVERY_DTYPE, &code)
    _describe(&c.data, arr, code)
    attr = v.attributes["axis"]
    given = attr.default if axis is None else axis
    c.axis = _c_axis(v.name, "axis", given)
    # A fresh output comes from np.zeros: the OS hands out zeroed pages, so
    # the kernel writes only the ones instead of zeroing memory twice.
    c.entry = ENTRY_HARDMAX_ONTO_ZEROS if out is None else ENTRY_HARDMAX
    odt = arr.dtype if not (code & ARGEXT_BYTESWAPPED) else arr.dtype.newbyteorder("=")
    result = np.zeros((<object>arr).shape, odt) if out is None else _output(v.name, out, arr)
    if _run(&c, arr, result, (code & ~ARGEXT_BYTESWAPPED) if out is None else -1) != ARGEXT_OK:
        _raise(v.name, "input", arr, {ARGEXT_ARG_AXIS: given}, out=out,
               out_shape=(<object>arr).shape, out_dtype=odt, allowed=v.dtype_mask,
               spec_axis=attr)
    return _finish(result, out, input, code)
