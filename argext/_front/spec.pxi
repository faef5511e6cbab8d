# The versioned spec, compiled for fast checks, and attribute values as the C
# core takes them (C decides every range; the front decides types and which
# attributes a version has).


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
            self.dtype_mask |= 1u << DTYPES.index(d)


cdef dict _VERSIONS = {
    op: (None,) + tuple(_Version(resolve(op, o)) for o in range(1, NEWEST_OPSET + 1))
    for op in OPERATORS
}


cdef _Version _version(str op_type, object opset):
    if opset is None:
        return _VERSIONS[op_type][NEWEST_OPSET]
    if isinstance(opset, bool):
        raise _errors.not_integer(op_type, "opset", opset)
    try:
        o = operator.index(opset)
    except TypeError:
        raise _errors.not_integer(op_type, "opset", opset) from None
    if o < 1 or o > NEWEST_OPSET:
        raise SpecError(f"{op_type}: opset {o} is outside the opsets argext knows (1..{NEWEST_OPSET})")
    return _VERSIONS[op_type][o]


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


cdef object _integer(object context, str name, object value, bint allow_bool):
    # bool and np.bool_ are flags: 0/1 attributes take them, axes and opsets do
    # not. Decided here, because NumPy 1.x gives np.bool_ an __index__ and 2.x not.
    if isinstance(value, (bool, np.bool_)):
        if allow_bool:
            return int(value)
        raise _errors.not_integer(context, name, value)
    try:
        return operator.index(value)
    except TypeError:
        raise _errors.not_integer(context, name, value) from None


cdef int _flag(_Version v, str name, object value) except -1:
    """A 0/1 attribute as a C int for the C core to range-check; one the
    version lacks (spec knowledge C has not) must be left at 0."""
    if type(value) is int and (value == 0 or (value == 1 and (v.has_last or name == "keepdims"))):
        return value
    cdef object x = _integer(v.name, name, value, True)
    if name == "select_last_index" and not v.has_last:
        if x != 0:
            raise _errors.not_attribute(v.name, name, value)
        return 0
    return x if 0 <= x <= 1 else 2  # out of range either way: the message names the value given


# An axis beyond int64 reaches C as this value, out of range for every rank.
cdef int64_t _FAR_AXIS = -(2**62)


cdef int64_t _c_axis(object context, str name, object value) except? -1:
    """An axis as a C int64 for the C core to range-check."""
    if type(value) is int:
        try:
            return value
        except OverflowError:
            return _FAR_AXIS
    cdef object a = _integer(context, name, value, False)
    return a if _FAR_AXIS <= a <= -_FAR_AXIS else _FAR_AXIS
