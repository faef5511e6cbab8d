"""The benchmark's cases: what users run, as shapes, dtypes and one operator each.

A case names its operator (`op`: "argmax", "hardmax", "nanargmax", "reduce_argmax",
"topk"). Each contender (contenders.py) offers the operators it has as methods of
those names; one it lacks is left blank in the table. NumPy's result is the
reference every contender is checked against (`same_result`; for TopK, whose peers
break ties their own way, `same_topk`). A new operator is added by giving the
contenders a method of its name and listing its cases here.

Sized cases (`sized=True`) take their shape from --size; the others are the shapes
of real workloads and keep them. Every case has a tiny shape for --quick.
"""

from dataclasses import dataclass

import numpy as np

MIB = 1 << 20

ALL_DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
              "uint8", "uint16", "uint32", "uint64")
FLOATS = ("float16", "bfloat16", "float32", "float64")


def numpy_dtype(name):
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def _elements(dtype, size):
    return max(1, size // numpy_dtype(dtype).itemsize)


@dataclass(frozen=True)
class Case:
    name: str
    what: str  # one line for the listing; the peers' recipes where they differ from the call
    op: str
    axis: object  # int, a tuple of axes (reduce_argmax), or None (the flattened array)
    dtypes: tuple  # the default dtypes (--dtype overrides)
    shapes: object  # (dtype, size) -> list of shapes; size is --size for sized cases
    tiny: tuple  # the shape of --quick
    sized: bool = False
    select_last_index: int = 0
    nan: bool = False  # 1% NaN
    swapped: bool = False  # non-native byte order, with argext on the native copy beside it
    reversed_axes: tuple = ()  # the input is a view reversed along these axes
    per_call: bool = False  # reports time per call, not bandwidth
    k: int = 0  # TopK's k (the largest k)
    ascending: bool = False  # sorted ascending along the axis: TopK's worst input, every element a new candidate


def _sized(width):
    """Rows of `width` elements filling --size (a 1-D array for width None)."""
    def shapes(dtype, size):
        n = _elements(dtype, size)
        return [(n,)] if width is None else [(max(1, n // width), width)]
    return shapes


def _fixed(*shapes):
    return lambda dtype, size: list(shapes)


def _columns(rows):
    return lambda dtype, size: [(rows, max(1, _elements(dtype, size) // rows))]


CASES = {c.name: c for c in [
    # The workloads users run.
    Case("logits", "language-model logits, next-token argmax over the vocabulary", "argmax", -1,
         ("float32", "bfloat16", "float16"), _fixed((32, 128256)), (2, 1000)),
    Case("segmentation", "segmentation map, class argmax over the channel axis", "argmax", 1,
         ("float32", "float16"), _fixed((4, 21, 512, 512)), (1, 21, 16, 16)),
    Case("classifier", "classifier outputs, argmax over 1000 classes", "argmax", -1,
         ("float32",), _fixed((1000, 1000), (4096, 1000)), (16, 1000)),
    Case("column_fold", "few long rows folded over axis 1 (a huge inner extent)", "argmax", 1,
         ("float32",), _fixed((2, 64, 131072), (1, 8, 2097152)), (2, 8, 512)),
    Case("reversed_rows", "x[:, ::-1] along axis 1 (PyTorch, JAX: flip)", "argmax", 1,
         ("float32",), _fixed((8192, 8192)), (64, 64), reversed_axes=(1,)),
    Case("reversed_cols", "x[::-1] along axis 0 (PyTorch, JAX: flip)", "argmax", 0,
         ("float32",), _fixed((8192, 8192)), (64, 64), reversed_axes=(0,)),
    Case("reversed_1d", "x[::-1], a reversed 1-D array (PyTorch, JAX: flip)", "argmax", 0,
         ("float32",), _sized(None), (4096,), sized=True, reversed_axes=(0,)),
    Case("hardmax", "Hardmax, rows of 1000 (NumPy, PyTorch: zeros + put; JAX: one_hot)",
         "hardmax", -1, ("float32",), _sized(1000), (8, 1000), sized=True),
    Case("nan_rows", "nanargmax along rows of 1000, 1% NaN", "nanargmax", -1,
         ("float32",), _sized(1000), (8, 1000), sized=True, nan=True),
    # Layouts, sized by --size.
    Case("1d", "contiguous 1-D", "argmax", 0, ALL_DTYPES, _sized(None), (4096,), sized=True),
    Case("last", "last axis, rows of 4096", "argmax", -1, ALL_DTYPES, _sized(4096), (4, 4096),
         sized=True),
    Case("last_index", "select_last_index=1 (NumPy, PyTorch, JAX: flip)", "argmax", 0,
         ("float32", "int32"), _sized(None), (4096,), sized=True, select_last_index=1),
    Case("axis0", "axis 0 of a 4096-row matrix", "argmax", 0, ("float32", "float16", "int8", "float64"),
         _columns(4096), (64, 64), sized=True),
    Case("short_rows", "rows of 16 along the last axis", "argmax", -1, ("float32", "int8"),
         _sized(16), (256, 16), sized=True),
    Case("nan_1d", "nanargmax of the flattened array, 1% NaN", "nanargmax", None,
         ("float32", "float64", "float16"), _sized(None), (4096,), sized=True, nan=True),
    Case("nan_last", "nanargmax along rows of 4096, 1% NaN", "nanargmax", -1, ("float32", "float64"),
         _sized(4096), (4, 4096), sized=True, nan=True),
    Case("swapped_1d", "non-native byte order, 1-D", "argmax", 0, ("float32", "float64", "float16"),
         _sized(None), (4096,), sized=True, swapped=True),
    Case("swapped_last", "non-native byte order, rows of 4096", "argmax", -1, ("float32",),
         _sized(4096), (4, 4096), sized=True, swapped=True),
    Case("swapped_axis0", "non-native byte order, axis 0 of a 4096-row matrix", "argmax", 0,
         ("float32",), _columns(4096), (64, 64), sized=True, swapped=True),
    Case("reduce02", "reduce_argmax over axes (0, 2) of 256^3 (the peers: move axes, reshape)",
         "reduce_argmax", (0, 2), ("float32",), _fixed((256, 256, 256)), (8, 8, 8)),
    Case("small", "per-call cost on a (2, 3, 4) array", "argmax", 0, ("float32",),
         _fixed((2, 3, 4)), (2, 3, 4), per_call=True),
    # TopK (the largest k; NumPy: argpartition, then a sort of the k; argext-argmax: argext's
    # argmax of the same input, the yardstick of its GB/s).
    *[Case(f"topk_logits{k}", f"TopK k={k} of language-model logits over the vocabulary", "topk", -1,
           ("float32", "bfloat16", "float16"), _fixed((32, 128256)), (2, 1000), k=k) for k in (1, 5, 50)],
    Case("topk_ascend", "TopK k=50 of logits sorted ascending along the rows (the worst input)",
         "topk", -1, ("float32",), _fixed((32, 128256)), (2, 1000), k=50, ascending=True),
    Case("topk_classes", "TopK k=5 of classifier outputs, rows of 1000", "topk", -1, ("float32",),
         _fixed((1000, 1000)), (16, 1000), k=5),
    Case("topk_short", "TopK k=5 of short rows, 100 classes (CIFAR-100's outputs)", "topk", -1,
         ("float32",), _fixed((65536, 100)), (16, 100), k=5),
    Case("topk_1d", "TopK k=10 of a contiguous 1-D array", "topk", 0, ("float32",), _sized(None),
         (4096,), sized=True, k=10),
    Case("topk_channel", "TopK k=5 over the channel axis of a segmentation map", "topk", 1,
         ("float32", "float16", "bfloat16"), _fixed((4, 21, 512, 512)), (1, 21, 16, 16), k=5),
    Case("dask", "argext.dask.argmax vs da.argmax, axis 0 over 4x4 chunks, 2-worker LocalCluster",
         "argmax", 0, ("float32", "float16"), _columns(4096), (64, 64), sized=True),
]}


def data(case, dtype, shape, rng):
    """The input of `case`: random values without the dtype's extremes (NumPy
    stops at the first one, which would fake its speed), 1% NaN for the nan
    cases, a reversed view or non-native byte order where the case says."""
    dt = numpy_dtype(dtype)
    if dt.kind == "f" or dtype == "bfloat16":
        x = rng.standard_normal(shape, dtype=np.float32).astype(dt)
        if case.nan:
            x[rng.random(shape) < 0.01] = np.nan
    else:
        info = np.iinfo(dt)
        lo, hi = max(info.min + 1, -(2**40)), min(info.max - 1, 2**40)
        x = rng.integers(lo, hi, size=shape, endpoint=True, dtype=np.int64).astype(dt)
    if case.ascending:
        x = np.sort(x, axis=case.axis)
    if case.swapped:
        x = x.astype(x.dtype.newbyteorder("S"))
    if case.reversed_axes:
        x = np.flip(x, case.reversed_axes)
    return x


def same_result(got, want):
    """Results agree: equal arrays (or equal tuples of arrays, as TopK's)."""
    if isinstance(want, tuple):
        return isinstance(got, tuple) and len(got) == len(want) and all(map(same_result, got, want))
    got, want = np.asarray(got), np.asarray(want)
    return got.shape == want.shape and np.array_equal(got, want)


def same_topk(got, want, x, axis):
    """TopK results agree: the same values, and indices that hold them, each
    once (peers may break ties another way than the lower index)."""
    (values, indices), (want_values, _) = (tuple(map(np.asarray, r)) for r in (got, want))
    if values.shape != want_values.shape or not np.array_equal(values, want_values):
        return False
    ranked = np.sort(indices.astype(np.int64), axis=axis)
    distinct = np.all(np.diff(ranked, axis=axis) > 0)
    return distinct and np.array_equal(np.take_along_axis(x, indices.astype(np.int64), axis), values)
