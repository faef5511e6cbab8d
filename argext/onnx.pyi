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

def reference_ops() -> list[type[OpRun]]: ...
