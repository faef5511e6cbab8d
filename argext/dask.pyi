# Type stubs of argext.dask.
from typing import SupportsIndex, Sequence, Literal

import dask.array as da
import numpy as np
import numpy.typing as npt

_Flag = SupportsIndex | bool | np.bool_
_SplitEvery = int | dict[int, int] | None

__all__ = ["argmax", "argmin", "hardmax", "nanargmax", "nanargmin", "reduce_argmax", "reduce_argmin", "topk"]

def argmax(
    data: da.Array | npt.ArrayLike,
    axis: SupportsIndex = 0,
    keepdims: _Flag = 1,
    select_last_index: _Flag = 0,
    *,
    opset: SupportsIndex | None = None,
    split_every: _SplitEvery = None,
) -> da.Array: ...
def argmin(
    data: da.Array | npt.ArrayLike,
    axis: SupportsIndex = 0,
    keepdims: _Flag = 1,
    select_last_index: _Flag = 0,
    *,
    opset: SupportsIndex | None = None,
    split_every: _SplitEvery = None,
) -> da.Array: ...
def hardmax(
    input: da.Array | npt.ArrayLike,
    axis: SupportsIndex | None = None,
    *,
    opset: SupportsIndex | None = None,
    split_every: _SplitEvery = None,
) -> da.Array: ...
def reduce_argmax(
    data: da.Array | npt.ArrayLike,
    axes: SupportsIndex | Sequence[SupportsIndex],
    *,
    axis_direction: Literal["increasing", "decreasing"] = "increasing",
    output_dtype: npt.DTypeLike = "int64",
    split_every: _SplitEvery = None,
) -> da.Array: ...
def reduce_argmin(
    data: da.Array | npt.ArrayLike,
    axes: SupportsIndex | Sequence[SupportsIndex],
    *,
    axis_direction: Literal["increasing", "decreasing"] = "increasing",
    output_dtype: npt.DTypeLike = "int64",
    split_every: _SplitEvery = None,
) -> da.Array: ...
def nanargmax(
    a: da.Array | npt.ArrayLike,
    axis: SupportsIndex | None = None,
    out: da.Array | None = None,
    *,
    keepdims: bool = False,
    split_every: _SplitEvery = None,
) -> da.Array: ...
def nanargmin(
    a: da.Array | npt.ArrayLike,
    axis: SupportsIndex | None = None,
    out: da.Array | None = None,
    *,
    keepdims: bool = False,
    split_every: _SplitEvery = None,
) -> da.Array: ...
def topk(
    data: da.Array | npt.ArrayLike,
    k: SupportsIndex | npt.NDArray[np.int64],
    axis: SupportsIndex = -1,
    largest: _Flag = 1,
    sorted: _Flag = 1,
    *,
    opset: SupportsIndex | None = None,
    split_every: _SplitEvery = None,
) -> tuple[da.Array, da.Array]: ...
