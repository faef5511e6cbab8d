"""argext against ONNX itself: the ONNX backend node tests for ArgMax/ArgMin,
and differential tests against the ONNX reference evaluator and ONNX Runtime
over every operator version and every dtype each version allows."""

import warnings

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
import onnx.backend.test.loader  # noqa: E402
import onnx.helper  # noqa: E402
import onnx.numpy_helper  # noqa: E402
from onnx import TensorProto  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import argext
from reference import ALL_DTYPES, BFLOAT16, is_float

OPS = {"ArgMax": argext.argmax, "ArgMin": argext.argmin}
VERSIONS = [1, 11, 12, 13]  # the since_versions of ArgMax and ArgMin


def node_tests():
    """ONNX's backend node test cases whose node is ArgMax or ArgMin."""
    with warnings.catch_warnings():  # generating unrelated cases warns (overflow in casts, ...)
        warnings.simplefilter("ignore")
        cases = onnx.backend.test.loader.load_model_tests(kind="node")
    return [c for c in cases if c.model is not None
            and [n.op_type for n in c.model.graph.node] in (["ArgMax"], ["ArgMin"])]


NODE_TESTS = {c.name: c for c in node_tests()}


def as_array(value):
    return onnx.numpy_helper.to_array(value) if isinstance(value, TensorProto) else np.asarray(value)


def default_opset(model):
    [opset] = [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")]
    return opset


def test_node_tests_found():
    # 16 per operator in onnx 1.23: 4 attribute sets x {example, random} x {first, last index}.
    assert sum(name.startswith("test_argmax") for name in NODE_TESTS) >= 16
    assert sum(name.startswith("test_argmin") for name in NODE_TESTS) >= 16


@pytest.mark.parametrize("name", sorted(NODE_TESTS))
def test_backend_node(name):
    case = NODE_TESTS[name]
    [node] = case.model.graph.node
    attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    opset = default_opset(case.model)
    assert case.data_sets
    for inputs, outputs in case.data_sets:
        [data] = [as_array(v) for v in inputs]
        [expected] = [as_array(v) for v in outputs]
        got = OPS[node.op_type](data, **attrs, opset=opset)
        assert got.dtype == expected.dtype == np.int64
        assert got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)


# --- Differential tests ------------------------------------------------------

ONNX_TYPE = {d: onnx.helper.np_dtype_to_tensor_dtype(d) for d in ALL_DTYPES}
CASES = [
    (op, version, dtype)
    for op in OPS
    for version in VERSIONS
    for dtype in ALL_DTYPES
    if dtype.name in argext.schema(op, version).dtypes
]
CASE_IDS = [f"{op}-{version}-{dtype.name}" for op, version, dtype in CASES]


def make_model(op, version, dtype, **attrs):
    node = onnx.helper.make_node(op, ["data"], ["reduced"], **attrs)
    graph = onnx.helper.make_graph(
        [node], "g",
        [onnx.helper.make_tensor_value_info("data", ONNX_TYPE[dtype], None)],
        [onnx.helper.make_tensor_value_info("reduced", TensorProto.INT64, None)])
    return onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", version)],
                                  ir_version=10)


def attribute_sets(version):
    """(axis, keepdims, select_last_index) to try; axes valid for ranks 2 and 3."""
    lasts = (0, 1) if version >= 12 else (0,)
    return [(axis, keepdims, last) for axis in (0, 1, -1) for keepdims in (0, 1) for last in lasts]


def inputs(dtype, with_nan):
    """Inputs of ranks 2 and 3 with ties, in several layouts: plain,
    strided with negative steps, Fortran order and byte-swapped."""
    rng = np.random.default_rng(ALL_DTYPES.index(dtype))
    for shape in [(4, 5), (3, 4, 6)]:
        x = rng.integers(0, 4, size=shape).astype(dtype)
        if is_float(dtype):
            x = (x - 1.5).astype(dtype)
            if with_nan:
                x[(0,) * len(shape)] = np.nan
                x[(-1,) * len(shape)] = np.nan
        yield x
        yield x[::-1, ::2]
        yield np.asfortranarray(x)
        if dtype != BFLOAT16:  # ml_dtypes has no byte-swapped bfloat16
            yield x.astype(dtype.newbyteorder(">"))[:, ::-1]
    info = np.iinfo(dtype) if dtype.kind in "iu" else None
    if info is not None:  # the type's limits, ties among them
        yield np.array([[info.max, info.min, info.max], [info.min, info.min, 0]], dtype)


def native(x):
    """A contiguous native-byte-order copy: what the references are given."""
    return np.ascontiguousarray(x, dtype=x.dtype.newbyteorder("="))


def check_against(run_reference, op, version, dtype, with_nan):
    for axis, keepdims, last in attribute_sets(version):
        attrs = dict(axis=axis, keepdims=keepdims)
        if version >= 12:
            attrs["select_last_index"] = last
        run = run_reference(make_model(op, version, dtype, **attrs))
        for x in inputs(dtype, with_nan):
            expected = run(native(x))
            got = OPS[op](x, **attrs, opset=version)
            assert got.shape == expected.shape
            np.testing.assert_array_equal(got, expected, err_msg=f"{attrs} {x.dtype} {x.strides}\n{x}")


@pytest.mark.parametrize("op,version,dtype", CASES, ids=CASE_IDS)
def test_matches_reference_evaluator(op, version, dtype):
    # The reference evaluator follows the spec on NaN (the first NaN, or the
    # last with select_last_index, for ArgMax and ArgMin) for every float
    # dtype, bfloat16 included; so NaN is in its inputs.
    def evaluator(model):
        ref = ReferenceEvaluator(model)
        return lambda x: ref.run(None, {"data": x})[0]

    check_against(evaluator, op, version, dtype, with_nan=True)


@pytest.mark.parametrize("op,version,dtype", CASES, ids=CASE_IDS)
def test_matches_onnxruntime(op, version, dtype):
    ort = pytest.importorskip("onnxruntime")
    from onnxruntime.capi.onnxruntime_pybind11_state import InvalidGraph, NotImplemented as OrtNotImplemented

    options = ort.SessionOptions()
    options.log_severity_level = 3  # no warnings about old opsets

    def session(model):
        s = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
        return lambda x: s.run(None, {"data": x})[0]

    # ORT 1.31 has no CPU kernel for int16, uint16, uint32, uint64 (any version) nor
    # bfloat16 (version 13): it raises NOT_IMPLEMENTED. For float16 at version 1 it
    # inserts a Cast to float that is invalid at opset 1 (Cast-1 takes a string `to`).
    try:
        session(make_model(op, version, dtype, axis=0))
    except OrtNotImplemented:
        pytest.skip(f"onnxruntime has no {op}-{version} kernel for {dtype.name}")
    except InvalidGraph as e:
        if "InsertedPrecisionFreeCast" not in str(e):
            raise
        pytest.skip(f"onnxruntime has no {op}-{version} kernel for {dtype.name} and its Cast fallback is invalid")
    # ORT does not follow the spec on NaN (it skips NaN), so its inputs have none;
    # NaN is covered by the reference evaluator and NumPy.
    check_against(session, op, version, dtype, with_nan=False)
