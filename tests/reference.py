"""Independent NumPy references that argext is tested against (never argext itself).

bfloat16 data is widened to float32 first: exact, and NumPy then compares it
natively (NaN first for argmax and argmin alike, -0.0 == +0.0).
"""

import numpy as np

try:
    import ml_dtypes
except ImportError:  # pragma: no cover - ml_dtypes is a test dependency
    ml_dtypes = None

FLOAT_DTYPES = [np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)]
INT_DTYPES = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64)]
UINT_DTYPES = [np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)]
BFLOAT16 = np.dtype(ml_dtypes.bfloat16) if ml_dtypes is not None else None
ALL_DTYPES = FLOAT_DTYPES + ([BFLOAT16] if BFLOAT16 is not None else []) + INT_DTYPES + UINT_DTYPES


def is_float(dtype):
    return dtype.kind == "f" or dtype == BFLOAT16


def comparable(x):
    """x in a dtype NumPy orders natively (bfloat16 -> float32, exactly)."""
    x = np.asarray(x)
    # BFLOAT16 is None without ml_dtypes, and NumPy reads dtype == None as float64
    return x.astype(np.float32) if BFLOAT16 is not None and x.dtype == BFLOAT16 else x


def arg_reference(x, axis=0, keepdims=1, select_last_index=0, op="max"):
    """ONNX ArgMax/ArgMin by NumPy; the last occurrence through a flip."""
    x = comparable(x)
    f = np.argmax if op == "max" else np.argmin
    if select_last_index:
        r = x.shape[axis] - 1 - f(np.flip(x, axis), axis=axis)
    else:
        r = f(x, axis=axis)
    r = np.asarray(r, dtype=np.int64)
    return np.expand_dims(r, axis) if keepdims else r


def multi_axis_reference(x, axes, last=False, op="max"):
    """DML ARGMAX/ARGMIN: moveaxis the reduced axes (increasing order) to the
    end, flatten them row-major, and take NumPy's arg over that."""
    x = comparable(x)
    rank = x.ndim
    reduced = sorted(a % rank for a in axes)
    kept = [d for d in range(rank) if d not in reduced]
    y = np.moveaxis(x, reduced, list(range(len(kept), rank)))
    y = y.reshape([x.shape[d] for d in kept] + [-1])
    r = arg_reference(y, axis=-1, keepdims=0, select_last_index=last, op=op)
    return r.reshape([1 if d in reduced else x.shape[d] for d in range(rank)])


def hardmax_reference(x, axis, coerce_2d):
    """ONNX Hardmax: one-hot of the first maximum (first NaN) of each row.
    coerce_2d (versions 1, 11): rows of the 2-D [prod(shape[:axis]), prod(shape[axis:])]."""
    x = np.asarray(x)
    axis = axis % x.ndim
    if coerce_2d:
        rows = comparable(x).reshape(int(np.prod(x.shape[:axis], dtype=np.int64)), -1)
        y = np.zeros(rows.shape, x.dtype)
        if rows.size:
            y[np.arange(rows.shape[0]), np.argmax(rows, axis=1)] = 1
        return y.reshape(x.shape)
    y = np.zeros(x.shape, x.dtype)
    if x.size:
        idx = np.expand_dims(np.argmax(comparable(x), axis=axis), axis)
        np.put_along_axis(y, idx, np.array(1, x.dtype), axis=axis)
    return y


def _descending(x):
    """A key that orders as x reversed, exactly: -x for floats (NaN stays NaN,
    -0.0 and +0.0 stay equal), ~x for integers (-x-1, or max-x unsigned)."""
    return -x if x.dtype.kind == "f" else ~x


def topk_reference(x, k, axis=-1, largest=1, sorted=1, nan_last=False):
    """ONNX TopK by a stable NumPy sort of explicit keys along `axis`: NaN
    first (nan_last: last, as numpy.top_k), then the value (largest: the
    largest first), then the lower index. sorted=0: the same k elements in
    ascending index order. Returns (values, int64 indices); values are the
    input's own elements (bfloat16 ranked by its exact float32 widening)."""
    x = np.asarray(x)
    moved = np.moveaxis(x, axis, -1)
    key = comparable(moved)
    value = _descending(key) if largest else key
    nan = np.isnan(key) if is_float(x.dtype) else np.zeros(key.shape, bool)
    index = np.broadcast_to(np.arange(key.shape[-1]), key.shape)
    order = np.lexsort((index, value, nan if nan_last else ~nan), axis=-1)[..., :k]
    if not sorted:
        order = np.sort(order, axis=-1)
    values = np.take_along_axis(moved, order, axis=-1)
    return np.moveaxis(values, -1, axis), np.moveaxis(order.astype(np.int64), -1, axis)
