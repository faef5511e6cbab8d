# Type stubs of argext.numpy: NumPy's argmax, argmin, nanargmax, nanargmin.
from typing import Any, Literal, Protocol, SupportsIndex, TypeVar, overload

import numpy as np
import numpy.typing as npt

_ArrayT = TypeVar("_ArrayT", bound=npt.NDArray[Any])
_ScalarT = TypeVar("_ScalarT", bound=np.generic)
_Mode = Literal["largest", "smallest"]

class _SupportsDLPack(Protocol):
    def __dlpack__(self, /, *, stream: Any = ...) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

__all__ = ["argmax", "argmin", "nanargmax", "nanargmin", "top_k"]

# An array given as out is returned; otherwise an np.intp (axis=None), an
# ndarray of indices, or the caller's array type for input read through DLPack.
@overload
def argmax(a: npt.ArrayLike | _SupportsDLPack, axis: int | None, out: _ArrayT, *,
           keepdims: bool = False) -> _ArrayT: ...
@overload
def argmax(a: npt.ArrayLike | _SupportsDLPack, axis: int | None = None, *, out: _ArrayT,
           keepdims: bool = False) -> _ArrayT: ...
@overload
def argmax(a: npt.ArrayLike | _SupportsDLPack, axis: int | None = None, out: None = None, *,
           keepdims: bool = False) -> Any: ...
# The other three share argmax's signature and result types.
argmin = argmax
nanargmax = argmax
nanargmin = argmax

# NumPy 2.6's top_k: (values, indices), values of the input's dtype, indices intp.
@overload
def top_k(a: npt.NDArray[_ScalarT], k: SupportsIndex, /, *, axis: SupportsIndex = -1,
          mode: _Mode = "largest", sorted: bool = True) -> tuple[npt.NDArray[_ScalarT], npt.NDArray[np.intp]]: ...
@overload
def top_k(a: npt.ArrayLike, k: SupportsIndex, /, *, axis: SupportsIndex = -1,
          mode: _Mode = "largest", sorted: bool = True) -> tuple[npt.NDArray[Any], npt.NDArray[np.intp]]: ...
