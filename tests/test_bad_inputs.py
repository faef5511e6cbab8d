"""Every bad input to every public function raises the documented exception
(README "Errors") with a message naming the operator, its version and the
offending value, and writes nothing to `out`."""

import datetime

import numpy as np
import pytest

import argext
from argext import SpecError, SpecTypeError
from reference import BFLOAT16, arg_reference, hardmax_reference, ml_dtypes, multi_axis_reference

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)[:, ::-1] % 7

# name -> (call taking data and keyword arguments, operator/version in messages at the newest opset)
FUNCTIONS = {
    "argmax": (argext.argmax, "ArgMax-13"),
    "argmin": (argext.argmin, "ArgMin-13"),
    "hardmax": (argext.hardmax, "Hardmax-13"),
    "reduce_argmax": (lambda d, **kw: argext.reduce_argmax(d, kw.pop("axes", [0]), **kw), "reduce_argmax"),
    "reduce_argmin": (lambda d, **kw: argext.reduce_argmin(d, kw.pop("axes", [0]), **kw), "reduce_argmin"),
}
ONNX_ARG = ["argmax", "argmin"]
MULTI_AXIS = ["reduce_argmax", "reduce_argmin"]


def expect(exc_type, fn, *mentions, exact=True):
    """fn() raises exc_type (exactly that class unless exact=False) whose
    message contains every string in mentions."""
    with pytest.raises(exc_type) as info:
        fn()
    if exact:
        assert type(info.value) is exc_type, f"{type(info.value).__name__}: {info.value}"
    for m in mentions:
        assert m in str(info.value), f"{m!r} not in {str(info.value)!r}"
    return info.value


def valid_output(name, data=X):
    """What a valid call returns: the shape and dtype a correct `out` has."""
    return FUNCTIONS[name][0](data)


def sentinel_like(a):
    out = np.empty_like(a)
    out.fill(np.array(0x5A, out.dtype) if out.dtype.kind in "iu" else 77)
    return out


# ------------------------------------------------------------------ inputs

BAD_DTYPE_INPUTS = {
    "bool": np.ones((2, 3), bool),
    "complex64": np.ones((2, 3), np.complex64),
    "complex128": np.ones((2, 3), np.complex128),
    "object": np.array([[1, 2], [3, 4]], dtype=object),
    "str": np.array([["a", "b"], ["c", "d"]]),
    "bytes": np.array([[b"a", b"b"]]),
    "void": np.zeros((2, 3), "V4"),
    "datetime64": np.array([["2026-01-01", "2026-01-02"]], "datetime64[D]"),
    "timedelta64": np.array([[1, 2]], "timedelta64[s]"),
    "structured": np.zeros((2, 3), [("a", "<i4"), ("b", "<f4")]),
    "longdouble": np.ones((2, 3), np.longdouble),
}
if ml_dtypes is not None:  # ml_dtypes' other narrow types are outside every operator's spec
    BAD_DTYPE_INPUTS.update({t: np.zeros((2, 3), getattr(ml_dtypes, t))
                             for t in ("float8_e4m3fn", "float8_e5m2", "int4", "uint4")})


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("label", BAD_DTYPE_INPUTS)
def test_dtype_outside_the_spec(name, label):
    fn, op = FUNCTIONS[name]
    data = BAD_DTYPE_INPUTS[label]
    dtype = str(np.asarray(data).dtype)
    expect(SpecTypeError, lambda: fn(data), op, dtype)


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint64"])
@pytest.mark.parametrize("opset", [1, 11, 13])
def test_hardmax_refuses_integers(dtype, opset):
    version = {1: "Hardmax-1", 11: "Hardmax-11", 13: "Hardmax-13"}[opset]
    expect(SpecTypeError, lambda: argext.hardmax(np.ones((2, 3), dtype), opset=opset), version, dtype)


@pytest.mark.skipif(BFLOAT16 is None, reason="ml_dtypes is not installed")
@pytest.mark.parametrize("name,opset,version", [("argmax", 12, "ArgMax-12"), ("argmin", 1, "ArgMin-1"),
                                                ("hardmax", 11, "Hardmax-11")])
def test_bfloat16_before_version_13(name, opset, version):
    fn = FUNCTIONS[name][0]
    expect(SpecTypeError, lambda: fn(np.ones((2, 3), BFLOAT16), opset=opset), version, "bfloat16")


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("scalar", [3.5, np.float32(3.5), np.array(3.5), np.array(2.0, np.float16)])
def test_rank_0_input(name, scalar):
    # A Python or NumPy scalar is a 0-d array: no axis exists to reduce.
    fn, op = FUNCTIONS[name]
    e = expect(SpecError, lambda: fn(scalar), op)
    assert "0-d" in str(e) or "rank 0" in str(e)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_python_int_scalar(name):
    # ArgMax takes the int64 0-d array and refuses its rank; Hardmax refuses int64 first.
    fn, op = FUNCTIONS[name]
    expect(SpecTypeError if name == "hardmax" else SpecError, lambda: fn(7), op)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_none_input(name):
    fn, op = FUNCTIONS[name]
    expect(TypeError, lambda: fn(None), op, "None")


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("ragged", [[[1.0, 2.0], [3.0]], [1.0, [2.0, 3.0]], [[[1.0]], [2.0]]])
def test_ragged_list(name, ragged):
    fn, op = FUNCTIONS[name]
    expect(TypeError, lambda: fn(ragged), op, "list")


@pytest.mark.parametrize("name", FUNCTIONS)
def test_list_of_python_objects(name):
    """Array-like but not numeric: NumPy makes it an object array."""
    fn, op = FUNCTIONS[name]
    dates = [[datetime.date(2026, 1, 1), datetime.date(2026, 1, 2)]]
    expect(TypeError, lambda: fn(dates), op, "list", "datetime.date")


@pytest.mark.parametrize("name", FUNCTIONS)
def test_plain_lists_are_accepted(name):
    data = [[1.0, 5.0, 2.0], [7.0, 0.0, 7.0]]
    fn = FUNCTIONS[name][0]
    np.testing.assert_array_equal(fn(data), fn(np.array(data)))


# ------------------------------------------------------------------ axis

@pytest.mark.parametrize("name", ONNX_ARG + ["hardmax"])
@pytest.mark.parametrize("axis", [1.5, "1", True, False, np.bool_(True), b"1", [1], np.float64(1.0), 1j])
def test_axis_of_the_wrong_type(name, axis):
    fn, op = FUNCTIONS[name]
    expect(SpecTypeError, lambda: fn(X, axis=axis), op, "axis", repr(axis))


@pytest.mark.parametrize("name", ONNX_ARG)
def test_axis_none_is_refused(name):
    fn, op = FUNCTIONS[name]
    expect(SpecTypeError, lambda: fn(X, axis=None), op, "axis", "None")


@pytest.mark.parametrize("name", ONNX_ARG + ["hardmax"])
@pytest.mark.parametrize("axis", [3, -4, 10**30, -(10**30), 2**63, -(2**63) - 1, np.int64(2**62)])
def test_axis_out_of_range(name, axis):
    fn, op = FUNCTIONS[name]
    expect(SpecError, lambda: fn(X, axis=axis), op, f"axis={axis}", "[-3, 2]")


@pytest.mark.parametrize("opset,version,axis", [(1, "Hardmax-1", -1), (1, "Hardmax-1", 3), (11, "Hardmax-11", -4),
                                                (13, "Hardmax-13", 3)])
def test_hardmax_axis_range_per_version(opset, version, axis):
    expect(SpecError, lambda: argext.hardmax(X, axis=axis, opset=opset), version, f"axis={axis}")


# ------------------------------------------------------------------ attributes and opset

@pytest.mark.parametrize("name", ONNX_ARG)
@pytest.mark.parametrize("kwargs,version,mention", [
    ({"keepdims": 2}, "-13", "keepdims=2"),
    ({"keepdims": -1}, "-13", "keepdims=-1"),
    ({"keepdims": 10**30}, "-13", "keepdims=1000000000000000000000000000000"),
    ({"select_last_index": -1}, "-13", "select_last_index=-1"),
    ({"select_last_index": 2}, "-13", "select_last_index=2"),
    ({"select_last_index": 1, "opset": 11}, "-11", "select_last_index=1"),
    ({"select_last_index": 1, "opset": 1}, "-1", "select_last_index=1"),
    ({"keepdims": 2, "opset": 12}, "-12", "keepdims=2"),
])
def test_attribute_out_of_range(name, kwargs, version, mention):
    fn, op = FUNCTIONS[name]
    expect(SpecError, lambda: fn(X, **kwargs), op.split("-")[0] + version, mention)


@pytest.mark.parametrize("name", ONNX_ARG)
@pytest.mark.parametrize("attribute", ["keepdims", "select_last_index"])
@pytest.mark.parametrize("value", [1.0, "1", None, [1]])
def test_attribute_of_the_wrong_type(name, attribute, value):
    fn, op = FUNCTIONS[name]
    expect(SpecTypeError, lambda: fn(X, **{attribute: value}), op, attribute, repr(value))


@pytest.mark.parametrize("name", ["argmax", "argmin", "hardmax"])
@pytest.mark.parametrize("opset", [0, -1, 29, 10**30, -(10**30)])
def test_opset_out_of_range(name, opset):
    fn, op = FUNCTIONS[name]
    expect(SpecError, lambda: fn(X, opset=opset), op.split("-")[0], f"opset {opset}", "1..28")


@pytest.mark.parametrize("name", ["argmax", "argmin", "hardmax"])
@pytest.mark.parametrize("opset", ["13", 13.0, True, b"13", [13], np.float32(13)])
def test_opset_of_the_wrong_type(name, opset):
    fn, op = FUNCTIONS[name]
    expect(SpecTypeError, lambda: fn(X, opset=opset), op.split("-")[0], "opset", repr(opset))


@pytest.mark.parametrize("opset,error", [(0, SpecError), (29, SpecError), ("13", SpecTypeError),
                                         (13.0, SpecTypeError)])
def test_schema_bad_opset(opset, error):
    expect(error, lambda: argext.schema("ArgMax", opset), "ArgMax", "opset", str(opset))


@pytest.mark.parametrize("op_type,error", [("Argmax", SpecError), ("", SpecError), (None, SpecTypeError),
                                           (1, SpecTypeError), ([], SpecTypeError), ({}, SpecTypeError)])
def test_schema_unknown_operator(op_type, error):
    expect(error, lambda: argext.schema(op_type), "schema", repr(op_type))


@pytest.mark.parametrize("name", ["avx3", "", "AVX2", 1, None.__class__, ()])
def test_set_isa_unknown(name):
    expect(ValueError, lambda: argext.set_isa(name), "set_isa", repr(name))
    assert argext.get_isa() in argext.supported_isas()


def test_set_isa_unsupported_level():
    known = ("baseline", "sse2", "sse42", "avx2", "avx512", "neon")
    unsupported = [n for n in known if n not in argext.supported_isas()]
    assert unsupported  # no machine runs both x86-64 and AArch64 levels
    before = argext.get_isa()
    for n in unsupported:
        expect(ValueError, lambda: argext.set_isa(n), "set_isa", repr(n), "not supported")
    assert argext.get_isa() == before


# ------------------------------------------------------------------ multi-axis

@pytest.mark.parametrize("name", MULTI_AXIS)
@pytest.mark.parametrize("axes,error,mention", [
    ([], SpecError, "[]"),
    ((), SpecError, "()"),
    ([0, 0], SpecError, "[0, 0]"),
    ([1, -2], SpecError, "[1, -2]"),
    ([0, 1, 2, 0], SpecError, "[0, 1, 2, 0]"),
    ([3], SpecError, "axes=3"),
    ([-4], SpecError, "axes=-4"),
    (5, SpecError, "axes=5"),
    ([10**30], SpecError, "axes=1000000000000000000000000000000"),
    ([-(10**30)], SpecError, "axes=-1000000000000000000000000000000"),
    ([[0]], SpecTypeError, "[0]"),
    ([[0, 1]], SpecTypeError, "[0, 1]"),
    ([0.5], SpecTypeError, "0.5"),
    ([1.0], SpecTypeError, "1.0"),
    (["0"], SpecTypeError, "'0'"),
    ([True], SpecTypeError, "True"),
    ([None], SpecTypeError, "None"),
    (None, SpecTypeError, "None"),
    (1.5, SpecTypeError, "1.5"),
    (np.array([0.0, 1.0]), SpecTypeError, "0.0"),
])
def test_bad_axes(name, axes, error, mention):
    fn, op = FUNCTIONS[name]
    expect(error, lambda: fn(X, axes=axes), op, "axes", mention)


@pytest.mark.parametrize("name", MULTI_AXIS)
@pytest.mark.parametrize("axes", [np.array([0, 2]), np.array([2, 0], np.uint8), np.array(1), range(2),
                                  (np.int64(-1), 0)])
def test_integer_axes_in_any_container(name, axes):
    op = "max" if name == "reduce_argmax" else "min"
    expected = multi_axis_reference(X, np.atleast_1d(np.asarray(list(axes) if isinstance(axes, range) else axes)),
                                    op=op)
    np.testing.assert_array_equal(FUNCTIONS[name][0](X, axes=axes), expected)


@pytest.mark.parametrize("name", MULTI_AXIS)
@pytest.mark.parametrize("direction,error", [("up", SpecError), ("Increasing", SpecError), ("", SpecError),
                                             ("increasing ", SpecError), (None, SpecTypeError),
                                             (1, SpecTypeError), (b"increasing", SpecTypeError),
                                             (True, SpecTypeError)])
def test_unknown_direction(name, direction, error):
    fn, op = FUNCTIONS[name]
    expect(error, lambda: fn(X, axis_direction=direction), op, "axis_direction", repr(direction))


@pytest.mark.parametrize("name", MULTI_AXIS)
@pytest.mark.parametrize("output_dtype", ["float32", "int16", "uint8", "int8", "bool", "float64", None, "nonsense",
                                          object, np.dtype(">i8"), np.dtype(">u4"), 64, "i2",
                                          (np.int64, -1), {"names": ["a", "a"], "formats": ["i8", "i8"]}])
def test_bad_output_dtype(name, output_dtype):
    fn, op = FUNCTIONS[name]
    expect(SpecTypeError, lambda: fn(X, output_dtype=output_dtype), op, "output_dtype", repr(output_dtype))


@pytest.mark.parametrize("name", MULTI_AXIS)
@pytest.mark.parametrize("output_dtype,count", [("int32", 2**31 + 1), ("uint32", 2**32 + 1)])
def test_index_overflow(name, output_dtype, count):
    # Zero strides: count equal elements in no memory; the last index, count - 1, does not fit.
    data = np.broadcast_to(np.float32(1), (2, count // 2 + 1))
    total = data.size
    fn, op = FUNCTIONS[name]
    expect(OverflowError, lambda: fn(data, axes=[0, 1], output_dtype=output_dtype), op, str(total),
           output_dtype)


@pytest.mark.parametrize("name", ONNX_ARG + MULTI_AXIS)
def test_empty_reduced_axis(name):
    fn, op = FUNCTIONS[name]
    data = np.zeros((3, 0, 2), np.float32)
    kwargs = {"axes": [1, 2]} if name in MULTI_AXIS else {"axis": 1}
    expect(ValueError, lambda: fn(data, **kwargs), op, "(3, 0, 2)")


# ------------------------------------------------------------------ out=

@pytest.mark.parametrize("name", FUNCTIONS)
def test_out_not_an_array(name):
    fn, op = FUNCTIONS[name]
    good = valid_output(name)
    for out in (good.tolist(), tuple(good.ravel()), 0, "out", memoryview(good)):
        expect(TypeError, lambda: fn(X, out=out), op, "out", type(out).__name__)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_out_wrong_dtype(name):
    fn, op = FUNCTIONS[name]
    good = valid_output(name)
    # Hardmax writes into an out of the other byte order (tests/test_hardmax.py).
    swapped = () if name == "hardmax" else (good.dtype.newbyteorder("S"),)
    for dtype in ("int32", "float64", "uint64", "int16") + swapped:
        out = sentinel_like(good.astype(dtype))
        before = out.copy()
        expect(TypeError, lambda: fn(X, out=out), op, "out", str(out.dtype))
        np.testing.assert_array_equal(out, before)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_out_wrong_shape(name):
    fn, op = FUNCTIONS[name]
    good = valid_output(name)
    for shape in (good.shape[::-1] + (1,), good.shape[:-1], (good.size,), good.shape + (1,)):
        out = sentinel_like(np.empty(shape, good.dtype))
        before = out.copy()
        expect(ValueError, lambda: fn(X, out=out), op, "out", str(shape))
        np.testing.assert_array_equal(out, before)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_out_read_only(name):
    fn, op = FUNCTIONS[name]
    out = sentinel_like(valid_output(name))
    before = out.copy()
    out.flags.writeable = False
    expect(ValueError, lambda: fn(X, out=out), op, "read-only")
    np.testing.assert_array_equal(out, before)


BAD_ARGUMENTS = {
    "argmax": [{"opset": 0}, {"opset": "13"}, {"axis": 7}, {"axis": 0.5}, {"keepdims": 2},
               {"select_last_index": -1}, {"select_last_index": 1, "opset": 11}],
    "hardmax": [{"opset": 0}, {"opset": 13.0}, {"axis": 7}, {"axis": "1"}, {"axis": -1, "opset": 1}],
    "reduce_argmax": [{"axes": [0, 0]}, {"axes": [9]}, {"axes": [[1]]}, {"axis_direction": "sideways"},
                      {"output_dtype": "int16"}],
}


@pytest.mark.parametrize("name,bad", [(name, bad) for name in FUNCTIONS
                                      for bad in BAD_ARGUMENTS[name.replace("argmin", "argmax")]])
def test_nothing_written_on_error(name, bad):
    fn = FUNCTIONS[name][0]
    out = sentinel_like(valid_output(name))
    before = out.copy()
    with pytest.raises(SpecError):
        fn(X, out=out, **bad)
    np.testing.assert_array_equal(out, before)


def test_nothing_written_on_bad_input_with_valid_out():
    out = sentinel_like(valid_output("argmax"))
    before = out.copy()
    for data in (X.astype(bool), X.astype(complex), [[1.0, 2.0], [3.0]]):
        with pytest.raises(TypeError):
            argext.argmax(data, out=out)
    np.testing.assert_array_equal(out, before)


# Overlapping `out=`: README promises the right answer (argext computes into a
# fresh array and copies when the memory overlaps).

def test_argmax_out_overlapping_the_input():
    for op, fn in (("max", argext.argmax), ("min", argext.argmin)):
        data = np.array([[3, 1, 2, 9], [0, 5, 5, 4], [7, 7, 1, 0]], np.int64)
        expected = arg_reference(data.copy(), axis=1, keepdims=0, op=op)
        out = data[:, 1]  # a column of the input itself
        result = fn(data, axis=1, keepdims=0, out=out)
        assert result is out
        np.testing.assert_array_equal(data[:, 1], expected)
        data = np.array([[3, 1, 2], [0, 5, 5], [7, 7, 1]], np.int64)
        expected = arg_reference(data.copy(), axis=0, keepdims=1, select_last_index=1, op=op)
        out = data[::-2][:1]  # the last row, through a negative stride
        fn(data, axis=0, select_last_index=1, out=out)
        np.testing.assert_array_equal(out, expected)


def test_reduce_out_overlapping_the_input():
    base = np.array([[[3, 1], [2, 9]], [[0, 5], [5, 4]], [[8, 7], [1, 0]]], np.int64)
    for fn, op in ((argext.reduce_argmax, "max"), (argext.reduce_argmin, "min")):
        data = base.copy()
        expected = multi_axis_reference(data.copy(), [1, 2], op=op)
        out = data[:, :1, :1]
        fn(data, [2, 1], out=out)
        np.testing.assert_array_equal(out, expected)
        np.testing.assert_array_equal(data[:, 0, 0], expected.ravel())


@pytest.mark.parametrize("opset", [1, 11, 13])
def test_hardmax_out_is_the_input(opset):
    data = np.array([[3, 0, 3, 2], [np.nan, 5, 1, np.nan], [0, -0.0, 0, -1]], np.float32)
    axis = -1 if opset == 13 else 1
    expected = hardmax_reference(data.copy(), axis, coerce_2d=opset != 13)
    result = argext.hardmax(data, opset=opset, out=data)
    assert result is data
    np.testing.assert_array_equal(data, expected)
    data = np.array([[3, 0, 3, 2], [4, 5, 1, 6]], np.float64)
    expected = hardmax_reference(data.copy(), -1, coerce_2d=False)
    argext.hardmax(data, out=data[::-1])  # the rows swapped
    np.testing.assert_array_equal(data[::-1], expected)
