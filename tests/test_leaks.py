"""No leaks: 100k calls of every public function, valid and failing, leave the
reference counts of their arguments and results, and the bytes the C heap
has in use (glibc's mallinfo2, which sees the C core's and NumPy's
allocations as well as Python's larger ones), where they were."""

import ctypes
import ctypes.util
import gc
import sys

import numpy as np
import pytest

import argext
from argext import SpecError

CALLS = 100_000
HEAP_GROWTH_LIMIT = 256 * 1024  # bytes; one leaked 16-byte block per 6 calls would be >= 256 KiB


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _heap_in_use():
    """Bytes malloc has handed out and not had back (None off glibc >= 2.33)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        mallinfo2 = libc.mallinfo2
    except (OSError, AttributeError, TypeError):
        return None
    mallinfo2.restype = _Mallinfo2
    info = mallinfo2()
    return info.uordblks + info.hblkhd


def test_reference_counts_and_heap_stay_flat():
    x = np.array([[3, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8]], np.float32)
    x_swapped = x.astype(x.dtype.newbyteorder(">"))
    ints = np.array([[3, 1, 4], [1, 5, 9]], np.int64)
    out_arg = np.empty((1, 4), np.int64)
    out_hard = np.empty_like(x)
    out_reduce = np.empty((1, 1), np.uint32)
    out_small = np.empty((2, 4), np.int64)
    out_read_only = np.empty((1, 4), np.int64)
    out_read_only.flags.writeable = False
    axes = [1, 0]
    wide = np.broadcast_to(np.float32(0), (2**16, 2**15 + 1))
    empty = np.zeros((0, 3), np.float32)
    ragged = [[1.0, 2.0], [3.0]]
    nested_axes = [[0]]

    def overlapping():
        # out is a row of the input: argext computes into a fresh array and copies back
        argext.argmax(ints, axis=0, out=ints[:1])

    valid = [
        lambda: argext.argmax(x, axis=1),
        lambda: argext.argmin(x, axis=0, keepdims=0, select_last_index=1),
        lambda: argext.argmax(x, out=out_arg),
        lambda: argext.argmin(x_swapped, axis=-1, opset=11),
        lambda: argext.argmax([[1.0, 2.0], [4.0, 3.0]]),
        lambda: argext.hardmax(x),
        lambda: argext.hardmax(x, opset=11, out=out_hard),
        lambda: argext.reduce_argmax(x, axes),
        lambda: argext.reduce_argmin(x, axes, axis_direction="decreasing", output_dtype="uint32", out=out_reduce),
        lambda: argext.reduce_argmax(wide, [1]),
        lambda: argext.topk(x, 3),
        lambda: argext.topk(x_swapped, np.array([2]), 0, 0, 0, opset=11),
        lambda: argext.topk(x, 1, out=(out_hard[:, :1], out_arg.reshape(-1, 1)[:3])),
        overlapping,
        lambda: argext.schema("Hardmax", 11),
        lambda: argext.supported_isas() and argext.get_isa(),
    ]
    failing = [
        lambda: argext.argmax(x, axis=9),
        lambda: argext.argmax(x, axis=1.5),
        lambda: argext.argmin(x, keepdims=2),
        lambda: argext.argmax(x, select_last_index=1, opset=11),
        lambda: argext.argmax(x, opset="13"),
        lambda: argext.hardmax(x, opset=0),
        lambda: argext.argmax(x.astype(bool)),
        lambda: argext.argmax(ragged),
        lambda: argext.argmax(np.float32(1)),
        lambda: argext.argmax(x, out=out_small),
        lambda: argext.argmax(x, out=out_read_only),
        lambda: argext.argmin(x, out=out_hard),
        lambda: argext.hardmax(ints),
        lambda: argext.argmax(empty),
        lambda: argext.reduce_argmax(x, [0, 0]),
        lambda: argext.reduce_argmin(x, nested_axes),
        lambda: argext.reduce_argmax(x, axes, axis_direction="up"),
        lambda: argext.reduce_argmax(x, axes, output_dtype="int8"),
        lambda: argext.reduce_argmax(wide, [0, 1], output_dtype="int32"),
        lambda: argext.schema("ArgMax", 29),
        lambda: argext.topk(x, -1),
        lambda: argext.topk(x, np.array([1, 2])),
        lambda: argext.topk(x, 2, largest=0, opset=10),
        lambda: argext.topk(x, 1, out=out_small),
        lambda: argext.set_isa("no-such-isa"),
    ]
    watched = [x, x_swapped, ints, out_arg, out_hard, out_reduce, out_small, out_read_only, axes, wide, empty,
               ragged, nested_axes, np.dtype(np.int64), np.dtype(np.float32), np.dtype(np.uint32), SpecError]

    def run(n):
        k = 0
        while k < n:
            for call in valid:
                call()
            for call in failing:
                try:
                    call()
                except (ValueError, TypeError, OverflowError):  # SpecError is a ValueError
                    pass
                else:
                    pytest.fail("a failing call succeeded")
            k += len(valid) + len(failing)
        return k

    run(5_000)  # warm caches, free lists and the per-thread scratch
    gc.collect()
    refs_before = [sys.getrefcount(o) for o in watched]
    heap_before = _heap_in_use()
    done = run(CALLS)
    gc.collect()
    heap_after = _heap_in_use()
    refs_after = [sys.getrefcount(o) for o in watched]
    assert done >= CALLS
    assert refs_after == refs_before
    if heap_before is not None:
        assert heap_after - heap_before < HEAP_GROWTH_LIMIT, (heap_before, heap_after)


def test_results_hold_no_extra_references():
    x = np.arange(12, dtype=np.float64).reshape(3, 4)
    for fn in (lambda: argext.argmax(x), lambda: argext.hardmax(x), lambda: argext.reduce_argmin(x, [0, 1])):
        result = fn()
        assert sys.getrefcount(result) == 2  # the local name and getrefcount's argument
        assert result.base is None  # a fresh array, not a view holding something alive
    out = np.empty((3, 1), np.int64)
    before = sys.getrefcount(out)
    returned = argext.argmax(x, axis=1, out=out)
    assert returned is out
    del returned
    assert sys.getrefcount(out) == before
