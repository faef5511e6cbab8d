"""argext.topk (ONNX TopK 1, 10, 11, 24) and argext.numpy.top_k against
independent references: a stable NumPy sort of explicit keys
(tests/reference.topk_reference), the ONNX reference evaluator at every TopK
version, ONNX Runtime and PyTorch where they have the dtype; every dtype, both
byte orders, strided and reversed views, k from 0 to the axis' extent, ties
and NaN at vector and part boundaries, one and two threads, the refusals.

Where the peers differ from argext (NaN with largest=0, ties, sorted=0) the
tests below pin the difference that README's TopK section documents."""

import functools

import numpy as np
import pytest

import argext
import argext.numpy as anp
from reference import ALL_DTYPES, BFLOAT16, FLOAT_DTYPES, INT_DTYPES, UINT_DTYPES, is_float, topk_reference

FLOATS = FLOAT_DTYPES + ([BFLOAT16] if BFLOAT16 is not None else [])
INTEGERS = INT_DTYPES + UINT_DTYPES
OPSETS = {1: 1, 10: 10, 11: 11, 24: 24}  # each TopK version at the opset that brings it
SHAPE = (3, 37, 5)  # distinct extents: a wrong axis gives a wrong shape


def ids(dtypes):
    return [d.name for d in dtypes]


def sample(rng, shape, dtype, ties=True, nan=True):
    """Values with many ties (a small range), and for floats NaN, -0.0 and +0.0."""
    low = 0 if dtype.kind == "u" else -3
    x = rng.integers(low, low + 7, size=shape).astype(np.float64)
    if is_float(dtype):
        if nan:
            x[rng.random(shape) < 0.05] = np.nan
        x[rng.random(shape) < 0.1] = -0.0
        if not ties:
            x += rng.random(shape)
    elif not ties:
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    return x.astype(dtype)


def bits(a):
    """An array's bytes in native order: values compared bit for bit (NaN payloads, -0.0)."""
    a = np.ascontiguousarray(a)
    return a.astype(a.dtype.newbyteorder("=")).view(np.uint8)


def check(x, k, axis=-1, largest=1, sorted=1, **kwargs):
    want_values, want_indices = topk_reference(x, k, axis, largest, sorted)
    values, indices = argext.topk(x, k, axis, largest, sorted, **kwargs)
    where = f"dtype={x.dtype} shape={x.shape} strides={x.strides} k={k} axis={axis} " \
            f"largest={largest} sorted={sorted}"
    assert indices.dtype == np.int64, where
    assert values.dtype == x.dtype.newbyteorder("="), where
    assert values.shape == indices.shape == want_indices.shape, where
    np.testing.assert_array_equal(indices, want_indices, err_msg=where)
    np.testing.assert_array_equal(bits(values), bits(want_values), err_msg=where)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_every_dtype_axis_and_flag(dtype):
    rng = np.random.default_rng(int(dtype.num))
    for ties in (True, False):
        x = sample(rng, SHAPE, dtype, ties)
        for axis in (0, 1, 2, -1, -3):
            n = x.shape[axis]
            for k in sorted({0, 1, 2, n // 2, n}):
                for largest in (0, 1):
                    for ordered in (0, 1):
                        check(x, k, axis, largest, ordered)


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.int16), np.dtype(np.uint64)],
                         ids=str)
def test_every_k_from_0_to_the_extent(dtype):
    rng = np.random.default_rng(1)
    x = sample(rng, (4, 70), dtype)
    for k in range(71):
        check(x, k, largest=k % 2, sorted=k // 2 % 2)


SWAPPABLE = [d for d in ALL_DTYPES if d != BFLOAT16]  # ml_dtypes has no byte-swapped bfloat16


@pytest.mark.parametrize("dtype", SWAPPABLE, ids=ids(SWAPPABLE))
def test_byte_swapped_input_read_in_place(dtype):
    rng = np.random.default_rng(2)
    x = sample(rng, (6, 150), dtype).astype(dtype.newbyteorder("S"))
    for largest in (0, 1):
        check(x, 7, -1, largest)
        check(x, 3, 0, largest, 0)


SWAPPED_SCANS = [np.dtype(d) for d in (np.float16, np.float32, np.float64, np.int16, np.uint32, np.int64)]


@pytest.mark.parametrize("dtype", SWAPPED_SCANS, ids=str)
def test_byte_swapped_rows_scanned_in_place_at_every_level(isa, dtype):
    """At every level, byte-swapped rows through each of the scan's paths,
    every vector swapped as it is loaded: rows in L1 primed from lane maxima
    or each lane's two largest (k up to 8) or counted (k = 16), then
    gathered; long rows primed from a sample, then scanned block by block
    (k = 5) or gathered from the guess (k = 50; descending rows: the guess
    fails). Rows off a vector boundary, NaN for floats, ties."""
    rng = np.random.default_rng(41)
    short = sample(rng, (8, 1001), dtype)
    long = sample(rng, (2, 40000), dtype, ties=False, nan=False)
    descending = np.sort(long, axis=1)[:, ::-1]
    if dtype.kind == "f":
        long[1, [17, 20000, 39999]] = np.nan
    for x, ks in ((short, (3, 5, 8, 16)), (long, (5, 50)), (descending, (50,))):
        swapped = x.astype(dtype.newbyteorder("S"))
        for k in ks:
            check(swapped, k)
            check(swapped[:, 1:], k, largest=0)
            check(swapped, k, sorted=0)


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.int8), np.dtype(np.float64)]
                         + ([BFLOAT16] if BFLOAT16 is not None else []), ids=str)
def test_strided_and_reversed_views(dtype):
    rng = np.random.default_rng(3)
    base = sample(rng, (20, 300), dtype)
    for x in (base[:, ::-1], base[::-1], base[::3, ::2], base.T, base[:, 7:290:5], base.T[::-2]):
        for axis in (0, 1):
            check(x, min(9, x.shape[axis]), axis)
            check(x, 4, axis, largest=0, sorted=0)


@pytest.mark.parametrize("dtype", FLOATS, ids=ids(FLOATS))
@pytest.mark.parametrize("n", [17, 33, 65, 130, 257, 1030])
def test_ties_and_nan_at_vector_and_block_boundaries(dtype, n):
    """Equal values, NaN and -0.0/+0.0 exactly where SIMD vectors and blocks meet."""
    places = [p for p in (0, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, n - 1) if p < n]
    for fill, special in ((1.0, np.nan), (0.0, -0.0), (-5.0, 2.0), (2.0, -5.0)):
        x = np.full(n, fill)
        x[places] = special
        x = x.astype(dtype)
        for k in sorted({1, 2, len(places), len(places) + 1, n}):
            for largest in (0, 1):
                for ordered in (0, 1):
                    check(x, k, largest=largest, sorted=ordered)
                    check(x[::-1], k, largest=largest, sorted=ordered)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
@pytest.mark.parametrize("n", [200, 600, 1000, 5000])
def test_long_rows_whose_best_value_repeats(dtype, n):
    """Rows long enough to be primed from a sample at their end: the best
    value's first occurrences, far before that sample, still rank first,
    next to the dtype's extremes (the losing one first) too."""
    rng = np.random.default_rng(n)
    if is_float(dtype):
        extremes = ((-np.inf, np.inf),)
    else:
        info = np.iinfo(dtype)
        extremes = (info.min, info.min + 1), (info.max - 1, info.max), (info.min, info.max)
    for low, high in ((0, 1), (3, 7), *extremes):
        step = np.full(n, low, object)
        step[n // 2:] = high
        noisy = np.array([low, high], object)[rng.integers(0, 2, n)]
        for x in (step, step[::-1], noisy):
            x = np.array(x.tolist()).astype(dtype) if is_float(dtype) else np.array(x.tolist(), dtype)
            for k in (1, 3, n // 3):
                check(x, k)
                check(x, k, largest=0)
                check(x, k, sorted=0)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_long_rows_primed_from_their_start_and_end(dtype):
    """Rows long enough to be primed (from groups of their first elements and
    their last k or more): random rows, their sorted orders, and the best
    values only in the first elements, or only in the last, for k on either
    side of the small set's limit and of whole vectors, and large k."""
    rng = np.random.default_rng(23)
    n = 40000  # primed up to k = 200 (a set of 2k + 64 places, 64 times over)
    x = sample(rng, (n,), dtype, ties=False, nan=False)
    ranked = np.sort(x)
    for row in (x, ranked, ranked[::-1], np.concatenate([ranked[-300:], ranked[:-300]]),
                np.concatenate([ranked[300:], ranked[:300]])):
        for k in (1, 5, 16, 17, 50, 64, 65, 200):
            check(row, k)
            check(row, k, largest=0, sorted=0)
    if dtype in SWAPPABLE:
        check(x.astype(x.dtype.newbyteorder()), 50)


@pytest.mark.parametrize("dtype", [np.dtype(np.float64), np.dtype(np.int64), np.dtype(np.float32)],
                         ids=["float64", "int64", "float32"])
def test_long_rows_primed_with_more_vectors_than_the_count_holds(isa, dtype):
    """At every level (not a draw): long rows primed with k large enough that
    the keys of their last k elements take more vectors than a counted prime
    holds (64: 16-byte vectors of 8-byte lanes from k = 130), which crashed
    at sse42 (the keys overran a stack array)."""
    rng = np.random.default_rng(25)
    x = sample(rng, (40000,), dtype, ties=False, nan=False)
    for k in (129, 130, 200, 300):
        check(x, k)
        check(x, k, largest=0, sorted=0)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_short_rows_primed_from_their_lane_maxima(dtype):
    """Rows in L1 (16 KiB or less) primed from the lane maxima of 2k or more
    elements, whose k-th largest is counted (k above 8, up to 64 vectors of
    them) or selected (more): k on either side of those limits at every
    lane width, rows from just under 2k elements (no prime) to 16 KiB, with
    ties, NaN and -0.0 at the k-th value, distinct values, and integer
    rows of the dtype's extremes (keys at either end of the lane type)."""
    rng = np.random.default_rng(24)
    limit = 16384 // dtype.itemsize
    for k in (8, 9, 16, 17, 50, 64, 65, 129, 257, 513):
        for n in sorted({2 * k - 1, 2 * k, 2 * k + 17, 1000, limit - 1, limit}):
            if not k <= n <= limit:
                continue
            rows = [sample(rng, (n,), dtype), sample(rng, (n,), dtype, ties=False, nan=False)]
            if not is_float(dtype):
                info = np.iinfo(dtype)
                rows.append(np.array([info.min, info.max, info.min + 1, info.max - 1], dtype)[
                    rng.integers(0, 4, n)])
            for x in rows:
                check(x, k)
                check(x, k, largest=0, sorted=0)
    if dtype in SWAPPABLE:
        x = sample(rng, (1000,), dtype)
        check(x.astype(x.dtype.newbyteorder()), 50)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_short_rows_primed_from_two_per_lane(dtype):
    """Rows in L1 with k up to 8 primed from each lane's two largest, taken
    in four streams of vectors (as floats where the row holds no NaN): rows
    of one to two vectors per stream at every vector width (16, 32 and 64
    bytes: some lanes then hold one element), up to 16 KiB; the k best all
    in one lane (a lane holds more of them than its two), one NaN at the
    start, middle or end, infinities, ties and -0.0."""
    rng = np.random.default_rng(25)
    limit = 16384 // dtype.itemsize
    lengths = {limit, 1000}
    for width in (16, 32, 64):
        lanes = width // dtype.itemsize
        lengths |= {4 * lanes, 4 * lanes + 1, 8 * lanes - 1, 8 * lanes, 9 * lanes + 3}
    same_lane = 64 // dtype.itemsize  # a multiple of every width's lane count
    for n in sorted(lengths):
        for k in range(2, 9):
            rows = [sample(rng, (n,), dtype), sample(rng, (n,), dtype, ties=False, nan=False)]
            x = sample(rng, (n,), dtype, ties=False, nan=False)
            top = np.arange(0, n, same_lane)[:k + 2]
            x[top] = np.max(x) if is_float(dtype) else np.iinfo(dtype).max
            rows.append(x)
            if is_float(dtype):
                for at in (0, n // 2, n - 1):
                    x = sample(rng, (n,), dtype, ties=False, nan=False)
                    x[at] = np.nan
                    rows.append(x)
                x = sample(rng, (n,), dtype, ties=False, nan=False)
                x[rng.integers(0, n, 5)] = np.inf
                x[rng.integers(0, n, 5)] = -np.inf
                rows.append(x)
            for x in rows:
                check(x, k)
                check(x, k, largest=0, sorted=0)
    if dtype in SWAPPABLE:
        x = sample(rng, (1000,), dtype, ties=False, nan=False)
        check(x.astype(x.dtype.newbyteorder()), 5)
        check(x.astype(x.dtype.newbyteorder()), 5, largest=0)


BLOCKED = [np.dtype(d) for d in (np.float32, np.float64, np.float16, np.int32, np.uint16, np.int64)]


@pytest.mark.parametrize("dtype", BLOCKED + ([BFLOAT16] if BFLOAT16 is not None else []), ids=str)
def test_short_rows_gathered_from_their_block_maxima(isa, dtype):
    """At every level: rows in L1 with 3 <= k <= 8 and 2k blocks or more (k
    or more for avx512's four-byte lanes: seven blocks of a row of 4000 bytes),
    whose prime keeps each block's maximum (eight vectors: 128, 256 or 512
    bytes; at avx512 each half block's, 256 bytes, in rows of up to eight
    blocks and 16-bit float rows) and whose gather reads only the blocks
    above the threshold: the
    k best (or a NaN, which the block's float maximum may drop) at the first
    and last element of blocks, in the whole vectors after the last block
    and in the row's last partial vector, rows starting off a vector
    boundary, byte-swapped rows, both largest and sorted."""
    rng = np.random.default_rng(47)
    w = dtype.itemsize
    for n in sorted({16384 // w, 8192 // w + 3 * 16 // w + 1, 6000 // w, 5000 // w + 5, 4000 // w}):
        buf = sample(rng, (n + 64 // w,), dtype, ties=False, nan=False)
        for off in (0, 1):
            base = buf[off:off + n]
            edges = {0, n - 1, n - 2, n - 64 // w - 1}
            for block in (128, 256, 512):
                edges |= {j * block // w + d for j in (1, 3, n * w // block - 1) for d in (-1, 0)}
            edges = np.array(sorted(e for e in edges if 0 <= e < n))
            for k in (3, 5, 8):
                for planted in (edges[:k], edges[-k:], rng.choice(edges, k, replace=False)):
                    x = base.copy()
                    x[planted] = np.max(x) if is_float(dtype) else np.iinfo(dtype).max
                    check(x, k)
                    check(x, k, largest=0, sorted=0)
                    if dtype != BFLOAT16:
                        check(x.astype(x.dtype.newbyteorder()), k)
                if is_float(dtype):
                    for at in edges[::3]:
                        x = base.copy()
                        x[at] = np.nan
                        check(x, k)
                        check(x, k, largest=0)
                        x[rng.choice(n, 4)] = -np.inf
                        check(x, k, largest=0, sorted=0)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_rows_starting_anywhere_in_a_vector(dtype):
    """Rows whose first element lies at every element offset of a 64-byte
    line (the scans take the elements before the first vector boundary
    apart, then read whole vectors from it): rows in L1 and long rows, the
    k best or a NaN placed among those first elements, at the boundary and
    at the end, k through the offered, gathered and long-gathered paths."""
    rng = np.random.default_rng(27)
    per_line = 64 // dtype.itemsize
    for n in (1000, 40000 // dtype.itemsize):
        buf = sample(rng, (n + per_line,), dtype, ties=False, nan=False)
        for off in range(per_line):
            x = buf[off:off + n]
            top = np.array(sorted({0, 1, per_line - off - 1, per_line - off, n - 1}))
            top = top[(top >= 0) & (top < n)]
            saved = x[top].copy()
            x[top] = np.max(x) if is_float(dtype) else np.iinfo(dtype).max
            for k in (2, 5, 50):
                check(x, k)
                check(x, k, largest=0, sorted=0)
            if is_float(dtype):
                x[top[1]] = np.nan
                check(x, 5)
                check(x, 50, largest=0)
            x[top] = saved


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_short_rows_gathered_by_line(dtype):
    """Rows in L1 whose gather tests a 64-byte line at a time, 64 lines to
    a word (4 KiB), then gathers the lines with a candidate: distinct random
    values with their k best (or a NaN) planted at the first and last
    element of lines and of words, rows of one to four words and a partial
    line, k from 3 (the gather's least) to 64."""
    rng = np.random.default_rng(26)
    per_line = 64 // dtype.itemsize
    per_word = 64 * per_line
    limit = 16384 // dtype.itemsize
    for n in sorted({per_word - 1, per_word, per_word + 1, 2 * per_word + 3, limit}):
        if n > limit:
            continue
        edges = np.array(sorted({0, per_line - 1, per_line, per_word - 1, per_word, n - 1}))
        edges = edges[edges < n]
        for k in (3, 5, 8, 16, 64):
            x = sample(rng, (n,), dtype, ties=False, nan=False)
            hi = np.max(x) if is_float(dtype) else np.iinfo(dtype).max
            x[edges[:k]] = hi
            check(x, k)
            check(x, k, largest=0, sorted=0)
            if is_float(dtype):
                for at in edges:
                    y = sample(rng, (n,), dtype, ties=False, nan=False)
                    y[at] = np.nan
                    check(y, k)
                    check(y, k, largest=0)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_short_rows_gathered_past_their_room(dtype):
    """Rows in L1 whose candidates above the prime's threshold are gathered
    (k up to 128) and overflow the 512 places of the gather, which then
    keeps its k best and goes on: rows of one value, of two values (the
    best one rare, at vector ends, or common), ascending and descending
    rows, rows whose best values all lie in the last partial vector, NaN
    and -0.0 among ties; k on either side of 128 and up to the row's
    length; both byte orders."""
    rng = np.random.default_rng(25)
    limit = 16384 // dtype.itemsize
    for n in sorted({129, 1000, 1003, limit}):
        ends = np.arange(15, n, 16)
        rows = [np.zeros(n), np.full(n, 2.0)]
        two = np.full(n, 1.0)
        two[ends] = 2.0
        rows.append(two)
        rows.append(np.where(rng.random(n) < 0.7, 3.0, 1.0))
        rows.append(np.arange(n, dtype=np.float64) % 100)
        rows.append(99 - np.arange(n, dtype=np.float64) % 100)
        tail = np.zeros(n)
        tail[-(n % 16 or 16):] = 5.0
        rows.append(tail)
        rows.append(sample(rng, (n,), dtype))
        for x in rows:
            x = x.astype(dtype)
            for k in sorted({2, 5, 8, 9, 50, 64, 65, 127, 128, 129, n - 1, n}):
                if k > n:
                    continue
                check(x, k)
                check(x, k, largest=0, sorted=0)
            if dtype in SWAPPABLE:
                check(x.astype(x.dtype.newbyteorder()), min(50, n), largest=0)
                check(x.astype(x.dtype.newbyteorder()), min(5, n), sorted=0)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_long_rows_gathered_past_their_room(dtype):
    """Long rows (primed from their start and end), whose candidates above
    the prime's threshold are gathered too (3 <= k <= 128), past the 512
    places of the gather (rows of one value, of two, of repeating runs),
    kept to their k best at the end where more than 2k are left (random
    rows) or not; the best values only in the last partial vector; k on
    either side of 3 and 128."""
    rng = np.random.default_rng(26)
    n = 30001  # primed up to k = 151 (a set of 2k + 64 places, 64 times over)
    two = np.full(n, 1.0)
    two[np.arange(15, n, 16)] = 2.0
    tail = np.zeros(n)
    tail[-(n % 16):] = 5.0
    rows = [np.zeros(n), two, np.where(rng.random(n) < 0.7, 3.0, 1.0), np.arange(n) % 100.0,
            99 - np.arange(n) % 100.0, tail, sample(rng, (n,), dtype),
            sample(rng, (n,), dtype, ties=False, nan=False)]
    for x in rows:
        x = x.astype(dtype)
        for k in (2, 3, 5, 50, 128, 129):
            check(x, k)
            check(x, k, largest=0, sorted=0)
        if dtype in SWAPPABLE:
            check(x.astype(x.dtype.newbyteorder()), 50, largest=0)


GUESSED = [np.dtype(np.float32), np.dtype(np.int16)] + ([BFLOAT16] if BFLOAT16 is not None else [])


@pytest.mark.parametrize("dtype", GUESSED, ids=ids(GUESSED))
def test_long_rows_whose_guess_is_too_high(isa, dtype):
    """At every level: long rows gathered (k >= 32) start from the prime's
    guess, the k'-th largest of group maxima of their first elements (k'
    about twice the k best's share of them); where fewer than k keys clear
    it, the row is read again from the sure threshold. Rows whose best
    values crowd the sampled start (descending; the 2k best planted there;
    k - 1 of them there and one at the end), random rows (the guess
    holds), and ties at the guess."""
    rng = np.random.default_rng(31)
    n = 40000
    x = sample(rng, (n,), dtype, ties=False, nan=False)
    ranked = np.sort(x)
    for k in (32, 50, 128):
        planted = ranked[:-2 * k].copy()
        rng.shuffle(planted)
        start = np.insert(planted, rng.integers(0, n // 8, 2 * k), ranked[-2 * k:])
        one_late = np.concatenate([ranked[-k:-1], ranked[:-k], ranked[-1:]])
        tied = np.where(rng.random(n) < 0.01, ranked[-k], ranked[rng.integers(0, n - 4 * k, n)])
        for row in (ranked[::-1], start, one_late, x, tied):
            row = np.ascontiguousarray(row)
            check(row, k)
            check(row, k, largest=0, sorted=0)
            check(row[::-1].copy(), k, largest=0)


@pytest.mark.parametrize("dtype", GUESSED + [np.dtype(np.float64)], ids=ids(GUESSED + [np.dtype(np.float64)]))
def test_long_rows_past_their_sample_marks(isa, dtype):
    """At every level: long rows, gathered (32 <= k <= 128) or offered,
    read their sampled start again only where the prime's marks (the key
    maxima of whole blocks, 16 elements or a multiple) clear the threshold.
    The best values, ties with them and NaN placed on either side of every
    block boundary of that start (up to its first quarter), the smallest
    values for largest=0, in rows starting on a vector boundary and one
    element past it."""
    rng = np.random.default_rng(37)
    n = 40001
    base = sample(rng, (n,), dtype, ties=False, nan=False)
    ranked = np.sort(base)
    edges = np.arange(16, n // 4, 16)
    edges = np.concatenate([edges - 1, edges])
    for k in (5, 16, 32, 50, 128, 200):
        for offset in (0, 1):
            at = rng.choice(edges, k, replace=False) + offset
            best, least = base.copy(), base.copy()
            best[at] = ranked[-k:]  # ties with the same values elsewhere
            least[at] = ranked[:k]
            check(best[offset:], k)
            check(least[offset:], k, largest=0, sorted=0)
            if is_float(dtype):
                best[at[: 1 + k // 8]] = np.nan
                check(best[offset:], k)
                check(best[offset:], k, largest=0)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=ids(FLOAT_DTYPES))
@pytest.mark.parametrize("k", [1, 5, 50, 64])
def test_long_rows_whose_threshold_is_zero_denormal_or_infinite(dtype, k):
    """Long float rows whose k-th best (the scan's threshold) is each of the
    values where a float compare and the keys part (zeros, denormals, the
    least normal, infinities, NaN): a background value and, at random places
    and at block edges, m copies of the next value up, m around k."""
    info = np.finfo(dtype)
    tiny = info.smallest_subnormal
    levels = [-np.inf, -info.max, -info.tiny, -tiny, -0.0, 0.0, tiny, info.tiny, info.max, np.inf, np.nan]
    rng = np.random.default_rng(k)
    n = 20000
    for low, high in zip(levels, levels[1:]):
        for m in (k - 1, k, k + 1):
            places = np.concatenate([[0, 127, 128, n - 1], rng.choice(n, max(m - 4, 0), replace=False)])
            for background in (low, -3.0 if low != -np.inf else low):
                x = np.full(n, background, dtype)
                x[places[:m]] = high
                x[rng.choice(n, 3)] = low
                for largest in (0, 1):
                    row = x if largest else -x
                    check(row, k, largest=largest)
                    check(row.astype(row.dtype.newbyteorder()), k, largest=largest, sorted=0)


SIXTEEN_BIT_FLOATS = [d for d in FLOATS if d.itemsize == 2]


def bit_pattern(bits, dtype):
    """The 16-bit float of these bits."""
    return np.array([bits], np.uint16).view(dtype)[0]


@pytest.mark.parametrize("dtype", SIXTEEN_BIT_FLOATS, ids=ids(SIXTEEN_BIT_FLOATS))
def test_16_bit_floats_tested_by_their_bits(isa, dtype):
    """At every level: float16 and bfloat16 rows, whose blocks and lines the
    scans test against a threshold on the elements' bits, hold NaN of either
    sign, -0.0 and +0.0, infinities, the largest finite values and the least
    denormal at random places and at vector and block edges; rows in L1 (the
    gather by line), long rows (primed, then offered or gathered), k around
    where the gather starts, both largest; thresholds of either sign (each
    of topk_bits's forms), at zero and next to it (rows of the four least
    denormals and zeros of either sign)."""
    rng = np.random.default_rng(38)
    inf_bits = 0x7C00 if dtype == np.float16 else 0x7F80
    specials = [bit_pattern(b, dtype) for b in (inf_bits + 1, 0xFFFF, inf_bits | 0x8000 | 1, 0x7FFF,
                                                 0x8000, 0, 1, 0x8001, inf_bits, inf_bits | 0x8000,
                                                 inf_bits - 1, (inf_bits - 1) | 0x8000)]
    for n in (1000, 8191, 40000):
        edges = [e for e in (0, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 511, 512, n - 1) if e < n]
        normal = rng.standard_normal(n).astype(np.float32)
        tiny = (rng.integers(0, 4, n) | rng.integers(0, 2, n) << 15).astype(np.uint16).view(dtype)
        rows = [normal, np.abs(normal) + 0.5, -np.abs(normal) - 0.5, np.where(normal > 1.5, normal, -0.0),
                tiny]
        for base in rows:
            for planted in range(0, len(specials) + 1, 3):
                x = base.astype(dtype)
                for j, value in enumerate(specials[planted:planted + 3]):
                    x[rng.choice(n, 2)] = value
                    x[edges[(planted + j) % len(edges)]] = value
                for k in (1, 2, 3, 5, 16, 32, 50):
                    for largest in (0, 1):
                        check(x, k, largest=largest, sorted=largest)


@pytest.mark.parametrize("dtype", INTEGERS, ids=ids(INTEGERS))
def test_integer_extremes_compare_exactly(dtype):
    info = np.iinfo(dtype)
    x = np.array([info.max - 1, info.min, info.max, info.min + 1, info.max, 0, info.min] * 9, dtype)
    for k in (1, 2, 3, 5, x.size):
        for largest in (0, 1):
            check(x, k, largest=largest)


def test_topk_1_agrees_with_argmax_and_argmin_nan_included():
    rng = np.random.default_rng(4)
    for dtype in FLOATS:
        x = sample(rng, (30, 40), dtype)
        for axis in (0, 1):
            values, indices = argext.topk(x, 1, axis)
            np.testing.assert_array_equal(indices, argext.argmax(x, axis))
            np.testing.assert_array_equal(argext.topk(x, 1, axis, largest=0)[1], argext.argmin(x, axis))


@pytest.fixture
def threads():
    yield argext.set_num_threads
    argext.set_num_threads(None)


@pytest.mark.parametrize("n_threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.int64)], ids=str)
def test_long_rows_split_over_threads(threads, n_threads, dtype):
    """Inputs of a few MiB (parts of 1 MiB in the tests): one long row split
    into pieces whose candidates are merged, ties and NaN at the pieces' edges."""
    threads(n_threads)
    rng = np.random.default_rng(5)
    n = (3 << 20) // dtype.itemsize + 17
    x = sample(rng, n, dtype, ties=False, nan=False)
    part = (1 << 20) // dtype.itemsize
    for p in (part - 1, part, 2 * part - 1, 2 * part, 2 * part + 1, n - 1):
        x[p] = x.max() if dtype.kind != "f" else 1e4  # the same largest value, across the pieces
    if dtype.kind == "f":
        x[[3, part + 1, n - 2]] = np.nan
    for largest in (0, 1):
        want_values, want_indices = topk_reference(x, 64, largest=largest)  # one sort, its prefixes
        for k in (1, 2, 3, 4, 5, 6, 64):
            for ordered in (0, 1):
                values, indices = argext.topk(x, k, largest=largest, sorted=ordered)
                order = np.argsort(want_indices[:k], kind="stable") if not ordered else slice(None)
                np.testing.assert_array_equal(indices, want_indices[:k][order], err_msg=f"k={k}")
                np.testing.assert_array_equal(bits(values), bits(want_values[:k][order]))


@pytest.mark.parametrize("n_threads", [1, 2])
def test_many_rows_and_columns_over_threads(threads, n_threads):
    threads(n_threads)
    rng = np.random.default_rng(6)
    x = sample(rng, (1500, 700), np.dtype(np.float32))
    check(x, 5, -1)
    check(x, 50, 0, largest=0)
    check(x[:, ::-1], 3, 1, sorted=0)
    check(x, 1, -1)  # the arg reduction's split
    short = sample(rng, (40000, 16), np.dtype(np.float32))  # tiles, 2.5 MiB: two parts
    check(short, 3)
    check(short[:, ::-1], 9, largest=0, sorted=0)


COLS_K = 16  # the column kernels' largest k (csrc/kernels/topk.h); above it rows are scanned
TILE_ROW_BYTES, TILE_ROW_ELEMENTS = 512, 256  # rows up to these go in tiles (engine/topk_cols.c)
TILE_REGS_ROW_BYTES = 768  # for k up to the register kernel's (8)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_short_rows_in_tiles(dtype):
    """Short rows (up to 512 bytes, 768 with k <= 8, and 256 elements), 2 <= k <= 16, taken a
    tile of 64 rows at a time: runs of the innermost kept dimension that end inside a tile,
    rows on either side of the size limits, ties, NaN and -0.0, reversed and strided rows, and
    outputs with strides of their own."""
    rng = np.random.default_rng(26)
    limit = min(TILE_ROW_BYTES // dtype.itemsize, TILE_ROW_ELEMENTS)
    regs_limit = min(TILE_REGS_ROW_BYTES // dtype.itemsize, TILE_ROW_ELEMENTS)
    for n in sorted({2, 3, 16, 17, limit - 1, limit, limit + 1, regs_limit, regs_limit + 1}):
        x = sample(rng, (3, 130, n), dtype)
        for k in sorted({2, 3, 5, 8, 9, 16, n} & set(range(2, n + 1))):
            check(x, k)
            check(x, k, largest=0, sorted=0)
        k = min(5, n)
        check(x[:, ::-1, ::-1], k)
        check(x[::2, 1::3], k, largest=0)
        values = np.empty((3, 130, 2 * k), dtype)[..., ::2]
        indices = np.empty((3, 130, 3 * k), np.int64)[..., ::3]
        check(x, k, sorted=0, out=(values, indices))
        if dtype in SWAPPABLE:
            check(x.astype(dtype.newbyteorder("S")), k, largest=0)
    x = sample(rng, (70, 10, 1, 1), dtype)  # the kept dimensions after the axis are 1
    check(x, 5, axis=1)
    check(x.transpose(2, 0, 3, 1)[..., ::-1], 5, sorted=0)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_short_rows_transposed_at_every_level(isa, dtype):
    """Contiguous short rows go into their tiles by the transpose kernel, a square of as many
    rows and elements as a vector has lanes at a time (the last squares overlapping the ones
    before), element by element where a tile has fewer rows or a row fewer elements than
    that: extents around the lanes of every level's vectors, tiles of 64 rows and of 36
    (a run of 100), rows at a stride of their own, at every ISA level."""
    rng = np.random.default_rng(int(dtype.num) + 90)
    limit = min(TILE_ROW_BYTES // dtype.itemsize, TILE_ROW_ELEMENTS)
    lanes = {v // dtype.itemsize for v in (16, 32, 64)}
    for n in sorted({2, limit} | {m + d for m in lanes for d in (-1, 0, 1) if 2 <= m + d <= limit}):
        x = sample(rng, (2, 100, n), dtype, ties=n % 2 == 0)
        k = min(3, n)
        check(x, k, largest=n % 2)
        check(x[:, ::2], k, largest=1 - n % 2, sorted=0)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_k_1_by_the_arg_reduction(dtype):
    """k = 1 takes the arg reduction's kernels, then reads each row's value at
    its index: rows short and long, strided, reversed, byte-swapped, and a
    repeated row (stride 0)."""
    rng = np.random.default_rng(27)
    for shape in ((4, 3), (300, 17), (2, 5, 1000), (7, 4099)):
        x = sample(rng, shape, dtype)
        check(x, 1)
        check(x, 1, largest=0)
        check(x[..., ::-1], 1, sorted=0)
        check(x[::-1, ..., ::2], 1, largest=0)
    if dtype in SWAPPABLE:
        check(sample(rng, (40, 300), dtype).astype(dtype.newbyteorder("S")), 1)
    check(np.broadcast_to(sample(rng, (5, 1), dtype), (5, 9)), 1)


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.int64),
                                   np.dtype(np.uint8)], ids=str)
@pytest.mark.parametrize("threads", [1, 2])
def test_k_1_values_copied_block_by_block(dtype, threads):
    """k = 1 copies each block's values (256 KiB of input, engine/plan.h)
    right after its indices: blocks that end inside a run of rows, a values
    output whose walk is cut where the indices' is not, reversed rows and
    kept dimensions, rows longer than a block (one row each, or pieces of a
    row per thread), and each thread's range cut into blocks (the tests'
    1 MiB thread parts: conftest.py)."""
    rng = np.random.default_rng(int(dtype.num) + 90)
    previous = argext.get_num_threads()
    argext.set_num_threads(threads)
    try:
        for shape in ((6, 15001, 7), (3, 2, 100003), (2, 300001)):
            x = sample(rng, shape, dtype)
            for view in (x, x[:, ::-1], x[..., ::-1]):
                kept = view.shape[:-1]
                # rows of values not one run (as the indices are): the walks cut apart
                values = np.empty(kept[:-1] + (kept[-1] + 1, 3), dtype)[..., :-1, 1:2]
                indices = np.empty(kept + (1,), np.int64)
                check(view, 1, out=(values, indices))
                check(view, 1, largest=0)
        if dtype.itemsize > 1:
            check(sample(rng, (6, 15001, 7), dtype).astype(dtype.newbyteorder("S")), 1)
    finally:
        argext.set_num_threads(previous)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_channel_axis_by_columns(dtype):
    """TopK over an axis that is not the fastest-moving one (a segmentation
    map's channels): each column's k best kept row by row, k from 1 to the
    axis' extent, across the kernels' largest k, column counts that leave a
    partial vector, both byte orders."""
    rng = np.random.default_rng(int(dtype.num) + 40)
    for ties in (True, False):
        x = sample(rng, (2, 21, 3, 67), dtype, ties)
        for k in (1, 2, 5, 8, COLS_K, COLS_K + 1, 21):
            check(x, k, 1, largest=k % 2, sorted=k // 2 % 2)
            check(x, k, 1, largest=1 - k % 2, sorted=1 - k // 2 % 2)
        if dtype != BFLOAT16 and dtype.itemsize > 1:
            check(x.astype(dtype.newbyteorder("S")), 5, 1)
            check(x.astype(dtype.newbyteorder("S")), 3, 1, largest=0, sorted=0)


@pytest.mark.parametrize("dtype", [np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.float32)]
                         + ([BFLOAT16] if BFLOAT16 is not None else []), ids=str)
def test_columns_ties_and_nan_at_lane_and_chunk_boundaries(dtype):
    """Equal values and NaN where column vectors end (63, 64, 127, 128 ...)
    and past 128 rows, where 8-bit lanes start a new chunk of row tags."""
    rows, cols = 300, 131
    x = np.zeros((rows, cols))
    for r in (0, 5, 127, 128, 129, 255, 256, 299):
        x[r, [0, 15, 16, 31, 32, 63, 64, 127, 128, 130]] = 1
    if is_float(dtype):
        x[[3, 128, 200], 64] = np.nan
        x[[0, 127, 298], 130] = np.nan
    x = x.astype(dtype)
    for k in (1, 2, 7, 8, 9, COLS_K):
        for largest in (0, 1):
            check(x, k, 0, largest=largest)
            check(x, k, 0, largest=largest, sorted=0)
            check(x[::-1], k, 0, largest=largest)


@pytest.mark.parametrize("dtype", [np.dtype(np.int16), np.dtype(np.uint16)], ids=str)
def test_columns_past_16_bit_chunks(dtype):
    """More rows than 16-bit row tags count (32768): the chunks' k best carried over."""
    rng = np.random.default_rng(41)
    x = sample(rng, (33000, 40), dtype, ties=True)
    x[[5, 32767, 32768, 32999], 7] = np.iinfo(dtype).max
    for k in (1, 3, COLS_K):
        check(x, k, 0)
        check(x, k, 0, largest=0, sorted=0)


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.int8), np.dtype(np.float64),
                                   np.dtype(np.uint16)], ids=str)
def test_columns_of_strided_and_reversed_views(dtype):
    rng = np.random.default_rng(42)
    base = sample(rng, (4, 30, 150), dtype)
    for x in (base[:, :, ::-1], base[:, ::-1, ::2], base[..., ::-3], base[:, 1::2, 3:140],
              base.transpose(0, 2, 1)[:, ::-1], np.broadcast_to(base[:, :, :1], base.shape)):
        for k in (1, 4, min(COLS_K, x.shape[1])):
            check(x, k, 1)
            check(x, k, 1, largest=0, sorted=0)


@pytest.mark.parametrize("n_threads", [1, 2])
def test_columns_over_threads(threads, n_threads):
    threads(n_threads)
    rng = np.random.default_rng(43)
    x = sample(rng, (2, 21, 160, 400), np.dtype(np.float32))  # ~21 MiB: split into ranges of blocks
    for k in (1, 5):
        check(x, k, 1)
        check(x, k, 1, largest=0, sorted=0)


def test_k_zero_gives_empty_outputs():
    x = np.arange(12.0).reshape(3, 4)
    values, indices = argext.topk(x, 0, 0)
    assert values.shape == indices.shape == (0, 4)
    assert values.dtype == np.float64 and indices.dtype == np.int64
    assert argext.topk(np.empty((0, 5), np.int8), 2)[0].shape == (0, 2)


def test_input_k_as_onnx_gives_it():
    x = np.array([[3.0, 1.0, 4.0, 1.0, 5.0]], np.float32)
    for k in (np.array([2]), np.array(2), np.int64(2), np.array([2], np.int64)):
        values, indices = argext.topk(x, k, opset=10)
        assert indices.tolist() == [[4, 2]] and values.tolist() == [[5.0, 4.0]]


def test_defaults_and_the_spec_example():
    # TopK-11's worked example (onnx's test_top_k): k=3, axis=1.
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    values, indices = argext.topk(x, np.array([3], np.int64), axis=1)
    assert values.tolist() == [[3, 2, 1], [7, 6, 5], [11, 10, 9]]
    assert indices.tolist() == [[3, 2, 1]] * 3
    # Ties: the lower index first; sorted=0: index order.
    y = np.array([1, 3, 3, 2, 3], np.int32)
    assert argext.topk(y, 2)[1].tolist() == [1, 2]
    assert argext.topk(y, 3, largest=0)[1].tolist() == [0, 3, 1]
    assert argext.topk(y, 3, largest=0, sorted=0)[1].tolist() == [0, 1, 3]
    # NaN first, for largest and smallest alike; -0.0 equals +0.0
    z = np.array([0.0, np.nan, -0.0, -1.0, np.nan], np.float64)
    assert argext.topk(z, 3)[1].tolist() == [1, 4, 0]
    assert argext.topk(z, 4, largest=0)[1].tolist() == [1, 4, 3, 0]
    assert np.signbit(argext.topk(z, 4, largest=0)[0][3]) == np.signbit(z[0])


def test_out_pair_is_written_and_returned():
    rng = np.random.default_rng(7)
    x = sample(rng, (5, 40), np.dtype(np.float32))
    out = (np.empty((5, 6), np.float32), np.empty((5, 6), np.int64))
    got = argext.topk(x, 6, out=out)
    assert got[0] is out[0] and got[1] is out[1]
    want = topk_reference(x, 6)
    np.testing.assert_array_equal(bits(out[0]), bits(want[0]))
    np.testing.assert_array_equal(out[1], want[1])
    # Strided outputs, and out overlapping the input (a copy is written back).
    wide = (np.zeros((5, 12), np.float32), np.zeros((6, 5), np.int64))
    argext.topk(x, 6, out=(wide[0][:, ::2], wide[1].T))
    np.testing.assert_array_equal(wide[1].T, want[1])
    y = x.copy()
    argext.topk(y, 6, out=(y[:, :6], np.empty((5, 6), np.int64)))
    np.testing.assert_array_equal(bits(y[:, :6]), bits(want[0]))


@pytest.mark.parametrize("out,error,text", [
    ((np.empty((5, 3), np.float64), np.empty((5, 3), np.int64)), TypeError,
     r"TopK-24: out\[0\] has dtype float64, expected float32"),
    ((np.empty((5, 3), np.float32), np.empty((5, 3), np.int32)), TypeError,
     r"TopK-24: out\[1\] has dtype int32, expected int64"),
    ((np.empty((5, 4), np.float32), np.empty((5, 3), np.int64)), ValueError,
     r"TopK-24: out\[0\] has shape \(5, 4\), expected \(5, 3\)"),
    ((np.empty((5, 3), np.float32), np.empty((3, 5), np.int64)), ValueError,
     r"TopK-24: out\[1\] has shape \(3, 5\), expected \(5, 3\)"),
    (np.empty((5, 3), np.float32), TypeError, "out must be a pair"),
])
def test_bad_out_is_refused_and_nothing_is_written(out, error, text):
    x = np.arange(50, dtype=np.float32).reshape(5, 10)
    before = [np.copy(o) for o in (out if isinstance(out, tuple) else (out,))]
    with pytest.raises(error, match=text):
        argext.topk(x, 3, out=out)
    for o, b in zip(out if isinstance(out, tuple) else (out,), before):
        np.testing.assert_array_equal(bits(o), bits(b))


def test_refused_attribute_writes_nothing():
    x = np.arange(50, dtype=np.float32).reshape(5, 10)
    out = (np.full((5, 3), 7, np.float32), np.full((5, 3), 7, np.int64))
    with pytest.raises(argext.SpecError, match=r"TopK-24: largest=2 is out of range"):
        argext.topk(x, 3, largest=2, out=out)
    assert (out[0] == 7).all() and (out[1] == 7).all()


@pytest.mark.parametrize("call,error,text", [
    (lambda x: argext.topk(x, -1), argext.SpecError,
     r"TopK-24: k=-1 is out of range \[0, 10\] for axis -1, whose extent is 10"),
    (lambda x: argext.topk(x, 11, 1), argext.SpecError, r"TopK-24: k=11 is out of range \[0, 10\]"),
    (lambda x: argext.topk(x, 6, 0, opset=11), argext.SpecError,
     r"TopK-11: k=6 is out of range \[0, 5\] for axis 0"),
    (lambda x: argext.topk(x, 2**70), argext.SpecError, r"TopK-24: k=1180591620717411303424 is out"),
    (lambda x: argext.topk(x, 2, 2), argext.SpecError, r"TopK-24: axis=2 is out of range \[-2, 1\]"),
    (lambda x: argext.topk(x, 2, -3, opset=1), argext.SpecError, r"TopK-1: axis=-3 is out of range"),
    (lambda x: argext.topk(x, 2, None), argext.SpecTypeError, r"TopK-24: axis=None"),
    (lambda x: argext.topk(x, 2.0), argext.SpecTypeError, r"TopK-24: K must be an integer or an int64"),
    (lambda x: argext.topk(x, True), argext.SpecTypeError, r"TopK-24: k must be an integer, got True"),
    (lambda x: argext.topk(x, np.array([2], np.int32)), argext.SpecTypeError,
     r"TopK-24: K must be an integer or an int64 tensor of one element, got ndarray of dtype int32"),
    (lambda x: argext.topk(x, np.array([2, 3])), argext.SpecError,
     r"TopK-24: K must hold one value \(a 1-D tensor of one element\), got shape \(2,\)"),
    (lambda x: argext.topk(x, np.array([2]), opset=9), argext.SpecTypeError,
     r"TopK-1: k is an attribute of this version and must be an integer"),
    (lambda x: argext.topk(x, 2, largest=0, opset=10), argext.SpecError,
     r"TopK-10: largest=0 is not an attribute of this version \(it needs a newer opset\)"),
    (lambda x: argext.topk(x, 2, sorted=False, opset=1), argext.SpecError,
     r"TopK-1: sorted=False is not an attribute of this version"),
    (lambda x: argext.topk(x, 2, sorted=3), argext.SpecError,
     r"TopK-24: sorted=3 is out of range \(allowed: \(0, 1\)\)"),
    (lambda x: argext.topk(x.astype(np.int32), 2, opset=10), argext.SpecTypeError,
     r"TopK-10: X has dtype int32, which it does not support \(supported: float16, float32, float64\)"),
    (lambda x: argext.topk(x.astype(bool), 2), argext.SpecTypeError, r"TopK-24: X has dtype bool"),
    (lambda x: argext.topk(x, 2, opset=0), argext.SpecError, r"TopK: opset 0 is outside"),
    (lambda x: argext.topk(np.float32(1), 1), argext.SpecError, r"TopK-24: X is a 0-d array"),
    (lambda x: argext.topk([[None]], 1), TypeError, r"TopK-24: X must be a numeric array"),
])
def test_refusals_name_operator_version_and_value(call, error, text):
    x = np.arange(50, dtype=np.float32).reshape(5, 10)
    with pytest.raises(error, match=text):
        call(x)


@pytest.mark.skipif(BFLOAT16 is None, reason="ml_dtypes is not installed")
def test_bfloat16_only_from_version_24():
    x = np.arange(6, dtype=np.float32).astype(BFLOAT16)
    with pytest.raises(argext.SpecTypeError, match=r"TopK-11: X has dtype bfloat16"):
        argext.topk(x, 2, opset=23)
    assert argext.topk(x, 2, opset=24)[1].tolist() == [5, 4]


def test_schema_of_every_version():
    assert [argext.schema("TopK", o).since_version for o in (1, 9, 10, 11, 23, 24, 28)] == [1, 1, 10, 11, 11, 24, 24]
    assert set(argext.schema("TopK", 1).attributes) == {"axis", "k"}
    assert set(argext.schema("TopK", 11).attributes) == {"axis", "largest", "sorted"}
    assert argext.schema("TopK", 24).type_constraints["T"][0] == "tensor(bfloat16)"


# ---------------------------------------------------------------------------
# argext.numpy.top_k: NumPy 2.6's signature and results (NaN last in either mode).

def numpy_top_k(x, k, axis=-1, mode="largest", sorted=True):
    """numpy.top_k where NumPy has it, else the stable-sort reference with NaN
    last; ties are compared by the lower index (argext's rule) only where
    NumPy's own answer is not the reference."""
    return topk_reference(x, k, axis, mode == "largest", sorted, nan_last=True)


@pytest.mark.parametrize("dtype", ALL_DTYPES + [np.dtype(bool)], ids=ids(ALL_DTYPES) + ["bool"])
def test_numpy_top_k(dtype):
    rng = np.random.default_rng(8)
    x = sample(rng, (4, 33), dtype) if dtype != bool else rng.random((4, 33)) < 0.5
    for axis in (0, 1, -1):
        for k in (0, 1, 3, x.shape[axis]):
            for mode in ("largest", "smallest"):
                for ordered in (True, False):
                    values, indices = anp.top_k(x, k, axis=axis, mode=mode, sorted=ordered)
                    want = numpy_top_k(x, k, axis, mode, ordered)
                    assert values.dtype == x.dtype and indices.dtype == np.intp
                    np.testing.assert_array_equal(indices, want[1])
                    np.testing.assert_array_equal(bits(values), bits(want[0]))


@pytest.mark.skipif(not hasattr(np, "top_k"), reason="NumPy without top_k (NumPy < 2.6)")
def test_numpy_top_k_values_equal_numpys_own():
    rng = np.random.default_rng(9)
    for dtype in (np.float32, np.int32, np.float16):
        x = sample(rng, (6, 50), np.dtype(dtype), ties=False)
        for mode in ("largest", "smallest"):
            got, want = anp.top_k(x, 7, mode=mode), np.top_k(x, 7, mode=mode)
            np.testing.assert_array_equal(got[0], want[0])
            np.testing.assert_array_equal(np.take_along_axis(x, want[1], -1), want[0])


def test_numpy_top_k_errors_are_numpys():
    x = np.arange(10.0)
    with pytest.raises(ValueError, match="mode must be 'largest' or 'smallest'"):
        anp.top_k(x, 2, mode="max")
    with pytest.raises(np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError):
        anp.top_k(x, 2, axis=1)
    with pytest.raises(ValueError, match=r"k=11 is out of range \[0, 10\]"):
        anp.top_k(x, 11)
    with pytest.raises(TypeError):
        anp.top_k(x, 2.5)
    assert anp.top_k([3, 1, 2], 2)[1].tolist() == [0, 2]
    z = np.array([1 + 2j, 3 + 0j, 2 - 1j])  # a dtype argext does not rank: NumPy's own, where it has one
    if hasattr(np, "top_k"):
        np.testing.assert_array_equal(anp.top_k(z, 2)[0], np.top_k(z, 2)[0])
    else:
        with pytest.raises(TypeError, match="complex128"):
            anp.top_k(z, 2)


# ---------------------------------------------------------------------------
# The peers: the ONNX reference evaluator, ONNX Runtime, PyTorch.

def topk_model(opset, dtype, **attrs):
    """One TopK node at `opset`: k the attribute (TopK-1) or the input K."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    inputs = [helper.make_tensor_value_info("x", elem, None)]
    if opset >= 10:
        inputs.append(helper.make_tensor_value_info("K", TensorProto.INT64, [1]))
    node = helper.make_node("TopK", [i.name for i in inputs], ["values", "indices"], **attrs)
    outputs = [helper.make_tensor_value_info("values", elem, None),
               helper.make_tensor_value_info("indices", TensorProto.INT64, None)]
    opsets = [helper.make_opsetid("", opset)]
    try:
        ir_version = helper.find_min_ir_version_for(opsets)
    except ValueError:  # opsets without an ONNX release of their own
        ir_version = 3
    return helper.make_model(helper.make_graph([node], "g", inputs, outputs), opset_imports=opsets,
                             ir_version=max(ir_version, 3)), onnx


def feeds(x, k, opset):
    return {"x": x, **({"K": np.array([k], np.int64)} if opset >= 10 else {})}


def node_attributes(opset, k, axis, largest, ordered):
    attrs = {"axis": axis}
    if opset < 10:
        attrs["k"] = k
    if opset >= 11:
        attrs.update(largest=largest, sorted=ordered)
    return attrs


def peer_cases(opset):
    flags = (0, 1) if opset >= 11 else (1,)
    return [(axis, largest, ordered) for axis in (0, -1) for largest in flags for ordered in flags]


def peer_dtypes(opset):
    return [d for d in ALL_DTYPES if d.name in argext.schema("TopK", opset).dtypes]


@pytest.mark.parametrize("opset", list(OPSETS))
def test_reference_evaluator_with_argext_ops(opset):
    """argext.onnx.reference_ops() runs every TopK version, k the attribute or the input K."""
    from onnx.reference import ReferenceEvaluator

    import argext.onnx

    rng = np.random.default_rng(opset)
    for dtype in peer_dtypes(opset):
        x = sample(rng, (6, 9), dtype)
        for axis, largest, ordered in peer_cases(opset):
            model, _ = topk_model(opset, dtype, **node_attributes(opset, 4, axis, largest, ordered))
            got = ReferenceEvaluator(model, new_ops=argext.onnx.reference_ops()).run(None, feeds(x, 4, opset))
            want = topk_reference(x, 4, axis, largest, ordered)
            np.testing.assert_array_equal(got[1], want[1])
            np.testing.assert_array_equal(bits(got[0]), bits(want[0]))


@pytest.mark.parametrize("opset", list(OPSETS))
def test_stock_reference_evaluator(opset):
    """The stock evaluator agrees with argext where the spec decides: ties to the
    lower index, NaN first for largest=1. Its differences, pinned: it always
    sorts (sorted=0 here gives index order: compared as sets), and with
    largest=0 it ranks NaN last, where argext ranks it first. On bfloat16 with
    NaN its order is no ranking at all (ml_dtypes' sort takes NaN as unordered):
    bfloat16 is compared without NaN."""
    from onnx.reference import ReferenceEvaluator

    rng = np.random.default_rng(opset + 100)
    for dtype in peer_dtypes(opset):
        x = sample(rng, (6, 9), dtype, nan=dtype != BFLOAT16)
        for axis, largest, ordered in peer_cases(opset):
            model, _ = topk_model(opset, dtype, **node_attributes(opset, 4, axis, largest, ordered))
            theirs = ReferenceEvaluator(model).run(None, feeds(x, 4, opset))[1]
            ours = argext.topk(x, 4, axis, largest, ordered, opset=opset)[1]
            nan_last = not largest and is_float(dtype)
            np.testing.assert_array_equal(theirs, topk_reference(x, 4, axis, largest, 1, nan_last)[1])
            if not nan_last or not np.isnan(x.astype(np.float32)).any():
                np.testing.assert_array_equal(np.sort(theirs, axis) if not ordered else theirs,
                                              ours if ordered else np.sort(ours, axis))


def ort_run(model, x, k, opset):
    ort = pytest.importorskip("onnxruntime")
    try:
        session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception as e:  # noqa: BLE001 - ORT's own classes: a dtype or opset it lacks
        if "NOT_IMPLEMENTED" in str(e) or "opset" in str(e).lower():
            return None
        raise
    return session.run(None, feeds(x, k, opset))


@pytest.mark.parametrize("opset", [10, 11, 24])
def test_onnx_runtime(opset):
    """ORT agrees with argext on the k elements, ties to the lower index, and
    with sorted=1 on their order; NaN first for largest=1, last for largest=0
    (argext: first), and sorted=0 in an order of its own (argext: index order)."""
    rng = np.random.default_rng(opset + 200)
    ran = 0
    for dtype in peer_dtypes(opset):
        x = sample(rng, (40, 300), dtype)
        for axis, largest, ordered in peer_cases(opset):
            model, _ = topk_model(opset, dtype, **node_attributes(opset, 20, axis, largest, ordered))
            got = ort_run(model, x, 20, opset)
            if got is None:
                continue
            ran += 1
            nan_last = not largest and is_float(dtype)
            want = topk_reference(x, 20, axis, largest, 1, nan_last)[1]
            np.testing.assert_array_equal(got[1] if ordered else np.sort(got[1], axis),
                                          want if ordered else np.sort(want, axis))
            if not nan_last:
                np.testing.assert_array_equal(np.sort(got[1], axis),
                                              np.sort(argext.topk(x, 20, axis, largest, opset=opset)[1], axis))
    assert ran


def test_pytorch():
    """torch.topk has the same values, NaN first for largest=True; its indices
    break ties its own way (not the lower index: compared by the values they
    hold), and with largest=False it ranks NaN last (argext: first)."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(300)
    for dtype in ALL_DTYPES:
        for nan in (False, True):
            x = sample(rng, (30, 200), dtype, ties=False, nan=nan)
            t = torch.from_numpy(x.view(np.int16)).view(torch.bfloat16) if dtype == BFLOAT16 \
                else torch.from_numpy(x)
            for largest in ((True, False) if not nan else (True,)):
                try:
                    theirs = torch.topk(t, 10, dim=1, largest=largest)
                except (RuntimeError, NotImplementedError):  # a dtype without a CPU kernel
                    continue
                values, indices = argext.topk(x, 10, 1, int(largest))
                wide = np.float64 if dtype != BFLOAT16 else np.float32
                torch_values = theirs.values.float().numpy() if dtype == BFLOAT16 else theirs.values.numpy()
                np.testing.assert_array_equal(torch_values, values.astype(wide))
                np.testing.assert_array_equal(
                    np.take_along_axis(x, theirs.indices.numpy(), 1).astype(wide), values.astype(wide))
    y = np.array([2.0, 1.0, 2.0, np.nan, 2.0, 0.0], np.float32)
    assert argext.topk(y, 2, largest=0)[1].tolist() == [3, 5]
    assert torch.topk(torch.from_numpy(y), 2, largest=False).indices.tolist() == [5, 1]


def test_dlpack_input_returns_the_callers_type():
    torch = pytest.importorskip("torch")
    x = torch.tensor([[3.0, 1.0, 4.0, 1.0, 5.0]], dtype=torch.bfloat16)
    values, indices = argext.topk(x, 2)
    assert isinstance(values, torch.Tensor) and values.dtype == torch.bfloat16
    assert values.float().tolist() == [[5.0, 4.0]] and indices.tolist() == [[4, 2]]


def test_arrow_and_pandas_columns():
    pa = pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    chunks = [[3.0, 9.0, 1.0], [], [9.0, float("nan"), 4.0, 9.0], [2.0]]
    column = pa.chunked_array(chunks, pa.float64())
    flat = np.array([v for c in chunks for v in c])
    for k in (0, 1, 3, 5, 8):
        for largest in (0, 1):
            for ordered in (0, 1):
                got = argext.topk(column, k, largest=largest, sorted=ordered)
                want = topk_reference(flat, k, -1, largest, ordered)
                np.testing.assert_array_equal(got[1], want[1])
                np.testing.assert_array_equal(bits(got[0]), bits(want[0]))
    with pytest.raises(argext.SpecError, match=r"TopK-24: k=9 is out of range \[0, 8\]"):
        argext.topk(column, 9)
    series = pd.Series([1, 5, 5, 2], dtype="int32")
    assert argext.topk(series, 2)[1].tolist() == [1, 2]
    with pytest.raises(TypeError, match="missing value"):
        argext.topk(pa.array([1.0, None]), 1)


@functools.lru_cache(maxsize=None)  # loading them reads every node test: once per run
def onnx_node_tests():
    """ONNX's backend node test cases whose node is TopK (test_top_k, _smallest, _same_values, ...)."""
    import warnings

    onnx = pytest.importorskip("onnx")
    import onnx.backend.test.loader

    with warnings.catch_warnings():  # generating unrelated cases warns
        warnings.simplefilter("ignore")
        cases = onnx.backend.test.loader.load_model_tests(kind="node")
    return [c for c in cases if c.model is not None and [n.op_type for n in c.model.graph.node] == ["TopK"]]


def test_onnx_backend_node_tests():
    import onnx.helper
    import onnx.numpy_helper

    cases = onnx_node_tests()
    assert len(cases) >= 7, [c.name for c in cases]  # onnx 1.23: 7, uint64 and equal values among them
    for case in cases:
        [node] = case.model.graph.node
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        [opset] = [o.version for o in case.model.opset_import if o.domain in ("", "ai.onnx")]
        for inputs, outputs in case.data_sets:
            x, k = [np.asarray(v) if isinstance(v, np.ndarray) else onnx.numpy_helper.to_array(v)
                    for v in inputs]
            values, indices = argext.topk(x, k, **attrs, opset=opset)
            want_values, want_indices = [np.asarray(v) if isinstance(v, np.ndarray) else
                                         onnx.numpy_helper.to_array(v) for v in outputs]
            np.testing.assert_array_equal(indices, want_indices, err_msg=case.name)
            np.testing.assert_array_equal(values, want_values, err_msg=case.name)


REGS_K = 8  # the register kernels' largest k (csrc/kernels/topk.h); above it the column kernel


def _regs_inputs(dtype):
    """(input, axis, ks) for the register kernel: column counts below, at and
    around a vector (odd ones leave a tail written by an overlapping last
    vector), starts at offsets within a 64-byte line (aligned and unaligned
    spans), columns past one span (16 KiB of a row), kept dimensions merged
    into the columns, rows within an 8-bit row tag's chunk, ties, NaN, -0.0
    and +0.0; for 64-bit integers their extremes, which a double cannot tell
    apart."""
    rng = np.random.default_rng(int(dtype.num) + 60)
    rows, every_k = 19, range(1, REGS_K + 2)
    for cols in (1, 7, 31, 33, 64, 67, 129):
        yield sample(rng, (rows, cols), dtype), 0, every_k
    yield sample(rng, (2, rows, 5, 301), dtype), 1, every_k
    base = sample(rng, (1, rows, 4100 * 8 // dtype.itemsize + 77), dtype)
    w = dtype.itemsize
    for start in sorted({0, 1, 16 // w, 32 // w + 1, 64 // w}):
        yield base[:, :, start:], 1, (1, 2, 3, 5, REGS_K, REGS_K + 1)
    if dtype.kind in "iu" and dtype.itemsize == 8:
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, size=(rows, 70), dtype=dtype, endpoint=True)
        x[::3] = info.max
        x[1::4] = info.max - 1
        x[2::5] = info.min
        x[3::6] = info.min + 1
        yield x, 0, every_k


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_channel_register_kernel_at_every_level(isa, dtype):
    """The channel axis with k from 1 to the register kernels' largest and one
    above (the column kernel), both orders, sorted and by row, at every ISA
    level, against the stable-sort reference; byte-swapped input (the column
    kernel) alike."""
    for x, axis, ks in _regs_inputs(dtype):
        for k in ks:
            check(x, k, axis, largest=k % 2, sorted=k // 2 % 2)
            check(x, k, axis, largest=1 - k % 2, sorted=1 - k // 2 % 2)
    if dtype != BFLOAT16 and dtype.itemsize > 1:
        x = next(_regs_inputs(dtype))[0][:, :50].astype(dtype.newbyteorder("S"))
        for k in (1, 5, REGS_K, REGS_K + 1):
            check(x, k, 0)
            check(x, k, 0, largest=0, sorted=0)


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.int8), np.dtype(np.uint64)]
                         + ([BFLOAT16] if BFLOAT16 is not None else []), ids=str)
def test_channel_register_kernel_streams_and_writes_out(isa, dtype):
    """Outputs of 8 MiB and more (written by streaming stores) and outputs
    given by out=: contiguous at any offset, strided (the column kernel)."""
    rng = np.random.default_rng(int(dtype.num) + 70)
    x = sample(rng, (REGS_K + 1, (8 << 20) // (REGS_K * (dtype.itemsize + 8)) + 33), dtype)
    for k in (3, REGS_K):
        check(x, k, 0)
        check(x[:, 5:], k, 0, largest=0, sorted=0)
    y = x[:, :1000]
    for k in (1, 6, REGS_K + 1):
        want_values, want_indices = topk_reference(y, k, 0)
        for shift in (0, 1, 3):
            values = np.zeros((k, 1000 + shift), y.dtype)[:, shift:]
            indices = np.zeros(k * 1000 + shift, np.int64)[shift:].reshape(k, 1000)
            argext.topk(y, k, 0, out=(values, indices))
            np.testing.assert_array_equal(indices, want_indices)
            np.testing.assert_array_equal(bits(values), bits(want_values))
        values = np.zeros((k, 2000), y.dtype)[:, ::2]
        indices = np.zeros((1000, k), np.int64).T
        argext.topk(y, k, 0, out=(values, indices))
        np.testing.assert_array_equal(indices, want_indices)
        np.testing.assert_array_equal(bits(values), bits(want_values))
