"""python -m argext [check]: version, kernel ISA, support matrix, and a self-check.
python -m argext bench ...: the benchmark against NumPy and other peers (argext/_bench/,
whose own --help lists its options). python -m argext --help: the commands.

The self-check compares every public function (ArgMax/ArgMin at every version,
Hardmax at every version, reduce_argmax/reduce_argmin, nanargmax/nanargmin,
TopK at every version) and dtype with NumPy on
random strided inputs at every ISA level the machine runs; it exits 1 on a
mismatch. It needs NumPy only (bfloat16 is checked when ml_dtypes is installed).
"""

import argparse
import os
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


# The functions outside the ONNX spec table, each with a call on a one-element
# array: the support matrix shows the dtypes that call accepts.
FUNCTION_ROWS = {
    "reduce_argmax": lambda x: argext.reduce_argmax(x, [0]),
    "reduce_argmin": lambda x: argext.reduce_argmin(x, [0]),
    "nanargmax": argext.nanargmax,
    "nanargmin": argext.nanargmin,
}


def _accepts(call, dtype):
    """'yes' or '-' as call takes a one-element array of dtype; '?' when dtype is not installed."""
    if dtype is None:
        return "?"
    try:
        call(np.zeros(1, dtype))
    except argext.SpecTypeError:
        return "-"
    return "yes"


def support_matrix():
    """The op x version x dtype table, as text: the ONNX operators from the spec
    table, the other functions from what they accept."""
    width = max(len(d) for d in DTYPES)
    rows = [(str(s), ["yes" if d in s.dtypes else "-" for d in DTYPES])
            for versions in OPERATORS.values() for s in versions]
    rows += [(name, [_accepts(call, _numpy_dtype(d)) for d in DTYPES])
             for name, call in FUNCTION_ROWS.items()]
    first = max(len(name) for name, _ in rows) + 1
    lines = ["operator".ljust(first) + " ".join(d.rjust(width) for d in DTYPES)]
    lines += [name.ljust(first) + " ".join(c.rjust(width) for c in cells) for name, cells in rows]
    return "\n".join(lines)


def _comparable(x):
    """x in a dtype NumPy orders natively (bfloat16 -> float32, exactly)."""
    return x.astype(np.float32) if x.dtype.name == "bfloat16" else x


def _reference_arg(x, axis, last, op):
    """NumPy's answer; the last occurrence through a flip."""
    f = np.argmax if op == "max" else np.argmin
    x = _comparable(x)
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


SHAPES = [(37,), (9, 300), (300, 9), (5, 1030)]


def _check_arg(rng, name, dtype):
    """ArgMax/ArgMin at every version that allows the dtype, every axis and
    (from version 12) select_last_index, keepdims 0 and 1."""
    for op_type, fn, op in (("ArgMax", argext.argmax, "max"), ("ArgMin", argext.argmin, "min")):
        for s in OPERATORS[op_type]:
            if name not in s.dtypes:
                continue
            for shape in SHAPES:
                x = _sample(rng, dtype, shape)
                for axis in range(-x.ndim, x.ndim):
                    for last in ((0, 1) if "select_last_index" in s.attributes else (0,)):
                        keepdims = (axis + last) % 2
                        got = fn(x, axis=axis, keepdims=keepdims, select_last_index=last,
                                 opset=s.since_version)
                        want = _reference_arg(x, axis, last, op)
                        if keepdims:
                            want = np.expand_dims(want, axis)
                        if not np.array_equal(got, want):
                            yield f"{s} {name} shape={x.shape} axis={axis} last={last}"


def _reference_hardmax(x, axis, coerce_2d):
    """One-hot of the first maximum (first NaN) of each row; versions 1 and 11
    take the rows of [prod(shape[:axis]), prod(shape[axis:])]."""
    rows = _comparable(x).reshape(int(np.prod(x.shape[:axis])), -1) if coerce_2d else \
        np.moveaxis(_comparable(x), axis, -1).reshape(-1, x.shape[axis])
    y = np.zeros(rows.shape, x.dtype)
    y[np.arange(rows.shape[0]), np.argmax(rows, axis=1)] = 1
    if coerce_2d:
        return y.reshape(x.shape)
    return np.moveaxis(y.reshape(np.moveaxis(x, axis, -1).shape), -1, axis)


def _check_hardmax(rng, name, dtype):
    for s in OPERATORS["Hardmax"]:
        if name not in s.dtypes:
            continue
        x = _sample(rng, dtype, (4, 3, 50))
        low = 0 if s.attributes["axis"].allowed == "nonnegative_axis" else -x.ndim
        for axis in range(low, x.ndim):
            got = argext.hardmax(x, axis=axis, opset=s.since_version)
            if not np.array_equal(got, _reference_hardmax(x, axis % x.ndim, s.coerce_2d)):
                yield f"{s} {name} shape={x.shape} axis={axis}"


def _check_reduce(rng, name, dtype):
    """reduce_argmax/argmin over every non-empty set of axes of a 3-D input,
    both directions, against NumPy over the moved and flattened axes."""
    x = _sample(rng, dtype, (6, 5, 7))
    for op, fn in (("max", argext.reduce_argmax), ("min", argext.reduce_argmin)):
        for mask in range(1, 1 << x.ndim):
            axes = [a for a in range(x.ndim) if mask >> a & 1]
            kept = [a for a in range(x.ndim) if a not in axes]
            flat = np.moveaxis(x, axes, range(len(kept), x.ndim)).reshape([x.shape[a] for a in kept] + [-1])
            for direction, last in (("increasing", 0), ("decreasing", 1)):
                want = _reference_arg(flat, -1, last, op).reshape(
                    [1 if a in axes else n for a, n in enumerate(x.shape)])
                got = fn(x, axes[::-1], axis_direction=direction, output_dtype="int32")
                if got.dtype != np.int32 or not np.array_equal(got, want):
                    yield f"reduce_arg{op} {name} axes={axes} {direction}"


def _check_nan(rng, name, dtype):
    """nanargmax/nanargmin over every axis and the flattened array, against
    NumPy's (all-NaN slices raise in both)."""
    for op, fn, ref in (("max", argext.nanargmax, np.nanargmax), ("min", argext.nanargmin, np.nanargmin)):
        for shape in SHAPES:
            x = _sample(rng, dtype, shape)
            for axis in [None] + list(range(-x.ndim, x.ndim)):
                try:
                    want = ref(_comparable(x), axis=axis)
                except ValueError:
                    want = ValueError
                try:
                    got = fn(x, axis=axis)
                except ValueError:
                    got = ValueError
                if (want is ValueError) != (got is ValueError) or (
                        want is not ValueError and not np.array_equal(got, want)):
                    yield f"nanarg{op} {name} shape={x.shape} axis={axis}"


def _topk_order(x, largest):
    """The ranking of each row (last axis) by a stable NumPy sort: NaN first,
    then the largest (smallest) value, equal values by the lower index. The
    descending order is the ascending one of the reversed row, reversed."""
    x = _comparable(x)
    if not largest:
        return np.lexsort((x, ~np.isnan(x)), axis=-1) if x.dtype.kind == "f" else \
            np.argsort(x, axis=-1, kind="stable")
    y = x[..., ::-1]
    keys = (y, np.isnan(y)) if x.dtype.kind == "f" else (y,)
    return x.shape[-1] - 1 - np.lexsort(keys, axis=-1)[..., ::-1]


def _check_topk(rng, name, dtype):
    """TopK at every version that allows the dtype: every axis, k from 0 to
    the extent, largest and sorted where the version has them."""
    for s in OPERATORS["TopK"]:
        if name not in s.dtypes:
            continue
        flags = (0, 1) if "largest" in s.attributes else (1,)
        for shape in SHAPES[:3]:
            x = _sample(rng, dtype, shape)
            for axis in range(-x.ndim, x.ndim):
                n = x.shape[axis]
                for k in sorted({0, 1, 2, n // 2, n}):
                    for largest in flags:
                        for ordered in flags:
                            order = _topk_order(np.moveaxis(x, axis, -1), largest)[..., :k]
                            if not ordered:
                                order = np.sort(order, axis=-1)
                            want = np.moveaxis(order, -1, axis)
                            kwargs = {"largest": largest, "sorted": ordered} if len(flags) > 1 else {}
                            values, indices = argext.topk(x, k, axis, **kwargs, opset=s.since_version)
                            same = f"u{x.dtype.itemsize}"  # values compared bit for bit
                            if not (np.array_equal(indices, want) and np.array_equal(
                                    values.view(same), np.take_along_axis(x, want, axis).view(same))):
                                yield f"{s} {name} shape={x.shape} axis={axis} k={k} largest={largest}"


# Every public computing function has its check here: (what it covers, check).
CHECKS = [
    ("ArgMax/ArgMin 1, 11, 12, 13", _check_arg),
    ("Hardmax 1, 11, 13", _check_hardmax),
    ("reduce_argmax/reduce_argmin", _check_reduce),
    ("nanargmax/nanargmin", _check_nan),
    ("TopK 1, 10, 11, 24", _check_topk),
]


def self_check(seed=0):
    """Returns a list of mismatch descriptions (empty when all agree)."""
    rng = np.random.default_rng(seed)
    failures = []
    for name in DTYPES:
        dtype = _numpy_dtype(name)
        if dtype is None:
            continue
        for _, check in CHECKS:
            failures += check(rng, name, dtype)
    return failures


def check():
    """The main job: version, kernel ISA, threads, support matrix, then the
    self-check at every ISA level; 1 on a mismatch."""
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
    covered = "; ".join(what for what, _ in CHECKS)
    print(f"self-check passed: {covered} agree with NumPy for every dtype, axis and "
          f"attribute at ISA levels {', '.join(argext.supported_isas())}")
    if _numpy_dtype("bfloat16") is None:
        print("bfloat16 not checked: ml_dtypes is not installed (pip install ml_dtypes)")
    return 0


def parser():
    p = argparse.ArgumentParser(
        prog="python -m argext",
        description="argext: ONNX ArgMax, ArgMin and Hardmax, multi-axis arg reductions and "
                    "NumPy's nanargmax/nanargmin, computed by typed C kernels. Without a "
                    "command, runs `check`.")
    p.add_argument("--version", action="version", version=f"argext {argext.__version__}")
    c = p.add_argument_group(
        "building C against the installed package",
        "print and exit; --cflags --libs together print both, as pkg-config does: "
        "cc app.c $(python -m argext --cflags --libs)")
    c.add_argument("--cflags", action="store_true", help="the compiler flag for argext.h: -I<dir>")
    c.add_argument("--libs", action="store_true",
                   help="the linker flags for the shared libargext, with an rpath to it "
                        "(Windows: the import library argext.lib)")
    c.add_argument("--cmakedir", action="store_true",
                   help="the CMake package's directory: -Dargext_DIR=<dir> for find_package(argext)")
    c.add_argument("--pkgconfigdir", action="store_true",
                   help="the directory of argext.pc, for PKG_CONFIG_PATH")
    commands = p.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    commands.add_parser(
        "check", help="print the version, kernel ISA, threads and support matrix, then check "
                      "every public function against NumPy at every ISA level the CPU runs "
                      "(exit status 1 on a mismatch); the default")
    commands.add_parser(
        "bench", add_help=False,
        help="time argext against NumPy and the other installed peers "
             "(python -m argext bench --help lists its options)")
    return p


def build_flags(args):
    """The words --cflags, --libs, --cmakedir and --pkgconfigdir ask for."""
    (lib,) = argext.get_library_dirs()
    words = []
    if args.cflags:
        words.append(f"-I{argext.get_include()}")
    if args.libs:
        words += ([os.path.join(lib, "argext.lib")] if sys.platform == "win32" else
                  [f"-L{lib}", "-largext", f"-Wl,-rpath,{lib}"])
    if args.cmakedir:
        words.append(argext.get_cmake_dir())
    if args.pkgconfigdir:
        words.append(os.path.join(lib, "pkgconfig"))
    return words


def main(argv):
    p = parser()
    # The bench parses its own arguments (--help included): everything after `bench` is its.
    args, rest = p.parse_known_args(argv)
    words = build_flags(args)
    if words:
        if args.command or rest:
            p.error("--cflags, --libs, --cmakedir and --pkgconfigdir take no command or other arguments")
        print(" ".join(words))
        return 0
    if args.command == "bench":
        from argext import _bench

        return _bench.main(rest)
    if rest:
        p.error(f"unrecognized arguments: {' '.join(rest)}")
    return check()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
