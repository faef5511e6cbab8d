"""argext.dask on a distributed.LocalCluster with several worker processes,
against NumPy (tests/reference.py): every dtype, irregular chunkings, NaN,
ties, -0.0/+0.0 and 64-bit neighbours placed on both sides of chunk edges,
trees of several levels; the same eager errors as the in-memory functions;
and `import argext` does not import dask."""

import subprocess
import sys

import numpy as np
import pytest

import argext
from reference import ALL_DTYPES, BFLOAT16, arg_reference, hardmax_reference, is_float
from reference import multi_axis_reference

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


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
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


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_reduce_axis_sets(client, dtype):
    """Two axis sets for every dtype; every axis set for float32 and int64."""
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
