# Type stubs of argext.numpy: NumPy's argmax, argmin, nanargmax, nanargmin.
from typing import Any, Protocol, TypeVar, overload

import numpy as np
import numpy.typing as npt

_ArrayT = TypeVar("_ArrayT", bound=npt.NDArray[Any])

class _SupportsDLPack(Protocol):
    def __dlpack__(self, /, *, stream: Any = ...) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

__all__ = ["argmax", "argmin", "nanargmax", "nanargmin"]

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
