"""python -m argext bench: argext against NumPy (and ONNX Runtime, PyTorch
when importable), side by side in one process.

Every case times its contenders alternately, one run each per round, and
reports each one's median over the rounds, so that drifting machine load
affects them alike. Inputs are about 64 MiB (--size: smaller ones stay in
cache and are called repeatedly per run) and hold no extreme value of their
dtype (NumPy stops at the first one, which would fake its speed).
--isa LEVEL runs argext's kernels of that level against NumPy restricted to
the same level (NPY_DISABLE_CPU_FEATURES, set for a fresh interpreter).
A read-bandwidth probe, measured in the same run, puts GB/s in context.
Times are wall-clock (time.perf_counter): with --threads N, argext (and
ONNX Runtime and PyTorch) may use N threads; NumPy uses one.
"""

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

import numpy as np

import argext

MIB = 1 << 20
SIZE = 64 * MIB
ALL_DTYPES = ["float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
              "uint8", "uint16", "uint32", "uint64"]


def _dtype(name):
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def _data(name, shape, rng):
    """Random data of dtype `name` in `shape`, without the dtype's extremes."""
    dt = _dtype(name)
    if dt.kind == "f" or name == "bfloat16":
        return rng.standard_normal(shape, dtype=np.float32).astype(dt)
    info = np.iinfo(dt)
    lo, hi = max(info.min + 1, -(2**40)), min(info.max - 1, 2**40)
    return rng.integers(lo, hi, size=shape, endpoint=True, dtype=np.int64).astype(dt)


def _importable(module):
    try:
        __import__(module)
    except ImportError:
        return False
    return True


# Optional modules the benchmark uses: what each is needed for.
OPTIONAL = {"ml_dtypes": "the bfloat16 dtype", "onnx": "the onnxruntime column",
            "onnxruntime": "the onnxruntime column", "torch": "the torch column",
            "dask": "the dask case", "distributed": "the dask case",
            "bottleneck": "the bottleneck column of the nan cases"}


def _rows(name, width):
    return SIZE // _dtype(name).itemsize // width


# case -> (shape for a dtype, axis, select_last_index, default dtypes, description)
CASES = {
    "1d": (lambda d: (SIZE // _dtype(d).itemsize,), 0, 0, ALL_DTYPES, "contiguous 1-D"),
    "last": (lambda d: (_rows(d, 4096), 4096), -1, 0, ALL_DTYPES, "last axis, rows of 4096"),
    "last_index": (lambda d: (SIZE // _dtype(d).itemsize,), 0, 1, ["float32", "int32"],
                   "select_last_index=1 (NumPy: flip)"),
    "axis0": (lambda d: (4096, SIZE // _dtype(d).itemsize // 4096), 0, 0,
              ["float32", "float16", "int8", "float64"], "axis 0 of a 4096-row matrix"),
    "channel": (lambda d: (8, 21, 256, 256), 1, 0, ["float32", "float16"],
                "segmentation channel argmax"),
    "short_rows": (lambda d: (SIZE // _dtype(d).itemsize // 16, 16), -1, 0, ["float32", "int8"],
                   "rows of 16 along the last axis"),
    "hardmax": (lambda d: (_rows(d, 1000), 1000), -1, 0, ["float32"],
                "Hardmax, rows of 1000 (NumPy: argmax + put_along_axis)"),
    "small": (lambda d: (2, 3, 4), 0, 0, ["float32"], "per-call cost on a (2, 3, 4) array"),
    "reduce02": (lambda d: (256, 256, 256), (0, 2), 0, ["float32"],
                 "reduce_argmax over axes (0, 2) of 256^3 (NumPy: moveaxis, reshape)"),
    "nan_1d": (lambda d: (SIZE // _dtype(d).itemsize,), None, 0, ["float32", "float64", "float16"],
               "nanargmax of the flattened array, 1% NaN (NumPy: np.nanargmax)"),
    "nan_last": (lambda d: (_rows(d, 4096), 4096), -1, 0, ["float32", "float64"],
                 "nanargmax along rows of 4096, 1% NaN (NumPy: np.nanargmax)"),
    "swapped_1d": (lambda d: (SIZE // _dtype(d).itemsize,), 0, 0, ["float32", "float64", "float16"],
                   "non-native byte order, 1-D (native: argext on the native-order copy)"),
    "swapped_last": (lambda d: (_rows(d, 4096), 4096), -1, 0, ["float32"],
                     "non-native byte order, rows of 4096"),
    "swapped_axis0": (lambda d: (4096, SIZE // _dtype(d).itemsize // 4096), 0, 0, ["float32"],
                      "non-native byte order, axis 0 of a 4096-row matrix"),
    "dask": (lambda d: (4096, SIZE // _dtype(d).itemsize // 4096), 0, 0, ["float32", "float16"],
             "argext.dask.argmax vs da.argmax, axis 0 over 4x4 chunks on a 2-worker LocalCluster"),
}

# Threads argext, ONNX Runtime and PyTorch may use (--threads).
THREADS = 1

# Calls per timed run in the "small" case.
SMALL_CALLS = 2000

# Bytes a timed run reads at least: inputs smaller than this are called
# repeatedly (in cache) so that a run is not timer noise.
RUN_BYTES = 64 * MIB

# Rank of each argext ISA level, and of each NumPy dispatch target by the
# level its instructions need; --isa LEVEL disables NumPy's targets ranked
# above LEVEL. NumPy's baseline (SSE4.2 from NumPy 2.4 on x86-64) cannot be
# disabled: below it both run what the CPU has at NumPy's baseline.
ISA_RANK = {"baseline": 0, "sse2": 1, "neon": 1, "sse42": 2, "avx2": 3, "avx512": 4}


def _numpy_target_rank(name):
    if name.startswith("AVX512") or name in ("X86_V4", "AVX5124FMAPS", "AVX5124VNNIW"):
        return 4
    if name in ("X86_V3", "AVX", "AVX2", "F16C", "FMA3", "FMA4", "XOP"):
        return 3
    if name in ("X86_V2", "SSE3", "SSSE3", "SSE41", "SSE42", "POPCNT"):
        return 2
    return 1  # NEON/ASIMD and the like: what the neon level has


def _umath():
    try:
        from numpy._core import _multiarray_umath
    except ImportError:  # NumPy 1.x
        from numpy.core import _multiarray_umath
    return _multiarray_umath


def numpy_disabled_for(isa):
    """NPY_DISABLE_CPU_FEATURES that restricts NumPy to argext's level `isa`."""
    umath = _umath()
    return " ".join(t for t in umath.__cpu_dispatch__ if _numpy_target_rank(t) > ISA_RANK[isa])


def numpy_active_targets():
    """NumPy's dispatch targets this process runs (the CPU has them, none disabled)."""
    umath = _umath()
    return [t for t in umath.__cpu_dispatch__ if umath.__cpu_features__.get(t)]


def parse_size(text):
    """'32K', '256K', '4M', '64M' (binary units) or a byte count."""
    m = re.fullmatch(r"(\d+)([KMG]?)(i?B)?", text.strip(), re.IGNORECASE)
    if not m:
        raise argparse.ArgumentTypeError(f"size {text!r}: expected a number with K, M or G")
    size = int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2).upper()]
    if size < 4096:
        raise argparse.ArgumentTypeError(f"size {text!r}: at least 4K")
    return size


def _numpy_call(case, x, axis, last):
    if case.startswith("nan_"):
        return lambda: np.nanargmax(x, axis=axis)
    if case == "hardmax":
        def run():
            y = np.zeros_like(x)
            np.put_along_axis(y, np.expand_dims(np.argmax(x, axis=axis), axis), 1, axis=axis)
            return y
        return run
    if case == "reduce02":
        return lambda: np.argmax(np.moveaxis(x, 1, 0).reshape(x.shape[1], -1), axis=1)
    if last:
        return lambda: x.shape[axis] - 1 - np.argmax(np.flip(x, axis), axis=axis)
    return lambda: np.argmax(x, axis=axis)


def _argext_call(case, x, axis, last):
    if case.startswith("nan_"):
        return lambda: argext.nanargmax(x, axis=axis)
    if case == "hardmax":
        return lambda: argext.hardmax(x, axis=axis)
    if case == "reduce02":
        return lambda: argext.reduce_argmax(x, list(axis)).ravel()
    return lambda: argext.argmax(x, axis=axis, keepdims=0, select_last_index=last)


def _onnxruntime_call(case, x, axis, last):
    if case.startswith(("nan_", "swapped_")):  # no nanargmax in ONNX; ORT takes native order
        return None
    try:
        import onnxruntime as ort
        from onnx import TensorProto, helper
        from onnx.helper import np_dtype_to_tensor_dtype
    except ImportError:
        return None
    try:
        elem = np_dtype_to_tensor_dtype(x.dtype)
        if case == "hardmax":
            node = helper.make_node("Hardmax", ["x"], ["y"], axis=axis)
            out = helper.make_tensor_value_info("y", elem, None)
        else:
            node = helper.make_node("ArgMax", ["x"], ["y"], axis=axis, keepdims=0,
                                    select_last_index=last)
            out = helper.make_tensor_value_info("y", TensorProto.INT64, None)
        graph = helper.make_graph([node], "bench", [helper.make_tensor_value_info("x", elem, x.shape)],
                                  [out])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        model.ir_version = 8
        options = ort.SessionOptions()
        options.intra_op_num_threads = THREADS
        options.inter_op_num_threads = 1
        session = ort.InferenceSession(model.SerializeToString(), options,
                                       providers=["CPUExecutionProvider"])
        session.run(None, {"x": x})  # warm up, and reject dtypes this build lacks
    except Exception:  # an ORT build without this kernel: no column
        return None
    return lambda: session.run(None, {"x": x})


def _torch_call(case, x, axis, last):
    if last or case == "hardmax" or case.startswith(("nan_", "swapped_")):
        return None
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(THREADS)
    try:
        t = torch.from_numpy(x)
        torch.argmax(t, dim=axis)
    except Exception:  # dtype torch does not take from NumPy
        return None
    return lambda: torch.argmax(t, dim=axis)


def run_dask_case(dtype, repeats, rng, cluster):
    """argext.dask.argmax against da.argmax on one persisted dask array, on the
    same cluster; wall time (the work runs in the workers)."""
    import dask.array as da
    import distributed

    import argext.dask

    shape_of, axis, _, _, _ = CASES["dask"]
    shape = shape_of(dtype)
    seed = int(rng.integers(2**32))
    with distributed.Client(cluster) as client:
        # Generated in the workers, 4x4 chunks, and kept there.
        d = da.zeros(shape, np.int8, chunks=(shape[0] // 4, shape[1] // 4)).map_blocks(
            lambda b, block_id=None: _data(dtype, b.shape, np.random.default_rng([seed, *block_id])),
            dtype=_dtype(dtype))
        d = client.persist(d)
        distributed.wait(d)
        contenders = {"argext": lambda: argext.dask.argmax(d, axis=axis, keepdims=0).compute(),
                      "dask": lambda: da.argmax(d, axis=axis).compute()}
        if not np.array_equal(contenders["argext"](), contenders["dask"]()):
            raise AssertionError(f"bench dask {dtype}: argext.dask disagrees with da.argmax")
        times = {k: [] for k in contenders}
        for _ in range(repeats):
            for k, f in contenders.items():
                t = time.perf_counter()
                f()
                times[k].append(time.perf_counter() - t)
    median = {k: statistics.median(t) for k, t in times.items()}
    return {"case": "dask", "dtype": dtype, "shape": list(shape), "axis": axis,
            "select_last_index": 0, "bytes": d.nbytes, "calls_per_run": 1, "seconds": median,
            "gb_per_s": {k: d.nbytes / t / 1e9 for k, t in median.items()},
            "ratio_to_dask": {k: median["dask"] / t for k, t in median.items()}}


def _time(fn, calls):
    """Wall-clock seconds per call."""
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t) / calls


def read_bandwidth(repeats):
    """Single-thread read bandwidth in bytes/s: the faster of two streaming
    NumPy reductions (integer add and bitwise-or over 64 MiB of uint64), by
    median over `repeats` runs each."""
    x = np.random.default_rng(1).integers(0, 2**62, 64 * MIB // 8, dtype=np.uint64)
    runs = {"add": [], "or": []}
    for _ in range(repeats):
        runs["add"].append(_time(lambda: np.add.reduce(x), 1))
        runs["or"].append(_time(lambda: np.bitwise_or.reduce(x), 1))
    return x.nbytes / min(statistics.median(t) for t in runs.values())


def _bottleneck_call(case, x, axis):
    """Bottleneck's nanargmax, for the dtypes it has a kernel for."""
    if not case.startswith("nan_") or x.dtype not in (np.float32, np.float64):
        return None
    try:
        import bottleneck
    except ImportError:
        return None
    return lambda: bottleneck.nanargmax(x, axis=axis)


def run_case(case, dtype, repeats, rng):
    shape_of, axis, last, _, _ = CASES[case]
    x = _data(dtype, shape_of(dtype), rng)
    if case.startswith("nan_"):
        x[rng.random(x.shape) < 0.01] = np.nan
    native = None
    if case.startswith("swapped_"):
        native, x = x, x.astype(x.dtype.newbyteorder("S"))
    calls = SMALL_CALLS if case == "small" else max(1, RUN_BYTES // x.nbytes)
    contenders = {"argext": _argext_call(case, x, axis, last),
                  "native": native is not None and _argext_call(case, native, axis, last) or None,
                  "numpy": _numpy_call(case, x, axis, last),
                  "onnxruntime": _onnxruntime_call(case, x, axis, last),
                  "torch": _torch_call(case, x, axis, last),
                  "bottleneck": _bottleneck_call(case, x, axis)}
    contenders = {k: f for k, f in contenders.items() if f is not None}
    want = np.asarray(contenders["numpy"]())
    got = np.asarray(contenders["argext"]())
    if not np.array_equal(got, want):
        raise AssertionError(f"bench {case} {dtype}: argext disagrees with NumPy")
    times = {k: [] for k in contenders}
    for _ in range(repeats):
        for k, f in contenders.items():
            times[k].append(_time(f, calls))
    median = {k: statistics.median(t) for k, t in times.items()}
    return {
        "case": case, "dtype": dtype, "shape": list(x.shape), "axis": axis,
        "select_last_index": last, "bytes": x.nbytes, "calls_per_run": calls,
        "seconds": median,
        "gb_per_s": {k: x.nbytes / t / 1e9 for k, t in median.items()},
        "ratio_to_numpy": {k: median["numpy"] / t for k, t in median.items()},
        **({"swapped_over_native": median["argext"] / median["native"]} if native is not None else {}),
    }


def machine():
    info = {"python": platform.python_version(), "numpy": np.__version__,
            "numpy_targets": numpy_active_targets(),
            "argext": argext.__version__, "isa": argext.get_isa(),
            "machine": platform.machine(), "cpu": platform.processor()}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    for mod in ("onnxruntime", "torch", "ml_dtypes"):
        try:
            info[mod] = __import__(mod).__version__
        except ImportError:
            pass
    return info


def _format(row):
    shape = "x".join(map(str, row["shape"]))
    cells = [f"{row['case']:<10} {row['dtype']:<8} {shape:>14} {str(row['axis']):>4}"]
    if row["case"] == "dask":
        return "  ".join(cells + [f"{k} {t * 1e3:8.2f} ms (wall) {row['ratio_to_dask'][k]:6.2f}x dask"
                                  for k, t in row["seconds"].items()])
    for k in ("argext", "native", "numpy", "onnxruntime", "torch", "bottleneck"):
        if k in row["seconds"]:
            t = row["seconds"][k]
            if row["case"] == "small":
                cells.append(f"{k} {t * 1e6:8.2f} us/call {row['ratio_to_numpy'][k]:6.2f}x")
            else:
                when = f"{t * 1e3:8.2f} ms" if t >= 1e-3 else f"{t * 1e6:8.2f} us"
                cells.append(f"{k} {when} {row['gb_per_s'][k]:6.1f} GB/s "
                             f"{row['ratio_to_numpy'][k]:6.2f}x")
    if "swapped_over_native" in row:
        cells.append(f"swapped/native {row['swapped_over_native']:.2f}")
    return "  ".join(cells)


def main(argv):
    parser = argparse.ArgumentParser(prog="python -m argext bench", description=__doc__.split("\n")[0])
    parser.add_argument("--case", action="append", choices=list(CASES),
                        help="case to run (repeatable; default: all)")
    parser.add_argument("--dtype", action="append", choices=ALL_DTYPES,
                        help="dtype to run (repeatable; default: each case's own list)")
    parser.add_argument("--repeats", type=int, default=7, help="timed rounds per case (>= 5)")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads for argext, ONNX Runtime and PyTorch (default 1)")
    parser.add_argument("--isa", choices=list(ISA_RANK),
                        help="argext's kernel level, against NumPy restricted to the same level "
                             "(default: the best of both)")
    parser.add_argument("--size", type=parse_size, default=64 * MIB,
                        help="input bytes, e.g. 32K, 256K, 4M (default 64M)")
    args = parser.parse_args(argv)
    if args.repeats < 5:
        parser.error("--repeats must be at least 5 (medians of fewer runs are noise)")
    if args.isa:
        if args.isa not in argext.supported_isas():
            parser.error(f"--isa {args.isa}: not supported here (supported: "
                         f"{', '.join(argext.supported_isas())})")
        disabled = numpy_disabled_for(args.isa)
        if os.environ.get("NPY_DISABLE_CPU_FEATURES", "") != disabled:
            # NumPy reads its CPU features once, at import: a fresh interpreter.
            env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=disabled)
            flags = ["-I"] if sys.flags.isolated else []
            parent = os.path.dirname(os.path.dirname(os.path.abspath(argext.__file__)))
            code = (f"import sys; sys.path.insert(0, {parent!r}); from argext import _bench; "
                    f"sys.exit(_bench.main({list(argv)!r}))")
            return subprocess.call([sys.executable, *flags, "-c", code], env=env)
        argext.set_isa(args.isa)
    global THREADS, SIZE
    THREADS = args.threads
    SIZE = args.size
    argext.set_num_threads(args.threads)
    rng = np.random.default_rng(0)
    info = machine()
    info["threads"] = args.threads
    print(f"argext {info['argext']} isa={info['isa']} threads={args.threads}  numpy {info['numpy']} "
          f"(targets: {' '.join(info['numpy_targets']) or 'baseline only'})  {info['cpu']}")
    print(f"input size {SIZE / MIB:g} MiB")
    missing = [m for m in OPTIONAL if not _importable(m)]
    for m in missing:
        print(f"{m} not installed: skipping {OPTIONAL[m]}")
    probe = read_bandwidth(args.repeats)
    print(f"single-thread read bandwidth probe: {probe / 1e9:.1f} GB/s")
    print("ratio = NumPy time / contender time (higher is faster); medians of "
          f"{args.repeats} alternating runs")
    rows = []
    cluster = None
    for case in args.case or list(CASES):
        if case == "dask" and ("dask" in missing or "distributed" in missing):
            continue
        for dtype in args.dtype or CASES[case][3]:
            if case == "hardmax" and not (dtype.startswith("float") or dtype == "bfloat16"):
                print(f"{case:<10} {dtype:<8} skipped: Hardmax takes float dtypes only")
                continue
            if dtype == "bfloat16" and "ml_dtypes" in missing:
                continue
            if case == "dask":
                if cluster is None:
                    import distributed

                    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                                       dashboard_address=":0")
                rows.append(run_dask_case(dtype, args.repeats, rng, cluster))
                print(_format(rows[-1]), flush=True)
                continue
            row = run_case(case, dtype, args.repeats, rng)
            row["fraction_of_probe"] = row["gb_per_s"]["argext"] * 1e9 / probe
            rows.append(row)
            print(_format(row), flush=True)
    if cluster is not None:
        cluster.close()
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "read_bandwidth_gb_per_s": probe / 1e9,
                       "repeats": args.repeats, "results": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
