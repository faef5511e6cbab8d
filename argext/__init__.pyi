# Type stubs of argext's public API (the compiled argext._core behind it).
from typing import Any, Literal, Sequence, SupportsIndex, TypeVar, overload

import numpy as np
import numpy.typing as npt

from argext._spec import OpSchema

_ScalarT = TypeVar("_ScalarT", bound=np.generic)
_Axes = SupportsIndex | Sequence[SupportsIndex]
_Direction = Literal["increasing", "decreasing"]
# A flag attribute (keepdims, select_last_index): an int, bool or np.bool_.
_Flag = SupportsIndex | bool | np.bool_
# reduce_argmax/argmin: an output_dtype given by name types the result exactly;
# a dtype or scalar type gives NDArray[np.integer[Any]] (NumPy's typing lets
# np.int64 and np.int32 overlap).

__version__: str

class SpecError(ValueError): ...
class SpecTypeError(SpecError, TypeError): ...

def argmax(
    data: npt.ArrayLike,
    axis: SupportsIndex = 0,
    keepdims: _Flag = 1,
    select_last_index: _Flag = 0,
    *,
    opset: SupportsIndex | None = None,
    out: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.int64]: ...
def argmin(
    data: npt.ArrayLike,
    axis: SupportsIndex = 0,
    keepdims: _Flag = 1,
    select_last_index: _Flag = 0,
    *,
    opset: SupportsIndex | None = None,
    out: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.int64]: ...
@overload
def hardmax(
    input: npt.NDArray[_ScalarT],
    axis: SupportsIndex | None = None,
    *,
    opset: SupportsIndex | None = None,
    out: npt.NDArray[_ScalarT] | None = None,
) -> npt.NDArray[_ScalarT]: ...
@overload
def hardmax(
    input: npt.ArrayLike,
    axis: SupportsIndex | None = None,
    *,
    opset: SupportsIndex | None = None,
    out: npt.NDArray[Any] | None = None,
) -> npt.NDArray[Any]: ...
@overload
def reduce_argmax(
    data: npt.ArrayLike,
    axes: _Axes,
    *,
    axis_direction: _Direction = "increasing",
    output_dtype: Literal["int64"] = "int64",
    out: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.int64]: ...
@overload
def reduce_argmax(
    data: npt.ArrayLike,
    axes: _Axes,
    *,
    axis_direction: _Direction = "increasing",
    output_dtype: Literal["int32"],
    out: npt.NDArray[np.int32] | None = None,
) -> npt.NDArray[np.int32]: ...
@overload
def reduce_argmax(
    data: npt.ArrayLike,
    axes: _Axes,
    *,
    axis_direction: _Direction = "increasing",
    output_dtype: Literal["uint64"],
    out: npt.NDArray[np.uint64] | None = None,
) -> npt.NDArray[np.uint64]: ...
@overload
def reduce_argmax(
    data: npt.ArrayLike,
    axes: _Axes,
    *,
    axis_direction: _Direction = "increasing",
    output_dtype: Literal["uint32"],
    out: npt.NDArray[np.uint32] | None = None,
) -> npt.NDArray[np.uint32]: ...
@overload
def reduce_argmax(
    data: npt.ArrayLike,
    axes: _Axes,
    *,
    axis_direction: _Direction = "increasing",
    output_dtype: npt.DTypeLike,
    out: npt.NDArray[np.integer[Any]] | None = None,
) -> npt.NDArray[np.integer[Any]]: ...
@overload
def reduce_argmin(
    data: npt.ArrayLike,
    axes: _Axes,
    *,
    axis_direction: _Direction = "increasing",
    output_dtype: Literal["int64"] = "int64",
    out: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.int64]: ...
@overload
def reduce_argmin(
    data: npt.ArrayLike,
    axes: _Axes,
    *,
    axis_direction: _Direction = "increasing",
    output_dtype: Literal["int32"],
    out: npt.NDArray[np.int32] | None = None,
) -> npt.NDArray[np.int32]: ...
@overload
def reduce_argmin(
    data: npt.ArrayLike,
    axes: _Axes,
    *,
    axis_direction: _Direction = "increasing",
    output_dtype: Literal["uint64"],
    out: npt.NDArray[np.uint64] | None = None,
) -> npt.NDArray[np.uint64]: ...
@overload
def reduce_argmin(
    data: npt.ArrayLike,
    axes: _Axes,
    *,
    axis_direction: _Direction = "increasing",
    output_dtype: Literal["uint32"],
    out: npt.NDArray[np.uint32] | None = None,
) -> npt.NDArray[np.uint32]: ...
@overload
def reduce_argmin(
    data: npt.ArrayLike,
    axes: _Axes,
    *,
    axis_direction: _Direction = "increasing",
    output_dtype: npt.DTypeLike,
    out: npt.NDArray[np.integer[Any]] | None = None,
) -> npt.NDArray[np.integer[Any]]: ...
def schema(op_type: str, opset: SupportsIndex | None = None) -> OpSchema: ...
def version() -> str: ...
def get_include() -> str: ...
def get_isa() -> Literal["baseline", "avx2", "avx512"]: ...
def set_isa(name: Literal["baseline", "avx2", "avx512"] | None) -> None: ...
def supported_isas() -> tuple[str, ...]: ...

__all__ = [
    "SpecError",
    "SpecTypeError",
    "argmax",
    "argmin",
    "get_include",
    "get_isa",
    "hardmax",
    "reduce_argmax",
    "reduce_argmin",
    "schema",
    "set_isa",
    "supported_isas",
    "__version__",
]
