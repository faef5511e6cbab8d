"""argext.onnx.reference_ops() in onnx.reference.ReferenceEvaluator: models of
every default-domain opset onnx.defs knows, against ONNX Runtime (where it runs
that opset), the NumPy references (NaN included) and the spec's worked
examples by hand."""

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
import onnx.defs  # noqa: E402
import onnx.helper  # noqa: E402
from onnx import TensorProto  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import argext  # noqa: E402
import argext.onnx  # noqa: E402
from reference import arg_reference, hardmax_reference  # noqa: E402

OPSETS = range(1, onnx.defs.onnx_opset_version() + 1)


def version_of(op, opset):
    return onnx.defs.get_schema(op, opset).since_version


def attribute_sets(op, opset):
    """Attribute dicts valid at `opset`; {} leaves every attribute at its default."""
    version = version_of(op, opset)
    if op == "Hardmax":
        axes = [0, 1, 2] + ([-1, -3] if version >= 11 else [])
        return [{}] + [{"axis": a} for a in axes]
    lasts = [None, 0, 1] if version >= 12 else [None]  # None: left out
    return [{}] + [{"axis": a, "keepdims": k, **({} if last is None else {"select_last_index": last})}
                   for a in (0, 2, -2) for k in (0, 1) for last in lasts]


def model_of(graph, opset):
    opsets = [onnx.helper.make_opsetid("", opset)]
    try:
        ir_version = onnx.helper.find_min_ir_version_for(opsets)
    except ValueError:  # opsets 2-4 have no ONNX release of their own; IR 3 carries them
        ir_version = 3
    return onnx.helper.make_model(graph, opset_imports=opsets, ir_version=ir_version)


def make_model(op, opset, attribute_sets):
    """One node per attribute set, all reading x: float32 (3, 4, 5)."""
    out_type = TensorProto.FLOAT if op == "Hardmax" else TensorProto.INT64
    nodes, outputs = [], []
    for i, attrs in enumerate(attribute_sets):
        nodes.append(onnx.helper.make_node(op, ["x"], [f"y{i}"], **attrs))
        outputs.append(onnx.helper.make_tensor_value_info(f"y{i}", out_type, None))
    graph = onnx.helper.make_graph(
        nodes, "g", [onnx.helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4, 5])], outputs)
    return model_of(graph, opset)


def numpy_answer(op, opset, attrs, x):
    version = version_of(op, opset)
    if op == "Hardmax":
        default = -1 if version >= 13 else 1
        return hardmax_reference(x, attrs.get("axis", default), coerce_2d=version < 13)
    return arg_reference(x, attrs.get("axis", 0), attrs.get("keepdims", 1),
                         attrs.get("select_last_index", 0), op="max" if op == "ArgMax" else "min")


def sample(seed, nan):
    rng = np.random.default_rng(seed)
    x = rng.integers(-2, 3, size=(3, 4, 5)).astype(np.float32)  # ties everywhere
    x[1, 2, :2] = [-0.0, 0.0]
    if nan:
        x[0, 1, 3] = x[2, 0, 0] = x[2, 3, 4] = np.nan
    return x


def ort_session(model):
    """An ONNX Runtime session for the model, or None where ORT does not run its opset."""
    ort = pytest.importorskip("onnxruntime")
    options = ort.SessionOptions()
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(model.SerializeToString(), options,
                                    providers=["CPUExecutionProvider"])
    except Exception as e:  # noqa: BLE001 - ORT raises its own classes; the opset is the cause we skip
        if "opset" not in str(e).lower():
            raise
        return None


def test_opsets_derived_from_onnx():
    assert OPSETS[-1] >= 23 and len(OPSETS) == onnx.defs.onnx_opset_version()


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin", "Hardmax"])
@pytest.mark.parametrize("opset", OPSETS)
def test_every_opset(op, opset):
    sets = attribute_sets(op, opset)
    model = make_model(op, opset, sets)
    ref = ReferenceEvaluator(model, new_ops=argext.onnx.reference_ops())
    for nan in (False, True):
        x = sample(opset, nan)
        got = ref.run(None, {"x": x})
        for attrs, g in zip(sets, got):
            want = numpy_answer(op, opset, attrs, x)
            assert g.dtype == want.dtype and np.array_equal(g, want), (attrs, nan)
    session = ort_session(model)
    if session is None:
        assert opset > 21, f"onnxruntime should run opset {opset}"
        return
    # ORT skips NaN in ArgMax/ArgMin and leaves a Hardmax row with NaN all zero: no NaN here.
    x = sample(opset, nan=False)
    for attrs, g, o in zip(sets, ref.run(None, {"x": x}), session.run(None, {"x": x})):
        assert np.array_equal(g, o), attrs


def run_one(op, opset, x, **attrs):
    node = onnx.helper.make_node(op, ["x"], ["y"], **attrs)
    elem = onnx.helper.np_dtype_to_tensor_dtype(x.dtype)
    out = TensorProto.INT64 if op != "Hardmax" else elem
    graph = onnx.helper.make_graph([node], "g", [onnx.helper.make_tensor_value_info("x", elem, x.shape)],
                                   [onnx.helper.make_tensor_value_info("y", out, None)])
    return ReferenceEvaluator(model_of(graph, opset), new_ops=argext.onnx.reference_ops()).run(None, {"x": x})[0]


def test_spec_examples():
    data = np.array([[2, 1], [3, 10]], np.float32)
    ties = np.array([[2, 2], [3, 10]], np.float32)
    assert run_one("ArgMax", 11, data, axis=1, keepdims=0).tolist() == [0, 1]
    assert run_one("ArgMax", 13, data, keepdims=1).tolist() == [[1, 1]]
    assert run_one("ArgMax", 12, ties, axis=1, keepdims=1, select_last_index=1).tolist() == [[1], [1]]
    assert run_one("ArgMin", 1, data, axis=1, keepdims=0).tolist() == [1, 0]
    assert run_one("ArgMin", 13, ties, axis=1, keepdims=0, select_last_index=1).tolist() == [1, 0]
    x = np.array([[3, 0, 1, 2], [2, 5, 1, 0], [0, 1, 3, 2], [0, 1, 2, 3]], np.float32)
    assert run_one("Hardmax", 13, x).tolist() == np.eye(4).tolist()
    assert run_one("Hardmax", 1, np.array([[3, 3, 3, 1]], np.float32)).tolist() == [[1, 0, 0, 0]]


def test_hardmax_coerces_to_2d_before_version_13():
    x = np.array([[[1, 5], [3, 2]], [[0, 0], [7, 7]]], np.float32)
    # Rows of [2, 4]: [1, 5, 3, 2] -> 5 at 1; [0, 0, 7, 7] -> the first 7, at 2.
    coerced = [[[0, 1], [0, 0]], [[0, 0], [1, 0]]]
    # Along axis 1: columns [1, 3] [5, 2] [0, 7] [0, 7].
    along = [[[0, 1], [1, 0]], [[0, 0], [1, 1]]]
    for opset in (1, 10, 11, 12):
        assert run_one("Hardmax", opset, x, axis=1).tolist() == coerced
        assert run_one("Hardmax", opset, x).tolist() == coerced  # default axis 1
    assert run_one("Hardmax", 13, x, axis=1).tolist() == along
    # Version 13's default axis -1: pairs [1, 5] [3, 2] [0, 0] [7, 7].
    assert run_one("Hardmax", 13, x).tolist() == [[[0, 1], [1, 0]], [[1, 0], [1, 0]]]


def test_nan_wins_and_bfloat16():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.array([[1, np.nan, 3, np.nan]], np.float32)
    assert run_one("ArgMin", 13, x, axis=1, keepdims=0).tolist() == [1]
    assert run_one("ArgMax", 13, x, axis=1, keepdims=0, select_last_index=1).tolist() == [3]
    assert run_one("Hardmax", 11, x).tolist() == [[0, 1, 0, 0]]
    b = np.array([[1, 7, 7, 2]], ml_dtypes.bfloat16)
    assert run_one("ArgMax", 13, b, axis=1, keepdims=0, select_last_index=1).tolist() == [2]


def test_attribute_the_version_lacks_is_refused():
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(argext.SpecError, match="ArgMax-11: select_last_index"):
        run_one("ArgMax", 11, x, select_last_index=1)


# Opsets newer than argext knows (argext._spec.NEWEST_OPSET): the operator
# version in force there is argext's newest, with a FutureWarning, as long as
# onnx.defs says the operator did not change; otherwise a clear error.
FUTURE = [29, 31]


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin", "Hardmax"])
@pytest.mark.parametrize("opset", FUTURE)
def test_future_opset_runs_the_version_in_force(op, opset):
    sets = attribute_sets(op, 13)
    model = make_model(op, opset, sets)
    ref = ReferenceEvaluator(model, new_ops=argext.onnx.reference_ops())
    x = sample(opset, nan=True)
    with pytest.warns(FutureWarning, match=rf"{op}: the model's opset {opset} is newer than the "
                                           rf"newest argext knows \(28\); running {op}-13"):
        got = ref.run(None, {"x": x})
    assert version_of(op, opset) == 13  # onnx.defs: still version 13 in force there
    for attrs, g in zip(sets, got):
        want = numpy_answer(op, opset, attrs, x)
        assert g.dtype == want.dtype and np.array_equal(g, want), attrs
    if onnx.defs.onnx_opset_version() < opset:
        with pytest.warns(FutureWarning, match=f"knows opsets up to {onnx.defs.onnx_opset_version()} only"):
            ref.run(None, {"x": x})


def test_future_opset_where_the_operator_changed(monkeypatch):
    """An onnx whose defs have a newer ArgMax in force at the model's opset: argext
    refuses the node, naming both versions, rather than run the old one."""
    real = onnx.defs.get_schema

    class ArgMax29:
        since_version = 29

    monkeypatch.setattr(onnx.defs, "get_schema", lambda op, opset, domain="":
                        ArgMax29 if op == "ArgMax" and opset >= 29 else real(op, opset, domain))
    model = make_model("ArgMax", 29, [{"axis": 1}])
    ref = ReferenceEvaluator(model, new_ops=argext.onnx.reference_ops())
    with pytest.raises(argext.SpecError, match=r"ArgMax: the model's opset 29 has ArgMax-29 in force "
                                               r".*which argext does not implement .*ArgMax-13"):
        ref.run(None, {"x": sample(0, nan=False)})
    with pytest.warns(FutureWarning, match="running ArgMin-13"):  # ArgMin did not change
        got = run_one("ArgMin", 29, sample(1, nan=False), axis=2)
    assert np.array_equal(got, arg_reference(sample(1, nan=False), 2, op="min"))
