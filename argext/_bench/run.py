"""Timing: the contenders of a case alternately, one run each per round, and
each one's median over the rounds, so that drifting load hits all alike."""

import random
import statistics
import time

import numpy as np

from .cases import CASES, data, numpy_dtype, same_result, same_topk
from .contenders import Blank
from .probe import RUN_BYTES, calls_per_run

# Calls per timed run of a per-call case.
PER_CALL_CALLS = 2000


def _time(fn, calls):
    """Wall-clock seconds per call, after one call untimed: the run before may
    have been another contender's, which leaves the machine slow for a while
    (after JAX's bfloat16 `top_k` on Zen 4, argext's TopK over (32, 128256)
    bfloat16 logits took 317 us a call over a run of 8 timed at once, 235 us
    after a call untimed; its argmax 115 and 105 us)."""
    fn()
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t) / calls


def alternate(calls, repeats, progress, calls_per_run_):
    """{name: median seconds per call}: the calls in turn, one run each per
    round, in a new order each round drawn from a fixed seed. Not a rotation:
    that keeps each one after the same one every round, and a contender that
    leaves the machine slower (JAX, on Zen 4: the next 1 GiB scan 1.2-1.4x
    slower) then slows the same victim in every round."""
    names = list(calls)
    times = {k: [] for k in names}
    order = random.Random(0)
    for r in range(repeats):
        for k in order.sample(names, len(names)):
            times[k].append(_time(calls[k], calls_per_run_))
        progress.step(f"round {r + 1}/{repeats}")
    return {k: statistics.median(t) for k, t in times.items()}


def _prepare(case, x, contenders):
    """({name: call}, {name: result}, {name: reason}) of the contenders that
    have the case's operator; each call is run once here (the check, which also
    compiles JAX's and numbagg's code before the timing)."""
    calls, results, blank = {}, {}, {}
    for c in contenders:
        method = getattr(c, case.op, None)
        if method is None or not c.applies(case):
            continue
        try:
            call = method(case, x)
            result = call()
            # TopK's (values, indices) pair converted one array at a time.
            results[c.name] = tuple(map(c.to_numpy, result)) if isinstance(result, tuple) else \
                c.to_numpy(result)
        except Blank as why:
            blank[c.name] = str(why)
            continue
        calls[c.name] = call
    return calls, results, blank


def run_case(case, dtype, shape, contenders, repeats, rng, probe, progress, run_bytes):
    x = data(case, dtype, shape, rng)
    calls, results, blank = _prepare(case, x, contenders)
    want = results["numpy"]
    unchecked = {c.name for c in contenders if not c.checked}
    for name in list(calls):
        if name in unchecked:
            continue
        if case.op == "topk" and same_topk(results[name], want, x, case.axis):
            continue
        if same_result(results[name], want):
            continue
        if name.startswith("argext"):
            raise AssertionError(f"bench {case.name} {dtype} {shape}: {name} disagrees with NumPy")
        del calls[name]
        blank[name] = "disagrees with NumPy"
    n = PER_CALL_CALLS * run_bytes // RUN_BYTES if case.per_call else calls_per_run(x.nbytes, run_bytes)
    median = alternate(calls, repeats, progress, n)
    row = {"case": case.name, "op": case.op, "dtype": dtype, "shape": list(x.shape),
           "axis": case.axis, "select_last_index": case.select_last_index, "bytes": x.nbytes,
           "calls_per_run": n, "per_call": case.per_call, "seconds": median,
           "ratio": {k: median["numpy"] / t for k, t in median.items()}, "blank": blank,
           "lacking": [c.name for c in contenders if not hasattr(c, case.op)]}
    if not case.per_call:
        row["gb_per_s"] = {k: x.nbytes / t / 1e9 for k, t in median.items()}
        threads = {c.name: c.threads for c in contenders}
        row["probe_gb_per_s"] = {str(t): probe(x.nbytes, t) / 1e9 for t in set(threads.values())}
        row["fraction_of_probe"] = {k: row["gb_per_s"][k] / row["probe_gb_per_s"][str(threads[k])]
                                    for k in median}
    return row


def run_dask_case(dtype, shape, repeats, rng, cluster, progress):
    """argext.dask.argmax against da.argmax on one persisted dask array, on the
    same cluster; wall time (the work runs in the workers)."""
    import dask.array as da
    import distributed

    import argext.dask

    case = CASES["dask"]
    seed = int(rng.integers(2**32))
    with distributed.Client(cluster) as client:
        # Generated in the workers, 4x4 chunks, and kept there.
        d = da.zeros(shape, np.int8, chunks=(max(1, shape[0] // 4), max(1, shape[1] // 4))).map_blocks(
            lambda b, block_id=None: data(case, dtype, b.shape, np.random.default_rng([seed, *block_id])),
            dtype=numpy_dtype(dtype))
        d = client.persist(d)
        distributed.wait(d)
        calls = {"argext": lambda: argext.dask.argmax(d, axis=case.axis, keepdims=0).compute(),
                 "dask": lambda: da.argmax(d, axis=case.axis).compute()}
        if not np.array_equal(calls["argext"](), calls["dask"]()):
            raise AssertionError(f"bench dask {dtype}: argext.dask disagrees with da.argmax")
        median = alternate(calls, repeats, progress, 1)
    return {"case": "dask", "op": case.op, "dtype": dtype, "shape": list(shape), "axis": case.axis,
            "select_last_index": 0, "bytes": d.nbytes, "calls_per_run": 1, "seconds": median,
            "gb_per_s": {k: d.nbytes / t / 1e9 for k, t in median.items()},
            "ratio": {k: median["dask"] / t for k, t in median.items()}, "blank": {}}
