"""Threads: results at 1, 2, 3 and 7 threads equal NumPy's exactly for every dtype, layout,
NaN and tie pattern; the thread count's default, controls and threadpoolctl; a fork after
the pool ran; small calls stay on the calling thread."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import argext
from reference import ALL_DTYPES, BFLOAT16, arg_reference, hardmax_reference, is_float, multi_axis_reference

THREAD_COUNTS = [1, 2, 3, 7]
# With conftest's parts of 1 MiB the engine splits from 2 MiB of input, at most one part per
# MiB: 8 MiB inputs split into as many parts as there are threads, up to 7.
SPLIT_BYTES = 8 << 20


@pytest.fixture
def threads():
    """Yields a setter of the thread count; restores the default afterwards."""
    yield argext.set_num_threads
    argext.set_num_threads(None)


def planted(dtype, shape, rng, pattern):
    """An array of `shape` whose extremes sit where the split's merge must decide:
    "ties": the maximum twice and the minimum twice, in different parts (near the
    middle, the thirds, the ends); "nan": NaN twice (integers: the dtype's maximum and
    minimum twice each); "zeros": -0.0 everywhere but two +0.0."""
    n = int(np.prod(shape))
    low = 4 if dtype.kind == "u" else 0
    x = (rng.integers(-3, 3, n) + low).astype(np.float32).astype(dtype)
    spots = sorted({0, n // 7, n // 3, n // 2 - 1, n // 2, 2 * n // 3, n - 2, n - 1})
    top, bottom = np.split(rng.choice(spots, 4, replace=False), 2)
    if pattern == "ties":
        x[top], x[bottom] = 9, 0 if low else -9
    elif pattern == "nan" and is_float(dtype):
        x[top], x[bottom] = np.nan, -9
    elif pattern == "nan":
        x[top], x[bottom] = np.iinfo(dtype).max, np.iinfo(dtype).min
    elif pattern == "zeros":
        x[:] = -0.0
        x[top] = 0.0
    return x.reshape(shape)


def layouts(dtype, rng, pattern):
    """(label, array, axis) over 8 MiB inputs: one long row (pieces of a row), rows
    (row ranges), an outer axis (column ranges), a strided reversed view, and the
    channel-like (outer, axis, inner) shape."""
    n = SPLIT_BYTES // dtype.itemsize
    flat = planted(dtype, (n,), rng, pattern)
    rows = planted(dtype, (n // 4096, 4096), rng, pattern)
    wide = planted(dtype, (4, n // 4), rng, pattern)
    cols = planted(dtype, (2048, n // 2048), rng, pattern)
    chan = planted(dtype, (4, 8, n // 32), rng, pattern)
    big = planted(dtype, (2 * n,), rng, pattern)
    return [("1-D", flat, 0), ("rows", rows, 1), ("few long rows", wide, 1),
            ("axis 0", cols, 0), ("channel", chan, 1), ("strided reversed", big[::-2], 0)]


@pytest.mark.parametrize("pattern", ["ties", "nan", "zeros"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_arg_results_equal_numpy_at_every_thread_count(threads, dtype, pattern):
    if pattern == "zeros" and not is_float(dtype):
        pytest.skip("signed zeros are a float pattern")
    rng = np.random.default_rng([7, ALL_DTYPES.index(dtype), len(pattern)])
    for label, x, axis in layouts(dtype, rng, pattern):
        for op in ("max", "min"):
            fn = argext.argmax if op == "max" else argext.argmin
            for last in (0, 1):
                want = arg_reference(x, axis=axis, keepdims=0, select_last_index=last, op=op)
                for n in THREAD_COUNTS:
                    threads(n)
                    got = fn(x, axis=axis, keepdims=0, select_last_index=last)
                    assert np.array_equal(got, want), (label, op, last, n)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_multi_axis_results_equal_numpy_at_every_thread_count(threads, dtype):
    rng = np.random.default_rng([8, ALL_DTYPES.index(dtype)])
    side = round((SPLIT_BYTES // dtype.itemsize) ** (1 / 3))
    cube = planted(dtype, (side, side, side), rng, "nan")
    cases = [(cube, [0, 2]), (cube, [1, 2]), (cube, [0, 1, 2]), (cube[:, ::-1], [2, 0])]
    for x, axes in cases:
        for op, fn in (("max", argext.reduce_argmax), ("min", argext.reduce_argmin)):
            for direction in ("increasing", "decreasing"):
                want = multi_axis_reference(x, axes, last=direction == "decreasing", op=op)
                for n in THREAD_COUNTS:
                    threads(n)
                    got = fn(x, axes, axis_direction=direction)
                    assert np.array_equal(got, want), (axes, op, direction, n)


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)]
                         + ([BFLOAT16] if BFLOAT16 is not None else []), ids=str)
def test_hardmax_equals_numpy_at_every_thread_count(threads, dtype):
    rng = np.random.default_rng([9, dtype.itemsize])
    n = SPLIT_BYTES // dtype.itemsize
    x = planted(dtype, (n // 1000, 1000), rng, "nan")
    long_rows = planted(dtype, (3, n // 3), rng, "ties")
    cases = [(x, -1, 13), (x.T, 0, 13), (long_rows, 1, 13)]
    if dtype != BFLOAT16:  # bfloat16 from version 13
        cases.append((x, 1, 11))
    for v, axis, opset in cases:
        want = hardmax_reference(v, axis, coerce_2d=opset < 13)
        for n_threads in THREAD_COUNTS:
            threads(n_threads)
            got = argext.hardmax(v, axis=axis, opset=opset)
            np.testing.assert_array_equal(got, want)
            out = np.full_like(v, 5)
            argext.hardmax(v, axis=axis, opset=opset, out=out)
            np.testing.assert_array_equal(out, want)


def test_set_num_threads_checks_its_argument(threads):
    threads(3)
    assert argext.get_num_threads() == 3
    for bad in (0, -1, 1025):
        with pytest.raises(ValueError, match=r"set_num_threads: n must be in \[1, 1024\]"):
            threads(bad)
    for bad in ("2", 2.0, True):
        with pytest.raises(TypeError, match="set_num_threads"):
            threads(bad)
    assert argext.get_num_threads() == 3


def run_python(code, env=None, **kwargs):
    """Runs code in a fresh `python -I`; returns its stdout."""
    full_env = {k: v for k, v in os.environ.items() if k != "ARGEXT_NUM_THREADS"}
    full_env.update(env or {})
    p = subprocess.run([sys.executable, "-I", "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, env=full_env, timeout=120, **kwargs)
    assert p.returncode == 0, p.stderr
    return p.stdout


def cgroup_cpus():
    """The cgroup v2 or v1 CPU quota of this process as whole CPUs, or None."""
    try:
        lines = open("/proc/self/cgroup").read().splitlines()
    except OSError:
        return None
    best = None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controllers and "cpu" not in controllers.split(","):
            continue
        parts = path.strip("/").split("/") if path.strip("/") else []
        for i in range(len(parts), -1, -1):
            sub = "/".join(parts[:i])
            if not controllers:
                files = [(f"/sys/fs/cgroup/{sub}/cpu.max", None)]
            else:
                files = [(f"/sys/fs/cgroup/{m}/{sub}/cpu.cfs_quota_us", f"/sys/fs/cgroup/{m}/{sub}/cpu.cfs_period_us")
                         for m in ("cpu,cpuacct", "cpu")]
            for quota_file, period_file in files:
                try:
                    if period_file is None:
                        quota, period = open(quota_file).read().split()
                    else:
                        quota, period = open(quota_file).read(), open(period_file).read()
                    if quota.strip() in ("max", "-1"):
                        continue
                    cpus = -(-int(quota) // int(period))
                    best = cpus if best is None else min(best, cpus)
                    break
                except (OSError, ValueError):
                    continue
    return best


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="no affinity mask on this OS")
def test_default_is_the_cpus_this_process_may_use():
    want = len(os.sched_getaffinity(0))
    quota = cgroup_cpus()
    if quota is not None:
        want = min(want, quota)
    assert run_python("import argext; print(argext.get_num_threads())").split() == [str(want)]
    # One CPU in the affinity mask (as `taskset -c 0` sets it): one thread.
    one_cpu = sorted(os.sched_getaffinity(0))[:1]
    out = run_python("import argext; print(argext.get_num_threads())",
                     preexec_fn=lambda: os.sched_setaffinity(0, one_cpu))
    assert out.split() == ["1"]


@pytest.mark.parametrize("value, want", [("3", "3"), ("1", "1"), ("0", None), ("x", None), ("", None)])
def test_environment_variable(value, want):
    default = run_python("import argext; print(argext.get_num_threads())").strip()
    out = run_python("""
        import argext
        print(argext.get_num_threads())
        argext.set_num_threads(5)
        argext.set_num_threads(None)
        print(argext.get_num_threads())
    """, env={"ARGEXT_NUM_THREADS": value})
    assert out.split() == [want or default] * 2


def os_threads():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("Threads:"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts threads in /proc")
def test_small_calls_and_one_thread_start_no_pool():
    out = run_python("""
        import numpy as np, argext
        def threads():
            with open("/proc/self/status") as f:
                return next(int(l.split()[1]) for l in f if l.startswith("Threads:"))
        start = threads()
        small = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
        for _ in range(100):
            argext.argmax(small, axis=1)
            argext.hardmax(small)
        print(threads() - start)
        big = np.zeros(4 << 20, np.float32)
        argext.set_num_threads(1)
        argext.argmax(big)
        argext.hardmax(big.reshape(-1, 1024))
        print(threads() - start)
        argext.set_num_threads(3)
        argext.argmax(big)
        print(threads() - start)
    """)
    assert out.split() == ["0", "0", "2"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this OS")
def test_fork_after_the_pool_ran():
    """The child of a fork has none of the parent's workers: its calls still split and
    finish (a stale pool would hang, hence the timeout), and the parent's pool still works."""
    out = run_python("""
        import os, warnings
        import numpy as np, argext
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads, 3.12+
        argext.set_num_threads(2)
        x = np.random.default_rng(0).standard_normal(8 << 20).astype(np.float32)
        x[5_000_000] = np.nan
        want = int(np.argmax(x))
        assert argext.argmax(x, keepdims=0) == want
        pid = os.fork()
        if pid == 0:
            ok = all(argext.argmax(x, keepdims=0) == want for _ in range(3))
            ok = ok and argext.hardmax(x.reshape(-1, 1024)).sum() == x.size // 1024
            os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status), argext.argmax(x, keepdims=0) == want)
    """)
    assert out.split() == ["0", "True"]


def test_threadpoolctl_limits_and_lists_argext():
    pytest.importorskip("threadpoolctl")
    for order in ("import argext, threadpoolctl", "import threadpoolctl, argext"):
        out = run_python(order + "\n" + textwrap.dedent("""
            argext.set_num_threads(3)
            info = [i for i in threadpoolctl.threadpool_info() if i["internal_api"] == "argext"]
            print(len(info), info[0]["num_threads"], info[0]["version"] == argext.__version__)
            with threadpoolctl.threadpool_limits(1):
                print(argext.get_num_threads())
            with threadpoolctl.threadpool_limits(limits=2, user_api="argext"):
                print(argext.get_num_threads())
            print(argext.get_num_threads())
        """))
        assert out.split() == ["1", "3", "True", "1", "2", "3"], order


def test_import_argext_does_not_import_threadpoolctl():
    out = run_python("""
        import sys, argext
        print("threadpoolctl" in sys.modules)
    """)
    assert out.split() == ["False"]


def test_many_python_threads_at_once_on_large_inputs(threads):
    """One call owns the pool, the others run their parts on their own threads: every
    answer is NumPy's."""
    import threading

    threads(3)
    rng = np.random.default_rng(11)
    x = planted(np.dtype(np.float32), (SPLIT_BYTES // 4,), rng, "nan")
    rows = planted(np.dtype(np.float32), (SPLIT_BYTES // 4 // 1000, 1000), rng, "ties")
    want = (arg_reference(x, keepdims=0, select_last_index=1), arg_reference(rows, axis=1, keepdims=0),
            hardmax_reference(rows, 1, coerce_2d=False))
    wrong = []

    def work():
        for _ in range(4):
            got = (argext.argmax(x, keepdims=0, select_last_index=1), argext.argmax(rows, axis=1, keepdims=0),
                   argext.hardmax(rows))
            wrong.extend(i for i in range(3) if not np.array_equal(got[i], want[i]))

    workers = [threading.Thread(target=work) for _ in range(6)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert wrong == []
