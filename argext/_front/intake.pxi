# Intake: what the caller passed, as an ndarray of a dtype the C core has a
# code for, read in place; and the output array the C core writes.

# The byte-order character of a non-native dtype on this machine.
cdef char _SWAPPED_ORDER = b'>' if sys.byteorder == "little" else b'<'

# A dtype code past the C core's: bool, which argext.numpy reads as uint8 (its
# bytes are 0 and 1, ordered as False < True); no ONNX version allows it.
cdef int _BOOL = ARGEXT_DTYPE_COUNT

# ml_dtypes' bfloat16 scalar type, once seen: dtype.name runs Python code on every call.
cdef object _bfloat16_type = None


cdef int _dtype_code(cnp.dtype dt):
    """The C core's dtype code for dt (byte order aside), or -1."""
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
    if kind == b'b':
        return _BOOL
    if size == 2 and dt.type is _bfloat16_type:
        return ARGEXT_BFLOAT16
    if size == 2 and dt.name == "bfloat16":  # ml_dtypes: its type number is dynamic
        _bfloat16_type = dt.type
        return ARGEXT_BFLOAT16
    return -1


cdef int _code(cnp.dtype dt):
    """dt's code as the C core reads it (the byte-swap flag included), or -1."""
    cdef int code = _dtype_code(dt)
    if code >= 0 and dt.byteorder == _SWAPPED_ORDER:  # read in place: the C core swaps
        code |= ARGEXT_BYTESWAPPED
    return code


cdef list _dtype_names(unsigned int mask):
    return [n for i, n in enumerate(DTYPES) if (mask >> i) & 1]


cdef object _dtype_text(cnp.ndarray arr, int code):
    """The dtype to name in a message: arr's own, or where arr views a type
    NumPy lacks (bfloat16 through DLPack), the C core's name for `code`."""
    code &= ~ARGEXT_BYTESWAPPED
    if 0 <= code < ARGEXT_DTYPE_COUNT and _dtype_code(arr.dtype) != code:
        return DTYPES[code]
    return arr.dtype


cdef bint _columnar(object data):
    """An Arrow or pandas object: argext._columns reads it (nulls, chunks)."""
    module = type(data).__module__
    return module.startswith("pyarrow") or module.startswith("pandas")


cdef bint _foreign(object data):
    """An array of another library, read through DLPack (results go back to it)."""
    return not isinstance(data, cnp.ndarray) and hasattr(type(data), "__dlpack__")


cdef bint _masked(object data):
    # numpy.ma not yet imported: no masked array can exist.
    ma = sys.modules.get("numpy.ma")
    return ma is not None and isinstance(data, ma.MaskedArray)


cdef int _refuse_masked(object context, str what, object data) except -1:
    """A masked array's values are not its data buffer; ONNX has no masks, and
    honouring one would mean a filled copy."""
    if _masked(data):
        raise TypeError(f"{context}: {what} is a numpy.ma.MaskedArray, whose masked elements "
                        f"the operator cannot skip; pass data.filled(value) to choose what "
                        f"they count as, or use numpy.ma's own argmax/argmin")
    return 0


cdef cnp.ndarray _intake(object context, str what, object data, unsigned int allowed, int *code):
    """`data` as an array of an allowed dtype, read in place; *code: its C
    dtype code. Arrow and pandas columns come here one chunk at a time
    (argext._columns); objects offering __dlpack__ are read through it."""
    cdef cnp.ndarray arr
    if type(data) is cnp.ndarray:
        arr = <cnp.ndarray>data
        code[0] = _code(arr.dtype)
    elif _foreign(data):
        arr = _from_dlpack(context, what, data, allowed, code)
    else:
        _refuse_masked(context, what, data)
        try:
            arr = np.asarray(data)
        except (ValueError, TypeError) as e:
            raise _errors.not_numeric(context, what, data, e) from e
        # None, and on NumPy 1.x ragged lists, become object arrays: name what was passed.
        if arr.dtype.kind == "O" and not isinstance(data, cnp.ndarray):
            raise _errors.not_numeric(context, what, data, f"{data!r:.80}")
        code[0] = _code(arr.dtype)
    if code[0] < 0 or not (allowed >> (code[0] & ~ARGEXT_BYTESWAPPED)) & 1:
        raise _errors.dtype_refused(context, what, _dtype_text(arr, code[0]), _dtype_names(allowed))
    return arr


cdef struct Descriptor:
    argext_tensor t
    int64_t shape[ARGEXT_MAX_RANK]  # used only where npy_intp is not int64
    int64_t strides[ARGEXT_MAX_RANK]


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
    like it that _finish copies back. Its dtype and shape are the C core's to
    check (ARGEXT_ARG_OUTPUT)."""
    if type(out) is not cnp.ndarray and not isinstance(out, cnp.ndarray):
        raise TypeError(f"{context}: out must be a numpy.ndarray, got {type(out).__name__}")
    if type(out) is not cnp.ndarray:
        _refuse_masked(context, "out", out)
    cdef cnp.ndarray o = <cnp.ndarray>out
    if not o.flags.writeable:
        raise ValueError(f"{context}: out is read-only")
    if _overlaps(o, src):
        return np.empty((<object>o).shape, o.dtype)
    return o


cdef object _finish(cnp.ndarray result, object out, object data, int code):
    """The value returned: out (given the result if it overlapped the input),
    or the result, in the caller's array type for input read through DLPack."""
    if out is not None:
        if result is not out:
            out[...] = result  # out overlapped the input: copy the finished result
        return out
    if type(data) is not cnp.ndarray and _foreign(data):
        return _to_caller(result, data, code)
    return result
