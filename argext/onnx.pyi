# Type stubs of argext.onnx.
from typing import Any

import numpy as np
import numpy.typing as npt
from onnx.reference.op_run import OpRun

__all__ = ["reference_ops"]

class ArgMax(OpRun):
    def _run(  # type: ignore[override]
        self, data: npt.ArrayLike, axis: int | None = None, keepdims: int | None = None,
        select_last_index: int | None = None,
    ) -> tuple[npt.NDArray[np.int64]]: ...

class ArgMin(OpRun):
    def _run(  # type: ignore[override]
        self, data: npt.ArrayLike, axis: int | None = None, keepdims: int | None = None,
        select_last_index: int | None = None,
    ) -> tuple[npt.NDArray[np.int64]]: ...

class Hardmax(OpRun):
    def _run(  # type: ignore[override]
        self, input: npt.ArrayLike, axis: int | None = None
    ) -> tuple[npt.NDArray[Any]]: ...

class TopK(OpRun):
    def _run(  # type: ignore[override]
        self, X: npt.ArrayLike, K: npt.NDArray[np.int64] | None = None, axis: int | None = None,
        largest: int | None = None, sorted: int | None = None, k: int | None = None,
    ) -> tuple[npt.NDArray[Any], npt.NDArray[np.int64]]: ...

def reference_ops() -> list[type[OpRun]]: ...
