# Type stubs of argext's public API (the compiled argext._core behind it).
from typing import Any, Literal, Protocol, Sequence, SupportsIndex, TypeVar, overload

import numpy as np
import numpy.typing as npt

from argext._spec import OpSchema

_ScalarT = TypeVar("_ScalarT", bound=np.generic)
_ArrayT = TypeVar("_ArrayT", bound=npt.NDArray[Any])
_Isa = Literal["baseline", "sse2", "sse42", "avx2", "avx512", "neon"]
_Axes = SupportsIndex | Sequence[SupportsIndex]
_Direction = Literal["increasing", "decreasing"]
# A flag attribute (keepdims, select_last_index): an int, bool or np.bool_.
_Flag = SupportsIndex | bool | np.bool_
# reduce_argmax/argmin: an output_dtype given by name types the result exactly;
# a dtype or scalar type gives NDArray[np.integer[Any]] (NumPy's typing lets
# np.int64 and np.int32 overlap).

# An array of another library (torch, JAX, array-api-strict, ...) read through
# DLPack: the result comes back in its type.
class _SupportsDLPack(Protocol):
    def __dlpack__(self, /, *, stream: Any = ...) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

__version__: str

class SpecError(ValueError): ...
class SpecTypeError(SpecError, TypeError): ...

@overload
def argmax(
    data: npt.ArrayLike,
    axis: SupportsIndex = 0,
    keepdims: _Flag = 1,
    select_last_index: _Flag = 0,
    *,
    opset: SupportsIndex | None = None,
    out: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.int64]: ...
@overload
def argmax(
    data: _SupportsDLPack,
    axis: SupportsIndex = 0,
    keepdims: _Flag = 1,
    select_last_index: _Flag = 0,
    *,
    opset: SupportsIndex | None = None,
    out: npt.NDArray[np.int64] | None = None,
) -> Any: ...
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
def hardmax(
    input: _SupportsDLPack,
    axis: SupportsIndex | None = None,
    *,
    opset: SupportsIndex | None = None,
    out: npt.NDArray[Any] | None = None,
) -> Any: ...
argmin = argmax  # ArgMin's signature and result are ArgMax's

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
def reduce_argmax(
    data: _SupportsDLPack,
    axes: _Axes,
    *,
    axis_direction: _Direction = "increasing",
    output_dtype: npt.DTypeLike = "int64",
    out: npt.NDArray[np.integer[Any]] | None = None,
) -> Any: ...
reduce_argmin = reduce_argmax  # the same signature and result types

@overload
def nanargmax(
    a: npt.ArrayLike, axis: None = None, *, keepdims: Literal[False] = False, out: None = None
) -> np.intp: ...
@overload
def nanargmax(
    a: npt.ArrayLike | _SupportsDLPack, axis: SupportsIndex | None = None, *, keepdims: bool = False, out: _ArrayT
) -> _ArrayT: ...
@overload
def nanargmax(
    a: npt.ArrayLike | _SupportsDLPack, axis: SupportsIndex | None = None, *, keepdims: bool = False, out: None = None
) -> Any: ...
nanargmin = nanargmax

# TopK's k: an integer, or (TopK-10 on) the input K, an int64 tensor of one element; its
# result (and out): the values, of the input's dtype, and the int64 indices.
_K = SupportsIndex | npt.NDArray[np.int64]
_TopK = tuple[npt.NDArray[_ScalarT], npt.NDArray[np.int64]]

@overload
def topk(data: npt.NDArray[_ScalarT], k: _K, axis: SupportsIndex = -1, largest: _Flag = 1, sorted: _Flag = 1,
         *, opset: SupportsIndex | None = None, out: _TopK[_ScalarT] | None = None) -> _TopK[_ScalarT]: ...
@overload
def topk(data: npt.ArrayLike, k: _K, axis: SupportsIndex = -1, largest: _Flag = 1, sorted: _Flag = 1,
         *, opset: SupportsIndex | None = None, out: _TopK[Any] | None = None) -> _TopK[Any]: ...
@overload
def topk(data: _SupportsDLPack, k: _K, axis: SupportsIndex = -1, largest: _Flag = 1, sorted: _Flag = 1,
         *, opset: SupportsIndex | None = None, out: _TopK[Any] | None = None) -> tuple[Any, Any]: ...

def schema(op_type: str, opset: SupportsIndex | None = None) -> OpSchema: ...
def version() -> str: ...
def get_include() -> str: ...
def get_library_dirs() -> list[str]: ...
def get_cmake_dir() -> str: ...
def get_isa() -> _Isa: ...
def set_isa(name: _Isa | None) -> None: ...
def supported_isas() -> tuple[_Isa, ...]: ...
def get_num_threads() -> int: ...
def set_num_threads(n: int | None) -> None: ...

__all__ = [
    "SpecError",
    "SpecTypeError",
    "argmax",
    "argmin",
    "get_cmake_dir",
    "get_include",
    "get_library_dirs",
    "get_isa",
    "get_num_threads",
    "hardmax",
    "nanargmax",
    "nanargmin",
    "reduce_argmax",
    "reduce_argmin",
    "schema",
    "set_isa",
    "set_num_threads",
    "supported_isas",
    "topk",
    "version",
    "__version__",
]
