"""Threads: 8 threads calling every function at once on shared inputs get
exactly the sequential results, and the kernels run with the GIL released."""

import sys
import threading
import time

import numpy as np
import pytest

import argext
from argext import SpecError
from reference import BFLOAT16

THREADS = 8
ROUNDS = 25


def shared_calls():
    """(label, call) pairs over inputs that every thread shares."""
    rng = np.random.default_rng(8)
    f32 = rng.integers(-5, 5, (96, 257)).astype(np.float32)
    f32[rng.random(f32.shape) < 0.01] = np.nan
    f64 = rng.standard_normal((7, 33, 40))
    i64 = rng.integers(-(2**62), 2**62, (40, 50, 3))
    u8 = rng.integers(0, 4, (300, 31), dtype=np.uint8)
    swapped = f64.astype(">f8")
    f16 = f32.astype(np.float16)[::-1, ::3]
    calls = [
        ("argmax f32 axis 1", lambda: argext.argmax(f32, axis=1)),
        ("argmax f32 axis 0 last", lambda: argext.argmax(f32, axis=0, keepdims=0, select_last_index=1)),
        ("argmin f16 strided", lambda: argext.argmin(f16, axis=-1, opset=11)),
        ("argmin i64 axis 1", lambda: argext.argmin(i64, axis=1, select_last_index=1)),
        ("argmax u8 axis 0", lambda: argext.argmax(u8, axis=0, keepdims=0)),
        ("argmax swapped", lambda: argext.argmax(swapped, axis=2)),
        ("hardmax f32", lambda: argext.hardmax(f32)),
        ("hardmax-11 f64", lambda: argext.hardmax(f64, axis=1, opset=11)),
        ("hardmax f16 axis 0", lambda: argext.hardmax(f16, axis=0)),
        ("reduce_argmax i64", lambda: argext.reduce_argmax(i64, [2, 0])),
        ("reduce_argmin f64", lambda: argext.reduce_argmin(f64, [1, 2], axis_direction="decreasing",
                                                           output_dtype="uint32")),
        ("reduce_argmax u8", lambda: argext.reduce_argmax(u8, [0, 1], output_dtype="int32")),
        ("schema", lambda: argext.schema("ArgMin", 12).since_version),
        ("topk f32", lambda: argext.topk(f32, 5)[1]),
        ("topk i64 axis 0", lambda: argext.topk(i64, 7, 0, 0, 0)[0]),
        ("bad k", lambda: argext.topk(u8, 32)),
        ("bad axis", lambda: argext.argmax(f32, axis=5)),
        ("bad axes", lambda: argext.reduce_argmin(i64, [1, 1])),
        ("bad dtype", lambda: argext.hardmax(u8)),
    ]
    if BFLOAT16 is not None:
        bf16 = f32.astype(BFLOAT16)
        calls.append(("argmax bf16", lambda: argext.argmax(bf16, axis=1, select_last_index=1)))
        calls.append(("reduce_argmin bf16", lambda: argext.reduce_argmin(bf16, [0])))
    return calls


def outcome(call):
    """A call's result, or the type and message of what it raised."""
    try:
        return call()
    except (ValueError, TypeError) as e:
        return (type(e), str(e))


def same(a, b):
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
    return a == b


@pytest.fixture
def fast_switching():
    """Switch threads every 10 us, so that calls interleave as much as they can."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(interval)


def test_threads_get_the_sequential_results(fast_switching):
    calls = shared_calls()
    expected = [outcome(call) for _, call in calls]
    assert any(isinstance(e, tuple) for e in expected) and any(isinstance(e, np.ndarray) for e in expected)
    start = threading.Barrier(THREADS)
    mismatches, crashes, done = [], [], []

    def worker(t):
        try:
            start.wait()
            for r in range(ROUNDS):
                for k in range(len(calls)):
                    j = (k + t + r) % len(calls)  # threads run different calls at the same moment
                    if not same(outcome(calls[j][1]), expected[j]):
                        mismatches.append((t, r, calls[j][0]))
            done.append(t)
        except BaseException as e:  # noqa: BLE001 - reported below
            crashes.append((t, repr(e)))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not crashes
    assert not mismatches, mismatches[:10]
    assert sorted(done) == list(range(THREADS))


def test_threads_with_their_own_out_arrays(fast_switching):
    x = np.random.default_rng(3).integers(0, 50, (64, 129)).astype(np.float64)
    expected = [argext.argmax(x, axis=1), argext.hardmax(x), argext.reduce_argmin(x, [0])]
    results = {}

    def worker(t):
        outs = [np.empty_like(e) for e in expected]
        for _ in range(ROUNDS * 4):
            argext.argmax(x, axis=1, out=outs[0])
            argext.hardmax(x, out=outs[1])
            argext.reduce_argmin(x, [0], out=outs[2])
        results[t] = outs

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(results) == list(range(THREADS))
    for outs in results.values():
        for got, want in zip(outs, expected):
            np.testing.assert_array_equal(got, want)


# The GIL: while the main thread is inside one long call, a second Python
# thread counts. With the GIL held through the call the counter could not move
# at all (the switch interval is raised to 10 s so that no forced switch
# happens in the Python part of the call); with it released the counter runs.
# No timing ratios: the test asks for some progress during one of the calls it makes in
# a few seconds (on a loaded machine the counter may get no core during most calls).

PROGRESS = 20  # counter steps during one call
TRY_SECONDS = 5.0


def counter_steps_during(call):
    """(steps a second Python thread counts while call() runs, call's result)."""
    count = 0
    stop = False

    def counter():
        nonlocal count
        while not stop:
            count += 1
            time.sleep(0)  # gives the GIL back at once, so the main thread never waits for it

    th = threading.Thread(target=counter)
    th.start()
    try:
        while count == 0:
            time.sleep(0.001)
        before = count
        result = call()
        return count - before, result
    finally:
        stop = True
        th.join()


@pytest.fixture
def no_forced_switches():
    interval = sys.getswitchinterval()
    sys.setswitchinterval(10.0)
    yield
    sys.setswitchinterval(interval)


@pytest.mark.parametrize("name", ["argmax", "argmin", "hardmax", "reduce_argmax", "reduce_argmin"])
def test_gil_is_released_during_the_kernel(name, no_forced_switches):
    n = 2**24
    data = np.ones(n, np.float32)  # written: real pages, not the zero page
    data[n - 7] = 2.0
    data2d = data.reshape(-1, 256)
    call = {
        # every third element, reversed: a strided axis, scanned element by element (a
        # reversed contiguous one now runs the SIMD kernels, too fast to count steps in)
        "argmax": lambda: argext.argmax(data[::-3], select_last_index=1),
        "argmin": lambda: argext.argmin(data2d, axis=0),
        "hardmax": lambda: argext.hardmax(data2d.T, axis=0),
        "reduce_argmax": lambda: argext.reduce_argmax(data2d, [0, 1], axis_direction="decreasing"),
        "reduce_argmin": lambda: argext.reduce_argmin(data2d.T, [1]),
    }[name]
    progress, result = [], None
    threads = argext.get_num_threads()
    argext.set_num_threads(1)  # a core left for the counter: this is about the GIL, not the pool
    try:
        start = time.monotonic()
        while not progress or time.monotonic() - start < TRY_SECONDS:
            steps, result = counter_steps_during(call)
            progress.append(steps)
            if steps >= PROGRESS:
                break
    finally:
        argext.set_num_threads(threads)
    assert max(progress) >= PROGRESS, progress
    # and the call that overlapped computed the right thing
    expected = {
        "argmax": [2], "argmin": [0] * 256, "reduce_argmax": [[n - 7]], "reduce_argmin": [[0]] * 256,
    }
    if name == "hardmax":
        assert result.sum(axis=0).tolist() == [1.0] * (n // 256) and result[(n - 7) % 256, (n - 7) // 256] == 1
    else:
        assert np.asarray(result).ravel().tolist() == np.ravel(expected[name]).tolist()


def test_gil_counter_does_not_move_without_release(no_forced_switches):
    """The control: a long pure-C NumPy call that keeps the GIL (np.sort of an
    object array compares Python objects, so it must hold it) lets the counter
    make no progress, so the test above measures the GIL and not the clock."""
    data = np.array([str(i) for i in range(200_000)], dtype=object)
    progress, _ = counter_steps_during(lambda: np.sort(data))
    assert progress < PROGRESS, progress


def test_errors_in_threads_are_the_documented_ones():
    x = np.ones((4, 5), np.float32)
    errors = []

    def worker():
        for _ in range(200):
            for call, exc in ((lambda: argext.argmax(x, axis=3), SpecError),
                              (lambda: argext.reduce_argmax(x, [0], output_dtype="int8"), TypeError),
                              (lambda: argext.argmax(x, out=np.empty(3)), TypeError)):
                try:
                    call()
                except exc:
                    continue
                errors.append("no error")

    threads = [threading.Thread(target=worker) for _ in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
