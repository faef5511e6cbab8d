"""argext.dask on a distributed.LocalCluster with several worker processes,
against NumPy (tests/reference.py): every kind of dtype (DASK_DTYPES),
irregular chunkings, NaN, ties, -0.0/+0.0 and 64-bit neighbours placed on
both sides of chunk edges, trees of several levels; chunks of unknown size
(boolean indexing) on the reduced and the kept axes; nanargmax/nanargmin
against NumPy and Dask; the same eager errors as the in-memory functions; and
`import argext` does not import dask."""

import subprocess
import sys

import numpy as np
import pytest

import argext
from reference import ALL_DTYPES, BFLOAT16, arg_reference, comparable, hardmax_reference, is_float
from reference import multi_axis_reference, topk_reference

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")
import argext.dask as ad  # noqa: E402

# Chunk edges along each axis of a (13, 11, 7) array, empty chunks included.
SHAPE = (13, 11, 7)
CHUNKINGS = {
    "irregular": ((3, 4, 1, 5), (2, 7, 2), (4, 3)),
    "single": ((13,), (11,), (7,)),
    "ones": ((1,) * 13, (3, 8), (2, 5)),  # 13 blocks along axis 0: two merge levels at split_every=4
    "empty": ((3, 0, 10), (11,), (0, 7)),
}


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=3, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as c:
            yield c


def edge_sample(dtype, seed):
    """Values of few levels (ties everywhere); on the irregular edges (3|4, 7|8
    along axis 0; 2|3 along axis 1; 4|3 along axis 2) NaN, +-0.0 or the
    dtype's extreme neighbours sit on both sides."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-3, 4, size=SHAPE).astype(np.float64)
    if dtype.kind == "u":
        x = np.abs(x)
    x = x.astype(dtype)
    if is_float(dtype):
        x[2:4, 4, 1] = np.nan       # NaN on both sides of the edge 3|4 along axis 0
        x[5, 1:3, 6] = np.nan       # ... of 2|3 along axis 1
        x[9, 6, 3:5] = np.nan       # ... of 4|3 along axis 2
        x[:, 9, :] = 0.0
        x[7:9, 9, 2] = [-0.0, 0.0]  # only zeros in these rows: -0.0 ties +0.0
        x[0, 9, 3:5] = [0.0, -0.0]
    elif dtype.itemsize == 8:
        big = np.iinfo(dtype).max
        x[2:4, 0, 0] = [big - 1, big]  # neighbours a float64 compare would tie
        x[6:8, 2, 0] = [big, big]
        small = np.iinfo(dtype).min
        x[3, 1:3, 5] = [small + 1, small]
    return x


def dtype_id(dt):
    return dt.name


# The dtypes argext.dask treats apart: floats (NaN and -0.0 at chunk edges; bfloat16's values
# carried as float32), signed and unsigned integers (their extremes as the losing value), 64-bit
# integers (exact neighbours). int16/int32/uint16/uint32 take int8's and uint8's path there, and
# the in-memory suites test every dtype's kernels.
DASK_DTYPES = [dt for dt in ALL_DTYPES if dt.name not in ("int16", "int32", "uint16", "uint32")]


@pytest.mark.parametrize("dtype", DASK_DTYPES, ids=dtype_id)
def test_argmax_argmin(client, dtype):
    check_argmax_argmin(client, dtype, "irregular")


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), BFLOAT16, np.dtype(np.uint64)], ids=str)
def test_argmax_argmin_deep_tree(client, dtype):
    if dtype is None:
        pytest.skip("ml_dtypes is not installed")
    check_argmax_argmin(client, dtype, "ones")


def check_argmax_argmin(client, dtype, chunking):
    x = edge_sample(dtype, 1)
    d = da.from_array(x, chunks=CHUNKINGS[chunking])
    cases, lazy = [], []
    for op, fn in (("max", ad.argmax), ("min", ad.argmin)):
        for axis in range(3):
            for last in (0, 1):
                axis_arg, keepdims = (axis - 3, 1) if last else (axis, 0)
                cases.append((op, axis_arg, keepdims, last))
                lazy.append(fn(d, axis_arg, keepdims, last, split_every=4))
    for (op, axis, keepdims, last), got in zip(cases, client.gather(client.compute(lazy))):
        want = arg_reference(x, axis, keepdims, last, op)
        assert got.dtype == np.int64 and got.shape == want.shape, (op, axis, keepdims, last)
        assert np.array_equal(got, want), (op, axis, keepdims, last)


@pytest.mark.parametrize("dtype", DASK_DTYPES, ids=dtype_id)
def test_reduce_axis_sets(client, dtype):
    """Two axis sets for each of DASK_DTYPES; every axis set for float32 and int64."""
    x = edge_sample(dtype, 2)
    d = da.from_array(x, chunks=CHUNKINGS["irregular"])
    cases, lazy = [], []
    every = dtype in (np.dtype(np.float32), np.dtype(np.int64))
    for axes in ([0], [1], [2], [0, 1], [2, 0], [1, 2], [2, 1, 0], -1) if every else ([2, 0], [2, 1, 0]):
        for op, fn in (("max", ad.reduce_argmax), ("min", ad.reduce_argmin)):
            for direction in ("increasing", "decreasing"):
                cases.append((axes, op, direction))
                lazy.append(fn(d, axes, axis_direction=direction, output_dtype="int32",
                               split_every=2))
    for (axes, op, direction), got in zip(cases, client.gather(client.compute(lazy))):
        listed = [axes] if isinstance(axes, int) else axes
        want = multi_axis_reference(x, listed, last=direction == "decreasing", op=op)
        assert got.dtype == np.int32 and np.array_equal(got, want), (axes, op, direction)


@pytest.mark.parametrize("chunking", sorted(CHUNKINGS))
def test_chunkings_float64(client, chunking):
    x = edge_sample(np.dtype(np.float64), 3)
    d = da.from_array(x, chunks=CHUNKINGS[chunking])
    lazy = [ad.argmax(d, 1, 0, 1), ad.reduce_argmin(d, [0, 2], axis_direction="decreasing"),
            ad.hardmax(d, axis=0, opset=13)]
    got = client.gather(client.compute(lazy))
    assert np.array_equal(got[0], arg_reference(x, 1, 0, 1))
    assert np.array_equal(got[1], multi_axis_reference(x, [0, 2], last=True, op="min"))
    assert np.array_equal(got[2], hardmax_reference(x, 0, coerce_2d=False))


HARDMAX_DTYPES = [dt for dt in ALL_DTYPES if is_float(dt)]


@pytest.mark.parametrize("dtype", HARDMAX_DTYPES, ids=dtype_id)
def test_hardmax_every_version(client, dtype):
    x = edge_sample(dtype, 4)
    d = da.from_array(x, chunks=CHUNKINGS["irregular"])
    cases, lazy = [], []
    for opset in (1, 11, 13):
        if dtype == BFLOAT16 and opset < 13:
            continue
        for axis in ([None, 0, 1, 2] if opset == 1 else [None, -3, -1, 0, 1, 2]):
            cases.append((opset, axis))
            lazy.append(ad.hardmax(d, axis=axis, opset=opset, split_every=2))
    for (opset, axis), got in zip(cases, client.gather(client.compute(lazy))):
        default = -1 if opset >= 13 else 1
        want = hardmax_reference(x, default if axis is None else axis, coerce_2d=opset < 13)
        assert got.dtype == x.dtype and np.array_equal(got, want), (opset, axis)


def test_hardmax_keeps_the_chunks(client):
    d = da.from_array(edge_sample(np.dtype(np.float32), 5), chunks=CHUNKINGS["irregular"])
    for opset in (1, 13):
        assert ad.hardmax(d, opset=opset).chunks == d.chunks


def test_empty_outer_dimension(client):
    x = np.zeros((0, 5), np.float32)
    d = da.from_array(x, chunks=((0,), (2, 3)))
    assert ad.argmax(d, axis=1).compute().shape == (0, 1)
    assert ad.hardmax(d).compute().shape == (0, 5)


def test_numpy_input_is_accepted(client):
    x = edge_sample(np.dtype(np.int16), 6)
    assert np.array_equal(ad.argmin(x, axis=2).compute(), arg_reference(x, 2, op="min"))


def test_same_errors_as_in_memory():
    d = da.zeros((4, 5), np.float32, chunks=2)
    x = np.zeros((4, 5), np.float32)
    cases = [
        (lambda m: m.argmax(x if m is argext else d, axis=2), argext.SpecError),
        (lambda m: m.argmax(x if m is argext else d, keepdims=2), argext.SpecError),
        (lambda m: m.argmin(x if m is argext else d, select_last_index=1, opset=11), argext.SpecError),
        (lambda m: m.argmax((x if m is argext else d).astype(np.bool_)), argext.SpecTypeError),
        (lambda m: m.hardmax((x if m is argext else d).astype(np.int32)), argext.SpecTypeError),
        (lambda m: m.hardmax(x if m is argext else d, axis=-1, opset=1), argext.SpecError),
        (lambda m: m.reduce_argmax(x if m is argext else d, [0, -2]), argext.SpecError),
        (lambda m: m.reduce_argmax(x if m is argext else d, [1], axis_direction="up"), argext.SpecError),
        (lambda m: m.reduce_argmin(x if m is argext else d, [1], output_dtype="int8"), argext.SpecTypeError),
        (lambda m: m.argmax(np.zeros((3, 0)) if m is argext else da.zeros((3, 0)), axis=1), ValueError),
        (lambda m: m.reduce_argmax(np.zeros((0, 3)) if m is argext else da.zeros((0, 3)), [0, 1]),
         ValueError),
    ]
    for call, exc in cases:
        with pytest.raises(exc) as want:
            call(argext)
        with pytest.raises(exc) as got:
            call(ad)  # eager: raised when the graph is built, before any compute
        assert str(got.value) == str(want.value)


def test_overflow_is_refused_before_computing():
    d = da.zeros((2**16, 2**16 + 1), np.int8, chunks=2**14)  # never computed
    with pytest.raises(OverflowError, match="uint32"):
        ad.reduce_argmax(d, [0, 1], output_dtype="uint32")


def test_import_argext_does_not_import_dask():
    code = ("import sys, argext; argext.argmax([1, 2]); "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')); "
            "assert not bad, bad; import argext.dask; assert 'dask.array' in sys.modules")
    subprocess.run([sys.executable, "-I", "-c", code], check=True)


# Chunks of unknown size (NaN in .chunks), as boolean indexing leaves them: the
# offsets come from the extents the chunks turn out to have, never a guess.

def filtered(x, keep, chunks):
    """x[keep] in dask, from chunks of x: unknown chunk sizes along axis 0
    (some chunks may turn out empty), and the NumPy twin."""
    d = da.from_array(x, chunks=chunks)[da.from_array(keep, chunks=chunks[0])]
    assert np.isnan(d.chunks[0]).all()
    return d, x[keep]


def test_unknown_chunks_1d(client):
    """The issue's example: dask's argmax refuses it; argext's answer is NumPy's."""
    x = da.arange(10, chunks=5)
    x = x[x > 1]
    with pytest.raises(ValueError, match="unknown chunksizes"):
        da.argmax(x, 0)
    got = client.gather(client.compute([ad.argmax(x, 0, keepdims=0), ad.argmin(x, 0, 1, 1),
                                        ad.nanargmax(x), ad.reduce_argmax(x, [0])]))
    assert [np.asarray(g).tolist() for g in got] == [7, [0], 7, [7]]


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.int64), np.dtype(np.uint8)],
                         ids=dtype_id)
def test_unknown_chunks_2d(client, dtype):
    """Unknown chunk sizes on the reduced axis and on the kept axis; whole
    chunks filtered away (empty blocks); against NumPy on the filtered array."""
    x = edge_sample(dtype, 7)[:, :, 0]
    keep = np.ones(13, bool)
    keep[[0, 3, 4, 5, 6, 10]] = False  # the chunk (3, 4, 5, 6) of CHUNKINGS["irregular"] turns out empty
    d, want = filtered(x, keep, CHUNKINGS["irregular"][:2])
    cases, lazy = [], []
    for axis in (0, 1, -1):
        for last in (0, 1):
            for op, fn in (("max", ad.argmax), ("min", ad.argmin)):
                cases.append((op, axis, last))
                lazy.append(fn(d, axis, 1, last, split_every=2))
    for axes in ([0, 1], [1, 0], [0]):
        cases.append(("reduce", axes, 0))
        lazy.append(ad.reduce_argmin(d, axes, output_dtype="uint32", split_every=2))
    for (op, axis, last), got in zip(cases, client.gather(client.compute(lazy))):
        if op == "reduce":
            assert np.array_equal(got, multi_axis_reference(want, axis, op="min")), axis
        else:
            assert np.array_equal(got, arg_reference(want, axis, 1, last, op)), (op, axis, last)


def test_unknown_chunks_keep_dask_conventions(client):
    """The result's chunks on a kept axis of unknown sizes stay unknown, as
    da.argmax leaves them, and both compute NumPy's answer."""
    x = edge_sample(np.dtype(np.float64), 8)[:, :, 0]
    d, want = filtered(x, x[:, 0] > 0, ((3, 4, 1, 5), (2, 9)))
    ours, dasks = ad.argmax(d, 1, keepdims=0), da.argmax(d, 1)
    assert np.isnan(ours.chunks[0]).all() and len(ours.chunks[0]) == len(dasks.chunks[0])
    got, ref = client.gather(client.compute([ours, dasks]))
    assert np.array_equal(got, ref) and np.array_equal(got, arg_reference(want, 1, 0))


@pytest.mark.parametrize("opset", [11, 13])
def test_unknown_chunks_hardmax(client, opset):
    x = edge_sample(np.dtype(np.float32), 9)
    d, want = filtered(x, x[:, 0, 0] != 1, CHUNKINGS["irregular"])
    for axis in (0, 1):
        got = ad.hardmax(d, axis=axis, opset=opset, split_every=2).compute()
        assert np.array_equal(got, hardmax_reference(want, axis, coerce_2d=opset < 13)), axis


def test_unknown_chunks_that_hold_nothing(client):
    """Every chunk turned out empty: the in-memory function's own error, raised
    when computing (before, the extents are not known)."""
    x = np.arange(12, dtype=np.float32).reshape(6, 2)
    d, _ = filtered(x, np.zeros(6, bool), ((2, 4), (2,)))
    for lazy, call in [(ad.argmax(d, 0), lambda e: argext.argmax(e, 0)),
                       (ad.reduce_argmax(d, [0, 1]), lambda e: argext.reduce_argmax(e, [0, 1])),
                       (ad.nanargmin(d, 0), lambda e: argext.nanargmin(e, 0))]:
        with pytest.raises(ValueError) as want:
            call(np.zeros((0, 2), np.float32))
        with pytest.raises(ValueError) as got:
            client.compute(lazy).result()
        assert str(got.value) == str(want.value)


# NumPy's nanargmax/nanargmin: the signature, the results and the all-NaN error.

NAN_DTYPES = [np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64), BFLOAT16,
              np.dtype(np.int32), np.dtype(np.uint64)]


@pytest.mark.parametrize("dtype", [dt for dt in NAN_DTYPES if dt is not None], ids=dtype_id)
def test_nanargmax_nanargmin(client, dtype):
    """Against NumPy's nanargmax/nanargmin, axis None and every axis, keepdims,
    with NaN (runs of it across chunk edges), -inf/+inf beside NaN and ties."""
    x = edge_sample(dtype, 10)
    if is_float(dtype):
        x[:, 9, :] = np.nan  # NaN ties the infinity it counts as: NumPy gives the first of them
        x[:, 9, 3] = -np.inf
        x[4, 9, :] = -np.inf
        x[5, 9, :] = np.inf
    d = da.from_array(x, chunks=CHUNKINGS["irregular"])
    cases, lazy = [], []
    for op, fn in (("max", ad.nanargmax), ("min", ad.nanargmin)):
        for axis in (None, 0, 2, -3):
            for keepdims in (False, True):
                cases.append((op, axis, keepdims))
                lazy.append(fn(d, axis, keepdims=keepdims, split_every=3))
    for (op, axis, keepdims), got in zip(cases, client.gather(client.compute(lazy))):
        ref = np.nanargmax if op == "max" else np.nanargmin
        want = ref(comparable(x), axis=axis, keepdims=keepdims)
        assert got.dtype == np.intp and got.shape == want.shape, (op, axis, keepdims)
        assert np.array_equal(got, want), (op, axis, keepdims)


def test_nanargmax_matches_dask(client):
    """Known chunks: the same answers as dask.array's own nanargmax/nanargmin."""
    x = edge_sample(np.dtype(np.float64), 11)
    d = da.from_array(x, chunks=CHUNKINGS["irregular"])
    ours = [ad.nanargmax(d, 0), ad.nanargmin(d, 2), ad.nanargmax(d[:, 0, :])]
    theirs = [da.nanargmax(d, 0), da.nanargmin(d, 2), da.nanargmax(d[:, 0, :])]
    for got, ref in zip(*client.gather([client.compute(ours), client.compute(theirs)])):
        assert np.array_equal(got, ref)


def test_nanargmax_all_nan_slice(client):
    """NumPy's error when computed: ValueError('All-NaN slice encountered'),
    also when the slice's NaN are spread over several chunks."""
    x = np.arange(24, dtype=np.float32).reshape(6, 4)
    x[:, 1] = np.nan
    d = da.from_array(x, chunks=(2, 3))
    with pytest.raises(ValueError) as want:
        np.nanargmin(x, axis=0)
    for lazy in (ad.nanargmax(d, 0), ad.nanargmin(d, 0), ad.nanargmax(da.full((5,), np.nan, chunks=2))):
        with pytest.raises(ValueError) as got:
            lazy.compute()
        assert str(got.value) == str(want.value)
    assert np.array_equal(ad.nanargmax(d, 1).compute(), np.nanargmax(x, 1))


def test_nanargmax_signature_and_out(client):
    """NumPy's signature (a, axis=None, out=None, *, keepdims); `out` a dask
    array, as dask.array's nanargmax takes it; a 0-d input gives 0."""
    import inspect

    assert list(inspect.signature(ad.nanargmax).parameters)[:3] == \
        list(inspect.signature(np.nanargmax).parameters)[:3]
    x = edge_sample(np.dtype(np.float32), 12)
    d = da.from_array(x, chunks=CHUNKINGS["irregular"])
    out = da.zeros((13, 7), np.intp, chunks=((3, 4, 1, 5), (4, 3)))
    assert ad.nanargmin(d, 1, out) is out
    assert np.array_equal(out.compute(), np.nanargmin(x, 1))
    assert ad.nanargmax(da.from_array(np.float32(3))).compute() == np.nanargmax(np.float32(3))


def test_nanargmax_same_errors_as_in_memory():
    d = da.zeros((4, 5), np.float32, chunks=2)
    x = np.zeros((4, 5), np.float32)
    for kwargs in ({"axis": 2}, {"axis": -3}, {"axis": (0, 1)}, {"axis": 1.5}):
        for fn in ("nanargmax", "nanargmin"):
            with pytest.raises(Exception) as want:
                getattr(argext, fn)(x, **kwargs)
            with pytest.raises(type(want.value)) as got:
                getattr(ad, fn)(d, **kwargs)
            assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match="empty sequence"):
        ad.nanargmax(da.zeros((3, 0)), axis=1)


# TopK: k candidates per chunk merged by the same ranking, exact across chunks.

def check_topk(client, d, x, k, axis, largest=1, ordered=1, **kwargs):
    values, indices = client.compute(list(ad.topk(d, k, axis, largest, ordered, **kwargs)), sync=True)
    want = topk_reference(x, k, axis, largest, ordered)
    where = f"k={k} axis={axis} largest={largest} sorted={ordered} chunks={getattr(d, 'chunks', None)}"
    np.testing.assert_array_equal(indices, want[1], err_msg=where)
    np.testing.assert_array_equal(np.ascontiguousarray(values).view(np.uint8),
                                  np.ascontiguousarray(want[0]).view(np.uint8), err_msg=where)


@pytest.mark.parametrize("dtype", DASK_DTYPES, ids=dtype_id)
def test_topk(client, dtype):
    x = edge_sample(dtype, 7)
    d = da.from_array(x, chunks=CHUNKINGS["irregular"])
    # k beyond chunks' extents along each axis, both rankings, both orders
    for axis, k, largest, ordered in ((0, 1, 0, 1), (1, 3, 1, 0), (-1, 5, 0, 0), (0, 7, 1, 1), (1, 6, 0, 1)):
        check_topk(client, d, x, k, axis, largest=largest, ordered=ordered)


@pytest.mark.parametrize("chunking", list(CHUNKINGS))
def test_topk_chunkings_and_trees(client, chunking):
    x = edge_sample(np.dtype(np.float32), 8)
    d = da.from_array(x, chunks=CHUNKINGS[chunking])
    for k in (0, 2, 4, 13):  # k beyond chunks' extents, up to the whole axis
        check_topk(client, d, x, k, 0, split_every=2)
        check_topk(client, d, x, k, 0, largest=0, ordered=0, split_every=3)
    check_topk(client, d.astype(d.dtype.newbyteorder("S")), x, 4, 0)


def test_topk_unknown_chunks(client):
    rng = np.random.default_rng(9)
    x = rng.integers(0, 4, size=(30, 6)).astype(np.float64)
    x[rng.random(x.shape) < 0.1] = np.nan
    keep = rng.random(30) < 0.6
    keep[10:20] = False  # a chunk filtered away whole
    d, y = filtered(x, keep, ((10, 10, 10), (6,)))
    check_topk(client, d, y, 3, 0)
    check_topk(client, d, y, 4, 1, largest=0)
    with pytest.raises(argext.SpecError, match=r"TopK-24: k=25 is out of range \[0, \d+\]"):
        client.compute(ad.topk(d, 25, 0)[1], sync=True)


def test_topk_same_errors_as_in_memory():
    d = da.zeros((5, 8), np.float32, chunks=2)
    for args, kwargs, text in [((9, 1), {}, r"TopK-24: k=9 is out of range \[0, 8\]"),
                               ((2, 2), {}, r"axis=2 is out of range"),
                               ((-1,), {}, r"k=-1 is out of range"),
                               ((2,), {"largest": 0, "opset": 10}, "largest=0 is not an attribute")]:
        with pytest.raises(argext.SpecError, match=text):
            ad.topk(d, *args, **kwargs)
    with pytest.raises(argext.SpecTypeError, match="TopK-10: X has dtype int32"):
        ad.topk(d.astype(np.int32), 2, opset=10)
