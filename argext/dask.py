"""argext on dask.array arrays: ArgMax, ArgMin, Hardmax and the multi-axis arg
reduction over arrays larger than one machine's memory.

Every function takes the arguments of its in-memory namesake (without `out`),
checks them eagerly with the same exceptions, and returns a lazy dask array
whose computed value is exactly the in-memory function's answer, whatever the
chunking. Each chunk is reduced by argext, giving a (value, global index) pair
per output element; dask.array.reduction's tree merges the pairs:
NaN wins for ArgMax and ArgMin alike, then the extreme value (-0.0 == +0.0,
64-bit integers exactly), and among equals the smallest global index (the
first occurrence) or the largest (the last). The global index is the
row-major flattened index over the reduced axes, as in reduce_argmax.
`split_every` is passed to dask.array.reduction (the tree's fan-in; an int,
or a dict of blocks per axis; None: dask's default).

Hardmax needs no rechunking either: it is the same reduction (the first
maximum of each row) followed by a blockwise one-hot.

Needs dask[array] (pip install "argext[dask]"); `import argext` does not import it.
"""

import functools
import operator

import dask.array as da
import numpy as np

import argext

__all__ = ["argmax", "argmin", "hardmax", "reduce_argmax", "reduce_argmin"]

_INDEX_LIMITS = {np.dtype(np.int64): 2**63 - 1, np.dtype(np.int32): 2**31 - 1,
                 np.dtype(np.uint64): 2**63 - 1, np.dtype(np.uint32): 2**32 - 1}


def _value_dtype(dtype):
    """The dtype the pairs carry values in: one NumPy orders natively
    (bfloat16 widens to float32, exactly)."""
    return np.dtype(np.float32) if dtype.name == "bfloat16" else dtype


def _pair_dtype(dtype):
    return np.dtype([("value", _value_dtype(dtype)), ("index", np.int64)])


def _probe(data):
    """A 1-element array of data's dtype and rank: the in-memory function
    validates attributes, axes and dtype on it exactly as on the real data."""
    return np.zeros((1,) * data.ndim, data.dtype)


def _block_pairs(block, axes, last, is_min, block_info=None):
    """(value, global index) of the extreme of each sub-block of one chunk."""
    info = block_info[0]
    starts = [start for start, _ in info["array-location"]]
    fn = argext.reduce_argmin if is_min else argext.reduce_argmax
    local = fn(block, axes, axis_direction="decreasing" if last else "increasing")
    # The local flattened index -> a position per reduced axis -> the global index.
    positions = np.unravel_index(local, [block.shape[a] for a in axes])
    where = [np.arange(n).reshape([-1 if d == a else 1 for d in range(block.ndim)])
             for a, n in enumerate(block.shape)]
    index = np.zeros(local.shape, np.int64)
    for a, p in zip(axes, positions):
        where[a] = p
        index = index * info["shape"][a] + (p + starts[a])
    pairs = np.empty(local.shape, _pair_dtype(block.dtype))
    pairs["value"] = block[tuple(where)]
    pairs["index"] = index
    return pairs


def _merge(pairs, axis, keepdims=True, last=False, is_min=False, computing_meta=False):
    """The winning pair over the reduced axes `axis` of concatenated candidate pairs."""
    if computing_meta:
        return pairs
    kept = [d for d in range(pairs.ndim) if d not in axis]
    flat = np.moveaxis(pairs, axis, range(len(kept), pairs.ndim))
    count = int(np.prod([pairs.shape[a] for a in axis]))
    flat = flat.reshape([pairs.shape[d] for d in kept] + [count])
    value, index = flat["value"], flat["index"]
    # np.max/np.min propagate NaN, so a row holding NaN has extreme NaN.
    extreme = (value.min if is_min else value.max)(axis=-1, keepdims=True)
    equal = value == extreme
    if value.dtype.kind == "f":
        equal |= np.isnan(value) & np.isnan(extreme)
    if last:
        chosen = np.where(equal, index, -1).max(axis=-1)
    else:
        chosen = np.where(equal, index, np.iinfo(np.int64).max).min(axis=-1)
    out = np.empty(chosen.shape, pairs.dtype)
    out["value"] = extreme[..., 0]
    out["index"] = chosen
    return out.reshape([1 if d in axis else n for d, n in enumerate(pairs.shape)])


def _identity(pairs, axis, keepdims, computing_meta=False):
    return pairs


def _indices(pairs, output_dtype):
    return pairs["index"].astype(output_dtype)


def _arg_reduce(x, axes, last, is_min, output_dtype, split_every):
    """The flattened-index arg reduction over sorted `axes`, keepdims shape: a
    pair per chunk, merged by dask.array.reduction's tree."""
    axes = tuple(sorted(axes))
    if any(0 in x.chunks[a] for a in axes):  # argext refuses empty blocks along a reduced axis
        x = x.rechunk({a: tuple(c for c in x.chunks[a] if c) for a in axes})
    pair = _pair_dtype(x.dtype)
    pairs = da.map_blocks(
        _block_pairs, x, axes=axes, last=last, is_min=is_min, dtype=pair,
        chunks=tuple((1,) * len(c) if d in axes else c for d, c in enumerate(x.chunks)),
        meta=np.empty((0,) * x.ndim, pair))
    merge = functools.partial(_merge, last=last, is_min=is_min)
    merged = da.reduction(pairs, _identity, merge, combine=merge, axis=axes, keepdims=True,
                          dtype=pair, split_every=split_every, concatenate=True,
                          meta=np.empty((0,) * x.ndim, pair))
    return da.map_blocks(_indices, merged, output_dtype=output_dtype, dtype=output_dtype,
                         meta=np.empty((0,) * x.ndim, output_dtype))


def _onnx_arg(fn, op_type, data, axis, keepdims, select_last_index, opset, split_every):
    x = da.asarray(data)
    fn(_probe(x), axis=axis, keepdims=keepdims, select_last_index=select_last_index, opset=opset)
    a = operator.index(axis) % x.ndim
    if x.shape[a] == 0:
        raise ValueError(f"{argext.schema(op_type, opset)}: cannot reduce over axis {axis}, "
                         f"which has size 0 (data shape {x.shape})")
    result = _arg_reduce(x, (a,), bool(select_last_index), op_type == "ArgMin",
                         np.dtype(np.int64), split_every)
    return result if keepdims else result.squeeze(axis=a)


def argmax(data, axis=0, keepdims=1, select_last_index=0, *, opset=None, split_every=None):
    """ONNX ArgMax of a dask array: argext.argmax's arguments and answer, as a
    lazy int64 dask array. split_every: dask.array.reduction's
    split_every (the merge tree's fan-in; None: dask's default)."""
    return _onnx_arg(argext.argmax, "ArgMax", data, axis, keepdims, select_last_index, opset,
                     split_every)


def argmin(data, axis=0, keepdims=1, select_last_index=0, *, opset=None, split_every=None):
    """ONNX ArgMin of a dask array: argext.argmin's arguments and answer, as a
    lazy int64 dask array. split_every: the merge tree's fan-in."""
    return _onnx_arg(argext.argmin, "ArgMin", data, axis, keepdims, select_last_index, opset,
                     split_every)


def _multi_axis(fn, is_min, data, axes, axis_direction, output_dtype, split_every):
    x = da.asarray(data)
    fn(_probe(x), axes, axis_direction=axis_direction, output_dtype=output_dtype)
    try:
        listed = [operator.index(axes)]
    except TypeError:
        listed = list(axes)
    reduced = sorted(operator.index(a) % x.ndim for a in listed)
    count = 1
    for a in reduced:
        count *= x.shape[a]
    name = fn.__name__
    if count == 0:
        raise ValueError(f"{name}: cannot reduce over axes {axes!r}, which hold no elements "
                         f"(data shape {x.shape})")
    odt = np.dtype(output_dtype)
    if count - 1 > _INDEX_LIMITS[odt]:
        raise OverflowError(f"{name}: {count} reduced elements cannot be indexed by "
                            f"output_dtype {odt}")
    return _arg_reduce(x, reduced, axis_direction == "decreasing", is_min, odt, split_every)


def reduce_argmax(data, axes, *, axis_direction="increasing", output_dtype="int64",
                  split_every=None):
    """argext.reduce_argmax of a dask array (DML ARGMAX over several axes), as a
    lazy dask array of output_dtype: the row-major flattened index over the
    reduced axes, for any chunking of them."""
    return _multi_axis(argext.reduce_argmax, False, data, axes, axis_direction, output_dtype,
                       split_every)


def reduce_argmin(data, axes, *, axis_direction="increasing", output_dtype="int64",
                  split_every=None):
    """argext.reduce_argmin of a dask array (DML ARGMIN over several axes)."""
    return _multi_axis(argext.reduce_argmin, True, data, axes, axis_direction, output_dtype,
                       split_every)


def hardmax(input, axis=None, *, opset=None, split_every=None):
    """ONNX Hardmax of a dask array: argext.hardmax's arguments and answer, as a
    lazy dask array of the input's dtype, chunked as the input.

    No rechunking: the first maximum (or first NaN) of each row comes from the
    tree reduction (over `axis` for version 13; over the coerced row, the axes
    from `axis` on, for versions 1 and 11), then each chunk writes its ones.
    """
    x = da.asarray(input)
    argext.hardmax(_probe(x), axis=axis, opset=opset)
    schema = argext.schema("Hardmax", opset)
    a = operator.index(schema.attributes["axis"].default if axis is None else axis) % x.ndim
    if x.size == 0:
        return da.zeros(x.shape, x.dtype, chunks=x.chunks)
    rows = tuple(range(a, x.ndim)) if schema.coerce_2d else (a,)
    best = _arg_reduce(x, rows, False, False, np.dtype(np.int64), split_every)
    # Each element's index within its row, flattened row-major over `rows`.
    position = 0
    for r in rows:
        position = position * x.shape[r] + da.arange(x.shape[r], chunks=x.chunks[r]).reshape(
            [-1 if d == r else 1 for d in range(x.ndim)])
    return (position == best).astype(x.dtype)
