"""argext's versioned spec table equals ONNX's own operator schemas (onnx.defs)
at every opset argext knows."""

import pytest

onnx = pytest.importorskip("onnx")
import onnx.defs  # noqa: E402
import onnx.helper  # noqa: E402

import argext

from argext._spec import NEWEST_OPSET as NEWEST  # noqa: E402

OPERATORS = ["ArgMax", "ArgMin", "Hardmax", "TopK"]
CASES = [(op, opset) for op in OPERATORS for opset in range(1, NEWEST + 1)]


def onnx_default(attr):
    """The default value of an onnx.defs attribute (None when it has none)."""
    proto = attr.default_value
    if proto.type == onnx.AttributeProto.UNDEFINED:
        return None
    return onnx.helper.get_attribute_value(proto)


def test_newest_opset_is_onnx_newest():
    # ONNX may add opsets; argext's newest must be ONNX's newest that changed
    # none of these operators' schemas (then the table needs no new version).
    onnx_newest = onnx.defs.onnx_opset_version()
    assert NEWEST <= onnx_newest
    for op in OPERATORS:
        assert onnx.defs.get_schema(op, onnx_newest, "").since_version <= NEWEST, op


@pytest.mark.parametrize("op,opset", CASES)
def test_schema_equals_onnx(op, opset):
    ours = argext.schema(op, opset)
    theirs = onnx.defs.get_schema(op, opset, "")
    assert ours.since_version == theirs.since_version
    assert set(ours.attributes) == set(theirs.attributes)
    for name, attr in theirs.attributes.items():
        assert attr.type == onnx.defs.OpSchema.AttrType.INT
        assert ours.attributes[name].type == "INT", name
        assert ours.attributes[name].default == onnx_default(attr), name
    # The input's constraint T (TopK's indices have their own, I: int64, the output type).
    [constraint] = [c for c in theirs.type_constraints if c.type_param_str == "T"]
    assert set(ours.type_constraints) == {constraint.type_param_str}
    assert set(ours.type_constraints[constraint.type_param_str]) == set(constraint.allowed_type_strs)
    assert ours.input_name == theirs.inputs[0].name
    assert ours.output_name == theirs.outputs[0].name
    assert (ours.output_type or "T") == theirs.outputs[0].type_str
    # TopK from version 10 on reads k from its second input, K.
    assert ours.k_input == (len(theirs.inputs) > 1 and theirs.inputs[1].name == "K")


@pytest.mark.parametrize("op", OPERATORS)
def test_default_opset_is_newest(op):
    assert argext.schema(op) == argext.schema(op, NEWEST)
    assert argext.schema(op, None).since_version == onnx.defs.get_schema(op, NEWEST, "").since_version


@pytest.mark.parametrize("op", OPERATORS)
@pytest.mark.parametrize("opset", [0, -1, NEWEST + 1, 1000])
def test_out_of_range_opset(op, opset):
    with pytest.raises(argext.SpecError, match=str(opset)):
        argext.schema(op, opset)
