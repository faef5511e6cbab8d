"""Typed use of argext, checked by mypy --strict against the installed stubs
(.ci/typecheck); never run. A `type: ignore[...]` marks a call the stubs must
refuse: mypy's warn_unused_ignores fails the check if they accept it."""

from typing import Any, Literal

import dask.array as da
import numpy as np
import numpy.typing as npt
from onnx.reference import ReferenceEvaluator
from onnx.reference.op_run import OpRun
from typing_extensions import assert_type

import argext
import argext.dask
import argext.onnx

x = np.zeros((3, 4), np.float32)

assert_type(argext.argmax(x), npt.NDArray[np.int64])
assert_type(argext.argmin([[1, 2], [3, 4]], axis=-1, keepdims=False, select_last_index=1, opset=13),
            npt.NDArray[np.int64])
assert_type(argext.argmax(x, 1, 0, 0, out=np.empty(3, np.int64)), npt.NDArray[np.int64])
assert_type(argext.hardmax(x), npt.NDArray[np.float32])
assert_type(argext.hardmax(x, axis=0, opset=11), npt.NDArray[np.float32])
assert_type(argext.hardmax([[1.0, 2.0]]), npt.NDArray[Any])
assert_type(argext.reduce_argmax(x, [0, 1]), npt.NDArray[np.int64])
assert_type(argext.reduce_argmax(x, 0, axis_direction="decreasing", output_dtype="int32"),
            npt.NDArray[np.int32])
assert_type(argext.reduce_argmin(x, (1,), output_dtype="uint64"), npt.NDArray[np.uint64])
assert_type(argext.reduce_argmin(x, [0], output_dtype="uint32"), npt.NDArray[np.uint32])
assert_type(argext.reduce_argmin(x, [0], output_dtype=np.int32), npt.NDArray[np.integer[Any]])
assert_type(argext.schema("ArgMax", 11).since_version, int)
assert_type(argext.topk(x, 2), tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]])
assert_type(argext.topk(x, np.array([2]), 0, largest=0, sorted=False, opset=11,
                        out=(np.empty((2, 4), np.float32), np.empty((2, 4), np.int64))),
            tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]])
assert_type(argext.topk([[1, 2]], 1)[1], npt.NDArray[np.int64])
assert_type(argext.nanargmax(x), np.intp)
assert_type(argext.nanargmin(x, axis=1), Any)
nan_out: npt.NDArray[np.int64] = np.empty((1, 4), np.int64)
assert_type(argext.nanargmax(x, 0, keepdims=True, out=nan_out), npt.NDArray[np.int64])
assert_type(argext.get_num_threads(), int)
argext.set_num_threads(None)
assert_type(argext.supported_isas(), tuple[Literal["baseline", "sse2", "sse42", "avx2", "avx512", "neon"], ...])
argext.set_isa(None)
argext.set_isa(argext.get_isa())
assert_type(argext.get_include(), str)
assert_type(argext.__version__, str)

try:
    argext.argmax(x, axis=5)
except argext.SpecTypeError as e:
    assert_type(e, argext.SpecTypeError)
except argext.SpecError as e:
    assert_type(e, argext.SpecError)

d = da.zeros((4, 6), np.float32, chunks=2)
assert_type(argext.dask.argmax(d, axis=1, keepdims=0, split_every=4), da.Array)
assert_type(argext.dask.argmin(d, select_last_index=1), da.Array)
assert_type(argext.dask.hardmax(d, opset=13), da.Array)
assert_type(argext.dask.reduce_argmax(d, [0, 1], axis_direction="decreasing", output_dtype="uint32"),
            da.Array)
assert_type(argext.dask.reduce_argmin(d, -1), da.Array)
assert_type(argext.dask.nanargmax(d, 1, None, keepdims=True, split_every=2), da.Array)
assert_type(argext.dask.nanargmin(d), da.Array)
assert_type(argext.dask.topk(d, 2, axis=0, largest=0, sorted=0, split_every=2), tuple[da.Array, da.Array])

import argext.numpy as anp  # noqa: E402

o: npt.NDArray[np.intp] = np.empty(3, np.intp)
assert_type(anp.argmax(x, 0, o), npt.NDArray[np.intp])
assert_type(anp.nanargmin(x, axis=1, out=o), npt.NDArray[np.intp])
anp.argmin(x, axis=None, keepdims=True)
assert_type(anp.top_k(x, 2, axis=0, mode="smallest", sorted=False),
            tuple[npt.NDArray[np.float32], npt.NDArray[np.intp]])

ops = argext.onnx.reference_ops()
assert_type(ops, list[type[OpRun]])
ReferenceEvaluator("model.onnx", new_ops=ops)

argext.argmax(x, axis="0")  # type: ignore[call-overload]
argext.reduce_argmax(x, [0], axis_direction="up")  # type: ignore[call-overload]
argext.set_isa("sse9")  # type: ignore[arg-type]
anp.top_k(x, 2, mode="biggest")  # type: ignore[call-overload]
argext.dask.argmax(d, opset="13")  # type: ignore[arg-type]
