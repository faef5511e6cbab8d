"""python -m argext: version, support matrix, kernel ISA, and a self-check.
python -m argext bench [--case ...] [--dtype ...] [--repeats N] [--json FILE]:
the benchmark against NumPy (argext/_bench.py).

The self-check compares every operator and dtype with NumPy on random
strided inputs at every ISA level the machine runs; it exits 1 on a mismatch.
"""

import sys

import numpy as np

import argext
from argext._spec import DTYPES, OPERATORS


def _numpy_dtype(name):
    if name == "bfloat16":
        try:
            import ml_dtypes
        except ImportError:
            return None
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def support_matrix():
    """The op x version x dtype table, as text."""
    width = max(len(d) for d in DTYPES)
    lines = ["operator".ljust(11) + " ".join(d.rjust(width) for d in DTYPES)]
    for versions in OPERATORS.values():
        for s in versions:
            cells = ("yes" if d in s.dtypes else "-" for d in DTYPES)
            lines.append(str(s).ljust(11) + " ".join(c.rjust(width) for c in cells))
    return "\n".join(lines)


def _reference_arg(x, axis, last, op):
    """NumPy's answer; the last occurrence through a flip."""
    f = np.argmax if op == "max" else np.argmin
    x = x.astype(np.float32) if x.dtype.name == "bfloat16" else x
    if not last:
        return f(x, axis=axis)
    return x.shape[axis] - 1 - f(np.flip(x, axis), axis=axis)


def _sample(rng, dtype, shape):
    x = rng.integers(-20, 21, size=shape).astype(np.float64)
    if dtype.kind == "u":
        x = np.abs(x)
    if dtype.kind == "f" or dtype.name == "bfloat16":
        x[rng.random(shape) < 0.02] = np.nan
        x[rng.random(shape) < 0.05] = -0.0
    x = x.astype(dtype)
    return x[::-1, ::2] if x.ndim == 2 else x  # strided, negative stride


def self_check(seed=0):
    """Returns a list of mismatch descriptions (empty when all agree)."""
    rng = np.random.default_rng(seed)
    failures = []
    for name in DTYPES:
        dtype = _numpy_dtype(name)
        if dtype is None:
            continue
        for shape in [(37,), (9, 300), (300, 9), (5, 1030)]:
            x = _sample(rng, dtype, shape)
            for axis in range(-x.ndim, x.ndim):
                for last in (0, 1):
                    for op, fn in (("max", argext.argmax), ("min", argext.argmin)):
                        got = fn(x, axis=axis, keepdims=0, select_last_index=last)
                        want = _reference_arg(x, axis, last, op)
                        if not np.array_equal(got, want):
                            failures.append(f"arg{op} {name} shape={x.shape} axis={axis} last={last}")
    return failures


def main(argv):
    if argv[:1] == ["bench"]:
        from argext import _bench

        return _bench.main(argv[1:])
    print(f"argext {argext.__version__} (numpy {np.__version__})")
    print(f"kernel ISA in use: {argext.get_isa()} (supported here: {', '.join(argext.supported_isas())})")
    print(f"threads: {argext.get_num_threads()}")
    print()
    print(support_matrix())
    print()
    active = argext.get_isa()
    failures = []
    try:
        for isa in argext.supported_isas():
            argext.set_isa(isa)
            failures += [f"[{isa}] {f}" for f in self_check()]
    finally:
        argext.set_isa(active)
    if failures:
        print(f"self-check FAILED: {len(failures)} mismatches against NumPy")
        for f in failures[:20]:
            print("  " + f)
        return 1
    print(f"self-check passed: argmax/argmin agree with NumPy for every dtype, axis and "
          f"select_last_index at ISA levels {', '.join(argext.supported_isas())}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
