"""The kernels at every ISA level the machine runs, against the NumPy
references, on inputs that reach every kernel path: contiguous rows shorter
than a vector, around vector and block sizes (with the overlapping last
vector), column folds narrower and wider than a vector and than a column
block, short rows in batches, reductions split into pieces, NaN and +-0 at
block boundaries, ties across blocks, and integer extremes (early exit)."""

import os
import platform
import subprocess
import sys

import numpy as np
import pytest

import argext
import argext.numpy
from reference import ALL_DTYPES, BFLOAT16, arg_reference, hardmax_reference, is_float
from reference import multi_axis_reference

# Around 1, 2, 4, 8, 16, 32 and 64 lanes, a 1024-element block, and beyond.
LENGTHS = [1, 2, 3, 5, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 255, 256, 257,
           511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 5000]

FUNCS = {"max": argext.argmax, "min": argext.argmin}


def _dtype_id(dt):
    return dt.name


def sample(rng, dtype, shape, spread=50):
    """Small-range values (many ties) without the dtype's extremes; floats
    get NaN, -0.0, +0.0 and infinities sprinkled in."""
    x = rng.integers(-spread, spread + 1, size=shape).astype(np.float64)
    if dtype.kind == "u":
        x = np.abs(x)
    if is_float(dtype):
        u = rng.random(shape)
        x[u < 0.002] = np.nan
        x[(u >= 0.002) & (u < 0.01)] = -0.0
        x[(u >= 0.01) & (u < 0.012)] = np.inf
        x[(u >= 0.012) & (u < 0.014)] = -np.inf
    return x.astype(dtype)


def check_all(x, axis):
    for op, fn in FUNCS.items():
        for last in (0, 1):
            got = fn(x, axis=axis, keepdims=0, select_last_index=last)
            want = arg_reference(x, axis=axis, keepdims=0, select_last_index=last, op=op)
            assert np.array_equal(got, want), (op, last, x.dtype, x.shape, axis)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_contiguous_rows(isa, dtype):
    rng = np.random.default_rng(1)
    for n in LENGTHS:
        check_all(sample(rng, dtype, (n,)), 0)
        check_all(sample(rng, dtype, (n,), spread=3), 0)  # ties in every block
        check_all(np.zeros(n, dtype), 0)                  # one value: first 0, last n-1


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_best_at_every_position(isa, dtype):
    """A single winner (then two tied winners) moved across blocks and the
    overlapping last vector."""
    n = 1100
    base = np.zeros(n, dtype)
    for pos in [0, 1, 15, 16, 63, 64, 511, 512, 1023, 1024, 1035, 1036, 1099]:
        for value in (5, 0) if dtype.kind != "u" else (5,):
            x = base.copy()
            if value == 0:
                x[:] = 3
                x[pos] = 0 if dtype.kind != "u" else 1
            else:
                x[pos] = value
            check_all(x, 0)
            x[(pos * 7 + 300) % n] = x[pos]
            check_all(x, 0)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_long_rows(isa, dtype):
    """Rows over many branch-free chunks (16384 int8 elements each at
    AVX-512): winners and ties at chunk and block edges."""
    rng = np.random.default_rng(8)
    n = 70001
    for spots in ([0], [16383], [16384], [8191, 8192], [300, 40000], [32767, 65536, 70000]):
        x = sample(rng, dtype, (n,), spread=20)
        x = np.where(np.isnan(comparable(x)), np.zeros(1, dtype), x)
        x[np.array(spots)] = 30
        check_all(x, 0)
    check_all(sample(rng, dtype, (3, n), spread=3), 1)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_rows_at_every_alignment(isa, dtype):
    """Rows starting at every element offset from a 64-byte boundary, in both
    byte orders: a long row takes its first vector alone, then goes on from
    the first vector boundary, so winners, ties and NaN sit in that first
    vector, in the elements read twice and just after them."""
    rng = np.random.default_rng(9)
    orders = [dtype] if dtype == BFLOAT16 else [dtype, dtype.newbyteorder()]  # no '>bfloat16'
    for n in (255, 256, 257, 1100, 5000):
        for offset in range(0, 64, dtype.itemsize):
            for order in orders:
                buf = np.zeros(n * dtype.itemsize + 128, np.uint8)
                start = (-buf.ctypes.data) % 64 + offset
                x = buf[start:start + n * dtype.itemsize].view(order)
                x[:] = sample(rng, dtype, (n,), spread=2)
                spot = (offset * 7 + n) % 70
                x[spot] = 9
                x[(spot + 1 + offset) % 70] = 9  # a tie near the first vector
                check_all(x, 0)
                if is_float(dtype):
                    x[(spot + 3) % 70] = np.nan
                    x[n - 1 - spot] = np.nan
                    check_all(x, 0)


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if is_float(d)], ids=_dtype_id)
def test_nan_and_signed_zero_at_block_edges(isa, dtype):
    rng = np.random.default_rng(2)
    n = 3000
    for positions in ([0], [1023], [1024], [2999], [1023, 1024], [5, 2048, 2990], [2047, 2048]):
        x = sample(rng, dtype, (n,), spread=2).astype(dtype)
        x = np.where(np.isnan(comparable(x)), np.zeros(1, dtype), x)
        x[np.array(positions)] = np.nan
        check_all(x, 0)
    # Over many chunks: float scans hand a chunk with a NaN to the key scan.
    n = 70001
    for positions in ([8191], [40000], [16384, 60000], [4095, 69999]):
        x = sample(rng, dtype, (n,), spread=2).astype(dtype)
        x = np.where(np.isnan(comparable(x)), np.zeros(1, dtype), x)
        x[np.array(positions)] = np.nan
        check_all(x, 0)
    for n in (3000, 70001):
        zeros = np.zeros(n, dtype)
        zeros[rng.random(n) < 0.5] = -0.0
        check_all(zeros, 0)
        check_all(-zeros, 0)


def comparable(x):
    return x.astype(np.float32) if x.dtype == BFLOAT16 else x


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d.kind in "iu"], ids=_dtype_id)
def test_integer_extremes(isa, dtype):
    """The type's extremes stop a first-occurrence scan early; the last one
    must still be found with select_last_index."""
    info = np.iinfo(dtype)
    rng = np.random.default_rng(3)
    for n in (70, 1030, 4100):
        for spots in ([0], [n - 1], [3, n // 2], [n // 2, n // 2 + 1, n - 2]):
            x = sample(rng, dtype, (n,))
            x[np.array(spots)] = info.max
            x[np.array(spots[::-1]) // 2 + 1] = info.min
            check_all(x, 0)
    check_all(np.full(2000, info.max, dtype), 0)
    check_all(np.full(2000, info.min, dtype), 0)
    # Long rows over the whole range, and ramps (a new best in every block),
    # around the 32-bit halves of 64-bit keys.
    n = 9000
    x = rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
    x[x == info.max] -= 1
    x[x == info.min] += 1
    check_all(x, 0)
    for start in (info.min // 2, -(2**33) if info.bits == 64 else info.min // 3, 0, info.max // 3):
        ramp = (np.arange(n, dtype=np.float64) * max(1, (info.max // 3) // n)).astype(np.int64)
        for r in (ramp, -ramp, ramp % 4096, (ramp // 2) << 32 if info.bits == 64 else ramp):
            y = np.clip(start + r.astype(object), info.min + 1, info.max - 1).astype(dtype)
            check_all(y, 0)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_column_mode(isa, dtype):
    rng = np.random.default_rng(4)
    for rows in (1, 2, 7, 40, 100):
        for cols in (1, 3, 15, 16, 17, 33, 64, 65, 100, 1023, 1024, 1030, 2100):
            x = sample(rng, dtype, (rows, cols), spread=4)
            check_all(x, 0)
            if dtype != BFLOAT16:  # both byte orders: column folds read swapped input in place
                check_all(x.astype(dtype.newbyteorder()), 0)
    x = sample(rng, dtype, (6, 9, 130))
    check_all(x, 1)
    check_all(x[:, :, ::2], 1)  # strided columns


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_column_folds_of_few_rows_in_registers(isa, dtype):
    """Up to 16 rows fold together, a line of columns at a time, with each
    column's row kept in a lane: every row count from 2 to 17 (17 folds row
    by row), column counts around a line and a vector, each column's extreme
    (and NaN for floats) planted in its first, last or a middle row, ties of
    it in several rows; a reversed and a byte-swapped view; and the fold
    continued over an outer reduced axis, where a later slice's tie must not
    (first) or must (last) take the column."""
    rng = np.random.default_rng(41)
    for rows in range(2, 18):
        for cols in (16, 64 // dtype.itemsize + 3, 200):
            x = sample(rng, dtype, (rows, cols), spread=3)
            planted = rng.integers(0, 3, cols)
            where = np.choose(planted, [0, rows - 1, rows // 2])
            x[where, np.arange(cols)] = 5
            tied = rng.random(cols) < 0.3  # a second maximum in a random row
            x[rng.integers(0, rows, cols)[tied], np.arange(cols)[tied]] = 5
            if is_float(dtype):
                x[rng.integers(0, rows, 3), rng.integers(0, cols, 3)] = np.nan
            check_all(x, 0)
            check_all(x[::-1], 0)
            if dtype != BFLOAT16:
                check_all(x.astype(dtype.newbyteorder()), 0)
    x = sample(rng, dtype, (3, 5, 300), spread=2)
    for op, fn in (("max", argext.reduce_argmax), ("min", argext.reduce_argmin)):
        for direction in ("increasing", "decreasing"):
            want = multi_axis_reference(x, (0, 1), last=direction == "decreasing", op=op)
            assert np.array_equal(fn(x, (0, 1), axis_direction=direction), want), (op, direction)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_column_folds_streaming_their_indices(isa, dtype):
    """Folds of up to 16 rows into 1 MiB of int64 indices or more write them
    by non-temporal stores, their blocks starting where the output falls on
    a line: the output at each of a line's eight 8-byte offsets (NumPy's
    `out=`), each column's extreme planted in its first, last or a middle
    row with ties and NaN, reversed and byte-swapped views, 17 rows (the
    row pairs' single chunk), and a call
    of 12 MiB split over two threads, each part aligning its own output."""
    rng = np.random.default_rng(43)
    cols = (1 << 17) + 37
    for rows in (2, 7, 16, 17):
        x = sample(rng, dtype, (rows, cols), spread=3)
        where = np.choose(rng.integers(0, 3, cols), [0, rows - 1, rows // 2])
        x[where, np.arange(cols)] = 5
        check_all(x, 0)
        check_all(x[::-1], 0)  # folded from the far end, rows numbered down
        if dtype != BFLOAT16:  # read in place, or swapped through scratch
            check_all(x.astype(dtype.newbyteorder()), 0)
        want = arg_reference(x, axis=0, keepdims=0, op="max")
        buf = np.empty(cols + 8, np.int64)
        for off in range(8):
            out = buf[off:off + cols]
            assert argext.numpy.argmax(x, axis=0, out=out) is out
            assert np.array_equal(out, want), (rows, off)
    rows = 3
    x = sample(rng, dtype, (rows, (12 << 20) // (rows * dtype.itemsize) + 101), spread=3)
    previous = argext.get_num_threads()
    argext.set_num_threads(2)
    try:
        check_all(x, 0)
    finally:
        argext.set_num_threads(previous)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_column_folds_of_narrow_blocks_in_tiles(isa, dtype):
    """Columns of 64 to 250 bytes (one to eight vectors) over more than 16
    rows fold in tiles of rows kept in registers: int8's of 128 rows (the
    row numbers fit its lanes), the others' of 16 KiB; extremes, ties and NaN
    on either side of the tiles' edges, in a contiguous, a reversed, a
    byte-swapped view and columns cut from wider rows."""
    rng = np.random.default_rng(43)
    w = dtype.itemsize
    for cols in (64 // w, 100 // w, 250 // w):
        tile = 128 if w == 1 else 16384 // (cols * w)
        for rows in (17, tile - 1, tile, tile + 1, 3 * tile + 5):
            x = sample(rng, dtype, (rows, cols + 7), spread=3)
            edges = [r for r in (0, tile - 1, tile, 2 * tile - 1, 2 * tile, rows - 1) if r < rows]
            for c in range(cols + 7):
                x[rng.choice(edges, min(2, len(edges)), replace=False), c] = 5
            if is_float(dtype):
                x[rng.choice(edges, 2), rng.integers(0, cols, 2)] = np.nan
            for v in (x[:, :cols].copy(), x[:, :cols]):
                check_all(v, 0)
                check_all(v[::-1], 0)
            if dtype != BFLOAT16:
                check_all(x[:, :cols].astype(dtype.newbyteorder()), 0)


def narrow_chunk_edges(w, cols):
    """Rows on either side of the narrow fold's 16 KiB chunk edges (whole
    units of cols / gcd(cols, lanes) vectors) for 16-, 32- and 64-byte vectors."""
    edges = set()
    for vector in (16, 32, 64):
        lanes = vector // w
        if cols >= lanes:
            continue
        unit = cols // np.gcd(cols, lanes)
        chunk_rows = 16384 // (unit * vector) * unit * lanes // cols
        edges.update(k * chunk_rows + d for k in (1, 2, 3) for d in (-1, 0))
    return sorted(edges)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_narrow_columns_over_chunks(isa, dtype):
    """Axis 0 of (n, c) arrays with fewer columns than a vector, over several
    of the narrow fold's chunks: ties of each column's extreme on either side
    of the chunks' edges, NaN in a later chunk (and none), and slowly rising rows (each
    chunk raises every column, with ties in runs); forward and reversed."""
    rng = np.random.default_rng(47)
    w = dtype.itemsize
    for cols in (2, 3, 5, 6, 8):
        edges = narrow_chunk_edges(w, cols)
        if not edges:
            continue
        rows = edges[-1] + 9
        x = sample(rng, dtype, (rows, cols), spread=3)
        for c in range(cols):
            x[rng.choice(edges, 2, replace=False), c] = 5
            x[rng.choice(edges, 2, replace=False), c] = 0 if dtype.kind == "u" else -5
        if is_float(dtype):
            x[edges[-2], 0] = x[edges[-1], cols - 1] = np.nan
        rising = np.linspace(0, 100, rows * cols).reshape(rows, cols).astype(dtype)
        numbers = np.where(np.isnan(x), 1, x).astype(dtype) if is_float(dtype) else x
        for v in (x, numbers, rising):
            check_all(v, 0)
            check_all(v[::-1], 0)


def planted_folds(rng, dtype, rows, cols, block):
    """A (rows, cols) fold whose ties of the maximum and minimum (and NaN for
    floats) sit on the rows around the kernel's 128-row chunks and the columns
    around the engine's column blocks."""
    x = sample(rng, dtype, (rows, cols), spread=3)
    hot_rows = [r for r in (0, 1, 31, 32, 33, 126, 127, 128, 129, 255, 256, 257, 383, 384, 511, 512,
                            rows - 2, rows - 1)
                if 0 <= r < rows]
    hot_cols = [c for c in (0, block - 1, block, 2 * block - 1, 2 * block, cols - 1) if c < cols]
    for c in hot_cols:
        top = rng.choice(hot_rows, min(3, len(hot_rows)), replace=False)
        x[top[:2], c] = 9
        x[top[2:], c] = np.nan if is_float(dtype) else 0
    return x


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_column_blocks_and_row_chunks(isa, dtype):
    """Column folds across the engine's column blocks (8 KiB of each row over
    up to 256 rows, 16 KiB over more; the first one shortened on a misaligned
    input) and the kernel's row chunks (128 rows noted in bytes between index
    flushes, pairs up to row 256, then rows alone, the first 32 without a test
    where there are no row bytes), both byte orders, reversed axis, two reduced
    axes, on 1 and 2 threads."""
    rng = np.random.default_rng(24)
    few, many = min(4096, 8192 // dtype.itemsize), min(4096, 16384 // dtype.itemsize)
    shapes = ((2, 2 * few + 1, few), (3, few - 1, few), (127, few + 5, few), (128, 70, few),
              (129, few + 16, few), (257, 40, many), (300, 2 * many + 3, many),
              (600, many + 5, many))
    try:
        for threads in (1, 2):
            argext.set_num_threads(threads)
            for rows, cols, block in shapes:
                x = planted_folds(rng, dtype, rows, cols, block)
                check_all(x, 0)
                check_all(x[::-1], 0)
                for off in (1, 3):  # the first block shortened to align the next ones
                    z = np.empty(x.size + 8, dtype)
                    z[off:off + x.size] = x.ravel()
                    check_all(z[off:off + x.size].reshape(x.shape), 0)
                if dtype != BFLOAT16:
                    check_all(x.astype(dtype.newbyteorder()), 0)
            x = planted_folds(rng, dtype, 260, many + 3, many).reshape(2, 130, many + 3)
            for op, fn in (("max", argext.reduce_argmax), ("min", argext.reduce_argmin)):
                for direction in ("increasing", "decreasing"):
                    want = multi_axis_reference(x, (0, 1), last=direction == "decreasing", op=op)
                    assert np.array_equal(fn(x, (0, 1), axis_direction=direction), want)
    finally:
        argext.set_num_threads(None)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_short_rows(isa, dtype):
    rng = np.random.default_rng(5)
    for n in (1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 70):
        x = sample(rng, dtype, (1500, n), spread=3)
        check_all(x, 1)
        check_all(x[::-2], 1)          # rows far apart, negative stride
        check_all(x[:, ::-1], 1)       # reversed elements: strided rows


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_rows_shorter_than_a_vector_beside_larger_ones(isa, dtype):
    """Rows shorter than a vector are each read as a whole vector where it
    stays inside the input: the lanes past a row (the next row, or the gap of
    a strided view) must not count, and the last rows, whose vector would run
    past the input, are read alone. Each row's best is planted at every
    position, the next row starting with an extreme (NaN, which wins, for
    floats) or the gap holding one."""
    rng = np.random.default_rng(11)
    big = np.array(100 if dtype.kind != "u" else 200).astype(dtype)
    extremes = ([np.inf, -np.inf, np.nan] if is_float(dtype)
                else [np.iinfo(dtype).max, np.iinfo(dtype).min])
    for n in (3, 5, 6, 7, 9, 12, 15, 17, 24, 31, 33):
        for extreme in extremes:
            top = np.array(extreme).astype(dtype)
            x = sample(rng, dtype, (2 * n, n), spread=3)
            x[0::2][np.arange(n), np.arange(n)] = big  # each position once
            x[1::2, 0] = top
            check_all(x, 1)
            check_all(x[0::2].copy(), 1)  # the best in the last row's last lane
            wide = np.full((2 * n, n + 3), top, dtype)
            wide[:, :n] = x
            wide[1::2, :n] = sample(rng, dtype, (n, n), spread=3)
            check_all(wide[:, :n], 1)  # rows with a gap of extremes


def _square_rows(rng, dtype, n):
    """Rows of n for the square paths: squares of up to 64 rows and a tail,
    each row's best planted at every position, alone and tied with another
    before or after it; floats also with rows of signed zeros."""
    rows = 3 * 64 + 5
    x = sample(rng, dtype, (rows, n), spread=3)
    x[~np.isfinite(comparable(x))] = 0
    r = np.arange(rows)
    x[r, r % n] = 7
    tied = r[r % 3 == 1]
    x[tied, (tied * 5 + 1) % n] = 7
    if is_float(dtype):
        x[r % 11 == 4] = -0.0
        x[r % 11 == 4, ::3] = 0.0
    return x


def _check_square_rows_with_nan(x):
    """Floats: some rows of x given a NaN (which wins; their squares go by
    keys), and nanargmax/nanargmin skipping it, against NumPy."""
    if not is_float(x.dtype):
        return
    r = np.arange(len(x))
    y = x.copy()
    y[r % 37 == 9, (r[r % 37 == 9] * 3) % x.shape[1]] = np.nan
    check_all(y, 1)
    for fn, ref in ((argext.numpy.nanargmax, np.nanargmax), (argext.numpy.nanargmin, np.nanargmin)):
        assert np.array_equal(fn(y, axis=1), ref(comparable(y), axis=1)), (fn.__name__, x.shape)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_rows_of_exactly_a_vector_in_squares(isa, dtype):
    """Dense rows as wide as a 16-, 32- or 64-byte vector go a square at a
    time (as many rows as lanes, transposed in registers): each row's best
    planted at every position, alone and tied with a later one, rows of
    signed zeros, the square's rows beside a row holding a NaN (which wins;
    its square then goes by keys), nanargmax skipping it, and a call long
    enough to stream its indices, against NumPy."""
    rng = np.random.default_rng(17)
    previous = argext.get_num_threads()
    argext.set_num_threads(1)  # one kernel call over all the rows
    try:
        for n in sorted({b // dtype.itemsize for b in (16, 32, 64)} - {1, 2}):
            x = _square_rows(rng, dtype, n)
            check_all(x, 1)
            _check_square_rows_with_nan(x)
            long = np.resize(x, (131072 + 3 * 64 + 5, n))  # indices streamed by whole lines
            check_all(long, 1)
    finally:
        argext.set_num_threads(previous)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_rows_of_one_to_two_vectors_in_squares(isa, dtype):
    """Rows longer than a 16-, 32- or 64-byte vector and at most two (float32
    rows of 9 to 16 at avx2) go as many at a time as a vector has lanes, as two
    squares (their first and their last elements, sharing some): each row's
    best planted at every position, alone and tied with another before or
    after it, rows of signed zeros, rows holding a NaN (which wins; their
    squares then go by keys), nanargmax skipping it, rows spaced apart and
    in reverse order, and calls of 8 MiB (which int32 rows take by squares
    for the first occurrence too), against NumPy."""
    rng = np.random.default_rng(19)
    previous = argext.get_num_threads()
    argext.set_num_threads(1)  # one kernel call over all the rows
    try:
        lengths = {n for b in (16, 32, 64) for n in range(b // dtype.itemsize + 1, 2 * b // dtype.itemsize + 1)}
        for n in sorted(lengths):
            x = _square_rows(rng, dtype, n)
            check_all(x, 1)
            wide = np.zeros((len(x), n + 5), dtype)
            wide[:, :n] = x
            check_all(wide[:, :n], 1)  # rows spaced apart
            check_all(x[::-1], 1)  # rows at a negative stride
            _check_square_rows_with_nan(x)
            if n * dtype.itemsize in (20, 40, 80):  # a call of 8 MiB or more (read from memory)
                check_all(np.resize(x, ((8 << 20) // (n * dtype.itemsize) + 7, n)), 1)
    finally:
        argext.set_num_threads(previous)


def _medium_rows(rng, dtype, n):
    """Rows of n elements with the best planted where a row of whole vectors
    and one overlapping last vector (16-, 32- or 64-byte) can get it wrong:
    at vector edges and in the overlap, alone or tied across it; floats also
    with a NaN there, and -0.0 tied with +0.0."""
    size = dtype.itemsize
    spots = sorted({p for lanes in (16 // size, 32 // size, 64 // size)
                    for p in (0, lanes - 1, lanes, n - lanes - 1, n - lanes, n - lanes + 1,
                              (n // lanes) * lanes - 1, (n // lanes) * lanes, n - 2, n - 1)
                    if 0 <= p < n})
    top = np.array(np.inf if is_float(dtype) else np.iinfo(dtype).max).astype(dtype)
    x = sample(rng, dtype, (2 * len(spots) + 2, n), spread=3)
    for r, p in enumerate(spots):
        x[r, p] = top
        x[len(spots) + r, p] = top
        x[len(spots) + r, spots[-1 - r]] = top  # a tie, both orders
    if is_float(dtype):
        x[-2] = -0.0
        x[-2, spots[::2]] = 0.0
    return x, spots


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_medium_rows(isa, dtype):
    """Every row length of one to a few dozen vectors at every level (the
    medium-row kernel), against NumPy."""
    rng = np.random.default_rng(7)
    for n in range(2, 1100 // dtype.itemsize + 70):
        x, spots = _medium_rows(rng, dtype, n)
        check_all(x, 1)
        if not is_float(dtype):
            continue
        y = x.copy()
        for r, p in enumerate(spots):
            y[r, p] = np.nan  # NaN wins, wherever it is
        check_all(y, 1)
        y[len(spots):, spots[len(spots) // 2]] = np.nan
        y[-1] = np.nan
        y[-1, n // 2] = 1
        y = y[~np.isnan(comparable(y)).all(axis=1)]
        for fn, ref in ((argext.numpy.nanargmax, np.nanargmax), (argext.numpy.nanargmin, np.nanargmin)):
            assert np.array_equal(fn(y, axis=1), ref(comparable(y), axis=1)), (fn.__name__, dtype, n)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_rows_of_blocks(isa, dtype):
    """Rows past a few vectors and up to 2 KiB (floats 4 KiB, but for the
    last occurrence), which keep each block's extreme at avx2 and search
    only the block holding the row's, and the lengths around them: the winner at every edge of a 16-byte vector (so
    of every wider vector and block), alone and tied with another, rows
    starting at every element offset, signed zeros tied; for floats a NaN
    winning, and NaN skipped by nanargmax."""
    rng = np.random.default_rng(12)
    lanes = 16 // dtype.itemsize
    lengths = sorted({b // dtype.itemsize
                      for b in (388, 516, 640, 648, 776, 1024, 1032, 1540, 2048, 2056, 3000, 4000, 4096, 4104)})
    for n in lengths:
        edges = sorted({p for b in range(0, n + lanes, lanes) for p in (b - 1, b, b + 1) if 0 <= p < n})
        if len(edges) > 150:
            edges = sorted(set(edges[:50] + edges[-50:] + list(rng.choice(edges, 50, replace=False))))
        x = sample(rng, dtype, (2 * len(edges) + 2, n), spread=3)
        x[~np.isfinite(comparable(x))] = 0
        for r, p in enumerate(edges):
            x[r, p] = 7
            x[len(edges) + r, p] = 7
            x[len(edges) + r, edges[-1 - r]] = 7  # a tie, both orders
        if is_float(dtype):
            x[-2] = -0.0
            x[-2, edges[::3]] = 0.0
        x[-1] = 7
        check_all(x, 1)
        check_all(x[:, 1:], 1)  # rows one element later: other heads
        if not is_float(dtype):
            continue
        y = x.copy()
        y[np.arange(len(edges)), edges[::-1]] = np.nan  # NaN wins wherever it is
        check_all(y, 1)
        check_all(y[:, 1:], 1)
        for fn, ref in ((argext.numpy.nanargmax, np.nanargmax), (argext.numpy.nanargmin, np.nanargmin)):
            assert np.array_equal(fn(y, axis=1), ref(comparable(y), axis=1)), (fn.__name__, dtype, n)


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.float64)], ids=_dtype_id)
def test_rows_of_blocks_from_dram(isa, dtype):
    """Calls of 8 MiB or more over float rows of blocks (read from DRAM, most
    likely), rows off a vector boundary reading their last vector after the
    blocks: the winner at every position, ties with it, a NaN in the last
    vector or before it, against NumPy."""
    rng = np.random.default_rng(14)
    previous = argext.get_num_threads()
    argext.set_num_threads(1)  # one kernel call over all the rows
    try:
        for n in (1032 // dtype.itemsize, 2040 // dtype.itemsize):
            rows = (8 << 20) // (n * dtype.itemsize) + 64
            x = sample(rng, dtype, (rows, n + 1), spread=3)
            x[~np.isfinite(x)] = 0
            r = np.arange(rows)
            x[r, 1 + r % n] = 7  # the winner at every position, the last vector's too
            x[r[::3], 1 + (r[::3] * 7) % n] = 7  # a tie, before or after it
            check_all(x[:, 1:], 1)  # rows one element past each start: every head
            x[r[::5], n - r[::5] % 12] = np.nan
            x[r[1::5], 1 + (r[1::5] * 3) % n] = np.nan
            check_all(x[:, 1:], 1)
    finally:
        argext.set_num_threads(previous)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_dtype_id)
def test_reductions_in_pieces(isa, dtype):
    """Several reduced axes that do not coalesce: the kernels fold pieces into
    a running best (row mode and column mode)."""
    rng = np.random.default_rng(6)
    for shape, axes in (((5, 7, 300), [0, 2]), ((4, 5, 6, 130), [0, 2]), ((3, 70, 4, 20), [1, 3])):
        x = sample(rng, dtype, shape, spread=3)
        for op, fn in (("max", argext.reduce_argmax), ("min", argext.reduce_argmin)):
            for direction in ("increasing", "decreasing"):
                got = fn(x, axes, axis_direction=direction)
                want = multi_axis_reference(x, axes, last=direction == "decreasing", op=op)
                assert np.array_equal(got, want), (op, direction, shape, axes)


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if is_float(d)], ids=_dtype_id)
def test_hardmax_rows(isa, dtype):
    rng = np.random.default_rng(7)
    for shape in ((50, 1000), (300, 16), (3, 4, 70)):
        x = sample(rng, dtype, shape, spread=5)
        assert np.array_equal(argext.hardmax(x, axis=-1),
                              hardmax_reference(x, -1, coerce_2d=False), equal_nan=True)


def _run(code, isa_env, **more_env):
    """code's output in a new interpreter with ARGEXT_ISA=isa_env (None: unset)
    and more_env."""
    # -I drops PYTHONPATH: the directory argext was imported from is passed explicitly.
    parent = os.path.dirname(os.path.dirname(os.path.abspath(argext.__file__)))
    code = f"import sys; sys.path.insert(0, {parent!r})\n" + code
    env = {k: v for k, v in os.environ.items() if k != "ARGEXT_ISA"}
    env.update(more_env, **({} if isa_env is None else {"ARGEXT_ISA": isa_env}))
    return subprocess.run([sys.executable, "-I", "-c", code], env=env, capture_output=True,
                          text=True, check=True).stdout.strip()


def test_set_isa_rejects_unknown_and_restores():
    with pytest.raises(ValueError):
        argext.set_isa("sse9")
    assert argext.supported_isas()[0] == "baseline"


def _cpuinfo_flags():
    """The x86 feature flags Linux reports for this CPU (an independent
    reading of cpuid and of what the OS enabled), or None elsewhere."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return None


def test_levels_follow_the_machine():
    """Lowest first; the levels of this architecture, as the OS reports the CPU."""
    levels = argext.supported_isas()
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64"):
        assert levels[:2] == ("baseline", "sse2")
        flags = _cpuinfo_flags()
        if flags is not None:
            want = ["baseline", "sse2"]
            if {"sse4_1", "sse4_2"} <= flags:
                want.append("sse42")
            if "avx2" in flags:
                want.append("avx2")
            if {"avx2", "avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags:
                want.append("avx512")
            assert levels == tuple(want)
    elif machine in ("aarch64", "arm64"):
        assert levels == ("baseline", "neon")
    else:
        assert levels == ("baseline",)


def test_best_level_is_the_default():
    code = "import argext; print(argext.get_isa())"
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True,
                         env={k: v for k, v in os.environ.items() if k != "ARGEXT_ISA"}).stdout.strip()
    assert out == argext.supported_isas()[-1]


def test_env_override_in_subprocess():
    best = argext.supported_isas()[-1]
    for name in argext.supported_isas():
        assert _run("import argext; print(argext.get_isa())", name) == name
    # Unknown values are ignored: the best level runs.
    assert _run("import argext; print(argext.get_isa())", "no-such-isa") == best


def test_main_reports_level():
    name = argext.supported_isas()[0]
    out = _run("import sys, argext.__main__ as m; sys.exit(m.main([]))", name)
    assert f"kernel ISA in use: {name}" in out


@pytest.mark.parametrize("prefetch", ["0", "1", "2", "3"])
def test_row_prefetch_override(prefetch):
    """ARGEXT_ROW_PREFETCH forces the row scans' software prefetch off, on,
    on by the call's size, or on while the data may lie in cache (the CPU
    picks one; the tests would otherwise run only that one): the scans that
    prefetch, at every level, in cache and in calls of 4 to 34 MB, against
    NumPy."""
    code = """
import numpy as np, argext
rng = np.random.default_rng(7)
bad = []
for isa in argext.supported_isas():
    argext.set_isa(isa)
    for dtype in (np.float32, np.float64, np.int8, np.uint16):
        for shape in ((64, 1000), (256, 256), (300, 100), (4096, 16), (200001,), (21000, 100),
                      (1100, 1000), (4200000,)):
            x = rng.integers(-60, 60, size=(shape[0] * (shape[1] if len(shape) > 1 else 1) + 3,))
            x = x.astype(dtype)[3:].reshape(shape)  # off a vector boundary, as NumPy's large arrays
            for fn, ref in ((argext.argmax, np.argmax), (argext.argmin, np.argmin)):
                first = ref(x, axis=-1)
                last = x.shape[-1] - 1 - ref(x[..., ::-1], axis=-1)
                if not (np.array_equal(fn(x, axis=-1, keepdims=0), first)
                        and np.array_equal(fn(x, axis=-1, keepdims=0, select_last_index=1), last)):
                    bad.append((isa, np.dtype(dtype).name, shape, fn.__name__))
print(bad)
"""
    assert _run(code, None, ARGEXT_ROW_PREFETCH=prefetch) == "[]"


@pytest.mark.parametrize("prefetch", ["1", "3"])
def test_far_column_folds(prefetch):
    """Column folds spanning 96 MiB or more in runs of 16 KiB (int8: 32 KiB)
    or more of each row (or half that, two threads each taking half of each
    row), whose pairs ask for the rows ahead under
    ARGEXT_ROW_PREFETCH=1 and not under 3 (Intel's, at avx512; every row in
    pairs then, past row 256 too, and more than 1024 rows keep long runs,
    from the row's first column; rows just past those lengths):
    float32, float64, int16 and int8 over axis 0 of a contiguous and a
    reversed view, first and last occurrence, ties and NaN on the rows
    around a pair and a chunk of 128 rows and on the columns around a
    block, at every level, against NumPy."""
    code = """
import numpy as np, argext
rng = np.random.default_rng(31)
bad = []
for dtype, rows, cols in ((np.float32, 41, 655360), (np.float64, 41, 327680),
                          (np.int16, 41, 1310720), (np.float32, 300, 90000),
                          (np.float32, 1100, 24000), (np.float32, 6200, 4100),
                          (np.int8, 3100, 33000)):
    x = rng.integers(-40, 40, size=(rows, cols)).astype(dtype)
    hot = np.r_[rng.integers(0, cols, 392), 65532, 65535, 65536, 65537, 4095, 4096,
                cols - 4, cols - 1] % cols
    x[rng.choice([0, 1, 2, 3, rows - 2, rows - 1] + [127, 128, 257][:rows // 100], 400), hot] = 50
    x[rng.choice([1, 2, rows - 3] + [129, 256][:rows // 150], 400), hot] = 50  # ties
    if x.dtype.kind == "f":
        x[rng.choice([2, 3, rows - 1], 50), rng.integers(0, cols, 50)] = np.nan
    for v in (x, x[::-1]):
        want = {("max", 0): np.argmax(v, axis=0), ("min", 0): np.argmin(v, axis=0),
                ("max", 1): rows - 1 - np.argmax(v[::-1], axis=0),
                ("min", 1): rows - 1 - np.argmin(v[::-1], axis=0)}
        for isa in argext.supported_isas():
            argext.set_isa(isa)
            for (op, last), w in want.items():
                fn = argext.argmax if op == "max" else argext.argmin
                if not np.array_equal(fn(v, axis=0, keepdims=0, select_last_index=last), w):
                    bad.append((isa, np.dtype(dtype).name, v.strides[0] < 0, op, last))
        argext.set_isa(None)
        argext.set_num_threads(2)  # each thread half of each row's run
        for (op, last), w in want.items():
            fn = argext.argmax if op == "max" else argext.argmin
            if not np.array_equal(fn(v, axis=0, keepdims=0, select_last_index=last), w):
                bad.append(("two threads", np.dtype(dtype).name, v.strides[0] < 0, op, last))
        argext.set_num_threads(None)
print(bad)
"""
    assert _run(code, None, ARGEXT_ROW_PREFETCH=prefetch) == "[]"


@pytest.mark.parametrize("dense", ["0", "1"])
def test_dense_rows_override(dense):
    """ARGEXT_DENSE_ROWS forces how dense short rows go: indices streamed and
    rows of exactly a vector as squares, or plain stores for rows of a line
    or more and avx512's rows of a vector one at a time (the CPU picks one;
    the tests would otherwise run only that one): at every level, in calls
    past the 131072 rows that stream, NaN placed at square and line
    boundaries, the output on and off a line, against NumPy."""
    code = """
import numpy as np, argext
rng = np.random.default_rng(11)
bad = []
for isa in argext.supported_isas():
    argext.set_isa(isa)
    for dtype, n in ((np.float32, 16), (np.float32, 8), (np.float32, 32), (np.float64, 8),
                     (np.float64, 4), (np.int64, 8), (np.int32, 16), (np.int8, 64)):
        rows = 140003
        x = rng.integers(-50, 50, size=(rows, n)).astype(dtype)
        if x.dtype.kind == "f":
            x[rng.integers(0, rows, 40), rng.integers(0, n, 40)] = np.nan
            x[15::16, -1] = np.nan  # the last row of each square of sixteen
        for fn, ref in ((argext.argmax, np.argmax), (argext.argmin, np.argmin)):
            first = ref(x, axis=-1)
            last = n - 1 - ref(x[:, ::-1], axis=-1)
            out = np.empty(rows + 8, np.int64)
            for o in (0, 2):  # the indices on and off a line
                view = out[o:o + rows]
                fn(x, axis=-1, keepdims=0, out=view)
                got_last = fn(x, axis=-1, keepdims=0, select_last_index=1)
                if not (np.array_equal(view, first) and np.array_equal(got_last, last)):
                    bad.append((isa, np.dtype(dtype).name, n, fn.__name__, o))
print(bad)
"""
    assert _run(code, None, ARGEXT_DENSE_ROWS=dense) == "[]"


@pytest.mark.parametrize("tiles", ["0", "1"])
def test_fold_tiles_override(tiles):
    """ARGEXT_FOLD_TILES forces how many rows a column fold takes in one tile
    of registers: 16, or up to 24 (Intel's; 16-bit floats at avx512 keep 16;
    taller folds of one- and two-byte integers at avx512 four rows at a time,
    of four- and eight-byte lanes in cache eight) (the CPU picks one; the
    tests would otherwise run only that one): folds of 16 to 31 rows, and of
    64 to 300 rows of four- and eight-byte lanes (eight at a time across the
    row chunks of 128 and the 256 rows taken branch-free), at every level,
    first and last occurrence, each column's extreme in its first, last or a
    middle row with ties and NaN, into indices that stream (1 MiB or more)
    and that do not, over axis 0 of a contiguous and a reversed view and
    over the middle axis, against NumPy."""
    code = """
import numpy as np, argext
try:
    from ml_dtypes import bfloat16
except ImportError:
    bfloat16 = None
rng = np.random.default_rng(29)
dtypes = [np.float32, np.float16, np.float64, np.int8, np.int16, np.int32, np.uint8, np.uint64]
dtypes += [bfloat16] if bfloat16 is not None else []
bad = []
for dtype in dtypes:
    for rows in (16, 17, 21, 24, 25, 31, 64, 130, 300):
        if rows > 31 and dtype not in (np.float32, np.float64, np.int32, np.uint64):
            continue
        for cols in ((1 << 17) + 37, 1003) if rows <= 31 else (4099, 1003):
            x = rng.integers(0, 3, size=(rows, cols)).astype(dtype)
            x[np.choose(rng.integers(0, 3, cols), [0, rows - 1, rows // 2]), np.arange(cols)] = 5
            x[rng.integers(0, rows, cols // 50), rng.integers(0, cols, cols // 50)] = 5  # ties
            if np.dtype(dtype).kind == "f" or dtype is bfloat16:
                nan_rows = [0, 8, 9, 15, min(16, rows - 1), rows // 2, rows - 1]
                x[rng.choice(nan_rows, 20), rng.integers(0, cols, 20)] = np.nan
            ref = x.astype(np.float64) if x.dtype.itemsize == 2 and x.dtype.kind != "i" else x
            views = [(x, ref), (x[::-1], ref[::-1])]
            if cols < 2000:
                views.append((x.reshape(1, rows, cols), ref.reshape(1, rows, cols)))
            for v, r in views:
                axis = v.ndim - 2
                want = {("max", 0): np.argmax(r, axis=axis), ("min", 0): np.argmin(r, axis=axis),
                        ("max", 1): rows - 1 - np.argmax(np.flip(r, axis), axis=axis),
                        ("min", 1): rows - 1 - np.argmin(np.flip(r, axis), axis=axis)}
                for isa in argext.supported_isas():
                    argext.set_isa(isa)
                    for (op, last), w in want.items():
                        fn = argext.argmax if op == "max" else argext.argmin
                        got = fn(v, axis=axis, keepdims=0, select_last_index=last)
                        if not np.array_equal(got, w):
                            bad.append((isa, str(x.dtype), rows, cols, v.ndim, op, last))
print(bad)
"""
    assert _run(code, None, ARGEXT_FOLD_TILES=tiles) == "[]"
