"""argext on dask.array arrays: ArgMax, ArgMin, Hardmax, the multi-axis arg
reduction and NumPy's nanargmax/nanargmin over arrays larger than one
machine's memory.

Every function takes the arguments of its in-memory namesake (ONNX-shaped
ones without `out`; nanargmax/nanargmin with NumPy's signature, `out` a dask
array as in dask), checks them eagerly with the same exceptions, and returns a
lazy dask array whose computed value is exactly the in-memory function's
answer, whatever the chunking, chunks of unknown size (NaN in `.chunks`, as
after boolean indexing) included. `split_every` is passed to
dask.array.reduction (the tree's fan-in; an int, or a dict of blocks per axis;
None: dask's default).

Each chunk is reduced by argext into a candidate per output element: its
value, its position along each reduced axis within the chunk, and the chunk's
extent along each reduced axis. dask.array.reduction's tree merges candidates
of neighbouring chunks: the offset of each along an axis is the sum of the
extents before it, so no chunk size needs to be known before computing. NaN
wins for ArgMax and ArgMin alike (nanargmax/nanargmin count it as the losing
infinity and remember whether anything else was seen), then the extreme value
(-0.0 == +0.0, 64-bit integers exactly), and among equals the first occurrence
in row-major order over the reduced axes (or the last). Empty reductions and
index overflow are refused with the in-memory function's own error: before
computing when the extents are known, while computing when they are not.

TopK keeps k candidates per chunk instead of one: each chunk's k best (in
index order) with their positions and the chunk's extent, merged by the
same argext.topk over the concatenated candidates of neighbouring chunks,
whose positions stay in index order, so that its tie rule (the lower
position) is the lower index over the whole axis: exact, ties and NaN
included, for any chunking, unknown chunk sizes too.

Hardmax needs no rechunking either: it is the same reduction (the first
maximum of each row) followed by a blockwise one-hot; along an axis of
unknown chunk sizes each chunk's offset is summed from the extents of the
chunks before it.

Needs dask[array] (pip install "argext[dask]"); `import argext` does not import it.
"""

import functools
import math
import operator

import dask.array as da
import numpy as np
from dask.array.core import handle_out

import argext
from argext import _errors

__all__ = ["argmax", "argmin", "hardmax", "nanargmax", "nanargmin", "reduce_argmax",
           "reduce_argmin", "topk"]


class _Search:
    """What a reduction looks for: the minimum or the maximum, the first or
    the last occurrence; skip_nan: NaN counts as the losing infinity (NumPy's
    nanargmax/nanargmin) instead of winning (ONNX)."""

    def __init__(self, is_min, last=False, skip_nan=False):
        self.is_min, self.last, self.skip_nan = is_min, last, skip_nan

    def losing(self, dtype):
        """The value no candidate loses to: stands in for absent ones (and NaN when skipped)."""
        if dtype.kind == "f":
            return np.inf if self.is_min else -np.inf
        limits = np.iinfo(dtype)
        return limits.max if self.is_min else limits.min


def _value_dtype(dtype):
    """The dtype candidates carry values in: one NumPy orders natively
    (bfloat16 widens to float32, exactly)."""
    return np.dtype(np.float32) if dtype.name == "bfloat16" else dtype


def _candidate_dtype(dtype, k):
    """value; position and extent along each of the k reduced axes; counted:
    the value is not a skipped NaN."""
    return np.dtype([("value", _value_dtype(dtype)), ("pos", np.int64, (k,)),
                     ("ext", np.int64, (k,)), ("counted", np.bool_)])


def _probe(data):
    """A 1-element array of data's dtype and rank: the in-memory function
    validates attributes, axes and dtype on it exactly as on the real data."""
    return np.zeros((1,) * data.ndim, data.dtype)


def _local_index(block, axes, search):
    """The flattened index over `axes` of each extreme of a non-empty block (keepdims shape)."""
    if search.skip_nan:
        fn = argext.nanargmin if search.is_min else argext.nanargmax
        try:
            return np.asarray(fn(block, axis=axes[0] if len(axes) == 1 else None, keepdims=True))
        except ValueError:  # an all-NaN slice in this block: its candidate is a NaN, not counted
            block = np.where(np.isnan(block), search.losing(_value_dtype(block.dtype)), block)
    fn = argext.reduce_argmin if search.is_min else argext.reduce_argmax
    return fn(block, axes, axis_direction="decreasing" if search.last else "increasing")


def _block_candidates(block, axes, search):
    """One chunk's candidate for each output element (1 along the reduced axes)."""
    extents = [block.shape[a] for a in axes]
    out = np.zeros([1 if d in axes else n for d, n in enumerate(block.shape)],
                   _candidate_dtype(block.dtype, len(axes)))
    out["ext"] = extents
    if 0 in extents:  # an empty chunk (known, or an unknown size that turned out 0): no candidate
        return out
    positions = np.unravel_index(_local_index(block, axes, search), extents)
    where = list(np.ix_(*[np.arange(n) for n in block.shape]))
    for a, p in zip(axes, positions):
        where[a] = p
    out["value"] = block[tuple(where)]
    out["pos"] = np.stack(positions, axis=-1)
    out["counted"] = True
    if search.skip_nan and out.dtype["value"].kind == "f":
        nan = np.isnan(out["value"])
        if nan.any():  # NaN ties the infinity it counts as; counted: the slice holds a number
            out["counted"] = ~np.isnan(block).all(axis=axes, keepdims=True)
            out["value"][nan] = search.losing(out.dtype["value"])
    return out


def _merge(candidates, axis, keepdims=True, search=None, computing_meta=False):
    """The winning candidate over the reduced axes `axis` of a grid of
    neighbouring chunks' candidates; its extents are the grid's."""
    if computing_meta:
        return candidates
    axes = sorted(axis)
    ndim = candidates.ndim
    kept = [d for d in range(ndim) if d not in axes]
    shape = [1 if d in axes else n for d, n in enumerate(candidates.shape)]
    ext = candidates["ext"]
    start = np.empty_like(ext)
    total = np.empty(shape + [len(axes)], np.int64)
    for j, a in enumerate(axes):
        run = np.cumsum(ext[..., j], axis=a)
        start[..., j] = run - ext[..., j]
        # The run's end along `a` is the grid's extent, the same along the other reduced axes.
        total[..., j] = run[tuple(slice(-1, None) if d == a else slice(0, 1) if d in axes
                                  else slice(None) for d in range(ndim))]

    count = math.prod(candidates.shape[a] for a in axes)

    def flat(field, n=count):  # the reduced grid as one last axis (before a field's own axis)
        moved = np.moveaxis(field, axes, range(len(kept), ndim))
        return moved.reshape([field.shape[d] for d in kept] + [n] + list(field.shape[ndim:]))

    position = flat(candidates["pos"] + start)
    valid = flat((ext > 0).all(axis=-1))
    value = flat(candidates["value"])
    value = np.where(valid, value, search.losing(value.dtype))
    # Row-major order over the grid's reduced extents: the first/last occurrence is the smallest/largest key.
    key = np.zeros(value.shape, np.int64)
    for j in range(len(axes)):
        key = key * flat(total[..., j], 1) + position[..., j]
    extreme = (value.min if search.is_min else value.max)(axis=-1, keepdims=True)  # NaN propagates
    equal = value == extreme
    if value.dtype.kind == "f":
        equal |= np.isnan(value) & np.isnan(extreme)
    equal &= valid
    if search.last:
        choice = np.argmax(np.where(equal, key, -1), axis=-1, keepdims=True)
    else:
        choice = np.argmin(np.where(equal, key, np.iinfo(np.int64).max), axis=-1, keepdims=True)
    out = np.empty(shape, candidates.dtype)
    out["value"] = np.take_along_axis(value, choice, -1).reshape(shape)
    out["pos"] = np.take_along_axis(position, choice[..., None], -2).reshape(shape + [len(axes)])
    out["ext"] = total
    out["counted"] = (flat(candidates["counted"]) & valid).any(axis=-1).reshape(shape)
    return out


def _identity(candidates, axis, keepdims, computing_meta=False):
    return candidates


def _tree(x, axes, search, split_every):
    """The merged candidates of the reduction over sorted `axes`, keepdims shape."""
    candidate = _candidate_dtype(x.dtype, len(axes))
    meta = np.empty((0,) * x.ndim, candidate)
    candidates = da.map_blocks(
        _block_candidates, x, axes=axes, search=search, dtype=candidate, meta=meta,
        chunks=tuple((1,) * len(c) if d in axes else c for d, c in enumerate(x.chunks)))
    merge = functools.partial(_merge, search=search)
    return da.reduction(candidates, _identity, merge, combine=merge, axis=axes, keepdims=True,
                        dtype=candidate, split_every=split_every, concatenate=True, meta=meta)


def _refuse(call, dtype, shape, axes, limit):
    """Raises the in-memory function's own error (call on a zero-stride stand-in
    of `shape`) when the reduced axes hold no element or more than `limit`+1."""
    count = math.prod(shape[a] for a in axes)
    if count == 0 or count - 1 > limit:
        call(np.broadcast_to(np.zeros((), dtype), shape))
        # In case the in-memory function took it after all: still no index from nothing.
        raise ValueError(f"cannot reduce over axes {list(axes)} of shape {shape}")


def _finish(candidates, axes, call, data_dtype, shape, limit, skip_nan, output_dtype):
    """The flattened indices of one output block; the refusals the extents and
    NaN called for, now that they are known."""
    if candidates.size:
        extents = candidates["ext"].reshape(-1, len(axes))[0]
        # Unknown kept extents: this block's, which the in-memory error then names.
        stand_in = tuple(int(extents[axes.index(d)]) if d in axes else
                         candidates.shape[d] if math.isnan(n) else n for d, n in enumerate(shape))
        _refuse(call, data_dtype, stand_in, axes, limit)
        if skip_nan and not candidates["counted"].all():
            raise ValueError(_errors.ALL_NAN)
    index = np.zeros(candidates.shape, np.int64)
    for j in range(len(axes)):
        index = index * candidates["ext"][..., j] + candidates["pos"][..., j]
    return index.astype(output_dtype)


def _indices(x, axes, call, search, output_dtype, split_every):
    """The arg reduction over `axes`, keepdims shape, as the in-memory `call`
    (the function with its arguments but the data) answers; its refusals
    raised eagerly when x's shape is known."""
    axes = tuple(sorted(axes))
    limit = _errors.INDEX_LIMITS[output_dtype.name]
    if not any(math.isnan(n) for n in x.shape):
        _refuse(call, x.dtype, x.shape, axes, limit)
    return da.map_blocks(
        _finish, _tree(x, axes, search, split_every), axes=axes, call=call, data_dtype=x.dtype,
        shape=x.shape, limit=limit, skip_nan=search.skip_nan, output_dtype=output_dtype,
        dtype=output_dtype, meta=np.empty((0,) * x.ndim, output_dtype))


def _onnx_arg(fn, is_min, data, axis, keepdims, select_last_index, opset, split_every):
    x = da.asarray(data)
    call = functools.partial(fn, axis=axis, keepdims=keepdims,
                             select_last_index=select_last_index, opset=opset)
    call(_probe(x))
    a = operator.index(axis) % x.ndim
    result = _indices(x, (a,), call, _Search(is_min, bool(select_last_index)),
                      np.dtype(np.int64), split_every)
    return result if keepdims else result.squeeze(axis=a)


def argmax(data, axis=0, keepdims=1, select_last_index=0, *, opset=None, split_every=None):
    """ONNX ArgMax of a dask array: argext.argmax's arguments and answer, as a
    lazy int64 dask array. split_every: dask.array.reduction's
    split_every (the merge tree's fan-in; None: dask's default)."""
    return _onnx_arg(argext.argmax, False, data, axis, keepdims, select_last_index, opset,
                     split_every)


def argmin(data, axis=0, keepdims=1, select_last_index=0, *, opset=None, split_every=None):
    """ONNX ArgMin of a dask array: argext.argmin's arguments and answer, as a
    lazy int64 dask array. split_every: the merge tree's fan-in."""
    return _onnx_arg(argext.argmin, True, data, axis, keepdims, select_last_index, opset,
                     split_every)


def _multi_axis(fn, is_min, data, axes, axis_direction, output_dtype, split_every):
    x = da.asarray(data)
    call = functools.partial(fn, axes=axes, axis_direction=axis_direction,
                             output_dtype=output_dtype)
    call(_probe(x))
    try:
        listed = [operator.index(axes)]
    except TypeError:
        listed = list(axes)
    reduced = [operator.index(a) % x.ndim for a in listed]
    return _indices(x, reduced, call, _Search(is_min, axis_direction == "decreasing"),
                    np.dtype(output_dtype), split_every)


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


def _nan_arg(fn, is_min, a, axis, out, keepdims, split_every):
    x = da.asarray(a)
    call = functools.partial(fn, axis=axis, keepdims=keepdims)
    call(_probe(x))
    if x.ndim == 0:  # NumPy: index 0 of the one element, a 0-d result
        return handle_out(out, _nan_arg(fn, is_min, x.reshape(1), None, None, False,
                                        split_every))
    axes = tuple(range(x.ndim)) if axis is None else (operator.index(axis) % x.ndim,)
    result = _indices(x, axes, call, _Search(is_min, skip_nan=True), np.dtype(np.intp),
                      split_every)
    return handle_out(out, result if keepdims else result.squeeze(axis=axes))


def nanargmax(a, axis=None, out=None, *, keepdims=False, split_every=None):
    """NumPy's nanargmax of a dask array, as a lazy intp dask array: NaN
    skipped (counted as -inf), axis=None over the flattened array (a 0-d
    result), `keepdims`; `out` a dask array, as in dask.array. An all-NaN
    slice raises ValueError("All-NaN slice encountered") when computed.
    split_every: the merge tree's fan-in."""
    return _nan_arg(argext.nanargmax, False, a, axis, out, keepdims, split_every)


def nanargmin(a, axis=None, out=None, *, keepdims=False, split_every=None):
    """NumPy's nanargmin of a dask array: nanargmax's contract with the
    smallest elements (NaN counted as +inf)."""
    return _nan_arg(argext.nanargmin, True, a, axis, out, keepdims, split_every)


def _block_starts(x, axis):
    """Each chunk's offset along `axis` (one element per chunk), summed from
    the extents of the chunks before it, known or not."""
    extent = da.map_blocks(lambda b: np.full((1,) * b.ndim, b.shape[axis], np.int64), x,
                           dtype=np.int64, chunks=tuple((1,) * len(c) for c in x.chunks))
    return da.cumsum(extent, axis=axis) - extent


def _one_hot(block, best, *starts, rows, unknown, block_info=None):
    """1 where an element's position along every row axis is the winner's; a
    chunk's offset along an axis of unknown chunk sizes comes from `starts`."""
    offsets = {r: start.item() for r, start in zip(unknown, starts)}
    location = block_info[0]["array-location"]
    hit = np.ones((1,) * block.ndim, bool)
    for j, r in enumerate(rows):
        position = np.arange(block.shape[r]).reshape([-1 if d == r else 1 for d in range(block.ndim)])
        start = offsets[r] if r in offsets else location[r][0]
        hit = hit & (position + start == best["pos"][..., j])
    return np.broadcast_to(hit, block.shape).astype(block.dtype)


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
    best = _tree(x, rows, _Search(is_min=False), split_every)
    unknown = [r for r in rows if any(math.isnan(c) for c in x.chunks[r])]
    starts = [_block_starts(x, r) for r in unknown]
    return da.map_blocks(_one_hot, x, best, *starts, rows=rows, unknown=unknown, dtype=x.dtype,
                         chunks=x.chunks, meta=np.empty((0,) * x.ndim, x.dtype))


def _topk_fields(dtype):
    """A TopK candidate: a value's bits (structured arrays hold no bfloat16),
    its position along the axis and the extent the positions count over."""
    return np.dtype([("bits", f"u{dtype.itemsize}"), ("pos", np.int64), ("ext", np.int64)])


def _topk_candidates(values, positions, extent, k):
    """A candidate block of k entries along the last axis; entries past
    min(k, extent) are padding."""
    out = np.zeros(values.shape[:-1] + (k,), _topk_fields(values.dtype))
    m = values.shape[-1]
    out["bits"][..., :m] = values.view(out.dtype["bits"])
    out["pos"][..., :m] = positions
    out["ext"] = extent
    return out


def _topk_block(block, axis, keepdims, flags, k, computing_meta=False):
    """One chunk's k best, in index order, as a candidate block."""
    b = np.moveaxis(block, axis[0], -1)
    values, i = argext.topk(b, min(k, b.shape[-1]), -1, sorted=0, **flags)
    return np.moveaxis(_topk_candidates(values, i, b.shape[-1], k), -1, axis[0])


def _topk_merge(candidates, axis, keepdims, flags, value_dtype, k, sorted, final, computing_meta=False):
    """The k best of candidate blocks concatenated along `axis` in chunk order
    (positions then count over all of them); the final merge orders them as
    `sorted` says and refuses a k the axis, once its extent is known, lacks."""
    if computing_meta:
        return candidates
    c = np.moveaxis(candidates, axis[0], -1)
    if c.size == 0:  # no row here (another axis is empty): nothing to rank
        return np.moveaxis(c[..., :k], -1, axis[0])
    extents = [int(c["ext"].reshape(-1, c.shape[-1])[0, g]) for g in range(0, c.shape[-1], k)]
    groups = len(extents)
    total = sum(extents)
    if final and total < k:
        argext.topk(np.broadcast_to(np.zeros((), value_dtype), (1,) * (c.ndim - 1) + (total,)), k,
                    -1, **flags)
    starts = np.cumsum([0] + extents[:-1])
    taken = [slice(g * k, g * k + min(k, extents[g])) for g in range(groups)]
    bits = np.concatenate([c["bits"][..., t] for t in taken], axis=-1)
    positions = np.concatenate([c["pos"][..., t] + s for t, s in zip(taken, starts)], axis=-1)
    values, i = argext.topk(bits.view(value_dtype), min(k, total), -1, sorted=sorted if final else 0,
                            **flags)
    out = _topk_candidates(values, np.take_along_axis(positions, i, -1), total, k)
    return np.moveaxis(out, -1, axis[0])


def _k_count(k):
    """k as an int where it reads as one (argext.topk checks it)."""
    try:
        return operator.index(k)
    except TypeError:
        return int(next(iter(np.asarray(k).reshape(-1)), 0))


def topk(data, k, axis=-1, largest=1, sorted=1, *, opset=None, split_every=None):
    """ONNX TopK of a dask array: argext.topk's arguments and answer, as two
    lazy dask arrays (values, int64 indices), exact for any chunking of the
    axis (ties to the lower index, NaN first). split_every: the merge tree's fan-in."""
    x = da.asarray(data)
    count = _k_count(k)
    shape = [1] * x.ndim
    try:
        a = operator.index(axis) % x.ndim if -x.ndim <= operator.index(axis) < x.ndim else None
    except TypeError:
        a = None
    if a is not None:  # k is checked against the axis' extent, or when unknown, one that holds k
        n = x.shape[a]
        shape[a] = max(count, 0) if math.isnan(n) else min(n, max(count, 0) + 1)
    argext.topk(np.broadcast_to(np.zeros((), x.dtype), shape), k, axis, largest, sorted,
                opset=opset)
    dtype = x.dtype.newbyteorder("=")
    if count == 0:
        empty = tuple(slice(0, 0) if d == a else slice(None) for d in range(x.ndim))
        chunks = tuple((0,) * len(c) if d == a else c for d, c in enumerate(x.chunks))
        return tuple(x.map_blocks(lambda b, t=t: b[empty].astype(t), dtype=t, chunks=chunks,
                                  meta=np.empty((0,) * x.ndim, t)) for t in (dtype, np.int64))
    flags = {"largest": largest, "opset": opset}
    # Not `dtype=`: dask.array.reduction passes its own dtype to functions that take one.
    merge = functools.partial(_topk_merge, flags=flags, value_dtype=dtype, k=count, sorted=sorted)
    meta = np.empty((0,) * x.ndim, _topk_fields(dtype))
    tree = da.reduction(x, functools.partial(_topk_block, flags=flags, k=count),
                        functools.partial(merge, final=True), combine=functools.partial(merge, final=False),
                        axis=a, keepdims=True, dtype=meta.dtype, split_every=split_every,
                        concatenate=True, meta=meta, output_size=count)
    return tuple(tree.map_blocks(lambda c, f=f, t=t: np.ascontiguousarray(c[f]).view(t), dtype=t,
                                 meta=np.empty((0,) * x.ndim, t))
                 for f, t in (("bits", dtype), ("pos", np.dtype(np.int64))))
