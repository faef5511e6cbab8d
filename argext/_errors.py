"""argext's exceptions, their texts and the index limits, in one place.

The compiled front (argext._core) words the C core's refusals with these;
argext.dask raises the same exceptions for what it must decide before any
chunk is computed (an empty reduced axis, an index overflow). Each function
returns the exception to raise, so its class travels with its text.
"""

from typing import Any

try:
    from numpy.exceptions import AxisError
except ImportError:  # NumPy < 1.25 has it at the top level
    from numpy import AxisError  # type: ignore[attr-defined,no-redef]


class SpecError(ValueError):
    """An opset, attribute or axis outside the operator's versioned spec."""

    __module__ = "argext"


class SpecTypeError(SpecError, TypeError):
    """A value of the wrong type for the spec: a non-integer attribute or
    opset, or a dtype the operator version does not allow."""

    __module__ = "argext"


# The largest index each output dtype of reduce_argmax/argmin holds (indices
# are computed in int64, so uint64 holds what int64 does). The C core checks
# the same limits (ARGEXT_ERR_OVERFLOW); argext.dask checks them before it
# builds a graph.
INDEX_LIMITS: dict[str, int] = {"int64": 2**63 - 1, "int32": 2**31 - 1, "uint64": 2**63 - 1, "uint32": 2**32 - 1}

ALL_NAN = "All-NaN slice encountered"


def range_text(rank: int, negative_ok: bool = True) -> str:
    return f"[{-rank if negative_ok else 0}, {rank - 1}]"


def not_integer(context: str, name: str, value: object) -> SpecTypeError:
    return SpecTypeError(f"{context}: {name} must be an integer, got {value!r}")


def axis_out_of_range(context: str, name: str, value: object, rank: int,
                      negative_ok: bool = True) -> SpecError:
    return SpecError(f"{context}: {name}={value} is out of range {range_text(rank, negative_ok)} "
                     f"for an input of rank {rank}")


def axis_none(context: str) -> SpecTypeError:
    return SpecTypeError(f"{context}: axis=None is not an ONNX attribute value (axis is an "
                         f"integer); to reduce every axis use argext.reduce_argmax(data, "
                         f"range(data.ndim)), or argext.numpy's argmax/argmin for NumPy's "
                         f"flattened index")


def dtype_refused(context: str, what: str, dtype: object, allowed: list[str],
                  convert: bool = False) -> SpecTypeError:
    """convert: a tensor's dtype, which its own library converts (DLPack)."""
    fix = "; convert it first, e.g. x.to(torch.float32) or x.astype('float32')" if convert else ""
    return SpecTypeError(f"{context}: {what} has dtype {dtype}, which it does not support "
                         f"(supported: {', '.join(allowed)}){fix}")


def empty_axis(context: str, axis: object, shape: tuple[int, ...]) -> ValueError:
    return ValueError(f"{context}: cannot reduce over axis {axis}, which has size 0 "
                      f"(data shape {shape})")


def empty_axes(context: str, axes: object, shape: tuple[int, ...]) -> ValueError:
    return ValueError(f"{context}: cannot reduce over axes {axes!r}, which hold no elements "
                      f"(data shape {shape})")


def empty_sequence(function: str) -> ValueError:
    """NumPy's text for an empty reduction, e.g. function 'argmax'."""
    return ValueError(f"attempt to get {function} of an empty sequence")


def index_overflow(context: str, count: int, dtype: object) -> OverflowError:
    return OverflowError(f"{context}: {count} reduced elements cannot be indexed by "
                         f"output_dtype {dtype}")


def out_dtype(context: str, got: object, expected: object, what: str = "out") -> TypeError:
    return TypeError(f"{context}: {what} has dtype {got}, expected {expected}")


def out_shape(context: str, got: object, expected: object, what: str = "out") -> ValueError:
    return ValueError(f"{context}: {what} has shape {got}, expected {expected}")


def not_attribute(context: str, name: str, value: object) -> SpecError:
    return SpecError(f"{context}: {name}={value!r} is not an attribute of this version "
                     f"(it needs a newer opset)")


def k_out_of_range(context: str, k: object, axis: object, extent: int) -> SpecError:
    return SpecError(f"{context}: k={k} is out of range [0, {extent}] for axis {axis}, "
                     f"whose extent is {extent}")


def not_numeric(context: str, what: str, data: Any, detail: object) -> TypeError:
    return TypeError(f"{context}: {what} must be a numeric array, got {type(data).__name__} "
                     f"({detail})")
