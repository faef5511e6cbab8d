"""The three embedding routes, built with the system compiler and checked against NumPy:
the C library from csrc/ (CMake build, install, pkg-config, examples/classify.c, and
examples/host_pool.c on the application's own thread pool), the
capsule argext._C_API from a C extension (examples/capsule_module.c), and `cimport
argext.capi` from Cython (examples/cython_module.pyx). Also: argext.h is strict C99 (and
C++), and bad descriptors get error statuses through ctypes, never a crash or a write,
in a table and in a bounded hypothesis fuzz of random, mostly broken, descriptors."""

import ctypes
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import argext
from reference import arg_reference, multi_axis_reference

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"
PUBLIC_INCLUDE = CSRC / "include"
EXAMPLES = ROOT / "examples"
CC = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
CMAKE = shutil.which("cmake")


def run(cmd, **kwargs):
    """Runs cmd; on failure shows its output in the assertion."""
    p = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    assert p.returncode == 0, f"{' '.join(map(str, cmd))} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}"
    return p.stdout


@pytest.fixture(scope="module")
def cc():
    if CC is None:
        pytest.skip("no C compiler (cc, gcc or clang) on PATH")
    return CC


@pytest.fixture(scope="module")
def prefix(cc, tmp_path_factory):
    """csrc/ built and installed by the documented CMake command, with ARGEXT_SIMD=OFF: the
    portable kernels alone, as README documents (the SIMD files' build took 220 s of the suite
    on a Zen 4; the levels' kernels are tested through the extension and the C driver)."""
    if CMAKE is None:
        pytest.skip("cmake is not on PATH")
    if os.environ.get("ARGEXT_TEST_SKIP_CSRC_BUILD"):
        # A wheel's run (release-check): the build from csrc/ does not depend on the wheel.
        pytest.skip("csrc/'s CMake build: ARGEXT_TEST_SKIP_CSRC_BUILD is set (the source tree's run builds it)")
    build = tmp_path_factory.mktemp("cbuild")
    prefix = tmp_path_factory.mktemp("cprefix")
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    env = dict(os.environ, CC=cc)
    run([CMAKE, "-S", CSRC, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DARGEXT_SIMD=OFF", *generator],
        env=env)
    run([CMAKE, "--build", build, "--parallel"], env=env)
    run([CMAKE, "--install", build, "--prefix", prefix])
    return prefix


def installed_lib(prefix, name, folder="lib*"):
    hits = sorted(prefix.glob(f"{folder}/{name}"))
    assert hits, f"{name} not installed under {prefix}/{folder}"
    return hits[0]


def shared_lib(prefix):
    """The installed shared libargext: a DLL goes to bin/ on Windows (CMake's
    RUNTIME destination), the others to lib*/."""
    if sys.platform == "win32":
        return installed_lib(prefix, "argext.dll", "bin")
    return installed_lib(prefix, "libargext.dylib" if sys.platform == "darwin" else "libargext.so")


def test_install_tree(prefix):
    assert (prefix / "include" / "argext.h").is_file()
    installed_lib(prefix, "libargext.a")
    shared_lib(prefix)
    pc = installed_lib(prefix, "pkgconfig/argext.pc").read_text()
    assert f"Version: {argext.__version__}" in pc


def test_header_is_strict_c99(cc, tmp_path):
    src = tmp_path / "strict.c"
    src.write_text('#include "argext.h"\nint main(void) { return argext_dtype_size(ARGEXT_INT8) != 1; }\n')
    run([cc, "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I", PUBLIC_INCLUDE, "-c", src,
         "-o", tmp_path / "strict.o"])


def test_header_compiles_as_cpp(tmp_path):
    cxx = shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
    if cxx is None:
        pytest.skip("no C++ compiler on PATH")
    src = tmp_path / "strict.cpp"
    src.write_text('#include "argext.h"\nint f() { return (int)argext_dtype_size(ARGEXT_INT8); }\n')
    run([cxx, "-std=c++11", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I", PUBLIC_INCLUDE,
         "-fsyntax-only", src])


def link_flags(prefix, static):
    include = prefix / "include"
    if static:
        return ["-I", include, installed_lib(prefix, "libargext.a"), "-pthread"]
    pc = installed_lib(prefix, "pkgconfig/argext.pc").parent
    pkg_config = shutil.which("pkg-config")
    if pkg_config:
        flags = run([pkg_config, "--cflags", "--libs", "argext"],
                    env=dict(os.environ, PKG_CONFIG_PATH=str(pc))).split()
    else:
        flags = ["-I", include, "-L", pc.parent, "-largext"]
    return flags + [f"-Wl,-rpath,{pc.parent}"]


def parse_results(stdout):
    """{name: [int, ...]} from the example's `name i j k` lines."""
    out = {}
    for line in stdout.splitlines():
        name, *values = line.split()
        if values and all(re.fullmatch(r"-?\d+", v) for v in values):
            out[name] = [int(v) for v in values]
    return out


@pytest.mark.parametrize("static", [False, True], ids=["shared", "static"])
def test_example_program_matches_numpy(cc, prefix, tmp_path, static):
    exe = tmp_path / "classify"
    run([cc, "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", EXAMPLES / "classify.c",
         *link_flags(prefix, static), "-o", exe])
    assert "builtin answers correct" in run([exe])

    rng = np.random.default_rng(6)
    scores = rng.integers(-3, 4, size=(37, 11)).astype(np.float32)  # many ties
    scores[5, 7] = np.nan
    scores[9, [2, 8]] = np.nan
    scores[20, 0] = -0.0
    scores[20, 1:] = -5
    data = tmp_path / "scores.f32"
    scores.tofile(data)
    stdout = run([exe, data, *map(str, scores.shape)])
    got = parse_results(stdout)
    assert "hardmax_matches_argmax" in stdout
    assert got["row_argmax"] == arg_reference(scores, axis=1, keepdims=0).tolist()
    assert got["col_argmin_last"] == arg_reference(
        scores.T, axis=1, keepdims=0, select_last_index=1, op="min").tolist()
    assert got["all_argmax_last"] == multi_axis_reference(scores, [0, 1], last=True).ravel().tolist()


def test_host_pool_example_matches_numpy(cc, prefix, tmp_path):
    """examples/host_pool.c gives argext its own pool's parallel-for: the large calls
    split into parts that its workers run, and the answers are NumPy's."""
    exe = tmp_path / "host_pool"
    run([cc, "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-pthread",
         EXAMPLES / "host_pool.c", *link_flags(prefix, static=False), "-o", exe])
    rng = np.random.default_rng(13)
    scores = rng.integers(-50, 50, size=(1024, 1024)).astype(np.float32)  # 4 MiB, many ties
    scores[700, [3, 900]] = np.nan
    scores[rng.integers(0, 1024, 20), rng.integers(0, 1024, 20)] = -60
    data = tmp_path / "scores.f32"
    scores.tofile(data)
    got = parse_results(run([exe, data, *map(str, scores.shape)]))
    assert got["host_parts"][0] > 0
    assert got["row_argmax"] == arg_reference(scores, axis=1, keepdims=0).tolist()
    assert got["col_argmin_last"] == arg_reference(
        scores, axis=0, keepdims=0, select_last_index=1, op="min").tolist()
    assert got["all_argmax"] == multi_axis_reference(scores, [0, 1]).ravel().tolist()


# ---------------------------------------------------------------------------
# Bad descriptors through ctypes on the shared library.

OK, NULL_, DTYPE, RANK, SHAPE, AXIS, EMPTY, OUTPUT, ATTRIBUTE, OVERFLOW = range(10)
ERR_ISA = 11
INT64, UINT32, INT32, FLOAT32, INT8 = 7, 10, 6, 2, 4
MAX_RANK = 64
I64 = ctypes.c_int64


class Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int), ("rank", ctypes.c_int),
                ("shape", ctypes.POINTER(I64)), ("strides", ctypes.POINTER(I64))]


def int64s(values):
    return None if values is None else (I64 * max(len(values), 1))(*values)


def tensor(buf, dtype, shape, strides=None, rank=None):
    t = Tensor(ctypes.cast(buf, ctypes.c_void_p) if buf is not None else None, dtype,
               len(shape) if rank is None else rank,
               int64s(shape), int64s(strides))
    t._keep = (buf, t.shape, t.strides)
    return t


@pytest.fixture(scope="module")
def lib(prefix):
    lib = ctypes.CDLL(str(shared_lib(prefix)))
    for name in ("argext_argmax", "argext_argmin"):
        getattr(lib, name).argtypes = [ctypes.POINTER(Tensor), ctypes.POINTER(Tensor), I64,
                                       ctypes.c_int, ctypes.c_int]
    for name in ("argext_reduce_argmax", "argext_reduce_argmin"):
        getattr(lib, name).argtypes = [ctypes.POINTER(Tensor), ctypes.POINTER(Tensor),
                                       ctypes.POINTER(I64), ctypes.c_int, ctypes.c_int]
    lib.argext_hardmax.argtypes = [ctypes.POINTER(Tensor), ctypes.POINTER(Tensor), I64,
                                   ctypes.c_int]
    lib.argext_status_string.restype = ctypes.c_char_p
    lib.argext_version.restype = ctypes.c_char_p
    lib.argext_dtype_size.restype = ctypes.c_size_t
    return lib


SENTINEL = -12345
X = (ctypes.c_float * 6)(3, 1, 4, 1, 5, 9)  # valid [2, 3] float32 data


def out_buffer(n=8):
    return (I64 * n)(*([SENTINEL] * n))


def good(shape=(2, 3)):
    return tensor(X, FLOAT32, shape)


def argmax_cases():
    """(name, data, output, axis, keepdims, select_last_index, expected status).
    The error cases share one output buffer: none may write into it."""
    o = out_buffer()
    out2 = tensor(o, INT64, [2])
    yield "ok", good(), tensor(out_buffer(), INT64, [2]), 1, 0, 0, OK
    yield "data NULL", None, out2, 1, 0, 0, NULL_
    yield "output NULL", good(), None, 1, 0, 0, NULL_
    yield "shape NULL", tensor(X, FLOAT32, None, rank=2), out2, 1, 0, 0, NULL_
    yield "data pointer NULL", tensor(None, FLOAT32, [2, 3]), out2, 1, 0, 0, NULL_
    yield "output data NULL", good(), tensor(None, INT64, [2]), 1, 0, 0, NULL_
    yield "output shape NULL", good(), tensor(o, INT64, None, rank=1), 1, 0, 0, NULL_
    yield "dtype 12", tensor(X, 12, [2, 3]), out2, 1, 0, 0, DTYPE
    yield "dtype -1", tensor(X, -1, [2, 3]), out2, 1, 0, 0, DTYPE
    yield "rank -1", tensor(X, FLOAT32, [2, 3], rank=-1), out2, 1, 0, 0, RANK
    yield "rank past max", tensor(X, FLOAT32, [1] * (MAX_RANK + 1)), out2, 0, 0, 0, RANK
    yield "rank 0", tensor(X, FLOAT32, []), out2, 0, 0, 0, RANK
    yield "negative dim", tensor(X, FLOAT32, [2, -3]), out2, 1, 0, 0, SHAPE
    yield "size overflow", tensor(X, FLOAT32, [2**62, 4]), out2, 1, 0, 0, SHAPE
    yield "dims overflow", tensor(X, FLOAT32, [2**40, 2**40]), out2, 1, 0, 0, SHAPE
    yield "stride extent overflow", tensor(X, FLOAT32, [3], [2**62]), out2, 0, 0, 0, SHAPE
    yield "stride INT64_MIN", tensor(X, FLOAT32, [2, 3], [-(2**63), 4]), out2, 1, 0, 0, SHAPE
    yield "output negative dim", good(), tensor(o, INT64, [-2]), 1, 0, 0, SHAPE
    yield "axis 2 of rank 2", good(), out2, 2, 0, 0, AXIS
    yield "axis -3 of rank 2", good(), out2, -3, 0, 0, AXIS
    yield "axis huge", good(), out2, 2**62, 0, 0, AXIS
    yield "keepdims 2", good(), out2, 1, 2, 0, ATTRIBUTE
    yield "select_last_index -1", good(), out2, 1, 0, -1, ATTRIBUTE
    yield "output float32", good(), tensor(o, FLOAT32, [2]), 1, 0, 0, OUTPUT
    yield "output dtype 99", good(), tensor(o, 99, [2]), 1, 0, 0, DTYPE
    yield "output wrong dim", good(), tensor(o, INT64, [3]), 1, 0, 0, OUTPUT
    yield "output misses keepdims", good(), out2, 1, 1, 0, OUTPUT
    yield "output too long", good(), tensor(o, INT64, [2, 1, 1]), 1, 1, 0, OUTPUT
    yield "empty axis", tensor(X, FLOAT32, [2, 0]), out2, 1, 0, 0, EMPTY


@pytest.mark.parametrize("case", list(argmax_cases()), ids=lambda c: c[0])
@pytest.mark.parametrize("name", ["argext_argmax", "argext_argmin"])
def test_argmax_descriptor_checks(lib, name, case):
    _, data, out, axis, keepdims, last, expected = case
    st = getattr(lib, name)(data, out, axis, keepdims, last)
    assert st == expected, lib.argext_status_string(st)
    if out is not None and out.data is not None:
        written = list((I64 * 8).from_address(out.data))
        if expected == OK:
            # rows [3, 1, 4] and [1, 5, 9]
            assert written[:2] == ([1, 0] if name == "argext_argmin" else [2, 2])
        else:
            assert written == [SENTINEL] * 8, "an error status wrote into the output"


def reduce_cases():
    """(name, data, output, axes, direction, expected status)."""
    o = out_buffer()
    out11 = tensor(o, INT64, [1, 1])
    one = (ctypes.c_float * 1)(7)
    yield "ok", good(), tensor(out_buffer(), INT64, [1, 1]), [1, 0], 0, OK
    yield "axes NULL", good(), out11, None, 0, NULL_
    yield "no axes", good(), out11, [], 0, AXIS
    yield "repeated axis", good(), out11, [1, -1], 0, AXIS
    yield "axis out of range", good(), out11, [0, 2], 0, AXIS
    yield "more axes than rank", good(), out11, [0, 1, 0], 0, AXIS
    yield "direction 2", good(), out11, [0, 1], 2, ATTRIBUTE
    yield "direction -1", good(), out11, [0, 1], -1, ATTRIBUTE
    yield "output int8", good(), tensor(o, INT8, [1, 1]), [0, 1], 0, OUTPUT
    yield "output rank 1", good(), tensor(o, INT64, [1]), [0, 1], 0, OUTPUT
    yield "output kept axis wrong", good(), tensor(o, INT64, [1, 2]), [0], 0, OUTPUT
    yield "empty reduced axis", tensor(X, FLOAT32, [0, 3]), tensor(o, INT64, [1, 3]), [0], 0, EMPTY
    # 2**32 + 1 elements through a zero stride: one float, no memory needed.
    yield ("uint32 index overflow", tensor(one, FLOAT32, [2**32 + 1], [0]),
           tensor(o, UINT32, [1]), [0], 0, OVERFLOW)
    yield ("int32 index overflow", tensor(one, FLOAT32, [2**31 + 1], [0]),
           tensor(o, INT32, [1]), [0], 0, OVERFLOW)


@pytest.mark.parametrize("case", list(reduce_cases()), ids=lambda c: c[0])
@pytest.mark.parametrize("name", ["argext_reduce_argmax", "argext_reduce_argmin"])
def test_reduce_descriptor_checks(lib, name, case):
    _, data, out, axes, direction, expected = case
    st = getattr(lib, name)(data, out, int64s(axes), len(axes or []), direction)
    assert st == expected, lib.argext_status_string(st)
    written = list((I64 * 8).from_address(out.data))
    if expected == OK:
        assert written[0] == (5 if name == "argext_reduce_argmax" else 1)  # 9 at 5; first 1 at 1
    else:
        assert written == [SENTINEL] * 8, "an error status wrote into the output"


def test_hardmax_descriptor_checks(lib):
    o = (ctypes.c_float * 6)(*([-1.0] * 6))
    out = tensor(o, FLOAT32, [2, 3])
    cases = [
        (good(), out, -1, 13, OK),
        (None, out, 1, 13, NULL_),
        (good(), None, 1, 13, NULL_),
        (good(), out, 1, 12, ATTRIBUTE),
        (good(), out, -1, 1, AXIS),
        (good(), out, 2, 11, AXIS),
        (good(), tensor(o, FLOAT32, [3, 2]), 1, 13, OUTPUT),
        (good(), tensor(o, INT64, [2, 3]), 1, 13, OUTPUT),
        (good(), tensor(o, FLOAT32, [6]), 0, 13, OUTPUT),
        (tensor(X, FLOAT32, [2, -3]), out, 1, 13, SHAPE),
    ]
    for data, output, axis, version, expected in cases:
        before = list(o)
        st = lib.argext_hardmax(data, output, axis, version)
        assert st == expected, (axis, version, lib.argext_status_string(st))
        if expected == OK:
            assert list(o) == [0, 0, 1, 0, 0, 1]  # rows [3,1,4], [1,5,9]
            o[:] = [-1.0] * 6
        else:
            assert list(o) == before


def test_misc_entry_points(lib):
    assert lib.argext_version().decode() == argext.__version__
    assert lib.argext_status_string(OK) == b"success"
    assert lib.argext_status_string(99) == b"unknown status"
    assert lib.argext_dtype_size(12) == 0 and lib.argext_dtype_size(-1) == 0
    assert lib.argext_set_isa(99) == ERR_ISA and lib.argext_set_isa(-1) == ERR_ISA
    # ARGEXT_SIMD=OFF (the prefix fixture): the baseline is the one level, whatever the CPU.
    assert lib.argext_isa_best() == 0  # ARGEXT_ISA_BASELINE
    assert [lib.argext_isa_supported(isa) for isa in range(8)] == [1, 0, 0, 0, 0, 0, 0, 0]


# ---------------------------------------------------------------------------
# Extension modules reaching the kernels through the capsule.

def test_headers_are_shipped():
    include = Path(argext.get_include())
    assert (include / "argext.h").is_file() and (include / "argext_capi.h").is_file()
    assert f'ARGEXT_VERSION_STRING "{argext.__version__}"' in (include / "argext.h").read_text()
    assert (Path(argext.__file__).parent / "capi.pxd").is_file()
    assert type(argext._C_API).__name__ == "PyCapsule"


def build_extension(cc, c_source, tmp_path, name):
    paths = sysconfig.get_paths()
    target = tmp_path / (name + sysconfig.get_config_var("EXT_SUFFIX"))
    flags = ["-undefined", "dynamic_lookup"] if sys.platform == "darwin" else []
    run([cc, "-shared", "-fPIC", "-O1", "-Wall", "-Wextra", "-I", paths["include"],
         "-I", argext.get_include(), *flags, c_source, "-o", target])
    spec = importlib.util.spec_from_file_location(name, target)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def capsule_module(cc, tmp_path_factory):
    if sys.platform == "win32":
        pytest.skip("the test builds extensions with a Unix-style compiler command")
    return build_extension(cc, EXAMPLES / "capsule_module.c", tmp_path_factory.mktemp("capsule"),
                           "capsule_module")


def sample(dtype, shape, rng):
    dtype = np.dtype(dtype)
    x = rng.integers(0, 5, size=shape).astype(dtype)  # small range: ties
    if dtype.kind == "f":
        x.flat[rng.choice(x.size, 3, replace=False)] = np.nan
    return x


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "int16", "int32",
                                   "int64", "uint8", "uint16", "uint32", "uint64"])
def test_capsule_extension_matches_numpy(capsule_module, dtype):
    rng = np.random.default_rng(61)
    x = sample(dtype, (5, 6, 7), rng)
    views = [x, x.transpose(2, 0, 1), x[::-1, ::2, 1:], np.asfortranarray(x)]
    for v in views:
        for axis in range(-v.ndim, v.ndim):
            for last in (0, 1):
                want = arg_reference(v, axis=axis, keepdims=0, select_last_index=last)
                assert capsule_module.argmax(v, axis, last) == want.ravel().tolist()


def test_capsule_extension_shares_the_isa_and_reports_errors(capsule_module):
    assert capsule_module.kernel_isa() == argext.get_isa()
    with pytest.raises(ValueError, match="axis out of range"):
        capsule_module.argmax(np.zeros((2, 3)), 2)
    with pytest.raises(ValueError, match="empty axis"):
        capsule_module.argmax(np.zeros((2, 0)), 1)


def test_cython_cimport_module_matches_numpy(cc, tmp_path):
    if sys.platform == "win32":
        pytest.skip("the test builds extensions with a Unix-style compiler command")
    pytest.importorskip("Cython")
    c_source = tmp_path / "cython_module.c"
    # `cimport argext.capi` finds the installed .pxd files on sys.path.
    run([sys.executable, "-I", "-m", "cython", "-3", EXAMPLES / "cython_module.pyx",
         "-o", c_source])
    module = build_extension(cc, c_source, tmp_path, "cython_module")
    rng = np.random.default_rng(62)
    x = sample("float64", (9, 13), rng)
    for v in (x, x[::-1, ::3], x.T, np.zeros((0, 4))):
        for last in (False, True):
            want = arg_reference(v, axis=1, keepdims=0, select_last_index=last, op="min")
            np.testing.assert_array_equal(module.argmin_rows(v, last), want)
    with pytest.raises(ValueError, match="empty axis"):
        module.argmin_rows(np.zeros((3, 0)))


ABI_PROBE = """
import ctypes, sys, types
abi, api = {abi}, {api}
lib = ctypes.CDLL({lib!r})
class Table(ctypes.Structure):
    _fields_ = [("abi", ctypes.c_uint), ("api", ctypes.c_uint), ("version", ctypes.c_void_p)]
table = Table(abi, api, ctypes.cast(lib.argext_version, ctypes.c_void_p))
new = ctypes.pythonapi.PyCapsule_New
new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
fake = types.ModuleType("argext")
fake._C_API = new(ctypes.addressof(table), b"argext._C_API", None)
sys.modules["argext"] = fake
sys.path.insert(0, {path!r})
try:
    import capsule_module
except ImportError as e:
    print(e)
"""


# The API version a module built now asks for, as the installed header says.
API_VERSION = int(re.search(r"#define ARGEXT_CAPI_API_VERSION (\d+)",
                            (Path(argext.get_include()) / "argext_capi.h").read_text())[1])


@pytest.mark.parametrize("abi, api, message", [
    (2, 1, "built against ABI version 1 but the installed argext 0.1.0 has ABI version 2"),
    (1, 1, f"needs API version {API_VERSION} but the installed argext 0.1.0 provides only 1"),
])
def test_import_argext_checks_versions(capsule_module, prefix, abi, api, message):
    """import_argext refuses a table of another ABI, or of an older API, with a clear error."""
    probe = ABI_PROBE.format(abi=abi, api=api, lib=str(shared_lib(prefix)),
                             path=str(Path(capsule_module.__file__).parent))
    out = run([sys.executable, "-I", "-c", probe])
    assert message.replace("0.1.0", argext.__version__) in out


# ---------------------------------------------------------------------------
# The README's Embedding snippets, built and run as written.

def readme_snippets(language):
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Embedding\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(rf"```{language}\n(.*?)```", section, re.S)


def test_readme_c_snippet(cc, prefix, tmp_path):
    (program,) = [s for s in readme_snippets("c") if "int main" in s]
    src = tmp_path / "rows.c"
    src.write_text(program)
    run([cc, "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", src,
         *link_flags(prefix, static=False), "-o", tmp_path / "rows"])
    x = np.array([[3, 1, 4], [1, 5, 9]], np.float32)
    assert run([tmp_path / "rows"]).split() == [str(i) for i in np.argmax(x, axis=1)]


def test_readme_capsule_snippet(cc, tmp_path):
    if sys.platform == "win32":
        pytest.skip("the test builds extensions with a Unix-style compiler command")
    (module_source,) = [s for s in readme_snippets("c") if "import_argext" in s]
    src = tmp_path / "mymod.c"
    src.write_text(module_source)
    mymod = build_extension(cc, src, tmp_path, "mymod")
    for values in [(1.0, 7.0, 3.0), (2.0, 2.0, -1.0), (1.0, np.nan, np.nan), (-0.0, 0.0, -1.0)]:
        assert mymod.best_of_three(*values) == np.argmax(values)


def test_readme_cython_snippet(cc, tmp_path):
    if sys.platform == "win32":
        pytest.skip("the test builds extensions with a Unix-style compiler command")
    pytest.importorskip("Cython")
    (module_source,) = readme_snippets("cython")
    pyx = tmp_path / "rowmax.pyx"
    pyx.write_text(module_source)
    run([sys.executable, "-I", "-m", "cython", "-3", pyx, "-o", tmp_path / "rowmax.c"])
    rowmax = build_extension(cc, tmp_path / "rowmax.c", tmp_path, "rowmax")
    x = sample("float32", (6, 10), np.random.default_rng(63))
    assert rowmax.row_argmax(x) == np.argmax(x, axis=1).tolist()


# Hypothesis fuzzing of the C entry points' descriptor validation: random requests, most
# of them broken in one way, through ctypes. The status must say OK exactly when an
# independent rule says the request is valid; then the result must equal NumPy's, and
# otherwise the output must be untouched. A crash fails the whole run.
FAULTS = ["none"] * 4 + ["negative dim", "overflowing dims", "bad dtype", "rank past the limit",
                         "negative rank", "output dtype", "output shape", "NULL data",
                         "NULL output", "NULL shape"]
FUZZ_DTYPES = {FLOAT32: np.float32, INT8: np.int8, INT64: np.int64}


@st.composite
def fuzz_requests(draw):
    rank = draw(st.integers(0, 4))
    return dict(
        op=draw(st.sampled_from(["argext_argmax", "argext_argmin"])),
        dtype=draw(st.sampled_from(sorted(FUZZ_DTYPES))),
        shape=draw(st.lists(st.integers(0, 5), min_size=rank, max_size=rank)),
        steps=draw(st.lists(st.sampled_from([1, 2, -1, -2]), min_size=rank, max_size=rank)),
        axis=draw(st.integers(-5, 5)),
        keepdims=draw(st.sampled_from([0, 1, 1, 2, -1])),
        last=draw(st.sampled_from([0, 0, 1, 3])),
        fault=draw(st.sampled_from(FAULTS)),
        seed=draw(st.integers(0, 2**32 - 1)),
    )


@settings(max_examples=1500, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(q=fuzz_requests())
def test_fuzz_argmax_descriptors(lib, q):
    rank, fault = len(q["shape"]), q["fault"]
    rng = np.random.default_rng(q["seed"])
    base_shape = [(n - 1) * abs(s) + 1 if n else 0 for n, s in zip(q["shape"], q["steps"])]
    base = rng.integers(-3, 4, size=base_shape).astype(FUZZ_DTYPES[q["dtype"]])
    x = base[tuple(slice(None, None, s) for s in q["steps"])] if rank else base
    shape, strides = list(x.shape), list(x.strides)
    axis, keepdims, last = q["axis"], q["keepdims"], q["last"]
    valid_axis = -rank <= axis < rank
    if valid_axis:
        a = axis % rank
        out_shape = shape[:a] + [1] * (keepdims == 1) + shape[a + 1:]
    else:
        out_shape = [1]
    out = np.full(max(int(np.prod(out_shape)), 1) + 4, SENTINEL, np.int64)

    dtype, out_dtype, in_rank, out_rank = q["dtype"], INT64, rank, len(out_shape)
    data_ptr, shape_arg = x.ctypes.data, shape
    if fault == "negative dim" and rank:
        shape_arg = shape[:-1] + [-1]
    elif fault == "overflowing dims":
        shape_arg, strides, in_rank = [2**62, 2**62], [8, 8], 2
    elif fault == "bad dtype":
        dtype = q["seed"] % 2 * 99 - 1  # -1 or 98
    elif fault == "rank past the limit":
        shape_arg, strides, in_rank = [1] * (MAX_RANK + 1), [8] * (MAX_RANK + 1), MAX_RANK + 1
    elif fault == "negative rank":
        in_rank = -1
    elif fault == "output dtype":
        out_dtype = INT32
    elif fault == "output shape":
        out_shape = out_shape + [1]
        out_rank = len(out_shape)
    elif fault == "NULL data":
        data_ptr = None
    data = Tensor(data_ptr, dtype, in_rank, int64s(shape_arg), int64s(strides))
    if fault == "NULL shape" and rank:
        data.shape = None
    output = Tensor(out.ctypes.data, out_dtype, out_rank, int64s(out_shape), None)
    st_ = getattr(lib, q["op"])(None if fault == "NULL output" else ctypes.byref(data),
                                ctypes.byref(output), axis, keepdims, last)

    structurally_ok = (fault == "none" or (fault == "NULL data" and x.size == 0)
                       or (fault == "negative dim" and rank == 0)
                       or (fault == "NULL shape" and rank == 0))
    valid = (structurally_ok and rank >= 1 and valid_axis and keepdims in (0, 1)
             and last in (0, 1) and shape[axis % rank] > 0)
    assert (st_ == OK) == valid, (q, lib.argext_status_string(st_))
    if valid:
        op = "max" if q["op"] == "argext_argmax" else "min"
        want = arg_reference(x, axis, keepdims, last, op).ravel()
        assert out[:want.size].tolist() == want.tolist()
        assert (out[want.size:] == SENTINEL).all()
    else:
        assert (out == SENTINEL).all(), "a refused call wrote into the output"


# ---------------------------------------------------------------------------
# The CMake package: find_package(argext CONFIG REQUIRED) from a C++ and a C consumer.

CONSUMER_CMAKE = """cmake_minimum_required(VERSION 3.16)
project(consumer LANGUAGES C CXX)
find_package(argext {version} CONFIG REQUIRED)
message(STATUS "found argext ${{argext_VERSION}}")
add_executable(rows_cpp rows.cpp)
set_target_properties(rows_cpp PROPERTIES CXX_STANDARD 11 CXX_STANDARD_REQUIRED ON)
target_link_libraries(rows_cpp PRIVATE argext::argext)
add_executable(cols_c cols.c)
set_target_properties(cols_c PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON)
target_link_libraries(cols_c PRIVATE argext::argext_static)
"""

# ArgMax along axis 1 with select_last_index=1 of a float32 matrix read from a file.
CONSUMER_CPP = r"""#include <argext.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    const int64_t shape[2] = {std::atoll(argv[2]), std::atoll(argv[3])};
    std::vector<float> x(static_cast<size_t>(shape[0] * shape[1]));
    std::FILE *f = std::fopen(argv[1], "rb");
    if (!f || std::fread(x.data(), sizeof(float), x.size(), f) != x.size())
        return 3;
    std::fclose(f);
    std::vector<int64_t> best(static_cast<size_t>(shape[0]));
    argext_tensor in = {x.data(), ARGEXT_FLOAT32, 2, shape, nullptr};
    argext_tensor out = {best.data(), ARGEXT_INT64, 1, shape, nullptr};
    argext_status st = argext_argmax(&in, &out, 1, 0, 1);
    if (st != ARGEXT_OK) {
        std::fprintf(stderr, "%s\n", argext_status_string(st));
        return 1;
    }
    for (int64_t i : best)
        std::printf("%lld ", static_cast<long long>(i));
    std::printf("\n");
    return 0;
}
"""

# ArgMin along axis 0 (keepdims) of the same matrix, in C against the static library.
CONSUMER_C = r"""#include <argext.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int64_t shape[2], out_shape[2], j;
    float *x;
    int64_t *best;
    FILE *f;
    if (argc != 4)
        return 2;
    shape[0] = atoll(argv[2]);
    shape[1] = atoll(argv[3]);
    out_shape[0] = 1;
    out_shape[1] = shape[1];
    x = malloc(sizeof(float) * (size_t)(shape[0] * shape[1]));
    best = malloc(sizeof(int64_t) * (size_t)shape[1]);
    f = fopen(argv[1], "rb");
    if (!x || !best || !f || fread(x, sizeof(float), (size_t)(shape[0] * shape[1]), f) != (size_t)(shape[0] * shape[1]))
        return 3;
    fclose(f);
    {
        argext_tensor in = {NULL, ARGEXT_FLOAT32, 2, NULL, NULL};
        argext_tensor out = {NULL, ARGEXT_INT64, 2, NULL, NULL};
        argext_status st;
        in.data = x;
        in.shape = shape;
        out.data = best;
        out.shape = out_shape;
        st = argext_argmin(&in, &out, 0, 1, 0);
        if (st != ARGEXT_OK) {
            fprintf(stderr, "%s\n", argext_status_string(st));
            return 1;
        }
    }
    for (j = 0; j < shape[1]; j++)
        printf("%lld ", (long long)best[j]);
    printf("\n");
    free(x);
    free(best);
    return 0;
}
"""


def test_cmake_package_files(prefix):
    hits = sorted(prefix.glob("lib*/cmake/argext"))
    assert hits, f"no lib*/cmake/argext under {prefix}"
    config = hits[0]
    for name in ("argextConfig.cmake", "argextConfigVersion.cmake", "argextTargets.cmake"):
        assert (config / name).is_file(), name
    targets = (config / "argextTargets.cmake").read_text()
    assert "add_library(argext::argext SHARED IMPORTED)" in targets
    assert "add_library(argext::argext_static STATIC IMPORTED)" in targets


@pytest.fixture(scope="module")
def cmake_consumer(prefix, tmp_path_factory):
    """The consumers above, configured against the installed package and built."""
    src = tmp_path_factory.mktemp("consumer")
    (src / "CMakeLists.txt").write_text(CONSUMER_CMAKE.format(version=argext.__version__))
    (src / "rows.cpp").write_text(CONSUMER_CPP)
    (src / "cols.c").write_text(CONSUMER_C)
    build = src / "build"
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    configured = run([CMAKE, "-S", src, "-B", build, f"-DCMAKE_PREFIX_PATH={prefix}", *generator])
    assert f"found argext {argext.__version__}" in configured
    run([CMAKE, "--build", build])
    return build


def test_cmake_package_consumers_match_numpy(cmake_consumer, tmp_path):
    if shutil.which("c++") is None and shutil.which("g++") is None and shutil.which("clang++") is None:
        pytest.skip("no C++ compiler on PATH")
    rng = np.random.default_rng(14)
    x = rng.integers(-2, 3, size=(23, 17)).astype(np.float32)  # many ties
    x[3, [4, 9]] = np.nan
    x[:, 5] = -0.0
    x[7, 5] = 0.0
    x[11, 0] = np.nan
    data = tmp_path / "x.f32"
    x.tofile(data)
    exe = {p.stem: p for p in cmake_consumer.rglob("*") if p.stem in ("rows_cpp", "cols_c") and p.is_file()}
    rows = run([exe["rows_cpp"], data, *map(str, x.shape)]).split()
    cols = run([exe["cols_c"], data, *map(str, x.shape)]).split()
    assert rows == [str(i) for i in arg_reference(x, axis=1, keepdims=0, select_last_index=1)]
    assert cols == [str(i) for i in arg_reference(x, axis=0, keepdims=1, op="min").ravel()]


def test_cmake_package_refuses_another_major_version(prefix, tmp_path):
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\nproject(p LANGUAGES C)\n"
        "find_package(argext 99.0 CONFIG REQUIRED)\n")
    p = subprocess.run([CMAKE, "-S", tmp_path, "-B", tmp_path / "b", f"-DCMAKE_PREFIX_PATH={prefix}"],
                       capture_output=True, text=True)
    assert p.returncode != 0 and "version found is not compatible" in p.stderr, p.stderr


def test_readme_cmake_snippet(prefix, tmp_path):
    if shutil.which("c++") is None and shutil.which("g++") is None and shutil.which("clang++") is None:
        pytest.skip("no C++ compiler on PATH")
    (project,) = readme_snippets("cmake")
    (tmp_path / "CMakeLists.txt").write_text(project)
    (tmp_path / "app.cpp").write_text(CONSUMER_CPP)
    run([CMAKE, "-S", tmp_path, "-B", tmp_path / "b", f"-DCMAKE_PREFIX_PATH={prefix}"])
    run([CMAKE, "--build", tmp_path / "b"])
    x = np.array([[3, 9, 9], [1, 0, 1]], np.float32)
    x.tofile(tmp_path / "x.f32")
    (app,) = [p for p in (tmp_path / "b").rglob("app") if p.is_file()]
    assert run([app, tmp_path / "x.f32", "2", "3"]).split() == ["2", "2"]  # last maxima
