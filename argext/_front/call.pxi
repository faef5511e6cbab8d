# The one path from an operator family to the C core: the family fills a
# Call (input, output, attributes), _run makes the C call, with the GIL
# released for inputs worth it, and a refusal goes to _raise (errors.pxi).

cdef enum Entry:
    ENTRY_ARGMAX
    ENTRY_ARGMIN
    ENTRY_REDUCE_ARGMAX
    ENTRY_REDUCE_ARGMIN
    ENTRY_NANARGMAX
    ENTRY_NANARGMIN
    ENTRY_HARDMAX
    ENTRY_HARDMAX_ONTO_ZEROS
    ENTRY_TOPK


cdef struct Call:
    Entry entry
    Descriptor data
    Descriptor out
    Descriptor indices   # TopK's second output (out: its values)
    bint has_out         # no output shape exists (a refused axis): C reports the fault
    int64_t axis
    bint every_axis      # nanargmax/nanargmin over the flattened array
    int64_t axes[ARGEXT_MAX_RANK]
    int naxes
    int keepdims
    int select_last_index
    int64_t k
    int largest
    int sorted
    argext_direction direction
    int version


cdef argext_status _invoke(Call *c) noexcept nogil:
    cdef const argext_tensor *x = &c.data.t
    cdef const argext_tensor *o = &c.out.t if c.has_out else NULL
    cdef const int64_t *axis = NULL if c.every_axis else &c.axis
    if c.entry == ENTRY_ARGMAX:
        return argext_argmax(x, o, c.axis, c.keepdims, c.select_last_index)
    if c.entry == ENTRY_ARGMIN:
        return argext_argmin(x, o, c.axis, c.keepdims, c.select_last_index)
    if c.entry == ENTRY_REDUCE_ARGMAX:
        return argext_reduce_argmax(x, o, c.axes, c.naxes, c.direction)
    if c.entry == ENTRY_REDUCE_ARGMIN:
        return argext_reduce_argmin(x, o, c.axes, c.naxes, c.direction)
    if c.entry == ENTRY_NANARGMAX:
        return argext_nanargmax(x, o, axis, c.keepdims)
    if c.entry == ENTRY_NANARGMIN:
        return argext_nanargmin(x, o, axis, c.keepdims)
    if c.entry == ENTRY_HARDMAX:
        return argext_hardmax(x, o, c.axis, c.version)
    if c.entry == ENTRY_TOPK:
        return argext_topk(x, o, &c.indices.t if c.has_out else NULL, c.axis, c.k, c.largest,
                           c.sorted)
    return argext_hardmax_onto_zeros(x, o, c.axis, c.version)


cdef argext_status _run(Call *c, cnp.ndarray data, object out_array, int out_code) noexcept:
    """The C call on `data` into `out_array` (None: no output shape exists)
    of dtype code out_code (-1: out_array's dtype says)."""
    cdef argext_status st
    c.has_out = out_array is not None
    if c.has_out:
        _describe(&c.out, <cnp.ndarray>out_array,
                  out_code if out_code >= 0 else _code((<cnp.ndarray>out_array).dtype))
    # Below this many elements releasing the GIL costs more than the call.
    if cnp.PyArray_SIZE(data) < 16384:
        return _invoke(c)
    with nogil:
        st = _invoke(c)
    return st


cdef int _reduced_dims(cnp.ndarray data, const unsigned char *reduced, bint keepdims,
                       cnp.npy_intp *dims) noexcept:
    """dims = data's shape with the reduced axes kept as 1 or removed; returns their count."""
    cdef int d, o = 0
    for d in range(cnp.PyArray_NDIM(data)):
        if not reduced[d]:
            dims[o] = cnp.PyArray_DIMS(data)[d]
            o += 1
        elif keepdims:
            dims[o] = 1
            o += 1
    return o
