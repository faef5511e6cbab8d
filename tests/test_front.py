"""Issue 16: masked arrays refused, byte-swapped input read in place (no whole
copy, broadcast views never expanded), every operation in a thread with a
32 KiB stack, and more than 100,000 columns on every layout, all against
NumPy / hand-worked references."""

import platform
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import argext
from reference import arg_reference, hardmax_reference, multi_axis_reference

ARGEXT_PARENT = str(Path(argext.__file__).resolve().parent.parent)


def run_python(code):
    """`python -I -c code` with argext importable from where this process has it
    (-I drops PYTHONPATH, so the path is passed explicitly)."""
    prefix = f"import sys; sys.path.insert(0, {ARGEXT_PARENT!r})\n"
    return subprocess.run([sys.executable, "-I", "-c", prefix + code], capture_output=True,
                          text=True, check=True).stdout


# --- masked arrays and other subclasses ------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda m: argext.argmax(m, 0, 0), "ArgMax-13"),
    (lambda m: argext.argmin(m, 0, 0, opset=11), "ArgMin-11"),
    (lambda m: argext.hardmax(m), "Hardmax-13"),
    (lambda m: argext.reduce_argmax(m, [0]), "reduce_argmax"),
])
def test_masked_array_refused(call, name):
    m = np.ma.masked_invalid([1.0, np.nan, 3.0])
    # NumPy's masked argmax skips the NaN; an answer ignoring the mask would be 1.
    assert m.argmax() == 2
    with pytest.raises(TypeError, match=rf"{name}: .*MaskedArray"):
        call(m)


def test_masked_out_refused():
    with pytest.raises(TypeError, match="ArgMax-13: out is a numpy.ma.MaskedArray"):
        argext.argmax(np.ones((2, 3)), 0, out=np.ma.zeros((1, 3), np.int64))


def test_matrix_and_memmap_are_their_buffers(tmp_path):
    x = np.array([[3.0, 9.0, 1.0], [7.0, 2.0, 8.0]])
    m = np.asmatrix(x)
    assert argext.argmax(m, 1, 0).tolist() == np.asarray(x).argmax(1).tolist()
    mm = np.memmap(tmp_path / "x.bin", dtype=">f4", mode="w+", shape=x.shape)
    mm[...] = x
    assert argext.argmin(mm, 0, 0).tolist() == x.argmin(0).tolist()


# --- byte-swapped input ------------------------------------------------------------------

SWAPPED = [np.dtype(t).newbyteorder() for t in
           ("f2", "f4", "f8", "i2", "i4", "i8", "u2", "u4", "u8")]


@pytest.mark.parametrize("dtype", SWAPPED, ids=str)
@pytest.mark.parametrize("shape, axis", [((70000,), 0), ((40, 3000), 1), ((3000, 40), 0),
                                         ((5, 600, 7), 1), ((2, 300, 301), 0)])
def test_byteswapped_layouts(isa, dtype, shape, axis):
    rng = np.random.default_rng(1)
    x = rng.integers(-50, 50, shape).astype(dtype.newbyteorder("=")).astype(dtype)
    for last in (0, 1):
        for fn, op in ((argext.argmax, "max"), (argext.argmin, "min")):
            got = fn(x, axis, 0, last)
            assert np.array_equal(got, arg_reference(x, axis, False, bool(last), op)), (fn, last)
    xt = x.T  # strided and column layouts of the same data
    assert np.array_equal(argext.argmax(xt, 0, 0), arg_reference(xt, 0, False, False, "max"))
    assert np.array_equal(argext.reduce_argmin(x, list(range(x.ndim))),
                          multi_axis_reference(x, list(range(x.ndim)), last=False, op="min"))
    if dtype.kind == "f":
        assert np.array_equal(argext.hardmax(x, axis=-1), hardmax_reference(x, -1, coerce_2d=False))


def test_byteswapped_broadcast_is_not_expanded():
    # One big-endian float64 seen as 4096 x 4096 (128 MiB if expanded); a
    # subprocess's peak RSS sees C allocations as well as Python's.
    out = run_python(
        "import resource, numpy as np, argext\n"
        "v = np.broadcast_to(np.array([1.5], '>f8'), (4096, 4096))\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "r = argext.argmax(v, 1, 0, 1)\n"
        "assert r.shape == (4096,) and (r == 4095).all()\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n")
    assert int(out) < 16 * 1024, f"peak RSS grew {out} KiB"


def test_byteswapped_view_of_more_than_2_32_elements():
    v = np.broadcast_to(np.array([2.0, 7.0, -1.0], ">f4"), (2**32 + 5, 3))
    assert argext.argmax(v, 0, 0).tolist() == [0, 0, 0]
    assert argext.argmax(v, 0, 0, 1).tolist() == [2**32 + 4] * 3
    assert argext.reduce_argmax(v, [0, 1]).tolist() == [[1]]


# --- a thread with a 32 KiB stack --------------------------------------------------------

def _every_operation():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((64, 300)).astype(np.float32)
    xs = x.astype(">f4")
    wide = rng.standard_normal((40, 5000))
    checks = []
    for data in (x, xs, x.T, x[:, ::3], wide):
        for axis in (0, 1):
            checks.append((argext.argmax(data, axis), arg_reference(data, axis, True, False, "max")))
            checks.append((argext.argmin(data, axis, 1, 1), arg_reference(data, axis, True, True, "min")))
        for version in (1, 11, 13):
            checks.append((argext.hardmax(data, 1, opset=version),
                           hardmax_reference(data, 1, coerce_2d=version < 13)))
        for axes in ([0], [1], [0, 1]):
            checks.append((argext.reduce_argmax(data, axes),
                           multi_axis_reference(data, axes, last=False, op="max")))
            checks.append((argext.reduce_argmin(data, axes, axis_direction="decreasing"),
                           multi_axis_reference(data, axes, last=True, op="min")))
    return all(np.array_equal(a, b) for a, b in checks), len(checks)


def test_every_operation_in_a_32k_stack_thread():
    previous = threading.stack_size(32 * 1024)
    result = {}
    try:
        t = threading.Thread(target=lambda: result.setdefault("r", _every_operation()))
        t.start()
        t.join()
    finally:
        threading.stack_size(previous)
    assert result["r"][0], result


# --- wide rows: more than 100,000 columns on every layout --------------------------------

COLS = 100_003


def test_wide_one_dimensional():
    x = np.random.default_rng(5).integers(0, 1000, COLS).astype(np.int32)
    assert argext.argmax(x, 0, 0) == x.argmax()
    assert argext.argmin(x, 0, 0, 1) == len(x) - 1 - x[::-1].argmin()


@pytest.mark.parametrize("dtype", ["f4", ">f8", "u2"])
def test_wide_layouts(dtype):
    rng = np.random.default_rng(6)
    x = rng.integers(0, 200, (3, COLS)).astype(dtype)
    # last axis (rows), outer axis (column fold), strided, multi-axis
    assert np.array_equal(argext.argmax(x, 1, 0), arg_reference(x, 1, False, False, "max"))
    assert np.array_equal(argext.argmax(x, 0, 0), arg_reference(x, 0, False, False, "max"))
    assert np.array_equal(argext.argmin(x[:, ::2], 0, 0, 1), arg_reference(x[:, ::2], 0, False, True, "min"))
    xt = np.ascontiguousarray(x.T)  # (COLS, 3): the column fold over COLS rows
    assert np.array_equal(argext.argmax(xt, 0, 0), arg_reference(xt, 0, False, False, "max"))
    assert np.array_equal(argext.reduce_argmax(x, [0, 1]), multi_axis_reference(x, [0, 1], last=False, op="max"))
    if x.dtype.kind == "f":
        assert np.array_equal(argext.hardmax(x), hardmax_reference(x, -1, coerce_2d=False))
        assert np.array_equal(argext.hardmax(xt, 0, opset=13), hardmax_reference(xt, 0, coerce_2d=False))


# --- the benchmark runs ------------------------------------------------------------------

def test_bench_runs_briefly():
    out = run_python("import sys, argext.__main__ as m\n"
                     "sys.exit(m.main(['bench', '--case', 'small', '--dtype', 'float32',"
                     " '--repeats', '5']))\n")
    assert "float32" in out


def test_bench_one_level_in_cache():
    """--isa restarts the bench with NumPy restricted to the level; --size
    runs in-cache inputs repeatedly."""
    out = run_python("import sys, argext.__main__ as m\n"
                     "sys.exit(m.main(['bench', '--isa', 'baseline', '--size', '32K', '--case',"
                     " '1d', '--dtype', 'int16', '--repeats', '5']))\n")
    assert "isa=baseline" in out and "input size 0.03125 MiB" in out
    row = [line for line in out.splitlines() if line.startswith("1d")]
    assert len(row) == 1 and " 16384 " in row[0], out
    if platform.machine() in ("x86_64", "AMD64"):
        assert "(targets: baseline only)" in out  # NumPy's AVX2/AVX-512 kernels disabled
