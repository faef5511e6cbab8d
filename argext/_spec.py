"""The versioned operator specs argext implements, as data.

One table, OPERATORS, lists every version of every ONNX operator: its
since_version, attributes (ONNX type, default, the values it allows) and the
input dtypes its type constraint allows. Everything else (opset resolution,
validation, ``argext.schema``, the support matrix) reads it.
"""

from dataclasses import dataclass
from typing import Mapping, Optional, Tuple

# The newest default-domain opset argext knows (ONNX 1.23).
NEWEST_OPSET = 28

# ONNX type strings of the dtypes argext computes, in the C enum's order.
ONNX_TYPES = {
    "float16": "tensor(float16)",
    "bfloat16": "tensor(bfloat16)",
    "float32": "tensor(float)",
    "float64": "tensor(double)",
    "int8": "tensor(int8)",
    "int16": "tensor(int16)",
    "int32": "tensor(int32)",
    "int64": "tensor(int64)",
    "uint8": "tensor(uint8)",
    "uint16": "tensor(uint16)",
    "uint32": "tensor(uint32)",
    "uint64": "tensor(uint64)",
}
DTYPES = tuple(ONNX_TYPES)

_NUMERIC = tuple(d for d in DTYPES if d != "bfloat16")
_FLOATS = ("float16", "float32", "float64")


@dataclass(frozen=True)
class Attribute:
    """An INT attribute. `allowed` is a tuple of values, or a rule name:
    "axis" ([-r, r-1]), "nonnegative_axis" ([0, r-1]) or "k" ([0, n], n the
    axis' extent). default None: a required attribute (TopK-1's k)."""

    default: Optional[int]
    allowed: object
    type: str = "INT"


@dataclass(frozen=True)
class OpSchema:
    """One version of one operator."""

    op_type: str
    since_version: int
    attributes: Mapping[str, Attribute]
    dtypes: Tuple[str, ...]  # allowed input dtypes (NumPy / ml_dtypes names)
    input_name: str
    output_name: str
    output_type: Optional[str]  # None: same as the input ("T")
    coerce_2d: bool = False  # Hardmax 1 and 11: rows are [prod(shape[:axis]), prod(shape[axis:])]
    k_input: bool = False  # TopK 10 on: k is the input K (a 1-D int64 tensor), not an attribute

    @property
    def type_constraints(self):
        """ONNX view of the input type constraint: {"T": (tensor types...)}."""
        return {"T": tuple(sorted(ONNX_TYPES[d] for d in self.dtypes))}

    def __str__(self):
        return f"{self.op_type}-{self.since_version}"


_BOOL = (0, 1)


def _arg_versions(op_type):
    base = {"axis": Attribute(0, "axis"), "keepdims": Attribute(1, _BOOL)}
    last = dict(base, select_last_index=Attribute(0, _BOOL))
    make = lambda v, attrs, dtypes: OpSchema(op_type, v, attrs, dtypes, "data", "reduced", "tensor(int64)")
    return (
        make(1, base, _NUMERIC),
        make(11, base, _NUMERIC),
        make(12, last, _NUMERIC),
        make(13, last, DTYPES),
    )


def _topk_versions():
    axis = {"axis": Attribute(-1, "axis")}  # 1 and 10 name no range; their default is -1
    ranked = dict(axis, largest=Attribute(1, _BOOL), sorted=Attribute(1, _BOOL))
    make = lambda v, attrs, dtypes, k_input: OpSchema("TopK", v, attrs, dtypes, "X", "Values",
                                                      None, k_input=k_input)
    return (
        make(1, dict(axis, k=Attribute(None, "k")), _FLOATS, False),
        make(10, axis, _FLOATS, True),
        make(11, ranked, _NUMERIC, True),
        make(24, ranked, DTYPES, True),
    )


OPERATORS = {
    "ArgMax": _arg_versions("ArgMax"),
    "ArgMin": _arg_versions("ArgMin"),
    "Hardmax": (
        OpSchema("Hardmax", 1, {"axis": Attribute(1, "nonnegative_axis")}, _FLOATS,
                 "input", "output", None, coerce_2d=True),
        OpSchema("Hardmax", 11, {"axis": Attribute(1, "axis")}, _FLOATS,
                 "input", "output", None, coerce_2d=True),
        OpSchema("Hardmax", 13, {"axis": Attribute(-1, "axis")}, _FLOATS + ("bfloat16",),
                 "input", "output", None),
    ),
    "TopK": _topk_versions(),
}


def resolve(op_type, opset):
    """The OpSchema in force for `op_type` at `opset` (an int in [1, NEWEST_OPSET])."""
    found = None
    for schema in OPERATORS[op_type]:
        if schema.since_version <= opset:
            found = schema
    return found
